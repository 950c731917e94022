/*
 * The machine-IR builder: virtual registers, labels and instructions (with
 * immediates folded on the spot), and the per-id value table the
 * translator fills. Every pass that emits code goes through it.
 */
#include "sc_tx.h"

#include <stdlib.h>
#include <string.h>

void *sc_grow(void *p, uint32_t *cap, uint32_t need, size_t elem, struct sc_error *e)
{
   if (need <= *cap)
      return p;
   uint32_t n = *cap ? *cap * 2 : 256;
   while (n < need)
      n *= 2;
   void *q = realloc(p, (size_t)n * elem);
   if (!q)
      sc_fail(e, "out of memory");
   *cap = n;
   return q;
}

uint32_t sc_new_reg(struct sc_tx *t, uint32_t size, bool uniform)
{
   struct sc_mir *mir = t->mir;
   mir->regs = sc_grow(mir->regs, &mir->reg_capacity, mir->reg_count + 1, sizeof(*mir->regs), t->e);
   mir->regs[mir->reg_count] = (struct sc_vreg){.size = (uint8_t)size, .uniform = uniform,
                                                .start = -1, .end = -1};
   return mir->reg_count++;
}

uint32_t sc_new_label(struct sc_tx *t)
{
   struct sc_mir *mir = t->mir;
   mir->labels = sc_grow(mir->labels, &mir->label_capacity, mir->label_count + 1,
                            sizeof(*mir->labels), t->e);
   mir->labels[mir->label_count] = UINT32_MAX;
   return mir->label_count++;
}

void sc_place_label(struct sc_tx *t, uint32_t label)
{
   t->mir->labels[label] = t->mir->count;
}

/* The binary64 form of a binary32 operation (ISA_OP_NOP: none). The
 * translator's float code is written once, in binary32 operations; inside
 * an instruction on doubles (t->fp64) the builder gives each its binary64
 * form on register pairs ("Values narrower and wider than 32 bits",
 * docs/architecture.md), as NIR's operations take their bit size from
 * their operands. */
static enum isa_op fp64_form(enum isa_op op, uint32_t mod)
{
   switch (op) {
   case ISA_OP_FADD: return ISA_OP_DADD;
   case ISA_OP_FSUB: return ISA_OP_DSUB;
   case ISA_OP_FMUL: return ISA_OP_DMUL;
   case ISA_OP_FFMA: return ISA_OP_DFMA;
   case ISA_OP_FDIV: return ISA_OP_DDIV;
   case ISA_OP_FMIN: return ISA_OP_DMIN;
   case ISA_OP_FMAX: return ISA_OP_DMAX;
   case ISA_OP_FNEG: return ISA_OP_DNEG;
   case ISA_OP_FABS: return ISA_OP_DABS;
   case ISA_OP_FFLOOR: return ISA_OP_DFLOOR;
   case ISA_OP_FCEIL: return ISA_OP_DCEIL;
   case ISA_OP_FTRUNC: return ISA_OP_DTRUNC;
   case ISA_OP_FRINT: return ISA_OP_DRINT;
   case ISA_OP_FROUND: return ISA_OP_DROUND;
   case ISA_OP_FFRACT: return ISA_OP_DFRACT;
   case ISA_OP_FSQRT: return ISA_OP_DSQRT;
   case ISA_OP_FRSQ: return ISA_OP_DRSQ;
   case ISA_OP_FSIGN: return ISA_OP_DSIGN;
   case ISA_OP_FCMP: return ISA_OP_DCMP;
   case ISA_OP_FMATH1: return ISA_OP_NOP;
   case ISA_OP_FMATH2: return mod == ISA_FM_LDEXP ? ISA_OP_DLDEXP : ISA_OP_NOP;
   default: return op;
   }
}

static bool is_pair(const struct sc_tx *t, struct sc_opnd o)
{
   return o.kind == SC_REG && t->mir->regs[o.value].size == 2;
}

