/*
 * test_faults: GPU faults lose the GPU, and only that GPU.
 *
 * For each fault below, on a GPU with two compute channels and one DMA
 * channel, with another channel parked on an acquire and two host threads
 * asleep in hw_wait (one "all" wait without timeout, one "any" wait) on
 * words nobody signals, pins down:
 * - hw_gpu_is_lost becomes true and hw_gpu_fault_report is non-NULL;
 * - the report names the faulting channel and its engine, the cause, the
 *   channel's GET/PUT, the decoded packet (hw_packet_format's text, INVALID
 *   for malformed ones) and lists every channel, the parked one as parked;
 * - the packets before the faulting one ran, the ones after it did not;
 * - both host waiters return HW_WAIT_LOST promptly (< 2 s), and later waits
 *   (timeout 0 and infinite) return HW_WAIT_LOST at once; work submitted
 *   after the loss never runs; the snapshot says "(lost)".
 * Faults: a payload too short, a packet truncated by the end of its
 * pushbuffer, an unknown opcode (200, 20), LAUNCH and LAUNCH_EMBEDDED (its
 * descriptor decoded in the report) on the DMA engine, a DMA copy
 * from an unmapped address (a guard page, a freed allocation) and to one, a
 * pushbuffer outside memory (ring entry and CALL), a misaligned semaphore
 * (release and acquire), a fill not a multiple of 4, a misaligned link slot,
 * a query copy to unmapped memory, PUT more than a ring ahead of GET, the
 * copy watchdog, and injected faults (cfg.fault_spec
 * "channel:C,packet:K,device:D": packets 1..K-1 run, packet K faults as
 * malformed; with ",kind:address" a DMA copy from packet K on reads VA
 * 0x10; a spec naming another device or not parsing arms nothing).
 * Also: a QUERY_COPY whose destination span wraps around 2^64 faults (and
 * writes nothing); a GPU that exists during another GPU's fault, and one
 * created after it, keep working (results checked byte for byte).
 * The fault log on stderr is expected.
 */
#define _GNU_SOURCE 1
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "hwt.h"

struct fx {
   struct hw_gpu *gpu;
   struct hwt_channel ch[3];   /* 0, 1: command processor; 2: DMA engine */
   uint64_t sems;              /* a page of words */
   uint64_t before, after;     /* written by the packets around the faulting one */
   uint64_t scratch;           /* a page of data */
   bool check_around;          /* the case writes before/after */
};

/* The words of fx->sems. */
#define W_PARK(fx) ((fx)->sems + 0)
#define W_NEVER1(fx) ((fx)->sems + 8)
#define W_NEVER2(fx) ((fx)->sems + 16)
#define W_LATE(fx) ((fx)->sems + 24)

struct waiter {
   struct hw_gpu *gpu;
   struct hw_wait_item items[2];
   bool all;
   uint64_t timeout;
   enum hw_wait_result result;
   uint64_t returned_ns;
};

static void *wait_thread(void *arg)
{
   struct waiter *w = arg;
   w->result = hw_wait(w->gpu, w->items, 2, w->all, w->timeout);
   w->returned_ns = hw_now_ns();
   return NULL;
}

static void join_within(pthread_t t, uint64_t ns, const char *what)
{
   struct timespec ts;
   clock_gettime(CLOCK_REALTIME, &ts);
   uint64_t end = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + ns;
   ts.tv_sec = (time_t)(end / 1000000000ull);
   ts.tv_nsec = (long)(end % 1000000000ull);
   HWT_REQUIRE(pthread_timedjoin_np(t, NULL, &ts) == 0, "%s: the thread did not return", what);
}

static void wait_parked(struct hw_gpu *gpu, uint32_t c, uint64_t va, uint64_t value)
{
   char want[96], line[512];
   snprintf(want, sizeof(want), "parked on 0x%" PRIx64 " >= %" PRIu64, va, value);
   uint64_t deadline = hw_now_ns() + HWT_TIMEOUT_NS;
   while (!(hwt_channel_line(hwt_snapshot(gpu), c, line, sizeof(line)) && strstr(line, want))) {
      HWT_REQUIRE(hw_now_ns() < deadline, "channel %u never parked:\n%s", c, hwt_snapshot(gpu));
      hwt_sleep_ms(1);
   }
}

