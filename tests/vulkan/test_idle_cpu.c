/*
 * An idle device costs nothing; a busy command processor needs no doorbell
 * system calls.
 *
 * Pins down:
 * - with a compute queue and a transfer queue parked on acquires that
 *   nobody signals (so both engines have a parked channel), the whole
 *   process uses under 1% of a core (user + system, getrusage
 *   RUSAGE_SELF) over one second while the main thread sleeps; then the
 *   host signals, the parked work completes and its copies are checked;
 * - a child process (fresh device, SOFTGPU_STATS=1 and SOFTGPU_SPIN_NS=
 *   200000000 so the engine spins rather than sleeps between submissions)
 *   submits a burst of small submissions back to back on one compute
 *   queue: the stats line printed at vkDestroyDevice shows doorbells >= the
 *   number of submissions but at most one doorbell system call (the wake of
 *   an engine that went to sleep before the burst), and the burst's
 *   results are checked in the child.
 */
#include <string.h>

#include "sgt_sync.h"

#define SEC 1000000000ull
#define BURST 3000u
#define COPY_BYTES (64u * 1024u)

static void parked_idle(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   struct sgt_buffer src, dst;
   sgt_buffer_create(&d, 2 * COPY_BYTES, &src);
   sgt_buffer_create(&d, 2 * COPY_BYTES, &dst);
   sgt_pattern_fill(src.map, 2 * COPY_BYTES, 12, 0);
   memset(dst.map, 0, 2 * COPY_BYTES);
   VkSemaphore never = sgt_timeline(&d, 0);
   VkFence fences[2];
   VkCommandBuffer cmds[2];
   for (uint32_t f = 0; f < 2; f++) {
      cmds[f] = sgt_begin(&d, f, true);
      VkBufferCopy r = {.srcOffset = f * COPY_BYTES, .dstOffset = f * COPY_BYTES,
                        .size = COPY_BYTES};
      vkCmdCopyBuffer(cmds[f], src.buffer, dst.buffer, 1, &r);
      sgt_barrier_to_host(cmds[f]);
      SGT_CHECK_VK(vkEndCommandBuffer(cmds[f]));
      fences[f] = sgt_fence(&d, false);
      struct sgt_sem_op wait = {never, 1 + f, VK_PIPELINE_STAGE_2_TRANSFER_BIT};
      sgt_submit1(f == 1, d.queues[f][f ? 1 : 5], cmds[f], &wait, NULL, fences[f]);
   }
   /* Let the engines finish spinning and go to sleep. */
   sgt_sleep_ms(100);
   uint64_t cpu0 = sgt_cpu_time_ns(), wall0 = sgt_now_ns();
   sgt_sleep_ms(1000);
   uint64_t cpu = sgt_cpu_time_ns() - cpu0, wall = sgt_now_ns() - wall0;
   fprintf(stderr, "idle with two parked acquires: %.3f ms of CPU in %.1f ms\n",
           (double)cpu / 1e6, (double)wall / 1e6);
   SGT_CHECK(cpu * 100 < wall, "an idle device used %.3f ms of CPU in %.1f ms (1%% is %.1f ms)",
             (double)cpu / 1e6, (double)wall / 1e6, (double)wall / 1e8);
   SGT_CHECK(vkWaitForFences(d.device, 2, fences, VK_FALSE, 0) == VK_TIMEOUT,
             "parked work completed without a signal");
   sgt_expect_fill(dst.map, 0, 2 * COPY_BYTES, "parked copies before the signal");

   /* Above both waited-for values (see HOST_SIGNAL_NOTE in test_sync_graph.c). */
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                               .semaphore = never, .value = 3};
   SGT_CHECK_VK(vkSignalSemaphore(d.device, &si));
   SGT_CHECK_VK(vkWaitForFences(d.device, 2, fences, VK_TRUE, 30 * SEC));
   sgt_expect_bytes(dst.map, src.map, 2 * COPY_BYTES, "parked copies after the signal");
   for (uint32_t f = 0; f < 2; f++) {
      vkDestroyFence(d.device, fences[f], NULL);
      vkFreeCommandBuffers(d.device, d.pools[f], 1, &cmds[f]);
   }
   vkDestroySemaphore(d.device, never, NULL);
   sgt_buffer_destroy(&d, &src);
   sgt_buffer_destroy(&d, &dst);
   sgt_device_destroy(&d);
}

