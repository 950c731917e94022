/*
 * Compute commands: binding state goes into a host shadow of the root
 * table (compiler/sc_compiler.h describes its layout); each dispatch
 * snapshots it into the command buffer if it changed, writes a launch
 * descriptor next to it and emits a LAUNCH packet.
 */
#include <string.h>

#include "hw_packets.h"
#include "sg_alloc.h"
#include "sg_buffer.h"
#include "sg_cmd_buffer.h"
#include "sg_cmd_pool.h"
#include "sg_descriptor_set.h"
#include "sg_descriptor_update_template.h"
#include "sg_entrypoints.h"
#include "sg_log.h"
#include "sg_pipeline.h"
#include "sg_pipeline_layout.h"
#include "sg_printf.h"

void sg_cmd_compute_reset(struct sg_cmd_buffer *cmd)
{
   struct sg_compute_state *s = &cmd->compute;
   s->pipeline = NULL;
   memset(s->root, 0, sizeof(s->root));
   s->root_va = 0;
   s->push_dirty = 0;
}

static void root_changed(struct sg_cmd_buffer *cmd)
{
   cmd->compute.root_va = 0;
}

VKAPI_ATTR void VKAPI_CALL sg_CmdBindPipeline(VkCommandBuffer commandBuffer,
                                              VkPipelineBindPoint bindPoint, VkPipeline pipeline)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   if (bindPoint != VK_PIPELINE_BIND_POINT_COMPUTE) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCmdBindPipeline: softgpu has compute pipelines only");
      return;
   }
   cmd->compute.pipeline = sg_pipeline_from_handle(pipeline);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdBindDescriptorSets(VkCommandBuffer commandBuffer,
                                                    VkPipelineBindPoint bindPoint,
                                                    VkPipelineLayout layout, uint32_t firstSet,
                                                    uint32_t setCount, const VkDescriptorSet *pSets,
                                                    uint32_t dynamicOffsetCount,
                                                    const uint32_t *pDynamicOffsets)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   const struct sg_pipeline_layout *pl = sg_pipeline_layout_from_handle(layout);
   (void)bindPoint;
   uint8_t *root = cmd->compute.root;
   uint32_t next_dynamic = 0;
   for (uint32_t i = 0; i < setCount && firstSet + i < SC_MAX_SETS; i++) {
      uint32_t s = firstSet + i;
      const struct sg_descriptor_set *set = sg_descriptor_set_from_handle(pSets[i]);
      uint64_t va = set ? set->va : 0;
      memcpy(root + SC_ROOT_SETS_OFFSET + 8 * s, &va, 8);
      /* "... dynamic offsets ... in order of set number, then binding number,
       * then array element": exactly the layout's numbering. */
      const struct sg_layout_set *ls = &pl->sets[s];
      for (uint32_t k = 0; k < ls->dynamic_count && next_dynamic < dynamicOffsetCount; k++) {
         uint32_t slot = ls->dynamic_base + k;
         if (slot < SC_MAX_DYNAMIC)
            memcpy(root + SC_ROOT_DYNAMIC_OFFSET + 4 * slot, &pDynamicOffsets[next_dynamic], 4);
         next_dynamic++;
      }
   }
   root_changed(cmd);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                                               VkShaderStageFlags stages, uint32_t offset,
                                               uint32_t size, const void *pValues)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   (void)layout;
   (void)stages;
   if (offset >= SC_ROOT_PUSH_BYTES)
      return;
   if (size > SC_ROOT_PUSH_BYTES - offset)
      size = SC_ROOT_PUSH_BYTES - offset;
   memcpy(cmd->compute.root + SC_ROOT_PUSH_OFFSET + offset, pValues, size);
   root_changed(cmd);
}

/* The host copy of push descriptor set `set`, sized for layout's set. */
static uint8_t *push_set(struct sg_cmd_buffer *cmd, const struct sg_pipeline_layout *layout,
                         uint32_t set)
{
   struct sg_compute_state *s = &cmd->compute;
   uint32_t size = layout->sets[set].size;
   if (s->push_size[set] < size || !s->push_sets[set]) {
      uint8_t *p = sg_zalloc(&cmd->pool->alloc, size ? size : 16, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!p) {
         cmd->record_error = VK_ERROR_OUT_OF_HOST_MEMORY;
         return NULL;
      }
      if (s->push_sets[set])
         memcpy(p, s->push_sets[set], s->push_size[set]);
      sg_free(&cmd->pool->alloc, s->push_sets[set]);
      s->push_sets[set] = p;
      s->push_size[set] = size ? size : 16;
   }
   s->push_dirty |= 1u << set;
   return s->push_sets[set];
}

/* A layout view for descriptor writes into a push set. */
static struct sg_descriptor_set_layout layout_view(const struct sg_layout_set *ls)
{
   return (struct sg_descriptor_set_layout){.binding_count = ls->binding_count,
                                            .bindings = ls->bindings, .size = ls->size};
}

