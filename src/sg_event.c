/* VkEvent: host and GPU set, reset and wait on one semaphore word. */
#include "sg_event.h"

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_log.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateEvent(VkDevice device, const VkEventCreateInfo *pCreateInfo,
                                              const VkAllocationCallbacks *pAllocator,
                                              VkEvent *pEvent)
{
   (void)pCreateInfo;   /* DEVICE_ONLY only restricts the application */
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_event *ev = sg_zalloc(alloc, sizeof(*ev), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!ev) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_SYNC, "vkCreateEvent: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkResult r = sg_sync_word_alloc(&dev->sync_words, &ev->va, &ev->word);
   if (r != VK_SUCCESS) {
      sg_free(alloc, ev);
      return r;
   }
   sg_sync_word_name(&dev->sync_words, ev->va, "event", (uint64_t)(uintptr_t)ev);
   sg_object_init(&ev->base, VK_OBJECT_TYPE_EVENT, dev, &dev->alloc);
   *pEvent = sg_event_to_handle(ev);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyEvent(VkDevice device, VkEvent event,
                                           const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_event *ev = sg_event_from_handle(event);
   if (!ev)
      return;
   sg_sync_word_free(&dev->sync_words, ev->va);
   sg_object_finish(&ev->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), ev);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_GetEventStatus(VkDevice device, VkEvent event)
{
   struct sg_device *dev = sg_device_from_handle(device);
   if (hw_gpu_is_lost(dev->gpu))
      return sg_device_lost_result(dev);
   uint64_t v = atomic_load_explicit(sg_event_from_handle(event)->word, memory_order_acquire);
   return v ? VK_EVENT_SET : VK_EVENT_RESET;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_SetEvent(VkDevice device, VkEvent event)
{
   struct sg_device *dev = sg_device_from_handle(device);
   /* Channels parked on this event re-check it now. */
   hw_host_signal(dev->gpu, sg_event_from_handle(event)->va, 1);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_ResetEvent(VkDevice device, VkEvent event)
{
   (void)device;
   atomic_store_explicit(sg_event_from_handle(event)->word, 0, memory_order_release);
   return VK_SUCCESS;
}
