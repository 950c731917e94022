/*
 * VkQueue: the driver side of a channel. vkQueueSubmit writes, for each
 * batch, an acquire segment for the waits, one ring entry per command
 * buffer and a release segment for the signals, the last one also
 * releasing the queue's progress counter and the fence; then PUT, then one
 * doorbell for the whole call. A submission never waits for the GPU: when
 * the ring is full it chains through the link slot that ends the previous
 * submission (see HW_OP_LINK_SLOT in hw_packets.h).
 */
#include "sg_queue.h"

#include <string.h>

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_capture.h"
#include "sg_cmd_buffer.h"
#include "sg_device.h"
#include "sg_hang.h"
#include "sg_entrypoints.h"
#include "sg_fence.h"
#include "sg_log.h"
#include "sg_printf.h"
#include "sg_semaphore.h"
#include "sg_trace.h"

/* ---- creation -------------------------------------------------------------------- */

VkResult sg_queue_init(struct sg_queue *queue, struct sg_device *dev, uint32_t family,
                       uint32_t index, VkDeviceQueueCreateFlags flags, float priority)
{
   memset(queue, 0, sizeof(*queue));
   sg_object_init(&queue->base, VK_OBJECT_TYPE_QUEUE, dev, &dev->alloc);
   set_loader_magic_value(queue);
   queue->device = dev;
   queue->family = family;
   queue->index_in_family = index;
   queue->flags = flags;
   queue->priority = priority;
   queue->channel = sg_device_channel(dev, family, index);
   pthread_mutex_init(&queue->signal_lock, NULL);

   struct hw_mem *mem = hw_gpu_memory(dev->gpu);
   VkResult r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
   if (hw_mem_alloc(mem, SG_RING_ENTRIES * sizeof(struct hw_ring_entry), &queue->ring_va) != 0)
      goto fail_ring;
   if (hw_mem_alloc(mem, sizeof(struct hw_channel_control), &queue->control_va) != 0)
      goto fail_control;
   r = sg_sync_word_alloc(&dev->sync_words, &queue->progress_va, &queue->progress);
   if (r != VK_SUCCESS)
      goto fail_progress;
   sg_sync_word_name(&dev->sync_words, queue->progress_va, "the progress counter of queue",
                     (uint64_t)(uintptr_t)queue);   /* base is its first member */
   queue->ring = hw_mem_host(mem, queue->ring_va);
   queue->control = hw_mem_host(mem, queue->control_va);
   r = VK_ERROR_INITIALIZATION_FAILED;
   if (hw_channel_bind(dev->gpu, queue->channel, queue->ring_va, SG_RING_ENTRIES,
                       queue->control_va) != 0)
      goto fail_bind;
   return VK_SUCCESS;

fail_bind:
   sg_sync_word_free(&dev->sync_words, queue->progress_va);
fail_progress:
   hw_mem_free(mem, queue->control_va);
fail_control:
   hw_mem_free(mem, queue->ring_va);
fail_ring:
   SG_LOG(SG_LOG_ERROR, SG_AREA_RING, "cannot set up the channel of queue %u.%u", family, index);
   pthread_mutex_destroy(&queue->signal_lock);
   sg_object_finish(&queue->base);
   return r;
}

/* The queue's channel must be idle (vkDestroyDevice waits for it). */
void sg_queue_finish(struct sg_queue *queue)
{
   struct sg_device *dev = queue->device;
   while (queue->label_depth > 0)
      sg_queue_label_pop(queue);
   sg_free(queue->base.meta_alloc, queue->last_inserted_label);
   if (queue->stream.cur)
      sg_pb_block_destroy(dev, &dev->alloc, queue->stream.cur);
   sg_pb_block_list_destroy(dev, &dev->alloc, queue->stream.retired);
   sg_sync_word_free(&dev->sync_words, queue->progress_va);
   /* The ring and control page stay allocated: the channel stays bound to
    * them until the GPU is destroyed with the device. */
   pthread_mutex_destroy(&queue->signal_lock);
   sg_capture_finish(queue);
   sg_object_finish(&queue->base);
}

/* ---- labels --------------------------------------------------------------------------- */

