#ifndef SG_QUEUE_H
#define SG_QUEUE_H

#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdatomic.h>

#include "hw_packets.h"
#include "sg_object.h"
#include "sg_pushbuf.h"

struct sg_device;

#define SG_QUEUE_MAX_LABEL_DEPTH 64
#define SG_QUEUE_SIGNAL_LOG 64u
/* Ring entries per channel; a full ring chains through link slots. */
#define SG_RING_ENTRIES 1024u
/* Submission segments are written into blocks of this many dwords. */
#define SG_STREAM_BLOCK_DWORDS 16384u

/* Where each submission's acquire and release segments are written. A
 * full block is tagged with the number of the submission that found it
 * full: everything in it is older, and the GPU reads a segment's link slot
 * after that segment's own progress release, so the block is reused only
 * once the progress counter reaches the newer number. */
struct sg_submit_stream {
   struct sg_pb_block *cur;
   uint32_t used;
   struct sg_pb_block *retired, *retired_tail;   /* oldest first, tagged */
};

struct sg_queue {
   struct sg_object base;
   struct sg_device *device;
   uint32_t family;
   uint32_t index_in_family;
   VkDeviceQueueCreateFlags flags;
   float priority;

   /* The channel this queue drives. Host access to a queue is externally
    * synchronized, so none of this needs a lock. */
   uint32_t channel;
   uint64_t ring_va, control_va;
   struct hw_ring_entry *ring;
   struct hw_channel_control *control;
   uint32_t put;                        /* our copy of PUT */
   struct sg_submit_stream stream;
   /* The queue's progress counter: the GPU releases each submission's
    * number after all its work; pushbuffer recycling and vkQueueWaitIdle
    * watch it. */
   uint64_t progress_va;
   _Atomic uint64_t *progress;
   uint64_t submitted;                  /* the last number submitted */
   /* The link slot that ends the last submission: a full ring chains here. */
   uint32_t *tail_slot;

   /* VK_EXT_debug_utils queue labels, innermost last. Labels nested deeper
    * than SG_QUEUE_MAX_LABEL_DEPTH are counted but not kept. */
   char *labels[SG_QUEUE_MAX_LABEL_DEPTH];
   uint32_t label_depth;
   char *last_inserted_label;

   /* The last SG_QUEUE_SIGNAL_LOG semaphore and fence signals submitted
    * (word, value, submission number), for hang reports, which read them
    * from other threads: under signal_lock. */
   pthread_mutex_t signal_lock;
   struct sg_queue_signal {
      uint64_t va, value, number;
   } signal_log[SG_QUEUE_SIGNAL_LOG];
   uint32_t signal_next;                /* total recorded; slot = next % size */

   /* SOFTGPU_CAPTURE (src/sg_capture.c): the file, once looked up. */
   bool capture_checked;
   FILE *capture;
};

SG_DEFINE_HANDLE_CASTS(sg_queue, VkQueue)

/* A signal of word va to at least value that the queue has submitted and
 * not yet executed: true, with its submission number. A signal older than
 * the log's SG_QUEUE_SIGNAL_LOG entries is not found. */
bool sg_queue_pending_signal(struct sg_queue *queue, uint64_t va, uint64_t value,
                             uint64_t *number);

VkResult sg_queue_init(struct sg_queue *queue, struct sg_device *device, uint32_t family,
                       uint32_t index, VkDeviceQueueCreateFlags flags, float priority);
void sg_queue_finish(struct sg_queue *queue);

/* Waits until everything submitted so far has completed. */
VkResult sg_queue_wait_idle(struct sg_queue *queue, uint64_t timeout_ns);

void sg_queue_label_push(struct sg_queue *queue, const char *name);
void sg_queue_label_pop(struct sg_queue *queue);
void sg_queue_label_insert(struct sg_queue *queue, const char *name);

#endif
