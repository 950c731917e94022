/*
 * Advertised features that no other test exercised end to end, each
 * checked against a C reference (tests/vulkan/feature_tests.inc maps every
 * advertised feature to the tests that exercise it):
 *
 * - subgroup_int64: shaderSubgroupExtendedTypes with shaderInt64: subgroup
 *   arithmetic (add, mul, min and max signed and unsigned, and, or, xor,
 *   inclusive and exclusive scans), broadcasts and shuffles on uint64_t,
 *   in uniform and divergent control flow;
 * - zero_initialize_workgroup_memory: shared variables with null
 *   initializers read as zero before any write, in every workgroup, even
 *   after earlier workgroups left garbage there;
 * - subgroup_size_control: VkPipelineShaderStageRequiredSubgroupSizeCreateInfo
 *   at every power of two in [minSubgroupSize, maxSubgroupSize]:
 *   gl_SubgroupSize is the required size;
 * - compute_full_subgroups: REQUIRE_FULL_SUBGROUPS, with and without a
 *   required size: every subgroup has all its invocations active;
 * - creation_feedback (VK_EXT_pipeline_creation_feedback, core in 1.3):
 *   the pipeline's and the stage's feedback are written with the VALID
 *   bit and durations within the call's wall time;
 * - device_buffer_requirements (maintenance4): vkGetDeviceBufferMemoryRequirements
 *   equals vkGetBufferMemoryRequirements2 of a buffer made from the same
 *   create info, and a larger buffer never needs less memory.
 *   vkGetDeviceImageMemoryRequirements cannot be exercised: softgpu has no
 *   images (no format supports an image usage, so no VkImageCreateInfo is
 *   valid);
 * - update_after_bind_storage / _uniform: a descriptor of an
 *   UPDATE_AFTER_BIND binding rewritten after the set was bound and the
 *   command buffer recorded, before submission: the launch uses the new one;
 * - update_unused_while_pending: a binding with UPDATE_UNUSED_WHILE_PENDING
 *   (and PARTIALLY_BOUND) that the shader does not reach, rewritten while
 *   the command buffer is pending (its queue parked on a semaphore);
 * - update_after_bind_inline_uniform: the same with an inline uniform block
 *   (descriptorBindingInlineUniformBlockUpdateAfterBind);
 * - partially_bound: a PARTIALLY_BOUND binding left unwritten, which the
 *   shader declares but never reaches;
 * - memory_model: vulkanMemoryModel and vulkanMemoryModelDeviceScope:
 *   device-scope release stores, acquire-release atomics, a barrier with
 *   device-scope semantics and acquire loads see each other's values;
 * - int64_buffer_atomics, int64_shared_atomics: 64-bit atomic add, min,
 *   max and or on a storage buffer, and add on a shared variable;
 * - host_query_reset: vkResetQueryPool makes written timestamps unavailable;
 * - debug_printf (VK_KHR_shader_non_semantic_info, core in 1.3): a
 *   debugPrintfEXT line reaches softgpu's log;
 * - storage16, storage8 (storageBuffer16BitAccess, storagePushConstant16;
 *   storageBuffer8BitAccess, storagePushConstant8): 16-bit floats and
 *   integers, and 8-bit integers, from storage buffers and push constants,
 *   widened signed and unsigned, and narrowed into buffers where
 *   neighbouring invocations write neighbouring halfwords and bytes (a
 *   narrowing to binary16 rounds to nearest even).
 *
 * The device enables every advertised feature; a subtest whose feature is
 * not advertised prints SKIP (sgt_skip) and passes, which the check of the
 * mapping (tools/check-feature-tests) relies on: run with
 * SOFTGPU_HIDE_FEATURES=<feature>, each mapped subtest must skip.
 */
#include <string.h>

#include "sgt_compute.h"
#include "sgt_half.h"
#include "sgt_sync.h"

#define MAXWG 128

/* ---- helpers ------------------------------------------------------------- */

/* Runs one pipeline over one storage buffer `out` with `groups` workgroups. */
static void run_one(struct sgt_cdev *d, VkPipeline pipeline, VkPipelineLayout layout,
                    VkDescriptorSet set, uint32_t groups)
{
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, groups, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
}

/* ---- shaderSubgroupExtendedTypes on 64-bit integers ---------------------- */

#define REC64 16

static uint64_t int64_value(uint32_t g)
{
   return (uint64_t)g * 0x9E3779B97F4A7C15ull + ((uint64_t)(g & 3u) << 62);
}

/* One subgroup: the global indices of its members, by invocation ID
 * (UINT32_MAX where no invocation has that ID). */
struct members {
   uint32_t g[MAXWG];
};

static void check_int64_subgroup(const uint64_t *r, const struct members *m, uint32_t size,
                                 const char *what, uint32_t *bad)
{
   uint64_t sum = 0, umax = 0, umin = UINT64_MAX, xr = 0, an = UINT64_MAX, orr = 0, mul = 1;
   int64_t smax = INT64_MIN, smin = INT64_MAX;
   uint64_t first = 0, div_sum = 0, div_first = 0;
   bool have_first = false, have_div = false;
   for (uint32_t i = 0; i < size; i++) {
      uint32_t g = m->g[i];
      if (g == UINT32_MAX)
         continue;
      uint64_t v = int64_value(g);
      sum += v, xr ^= v, an &= v, orr |= v, mul *= v | 1u;
      umax = v > umax ? v : umax;
      umin = v < umin ? v : umin;
      smax = (int64_t)v > smax ? (int64_t)v : smax;
      smin = (int64_t)v < smin ? (int64_t)v : smin;
      if (!have_first)
         first = v, have_first = true;
      if (g % 3 != 1) {
         div_sum += v;
         if (!have_div)
            div_first = v, have_div = true;
      }
   }
   uint64_t incl = 0;
   for (uint32_t i = 0; i < size; i++) {
      uint32_t g = m->g[i];
      if (g == UINT32_MAX)
         continue;
      uint64_t v = int64_value(g);
      uint64_t excl = incl;
      incl += v;
      const uint64_t *x = r + (size_t)g * REC64;
      uint64_t want[REC64] = {
         x[0], sum, incl, excl, umax, umin, (uint64_t)smax, (uint64_t)smin, xr, an, orr, mul,
         first, x[13], x[14], g % 3 != 1 ? div_sum ^ div_first : 0};
      /* Broadcast from invocation 1 and the shuffle partner: only when
       * that invocation exists (an inactive one gives an undefined value). */
      if (m->g[1] != UINT32_MAX)
         want[13] = int64_value(m->g[1]);
      uint32_t partner = i ^ 1u;
      if (partner < size && m->g[partner] != UINT32_MAX)
         want[14] = int64_value(m->g[partner]);
      static const char *const names[REC64] = {
         "ids", "add", "inclusive add", "exclusive add", "umax", "umin", "smax", "smin", "xor",
         "and", "or", "mul", "broadcast first", "broadcast 1", "shuffle", "divergent add"};
      for (uint32_t k = 1; k < REC64; k++) {
         if (x[k] != want[k] && (*bad)++ < 6)
            fprintf(stderr, "   %s: invocation %u (subgroup invocation %u): %s is 0x%016llx, "
                    "expected 0x%016llx\n", what, g, i, names[k], (unsigned long long)x[k],
                    (unsigned long long)want[k]);
      }
   }
}

static void subgroup_int64(struct sgt_cdev *d)
{
   if (!d->features.shaderInt64 || !d->features12.shaderSubgroupExtendedTypes) {
      sgt_skip("subgroup_int64", "shaderInt64 or shaderSubgroupExtendedTypes is not advertised");
      return;
   }
   const VkSubgroupFeatureFlags ops = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                      VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                      VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
   if ((d->props11.subgroupSupportedOperations & ops) != ops) {
      sgt_skip("subgroup_int64", "arithmetic, ballot or shuffle subgroup operations are missing");
      return;
   }
   const uint32_t size = d->props11.subgroupSize;
   static const uint32_t sizes[] = {128, 100};
   for (uint32_t c = 0; c < 2; c++) {
      uint32_t ws = sizes[c];
      VkSpecializationMapEntry e = {0, 0, 4};
      VkSpecializationInfo spec = {1, &e, 4, &ws};
      struct sgt_kernel k;
      sgt_kernel_create(d, &k, SGT_SHADER("subgroup_int64"), 1, 0, &spec);
      struct sgt_buffer out;
      sgt_cbuffer(d, (VkDeviceSize)ws * 2 * REC64 * 8, &out);
      const struct sgt_buffer *bufs[] = {&out};
      sgt_kernel_bind(d, &k, bufs);
      VkCommandBuffer cmd = sgt_cmd_begin(d);
      sgt_kernel_dispatch(cmd, &k, NULL, 2, 1, 1);
      sgt_cmd_submit_wait(d, cmd);
      const uint64_t *r = out.map;
      for (uint32_t w = 0; w < 2; w++) {
         char what[64];
         snprintf(what, sizeof(what), "workgroup size %u, workgroup %u", ws, w);
         static struct members subgroups[MAXWG];
         for (uint32_t s = 0; s < MAXWG; s++)
            for (uint32_t i = 0; i < MAXWG; i++)
               subgroups[s].g[i] = UINT32_MAX;
         uint32_t count = 0, bad = 0;
         bool ok = true;
         for (uint32_t g = w * ws; g < (w + 1) * ws && ok; g++) {
            uint32_t sg = (uint32_t)r[(size_t)g * REC64], inv = (uint32_t)(r[(size_t)g * REC64] >> 32);
            ok = sg < MAXWG && inv < size && subgroups[sg].g[inv] == UINT32_MAX;
            SGT_CHECK(ok, "%s: invocation %u reports subgroup %u, invocation %u", what, g, sg, inv);
            if (ok) {
               subgroups[sg].g[inv] = g;
               count = sg + 1 > count ? sg + 1 : count;
            }
         }
         for (uint32_t s = 0; ok && s < count; s++)
            check_int64_subgroup(r, &subgroups[s], size, what, &bad);
         SGT_CHECK(bad == 0, "%s: %u wrong 64-bit subgroup results", what, bad);
      }
      sgt_cbuffer_destroy(d, &out);
      sgt_kernel_destroy(d, &k);
   }
}