/* ---- the faults ------------------------------------------------------------------------ */

typedef void (*submit_fn)(struct fx *fx, uint32_t c, char *cause, char *packet, size_t size);

static void around_start(struct fx *fx, struct hwt_pb *pb)
{
   hwt_write32(pb, fx->before, 1);
   fx->check_around = true;
}

static void around_end(struct fx *fx, struct hwt_pb *pb)
{
   hwt_write32(pb, fx->after, 1);
}

static void f_short_payload(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   *pb.p++ = HW_PKT_HEADER(HW_OP_SEM_RELEASE, 0, 3);
   *pb.p++ = (uint32_t)W_NEVER1(fx);
   *pb.p++ = 0;
   *pb.p++ = 1;
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "malformed packet: SEM_RELEASE with 3 payload dwords (4..4 allowed");
   snprintf(packet, n, "INVALID SEM_RELEASE header=0x02000003: payload of 3 dwords, expected 4..4");
}

static void f_truncated(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   uint32_t *copy = pb.p;
   pb.p = hw_emit_copy(pb.p, fx->scratch, fx->scratch + 64, 64);
   /* Submitted up to 3 payload dwords of the copy. */
   hwt_submit(&fx->ch[c], pb.va, (uint32_t)(copy - pb.base) + 4);
   snprintf(cause, n, "malformed packet: DMA_COPY with 6 payload dwords (6..6 allowed, 3 left in "
            "the pushbuffer)");
   snprintf(packet, n, "INVALID DMA_COPY header=0x05000006: 6 payload dwords, 3 left");
}

static void f_unknown_opcode(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   *pb.p++ = 0xc8000000u;
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "malformed packet: unknown opcode 200 (header 0xc8000000)");
   snprintf(packet, n, "INVALID header=0xc8000000 (unknown opcode 200)");
}

static void f_unassigned_opcode(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   *pb.p++ = HW_PKT_HEADER(20, 0, 2);   /* between QUERY_COPY and LAUNCH */
   *pb.p++ = 0x1000;
   *pb.p++ = 0;
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "malformed packet: unknown opcode 20 (header 0x14000002)");
   snprintf(packet, n, "INVALID header=0x14000002 (unknown opcode 20)");
}

#ifdef HW_PKT_LAUNCH_DWORDS
/* The DMA engine has no execution units. */
static void f_launch_on_dma(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   pb.p = hw_emit_launch(pb.p, fx->scratch);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   /* The cause's wording belongs to the execution units' work: only the
    * channel, the decoded packet and the loss are pinned here. */
   snprintf(cause, n, "%s", "");
   snprintf(packet, n, "LAUNCH desc=0x%" PRIx64, fx->scratch);
}

/* Nor for a descriptor in the packet, which the report decodes. */
static void f_embedded_launch_on_dma(struct fx *fx, uint32_t c, char *cause, char *packet,
                                     size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   struct hw_launch_desc d = {.program_va = fx->scratch, .program_id = 9, .grid = {1, 2, 3},
                              .size = {64, 1, 1}, .register_count = 8, .root_va = 0x1234};
   pb.p = hw_emit_launch_embedded(pb.p, &d, 2);
   *pb.p++ = 0;
   *pb.p++ = 0;
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "%s", "");
   snprintf(packet, n, "LAUNCH_EMBEDDED program=0x%" PRIx64 " id=9 grid=1x2x3 base=0,0,0 "
            "cta=64x1x1 shared=0 private=0 registers=8 flags=0x0 root=0x1234 data=2",
            fx->scratch);
}
#endif

static void f_copy_from_guard(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   uint64_t a = hwt_alloc(fx->gpu, 4096);
   uint64_t guard = a + 4096;
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   pb.p = hw_emit_copy(pb.p, guard, fx->scratch, 64);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "DMA copy source [0x%" PRIx64 ", +64) is outside GPU memory: 0x%" PRIx64
            " is not in any allocation; 0 bytes past the end of [0x%" PRIx64 ", 0x%" PRIx64 ")",
            guard, guard, a, a + 4096);
   snprintf(packet, n, "DMA_COPY src=0x%" PRIx64 " dst=0x%" PRIx64 " size=64", guard, fx->scratch);
}

