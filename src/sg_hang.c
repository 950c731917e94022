#include "sg_hang.h"
#include "sg_str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sg_device.h"
#include "sg_log.h"
#include "sg_queue.h"

#define REPORT_BYTES 16384u   /* what one log line holds (util/sg_log.c) */

/* A wait this long without progress is a hang far more often than not, and
 * one report on stderr is cheap next to hanging silently. */
#define DEFAULT_HANG_REPORT_MS 10000u

/* Waits this long are rare in a healthy application (a frame, a
 * dispatch, a copy take milliseconds): one line says which object it was. */
#define DEFAULT_SLOW_WAIT_MS 1000u

static uint64_t env_ms(const char *name, uint64_t fallback_ms)
{
   const char *v = getenv(name);
   if (!v || !*v)
      return fallback_ms * 1000000u;
   char *end;
   unsigned long long ms = strtoull(v, &end, 10);
   if (*end || ms > UINT64_MAX / 1000000u) {
      SG_LOG(SG_LOG_WARN, SG_AREA_SYNC, "%s=\"%s\" is not a number of milliseconds: off",
             name, v);
      return 0;
   }
   return ms * 1000000u;
}

void sg_hang_device_init(struct sg_device *dev)
{
   dev->hang_report_ns = env_ms("SOFTGPU_HANG_REPORT_MS", DEFAULT_HANG_REPORT_MS);
   dev->slow_wait_ns = env_ms("SOFTGPU_SLOW_WAIT_MS", DEFAULT_SLOW_WAIT_MS);
   pthread_mutex_init(&dev->waiters_lock, NULL);
}

void sg_hang_device_finish(struct sg_device *dev)
{
   pthread_mutex_destroy(&dev->waiters_lock);
}

/* `kind 0x<handle> "name"`: the handle as softgpu knows it (a layer may
 * show the application another one), the debug-utils name if it has one. */
static size_t put_object(char *buf, size_t size, size_t used, const char *kind, uint64_t handle,
                         const char *name)
{
   used = sg_appendf(buf, size, used, "%s 0x%llx", kind, (unsigned long long)handle);
   return name[0] ? sg_appendf(buf, size, used, " \"%s\"", name) : used;
}

/* The edge of the wait-for graph: which queue's submitted work will
 * signal va to value, or that none will. */
static size_t put_signaler(struct sg_device *dev, char *buf, size_t size, size_t used,
                           uint64_t va, uint64_t value)
{
   for (uint32_t i = 0; i < dev->queue_count; i++) {
      struct sg_queue *q = &dev->queues[i];
      uint64_t number;
      if (q->submitted && sg_queue_pending_signal(q, va, value, &number)) {
         char name[128];
         sg_object_copy_name(&q->base, name, sizeof(name));
         used = put_object(buf, size, sg_appendf(buf, size, used, ", signaled by "), "queue",
                           (uint64_t)(uintptr_t)q, name);
         return sg_appendf(buf, size, used, " submission %llu", (unsigned long long)number);
      }
   }
   return sg_appendf(buf, size, used, ", which no submitted work signals that far: only the "
                     "host can");
}

/* `fence 0x55d0c3a0 "name" (word 0x1008 >= 1, now 0)` and who signals it */
static size_t put_word(struct sg_device *dev, char *buf, size_t size, size_t used, uint64_t va,
                       uint64_t value)
{
   const char *kind;
   uint64_t handle;
   uint64_t now = atomic_load_explicit(hw_sem_word(hw_gpu_memory(dev->gpu), va),
                                       memory_order_acquire);
   char name[128];
   if (sg_sync_word_owner(&dev->sync_words, va, &kind, &handle, name, sizeof(name)))
      used = put_object(buf, size, used, kind, handle, name);
   else
      used = sg_appendf(buf, size, used, "GPU memory");
   used = sg_appendf(buf, size, used, " (word 0x%llx >= %llu, now %llu)", (unsigned long long)va,
                     (unsigned long long)value, (unsigned long long)now);
   return now >= value ? used : put_signaler(dev, buf, size, used, va, value);
}

