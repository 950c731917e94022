/*
 * SOFTGPU_HANG_REPORT_MS: a host wait that outlasts it prints, once per
 * device, what the thread waits for and what every queue is doing, naming
 * the Vulkan objects, and then goes on waiting.
 *
 * Pins down: with SOFTGPU_HANG_REPORT_MS=100, a fence whose submission
 * waits on a timeline value nothing has signaled is waited on for 400 ms:
 * the wait returns VK_TIMEOUT no earlier than 400 ms (the report does not
 * cut it short), and stderr then holds one report that names the call
 * (vkWaitForFences) and the wait-for chain, by debug-utils names: the fence
 * (>= 1, now 0) is signaled by queue 0's submission 1; queue 0 waits for
 * "relay" >= 3, signaled by queue 1's submission 1; queue 1 waits for
 * "gate" >= 5, which no submitted work signals: only the host can. After the host signals 5 the fence
 * signals. A second such wait on the same device prints nothing (once per
 * device), and a wait shorter than the limit never prints.
 *
 * A deadlock between two host threads (SOFTGPU_HANG_REPORT_MS=300, on a
 * new device): "fence waiter" waits for a fence whose submission waits for
 * "unlock" >= 1, which "sem waiter" would signal after its own wait for
 * "handoff" >= 1, which "fence waiter" would signal after its wait. The one
 * report names both threads and both waits: the fence, signaled by the
 * queue's submission 1, parked on "unlock", which only the host can signal,
 * and "handoff", which only the host can signal. Both waits (1.2 s) time
 * out; then both threads signal, and the fence completes.
 *
 * And snapshots on SIGUSR1: while the queue is parked again,
 * tools/softgpu-snapshot PID (which sends SIGUSR1) makes softgpu print (from its own thread, within 5 s) a snapshot that
 * names the parked queue and the semaphore it waits for, >= 9 (now 5),
 * and gives each channel's queue depth and running launches;
 * after vkDestroyDevice, SIGUSR1's action is the default again. A device
 * created while the application has its own SIGUSR1 handler leaves that
 * handler in place, and raising the signal runs it.
 */
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgt_sync.h"

#define MS 1000000ull

static void expect(const char *text, const char *want)
{
   SGT_CHECK(strstr(text, want) != NULL, "the report lacks \"%s\"", want);
}

static void name(struct sgt_device *d, VkObjectType type, uint64_t handle, const char *text)
{
   PFN_vkSetDebugUtilsObjectNameEXT set = (PFN_vkSetDebugUtilsObjectNameEXT)
      vkGetDeviceProcAddr(d->device, "vkSetDebugUtilsObjectNameEXT");
   SGT_REQUIRE(set, "vkSetDebugUtilsObjectNameEXT");
   VkDebugUtilsObjectNameInfoEXT info = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                         .objectType = type, .objectHandle = handle,
                                         .pObjectName = text};
   SGT_CHECK_VK(set(d->device, &info));
}

static _Atomic unsigned mine_count;
static void on_mine(int sig)
{
   (void)sig;
   atomic_fetch_add(&mine_count, 1);
}

/* Submits nothing but a wait for gate >= value and a fence signal. */
static VkFence parked_submit(struct sgt_device *d, VkQueue queue, VkSemaphore gate, uint64_t value)
{
   VkFence fence = sgt_fence(d, false);
   struct sgt_sem_op wait = {gate, value, 0};
   struct sgt_batch b = {.wait_count = 1, .waits = &wait};
   sgt_submit(false, queue, &b, fence);
   return fence;
}

static void signal_and_finish(struct sgt_device *d, VkSemaphore gate, uint64_t value,
                              VkFence fence)
{
   VkSemaphoreSignalInfo s = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                              .semaphore = gate, .value = value};
   SGT_CHECK_VK(vkSignalSemaphore(d->device, &s));
   SGT_CHECK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, 5000 * MS) == VK_SUCCESS,
             "the fence signals once the gate opens");
   vkDestroyFence(d->device, fence, NULL);
}

/* ---- the two-thread deadlock --------------------------------------------------- */

struct deadlock {
   struct sgt_device *d;
   VkFence fence;
   VkSemaphore unlock, handoff;
   pthread_barrier_t start, done;   /* both wait, then both signal */
   VkResult fence_result, sem_result;
};

static void host_signal(struct sgt_device *d, VkSemaphore sem, uint64_t value)
{
   VkSemaphoreSignalInfo s = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                              .semaphore = sem, .value = value};
   SGT_CHECK_VK(vkSignalSemaphore(d->device, &s));
}

/* Waits for the fence, then hands off (once the other wait is over too:
 * a wait ended by another thread's host signal trips the validation
 * layer's UNASSIGNED-VkSemaphore-state-timeout). */
static void *fence_waiter(void *arg)
{
   struct deadlock *k = arg;
   pthread_setname_np(pthread_self(), "fence waiter");
   pthread_barrier_wait(&k->start);
   k->fence_result = vkWaitForFences(k->d->device, 1, &k->fence, VK_TRUE, 1200 * MS);
   pthread_barrier_wait(&k->done);
   host_signal(k->d, k->handoff, 1);
   return NULL;
}

