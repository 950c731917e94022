#ifndef SG_DESCRIPTOR_SET_H
#define SG_DESCRIPTOR_SET_H

#include "sg_descriptor_set_layout.h"

struct sg_descriptor_pool;

/* VkDescriptorSet: descriptors in GPU memory that launches read through
 * the root table; updates write them from the host directly. */
struct sg_descriptor_set {
   struct sg_object base;
   struct sg_descriptor_pool *pool;
   const struct sg_descriptor_set_layout *layout;   /* valid while updates are allowed */
   uint64_t va;
   uint8_t *host;
   uint32_t offset, size;             /* within the pool's memory */
   struct sg_descriptor_set *next;    /* in the pool, by offset */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_descriptor_set, VkDescriptorSet)

/* Writes descriptors into `host` (a set's memory, or a push descriptor
 * set's) laid out by `layout`. */
void sg_descriptor_write(uint8_t *host, const struct sg_descriptor_set_layout *layout,
                         const VkWriteDescriptorSet *w);

/* One buffer descriptor from (buffer, offset, range). */
void sg_descriptor_buffer(uint8_t *slot, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range);

/* Calls fn for each descriptor of a write or copy: `count` consecutive
 * descriptors from (binding, element), running into the next bindings as
 * "consecutive binding updates" allow. fn gets the byte offset in the set
 * and the index among the `count`. */
typedef void (*sg_descriptor_fn)(void *ctx, uint32_t offset, uint32_t index);
void sg_descriptor_each(const struct sg_descriptor_set_layout *layout, uint32_t binding,
                        uint32_t element, uint32_t count, sg_descriptor_fn fn, void *ctx);

#endif
