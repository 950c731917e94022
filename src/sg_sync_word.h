/*
 * 64-bit semaphore words in GPU memory, for fences, semaphores, events and
 * the queues' progress counters: carved from 4 KiB pages of GPU memory,
 * 8-byte aligned as the semaphore packets require.
 */
#ifndef SG_SYNC_WORD_H
#define SG_SYNC_WORD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

struct hw_gpu;
struct sg_sync_page;

/* Every word of every page is in exactly one place: in use by its owner, or
 * on the free stack. The stack has room for every word of every page (it
 * grows before a page is added), so a free never allocates and never runs
 * out of room, whatever the number of pages and the order of frees. */
struct sg_sync_words {
   struct hw_gpu *gpu;
   const VkAllocationCallbacks *alloc;   /* the device's */
   pthread_mutex_t lock;
   struct sg_sync_page *pages;     /* every page, for teardown */
   uint32_t page_count;
   uint64_t *free;                 /* free word VAs (a stack) */
   uint32_t free_count;
   uint32_t free_capacity;         /* >= page_count * words per page */
};

void sg_sync_words_init(struct sg_sync_words *w, struct hw_gpu *gpu,
                        const VkAllocationCallbacks *alloc);
void sg_sync_words_finish(struct sg_sync_words *w);

/* A zeroed word: its VA and host pointer. VK_ERROR_OUT_OF_*_MEMORY on failure. */
VkResult sg_sync_word_alloc(struct sg_sync_words *w, uint64_t *va, _Atomic uint64_t **host);
/* Returns a word to the free stack. A VA that is no word of ours, or a word
 * already free, is logged and ignored: pushing it would hand one word to two
 * objects. */
void sg_sync_word_free(struct sg_sync_words *w, uint64_t va);
/* Records which object a word belongs to (kind: a string literal such as
 * "fence"; handle: the sg_object), and looks it up, with a copy of the
 * object's debug-utils name ("" if none): false if the VA is no named
 * word of ours. */
void sg_sync_word_name(struct sg_sync_words *w, uint64_t va, const char *kind, uint64_t handle);
bool sg_sync_word_owner(struct sg_sync_words *w, uint64_t va, const char **kind, uint64_t *handle,
                        char *name, size_t name_size);

#endif
