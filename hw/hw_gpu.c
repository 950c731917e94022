/*
 * The simulated GPU: creation, channels and doorbells, the completion
 * interrupt and host waits, faults and post-mortem reports.
 */
#include "hw_internal.h"
#include "sg_str.h"
#include "sg_atomic.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hw_caps.h"
#include "sg_log.h"
#include "sg_trace.h"

#define HW_DEFAULT_WATCHDOG_MS 10000u
/* Spinning catches the next doorbell or completion without a system call
 * (a futex wake costs 10 to 20 us on this kind of VM), but a spinning
 * thread holds a CPU the other side may need: none on a single usable CPU,
 * where the spinner could only delay the work it waits for. Elsewhere the
 * budgets must outlast a futex wake-up of the other side, or a round trip
 * that once slept keeps sleeping on both sides (2 us / 1 us budgets gave
 * 23 us round trips instead of 1.8 us: docs/performance.md). */
#define HW_DEFAULT_ENGINE_SPIN_NS 20000u
#define HW_DEFAULT_WAIT_SPIN_NS 5000u
#define HW_WAIT_SPIN_BUDGETS 10u   /* spin budgets a host wait may take while the GPU works */
#define HW_REPORT_BYTES 16384u
/* A doorbell answered later than this is not spinning or futex latency
 * (tens of microseconds) but an engine held up elsewhere or starved of CPU. */
#define HW_DEFAULT_SLOW_US 5000u

static _Atomic uint32_t gpu_count;

uint64_t hw_now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t hw_coarse_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* How far hw_coarse_ns may lag: its resolution (a scheduler tick, 1 to
 * 10 ms). */
static uint64_t coarse_resolution_ns(void)
{
   struct timespec res;
   if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0)
      return 10000000u;
   return (uint64_t)res.tv_sec * 1000000000ull + (uint64_t)res.tv_nsec;
}

/* ---- futex ----------------------------------------------------------------- */

void hw_futex_wake(_Atomic uint32_t *word, int count)
{
   syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

bool hw_futex_wait(_Atomic uint32_t *word, uint32_t expected, uint64_t deadline_ns)
{
   struct timespec ts, *tsp = NULL;
   if (deadline_ns) {
      ts.tv_sec = (time_t)(deadline_ns / 1000000000ull);
      ts.tv_nsec = (long)(deadline_ns % 1000000000ull);
      tsp = &ts;
   }
   /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline, so a
    * wait interrupted and restarted never stretches the timeout. */
   long r = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_BITSET_PRIVATE, expected, tsp, NULL,
                    FUTEX_BITSET_MATCH_ANY);
   return !(r == -1 && errno == ETIMEDOUT);
}

/* ---- configuration --------------------------------------------------------- */

static uint32_t env_u32(const char *name, uint32_t fallback)
{
   const char *v = getenv(name);
   if (!v || !*v)
      return fallback;
   char *end;
   unsigned long n = strtoul(v, &end, 10);
   if (*end || n > UINT32_MAX) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "%s=\"%s\" is not a number; using %u", name, v, fallback);
      return fallback;
   }
   return (uint32_t)n;
}

void hw_gpu_config_from_env(struct hw_gpu_config *cfg)
{
   cfg->delay_spec = getenv("SOFTGPU_DELAY");
   cfg->fault_spec = getenv("SOFTGPU_FAULT");
   cfg->watchdog_ms = env_u32("SOFTGPU_WATCHDOG_MS", HW_DEFAULT_WATCHDOG_MS);
   struct hw_caps caps;
   hw_caps_query(&caps);
   bool one_cpu = caps.host_cores == 1;
   cfg->engine_spin_ns = env_u32("SOFTGPU_SPIN_NS", one_cpu ? 0 : HW_DEFAULT_ENGINE_SPIN_NS);
   cfg->wait_spin_ns = env_u32("SOFTGPU_WAIT_SPIN_NS", one_cpu ? 0 : HW_DEFAULT_WAIT_SPIN_NS);
   cfg->abort_on_fault = env_u32("SOFTGPU_ABORT_ON_DEVICE_LOSS", 0) != 0;
   cfg->eu_threads = env_u32("SOFTGPU_THREADS", caps.host_cores);
   cfg->slow_us = env_u32("SOFTGPU_SLOW_US", HW_DEFAULT_SLOW_US);
   cfg->interpret_only = env_u32("SOFTGPU_JIT", 1) == 0;
   cfg->jit_perf_map = env_u32("SOFTGPU_PERF_MAP", 0) != 0;
   cfg->pin_workers = env_u32("SOFTGPU_PIN_WORKERS", 1) != 0;
}

