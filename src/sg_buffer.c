/* VkBuffer: a range of GPU memory once bound; its address is its VA. */
#include "sg_buffer.h"

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_log.h"
#include "sg_memory.h"
#include "sg_physical_device.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateBuffer(VkDevice device, const VkBufferCreateInfo *pCreateInfo,
                                               const VkAllocationCallbacks *pAllocator,
                                               VkBuffer *pBuffer)
{
   struct sg_device *dev = sg_device_from_handle(device);
   if (pCreateInfo->flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT |
                             VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
                             VK_BUFFER_CREATE_SPARSE_ALIASED_BIT |
                             VK_BUFFER_CREATE_PROTECTED_BIT)) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkCreateBuffer: flags 0x%x need sparse or protected "
             "memory, which softgpu does not have", pCreateInfo->flags);
      return VK_ERROR_FEATURE_NOT_PRESENT;
   }
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_buffer *buf = sg_zalloc(alloc, sizeof(*buf), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!buf) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkCreateBuffer: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&buf->base, VK_OBJECT_TYPE_BUFFER, dev, &dev->alloc);
   buf->size = pCreateInfo->size;
   buf->usage = pCreateInfo->usage;
   buf->flags = pCreateInfo->flags;
   *pBuffer = sg_buffer_to_handle(buf);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyBuffer(VkDevice device, VkBuffer buffer,
                                            const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_buffer *buf = sg_buffer_from_handle(buffer);
   if (!buf)
      return;
   sg_object_finish(&buf->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), buf);
}

static void requirements(VkDeviceSize size, VkMemoryRequirements *req)
{
   req->size = (size + 3) & ~(VkDeviceSize)3;
   req->alignment = SG_BUFFER_ALIGNMENT;
   req->memoryTypeBits = 1;   /* the one memory type */
}

/* Chained output structs: softgpu has no reason to prefer dedicated
 * allocations. */
static void fill_dedicated(void *pnext)
{
   for (VkBaseOutStructure *s = pnext; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
         VkMemoryDedicatedRequirements *d = (VkMemoryDedicatedRequirements *)s;
         d->prefersDedicatedAllocation = VK_FALSE;
         d->requiresDedicatedAllocation = VK_FALSE;
      }
   }
}

VKAPI_ATTR void VKAPI_CALL sg_GetBufferMemoryRequirements(VkDevice device, VkBuffer buffer,
                                                          VkMemoryRequirements *pReq)
{
   (void)device;
   requirements(sg_buffer_from_handle(buffer)->size, pReq);
}

VKAPI_ATTR void VKAPI_CALL sg_GetBufferMemoryRequirements2(VkDevice device,
                                                           const VkBufferMemoryRequirementsInfo2 *pInfo,
                                                           VkMemoryRequirements2 *pReq)
{
   (void)device;
   requirements(sg_buffer_from_handle(pInfo->buffer)->size, &pReq->memoryRequirements);
   fill_dedicated(pReq->pNext);
}

VKAPI_ATTR void VKAPI_CALL sg_GetDeviceBufferMemoryRequirements(
   VkDevice device, const VkDeviceBufferMemoryRequirements *pInfo, VkMemoryRequirements2 *pReq)
{
   (void)device;
   requirements(pInfo->pCreateInfo->size, &pReq->memoryRequirements);
   fill_dedicated(pReq->pNext);
}

static VkResult bind(struct sg_device *dev, const VkBindBufferMemoryInfo *info)
{
   struct sg_buffer *buf = sg_buffer_from_handle(info->buffer);
   struct sg_memory *mem = sg_memory_from_handle(info->memory);
   if (info->memoryOffset + buf->size > mem->size) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkBindBufferMemory: %llu bytes at offset %llu do "
             "not fit in a %llu-byte allocation", (unsigned long long)buf->size,
             (unsigned long long)info->memoryOffset, (unsigned long long)mem->size);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   (void)dev;
   buf->va = mem->va + info->memoryOffset;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_BindBufferMemory(VkDevice device, VkBuffer buffer,
                                                   VkDeviceMemory memory, VkDeviceSize offset)
{
   VkBindBufferMemoryInfo info = {.sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
                                  .buffer = buffer, .memory = memory, .memoryOffset = offset};
   return bind(sg_device_from_handle(device), &info);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_BindBufferMemory2(VkDevice device, uint32_t count,
                                                    const VkBindBufferMemoryInfo *pInfos)
{
   for (uint32_t i = 0; i < count; i++) {
      VkResult r = bind(sg_device_from_handle(device), &pInfos[i]);
      if (r != VK_SUCCESS)
         return r;
   }
   return VK_SUCCESS;
}

/* Buffer device address: GPU VAs are the addresses. */
VKAPI_ATTR VkDeviceAddress VKAPI_CALL sg_GetBufferDeviceAddress(VkDevice device,
                                                                const VkBufferDeviceAddressInfo *pInfo)
{
   (void)device;
   return sg_buffer_from_handle(pInfo->buffer)->va;
}

VKAPI_ATTR uint64_t VKAPI_CALL sg_GetBufferOpaqueCaptureAddress(VkDevice device,
                                                                const VkBufferDeviceAddressInfo *pInfo)
{
   (void)device;
   return sg_buffer_from_handle(pInfo->buffer)->va;
}
