/*
 * Execution units: the CTA scheduler and its worker threads.
 *
 * A LAUNCH becomes a struct hw_launch on the GPU's list; workers (one per
 * host core by default, SOFTGPU_THREADS to change) take CTAs from its
 * atomic counter in small batches. A CTA stays on one worker and runs as
 * warps: each warp runs until it reaches a barrier or exits, then the next;
 * when every live warp waits at the same barrier, all are released. Tiny
 * launches run on the command processor itself, which saves the thread
 * hand-off; the watchdog covers them like any other. Having handed a larger
 * launch over, the command processor takes CTAs of it too for a while
 * (see hw_eu_launch), so the launch does not wait for sleeping workers.
 */
#include "hw_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_bits.h"
#include "hw_caps.h"
#include "hw_interp.h"
#include "sg_log.h"
#include "sg_thread.h"
#include "sg_trace.h"

/* Launches up to this many invocations in all run inline on the command
 * processor. */
#define HW_INLINE_MAX_INVOCATIONS 256u
/* Back edges a warp runs between watchdog checks. */
#define HW_WARP_BUDGET 65536u
/* Decoded programs kept per GPU. */
#define HW_PROGRAM_CACHE 256u
/* How long an idle worker spins before sleeping. */
#define HW_WORKER_SPIN_NS 50000u
/* How long the command processor keeps taking CTAs of a launch it handed
 * to the workers (waking a sleeping worker takes tens of microseconds on
 * a busy VM), before it returns to its channels; only where the workers
 * leave it a CPU (hw_eu.cp_helps). */
#define HW_CP_HELP_NS 100000u
/* How long at most it runs such a launch's CTAs before it wakes sleeping
 * workers (a quarter of it, unless at its pace the rest fits: `fits`): a
 * launch it finishes sooner costs no system call, and no woken threads
 * competing with it for the cores. */
#define HW_CP_SOLO_NS 20000u

static const uint32_t widths[4] = {8, 16, 32, 64};

static int width_index(uint32_t w)
{
   for (int i = 0; i < 4; i++) {
      if (widths[i] == w)
         return i;
   }
   return -1;
}

/* ---- interpreter selection ------------------------------------------------ */

/* The interpreter tier by name: "avx512", "avx2" or "generic". */
static void set_tier(struct hw_eu *eu, const char *variant)
{
   eu->variant = variant;
#define TIER(isa)                                                              \
   eu->interp[0] = hw_interp_w8_##isa, eu->interp[1] = hw_interp_w16_##isa; \
   eu->interp[2] = hw_interp_w32_##isa, eu->interp[3] = hw_interp_w64_##isa
#if defined(__x86_64__)
   if (strcmp(variant, "avx512") == 0) {
      TIER(avx512);
      return;
   }
   if (strcmp(variant, "avx2") == 0) {
      TIER(avx2);
      return;
   }
#endif
   eu->variant = "generic";
   TIER(generic);
#undef TIER
}

/* The best tier the host runs, asked of the CPU at run time: the build
 * assumes no vector extension. Only x86-64 builds the AVX tiers
 * (hw/CMakeLists.txt); elsewhere (64-bit Arm) the portable one runs. */
static const char *host_tier(void)
{
#if defined(__x86_64__)
   __builtin_cpu_init();
   if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
      return "avx512";
   if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      return "avx2";
#endif
   return "generic";
}

static void select_interpreters(struct hw_eu *eu, const struct hw_gpu_config *cfg)
{
   set_tier(eu, host_tier());
   const char *force = getenv("SOFTGPU_INTERP");
   /* The AVX2 tier on an AVX-512 host (and the native tier's ymm code:
    * hw_jit_compile), as a host without AVX-512 runs it. */
   if (force && strcmp(force, "avx2") == 0 && strcmp(eu->variant, "avx512") == 0)
      set_tier(eu, "avx2");
   if (force && strcmp(force, "generic") == 0)
      set_tier(eu, "generic");
   /* The portable interpreter is the reference: nothing compiled with it. */
   eu->jit = !cfg->interpret_only && strcmp(eu->variant, "generic") != 0 && hw_jit_supported();
   eu->jit_perf_map = cfg->jit_perf_map;
}

/* ---- programs ------------------------------------------------------------- */

static void program_unref(struct hw_program *p)
{
   if (atomic_fetch_sub(&p->refs, 1) == 1) {
      hw_jit_free(p->jit);
      free(p->code);
      free(p->lines);
      free(p);
   }
}

/* The end of the program's prefix that runs once with the initial masks:
 * its first control-flow instruction, or an earlier branch target. */
static uint32_t straight_prefix(const struct isa_inst *code, uint32_t n)
{
   uint32_t end = n;
   for (uint32_t pc = 0; pc < n; pc++) {
      enum isa_op op = (enum isa_op)code[pc].op;
      if (isa_op_info[op].cls != ISA_CLASS_FLOW)
         continue;
      end = pc < end ? pc : end;
      bool targetless = op == ISA_OP_EXIT || op == ISA_OP_LOOP || op == ISA_OP_ENDIF ||
                        op == ISA_OP_SWITCH || op == ISA_OP_ENDSWITCH;
      if (!targetless && code[pc].imm < end)
         end = code[pc].imm;
   }
   return end;
}

/*
 * Registers start at zero (the tests pin it down: a lane past the CTA's
 * end reads 0 through SHFL). Zeroing a CTA's whole register file cost more
 * than a short kernel's work (12 KiB per CTA of 256 for the stream
 * benchmark at W=32), so only registers whose initial value can be seen
 * are zeroed: those read and not written by the straight prefix (see
 * straight_prefix(): code[0..end)), plus those the prefix reads before
 * writing. A register the prefix writes holds the written value in every
 * live lane; lanes past the CTA's end are never active, and only SHFL and
 * BCAST read other lanes, so programs that use them zero every vector
 * register. The
 * same goes for uniform registers (a compiled shader writes all of its
 * before reading them: no memset per CTA).
 */
static void find_zeroed_registers(struct hw_program *p, const struct isa_inst *code, uint32_t end)
{
   uint32_t n = p->header.inst_count;
   uint64_t written[2][ISA_MAX_VREGS / 64] = {{0}};   /* vector, uniform */
   uint64_t *zero[2] = {p->zero_vregs, p->zero_uregs};
   for (uint32_t pc = 0; pc < n; pc++) {
      const struct isa_inst *in = &code[pc];
      enum isa_op op = (enum isa_op)in->op;
      if (op == ISA_OP_SHFL || op == ISA_OP_BCAST)
         p->zero_all = true;
      const uint16_t ops[4] = {in->dst, in->a, in->b, in->c};
      for (int k = 0; k < 4; k++) {
         enum isa_operand_kind kind = isa_opnd_kind(ops[k]);
         if ((kind != ISA_OPND_VREG && kind != ISA_OPND_UREG) || (k == 0 && isa_writes_dst(in)))
            continue;
         int u = kind == ISA_OPND_UREG;
         uint32_t r = isa_opnd_index(ops[k]), span = isa_operand_span(op, in->mod, k);
         for (uint32_t j = r; j < r + span && j < ISA_MAX_VREGS; j++) {
            if (!hw_bit_test(written[u], j))
               hw_bit_set(zero[u], j);
         }
      }
      enum isa_operand_kind dk = isa_opnd_kind(in->dst);
      if (pc < end && isa_writes_dst(in) && (dk == ISA_OPND_VREG || dk == ISA_OPND_UREG)) {
         int u = dk == ISA_OPND_UREG;
         uint32_t r = isa_opnd_index(in->dst), span = isa_operand_span(op, in->mod, 0);
         for (uint32_t j = r; j < r + span && j < ISA_MAX_VREGS; j++)
            hw_bit_set(written[u], j);
      }
   }
   for (uint32_t i = 0; i < ISA_MAX_VREGS / 64; i++)
      p->zero_some_vregs |= p->zero_vregs[i] != 0;
   for (uint32_t i = 0; i < ISA_MAX_UREGS / 64; i++)
      p->zero_some_uregs |= p->zero_uregs[i] != 0;
}

