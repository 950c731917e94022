/*
 * test_cc_loops: loop analysis does not depend on the SPIR-V's shape. The
 * benchmark's tiled sgemm (bench/shaders/sgemm.comp) is built three ways
 * at build time: glslc (counters in Function variables), glslc -O (counters
 * in OpPhi) and glslc -O followed by spirv-opt -O. Each build runs at every
 * warp width with the result checked against a C reference, and the
 * instructions the GPU executed (its warp_instructions counter) must be
 * within 5% of each other: the inner loop's 16 trips are unrolled from the
 * induction variable whichever form it takes.
 */
#include "sct.h"

#include <stdio.h>
#include <string.h>

#define N 64u   /* matrix size: a multiple of the 16x16 tile, 16 workgroups */

static const char *const builds[] = {"sgemm", "sgemm_O", "sgemm_O_opt"};
#define BUILDS (sizeof(builds) / sizeof(builds[0]))

static const struct sc_binding sgemm_bindings[3] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                                    {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0},
                                                    {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0}};
static const struct sc_set_layout sgemm_layout = {3, sgemm_bindings};

/* Small integers, so that every partial sum is exact in float. */
static float element(uint32_t i, uint32_t salt)
{
   return (float)((int32_t)(sct_hash(i ^ salt) % 9u) - 4);
}

/* Runs one build at warp width w; returns the warp instructions the
 * launch executed, or 0 if it failed. */
static uint64_t run(struct sct *s, const char *name, uint32_t w)
{
   char what[64];
   snprintf(what, sizeof(what), "%s W=%u", name, w);
   struct sct_opts so;
   sct_options(&so, w, 0, &sgemm_layout, 1);
   struct sc_program p;
   if (!sct_compile_named(name, &so.o, &p, what))
      return 0;
   sct_fresh(s);
   float *a, *b, *c;
   uint64_t a_va = sct_buf(s, 4ull * N * N, &a), b_va = sct_buf(s, 4ull * N * N, &b);
   uint64_t c_va = sct_buf_fill(s, 4ull * N * N, 0xdeadbeefu, &c);
   for (uint32_t i = 0; i < N * N; i++) {
      a[i] = element(i, 0x1234);
      b[i] = element(i, 0x5678);
   }
   uint64_t set_va = sct_buf(s, 64, NULL);
   sct_descriptor(s, set_va, 0, a_va, 4ull * N * N);
   sct_descriptor(s, set_va, 16, b_va, 4ull * N * N);
   sct_descriptor(s, set_va, 32, c_va, 4ull * N * N);
   struct hw_root_table root = {.sets = {set_va}};
   uint32_t n = N;
   memcpy(root.push, &n, 4);
   struct hw_gpu_stats before, after;
   hw_gpu_get_stats(s->eu.gpu, &before);
   bool ok = sct_launch(s, &p, (uint32_t[3]){N / 16, N / 16, 1}, sct_root_upload(s, &root), what);
   hw_gpu_get_stats(s->eu.gpu, &after);
   sc_program_free(&p);
   if (!ok)
      return 0;
   int budget = 4;
   for (uint32_t r = 0; r < N; r++) {
      for (uint32_t col = 0; col < N; col++) {
         float want = 0;
         for (uint32_t k = 0; k < N; k++)
            want += a[r * N + k] * b[k * N + col];
         uint32_t bits;
         memcpy(&bits, &c[r * N + col], 4);
         sct_check(bits, &(struct sct_want){eut_u(want), SCT_FLOAT, 0, 0}, &budget,
                   "%s C[%u][%u]", what, r, col);
      }
   }
   return after.warp_instructions - before.warp_instructions;
}

int main(void)
{
   struct sct s;
   sct_init(&s);
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi];
      uint64_t count[BUILDS], lo = UINT64_MAX, hi = 0;
      for (uint32_t k = 0; k < BUILDS; k++) {
         count[k] = run(&s, builds[k], w);
         lo = count[k] < lo ? count[k] : lo;
         hi = count[k] > hi ? count[k] : hi;
      }
      fprintf(stderr, "  sgemm W=%-3u executed warp instructions: glslc %llu, glslc -O %llu, "
              "+ spirv-opt -O %llu\n", w, (unsigned long long)count[0],
              (unsigned long long)count[1], (unsigned long long)count[2]);
      HWT_CHECK(lo > 0 && (double)hi <= 1.05 * (double)lo,
                "sgemm W=%u: the builds execute %llu to %llu warp instructions, more than 5%% "
                "apart", w, (unsigned long long)lo, (unsigned long long)hi);
   }
   sct_fini(&s);
   return hwt_finish();
}
