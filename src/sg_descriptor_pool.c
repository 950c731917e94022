/*
 * VkDescriptorPool and the allocation of VkDescriptorSets from it: each set
 * takes a range of the pool's GPU memory, first fit in address order, so
 * freeing sets (FREE_DESCRIPTOR_SET_BIT) leaves holes later sets reuse.
 */
#include "sg_descriptor_pool.h"

#include <string.h>

#include "hw_gpu.h"
#include "hw_mem.h"
#include "hw_root.h"
#include "sg_alloc.h"
#include "sg_descriptor_set.h"
#include "sg_device.h"
#include "sg_log.h"

/* Sets start aligned as their descriptors and inline blocks need (hw_root.h). */
#define SET_ALIGN HW_DESCRIPTOR_ALIGN

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateDescriptorPool(VkDevice device,
                                                       const VkDescriptorPoolCreateInfo *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkDescriptorPool *pDescriptorPool)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   uint64_t size = 0;
   for (uint32_t i = 0; i < pCreateInfo->poolSizeCount; i++) {
      const VkDescriptorPoolSize *ps = &pCreateInfo->pPoolSizes[i];
      /* inline uniform blocks: bytes, and each binding rounds up to 16 */
      size += sg_descriptor_is_inline(ps->type)
                 ? ps->descriptorCount + 15ull * pCreateInfo->maxSets
                 : (uint64_t)ps->descriptorCount * HW_DESCRIPTOR_BYTES;
   }
   if (size > UINT32_MAX) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDescriptorPool: %llu bytes of descriptors is "
             "more than one pool can hold (4 GiB)", (unsigned long long)size);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   struct sg_descriptor_pool *pool = sg_zalloc(alloc, sizeof(*pool), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateDescriptorPool: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (size) {
      struct hw_mem *mem = hw_gpu_memory(dev->gpu);
      if (hw_mem_alloc(mem, size, &pool->va) != 0) {
         sg_free(alloc, pool);
         SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkCreateDescriptorPool: out of GPU memory for "
                "%llu bytes of descriptors", (unsigned long long)size);
         return VK_ERROR_OUT_OF_DEVICE_MEMORY;
      }
      pool->host = hw_mem_host(mem, pool->va);
   }
   sg_object_init(&pool->base, VK_OBJECT_TYPE_DESCRIPTOR_POOL, dev, &dev->alloc);
   pool->alloc = *alloc;
   pool->flags = pCreateInfo->flags;
   pool->size = (uint32_t)size;
   pool->max_sets = pCreateInfo->maxSets;
   *pDescriptorPool = sg_descriptor_pool_to_handle(pool);
   return VK_SUCCESS;
}

static void free_set(struct sg_descriptor_pool *pool, struct sg_descriptor_set *set)
{
   sg_object_finish(&set->base);
   sg_free(&pool->alloc, set);
   pool->set_count--;
}

static void free_all(struct sg_descriptor_pool *pool)
{
   while (pool->sets) {
      struct sg_descriptor_set *next = pool->sets->next;
      free_set(pool, pool->sets);
      pool->sets = next;
   }
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool,
                                                    const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_descriptor_pool *pool = sg_descriptor_pool_from_handle(descriptorPool);
   if (!pool)
      return;
   free_all(pool);
   if (pool->va)
      hw_mem_free(hw_gpu_memory(dev->gpu), pool->va);
   sg_object_finish(&pool->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), pool);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_ResetDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool,
                                                      VkDescriptorPoolResetFlags flags)
{
   (void)device;
   (void)flags;
   free_all(sg_descriptor_pool_from_handle(descriptorPool));
   return VK_SUCCESS;
}

/* The first hole of `size` bytes: *link is where the new set goes in the
 * list. False if there is none. */
static bool find_room(struct sg_descriptor_pool *pool, uint32_t size, uint32_t *offset,
                      struct sg_descriptor_set ***link)
{
   uint32_t at = 0;
   struct sg_descriptor_set **l = &pool->sets;
   for (;; l = &(*l)->next) {
      uint32_t end = *l ? (*l)->offset : pool->size;
      if (end >= at && end - at >= size) {
         *offset = at;
         *link = l;
         return true;
      }
      if (!*l)
         return false;
      uint64_t next = (uint64_t)(*l)->offset + (*l)->size;
      at = (uint32_t)((next + SET_ALIGN - 1) / SET_ALIGN * SET_ALIGN);
   }
}