static char *copy_label(struct sg_queue *queue, const char *name)
{
   char *copy = sg_strdup(queue->base.meta_alloc, name ? name : "",
                          VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   /* A label is a debugging aid: losing one to memory pressure must not
    * fail the application, and these commands return nothing. */
   if (!copy)
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "out of host memory: queue label \"%s\" not kept", name);
   return copy;
}

void sg_queue_label_push(struct sg_queue *queue, const char *name)
{
   if (queue->label_depth < SG_QUEUE_MAX_LABEL_DEPTH)
      queue->labels[queue->label_depth] = copy_label(queue, name);
   queue->label_depth++;
}

void sg_queue_label_pop(struct sg_queue *queue)
{
   if (queue->label_depth == 0) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "vkQueueEndDebugUtilsLabelEXT without a matching begin");
      return;
   }
   queue->label_depth--;
   if (queue->label_depth < SG_QUEUE_MAX_LABEL_DEPTH) {
      sg_free(queue->base.meta_alloc, queue->labels[queue->label_depth]);
      queue->labels[queue->label_depth] = NULL;
   }
}

void sg_queue_label_insert(struct sg_queue *queue, const char *name)
{
   char *copy = copy_label(queue, name);
   sg_free(queue->base.meta_alloc, queue->last_inserted_label);
   queue->last_inserted_label = copy;
}

/* ---- the submission stream -------------------------------------------------------- */

/* Contiguous room for n dwords of segments of submission `number`. */
static VkResult stream_reserve(struct sg_queue *q, uint32_t n, uint64_t number, uint32_t **host,
                               uint64_t *va)
{
   struct sg_submit_stream *s = &q->stream;
   struct sg_device *dev = q->device;
   if (!s->cur || s->used + n > s->cur->capacity) {
      struct sg_pb_block *next = s->retired;
      if (next && next->capacity >= n && sg_progress_reached(dev, q->channel, next->tag)) {
         s->retired = next->next;
         if (!s->retired)
            s->retired_tail = NULL;
      } else {
         uint32_t size = n > SG_STREAM_BLOCK_DWORDS ? n : SG_STREAM_BLOCK_DWORDS;
         VkResult r = sg_pb_block_create(dev, &dev->alloc, size, &next);
         if (r != VK_SUCCESS)
            return r;
      }
      if (s->cur) {
         /* Everything in the full block is older than this submission, whose
          * progress release comes after the GPU's last read of it. */
         s->cur->tag = number;
         s->cur->next = NULL;
         if (s->retired_tail)
            s->retired_tail->next = s->cur;
         else
            s->retired = s->cur;
         s->retired_tail = s->cur;
      }
      next->next = NULL;
      s->cur = next;
      s->used = 0;
   }
   *host = s->cur->dwords + s->used;
   *va = s->cur->va + (uint64_t)s->used * 4;
   return VK_SUCCESS;
}

/* ---- submission ----------------------------------------------------------------------- */

/* One batch of vkQueueSubmit or vkQueueSubmit2, read through one interface. */
struct batch {
   const VkSubmitInfo *v1;
   const VkTimelineSemaphoreSubmitInfo *timeline;   /* v1 only */
   const VkSubmitInfo2 *v2;
};

static uint32_t wait_count(const struct batch *b)
{
   return b->v1 ? b->v1->waitSemaphoreCount : b->v2->waitSemaphoreInfoCount;
}
static uint32_t signal_count(const struct batch *b)
{
   return b->v1 ? b->v1->signalSemaphoreCount : b->v2->signalSemaphoreInfoCount;
}
static uint32_t cmd_count(const struct batch *b)
{
   return b->v1 ? b->v1->commandBufferCount : b->v2->commandBufferInfoCount;
}
static struct sg_cmd_buffer *cmd_at(const struct batch *b, uint32_t i)
{
   return sg_cmd_buffer_from_handle(b->v1 ? b->v1->pCommandBuffers[i]
                                          : b->v2->pCommandBufferInfos[i].commandBuffer);
}

/* The semaphore and the 64-bit value of a wait (or signal) operation. For a
 * binary semaphore, a wait waits for the last signal submitted before it,
 * and a signal takes the next value. */
