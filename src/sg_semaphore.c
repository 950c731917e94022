/* VkSemaphore, binary and timeline: a semaphore word (see sg_semaphore.h). */
#include "sg_semaphore.h"

#include <stdio.h>

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_hang.h"
#include "sg_log.h"
#include "sg_trace.h"
#include "sg_printf.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateSemaphore(VkDevice device,
                                                  const VkSemaphoreCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator,
                                                  VkSemaphore *pSemaphore)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkSemaphoreTypeCreateInfo *type = NULL;
   for (const VkBaseInStructure *s = pCreateInfo->pNext; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO)
         type = (const VkSemaphoreTypeCreateInfo *)s;
   }
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_semaphore *sem = sg_zalloc(alloc, sizeof(*sem), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!sem) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_SYNC, "vkCreateSemaphore: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkResult r = sg_sync_word_alloc(&dev->sync_words, &sem->va, &sem->word);
   if (r != VK_SUCCESS) {
      sg_free(alloc, sem);
      return r;
   }
   sg_sync_word_name(&dev->sync_words, sem->va, "semaphore", (uint64_t)(uintptr_t)sem);
   if (sg_trace_on()) {
      /* Its value becomes a counter in the GPU's trace; a debug-utils name
       * replaces this one. Formatted only when tracing: the GPU would drop
       * it otherwise. */
      char name[48];
      snprintf(name, sizeof(name), "semaphore 0x%llx", (unsigned long long)(uintptr_t)sem);
      hw_gpu_trace_name(dev->gpu, sem->va, name);
   }
   sg_object_init(&sem->base, VK_OBJECT_TYPE_SEMAPHORE, dev, &dev->alloc);
   sem->timeline = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
   if (sem->timeline)
      atomic_store(sem->word, type->initialValue);
   *pSemaphore = sg_semaphore_to_handle(sem);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                               const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_semaphore *sem = sg_semaphore_from_handle(semaphore);
   if (!sem)
      return;
   sg_sync_word_free(&dev->sync_words, sem->va);
   sg_object_finish(&sem->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), sem);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore,
                                                           uint64_t *pValue)
{
   struct sg_device *dev = sg_device_from_handle(device);
   if (hw_gpu_is_lost(dev->gpu))
      return sg_device_lost_result(dev);
   *pValue = atomic_load_explicit(sg_semaphore_from_handle(semaphore)->word, memory_order_acquire);
   sg_printf_poll(dev);
   return VK_SUCCESS;
}

static VkResult signal_semaphore(VkDevice device,
                                 const VkSemaphoreSignalInfo *pSignalInfo)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_semaphore *sem = sg_semaphore_from_handle(pSignalInfo->semaphore);
   /* A host signal: store, raise the interrupt, re-check parked acquires. */
   hw_host_signal(dev->gpu, sem->va, pSignalInfo->value);
   return VK_SUCCESS;
}

/* Traced as the application thread's call (SOFTGPU_TRACE). */
VKAPI_ATTR VkResult VKAPI_CALL sg_SignalSemaphore(VkDevice device,
                                                  const VkSemaphoreSignalInfo *pSignalInfo)
{
   uint64_t t0 = sg_trace_call_begin();
   VkResult r = signal_semaphore(device, pSignalInfo);
   const struct sg_trace_arg args[] = {{"value", pSignalInfo->value}};
   sg_trace_call_end("vkSignalSemaphore", t0, args, 1);
   return r;
}

#define STACK_ITEMS 32u

static VkResult wait_semaphores(VkDevice device,
                                const VkSemaphoreWaitInfo *pWaitInfo,
                                uint64_t timeout)
{
   struct sg_device *dev = sg_device_from_handle(device);
   uint32_t count = pWaitInfo->semaphoreCount;
   if (count == 0)
      return sg_device_check(dev);
   struct hw_wait_item stack[STACK_ITEMS], *items = stack;
   if (count > STACK_ITEMS) {
      items = sg_alloc(&dev->alloc, count * sizeof(*items), VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!items)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   for (uint32_t i = 0; i < count; i++)
      items[i] = (struct hw_wait_item){sg_semaphore_from_handle(pWaitInfo->pSemaphores[i])->va,
                                       pWaitInfo->pValues[i]};
   bool all = !(pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT);
   VkResult r = sg_wait_result(dev, sg_hang_wait(dev, items, count, all, timeout,
                                                 "vkWaitSemaphores"));
   if (items != stack)
      sg_free(&dev->alloc, items);
   sg_printf_poll(dev);
   return r == VK_SUCCESS ? sg_device_check(dev) : r;
}

/* Traced as the application thread's call (SOFTGPU_TRACE). */
VKAPI_ATTR VkResult VKAPI_CALL sg_WaitSemaphores(VkDevice device,
                                                 const VkSemaphoreWaitInfo *pWaitInfo,
                                                 uint64_t timeout)
{
   uint64_t t0 = sg_trace_call_begin();
   VkResult r = wait_semaphores(device, pWaitInfo, timeout);
   sg_trace_call_end("vkWaitSemaphores", t0, NULL, 0);
   return r;
}
