/*
 * Randomized synchronization stress test.
 *
 * Three host threads each own a few queues of both families (a queue is
 * never used by two threads) and a set of buffers. From a seed (argv[1],
 * else SGT_SEED, else 1) each thread generates a program: random
 * submissions (vkQueueSubmit or vkQueueSubmit2, 1-4 batches each, 0-3
 * command buffers per batch) of fills, inline updates and copies, with
 * barriers, events, secondary command buffers; the dependencies between
 * them are derived from the data they touch and realized as pipeline
 * barriers (same queue), timeline or binary semaphores (other queues),
 * plus random extra waits, host-signaled gates (timeline semaphores and
 * events), reused fences, and host waits and polls. The program depends
 * on the seed only (never on timing); the GPU's timing is free.
 *
 * GPU waits on timeline semaphores are always for a value that some
 * signal operation sets exactly, and threads never wait on each other's
 * semaphores: the validation layer of Debian 12 (1.3.239) tracks timeline
 * payloads by exact value, and when a wait is satisfied by a larger value
 * (or by a queue only another thread observes) its own bookkeeping blocks
 * for 10 s and reports UNASSIGNED-VkSemaphore-state-timeout ("most likely
 * a validation bug"). Minimal case: queue A signals S = 5, queue B waits
 * S >= 1 and signals T = 1, the host waits T >= 1.
 *
 * A CPU model (a shadow copy of every buffer) is updated as the work is
 * generated. What the host has observed complete is tracked with vector
 * clocks: every batch carries the clock of everything that happens before
 * it, and the clock of what a host-read barrier has made visible. After
 * every observation (a host wait, a fence, a polled semaphore value) each
 * buffer whose last writer is covered is compared byte for byte with its
 * model, and so is each batch's stamp (a word every batch with a command
 * buffer writes at its end). So:
 *   - a lost signal is a host wait that times out (finite timeouts);
 *   - an early signal is an observed value whose data is not there yet, a
 *     timeline that goes backwards, a gated batch that completes before
 *     its gate opens;
 *   - wrong data is a mismatch with the model (at the end, everything).
 *
 * Two patterns target the submission machinery:
 *   - ring overflow: a queue is gated on the host while more than the
 *     ring's 1024 entries are submitted behind the gate, so submissions
 *     chain through link slots;
 *   - huge submissions: batches of thousands of (empty) command buffers,
 *     sized so that each submission takes a whole 16384-dword block of the
 *     queue's submission stream (see SG_STREAM_BLOCK_DWORDS in
 *     src/sg_queue.h), with many signals after the queue's progress
 *     release, submitted faster than a slow GPU drains them: a stream
 *     block recycled too early is overwritten while the GPU still reads it.
 *
 * Command buffers are re-recorded, reset and freed, and pools reset and
 * trimmed as soon as their work is known complete, so pushbuffer memory is
 * recycled all the time.
 *
 * Environment: SGT_SEED, SGT_STRESS_STEPS (steps per thread),
 * SGT_STRESS_TIMEOUT_MS (host wait timeout), SGT_NO_VALIDATION=1 (no
 * validation layer: faster, used by tests/mutation/run-mutations.sh).
 *
 * In TSan builds the validation layer is off by default (SGT_NO_VALIDATION=0
 * turns it on): the layer is not built with TSan, serializes the driver
 * calls behind its own locks (hiding the races TSan is there to find), and
 * TSan reports lock-order inversions inside it (1.3.239) as soon as several
 * threads submit. The plain and ASan builds run it under the layer.
 */
#include <inttypes.h>
#include <stddef.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sgt_vk.h"
#include "sg_sanitize.h"

/* ---- configuration -------------------------------------------------------------- */

#define THREADS 3
#define MAX_TQ 4                  /* queues per thread */
#define NBUF 6                    /* buffers per thread */
#define NAUX 8                    /* extra timeline semaphores per queue */
#define MAX_BATCHES 4             /* per submission */
#define MAX_CMDS 3                /* per batch (plus huge padding) */
#define MAX_OPS 6                 /* per command buffer */
#define MAX_WAITS 16              /* per batch */
#define MAX_SIGNALS (2 + NAUX + 2)
#define MAX_PRIMARIES 1400        /* per queue */
#define MAX_SECONDARIES 256       /* per queue */
#define MAX_EVENTS 256            /* per queue */
#define MAX_BINARIES 256          /* per thread */
#define MAX_OFFERS 8              /* binary semaphores signaled and not yet waited on */
#define STAMP_WORDS (1u << 16)    /* batches per queue */
#define SHARED_SIZE (1u << 20)
#define SHARED_SRC (-1)
#define DEFAULT_STEPS 260
#define RING_ENTRIES 1024u        /* SG_RING_ENTRIES */
#define STREAM_BLOCK_DWORDS 16384u /* SG_STREAM_BLOCK_DWORDS */
#define HUGE_AHEAD 12             /* huge submissions the host keeps ahead of the GPU */

static const uint32_t buffer_sizes[NBUF] = {
   4096, 65536 + 12, 256 * 1024, 1024 * 1024, 2 * 1024 * 1024, 4 * 1024 * 1024,
};

/* Thread t owns these queues: {family, index}. */
static const uint32_t queue_map[THREADS][MAX_TQ][2] = {
   {{0, 0}, {1, 0}, {0, 1}, {0, 2}},
   {{0, 3}, {1, 1}, {0, 4}, {0, 5}},
   {{0, 6}, {0, 7}, {0, 8}, {0, 9}},
};

static uint32_t seed = 1;
static uint32_t steps_per_thread = DEFAULT_STEPS;
static uint64_t timeout_ns = 20ull * 1000 * 1000 * 1000;
static struct sgt_device dev;
static struct sgt_buffer shared;      /* read-only source, written before the threads */
static uint8_t *shared_model;

/* ---- failure reporting ---------------------------------------------------------------- */

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static void describe_thread(int thread, char *buf, size_t size);

/* Any failure ends the whole test at once: the other threads' work is
 * meaningless afterwards and may hang. */
