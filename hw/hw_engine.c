/*
 * The front end shared by the command processor and the DMA engine: one
 * host thread per engine serves its channels round-robin. For each channel
 * it fetches ring entries, decodes packets and runs copies in slices, so
 * that a long copy never holds up the other channels and the packet stream
 * runs ahead of the copies until a WAIT_FOR_IDLE (or a WFI flag) stops it.
 * A channel parked on an unsatisfied acquire is skipped until a semaphore
 * write makes the engine look again; an engine with nothing to do spins
 * briefly, then sleeps on its wake word.
 */
#include "hw_internal.h"
#include "sg_atomic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sg_log.h"
#include "sg_thread.h"
#include "sg_str.h"
#include "sg_trace.h"

#define FRONT_END_BUDGET 64u               /* packets per channel per pass */
#define DMA_SLICE (256u * 1024u)           /* bytes per copy step */
#define DMA_PASS_BUDGET (1024u * 1024u)    /* bytes per channel per pass */
#define PREFETCH_DWORDS 256u               /* how far ahead of a packet to fetch */

enum step { STEP_DONE, STEP_BLOCKED, STEP_FAULT };

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

static bool lost(const struct hw_gpu *gpu)
{
   return atomic_load_explicit(&gpu->lost, memory_order_relaxed);
}

/* Copies queued, or launches the execution units have not finished. The
 * acquire pairs with the workers' release, so their writes are visible
 * once this says idle. */
static bool ops_pending(const struct hw_channel *ch)
{
   return LOAD(ch->op_head) != LOAD(ch->op_tail) ||
          atomic_load_explicit(&ch->launches_pending, memory_order_acquire) != 0;
}

static bool copies_pending(const struct hw_channel *ch)
{
   return LOAD(ch->op_head) != LOAD(ch->op_tail);
}

/* The host pointer of [va, va + size) for this channel, or a fault naming
 * what was being accessed. */
static void *checked(struct hw_channel *ch, uint64_t va, uint64_t size, uint32_t align,
                     const char *what)
{
   void *p = hw_mem_check(&ch->gpu->mem, va, size);
   if (p && (va & (align - 1)) == 0)
      return p;
   if (p) {
      hw_gpu_fault(ch->gpu, ch, "%s at 0x%llx is not %u-byte aligned", what,
                   (unsigned long long)va, align);
      return NULL;
   }
   /* Name the first byte that is not in a live allocation. */
   uint64_t bad = va;
   while (bad - va < size && hw_mem_check(&ch->gpu->mem, bad, 1))
      bad = (bad | (HW_PAGE_SIZE - 1)) + 1;
   char where[160];
   hw_mem_describe(&ch->gpu->mem, bad, where, sizeof(where));
   hw_gpu_fault(ch->gpu, ch, "%s [0x%llx, +%llu) is outside GPU memory: 0x%llx is %s", what,
                (unsigned long long)va, (unsigned long long)size, (unsigned long long)bad, where);
   return NULL;
}

/* ---- pushbuffer frames ------------------------------------------------------ */

/* SOFTGPU_LOG=debug:ring: a pushbuffer as the channel enters it, every
 * packet decoded, in one message. Logged on entry rather than per packet
 * so that logging switched off costs one check per pushbuffer, not one
 * per packet; the releases and parks are logged as they happen. */
static void log_pushbuffer(const struct hw_channel *ch, const char *how, uint64_t va,
                           const uint32_t *p, uint32_t length)
{
   enum { TEXT = 12288 };
   char *text = malloc(TEXT);
   if (!text)
      return;
   size_t used = 0;
   uint32_t pos = 0;
   while (pos < length && used < TEXT - 1) {
      used = sg_appendf(text, TEXT, used, "\n  +%-5u ", pos);
      uint32_t n = hw_packet_format(p + pos, length - pos, text + used, TEXT - used);
      used += strlen(text + used);
      pos += n ? n : length;   /* the engine faults on a malformed packet */
   }
   sg_log_write(SG_LOG_DEBUG, SG_AREA_RING, "channel %u: %s: pushbuffer 0x%llx, %u dwords:%s",
                ch->index, how, (unsigned long long)va, length, text);
   free(text);
}

static bool enter(struct hw_channel *ch, uint64_t va, uint32_t length, bool replace)
{
   const uint32_t *p = length ? checked(ch, va, (uint64_t)length * 4, 4, "pushbuffer") : NULL;
   if (length && !p)
      return false;
   if (!replace && ch->depth == HW_CALL_DEPTH) {
      hw_gpu_fault(ch->gpu, ch, "pushbuffer calls nested deeper than %u", HW_CALL_DEPTH);
      return false;
   }
   struct hw_frame *f = replace ? &ch->stack[ch->depth - 1] : &ch->stack[ch->depth++];
   *f = (struct hw_frame){.va = va, .dwords = p, .pos = 0, .length = length};
   return true;
}

