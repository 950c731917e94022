/*
 * A machine-learning kernel set, written the way ggml-style runtimes write
 * their Vulkan kernels (tests/vulkan/shaders/ml; formats, references and
 * error bounds in tests/common/sgt_ml.h), each subtest one kernel checked
 * against a double-precision C reference within a bound derived from the
 * operations the kernel does:
 *
 * - matvec_f16, matvec_q8, matvec_q4: y = A x, A in f16 or in 8- or 4-bit
 *   blocks with f16 scales, f32 arithmetic and accumulation, rows per
 *   workgroup from a specialization constant, subgroupAdd + shared memory;
 * - matvec_f16_h (f16 arithmetic, an f16 clustered subgroupAdd) and
 *   matvec_f16_h_shuffle (the same clusters from subgroupShuffleXor, for
 *   devices without clustered operations);
 * - quantize_q8 (clustered subgroupMax of 8 lanes), quantize_q8_shuffle:
 *   activations to 8-bit blocks;
 * - matvec_q8_dot, matvec_q4_dot: quantized weights times quantized
 *   activations with packed 4x8-bit integer dot products (OpSDotAccSat,
 *   OpSUDot, OpSDot); matvec_q8_i8: the same without them, in int8 and
 *   int16 arithmetic;
 * - matmul_f16, matmul_f16_h, matmul_q8, matmul_q4: C = A B^T through
 *   shared-memory tiles with barriers, tile sizes from specialization
 *   constants (several shapes each), edges not multiples of the tiles;
 * - softmax (online, with a mask), softmax_h (an f16 subgroupMax);
 * - rmsnorm, rope (both pair layouts), gelu_silu;
 * - qkv: RMS norm and three q8 matrix-vector products in one dispatch over
 *   12 storage buffers in one set.
 *
 * Every kernel runs at every subgroup size the device can be asked for
 * (requiredSubgroupSize, each power of two from minSubgroupSize to
 * maxSubgroupSize: softgpu's warp widths 8 to 64), with full subgroups
 * (computeFullSubgroups) where offered; without subgroupSizeControl, at
 * the default size only (a SKIP line says so). The device is created with
 * every feature it advertises. A kernel whose features are missing prints
 * one SKIP line naming them and is left out; a kernel that runs must be
 * right. Run whole, the test exits 77 (CTest's skip) when no kernel could
 * run at all; a subtest named on the command line exits 0 when it skips,
 * as tools/check-feature-tests expects of the subtests
 * tests/vulkan/feature_tests.inc maps features to.
 *
 *   test_compute_ml [subtest [width]]     (width: one subgroup size only)
 *
 * On lavapipe (see tests/common/sgt_compute.h):
 *   VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
 *   VK_LOADER_LAYERS_DISABLE='~implicit~' build/tests/vulkan/test_compute_ml
 */
#include <string.h>

#include "sgt_compute.h"
#include "sgt_ml.h"

/* ---- what a kernel needs ----------------------------------------------------- */

enum {
   NEED_STORAGE16 = 1u << 0,
   NEED_STORAGE8 = 1u << 1,
   NEED_FLOAT16 = 1u << 2,
   NEED_INT8 = 1u << 3,
   NEED_INT16 = 1u << 4,
   NEED_DOT = 1u << 5,
   NEED_F16_SUBGROUP = 1u << 6,   /* subgroup operations on f16 */
   NEED_ARITH = 1u << 7,
   NEED_CLUSTERED = 1u << 8,
   NEED_SHUFFLE = 1u << 9,
   NEED_CLUSTERS = 1u << 10,      /* clustered operations or shuffles (quantize_q8 first) */
   NEED_12_BUFFERS = 1u << 11,
};

static const struct {
   uint32_t bit;
   const char *name;
} need_names[] = {
   {NEED_STORAGE16, "storageBuffer16BitAccess"},
   {NEED_STORAGE8, "storageBuffer8BitAccess"},
   {NEED_FLOAT16, "shaderFloat16"},
   {NEED_INT8, "shaderInt8"},
   {NEED_INT16, "shaderInt16"},
   {NEED_DOT, "shaderIntegerDotProduct"},
   {NEED_F16_SUBGROUP, "shaderSubgroupExtendedTypes"},
   {NEED_ARITH, "subgroup arithmetic operations"},
   {NEED_CLUSTERED, "subgroup clustered operations"},
   {NEED_SHUFFLE, "subgroup shuffles"},
   {NEED_CLUSTERS, "subgroup clustered operations or shuffles"},
   {NEED_12_BUFFERS, "12 storage buffers per stage and set"},
};

