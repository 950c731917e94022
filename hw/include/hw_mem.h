/*
 * GPU memory: one 64-bit virtual address space per simulated GPU, backed by
 * a memfd mapped once at device creation (so a future out-of-process GPU
 * can map the same memory). Host pointer = base + VA: translation is one
 * add, and every GPU access is checked in software against a page map of
 * live allocations; there are no signal handlers. The whole arena stays
 * mapped read-write, so even a racing access to freed memory can never
 * fault the host: it reads zeros.
 *
 * Allocations are page granular and followed by an unallocated guard page,
 * so running off the end of one never lands in the next.
 */
#ifndef HW_MEM_H
#define HW_MEM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define HW_PAGE_SIZE 4096u
#define HW_PAGE_SHIFT 12u

struct hw_free_range;

struct hw_mem {
   int memfd;
   uint8_t *base;                 /* host address of VA 0 */
   uint64_t va_size;              /* bytes of VA space; VA 0's page is never allocated */
   uint64_t budget;               /* bytes that may be allocated at once (the heap) */
   _Atomic uint64_t allocated;    /* bytes allocated now */
   _Atomic uint64_t *live;        /* one bit per page: inside a live allocation */
   _Atomic uint32_t *head_pages;  /* at an allocation's first page: its page count */

   pthread_mutex_t lock;          /* the VA allocator below */
   uint64_t bump;                 /* first never-used VA */
   struct hw_free_range *free_small[257]; /* exact-size free ranges, by pages */
   struct hw_free_range *free_large;      /* larger free ranges, first fit */
   uint32_t allocation_count;
};

int hw_mem_init(struct hw_mem *m, uint64_t budget);
void hw_mem_finish(struct hw_mem *m);

/* Allocates size bytes (rounded up to pages), zero-filled. Returns 0 and the
 * VA, or -1 when the budget or the VA space is exhausted. */
int hw_mem_alloc(struct hw_mem *m, uint64_t size, uint64_t *va);
/* Frees the allocation starting at va; its pages read as zero afterwards. */
void hw_mem_free(struct hw_mem *m, uint64_t va);

static inline int hw_mem_page_live(const struct hw_mem *m, uint64_t page)
{
   uint64_t word = atomic_load_explicit(&m->live[page / 64], memory_order_relaxed);
   return (int)((word >> (page % 64)) & 1);
}

/* The host pointer for [va, va + size) if every byte lies in live
 * allocations, else NULL: the caller faults. */
static inline void *hw_mem_check(const struct hw_mem *m, uint64_t va, uint64_t size)
{
   uint64_t end = va + size;
   if (end < va || end > m->va_size || size == 0)
      return NULL;
   for (uint64_t p = va >> HW_PAGE_SHIFT; p <= (end - 1) >> HW_PAGE_SHIFT; p++) {
      if (!hw_mem_page_live(m, p))
         return NULL;
   }
   return m->base + va;
}

/* The host pointer of a VA, unchecked: for the driver's own mappings. */
static inline void *hw_mem_host(const struct hw_mem *m, uint64_t va)
{
   return m->base + va;
}

/* Describes where va lies: inside which allocation, or which one is
 * nearest. For fault reports. */
void hw_mem_describe(const struct hw_mem *m, uint64_t va, char *buf, size_t size);

#endif