/* ---- creation -------------------------------------------------------------- */

static void init_engine(struct hw_gpu *gpu, struct hw_engine *e, const char *name, bool dma,
                        uint32_t first, uint32_t count)
{
   e->gpu = gpu;
   e->name = name;
   e->dma = dma;
   e->first_channel = first;
   e->channel_count = count;
   e->delay = dma ? gpu->inject.dma : gpu->inject.cp;
   e->rng = gpu->inject.seed * 2 + (dma ? 1 : 0) + 1;
   for (uint32_t i = first; i < first + count; i++) {
      gpu->channels[i].gpu = gpu;
      gpu->channels[i].engine = e;
      gpu->channels[i].index = i;
   }
}

/* The GPU's process in the trace, and its engines' copy tracks (channels
 * get theirs when bound, workers when started). */
static void trace_tracks(struct hw_gpu *gpu)
{
   sg_trace_init();
   if (!sg_trace_on())
      return;
   char name[48];
   snprintf(name, sizeof(name), "softgpu GPU %u", gpu->index);
   sg_trace_process(SG_TRACE_GPU_PID(gpu->index), name);
   gpu->cp.trace_track = sg_trace_track(SG_TRACE_GPU_PID(gpu->index),
                                        "command processor copies", NULL);
   gpu->dma.trace_track = sg_trace_track(SG_TRACE_GPU_PID(gpu->index), "DMA engine", NULL);
}

int hw_gpu_create(const struct hw_gpu_config *cfg, struct hw_gpu **out)
{
   uint32_t channels = cfg->compute_channels + cfg->dma_channels;
   if (channels == 0 || channels > HW_MAX_CHANNELS) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_RING, "a GPU has 1 to %u channels, not %u", HW_MAX_CHANNELS,
             channels);
      return -1;
   }
   /* aligned: the counters are laid out by cache line */
   struct hw_gpu *gpu = aligned_alloc(_Alignof(struct hw_gpu), sizeof(*gpu));
   if (!gpu)
      return -1;
   memset(gpu, 0, sizeof(*gpu));
   gpu->config = *cfg;
   gpu->index = atomic_fetch_add(&gpu_count, 1);
   gpu->channel_count = channels;
   gpu->watchdog_ns = (uint64_t)(cfg->watchdog_ms ? cfg->watchdog_ms : HW_DEFAULT_WATCHDOG_MS) *
                      1000000ull;
   gpu->watchdog_slack_ns = coarse_resolution_ns();
   pthread_mutex_init(&gpu->fault_lock, NULL);
   hw_inject_parse(&gpu->inject, cfg->delay_spec, cfg->fault_spec, gpu->index);
   if (hw_mem_init(&gpu->mem, cfg->memory_bytes) != 0)
      goto fail_mem;
   init_engine(gpu, &gpu->cp, "command processor", false, 0, cfg->compute_channels);
   init_engine(gpu, &gpu->dma, "DMA engine", true, cfg->compute_channels, cfg->dma_channels);
   trace_tracks(gpu);
   if (hw_eu_start(gpu) != 0)
      goto fail_engines;
   if (cfg->compute_channels && hw_engine_start(&gpu->cp) != 0)
      goto fail_engines;
   if (cfg->dma_channels && hw_engine_start(&gpu->dma) != 0)
      goto fail_engines;
   *out = gpu;
   return 0;

fail_engines:
   hw_gpu_stop(gpu);
   hw_mem_finish(&gpu->mem);
fail_mem:
   pthread_mutex_destroy(&gpu->fault_lock);
   free(gpu);
   return -1;
}

void hw_gpu_stop(struct hw_gpu *gpu)
{
   /* The engines first: no launch is posted after that. */
   hw_engine_stop(&gpu->cp);
   hw_engine_stop(&gpu->dma);
   hw_eu_stop(gpu);
}

void hw_gpu_destroy(struct hw_gpu *gpu)
{
   if (!gpu)
      return;
   hw_gpu_stop(gpu);
   hw_mem_finish(&gpu->mem);
   pthread_mutex_destroy(&gpu->fault_lock);
   free(gpu->fault_report);
   free(gpu);
}

