#ifndef SG_DESCRIPTOR_SET_LAYOUT_H
#define SG_DESCRIPTOR_SET_LAYOUT_H

#include "hw_root.h"
#include "sg_object.h"

/* A set's memory holds HW_DESCRIPTOR_BYTES per descriptor: buffers are
 * struct hw_buffer_descriptor, other types keep the slot unused; an inline
 * uniform block's bytes are in the set, HW_DESCRIPTOR_ALIGN-aligned
 * (hw/include/hw_root.h). */

struct sg_set_binding {
   uint32_t binding;
   VkDescriptorType type;
   uint32_t count;              /* array elements */
   uint32_t offset;             /* bytes from the set's start */
   uint32_t dynamic_index;      /* dynamic types: first index among the set's dynamic descriptors */
   VkDescriptorBindingFlags flags;
};

struct sg_descriptor_set_layout {
   struct sg_object base;
   VkDescriptorSetLayoutCreateFlags flags;
   uint32_t binding_count;
   struct sg_set_binding *bindings;   /* sorted by binding number */
   uint32_t size;                     /* bytes of descriptors */
   uint32_t dynamic_count;            /* dynamic buffer descriptors */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_descriptor_set_layout, VkDescriptorSetLayout)

/* The binding numbered `binding`, or NULL. */
const struct sg_set_binding *sg_set_layout_find(const struct sg_descriptor_set_layout *l,
                                                uint32_t binding);
/* The index of that binding in l->bindings, or l->binding_count. */
uint32_t sg_set_layout_index(const struct sg_descriptor_set_layout *l, uint32_t binding);

static inline bool sg_descriptor_is_dynamic(VkDescriptorType t)
{
   return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
          t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

/* Inline uniform blocks keep their bytes in the set itself: descriptorCount
 * and array elements count bytes. */
static inline bool sg_descriptor_is_inline(VkDescriptorType t)
{
   return t == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
}

/* Bytes a binding takes in a set. */
static inline uint64_t sg_binding_bytes(VkDescriptorType t, uint32_t count)
{
   return sg_descriptor_is_inline(t) ? ((uint64_t)count + HW_DESCRIPTOR_ALIGN - 1) &
                                           ~(uint64_t)(HW_DESCRIPTOR_ALIGN - 1)
                                     : (uint64_t)count * HW_DESCRIPTOR_BYTES;
}

static inline bool sg_descriptor_is_buffer(VkDescriptorType t)
{
   return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
          sg_descriptor_is_dynamic(t);
}

#endif