static void fail(int thread, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void fail(int thread, const char *fmt, ...)
{
   pthread_mutex_lock(&report_lock);
   va_list ap;
   va_start(ap, fmt);
   char where[96];
   describe_thread(thread, where, sizeof(where));
   fprintf(stderr, "test_stress: FAIL (seed %u, %s): ", seed, where);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fprintf(stderr, "\ntest_stress: reproduce with: test_stress %u (or SGT_SEED=%u)\n", seed,
           seed);
   fflush(stderr);
   _exit(1);
}

#define VKCHECK(t, expr)                                                              \
   do {                                                                                \
      VkResult r_ = (expr);                                                            \
      if (r_ != VK_SUCCESS)                                                            \
         fail((t)->id, "%s:%d: %s returned %s", __FILE__, __LINE__, #expr,             \
              sgt_result_name(r_));                                                    \
   } while (0)

static uint64_t now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- random numbers ------------------------------------------------------------------- */

struct rng {
   uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
   /* splitmix64 */
   uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
   return n ? (uint32_t)(rnd(r) % n) : 0;
}

static bool chance(struct rng *r, uint32_t percent)
{
   return below(r, 100) < percent;
}

static uint32_t stamp_value(uint32_t thread, uint32_t q, uint32_t seq)
{
   uint64_t x = ((uint64_t)seed << 40) ^ ((uint64_t)thread << 36) ^ ((uint64_t)q << 32) ^ seq;
   x *= 0x9e3779b97f4a7c15ull;
   x ^= x >> 29;
   return (uint32_t)x | 1u;
}

/* ---- thread state ------------------------------------------------------------------------ */

/* Vector clocks over the thread's queues: vc[q] = s means batches 1..s of
 * queue q happen before; hv: the part of it made visible to the host by a
 * host-read barrier. */
struct clocks {
   uint32_t vc[MAX_TQ];
   uint32_t hv[MAX_TQ];
};

struct tbuf {
   struct sgt_buffer gpu;
   uint8_t *model;
   uint32_t size;
   int last_wq;                   /* queue of the last writer; -1: the host, before the start */
   uint32_t last_ws;              /* its batch */
   uint32_t readers[MAX_TQ];      /* last reading batch per queue since that write */
   uint32_t version, checked_version;
};

struct slot {
   VkCommandBuffer cmd;
   uint32_t busy;                 /* batch of its queue that last used it (0: never) */
};

enum { PEND_R = 1, PEND_W = 2 };

struct tqueue {
   uint32_t family, index;
   VkQueue queue;
   VkSemaphore tl;                /* signaled with s by every batch s of this queue */
   uint32_t seq;                  /* batches submitted */
   uint32_t tl_observed;
   VkSemaphore aux[NAUX];
   uint64_t aux_value[NAUX];      /* last value submitted */
   uint64_t aux_observed[NAUX];
   uint32_t *aux_batch[NAUX];     /* aux value -> batch */
   uint32_t aux_cap[NAUX];
   struct clocks *hist;           /* by batch */
   uint32_t hist_cap;
   bool *stamped;                 /* by batch: wrote its stamp */
   struct sgt_buffer stamps;
   uint32_t stamps_checked;
   VkCommandPool pool;
   struct slot prim[MAX_PRIMARIES];
   uint32_t nprim;
   struct slot sec[MAX_SECONDARIES];
   uint32_t nsec;
   VkEvent events[MAX_EVENTS];
   uint32_t event_busy[MAX_EVENTS];
   uint32_t nevents;
   /* What this queue's stream accessed since its last full barrier. */
   uint8_t pend[NBUF];
   uint32_t pend_epoch[NBUF];
   uint32_t epoch;
   bool gate_next;                /* the next batch waits on the host gate */
   VkCommandBuffer empty;         /* SIMULTANEOUS_USE, no commands */
};

enum fence_state { FENCE_FREE, FENCE_PENDING };
struct tfence {
   VkFence fence;
   enum fence_state state;
   uint32_t q, seq;
};

struct binsem {
   VkSemaphore sem;
   bool offered;                  /* signaled, not yet waited on */
   uint32_t cq, cs;               /* its last waiter (cs 0: none) */
};

struct offer {
   uint32_t bin;                  /* index in binsems */
   uint32_t q, seq;               /* the signaling batch */
};

struct gated {
   uint32_t q, seq;
   VkEvent event;                 /* host-set event, or NULL: host timeline gate */
};

struct stats {
   uint64_t submits, submits2, batches, cmds, secondaries, ops, barriers, events, host_events;
   uint64_t fences, host_waits, polls, observers, gates, bursts, burst_entries, huge;
   uint64_t pool_resets, trims, frees, resets, verified_bytes, binaries;
   uint64_t max_backlog;
};

struct thread {
   int id;
   struct rng rng;
   pthread_t handle;
   struct tqueue q[MAX_TQ];
   uint32_t nq;
   struct tbuf buf[NBUF];
   VkCommandPool empty_pool[2];
   uint32_t kc[MAX_TQ];           /* known complete (any observation) */
   uint32_t kc_det[MAX_TQ];       /* known complete through the program's own waits */
   uint32_t hv[MAX_TQ];           /* known visible to the host */
   struct tfence fences[32];
   uint32_t nfences;
   struct binsem bins[MAX_BINARIES];
   uint32_t nbins;
   struct offer offers[MAX_OFFERS + MAX_BATCHES];
   uint32_t noffers;
   VkSemaphore host_tl;           /* host gate */
   uint64_t host_signaled;
   struct gated gates[64];
   uint32_t ngates;
   uint32_t gate_flush_step;
   uint32_t step;
   const char *phase;             /* what the step does, for failure reports */
   uint32_t burst_step, huge_step;
   struct stats st;
};

static struct thread threads[THREADS];

static void describe_thread(int thread, char *buf, size_t size)
{
   if (thread < 0 || thread >= THREADS)
      snprintf(buf, size, "main");
   else
      snprintf(buf, size, "thread %d, step %u: %s", thread, threads[thread].step,
               threads[thread].phase ? threads[thread].phase : "-");
}

/* ---- small helpers ----------------------------------------------------------------------- */

static void *xcalloc(size_t n, size_t size)
{
   void *p = calloc(n, size);
   if (!p)
      fail(-1, "out of memory");
   return p;
}

static void grow_hist(struct thread *t, struct tqueue *tq, uint32_t need)
{
   if (need < tq->hist_cap)
      return;
   uint32_t cap = tq->hist_cap ? tq->hist_cap : 256;
   while (cap <= need)
      cap *= 2;
   tq->hist = realloc(tq->hist, cap * sizeof(*tq->hist));
   tq->stamped = realloc(tq->stamped, cap * sizeof(*tq->stamped));
   if (!tq->hist || !tq->stamped)
      fail(t->id, "out of memory");
   memset(tq->hist + tq->hist_cap, 0, (cap - tq->hist_cap) * sizeof(*tq->hist));
   memset(tq->stamped + tq->hist_cap, 0, (cap - tq->hist_cap) * sizeof(*tq->stamped));
   tq->hist_cap = cap;
}

static void aux_record(struct tqueue *tq, uint32_t j, uint64_t value, uint32_t batch)
{
   if (value >= tq->aux_cap[j]) {
      uint32_t cap = tq->aux_cap[j] ? tq->aux_cap[j] : 256;
      while (cap <= value)
         cap *= 2;
      tq->aux_batch[j] = realloc(tq->aux_batch[j], cap * sizeof(uint32_t));
      if (!tq->aux_batch[j])
         fail(-1, "out of memory");
      memset(tq->aux_batch[j] + tq->aux_cap[j], 0, (cap - tq->aux_cap[j]) * sizeof(uint32_t));
      tq->aux_cap[j] = cap;
   }
   tq->aux_batch[j][value] = batch;
}

static VkSemaphore make_timeline(struct thread *t, uint64_t initial)
{
   VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                   .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
                                   .initialValue = initial};
   VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
   VkSemaphore s;
   VKCHECK(t, vkCreateSemaphore(dev.device, &si, NULL, &s));
   return s;
}

static uint64_t counter(struct thread *t, VkSemaphore s)
{
   uint64_t v;
   VKCHECK(t, vkGetSemaphoreCounterValue(dev.device, s, &v));
   return v;
}

/* ---- observation and verification ---------------------------------------------------------- */

static void verify_buffer(struct thread *t, uint32_t b, const char *when)
{
   struct tbuf *tb = &t->buf[b];
   const uint8_t *got = tb->gpu.map;
   t->st.verified_bytes += tb->size;
   if (memcmp(got, tb->model, tb->size) == 0) {
      tb->checked_version = tb->version;
      return;
   }
   uint32_t first = 0, count = 0, last = 0;
   for (uint32_t i = 0; i < tb->size; i++) {
      if (got[i] != tb->model[i]) {
         if (!count)
            first = i;
         last = i;
         count++;
      }
   }
   uint32_t w = first & ~3u;
   uint32_t gw, mw;
   memcpy(&gw, got + w, 4);
   memcpy(&mw, tb->model + w, 4);
   fail(t->id, "%s: buffer %u (%u bytes) differs from the model in %u bytes, [%u, %u]; "
        "word at %u is 0x%08x, expected 0x%08x; last written by queue %d batch %u (the host "
        "has seen batch %u of that queue complete and visible)",
        when, b, tb->size, count, first, last, w, gw, mw, tb->last_wq, tb->last_ws,
        tb->last_wq >= 0 ? t->hv[tb->last_wq] : 0);
}

/* Checks everything the host may read now. */
static void verify_visible(struct thread *t, const char *when)
{
   for (uint32_t b = 0; b < NBUF; b++) {
      struct tbuf *tb = &t->buf[b];
      if (tb->version == tb->checked_version)
         continue;
      if (tb->last_wq >= 0 && t->hv[tb->last_wq] < tb->last_ws)
         continue;
      verify_buffer(t, b, when);
   }
   for (uint32_t qi = 0; qi < t->nq; qi++) {
      struct tqueue *tq = &t->q[qi];
      const uint32_t *words = tq->stamps.map;
      for (uint32_t s = tq->stamps_checked + 1; s <= t->hv[qi]; s++) {
         uint32_t want = tq->stamped[s] ? stamp_value((uint32_t)t->id, qi, s) : 0;
         if (words[s] != want)
            fail(t->id, "%s: queue %u.%u batch %u: stamp 0x%08x, expected 0x%08x: the host "
                 "saw a signal that covers this batch before the batch ran", when,
                 tq->family, tq->index, s, words[s], want);
      }
      if (t->hv[qi] > tq->stamps_checked)
         tq->stamps_checked = t->hv[qi];
   }
}

/* The host has seen batch s of queue qi complete. */
static void observe(struct thread *t, uint32_t qi, uint32_t s, bool deterministic,
                    const char *when)
{
   if (s == 0)
      return;
   struct tqueue *tq = &t->q[qi];
   if (s > tq->seq)
      fail(t->id, "%s: queue %u.%u: batch %u observed complete, only %u submitted", when,
           tq->family, tq->index, s, tq->seq);
   const struct clocks *c = &tq->hist[s];
   for (uint32_t i = 0; i < t->nq; i++) {
      if (c->vc[i] > t->kc[i])
         t->kc[i] = c->vc[i];
      if (deterministic && c->vc[i] > t->kc_det[i])
         t->kc_det[i] = c->vc[i];
      if (c->hv[i] > t->hv[i])
         t->hv[i] = c->hv[i];
   }
   verify_visible(t, when);
}

/* Reads the queue's timeline and aux semaphores: values never decrease,
 * never exceed what was submitted, and what they cover is done. */
static void poll_queue(struct thread *t, uint32_t qi)
{
   struct tqueue *tq = &t->q[qi];
   t->st.polls++;
   uint64_t v = counter(t, tq->tl);
   if (v < tq->tl_observed || v > tq->seq)
      fail(t->id, "queue %u.%u timeline reads %" PRIu64 " after %u; %u batches submitted",
           tq->family, tq->index, v, tq->tl_observed, tq->seq);
   tq->tl_observed = (uint32_t)v;
   char when[96];
   snprintf(when, sizeof(when), "after queue %u.%u's timeline read %" PRIu64, tq->family,
            tq->index, v);
   observe(t, qi, (uint32_t)v, false, when);
   for (uint32_t j = 0; j < NAUX; j++) {
      uint64_t z = counter(t, tq->aux[j]);
      if (z < tq->aux_observed[j] || z > tq->aux_value[j])
         fail(t->id, "queue %u.%u aux semaphore %u reads %" PRIu64 " after %" PRIu64
              "; last value submitted %" PRIu64, tq->family, tq->index, j, z,
              tq->aux_observed[j], tq->aux_value[j]);
      tq->aux_observed[j] = z;
      if (z) {
         snprintf(when, sizeof(when), "after queue %u.%u's aux semaphore %u read %" PRIu64,
                  tq->family, tq->index, j, z);
         observe(t, qi, tq->aux_batch[j][z], false, when);
      }
   }
}

