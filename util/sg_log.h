/*
 * softgpu's one logging module, used by every layer (icd/, src/, compiler/,
 * hw/). It depends on libc only, so hw/ stays free of the rest of the
 * project.
 *
 * Selection: SOFTGPU_LOG=<spec>[;<spec>...], where <spec> is a level
 * (error|warn|info|debug|none) applied to every area, or <level>:<area>[,<area>...]
 * applied to the named areas only, e.g. SOFTGPU_LOG="warn;debug:sync,ring".
 * The default is warn: errors and warnings go to stderr; the shader area
 * (debugPrintfEXT output) defaults to info.
 *
 * A disabled message costs one relaxed byte load and a compare: the
 * arguments are not evaluated. Built with SOFTGPU_LOG_COMPILED_OUT
 * (cmake -DSOFTGPU_LOG_COMPILED_OUT=ON), messages below error level are
 * not compiled at all; tests/hw/test_log_cost.sh checks with callgrind that
 * logging switched off costs less than 1% more than that.
 *
 * The selection can change while the process runs: sg_log_set (the
 * softgpu-snap thread applies `softgpu log PID SPEC` with it, see
 * src/sg_snapshot.c) and sg_log_reload_env (vkCreateDevice re-reads
 * SOFTGPU_LOG). The thresholds are relaxed atomics: a message racing with
 * a change may be written or not, nothing worse.
 */
#ifndef SG_LOG_H
#define SG_LOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sg_log_level {
   SG_LOG_NONE = 0,
   SG_LOG_ERROR = 1,
   SG_LOG_WARN = 2,
   SG_LOG_INFO = 3,
   SG_LOG_DEBUG = 4,
};

/* What a message is about. Keep sg_log_area_names[] in step. */
enum sg_log_area {
   SG_AREA_API,      /* Vulkan objects and calls (src/) */
   SG_AREA_ICD,      /* loader interface (icd/) */
   SG_AREA_MEMORY,   /* GPU memory, allocations */
   SG_AREA_SYNC,     /* fences, semaphores, events, waits */
   SG_AREA_RING,     /* channel rings, doorbells, pushbuffers */
   SG_AREA_CP,       /* command processor */
   SG_AREA_DMA,      /* DMA engine */
   SG_AREA_EU,       /* execution units, CTA scheduler */
   SG_AREA_COMPILER, /* SPIR-V to ISA */
   SG_AREA_FAULT,    /* GPU faults, device loss, post-mortem */
   SG_AREA_SHADER,   /* shaders' own output (debugPrintfEXT); info by default */
   SG_AREA_COUNT
};

extern const char *const sg_log_area_names[SG_AREA_COUNT];

/* Per-area threshold: a message is written when its level <= the area's. */
extern _Atomic uint8_t sg_log_thresholds[SG_AREA_COUNT];

static inline bool sg_log_enabled(enum sg_log_level level, enum sg_log_area area)
{
   return level <= atomic_load_explicit(&sg_log_thresholds[area], memory_order_relaxed);
}

void sg_log_write(enum sg_log_level level, enum sg_log_area area, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));

#ifdef SOFTGPU_LOG_COMPILED_OUT
/* Levels are constants at every call site, so everything below error
 * folds away; the arguments still compile (no unused-variable warnings). */
#define SG_LOG_COMPILED(level) ((level) <= SG_LOG_ERROR)
#else
#define SG_LOG_COMPILED(level) 1
#endif

/* For logging that needs work beyond the arguments (formatting a packet):
 * if (SG_LOG_ON(level, area)) ... sg_log_write(level, area, ...). */
#define SG_LOG_ON(level, area) (SG_LOG_COMPILED(level) && sg_log_enabled((level), (area)))

#define SG_LOG(level, area, ...)                                        \
   do {                                                                 \
      if (SG_LOG_COMPILED(level) && sg_log_enabled((level), (area)))    \
         sg_log_write((level), (area), __VA_ARGS__);                    \
   } while (0)

/* Writes a report the user asked for explicitly (SOFTGPU_STATS, snapshots):
 * always printed, whatever SOFTGPU_LOG selects. */
void sg_log_report(enum sg_log_area area, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads SOFTGPU_LOG once per process; later calls do nothing. Every entry
 * into the driver that can log calls it first. */
void sg_log_init(void);

/* Applies a SOFTGPU_LOG-style spec on top of the current selection.
 * Returns false (and changes nothing) if the spec does not parse. */
bool sg_log_configure(const char *spec);

/* Replaces the selection: the defaults, then spec (NULL: the defaults
 * only). Returns false (and changes nothing) if the spec does not parse. */
bool sg_log_set(const char *spec);

/* Re-reads SOFTGPU_LOG if it changed since it was last applied (an
 * application may set it between devices); an unset variable keeps the
 * selection. Logs the change at info level. */
void sg_log_reload_env(void);

/* Writes the current selection as a spec ("warn;info:shader") into buf. */
void sg_log_describe(char *buf, size_t size);

/* Rate limiting for warnings that a slow machine can repeat on every
 * operation: at most one message per interval, the rest counted. */
struct sg_log_ratelimit {
   _Atomic uint64_t next_ns;      /* no message before this time */
   _Atomic uint32_t suppressed;   /* messages dropped since the last one */
};
#define SG_LOG_RATELIMIT_NS 1000000000ull   /* one message per second */

/* True if a message may be written at now_ns; *suppressed then says how
 * many were dropped before it. */
bool sg_log_ratelimit_pass(struct sg_log_ratelimit *rl, uint64_t now_ns, uint32_t *suppressed);
/* "" or "; 3 more since the last message", for the message that passed
 * (thread-local text, valid until the thread's next call). */
const char *sg_log_suppressed_note(uint32_t suppressed);

/* Messages that pass the threshold are also handed to one sink, for example
 * the Vulkan debug-utils messengers. Messages logged from inside the sink
 * (on the same thread) go to stderr only. */
typedef void (*sg_log_sink_fn)(enum sg_log_level level, enum sg_log_area area,
                               const char *message, void *user);
void sg_log_set_sink(sg_log_sink_fn sink, void *user);

#endif
