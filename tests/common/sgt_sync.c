#include "sgt_sync.h"
#include "sg_sanitize.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if SG_ASAN
#include <dlfcn.h>

/* ASan builds: the loader unloads the validation layer (1.3.239, not built
 * with sanitizers, not softgpu's code) at vkDestroyInstance, and
 * LeakSanitizer, which reports at exit, then attributes the layer's own
 * leaks (per-queue state, once copies were submitted on many queues:
 * tests/vulkan/test_transfer shows it) to "<unknown module>", so the
 * layer's entry in tests/lsan_suppressions.txt never matches them. Keeping
 * the layer mapped lets the suppression apply; nothing else changes. */
__attribute__((constructor)) static void sgt_pin_validation_layer(void)
{
   dlopen("libVkLayer_khronos_validation.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
}
#endif

#if SG_TSAN
/* TSan builds: the validation layer's per-queue threads race with its own
 * teardown at vkDestroyDevice (the layer deletes a queue's state, rwlock
 * included, while that queue's thread still unlocks it). Both sides are the
 * layer's C++ code; softgpu and its tests are C and never call operator
 * delete, so this hides no race of theirs. (A module-wide suppression
 * would: every driver call passes through the layer's frames.) */
__attribute__((visibility("default"))) const char *__tsan_default_suppressions(void);
__attribute__((visibility("default"))) const char *__tsan_default_suppressions(void)
{
   return "race:operator delete\n";
}
#endif

/* ---- time, CPU, threads ------------------------------------------------- */

uint64_t sgt_now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sgt_sleep_ms(uint32_t ms)
{
   struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
   while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
   }
}

uint64_t sgt_cpu_time_ns(void)
{
   struct rusage ru;
   SGT_REQUIRE(getrusage(RUSAGE_SELF, &ru) == 0, "getrusage: %s", strerror(errno));
   return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
          ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

uint32_t sgt_thread_count(void)
{
   DIR *dir = opendir("/proc/self/task");
   SGT_REQUIRE(dir, "opendir /proc/self/task: %s", strerror(errno));
   uint32_t n = 0;
   struct dirent *e;
   while ((e = readdir(dir)) != NULL) {
      if (e->d_name[0] != '.')
         n++;
   }
   closedir(dir);
   return n;
}

static void *thread_main(void *arg)
{
   struct sgt_thread *t = arg;
   void *r = t->fn(t->arg);
   atomic_store(&t->done, true);
   return r;
}

void sgt_thread_start(struct sgt_thread *t, void *(*fn)(void *), void *arg)
{
   t->fn = fn;
   t->arg = arg;
   atomic_store(&t->done, false);
   int rc = pthread_create(&t->thread, NULL, thread_main, t);
   SGT_REQUIRE(rc == 0, "pthread_create: %s", strerror(rc));
}

bool sgt_thread_join_timeout(struct sgt_thread *t, uint32_t timeout_ms)
{
   uint64_t until = sgt_now_ns() + (uint64_t)timeout_ms * 1000000ull;
   while (!atomic_load(&t->done)) {
      if (sgt_now_ns() >= until)
         return false;
      sgt_sleep_ms(1);
   }
   pthread_join(t->thread, NULL);
   return true;
}

static void *delayed_signal_main(void *arg)
{
   struct sgt_delayed_signal *s = arg;
   sgt_sleep_ms(s->delay_ms);
   if (s->before)
      s->before(s->user);
   VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                               .semaphore = s->semaphore, .value = s->value};
   atomic_store(&s->signaled_at_ns, sgt_now_ns());
   s->result = s->event ? vkSetEvent(s->device, s->event) : vkSignalSemaphore(s->device, &si);
   return NULL;
}

void sgt_delayed_signal_start(struct sgt_delayed_signal *s)
{
   atomic_store(&s->signaled_at_ns, 0);
   s->result = VK_RESULT_MAX_ENUM;
   sgt_thread_start(&s->thread, delayed_signal_main, s);
}

void sgt_delayed_signal_join(struct sgt_delayed_signal *s)
{
   SGT_REQUIRE(sgt_thread_join_timeout(&s->thread, 30000), "the signaling thread did not end");
   SGT_CHECK(s->result == VK_SUCCESS, "%s from a thread returned %s",
             s->event ? "vkSetEvent" : "vkSignalSemaphore", sgt_result_name(s->result));
}

/* ---- queues ---------------------------------------------------------------- */

uint32_t sgt_all_queues(const struct sgt_device *d, struct sgt_qref *out)
{
   uint32_t n = 0;
   for (uint32_t f = 0; f < 2; f++) {
      for (uint32_t i = 0; i < d->family_queue_count[f]; i++)
         out[n++] = (struct sgt_qref){f, i, d->queues[f][i]};
   }
   return n;
}