/* ---- host gates ----------------------------------------------------------------------------- */

/* Opens every pending gate (before any blocking wait: nothing the host
 * waits for may depend on a gate that only it can open later). Each gated
 * batch must still be incomplete. */
static void flush_gates(struct thread *t)
{
   if (!t->ngates)
      return;
   bool timeline = false;
   for (uint32_t i = 0; i < t->ngates; i++) {
      struct gated *g = &t->gates[i];
      struct tqueue *tq = &t->q[g->q];
      uint64_t v = counter(t, tq->tl);
      if (v >= g->seq)
         fail(t->id, "queue %u.%u batch %u completed (timeline %" PRIu64 ") although it "
              "waits on a host %s not yet signaled", tq->family, tq->index, g->seq, v,
              g->event ? "event" : "timeline semaphore");
      if (g->event) {
         VkResult r = vkGetEventStatus(dev.device, g->event);
         if (r != VK_EVENT_RESET)
            fail(t->id, "host-gate event reads %s before the host set it", sgt_result_name(r));
         VKCHECK(t, vkSetEvent(dev.device, g->event));
      } else {
         timeline = true;
      }
   }
   if (timeline) {
      VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                  .semaphore = t->host_tl, .value = t->host_signaled + 1};
      VKCHECK(t, vkSignalSemaphore(dev.device, &si));
      t->host_signaled++;
   }
   t->ngates = 0;
}

/* ---- host waits ---------------------------------------------------------------------------- */

static void release_fences(struct thread *t);

/* Waits for batch s of queue qi through its timeline. */
static void wait_batch(struct thread *t, uint32_t qi, uint32_t s, bool deterministic)
{
   struct tqueue *tq = &t->q[qi];
   if (s == 0)
      return;
   flush_gates(t);
   t->st.host_waits++;
   uint64_t value = s;
   VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                             .semaphoreCount = 1, .pSemaphores = &tq->tl, .pValues = &value};
   uint64_t start = now_ns();
   VkResult r = vkWaitSemaphores(dev.device, &wi, timeout_ns);
   if (r == VK_TIMEOUT)
      fail(t->id, "lost signal: queue %u.%u timeline still %" PRIu64 " after %" PRIu64
           " ms waiting for %u (%u batches submitted)", tq->family, tq->index,
           counter(t, tq->tl), (now_ns() - start) / 1000000, s, tq->seq);
   VKCHECK(t, r);
   uint64_t v = counter(t, tq->tl);
   if (v < s || v > tq->seq)
      fail(t->id, "queue %u.%u: vkWaitSemaphores(%u) returned, the timeline reads %" PRIu64,
           tq->family, tq->index, s, v);
   char when[96];
   snprintf(when, sizeof(when), "after waiting for queue %u.%u batch %u", tq->family,
            tq->index, s);
   observe(t, qi, s, deterministic, when);
   if (deterministic)
      release_fences(t);
}

static void wait_fences(struct thread *t, uint32_t n, const uint32_t *which, bool all)
{
   VkFence f[32];
   for (uint32_t i = 0; i < n; i++)
      f[i] = t->fences[which[i]].fence;
   flush_gates(t);
   t->st.host_waits++;
   VkResult r = vkWaitForFences(dev.device, n, f, all, timeout_ns);
   if (r == VK_TIMEOUT) {
      struct tfence *tf = &t->fences[which[0]];
      fail(t->id, "lost signal: %u fence(s) (first: queue %u.%u batch %u) not signaled "
           "after %" PRIu64 " ms (wait %s)", n, t->q[tf->q].family, t->q[tf->q].index,
           tf->seq, timeout_ns / 1000000, all ? "all" : "any");
   }
   VKCHECK(t, r);
   for (uint32_t i = 0; i < n; i++) {
      struct tfence *tf = &t->fences[which[i]];
      bool signaled = all;
      if (!all) {
         VkResult s = vkGetFenceStatus(dev.device, tf->fence);
         if (s != VK_SUCCESS && s != VK_NOT_READY)
            VKCHECK(t, s);
         signaled = s == VK_SUCCESS;
      }
      if (signaled) {
         char when[96];
         snprintf(when, sizeof(when), "after the fence of queue %u.%u batch %u signaled",
                  t->q[tf->q].family, t->q[tf->q].index, tf->seq);
         observe(t, tf->q, tf->seq, all, when);
      }
   }
   if (all)
      release_fences(t);
}

/* Fences whose work the program knows complete must be signaled: they are
 * then reset for reuse. Only the program's own waits count, so which fence
 * is free never depends on timing. */
static void release_fences(struct thread *t)
{
   uint32_t which[32], n = 0;
   for (uint32_t i = 0; i < t->nfences; i++) {
      struct tfence *tf = &t->fences[i];
      if (tf->state == FENCE_PENDING && t->kc_det[tf->q] >= tf->seq)
         which[n++] = i;
   }
   if (!n)
      return;
   VkFence f[32];
   for (uint32_t i = 0; i < n; i++)
      f[i] = t->fences[which[i]].fence;
   VkResult r = vkWaitForFences(dev.device, n, f, VK_TRUE, timeout_ns);
   if (r == VK_TIMEOUT)
      fail(t->id, "lost signal: a fence is not signaled %" PRIu64 " ms after the work it "
           "covers was seen complete", timeout_ns / 1000000);
   VKCHECK(t, r);
   VKCHECK(t, vkResetFences(dev.device, n, f));
   for (uint32_t i = 0; i < n; i++)
      t->fences[which[i]].state = FENCE_FREE;
}

static uint32_t take_fence(struct thread *t)
{
   for (uint32_t i = 0; i < t->nfences; i++) {
      if (t->fences[i].state == FENCE_FREE)
         return i;
   }
   if (t->nfences == 32)
      return UINT32_MAX;
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VKCHECK(t, vkCreateFence(dev.device, &fi, NULL, &t->fences[t->nfences].fence));
   t->fences[t->nfences].state = FENCE_FREE;
   return t->nfences++;
}

/* ---- command buffers, events, binary semaphores ---------------------------------------------- */

/* A slot whose last batch is known complete. */
static int free_slot(struct thread *t, uint32_t qi, struct slot *slots, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++) {
      if (slots[i].busy <= t->kc[qi])
         return (int)i;
   }
   return -1;
}

static VkCommandBuffer get_cmd(struct thread *t, uint32_t qi, bool secondary, uint32_t batch)
{
   struct tqueue *tq = &t->q[qi];
   struct slot *slots = secondary ? tq->sec : tq->prim;
   uint32_t *n = secondary ? &tq->nsec : &tq->nprim;
   uint32_t cap = secondary ? MAX_SECONDARIES : MAX_PRIMARIES;
   int i = free_slot(t, qi, slots, *n);
   if (i < 0) {
      poll_queue(t, qi);
      i = free_slot(t, qi, slots, *n);
   }
   if (i < 0 && *n < cap) {
      VkCommandBufferAllocateInfo ai = {
         .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = tq->pool,
         .level = secondary ? VK_COMMAND_BUFFER_LEVEL_SECONDARY : VK_COMMAND_BUFFER_LEVEL_PRIMARY,
         .commandBufferCount = 1};
      VKCHECK(t, vkAllocateCommandBuffers(dev.device, &ai, &slots[*n].cmd));
      slots[*n].busy = 0;
      i = (int)(*n)++;
   }
   if (i < 0) {
      /* Every slot is in flight: wait for the oldest. */
      uint32_t oldest = UINT32_MAX;
      for (uint32_t k = 0; k < *n; k++)
         oldest = slots[k].busy < oldest ? slots[k].busy : oldest;
      wait_batch(t, qi, oldest, false);
      i = free_slot(t, qi, slots, *n);
      if (i < 0)
         fail(t->id, "no command buffer slot after a wait");
   }
   struct slot *s = &slots[i];
   /* Re-recording resets implicitly; sometimes reset explicitly first. */
   if (s->busy && (t->st.cmds & 3) == 0) {
      VKCHECK(t, vkResetCommandBuffer(s->cmd, (t->st.cmds & 4)
                                                  ? VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT
                                                  : 0));
      t->st.resets++;
   }
   s->busy = batch;
   t->st.cmds++;
   return s->cmd;
}

/* An event no pending work uses, reset. Never runs out (a shortage would
 * make the program depend on timing). */
static VkEvent get_event(struct thread *t, uint32_t qi, uint32_t batch)
{
   struct tqueue *tq = &t->q[qi];
   uint32_t i;
   for (i = 0; i < tq->nevents; i++) {
      if (tq->event_busy[i] <= t->kc[qi])
         break;
   }
   if (i == tq->nevents) {
      if (tq->nevents == MAX_EVENTS)
         fail(t->id, "more than %u events in flight on a queue", MAX_EVENTS);
      VkEventCreateInfo ei = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
      VKCHECK(t, vkCreateEvent(dev.device, &ei, NULL, &tq->events[i]));
      tq->nevents++;
   } else {
      VKCHECK(t, vkResetEvent(dev.device, tq->events[i]));
   }
   tq->event_busy[i] = batch;
   return tq->events[i];
}

static uint32_t get_binary(struct thread *t)
{
   for (uint32_t i = 0; i < t->nbins; i++) {
      struct binsem *b = &t->bins[i];
      if (!b->offered && (b->cs == 0 || t->kc[b->cq] >= b->cs))
         return i;
   }
   if (t->nbins == MAX_BINARIES)
      fail(t->id, "more than %u binary semaphores in flight", MAX_BINARIES);
   VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VKCHECK(t, vkCreateSemaphore(dev.device, &si, NULL, &t->bins[t->nbins].sem));
   return t->nbins++;
}

