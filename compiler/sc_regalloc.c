/*
 * Register allocation: live intervals over the linear code, extended over
 * loops, then linear scan over the vector and the uniform register files.
 *
 * Linear order is a sound basis under SIMT execution because writes are
 * masked: a lane's registers only change while that lane is active, so a
 * lane sees exactly the interval semantics of its own path. Uniform
 * registers are shared by all lanes, but only warp-invariant values live
 * there, and values that could differ between lanes after divergent loop
 * exits are never uniform (the divergence analysis sees to that).
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

/* Counts n units of work against register allocation (sc_program.work). */
static void work(struct sc_mir *mir, uint64_t n)
{
   mir->work[SC_PASS_REGALLOC] += n;
}

/* Memory and atomic instructions take no immediate operand, and an
 * instruction has one immediate field: extra immediates go through a
 * uniform register first. */
static void legalize(struct sc_mir *mir, struct sc_error *e)
{
   uint32_t extra = 0;
   for (uint32_t i = 0; i < mir->count; i++) {
      const struct sc_minst *in = &mir->code[i];
      enum isa_class cls = isa_op_info[in->op].cls;
      bool field_busy = cls == ISA_CLASS_MEM || cls == ISA_CLASS_ATOMIC || cls == ISA_CLASS_FLOW ||
                        in->imm != 0;
      const struct sc_opnd *ops[3] = {&in->a, &in->b, &in->c};
      bool have = false;
      uint32_t value = 0;
      for (int k = 0; k < 3; k++) {
         if (ops[k]->kind != SC_IMM)
            continue;
         if (field_busy || (have && ops[k]->value != value))
            extra++;
         else
            have = true, value = ops[k]->value;
      }
   }
   if (!extra)
      return;
   struct sc_minst *code = malloc((mir->count + extra) * sizeof(*code));
   if (!code)
      sc_fail(e, "out of memory");
   uint32_t *moved = malloc((mir->count + 1) * sizeof(*moved));   /* old index -> new */
   if (!moved) {
      free(code);
      sc_fail(e, "out of memory");
   }
   uint32_t n = 0;
   for (uint32_t i = 0; i < mir->count; i++) {
      struct sc_minst in = mir->code[i];
      enum isa_class cls = isa_op_info[in.op].cls;
      bool field_busy = cls == ISA_CLASS_MEM || cls == ISA_CLASS_ATOMIC || cls == ISA_CLASS_FLOW ||
                        in.imm != 0;
      struct sc_opnd *ops[3] = {&in.a, &in.b, &in.c};
      bool have = false;
      uint32_t value = 0;
      /* Labels point at instruction indices: moves go before, so a label
       * at i now points at the first move (same control flow). */
      moved[i] = n;
      for (int k = 0; k < 3; k++) {
         if (ops[k]->kind != SC_IMM)
            continue;
         if (field_busy || (have && ops[k]->value != value)) {
            if (mir->reg_count == mir->reg_capacity) {
               uint32_t cap = mir->reg_capacity ? mir->reg_capacity * 2 : 64;
               struct sc_vreg *r = realloc(mir->regs, cap * sizeof(*r));
               if (!r) {
                  free(code);
                  free(moved);
                  sc_fail(e, "out of memory");
               }
               mir->regs = r;
               mir->reg_capacity = cap;
            }
            uint32_t reg = mir->reg_count++;
            mir->regs[reg] = (struct sc_vreg){.size = 1, .uniform = true, .start = -1, .end = -1};
            code[n++] = (struct sc_minst){.op = ISA_OP_MOV, .dst = sc_reg(reg), .a = *ops[k],
                                          .label = UINT32_MAX, .line = in.line};
            *ops[k] = sc_reg(reg);
         } else {
            have = true;
            value = ops[k]->value;
         }
      }
      code[n++] = in;
   }
   moved[mir->count] = n;
   for (uint32_t l = 0; l < mir->label_count; l++) {
      if (mir->labels[l] <= mir->count)
         mir->labels[l] = moved[mir->labels[l]];
   }
   free(moved);
   free(mir->code);
   mir->code = code;
   mir->count = mir->capacity = n;
}

static void touch(struct sc_mir *mir, const struct sc_opnd *o, int32_t i)
{
   if (o->kind != SC_REG)
      return;
   struct sc_vreg *r = &mir->regs[o->value];
   if (r->start < 0 || i < r->start)
      r->start = i;
   if (i > r->end)
      r->end = i;
}

/* The loops of the code: per instruction, the innermost loop holding it
 * (its LOOP's index, NONE outside every loop); per LOOP, its ENDLOOP's
 * index and the loop around it. */
#define NONE UINT32_MAX

struct loops {
   uint32_t *at, *end, *parent;
};

static bool find_loops(struct sc_mir *mir, struct loops *l)
{
   size_t n = mir->count ? mir->count : 1;
   l->at = malloc(3 * n * sizeof(*l->at));
   if (!l->at)
      return false;
   l->end = l->at + n;
   l->parent = l->end + n;
   uint32_t open = NONE;
   work(mir, mir->count);
   for (uint32_t i = 0; i < mir->count; i++) {
      uint16_t op = mir->code[i].op;
      if (op == ISA_OP_LOOP) {
         l->parent[i] = open;
         l->end[i] = i;   /* until its ENDLOOP */
         open = i;
      }
      l->at[i] = open;
      if (op == ISA_OP_ENDLOOP && open != NONE) {
         l->end[open] = i;
         open = l->parent[open];
      }
   }
   return true;
}

