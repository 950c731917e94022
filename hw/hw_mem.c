#include "hw_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sg_log.h"

/* A freed VA range waiting for reuse. */
struct hw_free_range {
   uint64_t va;
   uint64_t pages;       /* including the guard page */
   struct hw_free_range *next;
};

#define SMALL_MAX_PAGES 256u
/* VA space: room for the budget several times over, so that fragmentation
 * and guard pages never run it out before memory does. */
#define VA_MIN (UINT64_C(16) << 30)
#define VA_PER_BUDGET 4u

static void *map_anonymous(size_t size)
{
   void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                  -1, 0);
   return p == MAP_FAILED ? NULL : p;
}

/* Maps the GPU's address space. Where the process's address space is
 * limited (valgrind's is 64 GiB; ulimit -v), fewer spare bytes for
 * fragmentation, down to the budget itself, beat a device that cannot
 * start. */
static void *reserve(struct hw_mem *m)
{
   uint64_t want = m->va_size;
   for (;;) {
      void *base = mmap(NULL, m->va_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
                        m->memfd, 0);
      if (base != MAP_FAILED) {
         if (m->va_size < want)
            SG_LOG(SG_LOG_WARN, SG_AREA_MEMORY,
                   "GPU address space reduced to %llu MiB (%llu MiB could not be reserved): "
                   "heavily fragmented allocations may run out of addresses sooner",
                   (unsigned long long)(m->va_size >> 20), (unsigned long long)(want >> 20));
         return base;
      }
      uint64_t half = (m->va_size / 2) & ~(uint64_t)(HW_PAGE_SIZE - 1);
      if (errno != ENOMEM && errno != EINVAL)
         return NULL;
      if (half < m->budget || half < HW_PAGE_SIZE * 2)
         return NULL;
      m->va_size = half;
   }
}

int hw_mem_init(struct hw_mem *m, uint64_t budget)
{
   memset(m, 0, sizeof(*m));
   m->budget = budget;
   m->va_size = budget * VA_PER_BUDGET > VA_MIN ? budget * VA_PER_BUDGET : VA_MIN;
   m->va_size = (m->va_size + HW_PAGE_SIZE - 1) & ~(uint64_t)(HW_PAGE_SIZE - 1);
   uint64_t pages = m->va_size >> HW_PAGE_SHIFT;

   m->memfd = memfd_create("softgpu-gpu-memory", MFD_CLOEXEC);
   if (m->memfd < 0 || ftruncate(m->memfd, (off_t)m->va_size) != 0)
      goto fail;
   void *base = reserve(m);
   if (!base)
      goto fail;
   m->base = base;
   pages = m->va_size >> HW_PAGE_SHIFT;
   m->live = map_anonymous((pages + 63) / 64 * sizeof(uint64_t));
   m->head_pages = map_anonymous(pages * sizeof(uint32_t));
   if (!m->live || !m->head_pages)
      goto fail;
   pthread_mutex_init(&m->lock, NULL);
   m->bump = HW_PAGE_SIZE;   /* VA 0 stays invalid: a null GPU pointer faults */
   return 0;

fail:
   SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "cannot reserve %llu bytes of GPU address space: %s",
          (unsigned long long)m->va_size, strerror(errno));
   hw_mem_finish(m);
   return -1;
}

static void free_list(struct hw_free_range *r)
{
   while (r) {
      struct hw_free_range *next = r->next;
      free(r);
      r = next;
   }
}

void hw_mem_finish(struct hw_mem *m)
{
   uint64_t pages = m->va_size >> HW_PAGE_SHIFT;
   if (m->base)
      munmap(m->base, m->va_size);
   if (m->live)
      munmap(m->live, (pages + 63) / 64 * sizeof(uint64_t));
   if (m->head_pages) {
      munmap((void *)m->head_pages, pages * sizeof(uint32_t));
      pthread_mutex_destroy(&m->lock);
   }
   if (m->memfd > 0)
      close(m->memfd);
   for (uint32_t i = 0; i <= SMALL_MAX_PAGES; i++)
      free_list(m->free_small[i]);
   free_list(m->free_large);
   memset(m, 0, sizeof(*m));
}

static void set_live(struct hw_mem *m, uint64_t first, uint64_t count, int live)
{
   for (uint64_t p = first; p < first + count; p++) {
      uint64_t bit = UINT64_C(1) << (p % 64);
      if (live)
         atomic_fetch_or_explicit(&m->live[p / 64], bit, memory_order_release);
      else
         atomic_fetch_and_explicit(&m->live[p / 64], ~bit, memory_order_release);
   }
}