static void f_copy_from_freed(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   uint64_t a = hwt_alloc(fx->gpu, 8192);
   hw_mem_free(hw_gpu_memory(fx->gpu), a);
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   pb.p = hw_emit_copy(pb.p, a + 100, fx->scratch, 8);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "DMA copy source [0x%" PRIx64 ", +8) is outside GPU memory", a + 100);
   snprintf(packet, n, "DMA_COPY src=0x%" PRIx64 " dst=0x%" PRIx64 " size=8", a + 100, fx->scratch);
}

static void f_copy_to_unmapped(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   /* Straddles the end of the scratch page into its guard page. */
   pb.p = hw_emit_copy(pb.p, fx->scratch, fx->scratch + 4000, 200);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   /* The report names the first byte outside memory: the guard page. */
   snprintf(cause, n, "DMA copy destination [0x%" PRIx64 ", +200) is outside GPU memory: 0x%" PRIx64
            " is not in any allocation; 0 bytes past the end of [0x%" PRIx64 ", 0x%" PRIx64 ")",
            fx->scratch + 4000, fx->scratch + 4096, fx->scratch, fx->scratch + 4096);
   snprintf(packet, n, "DMA_COPY src=0x%" PRIx64 " dst=0x%" PRIx64 " size=200", fx->scratch,
            fx->scratch + 4000);
}

static void f_pushbuffer_outside(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   uint64_t a = hwt_alloc(fx->gpu, 4096);
   hw_mem_free(hw_gpu_memory(fx->gpu), a);
   hwt_submit(&fx->ch[c], a, 4);
   snprintf(cause, n, "pushbuffer [0x%" PRIx64 ", +16) is outside GPU memory", a);
   snprintf(packet, n, "no pushbuffer being executed");
}

static void f_call_outside(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   pb.p = hw_emit_branch(pb.p, HW_OP_CALL, 0x10, 8);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "pushbuffer [0x10, +32) is outside GPU memory: 0x10 is not in any allocation");
   snprintf(packet, n, "CALL va=0x10 dwords=8");
}

static void f_misaligned_release(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   hwt_release(&pb, fx->sems + 36, 1, HW_PKT_FLAG_INTERRUPT);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "semaphore word at 0x%" PRIx64 " is not 8-byte aligned", fx->sems + 36);
   snprintf(packet, n, "SEM_RELEASE va=0x%" PRIx64 " value=1 interrupt", fx->sems + 36);
}

static void f_misaligned_acquire(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   hwt_acquire(&pb, fx->sems + 2, 0);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "semaphore word at 0x%" PRIx64 " is not 8-byte aligned", fx->sems + 2);
   snprintf(packet, n, "SEM_ACQUIRE va=0x%" PRIx64 " value=0", fx->sems + 2);
}

static void f_fill_size(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   pb.p = hw_emit_fill(pb.p, fx->scratch, 6, 0);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "DMA fill of 6 bytes: not a multiple of 4");
   snprintf(packet, n, "DMA_FILL dst=0x%" PRIx64 " size=6 value=0x00000000", fx->scratch);
}

static void f_misaligned_link(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);   /* 4 dwords: the slot header lands on an even dword */
   *pb.p++ = HW_PKT_HEADER(HW_OP_LINK_SLOT, 0, HW_PKT_LINK_DWORDS);
   *pb.p++ = 0;
   *pb.p++ = 0;
   *pb.p++ = 0;
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "link slot word not 8-byte aligned");
   snprintf(packet, n, "LINK_SLOT open");
}

static void f_query_dst(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   pb.p = hw_emit_query_copy(pb.p, &(struct hw_pkt_query_copy){fx->scratch, fx->scratch + 4088,
                                                              8, 2, HW_QUERY_64});
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "query results destination [0x%" PRIx64 ", +16) is outside GPU memory",
            fx->scratch + 4088);
   snprintf(packet, n, "QUERY_COPY src=0x%" PRIx64 " dst=0x%" PRIx64 " count=2 stride=8 flags=0x1",
            fx->scratch, fx->scratch + 4088);
}