/* ---- recording -------------------------------------------------------------------------------- */

static void full_barrier(struct thread *t, VkCommandBuffer cmd, bool v2)
{
   t->st.barriers++;
   if (v2) {
      VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                             .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                             .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT |
                                              VK_ACCESS_2_TRANSFER_WRITE_BIT};
      VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                             .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
      vkCmdPipelineBarrier2(cmd, &di);
   } else {
      VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
                                             VK_ACCESS_TRANSFER_WRITE_BIT};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           0, 1, &mb, 0, NULL, 0, NULL);
   }
}

/* Everything before it, on this queue or made visible to it, to host reads. */
static void host_barrier(VkCommandBuffer cmd, bool v2)
{
   if (v2) {
      VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                             .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                             .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
      VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                             .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
      vkCmdPipelineBarrier2(cmd, &di);
   } else {
      VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                           0, 1, &mb, 0, NULL, 0, NULL);
   }
}

/* One transfer command, chosen at random. */
enum op_kind { OP_FILL, OP_UPDATE, OP_COPY };
struct region {
   uint32_t src, dst, size;
};
struct op {
   enum op_kind kind;
   int src;                       /* buffer index or SHARED_SRC (copies) */
   uint32_t dst;
   uint32_t nreg;
   struct region reg[3];
   uint32_t value;
   uint8_t *data;
};

static uint32_t pick_size(struct rng *r, uint32_t max, bool aligned)
{
   uint32_t c = below(r, 100), size;
   if (c < 62)
      size = 1 + below(r, 1024);
   else if (c < 88)
      size = 1 + below(r, 64 * 1024);
   else
      size = max / 2 + below(r, max / 2 + 1);
   if (size > max)
      size = max;
   if (aligned) {
      size &= ~3u;
      if (!size)
         size = 4;
   }
   return size;
}

static void gen_op(struct thread *t, struct op *op)
{
   struct rng *r = &t->rng;
   uint32_t k = below(r, 100);
   op->kind = k < 30 ? OP_FILL : k < 52 ? OP_UPDATE : OP_COPY;
   op->dst = below(r, NBUF);
   uint32_t dsize = t->buf[op->dst].size;
   op->nreg = 1;
   if (op->kind == OP_FILL) {
      uint32_t size = pick_size(r, dsize, true);
      uint32_t off = below(r, dsize - size + 1) & ~3u;
      op->reg[0] = (struct region){0, off, size};
      op->value = (uint32_t)rnd(r);
   } else if (op->kind == OP_UPDATE) {
      uint32_t size = pick_size(r, dsize < 65536 ? dsize : 65536, true);
      uint32_t off = below(r, dsize - size + 1) & ~3u;
      op->reg[0] = (struct region){0, off, size};
      op->data = malloc(size);
      if (!op->data)
         fail(t->id, "out of memory");
      for (uint32_t i = 0; i < size; i += 8) {
         uint64_t x = rnd(r);
         memcpy(op->data + i, &x, size - i < 8 ? size - i : 8);
      }
   } else {
      do
         op->src = chance(r, 15) ? SHARED_SRC : (int)below(r, NBUF);
      while (op->src == (int)op->dst);
      uint32_t ssize = op->src == SHARED_SRC ? SHARED_SIZE : t->buf[op->src].size;
      bool aligned = chance(r, 50);
      op->nreg = 1 + below(r, 3);
      /* Destination regions in disjoint slices of the buffer. */
      uint32_t slice = (dsize / op->nreg) & ~3u;
      for (uint32_t i = 0; i < op->nreg; i++) {
         uint32_t max = slice < ssize ? slice : ssize;
         uint32_t size = pick_size(r, max, aligned);
         uint32_t doff = i * slice + below(r, slice - size + 1);
         uint32_t soff = below(r, ssize - size + 1);
         if (aligned) {
            doff &= ~3u;
            soff &= ~3u;
         }
         op->reg[i] = (struct region){soff, doff, size};
      }
   }
}

static bool conflicts(const struct tqueue *tq, const struct op *op)
{
   if (tq->pend[op->dst])
      return true;
   return op->kind == OP_COPY && op->src != SHARED_SRC && (tq->pend[op->src] & PEND_W);
}

static void pend_clear(struct tqueue *tq)
{
   memset(tq->pend, 0, sizeof(tq->pend));
   tq->epoch++;
}

static void pend_add(struct tqueue *tq, uint32_t b, uint8_t what)
{
   tq->pend[b] |= what;
   tq->pend_epoch[b] = tq->epoch;
}

/* What a batch must wait for: per queue, the highest batch. */
struct needs {
   uint32_t batch[MAX_TQ];
};

static void need(struct needs *n, int q, uint32_t s)
{
   if (q >= 0 && s > n->batch[q])
      n->batch[q] = s;
}

/* Applies an op to the model and the hazard state, and records it. */
static void record_op(struct thread *t, uint32_t qi, uint32_t batch, VkCommandBuffer cmd,
                      struct op *op, bool v2, struct needs *needs)
{
   struct tqueue *tq = &t->q[qi];
   struct tbuf *d = &t->buf[op->dst];
   if (conflicts(tq, op) || chance(&t->rng, 5)) {
      full_barrier(t, cmd, v2);
      pend_clear(tq);
   }
   /* Other queues' accesses this one must come after. */
   if (d->last_wq != (int)qi)
      need(needs, d->last_wq, d->last_ws);
   for (uint32_t q = 0; q < t->nq; q++) {
      if (q != qi)
         need(needs, (int)q, d->readers[q]);
   }
   if (op->kind == OP_COPY && op->src != SHARED_SRC) {
      struct tbuf *s = &t->buf[op->src];
      if (s->last_wq != (int)qi)
         need(needs, s->last_wq, s->last_ws);
      s->readers[qi] = batch;
      pend_add(tq, (uint32_t)op->src, PEND_R);
   }
   pend_add(tq, op->dst, PEND_W);
   d->last_wq = (int)qi;
   d->last_ws = batch;
   memset(d->readers, 0, sizeof(d->readers));
   d->version++;
   t->st.ops++;

   switch (op->kind) {
   case OP_FILL: {
      struct region *g = &op->reg[0];
      bool whole = g->dst + g->size == d->size && chance(&t->rng, 50);
      vkCmdFillBuffer(cmd, d->gpu.buffer, g->dst, whole ? VK_WHOLE_SIZE : g->size, op->value);
      for (uint32_t i = 0; i < g->size; i += 4)
         memcpy(d->model + g->dst + i, &op->value, 4);
      break;
   }
   case OP_UPDATE: {
      struct region *g = &op->reg[0];
      vkCmdUpdateBuffer(cmd, d->gpu.buffer, g->dst, g->size, op->data);
      memcpy(d->model + g->dst, op->data, g->size);
      free(op->data);
      op->data = NULL;
      break;
   }
   case OP_COPY: {
      VkBuffer src = op->src == SHARED_SRC ? shared.buffer : t->buf[op->src].gpu.buffer;
      const uint8_t *smodel = op->src == SHARED_SRC ? shared_model : t->buf[op->src].model;
      if (chance(&t->rng, 50)) {
         VkBufferCopy2 regs[3];
         for (uint32_t i = 0; i < op->nreg; i++)
            regs[i] = (VkBufferCopy2){.sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2,
                                      .srcOffset = op->reg[i].src, .dstOffset = op->reg[i].dst,
                                      .size = op->reg[i].size};
         VkCopyBufferInfo2 ci = {.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, .srcBuffer = src,
                                 .dstBuffer = d->gpu.buffer, .regionCount = op->nreg,
                                 .pRegions = regs};
         vkCmdCopyBuffer2(cmd, &ci);
      } else {
         VkBufferCopy regs[3];
         for (uint32_t i = 0; i < op->nreg; i++)
            regs[i] = (VkBufferCopy){op->reg[i].src, op->reg[i].dst, op->reg[i].size};
         vkCmdCopyBuffer(cmd, src, d->gpu.buffer, op->nreg, regs);
      }
      for (uint32_t i = 0; i < op->nreg; i++)
         memcpy(d->model + op->reg[i].dst, smodel + op->reg[i].src, op->reg[i].size);
      break;
   }
   }
}

static void begin_primary(struct thread *t, VkCommandBuffer cmd, VkCommandBufferUsageFlags flags)
{
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = flags};
   VKCHECK(t, vkBeginCommandBuffer(cmd, &bi));
}

/* Records a run of random ops into a secondary and executes it. */
static void record_secondaries(struct thread *t, uint32_t qi, uint32_t batch,
                               VkCommandBuffer primary, uint32_t nops, bool v2,
                               struct needs *needs)
{
   VkCommandBuffer secs[2];
   uint32_t nsec = nops > 1 && chance(&t->rng, 40) ? 2 : 1;
   for (uint32_t k = 0; k < nsec; k++) {
      VkCommandBuffer sec = get_cmd(t, qi, true, batch);
      VkCommandBufferInheritanceInfo ii = {
         .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
      VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
                                     .pInheritanceInfo = &ii};
      VKCHECK(t, vkBeginCommandBuffer(sec, &bi));
      uint32_t n = k + 1 == nsec ? nops - (nsec - 1) : 1;
      for (uint32_t i = 0; i < n; i++) {
         struct op op = {0};
         gen_op(t, &op);
         record_op(t, qi, batch, sec, &op, v2, needs);
      }
      VKCHECK(t, vkEndCommandBuffer(sec));
      secs[k] = sec;
      t->st.secondaries++;
   }
   vkCmdExecuteCommands(primary, nsec, secs);
}

