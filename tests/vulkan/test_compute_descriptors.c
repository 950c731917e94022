/*
 * Descriptors, each case checked against the buffers the test meant the
 * shader to see:
 * - multi_set: four set layouts, bound by two vkCmdBindDescriptorSets
 *   calls in reverse order, set 2 left unbound (not used by the shader),
 *   then one set rebound between two dispatches;
 * - dynamic_offsets: dynamic storage and uniform buffers in two sets, with
 *   a base offset in the descriptor plus the dynamic offset, different
 *   offsets per dispatch in one command buffer, pDynamicOffsets ordered by
 *   set then binding; runtime array lengths from the descriptor range;
 * - arrays: descriptor arrays, one write that spills into the next binding
 *   (consecutive binding updates), uniform array elements at offsets in
 *   one buffer; dynamic indexing when the device offers it;
 * - templates: vkUpdateDescriptorSetWithTemplate from a user struct with
 *   strides and offsets of its own;
 * - push_descriptors: VK_KHR_push_descriptor next to an ordinary set,
 *   incremental pushes between dispatches, and a push template (skipped
 *   when the extension is not advertised);
 * - copies: vkUpdateDescriptorSets with copies, by value (changing the
 *   source afterwards changes nothing), across consecutive bindings;
 * - free_and_reset: freeing sets, reallocating, resetting the pool,
 *   allocating past maxSets (if it fails, VK_ERROR_OUT_OF_POOL_MEMORY and
 *   every handle VK_NULL_HANDLE);
 * - inline_uniform: inline uniform blocks (required by Vulkan 1.3) written
 *   in pieces, copied and updated through a template.
 */
#include <stddef.h>
#include <string.h>

#include "sgt_compute.h"

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
   return (v + a - 1) / a * a;
}

/* ---- multi_set ------------------------------------------------------------ */

static VkDescriptorSetLayout layout_of(struct sgt_cdev *d, uint32_t count,
                                       const VkDescriptorSetLayoutBinding *b,
                                       VkDescriptorSetLayoutCreateFlags flags)
{
   VkDescriptorSetLayoutCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .flags = flags,
                                           .bindingCount = count,
                                           .pBindings = b};
   VkDescriptorSetLayout l;
   SGT_CHECK_VK(vkCreateDescriptorSetLayout(d->device, &info, NULL, &l));
   return l;
}

#define BINDING(n, type, count)                                                                  \
   ((VkDescriptorSetLayoutBinding){.binding = (n), .descriptorType = (type),                     \
                                   .descriptorCount = (count),                                   \
                                   .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT})

static void multi_set(struct sgt_cdev *d)
{
   const uint32_t n = 100;
   VkDescriptorSetLayoutBinding b0[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
   VkDescriptorSetLayoutBinding b1[] = {BINDING(3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)};
   VkDescriptorSetLayoutBinding b2[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
   VkDescriptorSetLayoutBinding b3[] = {BINDING(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                        BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
   VkDescriptorSetLayout sl[4] = {layout_of(d, 1, b0, 0), layout_of(d, 1, b1, 0),
                                  layout_of(d, 1, b2, 0), layout_of(d, 2, b3, 0)};
   VkPipelineLayout layout = sgt_pipeline_layout(d, 4, sl, 8);
   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("multi_set"));
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 8, 0);

   struct sgt_buffer a, k, bb, o, o2;
   sgt_cbuffer(d, n * 4, &a);
   sgt_cbuffer(d, 512, &k);
   sgt_cbuffer(d, n * 4, &bb);
   sgt_cbuffer(d, 2 * n * 4, &o);
   sgt_cbuffer(d, 2 * n * 4, &o2);
   uint32_t *as = a.map, *bs = bb.map, *ks = k.map;
   for (uint32_t i = 0; i < n; i++) {
      as[i] = i + 1;
      bs[i] = 1000 * i;
   }
   ks[0] = 3, ks[1] = 7;      /* k at offset 0 */
   ks[64] = 5, ks[65] = 11;   /* k' at offset 256 */

   VkDescriptorSet s0 = sgt_alloc_set(d, pool, sl[0]);
   VkDescriptorSet s1 = sgt_alloc_set(d, pool, sl[1]);
   VkDescriptorSet s1b = sgt_alloc_set(d, pool, sl[1]);
   VkDescriptorSet s3 = sgt_alloc_set(d, pool, sl[3]);
   VkDescriptorSet s3b = sgt_alloc_set(d, pool, sl[3]);
   sgt_write_buffer(d, s0, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &a, 0, 0);
   sgt_write_buffer(d, s1, 3, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &k, 0, 16);
   sgt_write_buffer(d, s1b, 3, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &k, 256, 16);
   sgt_write_buffer(d, s3, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &bb, 0, 0);
   sgt_write_buffer(d, s3, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &o, 0, 0);
   sgt_write_buffer(d, s3b, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &bb, 0, 0);
   sgt_write_buffer(d, s3b, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &o2, 0, 0);

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 3, 1, &s3, 0, NULL);
   VkDescriptorSet first[2] = {s0, s1};
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, first, 0, NULL);
   uint32_t push[2] = {n, 0};
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, push);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_compute_barrier(cmd);
   /* Rebinding set 1 leaves sets 0 and 3 bound. */
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 1, &s1b, 0, NULL);
   push[1] = n;
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, push);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_compute_barrier(cmd);
   /* And rebinding set 3 leaves sets 0 and 1. */
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 3, 1, &s3b, 0, NULL);
   push[1] = 0;
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, push);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_cmd_submit_wait(d, cmd);

   uint32_t *want = calloc(2 * n, 4), *want2 = calloc(2 * n, 4);
   for (uint32_t i = 0; i < n; i++) {
      want[i] = as[i] * 3 + bs[i] + 7;
      want[n + i] = as[i] * 5 + bs[i] + 11;
      want2[i] = as[i] * 5 + bs[i] + 11;
   }
   sgt_check_words("several sets (first buffer)", o.map, want, 2 * n);
   sgt_check_words("several sets (set 3 rebound)", o2.map, want2, 2 * n);
   free(want);
   free(want2);

   sgt_cbuffer_destroy(d, &a);
   sgt_cbuffer_destroy(d, &k);
   sgt_cbuffer_destroy(d, &bb);
   sgt_cbuffer_destroy(d, &o);
   sgt_cbuffer_destroy(d, &o2);
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   for (uint32_t i = 0; i < 4; i++)
      vkDestroyDescriptorSetLayout(d->device, sl[i], NULL);
}

