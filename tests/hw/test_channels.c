/*
 * test_channels: hand-built pushbuffers through channel rings, on GPUs made
 * with hw_gpu_create (few channels, 256 MiB), checked against C references.
 *
 * Pins down:
 * - DMA_COPY / DMA_FILL / INLINE_WRITE results byte for byte (odd sizes and
 *   offsets, multi-slice copies, fills sharing a DMA pass with odd-sized
 *   copies, the largest inline write), bytes around them untouched, on a
 *   compute channel and on a DMA channel;
 * - SEM_ACQUIRE parks a channel until a SEM_RELEASE of another channel (same
 *   engine or the other one) makes the word >= value, as an unsigned 64-bit
 *   compare; a release without the INTERRUPT flag still wakes the parked
 *   channel; a parked channel never blocks the other channels of its engine
 *   (channel 0 stays parked while channel 1 runs 1000 ring entries);
 * - wait-before-signal satisfied from the host with hw_host_signal;
 * - copies run behind the packet stream: with SOFTGPU delay injection
 *   ("dma:200-400"), a SEM_RELEASE without WFI is observed while the copy
 *   before it is still outstanding, and a SEM_RELEASE with WFI is only ever
 *   observed once the copied data is complete (WAIT_FOR_IDLE too, and a
 *   release without WFI after a MEM_BARRIER with WFI);
 * - CALL/RETURN nesting (to the full depth of 8 frames), RETURN in a ring
 *   entry, JUMP replacing the current frame, an empty CALL, and the call
 *   depth overflow fault;
 * - ring wrap-around: 10000 submissions through a ring of 8 entries, with
 *   PUT/GET starting at 0 and just below 2^32 (free-running counters wrap);
 * - the LINK_SLOT protocol of hw_packets.h: a full ring, submissions chained
 *   through the tail's link word (length written, then CAS OPEN -> VA), the
 *   GPU closing slots it reaches, and a failing CAS meaning the ring drained
 *   (GET == PUT); plus a racing stress of the same driver;
 * - TIMESTAMP: between the host clock before and after, non-decreasing in
 *   packet order, and with WFI after the copies before it (the gap covers
 *   the injected copy delays), without WFI before them;
 * - QUERY_COPY with every combination of 64-bit, availability and partial,
 *   after prior copies, and with WAIT parked until availability is released
 *   from another channel (on the other engine) or the host;
 * - debug labels in hw_gpu_snapshot text: the innermost of nested labels,
 *   the outer one again after pops, none after the last pop, 63 bytes kept;
 * - hw_wait: all/any, timeout 0 (no sleep), finite timeouts (never early),
 *   UINT64_MAX and an overflowing deadline (infinite), a GPU release with
 *   INTERRUPT waking a sleeping host waiter;
 * - the DMA engine's channels (after the compute ones) run while the
 *   command processor is busy, and the other way round;
 * - hw_gpu_stop (twice): nothing executes afterwards, not a parked channel
 *   whose semaphore is then signalled, not new submissions; not a fault.
 */
#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include "hwt.h"

#define MIB (1024ull * 1024ull)
#define DMA_SLICE (256u * 1024u)   /* the injected delay applies per copy slice */

/* ---- helpers ---------------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
   uint64_t x = rng_state;
   x ^= x >> 12;
   x ^= x << 25;
   x ^= x >> 27;
   rng_state = x;
   return x * 0x2545f4914f6cdd1dull;
}

static void fill_random(uint8_t *p, uint64_t n)
{
   for (uint64_t i = 0; i < n; i += 8) {
      uint64_t r = rnd();
      memcpy(p + i, &r, n - i < 8 ? n - i : 8);
   }
}

static void check_bytes(const char *what, const uint8_t *got, const uint8_t *want, uint64_t n)
{
   if (memcmp(got, want, n) == 0)
      return;
   uint64_t i = 0;
   while (i < n - 1 && got[i] == want[i])
      i++;
   uint64_t bad = 0;
   for (uint64_t k = i; k < n; k++)
      bad += got[k] != want[k];
   HWT_CHECK(false, "%s: %" PRIu64 " bytes differ, first at %" PRIu64 ": 0x%02x, expected 0x%02x",
             what, bad, i, got[i], want[i]);
}

/* Step markers: ACQUIRE(step >= i - 1) then RELEASE(step, i). Executed out
 * of order, a marker parks forever (or lowers the word), so the final value
 * proves the order. */
static void mark(struct hwt_pb *pb, uint64_t step, uint64_t i)
{
   hwt_acquire(pb, step, i - 1);
   hwt_release(pb, step, i, HW_PKT_FLAG_INTERRUPT);
}

/* Waits until channel c's snapshot line contains text. */
static void wait_line(struct hw_gpu *gpu, uint32_t c, const char *text)
{
   char line[512];
   uint64_t deadline = hw_now_ns() + HWT_TIMEOUT_NS;
   for (;;) {
      const char *snap = hwt_snapshot(gpu);
      if (hwt_channel_line(snap, c, line, sizeof(line)) && strstr(line, text))
         return;
      HWT_REQUIRE(hw_now_ns() < deadline, "channel %u never showed \"%s\":\n%s", c, text, snap);
      hwt_sleep_ms(1);
   }
}

static void wait_parked(struct hw_gpu *gpu, uint32_t c, uint64_t va, uint64_t value)
{
   char text[96];
   snprintf(text, sizeof(text), "parked on 0x%" PRIx64 " >= %" PRIu64, va, value);
   wait_line(gpu, c, text);
}

static bool line_has(struct hw_gpu *gpu, uint32_t c, const char *text)
{
   char line[512];
   return hwt_channel_line(hwt_snapshot(gpu), c, line, sizeof(line)) && strstr(line, text);
}

/* The "N copies outstanding" of channel c in a snapshot; -1 if absent. */
static int copies_outstanding(const char *snap, uint32_t c)
{
   char line[512];
   if (!hwt_channel_line(snap, c, line, sizeof(line)))
      return -1;
   char *s = strstr(line, " copies outstanding");
   if (!s)
      return -1;
   while (s > line && s[-1] >= '0' && s[-1] <= '9')
      s--;
   return atoi(s);
}

/* ---- DMA results -------------------------------------------------------------------- */

