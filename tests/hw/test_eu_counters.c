/*
 * test_eu_counters: the performance counters of hw_gpu_get_stats after
 * known work.
 *
 * Pins down:
 * - a hand-assembled straight-line program of 12 instructions with one
 *   barrier, 2 warps per CTA (16 invocations at W = 8), launched once with
 *   64 CTAs (run by the workers) and once with 2 CTAs (run inline by the
 *   command processor): exactly 2 launches, 66 CTAs, 66 * 2 * 12 warp
 *   instructions, 66 * 2 barrier waits, and 66 * 16 * 8 global bytes (one
 *   4-byte load and one 4-byte store per invocation); the program's
 *   stores are all there, so the counts are of work that really ran;
 * - the counters survive the GPU's stop (the workers' counts are kept
 *   when they exit);
 * - a channel parked on an acquire for 50 ms reports at least that much
 *   parked time, and a channel never parked reports none.
 */
#include "eut.h"


#define INSTRUCTIONS 12u
#define CTA_SIZE 16u
#define WARPS_PER_CTA 2u   /* CTA_SIZE / W */

/* out[global index] = global index, after loading it (one load, one store). */
static const char *const program =
   ".warp 8\n"
   ".barrier\n"
   "ldr.b64 u0 +0\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u8\n"
   "s2r.group_size_x u9\n"
   "imad v1, u8, u9, v0\n"
   "shl v2, v1, #2\n"
   "zext64 v4, v2\n"
   "iadd64 v6, v4, u0\n"
   "ldg.b32 v10, v6\n"
   "bar\n"
   "stg.b32 _, v6, v1\n"
   "exit\n";

static void test_launch_counters(void)
{
   struct eut t;
   eut_init(&t, NULL);
   struct hw_gpu_stats before;
   hw_gpu_get_stats(t.gpu, &before);
   HWT_CHECK(before.launches == 0 && before.ctas == 0 && before.warp_instructions == 0,
             "a new GPU counts nothing: %llu launches", (unsigned long long)before.launches);

   const uint32_t grids[2] = {64, 2};
   uint64_t prog = eut_program(&t, program);
   uint32_t ctas = 0;
   for (int k = 0; k < 2; k++) {
      uint64_t out = eut_alloc(&t, grids[k] * CTA_SIZE * 4, 64);
      uint64_t root = eut_root(&t, &out, 1);
      eut_run(&t, &(struct eut_launch){.program = prog, .grid = {grids[k]}, .size = {CTA_SIZE},
                                        .root = root}, "counted launch");
      const uint32_t *o = eut_ptr(&t, out);
      for (uint32_t i = 0; i < grids[k] * CTA_SIZE; i++)
         HWT_CHECK(o[i] == i, "launch %d: out[%u] = %u", k, i, o[i]);
      ctas += grids[k];
   }
   hw_gpu_stop(t.gpu);
   struct hw_gpu_stats s;
   hw_gpu_get_stats(t.gpu, &s);
   uint64_t warps = (uint64_t)ctas * WARPS_PER_CTA;
   HWT_CHECK(s.launches == 2, "launches %llu", (unsigned long long)s.launches);
   HWT_CHECK(s.ctas == ctas, "CTAs %llu, expected %u", (unsigned long long)s.ctas, ctas);
   HWT_CHECK(s.warp_instructions == warps * INSTRUCTIONS, "warp instructions %llu, expected %llu",
             (unsigned long long)s.warp_instructions, (unsigned long long)(warps * INSTRUCTIONS));
   HWT_CHECK(s.barrier_waits == warps, "barrier waits %llu, expected %llu",
             (unsigned long long)s.barrier_waits, (unsigned long long)warps);
   HWT_CHECK(s.global_bytes == (uint64_t)ctas * CTA_SIZE * 8, "global bytes %llu, expected %llu",
             (unsigned long long)s.global_bytes, (unsigned long long)ctas * CTA_SIZE * 8);
   HWT_CHECK(s.ring_fetches == 2, "ring fetches %llu", (unsigned long long)s.ring_fetches);
   eut_fini(&t);
}

static void test_parked_time(void)
{
   struct hw_gpu *gpu = hwt_gpu(2, 0);
   struct hwt_channel ch0, ch1;
   hwt_channel_init(&ch0, gpu, 0, 16, 0);
   hwt_channel_init(&ch1, gpu, 1, 16, 0);
   uint64_t word = hwt_alloc(gpu, 64), done = word + 8;
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 64);
   hwt_acquire(&pb, word, 1);
   hwt_release(&pb, done, 1, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &ch0);
   /* The 50 ms count from when the channel is seen parked (its control page says so). */
   uint64_t deadline = hw_now_ns() + HWT_TIMEOUT_NS;
   while (!atomic_load_explicit(&ch0.control->parked, memory_order_acquire))
      HWT_REQUIRE(hw_now_ns() < deadline, "channel 0 never parked");
   hwt_sleep_ms(50);
   hw_host_signal(gpu, word, 1);
   hwt_wait_sem(gpu, done, 1, "the parked channel's release");
   struct hw_gpu_stats s;
   hw_gpu_get_stats(gpu, &s);
   HWT_CHECK(s.channel_count == 2, "channel count %u", s.channel_count);
   HWT_CHECK(s.parked_ns[0] >= 50 * HWT_MS && s.parked_ns[0] < HWT_TIMEOUT_NS,
             "channel 0 parked %llu ns, expected at least 50 ms",
             (unsigned long long)s.parked_ns[0]);
   HWT_CHECK(s.parked_ns[1] == 0, "channel 1 never parked, yet %llu ns",
             (unsigned long long)s.parked_ns[1]);
   hw_gpu_destroy(gpu);
}

int main(void)
{
   HWT_RUN(test_launch_counters);
   HWT_RUN(test_parked_time);
   return hwt_finish();
}