/* ---- dynamic_offsets ------------------------------------------------------ */

static void dynamic_offsets(struct sgt_cdev *d)
{
   /* Every offset is a multiple of both alignments (each at most 256). */
   const VkDeviceSize step = 256;
   SGT_REQUIRE(d->props.limits.minStorageBufferOffsetAlignment <= step &&
               d->props.limits.minUniformBufferOffsetAlignment <= step,
               "offset alignments above 256 are not allowed by Vulkan");
   VkDescriptorSetLayoutBinding b0[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1),
                                        BINDING(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1)};
   VkDescriptorSetLayoutBinding b1[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1)};
   VkDescriptorSetLayout sl[2] = {layout_of(d, 2, b0, 0), layout_of(d, 1, b1, 0)};
   VkPipelineLayout layout = sgt_pipeline_layout(d, 2, sl, 0);
   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("dynamic"));
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 2, 0);
   VkDescriptorSet s0 = sgt_alloc_set(d, pool, sl[0]);
   VkDescriptorSet s1 = sgt_alloc_set(d, pool, sl[1]);

   /* Each buffer: a base offset of one step, then three slots. */
   struct sgt_buffer out, uni, src;
   sgt_cbuffer(d, 5 * step, &out);
   sgt_cbuffer(d, 5 * step, &uni);
   sgt_cbuffer(d, 5 * step, &src);
   uint32_t *os = out.map, *us = uni.map, *ss = src.map;
   const uint32_t words = (uint32_t)(step / 4);
   for (uint32_t i = 0; i < 5 * words; i++) {
      os[i] = 0xdddddddd;
      us[i] = 0x10000 + i;
      ss[i] = 0x20 + i;
   }
   /* Ranges: 256 bytes of output (64 words), 64 of uniforms, 128 of source. */
   sgt_write_buffer(d, s0, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, &out, step, 256);
   sgt_write_buffer(d, s0, 1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, &uni, step, 64);
   sgt_write_buffer(d, s1, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, &src, step, 128);

   /* Dispatch j: out slot j, uniform slot 2-j, source slot (j+1)%3. */
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   for (uint32_t j = 0; j < 3; j++) {
      uint32_t offs[3] = {(uint32_t)(j * step), (uint32_t)((2 - j) * step),
                          (uint32_t)(((j + 1) % 3) * step)};
      if (j < 2) {
         VkDescriptorSet sets[2] = {s0, s1};
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 3, offs);
      } else {
         /* Set 1 first, then set 0: each call takes its own offsets. */
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 1, &s1, 1,
                                 &offs[2]);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &s0, 2, offs);
      }
      vkCmdDispatch(cmd, 1, 1, 1);
   }
   sgt_cmd_submit_wait(d, cmd);

   uint32_t *want = malloc(5 * step);
   for (uint32_t i = 0; i < 5 * words; i++)
      want[i] = 0xdddddddd;
   for (uint32_t j = 0; j < 3; j++) {
      uint32_t *o = want + words + j * words;
      const uint32_t *u = us + words + (2 - j) * words;
      const uint32_t *s = ss + words + ((j + 1) % 3) * words;
      for (uint32_t t = 0; t < 16; t++)
         o[t] = u[t] + s[t] * 1000;
      o[16] = 64;   /* o.length(): 256-byte range */
      o[17] = 32;   /* s.length(): 128-byte range */
   }
   sgt_check_words("dynamic offsets", os, want, 5 * words);
   free(want);

   sgt_cbuffer_destroy(d, &out);
   sgt_cbuffer_destroy(d, &uni);
   sgt_cbuffer_destroy(d, &src);
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl[0], NULL);
   vkDestroyDescriptorSetLayout(d->device, sl[1], NULL);
}

/* ---- the array layout, shared by arrays, templates and copies ------------- */

#define NSRC 10
#define NUNI 8

/* Source buffers with recognizable contents: storage source i holds
 * (i + 1) << 16 | t; uniform slot k holds (k + 0x40) << 16 | c. */
