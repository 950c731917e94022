/*
 * Compute commands: binding state goes into a host shadow of the root
 * table (hw/include/hw_root.h defines its layout). A dispatch is one
 * LAUNCH_EMBEDDED packet: its launch descriptor, then a snapshot of the root
 * table if that changed since the last one. An indirect dispatch writes
 * both into the command buffer and points a LAUNCH_INDIRECT at them.
 */
#include <string.h>

#include "hw_packets.h"
#include "hw_root.h"
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
   s->root_snapshot_bytes = 0;
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
   for (uint32_t i = 0; i < setCount && firstSet + i < HW_ROOT_SETS; i++) {
      uint32_t s = firstSet + i;
      const struct sg_descriptor_set *set = sg_descriptor_set_from_handle(pSets[i]);
      uint64_t va = set ? set->va : 0;
      memcpy(root + HW_ROOT_SETS_OFFSET + 8 * s, &va, 8);
      /* "... dynamic offsets ... in order of set number, then binding number,
       * then array element": exactly the layout's numbering. */
      const struct sg_layout_set *ls = &pl->sets[s];
      for (uint32_t k = 0; k < ls->dynamic_count && next_dynamic < dynamicOffsetCount; k++) {
         uint32_t slot = ls->dynamic_base + k;
         if (slot < HW_ROOT_DYNAMIC_SLOTS)
            memcpy(root + HW_ROOT_DYNAMIC_OFFSET + 4 * slot, &pDynamicOffsets[next_dynamic], 4);
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
   if (offset >= HW_ROOT_PUSH_BYTES)
      return;
   if (size > HW_ROOT_PUSH_BYTES - offset)
      size = HW_ROOT_PUSH_BYTES - offset;
   memcpy(cmd->compute.root + HW_ROOT_PUSH_OFFSET + offset, pValues, size);
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
   if (set >= HW_ROOT_SETS)
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
   if (set >= HW_ROOT_SETS)
      return;
   uint8_t *host = push_set(cmd, pl, set);
   if (!host)
      return;
   struct sg_descriptor_set_layout view = layout_view(&pl->sets[set]);
   sg_template_apply(sg_descriptor_update_template_from_handle(tmpl), &view, host, pData);
}

/* Snapshots changed push descriptor sets and points the root table at
 * the printf buffer; false if the command cannot be recorded. The root
 * table itself is snapshotted by the caller, if it changed (root_va 0). */
static bool flush_state(struct sg_cmd_buffer *cmd)
{
   struct sg_compute_state *s = &cmd->compute;
   for (uint32_t set = 0; set < HW_ROOT_SETS; set++) {
      if (!(s->push_dirty & (1u << set)))
         continue;
      uint64_t va;
      void *data = sg_cmd_data(cmd, s->push_size[set], &va);
      if (!data)
         return false;
      memcpy(data, s->push_sets[set], s->push_size[set]);
      memcpy(s->root + HW_ROOT_SETS_OFFSET + 8 * set, &va, 8);
      s->root_va = 0;
   }
   s->push_dirty = 0;
   if (s->pipeline->printf_count) {
      uint64_t va;
      uint32_t base;
      if (!sg_cmd_printf_prepare(cmd, s->pipeline, &va, &base))
         return false;
      if (memcmp(s->root + HW_ROOT_PRINTF_OFFSET, &va, 8) != 0 ||
          memcmp(s->root + HW_ROOT_PRINTF_BASE_OFFSET, &base, 4) != 0) {
         memcpy(s->root + HW_ROOT_PRINTF_OFFSET, &va, 8);
         memcpy(s->root + HW_ROOT_PRINTF_BASE_OFFSET, &base, 4);
         s->root_va = 0;
      }
   }
   return true;
}

/* Everything a launch needs but its descriptor and root table; false if
 * the dispatch is dropped. A snapshot of the root table taken for a
 * pipeline that reads less of it than the bound one is too short. */
static bool prepare_launch(struct sg_cmd_buffer *cmd)
{
   struct sg_compute_state *s = &cmd->compute;
   if (!s->pipeline) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "dispatch without a compute pipeline bound: dropped");
      return false;
   }
   if (s->root_snapshot_bytes < s->pipeline->root_bytes)
      s->root_va = 0;
   return flush_state(cmd);
}