/* ---- shaderZeroInitializeWorkgroupMemory --------------------------------- */

static void zero_initialize_workgroup_memory(struct sgt_cdev *d)
{
   if (!d->features13.shaderZeroInitializeWorkgroupMemory) {
      sgt_skip("zero_initialize_workgroup_memory",
               "shaderZeroInitializeWorkgroupMemory is not advertised");
      return;
   }
   /* Many more workgroups than workers: each worker's shared memory is
    * reused by workgroups after one that left garbage in it. */
   const uint32_t groups = 256;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("zero_init"), 1, 0, NULL);
   struct sgt_buffer out;
   sgt_cbuffer(d, groups * 64 * 4, &out);
   const struct sgt_buffer *bufs[] = {&out};
   sgt_kernel_bind(d, &k, bufs);
   for (uint32_t round = 0; round < 2; round++) {
      memset(out.map, 0, out.size);
      VkCommandBuffer cmd = sgt_cmd_begin(d);
      sgt_kernel_dispatch(cmd, &k, NULL, groups, 1, 1);
      sgt_cmd_submit_wait(d, cmd);
      const uint32_t *r = out.map;
      uint32_t bad = 0;
      for (uint32_t i = 0; i < groups * 64; i++) {
         /* The shader stores what it read, plus one: 1 means all zero. */
         if (r[i] != 1 && bad++ < 5)
            fprintf(stderr, "   round %u, workgroup %u, invocation %u read 0x%08x from its "
                    "null-initialized shared variables\n", round, i / 64, i % 64, r[i] - 1);
      }
      SGT_CHECK(bad == 0, "round %u: %u invocations read non-zero workgroup memory", round, bad);
   }
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &k);
}

/* ---- subgroupSizeControl, computeFullSubgroups -------------------------- */

/* Runs subgroup_size with workgroup size ws (2 workgroups) under the given
 * stage flags and required size (0: none); returns 4 words per invocation. */
static uint32_t *run_subgroup_size(struct sgt_cdev *d, uint32_t ws, uint32_t required,
                                   VkPipelineShaderStageCreateFlags flags)
{
   VkSpecializationMapEntry e = {0, 0, 4};
   VkSpecializationInfo spec = {1, &e, 4, &ws};
   VkPipelineShaderStageRequiredSubgroupSizeCreateInfo req = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
      .requiredSubgroupSize = required};
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("subgroup_size"), 1, 0, &spec);
   VkPipeline p = sgt_compute_pipeline_stage(d, k.module, k.layout, &spec, flags,
                                             required ? &req : NULL);
   struct sgt_buffer out;
   sgt_cbuffer(d, (VkDeviceSize)ws * 2 * 16, &out);
   const struct sgt_buffer *bufs[] = {&out};
   sgt_kernel_bind(d, &k, bufs);
   run_one(d, p, k.layout, k.set, 2);
   uint32_t *r = malloc(out.size);
   memcpy(r, out.map, out.size);
   vkDestroyPipeline(d->device, p, NULL);
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &k);
   return r;
}

/* Every invocation reports gl_SubgroupSize == want (0: any, but the same
 * for all), IDs below it and, when full, a whole subgroup active. */
static void check_subgroup_size(const uint32_t *r, uint32_t n, uint32_t want, bool full,
                                const char *what)
{
   uint32_t bad = 0, seen = r[0];
   for (uint32_t g = 0; g < n; g++) {
      const uint32_t *x = r + g * 4;
      uint32_t size = want ? want : seen;
      bool ok = x[0] == size && x[3] < size && x[1] >= 1 && x[1] <= size && (!full || x[1] == size);
      if (!ok && bad++ < 4)
         fprintf(stderr, "   %s: invocation %u: gl_SubgroupSize %u (want %u), active %u, "
                 "subgroup %u, invocation %u\n", what, g, x[0], size, x[1], x[2], x[3]);
   }
   SGT_CHECK(bad == 0, "%s: %u invocations saw the wrong subgroup", what, bad);
}

static void subgroup_size_control(struct sgt_cdev *d)
{
   if (!d->features13.subgroupSizeControl) {
      sgt_skip("subgroup_size_control", "subgroupSizeControl is not advertised");
      return;
   }
   const uint32_t lo = d->props13.minSubgroupSize, hi = d->props13.maxSubgroupSize;
   SGT_REQUIRE(lo >= 1 && lo <= hi && (lo & (lo - 1)) == 0 && (hi & (hi - 1)) == 0,
               "subgroup sizes [%u, %u] are not powers of two", lo, hi);
   SGT_CHECK(d->props13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT,
             "requiredSubgroupSizeStages lacks COMPUTE");
   fprintf(stderr, "   subgroup sizes %u..%u\n", lo, hi);
   for (uint32_t size = lo; size <= hi; size *= 2) {
      /* 100 invocations: a partial last subgroup at most sizes. */
      char what[64];
      snprintf(what, sizeof(what), "required size %u", size);
      uint32_t *r = run_subgroup_size(d, 100, size, 0);
      check_subgroup_size(r, 200, size, false, what);
      free(r);
   }
}

static void compute_full_subgroups(struct sgt_cdev *d)
{
   if (!d->features13.computeFullSubgroups || !d->features13.subgroupSizeControl) {
      sgt_skip("compute_full_subgroups",
               "computeFullSubgroups or subgroupSizeControl is not advertised");
      return;
   }
   const uint32_t lo = d->props13.minSubgroupSize, hi = d->props13.maxSubgroupSize;
   const VkPipelineShaderStageCreateFlags full =
      VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
   /* With a required size and full subgroups, the workgroup's X size must
    * be a multiple of requiredSubgroupSize (VkPipelineShaderStageCreateInfo's
    * valid usage): 2 subgroups. */
   for (uint32_t size = lo; size <= hi; size *= 2) {
      char what[64];
      snprintf(what, sizeof(what), "full subgroups of required size %u", size);
      uint32_t *r = run_subgroup_size(d, 2 * size, size, full);
      check_subgroup_size(r, 4 * size, size, true, what);
      free(r);
   }
   /* Without a required size and with a varying one, a multiple of
    * maxSubgroupSize (the same valid usage). */
   uint32_t *r = run_subgroup_size(
      d, 2 * hi, 0, full | VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT);
   check_subgroup_size(r, 4 * hi, 0, true, "full subgroups, varying size");
   SGT_CHECK(r[0] >= lo && r[0] <= hi, "varying size: gl_SubgroupSize %u outside [%u, %u]",
             r[0], lo, hi);
   free(r);
   /* Without a required size or a varying one, a multiple of subgroupSize. */
   r = run_subgroup_size(d, 2 * d->props11.subgroupSize, 0, full);
   check_subgroup_size(r, 4 * d->props11.subgroupSize, d->props11.subgroupSize, true,
                       "full subgroups, default size");
   free(r);
}

/* ---- VK_EXT_pipeline_creation_feedback ----------------------------------- */