struct sources {
   struct sgt_buffer s[NSRC];
   struct sgt_buffer u;
   struct sgt_buffer out;
   VkDeviceSize ustride;
   VkDescriptorSetLayout layout;
   VkPipelineLayout pipeline_layout;
   VkShaderModule module;
   VkPipeline pipeline;
};

static void sources_create(struct sgt_cdev *d, struct sources *src)
{
   memset(src, 0, sizeof(*src));
   for (uint32_t i = 0; i < NSRC; i++) {
      sgt_cbuffer(d, 64, &src->s[i]);
      uint32_t *w = src->s[i].map;
      for (uint32_t t = 0; t < 16; t++)
         w[t] = (i + 1) << 16 | t;
   }
   src->ustride = align_up(16, d->props.limits.minUniformBufferOffsetAlignment);
   sgt_cbuffer(d, src->ustride * NUNI, &src->u);
   for (uint32_t k = 0; k < NUNI; k++) {
      uint32_t *w = (uint32_t *)((char *)src->u.map + k * src->ustride);
      for (uint32_t c = 0; c < 4; c++)
         w[c] = (k + 0x40) << 16 | c;
   }
   sgt_cbuffer(d, 16 * 9 * 4, &src->out);
   VkDescriptorSetLayoutBinding b[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3),
                                       BINDING(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                       BINDING(2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4),
                                       BINDING(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
   src->layout = layout_of(d, 4, b, 0);
   src->pipeline_layout = sgt_pipeline_layout(d, 1, &src->layout, 4);
   src->module = sgt_shader_module(d, SGT_SHADER("array"));
   src->pipeline = sgt_compute_pipeline(d, src->module, src->pipeline_layout, NULL, 0,
                                        VK_NULL_HANDLE);
}

static void sources_destroy(struct sgt_cdev *d, struct sources *src)
{
   for (uint32_t i = 0; i < NSRC; i++)
      sgt_cbuffer_destroy(d, &src->s[i]);
   sgt_cbuffer_destroy(d, &src->u);
   sgt_cbuffer_destroy(d, &src->out);
   vkDestroyPipeline(d->device, src->pipeline, NULL);
   vkDestroyShaderModule(d->device, src->module, NULL);
   vkDestroyPipelineLayout(d->device, src->pipeline_layout, NULL);
   vkDestroyDescriptorSetLayout(d->device, src->layout, NULL);
}

static VkDescriptorBufferInfo sinfo(const struct sources *src, uint32_t i)
{
   return (VkDescriptorBufferInfo){src->s[i].buffer, 0, VK_WHOLE_SIZE};
}

static VkDescriptorBufferInfo uinfo(const struct sources *src, uint32_t k)
{
   return (VkDescriptorBufferInfo){src->u.buffer, k * src->ustride, 16};
}

static VkDescriptorBufferInfo oinfo(const struct sources *src)
{
   return (VkDescriptorBufferInfo){src->out.buffer, 0, VK_WHOLE_SIZE};
}

/* Runs `pipeline` over `set` and checks that the 5 storage elements
 * (binding 0 then 1) are sources sid[] and the 4 uniforms slots uid[]. */
static void run_array(struct sgt_cdev *d, struct sources *src, VkPipeline pipeline,
                      VkDescriptorSet set, const uint32_t sid[5], const uint32_t uid[4],
                      const char *what)
{
   memset(src->out.map, 0, src->out.size);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, src->pipeline_layout, 0, 1, &set,
                           0, NULL);
   uint32_t one = 1;
   vkCmdPushConstants(cmd, src->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &one);
   vkCmdDispatch(cmd, 1, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   uint32_t want[16 * 9];
   for (uint32_t t = 0; t < 16; t++) {
      for (uint32_t j = 0; j < 5; j++)
         want[t * 9 + j] = (sid[j] + 1) << 16 | t;
      for (uint32_t j = 0; j < 4; j++)
         want[t * 9 + 5 + j] = (uid[j] + 0x40) << 16 | (t % 4);
   }
   sgt_check_words(what, src->out.map, want, 16 * 9);
}

static VkDescriptorPool array_pool(struct sgt_cdev *d, uint32_t sets)
{
   return sgt_descriptor_pool(d, sets, 0);
}

static void arrays(struct sgt_cdev *d)
{
   struct sources src;
   sources_create(d, &src);
   VkDescriptorPool pool = array_pool(d, 1);
   VkDescriptorSet set = sgt_alloc_set(d, pool, src.layout);

   VkDescriptorBufferInfo first = sinfo(&src, 7);
   /* One write of 4 descriptors from binding 0 element 1: it fills
    * elements 1 and 2 of binding 0, then elements 0 and 1 of binding 1. */
   VkDescriptorBufferInfo spill[4] = {sinfo(&src, 2), sinfo(&src, 9), sinfo(&src, 4),
                                      sinfo(&src, 0)};
   VkDescriptorBufferInfo ubo[4] = {uinfo(&src, 5), uinfo(&src, 1), uinfo(&src, 7), uinfo(&src, 3)};
   VkDescriptorBufferInfo out = oinfo(&src);
   VkWriteDescriptorSet w[] = {
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0,
       .dstArrayElement = 0, .descriptorCount = 1,
       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &first},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0,
       .dstArrayElement = 1, .descriptorCount = 4,
       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = spill},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 2,
       .dstArrayElement = 0, .descriptorCount = 4,
       .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = ubo},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 3,
       .dstArrayElement = 0, .descriptorCount = 1,
       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &out},
   };
   vkUpdateDescriptorSets(d->device, 4, w, 0, NULL);
   run_array(d, &src, src.pipeline, set, (uint32_t[5]){7, 2, 9, 4, 0}, (uint32_t[4]){5, 1, 7, 3},
             "descriptor arrays, constant indices");

   /* Rewrite one element in the middle of each array. */
   VkDescriptorBufferInfo s1 = sinfo(&src, 6), u2 = uinfo(&src, 0);
   VkWriteDescriptorSet w2[] = {
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0,
       .dstArrayElement = 1, .descriptorCount = 1,
       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &s1},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 2,
       .dstArrayElement = 2, .descriptorCount = 1,
       .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = &u2},
   };
   vkUpdateDescriptorSets(d->device, 2, w2, 0, NULL);
   run_array(d, &src, src.pipeline, set, (uint32_t[5]){7, 6, 9, 4, 0}, (uint32_t[4]){5, 1, 0, 3},
             "descriptor arrays after rewriting single elements");

   if (d->storage_array_dynamic_indexing && d->uniform_array_dynamic_indexing) {
      VkShaderModule m = sgt_shader_module(d, SGT_SHADER("array_dyn"));
      VkPipeline p = sgt_compute_pipeline(d, m, src.pipeline_layout, NULL, 0, VK_NULL_HANDLE);
      run_array(d, &src, p, set, (uint32_t[5]){7, 6, 9, 4, 0}, (uint32_t[4]){5, 1, 0, 3},
                "descriptor arrays, dynamically uniform indices");
      vkDestroyPipeline(d->device, p, NULL);
      vkDestroyShaderModule(d->device, m, NULL);
   } else {
      sgt_skip("arrays: dynamic indexing",
               "shaderStorageBufferArrayDynamicIndexing or shaderUniformBufferArrayDynamicIndexing "
               "is not advertised");
   }
   vkDestroyDescriptorPool(d->device, pool, NULL);
   sources_destroy(d, &src);
}

