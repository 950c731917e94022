/*
 * VkCommandPool: owns the pushbuffer blocks its command buffers record
 * into. A command buffer's blocks come back to the pool when it is reset
 * or freed, but are reused only once the GPU has released every submission
 * that executed them.
 */
#include "sg_cmd_pool.h"

#include "sg_alloc.h"
#include "sg_cmd_buffer.h"
#include "sg_device.h"
#include "sg_log.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateCommandPool(VkDevice device,
                                                    const VkCommandPoolCreateInfo *pCreateInfo,
                                                    const VkAllocationCallbacks *pAllocator,
                                                    VkCommandPool *pCommandPool)
{
   struct sg_device *dev = sg_device_from_handle(device);
   if (pCreateInfo->flags & VK_COMMAND_POOL_CREATE_PROTECTED_BIT) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateCommandPool: softgpu has no protected memory");
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_cmd_pool *pool = sg_zalloc(alloc, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateCommandPool: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&pool->base, VK_OBJECT_TYPE_COMMAND_POOL, dev, &dev->alloc);
   pool->alloc = *alloc;
   pool->flags = pCreateInfo->flags;
   pool->queue_family = pCreateInfo->queueFamilyIndex;
   *pCommandPool = sg_cmd_pool_to_handle(pool);
   return VK_SUCCESS;
}

static void destroy_block(struct sg_cmd_pool *pool, struct sg_pb_block *b)
{
   sg_pb_block_destroy(pool->base.device, &pool->alloc, b);
}

/* Standard blocks go to the free list, others are freed. */
static void recycle(struct sg_cmd_pool *pool, struct sg_pb_block *list)
{
   while (list) {
      struct sg_pb_block *next = list->next;
      if (list->capacity == SG_CMD_BLOCK_DWORDS) {
         list->next = pool->free_blocks;
         pool->free_blocks = list;
      } else {
         destroy_block(pool, list);
      }
      list = next;
   }
}

/* Moves the retired blocks the GPU is done with to the free list. */
static void harvest(struct sg_cmd_pool *pool)
{
   for (struct sg_retired_blocks **pr = &pool->retired; *pr;) {
      struct sg_retired_blocks *r = *pr;
      if (!sg_gpu_use_done(pool->base.device, &r->use)) {
         pr = &r->next;
         continue;
      }
      *pr = r->next;
      recycle(pool, r->blocks);
      sg_free(&pool->alloc, r);
   }
}

void sg_cmd_pool_retire(struct sg_cmd_pool *pool, struct sg_pb_block *blocks,
                        const struct sg_gpu_use *use)
{
   if (!blocks)
      return;
   struct sg_retired_blocks *r = NULL;
   if (!sg_gpu_use_done(pool->base.device, use))
      r = sg_alloc(&pool->alloc, sizeof(*r), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!r) {
      /* Done already; or no memory to remember the blocks by, and then the
       * GPU must finish with them first (this is not the submit path). */
      if (!sg_gpu_use_done(pool->base.device, use)) {
         SG_LOG(SG_LOG_WARN, SG_AREA_RING, "out of host memory: waiting for the GPU to finish "
                "with a command buffer's pushbuffer");
         sg_gpu_use_wait(pool->base.device, use);
      }
      recycle(pool, blocks);
      return;
   }
   r->blocks = blocks;
   sg_gpu_use_copy(&r->use, use);
   r->next = pool->retired;
   pool->retired = r;
}

VkResult sg_cmd_pool_get_block(void *owner, uint32_t min_dwords, struct sg_pb_block **out)
{
   struct sg_cmd_pool *pool = owner;
   bool standard = min_dwords <= SG_CMD_BLOCK_DWORDS;
   if (standard && !pool->free_blocks)
      harvest(pool);
   if (standard && pool->free_blocks) {
      *out = pool->free_blocks;
      pool->free_blocks = (*out)->next;
      return VK_SUCCESS;
   }
   return sg_pb_block_create(pool->base.device, &pool->alloc,
                             standard ? SG_CMD_BLOCK_DWORDS : min_dwords, out);
}

static void free_unused(struct sg_cmd_pool *pool)
{
   harvest(pool);
   sg_pb_block_list_destroy(pool->base.device, &pool->alloc, pool->free_blocks);
   pool->free_blocks = NULL;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                                                 const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_cmd_pool *pool = sg_cmd_pool_from_handle(commandPool);
   if (!pool)
      return;
   while (pool->buffers)
      sg_cmd_buffer_destroy(pool->buffers);
   /* "All VkCommandBuffer objects allocated from commandPool must not be in
    * the pending state" (vkDestroyCommandPool): the blocks are free. */
   for (struct sg_retired_blocks *r = pool->retired; r;) {
      struct sg_retired_blocks *next = r->next;
      sg_pb_block_list_destroy(dev, &pool->alloc, r->blocks);
      sg_free(&pool->alloc, r);
      r = next;
   }
   sg_pb_block_list_destroy(dev, &pool->alloc, pool->free_blocks);
   sg_object_finish(&pool->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), pool);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_ResetCommandPool(VkDevice device, VkCommandPool commandPool,
                                                   VkCommandPoolResetFlags flags)
{
   (void)device;
   struct sg_cmd_pool *pool = sg_cmd_pool_from_handle(commandPool);
   for (struct sg_cmd_buffer *cmd = pool->buffers; cmd; cmd = cmd->next_in_pool)
      sg_cmd_buffer_reset(cmd);
   if (flags & VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT)
      free_unused(pool);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_TrimCommandPool(VkDevice device, VkCommandPool commandPool,
                                              VkCommandPoolTrimFlags flags)
{
   (void)device;
   (void)flags;
   free_unused(sg_cmd_pool_from_handle(commandPool));
}