static void creation_feedback(struct sgt_cdev *d)
{
   /* Core in Vulkan 1.3, which these tests require: no feature to check. */
   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("saxpy"));
   VkDescriptorSetLayout sl = sgt_storage_layout(d, 2);
   VkPipelineLayout pl = sgt_pipeline_layout(d, 1, &sl, 8);
   VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   VkPipelineCache cache;
   SGT_CHECK_VK(vkCreatePipelineCache(d->device, &ci, NULL, &cache));
   for (uint32_t round = 0; round < 2; round++) {
      /* Garbage first: the driver must write every field it reports. */
      VkPipelineCreationFeedback whole, stage;
      memset(&whole, 0xa5, sizeof(whole));
      memset(&stage, 0xa5, sizeof(stage));
      whole.flags = stage.flags = 0;
      VkPipelineCreationFeedbackCreateInfo fb = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
         .pPipelineCreationFeedback = &whole,
         .pipelineStageCreationFeedbackCount = 1,
         .pPipelineStageCreationFeedbacks = &stage};
      VkComputePipelineCreateInfo info = {
         .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
         .pNext = &fb,
         .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = m, .pName = "main"},
         .layout = pl,
         .basePipelineIndex = -1};
      uint64_t t0 = sgt_now_ns();
      VkPipeline p;
      SGT_CHECK_VK(vkCreateComputePipelines(d->device, cache, 1, &info, NULL, &p));
      uint64_t wall = sgt_now_ns() - t0;
      fprintf(stderr, "   round %u: pipeline flags 0x%x, %llu ns; stage flags 0x%x, %llu ns; "
              "call %llu ns\n", round, whole.flags, (unsigned long long)whole.duration,
              stage.flags, (unsigned long long)stage.duration, (unsigned long long)wall);
      /* "VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT indicates that the feedback
       * information is valid" (VkPipelineCreationFeedbackFlagBits); durations
       * are "the duration spent creating a pipeline or pipeline stage in
       * nanoseconds" (VkPipelineCreationFeedback): within the call. */
      SGT_CHECK(whole.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT,
                "round %u: the pipeline's feedback lacks VALID", round);
      SGT_CHECK(stage.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT,
                "round %u: the stage's feedback lacks VALID", round);
      SGT_CHECK(whole.duration > 0 && whole.duration <= wall,
                "round %u: pipeline duration %llu ns outside (0, %llu]", round,
                (unsigned long long)whole.duration, (unsigned long long)wall);
      SGT_CHECK(stage.duration > 0 && stage.duration <= whole.duration,
                "round %u: stage duration %llu ns outside (0, %llu]", round,
                (unsigned long long)stage.duration, (unsigned long long)whole.duration);
      /* softgpu compiles into the cache: the second creation is a hit,
       * which the flag reports (optional in Vulkan, so softgpu only). */
      if (d->is_softgpu && round == 1)
         SGT_CHECK(whole.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT,
                   "the second creation from the same cache is not reported as a cache hit");
      vkDestroyPipeline(d->device, p, NULL);
   }
   vkDestroyPipelineCache(d->device, cache, NULL);
   vkDestroyPipelineLayout(d->device, pl, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
}

/* ---- maintenance4: vkGetDeviceBufferMemoryRequirements ------------------- */

static void device_buffer_requirements(struct sgt_cdev *d)
{
   if (!d->features13.maintenance4) {
      sgt_skip("device_buffer_requirements", "maintenance4 is not advertised");
      return;
   }
   static const VkDeviceSize sizes[] = {1, 4, 255, 256, 4096, 4097, 65536, 1u << 20, (1u << 20) + 3};
   static const VkBufferUsageFlags usages[] = {
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
      SGT_BUFFER_USAGE_ALL,
   };
   for (uint32_t u = 0; u < sizeof(usages) / sizeof(usages[0]); u++) {
      VkDeviceSize prev_size = 0;
      for (uint32_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
         VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                  .size = sizes[s],
                                  .usage = usages[u]};
         VkMemoryDedicatedRequirements ded_dev = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
         VkMemoryRequirements2 from_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
                                            .pNext = &ded_dev};
         memset(&from_info.memoryRequirements, 0xa5, sizeof(from_info.memoryRequirements));
         VkDeviceBufferMemoryRequirements q = {
            .sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS, .pCreateInfo = &bi};
         vkGetDeviceBufferMemoryRequirements(d->device, &q, &from_info);

         VkBuffer b;
         SGT_CHECK_VK(vkCreateBuffer(d->device, &bi, NULL, &b));
         VkMemoryDedicatedRequirements ded_buf = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
         VkMemoryRequirements2 from_buffer = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
                                              .pNext = &ded_buf};
         VkBufferMemoryRequirementsInfo2 bq = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, .buffer = b};
         vkGetBufferMemoryRequirements2(d->device, &bq, &from_buffer);
         VkMemoryRequirements plain;
         vkGetBufferMemoryRequirements(d->device, b, &plain);
         vkDestroyBuffer(d->device, b, NULL);

         const VkMemoryRequirements *x = &from_info.memoryRequirements, *y = &from_buffer.memoryRequirements;
         /* The command answers "without creating an object" what a buffer
          * made from the same create info needs
          * (vkGetDeviceBufferMemoryRequirements): the same answer. */
         SGT_CHECK(x->size == y->size && x->alignment == y->alignment &&
                      x->memoryTypeBits == y->memoryTypeBits,
                   "usage 0x%x, size %llu: from the create info {%llu, %llu, 0x%x}, from the "
                   "buffer {%llu, %llu, 0x%x}", usages[u], (unsigned long long)sizes[s],
                   (unsigned long long)x->size, (unsigned long long)x->alignment,
                   x->memoryTypeBits, (unsigned long long)y->size,
                   (unsigned long long)y->alignment, y->memoryTypeBits);
         SGT_CHECK(plain.size == y->size && plain.alignment == y->alignment &&
                      plain.memoryTypeBits == y->memoryTypeBits,
                   "usage 0x%x, size %llu: vkGetBufferMemoryRequirements and ...2 differ",
                   usages[u], (unsigned long long)sizes[s]);
         SGT_CHECK(ded_dev.prefersDedicatedAllocation == ded_buf.prefersDedicatedAllocation &&
                      ded_dev.requiresDedicatedAllocation == ded_buf.requiresDedicatedAllocation,
                   "usage 0x%x, size %llu: dedicated requirements differ", usages[u],
                   (unsigned long long)sizes[s]);
         SGT_CHECK(x->size >= sizes[s], "size %llu needs only %llu bytes",
                   (unsigned long long)sizes[s], (unsigned long long)x->size);
         /* maintenance4: "The size memory requirement of a buffer or image
          * is never greater than that of another buffer or image created
          * with a greater or equal size." */
         SGT_CHECK(x->size >= prev_size, "usage 0x%x: size %llu needs %llu bytes, less than a "
                   "smaller buffer (%llu)", usages[u], (unsigned long long)sizes[s],
                   (unsigned long long)x->size, (unsigned long long)prev_size);
         prev_size = x->size;
      }
   }
}

/* ---- update-after-bind, partially bound ---------------------------------- */

enum uab_mode { UAB_STORAGE, UAB_UNIFORM, UAB_INLINE };

#define INLINE_BYTES 16

/* The uab shader's set: 0 storage (out), 1 uniform (value: a uniform
 * buffer, or an inline uniform block of INLINE_BYTES), 2 storage (extra),
 * with binding flags `flags[3]`; the pool and layout get the
 * UPDATE_AFTER_BIND flags when any binding has it. */
struct uab {
   VkShaderModule module;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet set;
};

static void uab_create(struct sgt_cdev *d, struct uab *u, const VkDescriptorBindingFlags flags[3],
                       bool inline_block)
{
   bool after_bind = false;
   for (uint32_t i = 0; i < 3; i++)
      after_bind |= (flags[i] & VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT) != 0;
   const VkDescriptorType types[3] = {
      VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      inline_block ? VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
      VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
   VkDescriptorSetLayoutBinding b[3];
   for (uint32_t i = 0; i < 3; i++)
      b[i] = (VkDescriptorSetLayoutBinding){
         .binding = i, .descriptorType = types[i],
         /* An inline uniform block's count is its size in bytes. */
         .descriptorCount = types[i] == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? INLINE_BYTES : 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
   VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
      .bindingCount = 3, .pBindingFlags = flags};
   VkDescriptorSetLayoutCreateInfo li = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .pNext = &bf,
      .flags = after_bind ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT : 0,
      .bindingCount = 3, .pBindings = b};
   SGT_CHECK_VK(vkCreateDescriptorSetLayout(d->device, &li, NULL, &u->set_layout));
   u->module = sgt_shader_module(d, SGT_SHADER("uab"));
   u->layout = sgt_pipeline_layout(d, 1, &u->set_layout, 4);
   u->pipeline = sgt_compute_pipeline(d, u->module, u->layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPoolSize sizes[] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2},
      {inline_block ? VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
       inline_block ? INLINE_BYTES : 1},
   };
   VkDescriptorPoolInlineUniformBlockCreateInfo pi = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
      .maxInlineUniformBlockBindings = 1};
   VkDescriptorPoolCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .pNext = inline_block ? &pi : NULL,
      .flags = after_bind ? VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT : 0,
      .maxSets = 1, .poolSizeCount = 2, .pPoolSizes = sizes};
   SGT_CHECK_VK(vkCreateDescriptorPool(d->device, &info, NULL, &u->pool));
   u->set = sgt_alloc_set(d, u->pool, u->set_layout);
}

static void uab_destroy(struct sgt_cdev *d, struct uab *u)
{
   vkDestroyPipeline(d->device, u->pipeline, NULL);
   vkDestroyPipelineLayout(d->device, u->layout, NULL);
   vkDestroyDescriptorPool(d->device, u->pool, NULL);
   vkDestroyDescriptorSetLayout(d->device, u->set_layout, NULL);
   vkDestroyShaderModule(d->device, u->module, NULL);
}

static VkCommandBuffer uab_record(struct sgt_cdev *d, struct uab *u, uint32_t use_extra)
{
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, u->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, u->layout, 0, 1, &u->set, 0, NULL);
   vkCmdPushConstants(cmd, u->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &use_extra);
   vkCmdDispatch(cmd, 2, 1, 1);
   return cmd;
}

