/*
 * GPU faults lose the device, cleanly, and only that device.
 *
 * Each scenario runs in a child process (sgt_run_self) with SOFTGPU_FAULT
 * in its environment, so each has fresh GPUs (devices are numbered per
 * process in creation order, from 0). Pins down:
 * (a) a malformed packet injected on a compute queue's channel (compute
 *     queue i is channel i): afterwards vkQueueSubmit and vkQueueSubmit2
 *     (on every queue), vkQueueWaitIdle (on every queue), vkWaitForFences
 *     and vkGetFenceStatus (for fences that completed before the fault,
 *     the faulting one and one never reached), vkWaitSemaphores and
 *     vkGetSemaphoreCounterValue, vkDeviceWaitIdle, vkGetEventStatus and
 *     vkGetQueryPoolResults (an available query, an unavailable one with
 *     and without WAIT) all return VK_ERROR_DEVICE_LOST; every channel stops
 *     (work on another queue released after the fault never runs); and a
 *     post-mortem report on stderr names the channel, its GET and PUT and
 *     the decoded packet;
 * (b) the same for a DMA copy from an unmapped address (kind:address) on a
 *     transfer queue's channel (transfer queue i is channel 16 + i);
 * (c) host threads blocked with UINT64_MAX timeouts in vkWaitForFences
 *     (all and any), vkWaitSemaphores (all, any, and on a timeline only the
 *     host would signal), vkGetQueryPoolResults(WAIT), vkQueueWaitIdle (of
 *     another queue and of the faulting one) and, in a second child,
 *     vkDeviceWaitIdle, on other queues' work on both engines, return
 *     VK_ERROR_DEVICE_LOST instead of hanging (bounded: 10 s each);
 * (d) a second VkDevice of the process keeps working when the other one is
 *     lost, whichever of the two (device:0 or device:1) faults, even on the
 *     same channel number: verified copies on all its queues and a timeline
 *     chain after the loss;
 * (e) every child exits with status 0: the process survives (and, in the
 *     sanitizer builds, has no leak, race or error on the lost path).
 *
 * These are the only tests that run without the validation layer: after a
 * device loss, work that was submitted stays pending forever, so the
 * layer rightly reports every later use or destruction of those command
 * buffers, fences and semaphores, and waiting on them; the driver's side
 * of a loss is what is tested here.
 */
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "sgt_sync.h"

#define SEC 1000000000ull
#define COPY_BYTES (256u * 1024u)
#define FILL_VALUE 0x0badf00du
#define FAULT_QUEUE 3u           /* compute queue 3: channel 3 */

static const struct sgt_instance_options no_validation = {.no_validation = true};

/* ---- helpers ----------------------------------------------------------------- */

static VkCommandBuffer record_copy(struct sgt_device *d, uint32_t family, struct sgt_buffer *src,
                                   struct sgt_buffer *dst, VkDeviceSize offset, VkDeviceSize size)
{
   VkCommandBuffer cmd = sgt_alloc_cmd(d, family, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   sgt_begin_primary(cmd, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
   VkBufferCopy r = {.srcOffset = offset, .dstOffset = offset, .size = size};
   vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &r);
   sgt_barrier_to_host(cmd);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   return cmd;
}

static void expect_lost(VkResult r, const char *what, ...) __attribute__((format(printf, 2, 3)));
static void expect_lost(VkResult r, const char *what, ...)
{
   if (r == VK_ERROR_DEVICE_LOST)
      return;
   char text[256];
   va_list ap;
   va_start(ap, what);
   vsnprintf(text, sizeof(text), what, ap);
   va_end(ap);
   SGT_CHECK(r == VK_ERROR_DEVICE_LOST, "%s returned %s after the device was lost", text,
             sgt_result_name(r));
}

static VkQueryPool timestamp_pool(struct sgt_device *d, uint32_t count)
{
   VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                               .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = count};
   VkQueryPool pool;
   SGT_CHECK_VK(vkCreateQueryPool(d->device, &qi, NULL, &pool));
   vkResetQueryPool(d->device, pool, 0, count);
   return pool;
}