static void f_put_ahead(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   struct hwt_channel *ch = &fx->ch[c];
   uint32_t get = hwt_get(ch);
   atomic_store_explicit(&ch->control->put, get + ch->entries + 1, memory_order_release);
   hw_doorbell(fx->gpu, c);
   snprintf(cause, n, "PUT=%u is %u entries ahead of GET=%u; the ring holds %u",
            get + ch->entries + 1, ch->entries + 1, get, ch->entries);
   snprintf(packet, n, "no pushbuffer being executed");
}

static void f_watchdog(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   /* fx made with watchdog_ms 50 and 20 ms per copy slice: 16 slices. */
   uint64_t size = 4u << 20;
   uint64_t src = hwt_alloc(fx->gpu, size), dst = hwt_alloc(fx->gpu, size);
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   pb.p = hw_emit_copy(pb.p, src, dst, size);
   pb.p = hw_emit_simple(pb.p, HW_OP_WAIT_FOR_IDLE);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "watchdog: a copy has run for more than 50 ms");
   snprintf(packet, n, "WAIT_FOR_IDLE");
}

static void f_injected(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   /* fx made with fault_spec "channel:c,packet:3,device:<this GPU>". */
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   hwt_write32(&pb, fx->scratch, 1);
   hwt_write32(&pb, fx->scratch + 4, 2);
   hwt_write32(&pb, fx->scratch + 8, 3);   /* packet 3 */
   hwt_write32(&pb, fx->scratch + 12, 4);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "malformed packet injected by SOFTGPU_FAULT (packet 3)");
   snprintf(packet, n, "INLINE_WRITE dst=0x%" PRIx64 " bytes=4", fx->scratch + 8);
}

static void f_injected_address(struct fx *fx, uint32_t c, char *cause, char *packet, size_t n)
{
   /* fx made with fault_spec "channel:c,packet:2,device:<this GPU>,kind:address":
    * from packet 2 on, DMA addresses of the channel are bad (VA 0x10). */
   struct hwt_pb pb;
   hwt_pb_init(&pb, fx->gpu, 64);
   around_start(fx, &pb);
   pb.p = hw_emit_copy(pb.p, fx->scratch, fx->scratch + 2048, 64);
   around_end(fx, &pb);
   hwt_pb_submit(&pb, &fx->ch[c]);
   snprintf(cause, n, "DMA copy source [0x10, +64) is outside GPU memory");
   snprintf(packet, n, "DMA_COPY src=0x%" PRIx64 " dst=0x%" PRIx64 " size=64", fx->scratch,
            fx->scratch + 2048);
}

/* ---- the runner ------------------------------------------------------------------------- */

enum fx_kind { FX_PLAIN, FX_WATCHDOG, FX_INJECT, FX_INJECT_ADDRESS };