static bool has_ops(const struct sgt_cdev *d, VkSubgroupFeatureFlags ops)
{
   return (d->props11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
          (d->props11.subgroupSupportedOperations & ops) == ops;
}

static bool has(const struct sgt_cdev *d, uint32_t need)
{
   const VkPhysicalDeviceLimits *l = &d->props.limits;
   switch (need) {
   case NEED_STORAGE16: return d->features11.storageBuffer16BitAccess;
   case NEED_STORAGE8: return d->features12.storageBuffer8BitAccess;
   case NEED_FLOAT16: return d->features12.shaderFloat16;
   case NEED_INT8: return d->features12.shaderInt8;
   case NEED_INT16: return d->features.shaderInt16;
   case NEED_DOT: return d->features13.shaderIntegerDotProduct;
   case NEED_F16_SUBGROUP: return d->features12.shaderSubgroupExtendedTypes;
   case NEED_ARITH: return has_ops(d, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
   case NEED_CLUSTERED: return has_ops(d, VK_SUBGROUP_FEATURE_CLUSTERED_BIT);
   case NEED_SHUFFLE: return has_ops(d, VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
   case NEED_CLUSTERS: return has(d, NEED_CLUSTERED) || has(d, NEED_SHUFFLE);
   case NEED_12_BUFFERS:
      return l->maxPerStageDescriptorStorageBuffers >= 12 &&
             l->maxDescriptorSetStorageBuffers >= 12 && l->maxPerStageResources >= 12;
   }
   return false;
}

/* Everything `needs` names is there; else one SKIP line names what is not. */
static bool check_needs(const struct sgt_cdev *d, const char *kernel, uint32_t needs)
{
   char missing[512] = "";
   for (size_t i = 0; i < sizeof(need_names) / sizeof(need_names[0]); i++) {
      if ((needs & need_names[i].bit) && !has(d, need_names[i].bit)) {
         if (missing[0])
            strcat(missing, ", ");
         strcat(missing, need_names[i].name);
      }
   }
   if (missing[0])
      sgt_skip(kernel, "not advertised: %s", missing);
   return !missing[0];
}

/* ---- subgroup sizes ------------------------------------------------------------- */

/* The subgroup size of test_compute_ml's second argument (0: every size). */
static uint32_t only_width;
/* Kernels that ran at one size at least (whole runs of nothing exit 77). */
static uint32_t kernels_ran;

struct widths {
   uint32_t n;
   uint32_t w[8];   /* 0: no required size (the device's default) */
};

/* The sizes a kernel with workgroups of `wg` invocations runs at. */
static void widths_of(const struct sgt_cdev *d, const char *kernel, uint32_t wg, struct widths *out)
{
   out->n = 0;
   if (!d->features13.subgroupSizeControl ||
       !(d->props13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
      sgt_skip(kernel, "at subgroup sizes other than the default %u: subgroupSizeControl is "
               "not advertised for compute", d->props11.subgroupSize);
      out->w[out->n++] = 0;
      return;
   }
   for (uint32_t w = d->props13.minSubgroupSize; w && w <= d->props13.maxSubgroupSize && out->n < 8;
        w *= 2) {
      if (only_width && w != only_width)
         continue;
      /* VkPipelineShaderStageRequiredSubgroupSizeCreateInfo's valid usage. */
      if (wg > w * d->props13.maxComputeWorkgroupSubgroups) {
         sgt_skip(kernel, "at subgroup size %u: %u invocations exceed maxComputeWorkgroupSubgroups",
                  w, wg);
         continue;
      }
      out->w[out->n++] = w;
   }
   if (only_width && !out->n)
      fprintf(stderr, "   %s: subgroup size %u is not among the device's\n", kernel, only_width);
}

/* ---- pipelines ------------------------------------------------------------------ */

struct ml_pipe {
   VkShaderModule module;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet set;
   uint32_t push_bytes;
   uint32_t width;          /* the subgroup size it runs at */
   uint32_t wg;             /* its workgroup size */
};

/* A pipeline of shader `name` over nbuf storage buffers (binding i is
 * bufs[i]) and push constants; specialization constant i is spec[i] (0 is
 * the workgroup size); subgroup size `width` (0: the default). */
static void ml_pipe_create(struct sgt_cdev *d, struct ml_pipe *p, const char *spv, uint32_t nbuf,
                           const struct sgt_buffer *const *bufs, uint32_t push_bytes,
                           const uint32_t *spec, uint32_t nspec, uint32_t width)
{
   memset(p, 0, sizeof(*p));
   p->push_bytes = push_bytes;
   p->wg = spec[0];
   p->width = width ? width : d->props11.subgroupSize;
   VkSpecializationMapEntry entries[8];
   SGT_REQUIRE(nspec <= 8, "too many specialization constants");
   for (uint32_t i = 0; i < nspec; i++)
      entries[i] = (VkSpecializationMapEntry){i, 4 * i, 4};
   VkSpecializationInfo si = {nspec, entries, 4 * nspec, spec};
   VkPipelineShaderStageRequiredSubgroupSizeCreateInfo req = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
      .requiredSubgroupSize = width};
   /* Full subgroups: the local size must be a multiple of the required
    * size, or of maxSubgroupSize without one (valid usage). */
   uint32_t multiple = width ? width : d->props13.maxSubgroupSize;
   VkPipelineShaderStageCreateFlags flags = 0;
   if (d->features13.computeFullSubgroups && multiple && p->wg % multiple == 0)
      flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
   p->module = sgt_shader_module(d, spv);
   p->set_layout = sgt_storage_layout(d, nbuf);
   p->layout = sgt_pipeline_layout(d, 1, &p->set_layout, push_bytes);
   p->pipeline = sgt_compute_pipeline_stage(d, p->module, p->layout, &si, flags,
                                            width ? &req : NULL);
   p->pool = sgt_descriptor_pool(d, 1, 0);
   p->set = sgt_alloc_set(d, p->pool, p->set_layout);
   for (uint32_t i = 0; i < nbuf; i++)
      sgt_write_buffer(d, p->set, i, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bufs[i], 0, 0);
}

static void ml_pipe_destroy(struct sgt_cdev *d, struct ml_pipe *p)
{
   vkDestroyPipeline(d->device, p->pipeline, NULL);
   vkDestroyPipelineLayout(d->device, p->layout, NULL);
   vkDestroyDescriptorPool(d->device, p->pool, NULL);
   vkDestroyDescriptorSetLayout(d->device, p->set_layout, NULL);
   vkDestroyShaderModule(d->device, p->module, NULL);
}

static void ml_dispatch(VkCommandBuffer cmd, const struct ml_pipe *p, const void *push, uint32_t x,
                        uint32_t y)
{
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set, 0, NULL);
   vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, p->push_bytes, push);
   vkCmdDispatch(cmd, x, y, 1);
}

/* One pipeline, one dispatch, waited for. */
static void ml_run(struct sgt_cdev *d, const struct ml_pipe *p, const void *push, uint32_t x,
                   uint32_t y)
{
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   ml_dispatch(cmd, p, push, x, y);
   sgt_cmd_submit_wait(d, cmd);
}

/* ---- checking --------------------------------------------------------------------- */

struct ml_check {
   char what[96];
   uint32_t n, bad;
   double max_err, max_ratio;   /* largest |error|, largest |error| / bound */
};

static void check_begin(struct ml_check *c, const char *kernel, uint32_t width, const char *part)
{
   memset(c, 0, sizeof(*c));
   snprintf(c->what, sizeof(c->what), "%s%s%s, subgroup size %u", kernel, part ? " " : "",
            part ? part : "", width);
}

/* Result i: got, the reference want, within bound. */
static void check_value(struct ml_check *c, uint32_t i, double got, double want, double bound)
{
   double err = fabs(got - want);
   c->n++;
   if (!(err <= bound)) {   /* NaN fails too */
      if (c->bad++ < 5)
         fprintf(stderr, "   %s: result %u is %.9g, expected %.9g (error %.3g, bound %.3g)\n",
                 c->what, i, got, want, err, bound);
      return;
   }
   if (err > c->max_err)
      c->max_err = err;
   if (bound > 0 && err / bound > c->max_ratio)
      c->max_ratio = err / bound;
}

static void check_end(struct ml_check *c)
{
   SGT_CHECK(c->bad == 0, "%s: %u of %u results outside their bounds", c->what, c->bad, c->n);
   if (!c->bad)
      fprintf(stderr, "   %s: %u results, max error %.3g, at most %.3f of the bound\n", c->what,
              c->n, c->max_err, c->max_ratio);
}

static void fill_f16(uint16_t *h, size_t n, uint32_t *state, double lo, double hi)
{
   for (size_t i = 0; i < n; i++)
      h[i] = sgt_ml_half(state, lo, hi);
}

static void fill_f32(float *f, size_t n, uint32_t *state, double lo, double hi)
{
   for (size_t i = 0; i < n; i++)
      f[i] = (float)sgt_ml_uniform(state, lo, hi);
}

/* Data for f16 arithmetic: mostly positive ([-1/8, 1)). A bound for f16
 * arithmetic scales with the sum of the terms' magnitudes S; with signed
 * data S is many times |y| and the bound would hide a lost lane, while here
 * S is close to |y| and the bound (under 1% of S) catches one. The
 * negative eighth still catches a lost sign. */
#define F16_ARITH_LO (-0.125)

/* ---- matrix-vector products ------------------------------------------------------- */

enum format { F16, Q8, Q4 };

struct weights {
   enum format format;
   uint32_t M, K;
   struct sgt_buffer q, d;   /* f16: q holds the halves, d is unused */
};

static void weights_create(struct sgt_cdev *d, struct weights *w, enum format f, uint32_t M,
                           uint32_t K, uint32_t seed, double lo)
{
   memset(w, 0, sizeof(*w));
   w->format = f;
   w->M = M;
   w->K = K;
   uint32_t s = seed;
   size_t n = (size_t)M * K;
   sgt_cbuffer(d, f == F16 ? 2 * n : f == Q8 ? n : n / 2, &w->q);
   sgt_cbuffer(d, 2 * n / SGT_ML_BLOCK, &w->d);
   if (f == F16)
      fill_f16(w->q.map, n, &s, lo, 1.0);
   else if (f == Q8)
      sgt_ml_fill_q8(w->q.map, w->d.map, M, K, &s);
   else
      sgt_ml_fill_q4(w->q.map, w->d.map, M, K, &s);
}

static double weight(const struct weights *w, uint32_t m, uint32_t k)
{
   if (w->format == F16)
      return sgt_half_to_float(((const uint16_t *)w->q.map)[(size_t)m * w->K + k]);
   if (w->format == Q8)
      return sgt_ml_q8(w->q.map, w->d.map, w->K, m, k);
   return sgt_ml_q4(w->q.map, w->d.map, w->K, m, k);
}

static void weights_destroy(struct sgt_cdev *d, struct weights *w)
{
   sgt_cbuffer_destroy(d, &w->q);
   sgt_cbuffer_destroy(d, &w->d);
}

struct matvec_kernel {
   const char *name, *spv;
   enum format format;
   bool f16_arith;
   uint32_t needs;
};

static void matvec(struct sgt_cdev *d, const struct matvec_kernel *k)
{
   if (!check_needs(d, k->name, k->needs))
      return;
   /* M odd: the last workgroup has rows past the end. */
   const uint32_t M = 251, K = 1024, wg = 128, rows = k->format == F16 ? 2 : 4;
   struct widths ws;
   widths_of(d, k->name, wg, &ws);
   if (!ws.n)
      return;
   struct weights w;
   weights_create(d, &w, k->format, M, K, 11 + k->format, k->f16_arith ? F16_ARITH_LO : -1.0);
   struct sgt_buffer x, y;
   sgt_cbuffer(d, (VkDeviceSize)K * (k->format == F16 ? 2 : 4), &x);
   sgt_cbuffer(d, (VkDeviceSize)M * 4, &y);
   uint32_t s = 5;
   double *xv = malloc(K * sizeof(double));
   for (uint32_t i = 0; i < K; i++) {
      if (k->format == F16) {
         uint16_t *h = x.map;
         h[i] = sgt_ml_half(&s, k->f16_arith ? 0.0 : -1.0, 1.0);
         xv[i] = sgt_half_to_float(h[i]);
      } else {
         float *f = x.map;
         f[i] = (float)sgt_ml_uniform(&s, -1.0, 1.0);
         xv[i] = f[i];
      }
   }
   struct sgt_ml_sum *ref = calloc(M, sizeof(*ref));
   for (uint32_t m = 0; m < M; m++)
      for (uint32_t i = 0; i < K; i++)
         sgt_ml_add(&ref[m], weight(&w, m, i) * xv[i]);

   const uint32_t push[2] = {M, K};
   const uint32_t spec[2] = {wg, rows};
   for (uint32_t wi = 0; wi < ws.n; wi++) {
      struct ml_pipe p;
      const struct sgt_buffer *f16_bufs[] = {&w.q, &x, &y};
      const struct sgt_buffer *q_bufs[] = {&w.q, &w.d, &x, &y};
      if (k->format == F16)
         ml_pipe_create(d, &p, k->spv, 3, f16_bufs, 8, spec, 2, ws.w[wi]);
      else
         ml_pipe_create(d, &p, k->spv, 4, q_bufs, 8, spec, 2, ws.w[wi]);
      memset(y.map, 0xff, y.size);   /* NaN: an unwritten row fails */
      ml_run(d, &p, push, (M + rows - 1) / rows, 1);
      struct ml_check c;
      check_begin(&c, k->name, p.width, NULL);
      double slack = 0, rel;
      if (k->f16_arith)
         rel = sgt_ml_matvec_f16_bound(K, wg, p.width, &slack);
      else
         rel = sgt_ml_matvec_bound(K, k->format == Q4 ? 8 : 4, wg, p.width);
      const float *got = y.map;
      for (uint32_t m = 0; m < M; m++)
         check_value(&c, m, got[m], ref[m].value, rel * ref[m].abs + slack);
      check_end(&c);
      ml_pipe_destroy(d, &p);
   }
   kernels_ran++;
   free(ref);
   free(xv);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &y);
   weights_destroy(d, &w);
}