static void test_dma_results(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 1);
   struct hwt_channel ch[2];
   hwt_channel_init(&ch[0], gpu, 0, 4, 0);
   hwt_channel_init(&ch[1], gpu, 1, 4, 0);   /* the DMA engine's channel */
   uint64_t done = hwt_alloc(gpu, 4096);
   const uint64_t size = 3 * MIB + 4096;
   uint8_t *ref = malloc(size);
   uint8_t *iref = malloc(size);
   HWT_REQUIRE(ref && iref, "out of memory");

   for (uint32_t c = 0; c < 2; c++) {
      uint64_t src = hwt_alloc(gpu, size), dst = hwt_alloc(gpu, size);
      uint64_t fdst = hwt_alloc(gpu, size), idst = hwt_alloc(gpu, size);
      uint8_t *s = hwt_ptr(gpu, src), *d = hwt_ptr(gpu, dst);
      uint8_t *f = hwt_ptr(gpu, fdst), *in = hwt_ptr(gpu, idst);
      fill_random(s, size);
      memset(d, 0x5c, size);   /* "not written" differs from written zeros */
      memset(f, 0x5c, size);
      memset(in, 0x5c, size);

      struct hwt_pb pb;
      hwt_pb_init(&pb, gpu, 0x10000 + 256);
      /* Copies: odd offsets and sizes, several slices, a zero-sized one. */
      pb.p = hw_emit_copy(pb.p, src + 3, dst + 5, 3 * MIB + 1);
      pb.p = hw_emit_copy(pb.p, src + 1000, dst + size - 100, 100);
      pb.p = hw_emit_copy(pb.p, src, dst + 4000, 0);
      memset(ref, 0x5c, size);
      memcpy(ref + 5, s + 3, 3 * MIB + 1);
      memcpy(ref + size - 100, s + 1000, 100);
      /* Fills, sharing DMA passes with the odd-sized copies. */
      pb.p = hw_emit_fill(pb.p, fdst + 4, 2 * MIB + 8, 0xa5c30f1eu);
      pb.p = hw_emit_fill(pb.p, fdst + 2 * MIB + 16, 4, 0xffffffffu);
      pb.p = hw_emit_fill(pb.p, fdst + 2 * MIB + 24, 8, 0);
      uint8_t *fref = malloc(size);
      HWT_REQUIRE(fref, "out of memory");
      memset(fref, 0x5c, size);
      for (uint64_t i = 0; i < (2 * MIB + 8) / 4; i++)
         memcpy(fref + 4 + 4 * i, &(uint32_t){0xa5c30f1eu}, 4);
      memset(fref + 2 * MIB + 16, 0xff, 4);
      memset(fref + 2 * MIB + 24, 0, 8);
      /* Inline writes: a small one and the largest one. */
      memset(iref, 0x5c, size);
      uint8_t small[28];
      fill_random(small, sizeof(small));
      pb.p = hw_emit_inline_write(pb.p, idst + 8, small, sizeof(small));
      memcpy(iref + 8, small, sizeof(small));
      uint8_t *big = malloc(HW_INLINE_WRITE_MAX_BYTES);
      HWT_REQUIRE(big, "out of memory");
      fill_random(big, HW_INLINE_WRITE_MAX_BYTES);
      pb.p = hw_emit_inline_write(pb.p, idst + 64, big, HW_INLINE_WRITE_MAX_BYTES);
      memcpy(iref + 64, big, HW_INLINE_WRITE_MAX_BYTES);
      pb.p = hw_emit_simple(pb.p, HW_OP_WAIT_FOR_IDLE);
      hwt_release(&pb, done + 8 * c, 1, HW_PKT_FLAG_INTERRUPT);
      hwt_pb_submit(&pb, &ch[c]);
      hwt_wait_sem(gpu, done + 8 * c, 1, "DMA results");

      check_bytes(c ? "copy (DMA channel)" : "copy (compute channel)", d, ref, size);
      check_bytes(c ? "fill (DMA channel)" : "fill (compute channel)", f, fref, size);
      check_bytes(c ? "inline (DMA channel)" : "inline (compute channel)", in, iref, size);
      HWT_CHECK(copies_outstanding(hwt_snapshot(gpu), c) == 0, "no copies left");
      free(big);
      free(fref);
   }
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   free(ref);
   free(iref);
   hw_gpu_destroy(gpu);
}

/* A fill sharing a DMA pass with an odd-sized copy: the per-pass budget
 * (1 MiB) left after the copy is not a multiple of 4, and the fill must
 * still be written in whole, aligned dwords. (Regression: the fill skipped
 * bytes and wrote the rest misaligned, from byte 1048572 on.) */
static void test_dma_fill_budget(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 0);
   struct hwt_channel c0;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   const uint64_t size = MIB + 4096;
   uint64_t a = hwt_alloc(gpu, 4096), b = hwt_alloc(gpu, 4096), dst = hwt_alloc(gpu, size);
   uint64_t done = hwt_alloc(gpu, 4096);
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 64);
   pb.p = hw_emit_copy(pb.p, a, b, 1);
   pb.p = hw_emit_fill(pb.p, dst, size, 0xa5c30f1eu);
   pb.p = hw_emit_simple(pb.p, HW_OP_WAIT_FOR_IDLE);
   hwt_release(&pb, done, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   hwt_wait_sem(gpu, done, 1, "fill after a 1-byte copy");
   uint8_t *ref = malloc(size);
   HWT_REQUIRE(ref, "out of memory");
   for (uint64_t i = 0; i < size / 4; i++)
      memcpy(ref + 4 * i, &(uint32_t){0xa5c30f1eu}, 4);
   check_bytes("fill after a 1-byte copy", hwt_ptr(gpu, dst), ref, size);
   free(ref);
   hw_gpu_destroy(gpu);
}

/* ---- semaphores across channels ------------------------------------------------------ */

static void test_sem_cross_channel(void)
{
   struct hw_gpu *gpu = hwt_gpu(2, 1);
   struct hwt_channel c0, c1, c2;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   hwt_channel_init(&c1, gpu, 1, 1024, 0);
   hwt_channel_init(&c2, gpu, 2, 4, 0);   /* DMA engine */
   uint64_t sems = hwt_alloc(gpu, 4096);
   uint64_t X = sems, done0 = sems + 8, count1 = sems + 16, Y = sems + 24, done2 = sems + 32;
   uint64_t Z = sems + 40, marker = sems + 48;

   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 64);
   hwt_acquire(&pb, X, 1);
   hwt_release(&pb, done0, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   wait_parked(gpu, 0, X, 1);

   /* Channel 1 runs 1000 entries while channel 0 is parked. */
   const uint32_t n = 1000;
   uint64_t pbs = hwt_alloc(gpu, n * 32);
   for (uint32_t k = 1; k <= n; k++) {
      struct hwt_pb e;
      hwt_pb_at(&e, gpu, pbs + (k - 1) * 32ull, 8);
      hwt_release(&e, count1, k, k == n ? HW_PKT_FLAG_INTERRUPT : 0);
      hwt_push(&c1, e.va, hwt_pb_dwords(&e));
      if (k % 100 == 0)
         hw_doorbell(gpu, 1);
   }
   hwt_wait_sem(gpu, count1, n, "channel 1 while channel 0 is parked");
   HWT_CHECK(hwt_load64(gpu, count1) == n, "channel 1 ran all %u entries", n);
   HWT_CHECK(hwt_get(&c1) == n, "channel 1 GET=%u", hwt_get(&c1));
   HWT_CHECK(hwt_load64(gpu, done0) == 0, "channel 0 did not move");
   char want[96];
   snprintf(want, sizeof(want), "parked on 0x%" PRIx64 " >= 1 (now 0)", X);
   HWT_CHECK(line_has(gpu, 0, want), "channel 0 still parked:\n%s", hwt_snapshot(gpu));

   /* Channel 1 releases X, without the interrupt flag: channel 0 goes on. */
   struct hwt_pb r;
   hwt_pb_init(&r, gpu, 64);
   hwt_release(&r, X, 1, 0);
   hwt_pb_submit(&r, &c1);
   hwt_wait_sem(gpu, done0, 1, "channel 0 after channel 1's release");

   /* The DMA channel parks; compute releases below, then at the value. */
   struct hwt_pb d;
   hwt_pb_init(&d, gpu, 64);
   hwt_acquire(&d, Y, 3);   /* satisfied later by 5, the first time */
   hwt_acquire(&d, Y, 5);
   hwt_release(&d, done2, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_acquire(&d, Z, 0x8000000000000001ull);
   hwt_release(&d, done2, 2, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&d, &c2);
   wait_parked(gpu, 2, Y, 3);
   struct hwt_pb e;
   hwt_pb_init(&e, gpu, 64);
   hwt_release(&e, Y, 4, 0);
   hwt_release(&e, marker, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&e, &c0);
   hwt_wait_sem(gpu, marker, 1, "Y = 4");
   wait_parked(gpu, 2, Y, 5);
   hwt_sleep_ms(20);
   HWT_CHECK(hwt_load64(gpu, done2) == 0, "4 does not satisfy >= 5");
   snprintf(want, sizeof(want), "parked on 0x%" PRIx64 " >= 5 (now 4)", Y);
   HWT_CHECK(line_has(gpu, 2, want), "DMA channel parked on Y >= 5:\n%s", hwt_snapshot(gpu));

   hwt_pb_init(&e, gpu, 64);
   hwt_release(&e, Y, 5, 0);
   hwt_pb_submit(&e, &c0);
   hwt_wait_sem(gpu, done2, 1, "DMA channel after Y = 5");
   wait_parked(gpu, 2, Z, 0x8000000000000001ull);

   /* Unsigned 64-bit compare: 2^63 < 2^63 + 1 <= 2^64 - 1. */
   hwt_pb_init(&e, gpu, 64);
   hwt_release(&e, Z, 0x8000000000000000ull, 0);
   hwt_release(&e, marker, 2, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&e, &c0);
   hwt_wait_sem(gpu, marker, 2, "Z = 2^63");
   hwt_sleep_ms(20);
   HWT_CHECK(hwt_load64(gpu, done2) == 1, "2^63 does not satisfy >= 2^63 + 1");
   hwt_pb_init(&e, gpu, 64);
   hwt_release(&e, Z, UINT64_MAX, 0);
   hwt_pb_submit(&e, &c0);
   hwt_wait_sem(gpu, done2, 2, "DMA channel after Z = 2^64 - 1");
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   hw_gpu_destroy(gpu);
}

/* ---- wait before signal, signalled from the host --------------------------------------- */

static void test_host_signal(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 0);
   struct hwt_channel c0;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   uint64_t sems = hwt_alloc(gpu, 4096), W = sems, done = sems + 8;
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 64);
   hwt_acquire(&pb, W, 7);
   hwt_release(&pb, done, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   wait_parked(gpu, 0, W, 7);
   hwt_sleep_ms(20);   /* the engine goes to sleep */
   struct hw_gpu_stats s0, s1;
   hw_gpu_get_stats(gpu, &s0);
   HWT_CHECK(hwt_load64(gpu, done) == 0, "parked");

   hw_host_signal(gpu, W, 6);
   hwt_sleep_ms(20);
   HWT_CHECK(hwt_load64(gpu, done) == 0, "6 does not satisfy >= 7");
   char want[96];
   snprintf(want, sizeof(want), "parked on 0x%" PRIx64 " >= 7 (now 6)", W);
   HWT_CHECK(line_has(gpu, 0, want), "still parked:\n%s", hwt_snapshot(gpu));

   hw_host_signal(gpu, W, 7);
   hwt_wait_sem(gpu, done, 1, "after hw_host_signal");
   hw_gpu_get_stats(gpu, &s1);
   HWT_CHECK(s1.engine_wake_syscalls > s0.engine_wake_syscalls,
             "the host signal woke the sleeping engine (%" PRIu64 " -> %" PRIu64 ")",
             s0.engine_wake_syscalls, s1.engine_wake_syscalls);
   hw_gpu_destroy(gpu);
}