static void run_case(const char *name, submit_fn submit, uint32_t c, enum fx_kind kind)
{
   fprintf(stderr, "-- fault: %s on channel %u (a report is expected)\n", name, c);
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 2, 1);
   char spec[96];
   if (kind == FX_WATCHDOG) {
      cfg.watchdog_ms = 50;
      cfg.delay_spec = "dma:20000";
   }
   if (kind == FX_INJECT || kind == FX_INJECT_ADDRESS) {
      /* The spec names a GPU by creation order: this one is the next. */
      struct hw_gpu *probe = hwt_gpu(1, 0);
      uint32_t next = hwt_gpu_index(probe) + 1;
      hw_gpu_destroy(probe);
      if (kind == FX_INJECT)
         snprintf(spec, sizeof(spec), "channel:%u,packet:3,device:%u", c, next);
      else
         snprintf(spec, sizeof(spec), "channel:%u,packet:2,device:%u,kind:address", c, next);
      cfg.fault_spec = spec;
   }
   struct fx fx = {.gpu = hwt_gpu_create(&cfg)};
   for (uint32_t i = 0; i < 3; i++)
      hwt_channel_init(&fx.ch[i], fx.gpu, i, 8, 0);
   fx.sems = hwt_alloc(fx.gpu, 4096);
   fx.before = fx.sems + 64;
   fx.after = fx.sems + 72;
   fx.scratch = hwt_alloc(fx.gpu, 4096);

   /* Another channel parked, and two host waiters asleep. */
   uint32_t parked = c == 0 ? 1 : 0;
   struct hwt_pb park;
   hwt_pb_init(&park, fx.gpu, 64);
   hwt_acquire(&park, W_PARK(&fx), 1);
   hwt_release(&park, W_LATE(&fx), 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&park, &fx.ch[parked]);
   wait_parked(fx.gpu, parked, W_PARK(&fx), 1);

   struct hw_gpu_stats s0, s1;
   hw_gpu_get_stats(fx.gpu, &s0);
   struct waiter w[2];
   pthread_t t[2];
   for (int i = 0; i < 2; i++) {
      w[i] = (struct waiter){.gpu = fx.gpu,
                             .items = {{W_NEVER1(&fx), 1}, {W_NEVER2(&fx), 1}},
                             .all = i == 0,
                             .timeout = i == 0 ? UINT64_MAX : HWT_TIMEOUT_NS,
                             .result = HW_WAIT_SATISFIED};
      pthread_create(&t[i], NULL, wait_thread, &w[i]);
   }
   uint64_t deadline = hw_now_ns() + HWT_TIMEOUT_NS;
   do {
      hwt_sleep_ms(1);
      hw_gpu_get_stats(fx.gpu, &s1);
   } while (s1.host_wait_sleeps < s0.host_wait_sleeps + 2 && hw_now_ns() < deadline);
   HWT_CHECK(s1.host_wait_sleeps >= s0.host_wait_sleeps + 2, "%s: both waiters asleep", name);
   HWT_CHECK(!hw_gpu_is_lost(fx.gpu) && hw_gpu_fault_report(fx.gpu) == NULL,
             "%s: not lost yet", name);

   char cause[512], packet[512];
   uint64_t t0 = hw_now_ns();
   submit(&fx, c, cause, packet, sizeof(cause));
   for (int i = 0; i < 2; i++) {
      join_within(t[i], HWT_TIMEOUT_NS, name);
      HWT_CHECK(w[i].result == HW_WAIT_LOST, "%s: waiter %d returned %d", name, i,
                (int)w[i].result);
      uint64_t dt = w[i].returned_ns - t0;
      HWT_CHECK(dt < 2000 * HWT_MS, "%s: waiter %d returned %" PRIu64 " ms after the fault",
                name, i, dt / HWT_MS);
   }

   HWT_CHECK(hw_gpu_is_lost(fx.gpu), "%s: lost", name);
   const char *report = hw_gpu_fault_report(fx.gpu);
   HWT_REQUIRE(report, "%s: no fault report", name);
   char want[640], line[512];
   snprintf(want, sizeof(want), "fault on channel %u (%s): ", c,
            c == 2 ? "DMA engine" : "command processor");
   HWT_CHECK(strstr(report, want), "%s: report names the channel (%s):\n%s", name, want, report);
   HWT_CHECK(strstr(report, cause), "%s: report gives the cause (%s):\n%s", name, cause, report);
   HWT_CHECK(strstr(report, packet), "%s: report decodes the packet (%s):\n%s", name, packet,
             report);
   uint32_t get = hwt_get(&fx.ch[c]);
   uint32_t put = atomic_load(&fx.ch[c].control->put);
   snprintf(want, sizeof(want), "GET=%u PUT=%u", get, put);
   HWT_CHECK(hwt_channel_line(report, c, line, sizeof(line)) && strstr(line, want),
             "%s: report gives GET/PUT (%s):\n%s", name, want, report);
   for (uint32_t i = 0; i < 3; i++)
      HWT_CHECK(hwt_channel_line(report, i, line, sizeof(line)), "%s: channel %u listed", name, i);
   snprintf(want, sizeof(want), "parked on 0x%" PRIx64 " >= 1", W_PARK(&fx));
   HWT_CHECK(hwt_channel_line(report, parked, line, sizeof(line)) && strstr(line, want),
             "%s: the parked channel shows parked:\n%s", name, report);
   if (fx.check_around) {
      HWT_CHECK(hwt_load64(fx.gpu, fx.before) == 1, "%s: the packet before ran", name);
      HWT_CHECK(hwt_load64(fx.gpu, fx.after) == 0, "%s: the packet after did not", name);
   }
   if (kind == FX_INJECT) {
      const uint32_t *s = hwt_ptr(fx.gpu, fx.scratch);
      HWT_CHECK(s[0] == 1 && s[1] == 2 && s[2] == 0 && s[3] == 0,
                "%s: packets 1 and 2 ran, 3 and 4 did not: %u %u %u %u", name, s[0], s[1], s[2],
                s[3]);
   }

   /* After the loss. */
   struct hw_wait_item never = {W_NEVER1(&fx), 1};
   HWT_CHECK(hw_wait(fx.gpu, &never, 1, true, 0) == HW_WAIT_LOST, "%s: timeout 0 -> LOST", name);
   uint64_t t1 = hw_now_ns();
   HWT_CHECK(hw_wait(fx.gpu, &never, 1, false, UINT64_MAX) == HW_WAIT_LOST,
             "%s: infinite wait -> LOST", name);
   HWT_CHECK(hw_now_ns() - t1 < 1000 * HWT_MS, "%s: at once", name);
   hw_host_signal(fx.gpu, W_PARK(&fx), 1);   /* the parked channel stays stopped */
   uint32_t other = 3 - c - parked;
   struct hwt_pb more;
   hwt_pb_init(&more, fx.gpu, 64);
   hwt_write32(&more, fx.sems + 80, 1);
   hwt_pb_submit(&more, &fx.ch[other]);
   hwt_sleep_ms(30);
   HWT_CHECK(hwt_load64(fx.gpu, fx.sems + 80) == 0, "%s: work after the loss does not run", name);
   HWT_CHECK(hwt_load64(fx.gpu, W_LATE(&fx)) == 0, "%s: the parked channel never resumed", name);
   HWT_CHECK(strstr(hwt_snapshot(fx.gpu), "(lost)"), "%s: snapshot says lost", name);
   HWT_CHECK(hw_gpu_fault_report(fx.gpu) == report, "%s: the first report stays", name);
   hw_gpu_destroy(fx.gpu);
}