/* An instruction's handler: a special form when the interpreter has one
 * for its operand kinds (see hw_interp.h), else the general one. The
 * vector form takes a vector destination and vector sources, the uniform
 * form a uniform destination and uniform or immediate sources. */
static const void *handler_for(const void *const *labels, const struct isa_inst *in)
{
   const uint16_t sources[3] = {in->a, in->b, in->c};
   bool vector = isa_opnd_kind(in->dst) == ISA_OPND_VREG;
   bool uniform = isa_opnd_kind(in->dst) == ISA_OPND_UREG;
   for (uint32_t k = 0; k < isa_op_info[in->op].sources && k < 3; k++) {
      enum isa_operand_kind kind = isa_opnd_kind(sources[k]);
      vector = vector && kind == ISA_OPND_VREG;
      uniform = uniform && (kind == ISA_OPND_UREG || kind == ISA_OPND_IMM);
   }
   enum hw_form form = vector ? HW_FORM_VECTOR : uniform ? HW_FORM_UNIFORM : HW_FORM_ANY;
   const void *special = labels[form * ISA_OP_COUNT + in->op];
   return special ? special : labels[HW_FORM_ANY * ISA_OP_COUNT + in->op];
}

/* Reads, validates and decodes a program from GPU memory; NULL and a
 * message on failure. */
static struct hw_program *decode(struct hw_gpu *gpu, uint64_t va, uint64_t id, char *err,
                                 size_t err_size)
{
   const struct isa_program_header *h = hw_mem_check(&gpu->mem, va, sizeof(*h));
   if (!h || (va & 3)) {
      snprintf(err, err_size, "program at 0x%llx is not in GPU memory", (unsigned long long)va);
      return NULL;
   }
   uint64_t size = sizeof(*h) + (uint64_t)h->inst_count * sizeof(struct isa_inst) +
                   (uint64_t)h->line_count * sizeof(struct isa_line);
   if (h->inst_count > (1u << 24) || h->line_count > (1u << 24) ||
       !hw_mem_check(&gpu->mem, va, size)) {
      snprintf(err, err_size, "program at 0x%llx: its %u instructions are not in GPU memory",
               (unsigned long long)va, h->inst_count);
      return NULL;
   }
   if (!isa_program_validate(h, size, err, err_size))
      return NULL;
   int wi = width_index(h->warp_width);
   struct hw_program *p = calloc(1, sizeof(*p));
   const void *labels[HW_INTERP_LABELS];
   if (p)
      p->code = malloc(((size_t)h->inst_count + 1) * sizeof(*p->code));
   if (p && h->line_count)
      p->lines = malloc(h->line_count * sizeof(*p->lines));
   if (!p || !p->code || (h->line_count && !p->lines)) {
      snprintf(err, err_size, "out of host memory decoding a program");
      if (p) {
         free(p->code);
         free(p);
      }
      return NULL;
   }
   gpu->eu.interp[wi](NULL, NULL, labels);
   p->va = va;
   p->id = id;
   p->header = *h;
   const struct isa_inst *code = (const struct isa_inst *)(h + 1);
   for (uint32_t pc = 0; pc < h->inst_count; pc++)
      p->code[pc] = (struct hw_dinst){handler_for(labels, &code[pc]), code[pc], NULL};
   /* Running off the end exits. */
   struct isa_inst exit = {.op = ISA_OP_EXIT, .dst = ISA_NONE, .a = ISA_NONE, .b = ISA_NONE,
                           .c = ISA_NONE};
   p->code[h->inst_count] = (struct hw_dinst){labels[ISA_OP_EXIT], exit, NULL};
   uint32_t prefix_end = straight_prefix(code, h->inst_count);
   if (gpu->eu.jit) {
      struct hw_jit_counts n;
      bool avx512 = strcmp(gpu->eu.variant, "avx512") == 0;
      p->jit = hw_jit_compile(p->code, h->inst_count, prefix_end, h->warp_width, avx512,
                              labels[HW_LABEL_JIT], gpu->eu.jit_perf_map, id, &n);
      atomic_fetch_add_explicit(&gpu->eu.jit_blocks, n.blocks, memory_order_relaxed);
      atomic_fetch_add_explicit(&gpu->eu.jit_wide, n.wide, memory_order_relaxed);
      atomic_fetch_add_explicit(&gpu->eu.jit_stepped, n.stepped, memory_order_relaxed);
   }
   if (h->line_count)
      memcpy(p->lines, code + h->inst_count, h->line_count * sizeof(*p->lines));
   find_zeroed_registers(p, code, prefix_end);
   atomic_store(&p->refs, 1);   /* the cache's */
   return p;
}

/* Drops the least recently used unreferenced programs while the cache is
 * over its size (the list is in most-recently-used order); cache lock
 * held. Programs still running keep their place. */
static void trim_cache(struct hw_eu *eu)
{
   while (eu->program_count > HW_PROGRAM_CACHE) {
      struct hw_program **victim = NULL;
      for (struct hw_program **pp = &eu->programs; *pp; pp = &(*pp)->next) {
         if (atomic_load(&(*pp)->refs) == 1)
            victim = pp;
      }
      if (!victim)
         return;
      struct hw_program *p = *victim;
      *victim = p->next;
      eu->program_count--;
      program_unref(p);
   }
}

/* The decoded program for (va, id), with a reference for the caller. The
 * reference is taken before trimming, so the new program is never the one
 * evicted. */
static struct hw_program *get_program(struct hw_gpu *gpu, uint64_t va, uint64_t id, char *err,
                                      size_t err_size)
{
   struct hw_eu *eu = &gpu->eu;
   pthread_mutex_lock(&eu->cache_lock);
   struct hw_program **pp = &eu->programs;
   while (*pp && ((*pp)->va != va || (*pp)->id != id))
      pp = &(*pp)->next;
   struct hw_program *p = *pp;
   if (p) {
      *pp = p->next;   /* move to the front: most recently used */
      p->next = eu->programs;
      eu->programs = p;
      atomic_fetch_add(&p->refs, 1);
   } else {
      p = decode(gpu, va, id, err, err_size);
      if (p) {
         atomic_fetch_add(&p->refs, 1);
         p->next = eu->programs;
         eu->programs = p;
         eu->program_count++;
         trim_cache(eu);
      }
   }
   pthread_mutex_unlock(&eu->cache_lock);
   return p;
}

/* The program of a launch on the command processor, borrowed: the command
 * processor keeps a reference to the program of its last launch, so that
 * consecutive launches of one pipeline (the common case) skip the cache's
 * lock, lookup and reference counting. That program cannot be evicted
 * meanwhile (trim_cache skips programs in use); its place in the cache's
 * recency order is refreshed only when the command processor switches. */