/* A set/wait event pair around some ops: the wait orders what came
 * before the set. */
struct event_use {
   VkEvent ev;
   bool v2;
   uint32_t set_epoch;
};

static void event_set(struct thread *t, uint32_t qi, VkCommandBuffer cmd, struct event_use *e)
{
   struct tqueue *tq = &t->q[qi];
   /* Pending accesses from before are now in the event's first scope. */
   tq->epoch++;
   e->set_epoch = tq->epoch;
   if (e->v2) {
      VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                             .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                             .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT |
                                              VK_ACCESS_2_TRANSFER_WRITE_BIT};
      VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                             .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
      vkCmdSetEvent2(cmd, e->ev, &di);
   } else {
      vkCmdSetEvent(cmd, e->ev, VK_PIPELINE_STAGE_TRANSFER_BIT);
   }
   t->st.events++;
}

static void event_wait(struct thread *t, uint32_t qi, VkCommandBuffer cmd, struct event_use *e)
{
   struct tqueue *tq = &t->q[qi];
   if (e->v2) {
      VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                             .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                             .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT |
                                              VK_ACCESS_2_TRANSFER_WRITE_BIT};
      VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                             .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
      vkCmdWaitEvents2(cmd, 1, &e->ev, &di);
   } else {
      VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT |
                                             VK_ACCESS_TRANSFER_WRITE_BIT};
      vkCmdWaitEvents(cmd, 1, &e->ev, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb, 0, NULL, 0, NULL);
   }
   for (uint32_t b = 0; b < NBUF; b++) {
      if (tq->pend[b] && tq->pend_epoch[b] < e->set_epoch)
         tq->pend[b] = 0;
   }
}

static void event_reset(struct thread *t, uint32_t qi, VkCommandBuffer cmd, struct event_use *e)
{
   /* The reset must come after the wait: a full barrier (which also
    * orders everything pending). */
   if (e->v2) {
      VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                             .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                             .dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT |
                                              VK_ACCESS_2_MEMORY_WRITE_BIT};
      VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                             .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
      vkCmdPipelineBarrier2(cmd, &di);
      vkCmdResetEvent2(cmd, e->ev, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
   } else {
      VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT |
                                             VK_ACCESS_MEMORY_WRITE_BIT};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                           VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
      vkCmdResetEvent(cmd, e->ev, VK_PIPELINE_STAGE_TRANSFER_BIT);
   }
   pend_clear(&t->q[qi]);
}

/* ---- batches and submissions ---------------------------------------------------------------- */

struct semop {
   VkSemaphore sem;
   uint64_t value;                /* 0 for binary */
};

struct batch {
   uint32_t seq;
   VkCommandBuffer cmds[MAX_CMDS + 1];
   uint32_t ncmd;
   const VkCommandBuffer *huge;   /* replaces cmds when set */
   uint32_t nhuge;
   struct semop waits[MAX_WAITS];
   uint32_t nwait;
   struct semop signals[MAX_SIGNALS];
   uint32_t nsig;
   bool host_bar;
   uint32_t pending_offer_bin;    /* UINT32_MAX: none */
};

static void add_wait(struct batch *b, VkSemaphore s, uint64_t v)
{
   if (b->nwait == MAX_WAITS)
      fail(-1, "internal: more than %u waits in a batch", MAX_WAITS);
   b->waits[b->nwait++] = (struct semop){s, v};
}

/* Turns the needs of a batch into waits: timeline waits, or a binary
 * semaphore another batch offered. Merges the clocks. */
static void resolve_waits(struct thread *t, uint32_t qi, struct batch *b, struct needs *n,
                          struct clocks *c)
{
   for (uint32_t q = 0; q < t->nq; q++) {
      uint32_t s = n->batch[q];
      if (!s)
         continue;
      if (q == qi)
         continue;   /* ordered by the queue itself */
      /* An offered binary semaphore from a batch at or after s? */
      uint32_t use = UINT32_MAX;
      if (chance(&t->rng, 40)) {
         for (uint32_t i = 0; i < t->noffers; i++) {
            if (t->offers[i].q == q && t->offers[i].seq >= s &&
                (use == UINT32_MAX || t->offers[i].seq < t->offers[use].seq))
               use = i;
         }
      }
      if (use != UINT32_MAX) {
         struct offer o = t->offers[use];
         t->offers[use] = t->offers[--t->noffers];
         t->bins[o.bin].offered = false;
         t->bins[o.bin].cq = qi;
         t->bins[o.bin].cs = b->seq;
         add_wait(b, t->bins[o.bin].sem, 0);
         s = o.seq;
         t->st.binaries++;
      } else {
         add_wait(b, t->q[q].tl, s);
      }
      const struct clocks *o = &t->q[q].hist[s];
      for (uint32_t i = 0; i < t->nq; i++) {
         if (o->vc[i] > c->vc[i])
            c->vc[i] = o->vc[i];
         if (o->hv[i] > c->hv[i])
            c->hv[i] = o->hv[i];
      }
   }
}

static void submit_batches(struct thread *t, uint32_t qi, struct batch *bs, uint32_t nb,
                           bool v2, int fence_index)
{
   struct tqueue *tq = &t->q[qi];
   VkFence fence = fence_index >= 0 ? t->fences[fence_index].fence : VK_NULL_HANDLE;
   VkResult r;
   if (v2) {
      /* Zeroed, though only the nb entries written are read: gcc 12 at
       * -O3 (and for aarch64) cannot tell, and warns
       * (-Wmaybe-uninitialized). */
      VkSubmitInfo2 si[MAX_BATCHES] = {0};
      VkSemaphoreSubmitInfo w[MAX_BATCHES][MAX_WAITS], s[MAX_BATCHES][MAX_SIGNALS];
      VkCommandBufferSubmitInfo cs[MAX_BATCHES][MAX_CMDS + 1];
      VkCommandBufferSubmitInfo *huge = NULL;
      for (uint32_t i = 0; i < nb; i++) {
         struct batch *b = &bs[i];
         for (uint32_t k = 0; k < b->nwait; k++)
            w[i][k] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                              .semaphore = b->waits[k].sem,
                                              .value = b->waits[k].value,
                                              .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
         for (uint32_t k = 0; k < b->nsig; k++)
            s[i][k] = (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                              .semaphore = b->signals[k].sem,
                                              .value = b->signals[k].value,
                                              .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
         VkCommandBufferSubmitInfo *c = cs[i];
         uint32_t n = b->ncmd;
         if (b->huge) {
            huge = xcalloc(b->nhuge, sizeof(*huge));
            for (uint32_t k = 0; k < b->nhuge; k++)
               huge[k] = (VkCommandBufferSubmitInfo){
                  .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                  .commandBuffer = b->huge[k]};
            c = huge;
            n = b->nhuge;
         } else {
            for (uint32_t k = 0; k < n; k++)
               c[k] = (VkCommandBufferSubmitInfo){
                  .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                  .commandBuffer = b->cmds[k]};
         }
         si[i] = (VkSubmitInfo2){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                                 .waitSemaphoreInfoCount = b->nwait, .pWaitSemaphoreInfos = w[i],
                                 .commandBufferInfoCount = n, .pCommandBufferInfos = c,
                                 .signalSemaphoreInfoCount = b->nsig,
                                 .pSignalSemaphoreInfos = s[i]};
      }
      r = vkQueueSubmit2(tq->queue, nb, si, fence);
      free(huge);
      t->st.submits2++;
   } else {
      VkSubmitInfo si[MAX_BATCHES] = {0};   /* as above, for gcc 12 -O3 */
      VkTimelineSemaphoreSubmitInfo ti[MAX_BATCHES];
      VkSemaphore w[MAX_BATCHES][MAX_WAITS], s[MAX_BATCHES][MAX_SIGNALS];
      uint64_t wv[MAX_BATCHES][MAX_WAITS], sv[MAX_BATCHES][MAX_SIGNALS];
      VkPipelineStageFlags stages[MAX_WAITS];
      for (uint32_t k = 0; k < MAX_WAITS; k++)
         stages[k] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
      for (uint32_t i = 0; i < nb; i++) {
         struct batch *b = &bs[i];
         for (uint32_t k = 0; k < b->nwait; k++) {
            w[i][k] = b->waits[k].sem;
            wv[i][k] = b->waits[k].value;
         }
         for (uint32_t k = 0; k < b->nsig; k++) {
            s[i][k] = b->signals[k].sem;
            sv[i][k] = b->signals[k].value;
         }
         ti[i] = (VkTimelineSemaphoreSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
            .waitSemaphoreValueCount = b->nwait, .pWaitSemaphoreValues = wv[i],
            .signalSemaphoreValueCount = b->nsig, .pSignalSemaphoreValues = sv[i]};
         si[i] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ti[i],
                                .waitSemaphoreCount = b->nwait, .pWaitSemaphores = w[i],
                                .pWaitDstStageMask = stages,
                                .commandBufferCount = b->huge ? b->nhuge : b->ncmd,
                                .pCommandBuffers = b->huge ? b->huge : b->cmds,
                                .signalSemaphoreCount = b->nsig, .pSignalSemaphores = s[i]};
      }
      r = vkQueueSubmit(tq->queue, nb, si, fence);
      t->st.submits++;
   }
   if (r != VK_SUCCESS)
      fail(t->id, "queue %u.%u: vkQueueSubmit%s of %u batches returned %s", tq->family,
           tq->index, v2 ? "2" : "", nb, sgt_result_name(r));
   /* Binary semaphores signaled now may be waited on from now on. */
   for (uint32_t i = 0; i < nb; i++) {
      if (bs[i].pending_offer_bin != UINT32_MAX) {
         t->offers[t->noffers++] = (struct offer){bs[i].pending_offer_bin, qi, bs[i].seq};
      }
   }
   if (fence_index >= 0) {
      struct tfence *tf = &t->fences[fence_index];
      tf->state = FENCE_PENDING;
      tf->q = qi;
      tf->seq = tq->seq;
      t->st.fences++;
   }
   t->st.batches += nb;
}

