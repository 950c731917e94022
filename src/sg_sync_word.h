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

struct sg_sync_words {
   struct hw_gpu *gpu;
   const VkAllocationCallbacks *alloc;   /* the device's */
   pthread_mutex_t lock;
   struct sg_sync_page *pages;     /* every page, for teardown */
   uint64_t *free;                 /* free word VAs (a stack) */
   uint32_t free_count, free_capacity;
};

void sg_sync_words_init(struct sg_sync_words *w, struct hw_gpu *gpu,
                        const VkAllocationCallbacks *alloc);
void sg_sync_words_finish(struct sg_sync_words *w);

/* A zeroed word: its VA and host pointer. VK_ERROR_OUT_OF_*_MEMORY on failure. */
VkResult sg_sync_word_alloc(struct sg_sync_words *w, uint64_t *va, _Atomic uint64_t **host);
void sg_sync_word_free(struct sg_sync_words *w, uint64_t va);
/* Records which object a word belongs to (kind: a string literal such as
 * "fence"; handle: the sg_object), and looks it up, with a copy of the
 * object's debug-utils name ("" if none): false if the VA is no named
 * word of ours. */
void sg_sync_word_name(struct sg_sync_words *w, uint64_t va, const char *kind, uint64_t handle);
bool sg_sync_word_owner(struct sg_sync_words *w, uint64_t va, const char **kind, uint64_t *handle,
                        char *name, size_t name_size);

#endif
