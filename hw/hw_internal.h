/*
 * hw/ internals shared by its source files: the GPU, its engines (the
 * command processor and the DMA engine share one front end) and its
 * channels. Nothing outside hw/ includes this.
 */
#ifndef HW_INTERNAL_H
#define HW_INTERNAL_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hw_eu.h"
#include "hw_gpu.h"
#include "hw_packets.h"
#include "sg_log.h"

#define HW_CALL_DEPTH 8u          /* ring entry + nested CALLs */
#define HW_DMA_QUEUE 64u          /* outstanding copies per channel */
#define HW_LAST_RELEASES 4u
#define HW_LABEL_BYTES 64u
#define HW_LABEL_DEPTH 8u
/* The unmapped address an injected address fault uses. */
#define HW_INJECTED_BAD_VA 0x10u

/* ---- Delay and fault injection (hw_inject.c) ---------------------------- */

struct hw_delay {
   uint32_t min_us, max_us;      /* per decoded packet (cp) or copy slice (dma) */
};

struct hw_inject {
   struct hw_delay cp, dma, eu;
   uint64_t seed;
   bool fault_armed;             /* SOFTGPU_FAULT names this GPU */
   uint32_t fault_channel;
   uint64_t fault_packet;        /* 1-based packet count on that channel */
   bool fault_address;           /* a DMA address goes bad, rather than the packet */
};

/* Parses SOFTGPU_DELAY / SOFTGPU_FAULT for the GPU created as number
 * gpu_index in this process. Logs and ignores what does not parse. */
void hw_inject_parse(struct hw_inject *inj, const char *delay_spec, const char *fault_spec,
                     uint32_t gpu_index);
/* Sleeps for a random delay drawn from d with the engine's generator. */
void hw_inject_delay(const struct hw_delay *d, uint64_t *rng);

/* ---- Channels ------------------------------------------------------------- */

struct hw_frame {
   uint64_t va;                  /* pushbuffer start */
   const uint32_t *dwords;       /* its host pointer, checked */
   uint32_t pos, length;         /* in dwords */
};

enum hw_dma_kind { HW_DMA_COPY, HW_DMA_FILL };

struct hw_dma_op {
   enum hw_dma_kind kind;
   uint8_t *dst;
   const uint8_t *src;
   uint64_t size, done;
   uint32_t value;
   uint64_t start_ns;            /* for the watchdog */
};

/* Channel state is owned by its engine thread. The fields under "seen by
 * others" are relaxed atomics, because snapshots and fault reports read
 * them from other threads; they never order anything. */
struct hw_channel {
   struct hw_gpu *gpu;
   struct hw_engine *engine;
   uint32_t index;
   _Atomic bool bound;
   uint64_t ring_va, control_va;
   const struct hw_ring_entry *ring;
   uint32_t ring_entries;
   struct hw_channel_control *control;

   struct hw_frame stack[HW_CALL_DEPTH];
   uint32_t depth;               /* 0: fetch the next ring entry */
   uint32_t packet_pos;          /* dword of the packet being executed */
   const _Atomic uint64_t *park_word;
   struct hw_dma_op ops[HW_DMA_QUEUE];

   /* seen by others */
   _Atomic bool parked;
   _Atomic uint64_t park_va, park_value;
   _Atomic uint32_t op_head, op_tail;   /* ops[op_head % N] is the oldest */
   _Atomic uint64_t label[HW_LABEL_DEPTH][HW_LABEL_BYTES / 8];   /* debug labels, outermost first */
   _Atomic uint32_t label_depth;
   _Atomic uint64_t release_va[HW_LAST_RELEASES], release_value[HW_LAST_RELEASES];
   _Atomic uint32_t release_count;
   _Atomic uint64_t packets;     /* decoded so far */
   /* Launches of this channel not finished yet (workers decrement it). */
   _Atomic uint32_t launches_pending;
   _Atomic uint64_t parked_ns;   /* time spent parked, for the stats */
   uint64_t parked_since;        /* when the current park began */

