/*
 * test_eu_inline: launches small enough to run on the command processor
 * itself (at most 256 invocations in all), and every launch when the GPU
 * has no execution-unit workers (eu_threads = 0).
 *
 * Pins down: a launch of 1 invocation, one of 256 (8 CTAs of 32), and, on a
 * GPU without workers, one of 64 CTAs of 100, all produce every
 * invocation's result, back to back in one pushbuffer and one per
 * submission; nothing of them is touched after they complete (the build-asan
 * configuration checks that: the inline path once kept using a launch
 * after complete() had dropped its last reference).
 */
#include "eut.h"

static const char *const writer =
   ".warp 32\n"
   EUT_GLOBAL_WORD
   "mov v7, #7\n"
   "imad v6, v1, #3, v7\n"
   "stg.b32 _, v4, v6\n"
   "exit\n";

static void check(struct eut *t, uint64_t out, uint32_t n, const char *what)
{
   const uint32_t *o = eut_ptr(t, out);
   for (uint32_t i = 0; i < n; i++) {
      if (o[i] != i * 3 + 7) {
         HWT_CHECK(false, "%s: invocation %u wrote %u", what, i, o[i]);
         return;
      }
   }
}

static void run(uint32_t threads, const uint32_t (*shapes)[2], uint32_t count, const char *what)
{
   struct hw_gpu_config cfg;
   eut_config(&cfg);
   cfg.eu_threads = threads;
   struct eut t;
   eut_init(&t, &cfg);
   uint64_t prog = eut_program(&t, writer);
   /* One submission each, then all in one pushbuffer. */
   for (int together = 0; together < 2; together++) {
      uint64_t outs[8];
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      for (uint32_t k = 0; k < count; k++) {
         uint32_t n = shapes[k][0] * shapes[k][1];
         outs[k] = eut_alloc(&t, 4ull * n, 64);
         struct eut_launch l = {.program = prog, .grid = {shapes[k][0]}, .size = {shapes[k][1]},
                                .root = eut_root(&t, &outs[k], 1)};
         pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
         if (!together) {
            eut_submit_ok(&t, &pb, what);
            eut_begin(&t, &pb);
         }
      }
      if (together)
         eut_submit_ok(&t, &pb, what);
      for (uint32_t k = 0; k < count; k++)
         check(&t, outs[k], shapes[k][0] * shapes[k][1], what);
   }
   eut_fini(&t);
}

static void test_small_launches(void)
{
   static const uint32_t shapes[3][2] = {{1, 1}, {8, 32}, {2, 100}};
   run(2, shapes, 3, "small launches on the command processor");
}

static void test_no_workers(void)
{
   static const uint32_t shapes[2][2] = {{64, 100}, {3, 1}};
   run(0, shapes, 2, "a GPU without workers");
}

int main(void)
{
   HWT_RUN(test_small_launches);
   HWT_RUN(test_no_workers);
   return hwt_finish();
}
