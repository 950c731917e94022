/*
 * vkQueueSubmit to a parked queue never blocks and creates no thread.
 *
 * Pins down: one thread submits 100000 command buffers to a compute queue
 * whose first submission waits on a timeline value nothing has signaled.
 * Each is a small fill or inline update (one kind through a secondary
 * command buffer); every 1000th submission, and the last, is a two-batch
 * vkQueueSubmit2 that also executes every kind, waits on an already
 * signaled timeline and signals a "counter" timeline with its own number;
 * half way there is a fence-only submission. Every call returns, within a
 * bounded time (the ring holds 1024 entries, so all but the first few
 * hundred submissions chain through link slots), and the process has no
 * more threads (/proc/self/task) than before, apart from the submitting
 * thread itself. While the queue is parked, 1000 submissions on the other
 * 17 queues complete, each waited on with a fence and its copy checked,
 * and the parked queue has run nothing (its data untouched, the counter at
 * 0, the fence-only submission unsignaled). Then the host signals the
 * awaited value: the counter, sampled while the queue drains, never goes
 * back (the chained submissions run in order) and ends at exactly 100000,
 * the fence signals, and the data show every command buffer's effect, the
 * last one's included.
 */
#include <string.h>

#include "sgt_sync.h"

#define SUBMITS 100000u
#define KINDS 16u                 /* reusable command buffers */
#define REGION 64u                /* bytes each command buffer writes */
#define OTHER_SUBMITS 1000u
#define COUNTER_EVERY 1000u       /* submissions per counter signal */
#define OTHER_BYTES 4096u
#define PARKED_FAMILY 0u
#define PARKED_INDEX 2u
#define SEC 1000000000ull

/* The process's threads once a thread that was joined has gone, waiting
 * up to a second for the count to fall to want: pthread_join returns when
 * the exiting thread's tid is cleared, a moment before the thread leaves
 * /proc/self/task, and under qemu-user (the aarch64 cross build's tests,
 * cmake/aarch64-linux-gnu.cmake) much more than a moment, since qemu
 * clears the tid first and then runs its own clean-up in that thread (a
 * run there once counted the submitter among the threads "after"). A
 * thread of the driver's would not go away. */
static uint32_t settled_thread_count(uint32_t want)
{
   uint32_t n = sgt_thread_count();
   for (uint32_t ms = 0; n > want && ms < 1000; ms += 10) {
      sgt_sleep_ms(10);
      n = sgt_thread_count();
   }
   return n;
}

static struct sgt_device d;
static VkCommandBuffer kinds[KINDS + 1];   /* + the last submission's own */
static VkSemaphore gate, counter, aux;
static VkFence mid_fence;   /* a fence-only submission half way */

static void kind_words(uint32_t k, uint32_t *w)
{
   for (uint32_t i = 0; i < REGION / 4; i++)
      w[i] = 0x7e000000u + k * 0x100u + i;
}

/* The submitting thread's findings (checked by the main thread). */
struct submitter {
   uint32_t done;                 /* submissions that returned */
   VkResult first_error;
   uint64_t max_call_ns, total_ns;
};

/* Every COUNTER_EVERY-th submission (and the last): two batches in one
 * vkQueueSubmit2, the first waiting on an already signaled timeline and
 * executing every kind, the second executing one and signaling the counter
 * (a chained submission of many command buffers and segments). */
static VkResult submit_counted(VkQueue queue, uint32_t i, VkCommandBuffer cmd)
{
   VkCommandBufferSubmitInfo all[KINDS], one = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd};
   for (uint32_t k = 0; k < KINDS; k++)
      all[k] = (VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                           .commandBuffer = kinds[k]};
   VkSemaphoreSubmitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                 .semaphore = aux, .value = 1,
                                 .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
   VkSemaphoreSubmitInfo signal = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                   .semaphore = counter, .value = (uint64_t)i + 1,
                                   .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
   VkSubmitInfo2 batches[2] = {
      {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = 1,
       .pWaitSemaphoreInfos = &wait, .commandBufferInfoCount = KINDS,
       .pCommandBufferInfos = all},
      {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1,
       .pCommandBufferInfos = &one, .signalSemaphoreInfoCount = 1,
       .pSignalSemaphoreInfos = &signal},
   };
   return vkQueueSubmit2(queue, 2, batches, VK_NULL_HANDLE);
}