   /* Tracing (SOFTGPU_TRACE): this channel's track, and since when the
    * packet being executed has been blocked (0: it is not). */
   uint32_t trace_track;
   uint64_t trace_blocked_since;

   /* Doorbell latency (SOFTGPU_SLOW_US): the last doorbell's PUT (low 24
    * bits) and time (microseconds, low 40 bits) in one word, so that the
    * engine never pairs a PUT with another doorbell's time; and, engine
    * side, whether the ring was seen empty since the last fetch. */
   _Atomic uint64_t doorbell_stamp;
   bool ring_idle;
   /* Engine side: PUT as last read. Entries before it were published by
    * that read, so fetching them needs no new read of the line the driver
    * writes at every submission. */
   uint32_t put_seen;
};

/* ---- Engines -------------------------------------------------------------- */

struct hw_engine {
   struct hw_gpu *gpu;
   const char *name;             /* "command processor", "DMA engine" */
   bool dma;                     /* serves transfer channels */
   pthread_t thread;
   bool started;
   uint32_t first_channel, channel_count;
   uint32_t next_channel;        /* round-robin start */
   _Atomic uint32_t wake_seq;    /* futex: bumped by doorbells and releases */
   _Atomic uint32_t sleeping;    /* set while (about to be) asleep */
   _Atomic uint32_t parked;      /* channels parked on an acquire */
   _Atomic uint64_t bound_mask;  /* bit i: channel first_channel + i is bound */
   _Atomic bool stop;
   struct hw_delay delay;
   uint64_t rng;
   uint32_t trace_track;         /* copies and fills, when tracing */
   /* Its own counters: one writer (the engine's thread), so no locked
    * read-modify-write, and a line of their own (doorbells bump wake_seq):
    * two locked adds per packet were a sixth of the command processor's
    * time in bench_submit tput_1. (Packets: the channels' own counts.) */
   _Alignas(64) _Atomic uint64_t ring_fetches, interrupts;
};

/* ---- Execution units (hw_eu.c) ------------------------------------------------ */

/* What a CTA's buffers and warps are laid out for (hw_eu.c setup_cta). */
struct hw_cta_shape {
   uint32_t warp_width, invocations, vregs, uregs, stack_depth, shared_bytes, private_bytes;
};

/* A grid being executed: CTAs are handed out from `next`. */
struct hw_launch {
   struct hw_channel *ch;
   struct hw_program *prog;
   /* Its CTAs' shape, worked out once: built on the stack for every CTA,
    * it was compared through loads that straddled the stores building it
    * (no store forwarding: a third of run_cta's time in bench_eu stream). */
   struct hw_cta_shape shape;
   struct hw_launch_params params;
   uint64_t desc_va;
   uint64_t number;              /* launches so far on this GPU */
   uint64_t total;               /* CTAs */
   _Atomic uint64_t next;        /* the next CTA to hand out */
   _Atomic uint64_t done;        /* CTAs finished */
   _Atomic uint64_t start_ns;    /* when its first CTA ran (0: not yet), for the watchdog */
   _Atomic uint32_t refs;
   struct hw_launch *next_launch;
};

/* Execution-unit counters, one set per worker (and one for the command
 * processor): only the owner writes them (relaxed load + store, no
 * read-modify-write), hw_gpu_get_stats sums them. Each set has its own
 * cache lines so workers never share one. */
struct hw_eu_counters {
   _Alignas(64) _Atomic uint64_t ctas, warp_instructions, global_bytes, barrier_waits, jit_exits,
      jit_insts, jit_sweeps;
   char pad[8];
};

