#include "sg_sync_word.h"

#include <string.h>

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_log.h"
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
   /* Bit i: word i is handed out (not on the free stack). Lets a free tell
    * a live word from a stray VA or a second free of the same word. */
   uint64_t in_use[WORDS_PER_PAGE / 64u];
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

/* Makes the free stack hold every word of `pages` pages; lock held.
 * Sizing it for the words free at the time a page is added is not enough:
 * once the older pages' words are all in use, a new page brings the free
 * count back to one page while more than a page of words is out, and
 * freeing them would push past the end. */
static VkResult reserve_stack(struct sg_sync_words *w, uint32_t pages)
{
   uint64_t need = (uint64_t)pages * WORDS_PER_PAGE;
   if (need <= w->free_capacity)
      return VK_SUCCESS;
   if (need > UINT32_MAX)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   uint64_t cap = w->free_capacity ? (uint64_t)w->free_capacity * 2u : WORDS_PER_PAGE;
   while (cap < need)
      cap *= 2u;
   if (cap > UINT32_MAX)
      cap = need;
   uint64_t *f = sg_alloc(w->alloc, (size_t)cap * sizeof(*f), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!f)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (w->free_count)
      memcpy(f, w->free, w->free_count * sizeof(*f));
   sg_free(w->alloc, w->free);
   w->free = f;
   w->free_capacity = (uint32_t)cap;
   return VK_SUCCESS;
}

/* Adds a page of words to the free stack; lock held. */
static VkResult add_page(struct sg_sync_words *w)
{
   VkResult r = reserve_stack(w, w->page_count + 1u);
   if (r != VK_SUCCESS)
      return r;
   struct sg_sync_page *page = sg_zalloc(w->alloc, sizeof(*page), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!page)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (hw_mem_alloc(hw_gpu_memory(w->gpu), HW_PAGE_SIZE, &page->va) != 0) {
      sg_free(w->alloc, page);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   page->next = w->pages;
   w->pages = page;
   w->page_count++;
   for (uint32_t i = WORDS_PER_PAGE; i-- > 0;)
      w->free[w->free_count++] = page->va + 8u * i;
   return VK_SUCCESS;
}

/* The page that holds va; lock held. NULL if va is no word of ours. */
static struct sg_sync_page *page_of(struct sg_sync_words *w, uint64_t va)
{
   for (struct sg_sync_page *p = w->pages; p; p = p->next) {
      if (va >= p->va && va < p->va + HW_PAGE_SIZE)
         return p;
   }
   return NULL;
}

VkResult sg_sync_word_alloc(struct sg_sync_words *w, uint64_t *va, _Atomic uint64_t **host)
{
   pthread_mutex_lock(&w->lock);
   VkResult r = w->free_count ? VK_SUCCESS : add_page(w);
   if (r == VK_SUCCESS) {
      *va = w->free[--w->free_count];
      struct sg_sync_page *p = page_of(w, *va);
      uint32_t i = (uint32_t)((*va - p->va) / 8u);
      p->in_use[i / 64u] |= 1ull << (i % 64u);
   }
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
   struct sg_sync_page *p = page_of(w, va);
   return p ? &p->owner[(va - p->va) / 8u] : NULL;
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
   hw_gpu_trace_name(w->gpu, va, NULL);
   pthread_mutex_lock(&w->lock);
   struct sg_sync_page *p = page_of(w, va);
   uint32_t i = p ? (uint32_t)((va - p->va) / 8u) : 0;
   bool live = p && va % 8u == 0 && (p->in_use[i / 64u] & (1ull << (i % 64u)));
   if (live) {
      p->in_use[i / 64u] &= ~(1ull << (i % 64u));
      p->owner[i] = (struct sg_sync_owner){0};
      /* Room is certain: the stack holds every word of every page
       * (reserve_stack), and this word was not on it. */
      w->free[w->free_count++] = va;
   }
   pthread_mutex_unlock(&w->lock);
   if (!live)
      SG_LOG(SG_LOG_ERROR, SG_AREA_SYNC, "semaphore word 0x%llx freed but not in use "
             "(freed twice, or not a semaphore word): ignored", (unsigned long long)va);
}
