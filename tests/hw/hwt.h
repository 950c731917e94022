/*
 * Helpers for the hw/ tests: check macros in the style of tests/common/sgt.h
 * (which needs Vulkan, so hw tests do not link it), and a minimal "driver"
 * that programs channels the way src/ does: rings and control pages in GPU
 * memory, pushbuffers built with the emitters of hw_packets.h, PUT written
 * after the entries, then the doorbell. Nothing here reaches into hw/
 * internals: only hw_gpu.h, hw_mem.h and hw_packets.h.
 */
#ifndef HWT_H
#define HWT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hw_gpu.h"
#include "hw_mem.h"
#include "hw_packets.h"

extern _Atomic int hwt_failures;

/* Counts a failure and goes on. Safe from any thread. */
#define HWT_CHECK(cond, ...)                                                   \
   do {                                                                        \
      if (!(cond)) {                                                           \
         fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
         fprintf(stderr, __VA_ARGS__);                                         \
         fputc('\n', stderr);                                                  \
         atomic_fetch_add(&hwt_failures, 1);                                   \
      }                                                                        \
   } while (0)

/* Like HWT_CHECK, but a failure ends the test at once. */
#define HWT_REQUIRE(cond, ...)                                                 \
   do {                                                                        \
      if (!(cond)) {                                                           \
         fprintf(stderr, "%s:%d: requirement failed: %s: ", __FILE__, __LINE__, #cond); \
         fprintf(stderr, __VA_ARGS__);                                         \
         fputc('\n', stderr);                                                  \
         exit(1);                                                              \
      }                                                                        \
   } while (0)

/* Ends the test: reports and returns the process exit code. */
int hwt_finish(void);

/* Runs one named part of a test, logging it (to find a hang quickly). */
#define HWT_RUN(fn)                                                            \
   do {                                                                        \
      fprintf(stderr, "-- %s\n", #fn);                                         \
      fn();                                                                    \
   } while (0)

/* How long a test waits for something that must happen before declaring a
 * hang: long, for sanitizer builds on a loaded machine. */
#define HWT_TIMEOUT_NS ((uint64_t)120000000000)   /* within CTest's 300 s */
#define HWT_MS ((uint64_t)1000000)

/* ---- GPUs and memory ------------------------------------------------------ */

/* A configuration with the given channels, 256 MiB of memory, no injection,
 * the default watchdog and spin budgets. */
void hwt_config(struct hw_gpu_config *cfg, uint32_t compute, uint32_t dma);
struct hw_gpu *hwt_gpu_create(const struct hw_gpu_config *cfg);
struct hw_gpu *hwt_gpu(uint32_t compute, uint32_t dma);

/* Allocates GPU memory (zero-filled) or fails the test. */
uint64_t hwt_alloc(struct hw_gpu *gpu, uint64_t size);
void *hwt_ptr(struct hw_gpu *gpu, uint64_t va);
/* The 64-bit word at va, loaded with acquire. */
uint64_t hwt_load64(struct hw_gpu *gpu, uint64_t va);

/* ---- channels ---------------------------------------------------------------- */

struct hwt_channel {
   struct hw_gpu *gpu;
   uint32_t index, entries;
   uint64_t ring_va, control_va;
   struct hw_ring_entry *ring;
   struct hw_channel_control *control;
   uint32_t put;            /* the driver's PUT */
};

/* Allocates a ring of `entries` entries and a control page, sets PUT = GET
 * = first (free-running counters may start anywhere) and binds them. */
void hwt_channel_init(struct hwt_channel *ch, struct hw_gpu *gpu, uint32_t index,
                      uint32_t entries, uint32_t first);
/* GET as the GPU last wrote it (acquire). */
uint32_t hwt_get(const struct hwt_channel *ch);
/* Writes one ring entry, then PUT (release); waits (bounded: fails the test
 * on a hang) while the ring is full. No doorbell. */
void hwt_push(struct hwt_channel *ch, uint64_t va, uint32_t dwords);
/* hwt_push, then the doorbell. */
void hwt_submit(struct hwt_channel *ch, uint64_t va, uint32_t dwords);

/* ---- pushbuffers ------------------------------------------------------------ */

struct hwt_pb {
   struct hw_gpu *gpu;
   uint64_t va;             /* start */
   uint32_t *base, *p;      /* start and write position (host pointers) */
   uint32_t cap;            /* dwords */
};

/* Allocates a pushbuffer of cap dwords in GPU memory. */
void hwt_pb_init(struct hwt_pb *pb, struct hw_gpu *gpu, uint32_t cap);
/* A pushbuffer inside memory the caller owns (8-byte aligned va). */
void hwt_pb_at(struct hwt_pb *pb, struct hw_gpu *gpu, uint64_t va, uint32_t cap);
uint32_t hwt_pb_dwords(const struct hwt_pb *pb);   /* fails the test on overflow */
uint64_t hwt_pb_here(const struct hwt_pb *pb);     /* VA of the write position */
/* Submits [start of pb, write position) on ch, with the doorbell. */
void hwt_pb_submit(struct hwt_pb *pb, struct hwt_channel *ch);

/* Common packets, appended at pb->p. */
void hwt_release(struct hwt_pb *pb, uint64_t va, uint64_t value, uint32_t flags);
void hwt_acquire(struct hwt_pb *pb, uint64_t va, uint64_t value);
void hwt_write32(struct hwt_pb *pb, uint64_t va, uint32_t value);

/* ---- waits and time ------------------------------------------------------------ */

/* hw_wait for one word >= value with HWT_TIMEOUT_NS; fails the test (with a
 * snapshot of the GPU) unless satisfied. */
void hwt_wait_sem(struct hw_gpu *gpu, uint64_t va, uint64_t value, const char *what);
void hwt_sleep_ms(uint32_t ms);
/* A snapshot of the GPU (a per-thread static buffer). */
const char *hwt_snapshot(struct hw_gpu *gpu);
/* The line of a snapshot or report describing channel c ("  channel c (...").
 * Copied into line (NUL-terminated); false if absent. */
bool hwt_channel_line(const char *text, uint32_t c, char *line, size_t size);
/* The GPU's creation index, from its snapshot ("GPU <n>:"). */
uint32_t hwt_gpu_index(struct hw_gpu *gpu);
/* Process CPU time (user + system) in ns. */
uint64_t hwt_cpu_ns(void);

#endif