static const struct matvec_kernel matvec_kernels[] = {
   {"matvec_f16", SGT_SHADER("ml_matvec_f16"), F16, false, NEED_STORAGE16 | NEED_ARITH},
   {"matvec_f16_h", SGT_SHADER("ml_matvec_f16_h"), F16, true,
    NEED_STORAGE16 | NEED_FLOAT16 | NEED_F16_SUBGROUP | NEED_ARITH | NEED_CLUSTERED},
   {"matvec_f16_h_shuffle", SGT_SHADER("ml_matvec_f16_h_shuffle"), F16, true,
    NEED_STORAGE16 | NEED_FLOAT16 | NEED_F16_SUBGROUP | NEED_ARITH | NEED_SHUFFLE},
   {"matvec_q8", SGT_SHADER("ml_matvec_q8"), Q8, false,
    NEED_STORAGE8 | NEED_STORAGE16 | NEED_ARITH},
   {"matvec_q4", SGT_SHADER("ml_matvec_q4"), Q4, false,
    NEED_STORAGE8 | NEED_STORAGE16 | NEED_ARITH},
};

static void matvec_f16(struct sgt_cdev *d) { matvec(d, &matvec_kernels[0]); }
static void matvec_f16_h(struct sgt_cdev *d) { matvec(d, &matvec_kernels[1]); }
static void matvec_f16_h_shuffle(struct sgt_cdev *d) { matvec(d, &matvec_kernels[2]); }
static void matvec_q8(struct sgt_cdev *d) { matvec(d, &matvec_kernels[3]); }
static void matvec_q4(struct sgt_cdev *d) { matvec(d, &matvec_kernels[4]); }