/* ---- templates ------------------------------------------------------------ */

struct tmpl_data {
   uint32_t junk[3];
   VkDescriptorBufferInfo ins[3];
   struct {
      uint64_t pad;
      VkDescriptorBufferInfo info;
      uint64_t pad2[2];
   } more[2];
   VkDescriptorBufferInfo ubo[4];
   VkDescriptorBufferInfo out;
};

static void templates(struct sgt_cdev *d)
{
   struct sources src;
   sources_create(d, &src);
   VkDescriptorPool pool = array_pool(d, 2);
   VkDescriptorSet set = sgt_alloc_set(d, pool, src.layout);

   const VkDescriptorUpdateTemplateEntry entries[] = {
      {0, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(struct tmpl_data, ins),
       sizeof(VkDescriptorBufferInfo)},
      {1, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(struct tmpl_data, more[0].info),
       sizeof(((struct tmpl_data *)0)->more[0])},
      {2, 1, 3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(struct tmpl_data, ubo[1]),
       sizeof(VkDescriptorBufferInfo)},
      {2, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(struct tmpl_data, ubo[0]), 0},
      {3, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(struct tmpl_data, out), 0},
   };
   VkDescriptorUpdateTemplateCreateInfo ti = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
      .descriptorUpdateEntryCount = 5,
      .pDescriptorUpdateEntries = entries,
      .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
      .descriptorSetLayout = src.layout,
   };
   VkDescriptorUpdateTemplate tmpl;
   SGT_CHECK_VK(vkCreateDescriptorUpdateTemplate(d->device, &ti, NULL, &tmpl));

   struct tmpl_data data;
   memset(&data, 0xee, sizeof(data));   /* the padding must not be read */
   data.ins[0] = sinfo(&src, 3);
   data.ins[1] = sinfo(&src, 1);
   data.ins[2] = sinfo(&src, 8);
   data.more[0].info = sinfo(&src, 5);
   data.more[1].info = sinfo(&src, 2);
   data.ubo[0] = uinfo(&src, 6);
   data.ubo[1] = uinfo(&src, 2);
   data.ubo[2] = uinfo(&src, 4);
   data.ubo[3] = uinfo(&src, 1);
   data.out = oinfo(&src);
   vkUpdateDescriptorSetWithTemplate(d->device, set, tmpl, &data);
   run_array(d, &src, src.pipeline, set, (uint32_t[5]){3, 1, 8, 5, 2}, (uint32_t[4]){6, 2, 4, 1},
             "descriptor update template");

   /* The same template, new data, a second set; the first set keeps its
    * descriptors (the template copies from the data, it does not keep it). */
   VkDescriptorSet set2 = sgt_alloc_set(d, pool, src.layout);
   data.ins[0] = sinfo(&src, 0);
   data.more[1].info = sinfo(&src, 9);
   data.ubo[3] = uinfo(&src, 7);
   vkUpdateDescriptorSetWithTemplate(d->device, set2, tmpl, &data);
   memset(&data, 0, sizeof(data));
   run_array(d, &src, src.pipeline, set2, (uint32_t[5]){0, 1, 8, 5, 9}, (uint32_t[4]){6, 2, 4, 7},
             "descriptor update template, second set");
   run_array(d, &src, src.pipeline, set, (uint32_t[5]){3, 1, 8, 5, 2}, (uint32_t[4]){6, 2, 4, 1},
             "descriptor update template, first set unchanged");

   vkDestroyDescriptorUpdateTemplate(d->device, tmpl, NULL);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   sources_destroy(d, &src);
}

