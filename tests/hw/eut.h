/*
 * Helpers for the execution-unit tests (test_isa_*.c, test_eu_*.c): a GPU
 * with workers, programs assembled from text (isa_assemble_program) into
 * GPU memory, launch descriptors, and submissions that end with a
 * SEM_RELEASE(WFI | INTERRUPT) the host waits for. Like hwt.h, nothing here
 * reaches into hw/ internals: programs reach the GPU as bytes in GPU memory
 * and launches as packets in a ring.
 */
#ifndef EUT_H
#define EUT_H

#include <math.h>
#include <string.h>

#include "hw_isa.h"
#include "hwt.h"

/* The warp widths every ISA test runs at. */
extern const uint32_t eut_widths[4];

/* Execution-unit workers for the tests: SOFTGPU_THREADS if set, else 2
 * (so CTAs really run on several threads even on a one-core host). */
uint32_t eut_threads(void);

struct eut {
   struct hw_gpu *gpu;
   struct hwt_channel ch;
   uint64_t sem;            /* completion word (8 bytes) */
   uint64_t sem_value;      /* last value released */
   uint32_t programs;       /* programs placed on this GPU */
   /* Bump arenas: code and data placed back to back (a program is never
    * overwritten, so the GPU's (VA, id) program cache never goes stale). */
   uint64_t arena_va, arena_used, arena_size;
   uint64_t pb_va;          /* pushbuffer memory, reused by each eut_submit */
   uint32_t pb_cap;         /* dwords */
};

/* A GPU with one compute channel, 256 MiB, eut_threads() workers; cfg NULL
 * for that default (a given cfg is used as is, channels included: channel
 * 0 must be a compute channel). */
void eut_init(struct eut *t, const struct hw_gpu_config *cfg);
void eut_fini(struct eut *t);
/* The default config eut_init uses (hwt_config plus workers). */
void eut_config(struct hw_gpu_config *cfg);

/* size bytes of zeroed GPU memory from the arena, aligned to align. */
uint64_t eut_alloc(struct eut *t, uint64_t size, uint64_t align);
void *eut_ptr(struct eut *t, uint64_t va);

/*
 * Tests that run many programs use a fresh GPU every EUT_MAX_PROGRAMS
 * programs (fewer than the GPU's program cache holds). Past 256 programs,
 * hw/hw_eu.c get_program used to free the program it had just decoded
 * (trim_cache ran before the caller's reference was taken);
 * test_eu_program_cache pins down the fix.
 */
#define EUT_MAX_PROGRAMS 200u

/* ISA text: v4 = the address of 32-bit word (global index) of the buffer
 * whose VA is the root table's first word (u0); v1 = the global index. */
#define EUT_GLOBAL_WORD                                                                    \
   "ldr.b64 u0 +0\n"                                                                          \
   "s2r.local_index v0\n"                                                                     \
   "s2r.group_id_x u2\n"                                                                      \
   "s2r.group_size_x u3\n"                                                                    \
   "imad v1, u2, u3, v0\n"                                                                    \
   "shl v2, v1, #2\n"                                                                         \
   "zext64 v4, v2\n"                                                                          \
   "iadd64 v4, v4, u0\n"

/* Assembles text (the test fails on an assembler error) into GPU memory. */
uint64_t eut_program(struct eut *t, const char *text);
/* A ready image into GPU memory. */
uint64_t eut_image(struct eut *t, const void *image, size_t size);
/* printf-style eut_program. */
uint64_t eut_programf(struct eut *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct eut_launch {
   uint64_t program;
   uint32_t grid[3], base[3], size[3];   /* 0 counts as 1 for grid and size */
   uint32_t shared_bytes, private_bytes;
   uint64_t root;
   uint32_t register_count;              /* 0: the program's vreg_count */
   uint32_t flags;
};
/* A launch descriptor in GPU memory; its program id is the program's VA. */
uint64_t eut_desc(struct eut *t, const struct eut_launch *l);

/* A root table of n 64-bit words in GPU memory. */
uint64_t eut_root(struct eut *t, const uint64_t *words, uint32_t n);

/* Pushbuffer building for one submission: eut_begin, packets at pb->p,
 * eut_submit appends SEM_RELEASE(WFI | INTERRUPT), submits and waits (up
 * to HWT_TIMEOUT_NS). eut_submit returns the wait result; eut_submit_ok
 * fails the test (with the fault report) unless satisfied. */
void eut_begin(struct eut *t, struct hwt_pb *pb);
enum hw_wait_result eut_submit(struct eut *t, struct hwt_pb *pb);
void eut_submit_ok(struct eut *t, struct hwt_pb *pb, const char *what);
/* One launch, waited for; must succeed. */
void eut_run(struct eut *t, const struct eut_launch *l, const char *what);

/* ---- values --------------------------------------------------------------- */

static inline float eut_f(uint32_t x)
{
   float f;
   memcpy(&f, &x, 4);
   return f;
}

static inline uint32_t eut_u(float f)
{
   uint32_t x;
   memcpy(&x, &f, 4);
   return x;
}

/* A small, fast PRNG (xorshift64*), seedable per test. */
uint64_t eut_rand(uint64_t *state);

/* Appends formatted text to a growing buffer (the test fails when out of
 * memory). */
struct eut_text {
   char *s;
   size_t len, cap;
};
void eut_text_add(struct eut_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void eut_text_free(struct eut_text *t);

#endif
