/*
 * Pipelines and their inputs, checked against C:
 * - push_constants: the whole push constant range (256 bytes when the
 *   device allows it, else the 128 Vulkan guarantees) filled by several
 *   vkCmdPushConstants ranges, a sub-range updated between dispatches (the
 *   rest persists, the last write of a byte wins), and values that survive
 *   binding another pipeline of the same layout;
 * - specialization: specialization constants of every 32-bit kind, from
 *   a packed data block with map entries out of order, the workgroup size
 *   (local_size_x_id) including a shared array sized by it, defaults for
 *   constants left out; also as SPIR-V 1.6 LocalSizeId (maintenance4);
 * - pipeline_cache: a cache round trip (create with a cache, get its data,
 *   destroy everything, recreate the cache from the data, create the
 *   pipeline again, same results), the cache header fields, short
 *   vkGetPipelineCacheData, corrupted headers and payloads ignored,
 *   vkMergePipelineCaches, and FAIL_ON_PIPELINE_COMPILE_REQUIRED;
 * - batch_create: several pipelines in one vkCreateComputePipelines call,
 *   one of them a derivative of another.
 */
#include <string.h>

#include "sgt_compute.h"

/* ---- push_constants ------------------------------------------------------- */

static void push_variant(struct sgt_cdev *d, uint32_t bytes, const char *shader_a,
                         const char *shader_b, uint32_t b_words)
{
   const uint32_t words = bytes / 4;
   VkDescriptorSetLayout sl = sgt_storage_layout(d, 1);
   VkPipelineLayout layout = sgt_pipeline_layout(d, 1, &sl, bytes);
   VkShaderModule ma = sgt_shader_module(d, shader_a), mb = sgt_shader_module(d, shader_b);
   VkPipeline pa = sgt_compute_pipeline(d, ma, layout, NULL, 0, VK_NULL_HANDLE);
   VkPipeline pb = sgt_compute_pipeline(d, mb, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 3, 0);
   struct sgt_buffer out[3];
   VkDescriptorSet sets[3];
   for (uint32_t i = 0; i < 3; i++) {
      sgt_cbuffer(d, 256, &out[i]);
      memset(out[i].map, 0xcc, 256);
      sets[i] = sgt_alloc_set(d, pool, sl);
      sgt_write_buffer(d, sets[i], 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out[i], 0, 0);
   }
   uint32_t w[64], w2[64];
   for (uint32_t i = 0; i < 64; i++)
      w[i] = 0x1000u * (i + 1) + i;

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pa);
   /* Three ranges covering [0, bytes). */
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, w);
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 16, 84, w + 4);
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 100, bytes - 100, w + 25);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[0], 0, NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   /* Words 10 and 11 change; word 0 is written twice, the last wins; the
    * source array changes after recording (the values were copied). */
   memcpy(w2, w, sizeof(w));
   w2[10] = 0xaaaa0010, w2[11] = 0xaaaa0011, w2[0] = 0xbeef;
   uint32_t dead = 0xdead;
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 40, 8, w2 + 10);
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &dead);
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &w2[0]);
   dead = 0;
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[1], 0, NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   /* Another pipeline with the same layout: the push constants stay. */
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pb);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[2], 0, NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   memset(w, 0, sizeof(w));   /* after recording: must not matter */
   sgt_cmd_submit_wait(d, cmd);

   uint32_t want[3][64];
   for (uint32_t i = 0; i < 64; i++) {
      uint32_t orig = 0x1000u * (i + 1) + i;
      want[0][i] = i < words ? orig : 0xcccccccc;
      want[1][i] = i < words ? w2[i] : 0xcccccccc;
      want[2][i] = i < b_words ? w2[i] : 0xcccccccc;
   }
   char what[96];
   snprintf(what, sizeof(what), "%u-byte push constants, three ranges", bytes);
   sgt_check_words(what, out[0].map, want[0], 64);
   snprintf(what, sizeof(what), "%u-byte push constants, partly rewritten", bytes);
   sgt_check_words(what, out[1].map, want[1], 64);
   snprintf(what, sizeof(what), "%u-byte push constants, after binding another pipeline", bytes);
   sgt_check_words(what, out[2].map, want[2], 64);

   for (uint32_t i = 0; i < 3; i++)
      sgt_cbuffer_destroy(d, &out[i]);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   vkDestroyPipeline(d->device, pa, NULL);
   vkDestroyPipeline(d->device, pb, NULL);
   vkDestroyShaderModule(d->device, ma, NULL);
   vkDestroyShaderModule(d->device, mb, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl, NULL);
}

