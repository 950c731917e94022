#ifndef SG_DEVICE_H
#define SG_DEVICE_H

#include <pthread.h>
#include <stdatomic.h>

#include "hw_gpu.h"
#include "sg_log.h"
#include "sg_entrypoints.h"
#include "sg_object.h"
#include "sg_spirv_caps.h"
#include "sg_struct_tables.h"
#include "sg_sync_word.h"

struct sg_instance;
struct sg_physical_device;
struct sg_queue;

struct sg_device {
   struct sg_object base;
   VkAllocationCallbacks alloc;        /* the application's, or the instance's */
   struct sg_instance *instance;
   struct sg_physical_device *pdev;
   /* min(application apiVersion, softgpu's): core commands above it are
    * not returned by vkGetDeviceProcAddr ("requested core version"). */
   uint32_t api_version;
   /* Enabled device extensions, plus the instance's enabled instance
    * extensions (which also add device-level commands, e.g. debug utils). */
   struct sg_ext_set enabled_exts;
   struct sg_core_features enabled_features;
   /* The SPIR-V capabilities and extensions that the API version, the
    * enabled extensions and features allow; pipelines compile with it. */
   struct sg_device_spirv spirv;
   uint32_t queue_count;
   struct sg_queue *queues;            /* one per requested queue */

   /* The simulated GPU behind this device, and the semaphore words its
    * sync objects use. */
   struct hw_gpu *gpu;
   struct sg_sync_words sync_words;
   /* Each channel's queue progress counter (NULL: no queue). */
   _Atomic uint64_t *progress[HW_MAX_CHANNELS];
   _Atomic bool loss_reported;
   /* SOFTGPU_HANG_REPORT_MS in ns (0: off), and whether the one report
    * this device prints has been printed (src/sg_hang.c). */
   uint64_t hang_report_ns;
   _Atomic bool hang_reported;
   /* Host threads blocked in the device's waits, for hang reports and
    * snapshots; SOFTGPU_SLOW_WAIT_MS in ns (0: off) and its rate limit. */
   pthread_mutex_t waiters_lock;
   struct sg_hang_waiter *waiters;
   uint64_t slow_wait_ns;
   struct sg_log_ratelimit slow_wait_log;
   _Atomic uint32_t memory_count;      /* live VkDeviceMemory objects */
   /* Command buffers whose debugPrintfEXT output waits for completion. */
   pthread_mutex_t printf_lock;
   struct sg_cmd_buffer *printf_pending;
   _Atomic uint32_t printf_pending_count;
};

SG_DEFINE_HANDLE_CASTS(sg_device, VkDevice)

/* The channel a queue drives: compute queues first, then transfer queues. */
uint32_t sg_device_channel(const struct sg_device *dev, uint32_t family, uint32_t index);

/* The progress counter of a channel's queue (UINT64_MAX if it has none). */
static inline uint64_t sg_device_progress(const struct sg_device *dev, uint32_t channel)
{
   return dev->progress[channel]
             ? atomic_load_explicit(dev->progress[channel], memory_order_acquire)
             : UINT64_MAX;
}

/* The queue driving a channel, or NULL. */
struct sg_queue *sg_device_queue_of_channel(struct sg_device *dev, uint32_t channel);

/* VK_ERROR_DEVICE_LOST, after a one-time log line pointing at the report. */
VkResult sg_device_lost_result(struct sg_device *dev);

/* The VkResult of a host wait: VK_SUCCESS, VK_TIMEOUT or VK_ERROR_DEVICE_LOST. */
VkResult sg_wait_result(struct sg_device *dev, enum hw_wait_result r);

/* VK_SUCCESS, or VK_ERROR_DEVICE_LOST once the GPU has faulted. */
static inline VkResult sg_device_check(struct sg_device *dev)
{
   return hw_gpu_is_lost(dev->gpu) ? sg_device_lost_result(dev) : VK_SUCCESS;
}

#endif
