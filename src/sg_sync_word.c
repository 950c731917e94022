#include "sg_sync_word.h"

#include <string.h>

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_log.h"
#include "sg_trace.h"
#include "sg_object.h"

#define WORDS_PER_PAGE (HW_PAGE_SIZE / 8u)

/* Each word's owner, for reports that name objects rather than addresses
 * (hang reports: "fence 0x... waits for ..."). */
struct sg_sync_owner {
   const char *kind;   /* "fence", "semaphore", ...; NULL: free */
   uint64_t handle;
};

struct sg_sync_page {
   uint64_t va;
   struct sg_sync_page *next;
   struct sg_sync_owner owner[WORDS_PER_PAGE];
};

void sg_sync_words_init(struct sg_sync_words *w, struct hw_gpu *gpu,
                        const VkAllocationCallbacks *alloc)
{
   *w = (struct sg_sync_words){.gpu = gpu, .alloc = alloc};
   pthread_mutex_init(&w->lock, NULL);
}

void sg_sync_words_finish(struct sg_sync_words *w)
{
   struct sg_sync_page *p = w->pages;
   while (p) {
      struct sg_sync_page *next = p->next;
      hw_mem_free(hw_gpu_memory(w->gpu), p->va);
      sg_free(w->alloc, p);
      p = next;
   }
   sg_free(w->alloc, w->free);
   pthread_mutex_destroy(&w->lock);
}

/* Adds a page of words to the free stack; lock held. */
static VkResult add_page(struct sg_sync_words *w)
{
   if (w->free_count + WORDS_PER_PAGE > w->free_capacity) {
      uint32_t cap = w->free_capacity ? w->free_capacity * 2 : WORDS_PER_PAGE;
      while (cap < w->free_count + WORDS_PER_PAGE)
         cap *= 2;
      uint64_t *f = sg_alloc(w->alloc, cap * sizeof(*f), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
      if (!f)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      if (w->free_count)
         memcpy(f, w->free, w->free_count * sizeof(*f));
      sg_free(w->alloc, w->free);
      w->free = f;
      w->free_capacity = cap;
   }
   struct sg_sync_page *page = sg_zalloc(w->alloc, sizeof(*page), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!page)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (hw_mem_alloc(hw_gpu_memory(w->gpu), HW_PAGE_SIZE, &page->va) != 0) {
      sg_free(w->alloc, page);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   page->next = w->pages;
   w->pages = page;
   for (uint32_t i = WORDS_PER_PAGE; i-- > 0;)
      w->free[w->free_count++] = page->va + 8u * i;
   return VK_SUCCESS;
}

VkResult sg_sync_word_alloc(struct sg_sync_words *w, uint64_t *va, _Atomic uint64_t **host)
{
   pthread_mutex_lock(&w->lock);
   VkResult r = w->free_count ? VK_SUCCESS : add_page(w);
   if (r == VK_SUCCESS)
      *va = w->free[--w->free_count];
   pthread_mutex_unlock(&w->lock);
   if (r != VK_SUCCESS) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_SYNC, "out of %s memory for a semaphore word",
             r == VK_ERROR_OUT_OF_HOST_MEMORY ? "host" : "GPU");
      return r;
   }
   *host = hw_sem_word(hw_gpu_memory(w->gpu), *va);
   atomic_store_explicit(*host, 0, memory_order_relaxed);
   return VK_SUCCESS;
}

/* The owner slot of va; lock held. NULL if va is no word of ours. */
static struct sg_sync_owner *owner_of(struct sg_sync_words *w, uint64_t va)
{
   for (struct sg_sync_page *p = w->pages; p; p = p->next) {
      if (va >= p->va && va < p->va + HW_PAGE_SIZE)
         return &p->owner[(va - p->va) / 8u];
   }
   return NULL;
}

void sg_sync_word_name(struct sg_sync_words *w, uint64_t va, const char *kind, uint64_t handle)
{
   pthread_mutex_lock(&w->lock);
   struct sg_sync_owner *o = owner_of(w, va);
   if (o)
      *o = (struct sg_sync_owner){kind, handle};
   pthread_mutex_unlock(&w->lock);
}

bool sg_sync_word_owner(struct sg_sync_words *w, uint64_t va, const char **kind, uint64_t *handle,
                        char *name, size_t name_size)
{
   pthread_mutex_lock(&w->lock);
   struct sg_sync_owner *o = owner_of(w, va);
   bool known = o && o->kind;
   if (known) {
      *kind = o->kind;
      *handle = o->handle;
      /* Owners free their word before they free themselves, so while the
       * lock is held the object (and its name) is alive. */
      sg_object_copy_name(sg_object_from_u64(o->handle), name, name_size);
   }
   pthread_mutex_unlock(&w->lock);
   return known;
}

void sg_sync_word_free(struct sg_sync_words *w, uint64_t va)
{
   /* The trace forgets the word's name: the next owner may be another object. */
   if (sg_trace_on())
      sg_trace_name(hw_sem_word(hw_gpu_memory(w->gpu), va), NULL);
   pthread_mutex_lock(&w->lock);
   struct sg_sync_owner *o = owner_of(w, va);
   if (o)
      *o = (struct sg_sync_owner){0};
   /* Room is guaranteed: every word came from a page that made room. */
   w->free[w->free_count++] = va;
   pthread_mutex_unlock(&w->lock);
}