static struct sg_semaphore *sem_op(const struct batch *b, bool signal, uint32_t i, uint64_t *value)
{
   VkSemaphore handle;
   uint64_t given = 0;
   if (b->v1) {
      handle = signal ? b->v1->pSignalSemaphores[i] : b->v1->pWaitSemaphores[i];
      const uint64_t *values = !b->timeline ? NULL
                               : signal     ? b->timeline->pSignalSemaphoreValues
                                            : b->timeline->pWaitSemaphoreValues;
      uint32_t n = !b->timeline ? 0
                   : signal     ? b->timeline->signalSemaphoreValueCount
                                : b->timeline->waitSemaphoreValueCount;
      given = values && i < n ? values[i] : 0;
   } else {
      const VkSemaphoreSubmitInfo *s =
         signal ? &b->v2->pSignalSemaphoreInfos[i] : &b->v2->pWaitSemaphoreInfos[i];
      handle = s->semaphore;
      given = s->value;
   }
   struct sg_semaphore *sem = sg_semaphore_from_handle(handle);
   if (sem->timeline)
      *value = given;
   else
      *value = signal ? sg_semaphore_next_signal(sem) : sg_semaphore_wait_value(sem);
   return sem;
}

static bool is_last(uint32_t batch, uint32_t batch_count)
{
   return batch + 1 == batch_count;
}

/* Dwords of a batch's acquire segment and of a release segment. */
static uint32_t acquire_dwords(const struct batch *b)
{
   uint32_t n = wait_count(b);
   return n ? n * (1 + HW_PKT_SEM_DWORDS) + 1 : 0;
}

static uint32_t release_dwords(uint32_t signals, bool last)
{
   uint32_t n = signals + (last ? 2 : 0);   /* + progress and fence */
   return n * (1 + HW_PKT_SEM_DWORDS) + (last ? HW_LINK_SLOT_MAX_DWORDS : 0);
}

static uint32_t *emit_acquires(uint32_t *p, const struct batch *b)
{
   uint32_t n = wait_count(b);
   for (uint32_t i = 0; i < n; i++) {
      uint64_t value;
      struct sg_semaphore *sem = sem_op(b, false, i, &value);
      p = hw_emit_sem(p, HW_OP_SEM_ACQUIRE, 0, sem->va, value);
      SG_LOG(SG_LOG_DEBUG, SG_AREA_SYNC, "submission waits for semaphore 0x%llx (word 0x%llx) "
             ">= %llu", (unsigned long long)(uintptr_t)sem, (unsigned long long)sem->va,
             (unsigned long long)value);
   }
   /* What the waits make visible is visible to what follows. */
   return n ? hw_emit_simple(p, HW_OP_MEM_BARRIER) : p;
}

struct submit {
   struct sg_queue *queue;
   const struct batch *batches;
   uint32_t batch_count;
   struct sg_fence *fence;
   uint64_t number;          /* this submission's progress value */
   uint32_t *tail_slot;      /* the link slot that ends it */
};

/* Signals of a batch (b may be NULL). The last segment of a submission
 * first releases the queue's progress counter, so that pushbuffers can be
 * recycled as soon as a fence or semaphore shows the work done, then the
 * fence, and closes with the link slot. */
/* Records a signal for hang reports (sg_queue_pending_signal). */
static void log_signal(struct sg_queue *q, uint64_t va, uint64_t value, uint64_t number)
{
   SG_LOG(SG_LOG_DEBUG, SG_AREA_SYNC, "queue %u.%u: submission %llu signals word 0x%llx = %llu",
          q->family, q->index_in_family, (unsigned long long)number, (unsigned long long)va,
          (unsigned long long)value);
   pthread_mutex_lock(&q->signal_lock);
   q->signal_log[q->signal_next++ % SG_QUEUE_SIGNAL_LOG] =
      (struct sg_queue_signal){va, value, number};
   pthread_mutex_unlock(&q->signal_lock);
}

