/*
 * Synchronization graphs over every queue (16 compute, 2 transfer), with
 * transfer work whose every copied byte is checked against a C reference.
 *
 * Pins down:
 * - chain: queue i copies what queue i-1 produced, linked by one timeline
 *   whose values differ only above bit 32; submitted last stage first (so
 *   every wait is submitted before its signal), the first stage released
 *   by vkSignalSemaphore from a host thread after a delay, which first
 *   checks that nothing ran; timestamps show each stage starting after the
 *   previous one ended;
 * - fan-in: 18 queues signal (timelines and binary semaphores, through
 *   vkQueueSubmit2), one queue waits on all 18 before copying the result;
 * - fan-out: 17 queues wait, submitted before the one queue that signals;
 * - a semaphore signal covers the batch's copy with no barrier before it:
 *   a consumer on the other engine reads the copy's last megabyte;
 * - timeline values far apart (1, 2^40, 2^62, 2^63 + 5): a wait for 2^40
 *   is not satisfied by 1, values read back exactly;
 * - more batches in one vkQueueSubmit / vkQueueSubmit2 than the driver
 *   keeps on its stack, chained by a timeline;
 * - binary semaphores reused across a ping-pong over every queue;
 * - vkWaitSemaphores all/any, vkWaitForFences all/any, zero and finite
 *   timeouts returning VK_TIMEOUT no earlier than the timeout, and blocked
 *   waits that return only after a host thread released the work they
 *   wait for; waits on 40 fences and 40 semaphores (more than the driver's
 *   on-stack arrays);
 * - one fence reset/submitted/waited thousands of times on every queue;
 * - events between command buffers (set in one, waited in another: on one
 *   queue, since "events must not be used to insert a dependency between
 *   commands submitted to different queues" (VkEvent), and on transfer
 *   queues not at all), GPU set/reset seen by the host, events set or
 *   waited inside secondary command buffers;
 * - secondary command buffers (vkCmdExecuteCommands), one of them executed
 *   by primaries on two queues;
 * - timestamps monotonic along a queue across submissions; the same
 *   results through vkGetQueryPoolResults and vkCmdCopyQueryPoolResults;
 * - vkQueueWaitIdle and vkDeviceWaitIdle return only after gated work that
 *   a host thread releases, with the work's results complete.
 * vkQueueSubmit and vkQueueSubmit2 are used alternately throughout.
 */
#include <string.h>

#include "sgt_sync.h"

#define SEC 1000000000ull
#define TIMEOUT (30ull * SEC)

/* HOST_SIGNAL_NOTE: the Khronos validation layer 1.3.239 mis-tracks host
 * signals and host waits of timelines (its own code, not the driver's: the
 * driver's results are correct in every case). Its state tracking stalls
 * for 10 s, then reports UNASSIGNED-VkSemaphore-state-timeout or
 * UNASSIGNED-VkFence-state-timeout ("most likely a validation bug"), in a
 * few percent of runs, when a thread's vkSignalSemaphore releases work
 * that another thread is blocked on (vkWaitForFences, vkWaitSemaphores,
 * vkQueueWaitIdle), when the host signals exactly a value that a queue
 * waits for, or when a timeline is waited on again after a host wait on
 * it timed out or was the unsatisfied part of an "any" wait (such waits
 * stay registered in the layer; a later host signal of that timeline can
 * then also be reported as VUID-VkSemaphoreSignalInfo-value-03259). So
 * here: host signals use values above every value waited for (a wait for
 * v is satisfied by any value >= v); a thread that signals a timeline that
 * a queue waits on is joined before the main thread waits; timelines of
 * timed-out or "any" host waits are not used again; and where a blocked
 * host wait must be released by another thread, that thread sets an event
 * a queue waits on (the layer tracks no host-event waits). Queue-to-queue
 * waits on exactly the signaled value are covered throughout. */

static struct sgt_device d;
static struct sgt_qref qs[32];
static uint32_t nq;

/* Command buffers to free once their work is done. */
static struct {
   VkCommandBuffer cmd[512];
   uint32_t family[512];
   uint32_t n;
} tracked;

static VkCommandBuffer track(VkCommandBuffer cmd, uint32_t family)
{
   SGT_REQUIRE(tracked.n < 512, "too many command buffers");
   tracked.cmd[tracked.n] = cmd;
   tracked.family[tracked.n++] = family;
   return cmd;
}

static void free_tracked(void)
{
   for (uint32_t i = 0; i < tracked.n; i++)
      vkFreeCommandBuffers(d.device, d.pools[tracked.family[i]], 1, &tracked.cmd[i]);
   tracked.n = 0;
}

static VkCommandBuffer begin(uint32_t family)
{
   return track(sgt_begin(&d, family, true), family);
}

static void end(VkCommandBuffer cmd)
{
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
}

static void copy(VkCommandBuffer cmd, struct sgt_buffer *src, VkDeviceSize so,
                 struct sgt_buffer *dst, VkDeviceSize dof, VkDeviceSize size)
{
   VkBufferCopy r = {.srcOffset = so, .dstOffset = dof, .size = size};
   vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &r);
}

static void buffers(struct sgt_buffer *b, uint32_t n, VkDeviceSize size)
{
   for (uint32_t i = 0; i < n; i++) {
      sgt_buffer_create(&d, size, &b[i]);
      memset(b[i].map, 0, size);
   }
}

static void destroy_buffers(struct sgt_buffer *b, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++)
      sgt_buffer_destroy(&d, &b[i]);
}

static VkQueryPool query_pool(uint32_t count)
{
   VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                               .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = count};
   VkQueryPool pool;
   SGT_CHECK_VK(vkCreateQueryPool(d.device, &qi, NULL, &pool));
   vkResetQueryPool(d.device, pool, 0, count);
   return pool;
}

static uint64_t elapsed_since(uint64_t t0)
{
   return sgt_now_ns() - t0;
}

/* ---- chain ------------------------------------------------------------------ */

#define CHAIN_BYTES (1u << 20)
#define CHAIN_WORDS 16u

static uint64_t chain_value(uint32_t k)
{
   /* Values differ only above bit 32: a 32-bit comparison sees them equal. */
   return ((uint64_t)k << 36) | 1u;
}

static void chain_words(uint32_t stage, uint32_t *w)
{
   for (uint32_t k = 0; k < CHAIN_WORDS; k++)
      w[k] = 0xc0de0000u + stage * 16u + k;
}

struct chain_watch {
   struct sgt_buffer *first_output;
   VkSemaphore timeline;
   _Atomic bool ran_early;
   _Atomic uint64_t value_before;
};

static void chain_before_signal(void *user)
{
   struct chain_watch *w = user;
   uint64_t v = 0;
   vkGetSemaphoreCounterValue(d.device, w->timeline, &v);
   atomic_store(&w->value_before, v);
   atomic_store(&w->ran_early, !sgt_all_bytes(w->first_output->map, 0, CHAIN_BYTES));
}