/* Opens batch b of queue qi: its number and the clocks it starts from. */
static void batch_open(struct thread *t, uint32_t qi, struct batch *b)
{
   struct tqueue *tq = &t->q[qi];
   memset(b, 0, sizeof(*b));
   b->pending_offer_bin = UINT32_MAX;
   b->seq = ++tq->seq;
   if (b->seq >= STAMP_WORDS)
      fail(t->id, "queue %u.%u: more than %u batches: raise STAMP_WORDS", tq->family,
           tq->index, STAMP_WORDS);
   grow_hist(t, tq, b->seq);
}

/* Closes batch b: signals, clocks. */
static void batch_close(struct thread *t, uint32_t qi, struct batch *b, struct clocks *c,
                        bool offer, uint32_t aux_mask)
{
   struct tqueue *tq = &t->q[qi];
   b->signals[b->nsig++] = (struct semop){tq->tl, b->seq};
   for (uint32_t j = 0; j < NAUX; j++) {
      if (aux_mask & (1u << j)) {
         uint64_t v = ++tq->aux_value[j];
         aux_record(tq, j, v, b->seq);
         b->signals[b->nsig++] = (struct semop){tq->aux[j], v};
      }
   }
   if (offer) {
      if (t->noffers + 1 < MAX_OFFERS) {
         uint32_t bin = get_binary(t);
         t->bins[bin].offered = true;
         b->pending_offer_bin = bin;
         b->signals[b->nsig++] = (struct semop){t->bins[bin].sem, 0};
      }
   }
   c->vc[qi] = b->seq;
   b->host_bar = b->host_bar && b->ncmd;   /* recorded in the last command buffer */
   if (b->host_bar) {
      for (uint32_t i = 0; i < t->nq; i++)
         c->hv[i] = c->vc[i] > c->hv[i] ? c->vc[i] : c->hv[i];
   }
   tq->hist[b->seq] = *c;
}

/* Records the batch's command buffers. */
static void batch_record(struct thread *t, uint32_t qi, struct batch *b, struct needs *needs,
                         uint32_t ncmd, bool small, bool no_ops)
{
   struct tqueue *tq = &t->q[qi];
   struct rng *r = &t->rng;
   bool compute = tq->family == 0;
   for (uint32_t k = 0; k < ncmd; k++) {
      bool v2 = chance(r, 50);
      VkCommandBuffer cmd = get_cmd(t, qi, false, b->seq);
      begin_primary(t, cmd, chance(r, 50) ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT : 0);
      /* A gate: wait for an event the host sets later. */
      if (compute && !small && chance(r, 3)) {
         VkEvent ev = get_event(t, qi, b->seq);
         if (t->ngates < 64) {
            VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_HOST_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
            vkCmdWaitEvents(cmd, 1, &ev, VK_PIPELINE_STAGE_HOST_BIT,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb, 0, NULL, 0, NULL);
            t->gates[t->ngates++] = (struct gated){qi, b->seq, ev};
            t->st.host_events++;
         }
      }
      uint32_t nops = no_ops ? 0 : small ? below(r, 2) : below(r, MAX_OPS + 1);
      struct event_use e = {0};
      uint32_t set_at = UINT32_MAX, wait_at = UINT32_MAX;
      if (compute && nops >= 2 && chance(r, 25)) {
         set_at = below(r, nops - 1);
         wait_at = set_at + 1 + below(r, nops - 1 - set_at);
         e.v2 = chance(r, 50);
         e.ev = get_event(t, qi, b->seq);
      }
      for (uint32_t i = 0; i < nops; i++) {
         if (i == wait_at)
            event_wait(t, qi, cmd, &e);
         if (i != set_at && i != wait_at && i + 1 < nops && chance(r, 12)) {
            /* A run of ops in secondaries (not across the event). */
            uint32_t n = 1 + below(r, 2);
            if (i + n > nops)
               n = nops - i;
            bool crosses = (set_at >= i && set_at < i + n) || (wait_at > i && wait_at < i + n);
            if (!crosses) {
               record_secondaries(t, qi, b->seq, cmd, n, v2, needs);
               i += n - 1;
               continue;
            }
         }
         struct op op = {0};
         gen_op(t, &op);
         record_op(t, qi, b->seq, cmd, &op, v2, needs);
         if (i == set_at)
            event_set(t, qi, cmd, &e);
      }
      if (set_at != UINT32_MAX)
         event_reset(t, qi, cmd, &e);
      if (k + 1 == ncmd) {
         /* The batch's stamp, and maybe what makes it visible to the host. */
         uint32_t stamp = stamp_value((uint32_t)t->id, qi, b->seq);
         vkCmdUpdateBuffer(cmd, tq->stamps.buffer, (VkDeviceSize)b->seq * 4, 4, &stamp);
         tq->stamped[b->seq] = true;
         if (b->host_bar)
            host_barrier(cmd, v2);
      }
      VKCHECK(t, vkEndCommandBuffer(cmd));
      b->cmds[b->ncmd++] = cmd;
   }
}

/* Extra waits that order nothing the data needs. */
static void extra_waits(struct thread *t, uint32_t qi, struct batch *b, struct needs *needs)
{
   struct rng *r = &t->rng;
   if (chance(r, 15)) {
      uint32_t q = below(r, t->nq);
      if (q != qi && t->q[q].seq)
         need(needs, (int)q, 1 + below(r, t->q[q].seq));
   }
   /* Consume an offered binary semaphore now and then. */
   if (t->noffers && chance(r, 15)) {
      uint32_t i = below(r, t->noffers);
      struct offer o = t->offers[i];
      if (o.q != qi && o.seq < b->seq) {
         /* Through needs, which picks an offer at or after it. */
         need(needs, (int)o.q, o.seq);
      }
   }
}

/* One vkQueueSubmit(2) of 1-4 random batches. */
static void step_submit(struct thread *t, uint32_t qi, bool small, uint32_t *entries)
{
   struct rng *r = &t->rng;
   struct tqueue *tq = &t->q[qi];
   uint32_t nb = 1 + (chance(r, 35) ? below(r, MAX_BATCHES) : 0);
   struct batch bs[MAX_BATCHES];
   for (uint32_t i = 0; i < nb; i++) {
      struct batch *b = &bs[i];
      batch_open(t, qi, b);
      struct clocks c = tq->hist[b->seq - 1];
      struct needs needs = {{0}};
      if (tq->gate_next && t->ngates < 64) {
         add_wait(b, t->host_tl, t->host_signaled + 1);
         t->gates[t->ngates++] = (struct gated){qi, b->seq, VK_NULL_HANDLE};
         tq->gate_next = false;
      }
      if (!small)
         extra_waits(t, qi, b, &needs);
      b->host_bar = chance(r, 30);
      uint32_t ncmd = chance(r, 8) ? 0 : 1 + below(r, MAX_CMDS);
      if (small)
         ncmd = 1;
      batch_record(t, qi, b, &needs, ncmd, small, false);
      resolve_waits(t, qi, b, &needs, &c);
      uint32_t aux = chance(r, 15) ? 1u << below(r, NAUX) : 0;
      batch_close(t, qi, b, &c, !small && chance(r, 15), aux);
      if (entries)
         *entries += (b->nwait > 0) + b->ncmd + 1;
   }
   bool v2 = chance(r, 50);
   int fence = -1;
   if (chance(r, 25)) {
      uint32_t f = take_fence(t);
      fence = f == UINT32_MAX ? -1 : (int)f;
   }
   submit_batches(t, qi, bs, nb, v2, fence);
}

/* ---- step kinds ------------------------------------------------------------------------------ */

/* A submission with no batches, only a fence. */
static void step_empty_submit(struct thread *t, uint32_t qi)
{
   struct tqueue *tq = &t->q[qi];
   uint32_t f = take_fence(t);
   if (f == UINT32_MAX)
      return;
   bool v2 = chance(&t->rng, 50);
   VkResult r = v2 ? vkQueueSubmit2(tq->queue, 0, NULL, t->fences[f].fence)
                   : vkQueueSubmit(tq->queue, 0, NULL, t->fences[f].fence);
   if (r != VK_SUCCESS)
      fail(t->id, "empty vkQueueSubmit returned %s", sgt_result_name(r));
   t->fences[f].state = FENCE_PENDING;
   t->fences[f].q = qi;
   t->fences[f].seq = tq->seq;   /* covers everything submitted before */
   t->st.fences++;
}

static void step_wait(struct thread *t)
{
   struct rng *r = &t->rng;
   uint32_t kind = below(r, 3);
   if (kind == 0) {
      uint32_t qi = below(r, t->nq);
      if (t->q[qi].seq)
         wait_batch(t, qi, 1 + below(r, t->q[qi].seq), true);
      return;
   }
   uint32_t which[32], n = 0;
   for (uint32_t i = 0; i < t->nfences; i++) {
      if (t->fences[i].state == FENCE_PENDING && chance(r, 50))
         which[n++] = i;
   }
   if (n)
      wait_fences(t, n, which, kind == 1);
}