struct sc_minst *sc_emit(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd dst,
                             struct sc_opnd a, struct sc_opnd b, struct sc_opnd c)
{
   if (t->fp64) {
      enum isa_op d = fp64_form(op, mod);
      if (d == ISA_OP_NOP)
         sc_fail(t->e, "%s is not defined for 64-bit floats (GLSL.std.450 defines it at 16 and 32 bits)",
                 op == ISA_OP_FMATH1 || op == ISA_OP_FMATH2 ? "this function" : isa_op_info[op].name);
      if (d == ISA_OP_DLDEXP)
         mod = 0;
      if (op == ISA_OP_SEL && is_pair(t, dst)) {   /* a select of doubles: half by half */
         t->fp64 = false;
         sc_emit(t, ISA_OP_SEL, 0, sc_part_of(dst, 0), a, sc_part_of(b, 0), sc_part_of(c, 0));
         struct sc_minst *in = sc_emit(t, ISA_OP_SEL, 0, sc_part_of(dst, 1), a, sc_part_of(b, 1),
                                       sc_part_of(c, 1));
         t->fp64 = true;
         return in;
      }
      op = d;
   }
   struct sc_mir *mir = t->mir;
   mir->code = sc_grow(mir->code, &mir->capacity, mir->count + 1, sizeof(*mir->code), t->e);
   struct sc_minst *in = &mir->code[mir->count++];
   mir->work[SC_PASS_TRANSLATE]++;
   *in = (struct sc_minst){.op = (uint16_t)op, .mod = (uint16_t)mod, .dst = dst, .a = a, .b = b,
                           .c = c, .label = UINT32_MAX, .line = t->line, .exact = t->exact};
   return in;
}

void sc_emit_flow(struct sc_tx *t, enum isa_op op, struct sc_opnd a, uint32_t label, uint32_t mod)
{
   struct sc_minst *in = sc_emit(t, op, mod, sc_none(), a, sc_none(), sc_none());
   in->label = label;
}

bool sc_opnd_uniform(const struct sc_tx *t, struct sc_opnd o)
{
   return o.kind != SC_REG || t->mir->regs[o.value].uniform;
}

/* A 32-bit result register, uniform if every source is. */
static struct sc_opnd result32(struct sc_tx *t, struct sc_opnd a, struct sc_opnd b, struct sc_opnd c)
{
   bool u = sc_opnd_uniform(t, a) && sc_opnd_uniform(t, b) && sc_opnd_uniform(t, c);
   return sc_reg(sc_new_reg(t, 1, u));
}

static float fbits(uint32_t x)
{
   float f;
   memcpy(&f, &x, 4);
   return f;
}

static uint32_t ubits(float f)
{
   uint32_t x;
   memcpy(&x, &f, 4);
   return x;
}

/* Folds an operation on immediates (the ones the translator itself
 * produces, for addresses mostly); false if it cannot. Float arithmetic
 * folds to what the execution units compute: IEEE single precision. */
bool sc_fold(enum isa_op op, struct sc_opnd a, struct sc_opnd b, struct sc_opnd c, uint32_t *r)
{
   bool ia = a.kind == SC_IMM, ib = b.kind == SC_IMM || b.kind == SC_NONE,
        ic = c.kind == SC_IMM || c.kind == SC_NONE;
   if (!ia || !ib || !ic)
      return false;
   uint32_t x = a.value, y = b.value, z = c.value;
   switch (op) {
   case ISA_OP_MOV: *r = x; return true;
   case ISA_OP_IADD: *r = x + y; return true;
   case ISA_OP_ISUB: *r = x - y; return true;
   case ISA_OP_IMUL: *r = x * y; return true;
   case ISA_OP_IMAD: *r = x * y + z; return true;
   case ISA_OP_AND: *r = x & y; return true;
   case ISA_OP_OR: *r = x | y; return true;
   case ISA_OP_XOR: *r = x ^ y; return true;
   case ISA_OP_NOT: *r = ~x; return true;
   case ISA_OP_INEG: *r = 0u - x; return true;
   case ISA_OP_SHL: *r = x << (y & 31); return true;
   case ISA_OP_SHR_U: *r = x >> (y & 31); return true;
   case ISA_OP_FADD: *r = ubits(fbits(x) + fbits(y)); return true;
   case ISA_OP_FSUB: *r = ubits(fbits(x) - fbits(y)); return true;
   case ISA_OP_FMUL: *r = ubits(fbits(x) * fbits(y)); return true;
   case ISA_OP_FNEG: *r = x ^ 0x80000000u; return true;
   default: return false;
   }
}

