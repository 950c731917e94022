/*
 * Shaders that rely on advertised features beyond the Vulkan 1.0 basics,
 * run end to end and checked against the host's answer:
 * - nonuniform: an unsized array of storage buffers (runtimeDescriptorArray)
 *   indexed by a value that differs between lanes
 *   (shaderStorageBufferArrayNonUniformIndexing, and ShaderNonUniform,
 *   which Vulkan 1.2 enables by itself), read and written;
 * - nonuniform_uniform: the same selection from a sized array of uniform
 *   buffers (shaderUniformBufferArrayNonUniformIndexing), read;
 * - scalar: scalar block layout (scalarBlockLayout): a vec3 array at stride
 *   12 read, a struct {float; vec3} with the vec3 at offset 4 written;
 * - std430_uniform: a uniform block in std430 layout
 *   (uniformBufferStandardLayout), float and vec2 arrays at strides 4 and 8.
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

/* Each invocation i reads (and, from storage buffers, writes) array
 * element nu_which(i), a value that differs between the lanes of a
 * subgroup, through `shader` (nonuniform.comp, nonuniform_uniform.comp). */
static uint32_t nu_which(uint32_t i)
{
   return (i * 7u + (i >> 3)) % NU_BUFFERS;
}

static void nonuniform_case(struct sgt_cdev *d, const char *what, const char *shader,
                            VkDescriptorType type)
{
   bool writes = type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   VkDescriptorSetLayoutBinding b[] = {BINDING(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                       BINDING(1, type, NU_BUFFERS)};
   VkDescriptorSetLayout sl = layout_of(d, 2, b);
   VkPipelineLayout layout = sgt_pipeline_layout(d, 1, &sl, 0);
   VkShaderModule m = sgt_shader_module(d, shader);
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 1, 0);
   VkDescriptorSet set = sgt_alloc_set(d, pool, sl);

   struct sgt_buffer out, data[NU_BUFFERS];
   sgt_cbuffer(d, NU_N * 4, &out);
   sgt_write_buffer(d, set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &out, 0, 0);
   for (uint32_t k = 0; k < NU_BUFFERS; k++) {
      /* Storage buffers: NU_N words read, then NU_N words written. */
      sgt_cbuffer(d, (writes ? 2 : 1) * NU_N * 4, &data[k]);
      uint32_t *v = data[k].map;
      for (uint32_t i = 0; i < NU_N; i++)
         v[i] = (k + 1) * 100000u + i;
      sgt_write_buffer(d, set, 1, k, type, &data[k], 0, 0);
   }
   run(d, pipe, layout, set, NU_N / 64);

   /* Each invocation read (and wrote) the buffer its own index picked. */
   static uint32_t want[NU_N];
   for (uint32_t i = 0; i < NU_N; i++)
      want[i] = (nu_which(i) + 1) * 100000u + i + nu_which(i) * 1000000u;
   sgt_check_words(what, out.map, want, NU_N);
   for (uint32_t k = 0; k < NU_BUFFERS && writes; k++) {
      const uint32_t *v = (const uint32_t *)data[k].map + NU_N;
      for (uint32_t i = 0; i < NU_N; i++) {
         uint32_t which = nu_which(i);
         SGT_CHECK(v[i] == (which == k ? i * 3u + which : 0u),
                   "%s: buffer %u word %u is %u", what, k, NU_N + i, v[i]);
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

static void nonuniform(struct sgt_cdev *d)
{
   if (!d->runtime_descriptor_array || !d->storage_array_nonuniform_indexing) {
      sgt_skip("nonuniform", "runtimeDescriptorArray or "
               "shaderStorageBufferArrayNonUniformIndexing is not supported");
      return;
   }
   nonuniform_case(d, "nonuniform storage buffers", SGT_SHADER("nonuniform"),
                   VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
}

static void nonuniform_uniform(struct sgt_cdev *d)
{
   if (!d->uniform_array_nonuniform_indexing) {
      sgt_skip("nonuniform_uniform", "shaderUniformBufferArrayNonUniformIndexing is not supported");
      return;
   }
   nonuniform_case(d, "nonuniform uniform buffers", SGT_SHADER("nonuniform_uniform"),
                   VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
}

/* ---- scalar, std430_uniform --------------------------------------------------- */

#define LAYOUT_N 128u

static float fval(uint32_t i)
{
   /* Small integers: every sum and product below is exact. */
   return (float)((int32_t)(i * 37u % 201u) - 100);
}

static uint32_t bits(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

/* A pipeline of `shader` over bindings 0 (of type t0) and 1 (storage), fed
 * from in, into out, LAYOUT_N invocations. */
static void run_two(struct sgt_cdev *d, const char *shader, VkDescriptorType t0,
                    struct sgt_buffer *in, struct sgt_buffer *out)
{
   VkDescriptorType types[2] = {t0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
   VkDescriptorSetLayout sl = sgt_set_layout(d, 2, types, 0);
   VkPipelineLayout layout = sgt_pipeline_layout(d, 1, &sl, 0);
   VkShaderModule m = sgt_shader_module(d, shader);
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 1, 0);
   VkDescriptorSet set = sgt_alloc_set(d, pool, sl);
   sgt_write_buffer(d, set, 0, 0, t0, in, 0, 0);
   sgt_write_buffer(d, set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0, 0);
   run(d, pipe, layout, set, LAYOUT_N / 64);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl, NULL);
}

static void scalar(struct sgt_cdev *d)
{
   if (!d->scalar_block_layout) {
      sgt_skip("scalar", "scalarBlockLayout is not supported");
      return;
   }
   struct sgt_buffer in, out;
   sgt_cbuffer(d, LAYOUT_N * 12, &in);
   sgt_cbuffer(d, LAYOUT_N * 16, &out);
   float *a = in.map;
   for (uint32_t i = 0; i < LAYOUT_N * 3; i++)
      a[i] = fval(i);
   run_two(d, SGT_SHADER("scalar_layout"), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &in, &out);
   /* P { float s; vec3 v; }: s at 0, v at 4, 16 bytes apart. */
   static uint32_t want[LAYOUT_N * 4];
   for (uint32_t i = 0; i < LAYOUT_N; i++) {
      float x = fval(3 * i), y = fval(3 * i + 1), z = fval(3 * i + 2);
      want[4 * i] = bits(x + y + z);
      want[4 * i + 1] = bits(x * 2.0f);
      want[4 * i + 2] = bits(y * 2.0f);
      want[4 * i + 3] = bits(z * 2.0f);
   }
   sgt_check_words("scalar layout", out.map, want, LAYOUT_N * 4);
   sgt_cbuffer_destroy(d, &in);
   sgt_cbuffer_destroy(d, &out);
}

static void std430_uniform(struct sgt_cdev *d)
{
   if (!d->uniform_buffer_standard_layout) {
      sgt_skip("std430_uniform", "uniformBufferStandardLayout is not supported");
      return;
   }
   struct sgt_buffer in, out;
   sgt_cbuffer(d, 128, &in);
   sgt_cbuffer(d, LAYOUT_N * 4, &out);
   /* U { float a[16]; vec2 b[8]; }: a at 0 (stride 4), b at 64 (stride 8). */
   float *u = in.map;
   for (uint32_t i = 0; i < 32; i++)
      u[i] = fval(i + 7);
   run_two(d, SGT_SHADER("std430_uniform"), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &in, &out);
   static uint32_t want[LAYOUT_N];
   for (uint32_t i = 0; i < LAYOUT_N; i++)
      want[i] = bits(u[i % 16] * 10.0f + u[16 + 2 * (i % 8) + 1]);
   sgt_check_words("std430 uniform", out.map, want, LAYOUT_N);
   sgt_cbuffer_destroy(d, &in);
   sgt_cbuffer_destroy(d, &out);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"nonuniform", nonuniform},
      {"nonuniform_uniform", nonuniform_uniform},
      {"scalar", scalar},
      {"std430_uniform", std430_uniform},
   };
   const struct sgt_compute_options opts = {.descriptor_indexing = true, .block_layouts = true};
   return sgt_compute_main(argc, argv, &opts, tests, sizeof(tests) / sizeof(tests[0]));
}