static void test_chain(void)
{
   struct sgt_buffer b[33];
   buffers(b, nq + 1, CHAIN_BYTES);
   sgt_pattern_fill(b[0].map, CHAIN_BYTES, 1, 0);
   VkSemaphore t = sgt_timeline(&d, 0);
   VkQueryPool pool = query_pool(2 * nq);
   VkFence fence = sgt_fence(&d, false);

   VkCommandBuffer cmds[32];
   for (uint32_t i = 0; i < nq; i++) {
      VkCommandBuffer cmd = cmds[i] = begin(qs[i].family);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, pool, 2 * i);
      copy(cmd, &b[i], 0, &b[i + 1], 0, CHAIN_BYTES);
      sgt_barrier(cmd);
      uint32_t w[CHAIN_WORDS];
      chain_words(i, w);
      vkCmdUpdateBuffer(cmd, b[i + 1].buffer, (VkDeviceSize)i * 4096 + 8, sizeof(w), w);
      sgt_barrier_to_host(cmd);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2 * i + 1);
      end(cmd);
   }
   /* Last stage first: every wait is submitted before its signal. */
   for (uint32_t k = nq; k-- > 0;) {
      struct sgt_sem_op wait = {t, chain_value(k), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
      struct sgt_sem_op signal = {t, chain_value(k + 1), 0};
      sgt_submit1(k % 2 == 1, qs[k].queue, cmds[k], &wait, &signal,
                  k == nq - 1 ? fence : VK_NULL_HANDLE);
      sgt_host_pause();
   }
   struct chain_watch watch = {.first_output = &b[1], .timeline = t};
   /* The host signals one more than stage 0 waits for (see HOST_SIGNAL_NOTE). */
   struct sgt_delayed_signal sig = {.device = d.device, .semaphore = t, .value = chain_value(0) + 1,
                                    .delay_ms = 20, .before = chain_before_signal,
                                    .user = &watch};
   sgt_delayed_signal_start(&sig);
   sgt_delayed_signal_join(&sig);   /* before waiting: see HOST_SIGNAL_NOTE */
   SGT_CHECK_VK(sgt_wait_timeline(d.device, t, chain_value(nq), TIMEOUT));
   uint64_t done_at = sgt_now_ns();
   SGT_CHECK(!atomic_load(&watch.ran_early), "chain: stage 0 wrote before the host signal");
   SGT_CHECK(atomic_load(&watch.value_before) == 0, "chain: the timeline was %llu before the "
             "host signal", (unsigned long long)atomic_load(&watch.value_before));
   SGT_CHECK(done_at >= atomic_load(&sig.signaled_at_ns), "chain: done before the signal");
   uint64_t value = 0;
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, t, &value));
   SGT_CHECK(value == chain_value(nq), "chain: timeline at 0x%llx, expected 0x%llx",
             (unsigned long long)value, (unsigned long long)chain_value(nq));
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));

   /* Reference: stage i's output is its input plus its update. */
   uint32_t *ref = malloc(CHAIN_BYTES);
   sgt_pattern_fill(ref, CHAIN_BYTES, 1, 0);
   sgt_expect_bytes(b[0].map, ref, CHAIN_BYTES, "chain: source");
   for (uint32_t i = 0; i < nq; i++) {
      chain_words(i, ref + (i * 4096 + 8) / 4);
      sgt_expect_bytes(b[i + 1].map, ref, CHAIN_BYTES, "chain: output of stage %u (queue %u.%u)",
                       i, qs[i].family, qs[i].index);
   }
   free(ref);

   uint64_t ts[64];
   SGT_CHECK_VK(vkGetQueryPoolResults(d.device, pool, 0, 2 * nq, sizeof(ts), ts, 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   for (uint32_t i = 0; i < nq; i++) {
      SGT_CHECK(ts[2 * i] <= ts[2 * i + 1], "chain: stage %u ends (%llu) before it starts (%llu)",
                i, (unsigned long long)ts[2 * i + 1], (unsigned long long)ts[2 * i]);
      if (i > 0)
         SGT_CHECK(ts[2 * i] >= ts[2 * i - 1], "chain: stage %u starts at %llu, before stage %u "
                   "ended at %llu", i, (unsigned long long)ts[2 * i], i - 1,
                   (unsigned long long)ts[2 * i - 1]);
   }
   vkDestroyFence(d.device, fence, NULL);
   vkDestroyQueryPool(d.device, pool, NULL);
   vkDestroySemaphore(d.device, t, NULL);
   free_tracked();
   destroy_buffers(b, nq + 1);
}

/* ---- fan-in --------------------------------------------------------------------- */

#define FAN_SLICE (128u * 1024u)

static void test_fan_in(void)
{
   struct sgt_buffer s, mid, out;
   buffers(&s, 1, nq * FAN_SLICE);
   buffers(&mid, 1, nq * FAN_SLICE);
   buffers(&out, 1, nq * FAN_SLICE);
   sgt_pattern_fill(s.map, nq * FAN_SLICE, 2, 0);
   VkSemaphore gate = sgt_timeline(&d, 0);
   VkSemaphore sems[32];
   struct sgt_sem_op waits[32];
   for (uint32_t j = 0; j < nq; j++) {
      bool timeline = j % 2 == 0;
      sems[j] = timeline ? sgt_timeline(&d, 0) : sgt_binary(&d);
      waits[j] = (struct sgt_sem_op){sems[j], timeline ? (1ull << 40) + j : 0,
                                     VK_PIPELINE_STAGE_2_TRANSFER_BIT};
      VkCommandBuffer cmd = begin(qs[j].family);
      copy(cmd, &s, (VkDeviceSize)j * FAN_SLICE, &mid, (VkDeviceSize)j * FAN_SLICE, FAN_SLICE);
      end(cmd);
      struct sgt_sem_op g = {gate, 1, VK_PIPELINE_STAGE_2_TRANSFER_BIT};
      struct sgt_sem_op signal = {sems[j], waits[j].value, 0};
      sgt_submit1(true, qs[j].queue, cmd, &g, &signal, VK_NULL_HANDLE);
      sgt_host_pause();
   }
   /* The consumer waits on all 18 (a queue that also produced). */
   uint32_t consumer = 9 % nq;
   VkCommandBuffer cmd = begin(qs[consumer].family);
   copy(cmd, &mid, 0, &out, 0, nq * FAN_SLICE);
   sgt_barrier_to_host(cmd);
   end(cmd);
   VkFence fence = sgt_fence(&d, false);
   struct sgt_batch batch = {.cmd_count = 1, .cmds = &cmd, .wait_count = nq, .waits = waits};
   sgt_submit(true, qs[consumer].queue, &batch, fence);
   sgt_sleep_ms(5);
   SGT_CHECK(vkGetFenceStatus(d.device, fence) == VK_NOT_READY, "fan-in: done before the gate");
   sgt_expect_fill(out.map, 0, nq * FAN_SLICE, "fan-in: output before the gate opened");
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                               .semaphore = gate, .value = 2};   /* waits are for 1 */
   SGT_CHECK_VK(vkSignalSemaphore(d.device, &si));
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
   sgt_expect_bytes(mid.map, s.map, nq * FAN_SLICE, "fan-in: the producers' slices");
   sgt_expect_bytes(out.map, s.map, nq * FAN_SLICE, "fan-in: the consumer's copy");
   for (uint32_t j = 0; j < nq; j += 2) {
      uint64_t v = 0;
      SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, sems[j], &v));
      SGT_CHECK(v == (1ull << 40) + j, "fan-in: timeline %u at %llu", j, (unsigned long long)v);
   }
   SGT_CHECK_VK(vkDeviceWaitIdle(d.device));
   vkDestroyFence(d.device, fence, NULL);
   for (uint32_t j = 0; j < nq; j++)
      vkDestroySemaphore(d.device, sems[j], NULL);
   vkDestroySemaphore(d.device, gate, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&mid, 1);
   destroy_buffers(&out, 1);
}

/* ---- fan-out -------------------------------------------------------------------- */

#define FANOUT_BYTES (256u * 1024u)