/* out[g] == value + g (+ extra) for the 128 invocations; other buffers
 * untouched (all zero). */
static void uab_check(const char *what, const struct sgt_buffer *out, uint32_t value,
                      const struct sgt_buffer *untouched)
{
   const uint32_t *r = out->map;
   uint32_t bad = 0;
   for (uint32_t g = 0; g < 128; g++) {
      if (r[g] != value + g && bad++ < 4)
         fprintf(stderr, "   %s: out[%u] = %u, expected %u\n", what, g, r[g], value + g);
   }
   SGT_CHECK(bad == 0, "%s: %u wrong results", what, bad);
   if (untouched) {
      const uint32_t *x = untouched->map;
      uint32_t written = 0;
      for (uint32_t g = 0; g < 128; g++)
         written += x[g] != 0;
      SGT_CHECK(written == 0, "%s: the descriptor's old buffer got %u writes", what, written);
   }
}

/* Binding 1's first word, as an inline uniform block. */
static void write_inline(struct sgt_cdev *d, VkDescriptorSet set, uint32_t value)
{
   VkWriteDescriptorSetInlineUniformBlock block = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK,
      .dataSize = 4, .pData = &value};
   /* For inline uniform blocks, dstArrayElement and descriptorCount are a
    * byte offset and a byte count. */
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .pNext = &block,
                             .dstSet = set, .dstBinding = 1, .dstArrayElement = 0,
                             .descriptorCount = 4,
                             .descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK};
   vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
}

static void update_after_bind(struct sgt_cdev *d, enum uab_mode mode)
{
   const VkDescriptorBindingFlags uab = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
   VkDescriptorBindingFlags flags[3] = {0, 0, 0};
   flags[mode == UAB_STORAGE ? 0 : 1] = uab;
   struct uab u;
   uab_create(d, &u, flags, mode == UAB_INLINE);
   struct sgt_buffer out_old, out_new, in_old, in_new, extra;
   sgt_cbuffer(d, 128 * 4, &out_old);
   sgt_cbuffer(d, 128 * 4, &out_new);
   sgt_cbuffer(d, 256, &in_old);
   sgt_cbuffer(d, 256, &in_new);
   sgt_cbuffer(d, 256, &extra);
   *(uint32_t *)in_old.map = 1000;
   *(uint32_t *)in_new.map = 2000;
   sgt_write_buffer(d, u.set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out_old, 0, 0);
   if (mode == UAB_INLINE)
      write_inline(d, u.set, 1000);
   else
      sgt_write_buffer(d, u.set, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &in_old, 0, 0);
   sgt_write_buffer(d, u.set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &extra, 0, 0);
   VkCommandBuffer cmd = uab_record(d, &u, 0);
   /* UPDATE_AFTER_BIND: "if descriptors in this binding are updated between
    * when the descriptor set is bound in a command buffer and when that
    * command buffer is submitted to a queue, then the submission will use
    * the most recently set descriptors for this binding and the updates do
    * not invalidate the command buffer" (VkDescriptorBindingFlagBits). */
   if (mode == UAB_STORAGE)
      sgt_write_buffer(d, u.set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out_new, 0, 0);
   else if (mode == UAB_UNIFORM)
      sgt_write_buffer(d, u.set, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &in_new, 0, 0);
   else
      write_inline(d, u.set, 2000);
   sgt_cmd_submit_wait(d, cmd);
   if (mode == UAB_STORAGE)
      uab_check("storage updated after bind", &out_new, 1000, &out_old);
   else
      uab_check(mode == UAB_UNIFORM ? "uniform updated after bind"
                                    : "inline uniform block updated after bind",
                &out_old, 2000, NULL);
   sgt_cbuffer_destroy(d, &out_old);
   sgt_cbuffer_destroy(d, &out_new);
   sgt_cbuffer_destroy(d, &in_old);
   sgt_cbuffer_destroy(d, &in_new);
   sgt_cbuffer_destroy(d, &extra);
   uab_destroy(d, &u);
}

static void update_after_bind_storage(struct sgt_cdev *d)
{
   if (!d->features12.descriptorBindingStorageBufferUpdateAfterBind) {
      sgt_skip("update_after_bind_storage",
               "descriptorBindingStorageBufferUpdateAfterBind is not advertised");
      return;
   }
   update_after_bind(d, UAB_STORAGE);
}

static void update_after_bind_uniform(struct sgt_cdev *d)
{
   if (!d->features12.descriptorBindingUniformBufferUpdateAfterBind) {
      sgt_skip("update_after_bind_uniform",
               "descriptorBindingUniformBufferUpdateAfterBind is not advertised");
      return;
   }
   update_after_bind(d, UAB_UNIFORM);
}

static void update_after_bind_inline_uniform(struct sgt_cdev *d)
{
   if (!d->features13.inlineUniformBlock ||
       !d->features13.descriptorBindingInlineUniformBlockUpdateAfterBind) {
      sgt_skip("update_after_bind_inline_uniform", "inlineUniformBlock or "
               "descriptorBindingInlineUniformBlockUpdateAfterBind is not advertised");
      return;
   }
   update_after_bind(d, UAB_INLINE);
}

static void update_unused_while_pending(struct sgt_cdev *d)
{
   if (!d->features12.descriptorBindingUpdateUnusedWhilePending ||
       !d->features12.descriptorBindingPartiallyBound) {
      sgt_skip("update_unused_while_pending", "descriptorBindingUpdateUnusedWhilePending or "
               "descriptorBindingPartiallyBound is not advertised");
      return;
   }
   /* The shader names binding 2; the branch to it is not taken. "If
    * VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT is also set, then descriptors
    * can be updated as long as they are not dynamically used by any shader
    * invocations" (VkDescriptorBindingFlagBits, UPDATE_UNUSED_WHILE_PENDING);
    * without it, static use would count. */
   VkDescriptorBindingFlags flags[3] = {0, 0, VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT |
                                                 VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT};
   struct uab u;
   uab_create(d, &u, flags, false);
   struct sgt_buffer out, in, extra_old, extra_new;
   sgt_cbuffer(d, 128 * 4, &out);
   sgt_cbuffer(d, 256, &in);
   sgt_cbuffer(d, 256, &extra_old);
   sgt_cbuffer(d, 256, &extra_new);
   *(uint32_t *)in.map = 3000;
   *(uint32_t *)extra_old.map = 5;
   *(uint32_t *)extra_new.map = 7;
   sgt_write_buffer(d, u.set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0, 0);
   sgt_write_buffer(d, u.set, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &in, 0, 0);
   sgt_write_buffer(d, u.set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &extra_old, 0, 0);
   VkCommandBuffer cmd = uab_record(d, &u, 0);
   sgt_host_barrier(cmd);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   /* The queue waits on a semaphore only the host signals, so the command
    * buffer is pending while the unused binding 2 is rewritten. */
   VkSemaphore gate = sgt_ctimeline(d, 0);
   uint64_t one = 1;
   VkTimelineSemaphoreSubmitInfo ti = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                       .waitSemaphoreValueCount = 1, .pWaitSemaphoreValues = &one};
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ti,
                      .waitSemaphoreCount = 1, .pWaitSemaphores = &gate,
                      .pWaitDstStageMask = &stage,
                      .commandBufferCount = 1, .pCommandBuffers = &cmd};
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence;
   SGT_CHECK_VK(vkCreateFence(d->device, &fi, NULL, &fence));
   SGT_CHECK_VK(vkQueueSubmit(d->queues[0], 1, &si, fence));
   /* UPDATE_UNUSED_WHILE_PENDING: descriptors "can be updated ... while a
    * command buffer that uses this descriptor set is pending execution, as
    * long as the descriptors that are updated are not used by those command
    * buffers" (VkDescriptorBindingFlagBits). */
   sgt_write_buffer(d, u.set, 2, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &extra_new, 0, 0);
   VkSemaphoreSignalInfo sig = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                .semaphore = gate, .value = 1};
   SGT_CHECK_VK(vkSignalSemaphore(d->device, &sig));
   SGT_CHECK_VK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, UINT64_MAX));
   uab_check("unused binding updated while pending", &out, 3000, NULL);
   vkDestroyFence(d->device, fence, NULL);
   vkDestroySemaphore(d->device, gate, NULL);
   vkFreeCommandBuffers(d->device, d->pool, 1, &cmd);
   sgt_cbuffer_destroy(d, &out);
   sgt_cbuffer_destroy(d, &in);
   sgt_cbuffer_destroy(d, &extra_old);
   sgt_cbuffer_destroy(d, &extra_new);
   uab_destroy(d, &u);
}