/* A verified copy on one queue (of a healthy device). */
static void verified_copy(struct sgt_device *d, uint32_t family, uint32_t index, uint32_t seed)
{
   struct sgt_buffer src, dst;
   sgt_buffer_create(d, COPY_BYTES, &src);
   sgt_buffer_create(d, COPY_BYTES, &dst);
   sgt_pattern_fill(src.map, COPY_BYTES, seed, 0);
   memset(dst.map, 0, COPY_BYTES);
   VkCommandBuffer cmd = record_copy(d, family, &src, &dst, 0, COPY_BYTES);
   VkFence fence = sgt_fence(d, false);
   sgt_submit1(seed % 2 == 0, d->queues[family][index], cmd, NULL, NULL, fence);
   SGT_CHECK_VK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, 30 * SEC));
   SGT_CHECK_VK(vkGetFenceStatus(d->device, fence));
   sgt_expect_bytes(dst.map, src.map, COPY_BYTES, "copy on queue %u.%u", family, index);
   vkDestroyFence(d->device, fence, NULL);
   vkFreeCommandBuffers(d->device, d->pools[family], 1, &cmd);
   sgt_buffer_destroy(d, &src);
   sgt_buffer_destroy(d, &dst);
}

/* Submits the faulting work to queue (family, index): a fill first (the
 * first packet of the channel) then a copy; signals fence and timeline. */
static VkCommandBuffer submit_faulting(struct sgt_device *d, uint32_t family, uint32_t index,
                                       struct sgt_buffer *src, struct sgt_buffer *dst,
                                       VkFence fence, VkSemaphore timeline)
{
   VkCommandBuffer cmd = sgt_alloc_cmd(d, family, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   sgt_begin_primary(cmd, 0);
   if (family == 0)
      vkCmdFillBuffer(cmd, dst->buffer, 0, 4096, FILL_VALUE);
   VkBufferCopy r = {.size = COPY_BYTES};
   vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &r);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   struct sgt_sem_op signal = {timeline, 1, 0};
   sgt_submit1(false, d->queues[family][index], cmd, NULL, timeline ? &signal : NULL, fence);
   return cmd;
}

/* ---- (a), (b): every entry point reports the loss ----------------------------------- */

