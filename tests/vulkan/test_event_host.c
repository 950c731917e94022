/*
 * Host-set events gate GPU work.
 *
 * Pins down: a command buffer that waits (vkCmdWaitEvents, source stage
 * HOST) on an event the host sets 50 ms after the submit does not run its
 * copy before vkSetEvent: just before the set, the fence is unsignaled, the
 * event reads VK_EVENT_RESET and the destination still holds its old bytes;
 * and the copy sees host writes made before vkSetEvent (the source is
 * written by the host only after the submit), and has happened once the
 * fence signals. Checked on several compute queues, and with one host
 * event releasing all 16 compute queues at once (host-to-queue
 * dependencies are what events may express across queues; transfer-only
 * queues cannot wait on events: VUID-vkCmdWaitEvents-commandBuffer-cmdpool).
 * A GPU-side vkCmdResetEvent after the wait is seen by vkGetEventStatus.
 */
#include <string.h>

#include "sgt_sync.h"

#define SIZE (1u << 20)
#define SLICE (64u * 1024u)
#define HOST_DELAY_MS 50u

/* Records: wait on ev from the host, copy [src_off, +size) to dst_off. */
static VkCommandBuffer record_gated_copy(struct sgt_device *d, uint32_t family, VkEvent ev,
                                         struct sgt_buffer *src, struct sgt_buffer *dst,
                                         VkDeviceSize src_off, VkDeviceSize dst_off,
                                         VkDeviceSize size, bool reset_after)
{
   VkCommandBuffer cmd = sgt_begin(d, family, true);
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
   vkCmdWaitEvents(cmd, 1, &ev, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb,
                   0, NULL, 0, NULL);
   VkBufferCopy region = {.srcOffset = src_off, .dstOffset = dst_off, .size = size};
   vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
   if (reset_after) {
      /* The reset must not race with the wait (an execution dependency). */
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                           VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 0, NULL);
      vkCmdResetEvent(cmd, ev, VK_PIPELINE_STAGE_TRANSFER_BIT);
   }
   sgt_barrier_to_host(cmd);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   return cmd;
}

/* One queue: the copy waits for the host. */
static void one_queue(struct sgt_device *d, uint32_t family, uint32_t index,
                      struct sgt_buffer *src, struct sgt_buffer *dst)
{
   uint32_t seed = 1000 + family * 100 + index;
   memset(src->map, 0x11, SIZE);   /* stale source: must never arrive */
   memset(dst->map, 0xee, SIZE);
   VkEvent ev = sgt_event(d);
   bool gpu_reset = index % 2 == 0;
   VkCommandBuffer cmd = record_gated_copy(d, family, ev, src, dst, 0, 0, SIZE, gpu_reset);
   VkFence fence = sgt_fence(d, false);
   uint64_t submitted = sgt_now_ns();
   sgt_submit1(index % 2 == 1, d->queues[family][index], cmd, NULL, NULL, fence);

   /* The host now writes the source the copy must see. */
   sgt_pattern_fill(src->map, SIZE, seed, 0);
   sgt_host_pause();
   uint64_t elapsed = sgt_now_ns() - submitted;
   if (elapsed < HOST_DELAY_MS * 1000000ull)
      sgt_sleep_ms((uint32_t)((HOST_DELAY_MS * 1000000ull - elapsed) / 1000000ull) + 1);