static void test_each_fault(void)
{
   run_case("payload too short", f_short_payload, 0, FX_PLAIN);
   run_case("truncated packet", f_truncated, 1, FX_PLAIN);
   run_case("unknown opcode", f_unknown_opcode, 0, FX_PLAIN);
   run_case("unassigned opcode", f_unassigned_opcode, 2, FX_PLAIN);
#ifdef HW_PKT_LAUNCH_DWORDS
   run_case("LAUNCH on a DMA channel", f_launch_on_dma, 2, FX_PLAIN);
   run_case("LAUNCH_EMBEDDED on a DMA channel", f_embedded_launch_on_dma, 2, FX_PLAIN);
#endif
   run_case("copy from a guard page", f_copy_from_guard, 2, FX_PLAIN);
   run_case("copy from freed memory", f_copy_from_freed, 0, FX_PLAIN);
   run_case("copy into a guard page", f_copy_to_unmapped, 1, FX_PLAIN);
   run_case("pushbuffer outside memory", f_pushbuffer_outside, 0, FX_PLAIN);
   run_case("CALL outside memory", f_call_outside, 2, FX_PLAIN);
   run_case("misaligned release", f_misaligned_release, 1, FX_PLAIN);
   run_case("misaligned acquire", f_misaligned_acquire, 2, FX_PLAIN);
   run_case("fill size", f_fill_size, 0, FX_PLAIN);
   run_case("misaligned link slot", f_misaligned_link, 1, FX_PLAIN);
   run_case("query copy destination", f_query_dst, 0, FX_PLAIN);
   run_case("PUT ahead", f_put_ahead, 1, FX_PLAIN);
   run_case("copy watchdog", f_watchdog, 0, FX_WATCHDOG);
   run_case("injected fault", f_injected, 1, FX_INJECT);
   run_case("injected fault on the DMA channel", f_injected, 2, FX_INJECT);
   run_case("injected address fault", f_injected_address, 0, FX_INJECT_ADDRESS);
}

