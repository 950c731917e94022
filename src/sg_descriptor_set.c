/*
 * Descriptor updates: buffer descriptors are written into the set's GPU
 * memory from the host, {VA, range}, 16 bytes each. Launches read them
 * when they run, so updates of sets not in use by pending work (or with
 * UPDATE_AFTER_BIND, where advertised) are seen by later launches.
 */
#include "sg_descriptor_set.h"

#include <string.h>

#include "sg_buffer.h"
#include "sg_device.h"
#include "sg_log.h"

void sg_descriptor_each(const struct sg_descriptor_set_layout *layout, uint32_t binding,
                        uint32_t element, uint32_t count, sg_descriptor_fn fn, void *ctx)
{
   uint32_t b = sg_set_layout_index(layout, binding);
   for (uint32_t i = 0; i < count && b < layout->binding_count;) {
      const struct sg_set_binding *sb = &layout->bindings[b];
      /* "If the dstBinding has fewer than descriptorCount array elements
       * remaining starting from dstArrayElement, then the remainder will be
       * used to update the subsequent binding" (VkWriteDescriptorSet). */
      if (element >= sb->count) {
         element -= sb->count;
         b++;
         continue;
      }
      fn(ctx, sb->offset + element * HW_DESCRIPTOR_BYTES, i);
      i++;
      element++;
   }
}

void sg_descriptor_buffer(uint8_t *slot, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range)
{
   struct hw_buffer_descriptor d = {0, 0};
   struct sg_buffer *buf = sg_buffer_from_handle(buffer);
   if (buf) {
      d.va = buf->va + offset;
      d.range = range == VK_WHOLE_SIZE ? buf->size - offset : range;
   }
   memcpy(slot, &d, sizeof(d));
}

struct write_ctx {
   uint8_t *host;
   const VkWriteDescriptorSet *w;
};

static void write_one(void *ctx, uint32_t offset, uint32_t index)
{
   struct write_ctx *c = ctx;
   const VkWriteDescriptorSet *w = c->w;
   if (sg_descriptor_is_buffer(w->descriptorType)) {
      const VkDescriptorBufferInfo *bi = &w->pBufferInfo[index];
      sg_descriptor_buffer(c->host + offset, bi->buffer, bi->offset, bi->range);
   }
}

/* Inline uniform block writes and copies are byte ranges within one
 * binding ("dstArrayElement ... specifies the starting byte offset"). */
static uint8_t *inline_bytes(uint8_t *host, const struct sg_descriptor_set_layout *layout,
                             uint32_t binding, uint32_t offset, uint32_t size)
{
   const struct sg_set_binding *b = sg_set_layout_find(layout, binding);
   if (!b || (uint64_t)offset + size > b->count)
      return NULL;
   return host + b->offset + offset;
}

void sg_descriptor_write(uint8_t *host, const struct sg_descriptor_set_layout *layout,
                         const VkWriteDescriptorSet *w)
{
   if (sg_descriptor_is_inline(w->descriptorType)) {
      for (const VkBaseInStructure *s = w->pNext; s; s = s->pNext) {
         if (s->sType != VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK)
            continue;
         const VkWriteDescriptorSetInlineUniformBlock *iub = (const void *)s;
         uint8_t *dst = inline_bytes(host, layout, w->dstBinding, w->dstArrayElement, iub->dataSize);
         if (dst)
            memcpy(dst, iub->pData, iub->dataSize);
      }
      return;
   }
   if (!sg_descriptor_is_buffer(w->descriptorType)) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "descriptor write of type %d ignored: softgpu's shaders "
             "use buffer descriptors only", (int)w->descriptorType);
      return;
   }
   struct write_ctx c = {host, w};
   sg_descriptor_each(layout, w->dstBinding, w->dstArrayElement, w->descriptorCount, write_one, &c);
}

/* Copies: gather the source offsets, then the destination's. */
struct copy_ctx {
   uint32_t *offsets;
};

static void note_offset(void *ctx, uint32_t offset, uint32_t index)
{
   ((struct copy_ctx *)ctx)->offsets[index] = offset;
}

struct copy_out {
   const uint8_t *src;
   uint8_t *dst;
   const uint32_t *src_offsets;
};

static void copy_one(void *ctx, uint32_t offset, uint32_t index)
{
   struct copy_out *c = ctx;
   memmove(c->dst + offset, c->src + c->src_offsets[index], HW_DESCRIPTOR_BYTES);
}

static void copy_set(const VkCopyDescriptorSet *cp)
{
   struct sg_descriptor_set *src = sg_descriptor_set_from_handle(cp->srcSet);
   struct sg_descriptor_set *dst = sg_descriptor_set_from_handle(cp->dstSet);
   if (!src->host || !dst->host)
      return;
   const struct sg_set_binding *sb = sg_set_layout_find(src->layout, cp->srcBinding);
   if (sb && sg_descriptor_is_inline(sb->type)) {
      const uint8_t *from = inline_bytes(src->host, src->layout, cp->srcBinding,
                                         cp->srcArrayElement, cp->descriptorCount);
      uint8_t *to = inline_bytes(dst->host, dst->layout, cp->dstBinding, cp->dstArrayElement,
                                 cp->descriptorCount);
      if (from && to)
         memmove(to, from, cp->descriptorCount);
      return;
   }
   /* In pieces, so the offsets fit on the stack. */
   uint32_t offsets[256];
   for (uint32_t done = 0; done < cp->descriptorCount; done += 256) {
      uint32_t n = cp->descriptorCount - done < 256 ? cp->descriptorCount - done : 256;
      struct copy_ctx g = {offsets};
      sg_descriptor_each(src->layout, cp->srcBinding, cp->srcArrayElement + done, n, note_offset, &g);
      struct copy_out c = {src->host, dst->host, offsets};
      sg_descriptor_each(dst->layout, cp->dstBinding, cp->dstArrayElement + done, n, copy_one, &c);
   }
}

VKAPI_ATTR void VKAPI_CALL sg_UpdateDescriptorSets(VkDevice device, uint32_t writeCount,
                                                   const VkWriteDescriptorSet *pWrites,
                                                   uint32_t copyCount,
                                                   const VkCopyDescriptorSet *pCopies)
{
   (void)device;
   for (uint32_t i = 0; i < writeCount; i++) {
      struct sg_descriptor_set *set = sg_descriptor_set_from_handle(pWrites[i].dstSet);
      if (set->host)
         sg_descriptor_write(set->host, set->layout, &pWrites[i]);
   }
   for (uint32_t i = 0; i < copyCount; i++)
      copy_set(&pCopies[i]);
}
