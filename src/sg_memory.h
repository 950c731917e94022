#ifndef SG_MEMORY_H
#define SG_MEMORY_H

#include "sg_object.h"

/* VkDeviceMemory: one allocation of GPU memory. Host-visible and coherent
 * like all softgpu memory: mapping is one add. */
struct sg_memory {
   struct sg_object base;
   uint64_t va;
   VkDeviceSize size;
   void *host;          /* host view of the whole allocation */
   bool mapped;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_memory, VkDeviceMemory)

#endif