/* An injection spec that names another GPU, or does not parse, arms nothing. */
static void test_injection_elsewhere(void)
{
   const char *specs[] = {"channel:0,packet:1,device:%u", "channel:0", "channel:0,packet:0",
                          "bogus:1", "channel:0,packet:x", "channel:0,packet:1,kind:wrong",
                          "channel:0,packet:1,device:%u,kind:address"};
   for (int i = 0; i < 7; i++) {
      struct hw_gpu *probe = hwt_gpu(1, 0);
      uint32_t next = hwt_gpu_index(probe) + 1;
      hw_gpu_destroy(probe);
      char spec[96];
      snprintf(spec, sizeof(spec), specs[i], next + 100);
      struct hw_gpu_config cfg;
      hwt_config(&cfg, 1, 0);
      cfg.fault_spec = spec;
      if (i > 0 && i < 6)
         fprintf(stderr, "(a warning about SOFTGPU_FAULT=\"%s\" is expected)\n", spec);
      struct hw_gpu *gpu = hwt_gpu_create(&cfg);
      struct hwt_channel c0;
      hwt_channel_init(&c0, gpu, 0, 4, 0);
      uint64_t w = hwt_alloc(gpu, 4096);
      struct hwt_pb pb;
      hwt_pb_init(&pb, gpu, 64);
      hwt_write32(&pb, w + 8, 7);
      hwt_release(&pb, w, 1, HW_PKT_FLAG_INTERRUPT);
      hwt_pb_submit(&pb, &c0);
      hwt_wait_sem(gpu, w, 1, spec);
      HWT_CHECK(!hw_gpu_is_lost(gpu) && hwt_load64(gpu, w + 8) == 7, "%s armed nothing", spec);
      hw_gpu_destroy(gpu);
   }
}

/* A QUERY_COPY whose span (count - 1) * stride + result size wraps around
 * 2^64 faults the GPU. (Regression: the wrapped span passed the check, and
 * the results were written outside it: at dst + 2^63, killing the host
 * with SIGSEGV, or at dst - 8.) */
static void test_query_span_overflow(void)
{
   static const struct {
      uint32_t count;
      uint64_t stride;
   } cases[] = {{3, 1ull << 63}, {2, UINT64_MAX - 7}, {0x10001, 1ull << 48}};
   for (int i = 0; i < 3; i++) {
      fprintf(stderr, "(a fault report is expected)\n");
      struct hw_gpu *gpu = hwt_gpu(1, 0);
      struct hwt_channel c0;
      hwt_channel_init(&c0, gpu, 0, 4, 0);
      uint64_t pool = hwt_alloc(gpu, 16ull * cases[i].count), dst = hwt_alloc(gpu, 4096);
      uint64_t done = hwt_alloc(gpu, 4096);
      struct hw_query_slot *q = hwt_ptr(gpu, pool);
      for (uint32_t k = 0; k < cases[i].count; k++)
         q[k] = (struct hw_query_slot){100u + k, 1};
      struct hwt_pb pb;
      hwt_pb_init(&pb, gpu, 64);
      pb.p = hw_emit_query_copy(pb.p, &(struct hw_pkt_query_copy){pool, dst + 8, cases[i].stride,
                                                                 cases[i].count, HW_QUERY_64});
      hwt_release(&pb, done, 1, HW_PKT_FLAG_INTERRUPT);
      hwt_pb_submit(&pb, &c0);
      struct hw_wait_item item = {done, 1};
      HWT_CHECK(hw_wait(gpu, &item, 1, true, HWT_TIMEOUT_NS) == HW_WAIT_LOST,
                "count %u stride 0x%" PRIx64 ": the GPU faults", cases[i].count, cases[i].stride);
      const char *report = hw_gpu_fault_report(gpu);
      HWT_CHECK(report && strstr(report, "query results destination"), "report:\n%s",
                report ? report : "(none)");
      const uint64_t *d = hwt_ptr(gpu, dst);
      HWT_CHECK(d[0] == 0 && d[1] == 0, "nothing written around dst");
      hw_gpu_destroy(gpu);
   }
}

/* ---- other GPUs carry on ------------------------------------------------------------------ */

