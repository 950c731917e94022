/*
 * Bitonic sort: one dispatch per (k, j) step, a pipeline barrier between
 * every two, all in one command buffer (78 dispatches for 4096 keys, 105
 * for 16384). Checked against qsort, on keys with many duplicates and on
 * keys that arrive sorted in reverse.
 */
#include <string.h>

#include "sgt_compute.h"

static int cmp_u32(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   return x < y ? -1 : x > y;
}

static void sort_case(struct sgt_cdev *d, struct sgt_kernel *k, uint32_t n, uint32_t mode)
{
   struct sgt_buffer buf;
   sgt_cbuffer(d, (VkDeviceSize)n * 4, &buf);
   uint32_t *v = buf.map, seed = 1234 + n + mode;
   for (uint32_t i = 0; i < n; i++) {
      if (mode == 0)
         v[i] = sgt_rand(&seed);
      else if (mode == 1)
         v[i] = sgt_rand(&seed) % 50;   /* many duplicates */
      else
         v[i] = n - i;                  /* reverse order */
   }
   uint32_t *want = malloc((size_t)n * 4);
   memcpy(want, v, (size_t)n * 4);
   qsort(want, n, 4, cmp_u32);
   const struct sgt_buffer *bufs[] = {&buf};
   sgt_kernel_bind(d, k, bufs);

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0, NULL);
   uint32_t dispatches = 0;
   for (uint32_t kk = 2; kk <= n; kk <<= 1) {
      for (uint32_t j = kk >> 1; j > 0; j >>= 1) {
         uint32_t push[2] = {j, kk};
         vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, push);
         vkCmdDispatch(cmd, n / 256, 1, 1);
         /* Each step reads what the previous one wrote (synchronization2
          * here; the other tests use the original barrier command). */
         VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
         VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                 .memoryBarrierCount = 1,
                                 .pMemoryBarriers = &mb};
         vkCmdPipelineBarrier2(cmd, &dep);
         dispatches++;
      }
   }
   sgt_cmd_submit_wait(d, cmd);
   char what[80];
   snprintf(what, sizeof(what), "bitonic sort of %u keys (mode %u, %u dispatches)", n, mode,
            dispatches);
   sgt_check_words(what, v, want, n);
   free(want);
   sgt_cbuffer_destroy(d, &buf);
}

static void bitonic(struct sgt_cdev *d)
{
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("bitonic"), 1, 8, NULL);
   sort_case(d, &k, 4096, 0);
   sort_case(d, &k, 4096, 1);
   sort_case(d, &k, 16384, 2);
   sort_case(d, &k, 256, 0);
   sgt_kernel_destroy(d, &k);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"bitonic", bitonic},
   };
   return sgt_compute_main(argc, argv, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