static void push_constants(struct sgt_cdev *d)
{
   uint32_t max = d->props.limits.maxPushConstantsSize;
   SGT_CHECK(max >= 128, "maxPushConstantsSize is %u, Vulkan requires 128", max);
   push_variant(d, 128, SGT_SHADER("push128"), SGT_SHADER("push128"), 32);
   if (max >= 256)
      /* The second pipeline reads only the first 128 bytes of the range. */
      push_variant(d, 256, SGT_SHADER("push"), SGT_SHADER("push128"), 32);
   else
      sgt_skip("push_constants: 256 bytes", "maxPushConstantsSize is %u (Vulkan requires 128)",
               max);
}

/* ---- specialization -------------------------------------------------------- */

struct spec_values {
   bool set_size, set_u, set_i, set_f, set_b;
   uint32_t size, u;
   int32_t i;
   float f;
   bool b;
};

static void spec_case(struct sgt_cdev *d, const char *shader, const struct spec_values *v,
                      const char *what)
{
   /* A packed block in an order of its own; entries listed out of order. */
   struct {
      float f;
      uint32_t pad;
      int32_t i;
      VkBool32 b;
      uint32_t u;
      uint32_t size;
   } data = {v->f, 0xffffffff, v->i, v->b ? VK_TRUE : VK_FALSE, v->u, v->size};
   VkSpecializationMapEntry entries[5];
   uint32_t n = 0;
   if (v->set_b)
      entries[n++] = (VkSpecializationMapEntry){4, 12, sizeof(VkBool32)};
   if (v->set_size)
      entries[n++] = (VkSpecializationMapEntry){0, 20, 4};
   if (v->set_f)
      entries[n++] = (VkSpecializationMapEntry){3, 0, 4};
   if (v->set_u)
      entries[n++] = (VkSpecializationMapEntry){1, 16, 4};
   if (v->set_i)
      entries[n++] = (VkSpecializationMapEntry){2, 8, 4};
   VkSpecializationInfo spec = {.mapEntryCount = n, .pMapEntries = entries,
                                .dataSize = sizeof(data), .pData = &data};
   uint32_t size = v->set_size ? v->size : 1;
   uint32_t u = v->set_u ? v->u : 7;
   int32_t i = v->set_i ? v->i : -3;
   float f = v->set_f ? v->f : 1.5f;
   bool b = v->set_b ? v->b : false;

   uint32_t groups = (200 + size - 1) / size;
   uint32_t total = groups * size;
   struct sgt_buffer out, info;
   sgt_cbuffer(d, (VkDeviceSize)total * 8 + 64, &out);
   sgt_cbuffer(d, 32, &info);
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, shader, 2, 0, n ? &spec : NULL);
   memset(&data, 0, sizeof(data));   /* consumed at pipeline creation */
   const struct sgt_buffer *bufs[] = {&out, &info};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &k, NULL, groups, 1, 1);
   sgt_cmd_submit_wait(d, cmd);

   uint32_t *want = calloc((size_t)total * 2 + 16, 4);
   for (uint32_t g = 0; g < total; g++) {
      uint32_t l = g % size, base = g - l;
      want[2 * g] = (base + size - 1 - l) * u;
      want[2 * g + 1] = size;
   }
   float f2 = f * 2.0f;
   uint32_t want_info[8] = {u, (uint32_t)i, 0, b ? 1u : 0u, 42, size,
                            (uint32_t)(i * (int32_t)u) + (b ? 1000u : 0u), groups};
   memcpy(&want_info[2], &f2, 4);
   char w[128];
   snprintf(w, sizeof(w), "%s: per-invocation results", what);
   sgt_check_words(w, out.map, want, total * 2 + 16);
   snprintf(w, sizeof(w), "%s: constants (U, I, F*2, B, UNSET, size, I*U+B, groups)", what);
   sgt_check_words(w, info.map, want_info, 8);
   free(want);
   sgt_kernel_destroy(d, &k);
   sgt_cbuffer_destroy(d, &out);
   sgt_cbuffer_destroy(d, &info);
}

