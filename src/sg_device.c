/*
 * VkDevice: creation checks (queues, extensions, features), queues, and
 * destruction.
 */
#include "sg_device.h"
#include "sg_hang.h"
#include "sg_snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "sg_alloc.h"
#include "sg_extensions.h"
#include "sg_instance.h"
#include "sg_log.h"
#include "sg_str.h"
#include "sg_trace.h"
#include "sg_printf.h"
#include "sg_physical_device.h"
#include "sg_queue.h"
#include "sg_version.h"

/* Queue create infos are the application's promise (valid usage); softgpu
 * still checks them, because a bad one must fail cleanly, not corrupt. */
static VkResult check_queue_infos(const struct sg_physical_device *pdev,
                                  const VkDeviceCreateInfo *info, uint32_t *total)
{
   bool seen[SG_QUEUE_FAMILY_COUNT] = {false};
   *total = 0;
   for (uint32_t i = 0; i < info->queueCreateInfoCount; i++) {
      const VkDeviceQueueCreateInfo *q = &info->pQueueCreateInfos[i];
      if (q->queueFamilyIndex >= SG_QUEUE_FAMILY_COUNT || seen[q->queueFamilyIndex]) {
         SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDevice: queue family %u %s",
                q->queueFamilyIndex,
                q->queueFamilyIndex >= SG_QUEUE_FAMILY_COUNT ? "does not exist"
                                                            : "is requested twice");
         return VK_ERROR_INITIALIZATION_FAILED;
      }
      seen[q->queueFamilyIndex] = true;
      uint32_t max = pdev->queue_families[q->queueFamilyIndex].queueCount;
      if (q->queueCount == 0 || q->queueCount > max) {
         SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDevice: %u queues requested from family %u, "
                "which has %u", q->queueCount, q->queueFamilyIndex, max);
         return VK_ERROR_INITIALIZATION_FAILED;
      }
      if (q->flags != 0) {
         /* The only flag is PROTECTED, which needs protectedMemory. */
         SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDevice: queue flags 0x%x: softgpu has no "
                "protected memory", q->flags);
         return VK_ERROR_FEATURE_NOT_PRESENT;
      }
      for (uint32_t k = 0; k < q->queueCount; k++) {
         float p = q->pQueuePriorities[k];
         if (!(p >= 0.0f && p <= 1.0f)) {
            SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDevice: queue priority %f is outside "
                   "[0, 1]", (double)p);
            return VK_ERROR_INITIALIZATION_FAILED;
         }
      }
      *total += q->queueCount;
   }
   return VK_SUCCESS;
}

static VkResult check_device_group(const struct sg_physical_device *pdev,
                                   const VkDeviceCreateInfo *info)
{
   for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
      if (s->sType != VK_STRUCTURE_TYPE_DEVICE_GROUP_DEVICE_CREATE_INFO)
         continue;
      const VkDeviceGroupDeviceCreateInfo *g = (const VkDeviceGroupDeviceCreateInfo *)s;
      for (uint32_t i = 0; i < g->physicalDeviceCount; i++) {
         if (sg_physical_device_from_handle(g->pPhysicalDevices[i]) != pdev) {
            SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDevice: device group names a physical "
                   "device of another group");
            return VK_ERROR_INITIALIZATION_FAILED;
         }
      }
   }
   return VK_SUCCESS;
}

static VkResult check_create_info(struct sg_physical_device *pdev, const VkDeviceCreateInfo *info,
                                  struct sg_device *scratch, uint32_t *queue_total)
{
   VkResult r = check_queue_infos(pdev, info, queue_total);
   if (r != VK_SUCCESS)
      return r;
   r = check_device_group(pdev, info);
   if (r != VK_SUCCESS)
      return r;
   /* Device layers are deprecated and ignored ("... enabledLayerCount is
    * deprecated and ignored", VkDeviceCreateInfo). */
   r = sg_extensions_enable(sg_device_extensions, sg_device_extension_count, &pdev->device_exts,
                            info->enabledExtensionCount, info->ppEnabledExtensionNames,
                            &scratch->enabled_exts);
   if (r != VK_SUCCESS)
      return r;
   return sg_physical_device_enable_features(pdev, info, &scratch->enabled_features);
}