/* ---- quantizing activations ----------------------------------------------------------- */

/* quantize.comp's output for n values (n / 4 words, n / 32 scales). */
struct quantized {
   struct sgt_buffer q, d;
};

/* Quantizes x (n f32 values) with shader spv at width `width`; the
 * quantization itself is checked against x (kernel, for messages). Leaves
 * *out zeroed when the width is too narrow for the kernel. */
static void quantize(struct sgt_cdev *d, const char *kernel, const char *spv, uint32_t width,
                     const struct sgt_buffer *x, uint32_t n, struct quantized *out)
{
   const uint32_t wg = 128;
   memset(out, 0, sizeof(*out));
   if ((width ? width : d->props11.subgroupSize) < 8) {
      /* A cluster of 8 lanes must fit a subgroup. */
      sgt_skip(kernel, "at subgroup size %u: quantize_q8 needs subgroups of 8 lanes at least",
               width ? width : d->props11.subgroupSize);
      return;
   }
   sgt_cbuffer(d, n, &out->q);
   sgt_cbuffer(d, n / SGT_ML_BLOCK * 4, &out->d);
   memset(out->q.map, 0x55, out->q.size);
   memset(out->d.map, 0xff, out->d.size);
   const struct sgt_buffer *bufs[] = {x, &out->q, &out->d};
   const uint32_t spec[1] = {wg};
   struct ml_pipe p;
   ml_pipe_create(d, &p, spv, 3, bufs, 4, spec, 1, width);
   ml_run(d, &p, &n, (n / 4 + wg - 1) / wg, 1);
   struct ml_check cq, cd;
   check_begin(&cq, kernel, p.width, "quants");
   check_begin(&cd, kernel, p.width, "scales");
   const float *xs = x->map, *ds = out->d.map;
   const int8_t *qs = out->q.map;
   for (uint32_t b = 0; b < n / SGT_ML_BLOCK; b++) {
      double amax = 0;
      for (uint32_t i = 0; i < SGT_ML_BLOCK; i++)
         amax = fmax(amax, fabs(xs[b * SGT_ML_BLOCK + i]));
      /* d = amax / 127: one division, 2.5 ulp. */
      check_value(&cd, b, ds[b], amax / 127, 2.5 * SGT_ML_ULP32 * amax / 127);
      for (uint32_t i = 0; i < SGT_ML_BLOCK; i++) {
         uint32_t e = b * SGT_ML_BLOCK + i;
         /* q = round(x * (127 / amax)): the reciprocal (2.5 ulp) and the
          * product (1 rounding) move x * 127 / amax, at most 127 in
          * magnitude, by less than 127 * 3.5 ulp. Farther than that from a
          * half, q is the nearest integer; nearer, either neighbour (and
          * GLSL's round() may take either way at a half). */
         double exact = amax > 0 ? xs[e] * 127 / amax : 0, near = round(exact);
         bool at_half = fabs(fabs(exact - trunc(exact)) - 0.5) <= 127 * 3.5 * SGT_ML_ULP32;
         check_value(&cq, e, qs[e], near, at_half ? 1 : 0);
      }
   }
   check_end(&cd);
   check_end(&cq);
   ml_pipe_destroy(d, &p);
}

static void quantized_destroy(struct sgt_cdev *d, struct quantized *q)
{
   sgt_cbuffer_destroy(d, &q->q);
   sgt_cbuffer_destroy(d, &q->d);
}

/* Activations: x in [-4, 4), except one block of zeros (amax = 0: scale 0,
 * quants 0) and one with a single non-zero value. */
static void fill_activations(float *x, uint32_t n, uint32_t seed)
{
   uint32_t s = seed;
   fill_f32(x, n, &s, -4.0, 4.0);
   memset(x + 2 * SGT_ML_BLOCK, 0, SGT_ML_BLOCK * sizeof(float));
   memset(x + 5 * SGT_ML_BLOCK, 0, SGT_ML_BLOCK * sizeof(float));
   x[5 * SGT_ML_BLOCK + 7] = -0.75f;
}

static void quantize_kernel(struct sgt_cdev *d, const char *kernel, const char *spv, uint32_t needs)
{
   if (!check_needs(d, kernel, needs))
      return;
   const uint32_t n = 8192;
   struct widths ws;
   widths_of(d, kernel, 128, &ws);
   if (!ws.n)
      return;
   struct sgt_buffer x;
   sgt_cbuffer(d, n * 4, &x);
   fill_activations(x.map, n, 21);
   for (uint32_t wi = 0; wi < ws.n; wi++) {
      struct quantized q;
      quantize(d, kernel, spv, ws.w[wi], &x, n, &q);
      if (q.q.buffer)
         quantized_destroy(d, &q);
   }
   kernels_ran++;
   sgt_cbuffer_destroy(d, &x);
}

static void quantize_q8(struct sgt_cdev *d)
{
   quantize_kernel(d, "quantize_q8", SGT_SHADER("ml_quantize"), NEED_CLUSTERED);
}

static void quantize_q8_shuffle(struct sgt_cdev *d)
{
   quantize_kernel(d, "quantize_q8_shuffle", SGT_SHADER("ml_quantize_shuffle"), NEED_SHUFFLE);
}

/* ---- quantized matrix-vector products with integer dot products --------------------------- */

struct dot_kernel {
   const char *name, *spv;
   enum format format;
   uint32_t needs;
};

