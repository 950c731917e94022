/*
 * test_wakeups: what waking costs, and that no wakeup is ever lost.
 *
 * Pins down:
 * - a doorbell costs no system call while the engine is busy: 1000
 *   submissions, each with its doorbell, made while the command processor
 *   executes a long pushbuffer (2000 NOPs slowed to 100 us each by delay
 *   injection, and cfg.engine_spin_ns large so that it never sleeps between
 *   entries either) leave stats.doorbell_syscalls and engine_sleeps
 *   unchanged, and every submission runs;
 * - a doorbell costs exactly one system call when the engine sleeps (ten
 *   times: wait until stats.engine_sleeps moves, ring, check);
 * - an idle GPU with parked acquires on both engines uses < 1% of a core
 *   over one second (getrusage of the whole process while the test thread
 *   sleeps), and still wakes up for the release;
 * - lost wakeups: host threads in a chain with a compute channel and a DMA
 *   channel (GPU release -> host -> host -> host -> GPU acquire ...), plus
 *   an observer doing any/all waits, for thousands of rounds, with spin
 *   budgets 0 (every wait sleeps) and the defaults: every wait is satisfied
 *   before its timeout (a lost wakeup shows as a timeout, not a hang).
 */
#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include "hwt.h"

static void stats(struct hw_gpu *gpu, struct hw_gpu_stats *s)
{
   hw_gpu_get_stats(gpu, s);
}

/* ---- doorbells ------------------------------------------------------------------------ */

static void test_doorbell_busy(void)
{
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 2, 0);
   cfg.engine_spin_ns = 3000000000u;   /* 3 s: never sleeps during the test */
   cfg.delay_spec = "cp:100";
   struct hw_gpu *gpu = hwt_gpu_create(&cfg);
   struct hwt_channel c0, c1;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   hwt_channel_init(&c1, gpu, 1, 1024, 0);
   uint64_t sems = hwt_alloc(gpu, 4096), started = sems, long_done = sems + 8, count = sems + 16;

   struct hwt_pb pb;
   hwt_pb_init(&pb, gpu, 2100);
   hwt_release(&pb, started, 1, HW_PKT_FLAG_INTERRUPT);
   for (int i = 0; i < 2000; i++)
      pb.p = hw_emit_simple(pb.p, HW_OP_NOP);
   hwt_release(&pb, long_done, 1, HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &c0);
   hwt_wait_sem(gpu, started, 1, "the long pushbuffer started");

   const uint32_t n = 1000;
   uint64_t pbs = hwt_alloc(gpu, n * 32ull);
   struct hw_gpu_stats s0, s1;
   stats(gpu, &s0);
   for (uint32_t k = 1; k <= n; k++) {
      struct hwt_pb e;
      hwt_pb_at(&e, gpu, pbs + 32ull * (k - 1), 8);
      hwt_release(&e, count, k, k == n ? HW_PKT_FLAG_INTERRUPT : 0);
      hwt_pb_submit(&e, &c1);
   }
   stats(gpu, &s1);
   struct hw_wait_item ld = {long_done, 1};
   bool still_busy = hw_wait(gpu, &ld, 1, true, 0) == HW_WAIT_TIMEOUT;
   HWT_CHECK(s1.doorbells - s0.doorbells == n, "%" PRIu64 " doorbells", s1.doorbells - s0.doorbells);
   HWT_CHECK(s1.doorbell_syscalls == s0.doorbell_syscalls,
             "%" PRIu64 " of %u doorbells made a system call while the engine was busy",
             s1.doorbell_syscalls - s0.doorbell_syscalls, n);
   HWT_CHECK(s1.engine_sleeps == s0.engine_sleeps, "the engine slept %" PRIu64 " times",
             s1.engine_sleeps - s0.engine_sleeps);
   HWT_CHECK(s1.engine_spin_ns == cfg.engine_spin_ns, "spin budget reported: %u",
             s1.engine_spin_ns);
   if (!still_busy)
      fprintf(stderr, "note: the long pushbuffer ended during the burst (slow host?)\n");
   hwt_wait_sem(gpu, count, n, "the burst's submissions");
   hwt_wait_sem(gpu, long_done, 1, "the long pushbuffer");
   hw_gpu_destroy(gpu);
}