static void specialization(struct sgt_cdev *d)
{
   uint32_t big = d->props.limits.maxComputeWorkGroupInvocations;
   if (big > d->props.limits.maxComputeWorkGroupSize[0])
      big = d->props.limits.maxComputeWorkGroupSize[0];
   if (big > 1024)
      big = 1024;
   const struct spec_values none = {0};
   const struct spec_values all = {true, true, true, true, true, 64, 11, -9, 0.25f, true};
   const struct spec_values odd = {.set_size = true, .size = 7, .set_u = true, .u = 3};
   const struct spec_values large = {.set_size = true, .size = big, .set_b = true, .b = true,
                                     .set_i = true, .i = 5};
   spec_case(d, SGT_SHADER("spec"), &none, "no specialization (defaults, workgroup size 1)");
   spec_case(d, SGT_SHADER("spec"), &all, "every constant specialized, workgroup size 64");
   spec_case(d, SGT_SHADER("spec"), &odd, "two constants specialized, workgroup size 7");
   spec_case(d, SGT_SHADER("spec"), &large, "the largest workgroup size");
   /* SPIR-V 1.6 expresses local_size_x_id as LocalSizeId, which needs
    * maintenance4 (required by Vulkan 1.3). */
   if (!d->maintenance4) {
      SGT_REQUIRED_FEATURE_MISSING("specialization: LocalSizeId", "maintenance4", "Vulkan 1.3");
   } else {
      spec_case(d, SGT_SHADER("spec_v13"), &all, "SPIR-V 1.6 LocalSizeId, workgroup size 64");
      spec_case(d, SGT_SHADER("spec_v13"), &odd, "SPIR-V 1.6 LocalSizeId, workgroup size 7");
   }
}

/* ---- pipeline_cache -------------------------------------------------------- */

/* Runs the saxpy pipeline `pipe` (layout and set of k) and checks it. */
static void run_saxpy(struct sgt_cdev *d, struct sgt_kernel *k, VkPipeline pipe, const char *what)
{
   const uint32_t n = 5000;
   struct sgt_buffer x, y;
   sgt_cbuffer(d, n * 4, &x);
   sgt_cbuffer(d, n * 4, &y);
   float *xs = x.map, *ys = y.map, want[5000];
   for (uint32_t i = 0; i < n; i++) {
      xs[i] = (float)(i % 300) * 0.5f;
      ys[i] = (float)(i % 11);
      want[i] = 2.0f * xs[i] + ys[i];
   }
   const struct sgt_buffer *bufs[] = {&x, &y};
   sgt_kernel_bind(d, k, bufs);
   struct { float a; uint32_t n; } push = {2.0f, n};
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0, NULL);
   vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, &push);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   sgt_check_words(what, y.map, (const uint32_t *)want, n);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &y);
}

static VkPipelineCache make_cache(struct sgt_cdev *d, const void *data, size_t size,
                                  VkPipelineCacheCreateFlags flags)
{
   VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                   .flags = flags,
                                   .initialDataSize = size,
                                   .pInitialData = data};
   VkPipelineCache c;
   SGT_CHECK_VK(vkCreatePipelineCache(d->device, &ci, NULL, &c));
   return c;
}

/* Gets a cache's data (malloc'd) and checks its header ("Pipeline Cache
 * Header"). */