struct sc_opnd sc_alu(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd a,
                          struct sc_opnd b, struct sc_opnd c)
{
   if (t->fp64 && (fp64_form(op, mod) != op || (op == ISA_OP_SEL && (is_pair(t, b) || is_pair(t, c))))) {
      /* binary64 results take a pair, comparisons one register */
      bool u = sc_opnd_uniform(t, a) && sc_opnd_uniform(t, b) && sc_opnd_uniform(t, c);
      struct sc_opnd d = sc_reg(sc_new_reg(t, op == ISA_OP_FCMP ? 1 : 2, u));
      sc_emit(t, op, mod, d, a, b, c);
      return d;
   }
   uint32_t folded;
   if (sc_fold(op, a, b, c, &folded))
      return sc_imm(folded);
   if (op == ISA_OP_IMAD && c.kind == SC_IMM && c.value == 0) {   /* a * b + 0 */
      op = ISA_OP_IMUL;
      c = sc_none();
   }
   struct sc_opnd d = result32(t, a, b, c);
   sc_emit(t, op, mod, d, a, b, c);
   return d;
}

struct sc_opnd sc_alu64(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd a,
                            struct sc_opnd b)
{
   bool u = sc_opnd_uniform(t, a) && sc_opnd_uniform(t, b);
   struct sc_opnd d = sc_reg(sc_new_reg(t, 2, u));
   sc_emit(t, op, mod, d, a, b, sc_none());
   return d;
}

/* A 64-bit value in a two-part register (immediates materialized). */
struct sc_opnd sc_pair64(struct sc_tx *t, uint64_t v)
{
   struct sc_opnd d = sc_reg(sc_new_reg(t, 2, true));
   struct sc_opnd lo = d, hi = d;
   hi.part = 1;
   sc_emit(t, ISA_OP_MOV, 0, lo, sc_imm((uint32_t)v), sc_none(), sc_none());
   sc_emit(t, ISA_OP_MOV, 0, hi, sc_imm((uint32_t)(v >> 32)), sc_none(), sc_none());
   return d;
}

struct sc_opnd sc_part_of(struct sc_opnd o, uint32_t part)
{
   if (o.kind == SC_REG)
      o.part = (uint8_t)part;
   return o;
}

/* The value slot of an id, which must be defined (malformed input names
 * any id at all). */
struct sc_val *sc_val_at(struct sc_tx *t, uint32_t id)
{
   (void)sc_idp(t, id);
   return &t->vals[id];
}

struct sc_val *sc_val_new(struct sc_tx *t, uint32_t id, uint32_t n)
{
   struct sc_val *v = sc_val_at(t, id);
   free(v->comp);
   v->kind = SC_VAL_REGS;
   v->n = (uint16_t)n;
   v->comp = calloc(n ? n : 1, sizeof(*v->comp));
   if (!v->comp)
      FAIL("out of memory");
   return v;
}

void sc_own(struct sc_tx *t, void *c)
{
   if (t->owned_n == t->owned_cap) {
      uint32_t cap = t->owned_cap ? 2 * t->owned_cap : 16;
      void **o = realloc(t->owned, cap * sizeof(*o));
      if (!o) {
         free(c);
         FAIL("out of memory");
      }
      t->owned = o;
      t->owned_cap = cap;
   }
   t->owned[t->owned_n++] = c;
}

/* Frees an array sc_get() made (the most recent ones are the likely ones). */
void sc_disown(struct sc_tx *t, void *c)
{
   for (uint32_t i = t->owned_n; i-- > 0;) {
      if (t->owned[i] == c) {
         t->owned[i] = t->owned[--t->owned_n];
         break;
      }
   }
   free(c);
}

/* An array of n operands that sc_get() hands to its caller to free. */
struct sc_opnd *sc_owned_array(struct sc_tx *t, uint32_t n)
{
   struct sc_opnd *c = calloc(n ? n : 1, sizeof(*c));
   if (!c)
      FAIL("out of memory");
   sc_own(t, c);
   return c;
}

static bool id_divergent(const struct sc_tx *t, uint32_t id)
{
   return id < t->m->bound && t->divergent[id] != 0;
}

/* Fresh registers for the components of result id. */
struct sc_val *sc_result(struct sc_tx *t, uint32_t id, uint32_t type)
{
   uint32_t n = sc_components(t, type);
   struct sc_val *v = sc_val_new(t, id, n);
   bool u = !id_divergent(t, id);
   for (uint32_t i = 0; i < n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      v->comp[i] = sc_reg(sc_new_reg(t, sc_is64(&s) ? 2 : 1, u));
   }
   return v;
}

/* Copies src into dst (same shape), 64-bit components as two moves. */
void sc_copy_scalar(struct sc_tx *t, struct sc_opnd dst, struct sc_opnd src, bool wide)
{
   if (!wide) {
      sc_emit(t, ISA_OP_MOV, 0, dst, src, sc_none(), sc_none());
      return;
   }
   sc_emit(t, ISA_OP_MOV64, 0, dst, src, sc_none(), sc_none());
}