uint32_t sg_device_channel(const struct sg_device *dev, uint32_t family, uint32_t index)
{
   (void)dev;
   return family == SG_QUEUE_FAMILY_COMPUTE ? index : HW_COMPUTE_CHANNELS + index;
}

struct sg_queue *sg_device_queue_of_channel(struct sg_device *dev, uint32_t channel)
{
   for (uint32_t i = 0; i < dev->queue_count; i++) {
      if (dev->queues[i].channel == channel)
         return &dev->queues[i];
   }
   return NULL;
}

VkResult sg_device_lost_result(struct sg_device *dev)
{
   if (!atomic_exchange(&dev->loss_reported, true))
      SG_LOG(SG_LOG_ERROR, SG_AREA_FAULT, "VK_ERROR_DEVICE_LOST: the GPU faulted (the "
             "post-mortem report above says where); every call that can fail on this device "
             "now returns VK_ERROR_DEVICE_LOST");
   return VK_ERROR_DEVICE_LOST;
}

/* How long vkDestroyDevice waits for queues that are not idle. */
#define SG_DESTROY_WAIT_NS 2000000000ull

/* SOFTGPU_STATS=1: the GPU's counters when the device goes away. */
static void sg_device_report_stats(struct sg_device *dev)
{
   const char *want = getenv("SOFTGPU_STATS");
   if (!want || !*want || strcmp(want, "0") == 0)
      return;
   struct hw_gpu_stats s;
   hw_gpu_get_stats(dev->gpu, &s);
   sg_log_report(SG_AREA_API,
                 "device stats: doorbells=%llu doorbell_syscalls=%llu ring_fetches=%llu "
                 "packets=%llu engine_sleeps=%llu engine_spin_hits=%llu "
                 "engine_wake_syscalls=%llu host_waits=%llu host_wait_sleeps=%llu "
                 "interrupts=%llu interrupt_wakes=%llu engine_spin_ns=%u wait_spin_ns=%u",
                 (unsigned long long)s.doorbells, (unsigned long long)s.doorbell_syscalls,
                 (unsigned long long)s.ring_fetches, (unsigned long long)s.packets,
                 (unsigned long long)s.engine_sleeps, (unsigned long long)s.engine_spin_hits,
                 (unsigned long long)s.engine_wake_syscalls, (unsigned long long)s.host_waits,
                 (unsigned long long)s.host_wait_sleeps, (unsigned long long)s.interrupts,
                 (unsigned long long)s.interrupt_wakes, s.engine_spin_ns, s.wait_spin_ns);
   char parked[HW_MAX_CHANNELS * 24] = "";
   size_t used = 0;
   for (uint32_t i = 0; i < s.channel_count; i++) {
      if (s.parked_ns[i])
         used = sg_appendf(parked, sizeof(parked), used, " %u:%.3f", i, s.parked_ns[i] / 1e6);
   }
   sg_log_report(SG_AREA_API,
                 "device stats: launches=%llu ctas=%llu warp_instructions=%llu "
                 "global_bytes=%llu barrier_waits=%llu jit_blocks=%llu jit_exits=%llu "
                 "jit_instructions=%llu jit_sweeps=%llu jit_wide=%llu jit_stepped=%llu "
                 "parked_ms_by_channel=[%s ]",
                 (unsigned long long)s.launches, (unsigned long long)s.ctas,
                 (unsigned long long)s.warp_instructions, (unsigned long long)s.global_bytes,
                 (unsigned long long)s.barrier_waits, (unsigned long long)s.jit_blocks,
                 (unsigned long long)s.jit_exits, (unsigned long long)s.jit_instructions,
                 (unsigned long long)s.jit_sweeps, (unsigned long long)s.jit_wide,
                 (unsigned long long)s.jit_stepped, parked);
}

VkResult sg_wait_result(struct sg_device *dev, enum hw_wait_result r)
{
   switch (r) {
   case HW_WAIT_SATISFIED: return VK_SUCCESS;
   case HW_WAIT_TIMEOUT: return VK_TIMEOUT;
   default: return sg_device_lost_result(dev);
   }
}

