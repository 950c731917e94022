#ifndef SG_DESCRIPTOR_POOL_H
#define SG_DESCRIPTOR_POOL_H

#include "sg_object.h"

struct sg_descriptor_set;

/* VkDescriptorPool: one block of GPU memory that its sets are carved from
 * (first fit, in address order), and the host allocator for their
 * objects. */
struct sg_descriptor_pool {
   struct sg_object base;
   VkAllocationCallbacks alloc;
   VkDescriptorPoolCreateFlags flags;
   uint64_t va;                       /* 0 if the pool holds no descriptors */
   uint8_t *host;
   uint32_t size;                     /* bytes */
   uint32_t max_sets, set_count;
   struct sg_descriptor_set *sets;    /* live sets, by increasing offset */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_descriptor_pool, VkDescriptorPool)

#endif