static struct hw_program *cp_program(struct hw_gpu *gpu, uint64_t va, uint64_t id, char *err,
                                     size_t err_size)
{
   struct hw_eu *eu = &gpu->eu;
   struct hw_program *p = eu->cp_program;
   if (p && p->va == va && p->id == id)
      return p;
   p = get_program(gpu, va, id, err, err_size);
   if (!p)
      return NULL;
   if (eu->cp_program)
      program_unref(eu->cp_program);
   eu->cp_program = p;
   return p;
}

/* ---- CTA contexts ------------------------------------------------------------ */

static bool grow(void **buf, size_t *have, size_t need)
{
   if (*have >= need)
      return true;
   free(*buf);
   *buf = NULL;
   *have = 0;
   void *p = NULL;
   if (posix_memalign(&p, 64, need ? need : 64) != 0)
      return false;
   memset(p, 0, need ? need : 64);   /* registers not zeroed per CTA hold values, not garbage */
   *buf = p;
   *have = need;
   return true;
}

static void context_free(struct hw_eu_context *c)
{
   free(c->vregs);
   free(c->uregs);
   free(c->stacks);
   free(c->lane_masks);
   free(c->warps);
   free(c->shared);
   free(c->private_mem);
   /* The counters and the track outlive the buffers: the stats are read
    * after the workers stop. */
   c->vregs = c->uregs = NULL;
   c->stacks = NULL;
   c->lane_masks = NULL;
   c->warps = NULL;
   c->shared = c->private_mem = NULL;
   c->vreg_bytes = c->ureg_bytes = c->stack_bytes = c->mask_bytes = c->warp_bytes = 0;
   c->shared_size = c->private_size = 0;
   c->shape.warp_width = 0;
}

/* Adds to a counter only its owner writes: no read-modify-write needed. */
static void counter_add(_Atomic uint64_t *c, uint64_t n)
{
   atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n,
                         memory_order_relaxed);
}

/* A CTA ended: its counts go to the worker's counters, once per CTA. */
static void count_cta(struct hw_eu_context *c, const struct hw_cta *cta, bool completed)
{
   counter_add(&c->counters.ctas, completed);
   counter_add(&c->counters.warp_instructions, cta->insts);
   counter_add(&c->counters.global_bytes, cta->global_bytes);
   counter_add(&c->counters.barrier_waits, cta->barrier_waits);
   counter_add(&c->counters.jit_exits, cta->jit_exits);
   counter_add(&c->counters.jit_insts, cta->jit_insts);
   counter_add(&c->counters.jit_sweeps, cta->jit_sweeps);
}

/* The first register from r on (below limit) whose bit in `which` is
 * `set`; limit if none. */
static uint32_t next_register(const uint64_t *which, uint32_t r, uint32_t limit, bool set)
{
   while (r < limit) {
      uint64_t m = (set ? which[r / 64] : ~which[r / 64]) >> (r % 64);
      if (m) {
         r += (uint32_t)__builtin_ctzll(m);
         return r < limit ? r : limit;
      }
      r = (r / 64 + 1) * 64;
   }
   return limit;
}

/* Zeroes the registers in `which` (those below count) of every warp, one
 * memset per warp and run of consecutive registers: nothing at all for the
 * many programs whose set is empty. */
static void zero_registers(uint32_t *vregs, const uint64_t *which, uint32_t warps, uint32_t count,
                           uint32_t w)
{
   for (uint32_t r = next_register(which, 0, count, true); r < count;) {
      uint32_t end = next_register(which, r, count, false);
      for (uint32_t i = 0; i < warps; i++)
         memset(vregs + ((size_t)i * count + r) * w, 0, (size_t)(end - r) * w * 4);
      r = next_register(which, end, count, true);
   }
}

/* The lanes warp i of the context's layout starts with: all W, but the
 * last warp's live ones. */
static uint64_t warp_live(const struct hw_eu_context *c, uint32_t i, uint32_t w)
{
   return i + 1 < c->warp_count ? (w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1)
                                : c->last_live;
}

/* lane_mask mirrors exec (the interpreter keeps it so: hw_interp.c's
 * set_exec): -1 in the lanes that run, 0 elsewhere. */
static void fill_lane_mask(int32_t *lane_mask, uint64_t exec, uint32_t w)
{
   for (uint32_t l = 0; l < w; l++)
      lane_mask[l] = -(int32_t)((exec >> l) & 1u);
}

/* Lays the context's buffers out for CTAs of `shape`: sizes them, points
 * each warp at its registers, stack and lane mask. False if out of memory
 * (nothing is laid out then). */
static bool lay_out(struct hw_eu_context *c, const struct hw_cta_shape *shape)
{
   uint32_t w = shape->warp_width, vregs = shape->vregs, uregs = shape->uregs;
   uint32_t depth = shape->stack_depth;
   /* Warp widths are powers of two: no division. */
   uint32_t warps = (shape->invocations + w - 1) >> __builtin_ctz(w);
   c->shape.warp_width = 0;
   if (!grow((void **)&c->vregs, &c->vreg_bytes, (size_t)warps * vregs * w * 4) ||
       !grow((void **)&c->uregs, &c->ureg_bytes, (size_t)warps * uregs * 4) ||
       !grow((void **)&c->stacks, &c->stack_bytes, (size_t)warps * depth * sizeof(*c->stacks)) ||
       !grow((void **)&c->lane_masks, &c->mask_bytes, (size_t)warps * w * 4) ||
       !grow((void **)&c->warps, &c->warp_bytes, (size_t)warps * sizeof(*c->warps)) ||
       !grow((void **)&c->shared, &c->shared_size, shape->shared_bytes) ||
       !grow((void **)&c->private_mem, &c->private_size,
             (size_t)warps * w * shape->private_bytes))
      return false;
   uint32_t lanes = shape->invocations - (warps - 1) * w;
   c->last_live = lanes == 64 ? UINT64_MAX : (UINT64_C(1) << lanes) - 1;
   c->warp_count = warps;
   for (uint32_t i = 0; i < warps; i++) {
      struct hw_warp *wp = &c->warps[i];
      *wp = (struct hw_warp){.exec = warp_live(c, i, w), .index = i,
                             .v = c->vregs + (size_t)i * vregs * w, .u = c->uregs + (size_t)i * uregs,
                             .stack = c->stacks + (size_t)i * depth,
                             .lane_mask = c->lane_masks + (size_t)i * w};
      fill_lane_mask(wp->lane_mask, wp->exec, w);
   }
   c->shape = *shape;
   return true;
}

/* The shape of l's CTAs. */
static struct hw_cta_shape cta_shape(const struct hw_launch *l)
{
   const struct isa_program_header *h = &l->prog->header;
   return (struct hw_cta_shape){
      .warp_width = h->warp_width,
      .invocations = l->params.size[0] * l->params.size[1] * l->params.size[2],
      .vregs = h->vreg_count ? h->vreg_count : 1, .uregs = h->ureg_count ? h->ureg_count : 1,
      .stack_depth = h->stack_depth ? h->stack_depth : 1,
      .shared_bytes = l->params.shared_bytes, .private_bytes = l->params.private_bytes};
}

/* Sets up one CTA of a launch in the context. Consecutive CTAs of one
 * shape (every CTA of a launch, and often consecutive launches) keep the
 * layout: only what running a CTA changes is reset. */