static void matvec_dot(struct sgt_cdev *d, const struct dot_kernel *k)
{
   if (!check_needs(d, k->name, k->needs | NEED_CLUSTERS | NEED_ARITH))
      return;
   /* The activations are quantized first, with clusters where the device
    * has them. */
   const char *qspv = has(d, NEED_CLUSTERED) ? SGT_SHADER("ml_quantize")
                                             : SGT_SHADER("ml_quantize_shuffle");
   const uint32_t M = 251, K = 2048, wg = 64, rows = 4, blocks = K / SGT_ML_BLOCK;
   struct widths ws;
   widths_of(d, k->name, wg, &ws);
   if (!ws.n)
      return;
   struct weights w;
   weights_create(d, &w, k->format, M, K, 31 + k->format, -1.0);
   struct sgt_buffer x, y;
   sgt_cbuffer(d, K * 4, &x);
   sgt_cbuffer(d, M * 4, &y);
   fill_activations(x.map, K, 41);
   struct sgt_ml_sum *ref = calloc(M, sizeof(*ref));
   bool ran = false;
   for (uint32_t wi = 0; wi < ws.n; wi++) {
      struct quantized q;
      quantize(d, k->name, qspv, ws.w[wi], &x, K, &q);
      if (!q.q.buffer)
         continue;
      /* The reference takes the GPU's quantized activations (checked
       * above): the dot product of the quants is then exact, per block. */
      const int8_t *xq = q.q.map;
      const float *xd = q.d.map;
      const uint16_t *wd = w.d.map;
      for (uint32_t m = 0; m < M; m++) {
         ref[m] = (struct sgt_ml_sum){0, 0};
         for (uint32_t b = 0; b < blocks; b++) {
            int64_t sum = 0;
            for (uint32_t i = 0; i < SGT_ML_BLOCK; i++) {
               uint32_t e = b * SGT_ML_BLOCK + i;
               int wq = k->format == Q8 ? ((const int8_t *)w.q.map)[(size_t)m * K + e]
                                        : (int)sgt_ml_q4_nibble(w.q.map, K, m, e) - 8;
               sum += (int64_t)wq * xq[e];
            }
            sgt_ml_add(&ref[m], (double)sum * sgt_half_to_float(wd[m * blocks + b]) * xd[b]);
         }
      }
      struct ml_pipe p;
      const struct sgt_buffer *bufs[] = {&w.q, &w.d, &q.q, &q.d, &y};
      const uint32_t spec[2] = {wg, rows};
      ml_pipe_create(d, &p, k->spv, 5, bufs, 8, spec, 2, ws.w[wi]);
      memset(y.map, 0xff, y.size);
      const uint32_t push[2] = {M, K};
      ml_run(d, &p, push, (M + rows - 1) / rows, 1);
      struct ml_check c;
      check_begin(&c, k->name, p.width, NULL);
      double rel = sgt_ml_matvec_dot_bound(K, wg, p.width);
      const float *got = y.map;
      for (uint32_t m = 0; m < M; m++)
         check_value(&c, m, got[m], ref[m].value, rel * ref[m].abs);
      check_end(&c);
      ml_pipe_destroy(d, &p);
      quantized_destroy(d, &q);
      ran = true;
   }
   kernels_ran += ran;
   free(ref);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &y);
   weights_destroy(d, &w);
}

static const struct dot_kernel dot_kernels[] = {
   {"matvec_q8_dot", SGT_SHADER("ml_matvec_q8_dot"), Q8, NEED_DOT | NEED_STORAGE16},
   {"matvec_q4_dot", SGT_SHADER("ml_matvec_q4_dot"), Q4, NEED_DOT | NEED_STORAGE16},
   {"matvec_q8_i8", SGT_SHADER("ml_matvec_q8_i8"), Q8, NEED_INT8 | NEED_INT16 | NEED_STORAGE16},
};

static void matvec_q8_dot(struct sgt_cdev *d) { matvec_dot(d, &dot_kernels[0]); }
static void matvec_q4_dot(struct sgt_cdev *d) { matvec_dot(d, &dot_kernels[1]); }
static void matvec_q8_i8(struct sgt_cdev *d) { matvec_dot(d, &dot_kernels[2]); }

/* ---- matrix-matrix products ----------------------------------------------------------------- */

struct matmul_kernel {
   const char *name, *spv;
   enum format format;
   bool f16_arith;
   uint32_t needs;
};

/* Tile shapes: workgroup size, BM, BN, BK, TM, TN (matmul.comp). BK = 32
 * for the quantized formats; the last one is f16 only. */
static const uint32_t tiles[][6] = {
   {64, 32, 32, 32, 4, 4},
   {128, 64, 32, 32, 4, 4},
   {256, 64, 64, 16, 4, 4},
};

static void matmul(struct sgt_cdev *d, const struct matmul_kernel *k)
{
   if (!check_needs(d, k->name, k->needs))
      return;
   /* M and N are not multiples of any tile. */
   const uint32_t M = 120, N = 72, K = 256;
   const uint32_t shapes = k->format == F16 ? 3 : 2;
   struct weights a;
   double lo = k->f16_arith ? F16_ARITH_LO : -1.0;
   weights_create(d, &a, k->format, M, K, 51 + k->format, lo);
   struct sgt_buffer b, c;
   sgt_cbuffer(d, (VkDeviceSize)N * K * 2, &b);
   sgt_cbuffer(d, (VkDeviceSize)N * M * 4, &c);
   uint32_t s = 61;
   fill_f16(b.map, (size_t)N * K, &s, lo, 1.0);
   struct sgt_ml_sum *ref = calloc((size_t)N * M, sizeof(*ref));
   double *arow = malloc(K * sizeof(double)), *brow = malloc(K * sizeof(double));
   for (uint32_t m = 0; m < M; m++) {
      for (uint32_t i = 0; i < K; i++)
         arow[i] = weight(&a, m, i);
      for (uint32_t n = 0; n < N; n++) {
         for (uint32_t i = 0; i < K; i++)
            brow[i] = sgt_half_to_float(((const uint16_t *)b.map)[(size_t)n * K + i]);
         for (uint32_t i = 0; i < K; i++)
            sgt_ml_add(&ref[(size_t)n * M + m], arow[i] * brow[i]);
      }
   }
   double slack;
   double rel = sgt_ml_matmul_bound(K, k->f16_arith, &slack);
   bool ran = false;
   for (uint32_t t = 0; t < shapes; t++) {
      const uint32_t *spec = tiles[t];
      char shape[48];
      snprintf(shape, sizeof(shape), "tiles %ux%ux%u", spec[1], spec[2], spec[3]);
      struct widths ws;
      widths_of(d, k->name, spec[0], &ws);
      for (uint32_t wi = 0; wi < ws.n; wi++) {
         struct ml_pipe p;
         const struct sgt_buffer *f16_bufs[] = {&a.q, &b, &c};
         const struct sgt_buffer *q_bufs[] = {&a.q, &a.d, &b, &c};
         if (k->format == F16)
            ml_pipe_create(d, &p, k->spv, 3, f16_bufs, 12, spec, 6, ws.w[wi]);
         else
            ml_pipe_create(d, &p, k->spv, 4, q_bufs, 12, spec, 6, ws.w[wi]);
         memset(c.map, 0xff, c.size);
         const uint32_t push[3] = {M, N, K};
         ml_run(d, &p, push, (M + spec[1] - 1) / spec[1], (N + spec[2] - 1) / spec[2]);
         struct ml_check ck;
         check_begin(&ck, k->name, p.width, shape);
         const float *got = c.map;
         for (uint32_t i = 0; i < N * M; i++)
            check_value(&ck, i, got[i], ref[i].value, rel * ref[i].abs + slack);
         check_end(&ck);
         ml_pipe_destroy(d, &p);
         ran = true;
      }
   }
   kernels_ran += ran;
   free(arow);
   free(brow);
   free(ref);
   sgt_cbuffer_destroy(d, &b);
   sgt_cbuffer_destroy(d, &c);
   weights_destroy(d, &a);
}