/* ---- push_descriptors ----------------------------------------------------- */

static void push_descriptors(struct sgt_cdev *d)
{
   if (!d->push_descriptor) {
      sgt_skip("push_descriptors", "the device does not advertise %s",
               VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
      return;
   }
   SGT_CHECK(d->max_push_descriptors >= 32, "maxPushDescriptors is %u, Vulkan requires 32",
             d->max_push_descriptors);
   const uint32_t n = 300;
   VkDescriptorSetLayoutBinding b0[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                        BINDING(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
   VkDescriptorSetLayoutBinding b1[] = {BINDING(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)};
   VkDescriptorSetLayout sl[2] = {
      layout_of(d, 2, b0, VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR),
      layout_of(d, 1, b1, 0)};
   VkPipelineLayout layout = sgt_pipeline_layout(d, 2, sl, 0);
   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("pushdesc"));
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 1, 0);
   VkDescriptorSet fset = sgt_alloc_set(d, pool, sl[1]);

   struct sgt_buffer x1, x2, y1, y2, f;
   sgt_cbuffer(d, n * 4, &x1);
   sgt_cbuffer(d, n * 4, &x2);
   sgt_cbuffer(d, n * 4, &y1);
   sgt_cbuffer(d, n * 4, &y2);
   sgt_cbuffer(d, 16, &f);
   uint32_t *x1s = x1.map, *x2s = x2.map, *y1s = y1.map, *y2s = y2.map, *fs = f.map;
   uint32_t *w1 = malloc(n * 4), *w2 = malloc(n * 4);
   for (uint32_t i = 0; i < n; i++) {
      x1s[i] = i;
      x2s[i] = 100000 + i;
      y1s[i] = w1[i] = 7 * i;
      y2s[i] = w2[i] = 13 * i;
   }
   fs[0] = 2, fs[1] = 3, fs[2] = n;
   sgt_write_buffer(d, fset, 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &f, 0, 16);

   VkDescriptorBufferInfo bx1 = {x1.buffer, 0, VK_WHOLE_SIZE}, bx2 = {x2.buffer, 0, VK_WHOLE_SIZE};
   VkDescriptorBufferInfo by1 = {y1.buffer, 0, VK_WHOLE_SIZE}, by2 = {y2.buffer, 0, VK_WHOLE_SIZE};
   VkWriteDescriptorSet wx = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0,
                              .descriptorCount = 1,
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
   VkWriteDescriptorSet wy = wx;
   wy.dstBinding = 1;

   VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
   const VkDescriptorUpdateTemplateEntry entries[] = {
      {0, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, sizeof(VkDescriptorBufferInfo)},
   };
   VkDescriptorUpdateTemplateCreateInfo ti = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
      .descriptorUpdateEntryCount = 1,
      .pDescriptorUpdateEntries = entries,
      .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
      .pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE,
      .pipelineLayout = layout,
      .set = 0,
   };
   if (d->CmdPushDescriptorSetWithTemplateKHR)
      SGT_CHECK_VK(vkCreateDescriptorUpdateTemplate(d->device, &ti, NULL, &tmpl));
   else
      sgt_skip("push_descriptors: template", "vkCmdPushDescriptorSetWithTemplateKHR is missing");

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 1, &fset, 0, NULL);
   /* 1: both bindings pushed: y1 = 2 y1 + 3 x1 */
   VkWriteDescriptorSet both[2] = {wx, wy};
   both[0].pBufferInfo = &bx1;
   both[1].pBufferInfo = &by1;
   d->CmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, both);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_compute_barrier(cmd);
   /* 2: only binding 1 pushed, binding 0 stays x1: y2 = 2 y2 + 3 x1 */
   wy.pBufferInfo = &by2;
   d->CmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &wy);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_compute_barrier(cmd);
   /* 3: only binding 0 pushed, binding 1 stays y2: y2 = 2 y2 + 3 x2 */
   wx.pBufferInfo = &bx2;
   d->CmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &wx);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_compute_barrier(cmd);
   /* 4: through the template: y1 = 2 y1 + 3 x2 */
   if (tmpl) {
      VkDescriptorBufferInfo data[2] = {bx2, by1};
      d->CmdPushDescriptorSetWithTemplateKHR(cmd, tmpl, layout, 0, data);
      memset(data, 0, sizeof(data));   /* recorded by value */
      vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   }
   sgt_cmd_submit_wait(d, cmd);
   for (uint32_t i = 0; i < n; i++) {
      w1[i] = 2 * w1[i] + 3 * x1s[i];
      w2[i] = 2 * w2[i] + 3 * x1s[i];
      w2[i] = 2 * w2[i] + 3 * x2s[i];
      if (tmpl)
         w1[i] = 2 * w1[i] + 3 * x2s[i];
   }
   sgt_check_words("push descriptors: y1", y1s, w1, n);
   sgt_check_words("push descriptors: y2 (incremental pushes)", y2s, w2, n);
   free(w1);
   free(w2);

   if (tmpl)
      vkDestroyDescriptorUpdateTemplate(d->device, tmpl, NULL);
   sgt_cbuffer_destroy(d, &x1);
   sgt_cbuffer_destroy(d, &x2);
   sgt_cbuffer_destroy(d, &y1);
   sgt_cbuffer_destroy(d, &y2);
   sgt_cbuffer_destroy(d, &f);
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl[0], NULL);
   vkDestroyDescriptorSetLayout(d->device, sl[1], NULL);
}

