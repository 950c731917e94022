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

uint64_t sg_hang_report_ns_from_env(void)
{
   const char *v = getenv("SOFTGPU_HANG_REPORT_MS");
   if (!v || !*v)
      return (uint64_t)DEFAULT_HANG_REPORT_MS * 1000000u;
   char *end;
   unsigned long long ms = strtoull(v, &end, 10);
   if (*end || ms > UINT64_MAX / 1000000u) {
      SG_LOG(SG_LOG_WARN, SG_AREA_SYNC, "SOFTGPU_HANG_REPORT_MS=\"%s\" is not a number of "
             "milliseconds: no hang reports", v);
      return 0;
   }
   return ms * 1000000u;
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

size_t sg_hang_describe_device(struct sg_device *dev, char *buf, size_t size)
{
   size_t used = sg_appendf(buf, size, 0, "queues:\n");
   used = put_queues(dev, buf, size, used);
   if (used < size) {
      hw_gpu_snapshot(dev->gpu, buf + used, size - used);
      used += strlen(buf + used);
   }
   return used;
}

void sg_hang_describe(struct sg_device *dev, const struct hw_wait_item *items, uint32_t count,
                      bool all, const char *call, uint64_t waited_ns, char *buf, size_t size)
{
   size_t used = sg_appendf(buf, size, 0, "host thread %ld has waited %llu ms in %s for %s of:\n",
                     (long)syscall(SYS_gettid), (unsigned long long)(waited_ns / 1000000u),
                     call, all || count == 1 ? "all" : "any");
   for (uint32_t i = 0; i < count; i++) {
      used = sg_appendf(buf, size, used, "  ");
      used = put_word(dev, buf, size, used, items[i].va, items[i].value);
      used = sg_appendf(buf, size, used, "\n");
   }
   if (used < size)
      sg_hang_describe_device(dev, buf + used, size - used);
}

static void report(struct sg_device *dev, const struct hw_wait_item *items, uint32_t count,
                   bool all, const char *call, uint64_t waited_ns)
{
   char *buf = malloc(REPORT_BYTES);
   if (!buf) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_SYNC, "hang report: out of host memory");
      return;
   }
   sg_hang_describe(dev, items, count, all, call, waited_ns, buf, REPORT_BYTES);
   sg_log_report(SG_AREA_SYNC, "hang report (SOFTGPU_HANG_REPORT_MS): %s", buf);
   free(buf);
}

enum hw_wait_result sg_hang_wait(struct sg_device *dev, const struct hw_wait_item *items,
                                 uint32_t count, bool all, uint64_t timeout_ns, const char *call)
{
   uint64_t limit = dev->hang_report_ns;
   if (!limit || timeout_ns <= limit || atomic_load_explicit(&dev->hang_reported,
                                                              memory_order_relaxed))
      return hw_wait(dev->gpu, items, count, all, timeout_ns);
   enum hw_wait_result r = hw_wait(dev->gpu, items, count, all, limit);
   if (r != HW_WAIT_TIMEOUT)
      return r;
   /* Once per device: a stuck application would otherwise repeat it for
    * every wait. */
   if (!atomic_exchange(&dev->hang_reported, true))
      report(dev, items, count, all, call, limit);
   return hw_wait(dev->gpu, items, count, all,
                  timeout_ns == UINT64_MAX ? UINT64_MAX : timeout_ns - limit);
}
