#ifndef SG_CMD_POOL_H
#define SG_CMD_POOL_H

#include "sg_object.h"
#include "sg_pushbuf.h"

struct sg_device;
struct sg_cmd_buffer;

/* Pushbuffer blocks of this size are pooled; larger ones are made to
 * measure and freed once retired. */
#define SG_CMD_BLOCK_DWORDS 4096u

/* Blocks a command buffer no longer needs, kept until the GPU is done. */
struct sg_retired_blocks {
   struct sg_pb_block *blocks;
   struct sg_gpu_use use;
   struct sg_retired_blocks *next;
};

struct sg_cmd_pool {
   struct sg_object base;
   VkAllocationCallbacks alloc;
   VkCommandPoolCreateFlags flags;
   uint32_t queue_family;
   struct sg_pb_block *free_blocks;     /* standard blocks ready for reuse */
   struct sg_retired_blocks *retired;   /* waiting for the GPU */
   struct sg_cmd_buffer *buffers;       /* every command buffer of the pool */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_cmd_pool, VkCommandPool)

/* A block of at least min_dwords for a command buffer of the pool. */
VkResult sg_cmd_pool_get_block(void *pool, uint32_t min_dwords, struct sg_pb_block **out);
/* Hands a command buffer's blocks back, to be reused once use is done. */
void sg_cmd_pool_retire(struct sg_cmd_pool *pool, struct sg_pb_block *blocks,
                        const struct sg_gpu_use *use);

#endif