/* Takes VA for pages (guard page included), lock held. 0 if none left. */
static uint64_t take_va(struct hw_mem *m, uint64_t pages)
{
   if (pages <= SMALL_MAX_PAGES && m->free_small[pages]) {
      struct hw_free_range *r = m->free_small[pages];
      m->free_small[pages] = r->next;
      uint64_t va = r->va;
      free(r);
      return va;
   }
   for (struct hw_free_range **pr = &m->free_large; *pr; pr = &(*pr)->next) {
      struct hw_free_range *r = *pr;
      if (r->pages < pages)
         continue;
      uint64_t va = r->va;
      r->va += pages << HW_PAGE_SHIFT;
      r->pages -= pages;
      if (r->pages == 0) {
         *pr = r->next;
         free(r);
      }
      return va;
   }
   if (m->bump + (pages << HW_PAGE_SHIFT) > m->va_size)
      return 0;
   uint64_t va = m->bump;
   m->bump += pages << HW_PAGE_SHIFT;
   return va;
}

/* Gives VA back for reuse, lock held. */
static void give_va(struct hw_mem *m, uint64_t va, uint64_t pages)
{
   struct hw_free_range *r = malloc(sizeof(*r));
   if (!r)
      return;   /* the VA is lost, which only costs address space */
   r->va = va;
   r->pages = pages;
   struct hw_free_range **list = pages <= SMALL_MAX_PAGES ? &m->free_small[pages] : &m->free_large;
   r->next = *list;
   *list = r;
}

int hw_mem_alloc(struct hw_mem *m, uint64_t size, uint64_t *va_out)
{
   if (size == 0 || size > m->budget)
      return -1;
   uint64_t pages = (size + HW_PAGE_SIZE - 1) >> HW_PAGE_SHIFT;
   if (pages > UINT32_MAX)
      return -1;
   uint64_t bytes = pages << HW_PAGE_SHIFT;
   uint64_t before = atomic_fetch_add(&m->allocated, bytes);
   if (before + bytes > m->budget) {
      atomic_fetch_sub(&m->allocated, bytes);
      return -1;
   }
   pthread_mutex_lock(&m->lock);
   uint64_t va = take_va(m, pages + 1);
   if (va)
      m->allocation_count++;
   pthread_mutex_unlock(&m->lock);
   if (!va) {
      atomic_fetch_sub(&m->allocated, bytes);
      return -1;
   }
   uint64_t first = va >> HW_PAGE_SHIFT;
   atomic_store_explicit(&m->head_pages[first], (uint32_t)pages, memory_order_relaxed);
   set_live(m, first, pages, 1);
   *va_out = va;
   return 0;
}

void hw_mem_free(struct hw_mem *m, uint64_t va)
{
   uint64_t first = va >> HW_PAGE_SHIFT;
   if (va == 0 || va >= m->va_size || (va & (HW_PAGE_SIZE - 1)) ||
       !atomic_load_explicit(&m->head_pages[first], memory_order_relaxed)) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "free of 0x%llx, which is not an allocation",
             (unsigned long long)va);
      return;
   }
   uint64_t pages = atomic_load_explicit(&m->head_pages[first], memory_order_relaxed);
   /* Not live first, so that the GPU faults rather than sees reused memory;
    * then give the pages back to the host: they read as zero from now on. */
   set_live(m, first, pages, 0);
   atomic_store_explicit(&m->head_pages[first], 0, memory_order_relaxed);
   fallocate(m->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)va,
             (off_t)(pages << HW_PAGE_SHIFT));
   atomic_fetch_sub(&m->allocated, pages << HW_PAGE_SHIFT);
   pthread_mutex_lock(&m->lock);
   give_va(m, va, pages + 1);
   m->allocation_count--;
   pthread_mutex_unlock(&m->lock);
}

/* The allocation at or below page p, within a bounded look back. */
static uint64_t find_head(const struct hw_mem *m, uint64_t p, uint64_t max_back)
{
   for (uint64_t k = 0; k <= max_back && k <= p; k++) {
      if (atomic_load_explicit(&m->head_pages[p - k], memory_order_relaxed))
         return p - k;
   }
   return 0;
}

void hw_mem_describe(const struct hw_mem *m, uint64_t va, char *buf, size_t size)
{
   if (va >= m->va_size) {
      snprintf(buf, size, "outside the GPU address space (%llu bytes)",
               (unsigned long long)m->va_size);
      return;
   }
   uint64_t p = va >> HW_PAGE_SHIFT;
   uint64_t head = find_head(m, p, UINT64_C(1) << 20);
   if (!head) {
      snprintf(buf, size, "not in any allocation");
      return;
   }
   uint64_t start = head << HW_PAGE_SHIFT;
   uint64_t pages = atomic_load_explicit(&m->head_pages[head], memory_order_relaxed);
   uint64_t end = start + (pages << HW_PAGE_SHIFT);
   if (va < end)
      snprintf(buf, size, "inside allocation [0x%llx, 0x%llx)", (unsigned long long)start,
               (unsigned long long)end);
   else
      snprintf(buf, size, "not in any allocation; %llu bytes past the end of [0x%llx, 0x%llx)",
               (unsigned long long)(va - end), (unsigned long long)start,
               (unsigned long long)end);
}
