/* VkDeviceMemory: allocation, mapping, and the coherent no-op flushes. */
#include "sg_memory.h"

#include <stdatomic.h>

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_log.h"
#include "sg_physical_device.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_AllocateMemory(VkDevice device,
                                                 const VkMemoryAllocateInfo *pAllocateInfo,
                                                 const VkAllocationCallbacks *pAllocator,
                                                 VkDeviceMemory *pMemory)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkPhysicalDeviceLimits *limits = &dev->pdev->props.v10.limits;
   if (pAllocateInfo->memoryTypeIndex >= dev->pdev->memory.memoryTypeCount) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkAllocateMemory: memory type %u does not exist",
             pAllocateInfo->memoryTypeIndex);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   /* "... if the number of allocations would exceed maxMemoryAllocationCount,
    * VK_ERROR_TOO_MANY_OBJECTS" (vkAllocateMemory). */
   if (atomic_fetch_add(&dev->memory_count, 1) >= limits->maxMemoryAllocationCount) {
      atomic_fetch_sub(&dev->memory_count, 1);
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkAllocateMemory: already %u allocations "
             "(maxMemoryAllocationCount)", limits->maxMemoryAllocationCount);
      return VK_ERROR_TOO_MANY_OBJECTS;
   }
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_memory *mem = sg_zalloc(alloc, sizeof(*mem), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!mem) {
      atomic_fetch_sub(&dev->memory_count, 1);
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkAllocateMemory: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   struct hw_mem *hm = hw_gpu_memory(dev->gpu);
   if (hw_mem_alloc(hm, pAllocateInfo->allocationSize, &mem->va) != 0) {
      sg_free(alloc, mem);
      atomic_fetch_sub(&dev->memory_count, 1);
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkAllocateMemory: %llu bytes do not fit in the "
             "%llu-byte heap (%llu in use): VK_ERROR_OUT_OF_DEVICE_MEMORY",
             (unsigned long long)pAllocateInfo->allocationSize,
             (unsigned long long)hm->budget, (unsigned long long)atomic_load(&hm->allocated));
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   sg_object_init(&mem->base, VK_OBJECT_TYPE_DEVICE_MEMORY, dev, &dev->alloc);
   mem->size = pAllocateInfo->allocationSize;
   mem->host = hw_mem_host(hm, mem->va);
   *pMemory = sg_memory_to_handle(mem);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_FreeMemory(VkDevice device, VkDeviceMemory memory,
                                         const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_memory *mem = sg_memory_from_handle(memory);
   if (!mem)
      return;
   /* Freed pages leave the GPU's page map: a later GPU access faults
    * instead of reaching whatever reuses them. */
   hw_mem_free(hw_gpu_memory(dev->gpu), mem->va);
   atomic_fetch_sub(&dev->memory_count, 1);
   sg_object_finish(&mem->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), mem);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_MapMemory(VkDevice device, VkDeviceMemory memory,
                                            VkDeviceSize offset, VkDeviceSize size,
                                            VkMemoryMapFlags flags, void **ppData)
{
   (void)device;
   (void)size;
   (void)flags;
   struct sg_memory *mem = sg_memory_from_handle(memory);
   if (mem->mapped) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkMapMemory: the memory is already mapped");
      return VK_ERROR_MEMORY_MAP_FAILED;
   }
   mem->mapped = true;
   *ppData = (uint8_t *)mem->host + offset;
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
   (void)device;
   sg_memory_from_handle(memory)->mapped = false;
}

/* All memory is HOST_COHERENT: there is nothing to flush or invalidate. */
VKAPI_ATTR VkResult VKAPI_CALL sg_FlushMappedMemoryRanges(VkDevice device, uint32_t count,
                                                          const VkMappedMemoryRange *ranges)
{
   (void)device;
   (void)count;
   (void)ranges;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_InvalidateMappedMemoryRanges(VkDevice device, uint32_t count,
                                                               const VkMappedMemoryRange *ranges)
{
   (void)device;
   (void)count;
   (void)ranges;
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_GetDeviceMemoryCommitment(VkDevice device, VkDeviceMemory memory,
                                                        VkDeviceSize *pCommittedMemoryInBytes)
{
   (void)device;
   /* No lazily allocated memory type is offered: all of it is committed. */
   *pCommittedMemoryInBytes = sg_memory_from_handle(memory)->size;
}

VKAPI_ATTR uint64_t VKAPI_CALL sg_GetDeviceMemoryOpaqueCaptureAddress(
   VkDevice device, const VkDeviceMemoryOpaqueCaptureAddressInfo *pInfo)
{
   (void)device;
   return sg_memory_from_handle(pInfo->memory)->va;
}