static void finish_queues(struct sg_device *dev)
{
   for (uint32_t i = 0; i < dev->queue_count; i++)
      sg_queue_finish(&dev->queues[i]);
   dev->queue_count = 0;
}

static VkResult init_queues(struct sg_device *dev, const VkDeviceCreateInfo *info)
{
   for (uint32_t i = 0; i < info->queueCreateInfoCount; i++) {
      const VkDeviceQueueCreateInfo *q = &info->pQueueCreateInfos[i];
      for (uint32_t k = 0; k < q->queueCount; k++) {
         struct sg_queue *queue = &dev->queues[dev->queue_count];
         VkResult r = sg_queue_init(queue, dev, q->queueFamilyIndex, k, q->flags,
                                    q->pQueuePriorities[k]);
         if (r != VK_SUCCESS)
            return r;
         dev->progress[queue->channel] = queue->progress;
         dev->queue_count++;
      }
   }
   return VK_SUCCESS;
}

/* The GPU: every channel of both engines exists; a queue binds its own. */
static VkResult create_gpu(struct sg_device *dev)
{
   struct hw_gpu_config cfg = {
      .compute_channels = HW_COMPUTE_CHANNELS,
      .dma_channels = HW_DMA_CHANNELS,
      .memory_bytes = dev->pdev->caps.memory_bytes,
   };
   hw_gpu_config_from_env(&cfg);
   /* The driver's own trace points (the application's pid) start the
    * recorder themselves, not through the GPU's start-up, which starts it
    * for the GPU's; it reads SOFTGPU_TRACE once per process. */
   sg_trace_init();
   if (hw_gpu_create(&cfg, &dev->gpu) != 0) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDevice: the simulated GPU could not start");
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   sg_sync_words_init(&dev->sync_words, dev->gpu, &dev->alloc);
   sg_hang_device_init(dev);
   return VK_SUCCESS;
}