static bool setup_cta(struct hw_eu_context *c, const struct hw_launch *l, struct hw_cta *cta)
{
   const struct isa_program_header *h = &l->prog->header;
   const struct hw_cta_shape shape = l->shape;
   if (memcmp(&l->shape, &c->shape, sizeof(shape)) != 0 && !lay_out(c, &l->shape))
      return false;
   uint32_t w = shape.warp_width, warps = c->warp_count;
   /* Registers start at zero, where the program can tell. */
   if (l->prog->zero_all)
      memset(c->vregs, 0, (size_t)warps * shape.vregs * w * 4);
   else if (l->prog->zero_some_vregs)
      zero_registers(c->vregs, l->prog->zero_vregs, warps, shape.vregs, w);
   if (l->prog->zero_some_uregs)   /* the two calls were 2.6% of bench_eu stream's time */
      zero_registers(c->uregs, l->prog->zero_uregs, warps, shape.uregs, 1);
   /* Zero-initialized workgroup variables (shaderZeroInitializeWorkgroupMemory). */
   if (h->flags & ISA_PROG_ZERO_SHARED)
      memset(c->shared, 0, shape.shared_bytes);
   /* Field by field rather than a compound literal, which would clear the
    * fault record's 256 bytes of text for every CTA: only a fault writes
    * it, and fault.set says whether it holds anything. */
   cta->prog = l->prog;
   cta->params = &l->params;
   cta->mem = NULL;
   cta->shared = c->shared;
   cta->private_mem = c->private_mem;
   cta->warp_count = warps;
   cta->warps = c->warps;
   cta->warps_end = c->warps + warps;
   cta->budget = HW_WARP_BUDGET;
   cta->insts = cta->global_bytes = cta->jit_exits = cta->jit_insts = cta->barrier_waits = 0;
   cta->jit_sweeps = 0;
   cta->current = 0;
   cta->sweeping = cta->chained = 0;
   memset(cta->pages, 0xff, sizeof(cta->pages));
   cta->root_lo = INT64_MAX;
   cta->root_hi = INT64_MIN;
   cta->fault.set = false;
   /* What the interpreter changes, whichever way the last CTA ended (exit,
    * barrier, fault); the lane mask only where exec changed. */
   for (uint32_t i = 0; i < warps; i++) {
      struct hw_warp *wp = &c->warps[i];
      uint64_t live = warp_live(c, i, w);
      wp->pc = wp->sp = wp->barrier_pc = 0;
      wp->state = HW_WARP_RUNNING;
      wp->tile_known = 0;
      wp->alive = live;
      if (wp->exec != live) {
         wp->exec = live;
         fill_lane_mask(wp->lane_mask, live, w);
      }
   }
   return true;
}

/* ---- running CTAs ---------------------------------------------------------------- */

static uint32_t source_line(const struct hw_program *p, uint32_t pc)
{
   uint32_t line = 0;
   for (uint32_t i = 0; i < p->header.line_count && p->lines[i].pc <= pc; i++)
      line = p->lines[i].line;
   return line;
}

static void report_fault(struct hw_launch *l, const struct hw_cta *cta, const char *what,
                         uint32_t warp, uint32_t lane, uint32_t pc)
{
   char text[128] = "";
   if (pc <= l->prog->header.inst_count)
      isa_disassemble(&l->prog->code[pc].in, text, sizeof(text));
   char lane_text[32] = "";
   if (lane != UINT32_MAX)
      snprintf(lane_text, sizeof(lane_text), ", lane %u", lane);
   char line_text[32] = "";
   uint32_t line = source_line(l->prog, pc);
   if (line)
      snprintf(line_text, sizeof(line_text), " (source line %u)", line);
   hw_gpu_fault(l->ch->gpu, l->ch,
                "%s\n  launch #%llu (descriptor 0x%llx, program 0x%llx id %llu, grid %ux%ux%u of "
                "%ux%ux%u, W=%u), CTA (%u,%u,%u), warp %u%s, pc %u: %s%s",
                what, (unsigned long long)l->number, (unsigned long long)l->desc_va,
                (unsigned long long)l->prog->va, (unsigned long long)l->prog->id,
                l->params.grid[0], l->params.grid[1], l->params.grid[2], l->params.size[0],
                l->params.size[1], l->params.size[2], l->prog->header.warp_width,
                cta->group[0], cta->group[1], cta->group[2], warp, lane_text, pc, text, line_text);
}

/* All live warps wait at a barrier: release them if it is the same one. */
static bool release_barrier(struct hw_launch *l, struct hw_cta *cta)
{
   uint32_t pc = UINT32_MAX;
   bool some_exited = false;
   for (uint32_t i = 0; i < cta->warp_count; i++) {
      struct hw_warp *wp = &cta->warps[i];
      if (wp->state == HW_WARP_EXITED) {
         some_exited = true;
         continue;
      }
      if (pc != UINT32_MAX && wp->barrier_pc != pc) {
         char what[128];
         snprintf(what, sizeof(what), "two different barriers (pc %u and pc %u) reached by one "
                  "workgroup", pc, wp->barrier_pc);
         report_fault(l, cta, what, i, UINT32_MAX, wp->barrier_pc);
         return false;
      }
      pc = wp->barrier_pc;
   }
   if (some_exited && !atomic_exchange(&l->prog->barrier_warned, true))
      SG_LOG(SG_LOG_WARN, SG_AREA_EU, "program 0x%llx: invocations that returned count as "
             "arrived at the barrier at pc %u", (unsigned long long)l->prog->va, pc);
   for (uint32_t i = 0; i < cta->warp_count; i++) {
      if (cta->warps[i].state == HW_WARP_AT_BARRIER)
         cta->warps[i].state = HW_WARP_RUNNING;
   }
   return true;
}

/* The watchdog measures how long a launch has been running, not how long it
 * waited behind earlier launches: start_ns is set by whoever takes its first
 * CTAs (mark_started, run_inline), before running any of them. Its clock is
 * the coarse one (a precise start time was 3.5% of a one-workgroup launch):
 * both readings lag by up to the clock's resolution, so the budget is
 * stretched by one resolution and the watchdog never fires early, and
 * late by at most two. */
static bool watchdog_expired(struct hw_launch *l)
{
   const struct hw_gpu *gpu = l->ch->gpu;
   return hw_coarse_ns() - atomic_load_explicit(&l->start_ns, memory_order_relaxed) >
          gpu->watchdog_ns + gpu->watchdog_slack_ns;
}

static void mark_started(struct hw_launch *l)
{
   uint64_t zero = 0;
   if (atomic_load_explicit(&l->start_ns, memory_order_relaxed) == 0)
      atomic_compare_exchange_strong(&l->start_ns, &zero, hw_coarse_ns());
}

/* Runs one CTA's warps, barrier to barrier, until all exit. False if it
 * faulted (the GPU is then lost). The interpreter goes on from a warp at a
 * barrier or exited to the next running one itself (cta->current), and
 * releases a barrier every warp waits at, so a CTA is usually one call;
 * the sweep here releases the rest (some invocations exited) or reports
 * two different barriers. */