/* enter() for a branch (CALL, JUMP, a linked pushbuffer), logged. */
static bool branch_to(struct hw_channel *ch, const char *how, uint64_t va, uint32_t length,
                      bool replace)
{
   if (!enter(ch, va, length, replace))
      return false;
   if (SG_LOG_ON(SG_LOG_DEBUG, SG_AREA_RING))
      log_pushbuffer(ch, how, va, ch->stack[ch->depth - 1].dwords, length);
   return true;
}

/* ---- doorbell latency (SOFTGPU_SLOW_US) -------------------------------------- */

#define STAMP_PUT_BITS 24u
#define STAMP_TIME_BITS 40u
#define STAMP_PUT_MASK ((1u << STAMP_PUT_BITS) - 1)
#define STAMP_TIME_MASK ((UINT64_C(1) << STAMP_TIME_BITS) - 1)

void hw_channel_doorbell_stamp(struct hw_channel *ch)
{
   /* Written after PUT by the thread that wrote it; racing doorbells of
    * one channel (not externally synchronized callers) only lose a sample.
    * A channel not bound yet has no control page to read. */
   if (!atomic_load_explicit(&ch->bound, memory_order_acquire))
      return;
   uint32_t put = atomic_load_explicit(&ch->control->put, memory_order_relaxed);
   uint64_t us = hw_now_ns() / 1000u;
   atomic_store_explicit(&ch->doorbell_stamp,
                         (uint64_t)(put & STAMP_PUT_MASK) << STAMP_TIME_BITS | (us & STAMP_TIME_MASK),
                         memory_order_relaxed);
}

/* The first fetch after the ring was seen empty: how long the entry at get
 * waited since its doorbell. Only a doorbell rung after the entry was
 * written counts (its PUT is past get); an older stamp, or one not stored
 * yet, is no sample. A busy channel is not sampled: its new work waits
 * for its own earlier work, which is not slow. */
static void check_doorbell_latency(struct hw_channel *ch, uint32_t get)
{
   uint64_t stamp = atomic_load_explicit(&ch->doorbell_stamp, memory_order_relaxed);
   uint32_t put = (uint32_t)(stamp >> STAMP_TIME_BITS);
   if (((put - get - 1) & STAMP_PUT_MASK) >= ch->ring_entries)
      return;
   uint64_t waited_us = (hw_now_ns() / 1000u - stamp) & STAMP_TIME_MASK;
   uint32_t suppressed;
   if (waited_us <= ch->gpu->config.slow_us ||
       !sg_log_ratelimit_pass(&ch->gpu->slow_doorbell_log, hw_now_ns(), &suppressed))
      return;
   SG_LOG(SG_LOG_WARN, ch->engine->dma ? SG_AREA_DMA : SG_AREA_CP,
          "channel %u: work waited %llu us between its doorbell and its fetch by the %s, which "
          "was busy elsewhere or short of CPU (SOFTGPU_SLOW_US=%u)%s", ch->index,
          (unsigned long long)waited_us, ch->engine->name, ch->gpu->config.slow_us,
          sg_log_suppressed_note(suppressed));
}

/* Takes the next ring entry; false if the ring is empty (or on a fault). */
static bool fetch(struct hw_channel *ch)
{
   uint32_t get = atomic_load_explicit(&ch->control->get, memory_order_relaxed);
   if (get == ch->put_seen)
      ch->put_seen = atomic_load_explicit(&ch->control->put, memory_order_acquire);
   uint32_t put = ch->put_seen;
   if (put == get) {
      ch->ring_idle = true;
      return false;
   }
   if (put - get > ch->ring_entries) {
      hw_gpu_fault(ch->gpu, ch, "PUT=%u is %u entries ahead of GET=%u; the ring holds %u", put,
                   put - get, get, ch->ring_entries);
      return false;
   }
   struct hw_ring_entry e = ch->ring[get & (ch->ring_entries - 1)];
   /* The entry is copied: its slot may be reused from now on. */
   atomic_store_explicit(&ch->control->get, get + 1, memory_order_release);
   STORE(ch->engine->ring_fetches, LOAD(ch->engine->ring_fetches) + 1);
   if (sg_trace_on()) {
      const struct sg_trace_arg args[] = {
         {"get", get}, {"pushbuffer_va", e.pushbuffer_va}, {"dwords", e.length}};
      sg_trace_instant(ch->trace_track, "ring fetch", sg_trace_now(), args, 3);
   }
   if (ch->ring_idle && ch->gpu->config.slow_us)
      check_doorbell_latency(ch, get);
   ch->ring_idle = false;
   if (!enter(ch, e.pushbuffer_va, e.length, false))
      return false;
   if (SG_LOG_ON(SG_LOG_DEBUG, SG_AREA_RING)) {
      char how[64];
      snprintf(how, sizeof(how), "ring entry %u (PUT %u)", get, put);
      log_pushbuffer(ch, how, e.pushbuffer_va, ch->stack[ch->depth - 1].dwords, e.length);
   }
   return true;
}

