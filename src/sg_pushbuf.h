/*
 * Pushbuffer memory: blocks of GPU memory that command buffers record into
 * and queues write their submission segments into, and the rule for
 * reusing them: a block is recycled only after the release that covers its
 * last use has landed, i.e. once every queue that executed it has a
 * progress counter at or past the value recorded for it.
 */
#ifndef SG_PUSHBUF_H
#define SG_PUSHBUF_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "hw_gpu.h"

struct sg_device;

struct sg_pb_block {
   uint64_t va;
   uint32_t *dwords;            /* host view of the block */
   uint32_t capacity;           /* in dwords */
   uint64_t tag;                /* a queue stream's: reusable once progress >= tag */
   struct sg_pb_block *next;
};

VkResult sg_pb_block_create(struct sg_device *dev, const VkAllocationCallbacks *alloc,
                            uint32_t capacity, struct sg_pb_block **out);
void sg_pb_block_destroy(struct sg_device *dev, const VkAllocationCallbacks *alloc,
                         struct sg_pb_block *block);
void sg_pb_block_list_destroy(struct sg_device *dev, const VkAllocationCallbacks *alloc,
                              struct sg_pb_block *list);

/* Where a piece of pushbuffer memory was last executed: per channel, the
 * queue progress value that covers it (0: never). */
struct sg_gpu_use {
   _Atomic uint64_t value[HW_MAX_CHANNELS];
};

/* True once the progress counter of a channel has reached value. */
bool sg_progress_reached(struct sg_device *dev, uint32_t channel, uint64_t value);

void sg_gpu_use_clear(struct sg_gpu_use *u);
void sg_gpu_use_copy(struct sg_gpu_use *dst, const struct sg_gpu_use *src);
/* True once every recorded use has completed (or the device is lost, when
 * nothing will execute anymore). */
bool sg_gpu_use_done(struct sg_device *dev, const struct sg_gpu_use *u);
/* Blocks until every recorded use has completed (or the device is lost). */
void sg_gpu_use_wait(struct sg_device *dev, const struct sg_gpu_use *u);

/* ---- Recording: a chain of blocks linked by JUMP packets ---------------------- */

struct sg_pb_writer {
   struct sg_pb_block *first, *cur;
   uint32_t used;               /* dwords used in cur */
   uint32_t first_length;       /* dwords of the first block, once closed */
   uint32_t *jump_length;       /* length field of the JUMP into cur, to patch */
};

/* A block source for the writer: the command pool. */
typedef VkResult (*sg_pb_get_block_fn)(void *owner, uint32_t min_dwords,
                                       struct sg_pb_block **out);

/* Room for n dwords at the end of the current block, chaining a new block
 * with a JUMP when needed. NULL (with *result set) on failure. */
uint32_t *sg_pb_writer_reserve(struct sg_pb_writer *w, uint32_t n, sg_pb_get_block_fn get,
                               void *owner, VkResult *result);
/* Marks the dwords up to end as written. */
static inline void sg_pb_writer_commit(struct sg_pb_writer *w, uint32_t *end)
{
   w->used = (uint32_t)(end - w->cur->dwords);
}
/* Closes the chain: patches the last JUMP; returns the first block's length. */
uint32_t sg_pb_writer_finish(struct sg_pb_writer *w);

#endif