/* ---- copies --------------------------------------------------------------- */

static void write_all(struct sgt_cdev *d, const struct sources *src, VkDescriptorSet set,
                      const uint32_t sid[5], const uint32_t uid[4])
{
   VkDescriptorBufferInfo s[5], u[4], o = oinfo(src);
   for (uint32_t i = 0; i < 5; i++)
      s[i] = sinfo(src, sid[i]);
   for (uint32_t i = 0; i < 4; i++)
      u[i] = uinfo(src, uid[i]);
   VkWriteDescriptorSet w[] = {
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0,
       .descriptorCount = 3, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = s},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1,
       .descriptorCount = 2, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
       .pBufferInfo = s + 3},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 2,
       .descriptorCount = 4, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = u},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 3,
       .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &o},
   };
   vkUpdateDescriptorSets(d->device, 4, w, 0, NULL);
}

static void copies(struct sgt_cdev *d)
{
   struct sources src;
   sources_create(d, &src);
   VkDescriptorPool pool = array_pool(d, 3);
   VkDescriptorSet a = sgt_alloc_set(d, pool, src.layout);
   VkDescriptorSet b = sgt_alloc_set(d, pool, src.layout);
   VkDescriptorSet c = sgt_alloc_set(d, pool, src.layout);
   const uint32_t asid[5] = {0, 1, 2, 3, 4}, auid[4] = {0, 1, 2, 3};
   const uint32_t csid[5] = {5, 6, 7, 8, 9}, cuid[4] = {4, 5, 6, 7};
   write_all(d, &src, a, asid, auid);
   write_all(d, &src, c, csid, cuid);
   /* b.0[0] = a.0[0]; b.0[1..2], b.1[0..1] = c.0[1..2], c.1[0..1] (one copy
    * across consecutive bindings); b.2[0..1] = c.2[1..2]; b.2[2..3] =
    * a.2[2..3]; b.3 = a.3. */
   VkCopyDescriptorSet cp[] = {
      {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = a, .srcBinding = 0,
       .srcArrayElement = 0, .dstSet = b, .dstBinding = 0, .dstArrayElement = 0,
       .descriptorCount = 1},
      {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = c, .srcBinding = 0,
       .srcArrayElement = 1, .dstSet = b, .dstBinding = 0, .dstArrayElement = 1,
       .descriptorCount = 4},
      {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = c, .srcBinding = 2,
       .srcArrayElement = 1, .dstSet = b, .dstBinding = 2, .dstArrayElement = 0,
       .descriptorCount = 2},
      {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = a, .srcBinding = 2,
       .srcArrayElement = 2, .dstSet = b, .dstBinding = 2, .dstArrayElement = 2,
       .descriptorCount = 2},
      {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = a, .srcBinding = 3,
       .srcArrayElement = 0, .dstSet = b, .dstBinding = 3, .dstArrayElement = 0,
       .descriptorCount = 1},
   };
   vkUpdateDescriptorSets(d->device, 0, NULL, 5, cp);
   /* Copies are by value: rewriting a and c afterwards leaves b alone. */
   const uint32_t zs[5] = {9, 9, 9, 9, 9}, zu[4] = {0, 0, 0, 0};
   write_all(d, &src, a, zs, zu);
   write_all(d, &src, c, zs, zu);
   run_array(d, &src, src.pipeline, b, (uint32_t[5]){0, 6, 7, 8, 9}, (uint32_t[4]){5, 6, 2, 3},
             "descriptor set copies");
   run_array(d, &src, src.pipeline, a, zs, zu, "the source set of the copies, rewritten");

   /* A copy within one set (different bindings of the same type). */
   VkCopyDescriptorSet self = {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = b,
                               .srcBinding = 1, .srcArrayElement = 1, .dstSet = b,
                               .dstBinding = 0, .dstArrayElement = 2, .descriptorCount = 1};
   vkUpdateDescriptorSets(d->device, 0, NULL, 1, &self);
   run_array(d, &src, src.pipeline, b, (uint32_t[5]){0, 6, 9, 8, 9}, (uint32_t[4]){5, 6, 2, 3},
             "a copy within one set");

   vkDestroyDescriptorPool(d->device, pool, NULL);
   sources_destroy(d, &src);
}

/* ---- free_and_reset ------------------------------------------------------- */