/* ---- semaphores --------------------------------------------------------------- */

static void unpark(struct hw_channel *ch)
{
   STORE(ch->parked_ns, LOAD(ch->parked_ns) + (hw_now_ns() - ch->parked_since));
   SG_LOG(SG_LOG_DEBUG, SG_AREA_SYNC, "channel %u: acquire of 0x%llx >= %llu satisfied",
          ch->index, (unsigned long long)LOAD(ch->park_va), (unsigned long long)LOAD(ch->park_value));
   atomic_store_explicit(&ch->control->parked, 0, memory_order_relaxed);
   STORE(ch->parked, false);
   atomic_fetch_sub_explicit(&ch->engine->parked, 1, memory_order_relaxed);
}

/* Parks the channel on word >= value. The parked count is raised before
 * the last check (seq_cst on both sides, see hw_gpu_semaphore_written), so
 * a release that misses the count is seen by the check. */
static enum step park(struct hw_channel *ch, const _Atomic uint64_t *word, uint64_t va,
                      uint64_t value)
{
   ch->park_word = word;
   ch->parked_since = hw_now_ns();
   STORE(ch->park_va, va);
   STORE(ch->park_value, value);
   STORE(ch->parked, true);
   atomic_store_explicit(&ch->control->park_va, va, memory_order_relaxed);
   atomic_store_explicit(&ch->control->park_value, value, memory_order_relaxed);
   atomic_store_explicit(&ch->control->parked, 1, memory_order_release);
   atomic_fetch_add_explicit(&ch->engine->parked, 1, memory_order_seq_cst);
   if (atomic_load_explicit(word, memory_order_seq_cst) >= value) {
      unpark(ch);
      return STEP_DONE;
   }
   SG_LOG(SG_LOG_DEBUG, SG_AREA_SYNC, "channel %u: parked on 0x%llx >= %llu", ch->index,
          (unsigned long long)va, (unsigned long long)value);
   return STEP_BLOCKED;
}

static _Atomic uint64_t *sem_word(struct hw_channel *ch, uint64_t va)
{
   return checked(ch, va, 8, 8, "semaphore word");
}

static enum step acquire(struct hw_channel *ch, const uint32_t *pl)
{
   struct hw_pkt_sem s = hw_decode_sem(pl);
   _Atomic uint64_t *w = sem_word(ch, s.va);
   if (!w)
      return STEP_FAULT;
   if (atomic_load_explicit(w, memory_order_acquire) >= s.value)
      return STEP_DONE;
   return park(ch, w, s.va, s.value);
}

static void record_release(struct hw_channel *ch, uint64_t va, uint64_t value)
{
   uint32_t n = LOAD(ch->release_count);
   STORE(ch->release_va[n % HW_LAST_RELEASES], va);
   STORE(ch->release_value[n % HW_LAST_RELEASES], value);
   STORE(ch->release_count, n + 1);
}

static bool wfi_requested(uint32_t flags)
{
#ifdef SOFTGPU_MUTATION_NO_WFI
   /* Test mutation: releases no longer wait for prior work. */
   (void)flags;
   return false;
#else
   return flags & HW_PKT_FLAG_WFI;
#endif
}

static enum step release(struct hw_channel *ch, uint32_t flags, const uint32_t *pl)
{
   if (wfi_requested(flags) && ops_pending(ch))
      return STEP_BLOCKED;
   struct hw_pkt_sem s = hw_decode_sem(pl);
   _Atomic uint64_t *w = sem_word(ch, s.va);
   if (!w)
      return STEP_FAULT;
   atomic_store_explicit(w, s.value, memory_order_release);
   SG_LOG(SG_LOG_DEBUG, SG_AREA_SYNC, "channel %u: released 0x%llx = %llu at %llu ns", ch->index,
          (unsigned long long)s.va, (unsigned long long)s.value, (unsigned long long)hw_now_ns());
   record_release(ch, s.va, s.value);
   if (sg_trace_on())
      sg_trace_counter_at(SG_TRACE_GPU_PID(ch->gpu->index), (const void *)w, sg_trace_now(),
                          s.value);
   hw_gpu_semaphore_written(ch->gpu, ch->engine, flags & HW_PKT_FLAG_INTERRUPT);
   return STEP_DONE;
}

/* ---- copies ----------------------------------------------------------------- */

/* An injected address fault: from the chosen packet on, the channel's DMA
 * addresses are bad. */
static bool bad_address_injected(const struct hw_channel *ch)
{
   const struct hw_inject *inj = &ch->gpu->inject;
   return inj->fault_armed && inj->fault_address && inj->fault_channel == ch->index &&
          LOAD(ch->packets) + 1 >= inj->fault_packet;
}


/* Queues a copy (src) or a fill (value), written field by field into its
 * slot: a struct built on the stack and copied whole was read back across
 * the narrower stores that built it, which store forwarding does not
 * serve (a tenth of the command processor's samples in tput_1). */