static bool run_warps(struct hw_launch *l, struct hw_cta *cta)
{
   struct hw_gpu *gpu = l->ch->gpu;
   /* Widths 8, 16, 32, 64 (the program was validated): interp[0..3]. */
   hw_interp_fn run = gpu->eu.interp[__builtin_ctz(l->prog->header.warp_width) - 3];
   for (;;) {
      for (uint32_t i = 0; i < cta->warp_count; i++) {
         struct hw_warp *wp = &cta->warps[i];
         while (wp->state == HW_WARP_RUNNING) {
            cta->current = i;
            enum hw_run_status s = run(cta, wp, NULL);
            cta->insts++;   /* the instruction each call starts with */
            i = cta->current;
            wp = &cta->warps[i];
            if (s == HW_RUN_FAULT) {
               report_fault(l, cta, cta->fault.what, cta->fault.warp, cta->fault.lane,
                            cta->fault.pc);
               return false;
            }
            if (s == HW_RUN_YIELD) {
               cta->budget = HW_WARP_BUDGET;
               if (hw_gpu_is_lost(gpu))
                  return false;
               if (watchdog_expired(l)) {
                  char what[128];
                  snprintf(what, sizeof(what), "watchdog: the launch has run for more than %llu ms",
                           (unsigned long long)(gpu->watchdog_ns / 1000000));
                  report_fault(l, cta, what, i, UINT32_MAX, wp->pc);
                  return false;
               }
            }
         }
      }
      uint32_t waiting = 0;
      for (uint32_t i = 0; i < cta->warp_count; i++)
         waiting += cta->warps[i].state == HW_WARP_AT_BARRIER;
      if (!waiting)
         return true;   /* every warp exited */
      if (!release_barrier(l, cta))
         return false;
   }
}

/* Runs one CTA to completion. False if it faulted (the GPU is then lost). */
static bool run_cta(struct hw_eu_context *c, struct hw_launch *l, uint64_t index)
{
   struct hw_gpu *gpu = l->ch->gpu;
   struct hw_cta cta;
   if (!setup_cta(c, l, &cta)) {
      hw_gpu_fault(gpu, l->ch, "out of host memory for a CTA of launch #%llu",
                   (unsigned long long)l->number);
      return false;
   }
   cta.mem = &gpu->mem;
   /* The CTA's coordinates, dividing only when the index leaves a row
    * (or the row leaves a plane): a 64-bit division costs tens of cycles,
    * as much as a small CTA's setup. */
   const uint32_t *g = l->params.grid;
   uint64_t x = index, y = 0, z = 0;
   if (x >= g[0]) {
      y = x / g[0];
      x -= y * g[0];
   }
   if (y >= g[1]) {
      z = y / g[1];
      y -= z * g[1];
   }
   cta.group[0] = l->params.base[0] + (uint32_t)x;
   cta.group[1] = l->params.base[1] + (uint32_t)y;
   cta.group[2] = l->params.base[2] + (uint32_t)z;
   bool ok = run_warps(l, &cta);
   count_cta(c, &cta, ok);
   return ok;
}

/* ---- the launch list and the workers --------------------------------------------- */

static void launch_unref(struct hw_launch *l)
{
   if (atomic_fetch_sub(&l->refs, 1) == 1) {
      program_unref(l->prog);
      free(l);
   }
}

/* The execution units' counters, sampled into the trace at each launch's
 * completion. */
static void trace_counters(struct hw_gpu *gpu)
{
   struct hw_gpu_stats st;
   hw_eu_get_stats(gpu, &st);
   uint32_t pid = SG_TRACE_GPU_PID(gpu->index);
   uint64_t t = sg_trace_now();
   sg_trace_counter(pid, "launches", t, st.launches);
   sg_trace_counter(pid, "CTAs", t, st.ctas);
   sg_trace_counter(pid, "warp instructions", t, st.warp_instructions);
   sg_trace_counter(pid, "global memory bytes", t, st.global_bytes);
   sg_trace_counter(pid, "barrier waits", t, st.barrier_waits);
}

/* During long launches, the counters are also sampled every millisecond
 * or so, by whichever worker finishes a batch first after that. */
#define TRACE_SAMPLE_NS 1000000u

static void maybe_trace_counters(struct hw_gpu *gpu)
{
   uint64_t now = sg_trace_now();
   uint64_t last = atomic_load_explicit(&gpu->eu.trace_sampled_ns, memory_order_relaxed);
   if (now - last >= TRACE_SAMPLE_NS &&
       atomic_compare_exchange_strong_explicit(&gpu->eu.trace_sampled_ns, &last, now,
                                               memory_order_relaxed, memory_order_relaxed))
      trace_counters(gpu);
}

/* The last CTA is done: the channel may pass its WAIT_FOR_IDLE. */
static void complete(struct hw_gpu *gpu, struct hw_launch *l)
{
   struct hw_eu *eu = &gpu->eu;
   pthread_mutex_lock(&eu->lock);
   struct hw_launch **pp = &eu->head, *prev = NULL;
   while (*pp && *pp != l) {
      prev = *pp;
      pp = &(*pp)->next_launch;
   }
   if (*pp) {
      *pp = l->next_launch;
      if (eu->tail == l)
         eu->tail = prev;
   }
   pthread_mutex_unlock(&eu->lock);
   if (sg_trace_on())
      trace_counters(gpu);
   atomic_fetch_sub_explicit(&l->ch->launches_pending, 1, memory_order_release);
   hw_engine_kick(l->ch->engine);
   launch_unref(l);   /* the list's reference */
}

/* One span per worker per launch: the CTAs it ran, from the first it took
 * to the end of the last (on the launching channel's track when the
 * command processor ran them inline, inside the LAUNCH packet's span). */
struct cta_span {
   uint64_t t0, first, count;
};

static void trace_ctas(const struct hw_eu_context *c, const struct hw_launch *l,
                       const struct cta_span *sp)
{
   if (!sp->count)
      return;
   const struct sg_trace_arg args[] = {
      {"launch", l->number}, {"first_cta", sp->first}, {"ctas", sp->count}};
   sg_trace_span(c->trace_track ? c->trace_track : l->ch->trace_track, "CTAs", sp->t0,
                 sg_trace_now(), args, 3);
}

static void span_add(struct cta_span *sp, uint64_t first, uint64_t last)
{
   if (!sg_trace_on())
      return;
   if (!sp->count) {
      sp->t0 = sg_trace_now();
      sp->first = first;
   }
   sp->first = first < sp->first ? first : sp->first;
   sp->count += last - first;
}

/* How many CTAs to take next: `batch` at most, and less towards the end of
 * the launch (guided self-scheduling: a share of what is left), so the
 * workers finish together rather than one running a whole batch while the
 * others have nothing left (in bench_compute's barrier loop, batches of 32
 * CTAs of 110 us: the workers ended up to 80 us apart; guided, 4% more
 * Mop/s). Best effort: another worker may take CTAs between this look and
 * the fetch-add, which only makes the share slightly big. */
static uint64_t guided(const struct hw_launch *l, uint64_t batch, uint32_t sharers)
{
   uint64_t seen = atomic_load_explicit(&l->next, memory_order_relaxed);
   uint64_t share = seen < l->total ? (l->total - seen) / (2 * (uint64_t)sharers) : 0;
   return share < 1 ? 1 : share > batch ? batch : share;
}

/* Runs CTAs of l until none is left to take, or until `deadline`
 * (hw_now_ns; UINT64_MAX: none) has passed when it would take more: at
 * least one batch, whenever it is called. */