static void test_fan_out(void)
{
   uint32_t producer = nq - 1;   /* the second transfer queue */
   struct sgt_buffer s, p, o;
   buffers(&s, 1, FANOUT_BYTES);
   buffers(&p, 1, FANOUT_BYTES);
   buffers(&o, 1, (VkDeviceSize)nq * FANOUT_BYTES);
   sgt_pattern_fill(s.map, FANOUT_BYTES, 3, 0);
   VkSemaphore f = sgt_timeline(&d, 0);
   const uint64_t value = 1ull << 62;
   VkFence fences[32];
   uint32_t nf = 0;
   for (uint32_t k = 0; k < nq; k++) {
      if (k == producer)
         continue;
      VkCommandBuffer cmd = begin(qs[k].family);
      copy(cmd, &p, 0, &o, (VkDeviceSize)k * FANOUT_BYTES, FANOUT_BYTES);
      sgt_barrier_to_host(cmd);
      end(cmd);
      fences[nf] = sgt_fence(&d, false);
      struct sgt_sem_op wait = {f, value, VK_PIPELINE_STAGE_2_TRANSFER_BIT};
      sgt_submit1(k % 2 == 0, qs[k].queue, cmd, &wait, NULL, fences[nf++]);
      sgt_host_pause();
   }
   sgt_sleep_ms(5);
   SGT_CHECK(vkWaitForFences(d.device, nf, fences, VK_FALSE, 0) == VK_TIMEOUT,
             "fan-out: a consumer finished before the producer was submitted");
   sgt_expect_fill(o.map, 0, (size_t)nq * FANOUT_BYTES, "fan-out: outputs before the producer");
   /* The producer: copy, then overwrite a range with a fill. */
   VkCommandBuffer cmd = begin(qs[producer].family);
   copy(cmd, &s, 0, &p, 0, FANOUT_BYTES);
   sgt_barrier(cmd);
   vkCmdFillBuffer(cmd, p.buffer, 4096, 8192, 0x5a5a5a5au);
   end(cmd);
   struct sgt_sem_op signal = {f, value, 0};
   sgt_submit1(true, qs[producer].queue, cmd, NULL, &signal, VK_NULL_HANDLE);
   SGT_CHECK_VK(vkWaitForFences(d.device, nf, fences, VK_TRUE, TIMEOUT));
   uint8_t *ref = malloc(FANOUT_BYTES);
   memcpy(ref, s.map, FANOUT_BYTES);
   memset(ref + 4096, 0x5a, 8192);
   for (uint32_t k = 0; k < nq; k++) {
      uint8_t *out = (uint8_t *)o.map + (size_t)k * FANOUT_BYTES;
      if (k == producer)
         sgt_expect_fill(out, 0, FANOUT_BYTES, "fan-out: the producer's own slot");
      else
         sgt_expect_bytes(out, ref, FANOUT_BYTES, "fan-out: consumer queue %u.%u", qs[k].family,
                          qs[k].index);
   }
   free(ref);
   for (uint32_t i = 0; i < nf; i++)
      vkDestroyFence(d.device, fences[i], NULL);
   SGT_CHECK_VK(vkQueueWaitIdle(qs[producer].queue));
   vkDestroySemaphore(d.device, f, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&p, 1);
   destroy_buffers(&o, 1);
}

/* ---- a signal covers the work before it ------------------------------------------------- */

#define COVER_BYTES (32u << 20)
#define COVER_TAIL (1u << 20)

/* No barrier between the producer's copy and its signal: the semaphore
 * signal's first scope is every command of the batch, so the consumer (on
 * the other engine) must see the whole copy, its last megabyte included,
 * which is written last. */
static void test_signal_covers_work(void)
{
   struct sgt_buffer s, p, q;
   buffers(&s, 1, COVER_BYTES);
   buffers(&p, 1, COVER_BYTES);
   buffers(&q, 1, 4 * COVER_TAIL);
   sgt_pattern_fill(s.map, COVER_BYTES, 45, 0);
   static const uint32_t pf[4] = {0, 1, 0, 1}, pi[4] = {11, 1, 13, 0};
   static const uint32_t cf[4] = {1, 0, 1, 0}, ci[4] = {0, 12, 1, 14};
   VkFence fences[4];
   VkSemaphore sems[4];
   for (uint32_t k = 0; k < 4; k++) {
      memset(p.map, 0, COVER_BYTES);
      bool timeline = k % 2 == 0;
      sems[k] = timeline ? sgt_timeline(&d, 0) : sgt_binary(&d);
      VkCommandBuffer prod = begin(pf[k]);
      copy(prod, &s, 0, &p, 0, COVER_BYTES);
      end(prod);
      VkCommandBuffer cons = begin(cf[k]);
      copy(cons, &p, COVER_BYTES - COVER_TAIL, &q, (VkDeviceSize)k * COVER_TAIL, COVER_TAIL);
      sgt_barrier_to_host(cons);
      end(cons);
      fences[k] = sgt_fence(&d, false);
      struct sgt_sem_op signal = {sems[k], 1, 0}, wait = {sems[k], 1,
                                                          VK_PIPELINE_STAGE_2_TRANSFER_BIT};
      if (timeline) {
         /* The consumer first: parked when the producer signals. */
         sgt_submit1(k % 2 == 1, d.queues[cf[k]][ci[k]], cons, &wait, NULL, fences[k]);
         sgt_submit1(k >= 2, d.queues[pf[k]][pi[k]], prod, NULL, &signal, VK_NULL_HANDLE);
      } else {
         /* A binary semaphore's signal must be submitted before its wait. */
         sgt_submit1(k >= 2, d.queues[pf[k]][pi[k]], prod, NULL, &signal, VK_NULL_HANDLE);
         sgt_submit1(k % 2 == 1, d.queues[cf[k]][ci[k]], cons, &wait, NULL, fences[k]);
      }
      SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fences[k], VK_TRUE, TIMEOUT));
      sgt_expect_bytes((uint8_t *)q.map + (size_t)k * COVER_TAIL,
                       (uint8_t *)s.map + COVER_BYTES - COVER_TAIL, COVER_TAIL,
                       "signal covers work %u: %s from queue %u.%u to queue %u.%u", k,
                       timeline ? "timeline" : "binary", pf[k], pi[k], cf[k], ci[k]);
      SGT_CHECK_VK(vkDeviceWaitIdle(d.device));
      sgt_host_pause();
   }
   for (uint32_t k = 0; k < 4; k++) {
      vkDestroyFence(d.device, fences[k], NULL);
      vkDestroySemaphore(d.device, sems[k], NULL);
   }
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&p, 1);
   destroy_buffers(&q, 1);
}

/* ---- many batches in one call ------------------------------------------------------------ */

#define MB_BATCHES 21u
#define MB_BYTES (64u * 1024u)

/* One vkQueueSubmit (or vkQueueSubmit2) of more batches than fit the
 * driver's on-stack array, chained by a timeline: batch k copies buffer k
 * to buffer k + 1 and stamps word k. */
