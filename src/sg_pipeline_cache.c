/*
 * VkPipelineCache. The serialized data starts with the header the spec
 * defines (VkPipelineCacheHeaderVersionOne: size, version, vendorID,
 * deviceID, pipelineCacheUUID); the UUID names this exact build, so data
 * from another build, device or compiler version is ignored. Entries
 * follow, each with its key, size and a checksum, so a damaged entry is
 * skipped rather than trusted:
 *   u32 entry count, then per entry: u64 key[2], u32 size, u32 zero,
 *   u64 checksum, payload padded to 8 bytes.
 */
#include "sg_pipeline_cache.h"

#include <string.h>

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_hash.h"
#include "sg_log.h"
#include "sg_physical_device.h"

struct entry_header {
   uint64_t key[2];
   uint32_t size;
   uint32_t zero;
   uint64_t checksum;
};

#define HEADER_BYTES 32u

static uint64_t pad8(uint64_t n)
{
   return (n + 7) & ~UINT64_C(7);
}

static void lock(struct sg_pipeline_cache *c)
{
   if (c->locked)
      pthread_mutex_lock(&c->lock);
}

static void unlock(struct sg_pipeline_cache *c)
{
   if (c->locked)
      pthread_mutex_unlock(&c->lock);
}

static struct sg_cache_entry **bucket(struct sg_pipeline_cache *c, const uint64_t key[2])
{
   return &c->buckets[key[0] % SG_CACHE_BUCKETS];
}

static struct sg_cache_entry *lookup(struct sg_pipeline_cache *c, const uint64_t key[2])
{
   for (struct sg_cache_entry *e = *bucket(c, key); e; e = e->next) {
      if (e->key[0] == key[0] && e->key[1] == key[1])
         return e;
   }
   return NULL;
}

/* Inserts with the lock held. */
static void insert_locked(struct sg_pipeline_cache *c, const uint64_t key[2], const void *data,
                          uint32_t size)
{
   if (lookup(c, key))
      return;
   struct sg_cache_entry *e = sg_alloc(&c->alloc, sizeof(*e), VK_SYSTEM_ALLOCATION_SCOPE_CACHE);
   uint8_t *copy = e ? sg_alloc(&c->alloc, size ? size : 1, VK_SYSTEM_ALLOCATION_SCOPE_CACHE) : NULL;
   if (!copy) {
      sg_free(&c->alloc, e);
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "pipeline cache: out of host memory; entry dropped");
      return;
   }
   memcpy(copy, data, size);
   *e = (struct sg_cache_entry){{key[0], key[1]}, size, copy, *bucket(c, key)};
   *bucket(c, key) = e;
   c->count++;
   c->data_bytes += pad8(size);
}

void sg_pipeline_cache_insert(struct sg_pipeline_cache *c, const uint64_t key[2], const void *data,
                              uint32_t size)
{
   lock(c);
   insert_locked(c, key, data, size);
   unlock(c);
}