static enum step queue_op(struct hw_channel *ch, enum hw_dma_kind kind, uint8_t *dst,
                          const uint8_t *src, uint64_t size, uint32_t value)
{
   uint32_t tail = LOAD(ch->op_tail);
   if (tail - LOAD(ch->op_head) == HW_DMA_QUEUE)
      return STEP_BLOCKED;
   struct hw_dma_op *op = &ch->ops[tail % HW_DMA_QUEUE];
   op->kind = kind, op->dst = dst, op->src = src, op->size = size, op->value = value;
   op->done = op->start_ns = 0;
   STORE(ch->op_tail, tail + 1);
   return STEP_DONE;
}

static enum step dma_copy(struct hw_channel *ch, const uint32_t *pl)
{
   struct hw_pkt_copy c = hw_decode_copy(pl);
   if (c.size == 0)
      return STEP_DONE;
   if (bad_address_injected(ch))
      c.src = HW_INJECTED_BAD_VA;
   const uint8_t *src = checked(ch, c.src, c.size, 1, "DMA copy source");
   uint8_t *dst = src ? checked(ch, c.dst, c.size, 1, "DMA copy destination") : NULL;
   if (!dst)
      return STEP_FAULT;
   return queue_op(ch, HW_DMA_COPY, dst, src, c.size, 0);
}

static enum step dma_fill(struct hw_channel *ch, const uint32_t *pl)
{
   struct hw_pkt_fill f = hw_decode_fill(pl);
   if (f.size == 0)
      return STEP_DONE;
   if (bad_address_injected(ch))
      f.dst = HW_INJECTED_BAD_VA;
   if (f.size % 4) {
      hw_gpu_fault(ch->gpu, ch, "DMA fill of %llu bytes: not a multiple of 4",
                   (unsigned long long)f.size);
      return STEP_FAULT;
   }
   uint8_t *dst = checked(ch, f.dst, f.size, 4, "DMA fill destination");
   if (!dst)
      return STEP_FAULT;
   return queue_op(ch, HW_DMA_FILL, dst, NULL, f.size, f.value);
}

static void run_slice(struct hw_dma_op *op, uint64_t n)
{
   if (op->kind == HW_DMA_COPY) {
      /* memmove: overlapping regions are invalid usage, not undefined behaviour. */
      memmove(op->dst + op->done, op->src + op->done, n);
      return;
   }
   uint32_t *d = (uint32_t *)(void *)(op->dst + op->done);
   for (uint64_t i = 0; i < n / 4; i++)
      d[i] = op->value;
}

/* Runs the channel's oldest copies for up to DMA_PASS_BUDGET bytes. */
static bool dma_step(struct hw_engine *e, struct hw_channel *ch)
{
   uint64_t budget = DMA_PASS_BUDGET;
   bool progress = false;
   while (budget && copies_pending(ch) && !lost(ch->gpu)) {
      uint32_t head = LOAD(ch->op_head);
      struct hw_dma_op *op = &ch->ops[head % HW_DMA_QUEUE];
      uint64_t n = op->size - op->done;
      n = n < DMA_SLICE ? n : DMA_SLICE;
      n = n < budget ? n : budget;
      /* Fills go in whole dwords: what the budget leaves waits a pass. */
      if (op->kind == HW_DMA_FILL)
         n &= ~(uint64_t)3;
      if (n == 0)
         break;
      /* The watchdog times a copy from its first slice, not from when it
       * was queued behind others; one done in a slice needs no clock read
       * (a 16-byte fill per command buffer: bench_submit tput_1). */
      if (op->done == 0 && op->start_ns == 0 && n < op->size)
         op->start_ns = hw_now_ns();
      uint64_t t0 = sg_trace_on() ? sg_trace_now() : 0;
      run_slice(op, n);
      op->done += n;
      if (t0) {
         const struct sg_trace_arg args[] = {{"channel", ch->index}, {"bytes", n},
                                             {"size", op->size}};
         sg_trace_span(e->trace_track, op->kind == HW_DMA_COPY ? "copy" : "fill", t0,
                       sg_trace_now(), args, 3);
      }
      budget -= n;
      progress = true;
      hw_inject_delay(&ch->gpu->inject.dma, &e->rng);
      if (op->done == op->size) {
         STORE(ch->op_head, head + 1);
      } else if (hw_now_ns() - op->start_ns > ch->gpu->watchdog_ns) {
         hw_gpu_fault(ch->gpu, ch, "watchdog: a copy has run for more than %llu ms",
                      (unsigned long long)(ch->gpu->watchdog_ns / 1000000));
      }
   }
   return progress;
}

/* ---- the other packets --------------------------------------------------------- */