struct hw_mem *hw_gpu_memory(struct hw_gpu *gpu)
{
   return &gpu->mem;
}

/* ---- channels -------------------------------------------------------------- */

int hw_channel_bind(struct hw_gpu *gpu, uint32_t channel, uint64_t ring_va,
                    uint32_t ring_entries, uint64_t control_va)
{
   if (channel >= gpu->channel_count || ring_entries == 0 ||
       (ring_entries & (ring_entries - 1)) != 0) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_RING, "channel %u: bad binding (%u ring entries)", channel,
             ring_entries);
      return -1;
   }
   struct hw_channel *ch = &gpu->channels[channel];
   const void *ring = hw_mem_check(&gpu->mem, ring_va, (uint64_t)ring_entries * sizeof(*ch->ring));
   void *control = hw_mem_check(&gpu->mem, control_va, sizeof(*ch->control));
   if (!ring || !control || (control_va & 63) || (ring_va & 15)) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_RING, "channel %u: ring or control page not in GPU memory",
             channel);
      return -1;
   }
   ch->ring_va = ring_va;
   ch->control_va = control_va;
   ch->ring = ring;
   ch->ring_entries = ring_entries;
   ch->control = control;
   ch->put_seen = atomic_load_explicit(&ch->control->get, memory_order_relaxed);
   if (sg_trace_on() && !ch->trace_track) {
      /* Keyed by the control page: the driver names it after its queue
       * (hw_gpu_trace_name). */
      char name[48];
      snprintf(name, sizeof(name), "channel %u (%s)", channel,
               ch->engine->dma ? "transfer" : "compute");
      ch->trace_track = sg_trace_track(SG_TRACE_GPU_PID(gpu->index), name, control);
   }
   /* Published last: the engine reads the fields above only after this. */
   atomic_store_explicit(&ch->bound, true, memory_order_release);
   struct hw_engine *e = ch->engine;
   atomic_fetch_or_explicit(&e->bound_mask, UINT64_C(1) << (channel - e->first_channel),
                            memory_order_release);
   return 0;
}

void hw_doorbell(struct hw_gpu *gpu, uint32_t channel)
{
   atomic_fetch_add_explicit(&gpu->stats.doorbells, 1, memory_order_relaxed);
   if (channel < gpu->channel_count && gpu->config.slow_us)
      hw_channel_doorbell_stamp(&gpu->channels[channel]);
   if (channel < gpu->channel_count && hw_engine_kick(gpu->channels[channel].engine))
      atomic_fetch_add_explicit(&gpu->stats.doorbell_syscalls, 1, memory_order_relaxed);
}

/* ---- the completion interrupt ---------------------------------------------- */

#define RELAXED(x) atomic_load_explicit(&(x), memory_order_relaxed)

/* Writers have stored their value (release) before calling this. The
 * sequence bump and the waiter check are ordered by seq_cst: a waiter that
 * registered before our check is woken; one that registers after it will
 * see the new value when it re-checks. */
static void raise_interrupt(struct hw_gpu *gpu, struct hw_engine *by)
{
   if (by)   /* its own counter: no second locked add per release */
      atomic_store_explicit(&by->interrupts, RELAXED(by->interrupts) + 1, memory_order_relaxed);
   else
      atomic_fetch_add_explicit(&gpu->stats.interrupts, 1, memory_order_relaxed);
   atomic_fetch_add_explicit(&gpu->irq_seq, 1, memory_order_seq_cst);
   if (atomic_load_explicit(&gpu->irq_waiters, memory_order_seq_cst) > 0) {
      atomic_fetch_add_explicit(&gpu->stats.interrupt_wakes, 1, memory_order_relaxed);
      hw_futex_wake(&gpu->irq_seq, INT_MAX);
   }
}

void hw_gpu_semaphore_written(struct hw_gpu *gpu, struct hw_engine *by, bool interrupt)
{
   if (interrupt)
      raise_interrupt(gpu, by);
   /* Every release and host signal re-checks the parked acquires. */
   sg_fence_seq_cst();
   struct hw_engine *engines[] = {&gpu->cp, &gpu->dma};
   for (int i = 0; i < 2; i++) {
      if (atomic_load_explicit(&engines[i]->parked, memory_order_relaxed) &&
          hw_engine_kick(engines[i]))
         atomic_fetch_add_explicit(&gpu->stats.engine_wake_syscalls, 1, memory_order_relaxed);
   }
}