/* A batch on one queue that waits for the latest batches of others, then
 * makes everything visible to the host; the host waits for it and checks. */
static void step_observer(struct thread *t)
{
   struct rng *r = &t->rng;
   uint32_t oi = below(r, t->nq);
   struct tqueue *tq = &t->q[oi];
   struct batch b;
   batch_open(t, oi, &b);
   struct clocks c = tq->hist[b.seq - 1];
   struct needs needs = {{0}};
   for (uint32_t q = 0; q < t->nq; q++) {
      if (q != oi && chance(r, 60))
         need(&needs, (int)q, t->q[q].seq);
   }
   b.host_bar = true;
   batch_record(t, oi, &b, &needs, 1, true, false);
   resolve_waits(t, oi, &b, &needs, &c);
   batch_close(t, oi, &b, &c, false, 0);
   submit_batches(t, oi, &b, 1, chance(r, 50), -1);
   t->st.observers++;
   wait_batch(t, oi, b.seq, true);
}

/* Resets a queue's command pool once all its work is done. */
static void step_pool(struct thread *t)
{
   struct rng *r = &t->rng;
   uint32_t qi = below(r, t->nq);
   struct tqueue *tq = &t->q[qi];
   uint32_t k = below(r, 3);
   wait_batch(t, qi, tq->seq, true);
   if (k == 0) {
      VKCHECK(t, vkResetCommandPool(dev.device, tq->pool,
                                    chance(r, 50) ? VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT
                                                  : 0));
      t->st.pool_resets++;
   } else if (k == 1) {
      /* Free the newer half of the command buffers. */
      uint32_t keep = tq->nprim / 2;
      VkCommandBuffer *list = xcalloc(tq->nprim - keep + 1, sizeof(*list));
      for (uint32_t i = keep; i < tq->nprim; i++)
         list[i - keep] = tq->prim[i].cmd;
      if (tq->nprim > keep)
         vkFreeCommandBuffers(dev.device, tq->pool, tq->nprim - keep, list);
      free(list);
      t->st.frees += tq->nprim - keep;
      tq->nprim = keep;
      vkTrimCommandPool(dev.device, tq->pool, 0);
      t->st.trims++;
   } else {
      vkTrimCommandPool(dev.device, tq->pool, 0);
      t->st.trims++;
   }
}

/* Fills the ring: a gate, then more entries than the ring holds behind it. */
static void step_burst(struct thread *t)
{
   struct rng *r = &t->rng;
   uint32_t qi = below(r, t->nq);
   struct tqueue *tq = &t->q[qi];
   tq->gate_next = true;
   t->st.gates++;
   uint32_t target = RING_ENTRIES + 64 + below(r, 400), entries = 0;
   uint32_t first = tq->seq + 1;
   uint64_t gate = t->host_signaled + 1;
   while (entries < target) {
      step_submit(t, qi, true, &entries);
      if ((tq->seq & 31) == 0 && t->host_signaled < gate) {
         uint64_t v = counter(t, tq->tl);
         if (v >= first)
            fail(t->id, "queue %u.%u: batch %u completed behind a closed gate (timeline "
                 "%" PRIu64 ")", tq->family, tq->index, first, v);
      }
   }
   t->st.bursts++;
   t->st.burst_entries += entries;
   if (tq->seq - first + 1 > t->st.max_backlog)
      t->st.max_backlog = tq->seq - first + 1;
   flush_gates(t);
}

/* Polls a queue's semaphores until its timeline reaches s: every value
 * they take on the way is checked (a wait could miss one that is there for
 * a moment only). */
static void poll_until(struct thread *t, uint32_t qi, uint32_t s)
{
   uint64_t deadline = now_ns() + timeout_ns;
   for (;;) {
      poll_queue(t, qi);
      if (t->q[qi].tl_observed >= s)
         return;
      if (now_ns() > deadline)
         fail(t->id, "lost signal: queue %u.%u timeline still %u after %" PRIu64 " ms "
              "polling for %u", t->q[qi].family, t->q[qi].index, t->q[qi].tl_observed,
              timeout_ns / 1000000, s);
   }
}

/* Submissions that each fill a block of the queue's submission stream:
 * thousands of empty command buffers make the driver reserve a whole
 * block (so the stream moves to the next block) while writing little; the
 * many signals come after the queue's progress release. The host keeps
 * about HUGE_AHEAD submissions ahead of the GPU: as soon as it sees
 * submission k done (its timeline signal, the first after the progress
 * release), it submits k + ahead, which makes the driver recycle a stream
 * block while the GPU still executes the rest of k's signals. The driver
 * keeps as many blocks as the host ran ahead at most; the host runs a
 * little further ahead now and then (ahead grows), so that the block
 * recycled is, at some point, the one of the submission just seen done:
 * recycled one release early, it is overwritten while the GPU reads it.
 * Every semaphore is polled all along. */
static void step_huge(struct thread *t)
{
   struct rng *r = &t->rng;
   uint32_t qi = below(r, t->nq);
   struct tqueue *tq = &t->q[qi];
   const uint32_t nsig = 1 + NAUX;
   /* dwords reserved: signals, progress and fence releases, link slot, and
    * one CALL per command buffer. */
   const uint32_t ncmds = (STREAM_BLOCK_DWORDS - 5 * (nsig + 2) - 5) / 4;
   VkCommandBuffer *cmds = xcalloc(ncmds, sizeof(*cmds));
   for (uint32_t i = 0; i + 1 < ncmds; i++)
      cmds[i] = tq->empty;
   uint32_t count = 3 * HUGE_AHEAD + below(r, 24);
   uint32_t first = tq->seq + 1;
   flush_gates(t);
   for (uint32_t n = 0; n < count; n++) {
      uint32_t ahead = HUGE_AHEAD + n / 4;
      if (n >= ahead)
         poll_until(t, qi, first + n - ahead);
      struct batch b;
      batch_open(t, qi, &b);
      struct clocks c = tq->hist[b.seq - 1];
      struct needs needs = {{0}};
      b.host_bar = true;
      batch_record(t, qi, &b, &needs, 1, true, true);
      resolve_waits(t, qi, &b, &needs, &c);
      batch_close(t, qi, &b, &c, false, (1u << NAUX) - 1);
      cmds[ncmds - 1] = b.cmds[0];
      b.huge = cmds;
      b.nhuge = ncmds;
      int fence = -1;
      if (chance(r, 30)) {
         uint32_t f = take_fence(t);
         fence = f == UINT32_MAX ? -1 : (int)f;
      }
      submit_batches(t, qi, &b, 1, chance(r, 50), fence);
      t->st.huge++;
      poll_queue(t, qi);
   }
   free(cmds);
}

/* ---- the thread ------------------------------------------------------------------------------- */

static void thread_setup(struct thread *t)
{
   t->rng.s = ((uint64_t)seed << 20) ^ (uint64_t)(t->id + 1) * 0x2545f4914f6cdd1dull;
   t->nq = MAX_TQ;
   for (uint32_t qi = 0; qi < t->nq; qi++) {
      struct tqueue *tq = &t->q[qi];
      tq->family = queue_map[t->id][qi][0];
      tq->index = queue_map[t->id][qi][1];
      tq->queue = dev.queues[tq->family][tq->index];
      tq->tl = make_timeline(t, 0);
      for (uint32_t j = 0; j < NAUX; j++)
         tq->aux[j] = make_timeline(t, 0);
      grow_hist(t, tq, 1);
      VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = tq->family};
      VKCHECK(t, vkCreateCommandPool(dev.device, &pi, NULL, &tq->pool));
      sgt_buffer_create(&dev, STAMP_WORDS * 4, &tq->stamps);
      memset(tq->stamps.map, 0, STAMP_WORDS * 4);
   }
   for (uint32_t f = 0; f < 2; f++) {
      VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .queueFamilyIndex = f};
      VKCHECK(t, vkCreateCommandPool(dev.device, &pi, NULL, &t->empty_pool[f]));
   }
   for (uint32_t qi = 0; qi < t->nq; qi++) {
      struct tqueue *tq = &t->q[qi];
      VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = t->empty_pool[tq->family],
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
      VKCHECK(t, vkAllocateCommandBuffers(dev.device, &ai, &tq->empty));
      begin_primary(t, tq->empty, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
      VKCHECK(t, vkEndCommandBuffer(tq->empty));
   }
   for (uint32_t b = 0; b < NBUF; b++) {
      struct tbuf *tb = &t->buf[b];
      tb->size = buffer_sizes[b];
      sgt_buffer_create(&dev, tb->size, &tb->gpu);
      tb->model = xcalloc(1, tb->size);
      for (uint32_t i = 0; i < tb->size; i++)
         tb->model[i] = (uint8_t)(i * 7 + b * 31 + (uint32_t)t->id * 101);
      memcpy(tb->gpu.map, tb->model, tb->size);
      tb->last_wq = -1;
   }
   t->host_tl = make_timeline(t, 0);
   t->burst_step = steps_per_thread / 4 + below(&t->rng, steps_per_thread / 2);
   t->huge_step = steps_per_thread / 4 + below(&t->rng, steps_per_thread / 2);
}

/* The end: one batch waits for everything else of the thread and makes it
 * visible; every byte is then checked. */