/* ---- submission ------------------------------------------------------------ */

#define MAX_OPS 64u

VkResult sgt_try_submit(bool v2, VkQueue queue, const struct sgt_batch *b, VkFence fence)
{
   SGT_REQUIRE(b->wait_count <= MAX_OPS && b->signal_count <= MAX_OPS && b->cmd_count <= MAX_OPS,
               "too many operations in one batch");
   if (v2) {
      VkSemaphoreSubmitInfo waits[MAX_OPS], signals[MAX_OPS];
      VkCommandBufferSubmitInfo cmds[MAX_OPS];
      for (uint32_t i = 0; i < b->wait_count; i++)
         waits[i] = (VkSemaphoreSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = b->waits[i].semaphore,
            .value = b->waits[i].value,
            .stageMask = b->waits[i].stages ? b->waits[i].stages
                                            : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
      for (uint32_t i = 0; i < b->signal_count; i++)
         signals[i] = (VkSemaphoreSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
            .semaphore = b->signals[i].semaphore, .value = b->signals[i].value,
            .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
      for (uint32_t i = 0; i < b->cmd_count; i++)
         cmds[i] = (VkCommandBufferSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = b->cmds[i]};
      VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                          .waitSemaphoreInfoCount = b->wait_count, .pWaitSemaphoreInfos = waits,
                          .commandBufferInfoCount = b->cmd_count, .pCommandBufferInfos = cmds,
                          .signalSemaphoreInfoCount = b->signal_count,
                          .pSignalSemaphoreInfos = signals};
      return vkQueueSubmit2(queue, 1, &si, fence);
   }
   VkSemaphore wait_sems[MAX_OPS], signal_sems[MAX_OPS];
   uint64_t wait_values[MAX_OPS], signal_values[MAX_OPS];
   VkPipelineStageFlags stages[MAX_OPS];
   for (uint32_t i = 0; i < b->wait_count; i++) {
      wait_sems[i] = b->waits[i].semaphore;
      wait_values[i] = b->waits[i].value;
      stages[i] = b->waits[i].stages ? (VkPipelineStageFlags)b->waits[i].stages
                                     : VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
   }
   for (uint32_t i = 0; i < b->signal_count; i++) {
      signal_sems[i] = b->signals[i].semaphore;
      signal_values[i] = b->signals[i].value;
   }
   VkTimelineSemaphoreSubmitInfo ti = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                       .waitSemaphoreValueCount = b->wait_count,
                                       .pWaitSemaphoreValues = wait_values,
                                       .signalSemaphoreValueCount = b->signal_count,
                                       .pSignalSemaphoreValues = signal_values};
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ti,
                      .waitSemaphoreCount = b->wait_count, .pWaitSemaphores = wait_sems,
                      .pWaitDstStageMask = stages, .commandBufferCount = b->cmd_count,
                      .pCommandBuffers = b->cmds, .signalSemaphoreCount = b->signal_count,
                      .pSignalSemaphores = signal_sems};
   return vkQueueSubmit(queue, 1, &si, fence);
}

void sgt_submit(bool v2, VkQueue queue, const struct sgt_batch *b, VkFence fence)
{
   SGT_CHECK_VK(sgt_try_submit(v2, queue, b, fence));
}

void sgt_submit1(bool v2, VkQueue queue, VkCommandBuffer cmd, const struct sgt_sem_op *wait,
                 const struct sgt_sem_op *signal, VkFence fence)
{
   struct sgt_batch b = {.cmd_count = cmd ? 1 : 0, .cmds = &cmd,
                         .wait_count = wait ? 1 : 0, .waits = wait,
                         .signal_count = signal ? 1 : 0, .signals = signal};
   sgt_submit(v2, queue, &b, fence);
}

VkSemaphore sgt_binary(struct sgt_device *d)
{
   VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore s;
   SGT_CHECK_VK(vkCreateSemaphore(d->device, &si, NULL, &s));
   return s;
}

VkEvent sgt_event(struct sgt_device *d)
{
   VkEventCreateInfo ei = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   VkEvent e;
   SGT_CHECK_VK(vkCreateEvent(d->device, &ei, NULL, &e));
   return e;
}

VkCommandBuffer sgt_alloc_cmd(struct sgt_device *d, uint32_t family, VkCommandBufferLevel level)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = d->pools[family], .level = level,
                                     .commandBufferCount = 1};
   VkCommandBuffer cmd;
   SGT_CHECK_VK(vkAllocateCommandBuffers(d->device, &ai, &cmd));
   return cmd;
}

void sgt_begin_primary(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags)
{
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = flags};
   SGT_CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
}

void sgt_begin_secondary(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags)
{
   VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = flags, .pInheritanceInfo = &inh};
   SGT_CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
}

void sgt_barrier_to_host(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
}