/* The launch descriptor of the bound pipeline and the current root table. */
static struct hw_launch_desc launch_descriptor(const struct sg_cmd_buffer *cmd,
                                               const uint32_t base[3], const uint32_t grid[3])
{
   const struct sg_pipeline *pl = cmd->compute.pipeline;
   return (struct hw_launch_desc){
      .program_va = pl->program_va, .program_id = pl->program_id,
      .grid = {grid[0], grid[1], grid[2]}, .base = {base[0], base[1], base[2]},
      .size = {pl->local_size[0], pl->local_size[1], pl->local_size[2]},
      .shared_bytes = pl->shared_bytes, .private_bytes = pl->private_bytes,
      .register_count = pl->register_count, .flags = pl->launch_flags,
      .root_va = cmd->compute.root_va};
}

/* Dwords from the end of a LAUNCH_EMBEDDED's descriptor (its header at
 * header_va) to the next HW_ROOT_ALIGN boundary, where a root table goes
 * (the alignment sg_cmd_data gives). */
static uint32_t root_padding(uint64_t header_va)
{
   uint64_t end = header_va + 4ull * (1 + HW_LAUNCH_DESC_DWORDS);
   return (uint32_t)(((HW_ROOT_ALIGN - (end & (HW_ROOT_ALIGN - 1))) & (HW_ROOT_ALIGN - 1)) / 4);
}

VKAPI_ATTR void VKAPI_CALL sg_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseX,
                                              uint32_t baseY, uint32_t baseZ, uint32_t countX,
                                              uint32_t countY, uint32_t countZ)
{
   struct sg_cmd_buffer *cmd = sg_cmd_buffer_from_handle(commandBuffer);
   struct sg_compute_state *s = &cmd->compute;
   /* An empty grid does nothing: no packet at all. */
   if (!countX || !countY || !countZ || !prepare_launch(cmd))
      return;
   /* One packet: the descriptor, and the root table when it changed (up
    * to 3 dwords of padding, then the part the pipeline reads). */
   const uint32_t root_dwords = s->pipeline->root_bytes / 4;
   uint32_t room = 1 + HW_LAUNCH_DESC_DWORDS + (s->root_va ? 0 : 3 + root_dwords);
   uint32_t *p = sg_cmd_reserve(cmd, room);
   if (!p)
      return;
   uint32_t data = 0;
   if (!s->root_va) {
      uint64_t va = sg_cmd_va(cmd, p);
      uint32_t pad = root_padding(va);
      s->root_va = va + 4ull * (1 + HW_LAUNCH_DESC_DWORDS + pad);
      s->root_snapshot_bytes = 4 * root_dwords;
      data = pad + root_dwords;
   }
   uint32_t base[3] = {baseX, baseY, baseZ}, grid[3] = {countX, countY, countZ};
   struct hw_launch_desc d = launch_descriptor(cmd, base, grid);
   uint32_t *end = hw_emit_launch_embedded(p, &d, data);
   if (data) {
      memset(end, 0, 4 * (data - root_dwords));
      end += data - root_dwords;
      memcpy(end, s->root, 4 * root_dwords);
      end += root_dwords;
   }
   sg_cmd_commit(cmd, end);
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
   struct sg_compute_state *s = &cmd->compute;
   if (!prepare_launch(cmd))
      return;
   if (!s->root_va) {
      uint32_t bytes = s->pipeline->root_bytes;
      void *root = sg_cmd_data(cmd, bytes, &s->root_va);
      if (!root)
         return;
      memcpy(root, s->root, bytes);
      s->root_snapshot_bytes = bytes;
   }
   uint32_t base[3] = {0, 0, 0}, grid[3] = {0, 0, 0};   /* the grid comes from memory */
   uint64_t desc;
   struct hw_launch_desc *d = sg_cmd_data(cmd, sizeof(*d), &desc);
   if (!d)
      return;
   *d = launch_descriptor(cmd, base, grid);
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_LAUNCH_INDIRECT_DWORDS);
   if (p)
      sg_cmd_commit(cmd, hw_emit_launch_indirect(p, desc, sg_buffer_from_handle(buffer)->va + offset));
}
