/*
 * Helpers for synchronization tests: clocks and CPU time, thread counts,
 * host threads that act after a delay, one-batch submissions through
 * vkQueueSubmit or vkQueueSubmit2, reference patterns and byte-exact
 * comparisons, and a second device on an existing instance.
 *
 * SGT_CHECK is not thread-safe (it bumps a plain counter): code running on
 * helper threads records its findings and lets the main thread check them.
 */
#ifndef SGT_SYNC_H
#define SGT_SYNC_H

#include <pthread.h>
#include <stdatomic.h>

#include "sgt_vk.h"

/* ---- time, CPU, threads ------------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t sgt_now_ns(void);
void sgt_sleep_ms(uint32_t ms);
/* User + system CPU time of the whole process (getrusage RUSAGE_SELF). */
uint64_t sgt_cpu_time_ns(void);
/* Threads of this process (entries of /proc/self/task). */
uint32_t sgt_thread_count(void);

/* A host thread running fn(arg). */
struct sgt_thread {
   pthread_t thread;
   void *(*fn)(void *);
   void *arg;
   _Atomic bool done;
};
void sgt_thread_start(struct sgt_thread *t, void *(*fn)(void *), void *arg);
/* Joins within timeout_ms; false (thread left running) if it did not end. */
bool sgt_thread_join_timeout(struct sgt_thread *t, uint32_t timeout_ms);

/* Signals a timeline semaphore (or, if event is set, sets that event) from
 * a host thread after delay_ms. Before signaling it calls before(user) if
 * set (e.g. to check that nothing ran early) and records the time of the
 * signal. */
struct sgt_delayed_signal {
   VkDevice device;
   VkSemaphore semaphore;
   VkEvent event;
   uint64_t value;
   uint32_t delay_ms;
   void (*before)(void *user);
   void *user;
   _Atomic uint64_t signaled_at_ns;   /* just before vkSignalSemaphore / vkSetEvent */
   VkResult result;
   struct sgt_thread thread;
};
void sgt_delayed_signal_start(struct sgt_delayed_signal *s);
/* Joins (30 s at most: a failed join is a test failure). */
void sgt_delayed_signal_join(struct sgt_delayed_signal *s);

/* ---- queues -------------------------------------------------------------- */

struct sgt_qref {
   uint32_t family, index;
   VkQueue queue;
};
/* Every queue of the device: compute 0..15, then transfer 0..1. */
uint32_t sgt_all_queues(const struct sgt_device *d, struct sgt_qref *out);

/* ---- submission ------------------------------------------------------------ */

struct sgt_sem_op {
   VkSemaphore semaphore;
   uint64_t value;                  /* ignored for binary semaphores */
   VkPipelineStageFlags2 stages;    /* wait stages; 0: all commands */
};

struct sgt_batch {
   uint32_t cmd_count;
   const VkCommandBuffer *cmds;
   uint32_t wait_count;
   const struct sgt_sem_op *waits;
   uint32_t signal_count;
   const struct sgt_sem_op *signals;
};

/* One batch through vkQueueSubmit (with VkTimelineSemaphoreSubmitInfo) or
 * vkQueueSubmit2; returns the VkResult. */
VkResult sgt_try_submit(bool v2, VkQueue queue, const struct sgt_batch *b, VkFence fence);
/* The same, requiring VK_SUCCESS. */
void sgt_submit(bool v2, VkQueue queue, const struct sgt_batch *b, VkFence fence);
/* Shorthand: one command buffer, at most one wait and one signal. */
void sgt_submit1(bool v2, VkQueue queue, VkCommandBuffer cmd, const struct sgt_sem_op *wait,
                 const struct sgt_sem_op *signal, VkFence fence);

VkSemaphore sgt_binary(struct sgt_device *d);
VkEvent sgt_event(struct sgt_device *d);
/* A primary or secondary command buffer of family's pool, not begun. */
VkCommandBuffer sgt_alloc_cmd(struct sgt_device *d, uint32_t family, VkCommandBufferLevel level);
/* Begins a primary command buffer with the given usage flags. */
void sgt_begin_primary(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags);
/* Begins a secondary command buffer (no render pass inheritance). */
void sgt_begin_secondary(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags);
/* A full barrier from transfer writes to host reads. */
void sgt_barrier_to_host(VkCommandBuffer cmd);

/* Waits for a timeline value with a bounded timeout (a hang is a failure). */
VkResult sgt_wait_timeline(VkDevice device, VkSemaphore s, uint64_t value, uint64_t timeout_ns);

/* ---- data ------------------------------------------------------------------- */

/* Word i of the reference pattern `seed`: a hash, so that a shifted, stale
 * or partial copy never matches. */
static inline uint32_t sgt_pattern_word(uint32_t seed, uint64_t i)
{
   uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 32 | seed);
   x ^= x >> 31;
   x *= 0xbf58476d1ce4e5b9ull;
   x ^= x >> 29;
   return (uint32_t)x;
}
/* Fills bytes (a multiple of 4) with pattern seed, word index from first_word. */
void sgt_pattern_fill(void *dst, size_t bytes, uint32_t seed, uint64_t first_word);
/* Compares got with want byte for byte; on a difference reports the first
 * one and how many bytes differ (what names the buffer). Returns true if
 * equal. Counts a failure with SGT_CHECK: main thread only. */
bool sgt_expect_bytes(const void *got, const void *want, size_t bytes, const char *what, ...)
   __attribute__((format(printf, 4, 5)));
/* Like sgt_expect_bytes against a constant byte. */
bool sgt_expect_fill(const void *got, uint8_t byte, size_t bytes, const char *what, ...)
   __attribute__((format(printf, 4, 5)));
/* True if all bytes are equal to byte; no reporting (safe on any thread). */
bool sgt_all_bytes(const void *got, uint8_t byte, size_t bytes);

/* ---- a second device -------------------------------------------------------- */

/* A device with every queue (as sgt_device_create) on an existing instance;
 * d->instance is set but not owned. */
void sgt_device_create_on(struct sgt_device *d, VkInstance instance, VkPhysicalDevice pdev);
/* Destroys what sgt_device_create_on created (not the instance). */
void sgt_device_destroy_on(struct sgt_device *d);

/* ---- child processes ----------------------------------------------------------- */

/* Value of "key=<number>" in text (the last occurrence); false if absent. */
bool sgt_find_number(const char *text, const char *key, uint64_t *value);

#endif
