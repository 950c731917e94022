/*
 * The timeline trace recorder (SOFTGPU_TRACE=file.json): every layer
 * records spans, instants, labels and counters here, and the recorder
 * writes them as a Chrome/Perfetto trace (Trace Event Format JSON).
 *
 * Cost when off: each trace point tests sg_trace_on(), one relaxed byte
 * load and a predictable branch, before evaluating anything.
 *
 * When on: events go into 8 shards, each a mutex and a ring of
 * SOFTGPU_TRACE_EVENTS / 8 events (default 262144 in all); threads are
 * spread over the shards round-robin and keep theirs, so they rarely share
 * a lock (with fewer threads than shards, part of the cap goes unused). A
 * full ring drops its OLDEST events and counts them; the file says how
 * many ("otherData": {"dropped_events": n}). The file is rewritten with every
 * event still held at each flush: when a device is destroyed, when a GPU
 * is lost, and at exit (or when the library is unloaded), which also frees
 * everything.
 *
 * Tracks are Chrome "threads": an application thread's Vulkan calls, a
 * GPU channel, an execution-unit worker, a copy engine. Each belongs to a
 * "process": the application (pid 1) or a GPU (pid 2 + its index).
 * Names given to the recorder are copied into a bounded table of interned
 * strings, so the objects they came from may go away before the flush.
 * Strings passed as `static_name` must live as long as the process (string
 * literals, tables).
 */
#ifndef SG_TRACE_H
#define SG_TRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define SG_TRACE_APP_PID 1u
#define SG_TRACE_GPU_PID(index) (2u + (index))
#define SG_TRACE_MAX_ARGS 3u

extern _Atomic bool sg_trace_active;

static inline bool sg_trace_on(void)
{
   return atomic_load_explicit(&sg_trace_active, memory_order_relaxed);
}

/* Reads SOFTGPU_TRACE (the file) and SOFTGPU_TRACE_EVENTS (the cap) once per
 * process; later calls do nothing. Entries that create devices call it. */
void sg_trace_init(void);

/* CLOCK_MONOTONIC in nanoseconds: the one clock of every event. */
uint64_t sg_trace_now(void);

/* Copies s into the recorder's table; the pointer lives until the final
 * flush. Returns a placeholder when the table is full. */
const char *sg_trace_intern(const char *s);

/* Names a process (a GPU). */
void sg_trace_process(uint32_t pid, const char *name);
/* A new track of process pid, named name (copied). key, if not NULL, lets
 * sg_trace_name() rename it later. Returns 0 (no track) when tracing is off
 * or the track table is full; recording on track 0 does nothing. */
uint32_t sg_trace_track(uint32_t pid, const char *name, const void *key);
/* The calling thread's track in the application process ("app thread n"). */
uint32_t sg_trace_thread_track(void);

/* Names what lives at host address key (a channel's control page, a
 * semaphore word): tracks created with that key, and counters recorded for
 * it from now on. name NULL forgets the key (the object is gone; tracks
 * keep their last name). Keys are one side's own addresses: hw/ keys GPU
 * objects by its mapping of GPU memory, and the driver names them through
 * hw_gpu_trace_name (hw_gpu.h), by GPU address, never by calling this. */
void sg_trace_name(const void *key, const char *name);

struct sg_trace_arg {
   const char *name;    /* static */
   uint64_t value;
};

/* A complete span [t0, t1] (ph "X"). */
void sg_trace_span(uint32_t track, const char *static_name, uint64_t t0, uint64_t t1,
                   const struct sg_trace_arg *args, uint32_t arg_count);
/* A point in time (ph "i", thread scope). */
void sg_trace_instant(uint32_t track, const char *static_name, uint64_t t,
                      const struct sg_trace_arg *args, uint32_t arg_count);
/* A labelled region (ph "B" / "E"); the label text is copied. */
void sg_trace_begin(uint32_t track, const char *label, uint64_t t);
void sg_trace_end(uint32_t track, uint64_t t);
/* A label with no extent (ph "i"); the text is copied. */
void sg_trace_mark(uint32_t track, const char *label, uint64_t t);
/* A counter sample (ph "C") of process pid, named static_name. */
void sg_trace_counter(uint32_t pid, const char *static_name, uint64_t t, uint64_t value);
/* A counter sample of the object at key, named by sg_trace_name(); words
 * nobody named are not recorded. */
void sg_trace_counter_at(uint32_t pid, const void *key, uint64_t t, uint64_t value);

/* Traces of application calls: t0 = sg_trace_call_begin() before the work,
 * sg_trace_call_end(name, t0, ...) after it (nothing when t0 is 0). */
static inline uint64_t sg_trace_call_begin(void)
{
   return sg_trace_on() ? sg_trace_now() : 0;
}
static inline void sg_trace_call_end(const char *static_name, uint64_t t0,
                                     const struct sg_trace_arg *args, uint32_t arg_count)
{
   /* inline: with tracing off, the caller's argument list is never built */
   if (t0)
      sg_trace_span(sg_trace_thread_track(), static_name, t0, sg_trace_now(), args, arg_count);
}

/* Writes the file now with every event held (events stay held). */
void sg_trace_flush(void);
/* Events dropped so far because a ring was full. */
uint64_t sg_trace_dropped(void);

#endif