static void test_many_batches(bool v2, uint32_t family, uint32_t index)
{
   struct sgt_buffer x[MB_BATCHES + 1];
   buffers(x, MB_BATCHES + 1, MB_BYTES);
   sgt_pattern_fill(x[0].map, MB_BYTES, 46 + v2, 0);
   VkSemaphore t = sgt_timeline(&d, 0);
   VkCommandBuffer cmds[MB_BATCHES];
   uint64_t values[MB_BATCHES + 1];
   VkSubmitInfo si[MB_BATCHES];
   VkTimelineSemaphoreSubmitInfo ti[MB_BATCHES];
   VkSubmitInfo2 si2[MB_BATCHES];
   VkSemaphoreSubmitInfo waits2[MB_BATCHES], signals2[MB_BATCHES];
   VkCommandBufferSubmitInfo cmd2[MB_BATCHES];
   static const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
   for (uint32_t k = 0; k <= MB_BATCHES; k++)
      values[k] = k;
   for (uint32_t k = 0; k < MB_BATCHES; k++) {
      VkCommandBuffer cmd = cmds[k] = begin(family);
      copy(cmd, &x[k], 0, &x[k + 1], 0, MB_BYTES);
      sgt_barrier(cmd);
      uint32_t word = 0xba000000u + k;
      vkCmdUpdateBuffer(cmd, x[k + 1].buffer, 4 * k, 4, &word);
      sgt_barrier_to_host(cmd);
      end(cmd);
      ti[k] = (VkTimelineSemaphoreSubmitInfo){
         .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
         .waitSemaphoreValueCount = k ? 1 : 0, .pWaitSemaphoreValues = &values[k],
         .signalSemaphoreValueCount = 1, .pSignalSemaphoreValues = &values[k + 1]};
      si[k] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ti[k],
                             .waitSemaphoreCount = k ? 1 : 0, .pWaitSemaphores = &t,
                             .pWaitDstStageMask = &stage, .commandBufferCount = 1,
                             .pCommandBuffers = &cmds[k], .signalSemaphoreCount = 1,
                             .pSignalSemaphores = &t};
      waits2[k] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                          .semaphore = t, .value = k,
                                          .stageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT};
      signals2[k] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                            .semaphore = t, .value = k + 1,
                                            .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
      cmd2[k] = (VkCommandBufferSubmitInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                            .commandBuffer = cmds[k]};
      si2[k] = (VkSubmitInfo2){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                               .waitSemaphoreInfoCount = k ? 1 : 0, .pWaitSemaphoreInfos = &waits2[k],
                               .commandBufferInfoCount = 1, .pCommandBufferInfos = &cmd2[k],
                               .signalSemaphoreInfoCount = 1, .pSignalSemaphoreInfos = &signals2[k]};
   }
   VkFence fence = sgt_fence(&d, false);
   VkQueue queue = d.queues[family][index];
   if (v2)
      SGT_CHECK_VK(vkQueueSubmit2(queue, MB_BATCHES, si2, fence));
   else
      SGT_CHECK_VK(vkQueueSubmit(queue, MB_BATCHES, si, fence));
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
   uint64_t v = 0;
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, t, &v));
   SGT_CHECK(v == MB_BATCHES, "many batches: the timeline is at %llu", (unsigned long long)v);
   uint32_t *ref = malloc(MB_BYTES);
   sgt_pattern_fill(ref, MB_BYTES, 46 + v2, 0);
   for (uint32_t k = 0; k < MB_BATCHES; k++) {
      ref[k] = 0xba000000u + k;
      sgt_expect_bytes(x[k + 1].map, ref, MB_BYTES, "many batches (%s, queue %u.%u): batch %u",
                       v2 ? "vkQueueSubmit2" : "vkQueueSubmit", family, index, k);
   }
   free(ref);
   vkDestroyFence(d.device, fence, NULL);
   vkDestroySemaphore(d.device, t, NULL);
   free_tracked();
   destroy_buffers(x, MB_BATCHES + 1);
}

/* ---- timeline values far apart ---------------------------------------------------------- */

#define FAR_BYTES (64u * 1024u)

static void test_far_values(void)
{
   const uint64_t v1 = 1, v2 = 1ull << 40, v3 = 1ull << 62, v4 = (1ull << 63) + 5;
   struct sgt_buffer s, d1, d2;
   buffers(&s, 1, FAR_BYTES);
   buffers(&d1, 1, FAR_BYTES);
   buffers(&d2, 1, FAR_BYTES);
   sgt_pattern_fill(s.map, FAR_BYTES, 4, 0);
   VkSemaphore x = sgt_timeline(&d, 0);
   struct sgt_qref qa = qs[3], qb = qs[nq - 2], qc = qs[12];
   /* qb: wait 2^40, copy, signal 2^62; qc: wait 2^62, copy, signal 2^63 + 5. */
   VkCommandBuffer cb = begin(qb.family);
   copy(cb, &s, 0, &d1, 0, FAR_BYTES);
   end(cb);
   VkCommandBuffer cc = begin(qc.family);
   copy(cc, &d1, 0, &d2, 0, FAR_BYTES);
   sgt_barrier_to_host(cc);
   end(cc);
   struct sgt_sem_op w2 = {x, v2, 0}, s3 = {x, v3, 0}, w3 = {x, v3, 0}, s4 = {x, v4, 0};
   sgt_submit1(false, qc.queue, cc, &w3, &s4, VK_NULL_HANDLE);
   sgt_submit1(true, qb.queue, cb, &w2, &s3, VK_NULL_HANDLE);
   /* qa: signal 1 with no work. */
   struct sgt_sem_op s1 = {x, v1, 0};
   sgt_submit1(false, qa.queue, VK_NULL_HANDLE, NULL, &s1, VK_NULL_HANDLE);
   SGT_CHECK_VK(sgt_wait_timeline(d.device, x, v1, TIMEOUT));
   SGT_CHECK(sgt_wait_timeline(d.device, x, v2, 0) == VK_TIMEOUT,
             "a wait for 2^40 is satisfied by the value 1");
   SGT_CHECK(sgt_wait_timeline(d.device, x, (1ull << 32) + 1, 0) == VK_TIMEOUT,
             "a wait for 2^32 + 1 is satisfied by the value 1");
   sgt_sleep_ms(5);
   uint64_t v = 0;
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, x, &v));
   SGT_CHECK(v == v1, "far values: %llu after signaling 1", (unsigned long long)v);
   sgt_expect_fill(d1.map, 0, FAR_BYTES, "far values: the 2^40 waiter ran at value 1");
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = x,
                               .value = v2 + 1};   /* qb waits for v2 */
   SGT_CHECK_VK(vkSignalSemaphore(d.device, &si));
   SGT_CHECK_VK(sgt_wait_timeline(d.device, x, v4, TIMEOUT));
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d.device, x, &v));
   SGT_CHECK(v == v4, "far values: 0x%llx, expected 0x%llx", (unsigned long long)v,
             (unsigned long long)v4);
   sgt_expect_bytes(d1.map, s.map, FAR_BYTES, "far values: first copy");
   sgt_expect_bytes(d2.map, s.map, FAR_BYTES, "far values: second copy");
   SGT_CHECK_VK(vkQueueWaitIdle(qa.queue));
   SGT_CHECK_VK(vkQueueWaitIdle(qb.queue));
   SGT_CHECK_VK(vkQueueWaitIdle(qc.queue));
   vkDestroySemaphore(d.device, x, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&d1, 1);
   destroy_buffers(&d2, 1);
}

/* ---- binary ping-pong ---------------------------------------------------------------- */

#define PP_BYTES (256u * 1024u)
#define PP_ROUNDS 40u

static void test_binary_ping_pong(void)
{
   struct sgt_buffer b[2];
   buffers(b, 2, PP_BYTES);
   sgt_pattern_fill(b[0].map, PP_BYTES, 5, 0);
   VkSemaphore sem = sgt_binary(&d);
   VkFence fence = sgt_fence(&d, false);
   for (uint32_t r = 0; r < PP_ROUNDS; r++) {
      struct sgt_qref q = qs[(r * 7) % nq];
      VkCommandBuffer cmd = begin(q.family);
      copy(cmd, &b[r % 2], 0, &b[(r + 1) % 2], 0, PP_BYTES);
      sgt_barrier(cmd);
      uint32_t word = 0xb0000000u + r;
      vkCmdUpdateBuffer(cmd, b[(r + 1) % 2].buffer, 4 * r, 4, &word);
      sgt_barrier_to_host(cmd);
      end(cmd);
      struct sgt_sem_op wait = {sem, 0, VK_PIPELINE_STAGE_2_TRANSFER_BIT}, signal = {sem, 0, 0};
      sgt_submit1(r % 3 == 0, q.queue, cmd, r ? &wait : NULL,
                  r + 1 < PP_ROUNDS ? &signal : NULL, r + 1 == PP_ROUNDS ? fence : VK_NULL_HANDLE);
      sgt_host_pause();
   }
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
   uint32_t *ref = malloc(PP_BYTES);
   sgt_pattern_fill(ref, PP_BYTES, 5, 0);
   for (uint32_t r = 0; r < PP_ROUNDS; r++) {
      ref[r] = 0xb0000000u + r;
      if (r + 2 >= PP_ROUNDS)
         sgt_expect_bytes(b[(r + 1) % 2].map, ref, PP_BYTES, "ping-pong: after round %u", r);
   }
   free(ref);
   SGT_CHECK_VK(vkDeviceWaitIdle(d.device));
   vkDestroyFence(d.device, fence, NULL);
   vkDestroySemaphore(d.device, sem, NULL);
   free_tracked();
   destroy_buffers(b, 2);
}

