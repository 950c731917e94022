/*
 * test_eu_watchdog: the watchdog measures how long a launch runs, not how
 * long it waited behind earlier launches.
 *
 * Pins down: three launches back to back with no WAIT_FOR_IDLE between them
 * (so the later ones are queued while the first runs), each of which alone
 * completes in D, run clean on a GPU whose watchdog is 2 D (all three
 * together take 3 D, so a watchdog counted from queueing would fire; the
 * margin absorbs a loaded machine). D is
 * measured first on the same kind of GPU (one worker, every CTA delayed
 * 25 ms by SOFTGPU_DELAY-style injection, every CTA looping past the
 * back-edge budget so the watchdog is checked in each), so the test holds
 * in plain and sanitizer builds alike.
 * (test_eu_faults checks that a launch running past its budget does
 * fault.)
 */
#include "eut.h"

#define CTAS 16u

static const char *const looper =
   ".warp 8\n"
   "ldr.b64 u0 +0\n"
   "mov v0, #0\n"
   "loop\n"
   "h: icmp.ge_u v1, v0, #9000      ; 8 warps: past the 65536 back edges between checks\n"
   "   brk _, v1 @e\n"
   "   iadd v0, v0, #1\n"
   "e: endloop @h\n"
   "s2r.group_id_x u2\n"
   "shl u2, u2, #2\n"
   "zext64 u4, u2\n"
   "iadd64 u4, u4, u0\n"
   "stg.b32 _, u4, v0\n"
   "exit\n";

static void config(struct hw_gpu_config *cfg, uint32_t watchdog_ms)
{
   eut_config(cfg);
   cfg->eu_threads = 1;
   cfg->delay_spec = "eu:25000";
   cfg->watchdog_ms = watchdog_ms;
}

static struct eut_launch launch(struct eut *t, uint64_t prog)
{
   uint64_t out = eut_alloc(t, 4 * CTAS, 64);
   struct eut_launch l = {.program = prog, .grid = {CTAS}, .size = {64},
                          .root = eut_root(t, &out, 1)};
   return l;
}

static void test_queued_launch(void)
{
   struct hw_gpu_config cfg;
   config(&cfg, 0);
   struct eut t;
   eut_init(&t, &cfg);
   struct eut_launch l = launch(&t, eut_program(&t, looper));
   uint64_t start = hw_now_ns();
   eut_run(&t, &l, "one launch");
   uint64_t d_ms = (hw_now_ns() - start) / HWT_MS;
   eut_fini(&t);

   uint32_t watchdog = (uint32_t)(d_ms * 2);
   fprintf(stderr, "   one launch: %llu ms; watchdog for three: %u ms\n", (unsigned long long)d_ms,
           watchdog);
   config(&cfg, watchdog);
   eut_init(&t, &cfg);
   uint64_t prog = eut_program(&t, looper);
   struct eut_launch a = launch(&t, prog), b = launch(&t, prog), c = launch(&t, prog);
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &a));
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &b));
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &c));
   start = hw_now_ns();
   enum hw_wait_result r = eut_submit(&t, &pb);
   uint64_t both_ms = (hw_now_ns() - start) / HWT_MS;
   HWT_CHECK(r == HW_WAIT_SATISFIED && !hw_gpu_is_lost(t.gpu),
             "three queued launches of %llu ms each (together %llu ms) with a %u ms watchdog: "
             "lost (wait %d):\n%s", (unsigned long long)d_ms, (unsigned long long)both_ms,
             watchdog, (int)r, hw_gpu_fault_report(t.gpu) ? hw_gpu_fault_report(t.gpu) : "");
   eut_fini(&t);
}

int main(void)
{
   HWT_RUN(test_queued_launch);
   return hwt_finish();
}