static void partially_bound(struct sgt_cdev *d)
{
   if (!d->features12.descriptorBindingPartiallyBound) {
      sgt_skip("partially_bound", "descriptorBindingPartiallyBound is not advertised");
      return;
   }
   /* "PARTIALLY_BOUND_BIT indicates that descriptors in this binding that
    * are not dynamically used need not contain valid descriptors at the
    * time the descriptors are consumed" (VkDescriptorBindingFlagBits):
    * binding 2 is never written, and the shader's branch to it is never
    * taken. */
   VkDescriptorBindingFlags flags[3] = {0, 0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT};
   struct uab u;
   uab_create(d, &u, flags, false);
   struct sgt_buffer out, in;
   sgt_cbuffer(d, 128 * 4, &out);
   sgt_cbuffer(d, 256, &in);
   *(uint32_t *)in.map = 4000;
   sgt_write_buffer(d, u.set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0, 0);
   sgt_write_buffer(d, u.set, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &in, 0, 0);
   sgt_cmd_submit_wait(d, uab_record(d, &u, 0));
   uab_check("partially bound", &out, 4000, NULL);
   sgt_cbuffer_destroy(d, &out);
   sgt_cbuffer_destroy(d, &in);
   uab_destroy(d, &u);
}

/* ---- shaderBufferInt64Atomics, shaderSharedInt64Atomics ------------------ */

static uint64_t atomic64_value(uint32_t g)
{
   return (uint64_t)g * 0x100000001ull + ((uint64_t)g << 40);
}

static void int64_buffer_atomics(struct sgt_cdev *d)
{
   if (!d->features.shaderInt64 || !d->features12.shaderBufferInt64Atomics) {
      sgt_skip("int64_buffer_atomics", "shaderInt64 or shaderBufferInt64Atomics is not advertised");
      return;
   }
   const uint32_t groups = 8, n = groups * 64;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("atomic64_buffer"), 1, 0, NULL);
   struct sgt_buffer data;
   sgt_cbuffer(d, 32, &data);
   uint64_t *r = data.map;
   r[2] = UINT64_MAX;   /* the minimum starts high */
   const struct sgt_buffer *bufs[] = {&data};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, groups, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   uint64_t sum = 0, max = 0, min = UINT64_MAX, orr = 0;
   for (uint32_t g = 0; g < n; g++) {
      uint64_t v = atomic64_value(g);
      sum += v, orr |= v;
      max = v > max ? v : max;
      min = v < min ? v : min;
   }
   SGT_CHECK(r[0] == sum && r[1] == max && r[2] == min && r[3] == orr,
             "add 0x%llx (0x%llx), max 0x%llx (0x%llx), min 0x%llx (0x%llx), or 0x%llx (0x%llx)",
             (unsigned long long)r[0], (unsigned long long)sum, (unsigned long long)r[1],
             (unsigned long long)max, (unsigned long long)r[2], (unsigned long long)min,
             (unsigned long long)r[3], (unsigned long long)orr);
   sgt_cbuffer_destroy(d, &data);
   sgt_kernel_destroy(d, &k);
}

static void int64_shared_atomics(struct sgt_cdev *d)
{
   if (!d->features.shaderInt64 || !d->features12.shaderSharedInt64Atomics) {
      sgt_skip("int64_shared_atomics", "shaderInt64 or shaderSharedInt64Atomics is not advertised");
      return;
   }
   const uint32_t groups = 8;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("atomic64_shared"), 1, 0, NULL);
   struct sgt_buffer out;
   sgt_cbuffer(d, groups * 8, &out);
   const struct sgt_buffer *bufs[] = {&out};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, groups, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const uint64_t *r = out.map;
   for (uint32_t w = 0; w < groups; w++) {
      uint64_t sum = 0;
      for (uint32_t g = w * 64; g < (w + 1) * 64; g++)
         sum += atomic64_value(g);
      SGT_CHECK(r[w] == sum, "workgroup %u: shared 64-bit atomic sum 0x%llx, expected 0x%llx", w,
                (unsigned long long)r[w], (unsigned long long)sum);
   }
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &k);
}

/* ---- vulkanMemoryModel, vulkanMemoryModelDeviceScope --------------------- */

static void memory_model(struct sgt_cdev *d)
{
   if (!d->features12.vulkanMemoryModel || !d->features12.vulkanMemoryModelDeviceScope) {
      sgt_skip("memory_model", "vulkanMemoryModel or vulkanMemoryModelDeviceScope is not advertised");
      return;
   }
   const uint32_t groups = 16, n = groups * 64;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("memory_model"), 2, 0, NULL);
   struct sgt_buffer data, seen;
   sgt_cbuffer(d, 16 + n * 4, &data);
   sgt_cbuffer(d, n * 4, &seen);
   const struct sgt_buffer *bufs[] = {&data, &seen};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, groups, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const uint32_t *counter = data.map, *r = seen.map;
   SGT_CHECK(*counter == n, "the device-scope atomic counted %u of %u invocations", *counter, n);
   uint32_t bad = 0;
   for (uint32_t g = 0; g < n; g++) {
      if (r[g] != (g ^ 1u) * 3u + 1u && bad++ < 4)
         fprintf(stderr, "   invocation %u read %u from its neighbour, expected %u\n", g, r[g],
                 (g ^ 1u) * 3u + 1u);
   }
   SGT_CHECK(bad == 0, "%u invocations missed their neighbour's release store", bad);
   sgt_cbuffer_destroy(d, &data);
   sgt_cbuffer_destroy(d, &seen);
   sgt_kernel_destroy(d, &k);
}

/* ---- hostQueryReset ------------------------------------------------------ */

static void host_query_reset(struct sgt_cdev *d)
{
   if (!d->features12.hostQueryReset) {
      sgt_skip("host_query_reset", "hostQueryReset is not advertised");
      return;
   }
   VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                               .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
   VkQueryPool pool;
   SGT_CHECK_VK(vkCreateQueryPool(d->device, &qi, NULL, &pool));
   /* Reset from the host (what hostQueryReset allows), also before the
    * queries' first use, which needs them reset. */
   vkResetQueryPool(d->device, pool, 0, 2);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, pool, 0);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, pool, 1);
   sgt_cmd_submit_wait(d, cmd);
   uint64_t t[2];
   VkResult r = vkGetQueryPoolResults(d->device, pool, 0, 2, sizeof(t), t, 8, VK_QUERY_RESULT_64_BIT);
   SGT_CHECK(r == VK_SUCCESS, "timestamps after the submission: %s", sgt_result_name(r));
   vkResetQueryPool(d->device, pool, 0, 2);
   r = vkGetQueryPoolResults(d->device, pool, 0, 2, sizeof(t), t, 8, VK_QUERY_RESULT_64_BIT);
   SGT_CHECK(r == VK_NOT_READY, "after vkResetQueryPool from the host: %s, expected VK_NOT_READY",
             sgt_result_name(r));
   vkDestroyQueryPool(d->device, pool, NULL);
}

/* ---- VK_KHR_shader_non_semantic_info: debugPrintfEXT ---------------------- */

static void debug_printf(struct sgt_cdev *d)
{
   /* Core in Vulkan 1.3: no feature to check. softgpu prints each line
    * to its log (area shader, on by default); other drivers need a layer. */
   if (!d->is_softgpu) {
      sgt_skip("debug_printf", "only softgpu prints debugPrintfEXT without a layer");
      return;
   }
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("printf"), 0, 0, NULL);
   sgt_stderr_begin();
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, 1, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   char *err = sgt_stderr_end();
   SGT_CHECK(strstr(err, "feature test: invocation 3 of 8"), "debugPrintfEXT's line is missing");
   free(err);
   sgt_kernel_destroy(d, &k);
}

static void storage16(struct sgt_cdev *d)
{
   if (!d->features11.storageBuffer16BitAccess || !d->features11.storagePushConstant16) {
      sgt_skip("storage16", "storageBuffer16BitAccess or storagePushConstant16 is not advertised");
      return;
   }
   const uint32_t n = 256;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("storage16"), 4, 4, NULL);
   struct sgt_buffer halfs, shorts, out, out16;
   sgt_cbuffer(d, 4 * n, &halfs);
   sgt_cbuffer(d, 4 * n, &shorts);
   sgt_cbuffer(d, 16 * n, &out);
   sgt_cbuffer(d, 4 * n, &out16);
   uint16_t *h = halfs.map, *s = shorts.map;
   for (uint32_t i = 0; i < n; i++) {
      h[2 * i] = sgt_float_to_half(((float)i - 100.0f) * 0.37f);
      h[2 * i + 1] = sgt_float_to_half(1.0f / ((float)i + 0.5f));
      s[2 * i] = (uint16_t)(int16_t)(((int32_t)i - 128) * 251);
      s[2 * i + 1] = (uint16_t)(65535u - i * 211u);
   }
   const uint16_t push[2] = {sgt_float_to_half(1.5f), (uint16_t)(int16_t)-300};
   const struct sgt_buffer *bufs[] = {&halfs, &shorts, &out, &out16};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, push, n / 64, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const uint32_t *r = out.map;
   const uint16_t *o = out16.map;
   uint32_t bad = 0;
   for (uint32_t i = 0; i < n && bad < 8; i++) {
      float fx = sgt_half_to_float(h[2 * i]) * 1.5f, fy = sgt_half_to_float(h[2 * i + 1]) * 1.5f;
      float gx, gy;
      memcpy(&gx, &r[4 * i], 4);
      memcpy(&gy, &r[4 * i + 1], 4);
      int32_t si = (int32_t)(int16_t)s[2 * i] - 300;
      uint32_t ui = s[2 * i + 1];
      uint16_t wh = sgt_float_to_half(fx * 3.0f), wu = (uint16_t)(ui * 3u + i);
      bool ok = gx == fx && gy == fy && (int32_t)r[4 * i + 2] == si && r[4 * i + 3] == ui &&
                o[2 * i] == wh && o[2 * i + 1] == wu;
      if (!ok) {
         bad++;
         SGT_CHECK(false,
                   "invocation %u: f (%g, %g) want (%g, %g), si %d want %d, ui %u want %u, "
                   "h 0x%04x want 0x%04x, u %u want %u",
                   i, gx, gy, fx, fy, (int32_t)r[4 * i + 2], si, r[4 * i + 3], ui, o[2 * i], wh,
                   o[2 * i + 1], wu);
      }
   }
   sgt_cbuffer_destroy(d, &halfs);
   sgt_cbuffer_destroy(d, &shorts);
   sgt_cbuffer_destroy(d, &out);
   sgt_cbuffer_destroy(d, &out16);
   sgt_kernel_destroy(d, &k);
}