/* Room left in total, to tell fragmentation from exhaustion. */
static uint64_t room_left(const struct sg_descriptor_pool *pool)
{
   uint64_t used = 0;
   for (const struct sg_descriptor_set *s = pool->sets; s; s = s->next)
      used += s->size;
   return pool->size - used;
}

static VkResult allocate_one(struct sg_device *dev, struct sg_descriptor_pool *pool,
                             const struct sg_descriptor_set_layout *layout,
                             struct sg_descriptor_set **out)
{
   uint32_t offset = 0;
   struct sg_descriptor_set **link = NULL;
   if (pool->set_count >= pool->max_sets) {
      SG_LOG(SG_LOG_INFO, SG_AREA_API, "vkAllocateDescriptorSets: the pool's %u sets are in use",
             pool->max_sets);
      return VK_ERROR_OUT_OF_POOL_MEMORY;
   }
   if (!find_room(pool, layout->size, &offset, &link)) {
      bool fragmented = room_left(pool) >= layout->size;
      SG_LOG(SG_LOG_INFO, SG_AREA_API, "vkAllocateDescriptorSets: no room for %u bytes of "
             "descriptors in the pool%s", layout->size, fragmented ? " (fragmented)" : "");
      return fragmented ? VK_ERROR_FRAGMENTED_POOL : VK_ERROR_OUT_OF_POOL_MEMORY;
   }
   struct sg_descriptor_set *set = sg_zalloc(&pool->alloc, sizeof(*set), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!set) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkAllocateDescriptorSets: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&set->base, VK_OBJECT_TYPE_DESCRIPTOR_SET, dev, &dev->alloc);
   set->pool = pool;
   set->layout = layout;
   set->offset = offset;
   set->size = layout->size;
   set->va = pool->va ? pool->va + offset : 0;
   set->host = pool->host ? pool->host + offset : NULL;
   /* Unwritten descriptors read as zero: address 0, range 0. */
   if (set->host)
      memset(set->host, 0, set->size);
   set->next = *link;
   *link = set;
   pool->set_count++;
   *out = set;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_AllocateDescriptorSets(VkDevice device,
                                                         const VkDescriptorSetAllocateInfo *pInfo,
                                                         VkDescriptorSet *pSets)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_descriptor_pool *pool = sg_descriptor_pool_from_handle(pInfo->descriptorPool);
   for (uint32_t i = 0; i < pInfo->descriptorSetCount; i++) {
      struct sg_descriptor_set *set;
      VkResult r = allocate_one(dev, pool, sg_descriptor_set_layout_from_handle(pInfo->pSetLayouts[i]), &set);
      if (r != VK_SUCCESS) {
         /* "... the implementation must destroy all successfully created
          * descriptor set objects ... and set all entries to VK_NULL_HANDLE". */
         for (uint32_t k = 0; k < i; k++) {
            struct sg_descriptor_set *s = sg_descriptor_set_from_handle(pSets[k]);
            struct sg_descriptor_set **l = &pool->sets;
            while (*l != s)
               l = &(*l)->next;
            *l = s->next;
            free_set(pool, s);
         }
         memset(pSets, 0, pInfo->descriptorSetCount * sizeof(*pSets));
         return r;
      }
      pSets[i] = sg_descriptor_set_to_handle(set);
   }
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_FreeDescriptorSets(VkDevice device, VkDescriptorPool descriptorPool,
                                                     uint32_t count, const VkDescriptorSet *pSets)
{
   (void)device;
   struct sg_descriptor_pool *pool = sg_descriptor_pool_from_handle(descriptorPool);
   for (uint32_t i = 0; i < count; i++) {
      struct sg_descriptor_set *s = sg_descriptor_set_from_handle(pSets[i]);
      if (!s)
         continue;
      struct sg_descriptor_set **l = &pool->sets;
      while (*l && *l != s)
         l = &(*l)->next;
      if (*l) {
         *l = s->next;
         free_set(pool, s);
      }
   }
   return VK_SUCCESS;
}