bool sg_queue_pending_signal(struct sg_queue *q, uint64_t va, uint64_t value, uint64_t *number)
{
   uint64_t done = atomic_load_explicit(q->progress, memory_order_acquire);
   bool found = false;
   pthread_mutex_lock(&q->signal_lock);
   uint32_t n = q->signal_next < SG_QUEUE_SIGNAL_LOG ? q->signal_next : SG_QUEUE_SIGNAL_LOG;
   for (uint32_t i = 0; i < n && !found; i++) {
      const struct sg_queue_signal *e = &q->signal_log[(q->signal_next - 1 - i) % SG_QUEUE_SIGNAL_LOG];
      if (e->va == va && e->value >= value && e->number > done) {
         found = true;
         *number = e->number;
      }
   }
   pthread_mutex_unlock(&q->signal_lock);
   return found;
}

static uint32_t *emit_releases(uint32_t *p, struct submit *s, const struct batch *b, bool last)
{
   const uint32_t flags = HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT;
   if (last)
      p = hw_emit_sem(p, HW_OP_SEM_RELEASE, flags, s->queue->progress_va, s->number);
   for (uint32_t i = 0; b && i < signal_count(b); i++) {
      uint64_t value;
      struct sg_semaphore *sem = sem_op(b, true, i, &value);
      p = hw_emit_sem(p, HW_OP_SEM_RELEASE, flags, sem->va, value);
      log_signal(s->queue, sem->va, value, s->number);
   }
   if (last && s->fence) {
      uint64_t target = atomic_load_explicit(&s->fence->target, memory_order_relaxed);
      p = hw_emit_sem(p, HW_OP_SEM_RELEASE, flags, s->fence->va, target);
      log_signal(s->queue, s->fence->va, target, s->number);
   }
   if (last) {
      p = hw_emit_link_slot(p);
      s->tail_slot = p - (1 + HW_PKT_LINK_DWORDS);
   }
   return p;
}

/* Records that a command buffer (and the secondaries it executes) is used
 * by this submission. */
static void mark_used(struct submit *s, struct sg_cmd_buffer *cmd)
{
   uint32_t ch = s->queue->channel;
   atomic_store_explicit(&cmd->use.value[ch], s->number, memory_order_relaxed);
   for (uint32_t i = 0; i < cmd->secondary_count; i++)
      atomic_store_explicit(&cmd->secondaries[i]->use.value[ch], s->number, memory_order_relaxed);
   sg_printf_submitted(s->queue->device, cmd);
}

static void put_entry(struct sg_queue *q, uint64_t va, uint32_t length)
{
   if (length == 0)
      return;
   q->ring[q->put & (SG_RING_ENTRIES - 1)] =
      (struct hw_ring_entry){.pushbuffer_va = va, .length = length};
   q->put++;
}

static bool has_release_segment(const struct submit *s, uint32_t i)
{
   return signal_count(&s->batches[i]) > 0 || is_last(i, s->batch_count);
}

/* Ring entries a submission takes when written straight into the ring. */
static uint32_t entries_needed(const struct submit *s)
{
   uint32_t n = s->batch_count == 0;
   for (uint32_t i = 0; i < s->batch_count; i++) {
      const struct batch *b = &s->batches[i];
      n += (wait_count(b) > 0) + cmd_count(b) + has_release_segment(s, i);
   }
   return n;
}

static uint32_t dwords_needed(const struct submit *s, bool chained)
{
   if (s->batch_count == 0)
      return release_dwords(0, true);
   uint32_t n = 0;
   for (uint32_t i = 0; i < s->batch_count; i++) {
      const struct batch *b = &s->batches[i];
      n += acquire_dwords(b) + release_dwords(signal_count(b), is_last(i, s->batch_count));
      if (chained)
         n += cmd_count(b) * (1 + HW_PKT_BRANCH_DWORDS);
   }
   return n;
}

/* Straight into the ring: segments at p (GPU address va), one entry each,
 * and one entry per command buffer. Returns the end of the segments. */