static enum step inline_write(struct hw_channel *ch, const uint32_t *pl, uint32_t len)
{
   uint64_t bytes = (uint64_t)(len - HW_PKT_VA_DWORDS) * 4;
   uint8_t *dst = checked(ch, hw_decode_va(pl).va, bytes, 4, "inline write destination");
   if (!dst)
      return STEP_FAULT;
   memcpy(dst, pl + HW_PKT_VA_DWORDS, bytes);
   return STEP_DONE;
}

static enum step timestamp(struct hw_channel *ch, uint32_t flags, const uint32_t *pl)
{
   if ((flags & HW_PKT_FLAG_WFI) && ops_pending(ch))
      return STEP_BLOCKED;
   _Atomic uint64_t *w = checked(ch, hw_decode_va(pl).va, 8, 8, "timestamp");
   if (!w)
      return STEP_FAULT;
   atomic_store_explicit(w, hw_now_ns(), memory_order_release);
   return STEP_DONE;
}

/* A label packet's text, cut to HW_LABEL_BYTES - 1 bytes. */
static void label_text(const uint32_t *pl, uint32_t len, char text[HW_LABEL_BYTES])
{
   memset(text, 0, HW_LABEL_BYTES);
   size_t n = strnlen((const char *)pl, (size_t)len * 4);
   memcpy(text, pl, n < HW_LABEL_BYTES - 1 ? n : HW_LABEL_BYTES - 1);
}

/* Labels nest: the outermost HW_LABEL_DEPTH are kept, deeper ones only
 * counted (a snapshot then shows the deepest one kept). The trace gets
 * every one, as a region of the channel's track. */
static void label_push(struct hw_channel *ch, const uint32_t *pl, uint32_t len)
{
   char text[HW_LABEL_BYTES];
   label_text(pl, len, text);
   uint32_t depth = LOAD(ch->label_depth);
   if (depth < HW_LABEL_DEPTH) {
      for (uint32_t i = 0; i < HW_LABEL_BYTES / 8; i++) {
         uint64_t w;
         memcpy(&w, text + 8 * i, 8);
         STORE(ch->label[depth][i], w);
      }
   }
   STORE(ch->label_depth, depth + 1);
   if (sg_trace_on())
      sg_trace_begin(ch->trace_track, text, sg_trace_now());
}

static void label_pop(struct hw_channel *ch)
{
   uint32_t depth = LOAD(ch->label_depth);
   if (depth)
      STORE(ch->label_depth, depth - 1);
   if (depth && sg_trace_on())
      sg_trace_end(ch->trace_track, sg_trace_now());
}

static void label_insert(struct hw_channel *ch, const uint32_t *pl, uint32_t len)
{
   if (!sg_trace_on())
      return;
   char text[HW_LABEL_BYTES];
   label_text(pl, len, text);
   sg_trace_mark(ch->trace_track, text, sg_trace_now());
}

/* QUERY_COPY: timestamp query results to a buffer, after all prior work,
 * optionally waiting for each query's availability. */
static enum step query_copy(struct hw_channel *ch, const uint32_t *pl)
{
   if (ops_pending(ch))
      return STEP_BLOCKED;
   struct hw_pkt_query_copy q = hw_decode_query_copy(pl);
   if (q.count == 0)
      return STEP_DONE;
   uint64_t value_bytes = (q.flags & HW_QUERY_64) ? 8 : 4;
   uint64_t result_bytes = value_bytes * ((q.flags & HW_QUERY_WITH_AVAILABILITY) ? 2 : 1);
   struct hw_query_slot *src = checked(ch, q.src, (uint64_t)q.count * sizeof(*src), 8, "query pool");
   if (!src)
      return STEP_FAULT;
   /* The span must not wrap around the address space. */
   if (q.count > 1 && q.stride > (UINT64_MAX - result_bytes) / (q.count - 1)) {
      hw_gpu_fault(ch->gpu, ch, "query results destination: %u results %llu bytes apart "
                   "overflow the address space", q.count, (unsigned long long)q.stride);
      return STEP_FAULT;
   }
   uint8_t *dst = checked(ch, q.dst, (uint64_t)(q.count - 1) * q.stride + result_bytes,
                          (uint32_t)value_bytes, "query results destination");
   if (!dst)
      return STEP_FAULT;
   _Atomic uint64_t *avail0 = (_Atomic uint64_t *)&src[0].available;
   for (uint32_t i = 0; i < q.count && (q.flags & HW_QUERY_WAIT); i++) {
      _Atomic uint64_t *avail = avail0 + 2 * i;
      if (!atomic_load_explicit(avail, memory_order_acquire))
         return park(ch, avail, q.src + i * sizeof(*src) + 8, 1);
   }
   for (uint32_t i = 0; i < q.count; i++) {
      _Atomic uint64_t *avail = avail0 + 2 * i;
      _Atomic uint64_t *value = avail - 1;
      uint64_t a = atomic_load_explicit(avail, memory_order_acquire);
      uint64_t v = atomic_load_explicit(value, memory_order_relaxed);
      uint8_t *out = dst + i * q.stride;
      if (a || (q.flags & HW_QUERY_PARTIAL)) {
         uint32_t v32 = (uint32_t)v;
         memcpy(out, value_bytes == 8 ? (void *)&v : (void *)&v32, value_bytes);
      }
      if (q.flags & HW_QUERY_WITH_AVAILABILITY) {
         uint32_t a32 = (uint32_t)a;
         memcpy(out + value_bytes, value_bytes == 8 ? (void *)&a : (void *)&a32, value_bytes);
      }
   }
   return STEP_DONE;
}

