#ifndef SG_BUFFER_H
#define SG_BUFFER_H

#include "sg_object.h"

struct sg_memory;

struct sg_buffer {
   struct sg_object base;
   VkDeviceSize size;
   VkBufferUsageFlags usage;
   VkBufferCreateFlags flags;
   uint64_t va;          /* GPU address once bound; 0 before */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_buffer, VkBuffer)

/* Buffers need no alignment beyond what shaders load: 16 covers vec4. */
#define SG_BUFFER_ALIGNMENT 16u

#endif