/* The recorder keys a GPU object's name by the host address of its memory
 * in this GPU's own mapping, where the engines find the same object
 * (the channel's control page, a released word): the key never leaves
 * hw/. */
void hw_gpu_trace_name(struct hw_gpu *gpu, uint64_t va, const char *name)
{
   if (!sg_trace_on() || va >= gpu->mem.va_size)
      return;
   sg_trace_name(hw_mem_host(&gpu->mem, va), name);
}

void hw_host_signal(struct hw_gpu *gpu, uint64_t va, uint64_t value)
{
   _Atomic uint64_t *word = hw_sem_word(&gpu->mem, va);
   atomic_store_explicit(word, value, memory_order_release);
   if (sg_trace_on())
      sg_trace_counter_at(SG_TRACE_GPU_PID(gpu->index), (const void *)word, sg_trace_now(), value);
   hw_gpu_semaphore_written(gpu, NULL, true);
}

/* Counts satisfied items; acquire loads pair with the writers' releases. */
static uint32_t count_satisfied(struct hw_gpu *gpu, const struct hw_wait_item *items,
                                uint32_t count)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < count; i++) {
      uint64_t v = atomic_load_explicit(hw_sem_word(&gpu->mem, items[i].va), memory_order_acquire);
      n += v >= items[i].value;
   }
   return n;
}

static bool wait_done(struct hw_gpu *gpu, const struct hw_wait_item *items, uint32_t count,
                      bool all)
{
   uint32_t n = count_satisfied(gpu, items, count);
   return all ? n == count : n > 0;
}

/* Packets the engines have decoded so far: their channels' counts. */
static uint64_t packets_decoded(struct hw_gpu *gpu)
{
   uint64_t n = 0;
   for (uint32_t i = 0; i < gpu->channel_count; i++)
      n += RELAXED(gpu->channels[i].packets);
   return n;
}

/* What a host wait saw the GPU do. */
struct progress {
   uint64_t packets, ctas;
};

/* Whether the GPU made progress since *seen (updated): decoded packets, or
 * ran CTAs while a CPU is left for the waiter to spin on (the command
 * processor runs a launch alone, or there are fewer workers than CPUs).
 * CTAs run by workers on every CPU do not count: a long launch would have
 * the waiter take CPU time from them (the barrier loop's 1 ms launch: -2%)
 * for a wake-up it saves once. */
static bool progressed(struct hw_gpu *gpu, struct progress *seen)
{
   struct progress now = {packets_decoded(gpu), hw_eu_ctas_run(gpu)};
   bool spare = gpu->eu.cp_helps || atomic_load_explicit(&gpu->eu.cp_alone, memory_order_relaxed);
   bool moved = now.packets != seen->packets || (spare && now.ctas != seen->ctas);
   *seen = now;
   return moved;
}

enum hw_wait_result hw_wait(struct hw_gpu *gpu, const struct hw_wait_item *items, uint32_t count,
                            bool all, uint64_t timeout_ns)
{
   atomic_fetch_add_explicit(&gpu->stats.host_waits, 1, memory_order_relaxed);
   if (count == 0)
      return HW_WAIT_SATISFIED;   /* nothing to wait for, all or any */
   uint64_t start = timeout_ns ? hw_now_ns() : 0;
   /* UINT64_MAX, or a deadline past the end of time, waits forever. */
   uint64_t deadline = 0;
   if (timeout_ns && timeout_ns != UINT64_MAX && start + timeout_ns > start)
      deadline = start + timeout_ns;
   uint64_t spin_until = start + gpu->config.wait_spin_ns;
   /* While the command processors decode packets or the execution units
    * run CTAs, completion may be near (a submission of 128 command buffers
    * outlasts one spin budget, as does a launch of 64 CTAs): each budget
    * that saw progress starts another, up to HW_WAIT_SPIN_BUDGETS in all,
    * rather than sleep and pay the wake-up (about 15 us here, more when it
    * waits for a CPU: bench_submit scale_cb; bench_compute's grid of 64
    * CTAs, 11 us of work, took 33-35 us in 2 processes of 12 that slept). */
   uint64_t spin_end = start + (uint64_t)gpu->config.wait_spin_ns * HW_WAIT_SPIN_BUDGETS;
   struct progress seen = {packets_decoded(gpu), hw_eu_ctas_run(gpu)};
   uint32_t spins = 0;
   for (;;) {
      uint32_t seq = atomic_load_explicit(&gpu->irq_seq, memory_order_acquire);
      if (wait_done(gpu, items, count, all))
         return HW_WAIT_SATISFIED;
      if (atomic_load_explicit(&gpu->lost, memory_order_acquire))
         return HW_WAIT_LOST;
      if (timeout_ns == 0)
         return HW_WAIT_TIMEOUT;
      uint64_t now = hw_now_ns();
      if (deadline && now >= deadline)
         return HW_WAIT_TIMEOUT;
      if (now < spin_until) {
         hw_spin_relax(&spins);
         continue;
      }
      if (progressed(gpu, &seen) && now < spin_end) {
         spin_until = now + gpu->config.wait_spin_ns;
         continue;
      }
      /* Register, check again, then sleep until the sequence moves. */
      atomic_fetch_add_explicit(&gpu->irq_waiters, 1, memory_order_seq_cst);
      if (!wait_done(gpu, items, count, all) &&
          !atomic_load_explicit(&gpu->lost, memory_order_acquire)) {
         atomic_fetch_add_explicit(&gpu->stats.host_wait_sleeps, 1, memory_order_relaxed);
         hw_futex_wait(&gpu->irq_seq, seq, deadline);
      }
      atomic_fetch_sub_explicit(&gpu->irq_waiters, 1, memory_order_seq_cst);
   }
}

