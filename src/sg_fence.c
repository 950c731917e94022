/* VkFence: a semaphore word and a target value (see sg_fence.h). */
#include "sg_fence.h"

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_hang.h"
#include "sg_log.h"
#include "sg_trace.h"
#include "sg_printf.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateFence(VkDevice device, const VkFenceCreateInfo *pCreateInfo,
                                              const VkAllocationCallbacks *pAllocator,
                                              VkFence *pFence)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_fence *fence = sg_zalloc(alloc, sizeof(*fence), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!fence) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_SYNC, "vkCreateFence: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkResult r = sg_sync_word_alloc(&dev->sync_words, &fence->va, &fence->word);
   if (r != VK_SUCCESS) {
      sg_free(alloc, fence);
      return r;
   }
   sg_object_init(&fence->base, VK_OBJECT_TYPE_FENCE, dev, &dev->alloc);
   atomic_store(&fence->target, 1);
   if (pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT)
      atomic_store(fence->word, 1);
   *pFence = sg_fence_to_handle(fence);
   sg_sync_word_name(&dev->sync_words, fence->va, "fence", (uint64_t)(uintptr_t)*pFence);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyFence(VkDevice device, VkFence fence,
                                           const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_fence *f = sg_fence_from_handle(fence);
   if (!f)
      return;
   sg_sync_word_free(&dev->sync_words, f->va);
   sg_object_finish(&f->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), f);
}

static bool signaled(const struct sg_fence *f)
{
   return atomic_load_explicit(f->word, memory_order_acquire) >=
          atomic_load_explicit(&f->target, memory_order_relaxed);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_ResetFences(VkDevice device, uint32_t count, const VkFence *pFences)
{
   (void)device;
   for (uint32_t i = 0; i < count; i++) {
      struct sg_fence *f = sg_fence_from_handle(pFences[i]);
      /* The next signal takes the next value; a fence that is not signaled
       * keeps its target (resetting a pending fence is invalid usage). */
      if (signaled(f))
         atomic_store_explicit(&f->target, atomic_load(f->word) + 1, memory_order_relaxed);
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_GetFenceStatus(VkDevice device, VkFence fence)
{
   struct sg_device *dev = sg_device_from_handle(device);
   if (hw_gpu_is_lost(dev->gpu))
      return sg_device_lost_result(dev);
   sg_printf_poll(dev);
   return signaled(sg_fence_from_handle(fence)) ? VK_SUCCESS : VK_NOT_READY;
}

#define STACK_ITEMS 32u

static VkResult wait_for_fences(VkDevice device, uint32_t count,
                                const VkFence *pFences, VkBool32 waitAll,
                                uint64_t timeout)
{
   struct sg_device *dev = sg_device_from_handle(device);
   if (count == 0)
      return sg_device_check(dev);
   struct hw_wait_item stack[STACK_ITEMS], *items = stack;
   if (count > STACK_ITEMS) {
      items = sg_alloc(&dev->alloc, count * sizeof(*items), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!items)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   for (uint32_t i = 0; i < count; i++) {
      struct sg_fence *f = sg_fence_from_handle(pFences[i]);
      items[i] = (struct hw_wait_item){f->va, atomic_load(&f->target)};
   }
   VkResult r = sg_wait_result(dev, sg_hang_wait(dev, items, count, waitAll, timeout,
                                                 "vkWaitForFences"));
   if (items != stack)
      sg_free(&dev->alloc, items);
   sg_printf_poll(dev);
   /* A lost device reports loss even for fences that completed before. */
   return r == VK_SUCCESS ? sg_device_check(dev) : r;
}

/* Traced as the application thread's call (SOFTGPU_TRACE). */
VKAPI_ATTR VkResult VKAPI_CALL sg_WaitForFences(VkDevice device, uint32_t count,
                                                const VkFence *pFences, VkBool32 waitAll,
                                                uint64_t timeout)
{
   uint64_t t0 = sg_trace_call_begin();
   VkResult r = wait_for_fences(device, count, pFences, waitAll, timeout);
   sg_trace_call_end("vkWaitForFences", t0, NULL, 0);
   return r;
}
