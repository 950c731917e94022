/*
 * VkPipelineLayout: the descriptor sets a pipeline sees and how dynamic
 * offsets are numbered across them ("dynamic offsets ... in order of set
 * number, then binding number, then array element", vkCmdBindDescriptorSets),
 * which is also their order in the root table.
 */
#include "sg_pipeline_layout.h"

#include <string.h>

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_hash.h"
#include "sg_log.h"

static void free_sets(struct sg_pipeline_layout *l, const VkAllocationCallbacks *alloc)
{
   for (uint32_t i = 0; i < HW_ROOT_SETS; i++)
      sg_free(alloc, l->sets[i].bindings);
}

static bool copy_set(struct sg_layout_set *dst, const struct sg_descriptor_set_layout *src,
                     const VkAllocationCallbacks *alloc)
{
   dst->binding_count = src->binding_count;
   dst->size = src->size;
   dst->dynamic_count = src->dynamic_count;
   dst->push = src->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
   size_t bytes = src->binding_count * sizeof(*dst->bindings);
   dst->bindings = sg_alloc(alloc, bytes ? bytes : 1, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!dst->bindings)
      return false;
   memcpy(dst->bindings, src->bindings, bytes);
   return true;
}

static uint64_t layout_hash(const struct sg_pipeline_layout *l)
{
   uint64_t h = sg_hash64(&l->set_count, sizeof(l->set_count), 0x4c41594fu);
   for (uint32_t i = 0; i < l->set_count; i++) {
      const struct sg_layout_set *s = &l->sets[i];
      h = sg_hash64(s->bindings, s->binding_count * sizeof(*s->bindings), h);
      h = sg_hash64(&s->dynamic_base, sizeof(s->dynamic_base), h);
   }
   return h;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreatePipelineLayout(VkDevice device,
                                                       const VkPipelineLayoutCreateInfo *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkPipelineLayout *pPipelineLayout)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_pipeline_layout *l = sg_zalloc(alloc, sizeof(*l), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!l) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreatePipelineLayout: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   l->set_count = pCreateInfo->setLayoutCount;
   if (l->set_count > HW_ROOT_SETS) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreatePipelineLayout: %u sets is more than "
             "maxBoundDescriptorSets (%u); the rest are ignored", l->set_count, HW_ROOT_SETS);
      l->set_count = HW_ROOT_SETS;
   }
   for (uint32_t i = 0; i < l->set_count; i++) {
      const struct sg_descriptor_set_layout *sl =
         sg_descriptor_set_layout_from_handle(pCreateInfo->pSetLayouts[i]);
      if (!sl)
         continue;   /* VK_NULL_HANDLE is allowed with graphicsPipelineLibrary */
      if (!copy_set(&l->sets[i], sl, alloc)) {
         free_sets(l, alloc);
         sg_free(alloc, l);
         SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreatePipelineLayout: out of host memory");
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      l->sets[i].dynamic_base = l->dynamic_count;
      l->dynamic_count += l->sets[i].dynamic_count;
   }
   if (l->dynamic_count > HW_ROOT_DYNAMIC_SLOTS)
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreatePipelineLayout: %u dynamic buffers is more than "
             "the %u the limits allow; offsets past them are ignored", l->dynamic_count,
             HW_ROOT_DYNAMIC_SLOTS);
   for (uint32_t i = 0; i < pCreateInfo->pushConstantRangeCount; i++) {
      const VkPushConstantRange *r = &pCreateInfo->pPushConstantRanges[i];
      if (r->offset + r->size > l->push_bytes)
         l->push_bytes = r->offset + r->size;
   }
   l->hash = layout_hash(l);
   sg_object_init(&l->base, VK_OBJECT_TYPE_PIPELINE_LAYOUT, dev, &dev->alloc);
   *pPipelineLayout = sg_pipeline_layout_to_handle(l);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyPipelineLayout(VkDevice device, VkPipelineLayout pipelineLayout,
                                                    const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_pipeline_layout *l = sg_pipeline_layout_from_handle(pipelineLayout);
   if (!l)
      return;
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   free_sets(l, alloc);
   sg_object_finish(&l->base);
   sg_free(alloc, l);
}