static uint32_t *write_direct(struct submit *s, uint32_t *p, uint64_t va)
{
   struct sg_queue *q = s->queue;
   uint32_t *base = p;
#define SEGMENT(emit)                                                           \
   do {                                                                         \
      uint32_t *start = p;                                                      \
      p = (emit);                                                               \
      put_entry(q, va + (uint64_t)(start - base) * 4, (uint32_t)(p - start));   \
   } while (0)
   if (s->batch_count == 0)
      SEGMENT(emit_releases(p, s, NULL, true));
   for (uint32_t i = 0; i < s->batch_count; i++) {
      const struct batch *b = &s->batches[i];
      SEGMENT(emit_acquires(p, b));
      for (uint32_t k = 0; k < cmd_count(b); k++) {
         struct sg_cmd_buffer *cmd = cmd_at(b, k);
         put_entry(q, cmd->entry_va, cmd->entry_length);
         mark_used(s, cmd);
      }
      if (has_release_segment(s, i))
         SEGMENT(emit_releases(p, s, b, is_last(i, s->batch_count)));
   }
#undef SEGMENT
   return p;
}

/* One pushbuffer holding everything, command buffers CALLed. */
static uint32_t *write_chained(struct submit *s, uint32_t *p)
{
   if (s->batch_count == 0)
      return emit_releases(p, s, NULL, true);
   for (uint32_t i = 0; i < s->batch_count; i++) {
      const struct batch *b = &s->batches[i];
      p = emit_acquires(p, b);
      for (uint32_t k = 0; k < cmd_count(b); k++) {
         struct sg_cmd_buffer *cmd = cmd_at(b, k);
         if (cmd->entry_length)
            p = hw_emit_branch(p, HW_OP_CALL, cmd->entry_va, cmd->entry_length);
         mark_used(s, cmd);
      }
      if (has_release_segment(s, i))
         p = emit_releases(p, s, b, is_last(i, s->batch_count));
   }
   return p;
}

/* The ring has no room: link the chain to the previous submission's link
 * slot. If the GPU has already closed it, it has drained the ring. */
static void publish_chain(struct sg_queue *q, uint32_t *prev_slot, uint64_t va, uint32_t length)
{
   uint32_t get = atomic_load_explicit(&q->control->get, memory_order_acquire);
   if (q->put - get < SG_RING_ENTRIES || !prev_slot) {
      put_entry(q, va, length);
      return;
   }
   prev_slot[3] = length;   /* written before the link, which releases it */
   uint64_t expected = HW_LINK_OPEN;
   if (atomic_compare_exchange_strong_explicit(hw_link_word(prev_slot), &expected, va,
                                               memory_order_acq_rel, memory_order_acquire))
      return;
   SG_LOG(SG_LOG_DEBUG, SG_AREA_RING, "channel %u: link slot already closed, ring drained",
          q->channel);
   put_entry(q, va, length);
}

static VkResult submit(struct sg_queue *q, const struct batch *batches, uint32_t batch_count,
                       struct sg_fence *fence)
{
   struct sg_device *dev = q->device;
   if (hw_gpu_is_lost(dev->gpu))
      return sg_device_lost_result(dev);
   struct submit s = {.queue = q, .batches = batches, .batch_count = batch_count,
                      .fence = fence, .number = q->submitted + 1};
   uint32_t get = atomic_load_explicit(&q->control->get, memory_order_acquire);
   bool chained = entries_needed(&s) > SG_RING_ENTRIES - (q->put - get);
   /* Everything is reserved before anything is assigned, so a failure
    * leaves semaphores and fences as they were. */
   uint32_t *p;
   uint64_t va;
   VkResult r = stream_reserve(q, dwords_needed(&s, chained), s.number, &p, &va);
   if (r != VK_SUCCESS)
      return r;
   uint32_t *prev_slot = q->tail_slot;
   uint32_t first_put = q->put;
   uint32_t *end = chained ? write_chained(&s, p) : write_direct(&s, p, va);
   if (chained)
      publish_chain(q, prev_slot, va, (uint32_t)(end - p));
   q->stream.used += (uint32_t)(end - p);
   q->tail_slot = s.tail_slot;
   q->submitted = s.number;
   SG_LOG(SG_LOG_DEBUG, SG_AREA_RING, "queue %u.%u: submission %llu (%u batches%s): PUT %u -> "
          "%u on channel %u, submission stream at 0x%llx (%u dwords)", q->family,
          q->index_in_family, (unsigned long long)s.number, batch_count,
          chained ? ", chained: the ring is full" : "", atomic_load_explicit(&q->control->put,
          memory_order_relaxed), q->put, q->channel, (unsigned long long)va,
          (uint32_t)(end - p));
   sg_capture_submission(q, first_put, va, chained ? (uint32_t)(end - p) : 0);
   atomic_store_explicit(&q->control->put, q->put, memory_order_release);
   hw_doorbell(dev->gpu, q->channel);
   return VK_SUCCESS;
}