static int lost_everywhere(uint32_t fault_family, uint32_t fault_index)
{
   struct sgt_device d;
   sgt_device_create(&d, &no_validation);
   struct sgt_qref qs[32];
   uint32_t nq = sgt_all_queues(&d, qs);
   struct sgt_buffer src, dst, gated;
   sgt_buffer_create(&d, COPY_BYTES, &src);
   sgt_buffer_create(&d, COPY_BYTES, &dst);
   sgt_buffer_create(&d, COPY_BYTES, &gated);
   sgt_pattern_fill(src.map, COPY_BYTES, 50, 0);
   memset(gated.map, 0, COPY_BYTES);

   /* Before the fault: work that completes, on both engines. */
   VkFence done = sgt_fence(&d, false);
   VkSemaphore done_timeline = sgt_timeline(&d, 0);
   VkEvent set_event = sgt_event(&d), unset_event = sgt_event(&d);
   VkQueryPool pool = timestamp_pool(&d, 2);
   VkCommandBuffer before = sgt_alloc_cmd(&d, 0, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   sgt_begin_primary(before, 0);
   vkCmdWriteTimestamp(before, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
   vkCmdSetEvent(before, set_event, VK_PIPELINE_STAGE_TRANSFER_BIT);
   SGT_CHECK_VK(vkEndCommandBuffer(before));
   struct sgt_sem_op sig1 = {done_timeline, 1, 0};
   sgt_submit1(false, d.queues[0][0], before, NULL, &sig1, done);
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &done, VK_TRUE, 30 * SEC));
   SGT_CHECK(vkGetEventStatus(d.device, set_event) == VK_EVENT_SET, "event before the fault");
   verified_copy(&d, 0, 1, 51);
   verified_copy(&d, 1, 1, 52);

   /* Work on another queue that waits for the host (released after the fault). */
   VkSemaphore gate = sgt_timeline(&d, 0);
   VkFence gated_fence = sgt_fence(&d, false);
   VkCommandBuffer gated_cmd = sgt_alloc_cmd(&d, 0, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   sgt_begin_primary(gated_cmd, 0);
   VkBufferCopy whole = {.size = COPY_BYTES};
   vkCmdCopyBuffer(gated_cmd, src.buffer, gated.buffer, 1, &whole);
   vkCmdWriteTimestamp(gated_cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
   SGT_CHECK_VK(vkEndCommandBuffer(gated_cmd));
   struct sgt_sem_op wait_gate = {gate, 1, 0};
   sgt_submit1(true, d.queues[0][4], gated_cmd, &wait_gate, NULL, gated_fence);

   /* The fault. */
   VkFence fault_fence = sgt_fence(&d, false);
   VkSemaphore fault_timeline = sgt_timeline(&d, 0);
   VkCommandBuffer fault_cmd = submit_faulting(&d, fault_family, fault_index, &src, &dst,
                                               fault_fence, fault_timeline);
   expect_lost(vkWaitForFences(d.device, 1, &fault_fence, VK_TRUE, UINT64_MAX),
               "vkWaitForFences(the faulting submission's fence)");

   /* Every entry point now reports the loss. */
   VkCommandBuffer small[2];
   for (uint32_t f = 0; f < 2; f++) {
      small[f] = sgt_alloc_cmd(&d, f, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
      sgt_begin_primary(small[f], 0);
      vkCmdFillBuffer(small[f], dst.buffer, 0, 64, 1);
      SGT_CHECK_VK(vkEndCommandBuffer(small[f]));
   }
   VkFence after = sgt_fence(&d, false);
   for (uint32_t i = 0; i < nq; i++) {
      struct sgt_batch b = {.cmd_count = 1, .cmds = &small[qs[i].family]};
      expect_lost(sgt_try_submit(false, qs[i].queue, &b, VK_NULL_HANDLE),
                  "vkQueueSubmit on queue %u.%u", qs[i].family, qs[i].index);
      expect_lost(sgt_try_submit(true, qs[i].queue, &b, after),
                  "vkQueueSubmit2 on queue %u.%u", qs[i].family, qs[i].index);
      expect_lost(vkQueueSubmit(qs[i].queue, 0, NULL, after),
                  "vkQueueSubmit(no batches, a fence) on queue %u.%u", qs[i].family, qs[i].index);
      expect_lost(vkQueueWaitIdle(qs[i].queue), "vkQueueWaitIdle on queue %u.%u", qs[i].family,
                  qs[i].index);
   }
   expect_lost(vkWaitForFences(d.device, 1, &done, VK_TRUE, UINT64_MAX),
               "vkWaitForFences(a fence signaled before the fault)");
   expect_lost(vkWaitForFences(d.device, 1, &gated_fence, VK_TRUE, UINT64_MAX),
               "vkWaitForFences(a fence never reached, UINT64_MAX)");
   expect_lost(vkWaitForFences(d.device, 1, &gated_fence, VK_TRUE, 0),
               "vkWaitForFences(a fence never reached, timeout 0)");
   VkFence pair[2] = {done, gated_fence};
   expect_lost(vkWaitForFences(d.device, 2, pair, VK_FALSE, UINT64_MAX),
               "vkWaitForFences(any of signaled + never reached)");
   expect_lost(vkGetFenceStatus(d.device, done), "vkGetFenceStatus(signaled before the fault)");
   expect_lost(vkGetFenceStatus(d.device, fault_fence), "vkGetFenceStatus(the faulting fence)");
   expect_lost(sgt_wait_timeline(d.device, done_timeline, 1, UINT64_MAX),
               "vkWaitSemaphores(a value reached before the fault)");
   expect_lost(sgt_wait_timeline(d.device, fault_timeline, 1, UINT64_MAX),
               "vkWaitSemaphores(the faulting submission's signal, UINT64_MAX)");
   expect_lost(sgt_wait_timeline(d.device, fault_timeline, 1, 1000000),
               "vkWaitSemaphores(the faulting submission's signal, 1 ms)");
   uint64_t value = 0;
   expect_lost(vkGetSemaphoreCounterValue(d.device, done_timeline, &value),
               "vkGetSemaphoreCounterValue");
   expect_lost(vkDeviceWaitIdle(d.device), "vkDeviceWaitIdle");
   expect_lost(vkGetEventStatus(d.device, set_event), "vkGetEventStatus(a set event)");
   expect_lost(vkGetEventStatus(d.device, unset_event), "vkGetEventStatus(an unset event)");
   uint64_t results[2] = {0, 0};
   expect_lost(vkGetQueryPoolResults(d.device, pool, 0, 1, sizeof(results), results, 8,
                                     VK_QUERY_RESULT_64_BIT),
               "vkGetQueryPoolResults(an available query)");
   expect_lost(vkGetQueryPoolResults(d.device, pool, 1, 1, sizeof(results), results, 8,
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
               "vkGetQueryPoolResults(an unavailable query, WAIT)");
   expect_lost(vkGetQueryPoolResults(d.device, pool, 1, 1, sizeof(results), results, 8,
                                     VK_QUERY_RESULT_64_BIT),
               "vkGetQueryPoolResults(an unavailable query, no WAIT)");

   /* Every channel has stopped: released work does not run. */
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                               .semaphore = gate, .value = 1};
   vkSignalSemaphore(d.device, &si);
   sgt_sleep_ms(50);
   sgt_expect_fill(gated.map, 0, COPY_BYTES, "work released after the fault");

   vkDestroyFence(d.device, done, NULL);
   vkDestroyFence(d.device, gated_fence, NULL);
   vkDestroyFence(d.device, fault_fence, NULL);
   vkDestroyFence(d.device, after, NULL);
   vkDestroySemaphore(d.device, done_timeline, NULL);
   vkDestroySemaphore(d.device, fault_timeline, NULL);
   vkDestroySemaphore(d.device, gate, NULL);
   vkDestroyEvent(d.device, set_event, NULL);
   vkDestroyEvent(d.device, unset_event, NULL);
   vkDestroyQueryPool(d.device, pool, NULL);
   vkFreeCommandBuffers(d.device, d.pools[0], 1, &before);
   vkFreeCommandBuffers(d.device, d.pools[0], 1, &gated_cmd);
   vkFreeCommandBuffers(d.device, d.pools[fault_family], 1, &fault_cmd);
   for (uint32_t f = 0; f < 2; f++)
      vkFreeCommandBuffers(d.device, d.pools[f], 1, &small[f]);
   sgt_buffer_destroy(&d, &src);
   sgt_buffer_destroy(&d, &dst);
   sgt_buffer_destroy(&d, &gated);
   sgt_device_destroy(&d);
   return sgt_finish();
}

/* ---- (c): blocked host waiters return ---------------------------------------------------- */

enum waiter_kind {
   W_FENCE, W_FENCES_ANY, W_SEMAPHORE, W_SEMAPHORES_ANY, W_HOST_ONLY, W_QUERY,
   W_QUEUE_IDLE, W_FAULTING_QUEUE_IDLE,   /* first child */
   W_DEVICE_IDLE,                         /* second child: all queues are its */
   W_KINDS
};
static const char *const waiter_names[W_KINDS] = {
   "vkWaitForFences(all, UINT64_MAX)", "vkWaitForFences(any, UINT64_MAX)",
   "vkWaitSemaphores(all, UINT64_MAX)", "vkWaitSemaphores(any, UINT64_MAX)",
   "vkWaitSemaphores(a timeline only the host would signal, UINT64_MAX)",
   "vkGetQueryPoolResults(WAIT)", "vkQueueWaitIdle(another queue)",
   "vkQueueWaitIdle(the faulting queue)", "vkDeviceWaitIdle"};

struct blocked {
   struct sgt_device *d;
   enum waiter_kind kind;
   VkFence fences[2];
   VkSemaphore sems[2];
   uint64_t values[2];
   VkSemaphore host_only;
   VkQueue queue, faulting_queue;
   VkQueryPool pool;
   _Atomic int result;           /* VkResult, once returned */
   _Atomic bool returned;
   struct sgt_thread thread;
};

static void *blocked_main(void *arg)
{
   struct blocked *b = arg;
   VkResult r = VK_SUCCESS;
   VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 2,
                             .pSemaphores = b->sems, .pValues = b->values};
   uint64_t q[2];
   switch (b->kind) {
   case W_FENCE: r = vkWaitForFences(b->d->device, 1, b->fences, VK_TRUE, UINT64_MAX); break;
   case W_FENCES_ANY: r = vkWaitForFences(b->d->device, 2, b->fences, VK_FALSE, UINT64_MAX); break;
   case W_SEMAPHORE:
      /* All of one: the DMA engine's work. */
      wi.semaphoreCount = 1;
      wi.pSemaphores = &b->sems[1];
      wi.pValues = &b->values[1];
      r = vkWaitSemaphores(b->d->device, &wi, UINT64_MAX);
      break;
   case W_SEMAPHORES_ANY:
      wi.flags = VK_SEMAPHORE_WAIT_ANY_BIT;
      r = vkWaitSemaphores(b->d->device, &wi, UINT64_MAX);
      break;
   case W_HOST_ONLY: r = sgt_wait_timeline(b->d->device, b->host_only, 1, UINT64_MAX); break;
   case W_QUERY:
      r = vkGetQueryPoolResults(b->d->device, b->pool, 0, 1, sizeof(q), q, 8,
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      break;
   case W_QUEUE_IDLE: r = vkQueueWaitIdle(b->queue); break;
   case W_FAULTING_QUEUE_IDLE: r = vkQueueWaitIdle(b->faulting_queue); break;
   case W_DEVICE_IDLE: r = vkDeviceWaitIdle(b->d->device); break;
   case W_KINDS: break;
   }
   atomic_store(&b->result, (int)r);
   atomic_store(&b->returned, true);
   return NULL;
}

/* The faulting submission is made first, gated on a timeline: the fault
 * (SOFTGPU_FAULT packet 3: the acquire, its barrier, then the fill) comes
 * when the host signals it, so that no thread but the waiters touches a
 * queue meanwhile. */
static int blocked_waiters(bool device_idle)
{
   struct sgt_device d;
   sgt_device_create(&d, &no_validation);
   struct sgt_buffer src, dst, fdst;
   sgt_buffer_create(&d, COPY_BYTES, &src);
   sgt_buffer_create(&d, COPY_BYTES, &dst);
   sgt_buffer_create(&d, COPY_BYTES, &fdst);
   sgt_pattern_fill(src.map, COPY_BYTES, 60, 0);
   memset(dst.map, 0, COPY_BYTES);
   VkSemaphore gate = sgt_timeline(&d, 0), fault_gate = sgt_timeline(&d, 0);
   VkSemaphore host_only = sgt_timeline(&d, 0);
   VkQueryPool pool = timestamp_pool(&d, 1);

   /* The faulting work on compute queue 3, gated. */
   VkCommandBuffer fault_cmd = sgt_alloc_cmd(&d, 0, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   sgt_begin_primary(fault_cmd, 0);
   vkCmdFillBuffer(fault_cmd, fdst.buffer, 0, 4096, FILL_VALUE);
   SGT_CHECK_VK(vkEndCommandBuffer(fault_cmd));
   VkFence fault_fence = sgt_fence(&d, false);
   struct sgt_sem_op wait_fault_gate = {fault_gate, 1, 0};
   sgt_submit1(false, d.queues[0][FAULT_QUEUE], fault_cmd, &wait_fault_gate, NULL, fault_fence);

   /* Work nobody releases on compute queue 5 and transfer queue 1 (both engines). */
   VkFence f5 = sgt_fence(&d, false), f17 = sgt_fence(&d, false);
   VkSemaphore s5 = sgt_timeline(&d, 0), s17 = sgt_timeline(&d, 0);
   VkCommandBuffer c5 = record_copy(&d, 0, &src, &dst, 0, COPY_BYTES / 2);
   VkCommandBuffer c17 = sgt_alloc_cmd(&d, 1, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
   sgt_begin_primary(c17, 0);
   VkBufferCopy half = {.srcOffset = COPY_BYTES / 2, .dstOffset = COPY_BYTES / 2,
                        .size = COPY_BYTES / 2};
   vkCmdCopyBuffer(c17, src.buffer, dst.buffer, 1, &half);
   vkCmdWriteTimestamp(c17, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
   SGT_CHECK_VK(vkEndCommandBuffer(c17));
   struct sgt_sem_op wait = {gate, 1, 0}, sig5 = {s5, 7, 0}, sig17 = {s17, 9, 0};
   sgt_submit1(false, d.queues[0][5], c5, &wait, &sig5, f5);
   sgt_submit1(true, d.queues[1][1], c17, &wait, &sig17, f17);

   static struct blocked waiters[W_KINDS];
   bool used[W_KINDS] = {false};
   for (uint32_t k = 0; k < W_KINDS; k++) {
      bool queue_wait = k == W_QUEUE_IDLE || k == W_FAULTING_QUEUE_IDLE;
      used[k] = device_idle ? k == W_DEVICE_IDLE || !queue_wait : k != W_DEVICE_IDLE;
      if (!used[k])
         continue;
      struct blocked *b = &waiters[k];
      b->d = &d;
      b->kind = (enum waiter_kind)k;
      b->fences[0] = f5;
      b->fences[1] = f17;
      b->sems[0] = s5;
      b->sems[1] = s17;
      b->values[0] = 7;
      b->values[1] = 9;
      b->host_only = host_only;
      b->queue = d.queues[0][5];
      b->faulting_queue = d.queues[0][FAULT_QUEUE];
      b->pool = pool;
      atomic_store(&b->returned, false);
      sgt_thread_start(&b->thread, blocked_main, b);
   }
   sgt_sleep_ms(100);
   for (uint32_t k = 0; k < W_KINDS; k++)
      SGT_CHECK(!used[k] || !atomic_load(&waiters[k].returned), "%s returned before the fault: %s",
                waiter_names[k], sgt_result_name((VkResult)atomic_load(&waiters[k].result)));

   /* The fault: release the faulting submission. */
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                               .semaphore = fault_gate, .value = 1};
   SGT_CHECK_VK(vkSignalSemaphore(d.device, &si));
   uint64_t t0 = sgt_now_ns();
   bool stuck = false;
   for (uint32_t k = 0; k < W_KINDS; k++) {
      if (!used[k])
         continue;
      bool ended = sgt_thread_join_timeout(&waiters[k].thread, 10000);
      SGT_CHECK(ended, "%s still blocked 10 s after the fault", waiter_names[k]);
      stuck |= !ended;
      if (ended)
         expect_lost((VkResult)atomic_load(&waiters[k].result), "%s", waiter_names[k]);
   }
   fprintf(stderr, "blocked waiters returned within %.1f ms of the fault's release\n",
           (double)(sgt_now_ns() - t0) / 1e6);
   if (stuck) {
      /* Threads are still inside the driver: cleaning up is impossible. */
      fprintf(stderr, "FAIL: blocked waiters did not return\n");
      _exit(1);
   }
   expect_lost(vkWaitForFences(d.device, 1, &fault_fence, VK_TRUE, UINT64_MAX),
               "vkWaitForFences(the faulting submission's fence)");
   sgt_expect_fill(fdst.map, 0, 4096, "the faulting fill");
   vkDestroyFence(d.device, f5, NULL);
   vkDestroyFence(d.device, f17, NULL);
   vkDestroyFence(d.device, fault_fence, NULL);
   vkDestroySemaphore(d.device, s5, NULL);
   vkDestroySemaphore(d.device, s17, NULL);
   vkDestroySemaphore(d.device, gate, NULL);
   vkDestroySemaphore(d.device, fault_gate, NULL);
   vkDestroySemaphore(d.device, host_only, NULL);
   vkDestroyQueryPool(d.device, pool, NULL);
   vkFreeCommandBuffers(d.device, d.pools[0], 1, &c5);
   vkFreeCommandBuffers(d.device, d.pools[0], 1, &fault_cmd);
   vkFreeCommandBuffers(d.device, d.pools[1], 1, &c17);
   sgt_buffer_destroy(&d, &src);
   sgt_buffer_destroy(&d, &dst);
   sgt_buffer_destroy(&d, &fdst);
   sgt_device_destroy(&d);
   return sgt_finish();
}

/* ---- (d): the other device carries on ----------------------------------------------------- */

static void healthy_work(struct sgt_device *d, uint32_t seed)
{
   struct sgt_qref qs[32];
   uint32_t nq = sgt_all_queues(d, qs);
   for (uint32_t i = 0; i < nq; i++)
      verified_copy(d, qs[i].family, qs[i].index, seed + i);
   /* A timeline chain across three queues of both engines. */
   struct sgt_buffer b[4];
   for (uint32_t i = 0; i < 4; i++) {
      sgt_buffer_create(d, COPY_BYTES, &b[i]);
      memset(b[i].map, 0, COPY_BYTES);
   }
   sgt_pattern_fill(b[0].map, COPY_BYTES, seed, 0);
   VkSemaphore t = sgt_timeline(d, 0);
   static const uint32_t fam[3] = {0, 1, 0}, idx[3] = {FAULT_QUEUE, 0, 9};
   VkCommandBuffer cmds[3];
   for (uint32_t k = 3; k-- > 0;) {
      cmds[k] = record_copy(d, fam[k], &b[k], &b[k + 1], 0, COPY_BYTES);
      struct sgt_sem_op wait = {t, k + 1, 0}, signal = {t, k + 2, 0};
      sgt_submit1(k == 1, d->queues[fam[k]][idx[k]], cmds[k], &wait, &signal, VK_NULL_HANDLE);
   }
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = t,
                               .value = 1};
   SGT_CHECK_VK(vkSignalSemaphore(d->device, &si));
   SGT_CHECK_VK(sgt_wait_timeline(d->device, t, 4, 30 * SEC));
   for (uint32_t i = 1; i < 4; i++)
      sgt_expect_bytes(b[i].map, b[0].map, COPY_BYTES, "healthy device: chain stage %u", i);
   SGT_CHECK_VK(vkDeviceWaitIdle(d->device));
   for (uint32_t k = 0; k < 3; k++)
      vkFreeCommandBuffers(d->device, d->pools[fam[k]], 1, &cmds[k]);
   vkDestroySemaphore(d->device, t, NULL);
   for (uint32_t i = 0; i < 4; i++)
      sgt_buffer_destroy(d, &b[i]);
}

static int second_device(uint32_t faulting)
{
   struct sgt_device devs[2];
   sgt_device_create(&devs[0], &no_validation);   /* GPU 0 of the process */
   sgt_device_create_on(&devs[1], devs[0].instance, devs[0].pdev);   /* GPU 1 */
   struct sgt_device *lost = &devs[faulting], *healthy = &devs[1 - faulting];

   /* The healthy device uses the faulting channel number first. */
   verified_copy(healthy, 0, FAULT_QUEUE, 70);

   struct sgt_buffer src, dst;
   sgt_buffer_create(lost, COPY_BYTES, &src);
   sgt_buffer_create(lost, COPY_BYTES, &dst);
   VkFence fence = sgt_fence(lost, false);
   VkCommandBuffer cmd = submit_faulting(lost, 0, FAULT_QUEUE, &src, &dst, fence, VK_NULL_HANDLE);
   expect_lost(vkWaitForFences(lost->device, 1, &fence, VK_TRUE, UINT64_MAX),
               "vkWaitForFences on the faulting device");
   expect_lost(vkDeviceWaitIdle(lost->device), "vkDeviceWaitIdle on the faulting device");

   healthy_work(healthy, 80);
   expect_lost(vkQueueSubmit(lost->queues[0][0], 0, NULL, VK_NULL_HANDLE),
               "vkQueueSubmit on the lost device, after the other one worked");

   vkDestroyFence(lost->device, fence, NULL);
   vkFreeCommandBuffers(lost->device, lost->pools[0], 1, &cmd);
   sgt_buffer_destroy(lost, &src);
   sgt_buffer_destroy(lost, &dst);
   sgt_device_destroy_on(&devs[1]);
   sgt_device_destroy(&devs[0]);
   return sgt_finish();
}

/* ---- the parent ---------------------------------------------------------------------------- */

struct scenario {
   const char *mode;
   const char *fault;                   /* SOFTGPU_FAULT */
   const char *const expect[8];         /* substrings of the child's stderr */
};

static const struct scenario scenarios[] = {
   {"malformed", "SOFTGPU_FAULT=channel:3,packet:1",
    {"GPU 0 fault on channel 3 (command processor): malformed packet injected",
     "channel 3 (command processor): GET=", " PUT=", "dword 0: DMA_FILL dst=0x",
     "value=0x0badf00d", "VK_ERROR_DEVICE_LOST"}},
   {"address", "SOFTGPU_FAULT=channel:16,packet:1,kind:address",
    {"GPU 0 fault on channel 16 (DMA engine): DMA copy source [0x10, +262144) is outside GPU "
     "memory", "channel 16 (DMA engine): GET=", " PUT=", "dword 0: DMA_COPY src=0x",
     "size=262144", "VK_ERROR_DEVICE_LOST"}},
   {"blocked", "SOFTGPU_FAULT=channel:3,packet:3",
    {"GPU 0 fault on channel 3 (command processor): malformed packet injected",
     "dword 0: DMA_FILL dst=0x", "parked on"}},
   {"blocked_device", "SOFTGPU_FAULT=channel:3,packet:3",
    {"GPU 0 fault on channel 3 (command processor): malformed packet injected",
     "dword 0: DMA_FILL dst=0x", "parked on"}},
   {"second0", "SOFTGPU_FAULT=channel:3,packet:1,device:0",
    {"GPU 0 fault on channel 3 (command processor)"}},
   {"second1", "SOFTGPU_FAULT=channel:3,packet:1,device:1",
    {"GPU 1 fault on channel 3 (command processor)"}},
};

static int child(const char *mode)
{
   alarm(120);   /* a hang fails the child instead of the whole run */
   if (strcmp(mode, "malformed") == 0)
      return lost_everywhere(0, FAULT_QUEUE);
   if (strcmp(mode, "address") == 0)
      return lost_everywhere(1, 0);
   if (strcmp(mode, "blocked") == 0)
      return blocked_waiters(false);
   if (strcmp(mode, "blocked_device") == 0)
      return blocked_waiters(true);
   if (strcmp(mode, "second0") == 0)
      return second_device(0);
   if (strcmp(mode, "second1") == 0)
      return second_device(1);
   fprintf(stderr, "unknown mode %s\n", mode);
   return 2;
}

int main(int argc, char **argv)
{
   if (argc > 1)
      return child(argv[1]);
   for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
      const struct scenario *s = &scenarios[i];
      const char *env[] = {s->fault, NULL};
      char *err = NULL;
      uint64_t t0 = sgt_now_ns();
      int status = sgt_run_self(s->mode, env, &err);
      int before = sgt_failures;
      SGT_CHECK(status == 0, "scenario %s: the child exited with status %d", s->mode, status);
      for (uint32_t k = 0; k < 8 && s->expect[k]; k++)
         SGT_CHECK(strstr(err, s->expect[k]), "scenario %s: \"%s\" is not on stderr", s->mode,
                   s->expect[k]);
      /* Exactly one GPU faulted. */
      const char *first = strstr(err, "device lost. Post-mortem report");
      SGT_CHECK(first && !strstr(first + 1, "device lost. Post-mortem report"),
                "scenario %s: expected exactly one post-mortem report", s->mode);
      fprintf(stderr, "scenario %s: status %d in %.0f ms\n", s->mode, status,
              (double)(sgt_now_ns() - t0) / 1e6);
      if (sgt_failures != before)
         fprintf(stderr, "--- scenario %s: child stderr ---\n%s--- end ---\n", s->mode, err);
      free(err);
   }
   return sgt_finish();
}