static void thread_drain(struct thread *t)
{
   flush_gates(t);
   struct tqueue *tq = &t->q[0];
   struct batch b;
   batch_open(t, 0, &b);
   struct clocks c = tq->hist[b.seq - 1];
   struct needs needs = {{0}};
   for (uint32_t q = 1; q < t->nq; q++)
      need(&needs, (int)q, t->q[q].seq);
   b.host_bar = true;
   batch_record(t, 0, &b, &needs, 1, true, true);
   resolve_waits(t, 0, &b, &needs, &c);
   /* Consume every binary semaphore still signaled. */
   while (t->noffers) {
      struct offer o = t->offers[--t->noffers];
      t->bins[o.bin].offered = false;
      t->bins[o.bin].cq = 0;
      t->bins[o.bin].cs = b.seq;
      if (b.nwait == MAX_WAITS)
         fail(t->id, "too many waits in the final batch");
      add_wait(&b, t->bins[o.bin].sem, 0);
   }
   batch_close(t, 0, &b, &c, false, 0);
   uint32_t f = take_fence(t);
   submit_batches(t, 0, &b, 1, true, f == UINT32_MAX ? -1 : (int)f);
   wait_batch(t, 0, b.seq, true);
   for (uint32_t qi = 0; qi < t->nq; qi++) {
      if (t->hv[qi] != t->q[qi].seq)
         fail(t->id, "internal: queue %u not covered by the final batch", qi);
      poll_queue(t, qi);
   }
   for (uint32_t i = 0; i < NBUF; i++)
      verify_buffer(t, i, "at the end");
   release_fences(t);
}

static void *thread_main(void *arg)
{
   struct thread *t = arg;
   struct rng *r = &t->rng;
   for (t->step = 0; t->step < steps_per_thread; t->step++) {
      if (t->ngates && t->step >= t->gate_flush_step)
         flush_gates(t);

      if (t->step == t->burst_step) {
         t->phase = "ring overflow burst";
         step_burst(t);
         continue;
      }
      if (t->step == t->huge_step) {
         t->phase = "huge submissions";
         step_huge(t);
         continue;
      }
      uint32_t k = below(r, 100);
      uint32_t qi = below(r, t->nq);
      if (k < 58) {
         t->phase = "submit";
         step_submit(t, qi, false, NULL);
      } else if (k < 70) {
         t->phase = "poll";
         poll_queue(t, qi);
      } else if (k < 79) {
         t->phase = "host wait";
         step_wait(t);
      } else if (k < 85) {
         t->phase = "observer";
         step_observer(t);
      } else if (k < 90) {
         t->phase = "gate";
         if (!t->q[qi].gate_next && t->ngates < 60) {
            t->q[qi].gate_next = true;
            t->st.gates++;
            if (!t->ngates)
               t->gate_flush_step = t->step + 1 + below(r, 25);
         }
      } else if (k < 93) {
         t->phase = "empty submit";
         step_empty_submit(t, qi);
      } else if (k < 95) {
         t->phase = "pool reset";
         step_pool(t);
      } else {
         t->phase = "submit";
         step_submit(t, qi, false, NULL);
      }
      /* Gates set by events in command buffers also need a flush step. */
      if (t->ngates && t->gate_flush_step <= t->step)
         t->gate_flush_step = t->step + 1 + below(r, 25);
      sgt_host_pause();
   }
   /* Gates flagged for batches that never came are dropped. */
   for (uint32_t qi = 0; qi < t->nq; qi++)
      t->q[qi].gate_next = false;
   t->phase = "final drain";
   thread_drain(t);
   return NULL;
}

static void thread_destroy(struct thread *t)
{
   for (uint32_t qi = 0; qi < t->nq; qi++) {
      struct tqueue *tq = &t->q[qi];
      vkDestroyCommandPool(dev.device, tq->pool, NULL);
      vkDestroySemaphore(dev.device, tq->tl, NULL);
      for (uint32_t j = 0; j < NAUX; j++) {
         vkDestroySemaphore(dev.device, tq->aux[j], NULL);
         free(tq->aux_batch[j]);
      }
      for (uint32_t i = 0; i < tq->nevents; i++)
         vkDestroyEvent(dev.device, tq->events[i], NULL);
      sgt_buffer_destroy(&dev, &tq->stamps);
      free(tq->hist);
      free(tq->stamped);
   }
   for (uint32_t f = 0; f < 2; f++)
      vkDestroyCommandPool(dev.device, t->empty_pool[f], NULL);
   for (uint32_t b = 0; b < NBUF; b++) {
      sgt_buffer_destroy(&dev, &t->buf[b].gpu);
      free(t->buf[b].model);
   }
   for (uint32_t i = 0; i < t->nfences; i++)
      vkDestroyFence(dev.device, t->fences[i].fence, NULL);
   for (uint32_t i = 0; i < t->nbins; i++)
      vkDestroySemaphore(dev.device, t->bins[i].sem, NULL);
   vkDestroySemaphore(dev.device, t->host_tl, NULL);
}

/* ---- main ------------------------------------------------------------------------------------ */

#if SG_TSAN
#define VALIDATION_OFF_BY_DEFAULT 1
#else
#define VALIDATION_OFF_BY_DEFAULT 0
#endif

static uint32_t env_u32(const char *name, uint32_t fallback)
{
   const char *v = getenv(name);
   return v && *v ? (uint32_t)strtoul(v, NULL, 0) : fallback;
}

int main(int argc, char **argv)
{
   seed = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : env_u32("SGT_SEED", 1);
   steps_per_thread = env_u32("SGT_STRESS_STEPS", DEFAULT_STEPS);
   timeout_ns = (uint64_t)env_u32("SGT_STRESS_TIMEOUT_MS", 20000) * 1000000ull;
   struct sgt_instance_options opts = {
      .no_validation = env_u32("SGT_NO_VALIDATION", VALIDATION_OFF_BY_DEFAULT) != 0};
   fprintf(stderr, "test_stress: seed %u, %u threads x %u steps%s\n", seed, THREADS,
           steps_per_thread,
           !opts.no_validation ? ""
           : VALIDATION_OFF_BY_DEFAULT ? ", no validation layer (TSan build)"
                                       : ", no validation layer");
   uint64_t start = now_ns();

   sgt_device_create(&dev, &opts);
   SGT_REQUIRE(dev.family_queue_count[0] >= 10 && dev.family_queue_count[1] >= 2,
               "%u compute and %u transfer queues", dev.family_queue_count[0],
               dev.family_queue_count[1]);
   sgt_buffer_create(&dev, SHARED_SIZE, &shared);
   shared_model = xcalloc(1, SHARED_SIZE);
   struct rng r = {seed};
   for (uint32_t i = 0; i < SHARED_SIZE; i += 8) {
      uint64_t x = rnd(&r);
      memcpy(shared_model + i, &x, 8);
   }
   memcpy(shared.map, shared_model, SHARED_SIZE);

   for (int i = 0; i < THREADS; i++) {
      threads[i].id = i;
      thread_setup(&threads[i]);
   }
   for (int i = 0; i < THREADS; i++)
      SGT_REQUIRE(pthread_create(&threads[i].handle, NULL, thread_main, &threads[i]) == 0,
                  "pthread_create");
   for (int i = 0; i < THREADS; i++)
      pthread_join(threads[i].handle, NULL);
   SGT_CHECK_VK(vkDeviceWaitIdle(dev.device));
   SGT_CHECK(memcmp(shared.map, shared_model, SHARED_SIZE) == 0,
             "the read-only source buffer changed (seed %u)", seed);

   struct stats tot = {0};
   for (int i = 0; i < THREADS; i++) {
      const uint64_t *s = (const uint64_t *)&threads[i].st;
      uint64_t *d = (uint64_t *)&tot;
      for (size_t k = 0; k < sizeof(tot) / sizeof(uint64_t); k++)
         d[k] = k == offsetof(struct stats, max_backlog) / sizeof(uint64_t)
                   ? (s[k] > d[k] ? s[k] : d[k])
                   : d[k] + s[k];
   }
   fprintf(stderr,
           "test_stress: seed %u: %" PRIu64 " submits (%" PRIu64 " vkQueueSubmit2), %" PRIu64
           " batches, %" PRIu64 " command buffers (%" PRIu64 " secondaries, %" PRIu64
           " explicit resets), %" PRIu64 " ops, %" PRIu64 " barriers, %" PRIu64 " events (%"
           PRIu64 " host-set), %" PRIu64 " fences, %" PRIu64 " binary waits, %" PRIu64 " host gates, %" PRIu64 " host waits, %" PRIu64
           " polls, %" PRIu64 " observers, %" PRIu64 " pool resets, %" PRIu64 " trims, %" PRIu64
           " frees, %" PRIu64 " ring bursts (%" PRIu64 " entries, max backlog %" PRIu64
           " batches), %" PRIu64 " huge submits, %.1f MB verified, %.2f s\n",
           seed, tot.submits + tot.submits2, tot.submits2, tot.batches, tot.cmds,
           tot.secondaries, tot.resets, tot.ops, tot.barriers, tot.events, tot.host_events,
           tot.fences, tot.binaries, tot.gates, tot.host_waits, tot.polls,
           tot.observers, tot.pool_resets, tot.trims, tot.frees, tot.bursts, tot.burst_entries,
           tot.max_backlog, tot.huge, tot.verified_bytes / 1e6, (now_ns() - start) / 1e9);

   for (int i = 0; i < THREADS; i++)
      thread_destroy(&threads[i]);
   sgt_buffer_destroy(&dev, &shared);
   free(shared_model);
   sgt_device_destroy(&dev);
   if (sgt_failures)
      fprintf(stderr, "test_stress: FAIL (seed %u)\n", seed);
   return sgt_finish();
}