/* LINK_SLOT: close it, or follow the pushbuffer linked to it. */
static enum step link_slot(struct hw_channel *ch, struct hw_frame *f, const uint32_t *pl,
                           uint32_t next)
{
   if (((uintptr_t)pl & 7u) != 0) {
      hw_gpu_fault(ch->gpu, ch, "link slot word not 8-byte aligned");
      return STEP_FAULT;
   }
   _Atomic uint64_t *word = (_Atomic uint64_t *)(uintptr_t)pl;
   uint64_t expected = HW_LINK_OPEN;
   if (atomic_compare_exchange_strong_explicit(word, &expected, HW_LINK_CLOSED,
                                               memory_order_acq_rel, memory_order_acquire) ||
       expected == HW_LINK_CLOSED) {
      f->pos = next;
      return STEP_DONE;
   }
   /* The driver linked a pushbuffer: it wrote the length before the VA. */
   return branch_to(ch, "linked", expected, pl[2], true) ? STEP_DONE : STEP_FAULT;
}

/* MEM_BARRIER, with the WFI flag a WAIT_FOR_IDLE too: the usual pipeline
 * barrier in one packet. */
static enum step mem_barrier(struct hw_channel *ch, uint32_t flags)
{
   if ((flags & HW_PKT_FLAG_WFI) && ops_pending(ch))
      return STEP_BLOCKED;
   sg_fence_seq_cst();
   return STEP_DONE;
}

/* LAUNCH and LAUNCH_INDIRECT point at their descriptor; LAUNCH_EMBEDDED
 * carries it (at the payload's VA). */
static enum step launch(struct hw_channel *ch, const struct hw_frame *f, uint32_t op,
                        const uint32_t *pl, uint32_t len)
{
   if (ch->engine->dma) {
      hw_gpu_fault(ch->gpu, ch, "the DMA engine has no execution units: %s",
                   hw_opcode_info[op].name);
      return STEP_FAULT;
   }
   bool ok;
   if (op == HW_OP_LAUNCH_EMBEDDED) {
      struct hw_launch_desc d = hw_decode_launch_embedded(pl);
      ok = hw_eu_launch_desc(ch, f->va + 4ull * (f->pos + 1), &d);
   } else {
      struct hw_pkt_launch l = hw_decode_launch(pl, len);
      ok = hw_eu_launch(ch, l.desc, op == HW_OP_LAUNCH_INDIRECT, l.grid);
   }
   return ok ? STEP_DONE : STEP_FAULT;
}

/* Executes one packet whose length has been checked. Ordinary packets
 * advance f->pos on completion; branches set the position themselves. */
static enum step execute(struct hw_channel *ch, struct hw_frame *f, uint32_t op, uint32_t flags,
                         const uint32_t *pl, uint32_t len)
{
   uint32_t next = f->pos + 1 + len;
   enum step r = STEP_DONE;
   switch (op) {
   case HW_OP_NOP: break;
   case HW_OP_SEM_ACQUIRE: r = acquire(ch, pl); break;
   case HW_OP_SEM_RELEASE: r = release(ch, flags, pl); break;
   case HW_OP_WAIT_FOR_IDLE: r = ops_pending(ch) ? STEP_BLOCKED : STEP_DONE; break;
   case HW_OP_MEM_BARRIER: r = mem_barrier(ch, flags); break;
   case HW_OP_DMA_COPY: r = dma_copy(ch, pl); break;
   case HW_OP_DMA_FILL: r = dma_fill(ch, pl); break;
   case HW_OP_INLINE_WRITE: r = inline_write(ch, pl, len); break;
   case HW_OP_TIMESTAMP: r = timestamp(ch, flags, pl); break;
   case HW_OP_LABEL_PUSH: label_push(ch, pl, len); break;
   case HW_OP_LABEL_POP: label_pop(ch); break;
   case HW_OP_LABEL_INSERT: label_insert(ch, pl, len); break;
   case HW_OP_QUERY_COPY: r = query_copy(ch, pl); break;
   case HW_OP_LAUNCH:
   case HW_OP_LAUNCH_INDIRECT:
   case HW_OP_LAUNCH_EMBEDDED: r = launch(ch, f, op, pl, len); break;
   case HW_OP_CALL: {
      struct hw_pkt_branch b = hw_decode_branch(pl);
      f->pos = next;
      return branch_to(ch, "CALL", b.va, b.length, false) ? STEP_DONE : STEP_FAULT;
   }
   case HW_OP_JUMP: {
      struct hw_pkt_branch b = hw_decode_branch(pl);
      return branch_to(ch, "JUMP", b.va, b.length, true) ? STEP_DONE : STEP_FAULT;
   }
   case HW_OP_RETURN:
      ch->depth--;
      return STEP_DONE;
   case HW_OP_LINK_SLOT:
      return link_slot(ch, f, pl, next);
   default:
      /* A malformed pushbuffer (or a compute packet sent to the DMA engine):
       * the hardware faults, as a real one does on an invalid method. */
      hw_gpu_fault(ch->gpu, ch, "opcode %u is not a packet the %s executes", op, ch->engine->name);
      return STEP_FAULT;
   }
   if (r == STEP_DONE)
      f->pos = next;
   return r;
}