static void storage8(struct sgt_cdev *d)
{
   if (!d->features12.storageBuffer8BitAccess || !d->features12.storagePushConstant8) {
      sgt_skip("storage8", "storageBuffer8BitAccess or storagePushConstant8 is not advertised");
      return;
   }
   const uint32_t n = 256;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("storage8"), 3, 4, NULL);
   struct sgt_buffer bytes, out, out8;
   sgt_cbuffer(d, 2 * n, &bytes);
   sgt_cbuffer(d, 8 * n, &out);
   sgt_cbuffer(d, n, &out8);
   uint8_t *b = bytes.map;
   for (uint32_t i = 0; i < n; i++) {
      b[2 * i] = (uint8_t)(i * 37u + 5u);   /* read as int8_t: both signs */
      b[2 * i + 1] = (uint8_t)(255u - i);
   }
   const uint8_t push[4] = {200, (uint8_t)(int8_t)-7, 0, 0};
   const struct sgt_buffer *bufs[] = {&bytes, &out, &out8};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, push, n / 64, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const int32_t *r = out.map;
   const uint8_t *o = out8.map;
   uint32_t bad = 0;
   for (uint32_t i = 0; i < n && bad < 8; i++) {
      int32_t x = (int32_t)(int8_t)b[2 * i] + 7, y = (int32_t)b[2 * i + 1] + 200;
      uint8_t w = (uint8_t)(b[2 * i + 1] * 5u + 1u);
      if (r[2 * i] != x || r[2 * i + 1] != y || o[i] != w) {
         bad++;
         SGT_CHECK(false, "invocation %u: (%d, %d) want (%d, %d), byte %u want %u", i, r[2 * i],
                   r[2 * i + 1], x, y, o[i], w);
      }
   }
   sgt_cbuffer_destroy(d, &bytes);
   sgt_cbuffer_destroy(d, &out);
   sgt_cbuffer_destroy(d, &out8);
   sgt_kernel_destroy(d, &k);
}

/* ---- arith16: 8- and 16-bit arithmetic (arith16.comp) ---- */

struct arith16_in {
   uint16_t a, b;   /* binary16 */
   int16_t s, t;
   uint16_t u, v;
   int8_t c, d;
   uint8_t e, f;
};

#define ARITH16_WORDS 40u

static uint32_t half_op(float x)
{
   return sgt_float_to_half(x);
}

/* binary16 bits as an ordered integer (for distances in units in the last
 * place between two finite values of either sign). */
static int32_t half_order(uint32_t h)
{
   return (h & 0x8000u) ? -(int32_t)(h & 0x7fffu) : (int32_t)h;
}

static void arith16_input(struct arith16_in *x, uint32_t i)
{
   x->a = sgt_float_to_half(((float)i - 100.0f) * 0.37f);
   x->b = sgt_float_to_half(1.0f / ((float)i + 0.5f) + 0.25f);
   x->s = (int16_t)(((int32_t)i - 128) * 251);
   x->t = (int16_t)(((int32_t)(i * 7919u % 512u) - 256) * 97);
   x->u = (uint16_t)(65535u - i * 211u);
   x->v = (uint16_t)(i * 1237u + 3u);
   x->c = (int8_t)(uint8_t)(i * 37u + 5u);
   x->d = (int8_t)(uint8_t)(i * 91u + 11u);
   x->e = (uint8_t)(255u - i);
   x->f = (uint8_t)(i * 13u);
}

/* The expected words of one invocation that depend on it alone (the
 * subgroup words, 32 to 36 and 39, are checked by check_arith16_subgroups). */
static void arith16_expect(const struct arith16_in *x, uint32_t i, uint32_t *w)
{
   float a = sgt_half_to_float(x->a), b = sgt_half_to_float(x->b);
   /* binary32 carries more than 2 x 11 + 2 significand bits: rounding the
    * binary32 result of +, -, *, / or sqrt to binary16 is the correctly
    * rounded binary16 result. fma: the product is exact in double. */
   w[0] = half_op(a + b);
   w[1] = half_op(a * b);
   w[2] = half_op(a / b);
   w[3] = half_op((float)((double)a * b + a));
   w[4] = half_op(sqrtf(fabsf(a)));
   w[5] = half_op(fmaxf(a, b) - fminf(a, b));
   w[6] = x->a ^ 0x8000u;
   w[7] = (uint32_t)(a < b) | (uint32_t)(a == b) << 1 | (uint32_t)(a >= b) << 2 | 1u << 3;
   w[8] = half_op(floorf(sgt_half_to_float(half_op(a * 0.5f))));
   w[9] = (uint32_t)(int32_t)a;
   w[10] = half_op((float)x->s);
   memcpy(&w[11], &b, 4);
   w[12] = half_op(expf(sgt_half_to_float(half_op(b * 0.25f))));
   w[13] = half_op(a * b + b * 2.0f);
   w[14] = (uint16_t)(x->s + x->t);
   w[15] = (uint32_t)(int32_t)(int16_t)(x->s * x->t);
   w[16] = (uint32_t)(int32_t)(int16_t)(x->s / (int16_t)(x->t | 1));
   w[17] = (uint16_t)(x->u / (uint16_t)(x->v | 1u));
   w[18] = (uint32_t)(int32_t)(int16_t)(x->s >> 3);
   w[19] = (uint32_t)(x->u >> 5);
   w[20] = (uint32_t)(x->s < x->t) | (uint32_t)(x->u < x->v) << 1 | (uint32_t)(x->s == x->t) << 2 |
           (uint32_t)((x->s < x->t ? x->s : x->t) == x->s) << 3 |
           (uint32_t)((x->u > x->v ? x->u : x->v) == x->u) << 4;
   w[21] = (uint32_t)(int32_t)(x->s > x->t ? x->s : x->t);
   float sum = (float)x->s + (float)x->u;
   memcpy(&w[22], &sum, 4);
   w[23] = (uint32_t)(int32_t)(int8_t)(x->c * x->d);
   w[24] = (uint32_t)(int32_t)(int8_t)(x->c / (int8_t)(x->d | 1));
   w[25] = (uint32_t)(uint8_t)(x->e % (uint8_t)(x->f | 1u));
   w[26] = (uint32_t)(int32_t)(int8_t)(x->c >> 2);
   int8_t clamped = x->c < -10 ? -10 : x->c > 10 ? 10 : x->c;
   w[27] = (uint32_t)(x->c < x->d) | (uint32_t)(x->e > x->f) << 1 | (uint32_t)(clamped == x->c) << 2;
   w[28] = (uint32_t)(uint8_t)x->c | (uint32_t)(uint8_t)x->d << 8 | (uint32_t)x->e << 16 |
           (uint32_t)x->f << 24;
   w[29] = (uint32_t)x->a | (uint32_t)x->b << 16;
   uint32_t word = (uint32_t)x->u * 65537u + i;
   w[30] = (word & 0xffu) + (word >> 8 & 0xffu) * 3u + (word >> 16 & 0xffu) * 5u + (word >> 24) * 7u;
   uint32_t packed = (uint32_t)((int32_t)x->s * 3 + (int32_t)i);
   w[31] = (uint32_t)((int32_t)(int16_t)(packed & 0xffffu) - (int32_t)(int16_t)(packed >> 16));
}

/* Words 12 and 13 go through binary32 functions (exp) or may be computed
 * with a rounding per step (dot), and fma (word 3) may be a rounded
 * multiply then add (Vulkan's precision of fma is that of OpFMul followed
 * by OpFAdd): within 2 units in the last place. */
static bool arith16_close(uint32_t k, uint32_t got, uint32_t want)
{
   if (k != 3 && k != 12 && k != 13)
      return got == want;
   int32_t d = half_order(got & 0xffffu) - half_order(want);
   return got <= 0xffffu && d >= -2 && d <= 2;
}

/* The subgroup words: each subgroup (by the ids the invocations report)
 * reduces its members' inputs; integer-valued halves add exactly. */
