#ifndef SG_CMD_BUFFER_H
#define SG_CMD_BUFFER_H

#include "hw_root.h"
#include "sc_compiler.h"
#include "sg_object.h"
#include "sg_pushbuf.h"

struct sg_cmd_pool;
struct sg_pipeline;

/* Compute state while recording: the root table is kept on the host and
 * snapshotted into the command buffer when a launch needs it and it
 * changed (root_va 0). Not inherited by or from other command buffers. */
struct sg_compute_state {
   struct sg_pipeline *pipeline;
   uint8_t root[HW_ROOT_BYTES];
   uint64_t root_va;
   uint32_t root_snapshot_bytes;      /* how much of it the snapshot at root_va holds */
   /* push descriptor sets, host copies until a launch snapshots them */
   uint8_t *push_sets[HW_ROOT_SETS];
   uint32_t push_size[HW_ROOT_SETS];
   uint32_t push_dirty;               /* bit per set */
};

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
   struct sg_compute_state compute;
   /* debugPrintfEXT output of this command buffer's launches (sg_printf.h) */
   struct {
      uint64_t va;                    /* the buffer, 0 until a launch prints */
      struct hw_printf_buffer *host;
      bool armed;                     /* this recording resets it before use */
      char **formats;                 /* copies: pipelines may go before we print */
      uint32_t format_count, format_capacity;
      const struct sg_pipeline **pipes;   /* pipelines seen, and their first format */
      uint32_t *bases;
      uint32_t pipe_count, pipe_capacity;
      bool pending;                   /* submitted, not printed yet */
      struct sg_cmd_buffer *next_pending;
   } printf;
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

/* The GPU VA of p, a dword in the block being recorded into (as
 * sg_cmd_reserve returned it). */
static inline uint64_t sg_cmd_va(const struct sg_cmd_buffer *cmd, const uint32_t *p)
{
   return cmd->pb.cur->va + 4ull * (uint64_t)(p - cmd->pb.cur->dwords);
}

/* size bytes of GPU memory inside the command buffer (16-byte aligned, in
 * a NOP packet the command processor skips): launch descriptors, root
 * tables and push descriptors live there, for as long as the pushbuffer
 * does. NULL after a recording failure. */
void *sg_cmd_data(struct sg_cmd_buffer *cmd, uint32_t size, uint64_t *va);

/* Resets the compute state (vkBeginCommandBuffer, reset). */
void sg_cmd_compute_reset(struct sg_cmd_buffer *cmd);

/* Resets to the initial state, retiring the pushbuffer to the pool. */
void sg_cmd_buffer_reset(struct sg_cmd_buffer *cmd);
/* Frees a command buffer (its pushbuffer is retired, not freed). */
void sg_cmd_buffer_destroy(struct sg_cmd_buffer *cmd);

#endif