static void free_and_reset(struct sgt_cdev *d)
{
   enum { SETS = 6, N = 64 };
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("accumulate"), 2, 12, NULL);
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * SETS};
   VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                    .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                    .maxSets = SETS,
                                    .poolSizeCount = 1,
                                    .pPoolSizes = &size};
   VkDescriptorPool pool;
   SGT_CHECK_VK(vkCreateDescriptorPool(d->device, &pi, NULL, &pool));
   struct sgt_buffer x[SETS], y[SETS];
   for (uint32_t i = 0; i < SETS; i++) {
      sgt_cbuffer(d, N * 4, &x[i]);
      sgt_cbuffer(d, N * 4, &y[i]);
   }
   VkDescriptorSetLayout layouts[SETS];
   for (uint32_t i = 0; i < SETS; i++)
      layouts[i] = k.set_layout;
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = SETS,
                                     .pSetLayouts = layouts};

   for (uint32_t round = 0; round < 3; round++) {
      VkDescriptorSet sets[SETS];
      if (round == 0) {
         SGT_CHECK_VK(vkAllocateDescriptorSets(d->device, &ai, sets));
         /* Free every other set and allocate them again. */
         VkDescriptorSet odd[3] = {sets[1], sets[3], sets[5]};
         SGT_CHECK_VK(vkFreeDescriptorSets(d->device, pool, 3, odd));
         VkDescriptorSetAllocateInfo a3 = ai;
         a3.descriptorSetCount = 3;
         SGT_CHECK_VK(vkAllocateDescriptorSets(d->device, &a3, odd));
         sets[1] = odd[0], sets[3] = odd[1], sets[5] = odd[2];
      } else {
         SGT_CHECK_VK(vkResetDescriptorPool(d->device, pool, 0));
         SGT_CHECK_VK(vkAllocateDescriptorSets(d->device, &ai, sets));
      }
      /* Set i over buffers (x[j], y[j]) with j depending on the round. */
      for (uint32_t i = 0; i < SETS; i++) {
         uint32_t j = (i + round) % SETS;
         sgt_write_buffer(d, sets[i], 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &x[j], 0, 0);
         sgt_write_buffer(d, sets[i], 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &y[j], 0, 0);
         uint32_t *xs = x[j].map, *ys = y[j].map;
         for (uint32_t t = 0; t < N; t++) {
            xs[t] = j * 1000 + t + round;
            ys[t] = 0;
         }
      }
      VkCommandBuffer cmd = sgt_cmd_begin(d);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
      for (uint32_t i = 0; i < SETS; i++) {
         struct { uint32_t mul, k, n; } push = {1, i + 1, N};
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &sets[i], 0,
                                 NULL);
         vkCmdPushConstants(cmd, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 12, &push);
         vkCmdDispatch(cmd, 1, 1, 1);
      }
      sgt_cmd_submit_wait(d, cmd);
      for (uint32_t i = 0; i < SETS; i++) {
         uint32_t j = (i + round) % SETS;
         uint32_t want[N];
         for (uint32_t t = 0; t < N; t++)
            want[t] = (i + 1) * (j * 1000 + t + round);
         char what[64];
         snprintf(what, sizeof(what), "round %u: set %u (buffers %u)", round, i, j);
         sgt_check_words(what, y[j].map, want, N);
      }
      if (round == 1) {
         /* All SETS are allocated. Going past maxSets "can" fail (Vulkan
          * lets it succeed too); when it fails it must be
          * VK_ERROR_OUT_OF_POOL_MEMORY and leave every handle
          * VK_NULL_HANDLE ("vkAllocateDescriptorSets"). */
         SGT_CHECK_VK(vkFreeDescriptorSets(d->device, pool, 1, &sets[2]));
         VkDescriptorSet two[2] = {(VkDescriptorSet)(uintptr_t)0x1234,
                                   (VkDescriptorSet)(uintptr_t)0x5678};
         VkDescriptorSetAllocateInfo a2 = ai;
         a2.descriptorSetCount = 2;
         VkResult r = vkAllocateDescriptorSets(d->device, &a2, two);
         if (r == VK_SUCCESS) {
            fprintf(stderr, "   (the pool allocated past maxSets, as Vulkan allows)\n");
         } else {
            SGT_CHECK(r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_FRAGMENTED_POOL,
                      "allocating 2 sets with room for 1 returned %s", sgt_result_name(r));
            SGT_CHECK(two[0] == VK_NULL_HANDLE && two[1] == VK_NULL_HANDLE,
                      "a failed allocation of 2 sets left handles");
         }
      }
   }
   /* Reset many times: nothing may leak or run out. */
   for (uint32_t i = 0; i < 200; i++) {
      VkDescriptorSet sets[SETS];
      SGT_CHECK_VK(vkResetDescriptorPool(d->device, pool, 0));
      SGT_CHECK_VK(vkAllocateDescriptorSets(d->device, &ai, sets));
   }

   vkDestroyDescriptorPool(d->device, pool, NULL);
   for (uint32_t i = 0; i < SETS; i++) {
      sgt_cbuffer_destroy(d, &x[i]);
      sgt_cbuffer_destroy(d, &y[i]);
   }
   sgt_kernel_destroy(d, &k);
}

/* ---- inline_uniform ------------------------------------------------------- */

