/*
 * Shaders that rely on advertised features beyond the Vulkan 1.0 basics,
 * run end to end and checked against the host's answer:
 * - nonuniform: an unsized array of storage buffers (runtimeDescriptorArray)
 *   indexed by a value that differs between lanes
 *   (shaderStorageBufferArrayNonUniformIndexing, and ShaderNonUniform,
 *   which Vulkan 1.2 enables by itself), read and written.
 * Each is skipped when the device does not advertise its feature.
 */
#include <string.h>

#include "sgt_compute.h"

#define BINDING(n, type, count)                                                                  \
   ((VkDescriptorSetLayoutBinding){.binding = (n), .descriptorType = (type),                     \
                                   .descriptorCount = (count),                                   \
                                   .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT})

static VkDescriptorSetLayout layout_of(struct sgt_cdev *d, uint32_t count,
                                       const VkDescriptorSetLayoutBinding *b)
{
   VkDescriptorSetLayoutCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = count,
                                           .pBindings = b};
   VkDescriptorSetLayout l;
   SGT_CHECK_VK(vkCreateDescriptorSetLayout(d->device, &info, NULL, &l));
   return l;
}

/* One dispatch of `pipe` over `groups` workgroups with `set` bound. */
static void run(struct sgt_cdev *d, VkPipeline pipe, VkPipelineLayout layout, VkDescriptorSet set,
                uint32_t groups)
{
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(cmd, groups, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
}

/* ---- nonuniform ------------------------------------------------------------ */

#define NU_BUFFERS 5u
#define NU_N 256u

static void nonuniform(struct sgt_cdev *d)
{
   if (!d->runtime_descriptor_array || !d->storage_array_nonuniform_indexing) {
      sgt_skip("nonuniform", "runtimeDescriptorArray or "
               "shaderStorageBufferArrayNonUniformIndexing is not supported");
      return;
   }
   VkDescriptorSetLayoutBinding b[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                       BINDING(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NU_BUFFERS)};
   VkDescriptorSetLayout sl = layout_of(d, 2, b);
   VkPipelineLayout layout = sgt_pipeline_layout(d, 1, &sl, 0);
   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("nonuniform"));
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 1, 0);
   VkDescriptorSet set = sgt_alloc_set(d, pool, sl);

   struct sgt_buffer out, data[NU_BUFFERS];
   sgt_cbuffer(d, NU_N * 4, &out);
   sgt_write_buffer(d, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0, 0);
   for (uint32_t k = 0; k < NU_BUFFERS; k++) {
      sgt_cbuffer(d, 2 * NU_N * 4, &data[k]);
      uint32_t *v = data[k].map;
      for (uint32_t i = 0; i < NU_N; i++)
         v[i] = (k + 1) * 100000u + i;
      sgt_write_buffer(d, set, 1, k, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &data[k], 0, 0);
   }
   run(d, pipe, layout, set, NU_N / 64);

   /* Each invocation read and wrote the buffer its own index picked. */
   static uint32_t want[NU_N], want_data[NU_BUFFERS][NU_N];
   for (uint32_t i = 0; i < NU_N; i++) {
      uint32_t which = (i * 7u + (i >> 3)) % NU_BUFFERS;
      want[i] = (which + 1) * 100000u + i + which * 1000000u;
      for (uint32_t k = 0; k < NU_BUFFERS; k++) {
         if (k == which)
            want_data[k][i] = i * 3u + which;
      }
   }
   sgt_check_words("nonuniform reads", out.map, want, NU_N);
   for (uint32_t k = 0; k < NU_BUFFERS; k++) {
      const uint32_t *v = (const uint32_t *)data[k].map + NU_N;
      for (uint32_t i = 0; i < NU_N; i++) {
         uint32_t which = (i * 7u + (i >> 3)) % NU_BUFFERS;
         SGT_CHECK(v[i] == (which == k ? want_data[k][i] : 0u),
                   "nonuniform writes: buffer %u word %u is %u", k, NU_N + i, v[i]);
      }
   }

   for (uint32_t k = 0; k < NU_BUFFERS; k++)
      sgt_cbuffer_destroy(d, &data[k]);
   sgt_cbuffer_destroy(d, &out);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl, NULL);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"nonuniform", nonuniform},
   };
   const struct sgt_compute_options opts = {.descriptor_indexing = true};
   return sgt_compute_main(argc, argv, &opts, tests, sizeof(tests) / sizeof(tests[0]));
}