VKAPI_ATTR void VKAPI_CALL sg_CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer,
                                                      VkPipelineBindPoint bindPoint,
                                                      VkPipelineLayout layout, uint32_t set,
                                                      uint32_t writeCount,
                                                      const VkWriteDescriptorSet *pWrites)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   const struct sg_pipeline_layout *pl = sg_pipeline_layout_from_handle(layout);
   (void)bindPoint;
   if (set >= SC_MAX_SETS)
      return;
   uint8_t *host = push_set(cmd, pl, set);
   if (!host)
      return;
   struct sg_descriptor_set_layout view = layout_view(&pl->sets[set]);
   for (uint32_t i = 0; i < writeCount; i++)
      sg_descriptor_write(host, &view, &pWrites[i]);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                                                  VkDescriptorUpdateTemplate tmpl,
                                                                  VkPipelineLayout layout,
                                                                  uint32_t set, const void *pData)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   const struct sg_pipeline_layout *pl = sg_pipeline_layout_from_handle(layout);
   if (set >= SC_MAX_SETS)
      return;
   uint8_t *host = push_set(cmd, pl, set);
   if (!host)
      return;
   struct sg_descriptor_set_layout view = layout_view(&pl->sets[set]);
   sg_template_apply(sg_descriptor_update_template_from_handle(tmpl), &view, host, pData);
}

/* Snapshots changed push descriptor sets and the root table; false if
 * the command cannot be recorded. */
static bool flush_state(struct sg_cmd_buffer *cmd)
{
   struct sg_compute_state *s = &cmd->compute;
   for (uint32_t set = 0; set < SC_MAX_SETS; set++) {
      if (!(s->push_dirty & (1u << set)))
         continue;
      uint64_t va;
      void *data = sg_cmd_data(cmd, s->push_size[set], &va);
      if (!data)
         return false;
      memcpy(data, s->push_sets[set], s->push_size[set]);
      memcpy(s->root + SC_ROOT_SETS_OFFSET + 8 * set, &va, 8);
      s->root_va = 0;
   }
   s->push_dirty = 0;
   if (s->pipeline->printf_count) {
      uint64_t va;
      uint32_t base;
      if (!sg_cmd_printf_prepare(cmd, s->pipeline, &va, &base))
         return false;
      if (memcmp(s->root + SC_ROOT_PRINTF_OFFSET, &va, 8) != 0 ||
          memcmp(s->root + SC_ROOT_PRINTF_OFFSET + 8, &base, 4) != 0) {
         memcpy(s->root + SC_ROOT_PRINTF_OFFSET, &va, 8);
         memcpy(s->root + SC_ROOT_PRINTF_OFFSET + 8, &base, 4);
         s->root_va = 0;
      }
   }
   if (!s->root_va) {
      void *data = sg_cmd_data(cmd, SC_ROOT_BYTES, &s->root_va);
      if (!data)
         return false;
      memcpy(data, s->root, SC_ROOT_BYTES);
   }
   return true;
}

/* Writes the launch descriptor; returns its VA, 0 on failure. */
static uint64_t launch_descriptor(struct sg_cmd_buffer *cmd, uint32_t base[3], uint32_t grid[3])
{
   const struct sg_pipeline *pl = cmd->compute.pipeline;
   if (!pl) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "dispatch without a compute pipeline bound: dropped");
      return 0;
   }
   if (!flush_state(cmd))
      return 0;
   uint64_t va;
   struct hw_launch_desc *d = sg_cmd_data(cmd, sizeof(*d), &va);
   if (!d)
      return 0;
   *d = (struct hw_launch_desc){
      .program_va = pl->program_va, .program_id = pl->program_id,
      .grid = {grid[0], grid[1], grid[2]}, .base = {base[0], base[1], base[2]},
      .size = {pl->local_size[0], pl->local_size[1], pl->local_size[2]},
      .shared_bytes = pl->shared_bytes, .private_bytes = pl->private_bytes,
      .register_count = pl->register_count, .flags = pl->launch_flags,
      .root_va = cmd->compute.root_va};
   return va;
}

VKAPI_ATTR void VKAPI_CALL sg_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseX,
                                              uint32_t baseY, uint32_t baseZ, uint32_t countX,
                                              uint32_t countY, uint32_t countZ)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   /* An empty grid does nothing: no packet at all. */
   if (!countX || !countY || !countZ)
      return;
   uint32_t base[3] = {baseX, baseY, baseZ}, grid[3] = {countX, countY, countZ};
   uint64_t desc = launch_descriptor(cmd, base, grid);
   if (!desc)
      return;
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_LAUNCH_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_launch(p, desc));
}

VKAPI_ATTR void VKAPI_CALL sg_CmdDispatch(VkCommandBuffer commandBuffer, uint32_t countX,
                                          uint32_t countY, uint32_t countZ)
{
   sg_CmdDispatchBase(commandBuffer, 0, 0, 0, countX, countY, countZ);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                  VkDeviceSize offset)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   uint32_t base[3] = {0, 0, 0}, grid[3] = {0, 0, 0};   /* the grid comes from memory */
   uint64_t desc = launch_descriptor(cmd, base, grid);
   if (!desc)
      return;
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_LAUNCH_INDIRECT_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_launch_indirect(p, desc, sg_buffer_from_handle(buffer)->va + offset));
}