/* A worker's (or the command processor's) buffers for running CTAs. */
struct hw_eu_context {
   struct hw_eu_counters counters;
   uint32_t trace_track;         /* its track; 0: the launching channel's */
   uint32_t *vregs, *uregs;
   struct hw_mask_entry *stacks;
   int32_t *lane_masks;
   struct hw_warp *warps;
   uint8_t *shared, *private_mem;
   size_t vreg_bytes, ureg_bytes, stack_bytes, mask_bytes, warp_bytes, shared_size,
      private_size;
   uint64_t rng;
   /* The CTA shape the buffers and warps above were last laid out for
    * (setup_cta); a CTA of the same shape keeps that layout and resets only
    * what running a CTA changes. warp_width 0: none laid out. */
   struct hw_cta_shape shape;
   uint32_t warp_count;          /* ... its warps */
   uint64_t last_live;           /* ... the lanes of its last warp */
};

struct hw_worker {
   struct hw_gpu *gpu;
   uint32_t index;
   int cpu;                      /* the CPU it is pinned to, or -1 */
   pthread_t thread;
   struct hw_eu_context ctx;
};

struct hw_eu {
   uint32_t worker_count;
   struct hw_worker *workers;
   bool started;
   pthread_mutex_t lock;         /* the launch list */
   struct hw_launch *head, *tail;
   _Atomic uint32_t work_seq;    /* futex: bumped when a launch is posted */
   _Atomic uint32_t sleepers;
   _Atomic bool stop;
   bool cp_helps;                /* the command processor runs CTAs of launches it
                                  * handed to the workers: they leave it a CPU */
   _Atomic bool cp_alone;        /* it runs a launch's CTAs without the workers, for
                                  * now (inline, or before it wakes them) */
   hw_interp_fn interp[4];       /* by warp width: 8, 16, 32, 64 */
   const char *variant;          /* "avx512", "avx2" or "generic" */
   bool jit;                     /* ALU runs compiled (hw_jit.h) */
   bool jit_perf_map;            /* ... and named for perf (SOFTGPU_PERF_MAP) */
   _Atomic uint64_t jit_blocks;  /* ... how many, over every decoded program */
   _Atomic uint64_t jit_wide;    /* ... of their ALU segments, those in zmm code */
   _Atomic uint64_t jit_stepped; /* ... of their global accesses, those prefetched by
                                  * their warp step */
   struct hw_eu_context cp_ctx;  /* for launches the command processor runs itself */
   struct hw_program *cp_program;  /* the command processor's last program, with a
                                    * reference; only the command processor uses it */
   pthread_mutex_t cache_lock;   /* decoded programs */
   struct hw_program *programs;
   uint32_t program_count;
   _Atomic uint64_t launch_count;
   struct hw_eu_counters retired;  /* the stopped workers' counts */
   _Atomic uint64_t trace_sampled_ns;   /* when the counters were last traced */
};

int hw_eu_start(struct hw_gpu *gpu);
/* CTAs the command processor and the workers have run so far (relaxed:
 * a sign of progress for host waits, not a count to act on). */
uint64_t hw_eu_ctas_run(struct hw_gpu *gpu);
void hw_eu_stop(struct hw_gpu *gpu);
/* LAUNCH / LAUNCH_INDIRECT from a channel: runs it inline when tiny, else
 * hands it to the workers. False after a fault. */
bool hw_eu_launch(struct hw_channel *ch, uint64_t desc_va, bool indirect, uint64_t grid_va);
/* The same for a descriptor already read (LAUNCH_EMBEDDED: from the packet);
 * desc_va names it in reports. */
bool hw_eu_launch_desc(struct hw_channel *ch, uint64_t desc_va, const struct hw_launch_desc *d);
/* The execution units' counters (launches, CTAs, instructions, bytes, barrier waits). */
void hw_eu_get_stats(struct hw_gpu *gpu, struct hw_gpu_stats *s);

/* ---- The GPU -------------------------------------------------------------- */

struct hw_gpu {
   struct hw_gpu_config config;
   uint32_t index;               /* creation order in the process */
   struct hw_mem mem;
   struct hw_inject inject;
   uint64_t watchdog_ns;
   uint64_t watchdog_slack_ns;   /* the resolution of hw_coarse_ns */

