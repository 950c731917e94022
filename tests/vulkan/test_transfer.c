/*
 * Transfer commands end to end on every queue of both families: fill,
 * update and copy with barriers between them, results checked byte for
 * byte against a C reference, completion seen through a fence.
 */
#include <string.h>

#include "sgt_vk.h"

#define SIZE (1u << 20)

static void run_on(struct sgt_device *d, uint32_t family, uint32_t index, struct sgt_buffer *a,
                   struct sgt_buffer *b)
{
   uint32_t seed = family * 100 + index + 1;
   memset(a->map, 0, SIZE);
   memset(b->map, 0, SIZE);
   uint32_t words[64];
   for (uint32_t i = 0; i < 64; i++)
      words[i] = seed * 7919 + i;
   VkCommandBuffer cmd = sgt_begin(d, family, true);
   vkCmdFillBuffer(cmd, a->buffer, 0, SIZE, seed);
   sgt_barrier(cmd);
   vkCmdUpdateBuffer(cmd, a->buffer, 4096, sizeof(words), words);
   sgt_barrier(cmd);
   VkBufferCopy region = {.srcOffset = 0, .dstOffset = 16, .size = SIZE - 16};
   vkCmdCopyBuffer(cmd, a->buffer, b->buffer, 1, &region);
   sgt_end_submit_wait(d, d->queues[family][index], family, cmd);

   const uint32_t *out = (const uint32_t *)b->map;
   for (uint32_t i = 0; i < 4; i++)
      SGT_CHECK(out[i] == 0, "queue %u.%u: word %u overwritten", family, index, i);
   for (uint32_t i = 4; i < SIZE / 4; i++) {
      uint32_t src = i - 4;
      uint32_t want = (src >= 1024 && src < 1024 + 64) ? words[src - 1024] : seed;
      if (out[i] != want) {
         SGT_CHECK(out[i] == want, "queue %u.%u: word %u is 0x%x, expected 0x%x", family, index,
                   i, out[i], want);
         break;
      }
   }
}

int main(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   struct sgt_buffer a, b;
   sgt_buffer_create(&d, SIZE, &a);
   sgt_buffer_create(&d, SIZE, &b);
   for (uint32_t f = 0; f < 2; f++) {
      for (uint32_t i = 0; i < d.family_queue_count[f]; i++)
         run_on(&d, f, i, &a, &b);
   }
   sgt_buffer_destroy(&d, &a);
   sgt_buffer_destroy(&d, &b);
   sgt_device_destroy(&d);
   return sgt_finish();
}