static void test_doorbell_asleep(void)
{
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 1, 0);
   cfg.engine_spin_ns = 0;
   struct hw_gpu *gpu = hwt_gpu_create(&cfg);
   struct hwt_channel c0;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   uint64_t sems = hwt_alloc(gpu, 4096);
   struct hw_gpu_stats s0, s1;
   uint64_t sleeps = 0;   /* sleeps already woken from */
   for (uint32_t i = 1; i <= 10; i++) {
      /* Wait until the engine has gone to sleep (again). */
      uint64_t deadline = hw_now_ns() + HWT_TIMEOUT_NS;
      do {
         hwt_sleep_ms(1);
         stats(gpu, &s0);
      } while (s0.engine_sleeps == sleeps && hw_now_ns() < deadline);
      HWT_REQUIRE(s0.engine_sleeps > sleeps, "the engine never slept");
      sleeps = s0.engine_sleeps;
      struct hwt_pb pb;
      hwt_pb_init(&pb, gpu, 16);
      hwt_release(&pb, sems, i, HW_PKT_FLAG_INTERRUPT);
      hwt_pb_submit(&pb, &c0);
      stats(gpu, &s1);
      HWT_CHECK(s1.doorbell_syscalls == s0.doorbell_syscalls + 1,
                "round %u: a doorbell to a sleeping engine made %" PRIu64 " system calls", i,
                s1.doorbell_syscalls - s0.doorbell_syscalls);
      hwt_wait_sem(gpu, sems, i, "the woken engine");
   }
   hw_gpu_destroy(gpu);
}

/* ---- idle cost ------------------------------------------------------------------------- */

static void test_idle_cpu(void)
{
   struct hw_gpu *gpu = hwt_gpu(1, 1);
   struct hwt_channel c0, c1;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   hwt_channel_init(&c1, gpu, 1, 4, 0);
   uint64_t sems = hwt_alloc(gpu, 4096), gate = sems, done = sems + 8;
   for (uint32_t c = 0; c < 2; c++) {
      struct hwt_pb pb;
      hwt_pb_init(&pb, gpu, 32);
      hwt_acquire(&pb, gate, 1);
      hwt_release(&pb, done + 8 * c, 1, HW_PKT_FLAG_INTERRUPT);
      hwt_pb_submit(&pb, c ? &c1 : &c0);
   }
   hwt_sleep_ms(100);   /* parked, spun out, asleep */
   HWT_CHECK(strstr(hwt_snapshot(gpu), "parked on") != NULL, "parked:\n%s", hwt_snapshot(gpu));
   uint64_t cpu0 = hwt_cpu_ns(), t0 = hw_now_ns();
   hwt_sleep_ms(1000);
   uint64_t cpu = hwt_cpu_ns() - cpu0, wall = hw_now_ns() - t0;
   fprintf(stderr, "idle GPU: %" PRIu64 " us of CPU in %" PRIu64 " ms\n", cpu / 1000,
           wall / HWT_MS);
   HWT_CHECK(cpu * 100 < wall, "an idle GPU used %.2f%% of a core", 100.0 * (double)cpu / (double)wall);
   hw_host_signal(gpu, gate, 1);
   hwt_wait_sem(gpu, done, 1, "compute channel after idling");
   hwt_wait_sem(gpu, done + 8, 1, "DMA channel after idling");
   hw_gpu_destroy(gpu);
}

/* ---- lost wakeups ------------------------------------------------------------------------ */

#define CHAIN_TIMEOUT_NS ((uint64_t)10000000000)

struct chain {
   struct hw_gpu *gpu;
   uint64_t w[5];             /* w0: GPU, w1..w3: hosts, w4: DMA channel */
   uint32_t rounds;
   _Atomic bool failed;
};

struct link {
   struct chain *ch;
   int index;                 /* host thread 1..3, or 0 for the observer */
};

static bool chain_wait(struct chain *c, const struct hw_wait_item *items, uint32_t n, bool all,
                       const char *who, uint32_t k)
{
   if (atomic_load(&c->failed))
      return false;
   enum hw_wait_result r = hw_wait(c->gpu, items, n, all, CHAIN_TIMEOUT_NS);
   if (r != HW_WAIT_SATISFIED) {
      HWT_CHECK(false, "%s, round %u: hw_wait returned %d (a lost wakeup?); words %" PRIu64
                " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n%s",
                who, k, (int)r, hwt_load64(c->gpu, c->w[0]), hwt_load64(c->gpu, c->w[1]),
                hwt_load64(c->gpu, c->w[2]), hwt_load64(c->gpu, c->w[3]),
                hwt_load64(c->gpu, c->w[4]), hwt_snapshot(c->gpu));
      atomic_store(&c->failed, true);
      return false;
   }
   return true;
}