   struct hw_engine cp, dma;
   struct hw_eu eu;
   struct hw_channel channels[HW_MAX_CHANNELS];
   uint32_t channel_count;

   /* The completion interrupt: a sequence word host waiters sleep on. */
   _Alignas(64) _Atomic uint32_t irq_seq;
   _Atomic uint32_t irq_waiters;

   /* Read by the engines at every packet: not on the line of irq_seq,
    * which interrupts write and spinning host waits read. */
   _Alignas(64) _Atomic bool lost;
   pthread_mutex_t fault_lock;
   char *fault_report;           /* set once, under fault_lock */
   struct sg_log_ratelimit slow_doorbell_log;   /* SOFTGPU_SLOW_US warnings */

   /* Counters, grouped by the thread that bumps them, each group on its
    * own cache lines: a line shared by the host and the command processor
    * bounced between cores on every doorbell and packet. */
   struct {
      _Alignas(64) _Atomic uint64_t doorbells, doorbell_syscalls, host_waits, host_wait_sleeps;
      _Alignas(64) _Atomic uint64_t engine_sleeps, engine_spin_hits;
      _Atomic uint64_t engine_wake_syscalls, interrupts, interrupt_wakes;
      char pad[64];
   } stats;
};

/* hw_engine.c */
int hw_engine_start(struct hw_engine *e);
/* Records a doorbell's PUT and time, for the engine's latency check. */
void hw_channel_doorbell_stamp(struct hw_channel *ch);
void hw_engine_stop(struct hw_engine *e);
/* Makes the engine look again (new PUT, released semaphore). Returns true
 * if it had to wake the engine with a system call. */
bool hw_engine_kick(struct hw_engine *e);

/* hw_gpu.c */
/* A semaphore word changed (by engine `by`, or NULL: the host): raise the
 * interrupt if asked, and have every engine with parked channels re-check
 * them. */
void hw_gpu_semaphore_written(struct hw_gpu *gpu, struct hw_engine *by, bool interrupt);
/* Loses the GPU: the first fault writes the post-mortem report. */
void hw_gpu_fault(struct hw_gpu *gpu, struct hw_channel *ch, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));
/* Appends channel state to a report. */
size_t hw_channel_describe(struct hw_channel *ch, char *buf, size_t size);

/* futex helpers (hw_gpu.c) */
/* CLOCK_MONOTONIC_COARSE in ns: the watchdog's clock, read once per
 * launch, at a fraction of hw_now_ns's cost; it lags real time by up to
 * gpu->watchdog_slack_ns. */
uint64_t hw_coarse_ns(void);
void hw_futex_wake(_Atomic uint32_t *word, int count);
/* Returns false on timeout. deadline_ns is absolute CLOCK_MONOTONIC; 0 means none. */
bool hw_futex_wait(_Atomic uint32_t *word, uint32_t expected, uint64_t deadline_ns);

static inline void hw_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
   __builtin_ia32_pause();
#elif defined(__aarch64__)
   __asm__ __volatile__("yield");
#endif
}

/* Spin-waits yield the CPU this often, in pauses (1 to 3 us of them). */
#define HW_SPIN_YIELD_EVERY 16u

/* One step of a spin-wait: a pause, and every HW_SPIN_YIELD_EVERY steps
 * the CPU offered to a thread ready to run on it. With one worker per CPU,
 * the workers waiting for a launch, the command processor waiting for a
 * doorbell and a host waiting for a fence can hold every CPU while the
 * thread they wait for is queued behind one of them: a command processor
 * that had a doorbell waited out a worker's whole spin before it could
 * post the launch the worker spun for (grid of 256 CTAs: 117 us, against
 * 26 us with every spinner yielding: docs/performance.md). *spins counts
 * the steps. */
static inline void hw_spin_relax(uint32_t *spins)
{
   hw_cpu_relax();
   if ((++*spins & (HW_SPIN_YIELD_EVERY - 1)) == 0)
      sched_yield();
}

#endif