/* ---- WAIT_FOR_IDLE and the WFI flag ----------------------------------------------------- */

static void test_wfi(void)
{
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 1, 1);
   cfg.delay_spec = "dma:200-400";
   struct hw_gpu *gpu = hwt_gpu_create(&cfg);
   struct hwt_channel ch[2];
   hwt_channel_init(&ch[0], gpu, 0, 4, 0);
   hwt_channel_init(&ch[1], gpu, 1, 4, 0);
   const uint64_t size = 16 * MIB;
   const uint64_t min_delay_ns = (size / DMA_SLICE) * 200000ull;
   uint64_t src = hwt_alloc(gpu, size), dst = hwt_alloc(gpu, size);
   uint64_t sems = hwt_alloc(gpu, 4096);
   uint64_t *s = hwt_ptr(gpu, src), *d = hwt_ptr(gpu, dst);
   uint64_t seq = 0;

   for (uint32_t c = 0; c < 2; c++) {
      uint64_t s1 = sems + 64 * c, s2 = s1 + 8, t1 = s1 + 16, t2 = s1 + 24;
      /* Without WFI the release lands while the copy is still going. */
      bool seen_outstanding = false;
      for (int attempt = 0; attempt < 5 && !seen_outstanding; attempt++) {
         seq++;
         for (uint64_t i = 0; i < size / 8; i++)
            s[i] = seq << 32 | i;
         struct hwt_pb pb;
         hwt_pb_init(&pb, gpu, 64);
         pb.p = hw_emit_copy(pb.p, src, dst, size);
         hwt_release(&pb, s1, seq, HW_PKT_FLAG_INTERRUPT);
         pb.p = hw_emit_timestamp(pb.p, 0, t1);
         pb.p = hw_emit_timestamp(pb.p, HW_PKT_FLAG_WFI, t2);
         pb.p = hw_emit_simple(pb.p, HW_OP_WAIT_FOR_IDLE);
         hwt_release(&pb, s2, seq, HW_PKT_FLAG_INTERRUPT);
         hwt_pb_submit(&pb, &ch[c]);
         hwt_wait_sem(gpu, s1, seq, "release without WFI");
         int out = copies_outstanding(hwt_snapshot(gpu), c);
         seen_outstanding = out > 0;
         hwt_wait_sem(gpu, s2, seq, "release after WAIT_FOR_IDLE");
         /* After WAIT_FOR_IDLE the data is complete. */
         bool ok = true;
         for (uint64_t i = 0; i < size / 8 && ok; i++)
            ok = d[i] == (seq << 32 | i);
         HWT_CHECK(ok, "channel %u: copy complete after WAIT_FOR_IDLE", c);
         uint64_t a = hwt_load64(gpu, t1), b = hwt_load64(gpu, t2);
         HWT_CHECK(b >= a + min_delay_ns,
                   "channel %u: the WFI timestamp waited for the copy: %" PRIu64 " ns after the "
                   "plain one, expected >= %" PRIu64,
                   c, b - a, min_delay_ns);
      }
      HWT_CHECK(seen_outstanding, "channel %u: a release without WFI was never observed before "
                "its copy completed", c);

      /* With WFI, never; nor after a MEM_BARRIER with WFI (a WAIT_FOR_IDLE
       * and a barrier in one packet), then a release without. */
      for (int i = 0; i < 8; i++) {
         bool barrier = i >= 5;
         const char *how = barrier ? "after MEM_BARRIER wfi" : "with WFI";
         seq++;
         for (uint64_t k = 0; k < size / 8; k++)
            s[k] = seq << 32 | (k * 0x9e3779b97f4a7c15ull >> 40);
         struct hwt_pb pb;
         hwt_pb_init(&pb, gpu, 64);
         pb.p = hw_emit_copy(pb.p, src, dst, size);
         if (barrier)
            pb.p = hw_emit_mem_barrier(pb.p, HW_PKT_FLAG_WFI);
         hwt_release(&pb, s1, seq, (barrier ? 0 : HW_PKT_FLAG_WFI) | HW_PKT_FLAG_INTERRUPT);
         hwt_pb_submit(&pb, &ch[c]);
         hwt_wait_sem(gpu, s1, seq, how);
         uint64_t bad = 0;
         for (uint64_t k = 0; k < size / 8; k++)
            bad += d[k] != (seq << 32 | (k * 0x9e3779b97f4a7c15ull >> 40));
         HWT_CHECK(bad == 0, "channel %u: release %s observed with %" PRIu64 " of %" PRIu64
                   " qwords not yet copied", c, how, bad, size / 8);
         HWT_CHECK(copies_outstanding(hwt_snapshot(gpu), c) == 0, "no copies outstanding");
      }
   }
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   hw_gpu_destroy(gpu);
}

/* ---- CALL / RETURN / JUMP ------------------------------------------------------------------ */