static void work_on(struct hw_eu_context *c, struct hw_launch *l, uint64_t batch,
                    uint64_t deadline)
{
   struct cta_span span = {0};
   struct hw_gpu *gpu = l->ch->gpu;
   uint32_t sharers = gpu->eu.worker_count ? gpu->eu.worker_count : 1;
   for (bool again = false;; again = true) {
      if (again && deadline != UINT64_MAX && hw_now_ns() >= deadline)
         break;
      uint64_t first, take = guided(l, batch, sharers);
      first = atomic_fetch_add(&l->next, take);
      if (first >= l->total)
         break;
      uint64_t last = first + take < l->total ? first + take : l->total;
      mark_started(l);
      span_add(&span, first, last);
      for (uint64_t i = first; i < last; i++) {
         if (hw_gpu_is_lost(gpu) || !run_cta(c, l, i)) {
            /* Nothing more of it runs. This worker accounts for its whole
             * batch and for the CTAs nobody has taken yet; workers running
             * batches taken earlier account for theirs, so the last one to
             * finish completes the launch. */
            uint64_t taken = atomic_exchange(&l->next, l->total);
            uint64_t untaken = l->total - (taken > l->total ? l->total : taken);
            uint64_t count = (last - first) + untaken;
            trace_ctas(c, l, &span);
            if (atomic_fetch_add(&l->done, count) + count == l->total)
               complete(gpu, l);
            return;
         }
         hw_inject_delay(&gpu->inject.eu, &c->rng);
      }
      /* When this batch looks like the launch's last (a relaxed look: best
       * effort), the span is recorded before the launch completes, so it
       * does not end after the release that waited for the launch. */
      if (span.count && atomic_load_explicit(&l->done, memory_order_relaxed) + (last - first) ==
                           l->total) {
         trace_ctas(c, l, &span);
         span.count = 0;
      }
      if (atomic_fetch_add(&l->done, last - first) + (last - first) == l->total)
         complete(gpu, l);
      else if (sg_trace_on())
         maybe_trace_counters(gpu);
   }
   trace_ctas(c, l, &span);
}

/* The oldest launch with CTAs left, with a reference. */
static struct hw_launch *pick(struct hw_eu *eu)
{
   pthread_mutex_lock(&eu->lock);
   struct hw_launch *l = eu->head;
   while (l && atomic_load(&l->next) >= l->total)
      l = l->next_launch;
   if (l)
      atomic_fetch_add(&l->refs, 1);
   pthread_mutex_unlock(&eu->lock);
   return l;
}

/* A worker's batch: an eighth of its share of the launch, at most
 * HW_BATCH_MAX CTAs. A batch is a stretch of consecutive CTAs, and so of
 * memory where they stream through it: at each batch's start the host's
 * prefetchers and the compiled blocks' (4 KiB ahead) have not been there
 * yet, and at its end the blocks' prefetches reach the next worker's
 * batch. bench_eu stream (16M floats in CTAs of 1 KiB per array): batches
 * of 16 CTAs -16% against 64; of 256 +2.4% (13 alternating pairs), of
 * 1024 +2% and +7% (9 and 13 rounds; none in a run of 5); 1024, 4096 and
 * 65536 as 256. */
#define HW_BATCH_MAX 256u

static uint64_t batch_size(const struct hw_eu *eu, const struct hw_launch *l)
{
   uint64_t b = l->total / ((uint64_t)eu->worker_count * 8);
   return b < 1 ? 1 : b > HW_BATCH_MAX ? HW_BATCH_MAX : b;
}

/* A worker with a CPU of its own (hw_eu_start) moves there. Left to
 * itself, the scheduler sometimes wakes both workers onto one CPU, the
 * other being busy with the waker at that instant, and leaves them there
 * for milliseconds: a 1 ms launch then took 1.8 ms, in 15% of
 * bench_compute's barrier submissions. */
static void pin(struct hw_worker *w)
{
   if (w->cpu < 0)
      return;
   cpu_set_t set;
   CPU_ZERO(&set);
   CPU_SET(w->cpu, &set);
   int r = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
   if (r != 0)
      SG_LOG(SG_LOG_WARN, SG_AREA_EU, "execution unit worker %u stays unpinned: %s", w->index,
             strerror(r));
}

static void *worker_main(void *arg)
{
   struct hw_worker *w = arg;
   struct hw_eu *eu = &w->gpu->eu;
   char name[16];
   snprintf(name, sizeof(name), "softgpu-eu%u.%u", w->gpu->index, w->index);
   pthread_setname_np(pthread_self(), name);
   /* It moves to its CPU when it first wakes or finds a launch, and spins
    * for a next launch only after a launch: a worker just started that
    * moved and spun there took the CPU from the thread creating the device
    * (vkCreateDevice 0.30 -> 0.34 ms). */
   bool worked = false, placed = false;
   while (!atomic_load_explicit(&eu->stop, memory_order_acquire)) {
      uint32_t seq = atomic_load_explicit(&eu->work_seq, memory_order_acquire);
      struct hw_launch *l = pick(eu);
      if (l) {
         if (!placed)
            pin(w), placed = true;
         work_on(&w->ctx, l, batch_size(eu, l), UINT64_MAX);
         launch_unref(l);
         worked = true;
         continue;
      }
      uint64_t until = worked ? hw_now_ns() + HW_WORKER_SPIN_NS : 0;
      for (uint32_t spins = 0; hw_now_ns() < until &&
                               atomic_load_explicit(&eu->work_seq, memory_order_acquire) == seq;)
         hw_spin_relax(&spins);
      atomic_fetch_add_explicit(&eu->sleepers, 1, memory_order_seq_cst);
      if (atomic_load_explicit(&eu->work_seq, memory_order_seq_cst) == seq &&
          !atomic_load_explicit(&eu->stop, memory_order_acquire))
         hw_futex_wait(&eu->work_seq, seq, 0);
      atomic_fetch_sub_explicit(&eu->sleepers, 1, memory_order_relaxed);
      if (!placed)
         pin(w), placed = true;
   }
   context_free(&w->ctx);
   return NULL;
}

/* Wakes the sleeping workers; after post(), which bumped work_seq (a
 * worker that registers as a sleeper after this load sees the new
 * work_seq and does not sleep). */
static void wake_workers(struct hw_eu *eu)
{
   if (atomic_load_explicit(&eu->sleepers, memory_order_seq_cst))
      hw_futex_wake(&eu->work_seq, (int)eu->worker_count);
}

/* Appends l to the launch list and bumps work_seq, which workers still
 * spinning see at once; sleeping ones need wake_workers(). True if no
 * earlier launch has CTAs left to take: l's are the next any worker takes.
 * (The launches before it whose CTAs are all taken are being run, at most
 * one per thread, so the walk is short.) */
static bool post(struct hw_gpu *gpu, struct hw_launch *l)
{
   struct hw_eu *eu = &gpu->eu;
   pthread_mutex_lock(&eu->lock);
   bool first = true;
   for (const struct hw_launch *p = eu->head; p && first; p = p->next_launch)
      first = atomic_load(&p->next) >= p->total;
   if (eu->tail)
      eu->tail->next_launch = l;
   else
      eu->head = l;
   eu->tail = l;
   pthread_mutex_unlock(&eu->lock);
   atomic_fetch_add_explicit(&eu->work_seq, 1, memory_order_seq_cst);
   return first;
}

/* ---- from the command processor ----------------------------------------------------- */

static bool read_descriptor(struct hw_channel *ch, uint64_t desc_va, bool indirect,
                            uint64_t grid_va, struct hw_launch_desc *d)
{
   struct hw_gpu *gpu = ch->gpu;
   const struct hw_launch_desc *p = hw_mem_check(&gpu->mem, desc_va, sizeof(*p));
   if (!p || (desc_va & 7)) {
      hw_gpu_fault(gpu, ch, "launch descriptor at 0x%llx is not in GPU memory",
                   (unsigned long long)desc_va);
      return false;
   }
   memcpy(d, p, sizeof(*d));
   if (indirect) {
      const uint32_t *g = hw_mem_check(&gpu->mem, grid_va, 12);
      if (!g || (grid_va & 3)) {
         hw_gpu_fault(gpu, ch, "indirect launch arguments at 0x%llx are not in GPU memory",
                      (unsigned long long)grid_va);
         return false;
      }
      for (int i = 0; i < 3; i++)
         d->grid[i] = atomic_load_explicit((_Atomic uint32_t *)&g[i], memory_order_relaxed);
   }
   return true;
}