/* Checks a packet header against the frame; faults if malformed. */
static bool well_formed(struct hw_channel *ch, const struct hw_frame *f, uint32_t header)
{
   uint32_t op = hw_pkt_opcode(header), len = hw_pkt_length(header);
   if (op >= HW_OP_COUNT || !hw_opcode_info[op].name) {
      hw_gpu_fault(ch->gpu, ch, "malformed packet: unknown opcode %u (header 0x%08x)", op, header);
      return false;
   }
   const struct hw_opcode_info *info = &hw_opcode_info[op];
   if (len < info->min_dwords || len > info->max_dwords || f->pos + 1 + len > f->length) {
      hw_gpu_fault(ch->gpu, ch, "malformed packet: %s with %u payload dwords (%u..%u allowed, "
                   "%u left in the pushbuffer)", info->name, len, info->min_dwords,
                   info->max_dwords, f->length - f->pos - 1);
      return false;
   }
   return true;
}

static bool injected_fault(struct hw_channel *ch)
{
   const struct hw_inject *inj = &ch->gpu->inject;
   if (!inj->fault_armed || inj->fault_address || inj->fault_channel != ch->index ||
       LOAD(ch->packets) + 1 != inj->fault_packet)
      return false;
   hw_gpu_fault(ch->gpu, ch, "malformed packet injected by SOFTGPU_FAULT (packet %llu)",
                (unsigned long long)inj->fault_packet);
   return true;
}

/* A packet's span on its channel's track: from its first attempt (a
 * blocked one: a parked acquire, a release waiting for idle) to its end. */
static void trace_packet(struct hw_channel *ch, uint32_t op, const struct hw_pkt_sem *sem,
                         enum step r, uint64_t t0)
{
   if (r == STEP_BLOCKED) {
      if (!ch->trace_blocked_since)
         ch->trace_blocked_since = t0;
      return;
   }
   uint64_t start = ch->trace_blocked_since ? ch->trace_blocked_since : t0;
   bool waited = ch->trace_blocked_since != 0;
   ch->trace_blocked_since = 0;
   /* Labels are regions of their own (sg_trace_begin/end). */
   if (r != STEP_DONE || op == HW_OP_LABEL_PUSH || op == HW_OP_LABEL_POP ||
       op == HW_OP_LABEL_INSERT)
      return;
   struct sg_trace_arg args[3] = {{"packet", LOAD(ch->packets) + 1}};
   uint32_t n = 1;
   if (op == HW_OP_SEM_ACQUIRE || op == HW_OP_SEM_RELEASE) {
      args[n++] = (struct sg_trace_arg){"va", sem->va};
      args[n++] = (struct sg_trace_arg){"value", sem->value};
   }
   const char *name = op == HW_OP_SEM_ACQUIRE && waited ? "SEM_ACQUIRE (parked)"
                                                          : hw_opcode_info[op].name;
   sg_trace_span(ch->trace_track, name, start, sg_trace_now(), args, n);
}

/* Decodes and executes up to FRONT_END_BUDGET packets of one channel. */
static bool front_end(struct hw_engine *e, struct hw_channel *ch)
{
   bool progress = false;
   for (uint32_t n = 0; n < FRONT_END_BUDGET && !lost(ch->gpu); n++) {
      if (ch->depth == 0 && !fetch(ch))
         break;
      if (lost(ch->gpu))
         break;
      struct hw_frame *f = &ch->stack[ch->depth - 1];
      if (f->pos >= f->length) {
         ch->depth--;
         progress = true;
         continue;
      }
      ch->packet_pos = f->pos;
      /* A pushbuffer is read once, cold: a command buffer of thousands of
       * dispatches, each with its root table and launch descriptor inline
       * (NOP packets), is megabytes, and the header loads were half of the
       * front end's time. Fetching ahead brings the next packets and the
       * data recorded with them into the cache while this one runs. */
      if (f->length - f->pos > PREFETCH_DWORDS)
         __builtin_prefetch(f->dwords + f->pos + PREFETCH_DWORDS);
      uint32_t header = f->dwords[f->pos];
      if (!well_formed(ch, f, header) || injected_fault(ch))
         break;
      uint64_t t0 = sg_trace_on() ? sg_trace_now() : 0;
      uint32_t op = hw_pkt_opcode(header);
      const uint32_t *pl = f->dwords + f->pos + 1;
      /* Decoded before: once a release lands, the driver may reuse the pushbuffer. */
      struct hw_pkt_sem sem = {0};
      if (t0 && (op == HW_OP_SEM_ACQUIRE || op == HW_OP_SEM_RELEASE))
         sem = hw_decode_sem(pl);
      enum step r = execute(ch, f, op, hw_pkt_flags(header), pl, hw_pkt_length(header));
      if (t0)
         trace_packet(ch, op, &sem, r, t0);
      if (r != STEP_DONE)
         break;
      STORE(ch->packets, LOAD(ch->packets) + 1);
      hw_inject_delay(&e->delay, &e->rng);
      progress = true;
   }
   return progress;
}

