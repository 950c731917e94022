/* VkDescriptorUpdateTemplate: descriptor writes described once, applied
 * many times from application structures. */
#include "sg_descriptor_update_template.h"

#include <string.h>

#include "sg_alloc.h"
#include "sg_descriptor_set.h"
#include "sg_device.h"
#include "sg_log.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateDescriptorUpdateTemplate(
   VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *pCreateInfo,
   const VkAllocationCallbacks *pAllocator, VkDescriptorUpdateTemplate *pTemplate)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   uint32_t n = pCreateInfo->descriptorUpdateEntryCount;
   struct sg_descriptor_update_template *t = sg_zalloc(alloc, sizeof(*t), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   VkDescriptorUpdateTemplateEntry *entries =
      t ? sg_alloc(alloc, (n ? n : 1) * sizeof(*entries), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) : NULL;
   if (!t || !entries) {
      sg_free(alloc, t);
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDescriptorUpdateTemplate: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   memcpy(entries, pCreateInfo->pDescriptorUpdateEntries, n * sizeof(*entries));
   sg_object_init(&t->base, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE, dev, &dev->alloc);
   t->type = pCreateInfo->templateType;
   t->bind_point = pCreateInfo->pipelineBindPoint;
   t->set = pCreateInfo->set;
   t->entry_count = n;
   t->entries = entries;
   *pTemplate = sg_descriptor_update_template_to_handle(t);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyDescriptorUpdateTemplate(VkDevice device,
                                                              VkDescriptorUpdateTemplate tmpl,
                                                              const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_descriptor_update_template *t = sg_descriptor_update_template_from_handle(tmpl);
   if (!t)
      return;
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   sg_free(alloc, t->entries);
   sg_object_finish(&t->base);
   sg_free(alloc, t);
}

struct apply_ctx {
   uint8_t *host;
   const uint8_t *data;
   const VkDescriptorUpdateTemplateEntry *e;
};

static void apply_one(void *ctx, uint32_t offset, uint32_t index)
{
   struct apply_ctx *c = ctx;
   const VkDescriptorBufferInfo *bi =
      (const void *)(c->data + c->e->offset + (size_t)index * c->e->stride);
   sg_descriptor_buffer(c->host + offset, bi->buffer, bi->offset, bi->range);
}

void sg_template_apply(const struct sg_descriptor_update_template *t,
                       const struct sg_descriptor_set_layout *layout, uint8_t *host,
                       const void *data)
{
   for (uint32_t i = 0; i < t->entry_count; i++) {
      const VkDescriptorUpdateTemplateEntry *e = &t->entries[i];
      if (sg_descriptor_is_inline(e->descriptorType)) {
         /* the bytes are at offset in data; count is their size */
         const struct sg_set_binding *b = sg_set_layout_find(layout, e->dstBinding);
         if (b && (uint64_t)e->dstArrayElement + e->descriptorCount <= b->count)
            memcpy(host + b->offset + e->dstArrayElement, (const uint8_t *)data + e->offset,
                   e->descriptorCount);
         continue;
      }
      if (!sg_descriptor_is_buffer(e->descriptorType)) {
         SG_LOG(SG_LOG_WARN, SG_AREA_API, "descriptor template entry of type %d ignored: "
                "softgpu's shaders use buffer descriptors only", (int)e->descriptorType);
         continue;
      }
      struct apply_ctx c = {host, data, e};
      sg_descriptor_each(layout, e->dstBinding, e->dstArrayElement, e->descriptorCount, apply_one, &c);
   }
}

VKAPI_ATTR void VKAPI_CALL sg_UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
                                                              VkDescriptorUpdateTemplate tmpl,
                                                              const void *pData)
{
   (void)device;
   struct sg_descriptor_set *s = sg_descriptor_set_from_handle(set);
   if (s->host)
      sg_template_apply(sg_descriptor_update_template_from_handle(tmpl), s->layout, s->host, pData);
}