static void *submit_all(void *arg)
{
   struct submitter *s = arg;
   VkQueue queue = d.queues[PARKED_FAMILY][PARKED_INDEX];
   uint64_t start = sgt_now_ns();
   for (uint32_t i = 0; i < SUBMITS; i++) {
      VkCommandBuffer cmd = i + 1 == SUBMITS ? kinds[KINDS] : kinds[i % KINDS];
      /* The counter every COUNTER_EVERY submissions only: the validation
       * layer (1.3.239) checks each submission against every pending signal
       * of a timeline, which is quadratic over 100000 pending signals. */
      bool counted = (i + 1) % COUNTER_EVERY == 0 || i + 1 == SUBMITS;
      struct sgt_sem_op wait = {gate, 1, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
      struct sgt_batch b = {.cmd_count = 1, .cmds = &cmd, .wait_count = i == 0 ? 1 : 0,
                            .waits = &wait};
      uint64_t t0 = sgt_now_ns();
      VkResult r = counted ? submit_counted(queue, i, cmd)
                           : sgt_try_submit(i % 2 == 1, queue, &b, VK_NULL_HANDLE);
      uint64_t dt = sgt_now_ns() - t0;
      s->max_call_ns = dt > s->max_call_ns ? dt : s->max_call_ns;
      if (r == VK_SUCCESS && i == SUBMITS / 2)
         r = vkQueueSubmit(queue, 0, NULL, mid_fence);
      if (r != VK_SUCCESS) {
         s->first_error = r;
         break;
      }
      s->done = i + 1;
   }
   s->total_ns = sgt_now_ns() - start;
   return NULL;
}

int main(void)
{
   sgt_device_create(&d, NULL);
   struct sgt_qref qs[32];
   uint32_t nq = sgt_all_queues(&d, qs);
   VkQueue parked = d.queues[PARKED_FAMILY][PARKED_INDEX];

   struct sgt_buffer data, src, dst;
   sgt_buffer_create(&d, (KINDS + 1) * REGION, &data);
   sgt_buffer_create(&d, (VkDeviceSize)nq * OTHER_BYTES, &src);
   sgt_buffer_create(&d, (VkDeviceSize)nq * OTHER_BYTES, &dst);
   memset(data.map, 0, (KINDS + 1) * REGION);
   sgt_pattern_fill(src.map, (size_t)nq * OTHER_BYTES, 8, 0);
   memset(dst.map, 0, (size_t)nq * OTHER_BYTES);

   /* The parked queue's command buffers: fills and inline updates, one of
    * them through a secondary command buffer. */
   VkCommandBuffer secondary = sgt_alloc_cmd(&d, PARKED_FAMILY, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
   for (uint32_t k = 0; k <= KINDS; k++) {
      kinds[k] = sgt_alloc_cmd(&d, PARKED_FAMILY, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
      sgt_begin_primary(kinds[k], VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
      if (k % 2 == 0 && k < KINDS) {
         vkCmdFillBuffer(kinds[k], data.buffer, (VkDeviceSize)k * REGION, REGION, 0x7f000000u + k);
      } else {
         uint32_t w[REGION / 4];
         kind_words(k, w);
         VkCommandBuffer target = k == 1 ? secondary : kinds[k];
         if (k == 1)
            sgt_begin_secondary(secondary, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
         vkCmdUpdateBuffer(target, data.buffer, (VkDeviceSize)k * REGION, REGION, w);
         if (k == 1) {
            SGT_CHECK_VK(vkEndCommandBuffer(secondary));
            vkCmdExecuteCommands(kinds[k], 1, &secondary);
         }
      }
      sgt_barrier_to_host(kinds[k]);
      SGT_CHECK_VK(vkEndCommandBuffer(kinds[k]));
   }
   /* The other queues' work: copy their own slice. */
   VkCommandBuffer others[32];
   VkFence fences[32];
   for (uint32_t q = 0; q < nq; q++) {
      others[q] = sgt_alloc_cmd(&d, qs[q].family, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
      sgt_begin_primary(others[q], 0);
      VkBufferCopy r = {.srcOffset = (VkDeviceSize)q * OTHER_BYTES,
                        .dstOffset = (VkDeviceSize)q * OTHER_BYTES, .size = OTHER_BYTES};
      vkCmdCopyBuffer(others[q], src.buffer, dst.buffer, 1, &r);
      sgt_barrier_to_host(others[q]);
      SGT_CHECK_VK(vkEndCommandBuffer(others[q]));
      fences[q] = sgt_fence(&d, false);
   }
   gate = sgt_timeline(&d, 0);
   counter = sgt_timeline(&d, 0);
   aux = sgt_timeline(&d, 1);
   mid_fence = sgt_fence(&d, false);

   /* Every queue once (the validation layer starts a thread per queue on
    * its first submission): then the baseline thread count. */
   for (uint32_t q = 0; q < nq; q++) {
      sgt_submit1(false, qs[q].queue, others[q], NULL, NULL, fences[q]);
      SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fences[q], VK_TRUE, 30 * SEC));
      SGT_CHECK_VK(vkResetFences(d.device, 1, &fences[q]));
   }
   uint32_t baseline = sgt_thread_count();

   struct submitter sub = {0};
   struct sgt_thread thread;
   sgt_thread_start(&thread, submit_all, &sub);
   uint32_t max_threads = sgt_thread_count();

   /* Meanwhile the other queues work, one fence wait at a time. */
   uint32_t bad = 0;
   for (uint32_t i = 0; i < OTHER_SUBMITS; i++) {
      uint32_t q = i % nq;
      if (qs[q].queue == parked)
         q = (q + 1) % nq;
      uint8_t *out = (uint8_t *)dst.map + (size_t)q * OTHER_BYTES;
      memset(out, 0, OTHER_BYTES);
      sgt_submit1(i % 2 == 0, qs[q].queue, others[q], NULL, NULL, fences[q]);
      VkResult r = vkWaitForFences(d.device, 1, &fences[q], VK_TRUE, 30 * SEC);
      SGT_CHECK(r == VK_SUCCESS, "other queue %u.%u, submission %u: fence wait %s while a queue "
                "is parked", qs[q].family, qs[q].index, i, sgt_result_name(r));
      SGT_CHECK_VK(vkResetFences(d.device, 1, &fences[q]));
      if (bad < 3 && !sgt_expect_bytes(out, (uint8_t *)src.map + (size_t)q * OTHER_BYTES,
                                       OTHER_BYTES, "other queue %u.%u, submission %u",
                                       qs[q].family, qs[q].index, i))
         bad++;
      if (i % 50 == 0) {
         uint32_t n = sgt_thread_count();
         max_threads = n > max_threads ? n : max_threads;
      }
   }

   /* The submitting thread must end on its own: nothing has signaled. */
   bool ended = sgt_thread_join_timeout(&thread, 240000);
   SGT_CHECK(ended, "vkQueueSubmit blocked: %u of %u submissions returned in 240 s", sub.done,
             SUBMITS);
   if (!ended) {
      VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                  .semaphore = gate, .value = 2};
      vkSignalSemaphore(d.device, &si);
      SGT_REQUIRE(sgt_thread_join_timeout(&thread, 60000), "the submitter is stuck for good");
   }
   SGT_CHECK(sub.first_error == VK_SUCCESS, "vkQueueSubmit returned %s after %u submissions",
             sgt_result_name(sub.first_error), sub.done);
   SGT_CHECK(sub.done == SUBMITS, "%u of %u submissions", sub.done, SUBMITS);
   uint32_t after = settled_thread_count(baseline);
   fprintf(stderr, "%u submissions to the parked queue in %.1f ms, the slowest call %.3f ms; "
           "threads: %u before, at most %u during (the submitter included), %u after\n",
           sub.done, (double)sub.total_ns / 1e6, (double)sub.max_call_ns / 1e6, baseline,
           max_threads, after);
   SGT_CHECK(max_threads <= baseline + 1, "threads grew from %u to %u while submitting", baseline,
             max_threads);
   SGT_CHECK(after == baseline, "threads: %u after, %u before", after, baseline);

   /* Still parked: nothing ran. */
   uint64_t value = 0;
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, counter, &value));
   SGT_CHECK(value == 0, "the parked queue signaled %llu before its wait was satisfied",
             (unsigned long long)value);
   sgt_expect_fill(data.map, 0, (KINDS + 1) * REGION, "the parked queue's data before the signal");
   SGT_CHECK(vkGetFenceStatus(d.device, mid_fence) == VK_NOT_READY,
             "a fence-only submission behind the parked work signaled early");

   /* Release it: the counter only climbs, to exactly SUBMITS. */
   /* 2, not the 1 waited for: the validation layer 1.3.239 can stall for
    * 10 s when a host signal is exactly a value a queue waits for (see
    * tests/vulkan/test_sync_graph.c, HOST_SIGNAL_NOTE). */
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                               .semaphore = gate, .value = 2};
   SGT_CHECK_VK(vkSignalSemaphore(d.device, &si));
   uint64_t released = sgt_now_ns(), last = 0, deadline = released + 120 * SEC;
   uint32_t samples = 0, distinct = 0;
   while (last < SUBMITS && sgt_now_ns() < deadline) {
      SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, counter, &value));
      if (value < last) {
         SGT_CHECK(value >= last, "the counter went back from %llu to %llu",
                   (unsigned long long)last, (unsigned long long)value);
         break;
      }
      distinct += value != last;
      last = value;
      samples++;
   }
   SGT_CHECK_VK(sgt_wait_timeline(d.device, counter, SUBMITS, 60 * SEC));
   uint64_t drained = sgt_now_ns();
   SGT_CHECK_VK(vkQueueWaitIdle(parked));
   SGT_CHECK_VK(vkGetFenceStatus(d.device, mid_fence));
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, counter, &value));
   SGT_CHECK(value == SUBMITS, "the counter ended at %llu, expected %u", (unsigned long long)value,
             SUBMITS);
   fprintf(stderr, "drained in %.1f ms; the counter read %u times, %u distinct values\n",
           (double)(drained - released) / 1e6, samples, distinct);

   /* Every kind of command buffer ran; the last submission's own too. */
   uint32_t want[(KINDS + 1) * REGION / 4];
   for (uint32_t k = 0; k <= KINDS; k++) {
      if (k % 2 == 0 && k < KINDS) {
         for (uint32_t i = 0; i < REGION / 4; i++)
            want[k * REGION / 4 + i] = 0x7f000000u + k;
      } else {
         kind_words(k, &want[k * REGION / 4]);
      }
   }
   sgt_expect_bytes(data.map, want, sizeof(want), "the parked queue's data after draining");
   SGT_CHECK_VK(vkDeviceWaitIdle(d.device));
   SGT_CHECK(sgt_thread_count() == baseline, "threads: %u at the end, %u before",
             sgt_thread_count(), baseline);

   for (uint32_t q = 0; q < nq; q++)
      vkDestroyFence(d.device, fences[q], NULL);
   vkDestroySemaphore(d.device, gate, NULL);
   vkDestroySemaphore(d.device, counter, NULL);
   vkDestroySemaphore(d.device, aux, NULL);
   vkDestroyFence(d.device, mid_fence, NULL);
   sgt_buffer_destroy(&d, &data);
   sgt_buffer_destroy(&d, &src);
   sgt_buffer_destroy(&d, &dst);
   sgt_device_destroy(&d);
   return sgt_finish();
}