static size_t put_queues(struct sg_device *dev, char *buf, size_t size, size_t used)
{
   uint32_t unused = 0;
   for (uint32_t i = 0; i < dev->queue_count; i++) {
      struct sg_queue *q = &dev->queues[i];
      uint64_t done = atomic_load_explicit(q->progress, memory_order_acquire);
      if (q->submitted == 0) {
         unused++;
         continue;
      }
      char name[128];
      sg_object_copy_name(&q->base, name, sizeof(name));   /* queues live as long as dev */
      used = put_object(buf, size, sg_appendf(buf, size, used, "  "), "queue",
                        (uint64_t)(uintptr_t)q, name);
      used = sg_appendf(buf, size, used, " (family %u, index %u, channel %u): %llu submissions, %llu "
                 "complete", q->family, q->index_in_family, q->channel,
                 (unsigned long long)q->submitted, (unsigned long long)done);
      /* The channel's status in its control page (GPU memory); it may be
       * stale by the time it is printed. */
      if (atomic_load_explicit(&q->control->parked, memory_order_acquire)) {
         uint64_t va = atomic_load_explicit(&q->control->park_va, memory_order_relaxed);
         uint64_t value = atomic_load_explicit(&q->control->park_value, memory_order_relaxed);
         used = sg_appendf(buf, size, used, "; waits for ");
         used = put_word(dev, buf, size, used, va, value);
      } else if (done < q->submitted) {
         used = sg_appendf(buf, size, used, "; running");
      } else {
         used = sg_appendf(buf, size, used, "; idle");
      }
      used = sg_appendf(buf, size, used, "\n");
   }
   if (unused)
      used = sg_appendf(buf, size, used, "  (%u queues that were never submitted to)\n", unused);
   return used;
}

/* A thread's name, from the kernel (any thread of the process). */
static void thread_name(long tid, char *name, size_t size)
{
   char path[64];
   snprintf(path, sizeof(path), "/proc/self/task/%ld/comm", tid);
   name[0] = '\0';
   FILE *f = fopen(path, "re");
   if (!f)
      return;
   if (fgets(name, (int)size, f))
      name[strcspn(name, "\n")] = '\0';
   fclose(f);
}

/* `host thread 1234 "name" has waited 12 ms in vkWaitForFences for all of:`
 * and one line per word, with its signaler: one node of the wait-for graph. */
static size_t put_waiter(struct sg_device *dev, const struct sg_hang_waiter *w, uint64_t now_ns,
                         const char *indent, char *buf, size_t size, size_t used)
{
   char name[32];
   thread_name(w->tid, name, sizeof(name));
   used = sg_appendf(buf, size, used, "%shost thread %ld \"%s\" has waited %llu ms in %s for %s "
                     "of:\n", indent, w->tid, name,
                     (unsigned long long)((now_ns - w->since_ns) / 1000000u), w->call,
                     w->all || w->count == 1 ? "all" : "any");
   for (uint32_t i = 0; i < w->count; i++) {
      used = sg_appendf(buf, size, used, "%s  ", indent);
      used = put_word(dev, buf, size, used, w->items[i].va, w->items[i].value);
      used = sg_appendf(buf, size, used, "\n");
   }
   return used;
}

static size_t put_waiters(struct sg_device *dev, const struct sg_hang_waiter *self, char *buf,
                          size_t size, size_t used)
{
   uint64_t now = hw_now_ns();
   bool any = false;
   pthread_mutex_lock(&dev->waiters_lock);
   for (const struct sg_hang_waiter *w = dev->waiters; w; w = w->next) {
      if (w == self)
         continue;
      if (!any)
         used = sg_appendf(buf, size, used, "%shost threads waiting:\n", self ? "other " : "");
      any = true;
      used = put_waiter(dev, w, now, "  ", buf, size, used);
   }
   pthread_mutex_unlock(&dev->waiters_lock);
   return any ? used : sg_appendf(buf, size, used, "no %shost thread waits on the device\n",
                                  self ? "other " : "");
}

size_t sg_hang_describe_device(struct sg_device *dev, const struct sg_hang_waiter *self,
                               char *buf, size_t size)
{
   size_t used = put_waiters(dev, self, buf, size, 0);
   used = sg_appendf(buf, size, used, "queues:\n");
   used = put_queues(dev, buf, size, used);
   if (used < size) {
      hw_gpu_snapshot(dev->gpu, buf + used, size - used);
      used += strlen(buf + used);
   }
   return used;
}

void sg_hang_describe(struct sg_device *dev, const struct sg_hang_waiter *w, uint64_t now_ns,
                      char *buf, size_t size)
{
   size_t used = put_waiter(dev, w, now_ns, "", buf, size, 0);
   if (used < size)
      sg_hang_describe_device(dev, w, buf + used, size - used);
}