/* ---- faults ----------------------------------------------------------------- */

bool hw_gpu_is_lost(const struct hw_gpu *gpu)
{
   return atomic_load_explicit(&gpu->lost, memory_order_acquire);
}

const char *hw_gpu_fault_report(const struct hw_gpu *gpu)
{
   return hw_gpu_is_lost(gpu) ? gpu->fault_report : NULL;
}

size_t hw_channel_describe(struct hw_channel *ch, char *buf, size_t size)
{
   size_t used = 0;
   if (!atomic_load_explicit(&ch->bound, memory_order_acquire))
      return sg_appendf(buf, size, used, "  channel %u: not bound\n", ch->index);
   uint32_t put = atomic_load_explicit(&ch->control->put, memory_order_acquire);
   uint32_t get = atomic_load_explicit(&ch->control->get, memory_order_acquire);
   /* Queue depth: ring entries written and not fetched yet. */
   used = sg_appendf(buf, size, used, "  channel %u (%s): GET=%u PUT=%u (%u queued), %llu packets "
                     "decoded", ch->index, ch->engine->name, get, put, put - get,
                     (unsigned long long)RELAXED(ch->packets));
   if (RELAXED(ch->parked)) {
      uint64_t va = RELAXED(ch->park_va);
      used = sg_appendf(buf, size, used, ", parked on 0x%llx >= %llu (now %llu)",
                    (unsigned long long)va, (unsigned long long)RELAXED(ch->park_value),
                    (unsigned long long)atomic_load(hw_sem_word(&ch->gpu->mem, va)));
   }
   used = sg_appendf(buf, size, used, ", %u copies outstanding, %u launches running\n",
                 RELAXED(ch->op_tail) - RELAXED(ch->op_head), RELAXED(ch->launches_pending));
   uint32_t depth = RELAXED(ch->label_depth);
   if (depth) {
      char label[HW_LABEL_BYTES + 1];
      uint32_t k = (depth < HW_LABEL_DEPTH ? depth : HW_LABEL_DEPTH) - 1;
      for (uint32_t i = 0; i < HW_LABEL_BYTES / 8; i++) {
         uint64_t w = RELAXED(ch->label[k][i]);
         memcpy(label + 8 * i, &w, 8);
      }
      label[HW_LABEL_BYTES] = '\0';
      /* The application's text: keep a report on one line per item. */
      for (char *c = label; *c; c++) {
         if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
      }
      used = sg_appendf(buf, size, used, "    inside debug label \"%s\" (depth %u)\n", label, depth);
   }
   uint32_t count = RELAXED(ch->release_count);
   for (uint32_t i = 0; i < count && i < HW_LAST_RELEASES; i++) {
      uint32_t k = (count - 1 - i) % HW_LAST_RELEASES;
      used = sg_appendf(buf, size, used, "    released 0x%llx = %llu\n",
                    (unsigned long long)RELAXED(ch->release_va[k]),
                    (unsigned long long)RELAXED(ch->release_value[k]));
   }
   return used;
}

