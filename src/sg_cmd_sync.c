/*
 * Synchronization and bookkeeping commands: barriers, events, timestamps,
 * query resets and copies, secondary command buffers, debug labels.
 *
 * The GPU runs copies asynchronously to the packet stream (see hw_gpu.h),
 * so an execution dependency on earlier work is a WAIT_FOR_IDLE (or the
 * WFI flag of a MEM_BARRIER), and a memory dependency a MEM_BARRIER.
 */
#include "hw_packets.h"
#include "sg_alloc.h"
#include "sg_buffer.h"
#include "sg_cmd_buffer.h"
#include "sg_cmd_pool.h"
#include "sg_entrypoints.h"
#include "sg_event.h"
#include "sg_log.h"
#include "sg_query_pool.h"

static void emit_simple(struct sg_cmd_buffer *cmd, enum hw_opcode op)
{
   uint32_t *p = sg_cmd_reserve(cmd, 1);
   if (p)
      sg_cmd_commit(cmd, hw_emit_simple(p, op));
}

static void emit_sem(struct sg_cmd_buffer *cmd, enum hw_opcode op, uint32_t flags, uint64_t va,
                     uint64_t value)
{
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_SEM_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_sem(p, op, flags, va, value));
}

/* Nothing before the barrier has to finish when its first scope is only
 * the top of the pipe (or nothing). */
static bool needs_wait(VkPipelineStageFlags2 src_stages)
{
   return (src_stages & ~(VkPipelineStageFlags2)VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT) != 0;
}

/* One packet: a MEM_BARRIER that waits for idle first when it must. */
static void emit_barrier(struct sg_cmd_buffer *cmd, VkPipelineStageFlags2 src_stages)
{
   uint32_t *p = sg_cmd_reserve(cmd, 1);
   if (p)
      sg_cmd_commit(cmd, hw_emit_mem_barrier(p, needs_wait(src_stages) ? HW_PKT_FLAG_WFI : 0));
}

static VkPipelineStageFlags2 dependency_src_stages(const VkDependencyInfo *d)
{
   VkPipelineStageFlags2 s = 0;
   for (uint32_t i = 0; i < d->memoryBarrierCount; i++)
      s |= d->pMemoryBarriers[i].srcStageMask;
   for (uint32_t i = 0; i < d->bufferMemoryBarrierCount; i++)
      s |= d->pBufferMemoryBarriers[i].srcStageMask;
   for (uint32_t i = 0; i < d->imageMemoryBarrierCount; i++)
      s |= d->pImageMemoryBarriers[i].srcStageMask;
   return s;
}