static void report(struct sg_device *dev, const struct sg_hang_waiter *w)
{
   char *buf = malloc(REPORT_BYTES);
   if (!buf) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_SYNC, "hang report: out of host memory");
      return;
   }
   sg_hang_describe(dev, w, hw_now_ns(), buf, REPORT_BYTES);
   sg_log_report(SG_AREA_SYNC, "hang report (SOFTGPU_HANG_REPORT_MS): %s", buf);
   free(buf);
}

/* The wait itself: past the report limit, one report, then the rest. */
static enum hw_wait_result wait_reporting(struct sg_device *dev, const struct sg_hang_waiter *w,
                                          uint64_t timeout_ns)
{
   uint64_t limit = dev->hang_report_ns;
   if (!limit || timeout_ns <= limit || atomic_load_explicit(&dev->hang_reported,
                                                              memory_order_relaxed))
      return hw_wait(dev->gpu, w->items, w->count, w->all, timeout_ns);
   enum hw_wait_result r = hw_wait(dev->gpu, w->items, w->count, w->all, limit);
   if (r != HW_WAIT_TIMEOUT)
      return r;
   /* Once per device: a stuck application would otherwise repeat it for
    * every wait. */
   if (!atomic_exchange(&dev->hang_reported, true))
      report(dev, w);
   return hw_wait(dev->gpu, w->items, w->count, w->all,
                  timeout_ns == UINT64_MAX ? UINT64_MAX : timeout_ns - limit);
}

static const char *result_name(enum hw_wait_result r)
{
   return r == HW_WAIT_SATISFIED ? "satisfied" : r == HW_WAIT_TIMEOUT ? "timed out" : "device lost";
}

/* SOFTGPU_SLOW_WAIT_MS: a warning naming the call and its first word. */
static void warn_slow(struct sg_device *dev, const struct sg_hang_waiter *w, uint64_t waited_ns,
                      enum hw_wait_result r)
{
   uint32_t suppressed;
   if (!sg_log_enabled(SG_LOG_WARN, SG_AREA_SYNC) ||
       !sg_log_ratelimit_pass(&dev->slow_wait_log, hw_now_ns(), &suppressed))
      return;
   char what[512];
   put_word(dev, what, sizeof(what), 0, w->items[0].va, w->items[0].value);
   SG_LOG(SG_LOG_WARN, SG_AREA_SYNC, "%s blocked host thread %ld for %llu ms (%s) on %s%s "
          "(SOFTGPU_SLOW_WAIT_MS=%llu)%s", w->call, w->tid,
          (unsigned long long)(waited_ns / 1000000u), result_name(r), what,
          w->count > 1 ? " and more" : "", (unsigned long long)(dev->slow_wait_ns / 1000000u),
          sg_log_suppressed_note(suppressed));
}

static long current_tid(void)
{
   static _Thread_local long tid;
   if (!tid)
      tid = (long)syscall(SYS_gettid);
   return tid;
}

enum hw_wait_result sg_hang_wait(struct sg_device *dev, const struct hw_wait_item *items,
                                 uint32_t count, bool all, uint64_t timeout_ns, const char *call)
{
   /* A poll never blocks: nothing to list or to time. */
   if (timeout_ns == 0 || count == 0)
      return hw_wait(dev->gpu, items, count, all, timeout_ns);
   struct sg_hang_waiter w = {.tid = current_tid(), .call = call, .items = items,
                              .count = count, .all = all, .since_ns = hw_now_ns()};
   pthread_mutex_lock(&dev->waiters_lock);
   w.next = dev->waiters;
   dev->waiters = &w;
   pthread_mutex_unlock(&dev->waiters_lock);

   enum hw_wait_result r = wait_reporting(dev, &w, timeout_ns);

   pthread_mutex_lock(&dev->waiters_lock);
   struct sg_hang_waiter **link = &dev->waiters;
   while (*link != &w)
      link = &(*link)->next;
   *link = w.next;
   pthread_mutex_unlock(&dev->waiters_lock);

   uint64_t waited = hw_now_ns() - w.since_ns;
   SG_LOG(SG_LOG_DEBUG, SG_AREA_SYNC, "%s: waited %llu us for %s of %u words (the first 0x%llx "
          ">= %llu): %s", call, (unsigned long long)(waited / 1000u), all ? "all" : "any", count,
          (unsigned long long)items[0].va, (unsigned long long)items[0].value,
          result_name(r));
   if (dev->slow_wait_ns && waited > dev->slow_wait_ns)
      warn_slow(dev, &w, waited, r);
   return r;
}