/* ---- waits and timeouts -------------------------------------------------------------- */

static VkResult wait_sems(VkSemaphore a, uint64_t va, VkSemaphore b, uint64_t vb, bool any,
                          uint64_t timeout)
{
   VkSemaphore s[2] = {a, b};
   uint64_t v[2] = {va, vb};
   VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                             .flags = any ? VK_SEMAPHORE_WAIT_ANY_BIT : 0, .semaphoreCount = 2,
                             .pSemaphores = s, .pValues = v};
   return vkWaitSemaphores(d.device, &wi, timeout);
}

/* A wait that must time out: VK_TIMEOUT, not before timeout_ns, and within
 * a generous bound after it. */
static void expect_timeout(VkResult r, uint64_t t0, uint64_t timeout_ns, const char *what)
{
   uint64_t dt = elapsed_since(t0);
   SGT_CHECK(r == VK_TIMEOUT, "%s returned %s, expected VK_TIMEOUT", what, sgt_result_name(r));
   SGT_CHECK(dt >= timeout_ns, "%s returned after %llu ns, before its %llu ns timeout", what,
             (unsigned long long)dt, (unsigned long long)timeout_ns);
   SGT_CHECK(dt < timeout_ns + 5 * SEC, "%s took %llu ns for a %llu ns timeout", what,
             (unsigned long long)dt, (unsigned long long)timeout_ns);
}

#define EXPECT_TIMEOUT(call, timeout_ns, what)                                              \
   do {                                                                                     \
      uint64_t t0_ = sgt_now_ns();                                                          \
      VkResult r_ = (call);                                                                 \
      expect_timeout(r_, t0_, (timeout_ns), what);                                          \
   } while (0)

static void test_waits(void)
{
   /* a reaches 5 through a queue. Every timed-out wait below uses timelines
    * of its own, never waited on or signaled again (HOST_SIGNAL_NOTE: the
    * layer keeps timed-out and unsatisfied "any" host waits as pending and
    * later stalls on them). */
   VkSemaphore a = sgt_timeline(&d, 0), nosig[12];
   for (uint32_t i = 0; i < 12; i++)
      nosig[i] = sgt_timeline(&d, 0);
   struct sgt_sem_op sa = {a, 5, 0};
   sgt_submit1(false, qs[3].queue, VK_NULL_HANDLE, NULL, &sa, VK_NULL_HANDLE);
   SGT_CHECK_VK(wait_sems(a, 5, nosig[0], 5, true, UINT64_MAX));
   EXPECT_TIMEOUT(wait_sems(a, 5, nosig[1], 5, false, 0), 0, "vkWaitSemaphores(all, timeout 0)");
   EXPECT_TIMEOUT(wait_sems(nosig[2], 6, nosig[3], 5, true, 1), 1,
                  "vkWaitSemaphores(any, 1 ns)");
   EXPECT_TIMEOUT(wait_sems(nosig[4], 6, nosig[5], 1, true, 1000), 1000,
                  "vkWaitSemaphores(any, 1 us)");
   EXPECT_TIMEOUT(wait_sems(a, 5, nosig[6], 5, false, 30000000), 30000000,
                  "vkWaitSemaphores(all, 30 ms)");
   EXPECT_TIMEOUT(wait_sems(nosig[7], 6, nosig[8], 5, true, 20000000), 20000000,
                  "vkWaitSemaphores(any, 20 ms)");
   EXPECT_TIMEOUT(sgt_wait_timeline(d.device, nosig[9], 1, 2500000), 2500000,
                  "vkWaitSemaphores(one, 2.5 ms)");

   /* Released by a host thread: returns after it, not before. The thread
    * sets an event that a queue waits on before signaling the timeline (a
    * host signal of the timeline itself, concurrent with the blocked wait,
    * makes the layer stall: HOST_SIGNAL_NOTE). */
   VkSemaphore b = sgt_timeline(&d, 0), c = sgt_timeline(&d, 0);
   VkEvent evb = sgt_event(&d), evc = sgt_event(&d);
   VkCommandBuffer wb = begin(0), wc = begin(0);
   vkCmdWaitEvents(wb, 1, &evb, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                   NULL, 0, NULL, 0, NULL);
   end(wb);
   vkCmdWaitEvents(wc, 1, &evc, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                   NULL, 0, NULL, 0, NULL);
   end(wc);
   struct sgt_sem_op sb = {b, 5, 0}, sc = {c, 9, 0};
   sgt_submit1(false, qs[6].queue, wb, NULL, &sb, VK_NULL_HANDLE);
   sgt_submit1(true, qs[7].queue, wc, NULL, &sc, VK_NULL_HANDLE);
   struct sgt_delayed_signal sig = {.device = d.device, .event = evb, .delay_ms = 20};
   sgt_delayed_signal_start(&sig);
   SGT_CHECK_VK(wait_sems(a, 5, b, 5, false, UINT64_MAX - 1));
   uint64_t back = sgt_now_ns();
   sgt_delayed_signal_join(&sig);
   SGT_CHECK(back >= atomic_load(&sig.signaled_at_ns), "vkWaitSemaphores(all) returned before "
             "the host thread released the signal");
   struct sgt_delayed_signal sig_c = {.device = d.device, .event = evc, .delay_ms = 20};
   sgt_delayed_signal_start(&sig_c);
   SGT_CHECK_VK(wait_sems(nosig[10], 1, c, 9, true, 10 * SEC));
   back = sgt_now_ns();
   sgt_delayed_signal_join(&sig_c);
   SGT_CHECK(back >= atomic_load(&sig_c.signaled_at_ns), "vkWaitSemaphores(any, 10 s) returned "
             "before the host thread released the signal");
   SGT_CHECK_VK(vkQueueWaitIdle(qs[6].queue));
   SGT_CHECK_VK(vkQueueWaitIdle(qs[7].queue));
   vkDestroySemaphore(d.device, c, NULL);
   vkDestroyEvent(d.device, evb, NULL);
   vkDestroyEvent(d.device, evc, NULL);

   /* Fences. */
   VkFence never = sgt_fence(&d, false), done = sgt_fence(&d, true);
   VkFence both[2] = {done, never};
   SGT_CHECK(vkGetFenceStatus(d.device, never) == VK_NOT_READY, "unsignaled fence status");
   SGT_CHECK(vkGetFenceStatus(d.device, done) == VK_SUCCESS, "signaled fence status");
   EXPECT_TIMEOUT(vkWaitForFences(d.device, 1, &never, VK_TRUE, 0), 0, "vkWaitForFences(0)");
   EXPECT_TIMEOUT(vkWaitForFences(d.device, 1, &never, VK_TRUE, 25000000), 25000000,
                  "vkWaitForFences(25 ms)");
   EXPECT_TIMEOUT(vkWaitForFences(d.device, 2, both, VK_TRUE, 5000000), 5000000,
                  "vkWaitForFences(all of signaled + unsignaled, 5 ms)");
   SGT_CHECK_VK(vkWaitForFences(d.device, 2, both, VK_FALSE, UINT64_MAX));

   /* A fence whose work waits for a host thread (through a host-set event:
    * see HOST_SIGNAL_NOTE). */
   VkEvent gate_ev = sgt_event(&d);
   VkFence f = sgt_fence(&d, false);
   VkCommandBuffer gated = begin(0);
   vkCmdWaitEvents(gated, 1, &gate_ev, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   0, NULL, 0, NULL, 0, NULL);
   end(gated);
   sgt_submit1(true, qs[2].queue, gated, NULL, NULL, f);
   struct sgt_delayed_signal sig2 = {.device = d.device, .event = gate_ev, .delay_ms = 20};
   sgt_delayed_signal_start(&sig2);
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &f, VK_TRUE, UINT64_MAX));
   back = sgt_now_ns();
   sgt_delayed_signal_join(&sig2);
   SGT_CHECK(back >= atomic_load(&sig2.signaled_at_ns), "vkWaitForFences returned before the "
             "host thread's vkSetEvent released the work");

   /* More fences and semaphores than the driver's on-stack arrays hold. */
   enum { MANY = 40 };
   VkFence many_f[MANY];
   VkSemaphore many_s[MANY];
   uint64_t many_v[MANY];
   for (uint32_t i = 0; i < MANY; i++) {
      many_f[i] = sgt_fence(&d, false);
      many_s[i] = sgt_timeline(&d, 0);
      many_v[i] = 100 + i;
      struct sgt_sem_op sig_i = {many_s[i], many_v[i], 0};
      if (i + 1 < MANY)
         sgt_submit1(i % 2 == 0, qs[i % nq].queue, VK_NULL_HANDLE, NULL, &sig_i, many_f[i]);
   }
   VkSemaphoreWaitInfo many_wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                  .semaphoreCount = MANY, .pSemaphores = many_s,
                                  .pValues = many_v};
   SGT_CHECK_VK(vkWaitForFences(d.device, MANY - 1, many_f, VK_TRUE, TIMEOUT));
   SGT_CHECK_VK(vkWaitForFences(d.device, MANY, many_f, VK_FALSE, TIMEOUT));
   EXPECT_TIMEOUT(vkWaitForFences(d.device, MANY, many_f, VK_TRUE, 3000000), 3000000,
                  "vkWaitForFences(all of 40, one never submitted, 3 ms)");
   /* The 40th: first a timeline nobody signals (nosig[11]), then a fresh
    * one the host signals (HOST_SIGNAL_NOTE). */
   VkSemaphore last = many_s[MANY - 1];
   many_s[MANY - 1] = nosig[11];
   EXPECT_TIMEOUT(vkWaitSemaphores(d.device, &many_wi, 3000000), 3000000,
                  "vkWaitSemaphores(all of 40, one unsignaled, 3 ms)");
   many_wi.flags = VK_SEMAPHORE_WAIT_ANY_BIT;
   SGT_CHECK_VK(vkWaitSemaphores(d.device, &many_wi, TIMEOUT));
   many_s[MANY - 1] = last;
   VkSemaphoreSignalInfo last_si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                    .semaphore = last, .value = many_v[MANY - 1] + 1};
   SGT_CHECK_VK(vkSignalSemaphore(d.device, &last_si));
   many_wi.flags = 0;
   SGT_CHECK_VK(vkWaitSemaphores(d.device, &many_wi, TIMEOUT));
   for (uint32_t i = 0; i < MANY; i++) {
      vkDestroyFence(d.device, many_f[i], NULL);
      vkDestroySemaphore(d.device, many_s[i], NULL);
   }

   SGT_CHECK_VK(vkDeviceWaitIdle(d.device));
   vkDestroyFence(d.device, f, NULL);
   vkDestroyFence(d.device, never, NULL);
   vkDestroyFence(d.device, done, NULL);
   vkDestroyEvent(d.device, gate_ev, NULL);
   free_tracked();
   vkDestroySemaphore(d.device, a, NULL);
   vkDestroySemaphore(d.device, b, NULL);
   for (uint32_t i = 0; i < 12; i++)
      vkDestroySemaphore(d.device, nosig[i], NULL);
}

