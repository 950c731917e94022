/*
 * stream_model: bench_eu's stream loop (y = a * x + y over 16M floats) in
 * C, on one thread per core, in the shapes the execution units run it, to
 * tell what the shapes cost apart from the interpreter and the native
 * tier:
 *
 *   direct     each thread a contiguous half (bench_eu's C loop)
 *   batches    batches of 256 CTAs of 256 elements from an atomic
 *              counter, as the workers take CTAs
 *   regfile    batches, each warp of 32 elements through a register file
 *              of its own: x and y copied in, the FMA from there into a
 *              third register, that copied out (a compiled block's copies)
 *   loads      batches, the FMA from memory into the register file, then
 *              copied out (its loads by reference)
 *   stores     batches, copied in, the FMA straight into y
 *   padN       regfile with N * 4 more integer instructions per warp (the
 *              checks and address arithmetic around a block's accesses)
 *   loadspf    loads, prefetching x and y 4 KiB ahead, two lines each a
 *              warp (the blocks' prefetches)
 *   spillN     loads with N more register-sized stores per warp into a
 *              register file of its own (the address registers a block
 *              stores for its checks and its slower paths)
 *   spillNpf   spillN with loadspf's prefetches
 *
 * Prints "model <shape> <Mel/s>", the best of --reps runs (default 15).
 * Nothing here is softgpu's: it is a model for docs/performance.md.
 *
 * Usage: stream_model [--reps N]
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N (16u << 20)
#define WARP 32u
#define BATCH (256u * 256u)
#define MAX_SPILL 24

enum shape { DIRECT, BATCHES, REGFILE, LOADS, STORES, PAD, LOADSPF, SPILL, SPILLPF };

static float *x, *y;
static _Atomic uint64_t next;
static enum shape shape;
static int pad;

static double now_s(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void plain(uint64_t b, uint64_t e)
{
   for (uint64_t i = b; i < e; i++)
      y[i] = 2.0f * x[i] + y[i];
}

/* Integer work the compiler cannot drop or fold: 4 adds a step. */
static void padding(uint64_t i)
{
   uint64_t a0 = i, a1 = i, a2 = i, a3 = i;
   /* The adds in the host's own assembly: x86-64, or 64-bit Arm for a
    * cross build (the syntax differs; the work is the same). */
   for (int k = 0; k < pad; k++)
#if defined(__aarch64__)
      __asm__ volatile("add %0, %0, #1\n\tadd %1, %1, #2\n\tadd %2, %2, #3\n\tadd %3, %3, #4"
                       : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3));
#else
      __asm__ volatile("add $1, %0\n\tadd $2, %1\n\tadd $3, %2\n\tadd $4, %3"
                       : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3));
#endif
   __asm__ volatile("" ::"r"(a0 + a1 + a2 + a3));
}

/* The extra work of the loadspf and spill shapes. */
static void prefetch_and_spill(uint64_t i)
{
   static _Thread_local float spill[MAX_SPILL][WARP] __attribute__((aligned(64)));
   if (shape == LOADSPF || shape == SPILLPF) {
      for (uint32_t off = 0; off < 4 * WARP; off += 64) {
         __builtin_prefetch((const char *)(x + i) + 4096 + off, 0, 3);
         __builtin_prefetch((const char *)(y + i) + 4096 + off, 0, 3);
      }
   }
   for (int k = 0; (shape == SPILL || shape == SPILLPF) && k < pad; k++) {
      for (uint32_t j = 0; j < WARP; j++)
         spill[k][j] = (float)(i + j);
   }
   __asm__ volatile("" ::"r"(spill) : "memory");
}

/* One warp through a register file; the barriers keep its stores. */
static void warp(uint64_t i)
{
   static _Thread_local float rf[3][WARP] __attribute__((aligned(64)));
   if (shape == PAD)
      padding(i);
   prefetch_and_spill(i);
   bool byref = shape == LOADS || shape == LOADSPF || shape == SPILL || shape == SPILLPF;
   if (!byref) {
      memcpy(rf[0], x + i, sizeof(rf[0]));
      memcpy(rf[1], y + i, sizeof(rf[1]));
      __asm__ volatile("" ::: "memory");
   }
   for (uint32_t j = 0; j < WARP; j++) {
      float v = byref ? 2.0f * x[i + j] + y[i + j] : 2.0f * rf[0][j] + rf[1][j];
      if (shape == STORES)
         y[i + j] = v;
      else
         rf[2][j] = v;
   }
   if (shape != STORES) {
      __asm__ volatile("" ::: "memory");
      memcpy(y + i, rf[2], sizeof(rf[2]));
   }
}

static void *thread_main(void *arg)
{
   uint64_t id = (uint64_t)(uintptr_t)arg;
   if (shape == DIRECT) {
      plain(id * (N / 2), (id + 1) * (N / 2));
      return NULL;
   }
   for (;;) {
      uint64_t b = atomic_fetch_add(&next, BATCH);
      if (b >= N)
         return NULL;
      uint64_t e = b + BATCH < N ? b + BATCH : N;
      if (shape == BATCHES)
         plain(b, e);
      else
         for (uint64_t i = b; i < e; i += WARP)
            warp(i);
   }
}

static double run(int reps)
{
   double best = 1e30;
   for (int r = 0; r < reps; r++) {
      atomic_store(&next, 0);
      pthread_t t;
      double t0 = now_s();
      if (pthread_create(&t, NULL, thread_main, (void *)(uintptr_t)1) != 0) {
         fprintf(stderr, "stream_model: cannot start a thread\n");
         exit(1);
      }
      thread_main(NULL);
      pthread_join(t, NULL);
      double d = now_s() - t0;
      best = d < best ? d : best;
   }
   return N / best / 1e6;
}

int main(int argc, char **argv)
{
   int reps = argc == 3 && !strcmp(argv[1], "--reps") ? atoi(argv[2]) : 15;
   x = malloc(N * sizeof(float));
   y = malloc(N * sizeof(float));
   if (!x || !y || reps < 1) {
      fprintf(stderr, "usage: stream_model [--reps N]\n");
      return 1;
   }
   for (uint32_t i = 0; i < N; i++) {
      x[i] = (float)(i % 1000);
      y[i] = (float)(i % 333);
   }
   static const struct {
      const char *name;
      enum shape shape;
      int pad;
   } shapes[] = {{"direct", DIRECT, 0},   {"batches", BATCHES, 0}, {"regfile", REGFILE, 0},
                 {"loads", LOADS, 0},     {"stores", STORES, 0},   {"pad10", PAD, 10},
                 {"pad25", PAD, 25},      {"pad50", PAD, 50},      {"loadspf", LOADSPF, 0},
                 {"spill6", SPILL, 6},    {"spill12", SPILL, 12},  {"spill24", SPILL, 24},
                 {"spill12pf", SPILLPF, 12}, {"spill24pf", SPILLPF, 24}};
   for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
      shape = shapes[k].shape;
      pad = shapes[k].pad;
      printf("model %s %.0f\n", shapes[k].name, run(reps));
   }
   return 0;
}
