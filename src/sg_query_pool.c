/* VkQueryPool: timestamp and occlusion queries (see sg_query_pool.h). */
#include "sg_query_pool.h"

#include <string.h>

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_hang.h"
#include "sg_log.h"
#include "sg_trace.h"

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateQueryPool(VkDevice device,
                                                  const VkQueryPoolCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator,
                                                  VkQueryPool *pQueryPool)
{
   struct sg_device *dev = sg_device_from_handle(device);
   /* vkCreateQueryPool fails with VK_ERROR_OUT_OF_HOST_MEMORY or
    * VK_ERROR_OUT_OF_DEVICE_MEMORY only (its Return Codes): the query type
    * is never a reason to refuse. Every type is stored alike, one struct
    * hw_query_slot per query, zero (unavailable) until made available. */
   switch (pCreateInfo->queryType) {
   case VK_QUERY_TYPE_TIMESTAMP:
      break;
   case VK_QUERY_TYPE_OCCLUSION:
      /* Occlusion pools need no feature, but "If the queryType used to
       * create queryPool was VK_QUERY_TYPE_OCCLUSION, the VkCommandPool that
       * commandBuffer was allocated from must support graphics operations"
       * (VUID-vkCmdBeginQuery-queryType-00803), and softgpu has no graphics
       * queue: its queries can be reset, read and copied, and are never
       * made available. */
      break;
   default:
      /* Pipeline statistics need the pipelineStatisticsQuery feature
       * (VUID-VkQueryPoolCreateInfo-queryType-00791), which softgpu does
       * not offer, and every other type belongs to an extension softgpu
       * does not offer: invalid usage, whose behaviour is undefined. The
       * pool is made like an occlusion pool, one value per query, none
       * ever available. */
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateQueryPool: query type %d needs a feature or "
             "extension softgpu does not offer (invalid usage); its queries will never be "
             "available", pCreateInfo->queryType);
      break;
   }
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_query_pool *pool = sg_zalloc(alloc, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateQueryPool: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   struct hw_mem *mem = hw_gpu_memory(dev->gpu);
   uint64_t bytes = (uint64_t)pCreateInfo->queryCount * sizeof(struct hw_query_slot);
   if (hw_mem_alloc(mem, bytes ? bytes : 1, &pool->va) != 0) {
      sg_free(alloc, pool);
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateQueryPool: out of GPU memory");
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   sg_object_init(&pool->base, VK_OBJECT_TYPE_QUERY_POOL, dev, &dev->alloc);
   pool->type = pCreateInfo->queryType;
   pool->count = pCreateInfo->queryCount;
   pool->slots = hw_mem_host(mem, pool->va);
   *pQueryPool = sg_query_pool_to_handle(pool);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyQueryPool(VkDevice device, VkQueryPool queryPool,
                                               const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_query_pool *pool = sg_query_pool_from_handle(queryPool);
   if (!pool)
      return;
   hw_mem_free(hw_gpu_memory(dev->gpu), pool->va);
   sg_object_finish(&pool->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), pool);
}

static _Atomic uint64_t *availability(struct sg_query_pool *pool, uint32_t query)
{
   return (_Atomic uint64_t *)&pool->slots[query].available;
}

VKAPI_ATTR void VKAPI_CALL sg_ResetQueryPool(VkDevice device, VkQueryPool queryPool,
                                             uint32_t firstQuery, uint32_t queryCount)
{
   (void)device;
   struct sg_query_pool *pool = sg_query_pool_from_handle(queryPool);
   for (uint32_t i = firstQuery; i < firstQuery + queryCount; i++) {
      atomic_store_explicit(availability(pool, i), 0, memory_order_relaxed);
      atomic_store_explicit((_Atomic uint64_t *)&pool->slots[i].value, 0, memory_order_relaxed);
   }
}

static void put_result(uint8_t *out, uint64_t v, bool is64)
{
   if (is64) {
      memcpy(out, &v, 8);
   } else {
      uint32_t v32 = (uint32_t)v;
      memcpy(out, &v32, 4);
   }
}

static VkResult get_query_pool_results(VkDevice device, VkQueryPool queryPool,
                                       uint32_t firstQuery, uint32_t queryCount,
                                       size_t dataSize, void *pData,
                                       VkDeviceSize stride, VkQueryResultFlags flags)
{
   (void)dataSize;
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_query_pool *pool = sg_query_pool_from_handle(queryPool);
   bool is64 = flags & VK_QUERY_RESULT_64_BIT;
   size_t value_size = is64 ? 8 : 4;
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < queryCount; i++) {
      uint32_t q = firstQuery + i;
      _Atomic uint64_t *avail = availability(pool, q);
      uint64_t a = atomic_load_explicit(avail, memory_order_acquire);
      if (!a && (flags & VK_QUERY_RESULT_WAIT_BIT)) {
         uint64_t va = pool->va + (uint64_t)q * sizeof(struct hw_query_slot) + 8;
         struct hw_wait_item item = {va, 1};
         VkResult r = sg_wait_result(dev, sg_hang_wait(dev, &item, 1, true, UINT64_MAX,
                                                       "vkGetQueryPoolResults"));
         if (r != VK_SUCCESS)
            return r;
         a = 1;
      }
      uint8_t *out = (uint8_t *)pData + i * stride;
      uint64_t v = atomic_load_explicit((_Atomic uint64_t *)&pool->slots[q].value,
                                        memory_order_relaxed);
      /* "If ... not available ... and PARTIAL is not set, no result is written". */
      if (a || (flags & VK_QUERY_RESULT_PARTIAL_BIT))
         put_result(out, a ? v : 0, is64);
      if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
         put_result(out + value_size, a, is64);
      if (!a)
         result = VK_NOT_READY;
   }
   /* A lost device reports the loss whatever the queries' state. */
   VkResult lost = sg_device_check(dev);
   return lost != VK_SUCCESS ? lost : result;
}

/* Traced as the application thread's call (SOFTGPU_TRACE). */
VKAPI_ATTR VkResult VKAPI_CALL sg_GetQueryPoolResults(VkDevice device, VkQueryPool queryPool,
                                                      uint32_t firstQuery, uint32_t queryCount,
                                                      size_t dataSize, void *pData,
                                                      VkDeviceSize stride, VkQueryResultFlags flags)
{
   uint64_t t0 = sg_trace_call_begin();
   VkResult r = get_query_pool_results(device, queryPool, firstQuery, queryCount, dataSize,
                                       pData, stride, flags);
   sg_trace_call_end("vkGetQueryPoolResults", t0, NULL, 0);
   return r;
}