static const struct matmul_kernel matmul_kernels[] = {
   {"matmul_f16", SGT_SHADER("ml_matmul_f16"), F16, false, NEED_STORAGE16},
   {"matmul_f16_h", SGT_SHADER("ml_matmul_f16_h"), F16, true, NEED_STORAGE16 | NEED_FLOAT16},
   {"matmul_q8", SGT_SHADER("ml_matmul_q8"), Q8, false, NEED_STORAGE8 | NEED_STORAGE16},
   {"matmul_q4", SGT_SHADER("ml_matmul_q4"), Q4, false, NEED_STORAGE16},
};

static void matmul_f16(struct sgt_cdev *d) { matmul(d, &matmul_kernels[0]); }
static void matmul_f16_h(struct sgt_cdev *d) { matmul(d, &matmul_kernels[1]); }
static void matmul_q8(struct sgt_cdev *d) { matmul(d, &matmul_kernels[2]); }
static void matmul_q4(struct sgt_cdev *d) { matmul(d, &matmul_kernels[3]); }

/* ---- softmax ---------------------------------------------------------------------------------- */

#define MASKED (-30000.0f)

static void softmax_kernel(struct sgt_cdev *d, const char *kernel, const char *spv, bool f16_shift,
                           uint32_t needs)
{
   if (!check_needs(d, kernel, needs))
      return;
   /* N is not a multiple of the workgroup size; MR mask rows. */
   const uint32_t rows = 24, N = 1000, MR = 4, wg = 128;
   const float scale = 0.5f;
   struct widths ws;
   widths_of(d, kernel, wg, &ws);
   if (!ws.n)
      return;
   struct sgt_buffer x, mask, y;
   sgt_cbuffer(d, (VkDeviceSize)rows * N * 2, &x);
   sgt_cbuffer(d, (VkDeviceSize)MR * N * 2, &mask);
   sgt_cbuffer(d, (VkDeviceSize)rows * N * 4, &y);
   uint32_t s = 71;
   uint16_t *xh = x.map, *mh = mask.map;
   fill_f16(xh, (size_t)rows * N, &s, -6.0, 6.0);
   /* Mask row q: the positions past 500 + 120 q are masked (a causal
    * mask's shape); the others get small biases in [-1, 0). */
   for (uint32_t q = 0; q < MR; q++)
      for (uint32_t i = 0; i < N; i++)
         mh[q * N + i] = sgt_float_to_half(i > 500 + 120 * q ? MASKED
                                                             : (float)sgt_ml_uniform(&s, -1.0, 0.0));
   double *ref = malloc((size_t)rows * N * sizeof(double)), *L = malloc(rows * sizeof(double));
   double *v = malloc(N * sizeof(double));
   for (uint32_t r = 0; r < rows; r++) {
      double top = -INFINITY, sum = 0;
      L[r] = 0;
      for (uint32_t i = 0; i < N; i++) {
         float mv = sgt_half_to_float(mh[(r % MR) * N + i]);
         v[i] = (double)scale * sgt_half_to_float(xh[r * N + i]) + mv;
         top = fmax(top, v[i]);
         if (mv != MASKED)
            L[r] = fmax(L[r], fabs(v[i]));
      }
      for (uint32_t i = 0; i < N; i++)
         sum += exp(v[i] - top);
      for (uint32_t i = 0; i < N; i++)
         ref[(size_t)r * N + i] = exp(v[i] - top) / sum;
   }
   struct {
      uint32_t N, MR;
      float scale;
   } push = {N, MR, scale};
   const uint32_t spec[1] = {wg};
   const struct sgt_buffer *bufs[] = {&x, &mask, &y};
   for (uint32_t wi = 0; wi < ws.n; wi++) {
      struct ml_pipe p;
      ml_pipe_create(d, &p, spv, 3, bufs, sizeof(push), spec, 1, ws.w[wi]);
      memset(y.map, 0xff, y.size);
      ml_run(d, &p, &push, rows, 1);
      struct ml_check c;
      check_begin(&c, kernel, p.width, NULL);
      const float *got = y.map;
      for (uint32_t r = 0; r < rows; r++) {
         double rel = sgt_ml_softmax_bound(N, wg, p.width, L[r], f16_shift);
         for (uint32_t i = 0; i < N; i++) {
            size_t e = (size_t)r * N + i;
            /* Masked outputs are 0 to within exp(-29000): 1e-30 absolute. */
            check_value(&c, (uint32_t)e, got[e], ref[e], rel * ref[e] + 1e-30);
         }
      }
      check_end(&c);
      ml_pipe_destroy(d, &p);
   }
   kernels_ran++;
   free(ref);
   free(L);
   free(v);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &mask);
   sgt_cbuffer_destroy(d, &y);
}

static void softmax(struct sgt_cdev *d)
{
   softmax_kernel(d, "softmax", SGT_SHADER("ml_softmax"), false, NEED_STORAGE16 | NEED_ARITH);
}

static void softmax_h(struct sgt_cdev *d)
{
   softmax_kernel(d, "softmax_h", SGT_SHADER("ml_softmax_h"), true,
                  NEED_STORAGE16 | NEED_ARITH | NEED_FLOAT16 | NEED_F16_SUBGROUP);
}

/* ---- RMS normalization -------------------------------------------------------------------------- */