/* Waits for the hand-off, then would unlock the queue. */
static void *sem_waiter(void *arg)
{
   struct deadlock *k = arg;
   pthread_setname_np(pthread_self(), "sem waiter");
   pthread_barrier_wait(&k->start);
   uint64_t value = 1;
   VkSemaphoreWaitInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                               .semaphoreCount = 1, .pSemaphores = &k->handoff,
                               .pValues = &value};
   k->sem_result = vkWaitSemaphores(k->d->device, &info, 1200 * MS);
   pthread_barrier_wait(&k->done);
   host_signal(k->d, k->unlock, 1);
   return NULL;
}

static void test_deadlock(void)
{
   setenv("SOFTGPU_HANG_REPORT_MS", "300", 1);
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   struct deadlock k = {.d = &d, .unlock = sgt_timeline(&d, 0), .handoff = sgt_timeline(&d, 0)};
   VkQueue queue = d.queues[0][0];
   name(&d, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)queue, "locked queue");
   name(&d, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)k.unlock, "unlock");
   name(&d, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)k.handoff, "handoff");
   k.fence = parked_submit(&d, queue, k.unlock, 1);
   name(&d, VK_OBJECT_TYPE_FENCE, (uint64_t)k.fence, "deadlocked fence");

   sgt_stderr_begin();
   pthread_barrier_init(&k.start, NULL, 2);
   pthread_barrier_init(&k.done, NULL, 2);
   pthread_t a, b;
   SGT_REQUIRE(pthread_create(&a, NULL, fence_waiter, &k) == 0, "pthread_create");
   SGT_REQUIRE(pthread_create(&b, NULL, sem_waiter, &k) == 0, "pthread_create");
   pthread_join(a, NULL);
   pthread_join(b, NULL);
   pthread_barrier_destroy(&k.start);
   pthread_barrier_destroy(&k.done);
   char *text = sgt_stderr_end();
   SGT_CHECK(k.fence_result == VK_TIMEOUT && k.sem_result == VK_TIMEOUT,
             "the deadlocked waits returned %d and %d, not VK_TIMEOUT", k.fence_result,
             k.sem_result);
   const char *first = strstr(text, "hang report");
   SGT_CHECK(first && !strstr(first + 1, "hang report"), "not exactly one hang report");
   /* Either thread may be the one that reports; the other is listed. */
   expect(text, "other host threads waiting:\n  host thread ");
   expect(text, " \"fence waiter\" has waited ");
   expect(text, " in vkWaitForFences for all of:\n");
   expect(text, " \"sem waiter\" has waited ");
   expect(text, " in vkWaitSemaphores for all of:\n");
   expect(text, " \"deadlocked fence\" (word 0x");
   expect(text, ">= 1, now 0), signaled by queue 0x");
   expect(text, " \"locked queue\" submission 1\n");
   expect(text, " \"handoff\" (word 0x");
   expect(text, " \"locked queue\" (family 0, index 0, channel 0): 1 submissions, 0 complete; "
                "waits for semaphore 0x");
   expect(text, " \"unlock\" (word 0x");
   SGT_CHECK(strstr(text, ">= 1, now 0), which no submitted work signals that far: only the "
                          "host can\n"), "the report does not say only the host can signal");
   free(text);
   /* Both threads signaled after their timeouts: the fence completes. */
   SGT_CHECK(vkWaitForFences(d.device, 1, &k.fence, VK_TRUE, 5000 * MS) == VK_SUCCESS,
             "the fence signals once the deadlock is broken");
   vkDestroyFence(d.device, k.fence, NULL);
   vkDestroySemaphore(d.device, k.unlock, NULL);
   vkDestroySemaphore(d.device, k.handoff, NULL);
   sgt_device_destroy(&d);
}