VKAPI_ATTR void VKAPI_CALL sg_CmdPipelineBarrier(
   VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
   VkPipelineStageFlags dstStageMask, VkDependencyFlags dependencyFlags,
   uint32_t memoryBarrierCount, const VkMemoryBarrier *pMemoryBarriers,
   uint32_t bufferMemoryBarrierCount, const VkBufferMemoryBarrier *pBufferMemoryBarriers,
   uint32_t imageMemoryBarrierCount, const VkImageMemoryBarrier *pImageMemoryBarriers)
{
   (void)dstStageMask, (void)dependencyFlags, (void)memoryBarrierCount, (void)pMemoryBarriers;
   (void)bufferMemoryBarrierCount, (void)pBufferMemoryBarriers;
   (void)imageMemoryBarrierCount, (void)pImageMemoryBarriers;
   emit_barrier(sg_cmd_buffer_from_handle(commandBuffer), srcStageMask);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdPipelineBarrier2(VkCommandBuffer commandBuffer,
                                                  const VkDependencyInfo *pDependencyInfo)
{
   /* With synchronization2 the dependencies are those of the barriers; a
    * dependency info without barriers orders nothing. */
   VkPipelineStageFlags2 src = dependency_src_stages(pDependencyInfo);
   if (pDependencyInfo->memoryBarrierCount || pDependencyInfo->bufferMemoryBarrierCount ||
       pDependencyInfo->imageMemoryBarrierCount)
      emit_barrier(sg_cmd_buffer_from_handle(commandBuffer), src);
}

/* ---- events --------------------------------------------------------------- */

static void set_event(struct sg_cmd_buffer *cmd, VkEvent event, uint64_t value)
{
   /* The event is set (or reset) once the work before it is done. */
   emit_sem(cmd, HW_OP_SEM_RELEASE, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT,
            sg_event_from_handle(event)->va, value);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                                          VkPipelineStageFlags stageMask)
{
   (void)stageMask;
   set_event(sg_cmd_buffer_from_handle(commandBuffer), event, 1);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                           const VkDependencyInfo *pDependencyInfo)
{
   (void)pDependencyInfo;
   set_event(sg_cmd_buffer_from_handle(commandBuffer), event, 1);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                                            VkPipelineStageFlags stageMask)
{
   (void)stageMask;
   set_event(sg_cmd_buffer_from_handle(commandBuffer), event, 0);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                             VkPipelineStageFlags2 stageMask)
{
   (void)stageMask;
   set_event(sg_cmd_buffer_from_handle(commandBuffer), event, 0);
}

static void wait_events(struct sg_cmd_buffer *cmd, uint32_t count, const VkEvent *events)
{
   for (uint32_t i = 0; i < count; i++)
      emit_sem(cmd, HW_OP_SEM_ACQUIRE, 0, sg_event_from_handle(events[i])->va, 1);
   emit_simple(cmd, HW_OP_MEM_BARRIER);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdWaitEvents(
   VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent *pEvents,
   VkPipelineStageFlags srcStageMask, VkPipelineStageFlags dstStageMask,
   uint32_t memoryBarrierCount, const VkMemoryBarrier *pMemoryBarriers,
   uint32_t bufferMemoryBarrierCount, const VkBufferMemoryBarrier *pBufferMemoryBarriers,
   uint32_t imageMemoryBarrierCount, const VkImageMemoryBarrier *pImageMemoryBarriers)
{
   (void)srcStageMask, (void)dstStageMask, (void)memoryBarrierCount, (void)pMemoryBarriers;
   (void)bufferMemoryBarrierCount, (void)pBufferMemoryBarriers;
   (void)imageMemoryBarrierCount, (void)pImageMemoryBarriers;
   wait_events(sg_cmd_buffer_from_handle(commandBuffer), eventCount, pEvents);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount,
                                             const VkEvent *pEvents,
                                             const VkDependencyInfo *pDependencyInfos)
{
   (void)pDependencyInfos;
   wait_events(sg_cmd_buffer_from_handle(commandBuffer), eventCount, pEvents);
}

/* ---- timestamps and queries --------------------------------------------------- */

static void write_timestamp(struct sg_cmd_buffer *cmd, VkPipelineStageFlags2 stage,
                            VkQueryPool queryPool, uint32_t query)
{
   struct sg_query_pool *pool = sg_query_pool_from_handle(queryPool);
   uint64_t slot = pool->va + (uint64_t)query * sizeof(struct hw_query_slot);
   uint32_t *p = sg_cmd_reserve(cmd, 2 + HW_PKT_VA_DWORDS + HW_PKT_SEM_DWORDS);
   if (!p)
      return;
   /* The timestamp is taken once all earlier work has passed `stage`:
    * i.e. is done, unless the stage is the top of the pipe. */
   p = hw_emit_timestamp(p, needs_wait(stage) ? HW_PKT_FLAG_WFI : 0, slot);
   p = hw_emit_sem(p, HW_OP_SEM_RELEASE, HW_PKT_FLAG_INTERRUPT, slot + 8, 1);
   sg_cmd_commit(cmd, p);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdWriteTimestamp(VkCommandBuffer commandBuffer,
                                                VkPipelineStageFlagBits pipelineStage,
                                                VkQueryPool queryPool, uint32_t query)
{
   write_timestamp(sg_cmd_buffer_from_handle(commandBuffer), pipelineStage, queryPool, query);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdWriteTimestamp2(VkCommandBuffer commandBuffer,
                                                 VkPipelineStageFlags2 stage,
                                                 VkQueryPool queryPool, uint32_t query)
{
   write_timestamp(sg_cmd_buffer_from_handle(commandBuffer), stage, queryPool, query);
}

/* Resets are inline writes: they take effect in packet order, so a later
 * timestamp into the same query never races with them. */
#define RESET_PIECE_QUERIES 256u

VKAPI_ATTR void VKAPI_CALL sg_CmdResetQueryPool(VkCommandBuffer commandBuffer,
                                                VkQueryPool queryPool, uint32_t firstQuery,
                                                uint32_t queryCount)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   struct sg_query_pool *pool = sg_query_pool_from_handle(queryPool);
   static const struct hw_query_slot zeros[RESET_PIECE_QUERIES];
   for (uint32_t done = 0; done < queryCount; done += RESET_PIECE_QUERIES) {
      uint32_t n = queryCount - done < RESET_PIECE_QUERIES ? queryCount - done : RESET_PIECE_QUERIES;
      uint32_t bytes = n * (uint32_t)sizeof(struct hw_query_slot);
      uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_VA_DWORDS + bytes / 4);
      if (!p)
         return;
      uint64_t va = pool->va + (uint64_t)(firstQuery + done) * sizeof(struct hw_query_slot);
      sg_cmd_commit(cmd, hw_emit_inline_write(p, va, zeros, bytes));
   }
}

VKAPI_ATTR void VKAPI_CALL sg_CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer,
                                                      VkQueryPool queryPool, uint32_t firstQuery,
                                                      uint32_t queryCount, VkBuffer dstBuffer,
                                                      VkDeviceSize dstOffset, VkDeviceSize stride,
                                                      VkQueryResultFlags flags)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   struct sg_query_pool *pool = sg_query_pool_from_handle(queryPool);
   struct hw_pkt_query_copy q = {
      .src = pool->va + (uint64_t)firstQuery * sizeof(struct hw_query_slot),
      .dst = sg_buffer_from_handle(dstBuffer)->va + dstOffset,
      .stride = stride,
      .count = queryCount,
      .flags = flags & (HW_QUERY_64 | HW_QUERY_WAIT | HW_QUERY_WITH_AVAILABILITY |
                        HW_QUERY_PARTIAL),
   };
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_QUERY_COPY_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_query_copy(p, &q));
}

