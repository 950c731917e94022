/*
 * Reductions across workgroups, checked against C: a tree reduction in
 * shared memory finished with global atomics (sum, max, xor through
 * shared-memory atomics), a multi-workgroup exclusive prefix scan in three
 * dependent dispatches, and a byte histogram with shared and global
 * atomics on skewed data (many invocations hit the same bin).
 */
#include <string.h>

#include "sgt_compute.h"

static void reduction(struct sgt_cdev *d)
{
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("reduce"), 2, 4, NULL);
   static const uint32_t sizes[] = {300007, 512, 1, 1000};
   for (uint32_t c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
      uint32_t n = sizes[c];
      struct sgt_buffer in, out;
      /* Garbage past n: reading beyond the end must show. */
      sgt_cbuffer(d, ((VkDeviceSize)n + 1024) * 4, &in);
      sgt_cbuffer(d, 16, &out);
      uint32_t *v = in.map, seed = 77 + c;
      for (uint32_t i = n; i < n + 1024; i++)
         v[i] = 0x7fffffff - i;
      uint32_t sum = 0, max = 0, xsum = 0;
      for (uint32_t i = 0; i < n; i++) {
         v[i] = sgt_rand(&seed);
         if (c == 3)
            v[i] >>= 8;   /* a case without wrap-around */
         sum += v[i];
         max = v[i] > max ? v[i] : max;
         xsum ^= v[i];
      }
      uint32_t groups = (n + 511) / 512;
      const struct sgt_buffer *bufs[] = {&in, &out};
      sgt_kernel_bind(d, &k, bufs);
      VkCommandBuffer cmd = sgt_cmd_begin(d);
      sgt_kernel_dispatch(cmd, &k, &n, groups, 1, 1);
      sgt_cmd_submit_wait(d, cmd);
      uint32_t want[4] = {sum, max, xsum, groups};
      char what[64];
      snprintf(what, sizeof(what), "reduction of %u words (sum, max, xor, groups)", n);
      sgt_check_words(what, out.map, want, 4);
      sgt_cbuffer_destroy(d, &in);
      sgt_cbuffer_destroy(d, &out);
   }
   sgt_kernel_destroy(d, &k);
}

static void scan(struct sgt_cdev *d)
{
   struct sgt_kernel block, add;
   sgt_kernel_create(d, &block, SGT_SHADER("scan_block"), 2, 4, NULL);
   sgt_kernel_create(d, &add, SGT_SHADER("scan_add"), 2, 4, NULL);
   /* The block totals are scanned by the same pipeline through a second
    * set: data = sums, block totals = a one-word scratch buffer. */
   VkDescriptorSet sums_set = sgt_alloc_set(d, block.pool, block.set_layout);
   static const uint32_t sizes[] = {200003, 512 * 512, 513, 7};
   for (uint32_t c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
      uint32_t n = sizes[c];
      uint32_t blocks = (n + 511) / 512;   /* <= 512: one block of sums */
      struct sgt_buffer data, sums, scratch;
      const uint32_t guard = 1024;   /* garbage past n, which must stay */
      sgt_cbuffer(d, ((VkDeviceSize)n + guard) * 4, &data);
      sgt_cbuffer(d, (VkDeviceSize)blocks * 4, &sums);
      sgt_cbuffer(d, 4, &scratch);
      uint32_t *v = data.map, seed = 5 + c;
      uint32_t *want = malloc(((size_t)n + guard) * 4);
      uint32_t acc = 0;
      for (uint32_t i = 0; i < n; i++) {
         v[i] = sgt_rand(&seed) % 1000;
         want[i] = acc;
         acc += v[i];
      }
      for (uint32_t i = n; i < n + guard; i++)
         v[i] = want[i] = 0x10000000 + i;
      const struct sgt_buffer *b1[] = {&data, &sums};
      const struct sgt_buffer *b2[] = {&sums, &scratch};
      sgt_kernel_bind(d, &block, b1);
      sgt_kernel_bind(d, &add, b1);
      sgt_write_buffer(d, sums_set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b2[0], 0, 0);
      sgt_write_buffer(d, sums_set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b2[1], 0, 0);

      VkCommandBuffer cmd = sgt_cmd_begin(d);
      sgt_kernel_dispatch(cmd, &block, &n, blocks, 1, 1);
      sgt_compute_barrier(cmd);
      /* Same pipeline, other set, other push constants. */
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, block.layout, 0, 1, &sums_set,
                              0, NULL);
      vkCmdPushConstants(cmd, block.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &blocks);
      vkCmdDispatch(cmd, 1, 1, 1);
      sgt_compute_barrier(cmd);
      sgt_kernel_dispatch(cmd, &add, &n, blocks, 1, 1);
      sgt_cmd_submit_wait(d, cmd);
      char what[64];
      snprintf(what, sizeof(what), "exclusive scan of %u words", n);
      sgt_check_words(what, v, want, n + guard);
      SGT_CHECK(((uint32_t *)scratch.map)[0] == acc, "scan of %u words: total %u, expected %u", n,
                ((uint32_t *)scratch.map)[0], acc);
      free(want);
      sgt_cbuffer_destroy(d, &data);
      sgt_cbuffer_destroy(d, &sums);
      sgt_cbuffer_destroy(d, &scratch);
   }
   sgt_kernel_destroy(d, &block);
   sgt_kernel_destroy(d, &add);
}

static void histogram(struct sgt_cdev *d)
{
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("histogram"), 2, 4, NULL);
   const uint32_t n = 200003;
   struct sgt_buffer in, hist;
   sgt_cbuffer(d, ((VkDeviceSize)n + 1024) * 4, &in);
   sgt_cbuffer(d, 256 * 4, &hist);
   uint32_t *v = in.map, seed = 99;
   for (uint32_t i = n; i < n + 1024; i++)
      v[i] = 0x01010101;   /* past n: must not be counted */
   uint32_t want[256] = {0};
   for (uint32_t i = 0; i < n; i++) {
      uint32_t w = 0;
      for (uint32_t b = 0; b < 4; b++) {
         uint32_t r = sgt_rand(&seed);
         /* Half the bytes are 7: heavy contention on one bin. */
         uint32_t byte = (r & 0x100) ? 7 : (r & 255);
         w |= byte << (8 * b);
         want[byte]++;
      }
      v[i] = w;
   }
   const struct sgt_buffer *bufs[] = {&in, &hist};
   sgt_kernel_bind(d, &k, bufs);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   /* Fewer groups than needed for one word each: the grid-stride loop and
    * gl_NumWorkGroups matter. */
   sgt_kernel_dispatch(cmd, &k, &n, 37, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   sgt_check_words("histogram", hist.map, want, 256);
   sgt_cbuffer_destroy(d, &in);
   sgt_cbuffer_destroy(d, &hist);
   sgt_kernel_destroy(d, &k);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"reduction", reduction},
      {"scan", scan},
      {"histogram", histogram},
   };
   return sgt_compute_main(argc, argv, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