static void rmsnorm(struct sgt_cdev *d)
{
   const char *kernel = "rmsnorm";
   if (!check_needs(d, kernel, NEED_STORAGE16 | NEED_ARITH))
      return;
   const uint32_t rows = 16, N = 1000, wg = 128;
   const float eps = 1e-5f;
   struct widths ws;
   widths_of(d, kernel, wg, &ws);
   if (!ws.n)
      return;
   struct sgt_buffer x, g, y;
   sgt_cbuffer(d, (VkDeviceSize)rows * N * 4, &x);
   sgt_cbuffer(d, (VkDeviceSize)N * 2, &g);
   sgt_cbuffer(d, (VkDeviceSize)rows * N * 4, &y);
   uint32_t s = 81;
   float *xf = x.map;
   fill_f32(xf, (size_t)rows * N, &s, -2.0, 2.0);
   /* One row of small values: eps matters there. */
   for (uint32_t i = 0; i < N; i++)
      xf[3 * N + i] *= 1e-3f;
   fill_f16(g.map, N, &s, 0.5, 1.5);
   double *ref = malloc((size_t)rows * N * sizeof(double));
   for (uint32_t r = 0; r < rows; r++) {
      double ss = 0;
      for (uint32_t i = 0; i < N; i++)
         ss += (double)xf[r * N + i] * xf[r * N + i];
      double scale = 1 / sqrt(ss / N + eps);
      for (uint32_t i = 0; i < N; i++)
         ref[r * N + i] = xf[r * N + i] * scale * sgt_half_to_float(((uint16_t *)g.map)[i]);
   }
   struct {
      uint32_t N;
      float eps;
   } push = {N, eps};
   const uint32_t spec[1] = {wg};
   const struct sgt_buffer *bufs[] = {&x, &g, &y};
   for (uint32_t wi = 0; wi < ws.n; wi++) {
      struct ml_pipe p;
      ml_pipe_create(d, &p, SGT_SHADER("ml_rmsnorm"), 3, bufs, sizeof(push), spec, 1, ws.w[wi]);
      memset(y.map, 0xff, y.size);
      ml_run(d, &p, &push, rows, 1);
      struct ml_check c;
      check_begin(&c, kernel, p.width, NULL);
      double rel = sgt_ml_rmsnorm_bound(N, wg, p.width);
      const float *got = y.map;
      for (uint32_t i = 0; i < rows * N; i++)
         check_value(&c, i, got[i], ref[i], rel * fabs(ref[i]));
      check_end(&c);
      ml_pipe_destroy(d, &p);
   }
   kernels_ran++;
   free(ref);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &g);
   sgt_cbuffer_destroy(d, &y);
}

/* ---- rotary position embedding ---------------------------------------------------------------- */

static void rope(struct sgt_cdev *d)
{
   const char *kernel = "rope";
   const uint32_t T = 12, H = 4, D = 64, wg = 64, n = T * H * D;
   const double lb = log2(10000.0);
   struct widths ws;
   widths_of(d, kernel, wg, &ws);
   if (!ws.n)
      return;
   struct sgt_buffer x, pos, y;
   sgt_cbuffer(d, n * 4, &x);
   sgt_cbuffer(d, T * 4, &pos);
   sgt_cbuffer(d, n * 4, &y);
   uint32_t s = 91;
   float *xf = x.map;
   int32_t *pt = pos.map;
   fill_f32(xf, n, &s, -1.0, 1.0);
   for (uint32_t t = 0; t < T; t++)
      pt[t] = t == 0 ? 0 : (int32_t)(sgt_ml_rand(&s) % 400u);
   struct {
      uint32_t T, H, D;
      float lb;
   } push = {T, H, D, (float)lb};
   const struct sgt_buffer *bufs[] = {&x, &pos, &y};
   for (uint32_t neox = 0; neox < 2; neox++) {
      const uint32_t spec[2] = {wg, neox};
      for (uint32_t wi = 0; wi < ws.n; wi++) {
         struct ml_pipe p;
         ml_pipe_create(d, &p, SGT_SHADER("ml_rope"), 3, bufs, sizeof(push), spec, 2, ws.w[wi]);
         memset(y.map, 0xff, y.size);
         ml_run(d, &p, &push, (n / 2 + wg - 1) / wg, 1);
         struct ml_check c;
         check_begin(&c, kernel, p.width, neox ? "neox" : "normal");
         const float *got = y.map;
         for (uint32_t h = 0; h < T * H; h++) {
            for (uint32_t i = 0; i < D / 2; i++) {
               uint32_t i0 = h * D + (neox ? i : 2 * i), i1 = neox ? i0 + D / 2 : i0 + 1;
               /* theta as the reference has it: f32 log2(base), as pushed. */
               double theta = pt[h / H] * exp2(-2.0 * i / D * push.lb);
               double x0 = xf[i0], x1 = xf[i1];
               double bound = sgt_ml_rope_bound(theta, i, D, push.lb, x0, x1);
               check_value(&c, i0, got[i0], x0 * cos(theta) - x1 * sin(theta), bound);
               check_value(&c, i1, got[i1], x0 * sin(theta) + x1 * cos(theta), bound);
            }
         }
         check_end(&c);
         ml_pipe_destroy(d, &p);
      }
   }
   kernels_ran++;
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &pos);
   sgt_cbuffer_destroy(d, &y);
}

/* ---- GELU and SiLU ------------------------------------------------------------------------------ */

static void gelu_silu(struct sgt_cdev *d)
{
   const char *kernel = "gelu_silu";
   const uint32_t n = 8192, wg = 64;
   struct widths ws;
   widths_of(d, kernel, wg, &ws);
   if (!ws.n)
      return;
   struct sgt_buffer x, gelu, silu;
   sgt_cbuffer(d, n * 4, &x);
   sgt_cbuffer(d, n * 4, &gelu);
   sgt_cbuffer(d, n * 4, &silu);
   uint32_t s = 101;
   float *xf = x.map;
   fill_f32(xf, n, &s, -6.0, 6.0);
   /* Zero, tiny and the range's ends exactly. */
   xf[0] = 0;
   xf[1] = 1e-6f;
   xf[2] = -1e-6f;
   xf[3] = 6;
   xf[4] = -6;
   const uint32_t spec[1] = {wg};
   const struct sgt_buffer *bufs[] = {&x, &gelu, &silu};
   for (uint32_t wi = 0; wi < ws.n; wi++) {
      struct ml_pipe p;
      ml_pipe_create(d, &p, SGT_SHADER("ml_act"), 3, bufs, 4, spec, 1, ws.w[wi]);
      memset(gelu.map, 0xff, gelu.size);
      memset(silu.map, 0xff, silu.size);
      ml_run(d, &p, &n, (n / 4 + wg - 1) / wg, 1);
      struct ml_check cg, cs;
      check_begin(&cg, kernel, p.width, "gelu");
      check_begin(&cs, kernel, p.width, "silu");
      const float *g = gelu.map, *si = silu.map;
      for (uint32_t i = 0; i < n; i++) {
         double xv = xf[i];
         double z = 2 * sqrt(2.0 / M_PI) * (xv + 0.044715 * xv * xv * xv);
         double want_g = sgt_ml_gelu(xv), want_s = sgt_ml_silu(xv);
         check_value(&cg, i, g[i], want_g, sgt_ml_act_bound(z, 1) * fabs(want_g));
         check_value(&cs, i, si[i], want_s, sgt_ml_act_bound(xv, 0) * fabs(want_s));
      }
      check_end(&cg);
      check_end(&cs);
      ml_pipe_destroy(d, &p);
   }
   kernels_ran++;
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &gelu);
   sgt_cbuffer_destroy(d, &silu);
}

