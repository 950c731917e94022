#ifndef SG_PIPELINE_CACHE_H
#define SG_PIPELINE_CACHE_H

#include <pthread.h>

#include "sg_object.h"

struct sg_cache_entry {
   uint64_t key[2];
   uint32_t size;
   uint8_t *data;
   struct sg_cache_entry *next;
};

#define SG_CACHE_BUCKETS 64u

/* VkPipelineCache: compiled programs keyed by a hash of everything their
 * compilation depends on (SPIR-V, entry point, specialization, layout,
 * subgroup size, robustness, compiler options). */
struct sg_pipeline_cache {
   struct sg_object base;
   VkAllocationCallbacks alloc;
   bool locked;                       /* false with EXTERNALLY_SYNCHRONIZED */
   pthread_mutex_t lock;
   struct sg_cache_entry *buckets[SG_CACHE_BUCKETS];
   uint32_t count;
   uint64_t data_bytes;               /* payload bytes, for vkGetPipelineCacheData */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_pipeline_cache, VkPipelineCache)

/* A copy of the payload stored under key (the caller frees it with the
 * device allocator), or NULL. */
void *sg_pipeline_cache_find(struct sg_pipeline_cache *c, const uint64_t key[2], uint32_t *size,
                             const VkAllocationCallbacks *alloc);
/* Stores a copy of the payload (nothing if the key is there already or
 * memory is short: a cache may always drop entries). */
void sg_pipeline_cache_insert(struct sg_pipeline_cache *c, const uint64_t key[2], const void *data,
                              uint32_t size);

#endif