static void test_call_return_jump(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 0);
   struct hwt_channel c0;
   hwt_channel_init(&c0, gpu, 0, 8, 0);
   uint64_t sems = hwt_alloc(gpu, 4096), step = sems, never = sems + 64;

   /* R: m1 CALL(A) m7          A: m2 CALL(B) m4 JUMP(C) neverA
    * B: m3 RETURN neverB        C: m5 CALL(empty) m6
    * S: m8 RETURN neverS        T: m9 */
   struct hwt_pb R, A, B, C, S, T;
   hwt_pb_init(&R, gpu, 64);
   hwt_pb_init(&A, gpu, 64);
   hwt_pb_init(&B, gpu, 64);
   hwt_pb_init(&C, gpu, 64);
   hwt_pb_init(&S, gpu, 64);
   hwt_pb_init(&T, gpu, 64);
   mark(&B, step, 3);
   B.p = hw_emit_simple(B.p, HW_OP_RETURN);
   hwt_write32(&B, never + 4, 0xbad0000b);
   mark(&C, step, 5);
   C.p = hw_emit_branch(C.p, HW_OP_CALL, C.va, 0);   /* an empty pushbuffer */
   mark(&C, step, 6);
   mark(&A, step, 2);
   A.p = hw_emit_branch(A.p, HW_OP_CALL, B.va, hwt_pb_dwords(&B));
   mark(&A, step, 4);
   A.p = hw_emit_branch(A.p, HW_OP_JUMP, C.va, hwt_pb_dwords(&C));
   hwt_write32(&A, never, 0xbad0000a);
   mark(&R, step, 1);
   R.p = hw_emit_branch(R.p, HW_OP_CALL, A.va, hwt_pb_dwords(&A));
   mark(&R, step, 7);
   mark(&S, step, 8);
   S.p = hw_emit_simple(S.p, HW_OP_RETURN);
   hwt_write32(&S, never + 8, 0xbad0000c);
   mark(&T, step, 9);
   hwt_pb_submit(&R, &c0);
   hwt_pb_submit(&S, &c0);
   hwt_pb_submit(&T, &c0);
   hwt_wait_sem(gpu, step, 9, "CALL/RETURN/JUMP");
   const uint32_t *nv = hwt_ptr(gpu, never);
   HWT_CHECK(nv[0] == 0, "JUMP does not come back");
   HWT_CHECK(nv[1] == 0, "RETURN ends a called pushbuffer");
   HWT_CHECK(nv[2] == 0, "RETURN ends a ring entry's pushbuffer");

   /* Full depth: the ring entry and 7 nested CALLs (8 frames). P1..P8:
    * pre-marks 1..8 on the way in, post-marks 9..16 on the way out. */
   struct hwt_pb P[8];
   for (int i = 0; i < 8; i++)
      hwt_pb_init(&P[i], gpu, 64);
   for (int i = 7; i >= 0; i--) {
      mark(&P[i], step, 9 + (uint64_t)i + 1);
      if (i < 7)
         P[i].p = hw_emit_branch(P[i].p, HW_OP_CALL, P[i + 1].va, hwt_pb_dwords(&P[i + 1]));
      mark(&P[i], step, 9 + 16 - (uint64_t)i);
   }
   hwt_pb_submit(&P[0], &c0);
   hwt_wait_sem(gpu, step, 25, "8 nested frames");
   HWT_CHECK(!hw_gpu_is_lost(gpu), "8 frames are allowed");
   hw_gpu_destroy(gpu);

   /* One more level faults. */
   gpu = hwt_gpu(1, 0);
   hwt_channel_init(&c0, gpu, 0, 8, 0);
   sems = hwt_alloc(gpu, 4096);
   step = sems;
   struct hwt_pb Q[9];
   for (int i = 0; i < 9; i++)
      hwt_pb_init(&Q[i], gpu, 64);
   for (int i = 8; i >= 0; i--) {
      mark(&Q[i], step, (uint64_t)i + 1);
      if (i < 8)
         Q[i].p = hw_emit_branch(Q[i].p, HW_OP_CALL, Q[i + 1].va, hwt_pb_dwords(&Q[i + 1]));
   }
   fprintf(stderr, "(a call depth fault report is expected)\n");
   hwt_pb_submit(&Q[0], &c0);
   struct hw_wait_item item = {step, 9};
   enum hw_wait_result r = hw_wait(gpu, &item, 1, true, HWT_TIMEOUT_NS);
   HWT_CHECK(r == HW_WAIT_LOST, "the 9th frame loses the GPU: %d", (int)r);
   HWT_CHECK(hwt_load64(gpu, step) == 8, "8 frames ran: step %" PRIu64, hwt_load64(gpu, step));
   const char *report = hw_gpu_fault_report(gpu);
   HWT_REQUIRE(report, "fault report");
   char want[128];
   snprintf(want, sizeof(want), "CALL va=0x%" PRIx64 " dwords=%u", Q[8].va, hwt_pb_dwords(&Q[8]));
   HWT_CHECK(strstr(report, "nested deeper than 8") && strstr(report, "fault on channel 0") &&
                strstr(report, want),
             "report:\n%s", report);
   hw_gpu_destroy(gpu);
}

/* ---- ring wrap-around ---------------------------------------------------------------------- */

static void test_ring_wrap(void)
{
   struct hw_gpu *gpu = hwt_gpu(2, 0);
   const uint32_t n = 10000;
   const uint32_t first[2] = {0, 0xfffffff0u};
   struct hwt_channel ch[2];
   uint64_t logs[2], counters = hwt_alloc(gpu, 4096), pbs[2];
   for (uint32_t c = 0; c < 2; c++) {
      hwt_channel_init(&ch[c], gpu, c, 8, first[c]);
      logs[c] = hwt_alloc(gpu, n * 4ull);
      pbs[c] = hwt_alloc(gpu, n * 40ull);
   }
   /* Both channels interleaved: entry k of channel c writes log[k] and
    * releases counter = k + 1. */
   for (uint32_t k = 0; k < n; k++) {
      for (uint32_t c = 0; c < 2; c++) {
         struct hwt_pb pb;
         hwt_pb_at(&pb, gpu, pbs[c] + 40ull * k, 10);
         hwt_write32(&pb, logs[c] + 4ull * k, k ^ (0x5a5a0000u + c));
         hwt_release(&pb, counters + 8 * c, k + 1, HW_PKT_FLAG_INTERRUPT);
         hwt_pb_submit(&pb, &ch[c]);
      }
   }
   for (uint32_t c = 0; c < 2; c++) {
      hwt_wait_sem(gpu, counters + 8 * c, n, "ring wrap");
      const uint32_t *log = hwt_ptr(gpu, logs[c]);
      uint32_t bad = 0;
      for (uint32_t k = 0; k < n; k++)
         bad += log[k] != (k ^ (0x5a5a0000u + c));
      HWT_CHECK(bad == 0, "channel %u: %u of %u entries did not run", c, bad, n);
      HWT_CHECK(hwt_load64(gpu, counters + 8 * c) == n, "channel %u counter", c);
      HWT_CHECK(hwt_get(&ch[c]) == first[c] + n && ch[c].put == first[c] + n,
                "channel %u: GET=%u PUT=%u, expected %u", c, hwt_get(&ch[c]), ch[c].put,
                first[c] + n);
   }
   struct hw_gpu_stats st;
   hw_gpu_get_stats(gpu, &st);
   HWT_CHECK(st.ring_fetches == 2ull * n, "ring fetches %" PRIu64, st.ring_fetches);
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   hw_gpu_destroy(gpu);
}

/* ---- LINK_SLOT ------------------------------------------------------------------------------- */

/* A driver that never blocks on a full ring: it chains onto the tail
 * pushbuffer's link slot, as hw_packets.h describes. */
struct link_driver {
   struct hwt_channel *ch;
   uint32_t *tail;          /* the tail pushbuffer's LINK_SLOT header */
   uint32_t ring, linked, cas_failed;
};

/* Step 1 of a chain: the length, then (after whatever the caller does in
 * between) step 2, the CAS. Returns true if linked. */
static bool ld_link(struct link_driver *d, uint64_t va, uint32_t len, uint32_t *slot)
{
   uint64_t expected = HW_LINK_OPEN;
   if (atomic_compare_exchange_strong(hw_link_word(d->tail), &expected, va)) {
      d->tail = slot;
      d->linked++;
      return true;
   }
   /* The GPU closed the slot: it has fetched everything up to the tail. */
   HWT_CHECK(expected == HW_LINK_CLOSED, "a failed CAS finds CLOSED, not 0x%" PRIx64, expected);
   d->cas_failed++;
   uint32_t get = hwt_get(d->ch);
   HWT_CHECK(get == d->ch->put, "CAS failed, so the ring has drained: GET=%u PUT=%u", get,
             d->ch->put);
   (void)len;
   return false;
}

static void ld_ring(struct link_driver *d, uint64_t va, uint32_t len, uint32_t *slot)
{
   hwt_submit(d->ch, va, len);
   d->tail = slot;
   d->ring++;
}