static bool check_descriptor(struct hw_channel *ch, const struct hw_launch_desc *d,
                             const struct hw_program *p)
{
   uint64_t invocations = (uint64_t)d->size[0] * d->size[1] * d->size[2];
   const char *why = NULL;
   if (invocations == 0 || invocations > HW_MAX_CTA_INVOCATIONS || d->size[0] > HW_MAX_CTA_SIZE_X ||
       d->size[1] > HW_MAX_CTA_SIZE_Y || d->size[2] > HW_MAX_CTA_SIZE_Z)
      why = "CTA size out of range";
   else if (d->shared_bytes > HW_SHARED_MEMORY_PER_CTA)
      why = "too much shared memory";
   else if (d->private_bytes > HW_MAX_PRIVATE_BYTES)
      why = "too much private memory";
   else if (d->register_count < p->header.vreg_count)
      why = "fewer registers than the program uses";
   else if (d->grid[0] > HW_MAX_GRID_X || d->grid[1] > HW_MAX_GRID_Y || d->grid[2] > HW_MAX_GRID_Z)
      why = "grid out of range";
   if (!why)
      return true;
   hw_gpu_fault(ch->gpu, ch, "bad launch descriptor: %s (CTA %ux%ux%u, %u shared bytes, %u "
                "private bytes, %u registers, grid %ux%ux%u)", why, d->size[0], d->size[1],
                d->size[2], d->shared_bytes, d->private_bytes, d->register_count, d->grid[0],
                d->grid[1], d->grid[2]);
   return false;
}

/* A tiny launch runs on the command processor, CTA after CTA: cheaper than
 * a hand-off. No other thread ever sees it, so it lives on the caller's
 * stack with no reference counts, no place on the launch list and no
 * completion to signal: it is done when this returns. The watchdog still
 * applies. False if it faulted or the GPU was lost. */
static bool run_inline(struct hw_eu_context *c, struct hw_launch *l)
{
   struct hw_gpu *gpu = l->ch->gpu;
   struct cta_span span = {0};
   atomic_store_explicit(&l->start_ns, hw_coarse_ns(), memory_order_relaxed);
   span_add(&span, 0, l->total);
   bool ok = true;
   for (uint64_t i = 0; ok && i < l->total; i++) {
      ok = !hw_gpu_is_lost(gpu) && run_cta(c, l, i);
      hw_inject_delay(&gpu->inject.eu, &c->rng);
   }
   trace_ctas(c, l, &span);
   if (sg_trace_on())
      trace_counters(gpu);
   return ok && !hw_gpu_is_lost(gpu);
}

bool hw_eu_launch(struct hw_channel *ch, uint64_t desc_va, bool indirect, uint64_t grid_va)
{
   struct hw_launch_desc d;
   if (!read_descriptor(ch, desc_va, indirect, grid_va, &d))
      return false;
   return hw_eu_launch_desc(ch, desc_va, &d);
}

/* Whether the CTAs of l nobody has taken yet would end by `budget_ns`
 * at the pace of the ones taken in the first `spent_ns`. */
static bool fits(struct hw_launch *l, uint64_t spent_ns, uint64_t budget_ns)
{
   uint64_t next = atomic_load(&l->next);
   if (next >= l->total || spent_ns >= budget_ns)
      return false;
   /* left / next CTAs per ns <= budget_ns - spent_ns, without overflow */
   return (double)(l->total - next) * (double)spent_ns <=
          (double)next * (double)(budget_ns - spent_ns);
}

bool hw_eu_launch_desc(struct hw_channel *ch, uint64_t desc_va, const struct hw_launch_desc *dp)
{
   struct hw_gpu *gpu = ch->gpu;
   struct hw_eu *eu = &gpu->eu;
   const struct hw_launch_desc d = *dp;
   uint64_t total = (uint64_t)d.grid[0] * d.grid[1] * d.grid[2];
   if (total == 0)
      return true;   /* an empty grid does nothing */
   char err[256];
   struct hw_program *prog = cp_program(gpu, d.program_va, d.program_id, err, sizeof(err));
   if (!prog) {
      hw_gpu_fault(gpu, ch, "cannot run the program of launch descriptor 0x%llx: %s",
                   (unsigned long long)desc_va, err);
      return false;
   }
   if (!check_descriptor(ch, &d, prog))
      return false;
   /* Only the command processor counts launches: no read-modify-write. */
   counter_add(&eu->launch_count, 1);
   struct hw_launch proto = {
      .ch = ch, .prog = prog, .desc_va = desc_va, .total = total,
      .number = atomic_load_explicit(&eu->launch_count, memory_order_relaxed),
      .params = {.grid = {d.grid[0], d.grid[1], d.grid[2]},
                 .base = {d.base[0], d.base[1], d.base[2]},
                 .size = {d.size[0], d.size[1], d.size[2]},
                 .shared_bytes = d.shared_bytes, .private_bytes = d.private_bytes,
                 .root_va = d.root_va}};
   proto.shape = cta_shape(&proto);
   uint64_t invocations = total * d.size[0] * d.size[1] * d.size[2];
   if (sg_trace_on())
      trace_counters(gpu);   /* so each launch's counts show as a step */
   if (invocations <= HW_INLINE_MAX_INVOCATIONS || eu->worker_count == 0)
      return run_inline(&eu->cp_ctx, &proto);
   struct hw_launch *l = malloc(sizeof(*l));
   if (!l) {
      hw_gpu_fault(gpu, ch, "out of host memory for a launch");
      return false;
   }
   *l = proto;
   atomic_fetch_add(&prog->refs, 1);   /* the launch's, dropped with it */
   /* Two references: the list's, dropped by complete(), and the command
    * processor's while it helps below. */
   atomic_store(&l->refs, 2);
   atomic_fetch_add_explicit(&ch->launches_pending, 1, memory_order_relaxed);
   /* While the workers wake, the command processor takes CTAs from the same
    * counter itself, one at a time, for at most HW_CP_HELP_NS (plus the CTA
    * it is running then), so a launch just past the inline cap costs about
    * what its CTAs cost, not a wake-up, and other channels wait no longer
    * than that. It helps only
    * - the oldest launch with CTAs left: one queued behind others would
    *   start its watchdog clock early and run before them;
    * - a launch with more CTAs than there are workers: one the workers can
    *   run whole stays theirs, so a CTA that waits for a later launch (which
    *   the front end posts only once the command processor returns) never
    *   sits on the command processor. Launches without a barrier between
    *   them may overlap (test_eu_launch pins it down). */
   if (post(gpu, l) && total > eu->worker_count) {
      /* Alone first (workers still spinning join at once): for a quarter
       * of HW_CP_SOLO_NS, and on to its end if at the pace so far the
       * rest fits in it; then with the sleepers woken if CTAs are left.
       * Waking them after 5 us when the launch is longer: bench_compute's
       * grid of 1024 CTAs 75 us instead of 115 (a first CTA alone
       * misjudged the pace: it runs cold). The wake
       * waits for the CTA the command processor is running: with long
       * CTAs the workers start up to one CTA late, as an inline launch
       * runs all its CTAs on the command processor. */
      uint64_t t0 = hw_now_ns();
      atomic_store_explicit(&eu->cp_alone, true, memory_order_relaxed);
      work_on(&eu->cp_ctx, l, 1, t0 + HW_CP_SOLO_NS / 4);
      if (fits(l, hw_now_ns() - t0, HW_CP_SOLO_NS))
         work_on(&eu->cp_ctx, l, 1, t0 + HW_CP_SOLO_NS);
      atomic_store_explicit(&eu->cp_alone, false, memory_order_relaxed);
      if (atomic_load(&l->next) < l->total) {
         wake_workers(eu);
         if (eu->cp_helps)
            work_on(&eu->cp_ctx, l, 1, t0 + HW_CP_HELP_NS);
      }
   } else {
      wake_workers(eu);
   }
   launch_unref(l);
   return !hw_gpu_is_lost(gpu);
}

