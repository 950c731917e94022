/*
 * What the simulated GPU is: the fixed parameters of the hardware model and
 * the few that depend on the host it runs on. The Vulkan layer reports its
 * limits from here, so a limit is always something the model really has.
 */
#ifndef HW_CAPS_H
#define HW_CAPS_H

#include <stdint.h>

/* Channels: one per VkQueue. The compute family's queues are compute
 * channels; the transfer-only family's queues are served by the DMA engine. */
#define HW_COMPUTE_CHANNELS 16
#define HW_DMA_CHANNELS 2

/* Timestamps: a 64-bit counter of nanoseconds (CLOCK_MONOTONIC). */
#define HW_TIMESTAMP_BITS 64

/* Execution units. */
#define HW_SHARED_MEMORY_PER_CTA (64u * 1024u)
#define HW_MAX_CTA_INVOCATIONS 1024u
#define HW_MAX_CTA_SIZE_X 1024u
#define HW_MAX_CTA_SIZE_Y 1024u
#define HW_MAX_CTA_SIZE_Z 64u
/* The grid's CTA count must fit a 63-bit linear index: 2^31 * 2^16 * 2^16. */
#define HW_MAX_GRID_X 0x7fffffffu
#define HW_MAX_GRID_Y 0xffffu
#define HW_MAX_GRID_Z 0xffffu
#define HW_WARP_WIDTH_MIN 8u
#define HW_WARP_WIDTH_DEFAULT 32u
#define HW_WARP_WIDTH_MAX 64u

/* Private (per-invocation) memory a launch may ask for. */
#define HW_MAX_PRIVATE_BYTES (64u * 1024u)

/* Push constants and bound descriptor sets: the root table (hw_root.h). */

struct hw_caps {
   uint64_t memory_bytes;  /* GPU memory: a share of host RAM */
   uint32_t host_cores;    /* online host cores: default execution-unit workers */
};

void hw_caps_query(struct hw_caps *caps);

#endif