static void ld_submit(struct link_driver *d, uint64_t va, uint32_t len, uint32_t *slot)
{
   if (d->tail && d->ch->put - hwt_get(d->ch) >= d->ch->entries) {
      d->tail[3] = len;   /* the length, before the VA */
      if (ld_link(d, va, len, slot))
         return;
   }
   ld_ring(d, va, len, slot);
}

/* Pushbuffer k of a link test: [acquire gate] mark(k) [extra] LINK_SLOT. */
struct link_pb {
   uint64_t va;
   uint32_t len;
   uint32_t *slot;
};

static struct link_pb make_link_pb(struct hw_gpu *gpu, uint64_t base, uint32_t k, uint64_t step,
                                   uint64_t gate, uint64_t fill_dst)
{
   struct hwt_pb pb;
   hwt_pb_at(&pb, gpu, base + 128ull * (k - 1), 32);
   if (gate)
      hwt_acquire(&pb, gate, 1);
   mark(&pb, step, k);
   if (fill_dst) {
      pb.p = hw_emit_fill(pb.p, fill_dst, 4096, k);
      pb.p = hw_emit_simple(pb.p, HW_OP_WAIT_FOR_IDLE);
   }
   pb.p = hw_emit_link_slot(pb.p);
   struct link_pb r = {pb.va, hwt_pb_dwords(&pb), pb.p - 1 - HW_PKT_LINK_DWORDS};
   return r;
}

static void test_link_slot(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 0);
   struct hwt_channel c0;
   hwt_channel_init(&c0, gpu, 0, 8, 0);
   uint64_t sems = hwt_alloc(gpu, 4096), step = sems, gate = sems + 8;
   const uint32_t n = 40;
   uint64_t base = hwt_alloc(gpu, 128ull * (n + 2));
   struct link_pb pb[42];
   for (uint32_t k = 1; k <= n + 1; k++)
      pb[k] = make_link_pb(gpu, base, k, step, k == 1 ? gate : 0, 0);

   struct link_driver d = {.ch = &c0};
   ld_submit(&d, pb[1].va, pb[1].len, pb[1].slot);
   wait_parked(gpu, 0, gate, 1);   /* entry 0 fetched: GET = 1 */
   for (uint32_t k = 2; k <= 9; k++)
      ld_submit(&d, pb[k].va, pb[k].len, pb[k].slot);
   HWT_CHECK(d.ring == 9 && c0.put - hwt_get(&c0) == 8, "the ring is full: PUT=%u GET=%u",
             c0.put, hwt_get(&c0));
   for (uint32_t k = 10; k <= n; k++)
      ld_submit(&d, pb[k].va, pb[k].len, pb[k].slot);
   HWT_CHECK(d.ring == 9 && d.linked == n - 9 && d.cas_failed == 0,
             "9 ring entries, %u linked: got %u, %u, %u failed", n - 9, d.ring, d.linked,
             d.cas_failed);
   HWT_CHECK(atomic_load(hw_link_word(pb[9].slot)) == pb[10].va, "pb 9 links to pb 10");
   HWT_CHECK(pb[9].slot[3] == pb[10].len, "with its length");

   /* The next submission finds the ring full and writes the length; before
    * its CAS, the GPU drains everything and closes the tail slot. */
   HWT_CHECK(c0.put - hwt_get(&c0) == 8, "still full");
   d.tail[3] = pb[n + 1].len;
   hw_host_signal(gpu, gate, 1);
   hwt_wait_sem(gpu, step, n, "the chained submissions");
   /* The release of mark n comes just before the slot: wait for the GPU to
    * reach it. */
   uint64_t deadline = hw_now_ns() + HWT_TIMEOUT_NS;
   while (atomic_load(hw_link_word(pb[n].slot)) != HW_LINK_CLOSED && hw_now_ns() < deadline)
      hwt_sleep_ms(1);
   HWT_CHECK(atomic_load(hw_link_word(pb[n].slot)) == HW_LINK_CLOSED, "the GPU closed the tail");
   HWT_CHECK(!ld_link(&d, pb[n + 1].va, pb[n + 1].len, pb[n + 1].slot), "the CAS fails");
   HWT_CHECK(d.cas_failed == 1, "one failed CAS");
   ld_ring(&d, pb[n + 1].va, pb[n + 1].len, pb[n + 1].slot);
   hwt_wait_sem(gpu, step, n + 1, "the submission after the drained ring");
   for (uint32_t k = 1; k <= 8; k++)
      HWT_CHECK(atomic_load(hw_link_word(pb[k].slot)) == HW_LINK_CLOSED, "pb %u closed", k);
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   hw_gpu_destroy(gpu);

   /* Stress: the same driver racing the GPU, pacing itself so that the GPU
    * often catches up with the tail just as the driver links onto it. */
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 1, 0);
   cfg.engine_spin_ns = 1000000;
   gpu = hwt_gpu_create(&cfg);
   hwt_channel_init(&c0, gpu, 0, 8, 0);
   sems = hwt_alloc(gpu, 4096);
   step = sems;
   const uint32_t m = 4000;
   base = hwt_alloc(gpu, 128ull * m);
   uint64_t fill = hwt_alloc(gpu, 4096);
   d = (struct link_driver){.ch = &c0};
   for (uint32_t k = 1; k <= m; k++) {
      struct link_pb p = make_link_pb(gpu, base, k, step, 0, k % 5 == 0 ? fill : 0);
      ld_submit(&d, p.va, p.len, p.slot);
      if ((rnd() & 15) == 0) {
         uint64_t lag = rnd() % 10;
         if (k > lag)
            hwt_wait_sem(gpu, step, k - lag, "link stress pacing");
      }
   }
   hwt_wait_sem(gpu, step, m, "link stress");
   fprintf(stderr, "link stress: %u ring entries, %u linked, %u failed CAS\n", d.ring, d.linked,
           d.cas_failed);
   HWT_CHECK(d.ring + d.linked == m, "every submission went somewhere");
   HWT_CHECK(d.linked > 0 && d.ring > 8, "both paths used: %u ring, %u linked", d.ring, d.linked);
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   hw_gpu_destroy(gpu);
}

/* ---- TIMESTAMP ------------------------------------------------------------------------------ */

static void test_timestamps(void)
{
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 1, 0);
   cfg.delay_spec = "dma:200-400";
   struct hw_gpu *gpu = hwt_gpu_create(&cfg);
   struct hwt_channel c0;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   const uint64_t size = 32 * MIB;
   uint64_t src = hwt_alloc(gpu, size), dst = hwt_alloc(gpu, size);
   uint64_t ts = hwt_alloc(gpu, 4096), done = hwt_alloc(gpu, 4096);

   uint64_t before = hw_now_ns();
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 256);
   for (int i = 0; i < 16; i++)
      pb.p = hw_emit_timestamp(pb.p, 0, ts + 8ull * i);
   pb.p = hw_emit_copy(pb.p, src, dst, size);
   pb.p = hw_emit_timestamp(pb.p, 0, ts + 8 * 16);                 /* before the copy ends */
   pb.p = hw_emit_timestamp(pb.p, HW_PKT_FLAG_WFI, ts + 8 * 17);   /* after it */
   pb.p = hw_emit_timestamp(pb.p, HW_PKT_FLAG_WFI, ts + 8 * 18);   /* nothing to wait for */
   hwt_release(&pb, done, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   struct hwt_pb pb2;
   hwt_pb_init(&pb2, gpu, 64);
   pb2.p = hw_emit_timestamp(pb2.p, 0, ts + 8 * 19);
   hwt_release(&pb2, done, 2, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb2, &c0);
   hwt_wait_sem(gpu, done, 2, "timestamps");
   uint64_t after = hw_now_ns();

   const uint64_t *t = hwt_ptr(gpu, ts);
   HWT_CHECK(t[0] >= before, "first timestamp %" PRIu64 " before the submission %" PRIu64, t[0],
             before);
   for (int i = 1; i < 20; i++)
      HWT_CHECK(t[i] >= t[i - 1], "timestamp %d (%" PRIu64 ") < timestamp %d (%" PRIu64 ")", i,
                t[i], i - 1, t[i - 1]);
   HWT_CHECK(t[19] <= after, "last timestamp after the host saw it");
   uint64_t min_delay = (size / DMA_SLICE) * 200000ull;
   HWT_CHECK(t[17] - t[16] >= min_delay,
             "TIMESTAMP with WFI waited for the copy: %" PRIu64 " ns, expected >= %" PRIu64,
             t[17] - t[16], min_delay);
   HWT_CHECK(t[16] - t[15] < min_delay, "TIMESTAMP without WFI did not wait for the copy: %" PRIu64
             " ns", t[16] - t[15]);
   hw_gpu_destroy(gpu);
}

