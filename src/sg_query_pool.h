#ifndef SG_QUERY_POOL_H
#define SG_QUERY_POOL_H

#include "hw_packets.h"
#include "sg_object.h"

/* VkQueryPool: an array of struct hw_query_slot (value, availability) in
 * GPU memory, whatever the type. Timestamps are written by the command
 * processor; occlusion queries need a graphics queue to begin, so on
 * softgpu they are only ever reset, read or copied, and stay unavailable. */
struct sg_query_pool {
   struct sg_object base;
   VkQueryType type;
   uint32_t count;
   uint64_t va;
   struct hw_query_slot *slots;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_query_pool, VkQueryPool)

#endif