/* ---- counters ---------------------------------------------------------------------------- */

static void add_counters(struct hw_eu_counters *sum, const struct hw_eu_counters *c)
{
#define ADD(f) counter_add(&sum->f, atomic_load_explicit(&c->f, memory_order_relaxed))
   ADD(ctas);
   ADD(warp_instructions);
   ADD(global_bytes);
   ADD(barrier_waits);
   ADD(jit_exits);
   ADD(jit_insts);
   ADD(jit_sweeps);
#undef ADD
}

uint64_t hw_eu_ctas_run(struct hw_gpu *gpu)
{
   struct hw_eu *eu = &gpu->eu;
   uint64_t n = atomic_load_explicit(&eu->cp_ctx.counters.ctas, memory_order_relaxed);
   for (uint32_t i = 0; i < eu->worker_count; i++)
      n += atomic_load_explicit(&eu->workers[i].ctx.counters.ctas, memory_order_relaxed);
   return n;
}

void hw_eu_get_stats(struct hw_gpu *gpu, struct hw_gpu_stats *s)
{
   struct hw_eu *eu = &gpu->eu;
   struct hw_eu_counters sum = {0};
   add_counters(&sum, &eu->retired);
   add_counters(&sum, &eu->cp_ctx.counters);
   for (uint32_t i = 0; i < eu->worker_count; i++)
      add_counters(&sum, &eu->workers[i].ctx.counters);
   s->launches = atomic_load_explicit(&eu->launch_count, memory_order_relaxed);
   s->ctas = atomic_load_explicit(&sum.ctas, memory_order_relaxed);
   s->warp_instructions = atomic_load_explicit(&sum.warp_instructions, memory_order_relaxed);
   s->global_bytes = atomic_load_explicit(&sum.global_bytes, memory_order_relaxed);
   s->barrier_waits = atomic_load_explicit(&sum.barrier_waits, memory_order_relaxed);
   s->jit_blocks = atomic_load_explicit(&eu->jit_blocks, memory_order_relaxed);
   s->jit_wide = atomic_load_explicit(&eu->jit_wide, memory_order_relaxed);
   s->jit_stepped = atomic_load_explicit(&eu->jit_stepped, memory_order_relaxed);
   s->jit_exits = atomic_load_explicit(&sum.jit_exits, memory_order_relaxed);
   s->jit_instructions = atomic_load_explicit(&sum.jit_insts, memory_order_relaxed);
   s->jit_sweeps = atomic_load_explicit(&sum.jit_sweeps, memory_order_relaxed);
}

/* ---- life cycle ------------------------------------------------------------------------- */

/* One worker per CPU the process may use (the default): each worker gets
 * its own CPU (`pin`), unless SOFTGPU_PIN_WORKERS=0. With as many workers
 * as CPUs, the command processor does not help the workers with a launch
 * once it has woken them: it would only compete with one of them for its
 * CPU (taking 75 us of a 1 ms launch from it, by the traces), the workers
 * ready to run. */
static void place_workers(struct hw_eu *eu, bool pin_allowed)
{
   cpu_set_t set;
   int cpus = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 0;
   eu->cp_helps = cpus <= 0 || eu->worker_count < (uint32_t)cpus;
   for (uint32_t i = 0; i < eu->worker_count; i++)
      eu->workers[i].cpu = -1;
   if (!pin_allowed || cpus <= 0 || eu->worker_count != (uint32_t)cpus)
      return;
   uint32_t next = 0;
   for (int cpu = 0; cpu < CPU_SETSIZE && next < eu->worker_count; cpu++) {
      if (CPU_ISSET(cpu, &set))
         eu->workers[next++].cpu = cpu;
   }
}

int hw_eu_start(struct hw_gpu *gpu)
{
   struct hw_eu *eu = &gpu->eu;
   select_interpreters(eu, &gpu->config);
   pthread_mutex_init(&eu->lock, NULL);
   pthread_mutex_init(&eu->cache_lock, NULL);
   eu->cp_ctx.rng = gpu->inject.seed * 7 + 3;
   eu->worker_count = gpu->config.eu_threads;
   /* aligned: each worker's counters have their own cache lines */
   size_t bytes = (eu->worker_count ? eu->worker_count : 1) * sizeof(*eu->workers);
   eu->workers = aligned_alloc(_Alignof(struct hw_worker), bytes);
   if (!eu->workers)
      return -1;
   memset(eu->workers, 0, bytes);
   place_workers(eu, gpu->config.pin_workers);
   eu->started = true;
   for (uint32_t i = 0; i < eu->worker_count; i++) {
      struct hw_worker *w = &eu->workers[i];
      w->gpu = gpu;
      w->index = i;
      w->ctx.rng = gpu->inject.seed * 7 + 5 + i;
      char track[48];
      snprintf(track, sizeof(track), "EU worker %u", i);
      w->ctx.trace_track = sg_trace_track(SG_TRACE_GPU_PID(gpu->index), track, NULL);
      if (sg_thread_create(&w->thread, worker_main, w) != 0) {
         SG_LOG(SG_LOG_ERROR, SG_AREA_EU, "cannot start execution unit worker %u", i);
         eu->worker_count = i;
         return -1;
      }
   }
   SG_LOG(SG_LOG_INFO, SG_AREA_EU, "GPU %u: %u execution unit workers, %s interpreter%s%s",
          gpu->index, eu->worker_count, eu->variant, eu->jit ? ", compiled ALU runs" : "",
          eu->worker_count && eu->workers[0].cpu >= 0 ? ", one worker pinned per CPU" : "");
   return 0;
}

void hw_eu_stop(struct hw_gpu *gpu)
{
   struct hw_eu *eu = &gpu->eu;
   if (!eu->started)
      return;
   atomic_store(&eu->stop, true);
   atomic_fetch_add(&eu->work_seq, 1);
   hw_futex_wake(&eu->work_seq, INT32_MAX);
   for (uint32_t i = 0; i < eu->worker_count; i++)
      pthread_join(eu->workers[i].thread, NULL);
   /* Their counters stay readable: hw_eu_get_stats reads the retired sum. */
   for (uint32_t i = 0; i < eu->worker_count; i++)
      add_counters(&eu->retired, &eu->workers[i].ctx.counters);
   eu->worker_count = 0;
   free(eu->workers);
   eu->workers = NULL;
   /* Launches the GPU abandoned (it was lost, or stopped) are freed here. */
   while (eu->head) {
      struct hw_launch *l = eu->head;
      eu->head = l->next_launch;
      launch_unref(l);
   }
   if (eu->cp_program)
      program_unref(eu->cp_program);
   eu->cp_program = NULL;
   while (eu->programs) {
      struct hw_program *p = eu->programs;
      eu->programs = p->next;
      program_unref(p);
   }
   context_free(&eu->cp_ctx);
   pthread_mutex_destroy(&eu->lock);
   pthread_mutex_destroy(&eu->cache_lock);
   eu->started = false;
}