void *sg_pipeline_cache_find(struct sg_pipeline_cache *c, const uint64_t key[2], uint32_t *size,
                             const VkAllocationCallbacks *alloc)
{
   void *copy = NULL;
   lock(c);
   struct sg_cache_entry *e = lookup(c, key);
   if (e) {
      copy = sg_alloc(alloc, e->size ? e->size : 1, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (copy) {
         memcpy(copy, e->data, e->size);
         *size = e->size;
      }
   }
   unlock(c);
   return copy;
}

static void header_of(const struct sg_device *dev, uint8_t out[HEADER_BYTES])
{
   const VkPhysicalDeviceProperties *p = &dev->pdev->props.v10;
   uint32_t words[4] = {HEADER_BYTES, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, p->vendorID, p->deviceID};
   memcpy(out, words, 16);
   memcpy(out + 16, p->pipelineCacheUUID, VK_UUID_SIZE);
}

/* Loads serialized data; anything from another build, or damaged, is
 * ignored ("an implementation must ... ignore" incompatible data). */
static void load(struct sg_pipeline_cache *c, const struct sg_device *dev, const uint8_t *data,
                 size_t size)
{
   uint8_t want[HEADER_BYTES];
   header_of(dev, want);
   if (size < HEADER_BYTES + 4 || memcmp(data, want, HEADER_BYTES) != 0) {
      if (size)
         SG_LOG(SG_LOG_INFO, SG_AREA_API, "pipeline cache: initial data is from another device "
                "or build of softgpu (or damaged); starting empty");
      return;
   }
   uint32_t count;
   memcpy(&count, data + HEADER_BYTES, 4);
   size_t at = HEADER_BYTES + 4;
   for (uint32_t i = 0; i < count; i++) {
      struct entry_header h;
      if (size - at < sizeof(h))
         break;
      memcpy(&h, data + at, sizeof(h));
      at += sizeof(h);
      if (h.zero || size - at < h.size ||
          sg_hash64(data + at, h.size, h.key[0]) != h.checksum) {
         SG_LOG(SG_LOG_WARN, SG_AREA_API, "pipeline cache: damaged entry %u of %u; the rest is ignored",
                i, count);
         break;
      }
      insert_locked(c, h.key, data + at, h.size);
      at += h.size;
      at = at + (pad8(h.size) - h.size) <= size ? at + (pad8(h.size) - h.size) : size;
   }
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreatePipelineCache(VkDevice device,
                                                      const VkPipelineCacheCreateInfo *pCreateInfo,
                                                      const VkAllocationCallbacks *pAllocator,
                                                      VkPipelineCache *pPipelineCache)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_pipeline_cache *c = sg_zalloc(alloc, sizeof(*c), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!c) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreatePipelineCache: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&c->base, VK_OBJECT_TYPE_PIPELINE_CACHE, dev, &dev->alloc);
   c->alloc = *alloc;
   c->locked = !(pCreateInfo->flags & VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT);
   pthread_mutex_init(&c->lock, NULL);
   if (pCreateInfo->initialDataSize && pCreateInfo->pInitialData)
      load(c, dev, pCreateInfo->pInitialData, pCreateInfo->initialDataSize);
   *pPipelineCache = sg_pipeline_cache_to_handle(c);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyPipelineCache(VkDevice device, VkPipelineCache pipelineCache,
                                                   const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_pipeline_cache *c = sg_pipeline_cache_from_handle(pipelineCache);
   if (!c)
      return;
   for (uint32_t b = 0; b < SG_CACHE_BUCKETS; b++) {
      while (c->buckets[b]) {
         struct sg_cache_entry *e = c->buckets[b];
         c->buckets[b] = e->next;
         sg_free(&c->alloc, e->data);
         sg_free(&c->alloc, e);
      }
   }
   pthread_mutex_destroy(&c->lock);
   sg_object_finish(&c->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), c);
}

static uint64_t serialized_size(const struct sg_pipeline_cache *c)
{
   return HEADER_BYTES + 4 + (uint64_t)c->count * sizeof(struct entry_header) + c->data_bytes;
}

/* Writes whole entries while they fit: "Any data written to pData is
 * valid" even when the size given is too small (VK_INCOMPLETE). */
static VkResult serialize(struct sg_pipeline_cache *c, const struct sg_device *dev, uint8_t *out,
                          size_t *size)
{
   if (*size < HEADER_BYTES + 4) {
      *size = 0;
      return VK_INCOMPLETE;
   }
   header_of(dev, out);
   size_t at = HEADER_BYTES + 4;
   uint32_t written = 0;
   VkResult r = VK_SUCCESS;
   for (uint32_t b = 0; b < SG_CACHE_BUCKETS && r == VK_SUCCESS; b++) {
      for (struct sg_cache_entry *e = c->buckets[b]; e; e = e->next) {
         uint64_t need = sizeof(struct entry_header) + pad8(e->size);
         if (*size - at < need) {
            r = VK_INCOMPLETE;
            break;
         }
         struct entry_header h = {{e->key[0], e->key[1]}, e->size, 0,
                                  sg_hash64(e->data, e->size, e->key[0])};
         memcpy(out + at, &h, sizeof(h));
         memcpy(out + at + sizeof(h), e->data, e->size);
         memset(out + at + sizeof(h) + e->size, 0, pad8(e->size) - e->size);
         at += need;
         written++;
      }
   }
   memcpy(out + HEADER_BYTES, &written, 4);
   *size = at;
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_GetPipelineCacheData(VkDevice device, VkPipelineCache pipelineCache,
                                                       size_t *pDataSize, void *pData)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_pipeline_cache *c = sg_pipeline_cache_from_handle(pipelineCache);
   lock(c);
   VkResult r = VK_SUCCESS;
   if (!pData)
      *pDataSize = (size_t)serialized_size(c);
   else
      r = serialize(c, dev, pData, pDataSize);
   unlock(c);
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_MergePipelineCaches(VkDevice device, VkPipelineCache dstCache,
                                                      uint32_t srcCacheCount,
                                                      const VkPipelineCache *pSrcCaches)
{
   (void)device;
   struct sg_pipeline_cache *dst = sg_pipeline_cache_from_handle(dstCache);
   lock(dst);
   for (uint32_t i = 0; i < srcCacheCount; i++) {
      struct sg_pipeline_cache *src = sg_pipeline_cache_from_handle(pSrcCaches[i]);
      lock(src);
      for (uint32_t b = 0; b < SG_CACHE_BUCKETS; b++) {
         for (struct sg_cache_entry *e = src->buckets[b]; e; e = e->next)
            insert_locked(dst, e->key, e->data, e->size);
      }
      unlock(src);
   }
   unlock(dst);
   return VK_SUCCESS;
}