#define SG_STACK_BATCHES 16u

/* The submission's span on the application thread's track: it starts
 * before any of its packets can run on the channel. */
static void trace_submit(struct sg_queue *q, const char *name, uint64_t t0, uint32_t batches)
{
   const struct sg_trace_arg args[] = {
      {"channel", q->channel}, {"submission", q->submitted}, {"batches", batches}};
   sg_trace_call_end(name, t0, args, 3);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_QueueSubmit(VkQueue queue, uint32_t submitCount,
                                              const VkSubmitInfo *pSubmits, VkFence fence)
{
   uint64_t t0 = sg_trace_call_begin();
   struct sg_queue *q = sg_queue_from_handle(queue);
   struct batch stack[SG_STACK_BATCHES], *batches = stack;
   if (submitCount > SG_STACK_BATCHES) {
      batches = sg_alloc(&q->device->alloc, submitCount * sizeof(*batches),
                         VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!batches)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   for (uint32_t i = 0; i < submitCount; i++) {
      batches[i] = (struct batch){.v1 = &pSubmits[i]};
      for (const VkBaseInStructure *e = pSubmits[i].pNext; e; e = e->pNext) {
         if (e->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
            batches[i].timeline = (const VkTimelineSemaphoreSubmitInfo *)e;
      }
   }
   VkResult r = submit(q, submitCount ? batches : NULL, submitCount, sg_fence_from_handle(fence));
   if (batches != stack)
      sg_free(&q->device->alloc, batches);
   sg_printf_poll(q->device);
   trace_submit(q, "vkQueueSubmit", t0, submitCount);
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_QueueSubmit2(VkQueue queue, uint32_t submitCount,
                                               const VkSubmitInfo2 *pSubmits, VkFence fence)
{
   uint64_t t0 = sg_trace_call_begin();
   struct sg_queue *q = sg_queue_from_handle(queue);
   struct batch stack[SG_STACK_BATCHES], *batches = stack;
   if (submitCount > SG_STACK_BATCHES) {
      batches = sg_alloc(&q->device->alloc, submitCount * sizeof(*batches),
                         VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!batches)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   for (uint32_t i = 0; i < submitCount; i++)
      batches[i] = (struct batch){.v2 = &pSubmits[i]};
   VkResult r = submit(q, submitCount ? batches : NULL, submitCount, sg_fence_from_handle(fence));
   if (batches != stack)
      sg_free(&q->device->alloc, batches);
   sg_printf_poll(q->device);
   trace_submit(q, "vkQueueSubmit2", t0, submitCount);
   return r;
}

VkResult sg_queue_wait_idle(struct sg_queue *q, uint64_t timeout_ns)
{
   struct hw_wait_item item = {q->progress_va, q->submitted};
   VkResult r = sg_wait_result(q->device, sg_hang_wait(q->device, &item, 1, true, timeout_ns,
                                                       "vkQueueWaitIdle/vkDeviceWaitIdle"));
   sg_printf_poll(q->device);
   /* An idle queue of a lost device reports the loss too, like the other
    * waits: the wait above is satisfied before it looks. */
   return r == VK_SUCCESS ? sg_device_check(q->device) : r;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_QueueWaitIdle(VkQueue queue)
{
   uint64_t t0 = sg_trace_call_begin();
   struct sg_queue *q = sg_queue_from_handle(queue);
   VkResult r = sg_queue_wait_idle(q, UINT64_MAX);
   const struct sg_trace_arg args[] = {{"channel", q->channel}};
   sg_trace_call_end("vkQueueWaitIdle", t0, args, 1);
   return r;
}