VkResult sgt_wait_timeline(VkDevice device, VkSemaphore s, uint64_t value, uint64_t timeout_ns)
{
   VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                             .semaphoreCount = 1, .pSemaphores = &s, .pValues = &value};
   return vkWaitSemaphores(device, &wi, timeout_ns);
}

/* ---- data ---------------------------------------------------------------------- */

void sgt_pattern_fill(void *dst, size_t bytes, uint32_t seed, uint64_t first_word)
{
   uint32_t *w = dst;
   for (size_t i = 0; i < bytes / 4; i++)
      w[i] = sgt_pattern_word(seed, first_word + i);
}

static bool report_difference(const uint8_t *got, const uint8_t *want, uint8_t byte,
                              size_t bytes, const char *what, va_list ap)
{
   size_t first = SIZE_MAX, count = 0;
   for (size_t i = 0; i < bytes; i++) {
      uint8_t w = want ? want[i] : byte;
      if (got[i] != w) {
         if (first == SIZE_MAX)
            first = i;
         count++;
      }
   }
   if (count == 0)
      return true;
   char name[256];
   vsnprintf(name, sizeof(name), what, ap);
   SGT_CHECK(count == 0, "%s: %zu of %zu bytes differ, the first at byte %zu: 0x%02x, expected "
             "0x%02x", name, count, bytes, first, got[first], want ? want[first] : byte);
   return false;
}

bool sgt_expect_bytes(const void *got, const void *want, size_t bytes, const char *what, ...)
{
   if (memcmp(got, want, bytes) == 0)
      return true;
   va_list ap;
   va_start(ap, what);
   bool r = report_difference(got, want, 0, bytes, what, ap);
   va_end(ap);
   return r;
}

bool sgt_all_bytes(const void *got, uint8_t byte, size_t bytes)
{
   const uint8_t *p = got;
   for (size_t i = 0; i < bytes; i++) {
      if (p[i] != byte)
         return false;
   }
   return true;
}

bool sgt_expect_fill(const void *got, uint8_t byte, size_t bytes, const char *what, ...)
{
   if (sgt_all_bytes(got, byte, bytes))
      return true;
   va_list ap;
   va_start(ap, what);
   bool r = report_difference(got, NULL, byte, bytes, what, ap);
   va_end(ap);
   return r;
}

/* ---- a second device ------------------------------------------------------------ */

void sgt_device_create_on(struct sgt_device *d, VkInstance instance, VkPhysicalDevice pdev)
{
   memset(d, 0, sizeof(*d));
   d->instance = instance;
   d->pdev = pdev;
   VkQueueFamilyProperties fam[2];
   uint32_t n = 2;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &n, fam);
   SGT_REQUIRE(n == 2, "%u queue families", n);
   static const float prio[16] = {1.0f};
   VkDeviceQueueCreateInfo q[2];
   for (uint32_t i = 0; i < 2; i++) {
      d->family_queue_count[i] = fam[i].queueCount;
      q[i] = (VkDeviceQueueCreateInfo){.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                       .queueFamilyIndex = i, .queueCount = fam[i].queueCount,
                                       .pQueuePriorities = prio};
   }
   VkPhysicalDeviceVulkan13Features want13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                              .synchronization2 = VK_TRUE};
   VkPhysicalDeviceVulkan12Features want12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                              .pNext = &want13, .timelineSemaphore = VK_TRUE,
                                              .hostQueryReset = VK_TRUE};
   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &want12,
                              .queueCreateInfoCount = 2, .pQueueCreateInfos = q};
   SGT_CHECK_VK(vkCreateDevice(pdev, &info, NULL, &d->device));
   for (uint32_t f = 0; f < 2; f++) {
      for (uint32_t i = 0; i < d->family_queue_count[f]; i++)
         vkGetDeviceQueue(d->device, f, i, &d->queues[f][i]);
      VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = f};
      SGT_CHECK_VK(vkCreateCommandPool(d->device, &pi, NULL, &d->pools[f]));
   }
}

void sgt_device_destroy_on(struct sgt_device *d)
{
   for (uint32_t f = 0; f < 2; f++)
      vkDestroyCommandPool(d->device, d->pools[f], NULL);
   vkDestroyDevice(d->device, NULL);
}

/* ---- child processes ------------------------------------------------------------- */

bool sgt_find_number(const char *text, const char *key, uint64_t *value)
{
   size_t klen = strlen(key);
   bool found = false;
   for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
      /* A whole key: not the tail of a longer name ("doorbells" vs "x_doorbells"). */
      if (p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z')))
         continue;
      if (p[klen] != '=')
         continue;
      char *end;
      unsigned long long v = strtoull(p + klen + 1, &end, 10);
      if (end != p + klen + 1) {
         *value = v;
         found = true;
      }
   }
   return found;
}