/* ---- secondary command buffers ------------------------------------------------- */

static bool remember_secondary(struct sg_cmd_buffer *cmd, struct sg_cmd_buffer *secondary)
{
   if (cmd->secondary_count == cmd->secondary_capacity) {
      uint32_t cap = cmd->secondary_capacity ? cmd->secondary_capacity * 2 : 8;
      const VkAllocationCallbacks *alloc = &cmd->pool->alloc;
      struct sg_cmd_buffer **list = sg_alloc(alloc, cap * sizeof(*list),
                                             VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!list)
         return false;
      for (uint32_t i = 0; i < cmd->secondary_count; i++)
         list[i] = cmd->secondaries[i];
      sg_free(alloc, cmd->secondaries);
      cmd->secondaries = list;
      cmd->secondary_capacity = cap;
   }
   cmd->secondaries[cmd->secondary_count++] = secondary;
   return true;
}

VKAPI_ATTR void VKAPI_CALL sg_CmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t count,
                                                 const VkCommandBuffer *pCommandBuffers)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   for (uint32_t i = 0; i < count; i++) {
      struct sg_cmd_buffer *sec = sg_cmd_buffer_from_handle(pCommandBuffers[i]);
      if (!remember_secondary(cmd, sec)) {
         cmd->record_error = VK_ERROR_OUT_OF_HOST_MEMORY;
         return;
      }
      if (sec->entry_length == 0)
         continue;
      uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_BRANCH_DWORDS);
      if (p)
         sg_cmd_commit(cmd, hw_emit_branch(p, HW_OP_CALL, sec->entry_va, sec->entry_length));
   }
}

/* ---- debug labels ------------------------------------------------------------- */

static void emit_label(struct sg_cmd_buffer *cmd, enum hw_opcode op, const char *text)
{
   uint32_t *p = sg_cmd_reserve(cmd, HW_LABEL_MAX_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_label(p, op, text));
}

VKAPI_ATTR void VKAPI_CALL sg_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                         const VkDebugUtilsLabelEXT *pLabelInfo)
{
   emit_label(sg_cmd_buffer_from_handle(commandBuffer), HW_OP_LABEL_PUSH, pLabelInfo->pLabelName);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdEndDebugUtilsLabelEXT(VkCommandBuffer commandBuffer)
{
   emit_simple(sg_cmd_buffer_from_handle(commandBuffer), HW_OP_LABEL_POP);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdInsertDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                          const VkDebugUtilsLabelEXT *pLabelInfo)
{
   emit_label(sg_cmd_buffer_from_handle(commandBuffer), HW_OP_LABEL_INSERT,
              pLabelInfo->pLabelName);
}