/* The packet being executed on a channel, decoded. */
static size_t describe_packet(struct hw_channel *ch, char *buf, size_t size)
{
   if (ch->depth == 0)
      return sg_appendf(buf, size, 0, "  no pushbuffer being executed\n");
   const struct hw_frame *f = &ch->stack[ch->depth - 1];
   char text[384];   /* a LAUNCH_EMBEDDED's descriptor, all fields */
   uint32_t pos = ch->packet_pos < f->length ? ch->packet_pos : f->length;
   hw_packet_format(f->dwords + pos, f->length - pos, text, sizeof(text));
   return sg_appendf(buf, size, 0, "  pushbuffer 0x%llx (%u dwords), dword %u: %s\n",
                 (unsigned long long)f->va, f->length, pos, text);
}

void hw_gpu_fault(struct hw_gpu *gpu, struct hw_channel *ch, const char *fmt, ...)
{
   pthread_mutex_lock(&gpu->fault_lock);
   if (gpu->fault_report) {
      pthread_mutex_unlock(&gpu->fault_lock);
      return;
   }
   char *report = malloc(HW_REPORT_BYTES);
   size_t used = 0;
   if (report) {
      char what[512];
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(what, sizeof(what), fmt, ap);
      va_end(ap);
      used = sg_appendf(report, HW_REPORT_BYTES, used, "GPU %u fault on channel %u (%s): %s\n",
                    gpu->index, ch->index, ch->engine->name, what);
      /* Only the channel's engine may read its pushbuffer frames; faults
       * found by the execution units describe their launch instead. */
      if (ch->engine->started && pthread_equal(pthread_self(), ch->engine->thread))
         used += describe_packet(ch, report + used, HW_REPORT_BYTES - used);
      used = sg_appendf(report, HW_REPORT_BYTES, used, "channels:\n");
      for (uint32_t i = 0; i < gpu->channel_count; i++)
         used += hw_channel_describe(&gpu->channels[i], report + used, HW_REPORT_BYTES - used);
   }
   gpu->fault_report = report;
   atomic_store_explicit(&gpu->lost, true, memory_order_release);
   pthread_mutex_unlock(&gpu->fault_lock);

   SG_LOG(SG_LOG_ERROR, SG_AREA_FAULT, "device lost. Post-mortem report:\n%s",
          report ? report : "(out of memory)");
   /* The trace up to the loss is what explains it. */
   sg_trace_flush();
   if (gpu->config.abort_on_fault)
      abort();
   /* Every host waiter and both engines must notice. */
   raise_interrupt(gpu, NULL);
   hw_engine_kick(&gpu->cp);
   hw_engine_kick(&gpu->dma);
}

/* ---- observation ------------------------------------------------------------ */

void hw_gpu_get_stats(struct hw_gpu *gpu, struct hw_gpu_stats *s)
{
#define LOAD(f) s->f = atomic_load_explicit(&gpu->stats.f, memory_order_relaxed)
   LOAD(doorbells);
   LOAD(doorbell_syscalls);
   LOAD(engine_sleeps);
   LOAD(engine_spin_hits);
   LOAD(engine_wake_syscalls);
   LOAD(host_waits);
   LOAD(host_wait_sleeps);
   LOAD(interrupts);
   LOAD(interrupt_wakes);
#undef LOAD
   s->ring_fetches = RELAXED(gpu->cp.ring_fetches) + RELAXED(gpu->dma.ring_fetches);
   s->interrupts += RELAXED(gpu->cp.interrupts) + RELAXED(gpu->dma.interrupts);
   s->packets = packets_decoded(gpu);
   hw_eu_get_stats(gpu, s);
   s->channel_count = gpu->channel_count;
   for (uint32_t i = 0; i < HW_MAX_CHANNELS; i++)
      s->parked_ns[i] = i < gpu->channel_count ? RELAXED(gpu->channels[i].parked_ns) : 0;
   s->engine_spin_ns = gpu->config.engine_spin_ns;
   s->wait_spin_ns = gpu->config.wait_spin_ns;
}

void hw_gpu_snapshot(struct hw_gpu *gpu, char *buf, size_t size)
{
   size_t used = sg_appendf(buf, size, 0, "GPU %u%s:\n", gpu->index,
                        hw_gpu_is_lost(gpu) ? " (lost)" : "");
   for (uint32_t i = 0; i < gpu->channel_count; i++)
      used += hw_channel_describe(&gpu->channels[i], buf + used, size - used);
}