/* A value live into a loop (defined before it, used in it) is live through
 * the whole loop: later iterations use it again. So is a promoted variable
 * touched in a loop: an iteration may read what the previous one wrote
 * after the read's position. The loops that can ask for either hold the
 * interval's start or its end (one entirely inside the interval is
 * covered already), so the walk goes out from both through the loops
 * holding them, again after each extension: the interval only grows, and
 * the work is the nesting depth's, not the number of loops'. */
static void extend_over_loops(struct sc_mir *mir, struct sc_vreg *v, const struct loops *l)
{
   bool changed = true;
   while (changed) {
      changed = false;
      for (int side = 0; side < 2; side++) {
         for (uint32_t s = l->at[side ? v->end : v->start]; s != NONE; s = l->parent[s]) {
            int32_t b = (int32_t)s, e = (int32_t)l->end[s];
            work(mir, 1);
            bool live_in = v->start < b && v->end >= b && v->end < e;
            bool var_in = v->variable && v->start <= e && v->end >= b &&
                          (v->start > b || v->end < e);
            if (live_in || var_in) {
               v->start = v->start < b ? v->start : b;
               v->end = v->end > e ? v->end : e;
               changed = true;
            }
         }
      }
   }
}

struct file {
   int32_t busy_until[ISA_MAX_VREGS];   /* last instruction of the value there, -1: free */
   uint32_t high;                       /* registers used */
   uint64_t work;                       /* places looked at */
};

static int32_t take(struct file *f, uint32_t size, int32_t start, int32_t end)
{
   for (uint32_t p = 0; p + size <= ISA_MAX_VREGS; p++) {
      f->work++;
      bool ok = true;
      for (uint32_t k = 0; k < size && ok; k++)
         ok = f->busy_until[p + k] < start;
      if (!ok)
         continue;
      for (uint32_t k = 0; k < size; k++)
         f->busy_until[p + k] = end;
      if (p + size > f->high)
         f->high = p + size;
      return (int32_t)p;
   }
   return -1;
}

/* The registers in order of their interval's start, those starting
 * together in register order: a counting sort, linear in registers and
 * instructions (starts are instruction indices). False if out of memory. */
static bool sort_by_start(struct sc_mir *mir, uint32_t *order, uint32_t n)
{
   uint32_t *first = calloc((size_t)mir->count + 1, sizeof(*first));
   uint32_t *sorted = malloc((n ? n : 1) * sizeof(*sorted));
   if (!first || !sorted) {
      free(first);
      free(sorted);
      return false;
   }
   work(mir, 2 * (uint64_t)n + mir->count);
   for (uint32_t i = 0; i < n; i++)
      first[mir->regs[order[i]].start]++;
   for (uint32_t p = 0, at = 0; p <= mir->count; p++) {
      uint32_t c = first[p];
      first[p] = at;
      at += c;
   }
   for (uint32_t i = 0; i < n; i++)
      sorted[first[mir->regs[order[i]].start]++] = order[i];
   memcpy(order, sorted, n * sizeof(*order));
   free(first);
   free(sorted);
   return true;
}

void sc_regalloc(struct sc_mir *mir, struct sc_error *e, uint32_t *vregs, uint32_t *uregs)
{
   legalize(mir, e);
   work(mir, 3 * (uint64_t)mir->count + mir->reg_count);
   for (uint32_t r = 0; r < mir->reg_count; r++)
      mir->regs[r].start = mir->regs[r].end = -1;
   for (uint32_t i = 0; i < mir->count; i++) {
      const struct sc_minst *in = &mir->code[i];
      touch(mir, &in->dst, (int32_t)i);
      touch(mir, &in->a, (int32_t)i);
      touch(mir, &in->b, (int32_t)i);
      touch(mir, &in->c, (int32_t)i);
   }
   struct loops loops;
   if (!find_loops(mir, &loops))
      sc_fail(e, "out of memory");
   for (uint32_t r = 0; r < mir->reg_count; r++) {
      if (mir->regs[r].start >= 0)
         extend_over_loops(mir, &mir->regs[r], &loops);
   }
   free(loops.at);
   uint32_t *order = malloc((mir->reg_count ? mir->reg_count : 1) * sizeof(*order));
   struct file *vf = malloc(sizeof(*vf)), *uf = malloc(sizeof(*uf));
   if (!order || !vf || !uf) {
      free(order);
      free(vf);
      free(uf);
      sc_fail(e, "out of memory");
   }
   uint32_t n = 0;
   for (uint32_t r = 0; r < mir->reg_count; r++) {
      if (mir->regs[r].start >= 0)
         order[n++] = r;
   }
   if (!sort_by_start(mir, order, n)) {
      free(order);
      free(vf);
      free(uf);
      sc_fail(e, "out of memory");
   }
   memset(vf->busy_until, 0xff, sizeof(vf->busy_until));
   memset(uf->busy_until, 0xff, sizeof(uf->busy_until));
   vf->high = uf->high = 0;
   vf->work = uf->work = 0;
   for (uint32_t i = 0; i < n; i++) {
      struct sc_vreg *v = &mir->regs[order[i]];
      int32_t p = take(v->uniform ? uf : vf, v->size, v->start, v->end);
      if (p < 0) {
         bool uniform = v->uniform;
         free(order);
         free(vf);
         free(uf);
         sc_fail(e, "the shader needs more than %u %s registers at once", ISA_MAX_VREGS,
                 uniform ? "uniform" : "vector");
      }
      v->phys = (uint32_t)p;
   }
   *vregs = vf->high;
   *uregs = uf->high;
   work(mir, vf->work + uf->work);
   free(order);
   free(vf);
   free(uf);
}
