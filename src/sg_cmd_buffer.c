/*
 * VkCommandBuffer: recorded directly as packets into pushbuffer blocks from
 * the pool; a ring entry (or, for secondaries, a CALL) executes it.
 */
#include "sg_cmd_buffer.h"

#include <string.h>

#include "hw_packets.h"
#include "sg_alloc.h"
#include "sg_cmd_pool.h"
#include "sg_device.h"
#include "sg_log.h"
#include "sg_printf.h"

static void link_into_pool(struct sg_cmd_pool *pool, struct sg_cmd_buffer *cmd)
{
   cmd->next_in_pool = pool->buffers;
   if (pool->buffers)
      pool->buffers->prev_in_pool = cmd;
   pool->buffers = cmd;
}

static void unlink_from_pool(struct sg_cmd_pool *pool, struct sg_cmd_buffer *cmd)
{
   if (cmd->prev_in_pool)
      cmd->prev_in_pool->next_in_pool = cmd->next_in_pool;
   else
      pool->buffers = cmd->next_in_pool;
   if (cmd->next_in_pool)
      cmd->next_in_pool->prev_in_pool = cmd->prev_in_pool;
}

void sg_cmd_buffer_reset(struct sg_cmd_buffer *cmd)
{
   sg_cmd_printf_reset(cmd);
   sg_cmd_pool_retire(cmd->pool, cmd->pb.first, &cmd->use);
   memset(&cmd->pb, 0, sizeof(cmd->pb));
   sg_gpu_use_clear(&cmd->use);
   cmd->entry_va = 0;
   cmd->entry_length = 0;
   cmd->record_error = VK_SUCCESS;
   cmd->secondary_count = 0;
   sg_cmd_compute_reset(cmd);
   cmd->state = SG_CMD_INITIAL;
}

void sg_cmd_buffer_destroy(struct sg_cmd_buffer *cmd)
{
   struct sg_cmd_pool *pool = cmd->pool;
   sg_cmd_buffer_reset(cmd);
   sg_cmd_printf_release(cmd);
   for (uint32_t i = 0; i < HW_ROOT_SETS; i++)
      sg_free(&pool->alloc, cmd->compute.push_sets[i]);
   unlink_from_pool(pool, cmd);
   sg_free(&pool->alloc, cmd->secondaries);
   sg_object_finish(&cmd->base);
   sg_free(&pool->alloc, cmd);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_AllocateCommandBuffers(VkDevice device,
                                                         const VkCommandBufferAllocateInfo *pInfo,
                                                         VkCommandBuffer *pCommandBuffers)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_cmd_pool *pool = sg_cmd_pool_from_handle(pInfo->commandPool);
   for (uint32_t i = 0; i < pInfo->commandBufferCount; i++) {
      struct sg_cmd_buffer *cmd =
         sg_zalloc(&pool->alloc, sizeof(*cmd), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!cmd) {
         /* "... the implementation must destroy all successfully created
          * command buffer objects ... and set all entries to NULL". */
         for (uint32_t k = 0; k < i; k++)
            sg_cmd_buffer_destroy(sg_cmd_buffer_from_handle(pCommandBuffers[k]));
         memset(pCommandBuffers, 0, pInfo->commandBufferCount * sizeof(*pCommandBuffers));
         SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkAllocateCommandBuffers: out of host memory");
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      sg_object_init(&cmd->base, VK_OBJECT_TYPE_COMMAND_BUFFER, dev, &dev->alloc);
      set_loader_magic_value(cmd);
      cmd->pool = pool;
      cmd->level = pInfo->level;
      cmd->state = SG_CMD_INITIAL;
      link_into_pool(pool, cmd);
      pCommandBuffers[i] = sg_cmd_buffer_to_handle(cmd);
   }
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_FreeCommandBuffers(VkDevice device, VkCommandPool commandPool,
                                                 uint32_t count, const VkCommandBuffer *pBuffers)
{
   (void)device;
   (void)commandPool;
   for (uint32_t i = 0; i < count; i++) {
      if (pBuffers[i])
         sg_cmd_buffer_destroy(sg_cmd_buffer_from_handle(pBuffers[i]));
   }
}

VKAPI_ATTR VkResult VKAPI_CALL sg_BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                     const VkCommandBufferBeginInfo *pBeginInfo)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   /* Beginning a recorded command buffer resets it implicitly. */
   if (cmd->state != SG_CMD_INITIAL)
      sg_cmd_buffer_reset(cmd);
   cmd->usage = pBeginInfo->flags;
   sg_cmd_compute_reset(cmd);
   cmd->state = SG_CMD_RECORDING;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   cmd->entry_length = sg_pb_writer_finish(&cmd->pb);
   cmd->entry_va = cmd->pb.first ? cmd->pb.first->va : 0;
   cmd->state = cmd->record_error == VK_SUCCESS ? SG_CMD_EXECUTABLE : SG_CMD_INVALID;
   if (cmd->record_error != VK_SUCCESS)
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkEndCommandBuffer: recording failed earlier: out of "
             "%s memory", cmd->record_error == VK_ERROR_OUT_OF_HOST_MEMORY ? "host" : "device");
   return cmd->record_error;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_ResetCommandBuffer(VkCommandBuffer commandBuffer,
                                                     VkCommandBufferResetFlags flags)
{
   (void)flags;
   sg_cmd_buffer_reset(sg_cmd_buffer_from_handle(commandBuffer));
   return VK_SUCCESS;
}

uint32_t *sg_cmd_reserve(struct sg_cmd_buffer *cmd, uint32_t n)
{
   if (cmd->record_error != VK_SUCCESS)
      return NULL;
   VkResult r = VK_SUCCESS;
   uint32_t *p = sg_pb_writer_reserve(&cmd->pb, n, sg_cmd_pool_get_block, cmd->pool, &r);
   if (!p)
      cmd->record_error = r;
   return p;
}

void *sg_cmd_data(struct sg_cmd_buffer *cmd, uint32_t size, uint64_t *va)
{
   uint32_t n = (size + 3) / 4;
   /* up to 3 dwords of padding, then the NOP header, then the data */
   uint32_t *p = sg_cmd_reserve(cmd, n + 4);
   if (!p)
      return NULL;
   uint64_t at = sg_cmd_va(cmd, p);
   /* the header goes where the next dword is 16-byte aligned */
   uint32_t pad = (uint32_t)(((12 - (at & 15)) & 15) / 4);
   if (pad)
      p[0] = HW_PKT_HEADER(HW_OP_NOP, 0, pad - 1);
   p[pad] = HW_PKT_HEADER(HW_OP_NOP, 0, n);
   uint32_t *data = p + pad + 1;
   *va = at + (uint64_t)(pad + 1) * 4;
   sg_cmd_commit(cmd, data + n);
   return data;
}
