#include "sg_pushbuf.h"

#include <string.h>

#include "hw_packets.h"
#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_log.h"
#include "sg_queue.h"

VkResult sg_pb_block_create(struct sg_device *dev, const VkAllocationCallbacks *alloc,
                            uint32_t capacity, struct sg_pb_block **out)
{
   struct sg_pb_block *b = sg_zalloc(alloc, sizeof(*b), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!b) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_RING, "out of host memory for a pushbuffer block");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   struct hw_mem *mem = hw_gpu_memory(dev->gpu);
   if (hw_mem_alloc(mem, (uint64_t)capacity * 4, &b->va) != 0) {
      sg_free(alloc, b);
      SG_LOG(SG_LOG_ERROR, SG_AREA_RING, "out of GPU memory for a %u-byte pushbuffer block",
             capacity * 4);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   b->dwords = hw_mem_host(mem, b->va);
   b->capacity = capacity;
   *out = b;
   return VK_SUCCESS;
}

void sg_pb_block_destroy(struct sg_device *dev, const VkAllocationCallbacks *alloc,
                         struct sg_pb_block *block)
{
   hw_mem_free(hw_gpu_memory(dev->gpu), block->va);
   sg_free(alloc, block);
}

void sg_pb_block_list_destroy(struct sg_device *dev, const VkAllocationCallbacks *alloc,
                              struct sg_pb_block *list)
{
   while (list) {
      struct sg_pb_block *next = list->next;
      sg_pb_block_destroy(dev, alloc, list);
      list = next;
   }
}

void sg_gpu_use_clear(struct sg_gpu_use *u)
{
   for (uint32_t i = 0; i < HW_MAX_CHANNELS; i++)
      atomic_store_explicit(&u->value[i], 0, memory_order_relaxed);
}

void sg_gpu_use_copy(struct sg_gpu_use *dst, const struct sg_gpu_use *src)
{
   for (uint32_t i = 0; i < HW_MAX_CHANNELS; i++)
      atomic_store_explicit(&dst->value[i],
                            atomic_load_explicit(&src->value[i], memory_order_relaxed),
                            memory_order_relaxed);
}

bool sg_progress_reached(struct sg_device *dev, uint32_t channel, uint64_t value)
{
#ifdef SOFTGPU_MUTATION_EARLY_RECYCLE
   /* Test mutation: pushbuffer memory is recycled one release early. */
   value = value ? value - 1 : 0;
#endif
   /* A lost GPU executes nothing more: everything it held is free. */
   return value == 0 || sg_device_progress(dev, channel) >= value || hw_gpu_is_lost(dev->gpu);
}

bool sg_gpu_use_done(struct sg_device *dev, const struct sg_gpu_use *u)
{
   for (uint32_t i = 0; i < HW_MAX_CHANNELS; i++) {
      if (!sg_progress_reached(dev, i, atomic_load_explicit(&u->value[i], memory_order_relaxed)))
         return false;
   }
   return true;
}

void sg_gpu_use_wait(struct sg_device *dev, const struct sg_gpu_use *u)
{
   for (uint32_t i = 0; i < HW_MAX_CHANNELS; i++) {
      uint64_t value = atomic_load_explicit(&u->value[i], memory_order_relaxed);
      struct sg_queue *q = value ? sg_device_queue_of_channel(dev, i) : NULL;
      if (!q)
         continue;
      struct hw_wait_item item = {q->progress_va, value};
      hw_wait(dev->gpu, &item, 1, true, UINT64_MAX);
   }
}

/* Closes the current block: its length goes into the JUMP that entered it. */
static void close_block(struct sg_pb_writer *w)
{
   if (w->jump_length)
      *w->jump_length = w->used;
   else
      w->first_length = w->used;
}

uint32_t *sg_pb_writer_reserve(struct sg_pb_writer *w, uint32_t n, sg_pb_get_block_fn get,
                               void *owner, VkResult *result)
{
   /* Every block keeps room for the JUMP to the next one. */
   const uint32_t jump = 1 + HW_PKT_BRANCH_DWORDS;
   if (w->cur && w->used + n + jump <= w->cur->capacity)
      return w->cur->dwords + w->used;
   struct sg_pb_block *b;
   *result = get(owner, n + jump, &b);
   if (*result != VK_SUCCESS)
      return NULL;
   b->next = NULL;
   if (w->cur) {
      uint32_t *p = w->cur->dwords + w->used;
      p = hw_emit_branch(p, HW_OP_JUMP, b->va, 0);
      w->used = (uint32_t)(p - w->cur->dwords);
      close_block(w);
      w->jump_length = p - 1;
      w->cur->next = b;
   } else {
      w->first = b;
   }
   w->cur = b;
   w->used = 0;
   return b->dwords;
}

uint32_t sg_pb_writer_finish(struct sg_pb_writer *w)
{
   if (w->cur)
      close_block(w);
   return w->first_length;
}
