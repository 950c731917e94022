/*
 * Validation with SPIRV-Tools: the optimizer and the translator assume
 * valid input. The environment (Vulkan 1.0-1.3) and the block layout rules
 * come from the device (struct sc_validator_options). Verdicts are cached
 * per process by a 128-bit hash of the module and the options, so a module
 * is validated once per set of rules: the same module may be valid with
 * scalarBlockLayout enabled and invalid without.
 */
#include "sc_internal.h"

#include <pthread.h>
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_SLOTS 4096u

struct verdict {
   uint64_t h[2];
   bool valid;
   char *message;          /* why not, for invalid modules */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct verdict cache[CACHE_SLOTS];
static spv_context contexts[SC_VULKAN_1_3 + 1];

/* The cache and the contexts live as long as the library: the loader
 * unloads the driver (dlclose) when the last instance goes, and a driver
 * loaded and unloaded again must not grow by one set of contexts each time. */
__attribute__((destructor)) static void release_cache(void)
{
   for (size_t i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++) {
      spvContextDestroy(contexts[i]);
      contexts[i] = NULL;
   }
   for (size_t i = 0; i < CACHE_SLOTS; i++) {
      free(cache[i].message);
      cache[i] = (struct verdict){0};
   }
}

/* The options as one word, folded into the verdict's hash. */
static uint32_t options_word(const struct sc_validator_options *o)
{
   uint32_t env = o->env == SC_VULKAN_DEFAULT ? SC_VULKAN_1_3 : o->env;
   return env | (uint32_t)o->relaxed_block_layout << 4 |
          (uint32_t)o->uniform_buffer_standard_layout << 5 |
          (uint32_t)o->scalar_block_layout << 6 |
          (uint32_t)o->workgroup_scalar_block_layout << 7 |
          (uint32_t)o->allow_local_size_id << 8;
}

static void hash(const uint32_t *words, size_t count, uint32_t options, uint64_t h[2])
{
   h[0] = (0xcbf29ce484222325ull ^ count) * 0x100000001b3ull ^ options;
   h[1] = 0x9e3779b97f4a7c15ull ^ (count * 31) ^ ((uint64_t)options << 32);
   for (size_t i = 0; i < count; i++) {
      h[0] = (h[0] ^ words[i]) * 0x100000001b3ull;
      h[1] = (h[1] ^ words[i]) * 0xff51afd7ed558ccdull + (h[1] >> 29);
   }
}

static struct verdict *slot(const uint64_t h[2])
{
   return &cache[h[0] % CACHE_SLOTS];
}

static spv_target_env target_env(enum sc_vulkan_env env)
{
   switch (env) {
   case SC_VULKAN_1_0: return SPV_ENV_VULKAN_1_0;
   case SC_VULKAN_1_1: return SPV_ENV_VULKAN_1_1;
   case SC_VULKAN_1_2: return SPV_ENV_VULKAN_1_2;
   default: return SPV_ENV_VULKAN_1_3;
   }
}

void sc_validate(const uint32_t *words, size_t count, const struct sc_validator_options *o,
                 struct sc_error *e)
{
   uint32_t word = options_word(o);
   enum sc_vulkan_env env = (enum sc_vulkan_env)(word & 15);
   uint64_t h[2];
   hash(words, count, word, h);
   pthread_mutex_lock(&lock);
   struct verdict *v = slot(h);
   if (v->h[0] == h[0] && v->h[1] == h[1] && (v->valid || v->message)) {
      bool valid = v->valid;
      char why[512];
      snprintf(why, sizeof(why), "%s", valid ? "" : v->message);
      pthread_mutex_unlock(&lock);
      if (!valid)
         sc_fail(e, "invalid SPIR-V: %s", why);
      return;
   }
   if (!contexts[env])
      contexts[env] = spvContextCreate(target_env(env));
   spv_context context = contexts[env];
   pthread_mutex_unlock(&lock);

   spv_const_binary_t binary = {words, count};
   spv_diagnostic diag = NULL;
   spv_validator_options options = spvValidatorOptionsCreate();
   spvValidatorOptionsSetRelaxBlockLayout(options, o->relaxed_block_layout);
   spvValidatorOptionsSetUniformBufferStandardLayout(options, o->uniform_buffer_standard_layout);
   spvValidatorOptionsSetScalarBlockLayout(options, o->scalar_block_layout);
   spvValidatorOptionsSetWorkgroupScalarBlockLayout(options, o->workgroup_scalar_block_layout);
   spvValidatorOptionsSetAllowLocalSizeId(options, o->allow_local_size_id);
   spv_result_t r = spvValidateWithOptions(context, options, &binary, &diag);
   spvValidatorOptionsDestroy(options);
   char why[512] = "";
   if (r != SPV_SUCCESS)
      snprintf(why, sizeof(why), "%s", diag && diag->error ? diag->error : "rejected");
   spvDiagnosticDestroy(diag);

   pthread_mutex_lock(&lock);
   v = slot(h);
   free(v->message);
   v->h[0] = h[0];
   v->h[1] = h[1];
   v->valid = r == SPV_SUCCESS;
   v->message = v->valid ? NULL : strdup(why);
   pthread_mutex_unlock(&lock);
   if (r != SPV_SUCCESS)
      sc_fail(e, "invalid SPIR-V: %s", why);
}