/* ---- QUERY_COPY ----------------------------------------------------------------------------- */

static void store_le(uint8_t *o, uint64_t v, size_t bytes)
{
   for (size_t i = 0; i < bytes; i++)
      o[i] = (uint8_t)(v >> (8 * i));
}

/* The C reference (vkCmdCopyQueryPoolResults semantics). */
static void ref_query(uint8_t *out, const struct hw_query_slot *s, uint32_t count, uint64_t stride,
                      uint32_t flags)
{
   size_t vb = (flags & HW_QUERY_64) ? 8 : 4;
   for (uint32_t i = 0; i < count; i++) {
      uint8_t *o = out + i * stride;
      bool avail = s[i].available != 0;
      if (avail || (flags & HW_QUERY_PARTIAL))
         store_le(o, s[i].value, vb);
      if (flags & HW_QUERY_WITH_AVAILABILITY)
         store_le(o + vb, avail ? 1 : 0, vb);
   }
}

static void test_query_copy(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 1);
   struct hwt_channel c0, c1;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   hwt_channel_init(&c1, gpu, 1, 4, 0);   /* DMA engine */
   uint64_t sems = hwt_alloc(gpu, 4096), done = sems, go = sems + 8;
   const struct hw_query_slot slots[5] = {
      {0x1234567890abcdefull, 1}, {0xfedcba9876543210ull, 0}, {0xffffffffull, 1},
      {0x100000000ull, 1}, {7, 0},
   };
   uint64_t pool = hwt_alloc(gpu, 4096);
   memcpy(hwt_ptr(gpu, pool), slots, sizeof(slots));
   const uint32_t combos[] = {
      0, HW_QUERY_64, HW_QUERY_WITH_AVAILABILITY, HW_QUERY_64 | HW_QUERY_WITH_AVAILABILITY,
      HW_QUERY_PARTIAL, HW_QUERY_PARTIAL | HW_QUERY_64,
      HW_QUERY_PARTIAL | HW_QUERY_WITH_AVAILABILITY,
      HW_QUERY_PARTIAL | HW_QUERY_64 | HW_QUERY_WITH_AVAILABILITY,
   };
   const uint32_t nc = sizeof(combos) / sizeof(combos[0]);
   const uint64_t region = 256, stride = 24;
   uint64_t out = hwt_alloc(gpu, region * (nc + 1));
   uint8_t *o = hwt_ptr(gpu, out);
   memset(o, 0xee, region * (nc + 1));
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 256);
   for (uint32_t i = 0; i < nc; i++)
      pb.p = hw_emit_query_copy(pb.p, &(struct hw_pkt_query_copy){pool, out + region * i + 8,
                                                                 stride, 5, combos[i]});
   /* count 0 writes nothing */
   pb.p = hw_emit_query_copy(pb.p, &(struct hw_pkt_query_copy){pool, out + region * nc, 8, 0,
                                                              HW_QUERY_64});
   hwt_release(&pb, done, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   hwt_wait_sem(gpu, done, 1, "query copies");
   uint8_t ref[256];
   for (uint32_t i = 0; i < nc; i++) {
      memset(ref, 0xee, sizeof(ref));
      ref_query(ref + 8, slots, 5, stride, combos[i]);
      char what[64];
      snprintf(what, sizeof(what), "QUERY_COPY flags 0x%x", combos[i]);
      check_bytes(what, o + region * i, ref, region);
   }
   memset(ref, 0xee, sizeof(ref));
   check_bytes("QUERY_COPY count 0", o + region * nc, ref, region);

   /* After prior copies: a DMA_COPY makes slot 1 available just before. */
   const struct hw_query_slot staged = {0x0badc0ffee0ddf00ull, 1};
   uint64_t staging = hwt_alloc(gpu, 4096);
   memcpy(hwt_ptr(gpu, staging), &staged, sizeof(staged));
   memset(o, 0xee, region);
   hwt_pb_init(&pb, gpu, 64);
   pb.p = hw_emit_copy(pb.p, staging, pool + 16, 16);
   pb.p = hw_emit_query_copy(pb.p, &(struct hw_pkt_query_copy){pool, out, 16, 3,
                                                              HW_QUERY_64 | HW_QUERY_WITH_AVAILABILITY});
   hwt_release(&pb, done, 2, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   hwt_wait_sem(gpu, done, 2, "query copy after a copy");
   struct hw_query_slot now[3] = {slots[0], staged, slots[2]};
   memset(ref, 0xee, sizeof(ref));
   ref_query(ref, now, 3, 16, HW_QUERY_64 | HW_QUERY_WITH_AVAILABILITY);
   check_bytes("QUERY_COPY after a DMA_COPY", o, ref, region);

   /* WAIT: parked until another channel (on the DMA engine) makes slot 1
    * available, writing its value first. */
   uint64_t pool2 = hwt_alloc(gpu, 4096);
   struct hw_query_slot *p2 = hwt_ptr(gpu, pool2);
   p2[0] = (struct hw_query_slot){10, 1};
   p2[1] = (struct hw_query_slot){0, 0};
   p2[2] = (struct hw_query_slot){30, 1};
   memset(o, 0xee, region);
   hwt_pb_init(&pb, gpu, 64);
   pb.p = hw_emit_query_copy(pb.p, &(struct hw_pkt_query_copy){
                                      pool2, out, 16, 3,
                                      HW_QUERY_WAIT | HW_QUERY_64 | HW_QUERY_WITH_AVAILABILITY});
   hwt_release(&pb, done, 3, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   wait_parked(gpu, 0, pool2 + 16 + 8, 1);
   struct hwt_pb dp;
   hwt_pb_init(&dp, gpu, 64);
   hwt_acquire(&dp, go, 1);
   uint64_t v20 = 0x2000000000000020ull;
   dp.p = hw_emit_inline_write(dp.p, pool2 + 16, &v20, 8);
   hwt_release(&dp, pool2 + 24, 1, 0);
   hwt_pb_submit(&dp, &c1);
   wait_parked(gpu, 1, go, 1);
   hwt_sleep_ms(10);
   HWT_CHECK(hwt_load64(gpu, done) == 2, "QUERY_COPY with WAIT is parked");
   hw_host_signal(gpu, go, 1);
   hwt_wait_sem(gpu, done, 3, "QUERY_COPY with WAIT");
   struct hw_query_slot final[3] = {{10, 1}, {v20, 1}, {30, 1}};
   memset(ref, 0xee, sizeof(ref));
   ref_query(ref, final, 3, 16, HW_QUERY_64 | HW_QUERY_WITH_AVAILABILITY);
   check_bytes("QUERY_COPY with WAIT", o, ref, region);

   /* WAIT, 32-bit, no availability; made available by the host. */
   uint64_t pool3 = hwt_alloc(gpu, 4096);
   struct hw_query_slot *p3 = hwt_ptr(gpu, pool3);
   memset(o, 0xee, region);
   hwt_pb_init(&pb, gpu, 64);
   pb.p = hw_emit_query_copy(pb.p, &(struct hw_pkt_query_copy){pool3, out, 4, 2, HW_QUERY_WAIT});
   hwt_release(&pb, done, 4, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   wait_parked(gpu, 0, pool3 + 8, 1);
   p3[0].value = 0xaaaaaaaa55555555ull;
   hw_host_signal(gpu, pool3 + 8, 1);
   wait_parked(gpu, 0, pool3 + 24, 1);
   p3[1].value = 0x77;
   hw_host_signal(gpu, pool3 + 24, 1);
   hwt_wait_sem(gpu, done, 4, "QUERY_COPY WAIT 32-bit");
   struct hw_query_slot final3[2] = {{0xaaaaaaaa55555555ull, 1}, {0x77, 1}};
   memset(ref, 0xee, sizeof(ref));
   ref_query(ref, final3, 2, 4, HW_QUERY_WAIT);
   check_bytes("QUERY_COPY WAIT 32-bit", o, ref, region);
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   hw_gpu_destroy(gpu);
}

/* ---- labels in snapshots ------------------------------------------------------------------- */

static const char long_label[] =
   "a label longer than the sixty-three bytes that a snapshot keeps, cut there";

static void test_labels(void)
{
   struct hw_gpu *gpu = hwt_gpu(2, 0);
   struct hwt_channel c0, c1;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   hwt_channel_init(&c1, gpu, 1, 4, 0);
   uint64_t sems = hwt_alloc(gpu, 4096), gate = sems, done = sems + 8;
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 256);
   pb.p = hw_emit_label(pb.p, HW_OP_LABEL_PUSH, "frame 42");
   pb.p = hw_emit_label(pb.p, HW_OP_LABEL_PUSH, "pass 2");
   pb.p = hw_emit_label(pb.p, HW_OP_LABEL_PUSH, "dispatch: blur");
   pb.p = hw_emit_label(pb.p, HW_OP_LABEL_INSERT, "marker");
   hwt_acquire(&pb, gate, 1);
   pb.p = hw_emit_simple(pb.p, HW_OP_LABEL_POP);
   pb.p = hw_emit_simple(pb.p, HW_OP_LABEL_POP);
   hwt_acquire(&pb, gate, 2);
   pb.p = hw_emit_simple(pb.p, HW_OP_LABEL_POP);
   hwt_acquire(&pb, gate, 3);
   pb.p = hw_emit_label(pb.p, HW_OP_LABEL_PUSH, long_label);
   hwt_acquire(&pb, gate, 4);
   hwt_release(&pb, done, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);

   wait_parked(gpu, 0, gate, 1);
   const char *snap = hwt_snapshot(gpu);
   HWT_CHECK(strstr(snap, "inside debug label \"dispatch: blur\" (depth 3)"),
             "innermost label:\n%s", snap);
   HWT_CHECK(!strstr(snap, "marker"), "an inserted label is not a scope:\n%s", snap);
   /* The label belongs to channel 0's entry; channel 1 has none. */
   const char *c1line = strstr(snap, "  channel 1 ");
   HWT_CHECK(c1line && !strstr(c1line, "debug label"), "channel 1 has no label:\n%s", snap);

   hw_host_signal(gpu, gate, 1);
   wait_parked(gpu, 0, gate, 2);
   snap = hwt_snapshot(gpu);
   /* Labels nest: after two pops the outermost is the innermost again.
    * (Regression: LABEL_POP kept the popped text.) */
   HWT_CHECK(strstr(snap, "inside debug label \"frame 42\" (depth 1)"),
             "after two pops, the outer label:\n%s", snap);

   hw_host_signal(gpu, gate, 2);
   wait_parked(gpu, 0, gate, 3);
   snap = hwt_snapshot(gpu);
   HWT_CHECK(!strstr(snap, "debug label"), "no label after the last pop:\n%s", snap);

   hw_host_signal(gpu, gate, 3);
   wait_parked(gpu, 0, gate, 4);
   snap = hwt_snapshot(gpu);
   char want[128];
   snprintf(want, sizeof(want), "inside debug label \"%.63s\" (depth 1)", long_label);
   HWT_CHECK(strstr(snap, want), "long label cut to 63 bytes (%s):\n%s", want, snap);
   hw_host_signal(gpu, gate, 4);
   hwt_wait_sem(gpu, done, 1, "labels");
   hw_gpu_destroy(gpu);
}

/* ---- host waits ------------------------------------------------------------------------------- */

struct signaller {
   struct hw_gpu *gpu;
   uint64_t va[2];
   uint32_t delay_ms;
   _Atomic int phase;
};

static void *signal_later(void *arg)
{
   struct signaller *s = arg;
   for (int i = 0; i < 2; i++) {
      if (!s->va[i])
         continue;
      hwt_sleep_ms(s->delay_ms);
      atomic_store(&s->phase, i + 1);
      hw_host_signal(s->gpu, s->va[i], 1);
   }
   return NULL;
}

struct waiter {
   struct hw_gpu *gpu;
   struct hw_wait_item item;
   enum hw_wait_result result;
};

static void *wait_thread(void *arg)
{
   struct waiter *w = arg;
   w->result = hw_wait(w->gpu, &w->item, 1, true, HWT_TIMEOUT_NS);
   return NULL;
}

static void test_host_waits(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 0);
   uint64_t sems = hwt_alloc(gpu, 4096);
   uint64_t a = sems, b = sems + 8, c = sems + 16, e = sems + 24, g = sems + 32, h = sems + 40;
   struct hw_gpu_stats s0, s1;

   /* Timeout 0: just a check. */
   hw_gpu_get_stats(gpu, &s0);
   uint64_t t0 = hw_now_ns();
   struct hw_wait_item ia = {a, 1};
   HWT_CHECK(hw_wait(gpu, &ia, 1, true, 0) == HW_WAIT_TIMEOUT, "timeout 0, unsatisfied");
   HWT_CHECK(hw_wait(gpu, &ia, 1, false, 0) == HW_WAIT_TIMEOUT, "timeout 0, any");
   uint64_t dt = hw_now_ns() - t0;
   hw_gpu_get_stats(gpu, &s1);
   HWT_CHECK(dt < 50 * HWT_MS, "timeout 0 returns at once: %" PRIu64 " ns", dt);
   HWT_CHECK(s1.host_wait_sleeps == s0.host_wait_sleeps, "timeout 0 never sleeps");
   HWT_CHECK(s1.host_waits == s0.host_waits + 2, "waits counted");

   /* all / any. */
   hw_host_signal(gpu, a, 5);
   struct hw_wait_item two[2] = {{a, 5}, {b, 1}};
   HWT_CHECK(hw_wait(gpu, two, 2, false, 0) == HW_WAIT_SATISFIED, "any: a >= 5");
   HWT_CHECK(hw_wait(gpu, two, 2, true, 0) == HW_WAIT_TIMEOUT, "all: b is 0");
   two[1].value = 0;
   HWT_CHECK(hw_wait(gpu, two, 2, true, 0) == HW_WAIT_SATISFIED, "all: b >= 0");
   two[0].value = 6;
   HWT_CHECK(hw_wait(gpu, two, 2, true, 0) == HW_WAIT_TIMEOUT, "all: a is 5, not 6");
   struct hw_wait_item big = {a, UINT64_MAX};
   HWT_CHECK(hw_wait(gpu, &big, 1, true, 0) == HW_WAIT_TIMEOUT, "a < 2^64 - 1");
   hw_host_signal(gpu, a, UINT64_MAX);
   HWT_CHECK(hw_wait(gpu, &big, 1, true, 0) == HW_WAIT_SATISFIED, "a == 2^64 - 1");

   /* Finite timeouts: never early, not much late. */
   const uint64_t timeouts[] = {1000, 2 * HWT_MS, 100 * HWT_MS};
   struct hw_wait_item ib = {b, 1};
   for (int i = 0; i < 3; i++) {
      t0 = hw_now_ns();
      enum hw_wait_result r = hw_wait(gpu, &ib, 1, true, timeouts[i]);
      dt = hw_now_ns() - t0;
      HWT_CHECK(r == HW_WAIT_TIMEOUT, "finite timeout %" PRIu64 ": %d", timeouts[i], (int)r);
      HWT_CHECK(dt >= timeouts[i], "timeout %" PRIu64 " ns returned after %" PRIu64 " ns",
                timeouts[i], dt);
      HWT_CHECK(dt < timeouts[i] + 2000 * HWT_MS, "timeout %" PRIu64 " ns took %" PRIu64 " ns",
                timeouts[i], dt);
   }

   /* Blocking any, then all, with another thread signalling. */
   struct signaller sig = {gpu, {b, c}, 50, 0};
   pthread_t t;
   pthread_create(&t, NULL, signal_later, &sig);
   struct hw_wait_item bc[2] = {{b, 1}, {c, 1}};
   HWT_CHECK(hw_wait(gpu, bc, 2, false, HWT_TIMEOUT_NS) == HW_WAIT_SATISFIED, "any");
   HWT_CHECK(atomic_load(&sig.phase) >= 1, "any returned only after a signal");
   HWT_CHECK(hw_wait(gpu, bc, 2, true, UINT64_MAX) == HW_WAIT_SATISFIED, "all, forever");
   HWT_CHECK(atomic_load(&sig.phase) == 2, "all returned only after both signals");
   pthread_join(t, NULL);

   /* An overflowing deadline is infinite too. */
   struct signaller sig2 = {gpu, {e, 0}, 100, 0};
   pthread_create(&t, NULL, signal_later, &sig2);
   struct hw_wait_item ie = {e, 1};
   t0 = hw_now_ns();
   HWT_CHECK(hw_wait(gpu, &ie, 1, true, UINT64_MAX - 1) == HW_WAIT_SATISFIED,
             "an overflowing deadline waits");
   dt = hw_now_ns() - t0;
   HWT_CHECK(atomic_load(&sig2.phase) == 1 && dt >= 90 * HWT_MS,
             "returned only after the signal (%" PRIu64 " ns)", dt);
   pthread_join(t, NULL);

   /* A GPU release with INTERRUPT wakes a host waiter that sleeps. */
   struct hwt_channel c0;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 64);
   hwt_acquire(&pb, g, 1);
   hwt_release(&pb, h, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   wait_parked(gpu, 0, g, 1);
   hw_gpu_get_stats(gpu, &s0);
   struct waiter w = {gpu, {h, 1}, HW_WAIT_LOST};
   pthread_create(&t, NULL, wait_thread, &w);
   uint64_t deadline = hw_now_ns() + HWT_TIMEOUT_NS;
   do {
      hwt_sleep_ms(1);
      hw_gpu_get_stats(gpu, &s1);
   } while (s1.host_wait_sleeps == s0.host_wait_sleeps && hw_now_ns() < deadline);
   HWT_CHECK(s1.host_wait_sleeps > s0.host_wait_sleeps, "the waiter went to sleep");
   hw_host_signal(gpu, g, 1);
   pthread_join(t, NULL);
   HWT_CHECK(w.result == HW_WAIT_SATISFIED, "woken by the GPU's interrupt: %d", (int)w.result);
   hw_gpu_destroy(gpu);
}

/* ---- hw_gpu_stop ------------------------------------------------------------------------------ */

static void test_stop(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 1);
   struct hwt_channel c0, c1;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   hwt_channel_init(&c1, gpu, 1, 4, 0);
   uint64_t sems = hwt_alloc(gpu, 4096), gate = sems, done = sems + 8, after = sems + 16;
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 64);
   hwt_release(&pb, done, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_acquire(&pb, gate, 1);
   hwt_release(&pb, done, 2, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   hwt_wait_sem(gpu, done, 1, "before the stop");
   wait_parked(gpu, 0, gate, 1);
   hw_gpu_stop(gpu);
   hw_gpu_stop(gpu);   /* idempotent */
   /* Nothing executes afterwards: not the parked channel, not new work. */
   hw_host_signal(gpu, gate, 1);
   struct hwt_pb more;
   hwt_pb_init(&more, gpu, 64);
   hwt_release(&more, after, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&more, &c1);
   hwt_sleep_ms(30);
   HWT_CHECK(hwt_load64(gpu, done) == 1, "the parked channel stayed stopped");
   HWT_CHECK(hwt_load64(gpu, after) == 0, "new work does not run");
   struct hw_wait_item it = {after, 1};
   uint64_t t0 = hw_now_ns();
   HWT_CHECK(hw_wait(gpu, &it, 1, true, 20 * HWT_MS) == HW_WAIT_TIMEOUT, "a wait times out");
   HWT_CHECK(hw_now_ns() - t0 >= 20 * HWT_MS, "not early");
   HWT_CHECK(!hw_gpu_is_lost(gpu), "stopping is not a fault");
   hw_gpu_destroy(gpu);
}

/* ---- the DMA engine and the command processor run concurrently ------------------------------- */

static void test_dma_concurrency(void)
{
   for (int busy_dma = 0; busy_dma < 2; busy_dma++) {
      /* One engine is slowed down to 25 ms per packet; the other must get
       * through its 200 entries meanwhile. */
      struct hw_gpu_config cfg;
      hwt_config(&cfg, 1, 1);
      cfg.delay_spec = busy_dma ? "dma:25000" : "cp:25000";
      struct hw_gpu *gpu = hwt_gpu_create(&cfg);
      struct hwt_channel ch[2];
      hwt_channel_init(&ch[0], gpu, 0, 256, 0);
      hwt_channel_init(&ch[1], gpu, 1, 256, 0);
      uint32_t slow = busy_dma ? 1 : 0, fast = 1 - slow;
      uint64_t sems = hwt_alloc(gpu, 4096), slow_done = sems, fast_done = sems + 8;
      struct hwt_pb pb;
      hwt_pb_init(&pb, gpu, 64);
      for (int i = 0; i < 15; i++)
         pb.p = hw_emit_simple(pb.p, HW_OP_NOP);
      hwt_release(&pb, slow_done, 1, HW_PKT_FLAG_INTERRUPT);   /* >= 375 ms in */
      uint64_t t0 = hw_now_ns();
      hwt_pb_submit(&pb, &ch[slow]);

      const uint32_t n = 200;
      uint64_t out = hwt_alloc(gpu, n * 4096ull), pbs = hwt_alloc(gpu, n * 64ull);
      for (uint32_t k = 0; k < n; k++) {
         struct hwt_pb e;
         hwt_pb_at(&e, gpu, pbs + 64ull * k, 16);
         if (!busy_dma)
            e.p = hw_emit_fill(e.p, out + 4096ull * k, 4096, k * 0x01010101u);
         else
            hwt_write32(&e, out + 4096ull * k, k * 0x01010101u);
         hwt_release(&e, fast_done, k + 1, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT);
         hwt_pb_submit(&e, &ch[fast]);
      }
      hwt_wait_sem(gpu, fast_done, n, "the fast engine");
      uint64_t dt = hw_now_ns() - t0;
      struct hw_wait_item is = {slow_done, 1};
      HWT_CHECK(hw_wait(gpu, &is, 1, true, 0) == HW_WAIT_TIMEOUT,
                "%s: the fast engine finished %u entries (in %" PRIu64 " ms) while the slow one "
                "was still busy",
                cfg.delay_spec, n, dt / HWT_MS);
      const uint32_t *o = hwt_ptr(gpu, out);
      uint32_t bad = 0;
      for (uint32_t k = 0; k < n; k++)
         bad += o[1024 * k] != k * 0x01010101u ||
                (!busy_dma && o[1024 * k + 1023] != k * 0x01010101u);
      HWT_CHECK(bad == 0, "%u results wrong", bad);
      hwt_wait_sem(gpu, slow_done, 1, "the slow engine");
      HWT_CHECK(hw_now_ns() - t0 >= 15 * 25 * HWT_MS, "the slow engine was slow");
      hw_gpu_destroy(gpu);
   }
}

int main(void)
{
   HWT_RUN(test_dma_results);
   HWT_RUN(test_dma_fill_budget);
   HWT_RUN(test_sem_cross_channel);
   HWT_RUN(test_host_signal);
   HWT_RUN(test_wfi);
   HWT_RUN(test_call_return_jump);
   HWT_RUN(test_ring_wrap);
   HWT_RUN(test_link_slot);
   HWT_RUN(test_timestamps);
   HWT_RUN(test_query_copy);
   HWT_RUN(test_labels);
   HWT_RUN(test_host_waits);
   HWT_RUN(test_dma_concurrency);
   HWT_RUN(test_stop);
   return hwt_finish();
}