   /* Just before the set: nothing has happened. */
   SGT_CHECK(vkGetFenceStatus(d->device, fence) == VK_NOT_READY,
             "queue %u.%u: the fence signaled before vkSetEvent", family, index);
   SGT_CHECK(vkGetEventStatus(d->device, ev) == VK_EVENT_RESET,
             "queue %u.%u: the event reads set before vkSetEvent", family, index);
   sgt_expect_fill(dst->map, 0xee, SIZE, "queue %u.%u: destination before vkSetEvent", family,
                   index);
   uint64_t set_at = sgt_now_ns();
   SGT_CHECK_VK(vkSetEvent(d->device, ev));
   SGT_CHECK_VK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, 30ull * 1000000000ull));
   uint64_t done_at = sgt_now_ns();
   SGT_CHECK(done_at >= set_at, "clock");

   uint32_t *want = malloc(SIZE);
   sgt_pattern_fill(want, SIZE, seed, 0);
   sgt_expect_bytes(dst->map, want, SIZE, "queue %u.%u: destination after the fence", family,
                    index);
   free(want);
   /* The command buffer reset the event after its wait (even queues). */
   VkResult status = vkGetEventStatus(d->device, ev);
   SGT_CHECK(status == (gpu_reset ? VK_EVENT_RESET : VK_EVENT_SET),
             "queue %u.%u: event status %s after the fence", family, index,
             sgt_result_name(status));
   vkDestroyFence(d->device, fence, NULL);
   vkDestroyEvent(d->device, ev, NULL);
   vkFreeCommandBuffers(d->device, d->pools[family], 1, &cmd);
}

/* One host event releases every compute queue; each copies its own slice. */
static void every_queue(struct sgt_device *d, struct sgt_buffer *src, struct sgt_buffer *dst)
{
   struct sgt_qref qs[32];
   sgt_all_queues(d, qs);
   uint32_t nq = d->family_queue_count[0];
   SGT_REQUIRE(nq * SLICE <= SIZE, "slices do not fit");
   memset(src->map, 0x22, SIZE);
   memset(dst->map, 0xdd, SIZE);
   VkEvent ev = sgt_event(d);
   VkCommandBuffer cmds[32];
   VkFence fences[32];
   for (uint32_t i = 0; i < nq; i++) {
      cmds[i] = record_gated_copy(d, qs[i].family, ev, src, dst, (VkDeviceSize)i * SLICE,
                                  (VkDeviceSize)i * SLICE, SLICE, false);
      fences[i] = sgt_fence(d, false);
      sgt_submit1(i % 2 == 0, qs[i].queue, cmds[i], NULL, NULL, fences[i]);
      sgt_host_pause();
   }
   sgt_pattern_fill(src->map, SIZE, 77, 0);
   sgt_sleep_ms(HOST_DELAY_MS);
   SGT_CHECK(vkWaitForFences(d->device, nq, fences, VK_FALSE, 0) == VK_TIMEOUT,
             "a fence signaled before vkSetEvent");
   sgt_expect_fill(dst->map, 0xdd, SIZE, "every queue: destination before vkSetEvent");
   SGT_CHECK_VK(vkSetEvent(d->device, ev));
   SGT_CHECK_VK(vkWaitForFences(d->device, nq, fences, VK_TRUE, 30ull * 1000000000ull));
   uint32_t *want = malloc(SIZE);
   sgt_pattern_fill(want, SIZE, 77, 0);
   memset((uint8_t *)want + nq * SLICE, 0xdd, SIZE - nq * SLICE);
   sgt_expect_bytes(dst->map, want, SIZE, "every queue: destination after the fences");
   free(want);
   for (uint32_t i = 0; i < nq; i++) {
      vkDestroyFence(d->device, fences[i], NULL);
      vkFreeCommandBuffers(d->device, d->pools[qs[i].family], 1, &cmds[i]);
   }
   vkDestroyEvent(d->device, ev, NULL);
}

int main(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   struct sgt_buffer src, dst;
   sgt_buffer_create(&d, SIZE, &src);
   sgt_buffer_create(&d, SIZE, &dst);
   one_queue(&d, 0, 0, &src, &dst);
   one_queue(&d, 0, 7, &src, &dst);
   one_queue(&d, 0, 15, &src, &dst);
   every_queue(&d, &src, &dst);
   sgt_buffer_destroy(&d, &src);
   sgt_buffer_destroy(&d, &dst);
   sgt_device_destroy(&d);
   return sgt_finish();
}