/* ---- one fence, reused ---------------------------------------------------------------- */

#define REUSE_ITERATIONS 2000u
#define REUSE_BYTES 4096u

static void test_fence_reuse(void)
{
   struct sgt_buffer s, r;
   buffers(&s, 1, 4 * REUSE_BYTES);
   buffers(&r, 1, 2 * REUSE_BYTES);
   sgt_pattern_fill(s.map, 4 * REUSE_BYTES, 6, 0);
   VkCommandBuffer cmds[2][4];
   for (uint32_t f = 0; f < 2; f++) {
      for (uint32_t k = 0; k < 4; k++) {
         VkCommandBuffer cmd = cmds[f][k] = track(sgt_alloc_cmd(&d, f, VK_COMMAND_BUFFER_LEVEL_PRIMARY), f);
         sgt_begin_primary(cmd, 0);
         vkCmdFillBuffer(cmd, r.buffer, 0, REUSE_BYTES, 0x01010101u * (f * 4 + k + 1));
         copy(cmd, &s, (VkDeviceSize)k * REUSE_BYTES, &r, REUSE_BYTES, REUSE_BYTES);
         sgt_barrier_to_host(cmd);
         end(cmd);
      }
   }
   VkFence fence = sgt_fence(&d, true);
   uint32_t bad = 0;
   for (uint32_t i = 0; i < REUSE_ITERATIONS && bad < 5; i++) {
      struct sgt_qref q = qs[i % nq];
      uint32_t k = (i / nq) % 4;
      SGT_CHECK_VK(vkResetFences(d.device, 1, &fence));
      if (vkGetFenceStatus(d.device, fence) != VK_NOT_READY) {
         SGT_CHECK(false, "fence reuse %u: not unsignaled after vkResetFences", i);
         bad++;
      }
      memset(r.map, 0, 2 * REUSE_BYTES);
      sgt_submit1(i % 2 == 1, q.queue, cmds[q.family][k], NULL, NULL, fence);
      sgt_host_pause();
      SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
      if (vkGetFenceStatus(d.device, fence) != VK_SUCCESS) {
         SGT_CHECK(false, "fence reuse %u: not signaled after the wait", i);
         bad++;
      }
      const uint8_t *out = r.map;
      uint8_t v = (uint8_t)(q.family * 4 + k + 1);
      if (!sgt_expect_fill(out, v, REUSE_BYTES, "fence reuse %u (queue %u.%u): fill", i,
                           q.family, q.index) ||
          !sgt_expect_bytes(out + REUSE_BYTES, (const uint8_t *)s.map + k * REUSE_BYTES,
                            REUSE_BYTES, "fence reuse %u (queue %u.%u): copy", i, q.family,
                            q.index))
         bad++;
   }
   vkDestroyFence(d.device, fence, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&r, 1);
}

/* ---- events between command buffers ------------------------------------------------------- */

#define EV_BYTES (2u << 20)

static void record_set_after_copy(VkCommandBuffer cmd, struct sgt_buffer *s, struct sgt_buffer *m,
                                  VkEvent ev)
{
   copy(cmd, s, 0, m, 0, EV_BYTES);
   vkCmdSetEvent(cmd, ev, VK_PIPELINE_STAGE_TRANSFER_BIT);
}

static void record_wait_then_copy(VkCommandBuffer cmd, struct sgt_buffer *m, struct sgt_buffer *o,
                                  VkEvent ev)
{
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
   vkCmdWaitEvents(cmd, 1, &ev, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1,
                   &mb, 0, NULL, 0, NULL);
   copy(cmd, m, 0, o, 0, EV_BYTES);
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                        0, 0, NULL, 0, NULL, 0, NULL);
   vkCmdResetEvent(cmd, ev, VK_PIPELINE_STAGE_TRANSFER_BIT);
   sgt_barrier_to_host(cmd);
}

