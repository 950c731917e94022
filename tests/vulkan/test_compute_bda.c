/*
 * Buffer device address (bufferDeviceAddress, GL_EXT_buffer_reference):
 * pointers to the middle of buffers passed in push constants, a linked
 * list of nodes spread over two buffers whose next pointers the host wrote
 * from vkGetBufferDeviceAddress, and a pointer stored by the shader. Vulkan
 * 1.3 requires the feature, so it is a failure, not a skip, when a 1.3
 * device does not advertise it.
 */
#include <string.h>

#include "sgt_compute.h"

struct node {
   uint64_t next;
   uint32_t value;
   uint32_t pad;
};

static void pointers(struct sgt_cdev *d)
{
   if (!d->buffer_device_address) {
      if (d->props.apiVersion >= VK_API_VERSION_1_3)
         SGT_REQUIRED_FEATURE_MISSING("pointers", "bufferDeviceAddress", "Vulkan 1.3");
      else
         sgt_skip("pointers", "bufferDeviceAddress is not advertised");
      return;
   }
   const uint32_t n = 1000, nodes = 37;
   struct sgt_buffer src, dst, na, nb;
   sgt_cbuffer(d, 128 + n * 4, &src);
   sgt_cbuffer(d, 64 + (n + 1) * 4 + 64, &dst);
   sgt_cbuffer(d, 64 * sizeof(struct node), &na);
   sgt_cbuffer(d, 64 * sizeof(struct node), &nb);
   VkDeviceAddress asrc = sgt_buffer_address(d, &src), adst = sgt_buffer_address(d, &dst);
   VkDeviceAddress aa = sgt_buffer_address(d, &na), ab = sgt_buffer_address(d, &nb);
   SGT_CHECK(asrc && adst && aa && ab, "a buffer device address is 0");
   SGT_CHECK(asrc != adst && aa != ab, "two buffers share a device address");

   uint32_t *s = (uint32_t *)((char *)src.map + 128);
   for (uint32_t i = 0; i < n; i++)
      s[i] = i * 7 + 3;
   memset(dst.map, 0xab, dst.size);
   /* Node k lives in buffer k % 2, at slot (k * 17) % 64 of it. */
   struct node *slots[2] = {na.map, nb.map};
   VkDeviceAddress base[2] = {aa, ab};
   uint64_t addr[64];
   for (uint32_t k = 0; k < nodes; k++)
      addr[k] = base[k % 2] + ((k * 17) % 64) * sizeof(struct node);
   for (uint32_t k = 0; k < nodes; k++) {
      struct node *nd = &slots[k % 2][(k * 17) % 64];
      nd->value = 1000 + k * k;
      nd->next = k + 1 < nodes ? addr[k + 1] : 0;
   }
   uint32_t acc = 0;
   for (uint32_t k = 0; k + 1 < nodes; k++)
      acc = acc * 31 + 1000 + k * k;

   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("bda"));
   VkPipelineLayout layout = sgt_pipeline_layout(d, 0, NULL, 32);
   VkPipeline pipe = sgt_compute_pipeline(d, m, layout, NULL, 0, VK_NULL_HANDLE);
   struct {
      uint64_t src, dst, head;
      uint32_t n, steps;
   } push = {asrc + 128, adst + 64, addr[0], n, nodes - 1};
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
   vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 32, &push);
   vkCmdDispatch(cmd, (n + 63) / 64, 1, 1);
   sgt_cmd_submit_wait(d, cmd);

   uint32_t words = (uint32_t)(dst.size / 4);
   uint32_t *want = malloc(dst.size);
   for (uint32_t i = 0; i < words; i++)
      want[i] = 0xabababab;
   for (uint32_t i = 0; i < n; i++)
      want[16 + i] = s[i] * 3 + 1;
   want[16 + n] = acc;
   sgt_check_words("through device addresses", dst.map, want, words);
   free(want);
   const struct node *last = &slots[(nodes - 1) % 2][((nodes - 1) * 17) % 64];
   SGT_CHECK(last->next == addr[0], "the pointer the shader stored is 0x%llx, expected 0x%llx",
             (unsigned long long)last->next, (unsigned long long)addr[0]);

   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   sgt_cbuffer_destroy(d, &src);
   sgt_cbuffer_destroy(d, &dst);
   sgt_cbuffer_destroy(d, &na);
   sgt_cbuffer_destroy(d, &nb);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"pointers", pointers},
   };
   const struct sgt_compute_options opts = {.buffer_device_address = true};
   return sgt_compute_main(argc, argv, &opts, tests, sizeof(tests) / sizeof(tests[0]));
}