static void *chain_thread(void *arg)
{
   struct link *l = arg;
   struct chain *c = l->ch;
   for (uint32_t k = 1; k <= c->rounds; k++) {
      switch (l->index) {
      case 1: {   /* waits for the GPU, signals w1 */
         struct hw_wait_item it = {c->w[0], k};
         if (!chain_wait(c, &it, 1, true, "host 1", k))
            return NULL;
         hw_host_signal(c->gpu, c->w[1], k);
         break;
      }
      case 2: {   /* waits for host 1 and the DMA channel, signals w2 */
         struct hw_wait_item it[2] = {{c->w[1], k}, {c->w[4], k}};
         if (!chain_wait(c, it, 2, true, "host 2", k))
            return NULL;
         hw_host_signal(c->gpu, c->w[2], k);
         break;
      }
      case 3: {   /* waits for host 2, signals w3 for the GPU */
         struct hw_wait_item it = {c->w[2], k};
         if (!chain_wait(c, &it, 1, true, "host 3", k))
            return NULL;
         hw_host_signal(c->gpu, c->w[3], k);
         break;
      }
      default: {  /* the observer: any, then all */
         if (k % 3)
            break;
         struct hw_wait_item any[2] = {{c->w[1], k}, {c->w[3], k}};
         struct hw_wait_item all[2] = {{c->w[0], k}, {c->w[2], k}};
         if (!chain_wait(c, any, 2, false, "observer (any)", k) ||
             !chain_wait(c, all, 2, true, "observer (all)", k))
            return NULL;
         break;
      }
      }
   }
   return NULL;
}

static void run_chain(uint32_t engine_spin_ns, uint32_t wait_spin_ns, uint32_t rounds)
{
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 1, 1);
   cfg.engine_spin_ns = engine_spin_ns;
   cfg.wait_spin_ns = wait_spin_ns;
   struct hw_gpu *gpu = hwt_gpu_create(&cfg);
   struct hwt_channel c0, c1;
   hwt_channel_init(&c0, gpu, 0, 4, 0);
   hwt_channel_init(&c1, gpu, 1, 4, 0);
   uint64_t sems = hwt_alloc(gpu, 4096);
   struct chain c = {.gpu = gpu, .rounds = rounds};
   for (int i = 0; i < 5; i++)
      c.w[i] = sems + 64ull * (uint64_t)i;   /* separate cache lines */

   /* GPU: round k waits for host 3's k - 1, then releases k. DMA channel:
    * round k waits for host 1's k, then releases k. */
   struct hwt_pb g, d;
   hwt_pb_init(&g, gpu, rounds * 10 + 16);
   hwt_pb_init(&d, gpu, rounds * 10 + 16);
   for (uint32_t k = 1; k <= rounds; k++) {
      hwt_acquire(&g, c.w[3], k - 1);
      hwt_release(&g, c.w[0], k, HW_PKT_FLAG_INTERRUPT);
      hwt_acquire(&d, c.w[1], k);
      hwt_release(&d, c.w[4], k, HW_PKT_FLAG_INTERRUPT);
   }
   struct hw_gpu_stats s0, s1;
   stats(gpu, &s0);
   uint64_t t0 = hw_now_ns();
   struct link links[4];
   pthread_t t[4];
   for (int i = 0; i < 4; i++) {
      links[i] = (struct link){&c, i};
      pthread_create(&t[i], NULL, chain_thread, &links[i]);
   }
   hwt_pb_submit(&g, &c0);
   hwt_pb_submit(&d, &c1);
   for (int i = 0; i < 4; i++)
      pthread_join(t[i], NULL);
   stats(gpu, &s1);
   uint64_t ms = (hw_now_ns() - t0) / HWT_MS;
   fprintf(stderr,
           "chain (spins %u/%u ns): %u rounds in %" PRIu64 " ms; host waits %" PRIu64
           ", slept %" PRIu64 "; engine wake syscalls %" PRIu64 ", interrupt wakes %" PRIu64 "\n",
           engine_spin_ns, wait_spin_ns, rounds, ms, s1.host_waits - s0.host_waits,
           s1.host_wait_sleeps - s0.host_wait_sleeps,
           s1.engine_wake_syscalls - s0.engine_wake_syscalls,
           s1.interrupt_wakes - s0.interrupt_wakes);
   HWT_CHECK(!atomic_load(&c.failed), "the chain completed");
   for (int i = 0; i < 5; i++)
      HWT_CHECK(hwt_load64(gpu, c.w[i]) == rounds, "word %d: %" PRIu64, i,
                hwt_load64(gpu, c.w[i]));
   if (wait_spin_ns == 0)
      HWT_CHECK(s1.host_wait_sleeps > s0.host_wait_sleeps + rounds,
                "the sleeping path was exercised: %" PRIu64 " sleeps",
                s1.host_wait_sleeps - s0.host_wait_sleeps);
   HWT_CHECK(!hw_gpu_is_lost(gpu), "not lost");
   hw_gpu_destroy(gpu);
}

static void test_lost_wakeups(void)
{
   run_chain(0, 0, 3000);
   run_chain(20000, 5000, 2000);
}

int main(void)
{
   HWT_RUN(test_doorbell_busy);
   HWT_RUN(test_doorbell_asleep);
   HWT_RUN(test_idle_cpu);
   HWT_RUN(test_lost_wakeups);
   return hwt_finish();
}
