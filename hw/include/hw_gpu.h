/*
 * The simulated GPU, as the driver sees it: GPU memory, channels (a ring
 * plus a control page in GPU memory, and a doorbell), and the completion
 * interrupt that host waits sleep on. This is the whole contract between
 * src/ and hw/: there is no "run this now" entry point.
 *
 * Inside: a command processor thread serves the compute channels and a DMA
 * engine thread serves the transfer channels; both fetch ring entries,
 * decode packets (hw_packets.h), park channels on unsatisfied semaphore
 * acquires, and run copies asynchronously to the packet stream, so that
 * only WAIT_FOR_IDLE (and the WFI flag) orders them against what follows.
 */
#ifndef HW_GPU_H
#define HW_GPU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw_mem.h"

struct hw_gpu;

#define HW_MAX_CHANNELS 32u

struct hw_gpu_config {
   uint32_t compute_channels;   /* served by the command processor: 0 .. n-1 */
   uint32_t dma_channels;       /* served by the DMA engine: after the compute ones */
   uint64_t memory_bytes;       /* GPU memory budget */
   const char *delay_spec;      /* SOFTGPU_DELAY syntax, or NULL */
   const char *fault_spec;      /* SOFTGPU_FAULT syntax, or NULL */
   uint32_t watchdog_ms;        /* an operation running longer faults; 0: default */
   uint32_t engine_spin_ns;     /* engines spin this long for work before sleeping */
   uint32_t wait_spin_ns;       /* host waits spin this long before sleeping */
   uint32_t eu_threads;         /* execution unit workers (0: the command processor runs all) */
   uint32_t slow_us;            /* work waiting longer than this between its doorbell and
                                   its fetch by an idle channel warns (0: never) */
   bool abort_on_fault;         /* abort() at the point of a fault, for debuggers */
   bool interpret_only;         /* no compiled ALU runs (hw_jit.h): the interpreter alone */
   bool jit_perf_map;           /* name compiled blocks in /tmp/perf-<pid>.map for perf */
   bool pin_workers;            /* one worker per usable CPU: each pinned to its own */
};

/* Defaults, then SOFTGPU_DELAY, SOFTGPU_FAULT, SOFTGPU_WATCHDOG_MS,
 * SOFTGPU_SPIN_NS, SOFTGPU_WAIT_SPIN_NS, SOFTGPU_THREADS, SOFTGPU_SLOW_US,
 * SOFTGPU_ABORT_ON_DEVICE_LOSS, SOFTGPU_JIT (0: interpret_only),
 * SOFTGPU_PERF_MAP (1: jit_perf_map) and SOFTGPU_PIN_WORKERS (0: no
 * pin_workers) from the environment. */
void hw_gpu_config_from_env(struct hw_gpu_config *cfg);

/* Creates the GPU and starts its engines. Returns 0, or -1 with a log line. */
int hw_gpu_create(const struct hw_gpu_config *cfg, struct hw_gpu **out);
/* Stops the engines: nothing executes afterwards. Idempotent. */
void hw_gpu_stop(struct hw_gpu *gpu);
/* Stops the engines and frees everything, GPU memory included. */
void hw_gpu_destroy(struct hw_gpu *gpu);

struct hw_mem *hw_gpu_memory(struct hw_gpu *gpu);

/* Programs a channel: its ring of ring_entries entries (a power of two) at
 * ring_va and its control page at control_va, both in GPU memory. */
int hw_channel_bind(struct hw_gpu *gpu, uint32_t channel, uint64_t ring_va,
                    uint32_t ring_entries, uint64_t control_va);
/* Rings the channel's doorbell after PUT was written. Costs a system call
 * only when the channel's engine is asleep. */
void hw_doorbell(struct hw_gpu *gpu, uint32_t channel);

/* ---- Semaphores and the completion interrupt ---------------------------- */

/* A 64-bit semaphore word in GPU memory (8-byte aligned VA). */
static inline _Atomic uint64_t *hw_sem_word(struct hw_mem *m, uint64_t va)
{
   return (_Atomic uint64_t *)hw_mem_host(m, va);
}

/* Host signal: stores value, raises the interrupt and makes the engines
 * re-check their parked acquires. */
void hw_host_signal(struct hw_gpu *gpu, uint64_t va, uint64_t value);