static void test_events(void)
{
   struct sgt_buffer s, m, o;
   buffers(&s, 1, EV_BYTES);
   buffers(&m, 1, EV_BYTES);
   buffers(&o, 1, EV_BYTES);
   VkEvent ev = sgt_event(&d), ev2 = sgt_event(&d);
   for (uint32_t variant = 0; variant < 4; variant++) {
      uint32_t qi = 4 + variant;   /* compute queues */
      VkQueue queue = d.queues[0][qi];
      sgt_pattern_fill(s.map, EV_BYTES, 10 + variant, 0);
      memset(m.map, 0, EV_BYTES);
      memset(o.map, 0, EV_BYTES);
      VkFence fence = sgt_fence(&d, false);
      if (variant < 2) {
         /* Set in one command buffer, waited in another. */
         VkCommandBuffer c1 = begin(0), c2 = begin(0);
         record_set_after_copy(c1, &s, &m, ev);
         end(c1);
         record_wait_then_copy(c2, &m, &o, ev);
         end(c2);
         if (variant == 0) {
            /* Two submissions. */
            sgt_submit1(false, queue, c1, NULL, NULL, VK_NULL_HANDLE);
            sgt_host_pause();
            sgt_submit1(true, queue, c2, NULL, NULL, fence);
         } else {
            /* One batch of two command buffers. */
            VkCommandBuffer both[2] = {c1, c2};
            struct sgt_batch b = {.cmd_count = 2, .cmds = both};
            sgt_submit(false, queue, &b, fence);
         }
      } else {
         /* The same with one side in a secondary command buffer: set in a
          * secondary and waited in the primary (variant 2), set in the
          * primary and waited in a secondary (variant 3). (Set in one
          * secondary and waited in another is valid too, but the Khronos
          * layer 1.3.239 then reports VUID-vkCmdWaitEvents-srcStageMask-parameter
          * with a stage mask of 0.) */
         VkCommandBuffer sec = track(sgt_alloc_cmd(&d, 0, VK_COMMAND_BUFFER_LEVEL_SECONDARY), 0);
         sgt_begin_secondary(sec, 0);
         if (variant == 2)
            record_set_after_copy(sec, &s, &m, ev);
         else
            record_wait_then_copy(sec, &m, &o, ev);
         end(sec);
         VkCommandBuffer p = begin(0);
         if (variant == 2) {
            vkCmdExecuteCommands(p, 1, &sec);
            record_wait_then_copy(p, &m, &o, ev);
         } else {
            record_set_after_copy(p, &s, &m, ev);
            vkCmdExecuteCommands(p, 1, &sec);
         }
         end(p);
         sgt_submit1(true, queue, p, NULL, NULL, fence);
      }
      SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
      sgt_expect_bytes(m.map, s.map, EV_BYTES, "events variant %u: first copy", variant);
      sgt_expect_bytes(o.map, s.map, EV_BYTES, "events variant %u: second copy", variant);
      VkResult st = vkGetEventStatus(d.device, ev);
      SGT_CHECK(st == VK_EVENT_RESET, "events variant %u: the GPU reset is not seen: %s", variant,
                sgt_result_name(st));
      vkDestroyFence(d.device, fence, NULL);
   }
   /* A GPU set seen by the host, then a host reset seen by the GPU. */
   VkCommandBuffer c3 = begin(0);
   vkCmdSetEvent(c3, ev2, VK_PIPELINE_STAGE_TRANSFER_BIT);
   end(c3);
   VkFence fence = sgt_fence(&d, false);
   SGT_CHECK(vkGetEventStatus(d.device, ev2) == VK_EVENT_RESET, "a new event is not reset");
   sgt_submit1(false, d.queues[0][8], c3, NULL, NULL, fence);
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
   SGT_CHECK(vkGetEventStatus(d.device, ev2) == VK_EVENT_SET, "vkCmdSetEvent not seen by the host");
   SGT_CHECK_VK(vkResetEvent(d.device, ev2));
   SGT_CHECK(vkGetEventStatus(d.device, ev2) == VK_EVENT_RESET, "vkResetEvent not seen");
   SGT_CHECK_VK(vkSetEvent(d.device, ev2));
   SGT_CHECK(vkGetEventStatus(d.device, ev2) == VK_EVENT_SET, "vkSetEvent not seen");
   SGT_CHECK_VK(vkQueueWaitIdle(d.queues[0][8]));
   vkDestroyFence(d.device, fence, NULL);
   vkDestroyEvent(d.device, ev, NULL);
   vkDestroyEvent(d.device, ev2, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&m, 1);
   destroy_buffers(&o, 1);
}

/* ---- secondary command buffers ------------------------------------------------------------ */

#define SEC_BYTES (512u * 1024u)