static bool run_channel(struct hw_engine *e, struct hw_channel *ch)
{
   if (!atomic_load_explicit(&ch->bound, memory_order_acquire))
      return false;
   bool progress = false;
   if (LOAD(ch->parked) &&
       atomic_load_explicit(ch->park_word, memory_order_acquire) >= LOAD(ch->park_value)) {
      unpark(ch);
      progress = true;
   }
   if (!LOAD(ch->parked))
      progress |= front_end(e, ch);
   progress |= dma_step(e, ch);
   return progress;
}

/* One round-robin pass over the engine's bound channels. */
static bool run_pass(struct hw_engine *e)
{
   bool progress = false;
   uint64_t bound = atomic_load_explicit(&e->bound_mask, memory_order_acquire);
   for (uint32_t k = 0; k < e->channel_count && !lost(e->gpu); k++) {
      uint32_t i = e->next_channel + k;   /* mod channel_count, without a division */
      i -= i >= e->channel_count ? e->channel_count : 0;
      if (bound & (UINT64_C(1) << i))
         progress |= run_channel(e, &e->gpu->channels[e->first_channel + i]);
   }
   e->next_channel = e->next_channel + 1 < e->channel_count ? e->next_channel + 1 : 0;
   return progress;
}

/* Nothing to do: spin for the budget, then sleep until kicked. */
static void idle(struct hw_engine *e, uint32_t seq)
{
   uint64_t until = hw_now_ns() + e->gpu->config.engine_spin_ns;
   uint32_t spins = 0;
   /* The word is checked after every PAUSE (tens of cycles on some cores,
    * about 140 on others: checking only every 64 of them added up to 3 us
    * to a doorbell); the clock, which costs more, every 64 checks. */
   do {
      for (int i = 0; i < 64; i++) {
         if (atomic_load_explicit(&e->wake_seq, memory_order_acquire) != seq) {
            atomic_fetch_add_explicit(&e->gpu->stats.engine_spin_hits, 1, memory_order_relaxed);
            return;
         }
         hw_spin_relax(&spins);
      }
   } while (hw_now_ns() < until);
   atomic_store_explicit(&e->sleeping, 1, memory_order_seq_cst);
   if (atomic_load_explicit(&e->wake_seq, memory_order_seq_cst) == seq &&
       !atomic_load_explicit(&e->stop, memory_order_acquire)) {
      atomic_fetch_add_explicit(&e->gpu->stats.engine_sleeps, 1, memory_order_relaxed);
      hw_futex_wait(&e->wake_seq, seq, 0);
   }
   atomic_store_explicit(&e->sleeping, 0, memory_order_relaxed);
}

static void *engine_main(void *arg)
{
   struct hw_engine *e = arg;
   char name[16];
   snprintf(name, sizeof(name), "softgpu-%s%u", e->dma ? "dma" : "cp", e->gpu->index);
   pthread_setname_np(pthread_self(), name);
   while (!atomic_load_explicit(&e->stop, memory_order_acquire)) {
      uint32_t seq = atomic_load_explicit(&e->wake_seq, memory_order_acquire);
      if (!lost(e->gpu) && run_pass(e))
         continue;
      idle(e, seq);
   }
   return NULL;
}

int hw_engine_start(struct hw_engine *e)
{
   if (sg_thread_create(&e->thread, engine_main, e) != 0) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_CP, "cannot start the %s thread", e->name);
      return -1;
   }
   e->started = true;
   return 0;
}

void hw_engine_stop(struct hw_engine *e)
{
   if (!e->started)
      return;
   atomic_store_explicit(&e->stop, true, memory_order_release);
   hw_engine_kick(e);
   pthread_join(e->thread, NULL);
   e->started = false;
}

bool hw_engine_kick(struct hw_engine *e)
{
   atomic_fetch_add_explicit(&e->wake_seq, 1, memory_order_seq_cst);
   if (!atomic_load_explicit(&e->sleeping, memory_order_seq_cst))
      return false;
   hw_futex_wake(&e->wake_seq, 1);
   return true;
}