struct hw_wait_item {
   uint64_t va;      /* semaphore word */
   uint64_t value;   /* satisfied when the word >= value */
};

enum hw_wait_result {
   HW_WAIT_SATISFIED,
   HW_WAIT_TIMEOUT,
   HW_WAIT_LOST,     /* the GPU faulted: the device is lost */
};

/* Waits until all (or any) items are satisfied, for at most timeout_ns
 * (0: just check, no system call; UINT64_MAX or an overflowing deadline:
 * forever). */
enum hw_wait_result hw_wait(struct hw_gpu *gpu, const struct hw_wait_item *items, uint32_t count,
                            bool all, uint64_t timeout_ns);

/* ---- Faults and observation ------------------------------------------------ */

bool hw_gpu_is_lost(const struct hw_gpu *gpu);
/* The post-mortem report of the fault that lost the GPU, or NULL. */
const char *hw_gpu_fault_report(const struct hw_gpu *gpu);

struct hw_gpu_stats {
   uint64_t doorbells;           /* hw_doorbell calls */
   uint64_t doorbell_syscalls;   /* ... that had to wake a sleeping engine */
   uint64_t ring_fetches;        /* ring entries fetched */
   uint64_t packets;             /* packets decoded */
   uint64_t engine_sleeps;       /* times an engine went to sleep */
   uint64_t engine_spin_hits;    /* times spinning found work before sleeping */
   uint64_t engine_wake_syscalls; /* semaphore writes that woke a sleeping engine */
   uint64_t host_waits;          /* hw_wait calls */
   uint64_t host_wait_sleeps;    /* ... that slept in the kernel */
   uint64_t interrupts;          /* releases and host signals that raised it */
   uint64_t interrupt_wakes;     /* ... that had sleeping waiters to wake */
   /* Execution units, summed over the workers and the command processor. */
   uint64_t launches;            /* LAUNCH / LAUNCH_INDIRECT with a non-empty grid */
   uint64_t ctas;                /* CTAs run to completion */
   uint64_t warp_instructions;   /* instructions executed, once per warp */
   uint64_t global_bytes;        /* LDG/STG: access width x active lanes (a uniform
                                  * load once); atomics are not counted */
   uint64_t barrier_waits;       /* times a warp stopped at a workgroup barrier */
   uint64_t jit_blocks;          /* ALU runs compiled to native code (hw_jit.h) */
   uint64_t jit_wide;            /* ALU segments of theirs compiled to AVX-512 code (zmm
                                  * registers, 16 lanes at a time; hw_jit.h) */
   uint64_t jit_stepped;         /* global accesses of theirs whose warp step (how far
                                  * the next warp's address is) aims their prefetch */
   uint64_t jit_exits;           /* accesses compiled runs left to the interpreter
                                  * (lanes not consecutive, or a check failed) */
   uint64_t jit_instructions;    /* of warp_instructions, those compiled runs ran */
   uint64_t jit_sweeps;          /* barriers that released a CTA's warps in a compiled
                                  * block's sweep, each running it in turn (hw_jit.h) */
   uint64_t parked_ns[HW_MAX_CHANNELS];   /* time each channel spent parked on an acquire */
   uint32_t channel_count;       /* entries of parked_ns in use */
   uint32_t engine_spin_ns;      /* the spin budgets in force */
   uint32_t wait_spin_ns;
};
void hw_gpu_get_stats(struct hw_gpu *gpu, struct hw_gpu_stats *stats);

/* Writes a snapshot of every channel (GET/PUT, state, parked acquire,
 * outstanding copies, last releases) into buf. */
void hw_gpu_snapshot(struct hw_gpu *gpu, char *buf, size_t size);

/* Names what lives at va, in GPU memory, on this GPU's trace
 * (SOFTGPU_TRACE): a channel's control page names the channel's track, a
 * semaphore word names the counter its releases and host signals record.
 * name is copied; NULL forgets the name (the memory has a new owner).
 * Nothing when tracing is off. The GPU's trace is the GPU's own: the
 * driver names its objects here, by GPU address, as it would tell a GPU
 * in another process, and never through the trace recorder. */
void hw_gpu_trace_name(struct hw_gpu *gpu, uint64_t va, const char *name);

/* GPU time: CLOCK_MONOTONIC in nanoseconds (what TIMESTAMP writes). */
uint64_t hw_now_ns(void);

#endif