static void destroy_gpu(struct sg_device *dev)
{
   sg_hang_device_finish(dev);
   sg_sync_words_finish(&dev->sync_words);
   hw_gpu_destroy(dev->gpu);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateDevice(VkPhysicalDevice physicalDevice,
                                               const VkDeviceCreateInfo *pCreateInfo,
                                               const VkAllocationCallbacks *pAllocator,
                                               VkDevice *pDevice)
{
   struct sg_physical_device *pdev = sg_physical_device_from_handle(physicalDevice);
   struct sg_instance *inst = pdev->instance;
   /* SOFTGPU_LOG is read at device creation: an application may change it
    * between devices. */
   sg_log_reload_env();
   struct sg_device scratch;
   uint32_t queue_total;
   VkResult r = check_create_info(pdev, pCreateInfo, &scratch, &queue_total);
   if (r != VK_SUCCESS)
      return r;

   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &inst->alloc);
   struct sg_device *dev = sg_zalloc(alloc, sizeof(*dev), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!dev)
      goto fail_device;
   dev->alloc = *alloc;
   sg_object_init(&dev->base, VK_OBJECT_TYPE_DEVICE, dev, &dev->alloc);
   set_loader_magic_value(dev);
   dev->instance = inst;
   dev->pdev = pdev;
   dev->api_version = inst->api_version;   /* at most SG_API_VERSION */
   dev->enabled_exts = scratch.enabled_exts;
   for (uint32_t w = 0; w < SG_EXT_WORDS; w++)
      dev->enabled_exts.bits[w] |= inst->enabled_exts.bits[w];
   dev->enabled_features = scratch.enabled_features;
   /* "The corresponding core version is supported (as returned by
    * VkPhysicalDeviceProperties::apiVersion)": the physical device's
    * version, not the one the application asked for. */
   sg_device_spirv_init(&dev->spirv, pdev->props.v10.apiVersion, dev->api_version,
                        &dev->enabled_exts, &dev->enabled_features, &pdev->props);
   pthread_mutex_init(&dev->printf_lock, NULL);

   r = VK_ERROR_OUT_OF_HOST_MEMORY;
   if (queue_total > 0) {
      dev->queues = sg_zalloc(&dev->alloc, queue_total * sizeof(*dev->queues),
                              VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
      if (!dev->queues)
         goto fail_queue_array;
   }
   r = create_gpu(dev);
   if (r != VK_SUCCESS)
      goto fail_gpu;
   r = init_queues(dev, pCreateInfo);
   if (r != VK_SUCCESS)
      goto fail_queues;

   *pDevice = sg_device_to_handle(dev);
   sg_snapshot_register(dev);
   SG_LOG(SG_LOG_INFO, SG_AREA_API, "device created with %u queues", dev->queue_count);
   return VK_SUCCESS;

fail_queues:
   finish_queues(dev);
   destroy_gpu(dev);
fail_gpu:
   sg_free(&dev->alloc, dev->queues);
fail_queue_array:
   sg_object_finish(&dev->base);
   sg_free(alloc, dev);
   return r;
fail_device:
   SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDevice: out of host memory");
   return VK_ERROR_OUT_OF_HOST_MEMORY;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyDevice(VkDevice device, const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   if (!dev)
      return;
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   sg_snapshot_unregister(dev);
   /* "All child objects ... must have been destroyed" and the queues idle:
    * the application's promise. A queue still busy (or parked on a wait
    * that will never be satisfied) gets a bounded wait and a warning; the
    * engines stop before any GPU memory is freed either way. */
   for (uint32_t i = 0; i < dev->queue_count; i++) {
      if (sg_queue_wait_idle(&dev->queues[i], SG_DESTROY_WAIT_NS) == VK_TIMEOUT)
         SG_LOG(SG_LOG_WARN, SG_AREA_API, "vkDestroyDevice: queue %u.%u still has work pending; "
                "it is abandoned", dev->queues[i].family, dev->queues[i].index_in_family);
   }
   hw_gpu_stop(dev->gpu);
   sg_device_report_stats(dev);
   finish_queues(dev);
   destroy_gpu(dev);
   /* Everything the device did is recorded: the trace file is complete. */
   sg_trace_flush();
   sg_free(&dev->alloc, dev->queues);
   pthread_mutex_destroy(&dev->printf_lock);
   sg_object_finish(&dev->base);
   sg_free(alloc, dev);
}

static struct sg_queue *find_queue(struct sg_device *dev, uint32_t family, uint32_t index)
{
   for (uint32_t i = 0; i < dev->queue_count; i++) {
      struct sg_queue *q = &dev->queues[i];
      if (q->family == family && q->index_in_family == index)
         return q;
   }
   return NULL;
}

static VkResult device_wait_idle(VkDevice device)
{
   struct sg_device *dev = sg_device_from_handle(device);
   for (uint32_t i = 0; i < dev->queue_count; i++) {
      VkResult r = sg_queue_wait_idle(&dev->queues[i], UINT64_MAX);
      if (r != VK_SUCCESS)
         return r;
   }
   return sg_device_check(dev);
}

/* Traced as the application thread's call (SOFTGPU_TRACE). */
VKAPI_ATTR VkResult VKAPI_CALL sg_DeviceWaitIdle(VkDevice device)
{
   uint64_t t0 = sg_trace_call_begin();
   VkResult r = device_wait_idle(device);
   sg_trace_call_end("vkDeviceWaitIdle", t0, NULL, 0);
   return r;
}

VKAPI_ATTR void VKAPI_CALL sg_GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex,
                                             uint32_t queueIndex, VkQueue *pQueue)
{
   struct sg_queue *q = find_queue(sg_device_from_handle(device), queueFamilyIndex, queueIndex);
   if (!q)
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkGetDeviceQueue: queue %u of family %u was not "
             "requested at device creation", queueIndex, queueFamilyIndex);
   *pQueue = q ? sg_queue_to_handle(q) : VK_NULL_HANDLE;
}

VKAPI_ATTR void VKAPI_CALL sg_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *pQueueInfo,
                                              VkQueue *pQueue)
{
   struct sg_queue *q = find_queue(sg_device_from_handle(device), pQueueInfo->queueFamilyIndex,
                                   pQueueInfo->queueIndex);
   /* A queue is returned only for the flags it was created with. */
   if (q && q->flags != pQueueInfo->flags)
      q = NULL;
   *pQueue = q ? sg_queue_to_handle(q) : VK_NULL_HANDLE;
}