/* The child: a burst of small submissions on one compute queue. */
static int burst_child(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   struct sgt_buffer data;
   sgt_buffer_create(&d, 4 * 64, &data);
   memset(data.map, 0, 4 * 64);
   VkCommandBuffer cmds[4];
   for (uint32_t k = 0; k < 4; k++) {
      cmds[k] = sgt_alloc_cmd(&d, 0, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
      sgt_begin_primary(cmds[k], VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
      uint32_t w[16];
      for (uint32_t i = 0; i < 16; i++)
         w[i] = 0x42000000u + k * 16 + i;
      vkCmdUpdateBuffer(cmds[k], data.buffer, k * 64, sizeof(w), w);
      sgt_barrier_to_host(cmds[k]);
      SGT_CHECK_VK(vkEndCommandBuffer(cmds[k]));
   }
   VkFence fence = sgt_fence(&d, false);
   VkQueue queue = d.queues[0][0];
   uint64_t t0 = sgt_now_ns();
   for (uint32_t i = 0; i < BURST; i++)
      sgt_submit1(i % 2 == 1, queue, cmds[i % 4], NULL, NULL,
                  i + 1 == BURST ? fence : VK_NULL_HANDLE);
   uint64_t t1 = sgt_now_ns();
   SGT_CHECK_VK(vkWaitForFences(d.device, 1, &fence, VK_TRUE, 60 * SEC));
   fprintf(stderr, "burst: %u submissions in %.1f ms\n", BURST, (double)(t1 - t0) / 1e6);
   const uint32_t *out = data.map;
   for (uint32_t k = 0; k < 4; k++) {
      for (uint32_t i = 0; i < 16; i++)
         SGT_CHECK(out[k * 16 + i] == 0x42000000u + k * 16 + i, "burst: word %u is 0x%x",
                   k * 16 + i, out[k * 16 + i]);
   }
   vkDestroyFence(d.device, fence, NULL);
   vkFreeCommandBuffers(d.device, d.pools[0], 4, cmds);
   sgt_buffer_destroy(&d, &data);
   sgt_device_destroy(&d);   /* prints the stats line */
   return sgt_finish();
}

static void doorbells(void)
{
   static const char *const env[] = {"SOFTGPU_STATS=1", "SOFTGPU_SPIN_NS=200000000", NULL};
   char *err = NULL;
   int status = sgt_run_self("burst", env, &err);
   SGT_CHECK(status == 0, "the burst child exited with %d", status);
   const char *line = strstr(err, "softgpu: report: api: device stats:");
   SGT_CHECK(line, "no device stats line from the child");
   uint64_t rings = 0, syscalls = UINT64_MAX;
   if (line) {
      const char *eol = strchr(line, '\n');
      char buf[1024];
      size_t n = eol ? (size_t)(eol - line) : strlen(line);
      n = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
      memcpy(buf, line, n);
      buf[n] = '\0';
      SGT_CHECK(sgt_find_number(buf, "doorbells", &rings), "no doorbells= in: %s", buf);
      SGT_CHECK(sgt_find_number(buf, "doorbell_syscalls", &syscalls),
                "no doorbell_syscalls= in: %s", buf);
      fprintf(stderr, "child: %s\n", buf);
   }
   SGT_CHECK(rings >= BURST, "%llu doorbells for %u submissions", (unsigned long long)rings, BURST);
   SGT_CHECK(syscalls <= 1, "%llu doorbell system calls while the command processor was busy "
             "(at most the first wake is allowed)", (unsigned long long)syscalls);
   if (sgt_failures)
      fprintf(stderr, "--- child stderr ---\n%s--- end ---\n", err);
   free(err);
}

int main(int argc, char **argv)
{
   if (argc > 1 && strcmp(argv[1], "burst") == 0)
      return burst_child();
   parked_idle();
   doorbells();
   return sgt_finish();
}