static uint8_t *cache_data(struct sgt_cdev *d, VkPipelineCache cache, size_t *size, const char *what)
{
   size_t n = 0;
   SGT_CHECK_VK(vkGetPipelineCacheData(d->device, cache, &n, NULL));
   SGT_CHECK(n >= 32, "%s: the cache data is %zu bytes, shorter than its header", what, n);
   uint8_t *buf = malloc(n + 16);
   memset(buf, 0x5a, n + 16);
   size_t got = n;
   SGT_CHECK_VK(vkGetPipelineCacheData(d->device, cache, &got, buf));
   SGT_CHECK(got <= n, "%s: %zu bytes returned for a size of %zu", what, got, n);
   for (size_t i = n; i < n + 16; i++)
      SGT_CHECK(buf[i] == 0x5a, "%s: byte %zu written past the size given", what, i);
   if (got >= 32) {
      uint32_t hdr[4];
      memcpy(hdr, buf, 16);
      SGT_CHECK(hdr[0] == 32, "%s: header length %u, expected 32", what, hdr[0]);
      SGT_CHECK(hdr[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE, "%s: header version %u", what,
                hdr[1]);
      SGT_CHECK(hdr[2] == d->props.vendorID, "%s: vendorID 0x%x, the device's is 0x%x", what,
                hdr[2], d->props.vendorID);
      SGT_CHECK(hdr[3] == d->props.deviceID, "%s: deviceID 0x%x, the device's is 0x%x", what,
                hdr[3], d->props.deviceID);
      SGT_CHECK(memcmp(buf + 16, d->props.pipelineCacheUUID, VK_UUID_SIZE) == 0,
                "%s: the header's UUID is not pipelineCacheUUID", what);
   }
   *size = got;
   return buf;
}

static void pipeline_cache(struct sgt_cdev *d)
{
   /* 1. A pipeline created with an empty cache. */
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("saxpy"), 2, 8, NULL);
   VkPipelineCache cache = make_cache(d, NULL, 0, 0);
   VkPipeline pipe = sgt_compute_pipeline(d, k.module, k.layout, NULL, 0, cache);
   run_saxpy(d, &k, pipe, "saxpy with a new cache");

   /* Too small for the header: VK_INCOMPLETE, nothing written, size 0. */
   uint8_t small[16];
   memset(small, 0x77, sizeof(small));
   size_t small_size = sizeof(small);
   VkResult r = vkGetPipelineCacheData(d->device, cache, &small_size, small);
   SGT_CHECK(r == VK_INCOMPLETE, "vkGetPipelineCacheData into 16 bytes returned %s",
             sgt_result_name(r));
   SGT_CHECK(small_size == 0, "vkGetPipelineCacheData into 16 bytes reported %zu bytes",
             small_size);
   for (uint32_t i = 0; i < sizeof(small); i++)
      SGT_CHECK(small[i] == 0x77, "vkGetPipelineCacheData wrote byte %u of a too-small buffer", i);

   size_t size;
   uint8_t *data = cache_data(d, cache, &size, "cache after one pipeline");

   /* 2. Destroy everything, recreate from the data. */
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyPipelineCache(d->device, cache, NULL);
   sgt_kernel_destroy(d, &k);
   sgt_kernel_create(d, &k, SGT_SHADER("saxpy"), 2, 8, NULL);
   cache = make_cache(d, data, size, 0);
   pipe = sgt_compute_pipeline(d, k.module, k.layout, NULL, 0, cache);
   run_saxpy(d, &k, pipe, "saxpy from a cache recreated from its data");
   size_t size2;
   free(cache_data(d, cache, &size2, "recreated cache"));
   vkDestroyPipeline(d->device, pipe, NULL);

   /* 3. Corrupted data: the cache must ignore it (start empty), never
    * crash, and pipelines created with it must still be right. The header
    * cases are what "Pipeline Cache Header" makes incompatible; the
    * payload cases go beyond the spec (data from vkGetPipelineCacheData is
    * assumed intact) but a damaged cache file must not take a process
    * down either. */
   struct { uint32_t offset; uint32_t value; const char *what; } bad[] = {
      {0, 0xffffffff, "header length 0xffffffff"},
      {0, 4, "header length 4"},
      {4, 0x7fffffff, "unknown header version"},
      {8, 0, "vendorID changed"},
      {12, 0, "deviceID changed"},
      {16, 0, "pipelineCacheUUID changed"},
      {28, 0, "last UUID bytes changed"},
      {32, 0, "first payload word changed"},
      {UINT32_MAX, 0, "payload bytes flipped throughout"},
      {UINT32_MAX - 1, 0, "random bytes"},
   };
   VkPipelineCache corrupt_cache = VK_NULL_HANDLE;
   for (uint32_t c = 0; c < sizeof(bad) / sizeof(bad[0]); c++) {
      uint8_t *copy = malloc(size);
      memcpy(copy, data, size);
      if (bad[c].offset == UINT32_MAX) {
         for (size_t i = 32; i < size; i += 7)
            copy[i] ^= 0x5a;
      } else if (bad[c].offset == UINT32_MAX - 1) {
         uint32_t seed = 4242;
         for (size_t i = 0; i < size; i++)
            copy[i] = (uint8_t)sgt_rand(&seed);
      } else if (bad[c].offset + 4 <= size) {
         uint32_t old;
         memcpy(&old, copy + bad[c].offset, 4);
         uint32_t v = bad[c].value ? bad[c].value : ~old;
         memcpy(copy + bad[c].offset, &v, 4);
      } else {
         free(copy);
         continue;   /* no payload to corrupt */
      }
      fprintf(stderr, "   corrupted cache: %s\n", bad[c].what);
      VkPipelineCache cc = make_cache(d, copy, size, 0);
      memset(copy, 0, size);   /* the cache must have copied what it kept */
      free(copy);
      VkPipeline p = sgt_compute_pipeline(d, k.module, k.layout, NULL, 0, cc);
      char what[96];
      snprintf(what, sizeof(what), "saxpy with a cache from data with %s", bad[c].what);
      run_saxpy(d, &k, p, what);
      size_t s;
      free(cache_data(d, cc, &s, what));
      vkDestroyPipeline(d->device, p, NULL);
      if (!corrupt_cache)
         corrupt_cache = cc;
      else
         vkDestroyPipelineCache(d->device, cc, NULL);
   }

   /* 4. Merging the good and a corrupted cache into an empty one. */
   VkPipelineCache merged = make_cache(d, NULL, 0, 0);
   VkPipelineCache srcs[2] = {cache, corrupt_cache};
   SGT_CHECK_VK(vkMergePipelineCaches(d->device, merged, 2, srcs));
   pipe = sgt_compute_pipeline(d, k.module, k.layout, NULL, 0, merged);
   run_saxpy(d, &k, pipe, "saxpy with a merged cache");
   vkDestroyPipeline(d->device, pipe, NULL);
   size_t msize;
   free(cache_data(d, merged, &msize, "merged cache"));

   /* 5. FAIL_ON_PIPELINE_COMPILE_REQUIRED (pipelineCreationCacheControl,
    * required by Vulkan 1.3): either a working pipeline or
    * VK_PIPELINE_COMPILE_REQUIRED and a null handle. */
   if (!d->pipeline_creation_cache_control) {
      SGT_REQUIRED_FEATURE_MISSING("pipeline_cache: FAIL_ON_PIPELINE_COMPILE_REQUIRED",
                                   "pipelineCreationCacheControl", "Vulkan 1.3");
   } else {
      VkPipelineCache ext = make_cache(d, data, size,
                                       VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT);
      VkPipelineCache caches[2] = {merged, ext};
      for (uint32_t c = 0; c < 2; c++) {
         VkComputePipelineCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = k.module, .pName = "main"},
            .layout = k.layout,
            .basePipelineIndex = -1,
         };
         VkPipeline p = (VkPipeline)(uintptr_t)0x1234;
         r = vkCreateComputePipelines(d->device, caches[c], 1, &info, NULL, &p);
         if (r == VK_SUCCESS) {
            run_saxpy(d, &k, p, "saxpy created with FAIL_ON_PIPELINE_COMPILE_REQUIRED");
            vkDestroyPipeline(d->device, p, NULL);
         } else {
            SGT_CHECK(r == VK_PIPELINE_COMPILE_REQUIRED,
                      "FAIL_ON_PIPELINE_COMPILE_REQUIRED: vkCreateComputePipelines returned %s",
                      sgt_result_name(r));
            SGT_CHECK(p == VK_NULL_HANDLE, "VK_PIPELINE_COMPILE_REQUIRED left a pipeline handle");
         }
      }
      vkDestroyPipelineCache(d->device, ext, NULL);
   }

   free(data);
   vkDestroyPipelineCache(d->device, merged, NULL);
   vkDestroyPipelineCache(d->device, cache, NULL);
   if (corrupt_cache)
      vkDestroyPipelineCache(d->device, corrupt_cache, NULL);
   sgt_kernel_destroy(d, &k);
}

