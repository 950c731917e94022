/* Transfer commands: copies, fills and inline updates of buffers. */
#include "hw_packets.h"
#include "sg_buffer.h"
#include "sg_cmd_buffer.h"
#include "sg_entrypoints.h"

static void emit_copy(struct sg_cmd_buffer *cmd, uint64_t src, uint64_t dst, uint64_t size)
{
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_COPY_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_copy(p, src, dst, size));
}

VKAPI_ATTR void VKAPI_CALL sg_CmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer srcBuffer,
                                            VkBuffer dstBuffer, uint32_t regionCount,
                                            const VkBufferCopy *pRegions)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   uint64_t src = sg_buffer_from_handle(srcBuffer)->va;
   uint64_t dst = sg_buffer_from_handle(dstBuffer)->va;
   for (uint32_t i = 0; i < regionCount; i++)
      emit_copy(cmd, src + pRegions[i].srcOffset, dst + pRegions[i].dstOffset, pRegions[i].size);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdCopyBuffer2(VkCommandBuffer commandBuffer,
                                             const VkCopyBufferInfo2 *pInfo)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   uint64_t src = sg_buffer_from_handle(pInfo->srcBuffer)->va;
   uint64_t dst = sg_buffer_from_handle(pInfo->dstBuffer)->va;
   for (uint32_t i = 0; i < pInfo->regionCount; i++) {
      const VkBufferCopy2 *r = &pInfo->pRegions[i];
      emit_copy(cmd, src + r->srcOffset, dst + r->dstOffset, r->size);
   }
}

VKAPI_ATTR void VKAPI_CALL sg_CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                                            VkDeviceSize dstOffset, VkDeviceSize size,
                                            uint32_t data)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   struct sg_buffer *buf = sg_buffer_from_handle(dstBuffer);
   /* "If VK_WHOLE_SIZE ... the remaining size is not a multiple of 4, the
    * nearest smaller multiple is used" (vkCmdFillBuffer). */
   if (size == VK_WHOLE_SIZE)
      size = (buf->size - dstOffset) & ~(VkDeviceSize)3;
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_FILL_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_fill(p, buf->va + dstOffset, size, data));
}

/* Inline data goes in pieces that fit a standard pushbuffer block. */
#define UPDATE_PIECE_BYTES 4096u

VKAPI_ATTR void VKAPI_CALL sg_CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                                              VkDeviceSize dstOffset, VkDeviceSize dataSize,
                                              const void *pData)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   uint64_t dst = sg_buffer_from_handle(dstBuffer)->va + dstOffset;
   const uint8_t *data = pData;
   for (VkDeviceSize done = 0; done < dataSize; done += UPDATE_PIECE_BYTES) {
      uint32_t n = (uint32_t)(dataSize - done < UPDATE_PIECE_BYTES ? dataSize - done
                                                                    : UPDATE_PIECE_BYTES);
      uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_VA_DWORDS + n / 4);
      if (!p)
         return;
      sg_cmd_commit(cmd, hw_emit_inline_write(p, dst + done, data + done, n));
   }
}