static void inline_uniform(struct sgt_cdev *d)
{
   /* Required by Vulkan 1.3 ("Feature Requirements"). */
   if (!d->inline_uniform_block) {
      SGT_REQUIRED_FEATURE_MISSING("inline_uniform", "inlineUniformBlock", "Vulkan 1.3");
      return;
   }
   SGT_CHECK(d->props13.maxInlineUniformBlockSize >= 256,
             "maxInlineUniformBlockSize is %u, Vulkan 1.3 requires 256",
             d->props13.maxInlineUniformBlockSize);
   VkDescriptorSetLayoutBinding b[] = {BINDING(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64),
                                       BINDING(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)};
   VkDescriptorSetLayout sl = layout_of(d, 2, b, 0);
   VkPipelineLayout layout = sgt_pipeline_layout(d, 1, &sl, 0);
   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("inline"));
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPoolInlineUniformBlockCreateInfo ipi = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
      .maxInlineUniformBlockBindings = 2};
   VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 128},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
   VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                    .pNext = &ipi,
                                    .maxSets = 2,
                                    .poolSizeCount = 2,
                                    .pPoolSizes = sizes};
   VkDescriptorPool pool;
   SGT_CHECK_VK(vkCreateDescriptorPool(d->device, &pi, NULL, &pool));
   VkDescriptorSet a = sgt_alloc_set(d, pool, sl), bset = sgt_alloc_set(d, pool, sl);
   struct sgt_buffer oa, ob;
   sgt_cbuffer(d, 64, &oa);
   sgt_cbuffer(d, 64, &ob);
   sgt_write_buffer(d, a, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &oa, 0, 0);
   sgt_write_buffer(d, bset, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &ob, 0, 0);

   uint32_t want_a[16], want_b[16];
   for (uint32_t i = 0; i < 16; i++)
      want_a[i] = 0xA000 + i;
   want_a[5] = 0x5555, want_a[6] = 0x6666;
   /* a: bytes [0,16) and [16,64) in two writes, then [20,28) rewritten.
    * For inline uniform blocks dstArrayElement and descriptorCount are
    * bytes. */
   uint32_t first[16];
   for (uint32_t i = 0; i < 16; i++)
      first[i] = 0xA000 + i;
   uint32_t patch[2] = {0x5555, 0x6666};
   VkWriteDescriptorSetInlineUniformBlock i0 = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, .dataSize = 16,
      .pData = first};
   VkWriteDescriptorSetInlineUniformBlock i1 = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, .dataSize = 48,
      .pData = first + 4};
   VkWriteDescriptorSetInlineUniformBlock i2 = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, .dataSize = 8,
      .pData = patch};
   VkWriteDescriptorSet w[] = {
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &i0, .dstSet = a, .dstBinding = 0,
       .dstArrayElement = 0, .descriptorCount = 16,
       .descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &i1, .dstSet = a, .dstBinding = 0,
       .dstArrayElement = 16, .descriptorCount = 48,
       .descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK},
      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &i2, .dstSet = a, .dstBinding = 0,
       .dstArrayElement = 20, .descriptorCount = 8,
       .descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK},
   };
   vkUpdateDescriptorSets(d->device, 3, w, 0, NULL);
   memset(first, 0, sizeof(first));   /* the data was copied */

   /* b: bytes [16,64) copied from a, bytes [0,16) through a template. */
   VkCopyDescriptorSet cp = {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, .srcSet = a,
                             .srcBinding = 0, .srcArrayElement = 16, .dstSet = bset,
                             .dstBinding = 0, .dstArrayElement = 16, .descriptorCount = 48};
   vkUpdateDescriptorSets(d->device, 0, NULL, 1, &cp);
   struct inline_data {
      uint32_t junk;
      uint32_t words[4];
   } tdata = {0xffffffff, {0xB0, 0xB1, 0xB2, 0xB3}};
   const VkDescriptorUpdateTemplateEntry entry = {0, 0, 16, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK,
                                                  offsetof(struct inline_data, words), 0};
   VkDescriptorUpdateTemplateCreateInfo ti = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
      .descriptorUpdateEntryCount = 1,
      .pDescriptorUpdateEntries = &entry,
      .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
      .descriptorSetLayout = sl,
   };
   VkDescriptorUpdateTemplate tmpl;
   SGT_CHECK_VK(vkCreateDescriptorUpdateTemplate(d->device, &ti, NULL, &tmpl));
   vkUpdateDescriptorSetWithTemplate(d->device, bset, tmpl, &tdata);
   for (uint32_t i = 0; i < 16; i++)
      want_b[i] = i < 4 ? 0xB0 + i : want_a[i];

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &a, 0, NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &bset, 0, NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   sgt_check_words("inline uniform block written in pieces", oa.map, want_a, 16);
   sgt_check_words("inline uniform block copied and templated", ob.map, want_b, 16);

   vkDestroyDescriptorUpdateTemplate(d->device, tmpl, NULL);
   sgt_cbuffer_destroy(d, &oa);
   sgt_cbuffer_destroy(d, &ob);
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl, NULL);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"multi_set", multi_set},
      {"dynamic_offsets", dynamic_offsets},
      {"arrays", arrays},
      {"templates", templates},
      {"push_descriptors", push_descriptors},
      {"copies", copies},
      {"free_and_reset", free_and_reset},
      {"inline_uniform", inline_uniform},
   };
   const struct sgt_compute_options opts = {.push_descriptor = true};
   return sgt_compute_main(argc, argv, &opts, tests, sizeof(tests) / sizeof(tests[0]));
}