/* ---- batch_create --------------------------------------------------------- */

static void batch_create(struct sgt_cdev *d)
{
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("saxpy"), 2, 8, NULL);
   VkShaderModule other = sgt_shader_module(d, SGT_SHADER("saxpy"));
   VkComputePipelineCreateInfo info[3];
   for (uint32_t i = 0; i < 3; i++) {
      info[i] = (VkComputePipelineCreateInfo){
         .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
         .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = i == 2 ? other : k.module,
                   .pName = "main"},
         .layout = k.layout,
         .basePipelineIndex = -1,
      };
   }
   info[0].flags = VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT;
   info[1].flags = VK_PIPELINE_CREATE_DERIVATIVE_BIT;
   info[1].basePipelineIndex = 0;
   VkPipeline p[3];
   SGT_CHECK_VK(vkCreateComputePipelines(d->device, VK_NULL_HANDLE, 3, info, NULL, p));
   /* The module may go before its pipelines ("Shader Modules"). */
   vkDestroyShaderModule(d->device, other, NULL);
   SGT_CHECK(p[0] != p[1] && p[1] != p[2] && p[0] != p[2], "pipeline handles are not distinct");
   run_saxpy(d, &k, p[0], "batch-created pipeline 0 (allows derivatives)");
   run_saxpy(d, &k, p[1], "batch-created pipeline 1 (a derivative of 0)");
   run_saxpy(d, &k, p[2], "batch-created pipeline 2 (module destroyed)");
   for (uint32_t i = 0; i < 3; i++)
      vkDestroyPipeline(d->device, p[i], NULL);
   sgt_kernel_destroy(d, &k);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"push_constants", push_constants},
      {"specialization", specialization},
      {"pipeline_cache", pipeline_cache},
      {"batch_create", batch_create},
   };
   return sgt_compute_main(argc, argv, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