static void check_arith16_subgroups(const uint32_t *r, const struct arith16_in *in, uint32_t n)
{
   uint32_t bad = 0;
   for (uint32_t i = 0; i < n && bad < 4; i++) {
      const uint32_t *w = &r[i * ARITH16_WORDS];
      uint32_t group = i / 64, size = w[38];
      float fsum = 0, fmax = -INFINITY;
      int32_t smin = INT32_MAX, csum = 0;
      uint32_t emax = 0, first = UINT32_MAX;
      for (uint32_t j = group * 64; j < group * 64 + 64; j++) {
         if (r[j * ARITH16_WORDS + 37] != w[37])
            continue;
         if (first == UINT32_MAX)
            first = j;
         fsum += (float)(j & 7u);
         fmax = fmaxf(fmax, sgt_half_to_float(in[j].a));
         smin = in[j].s < smin ? in[j].s : smin;
         emax = in[j].e > emax ? in[j].e : emax;
         csum += in[j].c;
      }
      uint32_t want[5] = {half_op(fsum), (uint32_t)smin, emax, (uint32_t)(int32_t)(int8_t)csum,
                          half_op(fmax)};
      bool ok = size >= 1 && size <= 128 && first != UINT32_MAX && w[39] == in[first].b;
      for (uint32_t k = 0; k < 5; k++)
         ok = ok && w[32 + k] == want[k];
      if (!ok) {
         bad++;
         SGT_CHECK(false,
                   "invocation %u (subgroup %u of size %u): add 0x%x want 0x%x, min %d want %d, "
                   "max %u want %u, add8 %d want %d, fmax 0x%x want 0x%x, first 0x%x want 0x%x",
                   i, w[37], size, w[32], want[0], (int32_t)w[33], smin, w[34], emax,
                   (int32_t)w[35], (int32_t)want[3], w[36], want[4], w[39],
                   first == UINT32_MAX ? 0 : in[first].b);
      }
   }
}

/* One run of arith16.comp with the given required subgroup size (0: none). */
static void arith16_run(struct sgt_cdev *d, uint32_t required)
{
   const uint32_t n = 256;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("arith16"), 2, 0, NULL);
   VkPipelineShaderStageRequiredSubgroupSizeCreateInfo req = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
      .requiredSubgroupSize = required};
   VkPipeline sized = VK_NULL_HANDLE, own = k.pipeline;
   if (required) {
      sized = sgt_compute_pipeline_stage(d, k.module, k.layout, NULL, 0, &req);
      k.pipeline = sized;
   }
   struct sgt_buffer in, out;
   sgt_cbuffer(d, sizeof(struct arith16_in) * n, &in);
   sgt_cbuffer(d, 4 * ARITH16_WORDS * n, &out);
   struct arith16_in *x = in.map;
   for (uint32_t i = 0; i < n; i++)
      arith16_input(&x[i], i);
   const struct sgt_buffer *bufs[] = {&in, &out};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, n / 64, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const uint32_t *r = out.map;
   uint32_t bad = 0;
   for (uint32_t i = 0; i < n && bad < 8; i++) {
      uint32_t want[32];
      arith16_expect(&x[i], i, want);
      for (uint32_t w = 0; w < 32 && bad < 8; w++) {
         if (!arith16_close(w, r[i * ARITH16_WORDS + w], want[w])) {
            bad++;
            SGT_CHECK(false, "subgroup size %u: invocation %u, word %u: 0x%08x, want 0x%08x",
                      required, i, w, r[i * ARITH16_WORDS + w], want[w]);
         }
      }
      SGT_CHECK(!required || r[i * ARITH16_WORDS + 38] == required,
                "invocation %u: gl_SubgroupSize %u, required %u", i, r[i * ARITH16_WORDS + 38],
                required);
   }
   check_arith16_subgroups(r, x, n);
   if (sized) {
      k.pipeline = own;
      vkDestroyPipeline(d->device, sized, NULL);
   }
   sgt_cbuffer_destroy(d, &in);
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &k);
}

static void arith16(struct sgt_cdev *d)
{
   if (!d->features12.shaderFloat16 || !d->features.shaderInt16 || !d->features12.shaderInt8 ||
       !d->features12.shaderSubgroupExtendedTypes || !d->features11.storageBuffer16BitAccess ||
       !d->features12.storageBuffer8BitAccess) {
      sgt_skip("arith16", "shaderFloat16, shaderInt16, shaderInt8, shaderSubgroupExtendedTypes or "
                          "8/16-bit storage is not advertised");
      return;
   }
   VkSubgroupFeatureFlags ops = d->props11.subgroupSupportedOperations;
   if (!(ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) || !(ops & VK_SUBGROUP_FEATURE_BALLOT_BIT)) {
      sgt_skip("arith16", "subgroup arithmetic or ballot is not supported");
      return;
   }
   /* At every subgroup size the device offers (requiredSubgroupSize), and
    * at its default one. */
   uint32_t sizes[8] = {0}, count = 1;
   if (d->features13.subgroupSizeControl &&
       (d->props13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
      for (uint32_t w = d->props13.minSubgroupSize; w && w <= d->props13.maxSubgroupSize && count < 8;
           w *= 2)
         sizes[count++] = w;
   }
   for (uint32_t i = 0; i < count; i++)
      arith16_run(d, sizes[i]);
}

/* ---- arith64: 64-bit floats (arith64.comp) ---- */

struct arith64_in {
   double a, b;
   float f;
   int32_t s;
   int64_t l;
   uint32_t u;
   uint16_t h, pad;
};

#define ARITH64_DOUBLES 24u
#define ARITH64_WORDS 8u

static void arith64_input(struct arith64_in *x, uint32_t i)
{
   memset(x, 0, sizeof(*x));
   x->a = ((double)i - 100.3) * 0.3701234567891;
   x->b = 1.0 / ((double)i + 0.7) + 0.25;
   x->f = ((float)i - 50.0f) * 1.7f;
   x->s = ((int32_t)i - 128) * 1000003;
   x->l = ((int64_t)i - 77) * 12345678901234;
   x->u = 4000000000u - i * 7777u;
   x->h = sgt_float_to_half(((float)i - 128.0f) * 0.125f);
}

/* The expected doubles that depend on one invocation alone (21 and 22,
 * subgroup reductions, are checked with the subgroup's members). */
static void arith64_expect(const struct arith64_in *x, double *r, uint32_t *w)
{
   double a = x->a, b = x->b;
   r[0] = a + b;
   r[1] = a * b;
   r[2] = a / b;
   r[3] = sqrt(fabs(a));
   r[4] = floor(a) + (b - floor(b)) * 4.0;
   r[5] = fmin(fmax(a, -5.5), 7.25) - fmin(a, b) + fmax(a, b);
   r[6] = (double)x->f * 3.0;
   r[7] = (double)x->s + (double)x->l + (double)x->u;
   r[8] = sgt_half_to_float(x->h);
   r[9] = a * 8.0;
   int e;
   r[10] = frexp(b * 1.0e300, &e);
   r[11] = (a > 0 ? 1.0 : a < 0 ? -1.0 : 0.0) * trunc(b * 100.0) + round(a) - ceil(b);
   r[13] = trunc(a);
   r[12] = a - r[13];
   r[14] = -a;
   r[15] = a - b * floor(a / b);
   r[16] = fma(a, b, 1.0);
   r[17] = a + (b - a) * 0.375;
   r[18] = a * b + b * 2.0 + a;
   r[19] = a * 3.0 - 1.0 * b;
   r[20] = 1.0 / sqrt(fabs(b) + 1.0);
   float fa = (float)a;
   memcpy(&w[0], &fa, 4);
   w[1] = (uint32_t)(int32_t)(a * 1000.0);
   w[2] = (uint32_t)((int64_t)(b * -1.0e12) >> 20);
   w[3] = sgt_float_to_half((float)a);
   w[4] = (uint32_t)(a < b) | 1u << 1 | (uint32_t)(a >= b) << 2 | (uint32_t)(a != b) << 4;
   uint64_t bits;
   memcpy(&bits, &a, 8);
   w[5] = (uint32_t)bits ^ (uint32_t)(bits >> 32);
   w[6] = (uint32_t)e;
   uint64_t swapped = bits << 32 | bits >> 32;
   double sw;
   memcpy(&sw, &swapped, 8);
   w[7] = sw == b;
}

/* Doubles 16 to 20 may be computed with more roundings (fma unfused,
 * mix, dot and determinant as separate operations, inversesqrt to within
 * Vulkan's precision for it): within a relative 2^-40. */
static bool arith64_close(uint32_t k, double got, double want)
{
   if (k < 16 || k > 20)
      return memcmp(&got, &want, 8) == 0;
   return fabs(got - want) <= fabs(want) * 0x1p-40 + 0x1p-1000;
}

static void arith64(struct sgt_cdev *d)
{
   if (!d->features.shaderFloat64 || !d->features.shaderInt64 || !d->features.shaderInt16 ||
       !d->features12.shaderFloat16 || !d->features11.storageBuffer16BitAccess) {
      sgt_skip("arith64", "shaderFloat64, shaderInt64, shaderInt16, shaderFloat16 or "
                          "storageBuffer16BitAccess is not advertised");
      return;
   }
   VkSubgroupFeatureFlags ops = d->props11.subgroupSupportedOperations;
   if (!(ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) || !(ops & VK_SUBGROUP_FEATURE_BALLOT_BIT)) {
      sgt_skip("arith64", "subgroup arithmetic or ballot is not supported");
      return;
   }
   const uint32_t n = 256;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("arith64"), 3, 0, NULL);
   struct sgt_buffer in, out, words;
   sgt_cbuffer(d, sizeof(struct arith64_in) * n, &in);
   sgt_cbuffer(d, 8 * ARITH64_DOUBLES * n, &out);
   sgt_cbuffer(d, 4 * ARITH64_WORDS * n, &words);
   struct arith64_in *x = in.map;
   for (uint32_t i = 0; i < n; i++)
      arith64_input(&x[i], i);
   const struct sgt_buffer *bufs[] = {&in, &out, &words};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, n / 64, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const double *r = out.map;
   const uint32_t *w = words.map;
   uint32_t bad = 0;
   for (uint32_t i = 0; i < n && bad < 8; i++) {
      double want[ARITH64_DOUBLES];
      uint32_t wantw[ARITH64_WORDS];
      arith64_expect(&x[i], want, wantw);
      for (uint32_t j = 0; j < 21 && bad < 8; j++) {
         if (!arith64_close(j, r[i * ARITH64_DOUBLES + j], want[j])) {
            bad++;
            SGT_CHECK(false, "invocation %u, double %u: %.17g, want %.17g", i, j,
                      r[i * ARITH64_DOUBLES + j], want[j]);
         }
      }
      for (uint32_t j = 0; j < ARITH64_WORDS && bad < 8; j++) {
         if (w[i * ARITH64_WORDS + j] != wantw[j]) {
            bad++;
            SGT_CHECK(false, "invocation %u, word %u: 0x%08x, want 0x%08x", i, j,
                      w[i * ARITH64_WORDS + j], wantw[j]);
         }
      }
      /* the subgroup's members: those reporting the same gl_SubgroupID */
      double sum = 0, max = -INFINITY;
      for (uint32_t j = i / 64 * 64; j < i / 64 * 64 + 64; j++) {
         if (r[j * ARITH64_DOUBLES + 23] == r[i * ARITH64_DOUBLES + 23]) {
            sum += (double)(j & 7u);
            max = fmax(max, x[j].a);
         }
      }
      if (r[i * ARITH64_DOUBLES + 21] != sum || r[i * ARITH64_DOUBLES + 22] != max) {
         bad++;
         SGT_CHECK(false, "invocation %u: subgroupAdd %g want %g, subgroupMax %g want %g", i,
                   r[i * ARITH64_DOUBLES + 21], sum, r[i * ARITH64_DOUBLES + 22], max);
      }
   }
   sgt_cbuffer_destroy(d, &in);
   sgt_cbuffer_destroy(d, &out);
   sgt_cbuffer_destroy(d, &words);
   sgt_kernel_destroy(d, &k);
}