static void check_gpu_works(struct hw_gpu *gpu, struct hwt_channel *ch, uint64_t gate,
                            uint64_t gate_value, const char *what)
{
   const uint64_t size = 1u << 20;
   uint64_t src = hwt_alloc(gpu, size), dst = hwt_alloc(gpu, size), done = hwt_alloc(gpu, 4096);
   uint8_t *s = hwt_ptr(gpu, src);
   for (uint64_t i = 0; i < size; i++)
      s[i] = (uint8_t)(i * 7 + 3);
   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 64);
   if (gate)
      hwt_acquire(&pb, gate, gate_value);
   pb.p = hw_emit_copy(pb.p, src, dst, size);
   pb.p = hw_emit_fill(pb.p, dst + size - 4096, 4096, 0x01020304u);
   hwt_release(&pb, done, 1, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, ch);
   if (gate) {
      hwt_sleep_ms(5);
      hw_host_signal(gpu, gate, gate_value);
   }
   hwt_wait_sem(gpu, done, 1, what);
   const uint8_t *d = hwt_ptr(gpu, dst);
   uint64_t bad = 0;
   for (uint64_t i = 0; i < size - 4096; i++)
      bad += d[i] != (uint8_t)(i * 7 + 3);
   for (uint64_t i = size - 4096; i < size; i += 4)
      bad += memcmp(d + i, &(uint32_t){0x01020304u}, 4) != 0;
   HWT_CHECK(bad == 0, "%s: %" PRIu64 " bytes wrong", what, bad);
   HWT_CHECK(!hw_gpu_is_lost(gpu) && hw_gpu_fault_report(gpu) == NULL, "%s: not lost", what);
}

static void test_other_gpus(void)
{
   struct hw_gpu *b = hwt_gpu(1, 1);
   struct hwt_channel bc[2];
   hwt_channel_init(&bc[0], b, 0, 4, 0);
   hwt_channel_init(&bc[1], b, 1, 4, 0);
   uint64_t gate = hwt_alloc(b, 4096);

   /* B has work parked across A's fault. */
   struct hwt_pb pb;
   hwt_pb_init(&pb, b, 64);
   hwt_acquire(&pb, gate + 8, 1);
   hwt_release(&pb, gate + 16, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &bc[1]);

   struct hw_gpu *a = hwt_gpu(1, 0);
   struct hwt_channel ac;
   hwt_channel_init(&ac, a, 0, 4, 0);
   fprintf(stderr, "(a fault report for the first GPU is expected)\n");
   struct hwt_pb bad;
   hwt_pb_init(&bad, a, 64);
   *bad.p++ = 0xff000000u;
   hwt_pb_submit(&bad, &ac);
   struct hw_wait_item never = {hwt_alloc(a, 4096), 1};
   HWT_CHECK(hw_wait(a, &never, 1, true, HWT_TIMEOUT_NS) == HW_WAIT_LOST, "A lost");
   HWT_CHECK(!hw_gpu_is_lost(b) && hw_gpu_fault_report(b) == NULL, "B is not");

   check_gpu_works(b, &bc[0], gate, 1, "GPU B, compute channel, after A's fault");
   hw_host_signal(b, gate + 8, 1);
   hwt_wait_sem(b, gate + 16, 1, "GPU B's parked channel");
   check_gpu_works(b, &bc[1], 0, 0, "GPU B, DMA channel, after A's fault");

   struct hw_gpu *c = hwt_gpu(1, 0);
   struct hwt_channel cc;
   hwt_channel_init(&cc, c, 0, 4, 0);
   check_gpu_works(c, &cc, 0, 0, "GPU C, created after A's fault");
   HWT_CHECK(hw_gpu_is_lost(a), "A stays lost");
   hw_gpu_destroy(a);
   check_gpu_works(b, &bc[0], 0, 0, "GPU B after A is destroyed");
   hw_gpu_destroy(c);
   hw_gpu_destroy(b);
}

int main(void)
{
   HWT_RUN(test_each_fault);
   HWT_RUN(test_query_span_overflow);
   HWT_RUN(test_injection_elsewhere);
   HWT_RUN(test_other_gpus);
   return hwt_finish();
}