int main(void)
{
   setenv("SOFTGPU_HANG_REPORT_MS", "100", 1);
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   VkQueue queue = d.queues[0][0];
   VkQueue relay_queue = d.queues[0][1];
   VkSemaphore gate = sgt_timeline(&d, 0), relay = sgt_timeline(&d, 0);
   name(&d, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)queue, "parked queue");
   name(&d, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)relay_queue, "relay queue");
   name(&d, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)gate, "gate");
   name(&d, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)relay, "relay");

   /* The wait-for chain: host -> fence -> queue 0 -> relay >= 3 -> queue 1
    * -> gate >= 5 -> the host. */
   struct sgt_sem_op relay_wait = {gate, 5, 0}, relay_signal = {relay, 3, 0};
   struct sgt_batch relay_batch = {.wait_count = 1, .waits = &relay_wait, .signal_count = 1,
                                   .signals = &relay_signal};
   sgt_submit(false, relay_queue, &relay_batch, VK_NULL_HANDLE);

   /* A short wait: no report. */
   VkFence fence = parked_submit(&d, queue, relay, 3);
   name(&d, VK_OBJECT_TYPE_FENCE, (uint64_t)fence, "parked fence");
   sgt_stderr_begin();
   VkResult r = vkWaitForFences(d.device, 1, &fence, VK_TRUE, 50 * MS);
   char *text = sgt_stderr_end();
   SGT_CHECK(r == VK_TIMEOUT, "a 50 ms wait on a parked fence: %d", r);
   SGT_CHECK(!strstr(text, "hang report"), "a wait shorter than the limit printed a report");
   free(text);

   /* A long one: one report, and the full wait. */
   sgt_stderr_begin();
   uint64_t start = sgt_now_ns();
   r = vkWaitForFences(d.device, 1, &fence, VK_TRUE, 400 * MS);
   uint64_t waited = sgt_now_ns() - start;
   text = sgt_stderr_end();
   SGT_CHECK(r == VK_TIMEOUT, "a 400 ms wait on a parked fence: %d", r);
   SGT_CHECK(waited >= 400 * MS, "the wait returned after %llu ms, before its timeout",
             (unsigned long long)(waited / MS));
   SGT_CHECK(strstr(text, "hang report") && strstr(text, "in vkWaitForFences"),
             "no hang report for vkWaitForFences");
   const char *second = strstr(text, "hang report");
   SGT_CHECK(!second || !strstr(second + 1, "hang report"), "more than one report");
   expect(text, " \"parked fence\" (word 0x");
   expect(text, ">= 1, now 0), signaled by queue 0x");
   expect(text, " \"parked queue\" submission 1\n");
   expect(text, " \"parked queue\" (family 0, index 0, channel 0): 1 submissions, 0 complete; "
                "waits for semaphore 0x");
   expect(text, " \"relay\" (word 0x");
   expect(text, ">= 3, now 0), signaled by queue 0x");
   expect(text, " \"relay queue\" submission 1\n");
   expect(text, " \"relay queue\" (family 0, index 1, channel 1): 1 submissions, 0 complete; "
                "waits for semaphore 0x");
   expect(text, " \"gate\" (word 0x");
   expect(text, ">= 5, now 0), which no submitted work signals that far: only the host can\n");
   free(text);
   signal_and_finish(&d, gate, 5, fence);

   /* Once per device. */
   fence = parked_submit(&d, queue, gate, 9);
   sgt_stderr_begin();
   r = vkWaitForFences(d.device, 1, &fence, VK_TRUE, 300 * MS);
   text = sgt_stderr_end();
   SGT_CHECK(r == VK_TIMEOUT, "a second 300 ms wait on a parked fence: %d", r);
   SGT_CHECK(!strstr(text, "hang report"), "a second report on the same device");
   free(text);

   /* SIGUSR1, the queue still parked on 9. */
   sgt_stderr_begin();
   char cmd[512];
   snprintf(cmd, sizeof(cmd), "%s/tools/softgpu-snapshot %d 2>/dev/null", SGT_SOURCE_DIR,
            (int)getpid());
   int rc = system(cmd);
   const char *const snapshot_done[] = {"snapshot (SIGUSR1)", "channel 0", NULL};
   sgt_stderr_wait(snapshot_done, 5000);
   text = sgt_stderr_end();
   SGT_CHECK(rc == 0, "tools/softgpu-snapshot exited with %d", rc);
   expect(text, "snapshot (SIGUSR1) of device 0x");
   expect(text, " \"parked queue\" (family 0, index 0, channel 0): 2 submissions, 1 complete; "
                "waits for semaphore 0x");
   expect(text, ">= 9, now 5)");
   /* Each channel's queue depth and running launches. */
   expect(text, "  channel 0 (command processor): GET=");
   expect(text, " queued), ");
   expect(text, " copies outstanding, 0 launches running\n");
   free(text);
   signal_and_finish(&d, gate, 9, fence);

   vkDestroySemaphore(d.device, gate, NULL);
   vkDestroySemaphore(d.device, relay, NULL);
   sgt_device_destroy(&d);
   struct sigaction now;
   SGT_REQUIRE(sigaction(SIGUSR1, NULL, &now) == 0, "sigaction");
   SGT_CHECK(now.sa_handler == SIG_DFL && !(now.sa_flags & SA_SIGINFO),
             "SIGUSR1 is not back to its default action after vkDestroyDevice");

   /* The application's own handler stays. */
   struct sigaction mine = {.sa_handler = on_mine};
   sigemptyset(&mine.sa_mask);
   SGT_REQUIRE(sigaction(SIGUSR1, &mine, NULL) == 0, "sigaction");
   sgt_device_create(&d, NULL);
   SGT_REQUIRE(sigaction(SIGUSR1, NULL, &now) == 0, "sigaction");
   SGT_CHECK(now.sa_handler == on_mine, "vkCreateDevice replaced the application's handler");
   SGT_REQUIRE(raise(SIGUSR1) == 0, "raise");
   SGT_CHECK(atomic_load(&mine_count) == 1, "the application's handler ran %u times",
             (unsigned)atomic_load(&mine_count));
   sgt_device_destroy(&d);

   test_deadlock();
   return sgt_finish();
}