/* ---- explicit_shared: Block-decorated workgroup variables ---- */

static void explicit_shared(struct sgt_cdev *d)
{
   const VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR *f = &d->wmel;
   if (!d->workgroup_explicit_layout || !f->workgroupMemoryExplicitLayout ||
       !f->workgroupMemoryExplicitLayout8BitAccess || !f->workgroupMemoryExplicitLayout16BitAccess ||
       !f->workgroupMemoryExplicitLayoutScalarBlockLayout || !d->features12.shaderInt8 ||
       !d->features.shaderInt16) {
      sgt_skip("explicit_shared", "VK_KHR_workgroup_memory_explicit_layout with its 8-/16-bit and "
                                  "scalar features, shaderInt8 or shaderInt16 is not advertised");
      return;
   }
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("explicit_shared"), 1, 0, NULL);
   struct sgt_buffer out;
   sgt_cbuffer(d, 4 * 4 * 64, &out);
   const struct sgt_buffer *bufs[] = {&out};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, 1, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const uint32_t *r = out.map;
   uint32_t bad = 0;
   for (uint32_t i = 0; i < 64 && bad < 8; i++) {
      uint32_t j = 63 - i, wj = j * 0x01020304u + 0x10u;
      /* the scalar vec3 array: element i's y is word 3i + 1 */
      uint32_t y = i < 21 ? (3 * i + 1) * 0x01020304u + 0x10u : 0;
      uint32_t last = i < 32 ? (i | (i + 1000u) << 16) : i * 0x01020304u + 0x10u;
      uint32_t want[4] = {wj, (wj >> (8 * (i & 3))) & 0xffu, y, last};
      for (uint32_t w = 0; w < 4; w++) {
         if (r[4 * i + w] != want[w]) {
            bad++;
            SGT_CHECK(false, "invocation %u, word %u: 0x%08x, want 0x%08x", i, w, r[4 * i + w],
                      want[w]);
         }
      }
   }
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &k);
}

/* ---- atomic_float: VK_EXT_shader_atomic_float (atomic_float.comp) ---- */

struct atomic_float_sums {
   float fsum;
   uint32_t pad;
   double dsum;
   float fx;
   uint32_t pad2;
   double dx;
};

struct atomic_float_out {
   float fold[64];
   double dold[64];
   float shared_f;
   uint32_t pad;
   double shared_d;
};

/* The exchanges' old values and the last value stored are the initial
 * value and the 64 stored ones, each once, in some order: flags[k] marks
 * value k (0 .. 63) and flags[64] the initial one. */
static bool exchanges_complete(const double *olds, double last, double initial, double offset)
{
   bool seen[65] = {false};
   for (uint32_t i = 0; i <= 64; i++) {
      double x = i < 64 ? olds[i] : last;
      int k = x == initial ? 64 : (int)(x - offset);
      if (k < 0 || k > 64 || (k < 64 && x != (double)k + offset) || seen[k])
         return false;
      seen[k] = true;
   }
   return true;
}

static void atomic_float(struct sgt_cdev *d)
{
   const VkPhysicalDeviceShaderAtomicFloatFeaturesEXT *f = &d->atomic_float;
   if (!d->atomic_float_enabled || !f->shaderBufferFloat32AtomicAdd || !f->shaderBufferFloat64AtomicAdd ||
       !f->shaderSharedFloat32AtomicAdd || !f->shaderSharedFloat64AtomicAdd ||
       !f->shaderBufferFloat32Atomics || !f->shaderBufferFloat64Atomics ||
       !f->shaderSharedFloat32Atomics || !f->shaderSharedFloat64Atomics || !d->features.shaderFloat64) {
      sgt_skip("atomic_float", "VK_EXT_shader_atomic_float's buffer and shared features or "
                               "shaderFloat64 are not advertised");
      return;
   }
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("atomic_float"), 2, 0, NULL);
   struct sgt_buffer sums, out;
   sgt_cbuffer(d, sizeof(struct atomic_float_sums), &sums);
   sgt_cbuffer(d, sizeof(struct atomic_float_out), &out);
   struct atomic_float_sums *s = sums.map;
   memset(s, 0, sizeof(*s));
   s->fx = -7.0f;
   s->dx = -3.5;
   const struct sgt_buffer *bufs[] = {&sums, &out};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, 1, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   const struct atomic_float_out *o = out.map;
   /* Sums of multiples of 1/4 below 2^10: exact in any order. */
   SGT_CHECK(s->fsum == 1008.0f && s->dsum == 504.0, "buffer sums %g and %g, want 1008 and 504",
             s->fsum, s->dsum);
   SGT_CHECK(o->shared_f == 2016.0f && o->shared_d == 4032.0,
             "shared sums %g and %g, want 2016 and 4032", o->shared_f, o->shared_d);
   double fold[64];
   for (uint32_t i = 0; i < 64; i++)
      fold[i] = o->fold[i];
   SGT_CHECK(exchanges_complete(fold, s->fx, -7.0, 0.0),
             "32-bit exchanges lost or repeated a value (last %g)", s->fx);
   SGT_CHECK(exchanges_complete(o->dold, s->dx, -3.5, 0.5),
             "64-bit exchanges lost or repeated a value (last %g)", s->dx);
   sgt_cbuffer_destroy(d, &sums);
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &k);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"subgroup_int64", subgroup_int64},
      {"zero_initialize_workgroup_memory", zero_initialize_workgroup_memory},
      {"subgroup_size_control", subgroup_size_control},
      {"compute_full_subgroups", compute_full_subgroups},
      {"creation_feedback", creation_feedback},
      {"device_buffer_requirements", device_buffer_requirements},
      {"update_after_bind_storage", update_after_bind_storage},
      {"update_after_bind_uniform", update_after_bind_uniform},
      {"update_after_bind_inline_uniform", update_after_bind_inline_uniform},
      {"update_unused_while_pending", update_unused_while_pending},
      {"partially_bound", partially_bound},
      {"memory_model", memory_model},
      {"int64_buffer_atomics", int64_buffer_atomics},
      {"int64_shared_atomics", int64_shared_atomics},
      {"host_query_reset", host_query_reset},
      {"debug_printf", debug_printf},
      {"storage16", storage16},
      {"storage8", storage8},
      {"arith16", arith16},
      {"arith64", arith64},
      {"explicit_shared", explicit_shared},
      {"atomic_float", atomic_float},
   };
   const struct sgt_compute_options opts = {.every_feature = true};
   return sgt_compute_main(argc, argv, &opts, tests, sizeof(tests) / sizeof(tests[0]));
}
