/*
 * test_cc_validate: the SPIR-V validator follows the options the driver
 * derives from the device (struct sc_validator_options), and its cached
 * verdicts never leak from one set of options to another:
 * - scalar: a vec3 array at stride 12 is valid with scalar block layout,
 *   invalid without, in either order and again after both are cached;
 * - std430_ubo: a uniform block at stride 4 is valid only with
 *   uniformBufferStandardLayout (or scalar layout);
 * - env: a SPIR-V 1.5 module is valid for Vulkan 1.2 and 1.3, and refused
 *   for Vulkan 1.0 and 1.1, whose environments stop at SPIR-V 1.0 and 1.3.
 */
#include <string.h>

#include "sct.h"

static const struct sc_binding storage[2] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                             {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0}};
static const struct sc_binding ubo_storage[2] = {{0, SC_DESC_UNIFORM_BUFFER, 1, 0, 0},
                                                 {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0}};

/* Compiles name under v; checks the verdict and, when refused, that the
 * message is the validator's and mentions `needle`. */
static void expect(const char *name, const struct sc_set_layout *set,
                   const struct sc_validator_options *v, bool valid, const char *needle,
                   const char *what)
{
   size_t count;
   uint32_t *words = sct_spirv(name, &count);
   struct sct_opts so;
   sct_options(&so, 32, 0, set, 1);
   so.o.validator = *v;
   char err[1024];
   struct sc_program p;
   bool ok = sc_compile(words, count, &so.o, &p, err, sizeof(err));
   if (ok)
      sc_program_free(&p);
   HWT_CHECK(ok == valid, "%s: %s%s", what, ok ? "compiled" : "refused: ", ok ? "" : err);
   if (!ok && !valid)
      HWT_CHECK(strstr(err, "invalid SPIR-V") && strstr(err, needle),
                "%s: the refusal \"%s\" does not mention \"%s\"", what, err, needle);
   free(words);
}

static void test_scalar(void)
{
   const struct sc_set_layout set = {2, storage};
   const struct sc_validator_options on = {.scalar_block_layout = true};
   const struct sc_validator_options off = {0};
   /* Refused first, then allowed: the cached "invalid" must not stick. */
   expect("layout_scalar", &set, &off, false, "12", "scalar off (first)");
   expect("layout_scalar", &set, &on, true, NULL, "scalar on (after off)");
   /* And both again, now from the cache. */
   expect("layout_scalar", &set, &off, false, "12", "scalar off (cached)");
   expect("layout_scalar", &set, &on, true, NULL, "scalar on (cached)");
}

static void test_std430_ubo(void)
{
   const struct sc_set_layout set = {2, ubo_storage};
   const struct sc_validator_options std = {.uniform_buffer_standard_layout = true};
   const struct sc_validator_options scalar = {.scalar_block_layout = true};
   const struct sc_validator_options none = {0};
   expect("layout_std430_ubo", &set, &std, true, NULL, "uniformBufferStandardLayout");
   expect("layout_std430_ubo", &set, &none, false, "16", "std140 rules");
   expect("layout_std430_ubo", &set, &scalar, true, NULL, "scalar layout");
}

static void test_env(void)
{
   /* layout_scalar is SPIR-V 1.5 (glslc for Vulkan 1.2). */
   const struct sc_set_layout set = {2, storage};
   const struct sc_validator_options v10 = {.env = SC_VULKAN_1_0};
   const struct sc_validator_options v11 = {.env = SC_VULKAN_1_1, .relaxed_block_layout = true};
   const struct sc_validator_options v12 = {.env = SC_VULKAN_1_2, .relaxed_block_layout = true};
   const struct sc_validator_options v13 = {.env = SC_VULKAN_1_3, .relaxed_block_layout = true};
   const struct sc_validator_options scalar12 = {.env = SC_VULKAN_1_2, .scalar_block_layout = true};
   expect("layout_scalar", &set, &v10, false, "version", "Vulkan 1.0");
   expect("layout_scalar", &set, &v11, false, "version", "Vulkan 1.1");
   /* Valid SPIR-V 1.5, but stride 12 needs scalar layout in every version. */
   expect("layout_scalar", &set, &v12, false, "12", "Vulkan 1.2 without scalar layout");
   expect("layout_scalar", &set, &v13, false, "12", "Vulkan 1.3 without scalar layout");
   expect("layout_scalar", &set, &scalar12, true, NULL, "Vulkan 1.2 with scalar layout");
}

int main(void)
{
   HWT_RUN(test_scalar);
   HWT_RUN(test_std430_ubo);
   HWT_RUN(test_env);
   return hwt_finish();
}
