/*
 * Helpers for Vulkan tests that run work: a device with every queue, host
 * visible buffers, one-shot command buffers.
 */
#ifndef SGT_VK_H
#define SGT_VK_H

#include "sgt.h"

struct sgt_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map;
   VkDeviceSize size;
};

struct sgt_device {
   VkInstance instance;
   VkPhysicalDevice pdev;
   VkDevice device;
   uint32_t family_queue_count[2];   /* compute family, transfer family */
   VkQueue queues[2][16];
   VkCommandPool pools[2];           /* one per family, resettable buffers */
};

/* Creates an instance (validation on unless opts say otherwise) and a
 * device with every queue of both families and timeline semaphores,
 * synchronization2 and hostQueryReset enabled when supported. */
void sgt_device_create(struct sgt_device *d, const struct sgt_instance_options *opts);
void sgt_device_destroy(struct sgt_device *d);

void sgt_buffer_create(struct sgt_device *d, VkDeviceSize size, struct sgt_buffer *b);
void sgt_buffer_destroy(struct sgt_device *d, struct sgt_buffer *b);

/* A primary command buffer of family's pool, begun (ONE_TIME_SUBMIT if asked). */
VkCommandBuffer sgt_begin(struct sgt_device *d, uint32_t family, bool one_time);
/* Ends and submits cmd to queue with a fence, waits, frees cmd. */
void sgt_end_submit_wait(struct sgt_device *d, VkQueue queue, uint32_t family, VkCommandBuffer cmd);

VkSemaphore sgt_timeline(struct sgt_device *d, uint64_t initial);
VkFence sgt_fence(struct sgt_device *d, bool signaled);

/* A full memory barrier between transfer operations. */
void sgt_barrier(VkCommandBuffer cmd);

#endif