static void test_secondaries(void)
{
   struct sgt_buffer s, x[2];
   buffers(&s, 1, SEC_BYTES);
   buffers(x, 2, SEC_BYTES);
   sgt_pattern_fill(s.map, SEC_BYTES, 20, 0);
   static const uint32_t words[8] = {1, 2, 3, 4, 0xdeadbeef, 0xcafef00d, 7, 8};
   for (uint32_t f = 0; f < 2; f++) {
      VkCommandBuffer sec[3];
      for (uint32_t k = 0; k < 3; k++) {
         sec[k] = track(sgt_alloc_cmd(&d, f, VK_COMMAND_BUFFER_LEVEL_SECONDARY), f);
         sgt_begin_secondary(sec[k], 0);
      }
      vkCmdFillBuffer(sec[0], x[f].buffer, 0, SEC_BYTES, 0x3c3c3c3cu);
      sgt_barrier(sec[1]);
      copy(sec[1], &s, 4096, &x[f], 8192, SEC_BYTES / 2);
      sgt_barrier(sec[2]);
      vkCmdUpdateBuffer(sec[2], x[f].buffer, 8192 + 64, sizeof(words), words);
      for (uint32_t k = 0; k < 3; k++)
         end(sec[k]);
      VkCommandBuffer p = begin(f);
      vkCmdExecuteCommands(p, 3, sec);
      sgt_barrier_to_host(p);
      end(p);
      VkFence fence = sgt_fence(&d, false);
      sgt_submit1(f == 1, d.queues[f][f ? 0 : 6], p, NULL, NULL, fence);
      SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
      vkDestroyFence(d.device, fence, NULL);
      uint8_t *ref = malloc(SEC_BYTES);
      memset(ref, 0x3c, SEC_BYTES);
      memcpy(ref + 8192, (uint8_t *)s.map + 4096, SEC_BYTES / 2);
      memcpy(ref + 8192 + 64, words, sizeof(words));
      sgt_expect_bytes(x[f].map, ref, SEC_BYTES, "secondaries on family %u", f);
      free(ref);
   }

   /* One SIMULTANEOUS_USE secondary in primaries on two queues, ordered by a
    * semaphore; the second adds an update. */
   memset(x[0].map, 0, SEC_BYTES);
   VkCommandBuffer shared = track(sgt_alloc_cmd(&d, 0, VK_COMMAND_BUFFER_LEVEL_SECONDARY), 0);
   sgt_begin_secondary(shared, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
   copy(shared, &s, 0, &x[0], 0, SEC_BYTES);
   end(shared);
   VkCommandBuffer p1 = begin(0), p2 = begin(0);
   vkCmdExecuteCommands(p1, 1, &shared);
   end(p1);
   vkCmdExecuteCommands(p2, 1, &shared);
   sgt_barrier(p2);
   vkCmdUpdateBuffer(p2, x[0].buffer, 0, sizeof(words), words);
   sgt_barrier_to_host(p2);
   end(p2);
   VkSemaphore t = sgt_timeline(&d, 0);
   VkFence fence = sgt_fence(&d, false);
   struct sgt_sem_op sig = {t, 1, 0}, wait = {t, 1, VK_PIPELINE_STAGE_2_TRANSFER_BIT};
   sgt_submit1(true, d.queues[0][8], p2, &wait, NULL, fence);
   sgt_submit1(false, d.queues[0][7], p1, NULL, &sig, VK_NULL_HANDLE);
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
   uint8_t *ref = malloc(SEC_BYTES);
   memcpy(ref, s.map, SEC_BYTES);
   memcpy(ref, words, sizeof(words));
   sgt_expect_bytes(x[0].map, ref, SEC_BYTES, "a secondary shared by two primaries");
   free(ref);
   SGT_CHECK_VK(vkDeviceWaitIdle(d.device));
   vkDestroyFence(d.device, fence, NULL);
   vkDestroySemaphore(d.device, t, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(x, 2);
}

/* ---- timestamps along a queue ------------------------------------------------------------- */

#define TS_SUBMITS 4u
#define TS_PER_SUBMIT 8u
#define TS_COUNT (TS_SUBMITS * TS_PER_SUBMIT)
#define TS_BYTES (256u * 1024u)

static void test_timestamps(uint32_t family, uint32_t index)
{
   VkQueue queue = d.queues[family][index];
   VkQueryPool pool = query_pool(TS_COUNT);
   struct sgt_buffer s, o, res;
   buffers(&s, 1, TS_BYTES);
   buffers(&o, 1, (VkDeviceSize)TS_COUNT * TS_BYTES);
   buffers(&res, 1, TS_COUNT * 8);
   sgt_pattern_fill(s.map, TS_BYTES, 30 + family, 0);
   static const VkPipelineStageFlagBits stages[] = {VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                                                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                                                    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT};
   VkFence fence = sgt_fence(&d, false);
   for (uint32_t sub = 0; sub < TS_SUBMITS; sub++) {
      VkCommandBuffer cmd = begin(family);
      for (uint32_t k = 0; k < TS_PER_SUBMIT; k++) {
         uint32_t q = sub * TS_PER_SUBMIT + k;
         copy(cmd, &s, 0, &o, (VkDeviceSize)q * TS_BYTES, TS_BYTES);
         vkCmdWriteTimestamp(cmd, stages[q % 3], pool, q);
      }
      /* Transfer-only queues cannot copy query results
       * (VUID-vkCmdCopyQueryPoolResults-commandBuffer-cmdpool). */
      if (sub + 1 == TS_SUBMITS && family == 0) {
         vkCmdCopyQueryPoolResults(cmd, pool, 0, TS_COUNT, res.buffer, 0, 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
         sgt_barrier_to_host(cmd);
      }
      end(cmd);
      sgt_submit1(sub % 2 == 0, queue, cmd, NULL, NULL,
                  sub + 1 == TS_SUBMITS ? fence : VK_NULL_HANDLE);
      sgt_host_pause();
   }
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, TIMEOUT));
   uint64_t ts[TS_COUNT];
   SGT_CHECK_VK(vkGetQueryPoolResults(d.device, pool, 0, TS_COUNT, sizeof(ts), ts, 8,
                                      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
   for (uint32_t q = 1; q < TS_COUNT; q++)
      SGT_CHECK(ts[q] >= ts[q - 1], "queue %u.%u: timestamp %u (%llu) is before timestamp %u "
                "(%llu)", family, index, q, (unsigned long long)ts[q], q - 1,
                (unsigned long long)ts[q - 1]);
   SGT_CHECK(ts[0] != 0, "queue %u.%u: timestamp 0 is zero", family, index);
   if (family == 0)
      sgt_expect_bytes(res.map, ts, sizeof(ts), "queue %u.%u: vkCmdCopyQueryPoolResults vs "
                       "vkGetQueryPoolResults", family, index);
   for (uint32_t q = 0; q < TS_COUNT; q++)
      sgt_expect_bytes((uint8_t *)o.map + (size_t)q * TS_BYTES, s.map, TS_BYTES,
                       "queue %u.%u: copy %u between timestamps", family, index, q);
   vkDestroyFence(d.device, fence, NULL);
   vkDestroyQueryPool(d.device, pool, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&o, 1);
   destroy_buffers(&res, 1);
}

/* ---- vkQueueWaitIdle, vkDeviceWaitIdle ------------------------------------------------------ */

#define IDLE_BYTES (6u << 20)
#define IDLE_SLICE (256u * 1024u)

static void test_wait_idle(void)
{
   struct sgt_buffer s, o;
   buffers(&s, 1, IDLE_BYTES);
   buffers(&o, 1, IDLE_BYTES);
   sgt_pattern_fill(s.map, IDLE_BYTES, 40, 0);
   VkMemoryBarrier from_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};

   /* vkQueueWaitIdle: work on one queue, no fence, gated by a host thread
    * (through a host-set event: see HOST_SIGNAL_NOTE). */
   VkEvent ev = sgt_event(&d);
   VkCommandBuffer cmd = begin(0);
   vkCmdWaitEvents(cmd, 1, &ev, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1,
                   &from_host, 0, NULL, 0, NULL);
   copy(cmd, &s, 0, &o, 0, IDLE_BYTES);
   sgt_barrier_to_host(cmd);
   end(cmd);
   sgt_submit1(false, d.queues[0][13], cmd, NULL, NULL, VK_NULL_HANDLE);
   struct sgt_delayed_signal sig = {.device = d.device, .event = ev, .delay_ms = 30};
   sgt_delayed_signal_start(&sig);
   SGT_CHECK_VK(vkQueueWaitIdle(d.queues[0][13]));
   uint64_t back = sgt_now_ns();
   sgt_delayed_signal_join(&sig);
   SGT_CHECK(back >= atomic_load(&sig.signaled_at_ns), "vkQueueWaitIdle returned before the "
             "work was released");
   sgt_expect_bytes(o.map, s.map, IDLE_BYTES, "after vkQueueWaitIdle");

   /* vkDeviceWaitIdle: gated work on every queue. The compute queues wait
    * on a host-set event; the transfer queues (which cannot wait on events)
    * wait on a timeline that compute queue 0 signals after its own work. */
   memset(o.map, 0, IDLE_BYTES);
   VkEvent ev2 = sgt_event(&d);
   VkSemaphore t = sgt_timeline(&d, 0);
   for (uint32_t i = 0; i < nq; i++) {
      VkCommandBuffer c = begin(qs[i].family);
      if (qs[i].family == 0)
         vkCmdWaitEvents(c, 1, &ev2, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1,
                         &from_host, 0, NULL, 0, NULL);
      copy(c, &s, (VkDeviceSize)i * IDLE_SLICE, &o, (VkDeviceSize)i * IDLE_SLICE, IDLE_SLICE);
      sgt_barrier_to_host(c);
      end(c);
      struct sgt_sem_op w = {t, 1, VK_PIPELINE_STAGE_2_TRANSFER_BIT}, sig1 = {t, 1, 0};
      sgt_submit1(i % 2 == 0, qs[i].queue, c, qs[i].family ? &w : NULL, i == 0 ? &sig1 : NULL,
                  VK_NULL_HANDLE);
   }
   struct sgt_delayed_signal sig2 = {.device = d.device, .event = ev2, .delay_ms = 30};
   sgt_delayed_signal_start(&sig2);
   SGT_CHECK_VK(vkDeviceWaitIdle(d.device));
   back = sgt_now_ns();
   sgt_delayed_signal_join(&sig2);
   SGT_CHECK(back >= atomic_load(&sig2.signaled_at_ns), "vkDeviceWaitIdle returned before the "
             "work was released");
   uint8_t *ref = calloc(1, IDLE_BYTES);
   memcpy(ref, s.map, (size_t)nq * IDLE_SLICE);
   sgt_expect_bytes(o.map, ref, IDLE_BYTES, "after vkDeviceWaitIdle");
   free(ref);
   vkDestroyEvent(d.device, ev, NULL);
   vkDestroyEvent(d.device, ev2, NULL);
   vkDestroySemaphore(d.device, t, NULL);
   free_tracked();
   destroy_buffers(&s, 1);
   destroy_buffers(&o, 1);
}

int main(void)
{
   sgt_device_create(&d, NULL);
   nq = sgt_all_queues(&d, qs);
   SGT_REQUIRE(nq == 18 && d.family_queue_count[0] == 16 && d.family_queue_count[1] == 2,
               "expected 16 compute and 2 transfer queues, found %u and %u",
               d.family_queue_count[0], d.family_queue_count[1]);
   test_chain();
   test_fan_in();
   test_fan_out();
   test_signal_covers_work();
   test_many_batches(false, 0, 5);
   test_many_batches(true, 1, 1);
   test_far_values();
   test_binary_ping_pong();
   test_waits();
   test_fence_reuse();
   test_events();
   test_secondaries();
   test_timestamps(0, 10);
   test_timestamps(1, 1);
   test_wait_idle();
   sgt_device_destroy(&d);
   return sgt_finish();
}
