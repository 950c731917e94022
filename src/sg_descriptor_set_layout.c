/*
 * VkDescriptorSetLayout: where each binding's descriptors sit in a set's
 * GPU memory (16 bytes each, in binding order) and how the set's dynamic
 * buffers are numbered.
 */
#include "sg_descriptor_set_layout.h"

#include <stdlib.h>
#include <string.h>

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_log.h"

static int by_binding(const void *a, const void *b)
{
   uint32_t x = ((const struct sg_set_binding *)a)->binding;
   uint32_t y = ((const struct sg_set_binding *)b)->binding;
   return (x > y) - (x < y);
}

const struct sg_set_binding *sg_set_layout_find(const struct sg_descriptor_set_layout *l,
                                                uint32_t binding)
{
   uint32_t i = sg_set_layout_index(l, binding);
   return i < l->binding_count ? &l->bindings[i] : NULL;
}

uint32_t sg_set_layout_index(const struct sg_descriptor_set_layout *l, uint32_t binding)
{
   uint32_t lo = 0, hi = l->binding_count;
   while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (l->bindings[mid].binding < binding)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < l->binding_count && l->bindings[lo].binding == binding ? lo : l->binding_count;
}

/* Buffer descriptors are what the compiler reads; the other types are
 * accepted in layouts (their slots stay zero) and rejected when a shader
 * uses them. */
static void note_unsupported(VkDescriptorType type)
{
   if (!sg_descriptor_is_buffer(type) && !sg_descriptor_is_inline(type))
      SG_LOG(SG_LOG_WARN, SG_AREA_API,
             "descriptor type %d in a set layout: softgpu's shaders use buffer descriptors only; "
             "a pipeline that uses this binding will fail to compile", (int)type);
}

/* Lays the bindings out; false on arithmetic overflow. */
static bool lay_out(struct sg_descriptor_set_layout *l, const VkDescriptorSetLayoutCreateInfo *info,
                    const VkDescriptorSetLayoutBindingFlagsCreateInfo *flags)
{
   for (uint32_t i = 0; i < info->bindingCount; i++) {
      const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
      l->bindings[i] = (struct sg_set_binding){
         .binding = b->binding, .type = b->descriptorType, .count = b->descriptorCount,
         .flags = flags && i < flags->bindingCount ? flags->pBindingFlags[i] : 0};
      if (b->descriptorCount)
         note_unsupported(b->descriptorType);
   }
   qsort(l->bindings, l->binding_count, sizeof(*l->bindings), by_binding);
   uint64_t offset = 0;
   for (uint32_t i = 0; i < l->binding_count; i++) {
      struct sg_set_binding *b = &l->bindings[i];
      b->offset = (uint32_t)offset;
      offset += sg_binding_bytes(b->type, b->count);
      if (sg_descriptor_is_dynamic(b->type)) {
         b->dynamic_index = l->dynamic_count;
         l->dynamic_count += b->count;
      }
   }
   if (offset > UINT32_MAX)
      return false;
   l->size = (uint32_t)offset;
   return true;
}

static const void *find_in_chain(const void *chain, VkStructureType type)
{
   for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
      if (s->sType == type)
         return s;
   }
   return NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateDescriptorSetLayout(
   VkDevice device, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
   const VkAllocationCallbacks *pAllocator, VkDescriptorSetLayout *pSetLayout)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_descriptor_set_layout *l =
      sg_zalloc(alloc, sizeof(*l), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   uint32_t n = pCreateInfo->bindingCount;
   struct sg_set_binding *bindings =
      l ? sg_zalloc(alloc, (n ? n : 1) * sizeof(*bindings), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) : NULL;
   if (!l || !bindings) {
      sg_free(alloc, l);
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDescriptorSetLayout: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   l->flags = pCreateInfo->flags;
   l->binding_count = n;
   l->bindings = bindings;
   if (!lay_out(l, pCreateInfo,
                find_in_chain(pCreateInfo->pNext,
                              VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO))) {
      sg_free(alloc, bindings);
      sg_free(alloc, l);
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDescriptorSetLayout: more than 4 GiB of descriptors");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&l->base, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, dev, &dev->alloc);
   *pSetLayout = sg_descriptor_set_layout_to_handle(l);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyDescriptorSetLayout(VkDevice device,
                                                         VkDescriptorSetLayout descriptorSetLayout,
                                                         const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_descriptor_set_layout *l = sg_descriptor_set_layout_from_handle(descriptorSetLayout);
   if (!l)
      return;
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   sg_free(alloc, l->bindings);
   sg_object_finish(&l->base);
   sg_free(alloc, l);
}

/* Any layout that fits in memory is supported: descriptors are 16 bytes
 * each and sets live in ordinary GPU memory. */
VKAPI_ATTR void VKAPI_CALL sg_GetDescriptorSetLayoutSupport(
   VkDevice device, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
   VkDescriptorSetLayoutSupport *pSupport)
{
   (void)device;
   uint64_t total = 0;
   for (uint32_t i = 0; i < pCreateInfo->bindingCount; i++)
      total += sg_binding_bytes(pCreateInfo->pBindings[i].descriptorType,
                                pCreateInfo->pBindings[i].descriptorCount);
   pSupport->supported = total <= UINT32_MAX;
}