/* ---- the fused attention projections: 12 storage buffers ------------------------------------------ */

static void qkv(struct sgt_cdev *d)
{
   const char *kernel = "qkv";
   if (!check_needs(d, kernel, NEED_STORAGE8 | NEED_STORAGE16 | NEED_ARITH | NEED_12_BUFFERS))
      return;
   const uint32_t K = 1024, Mq = 256, Mkv = 64, wg = 128, rows = 2, M = Mq + 2 * Mkv;
   const float eps = 1e-6f;
   struct widths ws;
   widths_of(d, kernel, wg, &ws);
   if (!ws.n)
      return;
   struct weights w[3];
   for (uint32_t i = 0; i < 3; i++)
      weights_create(d, &w[i], Q8, i ? Mkv : Mq, K, 111 + i, -1.0);
   struct sgt_buffer x, g, bias, out[3];
   sgt_cbuffer(d, K * 4, &x);
   sgt_cbuffer(d, K * 2, &g);
   sgt_cbuffer(d, M * 4, &bias);
   for (uint32_t i = 0; i < 3; i++)
      sgt_cbuffer(d, (i ? Mkv : Mq) * 4, &out[i]);
   uint32_t s = 121;
   float *xf = x.map, *bf = bias.map;
   fill_f32(xf, K, &s, -2.0, 2.0);
   fill_f16(g.map, K, &s, 0.5, 1.5);
   fill_f32(bf, M, &s, -1.0, 1.0);
   double ss = 0;
   for (uint32_t i = 0; i < K; i++)
      ss += (double)xf[i] * xf[i];
   double scale = 1 / sqrt(ss / K + eps);
   double *xn = malloc(K * sizeof(double));
   for (uint32_t i = 0; i < K; i++)
      xn[i] = xf[i] * scale * sgt_half_to_float(((uint16_t *)g.map)[i]);
   struct sgt_ml_sum *ref = calloc(M, sizeof(*ref));
   for (uint32_t r = 0; r < M; r++) {
      uint32_t mat = r < Mq ? 0 : r < Mq + Mkv ? 1 : 2, row = r - (mat ? Mq + (mat - 1) * Mkv : 0);
      for (uint32_t i = 0; i < K; i++)
         sgt_ml_add(&ref[r], weight(&w[mat], row, i) * xn[i]);
   }
   struct {
      uint32_t K, Mq, Mkv;
      float eps;
   } push = {K, Mq, Mkv, eps};
   const uint32_t spec[2] = {wg, rows};
   const struct sgt_buffer *bufs[12] = {&x,      &g,      &w[0].q, &w[0].d, &w[1].q, &w[1].d,
                                        &w[2].q, &w[2].d, &bias,   &out[0], &out[1], &out[2]};
   for (uint32_t wi = 0; wi < ws.n; wi++) {
      struct ml_pipe p;
      ml_pipe_create(d, &p, SGT_SHADER("ml_qkv"), 12, bufs, sizeof(push), spec, 2, ws.w[wi]);
      for (uint32_t i = 0; i < 3; i++)
         memset(out[i].map, 0xff, out[i].size);
      ml_run(d, &p, &push, M / rows, 1);
      struct ml_check c;
      check_begin(&c, kernel, p.width, NULL);
      /* The normalized x errs by rmsnorm's bound (relative); then the
       * q8 products as in matvec_q8, and the bias's addition, 1 rounding. */
      double rel = sgt_ml_rmsnorm_bound(K, wg, p.width) + sgt_ml_matvec_bound(K, 4, wg, p.width);
      for (uint32_t r = 0; r < M; r++) {
         uint32_t mat = r < Mq ? 0 : r < Mq + Mkv ? 1 : 2;
         uint32_t row = r - (mat ? Mq + (mat - 1) * Mkv : 0);
         double want = ref[r].value + bf[r];
         double bound = 1.01 * (rel * ref[r].abs + SGT_ML_U32 * (ref[r].abs + fabs(bf[r])));
         check_value(&c, r, ((const float *)out[mat].map)[row], want, bound);
      }
      check_end(&c);
      ml_pipe_destroy(d, &p);
   }
   kernels_ran++;
   free(xn);
   free(ref);
   for (uint32_t i = 0; i < 3; i++) {
      weights_destroy(d, &w[i]);
      sgt_cbuffer_destroy(d, &out[i]);
   }
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &g);
   sgt_cbuffer_destroy(d, &bias);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"matvec_f16", matvec_f16},
      {"matvec_f16_h", matvec_f16_h},
      {"matvec_f16_h_shuffle", matvec_f16_h_shuffle},
      {"matvec_q8", matvec_q8},
      {"matvec_q4", matvec_q4},
      {"quantize_q8", quantize_q8},
      {"quantize_q8_shuffle", quantize_q8_shuffle},
      {"matvec_q8_dot", matvec_q8_dot},
      {"matvec_q4_dot", matvec_q4_dot},
      {"matvec_q8_i8", matvec_q8_i8},
      {"matmul_f16", matmul_f16},
      {"matmul_f16_h", matmul_f16_h},
      {"matmul_q8", matmul_q8},
      {"matmul_q4", matmul_q4},
      {"softmax", softmax},
      {"softmax_h", softmax_h},
      {"rmsnorm", rmsnorm},
      {"rope", rope},
      {"gelu_silu", gelu_silu},
      {"qkv", qkv},
   };
   if (argc > 2)
      only_width = (uint32_t)strtoul(argv[2], NULL, 10);
   const struct sgt_compute_options opts = {.every_feature = true};
   int status = sgt_compute_main(argc > 2 ? 2 : argc, argv, &opts, tests,
                                 sizeof(tests) / sizeof(tests[0]));
   if (status == 0 && argc < 2 && kernels_ran == 0) {
      fprintf(stderr, "SKIP test_compute_ml: no kernel could run on this device\n");
      return 77;
   }
   return status;
}
