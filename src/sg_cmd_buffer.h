#ifndef SG_CMD_BUFFER_H
#define SG_CMD_BUFFER_H

#include "sg_object.h"
#include "sg_pushbuf.h"

struct sg_cmd_pool;

enum sg_cmd_state {
   SG_CMD_INITIAL,
   SG_CMD_RECORDING,
   SG_CMD_EXECUTABLE,
   SG_CMD_INVALID,
};

struct sg_cmd_buffer {
   struct sg_object base;
   struct sg_cmd_pool *pool;
   VkCommandBufferLevel level;
   VkCommandBufferUsageFlags usage;
   enum sg_cmd_state state;
   /* The packets, recorded straight into pushbuffer memory. */
   struct sg_pb_writer pb;
   uint64_t entry_va;                   /* what a ring entry or CALL executes */
   uint32_t entry_length;               /* dwords of the first block */
   VkResult record_error;               /* first recording failure, for vkEndCommandBuffer */
   /* Secondaries this primary executes: their pushbuffers are used when it is. */
   struct sg_cmd_buffer **secondaries;
   uint32_t secondary_count, secondary_capacity;
   /* Where the pushbuffer was last executed (see sg_pushbuf.h). */
   struct sg_gpu_use use;
   struct sg_cmd_buffer *next_in_pool, *prev_in_pool;
};

SG_DEFINE_HANDLE_CASTS(sg_cmd_buffer, VkCommandBuffer)

/* Room for n dwords of packets; NULL after a recording failure (the command
 * is dropped and vkEndCommandBuffer reports the error). */
uint32_t *sg_cmd_reserve(struct sg_cmd_buffer *cmd, uint32_t n);
static inline void sg_cmd_commit(struct sg_cmd_buffer *cmd, uint32_t *end)
{
   sg_pb_writer_commit(&cmd->pb, end);
}

/* Resets to the initial state, retiring the pushbuffer to the pool. */
void sg_cmd_buffer_reset(struct sg_cmd_buffer *cmd);
/* Frees a command buffer (its pushbuffer is retired, not freed). */
void sg_cmd_buffer_destroy(struct sg_cmd_buffer *cmd);

#endif
