/*
 * Translation: SPIR-V (after inlining and SSA conversion) to machine IR, an
 * ISA instruction list on virtual registers.
 *
 * Values are scalarized: every SPIR-V value is a list of scalar components,
 * each a virtual register (64-bit scalars take a two-part register) or an
 * immediate. Which values are warp-invariant (uniform registers) is decided
 * first (sc_divergence.c, over the control-flow graph of sc_cfg.c). Structured
 * control flow is lowered recursively, construct by construct, into
 * IF/ELSE/ENDIF, LOOP/BRK/CONT/CONTJOIN/ENDLOOP and SWITCH/ENDSWITCH; OpPhi
 * becomes copies emitted where each incoming edge is taken, so they run
 * under that edge's mask.
 */
#include "sc_tx.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMPONENTS 256u  /* scalars a value held in registers may have (a struct of five mat4, 80) */

/* ---- translated values ------------------------------------------------------- */

enum val_kind { VAL_NONE, VAL_REGS, VAL_PTR };

/* A pointer known at compile time: where it points, as an address
 * expression. */
struct ptr {
   uint32_t storage;            /* SpvStorageClass */
   uint32_t pointee;            /* type id */
   /* Buffers (StorageBuffer, Uniform, PushConstant, PhysicalStorageBuffer):
    * a 64-bit base address; Workgroup, Private, Function: base is unused
    * and the address is the offset alone. */
   struct sc_opnd base;         /* a two-part register, or NONE */
   /* Workgroup, Private, Function: the 32-bit byte offset (register or
    * immediate). Buffers: the constant part of the byte offset, always an
    * immediate below 2^31, while dynamic indices sum into `dyn`. */
   struct sc_opnd offset;
   /* Buffers: the byte offset's dynamic part, a 64-bit two-part register
    * (or NONE). Buffer addresses are 64-bit and SPIR-V's indices signed, so
    * index * stride is computed in 64 bits from the sign-extended index: a
    * 32-bit sum would wrap and could land in another allocation. */
   struct sc_opnd dyn;
   /* Workgroup, Private, Function: a constant added to offset, kept apart
    * so that it goes into the memory instruction's offset field */
   uint32_t disp;
   /* robust buffer access: the descriptor's range (two-part reg) */
   struct sc_opnd range;
   bool robust;
   /* layout: explicit (buffers) or softgpu's own (shared, private) */
   bool explicit_layout;
   uint32_t matrix_stride;      /* when pointing at a matrix in a buffer */
   bool row_major;
   uint32_t vector_stride;      /* a column of a row-major matrix: its components' stride */
   /* Input built-ins: which, and the component a chain selected (comp, or
    * at run time comp_index of comp_count) */
   uint32_t builtin;            /* SpvBuiltIn + 1 */
   uint32_t comp;
   struct sc_opnd comp_index;   /* NONE unless the index is dynamic */
   uint32_t comp_count;
   /* an array of buffer descriptors, before the chain picks one */
   bool desc_array;
   const struct sc_binding *binding;
   struct sc_opnd set_va;       /* two-part uniform register */
   /* Function and Private variables promoted to registers (see
    * promotable()): the variable, and the first of its scalar slots this
    * pointer designates. */
   uint32_t var;
   uint32_t slot;
};

struct val {
   uint8_t kind;
   uint16_t n;
   struct sc_opnd *comp;        /* VAL_REGS: n components */
   struct ptr *ptr;             /* VAL_PTR */
};

/* ---- types --------------------------------------------------------------------- */

enum tkind { TK_VOID, TK_BOOL, TK_INT, TK_FLOAT, TK_VECTOR, TK_MATRIX, TK_ARRAY, TK_RARRAY,
             TK_STRUCT, TK_POINTER, TK_OTHER };

struct tinfo {
   enum tkind kind;
   uint32_t width;              /* scalars: 32 or 64 */
   bool is_signed;
   uint32_t elem;               /* vector, matrix (column type), arrays: element type */
   uint32_t count;              /* vector, matrix, array: element count */
   uint32_t storage;            /* pointer */
   uint32_t id;
};



/* Open constructs during lowering, innermost last. */
enum construct_kind { CK_LOOP, CK_SWITCH, CK_SELECTION };

struct construct {
   enum construct_kind kind;
   uint32_t merge;              /* label id */
   uint32_t cont;               /* loops: continue target label */
   uint32_t header;             /* loops: header label */
   uint32_t restore_label;      /* where an exec that went to 0 continues */
   struct sc_opnd fallthrough;  /* switch cases: set when a case falls through */
   bool escaped;                /* lanes left it for an outer construct (BRK, CONT, RET) */
};



/* Counts n units of work against the pass running (sc_program.work). */
void sc_work(const struct sc_tx *t, uint64_t n)
{
   t->mir->work[t->pass] += n;
}

static const uint32_t *W(const struct sc_tx *t, uint32_t at) { return &t->m->words[at]; }

uint32_t sc_arg(const struct sc_tx *t, uint32_t at, uint32_t i)
{
   if (i >= sc_len(t->m, at))
      FAIL("invalid SPIR-V: opcode %u has no operand %u", sc_op(t->m, at), i);
   return t->m->words[at + i];
}

static const struct sc_id *idp(const struct sc_tx *t, uint32_t id)
{
   if (id == 0 || id >= t->m->bound || !t->m->ids[id].def)
      FAIL("invalid SPIR-V: id %u is not defined", id);
   return &t->m->ids[id];
}

static struct tinfo type_of(const struct sc_tx *t, uint32_t type)
{
   const struct sc_id *d = idp(t, type);
   struct tinfo ti = {.kind = TK_OTHER, .id = type};
   uint32_t at = d->def;
   switch (d->opcode) {
   case SpvOpTypeVoid: ti.kind = TK_VOID; break;
   case SpvOpTypeBool: ti.kind = TK_BOOL; ti.width = 32; break;
   case SpvOpTypeInt:
      ti.kind = TK_INT;
      ti.width = sc_arg(t, at, 2);
      ti.is_signed = sc_arg(t, at, 3) != 0;
      if (ti.width != 32 && ti.width != 64)
         FAIL("unsupported %u-bit integers", ti.width);
      break;
   case SpvOpTypeFloat:
      ti.kind = TK_FLOAT;
      ti.width = sc_arg(t, at, 2);
      if (ti.width != 32)
         FAIL("unsupported %u-bit floats", ti.width);
      break;
   case SpvOpTypeVector:
   case SpvOpTypeMatrix:
      ti.kind = d->opcode == SpvOpTypeVector ? TK_VECTOR : TK_MATRIX;
      ti.elem = sc_arg(t, at, 2);
      ti.count = sc_arg(t, at, 3);
      if (ti.count == 0 || ti.count > 16)
         FAIL("invalid SPIR-V: %u-element vector", ti.count);
      break;
   case SpvOpTypeArray: {
      ti.kind = TK_ARRAY;
      ti.elem = sc_arg(t, at, 2);
      const struct sc_id *len = idp(t, sc_arg(t, at, 3));
      if (len->opcode != SpvOpConstant)
         FAIL("array length is not a constant (specialization failed?)");
      ti.count = sc_arg(t, len->def, 3);
      break;
   }
   case SpvOpTypeRuntimeArray: ti.kind = TK_RARRAY; ti.elem = sc_arg(t, at, 2); break;
   case SpvOpTypeStruct: ti.kind = TK_STRUCT; ti.count = sc_len(t->m, at) - 2; break;
   case SpvOpTypePointer:
   case SpvOpTypeForwardPointer:
      ti.kind = TK_POINTER;
      ti.storage = sc_arg(t, at, 2);
      ti.elem = sc_arg(t, at, 3);
      break;
   default: break;
   }
   return ti;
}

static uint32_t struct_member(const struct sc_tx *t, uint32_t type, uint32_t i)
{
   const struct sc_id *d = idp(t, type);
   return sc_arg(t, d->def, 2 + i);
}

/* Scalar components of a type held in registers. */
static uint32_t components(const struct sc_tx *t, uint32_t type)
{
   struct tinfo ti = type_of(t, type);
   switch (ti.kind) {
   case TK_BOOL: case TK_INT: case TK_FLOAT: case TK_POINTER: return 1;
   case TK_VECTOR: case TK_MATRIX: case TK_ARRAY: {
      uint64_t n = (uint64_t)ti.count * components(t, ti.elem);
      if (n > MAX_COMPONENTS)
         FAIL("a value of %llu components is too large to keep in registers", (unsigned long long)n);
      return (uint32_t)n;
   }
   case TK_STRUCT: {
      uint32_t n = 0;
      for (uint32_t i = 0; i < ti.count; i++)
         n += components(t, struct_member(t, type, i));
      if (n > MAX_COMPONENTS)
         FAIL("a value of %u components is too large to keep in registers", n);
      return n;
   }
   case TK_VOID: return 0;
   default: FAIL("unsupported type (opcode %u) in a register value", idp(t, type)->opcode);
   }
}

/* The scalar type of component i of a type (its 32/64-bit width matters). */
static struct tinfo scalar_at(const struct sc_tx *t, uint32_t type, uint32_t i)
{
   struct tinfo ti = type_of(t, type);
   switch (ti.kind) {
   case TK_VECTOR: case TK_MATRIX: case TK_ARRAY: {
      uint32_t per = components(t, ti.elem);
      return scalar_at(t, ti.elem, i % per);
   }
   case TK_STRUCT:
      for (uint32_t k = 0; k < ti.count; k++) {
         uint32_t mt = struct_member(t, type, k), n = components(t, mt);
         if (i < n)
            return scalar_at(t, mt, i);
         i -= n;
      }
      FAIL("component out of range");
   default: return ti;
   }
}

static bool is64(const struct tinfo *ti)
{
   return ti->width == 64 || ti->kind == TK_POINTER;
}

/* ---- machine IR helpers ------------------------------------------------------------ */

static void *grow_array(void *p, uint32_t *cap, uint32_t need, size_t elem, struct sc_error *e)
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

static uint32_t new_reg(struct sc_tx *t, uint32_t size, bool uniform)
{
   struct sc_mir *mir = t->mir;
   mir->regs = grow_array(mir->regs, &mir->reg_capacity, mir->reg_count + 1, sizeof(*mir->regs), t->e);
   mir->regs[mir->reg_count] = (struct sc_vreg){.size = (uint8_t)size, .uniform = uniform,
                                                .start = -1, .end = -1};
   return mir->reg_count++;
}

static uint32_t new_label(struct sc_tx *t)
{
   struct sc_mir *mir = t->mir;
   mir->labels = grow_array(mir->labels, &mir->label_capacity, mir->label_count + 1,
                            sizeof(*mir->labels), t->e);
   mir->labels[mir->label_count] = UINT32_MAX;
   return mir->label_count++;
}

static void place_label(struct sc_tx *t, uint32_t label)
{
   t->mir->labels[label] = t->mir->count;
}

static struct sc_minst *emit(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd dst,
                             struct sc_opnd a, struct sc_opnd b, struct sc_opnd c)
{
   struct sc_mir *mir = t->mir;
   mir->code = grow_array(mir->code, &mir->capacity, mir->count + 1, sizeof(*mir->code), t->e);
   struct sc_minst *in = &mir->code[mir->count++];
   mir->work[SC_PASS_TRANSLATE]++;
   *in = (struct sc_minst){.op = (uint16_t)op, .mod = (uint16_t)mod, .dst = dst, .a = a, .b = b,
                           .c = c, .label = UINT32_MAX, .line = t->line, .exact = t->exact};
   return in;
}

static void emit_flow(struct sc_tx *t, enum isa_op op, struct sc_opnd a, uint32_t label, uint32_t mod)
{
   struct sc_minst *in = emit(t, op, mod, sc_none(), a, sc_none(), sc_none());
   in->label = label;
}

static bool opnd_uniform(const struct sc_tx *t, struct sc_opnd o)
{
   return o.kind != SC_REG || t->mir->regs[o.value].uniform;
}

/* A 32-bit result register, uniform if every source is. */
static struct sc_opnd result32(struct sc_tx *t, struct sc_opnd a, struct sc_opnd b, struct sc_opnd c)
{
   bool u = opnd_uniform(t, a) && opnd_uniform(t, b) && opnd_uniform(t, c);
   return sc_reg(new_reg(t, 1, u));
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
static bool fold(enum isa_op op, struct sc_opnd a, struct sc_opnd b, struct sc_opnd c, uint32_t *r)
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

static struct sc_opnd alu(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd a,
                          struct sc_opnd b, struct sc_opnd c)
{
   uint32_t folded;
   if (fold(op, a, b, c, &folded))
      return sc_imm(folded);
   if (op == ISA_OP_IMAD && c.kind == SC_IMM && c.value == 0) {   /* a * b + 0 */
      op = ISA_OP_IMUL;
      c = sc_none();
   }
   struct sc_opnd d = result32(t, a, b, c);
   emit(t, op, mod, d, a, b, c);
   return d;
}

static struct sc_opnd alu64(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd a,
                            struct sc_opnd b)
{
   bool u = opnd_uniform(t, a) && opnd_uniform(t, b);
   struct sc_opnd d = sc_reg(new_reg(t, 2, u));
   emit(t, op, mod, d, a, b, sc_none());
   return d;
}

/* A 64-bit value in a two-part register (immediates materialized). */
static struct sc_opnd pair64(struct sc_tx *t, uint64_t v)
{
   struct sc_opnd d = sc_reg(new_reg(t, 2, true));
   struct sc_opnd lo = d, hi = d;
   hi.part = 1;
   emit(t, ISA_OP_MOV, 0, lo, sc_imm((uint32_t)v), sc_none(), sc_none());
   emit(t, ISA_OP_MOV, 0, hi, sc_imm((uint32_t)(v >> 32)), sc_none(), sc_none());
   return d;
}

static struct sc_opnd part_of(struct sc_opnd o, uint32_t part)
{
   if (o.kind == SC_REG)
      o.part = (uint8_t)part;
   return o;
}

/* ---- values ---------------------------------------------------------------------- */

/* The value slot of an id, which must be defined (malformed input names
 * any id at all). */
static struct val *val_at(struct sc_tx *t, uint32_t id)
{
   (void)idp(t, id);
   return &t->vals[id];
}

static struct val *val_new(struct sc_tx *t, uint32_t id, uint32_t n)
{
   struct val *v = val_at(t, id);
   free(v->comp);
   v->kind = VAL_REGS;
   v->n = (uint16_t)n;
   v->comp = calloc(n ? n : 1, sizeof(*v->comp));
   if (!v->comp)
      FAIL("out of memory");
   return v;
}

static void constant_components(struct sc_tx *t, uint32_t id, struct sc_opnd *out, uint32_t *n);

static void own(struct sc_tx *t, void *c)
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

/* Frees an array get() made (the most recent ones are the likely ones). */
static void disown(struct sc_tx *t, void *c)
{
   for (uint32_t i = t->owned_n; i-- > 0;) {
      if (t->owned[i] == c) {
         t->owned[i] = t->owned[--t->owned_n];
         break;
      }
   }
   free(c);
}

/* Scalar constant: an immediate, or a 64-bit value in a register pair
 * materialized where it is used (so it dominates the use). */
static struct sc_opnd scalar_constant(struct sc_tx *t, uint32_t type, uint64_t bits)
{
   struct tinfo ti = type_of(t, type);
   if (is64(&ti))
      return pair64(t, bits);
   return sc_imm((uint32_t)bits);
}

static void constant_components(struct sc_tx *t, uint32_t id, struct sc_opnd *out, uint32_t *n)
{
   const struct sc_id *d = idp(t, id);
   uint32_t at = d->def, len = sc_len(t->m, at);
   switch (d->opcode) {
   case SpvOpConstantTrue:
   case SpvOpSpecConstantTrue: out[(*n)++] = sc_imm(1); return;
   case SpvOpConstantFalse:
   case SpvOpSpecConstantFalse: out[(*n)++] = sc_imm(0); return;
   case SpvOpConstant:
   case SpvOpSpecConstant: {
      uint64_t bits = sc_arg(t, at, 3);
      if (len > 4)
         bits |= (uint64_t)sc_arg(t, at, 4) << 32;
      out[(*n)++] = scalar_constant(t, d->type, bits);
      return;
   }
   case SpvOpConstantComposite:
   case SpvOpSpecConstantComposite:
      for (uint32_t i = 3; i < len; i++)
         constant_components(t, sc_arg(t, at, i), out, n);
      return;
   case SpvOpConstantNull:
   case SpvOpUndef: {
      uint32_t count = components(t, d->type);
      for (uint32_t i = 0; i < count; i++) {
         struct tinfo s = scalar_at(t, d->type, i);
         out[(*n)++] = scalar_constant(t, s.id, 0);
      }
      return;
   }
   default:
      FAIL("unsupported constant (opcode %u)", d->opcode);
   }
}

static bool is_constant_op(uint16_t op)
{
   switch (op) {
   case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstant: case SpvOpConstantComposite:
   case SpvOpConstantNull: case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse:
   case SpvOpSpecConstant: case SpvOpSpecConstantComposite: case SpvOpUndef:
      return true;
   default:
      return false;
   }
}

static struct sc_opnd pointer_address(struct sc_tx *t, const struct ptr *p);

/* An array of n operands that get() hands to its caller to free. */
static struct sc_opnd *owned_array(struct sc_tx *t, uint32_t n)
{
   struct sc_opnd *c = calloc(n ? n : 1, sizeof(*c));
   if (!c)
      FAIL("out of memory");
   own(t, c);
   return c;
}

/* The components of a value; constants are produced on the spot. The
 * returned array is the caller's to free when `owned` is set. */
static struct sc_opnd *get(struct sc_tx *t, uint32_t id, uint32_t *n, bool *owned)
{
   const struct sc_id *d = idp(t, id);
   if (is_constant_op(d->opcode)) {
      struct sc_opnd *c = owned_array(t, components(t, d->type));
      uint32_t k = 0;
      constant_components(t, id, c, &k);
      *n = k;
      *owned = true;
      return c;
   }
   struct val *v = val_at(t, id);
   if (v->kind == VAL_PTR && v->ptr->storage == SpvStorageClassPhysicalStorageBuffer) {
      /* A PhysicalStorageBuffer pointer is also a value (OpSelect, OpPhi,
       * OpStore of it, a function's argument): its 64-bit address. An access
       * chain keeps it as an address expression, so the sum is formed here,
       * at the use, whose position its own registers dominate. */
      struct sc_opnd *c = owned_array(t, 1);
      c[0] = pointer_address(t, v->ptr);
      *n = 1;
      *owned = true;
      return c;
   }
   if (v->kind != VAL_REGS)
      FAIL("value %u (opcode %u) is used before it is defined, or is not a value", id, d->opcode);
   *n = v->n;
   *owned = false;
   return v->comp;
}

/* Scalar component i of a value. */
static struct sc_opnd get1(struct sc_tx *t, uint32_t id, uint32_t i)
{
   uint32_t n;
   bool owned;
   struct sc_opnd *c = get(t, id, &n, &owned);
   if (i >= n)
      FAIL("component %u of a %u-component value", i, n);
   struct sc_opnd r = c[i];
   if (owned)
      disown(t, c);
   return r;
}

/* A constant's value if it is a 32-bit scalar constant. */
static bool const_u32(const struct sc_tx *t, uint32_t id, uint32_t *value)
{
   const struct sc_id *d = idp(t, id);
   if (d->opcode == SpvOpConstant && sc_len(t->m, d->def) == 4) {
      *value = t->m->words[d->def + 3];
      return true;
   }
   return false;
}

/* An index's value if it is a constant below 2^32: access chains index
 * with integers of either width ("Indexes ... must be scalar integer
 * types", SPIR-V 3.42.8, OpAccessChain). */
static bool const_index(const struct sc_tx *t, uint32_t id, uint32_t *value)
{
   const struct sc_id *d = idp(t, id);
   if (d->opcode == SpvOpConstant && sc_len(t->m, d->def) == 5 && t->m->words[d->def + 4] == 0) {
      *value = t->m->words[d->def + 3];
      return true;
   }
   return const_u32(t, id, value);
}

static bool id_divergent(const struct sc_tx *t, uint32_t id)
{
   return id < t->m->bound && t->divergent[id] != 0;
}

/* Fresh registers for the components of result id. */
static struct val *result(struct sc_tx *t, uint32_t id, uint32_t type)
{
   uint32_t n = components(t, type);
   struct val *v = val_new(t, id, n);
   bool u = !id_divergent(t, id);
   for (uint32_t i = 0; i < n; i++) {
      struct tinfo s = scalar_at(t, type, i);
      v->comp[i] = sc_reg(new_reg(t, is64(&s) ? 2 : 1, u));
   }
   return v;
}

/* Copies src into dst (same shape), 64-bit components as two moves. */
static void copy_scalar(struct sc_tx *t, struct sc_opnd dst, struct sc_opnd src, bool wide)
{
   if (!wide) {
      emit(t, ISA_OP_MOV, 0, dst, src, sc_none(), sc_none());
      return;
   }
   emit(t, ISA_OP_MOV64, 0, dst, src, sc_none(), sc_none());
}

/* ---- layouts ------------------------------------------------------------------------ */

/* softgpu's own layout (shared and private memory): scalars 4 or 8 bytes,
 * vectors and matrices packed, arrays and structs aligned to their
 * elements. Returns the size and writes the alignment. */
static uint32_t implicit_size(const struct sc_tx *t, uint32_t type, uint32_t *align)
{
   struct tinfo ti = type_of(t, type);
   uint32_t a = 4, size;
   switch (ti.kind) {
   case TK_BOOL: case TK_INT: case TK_FLOAT: case TK_POINTER:
      size = a = is64(&ti) ? 8 : 4;
      break;
   case TK_VECTOR: case TK_MATRIX: case TK_ARRAY: {
      uint32_t ea, es = implicit_size(t, ti.elem, &ea);
      uint32_t stride = (es + ea - 1) / ea * ea;
      if ((uint64_t)stride * ti.count > (1ull << 30))
         FAIL("a %u-element array of %u bytes is too large", ti.count, stride);
      size = stride * ti.count;
      a = ea;
      break;
   }
   case TK_STRUCT: {
      size = 0;
      for (uint32_t i = 0; i < ti.count; i++) {
         uint32_t ma, ms = implicit_size(t, struct_member(t, type, i), &ma);
         size = (size + ma - 1) / ma * ma + ms;
         a = ma > a ? ma : a;
      }
      size = (size + a - 1) / a * a;
      break;
   }
   default:
      FAIL("type (opcode %u) cannot be placed in shared or private memory", idp(t, type)->opcode);
   }
   if (align)
      *align = a;
   return size;
}

static uint32_t implicit_member_offset(const struct sc_tx *t, uint32_t type, uint32_t member)
{
   uint32_t off = 0;
   for (uint32_t i = 0; i <= member; i++) {
      uint32_t ma, ms = implicit_size(t, struct_member(t, type, i), &ma);
      off = (off + ma - 1) / ma * ma;
      if (i == member)
         return off;
      off += ms;
   }
   return off;
}

/* Stride of an array's elements. */
static uint32_t array_stride(const struct sc_tx *t, const struct ptr *p, uint32_t array_type)
{
   if (p->explicit_layout) {
      uint32_t s = idp(t, array_type)->array_stride;
      if (!s)
         FAIL("array in a buffer has no ArrayStride decoration");
      return s;
   }
   struct tinfo ti = type_of(t, array_type);
   uint32_t a, s = implicit_size(t, ti.elem, &a);
   return (s + a - 1) / a * a;
}

static uint32_t scalar_bytes(const struct sc_tx *t, uint32_t type)
{
   struct tinfo ti = type_of(t, type);
   return is64(&ti) ? 8 : 4;
}

/* ---- addresses ------------------------------------------------------------------------- */

static struct ptr *ptr_new(struct sc_tx *t, uint32_t id)
{
   struct val *v = val_at(t, id);
   free(v->ptr);
   v->kind = VAL_PTR;
   v->ptr = calloc(1, sizeof(*v->ptr));
   if (!v->ptr)
      FAIL("out of memory");
   return v->ptr;
}

/* offset += index * stride, as a register when either is dynamic (32-bit
 * shared and private offsets). */
static struct sc_opnd add_scaled(struct sc_tx *t, struct sc_opnd offset, struct sc_opnd index,
                                 uint32_t stride)
{
   if (index.kind == SC_IMM && offset.kind == SC_IMM)
      return sc_imm(offset.value + index.value * stride);
   if (index.kind == SC_IMM)
      return index.value ? alu(t, ISA_OP_IADD, 0, offset, sc_imm(index.value * stride), sc_none())
                         : offset;
   return alu(t, ISA_OP_IMAD, 0, index, sc_imm(stride), offset);
}

static bool is_buffer_storage(uint32_t storage)
{
   return storage == SpvStorageClassStorageBuffer || storage == SpvStorageClassUniform ||
          storage == SpvStorageClassPushConstant ||
          storage == SpvStorageClassPhysicalStorageBuffer;
}

/* sext(index) * stride as a two-part register. A 32-bit index becomes the
 * pair's halves with 32-bit instructions (a shift pair for a power of two,
 * IMUL and IMULHI_S otherwise: stride < 2^31, so the signed high product
 * is the 64-bit product's high half); a 64-bit index (a pair) is
 * multiplied in 64 bits. */
static struct sc_opnd scaled64(struct sc_tx *t, struct sc_opnd index, bool index64, uint32_t stride)
{
   uint32_t k = (uint32_t)__builtin_ctz(stride);
   bool pow2 = (stride & (stride - 1)) == 0;
   if (index64) {
      if (stride == 1)
         return index;
      return pow2 ? alu64(t, ISA_OP_SHL64, 0, index, sc_imm(k))
                  : alu64(t, ISA_OP_IMUL64, 0, index, sc_imm(stride));
   }
   if (stride == 1)
      return alu64(t, ISA_OP_SEXT64, 0, index, sc_none());
   struct sc_opnd d = sc_reg(new_reg(t, 2, opnd_uniform(t, index)));
   if (pow2) {
      emit(t, ISA_OP_SHL, 0, part_of(d, 0), index, sc_imm(k), sc_none());
      emit(t, ISA_OP_SHR_S, 0, part_of(d, 1), index, sc_imm(32 - k), sc_none());
   } else {
      emit(t, ISA_OP_IMUL, 0, part_of(d, 0), index, sc_imm(stride), sc_none());
      emit(t, ISA_OP_IMULHI_S, 0, part_of(d, 1), index, sc_imm(stride), sc_none());
   }
   return d;
}

/* A buffer pointer's offset += index * stride, in 64 bits (struct ptr dyn):
 * a constant sum stays in the immediate while it is below 2^31. */
static void buffer_advance(struct sc_tx *t, struct ptr *p, struct sc_opnd index, bool index64,
                           uint32_t stride)
{
   if (index.kind == SC_IMM) {
      int64_t sum = (int64_t)p->offset.value + (int64_t)(int32_t)index.value * stride;
      if (sum >= 0 && sum < INT64_C(0x80000000)) {
         p->offset = sc_imm((uint32_t)sum);
         return;
      }
      struct sc_opnd c = pair64(t, (uint64_t)sum);
      p->dyn = p->dyn.kind == SC_REG ? alu64(t, ISA_OP_IADD64, 0, p->dyn, c) : c;
      p->offset = sc_imm(0);
      return;
   }
   struct sc_opnd s = scaled64(t, index, index64, stride);
   p->dyn = p->dyn.kind == SC_REG ? alu64(t, ISA_OP_IADD64, 0, p->dyn, s) : s;
}

/* p's address += index * stride (index64: a 64-bit index, as a pair). A
 * shared or private address keeps its constant part in disp: tile[k][x]
 * with a constant k costs no add, and a dynamic index one IMUL or IMAD
 * (never an IMAD of two immediates, which would take a register for one
 * of them). */
static void advance_by(struct sc_tx *t, struct ptr *p, struct sc_opnd index, bool index64,
                       uint32_t stride)
{
   if (is_buffer_storage(p->storage)) {
      buffer_advance(t, p, index, index64, stride);
      return;
   }
   if (index64)
      index = part_of(index, 0);   /* shared and private offsets are 32-bit */
   if (p->offset.kind == SC_IMM) {
      p->disp += p->offset.value;
      p->offset = sc_imm(0);
   }
   if (index.kind == SC_IMM) {
      p->disp += index.value * stride;
   } else if (p->offset.kind == SC_IMM) {
      p->offset = stride == 1 ? index : alu(t, ISA_OP_IMUL, 0, index, sc_imm(stride), sc_none());
   } else {
      p->offset = add_scaled(t, p->offset, index, stride);
   }
}

static void advance(struct sc_tx *t, struct ptr *p, struct sc_opnd index, uint32_t stride)
{
   advance_by(t, p, index, false, stride);
}

/* The 64-bit address of a buffer pointer's dynamic part, and the constant
 * displacement that goes into the instruction's offset field. */
static struct sc_opnd buffer_address(struct sc_tx *t, const struct ptr *p, uint32_t extra,
                                     uint32_t *imm)
{
   struct sc_opnd a = p->base;
   if (p->dyn.kind == SC_REG)
      a = alu64(t, ISA_OP_IADD64, 0, a, p->dyn);
   uint64_t disp = (uint64_t)p->offset.value + extra;
   if (disp < 0x80000000u) {
      *imm = (uint32_t)disp;
      return a;
   }
   *imm = 0;
   return alu64(t, ISA_OP_IADD64, 0, a, pair64(t, disp));
}

/* A buffer pointer's whole 64-bit address, in a two-part register. */
static struct sc_opnd pointer_address(struct sc_tx *t, const struct ptr *p)
{
   uint32_t imm;
   struct sc_opnd a = buffer_address(t, p, 0, &imm);
   return imm ? alu64(t, ISA_OP_IADD64, 0, a, sc_imm(imm)) : a;
}

/* The 32-bit address of a shared/private pointer plus a displacement:
 * (register or NONE, immediate). */
static struct sc_opnd local_address(struct sc_tx *t, const struct ptr *p, uint32_t extra,
                                    uint32_t *imm)
{
   (void)t;
   if (p->offset.kind == SC_IMM) {
      *imm = p->offset.value + p->disp + extra;
      return sc_none();
   }
   *imm = p->disp + extra;
   return p->offset;
}

/* The load (store: +1) instruction for a storage class. */
static enum isa_op memory_op(struct sc_tx *t, uint32_t storage, bool store)
{
   enum isa_op op;
   if (is_buffer_storage(storage))
      op = ISA_OP_LDG;
   else if (storage == SpvStorageClassWorkgroup)
      op = ISA_OP_LDS;
   else if (storage == SpvStorageClassPrivate || storage == SpvStorageClassFunction)
      op = ISA_OP_LDP;
   else
      FAIL("loads and stores through storage class %u are not supported", storage);
   return store ? (enum isa_op)(op + 1) : op;
}

/* Component offsets of a value of `type` stored at a pointer, in
 * register-component order. */
static void component_offsets(struct sc_tx *t, const struct ptr *p, uint32_t type, uint32_t base,
                              uint32_t vector_stride, uint32_t *out, uint32_t *n)
{
   struct tinfo ti = type_of(t, type);
   switch (ti.kind) {
   case TK_BOOL: case TK_INT: case TK_FLOAT: case TK_POINTER:
      out[(*n)++] = base;
      return;
   case TK_VECTOR: {
      uint32_t step = vector_stride ? vector_stride : scalar_bytes(t, ti.elem);
      for (uint32_t i = 0; i < ti.count; i++)
         component_offsets(t, p, ti.elem, base + i * step, 0, out, n);
      return;
   }
   case TK_MATRIX: {
      /* Columns: MatrixStride apart, or for row-major matrices the column
       * components are MatrixStride apart and columns one scalar apart. */
      uint32_t stride = p->matrix_stride;
      if (p->explicit_layout && !stride)
         FAIL("matrix in a buffer has no MatrixStride decoration");
      struct tinfo col = type_of(t, ti.elem);
      uint32_t sb = scalar_bytes(t, col.elem);
      if (!p->explicit_layout)
         stride = sb * col.count;
      for (uint32_t c = 0; c < ti.count; c++) {
         if (p->explicit_layout && p->row_major)
            component_offsets(t, p, ti.elem, base + c * sb, stride, out, n);
         else
            component_offsets(t, p, ti.elem, base + c * stride, 0, out, n);
      }
      return;
   }
   case TK_ARRAY: {
      uint32_t stride = array_stride(t, p, type);
      for (uint32_t i = 0; i < ti.count; i++)
         component_offsets(t, p, ti.elem, base + i * stride, vector_stride, out, n);
      return;
   }
   case TK_STRUCT: {
      const struct sc_id *sd = idp(t, type);
      for (uint32_t i = 0; i < ti.count; i++) {
         uint32_t off = p->explicit_layout
                           ? (i < sd->member_count ? sd->members[i].offset : 0)
                           : implicit_member_offset(t, type, i);
         struct ptr inner = *p;
         if (p->explicit_layout && i < sd->member_count) {
            inner.matrix_stride = sd->members[i].matrix_stride;
            inner.row_major = sd->members[i].row_major;
         }
         component_offsets(t, &inner, struct_member(t, type, i), base + off, 0, out, n);
      }
      return;
   }
   default:
      FAIL("cannot load or store a value of this type (opcode %u)", idp(t, type)->opcode);
   }
}

static void open_construct(struct sc_tx *t, struct construct c);
static void close_construct(struct sc_tx *t);

/*
 * Robust buffer access (VkPhysicalDeviceFeatures::robustBufferAccess):
 * "Out-of-bounds buffer loads will return any of the following values:
 * ... Zero values" and "Out-of-bounds writes may modify values within the
 * memory range(s) bound to the buffer, but must not modify any other
 * memory"; an access is out of bounds if any byte of it is. So the access
 * runs under an IF on offset + extent <= range, and loads and atomics
 * yield zero otherwise. Returns the label closing the IF, or UINT32_MAX
 * when no guard is needed (feature off, push constants, device addresses).
 */
static uint32_t guard_begin(struct sc_tx *t, const struct ptr *p, uint32_t extent)
{
   if (!t->o->robust_buffer_access || p->range.kind != SC_REG || !is_buffer_storage(p->storage))
      return UINT32_MAX;
   /* Robust buffer access (VkPhysicalDeviceFeatures): "Accesses to
    * buffers are bounds-checked against the range of the buffer
    * descriptor", so the whole access, [offset, offset + extent), must lie
    * in [0, range): both compared in 64 bits, a negative offset (a
    * sign-extended index) as a huge unsigned one. */
   struct sc_opnd start = p->dyn, ok;
   if (start.kind == SC_REG) {
      if (p->offset.value)
         start = alu64(t, ISA_OP_IADD64, 0, start, sc_imm(p->offset.value));
      struct sc_opnd below = alu(t, ISA_OP_ICMP64, ISA_ICMP_LE_U, start, p->range, sc_none());
      struct sc_opnd room = alu64(t, ISA_OP_ISUB64, 0, p->range, start);
      struct sc_opnd fits = alu(t, ISA_OP_ICMP64, ISA_ICMP_GE_U, room, sc_imm(extent), sc_none());
      ok = alu(t, ISA_OP_AND, 0, below, fits, sc_none());
   } else {
      /* offset + extent < 2^32: a descriptor's range is below 4 GiB */
      struct sc_opnd limit = part_of(p->range, 0);
      ok = alu(t, ISA_OP_ICMP, ISA_ICMP_GE_U, limit, sc_imm(p->offset.value + extent), sc_none());
   }
   uint32_t skip = new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX, .restore_label = skip});
   emit_flow(t, ISA_OP_IF, ok, skip, 0);
   return skip;
}

static void guard_end(struct sc_tx *t, uint32_t skip)
{
   if (skip == UINT32_MAX)
      return;
   place_label(t, skip);
   emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
}

/* Zero into a result register (its lanes that a guarded access skips). */
static void zero_fill(struct sc_tx *t, struct sc_opnd r, bool wide)
{
   emit(t, ISA_OP_MOV, 0, part_of(r, 0), sc_imm(0), sc_none(), sc_none());
   if (wide)
      emit(t, ISA_OP_MOV, 0, part_of(r, 1), sc_imm(0), sc_none(), sc_none());
}

/* The bytes an access of `type` at offsets offs spans from the pointer. */
static uint32_t access_extent(struct sc_tx *t, uint32_t type, const uint32_t *offs, uint32_t n)
{
   uint32_t end = 0;
   for (uint32_t i = 0; i < n; i++) {
      struct tinfo s = scalar_at(t, type, i);
      uint32_t e = offs[i] + (is64(&s) ? 8u : 4u);
      end = e > end ? e : end;
   }
   return end;
}

/* Loads a value of `type` through p into regs (one per component). */
static void load(struct sc_tx *t, const struct ptr *p, uint32_t type, struct sc_opnd *regs,
                 uint32_t vector_stride)
{
   uint32_t offs[MAX_COMPONENTS], n = 0;
   component_offsets(t, p, type, 0, vector_stride, offs, &n);
   uint32_t guard = UINT32_MAX;
   if (t->o->robust_buffer_access && p->range.kind == SC_REG) {
      for (uint32_t i = 0; i < n; i++) {
         struct tinfo s = scalar_at(t, type, i);
         zero_fill(t, regs[i], is64(&s));
      }
      guard = guard_begin(t, p, access_extent(t, type, offs, n));
   }
   enum isa_op op = memory_op(t, p->storage, false);
   bool buffer = op == ISA_OP_LDG;
   struct sc_opnd addr = sc_none();
   uint32_t base_imm = 0;
   if (buffer)
      addr = buffer_address(t, p, 0, &base_imm);
   else
      addr = local_address(t, p, 0, &base_imm);
   /* Push constants stay put during a dispatch, and the root table holds
    * them all: a constant offset is always in bounds. */
   bool invariant = p->storage == SpvStorageClassPushConstant && p->dyn.kind != SC_REG;
   for (uint32_t i = 0; i < n; i++) {
      struct tinfo s = scalar_at(t, type, i);
      struct sc_minst *in = emit(t, op, is64(&s) ? 2 : 1, regs[i], addr, sc_none(), sc_none());
      in->imm = base_imm + offs[i];
      in->invariant = invariant;
   }
   guard_end(t, guard);
}

static void store(struct sc_tx *t, const struct ptr *p, uint32_t type, const struct sc_opnd *regs,
                  uint32_t vector_stride)
{
   uint32_t offs[MAX_COMPONENTS], n = 0;
   component_offsets(t, p, type, 0, vector_stride, offs, &n);
   uint32_t guard = guard_begin(t, p, access_extent(t, type, offs, n));
   enum isa_op op = memory_op(t, p->storage, true);
   struct sc_opnd addr;
   uint32_t base_imm = 0;
   if (op == ISA_OP_STG)
      addr = buffer_address(t, p, 0, &base_imm);
   else
      addr = local_address(t, p, 0, &base_imm);
   for (uint32_t i = 0; i < n; i++) {
      struct tinfo s = scalar_at(t, type, i);
      struct sc_opnd data = regs[i];
      /* Memory instructions take no immediate operands. */
      if (data.kind == SC_IMM)
         data = alu(t, ISA_OP_MOV, 0, data, sc_none(), sc_none());
      struct sc_minst *in = emit(t, op, is64(&s) ? 2 : 1, sc_none(), addr, data, sc_none());
      in->imm = base_imm + offs[i];
   }
   guard_end(t, guard);
}

/* ---- resources and variables --------------------------------------------------------- */

static const struct sc_binding *find_binding(struct sc_tx *t, uint32_t set, uint32_t binding)
{
   if (set < t->o->set_count) {
      const struct sc_set_layout *l = &t->o->sets[set];
      for (uint32_t i = 0; i < l->binding_count; i++) {
         if (l->bindings[i].binding == binding)
            return &l->bindings[i];
      }
   }
   FAIL("the shader uses descriptor set %u binding %u, which the pipeline layout does not "
        "declare", set, binding);
}

static bool dynamic_kind(enum sc_descriptor_kind k)
{
   return k == SC_DESC_STORAGE_BUFFER_DYNAMIC || k == SC_DESC_UNIFORM_BUFFER_DYNAMIC;
}

/* A uniform two-part register loaded from root table + offset. */
static struct sc_opnd root_load64(struct sc_tx *t, uint32_t offset)
{
   struct sc_opnd r = sc_reg(new_reg(t, 2, true));
   struct sc_minst *in = emit(t, ISA_OP_LDG, 2, r, t->root, sc_none(), sc_none());
   in->imm = offset;
   return r;
}

/* The buffer a descriptor (index-th element of a binding) describes: base
 * address (with any dynamic offset applied) and range. */
static void load_descriptor(struct sc_tx *t, struct ptr *p, struct sc_opnd set_va,
                            const struct sc_binding *b, struct sc_opnd index)
{
   struct sc_opnd at = set_va;
   uint32_t imm = b->offset;
   if (index.kind == SC_REG) {
      struct sc_opnd off = alu(t, ISA_OP_IMUL, 0, index, sc_imm(HW_DESCRIPTOR_BYTES), sc_none());
      at = alu64(t, ISA_OP_IADD64, 0, set_va, alu64(t, ISA_OP_ZEXT64, 0, off, sc_none()));
   } else {
      imm += index.value * HW_DESCRIPTOR_BYTES;
   }
   bool u = opnd_uniform(t, at);
   struct sc_opnd va = sc_reg(new_reg(t, 2, u)), range = sc_none();
   emit(t, ISA_OP_LDG, 2, va, at, sc_none(), sc_none())->imm = imm + HW_DESCRIPTOR_VA_OFFSET;
   /* The range only matters to robust accesses and OpArrayLength. */
   if (t->need_ranges) {
      range = sc_reg(new_reg(t, 2, u));
      emit(t, ISA_OP_LDG, 2, range, at, sc_none(), sc_none())->imm =
         imm + HW_DESCRIPTOR_RANGE_OFFSET;
   }
   if (dynamic_kind(b->kind)) {
      /* this element's dynamic offset: root[DYNAMIC + 4 * (first + index)] */
      struct sc_opnd from = t->root;
      uint32_t k = b->dynamic_index;
      if (index.kind == SC_REG) {
         struct sc_opnd off = alu(t, ISA_OP_IMUL, 0, index, sc_imm(4), sc_none());
         from = alu64(t, ISA_OP_IADD64, 0, t->root, alu64(t, ISA_OP_ZEXT64, 0, off, sc_none()));
      } else {
         k += index.value;
      }
      struct sc_opnd dyn = sc_reg(new_reg(t, 1, u));
      emit(t, ISA_OP_LDG, 1, dyn, from, sc_none(), sc_none())->imm = HW_ROOT_DYNAMIC_OFFSET + 4 * k;
      va = alu64(t, ISA_OP_IADD64, 0, va, alu64(t, ISA_OP_ZEXT64, 0, dyn, sc_none()));
   }
   p->base = va;
   p->range = range;
   p->offset = sc_imm(0);
   p->dyn = sc_none();
}

/* A buffer variable (StorageBuffer, Uniform): its set's address, and for a
 * single descriptor its buffer, loaded once at the start of the program. */
static void buffer_variable(struct sc_tx *t, uint32_t var, struct ptr *p, uint32_t pointee)
{
   const struct sc_id *d = idp(t, var);
   if (!d->has_set || !d->has_binding)
      FAIL("buffer variable %u has no DescriptorSet/Binding decoration", var);
   if (d->set >= HW_ROOT_SETS)
      FAIL("descriptor set %u is beyond the %u sets softgpu supports", d->set, HW_ROOT_SETS);
   const struct sc_binding *b = find_binding(t, d->set, d->binding);
   p->explicit_layout = true;
   p->binding = b;
   /* Loaded in the prologue, which dominates every use: once per set. */
   if (t->set_va[d->set].kind != SC_REG)
      t->set_va[d->set] = root_load64(t, HW_ROOT_SETS_OFFSET + 8 * d->set);
   p->set_va = t->set_va[d->set];
   if (b->kind == SC_DESC_INLINE_UNIFORM_BLOCK) {
      /* the block is the set's own memory: no descriptor, no range */
      p->base = p->set_va;
      p->offset = sc_imm(b->offset);
      return;
   }
   struct tinfo ti = type_of(t, pointee);
   if (ti.kind == TK_ARRAY || ti.kind == TK_RARRAY) {
      p->desc_array = true;   /* the access chain picks the descriptor */
      return;
   }
   load_descriptor(t, p, p->set_va, b, sc_imm(0));
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
   return (v + a - 1) / a * a;
}

/*
 * Per-invocation variables live in registers when every use is a whole load
 * or store, directly or through access chains with constant indices. Under
 * SIMT, writes are masked per lane and control flow is structured, so a
 * register behaves exactly like the variable: no SSA form is needed, and
 * the SPIR-V optimizer need not run. Other variables (dynamically indexed
 * arrays, for one) live in private memory.
 */
#define MAX_PROMOTED_SLOTS 32u


/* Scalars in a value of `type`, or UINT32_MAX if more than `limit` or not
 * kept in registers. */
static uint32_t flat_size(const struct sc_tx *t, uint32_t type, uint32_t limit, int depth)
{
   if (depth > 16 || type >= t->m->bound)
      return UINT32_MAX;
   struct tinfo ti = type_of(t, type);
   uint64_t n = 0;
   switch (ti.kind) {
   case TK_BOOL: case TK_INT: case TK_FLOAT: return 1;
   case TK_VECTOR: case TK_MATRIX: case TK_ARRAY: {
      uint32_t e = flat_size(t, ti.elem, limit, depth + 1);
      n = e == UINT32_MAX ? UINT64_MAX : (uint64_t)ti.count * e;
      break;
   }
   case TK_STRUCT:
      for (uint32_t i = 0; i < ti.count && n <= limit; i++) {
         uint32_t e = flat_size(t, struct_member(t, type, i), limit, depth + 1);
         n = e == UINT32_MAX ? UINT64_MAX : n + e;
      }
      break;
   default: return UINT32_MAX;
   }
   return n > limit ? UINT32_MAX : (uint32_t)n;
}

/* Whether an access chain's indices are all constants. */
static bool constant_chain(const struct sc_tx *t, uint32_t at)
{
   for (uint32_t k = 4; k < sc_len(t->m, at); k++) {
      uint32_t c;
      if (!const_index(t, sc_arg(t, at, k), &c))
         return false;
   }
   return true;
}

/* The words of each literal of the OpSwitch at `at`: OpSwitch, "Literal
 * must be ... the same width as Selector's type" (SPIR-V 3.42.17), so two
 * for a 64-bit selector. Malformed input counts as one word. */
static uint32_t switch_literal_words(const struct sc_tx *t, uint32_t at)
{
   const struct sc_module *m = t->m;
   uint32_t sel = sc_len(m, at) > 1 ? m->words[at + 1] : 0;
   uint32_t type = sel && sel < m->bound ? m->ids[sel].type : 0;
   if (!type || type >= m->bound || m->ids[type].opcode != SpvOpTypeInt)
      return 1;
   return sc_len(m, m->ids[type].def) > 2 && m->words[m->ids[type].def + 2] == 64 ? 2 : 1;
}

/* Whether word k >= 2 of the OpSwitch at `at` is a target label (the
 * default, or a case's after its literal) rather than a literal. */
bool sc_switch_target(const struct sc_tx *t, uint32_t at, uint32_t k)
{
   uint32_t lw = switch_literal_words(t, at);
   return k == 2 || (k > 2 && (k - 3) % (lw + 1) == lw);
}

/* Whether operand word k of the instruction at `at` is a literal rather
 * than an id, for the instructions that commonly carry literals (a
 * literal mistaken for an id only costs a promotion). */
static bool literal_operand(const struct sc_tx *t, uint32_t at, uint32_t k)
{
   uint16_t op = sc_op(t->m, at);
   switch (op) {
   case SpvOpLine: return k >= 2;
   case SpvOpExtInst: return k == 4;
   case SpvOpLoad: return k >= 4;
   case SpvOpStore: case SpvOpCopyMemory: return k >= 3;
   case SpvOpCompositeExtract: return k >= 4;
   case SpvOpCompositeInsert: case SpvOpVectorShuffle: return k >= 5;
   case SpvOpSwitch: return k >= 3 && !sc_switch_target(t, at, k);
   case SpvOpLoopMerge: return k >= 3;
   case SpvOpSelectionMerge: return k >= 2;
   default:
      return op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor && k == 4;
   }
}

/* Marks t->promote for the per-invocation variables kept in registers:
 * every other use of a pointer into them disqualifies the variable. */
static void find_promotable(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   t->promote = calloc(m->bound, 1);
   t->slots = calloc(m->bound, sizeof(*t->slots));
   if (!t->promote || !t->slots)
      FAIL("out of memory");
   for (uint32_t id = 1; id < m->bound; id++) {
      const struct sc_id *d = &m->ids[id];
      if (d->opcode != SpvOpVariable || !d->def || sc_len(m, d->def) < 4)
         continue;
      uint32_t storage = m->words[d->def + 3];
      if (storage != SpvStorageClassFunction && storage != SpvStorageClassPrivate)
         continue;
      struct tinfo pt = type_of(t, d->type);
      t->promote[id] = flat_size(t, pt.elem, MAX_PROMOTED_SLOTS, 0) != UINT32_MAX;
   }
   for (uint32_t at = m->function_start; at < m->function_end; at += sc_len(m, at)) {
      uint16_t op = sc_op(m, at);
      uint32_t len = sc_len(m, at), self = sc_result_id(t, at);
      for (uint32_t k = 1; k < len; k++) {
         uint32_t id = m->words[at + k];
         if (id == self || id >= m->bound || literal_operand(t, at, k))
            continue;
         uint32_t var = sc_root_variable(t, id);
         if (!var || !t->promote[var])
            continue;
         bool split = op == SpvOpExtInst && k == 6 && len > 4 && m->words[at + 3] == m->glsl_std_450 &&
                      (m->words[at + 4] == GLSLstd450Modf || m->words[at + 4] == GLSLstd450Frexp);
         bool ok = split || (op == SpvOpLoad && k == 3) || (op == SpvOpStore && k == 1) ||
                   ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && k == 3 &&
                    constant_chain(t, at));
         if (!ok)
            t->promote[var] = 0;
      }
   }
}

/* Registers for a promoted variable, and its initializer. */
static void promoted_variable(struct sc_tx *t, uint32_t var, struct ptr *p, uint32_t at)
{
   uint32_t n = components(t, p->pointee);
   struct sc_opnd *slots = calloc(n ? n : 1, sizeof(*slots));
   if (!slots)
      FAIL("out of memory");
   free(t->slots[var]);   /* unvalidated input may define the variable twice */
   t->slots[var] = slots;
   for (uint32_t i = 0; i < n; i++) {
      struct tinfo s = scalar_at(t, p->pointee, i);
      uint32_t r = new_reg(t, is64(&s) ? 2 : 1, !t->var_divergent[var]);
      t->mir->regs[r].variable = true;
      slots[i] = sc_reg(r);
   }
   p->var = var;
   p->slot = 0;
   if (sc_len(t->m, at) > 4) {
      uint32_t c;
      bool owned;
      struct sc_opnd *v = get(t, sc_arg(t, at, 4), &c, &owned);
      for (uint32_t i = 0; i < n && i < c; i++) {
         struct tinfo s = scalar_at(t, p->pointee, i);
         copy_scalar(t, slots[i], v[i], is64(&s));
      }
      if (owned)
         disown(t, v);
   }
}

/* A constant-index step into a promoted variable: skip the scalars of the
 * elements or members before the one selected. */
static void step_into_promoted(struct sc_tx *t, struct ptr *p, uint32_t *type, uint32_t index_id)
{
   struct tinfo ti = type_of(t, *type);
   uint32_t index;
   if (!const_index(t, index_id, &index))
      FAIL("internal: dynamic index into a promoted variable");
   switch (ti.kind) {
   case TK_STRUCT:
      if (index >= ti.count)
         FAIL("invalid SPIR-V: struct member index");
      for (uint32_t i = 0; i < index; i++)
         p->slot += components(t, struct_member(t, *type, i));
      *type = struct_member(t, *type, index);
      return;
   case TK_ARRAY: case TK_VECTOR: case TK_MATRIX:
      if (index >= ti.count)
         FAIL("constant index %u out of range of a %u-element variable", index, ti.count);
      p->slot += index * components(t, ti.elem);
      *type = ti.elem;
      return;
   default:
      FAIL("invalid SPIR-V: access chain through a non-composite");
   }
}

/* Places a variable and gives it its pointer value. */
static void variable(struct sc_tx *t, uint32_t var)
{
   const struct sc_id *d = idp(t, var);
   uint32_t at = d->def;
   struct tinfo pt = type_of(t, d->type);
   struct ptr *p = ptr_new(t, var);
   p->storage = sc_arg(t, at, 3);
   p->pointee = pt.elem;
   p->offset = sc_imm(0);
   switch (p->storage) {
   case SpvStorageClassStorageBuffer:
   case SpvStorageClassUniform:
      buffer_variable(t, var, p, pt.elem);
      break;
   case SpvStorageClassPushConstant:
      p->explicit_layout = true;
      p->base = t->root;
      p->offset = sc_imm(HW_ROOT_PUSH_OFFSET);
      break;
   case SpvStorageClassWorkgroup: {
      uint32_t align, size = implicit_size(t, pt.elem, &align);
      t->shared_next = align_up(t->shared_next, align < 16 ? 16 : align);
      p->offset = sc_imm(t->shared_next);
      if ((uint64_t)t->shared_next + size > 65536)
         FAIL("the shader needs more than 65536 bytes of workgroup memory");
      t->shared_next += size;
      /* Workgroup initializers are OpConstantNull (VK_KHR_zero_initialize_
       * workgroup_memory): each CTA's shared memory starts zeroed. */
      if (sc_len(t->m, at) > 4) {
         if (idp(t, sc_arg(t, at, 4))->opcode != SpvOpConstantNull)
            FAIL("a Workgroup variable's initializer must be OpConstantNull");
         t->mir->zero_shared = true;
      }
      break;
   }
   case SpvStorageClassPrivate:
   case SpvStorageClassFunction: {
      if (t->promote[var]) {
         promoted_variable(t, var, p, at);
         break;
      }
      uint32_t align, size = implicit_size(t, pt.elem, &align);
      t->private_next = align_up(t->private_next, align);
      p->offset = sc_imm(t->private_next);
      if ((uint64_t)t->private_next + size > 65536)
         FAIL("the shader needs more than 65536 bytes of private memory per invocation");
      t->private_next += size;
      if (sc_len(t->m, at) > 4) {
         uint32_t n;
         bool owned;
         struct sc_opnd *c = get(t, sc_arg(t, at, 4), &n, &owned);
         store(t, p, pt.elem, c, 0);
         if (owned)
            disown(t, c);
      }
      break;
   }
   case SpvStorageClassInput:
      if (!d->builtin)
         FAIL("input variable %u is not a built-in", var);
      p->builtin = d->builtin;
      break;
   default:
      FAIL("variables of storage class %u are not supported", p->storage);
   }
}

/* ---- built-ins ------------------------------------------------------------------------ */

static struct sc_opnd sreg(struct sc_tx *t, enum isa_sreg r, bool uniform)
{
   struct sc_opnd d = sc_reg(new_reg(t, 1, uniform));
   emit(t, ISA_OP_S2R, r, d, sc_none(), sc_none(), sc_none());
   return d;
}

static bool is_pow2(uint32_t v)
{
   return v && !(v & (v - 1));
}

static uint32_t log2_of(uint32_t v)
{
   return (uint32_t)__builtin_ctz(v);
}

/*
 * Component `comp` of gl_LocalInvocationID. Vulkan, LocalInvocationIndex:
 * "The value of LocalInvocationIndex is equal to LocalInvocationId.z *
 * WorkgroupSize.x * WorkgroupSize.y + LocalInvocationId.y *
 * WorkgroupSize.x + LocalInvocationId.x." The execution units number lanes
 * by that index, so id.x = index % sx, id.y = index / sx % sy and id.z =
 * index / (sx * sy), which LOCAL_ID_X/Y/Z divide out per lane. local_size
 * is the CTA size the program is launched with (sc_compile resolved
 * LocalSize, LocalSizeId and WorkgroupSize to constants), so where the
 * divisors are powers of two a mask and a shift of the index do it. A
 * dimension of size 1 is always 0; the last one above 1 needs no modulo:
 * the index is below sx * sy * sz. Lanes past the workgroup's end compute
 * other values than LOCAL_ID_* would, but are never active.
 */
static struct sc_opnd local_id(struct sc_tx *t, uint32_t comp)
{
   const uint32_t *ls = t->local_size;
   if (comp >= 3 || ls[comp] == 1)
      return sc_imm(0);
   uint32_t below = comp == 0 ? 1 : comp == 1 ? ls[0] : ls[0] * ls[1];
   bool last = comp == 2 || (comp == 1 && ls[2] == 1) || (comp == 0 && ls[1] * ls[2] == 1);
   if (!is_pow2(below) || !(last || is_pow2(ls[comp])))
      return sreg(t, (enum isa_sreg)(ISA_SR_LOCAL_ID_X + comp), false);
   struct sc_opnd id = sreg(t, ISA_SR_LOCAL_INDEX, false);
   if (below > 1)
      id = alu(t, ISA_OP_SHR_U, 0, id, sc_imm(log2_of(below)), sc_none());
   if (!last)
      id = alu(t, ISA_OP_AND, 0, id, sc_imm(ls[comp] - 1), sc_none());
   return id;
}

/* Component `comp` of a built-in input. */
static struct sc_opnd builtin_component(struct sc_tx *t, uint32_t builtin, uint32_t comp)
{
   switch (builtin) {
   case SpvBuiltInLocalInvocationId:
      return local_id(t, comp);
   case SpvBuiltInLocalInvocationIndex:
      return sreg(t, ISA_SR_LOCAL_INDEX, false);
   case SpvBuiltInWorkgroupId:
      return sreg(t, (enum isa_sreg)(ISA_SR_GROUP_ID_X + comp), true);
   case SpvBuiltInNumWorkgroups:
      return sreg(t, (enum isa_sreg)(ISA_SR_NUM_GROUPS_X + comp), true);
   case SpvBuiltInWorkgroupSize:
      return sreg(t, (enum isa_sreg)(ISA_SR_GROUP_SIZE_X + comp), true);
   case SpvBuiltInGlobalInvocationId: {
      struct sc_opnd g = sreg(t, (enum isa_sreg)(ISA_SR_GROUP_ID_X + comp), true);
      struct sc_opnd s = sreg(t, (enum isa_sreg)(ISA_SR_GROUP_SIZE_X + comp), true);
      struct sc_opnd l = builtin_component(t, SpvBuiltInLocalInvocationId, comp);
      return alu(t, ISA_OP_IMAD, 0, g, s, l);
   }
   case SpvBuiltInSubgroupSize:
      return sc_imm(t->o->warp_width);
   case SpvBuiltInDeviceIndex:
      /* "the index of the physical device within the device group that is
       * executing the shader": softgpu's groups have one device. */
      return sc_imm(0);
   case SpvBuiltInSubgroupLocalInvocationId:
      return sreg(t, ISA_SR_LANE_ID, false);
   case SpvBuiltInSubgroupId:
      return sreg(t, ISA_SR_WARP_ID, true);
   case SpvBuiltInNumSubgroups:
      return sreg(t, ISA_SR_WARP_COUNT, true);
   case SpvBuiltInSubgroupEqMask:
   case SpvBuiltInSubgroupGeMask:
   case SpvBuiltInSubgroupGtMask:
   case SpvBuiltInSubgroupLeMask:
   case SpvBuiltInSubgroupLtMask: {
      if (comp >= 2)
         return sc_imm(0);
      /* Bits of lanes 32*comp .. 32*comp+31 against this lane's. */
      struct sc_opnd lane = sreg(t, ISA_SR_LANE_ID, false);
      struct sc_opnd rel = alu(t, ISA_OP_ISUB, 0, lane, sc_imm(32 * comp), sc_none());
      /* eq: bit rel if 0 <= rel < 32 */
      struct sc_opnd in = alu(t, ISA_OP_ICMP, ISA_ICMP_LT_U, rel, sc_imm(32), sc_none());
      struct sc_opnd bit = alu(t, ISA_OP_SHL, 0, sc_imm(1), rel, sc_none());
      struct sc_opnd eq = alu(t, ISA_OP_SEL, 0, in, bit, sc_imm(0));
      /* lanes below this one in this word: rel >= 32: all; rel < 0: none */
      struct sc_opnd below_in = alu(t, ISA_OP_ISUB, 0, bit, sc_imm(1), sc_none());
      struct sc_opnd ge32 = alu(t, ISA_OP_ICMP, ISA_ICMP_GE_S, rel, sc_imm(32), sc_none());
      struct sc_opnd lt = alu(t, ISA_OP_SEL, 0, in, below_in,
                              alu(t, ISA_OP_SEL, 0, ge32, sc_imm(UINT32_MAX), sc_imm(0)));
      /* Ge and Gt: only lanes of the subgroup (the warp, W lanes), as the
       * ballot operations count them (dEQP-VK.subgroups.builtin_mask_var
       * compares bitCount of the words with subgroupBallotBitCount). */
      uint32_t w = t->o->warp_width;
      uint32_t in_w = w >= 32 * (comp + 1) ? UINT32_MAX : w <= 32 * comp ? 0 : (1u << (w % 32)) - 1;
      switch (builtin) {
      case SpvBuiltInSubgroupEqMask: return eq;
      case SpvBuiltInSubgroupLtMask: return lt;
      case SpvBuiltInSubgroupLeMask: return alu(t, ISA_OP_OR, 0, lt, eq, sc_none());
      case SpvBuiltInSubgroupGtMask:
         return alu(t, ISA_OP_AND, 0,
                    alu(t, ISA_OP_NOT, 0, alu(t, ISA_OP_OR, 0, lt, eq, sc_none()), sc_none(), sc_none()),
                    sc_imm(in_w), sc_none());
      default:
         return alu(t, ISA_OP_AND, 0, alu(t, ISA_OP_NOT, 0, lt, sc_none(), sc_none()), sc_imm(in_w),
                    sc_none());
      }
   }
   default:
      FAIL("unsupported built-in %u", builtin);
   }
}

/* ---- access chains, loads and stores -------------------------------------------------- */

/* The pointer a value id stands for: a known pointer, or a physical
 * address held in a register. */
static struct ptr pointer_of(struct sc_tx *t, uint32_t id)
{
   struct val *v = val_at(t, id);
   if (v->kind == VAL_PTR)
      return *v->ptr;
   const struct sc_id *d = idp(t, id);
   struct tinfo pt = type_of(t, d->type);
   if (pt.kind != TK_POINTER || pt.storage != SpvStorageClassPhysicalStorageBuffer)
      FAIL("pointer %u (opcode %u) is not supported here (variable pointers?)", id, d->opcode);
   return (struct ptr){.storage = pt.storage, .pointee = pt.elem, .base = get1(t, id, 0),
                       .offset = sc_imm(0), .explicit_layout = true};
}

static struct sc_opnd index_operand(struct sc_tx *t, uint32_t id)
{
   struct tinfo ti = type_of(t, idp(t, id)->type);
   struct sc_opnd i = get1(t, id, 0);
   if (is64(&ti))
      i = part_of(i, 0);   /* a descriptor or vector component: anything larger is out of range */
   return i;
}

/* p += index * stride, index being value id: a 64-bit index whole (as a
 * pair), unless it is a constant that fits in 32 bits. */
static void step_index(struct sc_tx *t, struct ptr *p, uint32_t id, uint32_t stride)
{
   const struct sc_id *d = idp(t, id);
   struct tinfo ti = type_of(t, d->type);
   if (!is64(&ti)) {
      advance(t, p, get1(t, id, 0), stride);
      return;
   }
   if (d->opcode == SpvOpConstant && sc_len(t->m, d->def) == 5) {
      uint64_t v = sc_arg(t, d->def, 3) | (uint64_t)sc_arg(t, d->def, 4) << 32;
      if ((int64_t)v == (int32_t)v) {
         advance(t, p, sc_imm((uint32_t)v), stride);
         return;
      }
   }
   advance_by(t, p, get1(t, id, 0), true, stride);
}

/* Whether id is `x + c` with c a 32-bit value known at compile time (a
 * constant, an unrolled loop's counter): x and c. */
static bool add_of_constant(struct sc_tx *t, uint32_t id, uint32_t *x, uint32_t *c)
{
   const struct sc_id *d = idp(t, id);
   struct tinfo ti = type_of(t, d->type);
   if (d->opcode != SpvOpIAdd || ti.kind != TK_INT || ti.width != 32)
      return false;
   uint32_t a = t->m->words[d->def + 3], b = t->m->words[d->def + 4];
   struct sc_opnd va = get1(t, a, 0), vb = get1(t, b, 0);
   *x = vb.kind == SC_IMM ? a : b;
   *c = vb.kind == SC_IMM ? vb.value : va.value;
   return va.kind == SC_IMM || vb.kind == SC_IMM;
}

/* An array step by index_id. Into shared or private memory, an index
 * `x + c` steps by x and puts c * stride into the displacement (the same
 * 32-bit address, modulo 2^32): reduce's partial[lid + k] costs no add. */
static void step_by_index(struct sc_tx *t, struct ptr *p, uint32_t index_id, uint32_t stride)
{
   uint32_t x, c;
   if (!is_buffer_storage(p->storage) && add_of_constant(t, index_id, &x, &c)) {
      p->disp += c * stride;
      index_id = x;
   }
   step_index(t, p, index_id, stride);
}

/* A step to member `member` of the struct *type. */
static void step_member(struct sc_tx *t, struct ptr *p, uint32_t *type, uint32_t member)
{
   const struct sc_id *sd = idp(t, *type);
   uint32_t off = p->explicit_layout ? (member < sd->member_count ? sd->members[member].offset : 0)
                                     : implicit_member_offset(t, *type, member);
   if (p->explicit_layout && member < sd->member_count) {
      p->matrix_stride = sd->members[member].matrix_stride;
      p->row_major = sd->members[member].row_major;
   }
   advance(t, p, sc_imm(off), 1);
   *type = struct_member(t, *type, member);
}

static void step_into(struct sc_tx *t, struct ptr *p, uint32_t *type, uint32_t index_id)
{
   if (p->var) {
      step_into_promoted(t, p, type, index_id);
      return;
   }
   struct tinfo ti = type_of(t, *type);
   if (p->builtin) {
      if (!const_index(t, index_id, &p->comp)) {
         p->comp = 0;
         p->comp_index = index_operand(t, index_id);
         p->comp_count = ti.count;
      }
      *type = ti.elem;
      return;
   }
   switch (ti.kind) {
   case TK_STRUCT: {
      uint32_t member;
      if (!const_index(t, index_id, &member) || member >= ti.count)
         FAIL("invalid SPIR-V: struct member index");
      step_member(t, p, type, member);
      return;
   }
   case TK_ARRAY:
   case TK_RARRAY:
      if (p->desc_array) {
         load_descriptor(t, p, p->set_va, p->binding, index_operand(t, index_id));
         p->desc_array = false;
      } else {
         step_by_index(t, p, index_id, array_stride(t, p, *type));
      }
      *type = ti.elem;
      return;
   case TK_VECTOR: {
      uint32_t step = p->vector_stride ? p->vector_stride : scalar_bytes(t, ti.elem);
      step_index(t, p, index_id, step);
      p->vector_stride = 0;
      *type = ti.elem;
      return;
   }
   case TK_MATRIX: {
      struct tinfo col = type_of(t, ti.elem);
      uint32_t sb = scalar_bytes(t, col.elem);
      uint32_t stride = p->explicit_layout ? p->matrix_stride : sb * col.count;
      if (p->explicit_layout && p->row_major) {
         step_index(t, p, index_id, sb);
         p->vector_stride = stride;
      } else {
         step_index(t, p, index_id, stride);
      }
      *type = ti.elem;
      return;
   }
   default:
      FAIL("invalid SPIR-V: access chain through a non-composite");
   }
}

static void access_chain(struct sc_tx *t, uint32_t at, bool ptr_chain)
{
   uint32_t len = sc_len(t->m, at), id = sc_arg(t, at, 2);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   uint32_t type = p.pointee, first = 4;
   if (ptr_chain) {
      /* OpPtrAccessChain: the first index steps over whole pointees. */
      uint32_t stride = idp(t, idp(t, sc_arg(t, at, 3))->type)->array_stride;
      if (!stride)
         stride = scalar_bytes(t, type) * components(t, type);
      step_index(t, &p, sc_arg(t, at, 4), stride);
      first = 5;
   }
   for (uint32_t i = first; i < len; i++)
      step_into(t, &p, &type, sc_arg(t, at, i));
   struct ptr *out = ptr_new(t, id);
   *out = p;
   out->pointee = type;
}

static struct sc_opnd builtin_at(struct sc_tx *t, const struct ptr *p);

/* Loads a value of `type` through p (a variable in registers or memory)
 * into regs, one register per component; a constant may replace one. */
static void load_value(struct sc_tx *t, const struct ptr *p, uint32_t type, struct sc_opnd *regs)
{
   if (!p->var) {
      load(t, p, type, regs, p->vector_stride);
      return;
   }
   /* a copy: the variable may change while the value lives */
   uint32_t n = components(t, type);
   for (uint32_t i = 0; i < n; i++) {
      struct tinfo s = scalar_at(t, type, i);
      struct sc_opnd slot = t->slots[p->var][p->slot + i];
      /* an unrolled loop's counter is a constant, which stays put */
      if (slot.kind == SC_IMM)
         regs[i] = slot;
      else
         copy_scalar(t, regs[i], slot, is64(&s));
   }
}

static void op_load(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   if (p.builtin) {
      struct val *v = val_new(t, id, components(t, type));
      if (p.comp_index.kind != SC_NONE) {
         v->comp[0] = builtin_at(t, &p);
         return;
      }
      for (uint32_t i = 0; i < v->n; i++)
         v->comp[i] = builtin_component(t, p.builtin - 1, p.comp + i);
      return;
   }
   if (p.desc_array)
      FAIL("load of a whole array of descriptors");
   struct val *v = result(t, id, type);
   load_value(t, &p, type, v->comp);
}

/* Stores components c through pointer p (a variable in registers or
 * memory). */
static void store_value(struct sc_tx *t, const struct ptr *p, const struct sc_opnd *c, uint32_t n)
{
   if (p->var) {
      for (uint32_t i = 0; i < n; i++) {
         struct tinfo s = scalar_at(t, p->pointee, i);
         copy_scalar(t, t->slots[p->var][p->slot + i], c[i], is64(&s));
      }
   } else {
      store(t, p, p->pointee, c, p->vector_stride);
   }
}

static void op_store(struct sc_tx *t, uint32_t at)
{
   struct ptr p = pointer_of(t, sc_arg(t, at, 1));
   uint32_t n;
   bool owned;
   struct sc_opnd *c = get(t, sc_arg(t, at, 2), &n, &owned);
   store_value(t, &p, c, n);
   if (owned)
      disown(t, c);
}

/* A step to element or member i of the array or struct *type. */
static void step_element(struct sc_tx *t, struct ptr *p, uint32_t *type, uint32_t i)
{
   struct tinfo ti = type_of(t, *type);
   if (ti.kind == TK_STRUCT) {
      step_member(t, p, type, i);
      return;
   }
   advance(t, p, sc_imm(i), array_stride(t, p, *type));
   *type = ti.elem;
}

/* Copies a value of `type` from src to dst through registers: an array or
 * struct too large to hold at once goes element by element. */
static void copy_value(struct sc_tx *t, const struct ptr *dst, const struct ptr *src, uint32_t type)
{
   struct tinfo ti = type_of(t, type);
   bool aggregate = ti.kind == TK_ARRAY || ti.kind == TK_STRUCT;
   if (aggregate && flat_size(t, type, MAX_COMPONENTS, 0) == UINT32_MAX) {
      for (uint32_t i = 0; i < ti.count; i++) {
         struct ptr d = *dst, s = *src;
         uint32_t dt = type, st = type;
         step_element(t, &d, &dt, i);
         step_element(t, &s, &st, i);
         copy_value(t, &d, &s, dt);
      }
      return;
   }
   uint32_t n = components(t, type);
   struct sc_opnd regs[MAX_COMPONENTS];
   for (uint32_t i = 0; i < n; i++) {
      struct tinfo s = scalar_at(t, type, i);
      regs[i] = sc_reg(new_reg(t, is64(&s) ? 2 : 1, false));
   }
   load_value(t, src, type, regs);
   struct ptr d = *dst;
   d.pointee = type;
   store_value(t, &d, regs, n);
}

/* OpCopyMemory: "Copy from the memory pointed to by Source to the memory
 * pointed to by Target. Both operands must be non-void pointers and having
 * the same <id> Type operand in their OpTypePointer type declaration"
 * (SPIR-V 3.42.8). The same type may be laid out differently on each side
 * (a buffer's explicit layout, a variable's own): a load and a store. */
static void copy_memory(struct sc_tx *t, uint32_t at)
{
   struct ptr dst = pointer_of(t, sc_arg(t, at, 1)), src = pointer_of(t, sc_arg(t, at, 2));
   if (src.builtin || src.desc_array || dst.builtin || dst.desc_array)
      FAIL("OpCopyMemory of a built-in or of descriptors");
   copy_value(t, &dst, &src, src.pointee);
}

/* OpArrayLength: (range - member offset) / stride of the runtime array. */
static void op_array_length(struct sc_tx *t, uint32_t at)
{
   uint32_t id = sc_arg(t, at, 2), member = sc_arg(t, at, 4);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   if (p.range.kind != SC_REG)
      FAIL("OpArrayLength on a buffer without a descriptor");
   struct tinfo st = type_of(t, p.pointee);
   if (st.kind != TK_STRUCT || member >= st.count)
      FAIL("invalid SPIR-V: OpArrayLength");
   const struct sc_id *sd = idp(t, p.pointee);
   uint32_t off = member < sd->member_count ? sd->members[member].offset : 0;
   uint32_t stride = idp(t, struct_member(t, p.pointee, member))->array_stride;
   if (!stride)
      FAIL("runtime array without ArrayStride");
   /* range is at most 2^32 - 1 (maxStorageBufferRange): its low half. */
   struct sc_opnd len = alu(t, ISA_OP_ISUB, 0, part_of(p.range, 0), sc_imm(off), sc_none());
   struct val *v = val_new(t, id, 1);
   v->comp[0] = alu(t, ISA_OP_IDIV_U, 0, len, sc_imm(stride), sc_none());
}

/* ---- arithmetic ---------------------------------------------------------------------- */

/* Operand arrays of an instruction's value operands (freed by the caller). */
struct operands {
   struct sc_opnd *c;
   uint32_t n;
   bool owned;
   struct sc_tx *t;                /* for release() */
};

static struct operands operand(struct sc_tx *t, uint32_t id)
{
   struct operands o = {.t = t};
   o.c = get(t, id, &o.n, &o.owned);
   return o;
}

static void release(struct operands *o)
{
   if (o->owned)
      disown(o->t, o->c);
}

/* Component i of a scalar-or-vector operand (scalars broadcast). */
static struct sc_opnd pick(const struct operands *o, uint32_t i)
{
   return o->c[o->n == 1 ? 0 : i];
}

static struct tinfo result_scalar(struct sc_tx *t, uint32_t at)
{
   return scalar_at(t, sc_arg(t, at, 1), 0);
}

static struct tinfo operand_scalar(struct sc_tx *t, uint32_t id)
{
   return scalar_at(t, idp(t, id)->type, 0);
}

/* dst = op(a, b) per component, 32- or 64-bit by the result's width. */
static void binop(struct sc_tx *t, uint32_t at, enum isa_op op32, enum isa_op op64, uint32_t mod)
{
   struct tinfo rs = operand_scalar(t, sc_arg(t, at, 3));
   struct operands a = operand(t, sc_arg(t, at, 3)), b = operand(t, sc_arg(t, at, 4));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      enum isa_op op = is64(&rs) ? op64 : op32;
      if (op == ISA_OP_NOP)
         FAIL("unsupported 64-bit operation (opcode %u)", sc_op(t->m, at));
      struct sc_opnd bb = pick(&b, i);
      /* 64-bit shifts count with a 32-bit operand. */
      if (is64(&rs) && (op == ISA_OP_SHL64 || op == ISA_OP_SHR64_U || op == ISA_OP_SHR64_S) &&
          is64(&(struct tinfo){.width = operand_scalar(t, sc_arg(t, at, 4)).width}))
         bb = part_of(bb, 0);
      /* Integer arithmetic on constants (an unrolled loop's counter) is
       * a constant. */
      uint32_t folded;
      if (isa_op_info[op].cls == ISA_CLASS_ALU && op < ISA_OP_FADD &&
          fold(op, pick(&a, i), bb, sc_none(), &folded)) {
         v->comp[i] = sc_imm(folded);
         continue;
      }
      emit(t, op, mod, v->comp[i], pick(&a, i), bb, sc_none());
   }
   release(&a);
   release(&b);
}

static void unop(struct sc_tx *t, uint32_t at, enum isa_op op32, enum isa_op op64, uint32_t mod)
{
   struct tinfo rs = operand_scalar(t, sc_arg(t, at, 3));
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      enum isa_op op = is64(&rs) ? op64 : op32;
      if (op == ISA_OP_NOP)
         FAIL("unsupported 64-bit operation (opcode %u)", sc_op(t->m, at));
      emit(t, op, mod, v->comp[i], pick(&a, i), sc_none(), sc_none());
   }
   release(&a);
}

/* 64-bit bitwise operations: the same 32-bit operation on both halves. */
static void bitwise(struct sc_tx *t, uint32_t at, enum isa_op op, bool unary)
{
   struct tinfo rs = operand_scalar(t, sc_arg(t, at, 3));
   if (!is64(&rs)) {
      if (unary)
         unop(t, at, op, op, 0);
      else
         binop(t, at, op, op, 0);
      return;
   }
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct operands b = unary ? a : operand(t, sc_arg(t, at, 4));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      for (uint32_t h = 0; h < 2; h++)
         emit(t, op, 0, part_of(v->comp[i], h), part_of(pick(&a, i), h),
              unary ? sc_none() : part_of(pick(&b, i), h), sc_none());
   }
   release(&a);
   if (!unary)
      release(&b);
}

static void compare(struct sc_tx *t, uint32_t at, enum isa_op op, uint32_t mod)
{
   struct tinfo s = operand_scalar(t, sc_arg(t, at, 3));
   if (op == ISA_OP_ICMP && is64(&s))
      op = ISA_OP_ICMP64;
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct operands b = sc_len(t->m, at) > 4 ? operand(t, sc_arg(t, at, 4)) : a;
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++)
      emit(t, op, mod, v->comp[i], pick(&a, i), pick(&b, i), sc_none());
   release(&a);
   if (sc_len(t->m, at) > 4)
      release(&b);
}

static void select_op(struct sc_tx *t, uint32_t at)
{
   struct operands c = operand(t, sc_arg(t, at, 3));
   struct operands a = operand(t, sc_arg(t, at, 4)), b = operand(t, sc_arg(t, at, 5));
   struct tinfo rs = result_scalar(t, at);
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct tinfo s = scalar_at(t, sc_arg(t, at, 1), i);
      uint32_t halves = is64(&s) ? 2 : 1;
      for (uint32_t h = 0; h < halves; h++)
         emit(t, ISA_OP_SEL, 0, part_of(v->comp[i], h), pick(&c, i), part_of(pick(&a, i), h),
              part_of(pick(&b, i), h));
   }
   (void)rs;
   release(&c);
   release(&a);
   release(&b);
}

/* Integer width changes: 32 -> 64 extends, 64 -> 32 truncates. */
static void int_convert(struct sc_tx *t, uint32_t at, bool is_signed)
{
   struct tinfo from = operand_scalar(t, sc_arg(t, at, 3)), to = result_scalar(t, at);
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      if (is64(&to) && !is64(&from))
         emit(t, is_signed ? ISA_OP_SEXT64 : ISA_OP_ZEXT64, 0, v->comp[i], pick(&a, i), sc_none(),
              sc_none());
      else if (!is64(&to) && is64(&from))
         emit(t, ISA_OP_MOV, 0, v->comp[i], part_of(pick(&a, i), 0), sc_none(), sc_none());
      else
         copy_scalar(t, v->comp[i], pick(&a, i), is64(&to));
   }
   release(&a);
}

/* OpBitcast: the same bits, possibly regrouped (u64 <-> uvec2). */
static void bitcast(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2), src = sc_arg(t, at, 3);
   struct operands a = operand(t, src);
   /* Flatten the source into 32-bit words. */
   struct sc_opnd words[MAX_COMPONENTS * 2];
   uint32_t nw = 0;
   for (uint32_t i = 0; i < a.n; i++) {
      struct tinfo s = scalar_at(t, idp(t, src)->type, i);
      if (is64(&s)) {
         words[nw++] = part_of(a.c[i], 0);
         words[nw++] = part_of(a.c[i], 1);
      } else {
         words[nw++] = a.c[i];
      }
   }
   struct val *v = result(t, id, type);
   uint32_t w = 0;
   for (uint32_t i = 0; i < v->n && w < nw; i++) {
      struct tinfo s = scalar_at(t, type, i);
      if (is64(&s)) {
         emit(t, ISA_OP_MOV, 0, part_of(v->comp[i], 0), words[w], sc_none(), sc_none());
         emit(t, ISA_OP_MOV, 0, part_of(v->comp[i], 1), words[w + 1], sc_none(), sc_none());
         w += 2;
      } else {
         emit(t, ISA_OP_MOV, 0, v->comp[i], words[w++], sc_none(), sc_none());
      }
   }
   release(&a);
}

/* A value made of other values' components (OpCopyObject, composite
 * extraction, construction, shuffles): it shares their registers, which
 * is safe because SSA registers are written once (phi copies are parallel
 * copies, see emit_edge). */
static void assign(struct sc_tx *t, uint32_t id, uint32_t type, const struct sc_opnd *src, uint32_t n)
{
   if (components(t, type) != n)
      FAIL("invalid SPIR-V: %u components for a %u-component type", n, components(t, type));
   struct val *v = val_new(t, id, n);
   for (uint32_t i = 0; i < n; i++)
      v->comp[i] = src[i];
}

/* Where component `index path` of a composite starts, and how many it has. */
static uint32_t composite_offset(struct sc_tx *t, uint32_t type, const uint32_t *path, uint32_t depth,
                                 uint32_t *count, uint32_t *elem_type)
{
   uint32_t off = 0;
   for (uint32_t d = 0; d < depth; d++) {
      struct tinfo ti = type_of(t, type);
      uint32_t idx = path[d];
      if (ti.kind == TK_STRUCT) {
         if (idx >= ti.count)
            FAIL("invalid SPIR-V: composite index %u", idx);
         for (uint32_t k = 0; k < idx; k++)
            off += components(t, struct_member(t, type, k));
         type = struct_member(t, type, idx);
      } else if (ti.kind == TK_VECTOR || ti.kind == TK_MATRIX || ti.kind == TK_ARRAY) {
         if (idx >= ti.count)
            FAIL("invalid SPIR-V: composite index %u of %u", idx, ti.count);
         off += idx * components(t, ti.elem);
         type = ti.elem;
      } else {
         FAIL("invalid SPIR-V: composite index into a scalar");
      }
   }
   *count = components(t, type);
   *elem_type = type;
   return off;
}

static void composite_extract(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at), src = sc_arg(t, at, 3);
   struct operands a = operand(t, src);
   uint32_t count, et;
   uint32_t off = composite_offset(t, idp(t, src)->type, W(t, at) + 4, len - 4, &count, &et);
   if (off + count > a.n)
      FAIL("invalid SPIR-V: composite extract out of range");
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), a.c + off, count);
   release(&a);
}

static void composite_insert(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at);
   struct operands obj = operand(t, sc_arg(t, at, 3)), comp = operand(t, sc_arg(t, at, 4));
   uint32_t count, et;
   uint32_t off = composite_offset(t, sc_arg(t, at, 1), W(t, at) + 5, len - 5, &count, &et);
   struct sc_opnd all[MAX_COMPONENTS];
   if (comp.n > MAX_COMPONENTS || off + obj.n > MAX_COMPONENTS + count)
      FAIL("composite too large");
   for (uint32_t i = 0; i < comp.n; i++)
      all[i] = comp.c[i];
   for (uint32_t i = 0; i < obj.n; i++)
      all[off + i] = obj.c[i];
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), all, comp.n);
   release(&obj);
   release(&comp);
}

static void composite_construct(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at);
   struct sc_opnd all[MAX_COMPONENTS];
   uint32_t n = 0;
   for (uint32_t i = 3; i < len; i++) {
      struct operands o = operand(t, sc_arg(t, at, i));
      if (n + o.n > MAX_COMPONENTS)
         FAIL("composite too large");
      for (uint32_t k = 0; k < o.n; k++)
         all[n++] = o.c[k];
      release(&o);
   }
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), all, n);
}

static void vector_shuffle(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at);
   struct operands a = operand(t, sc_arg(t, at, 3)), b = operand(t, sc_arg(t, at, 4));
   struct sc_opnd all[16];
   uint32_t n = 0;
   for (uint32_t i = 5; i < len && n < 16; i++) {
      uint32_t s = sc_arg(t, at, i);
      if (s == UINT32_MAX)
         all[n++] = sc_imm(0);   /* undefined component */
      else if (s < a.n)
         all[n++] = a.c[s];
      else if (s - a.n < b.n)
         all[n++] = b.c[s - a.n];
      else
         FAIL("invalid SPIR-V: shuffle component %u", s);
   }
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), all, n);
   release(&a);
   release(&b);
}

/* A component chosen at run time: a chain of selects. */
static struct sc_opnd dynamic_pick(struct sc_tx *t, const struct operands *v, struct sc_opnd index,
                                   bool wide)
{
   struct sc_opnd r = v->c[0];
   for (uint32_t i = 1; i < v->n; i++) {
      struct sc_opnd is = alu(t, ISA_OP_ICMP, ISA_ICMP_EQ, index, sc_imm(i), sc_none());
      if (wide) {
         struct sc_opnd d = sc_reg(new_reg(t, 2, opnd_uniform(t, is) && opnd_uniform(t, r) &&
                                                      opnd_uniform(t, v->c[i])));
         for (uint32_t h = 0; h < 2; h++)
            emit(t, ISA_OP_SEL, 0, part_of(d, h), is, part_of(v->c[i], h), part_of(r, h));
         r = d;
      } else {
         r = alu(t, ISA_OP_SEL, 0, is, v->c[i], r);
      }
   }
   return r;
}

/* The component of a built-in vector that a dynamic index selects: all of
 * them read, one picked (an index out of range reads component 0; the
 * result is undefined). */
static struct sc_opnd builtin_at(struct sc_tx *t, const struct ptr *p)
{
   struct sc_opnd c[16];
   uint32_t n = p->comp_count < 16 ? p->comp_count : 16;
   for (uint32_t i = 0; i < n; i++)
      c[i] = builtin_component(t, p->builtin - 1, i);
   struct operands v = {.c = c, .n = n ? n : 1, .t = t};
   if (!n)
      c[0] = sc_imm(0);
   return dynamic_pick(t, &v, p->comp_index, false);
}

static void vector_extract_dynamic(struct sc_tx *t, uint32_t at)
{
   struct operands v = operand(t, sc_arg(t, at, 3));
   struct tinfo s = result_scalar(t, at);
   struct sc_opnd r = dynamic_pick(t, &v, index_operand(t, sc_arg(t, at, 4)), is64(&s));
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), &r, 1);
   release(&v);
}

static void vector_insert_dynamic(struct sc_tx *t, uint32_t at)
{
   struct operands v = operand(t, sc_arg(t, at, 3)), c = operand(t, sc_arg(t, at, 4));
   struct sc_opnd index = index_operand(t, sc_arg(t, at, 5));
   struct sc_opnd all[16];
   struct tinfo s = result_scalar(t, at);
   for (uint32_t i = 0; i < v.n && i < 16; i++) {
      struct sc_opnd is = alu(t, ISA_OP_ICMP, ISA_ICMP_EQ, index, sc_imm(i), sc_none());
      if (is64(&s)) {
         struct sc_opnd d = sc_reg(new_reg(t, 2, false));
         for (uint32_t h = 0; h < 2; h++)
            emit(t, ISA_OP_SEL, 0, part_of(d, h), is, part_of(c.c[0], h), part_of(v.c[i], h));
         all[i] = d;
      } else {
         all[i] = alu(t, ISA_OP_SEL, 0, is, c.c[0], v.c[i]);
      }
   }
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), all, v.n);
   release(&v);
   release(&c);
}

/* ---- GLSL.std.450 ------------------------------------------------------------------- */

static void ext_unary(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, enum isa_op op,
                      uint32_t mod)
{
   struct operands a = operand(t, sc_arg(t, at, 5));
   struct val *v = result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++)
      emit(t, op, mod, v->comp[i], pick(&a, i), sc_none(), sc_none());
   release(&a);
}

static void ext_binary(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, enum isa_op op,
                       uint32_t mod)
{
   struct operands a = operand(t, sc_arg(t, at, 5)), b = operand(t, sc_arg(t, at, 6));
   struct val *v = result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++)
      emit(t, op, mod, v->comp[i], pick(&a, i), pick(&b, i), sc_none());
   release(&a);
   release(&b);
}

/* clamp(x, lo, hi) = min(max(x, lo), hi) */
static void ext_clamp(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, enum isa_op max,
                      enum isa_op min)
{
   struct operands x = operand(t, sc_arg(t, at, 5)), lo = operand(t, sc_arg(t, at, 6)),
                   hi = operand(t, sc_arg(t, at, 7));
   struct val *v = result(t, id, type);
   bool wide = isa_op_info[max].cls == ISA_CLASS_ALU64;
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd m = wide ? alu64(t, max, 0, pick(&x, i), pick(&lo, i))
                              : alu(t, max, 0, pick(&x, i), pick(&lo, i), sc_none());
      emit(t, min, 0, v->comp[i], m, pick(&hi, i), sc_none());
   }
   release(&x);
   release(&lo);
   release(&hi);
}

static struct sc_opnd fimm(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return sc_imm(u);
}

/* mix(x, y, a) = x + (y - x) * a */
static void ext_mix(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands x = operand(t, sc_arg(t, at, 5)), y = operand(t, sc_arg(t, at, 6)),
                   a = operand(t, sc_arg(t, at, 7));
   struct val *v = result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd d = alu(t, ISA_OP_FSUB, 0, pick(&y, i), pick(&x, i), sc_none());
      struct sc_opnd m = alu(t, ISA_OP_FMUL, 0, d, pick(&a, i), sc_none());
      emit(t, ISA_OP_FADD, 0, v->comp[i], pick(&x, i), m, sc_none());
   }
   release(&x);
   release(&y);
   release(&a);
}

static struct sc_opnd dot(struct sc_tx *t, const struct operands *a, const struct operands *b)
{
   struct sc_opnd acc = alu(t, ISA_OP_FMUL, 0, a->c[0], b->c[0], sc_none());
   for (uint32_t i = 1; i < a->n; i++)
      acc = alu(t, ISA_OP_FADD, 0, acc, alu(t, ISA_OP_FMUL, 0, a->c[i], b->c[i], sc_none()),
                sc_none());
   return acc;
}

/* Component-wise f(x) * k. */
static void ext_scale(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, float k)
{
   struct operands a = operand(t, sc_arg(t, at, 5));
   struct val *v = result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++)
      emit(t, ISA_OP_FMUL, 0, v->comp[i], pick(&a, i), fimm(k), sc_none());
   release(&a);
}

/* sign(x) for integers: -1, 0 or 1 */
static void ext_ssign(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands a = operand(t, sc_arg(t, at, 5));
   struct val *v = result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd neg = alu(t, ISA_OP_ICMP, ISA_ICMP_LT_S, pick(&a, i), sc_imm(0), sc_none());
      struct sc_opnd pos = alu(t, ISA_OP_ICMP, ISA_ICMP_GT_S, pick(&a, i), sc_imm(0), sc_none());
      emit(t, ISA_OP_SEL, 0, v->comp[i], neg, sc_imm(UINT32_MAX), pos);
   }
   release(&a);
}

/* abs and sign of 64-bit integers, half by half under one comparison */
static void ext_abs64(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands a = operand(t, sc_arg(t, at, 5));
   struct val *v = result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd x = pick(&a, i);
      struct sc_opnd neg = alu64(t, ISA_OP_ISUB64, 0, pair64(t, 0), x);
      struct sc_opnd below = alu(t, ISA_OP_ICMP64, ISA_ICMP_LT_S, x, pair64(t, 0), sc_none());
      for (uint32_t h = 0; h < 2; h++)
         emit(t, ISA_OP_SEL, 0, part_of(v->comp[i], h), below, part_of(neg, h), part_of(x, h));
   }
   release(&a);
}

static void ext_ssign64(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands a = operand(t, sc_arg(t, at, 5));
   struct val *v = result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd x = pick(&a, i);
      struct sc_opnd neg = alu(t, ISA_OP_ICMP64, ISA_ICMP_LT_S, x, pair64(t, 0), sc_none());
      struct sc_opnd pos = alu(t, ISA_OP_ICMP64, ISA_ICMP_GT_S, x, pair64(t, 0), sc_none());
      /* low half: -1, 1 or 0; high half: all ones when negative */
      emit(t, ISA_OP_SEL, 0, part_of(v->comp[i], 0), neg, sc_imm(UINT32_MAX), pos);
      emit(t, ISA_OP_SEL, 0, part_of(v->comp[i], 1), neg, sc_imm(UINT32_MAX), sc_imm(0));
   }
   release(&a);
}

/* faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N */
static void ext_faceforward(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands n = operand(t, sc_arg(t, at, 5)), i = operand(t, sc_arg(t, at, 6)),
                   r = operand(t, sc_arg(t, at, 7));
   struct sc_opnd d = dot(t, &r, &i);
   struct sc_opnd neg = alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, d, fimm(0.0f), sc_none());
   struct val *v = result(t, id, type);
   for (uint32_t k = 0; k < v->n; k++) {
      struct sc_opnd minus = alu(t, ISA_OP_FNEG, 0, pick(&n, k), sc_none(), sc_none());
      emit(t, ISA_OP_SEL, 0, v->comp[k], neg, pick(&n, k), minus);
   }
   release(&n);
   release(&i);
   release(&r);
}

/* reflect(I, N) = I - 2 * dot(N, I) * N */
static void ext_reflect(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands i = operand(t, sc_arg(t, at, 5)), n = operand(t, sc_arg(t, at, 6));
   struct sc_opnd d2 = alu(t, ISA_OP_FMUL, 0, dot(t, &n, &i), fimm(2.0f), sc_none());
   struct val *v = result(t, id, type);
   for (uint32_t k = 0; k < v->n; k++) {
      struct sc_opnd m = alu(t, ISA_OP_FMUL, 0, d2, pick(&n, k), sc_none());
      emit(t, ISA_OP_FSUB, 0, v->comp[k], pick(&i, k), m, sc_none());
   }
   release(&i);
   release(&n);
}

/* refract(I, N, eta): k = 1 - eta^2 (1 - dot(N, I)^2);
 * k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N */
static void ext_refract(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands i = operand(t, sc_arg(t, at, 5)), n = operand(t, sc_arg(t, at, 6));
   struct sc_opnd eta = get1(t, sc_arg(t, at, 7), 0);
   struct sc_opnd d = dot(t, &n, &i);
   struct sc_opnd one_d2 = alu(t, ISA_OP_FSUB, 0, fimm(1.0f), alu(t, ISA_OP_FMUL, 0, d, d, sc_none()),
                               sc_none());
   struct sc_opnd k = alu(t, ISA_OP_FSUB, 0, fimm(1.0f),
                          alu(t, ISA_OP_FMUL, 0, alu(t, ISA_OP_FMUL, 0, eta, eta, sc_none()), one_d2,
                              sc_none()),
                          sc_none());
   struct sc_opnd tir = alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, k, fimm(0.0f), sc_none());
   struct sc_opnd f = alu(t, ISA_OP_FADD, 0, alu(t, ISA_OP_FMUL, 0, eta, d, sc_none()),
                          alu(t, ISA_OP_FSQRT, 0, k, sc_none(), sc_none()), sc_none());
   struct val *v = result(t, id, type);
   for (uint32_t c = 0; c < v->n; c++) {
      struct sc_opnd r = alu(t, ISA_OP_FSUB, 0, alu(t, ISA_OP_FMUL, 0, eta, pick(&i, c), sc_none()),
                             alu(t, ISA_OP_FMUL, 0, f, pick(&n, c), sc_none()), sc_none());
      emit(t, ISA_OP_SEL, 0, v->comp[c], tir, fimm(0.0f), r);
   }
   release(&i);
   release(&n);
}

/* modf: whole = trunc(x), fraction = x - whole (same sign as x). frexp:
 * x = m * 2^e with 0.5 <= |m| < 1; zero gives (0, 0); subnormals are
 * scaled into the normal range first. Infinity and NaN: undefined (GLSL). */
static void split_float(struct sc_tx *t, struct sc_opnd x, bool frexp, struct sc_opnd *first,
                        struct sc_opnd *second)
{
   if (!frexp) {
      *second = alu(t, ISA_OP_FTRUNC, 0, x, sc_none(), sc_none());
      *first = alu(t, ISA_OP_FSUB, 0, x, *second, sc_none());
      return;
   }
   struct sc_opnd ax = alu(t, ISA_OP_FABS, 0, x, sc_none(), sc_none());
   struct sc_opnd tiny = alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, ax, sc_imm(0x00800000u), sc_none());
   struct sc_opnd scaled = alu(t, ISA_OP_SEL, 0, tiny,
                               alu(t, ISA_OP_FMUL, 0, x, sc_imm(0x5f800000u) /* 2^64 */, sc_none()), x);
   struct sc_opnd biased = alu(t, ISA_OP_BFE_U, 0, scaled, sc_imm(23), sc_imm(8));
   struct sc_opnd e = alu(t, ISA_OP_ISUB, 0, biased, alu(t, ISA_OP_SEL, 0, tiny, sc_imm(126 + 64), sc_imm(126)),
                          sc_none());
   struct sc_opnd m = alu(t, ISA_OP_OR, 0, alu(t, ISA_OP_AND, 0, scaled, sc_imm(0x807fffffu), sc_none()),
                          sc_imm(0x3f000000u), sc_none());
   struct sc_opnd zero = alu(t, ISA_OP_FCMP, ISA_FCMP_OEQ, x, fimm(0.0f), sc_none());
   *first = alu(t, ISA_OP_SEL, 0, zero, x, m);
   *second = alu(t, ISA_OP_SEL, 0, zero, sc_imm(0), e);
}

/* Modf/Frexp (the second result through a pointer) and their Struct forms. */
static void ext_split(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, bool frexp, bool by_struct)
{
   struct operands x = operand(t, sc_arg(t, at, 5));
   struct sc_opnd first[16], second[16];
   uint32_t n = x.n < 16 ? x.n : 16;
   for (uint32_t i = 0; i < n; i++)
      split_float(t, x.c[i], frexp, &first[i], &second[i]);
   release(&x);
   if (by_struct) {
      struct sc_opnd all[32];
      for (uint32_t i = 0; i < n; i++) {
         all[i] = first[i];
         all[n + i] = second[i];
      }
      assign(t, id, type, all, 2 * n);
      return;
   }
   struct ptr p = pointer_of(t, sc_arg(t, at, 6));
   store_value(t, &p, second, n);
   assign(t, id, type, first, n);
}

/* Packs: round(clamp(c, lo, 1) * scale) in `bits`-bit fields; the half
 * form converts to binary16. */
static void ext_pack(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, uint32_t bits, bool snorm,
                     bool half)
{
   struct operands v = operand(t, sc_arg(t, at, 5));
   struct sc_opnd acc = sc_imm(0);
   float scale = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);
   for (uint32_t i = 0; i < v.n && i < 4; i++) {
      struct sc_opnd f;
      if (half) {
         f = alu(t, ISA_OP_F2H, 0, v.c[i], sc_none(), sc_none());
      } else {
         struct sc_opnd c = alu(t, ISA_OP_FMIN, 0,
                                alu(t, ISA_OP_FMAX, 0, v.c[i], fimm(snorm ? -1.0f : 0.0f), sc_none()),
                                fimm(1.0f), sc_none());
         struct sc_opnd r = alu(t, ISA_OP_FRINT, 0, alu(t, ISA_OP_FMUL, 0, c, fimm(scale), sc_none()),
                                sc_none(), sc_none());
         f = alu(t, ISA_OP_AND, 0, alu(t, snorm ? ISA_OP_F2I_S : ISA_OP_F2I_U, 0, r, sc_none(), sc_none()),
                 sc_imm((1u << bits) - 1), sc_none());
      }
      acc = i == 0 ? f : alu(t, ISA_OP_BFI, 0, acc, f, sc_imm(i * bits | bits << 8));
   }
   release(&v);
   assign(t, id, type, &acc, 1);
}

/* Unpacks: snorm clamp(f / scale, -1, 1), unorm f / scale, half widening. */
static void ext_unpack(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, uint32_t bits, bool snorm,
                       bool half)
{
   struct sc_opnd p = get1(t, sc_arg(t, at, 5), 0);
   uint32_t n = 32 / bits;
   float scale = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);
   struct sc_opnd out[4];
   for (uint32_t i = 0; i < n; i++) {
      struct sc_opnd f = alu(t, snorm ? ISA_OP_BFE_S : ISA_OP_BFE_U, 0, p, sc_imm(i * bits), sc_imm(bits));
      if (half) {
         out[i] = alu(t, ISA_OP_H2F, 0, f, sc_none(), sc_none());
         continue;
      }
      struct sc_opnd x = alu(t, ISA_OP_FDIV, 0,
                             alu(t, snorm ? ISA_OP_I2F_S : ISA_OP_I2F_U, 0, f, sc_none(), sc_none()),
                             fimm(scale), sc_none());
      out[i] = snorm ? alu(t, ISA_OP_FMAX, 0, x, fimm(-1.0f), sc_none()) : x;
   }
   assign(t, id, type, out, n);
}

/* The determinant of the n x n matrix m (column-major components) by
 * cofactor expansion along the first column. */
static struct sc_opnd determinant(struct sc_tx *t, const struct sc_opnd *m, uint32_t n)
{
   if (n == 1)
      return m[0];
   if (n == 2)
      return alu(t, ISA_OP_FSUB, 0, alu(t, ISA_OP_FMUL, 0, m[0], m[3], sc_none()),
                 alu(t, ISA_OP_FMUL, 0, m[2], m[1], sc_none()), sc_none());
   struct sc_opnd acc = sc_none();
   for (uint32_t r = 0; r < n; r++) {
      struct sc_opnd minor[9];
      uint32_t k = 0;
      for (uint32_t c = 1; c < n; c++)
         for (uint32_t rr = 0; rr < n; rr++)
            if (rr != r)
               minor[k++] = m[c * n + rr];
      struct sc_opnd term = alu(t, ISA_OP_FMUL, 0, m[r], determinant(t, minor, n - 1), sc_none());
      if (acc.kind == SC_NONE)
         acc = term;
      else
         acc = alu(t, (r & 1) ? ISA_OP_FSUB : ISA_OP_FADD, 0, acc, term, sc_none());
   }
   return acc;
}

static void ext_determinant(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands m = operand(t, sc_arg(t, at, 5));
   uint32_t n = m.n == 4 ? 2 : m.n == 9 ? 3 : m.n == 16 ? 4 : 0;
   if (!n)
      FAIL("invalid SPIR-V: Determinant of a %u-component matrix", m.n);
   struct sc_opnd d = determinant(t, m.c, n);
   release(&m);
   assign(t, id, type, &d, 1);
}

/* inverse(m) = adjugate(m) / det(m): entry (r, c) of the inverse is the
 * cofactor (c, r) over the determinant. */
static void ext_inverse(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct operands m = operand(t, sc_arg(t, at, 5));
   uint32_t n = m.n == 4 ? 2 : m.n == 9 ? 3 : m.n == 16 ? 4 : 0;
   if (!n)
      FAIL("invalid SPIR-V: MatrixInverse of a %u-component matrix", m.n);
   struct sc_opnd inv_det = alu(t, ISA_OP_FMATH1, ISA_FM_RCP, determinant(t, m.c, n), sc_none(), sc_none());
   struct sc_opnd out[16];
   for (uint32_t c = 0; c < n; c++) {
      for (uint32_t r = 0; r < n; r++) {
         /* cofactor of element (row c, column r) of m */
         struct sc_opnd minor[9];
         uint32_t k = 0;
         for (uint32_t mc = 0; mc < n; mc++)
            for (uint32_t mr = 0; mr < n; mr++)
               if (mc != r && mr != c)
                  minor[k++] = m.c[mc * n + mr];
         struct sc_opnd cof = determinant(t, minor, n - 1);
         if ((r + c) & 1)
            cof = alu(t, ISA_OP_FNEG, 0, cof, sc_none(), sc_none());
         out[c * n + r] = alu(t, ISA_OP_FMUL, 0, cof, inv_det, sc_none());
      }
   }
   release(&m);
   assign(t, id, type, out, n * n);
}

static void glsl(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2), inst = sc_arg(t, at, 4);
   struct tinfo rs = scalar_at(t, type, 0);
   bool sint = rs.kind == TK_INT && rs.is_signed;
   bool i64 = rs.kind == TK_INT && is64(&rs);
   switch (inst) {
   case GLSLstd450Round: ext_unary(t, at, id, type, ISA_OP_FROUND, 0); return;
   case GLSLstd450RoundEven: ext_unary(t, at, id, type, ISA_OP_FRINT, 0); return;
   case GLSLstd450Trunc: ext_unary(t, at, id, type, ISA_OP_FTRUNC, 0); return;
   case GLSLstd450FAbs: ext_unary(t, at, id, type, ISA_OP_FABS, 0); return;
   case GLSLstd450SAbs:
      if (i64) {
         ext_abs64(t, at, id, type);
         return;
      }
      ext_unary(t, at, id, type, ISA_OP_IABS, 0);
      return;
   case GLSLstd450FSign: ext_unary(t, at, id, type, ISA_OP_FSIGN, 0); return;
   case GLSLstd450Floor: ext_unary(t, at, id, type, ISA_OP_FFLOOR, 0); return;
   case GLSLstd450Ceil: ext_unary(t, at, id, type, ISA_OP_FCEIL, 0); return;
   case GLSLstd450Fract: ext_unary(t, at, id, type, ISA_OP_FFRACT, 0); return;
   case GLSLstd450Sin: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_SIN); return;
   case GLSLstd450Cos: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_COS); return;
   case GLSLstd450Tan: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_TAN); return;
   case GLSLstd450Asin: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_ASIN); return;
   case GLSLstd450Acos: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_ACOS); return;
   case GLSLstd450Atan: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_ATAN); return;
   case GLSLstd450Sinh: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_SINH); return;
   case GLSLstd450Cosh: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_COSH); return;
   case GLSLstd450Tanh: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_TANH); return;
   case GLSLstd450Asinh: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_ASINH); return;
   case GLSLstd450Acosh: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_ACOSH); return;
   case GLSLstd450Atanh: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_ATANH); return;
   case GLSLstd450Exp: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_EXP); return;
   case GLSLstd450Exp2: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_EXP2); return;
   case GLSLstd450Log: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_LOG); return;
   case GLSLstd450Log2: ext_unary(t, at, id, type, ISA_OP_FMATH1, ISA_FM_LOG2); return;
   case GLSLstd450Sqrt: ext_unary(t, at, id, type, ISA_OP_FSQRT, 0); return;
   case GLSLstd450InverseSqrt: ext_unary(t, at, id, type, ISA_OP_FRSQ, 0); return;
   case GLSLstd450Atan2: ext_binary(t, at, id, type, ISA_OP_FMATH2, ISA_FM_ATAN2); return;
   case GLSLstd450Pow: ext_binary(t, at, id, type, ISA_OP_FMATH2, ISA_FM_POW); return;
   case GLSLstd450Ldexp: ext_binary(t, at, id, type, ISA_OP_FMATH2, ISA_FM_LDEXP); return;
   case GLSLstd450FMin:
   case GLSLstd450NMin: ext_binary(t, at, id, type, ISA_OP_FMIN, 0); return;
   case GLSLstd450FMax:
   case GLSLstd450NMax: ext_binary(t, at, id, type, ISA_OP_FMAX, 0); return;
   case GLSLstd450UMin: ext_binary(t, at, id, type, i64 ? ISA_OP_IMIN64_U : ISA_OP_IMIN_U, 0); return;
   case GLSLstd450SMin: ext_binary(t, at, id, type, i64 ? ISA_OP_IMIN64_S : ISA_OP_IMIN_S, 0); return;
   case GLSLstd450UMax: ext_binary(t, at, id, type, i64 ? ISA_OP_IMAX64_U : ISA_OP_IMAX_U, 0); return;
   case GLSLstd450SMax: ext_binary(t, at, id, type, i64 ? ISA_OP_IMAX64_S : ISA_OP_IMAX_S, 0); return;
   case GLSLstd450FClamp:
   case GLSLstd450NClamp: ext_clamp(t, at, id, type, ISA_OP_FMAX, ISA_OP_FMIN); return;
   case GLSLstd450UClamp:
      ext_clamp(t, at, id, type, i64 ? ISA_OP_IMAX64_U : ISA_OP_IMAX_U, i64 ? ISA_OP_IMIN64_U : ISA_OP_IMIN_U);
      return;
   case GLSLstd450SClamp:
      ext_clamp(t, at, id, type, i64 ? ISA_OP_IMAX64_S : ISA_OP_IMAX_S, i64 ? ISA_OP_IMIN64_S : ISA_OP_IMIN_S);
      return;
   case GLSLstd450FMix: ext_mix(t, at, id, type); return;
   case GLSLstd450Fma: {
      struct operands a = operand(t, sc_arg(t, at, 5)), b = operand(t, sc_arg(t, at, 6)),
                      c = operand(t, sc_arg(t, at, 7));
      struct val *v = result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++)
         emit(t, ISA_OP_FFMA, 0, v->comp[i], pick(&a, i), pick(&b, i), pick(&c, i));
      release(&a);
      release(&b);
      release(&c);
      return;
   }
   case GLSLstd450Step: {   /* step(edge, x) = x < edge ? 0 : 1 */
      struct operands edge = operand(t, sc_arg(t, at, 5)), x = operand(t, sc_arg(t, at, 6));
      struct val *v = result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++) {
         struct sc_opnd lt = alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, pick(&x, i), pick(&edge, i), sc_none());
         emit(t, ISA_OP_SEL, 0, v->comp[i], lt, fimm(0.0f), fimm(1.0f));
      }
      release(&edge);
      release(&x);
      return;
   }
   case GLSLstd450SmoothStep: {   /* t = clamp((x-e0)/(e1-e0), 0, 1); t*t*(3-2t) */
      struct operands e0 = operand(t, sc_arg(t, at, 5)), e1 = operand(t, sc_arg(t, at, 6)),
                      x = operand(t, sc_arg(t, at, 7));
      struct val *v = result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++) {
         struct sc_opnd num = alu(t, ISA_OP_FSUB, 0, pick(&x, i), pick(&e0, i), sc_none());
         struct sc_opnd den = alu(t, ISA_OP_FSUB, 0, pick(&e1, i), pick(&e0, i), sc_none());
         struct sc_opnd q = alu(t, ISA_OP_FDIV, 0, num, den, sc_none());
         q = alu(t, ISA_OP_FMIN, 0, alu(t, ISA_OP_FMAX, 0, q, fimm(0.0f), sc_none()), fimm(1.0f), sc_none());
         struct sc_opnd k = alu(t, ISA_OP_FSUB, 0, fimm(3.0f), alu(t, ISA_OP_FMUL, 0, fimm(2.0f), q, sc_none()), sc_none());
         emit(t, ISA_OP_FMUL, 0, v->comp[i], alu(t, ISA_OP_FMUL, 0, q, q, sc_none()), k, sc_none());
      }
      release(&e0);
      release(&e1);
      release(&x);
      return;
   }
   case GLSLstd450FindILsb: ext_unary(t, at, id, type, ISA_OP_FINDLSB, 0); return;
   case GLSLstd450FindSMsb: ext_unary(t, at, id, type, ISA_OP_FINDMSB_S, 0); return;
   case GLSLstd450FindUMsb: ext_unary(t, at, id, type, ISA_OP_FINDMSB_U, 0); return;
   case GLSLstd450Length: {
      struct operands a = operand(t, sc_arg(t, at, 5));
      struct val *v = result(t, id, type);
      emit(t, ISA_OP_FSQRT, 0, v->comp[0], dot(t, &a, &a), sc_none(), sc_none());
      release(&a);
      return;
   }
   case GLSLstd450Distance: {
      struct operands a = operand(t, sc_arg(t, at, 5)), b = operand(t, sc_arg(t, at, 6));
      struct sc_opnd d[16];
      for (uint32_t i = 0; i < a.n && i < 16; i++)
         d[i] = alu(t, ISA_OP_FSUB, 0, a.c[i], b.c[i], sc_none());
      struct operands dd = {d, a.n, false, t};
      struct val *v = result(t, id, type);
      emit(t, ISA_OP_FSQRT, 0, v->comp[0], dot(t, &dd, &dd), sc_none(), sc_none());
      release(&a);
      release(&b);
      return;
   }
   case GLSLstd450Normalize: {
      struct operands a = operand(t, sc_arg(t, at, 5));
      struct sc_opnd inv = alu(t, ISA_OP_FRSQ, 0, dot(t, &a, &a), sc_none(), sc_none());
      struct val *v = result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++)
         emit(t, ISA_OP_FMUL, 0, v->comp[i], a.c[i], inv, sc_none());
      release(&a);
      return;
   }
   case GLSLstd450Cross: {
      struct operands a = operand(t, sc_arg(t, at, 5)), b = operand(t, sc_arg(t, at, 6));
      struct val *v = result(t, id, type);
      for (uint32_t i = 0; i < 3; i++) {
         uint32_t j = (i + 1) % 3, k = (i + 2) % 3;
         struct sc_opnd l = alu(t, ISA_OP_FMUL, 0, a.c[j], b.c[k], sc_none());
         struct sc_opnd r = alu(t, ISA_OP_FMUL, 0, a.c[k], b.c[j], sc_none());
         emit(t, ISA_OP_FSUB, 0, v->comp[i], l, r, sc_none());
      }
      release(&a);
      release(&b);
      return;
   }
   case GLSLstd450Radians: ext_scale(t, at, id, type, 0.017453292519943295f); return;
   case GLSLstd450Degrees: ext_scale(t, at, id, type, 57.29577951308232f); return;
   case GLSLstd450SSign:
      if (i64) {
         ext_ssign64(t, at, id, type);
         return;
      }
      ext_ssign(t, at, id, type);
      return;
   case GLSLstd450FaceForward: ext_faceforward(t, at, id, type); return;
   case GLSLstd450Reflect: ext_reflect(t, at, id, type); return;
   case GLSLstd450Refract: ext_refract(t, at, id, type); return;
   case GLSLstd450Modf: ext_split(t, at, id, type, false, false); return;
   case GLSLstd450ModfStruct: ext_split(t, at, id, type, false, true); return;
   case GLSLstd450Frexp: ext_split(t, at, id, type, true, false); return;
   case GLSLstd450FrexpStruct: ext_split(t, at, id, type, true, true); return;
   case GLSLstd450PackSnorm4x8: ext_pack(t, at, id, type, 8, true, false); return;
   case GLSLstd450PackUnorm4x8: ext_pack(t, at, id, type, 8, false, false); return;
   case GLSLstd450PackSnorm2x16: ext_pack(t, at, id, type, 16, true, false); return;
   case GLSLstd450PackUnorm2x16: ext_pack(t, at, id, type, 16, false, false); return;
   case GLSLstd450PackHalf2x16: ext_pack(t, at, id, type, 16, false, true); return;
   case GLSLstd450UnpackSnorm4x8: ext_unpack(t, at, id, type, 8, true, false); return;
   case GLSLstd450UnpackUnorm4x8: ext_unpack(t, at, id, type, 8, false, false); return;
   case GLSLstd450UnpackSnorm2x16: ext_unpack(t, at, id, type, 16, true, false); return;
   case GLSLstd450UnpackUnorm2x16: ext_unpack(t, at, id, type, 16, false, false); return;
   case GLSLstd450UnpackHalf2x16: ext_unpack(t, at, id, type, 16, false, true); return;
   case GLSLstd450Determinant: ext_determinant(t, at, id, type); return;
   case GLSLstd450MatrixInverse: ext_inverse(t, at, id, type); return;
   case GLSLstd450PackDouble2x32:
   case GLSLstd450UnpackDouble2x32:
      FAIL("GLSL.std.450 %s needs 64-bit floats (Float64), which softgpu does not support",
           inst == GLSLstd450PackDouble2x32 ? "PackDouble2x32" : "UnpackDouble2x32");
   case GLSLstd450InterpolateAtCentroid:
   case GLSLstd450InterpolateAtSample:
   case GLSLstd450InterpolateAtOffset:
      FAIL("GLSL.std.450 interpolation instruction %u is for fragment shaders, not compute", inst);
   default:
      (void)sint;
      FAIL("unsupported GLSL.std.450 instruction %u", inst);
   }
}

/* ---- debugPrintfEXT ------------------------------------------------------------------------ */

static struct sc_opnd as_register(struct sc_tx *t, struct sc_opnd o, bool wide);

/* The text of an OpString, bounds-checked. */
static char *string_of(struct sc_tx *t, uint32_t id)
{
   const struct sc_id *d = idp(t, id);
   if (d->opcode != SpvOpString)
      FAIL("invalid SPIR-V: debugPrintf format %u is not an OpString", id);
   uint32_t len = sc_len(t->m, d->def);
   size_t max = (size_t)(len - 2) * 4;
   const char *text = (const char *)&t->m->words[d->def + 2];
   size_t n = strnlen(text, max);
   if (n == max)
      FAIL("invalid SPIR-V: unterminated OpString %u", id);
   char *copy = malloc(n + 1);
   if (!copy)
      FAIL("out of memory");
   memcpy(copy, text, n + 1);
   return copy;
}

static uint32_t add_format(struct sc_tx *t, uint32_t string_id)
{
   struct sc_mir *mir = t->mir;
   char *text = string_of(t, string_id);
   for (uint32_t i = 0; i < mir->format_count; i++) {
      if (strcmp(mir->formats[i], text) == 0) {
         free(text);
         return i;
      }
   }
   char **f = mir->format_count == mir->format_capacity
                 ? realloc(mir->formats, (mir->format_capacity * 2 + 4) * sizeof(*f))
                 : mir->formats;
   if (!f) {
      free(text);
      FAIL("out of memory");
   }
   if (f != mir->formats || mir->format_count == mir->format_capacity)
      mir->format_capacity = mir->format_capacity * 2 + 4;
   mir->formats = f;
   mir->formats[mir->format_count] = text;
   return mir->format_count++;
}

/* Each active invocation claims room for its record in the printf buffer
 * with an atomic add, and writes the record if it fits (see
 * hw_root.h). */
static void debug_printf(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at);
   if (len < 6)
      FAIL("invalid SPIR-V: DebugPrintf without a format");
   uint32_t format = add_format(t, sc_arg(t, at, 5));
   struct sc_opnd words[64];
   uint32_t n = 2;
   for (uint32_t k = 6; k < len; k++) {
      struct operands o = operand(t, sc_arg(t, at, k));
      struct tinfo s = operand_scalar(t, sc_arg(t, at, k));
      for (uint32_t i = 0; i < o.n; i++) {
         for (uint32_t h = 0; h < (is64(&s) ? 2u : 1u); h++) {
            if (n == 64)
               FAIL("debugPrintf with more than 62 words of arguments");
            words[n++] = is64(&s) ? part_of(o.c[i], h) : o.c[i];
         }
      }
      release(&o);
   }
   words[0] = sc_imm(n);
   /* the driver's number for this program's first format, plus ours */
   struct sc_opnd base = sc_reg(new_reg(t, 1, true));
   emit(t, ISA_OP_LDG, 1, base, t->root, sc_none(), sc_none())->imm = HW_ROOT_PRINTF_BASE_OFFSET;
   words[1] = alu(t, ISA_OP_IADD, 0, base, sc_imm(format), sc_none());
   struct sc_opnd buf = root_load64(t, HW_ROOT_PRINTF_OFFSET);
   struct sc_opnd bytes = as_register(t, sc_imm(4 * n), false);
   struct sc_opnd offset = sc_reg(new_reg(t, 1, false));
   emit(t, ISA_OP_ATOMG, ISA_ATOM_ADD, offset, buf, bytes, sc_none())->imm = HW_PRINTF_USED_OFFSET;
   struct sc_opnd capacity = sc_reg(new_reg(t, 1, true));
   emit(t, ISA_OP_LDG, 1, capacity, buf, sc_none(), sc_none())->imm = HW_PRINTF_CAPACITY_OFFSET;
   struct sc_opnd end = alu(t, ISA_OP_IADD, 0, offset, sc_imm(4 * n), sc_none());
   /* fits: no wrap-around, and end <= capacity */
   struct sc_opnd fits = alu(t, ISA_OP_AND, 0, alu(t, ISA_OP_ICMP, ISA_ICMP_GE_U, end, offset, sc_none()),
                             alu(t, ISA_OP_ICMP, ISA_ICMP_LE_U, end, capacity, sc_none()), sc_none());
   uint32_t skip = new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX, .restore_label = skip});
   emit_flow(t, ISA_OP_IF, fits, skip, 0);
   struct sc_opnd record = sc_reg(new_reg(t, 2, false));
   emit(t, ISA_OP_ZEXT64, 0, record, offset, sc_none(), sc_none());
   emit(t, ISA_OP_IADD64, 0, record, buf, record, sc_none());
   for (uint32_t i = 0; i < n; i++) {
      struct sc_opnd w = words[i].kind == SC_IMM ? as_register(t, words[i], false) : words[i];
      emit(t, ISA_OP_STG, 1, sc_none(), record, w, sc_none())->imm =
         (uint32_t)sizeof(struct hw_printf_buffer) + 4 * i;
   }
   place_label(t, skip);
   emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
}

/* ---- atomics and barriers --------------------------------------------------------------- */

static struct sc_opnd as_register(struct sc_tx *t, struct sc_opnd o, bool wide)
{
   if (o.kind == SC_REG)
      return o;
   if (wide) {
      struct sc_opnd d = sc_reg(new_reg(t, 2, true));
      emit(t, ISA_OP_MOV64, 0, d, o, sc_none(), sc_none());
      return d;
   }
   return alu(t, ISA_OP_MOV, 0, o, sc_none(), sc_none());
}

static void atomic(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   struct tinfo s = scalar_at(t, type, 0);
   bool wide = is64(&s), global = is_buffer_storage(p.storage);
   if (!global && p.storage != SpvStorageClassWorkgroup)
      FAIL("atomics on storage class %u are not supported", p.storage);
   uint32_t imm;
   struct sc_opnd addr = global ? buffer_address(t, &p, 0, &imm) : local_address(t, &p, 0, &imm);
   if (!global && addr.kind == SC_NONE)
      addr = sc_none();
   enum isa_atomic kind = ISA_ATOM_ADD;
   struct sc_opnd value = sc_none();
   switch (op) {
   case SpvOpAtomicExchange: kind = ISA_ATOM_XCHG; break;
   case SpvOpAtomicIIncrement: value = wide ? pair64(t, 1) : sc_imm(1); break;
   case SpvOpAtomicIDecrement: value = wide ? pair64(t, UINT64_MAX) : sc_imm(UINT32_MAX); break;
   case SpvOpAtomicIAdd: break;
   case SpvOpAtomicISub: break;
   case SpvOpAtomicSMin: kind = ISA_ATOM_MIN_S; break;
   case SpvOpAtomicUMin: kind = ISA_ATOM_MIN_U; break;
   case SpvOpAtomicSMax: kind = ISA_ATOM_MAX_S; break;
   case SpvOpAtomicUMax: kind = ISA_ATOM_MAX_U; break;
   case SpvOpAtomicAnd: kind = ISA_ATOM_AND; break;
   case SpvOpAtomicOr: kind = ISA_ATOM_OR; break;
   case SpvOpAtomicXor: kind = ISA_ATOM_XOR; break;
   default: break;
   }
   if (value.kind == SC_NONE)
      value = get1(t, sc_arg(t, at, 6), 0);
   if (op == SpvOpAtomicISub)
      value = wide ? alu64(t, ISA_OP_ISUB64, 0, pair64(t, 0), value)
                   : alu(t, ISA_OP_INEG, 0, value, sc_none(), sc_none());
   value = as_register(t, value, wide);
   struct val *v = result(t, id, type);
   uint32_t guard = UINT32_MAX;
   if (global && t->o->robust_buffer_access && p.range.kind == SC_REG) {
      zero_fill(t, v->comp[0], wide);
      guard = guard_begin(t, &p, wide ? 8 : 4);
   }
   struct sc_minst *in =
      emit(t, global ? ISA_OP_ATOMG : ISA_OP_ATOMS, kind | (wide ? ISA_ATOM_64 : 0), v->comp[0],
           addr, value, sc_none());
   in->imm = imm;
   guard_end(t, guard);
}

static void compare_exchange(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   struct tinfo s = scalar_at(t, type, 0);
   bool wide = is64(&s), global = is_buffer_storage(p.storage);
   uint32_t imm;
   struct sc_opnd addr = global ? buffer_address(t, &p, 0, &imm) : local_address(t, &p, 0, &imm);
   struct sc_opnd value = as_register(t, get1(t, sc_arg(t, at, 7), 0), wide);
   struct sc_opnd cmp = as_register(t, get1(t, sc_arg(t, at, 8), 0), wide);
   struct val *v = result(t, id, type);
   uint32_t guard = UINT32_MAX;
   if (global && t->o->robust_buffer_access && p.range.kind == SC_REG) {
      zero_fill(t, v->comp[0], wide);
      guard = guard_begin(t, &p, wide ? 8 : 4);
   }
   struct sc_minst *in = emit(t, global ? ISA_OP_CASG : ISA_OP_CASS, wide ? ISA_ATOM_64 : 0,
                              v->comp[0], addr, cmp, value);
   in->imm = imm;
   guard_end(t, guard);
}

static void atomic_load(struct sc_tx *t, uint32_t at)
{
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   load(t, &p, sc_arg(t, at, 1), v->comp, 0);
}

static void atomic_store(struct sc_tx *t, uint32_t at)
{
   struct ptr p = pointer_of(t, sc_arg(t, at, 1));
   struct sc_opnd value = get1(t, sc_arg(t, at, 4), 0);
   store(t, &p, p.pointee, &value, 0);
   emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
}

static bool scope_of(struct sc_tx *t, uint32_t id, uint32_t *scope)
{
   return const_u32(t, id, scope);
}

/* Whether memory semantics at memory scope `scope_id` need a MEMBAR. A
 * CTA runs on one execution unit, its warps one after another, so its
 * invocations see each other's accesses in program order: ordering at
 * workgroup scope or narrower (SPIR-V 3.27 Scope: Workgroup, Subgroup,
 * Invocation) is given, and only device-wide scopes (CrossDevice, Device,
 * QueueFamily) order against other CTAs and the host. Likewise memory only
 * the workgroup can see (SPIR-V 3.25 Memory Semantics: WorkgroupMemory,
 * SubgroupMemory; glslang's memoryBarrierShared() is Device scope on
 * WorkgroupMemory alone) needs no fence at any scope. With no constant
 * scope, or no storage class named, the conservative answer. */
static bool needs_membar(struct sc_tx *t, uint32_t scope_id, uint32_t semantics)
{
   const uint32_t local = SpvMemorySemanticsWorkgroupMemoryMask |
                          SpvMemorySemanticsSubgroupMemoryMask;
   const uint32_t classes = local | SpvMemorySemanticsUniformMemoryMask |
                            SpvMemorySemanticsCrossWorkgroupMemoryMask |
                            SpvMemorySemanticsAtomicCounterMemoryMask |
                            SpvMemorySemanticsImageMemoryMask |
                            SpvMemorySemanticsOutputMemoryMask;
   uint32_t scope = SpvScopeDevice;
   scope_of(t, scope_id, &scope);
   if (!semantics || scope == SpvScopeWorkgroup || scope == SpvScopeSubgroup ||
       scope == SpvScopeInvocation)
      return false;
   return !(semantics & classes) || (semantics & classes & ~local);
}

static void control_barrier(struct sc_tx *t, uint32_t at)
{
   uint32_t exec_scope = SpvScopeWorkgroup, semantics = 0;
   scope_of(t, sc_arg(t, at, 1), &exec_scope);
   const_u32(t, sc_arg(t, at, 3), &semantics);
   bool membar = needs_membar(t, sc_arg(t, at, 2), semantics);
   if (membar)
      emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
   /* A subgroup's lanes run in lockstep: only a workgroup barrier waits. */
   if (exec_scope == SpvScopeWorkgroup) {
      emit(t, ISA_OP_BAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
      t->mir->uses_barrier = true;
   }
   if (membar)
      emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
}

/* ---- subgroup operations -------------------------------------------------------------- */

static uint32_t reduce_op(struct sc_tx *t, uint16_t op)
{
   switch (op) {
   case SpvOpGroupNonUniformIAdd: return ISA_RED_IADD;
   case SpvOpGroupNonUniformFAdd: return ISA_RED_FADD;
   case SpvOpGroupNonUniformIMul: return ISA_RED_IMUL;
   case SpvOpGroupNonUniformFMul: return ISA_RED_FMUL;
   case SpvOpGroupNonUniformSMin: return ISA_RED_IMIN_S;
   case SpvOpGroupNonUniformUMin: return ISA_RED_IMIN_U;
   case SpvOpGroupNonUniformFMin: return ISA_RED_FMIN;
   case SpvOpGroupNonUniformSMax: return ISA_RED_IMAX_S;
   case SpvOpGroupNonUniformUMax: return ISA_RED_IMAX_U;
   case SpvOpGroupNonUniformFMax: return ISA_RED_FMAX;
   case SpvOpGroupNonUniformBitwiseAnd:
   case SpvOpGroupNonUniformLogicalAnd: return ISA_RED_AND;
   case SpvOpGroupNonUniformBitwiseOr:
   case SpvOpGroupNonUniformLogicalOr: return ISA_RED_OR;
   case SpvOpGroupNonUniformBitwiseXor:
   case SpvOpGroupNonUniformLogicalXor: return ISA_RED_XOR;
   default: FAIL("unsupported subgroup operation %u", op);
   }
}

static void subgroup_arith(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2), group_op = sc_arg(t, at, 4);
   struct tinfo s = scalar_at(t, type, 0);
   uint32_t rop = reduce_op(t, sc_op(t->m, at));
   enum isa_op op;
   uint32_t mod = rop;
   if (is64(&s)) {
      if (rop >= ISA_RED_FADD)
         FAIL("64-bit floating-point subgroup arithmetic needs Float64, which softgpu lacks");
      mod |= ISA_SUBGROUP_64;
   }
   switch (group_op) {
   case SpvGroupOperationReduce: op = ISA_OP_REDUCE; break;
   case SpvGroupOperationInclusiveScan: op = ISA_OP_SCAN; break;
   case SpvGroupOperationExclusiveScan: op = ISA_OP_SCAN; mod |= ISA_SCAN_EXCLUSIVE; break;
   default: FAIL("unsupported subgroup group operation %u", group_op);
   }
   struct operands a = operand(t, sc_arg(t, at, 5));
   struct val *v = result(t, id, type);
   /* An exclusive scan's first lane gets the identity: all ones for AND,
    * which is no boolean (booleans are 0 or 1); true is 1. */
   bool bool_and = s.kind == TK_BOOL && rop == ISA_RED_AND && (mod & ISA_SCAN_EXCLUSIVE);
   for (uint32_t i = 0; i < v->n; i++) {
      if (!bool_and) {
         emit(t, op, mod, v->comp[i], a.c[i], sc_none(), sc_none());
         continue;
      }
      struct sc_opnd scan = sc_reg(new_reg(t, 1, opnd_uniform(t, a.c[i])));
      emit(t, op, mod, scan, a.c[i], sc_none(), sc_none());
      emit(t, ISA_OP_AND, 0, v->comp[i], scan, sc_imm(1), sc_none());
   }
   release(&a);
}

/* The lane index of the first active lane (uniform). */
static struct sc_opnd first_active_lane(struct sc_tx *t)
{
   struct sc_opnd ballot = sc_reg(new_reg(t, 2, true));
   emit(t, ISA_OP_BALLOT, 0, ballot, sc_imm(1), sc_none(), sc_none());
   struct sc_opnd lo = alu(t, ISA_OP_FINDLSB, 0, part_of(ballot, 0), sc_none(), sc_none());
   struct sc_opnd hi = alu(t, ISA_OP_IADD, 0,
                           alu(t, ISA_OP_FINDLSB, 0, part_of(ballot, 1), sc_none(), sc_none()),
                           sc_imm(32), sc_none());
   struct sc_opnd any_lo = alu(t, ISA_OP_ICMP, ISA_ICMP_NE, part_of(ballot, 0), sc_imm(0), sc_none());
   return alu(t, ISA_OP_SEL, 0, any_lo, lo, hi);
}

static struct sc_opnd ballot_bit(struct sc_tx *t, const struct operands *mask, struct sc_opnd index)
{
   struct sc_opnd low = alu(t, ISA_OP_ICMP, ISA_ICMP_LT_U, index, sc_imm(32), sc_none());
   struct sc_opnd word = alu(t, ISA_OP_SEL, 0, low, mask->c[0], mask->c[1]);
   struct sc_opnd sh = alu(t, ISA_OP_SHR_U, 0, word, alu(t, ISA_OP_AND, 0, index, sc_imm(31), sc_none()),
                           sc_none());
   return alu(t, ISA_OP_AND, 0, sh, sc_imm(1), sc_none());
}

/* A ballot's words 0 and 1 with only the subgroup's bits: "Only the
 * bits that correspond to invocations in the subgroup are used"
 * (OpGroupNonUniformBallotBitCount, FindLSB, FindMSB); the subgroup is the
 * warp, so W bits (words 2 and 3 never count: W <= 64). */
static void subgroup_words(struct sc_tx *t, const struct operands *mask, struct sc_opnd *w0,
                           struct sc_opnd *w1)
{
   uint32_t w = t->o->warp_width;
   *w0 = w >= 32 ? mask->c[0] : alu(t, ISA_OP_AND, 0, mask->c[0], sc_imm((1u << w) - 1), sc_none());
   *w1 = w >= 64 ? mask->c[1] : sc_imm(0);
}

static void subgroup(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2), scope = SpvScopeSubgroup;
   scope_of(t, sc_arg(t, at, 3), &scope);
   if (scope != SpvScopeSubgroup)
      FAIL("group operations with scope %u are not supported", scope);
   switch (op) {
   case SpvOpGroupNonUniformElect: {
      struct val *v = result(t, id, type);
      emit(t, ISA_OP_ELECT, 0, v->comp[0], sc_none(), sc_none(), sc_none());
      return;
   }
   case SpvOpGroupNonUniformAll:
   case SpvOpGroupNonUniformAny: {
      struct val *v = result(t, id, type);
      emit(t, ISA_OP_VOTE, op == SpvOpGroupNonUniformAll ? ISA_VOTE_ALL : ISA_VOTE_ANY, v->comp[0],
           get1(t, sc_arg(t, at, 4), 0), sc_none(), sc_none());
      return;
   }
   case SpvOpGroupNonUniformAllEqual: {
      struct operands a = operand(t, sc_arg(t, at, 4));
      struct tinfo s = operand_scalar(t, sc_arg(t, at, 4));
      struct sc_opnd acc = sc_imm(1);
      for (uint32_t i = 0; i < a.n; i++) {
         for (uint32_t h = 0; h < (is64(&s) ? 2u : 1u); h++) {
            struct sc_opnd e = alu(t, ISA_OP_VOTE, ISA_VOTE_EQ, part_of(a.c[i], h), sc_none(), sc_none());
            acc = alu(t, ISA_OP_AND, 0, acc, e, sc_none());
         }
      }
      assign(t, id, type, &acc, 1);
      release(&a);
      return;
   }
   case SpvOpGroupNonUniformBroadcast:
   case SpvOpGroupNonUniformBroadcastFirst:
   case SpvOpGroupNonUniformShuffle:
   case SpvOpGroupNonUniformShuffleXor:
   case SpvOpGroupNonUniformShuffleUp:
   case SpvOpGroupNonUniformShuffleDown: {
      struct operands a = operand(t, sc_arg(t, at, 4));
      struct sc_opnd lane = op == SpvOpGroupNonUniformBroadcastFirst ? first_active_lane(t)
                                                                     : get1(t, sc_arg(t, at, 5), 0);
      enum isa_op isa = (op == SpvOpGroupNonUniformBroadcast || op == SpvOpGroupNonUniformBroadcastFirst)
                           ? ISA_OP_BCAST : ISA_OP_SHFL;
      uint32_t mod = op == SpvOpGroupNonUniformShuffleXor ? ISA_SHFL_XOR
                     : op == SpvOpGroupNonUniformShuffleUp ? ISA_SHFL_UP
                     : op == SpvOpGroupNonUniformShuffleDown ? ISA_SHFL_DOWN : ISA_SHFL_IDX;
      struct tinfo s = scalar_at(t, type, 0);
      struct val *v = result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++) {
         for (uint32_t h = 0; h < (is64(&s) ? 2u : 1u); h++)
            emit(t, isa, mod, part_of(v->comp[i], h), part_of(a.c[i], h), lane, sc_none());
      }
      release(&a);
      return;
   }
   case SpvOpGroupNonUniformBallot: {
      struct sc_opnd b = sc_reg(new_reg(t, 2, true));
      emit(t, ISA_OP_BALLOT, 0, b, get1(t, sc_arg(t, at, 4), 0), sc_none(), sc_none());
      struct sc_opnd c[4] = {part_of(b, 0), part_of(b, 1), sc_imm(0), sc_imm(0)};
      assign(t, id, type, c, 4);
      return;
   }
   case SpvOpGroupNonUniformInverseBallot:
   case SpvOpGroupNonUniformBallotBitExtract: {
      struct operands mask = operand(t, sc_arg(t, at, 4));
      struct sc_opnd index = op == SpvOpGroupNonUniformInverseBallot
                                ? sreg(t, ISA_SR_LANE_ID, false) : get1(t, sc_arg(t, at, 5), 0);
      struct sc_opnd r = ballot_bit(t, &mask, index);
      assign(t, id, type, &r, 1);
      release(&mask);
      return;
   }
   case SpvOpGroupNonUniformBallotBitCount: {
      uint32_t group_op = sc_arg(t, at, 4);
      struct operands mask = operand(t, sc_arg(t, at, 5));
      struct sc_opnd w0, w1;
      subgroup_words(t, &mask, &w0, &w1);
      if (group_op != SpvGroupOperationReduce) {
         uint32_t bi = group_op == SpvGroupOperationInclusiveScan ? SpvBuiltInSubgroupLeMask
                                                                  : SpvBuiltInSubgroupLtMask;
         w0 = alu(t, ISA_OP_AND, 0, w0, builtin_component(t, bi, 0), sc_none());
         w1 = alu(t, ISA_OP_AND, 0, w1, builtin_component(t, bi, 1), sc_none());
      }
      struct sc_opnd r = alu(t, ISA_OP_IADD, 0, alu(t, ISA_OP_POPC, 0, w0, sc_none(), sc_none()),
                             alu(t, ISA_OP_POPC, 0, w1, sc_none(), sc_none()), sc_none());
      assign(t, id, type, &r, 1);
      release(&mask);
      return;
   }
   case SpvOpGroupNonUniformBallotFindLSB:
   case SpvOpGroupNonUniformBallotFindMSB: {
      struct operands mask = operand(t, sc_arg(t, at, 4));
      struct sc_opnd r, w0, w1;
      subgroup_words(t, &mask, &w0, &w1);
      if (op == SpvOpGroupNonUniformBallotFindLSB) {
         struct sc_opnd any = alu(t, ISA_OP_ICMP, ISA_ICMP_NE, w0, sc_imm(0), sc_none());
         struct sc_opnd hi = alu(t, ISA_OP_IADD, 0, alu(t, ISA_OP_FINDLSB, 0, w1, sc_none(), sc_none()),
                                 sc_imm(32), sc_none());
         r = alu(t, ISA_OP_SEL, 0, any, alu(t, ISA_OP_FINDLSB, 0, w0, sc_none(), sc_none()), hi);
      } else {
         struct sc_opnd any = alu(t, ISA_OP_ICMP, ISA_ICMP_NE, w1, sc_imm(0), sc_none());
         struct sc_opnd hi = alu(t, ISA_OP_IADD, 0, alu(t, ISA_OP_FINDMSB_U, 0, w1, sc_none(), sc_none()),
                                 sc_imm(32), sc_none());
         r = alu(t, ISA_OP_SEL, 0, any, hi, alu(t, ISA_OP_FINDMSB_U, 0, w0, sc_none(), sc_none()));
      }
      assign(t, id, type, &r, 1);
      release(&mask);
      return;
   }
   default:
      subgroup_arith(t, at);
      return;
   }
}

/* ---- matrices -------------------------------------------------------------------------- */

static void matrix_op(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct operands b = sc_len(t->m, at) > 4 ? operand(t, sc_arg(t, at, 4)) : a;
   struct tinfo ta = type_of(t, idp(t, sc_arg(t, at, 3))->type);
   struct sc_opnd out[MAX_COMPONENTS];
   uint32_t n = components(t, type);
   switch (op) {
   case SpvOpVectorTimesScalar:
   case SpvOpMatrixTimesScalar:
      for (uint32_t i = 0; i < n; i++)
         out[i] = alu(t, ISA_OP_FMUL, 0, a.c[i], b.c[0], sc_none());
      break;
   case SpvOpDot:
      out[0] = dot(t, &a, &b);
      break;
   case SpvOpTranspose: {
      struct tinfo col = type_of(t, ta.elem);
      for (uint32_t c = 0; c < ta.count; c++)
         for (uint32_t r = 0; r < col.count; r++)
            out[r * ta.count + c] = a.c[c * col.count + r];
      break;
   }
   case SpvOpMatrixTimesVector: {   /* sum over columns c of M[c] * v[c] */
      uint32_t rows = n;
      for (uint32_t r = 0; r < rows; r++) {
         struct sc_opnd acc = alu(t, ISA_OP_FMUL, 0, a.c[r], b.c[0], sc_none());
         for (uint32_t c = 1; c < ta.count; c++)
            acc = alu(t, ISA_OP_FADD, 0, acc, alu(t, ISA_OP_FMUL, 0, a.c[c * rows + r], b.c[c], sc_none()),
                      sc_none());
         out[r] = acc;
      }
      break;
   }
   case SpvOpVectorTimesMatrix: {   /* result[c] = dot(v, M[c]) */
      struct tinfo tb = type_of(t, idp(t, sc_arg(t, at, 4))->type);
      uint32_t rows = components(t, tb.elem);
      for (uint32_t c = 0; c < n; c++) {
         struct operands col = {b.c + c * rows, rows, false, t};
         out[c] = dot(t, &a, &col);
      }
      break;
   }
   case SpvOpMatrixTimesMatrix: {
      struct tinfo tb = type_of(t, idp(t, sc_arg(t, at, 4))->type);
      uint32_t rows = components(t, ta.elem), inner = ta.count;
      for (uint32_t c = 0; c < tb.count; c++) {
         for (uint32_t r = 0; r < rows; r++) {
            struct sc_opnd acc = alu(t, ISA_OP_FMUL, 0, a.c[r], b.c[c * inner], sc_none());
            for (uint32_t k = 1; k < inner; k++)
               acc = alu(t, ISA_OP_FADD, 0, acc,
                         alu(t, ISA_OP_FMUL, 0, a.c[k * rows + r], b.c[c * inner + k], sc_none()),
                         sc_none());
            out[c * rows + r] = acc;
         }
      }
      break;
   }
   case SpvOpOuterProduct:
      for (uint32_t c = 0; c < b.n; c++)
         for (uint32_t r = 0; r < a.n; r++)
            out[c * a.n + r] = alu(t, ISA_OP_FMUL, 0, a.c[r], b.c[c], sc_none());
      break;
   default:
      FAIL("unsupported matrix operation %u", op);
   }
   assign(t, id, type, out, n);
   release(&a);
   if (sc_len(t->m, at) > 4)
      release(&b);
}

/* ---- one instruction -------------------------------------------------------------------- */

static void convert(struct sc_tx *t, uint32_t at, enum isa_op op)
{
   unop(t, at, op, op == ISA_OP_I2F_S ? ISA_OP_I2F64_S : ISA_OP_I2F64_U, 0);
}

/* Float to integer, by the result's width. */
static void float_to_int(struct sc_tx *t, uint32_t at, bool is_signed)
{
   struct tinfo to = result_scalar(t, at);
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   enum isa_op op = is64(&to) ? (is_signed ? ISA_OP_F2I64_S : ISA_OP_F2I64_U)
                              : (is_signed ? ISA_OP_F2I_S : ISA_OP_F2I_U);
   for (uint32_t i = 0; i < v->n; i++)
      emit(t, op, 0, v->comp[i], pick(&a, i), sc_none(), sc_none());
   release(&a);
}

/* OpQuantizeToF16: through binary16 and back; "too small to represent as
 * a normalized 16-bit float" gives a zero of the same sign. */
static void quantize_f16(struct sc_tx *t, uint32_t at)
{
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd h = alu(t, ISA_OP_F2H, 0, pick(&a, i), sc_none(), sc_none());
      struct sc_opnd f = alu(t, ISA_OP_H2F, 0, h, sc_none(), sc_none());
      struct sc_opnd denorm = alu(t, ISA_OP_ICMP, ISA_ICMP_EQ,
                                  alu(t, ISA_OP_AND, 0, h, sc_imm(0x7c00), sc_none()), sc_imm(0),
                                  sc_none());
      emit(t, ISA_OP_SEL, 0, v->comp[i], denorm, alu(t, ISA_OP_AND, 0, f, sc_imm(0x80000000u), sc_none()), f);
   }
   release(&a);
}

/* OpBitCount: 64-bit operands count both halves; the result may be
 * either width. */
static void bit_count(struct sc_tx *t, uint32_t at)
{
   struct tinfo from = operand_scalar(t, sc_arg(t, at, 3)), to = result_scalar(t, at);
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd x = pick(&a, i);
      struct sc_opnd n = is64(&from)
                            ? alu(t, ISA_OP_IADD, 0, alu(t, ISA_OP_POPC, 0, part_of(x, 0), sc_none(), sc_none()),
                                  alu(t, ISA_OP_POPC, 0, part_of(x, 1), sc_none(), sc_none()), sc_none())
                            : alu(t, ISA_OP_POPC, 0, x, sc_none(), sc_none());
      if (is64(&to))
         emit(t, ISA_OP_ZEXT64, 0, v->comp[i], n, sc_none(), sc_none());
      else
         emit(t, ISA_OP_MOV, 0, v->comp[i], n, sc_none(), sc_none());
   }
   release(&a);
}

/* OpBitReverse: a 64-bit value reverses each half and swaps them. */
static void bit_reverse(struct sc_tx *t, uint32_t at)
{
   struct tinfo from = operand_scalar(t, sc_arg(t, at, 3));
   if (!is64(&from)) {
      unop(t, at, ISA_OP_BITREV, ISA_OP_NOP, 0);
      return;
   }
   struct operands a = operand(t, sc_arg(t, at, 3));
   struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      emit(t, ISA_OP_BITREV, 0, part_of(v->comp[i], 0), part_of(pick(&a, i), 1), sc_none(), sc_none());
      emit(t, ISA_OP_BITREV, 0, part_of(v->comp[i], 1), part_of(pick(&a, i), 0), sc_none(), sc_none());
   }
   release(&a);
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a struct of
 * two members (low result, then carry/borrow or high half). */
static void wide_arith(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   struct tinfo s = operand_scalar(t, sc_arg(t, at, 3));
   bool wide = is64(&s);
   struct operands a = operand(t, sc_arg(t, at, 3)), b = operand(t, sc_arg(t, at, 4));
   struct sc_opnd out[2 * 16];
   uint32_t n = a.n < 16 ? a.n : 16;
   for (uint32_t i = 0; i < n; i++) {
      struct sc_opnd x = pick(&a, i), y = pick(&b, i), lo, hi;
      switch (op) {
      case SpvOpIAddCarry:
      case SpvOpISubBorrow: {
         bool add = op == SpvOpIAddCarry;
         lo = wide ? alu64(t, add ? ISA_OP_IADD64 : ISA_OP_ISUB64, 0, x, y)
                   : alu(t, add ? ISA_OP_IADD : ISA_OP_ISUB, 0, x, y, sc_none());
         /* carry: sum < a; borrow: a < b */
         struct sc_opnd c = wide ? alu(t, ISA_OP_ICMP64, ISA_ICMP_LT_U, add ? lo : x, add ? x : y, sc_none())
                                 : alu(t, ISA_OP_ICMP, ISA_ICMP_LT_U, add ? lo : x, add ? x : y, sc_none());
         hi = c;
         if (wide) {
            hi = sc_reg(new_reg(t, 2, opnd_uniform(t, c)));
            emit(t, ISA_OP_ZEXT64, 0, hi, c, sc_none(), sc_none());
         }
         break;
      }
      default: {
         bool sgn = op == SpvOpSMulExtended;
         lo = wide ? alu64(t, ISA_OP_IMUL64, 0, x, y) : alu(t, ISA_OP_IMUL, 0, x, y, sc_none());
         hi = wide ? alu64(t, sgn ? ISA_OP_IMULHI64_S : ISA_OP_IMULHI64_U, 0, x, y)
                   : alu(t, sgn ? ISA_OP_IMULHI_S : ISA_OP_IMULHI_U, 0, x, y, sc_none());
         break;
      }
      }
      out[i] = lo;
      out[n + i] = hi;
   }
   release(&a);
   release(&b);
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), out, 2 * n);
}

static void instruction(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   uint32_t id = sc_result_id(t, at);
   t->exact = id && t->m->ids[id].no_contraction;
   sc_work(t, 1);
   switch (op) {
   case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
   case SpvOpPhi: case SpvOpLabel: case SpvOpFunction: case SpvOpFunctionParameter:
      return;
   case SpvOpUndef:
      /* "Make an intermediate object whose value is undefined" (SPIR-V
       * 3.42.2): inside a function as at global scope, get() makes it
       * where it is used, as zeros, like the constants. */
      return;
   case SpvOpVariable: variable(t, sc_arg(t, at, 2)); return;
   case SpvOpAccessChain:
   case SpvOpInBoundsAccessChain: access_chain(t, at, false); return;
   case SpvOpPtrAccessChain:
   case SpvOpInBoundsPtrAccessChain: access_chain(t, at, true); return;
   case SpvOpLoad: op_load(t, at); return;
   case SpvOpStore: op_store(t, at); return;
   case SpvOpCopyMemory: copy_memory(t, at); return;
   case SpvOpArrayLength: op_array_length(t, at); return;
   case SpvOpCopyObject:
   case SpvOpCopyLogical: {
      if (val_at(t, sc_arg(t, at, 3))->kind == VAL_PTR) {
         struct ptr p = pointer_of(t, sc_arg(t, at, 3));
         *ptr_new(t, sc_arg(t, at, 2)) = p;
         return;
      }
      struct operands a = operand(t, sc_arg(t, at, 3));
      assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), a.c, a.n);
      release(&a);
      return;
   }
   case SpvOpIAdd: binop(t, at, ISA_OP_IADD, ISA_OP_IADD64, 0); return;
   case SpvOpISub: binop(t, at, ISA_OP_ISUB, ISA_OP_ISUB64, 0); return;
   case SpvOpIMul: binop(t, at, ISA_OP_IMUL, ISA_OP_IMUL64, 0); return;
   case SpvOpUDiv: binop(t, at, ISA_OP_IDIV_U, ISA_OP_IDIV64_U, 0); return;
   case SpvOpSDiv: binop(t, at, ISA_OP_IDIV_S, ISA_OP_IDIV64_S, 0); return;
   case SpvOpUMod: binop(t, at, ISA_OP_IREM_U, ISA_OP_IREM64_U, 0); return;
   case SpvOpSRem: binop(t, at, ISA_OP_IREM_S, ISA_OP_IREM64_S, 0); return;
   case SpvOpSMod: binop(t, at, ISA_OP_IMOD_S, ISA_OP_IMOD64_S, 0); return;
   case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended:
      wide_arith(t, at);
      return;
   case SpvOpSNegate: {
      struct tinfo s = operand_scalar(t, sc_arg(t, at, 3));
      if (!is64(&s)) {
         unop(t, at, ISA_OP_INEG, ISA_OP_NOP, 0);
         return;
      }
      struct operands a = operand(t, sc_arg(t, at, 3));
      struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         emit(t, ISA_OP_ISUB64, 0, v->comp[i], pair64(t, 0), pick(&a, i), sc_none());
      release(&a);
      return;
   }
   case SpvOpFAdd: binop(t, at, ISA_OP_FADD, ISA_OP_NOP, 0); return;
   case SpvOpFSub: binop(t, at, ISA_OP_FSUB, ISA_OP_NOP, 0); return;
   case SpvOpFMul: binop(t, at, ISA_OP_FMUL, ISA_OP_NOP, 0); return;
   case SpvOpFDiv: binop(t, at, ISA_OP_FDIV, ISA_OP_NOP, 0); return;
   case SpvOpFRem: binop(t, at, ISA_OP_FMATH2, ISA_OP_NOP, ISA_FM_FMOD); return;
   case SpvOpFMod: {   /* x - y * floor(x / y) */
      struct operands a = operand(t, sc_arg(t, at, 3)), b = operand(t, sc_arg(t, at, 4));
      struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++) {
         struct sc_opnd q = alu(t, ISA_OP_FFLOOR, 0,
                                alu(t, ISA_OP_FDIV, 0, pick(&a, i), pick(&b, i), sc_none()), sc_none(), sc_none());
         emit(t, ISA_OP_FSUB, 0, v->comp[i], pick(&a, i),
              alu(t, ISA_OP_FMUL, 0, pick(&b, i), q, sc_none()), sc_none());
      }
      release(&a);
      release(&b);
      return;
   }
   case SpvOpFNegate: unop(t, at, ISA_OP_FNEG, ISA_OP_NOP, 0); return;
   case SpvOpShiftLeftLogical: binop(t, at, ISA_OP_SHL, ISA_OP_SHL64, 0); return;
   case SpvOpShiftRightLogical: binop(t, at, ISA_OP_SHR_U, ISA_OP_SHR64_U, 0); return;
   case SpvOpShiftRightArithmetic: binop(t, at, ISA_OP_SHR_S, ISA_OP_SHR64_S, 0); return;
   case SpvOpBitwiseAnd: bitwise(t, at, ISA_OP_AND, false); return;
   case SpvOpBitwiseOr: bitwise(t, at, ISA_OP_OR, false); return;
   case SpvOpBitwiseXor: bitwise(t, at, ISA_OP_XOR, false); return;
   case SpvOpNot: bitwise(t, at, ISA_OP_NOT, true); return;
   case SpvOpBitReverse: bit_reverse(t, at); return;
   case SpvOpBitCount: bit_count(t, at); return;
   case SpvOpBitFieldSExtract:
   case SpvOpBitFieldUExtract: {
      struct operands a = operand(t, sc_arg(t, at, 3)), off = operand(t, sc_arg(t, at, 4)),
                      cnt = operand(t, sc_arg(t, at, 5));
      struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         emit(t, op == SpvOpBitFieldSExtract ? ISA_OP_BFE_S : ISA_OP_BFE_U, 0, v->comp[i],
              pick(&a, i), off.c[0], cnt.c[0]);
      release(&a);
      release(&off);
      release(&cnt);
      return;
   }
   case SpvOpBitFieldInsert: {
      struct operands a = operand(t, sc_arg(t, at, 3)), b = operand(t, sc_arg(t, at, 4)),
                      off = operand(t, sc_arg(t, at, 5)), cnt = operand(t, sc_arg(t, at, 6));
      struct sc_opnd packed = alu(t, ISA_OP_OR, 0, alu(t, ISA_OP_AND, 0, off.c[0], sc_imm(255), sc_none()),
                                  alu(t, ISA_OP_SHL, 0, cnt.c[0], sc_imm(8), sc_none()), sc_none());
      struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         emit(t, ISA_OP_BFI, 0, v->comp[i], pick(&a, i), pick(&b, i), packed);
      release(&a);
      release(&b);
      release(&off);
      release(&cnt);
      return;
   }
   case SpvOpIEqual: case SpvOpLogicalEqual: compare(t, at, ISA_OP_ICMP, ISA_ICMP_EQ); return;
   case SpvOpINotEqual: case SpvOpLogicalNotEqual: compare(t, at, ISA_OP_ICMP, ISA_ICMP_NE); return;
   case SpvOpUGreaterThan: compare(t, at, ISA_OP_ICMP, ISA_ICMP_GT_U); return;
   case SpvOpSGreaterThan: compare(t, at, ISA_OP_ICMP, ISA_ICMP_GT_S); return;
   case SpvOpUGreaterThanEqual: compare(t, at, ISA_OP_ICMP, ISA_ICMP_GE_U); return;
   case SpvOpSGreaterThanEqual: compare(t, at, ISA_OP_ICMP, ISA_ICMP_GE_S); return;
   case SpvOpULessThan: compare(t, at, ISA_OP_ICMP, ISA_ICMP_LT_U); return;
   case SpvOpSLessThan: compare(t, at, ISA_OP_ICMP, ISA_ICMP_LT_S); return;
   case SpvOpULessThanEqual: compare(t, at, ISA_OP_ICMP, ISA_ICMP_LE_U); return;
   case SpvOpSLessThanEqual: compare(t, at, ISA_OP_ICMP, ISA_ICMP_LE_S); return;
   case SpvOpFOrdEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_OEQ); return;
   case SpvOpFUnordEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_UEQ); return;
   case SpvOpFOrdNotEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_ONE); return;
   case SpvOpFUnordNotEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_UNE); return;
   case SpvOpFOrdLessThan: compare(t, at, ISA_OP_FCMP, ISA_FCMP_OLT); return;
   case SpvOpFUnordLessThan: compare(t, at, ISA_OP_FCMP, ISA_FCMP_ULT); return;
   case SpvOpFOrdGreaterThan: compare(t, at, ISA_OP_FCMP, ISA_FCMP_OGT); return;
   case SpvOpFUnordGreaterThan: compare(t, at, ISA_OP_FCMP, ISA_FCMP_UGT); return;
   case SpvOpFOrdLessThanEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_OLE); return;
   case SpvOpFUnordLessThanEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_ULE); return;
   case SpvOpFOrdGreaterThanEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_OGE); return;
   case SpvOpFUnordGreaterThanEqual: compare(t, at, ISA_OP_FCMP, ISA_FCMP_UGE); return;
   case SpvOpIsNan: compare(t, at, ISA_OP_FCMP, ISA_FCMP_ISNAN); return;
   case SpvOpIsInf: compare(t, at, ISA_OP_FCMP, ISA_FCMP_ISINF); return;
   case SpvOpOrdered: compare(t, at, ISA_OP_FCMP, ISA_FCMP_ORD); return;
   case SpvOpUnordered: compare(t, at, ISA_OP_FCMP, ISA_FCMP_UNO); return;
   case SpvOpLogicalAnd: binop(t, at, ISA_OP_AND, ISA_OP_NOP, 0); return;
   case SpvOpLogicalOr: binop(t, at, ISA_OP_OR, ISA_OP_NOP, 0); return;
   case SpvOpLogicalNot: {
      struct operands a = operand(t, sc_arg(t, at, 3));
      struct val *v = result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         emit(t, ISA_OP_XOR, 0, v->comp[i], a.c[i], sc_imm(1), sc_none());
      release(&a);
      return;
   }
   case SpvOpAny:
   case SpvOpAll: {
      /* OpAny: "true if any component of Vector is true"; OpAll: "if all
       * components are true" (SPIR-V 3.42.15, Relational and Logical
       * Instructions). Booleans are 0 or 1: OR or AND them. */
      struct operands a = operand(t, sc_arg(t, at, 3));
      enum isa_op fold_op = sc_op(t->m, at) == SpvOpAny ? ISA_OP_OR : ISA_OP_AND;
      struct sc_opnd r = a.n ? a.c[0] : sc_imm(0);
      for (uint32_t i = 1; i < a.n; i++)
         r = alu(t, fold_op, 0, r, a.c[i], sc_none());
      release(&a);
      assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), &r, 1);
      return;
   }
   case SpvOpSelect: select_op(t, at); return;
   case SpvOpConvertFToU: float_to_int(t, at, false); return;
   case SpvOpConvertFToS: float_to_int(t, at, true); return;
   case SpvOpQuantizeToF16: quantize_f16(t, at); return;
   case SpvOpConvertSToF: convert(t, at, ISA_OP_I2F_S); return;
   case SpvOpConvertUToF: convert(t, at, ISA_OP_I2F_U); return;
   case SpvOpUConvert: int_convert(t, at, false); return;
   case SpvOpSConvert: int_convert(t, at, true); return;
   case SpvOpFConvert: unop(t, at, ISA_OP_MOV, ISA_OP_NOP, 0); return;
   case SpvOpBitcast: bitcast(t, at); return;
   case SpvOpConvertUToPtr:
   case SpvOpConvertPtrToU: {
      uint32_t src = sc_arg(t, at, 3);
      struct sc_opnd a;
      if (val_at(t, src)->kind == VAL_PTR) {
         struct ptr p = pointer_of(t, src);
         a = pointer_address(t, &p);
      } else {
         a = get1(t, src, 0);
      }
      assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), &a, 1);
      return;
   }
   case SpvOpCompositeConstruct: composite_construct(t, at); return;
   case SpvOpCompositeExtract: composite_extract(t, at); return;
   case SpvOpCompositeInsert: composite_insert(t, at); return;
   case SpvOpVectorShuffle: vector_shuffle(t, at); return;
   case SpvOpVectorExtractDynamic: vector_extract_dynamic(t, at); return;
   case SpvOpVectorInsertDynamic: vector_insert_dynamic(t, at); return;
   case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar: case SpvOpDot: case SpvOpTranspose:
   case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
   case SpvOpOuterProduct:
      matrix_op(t, at);
      return;
   case SpvOpExtInst: {
      uint32_t set = sc_arg(t, at, 3);
      if (set == t->m->glsl_std_450) {
         glsl(t, at);
         return;
      }
      if (set == t->m->debug_printf && sc_arg(t, at, 4) == 1) {   /* DebugPrintf */
         debug_printf(t, at);
         return;
      }
      /* Other NonSemantic instructions carry no meaning for execution. */
      return;
   }
   case SpvOpAtomicLoad: atomic_load(t, at); return;
   case SpvOpAtomicStore: atomic_store(t, at); return;
   case SpvOpAtomicCompareExchange: compare_exchange(t, at); return;
   case SpvOpAtomicExchange: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
   case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
   case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
   case SpvOpAtomicXor:
      atomic(t, at);
      return;
   case SpvOpControlBarrier: control_barrier(t, at); return;
   case SpvOpMemoryBarrier: {
      uint32_t semantics = SpvMemorySemanticsSequentiallyConsistentMask;
      const_u32(t, sc_arg(t, at, 2), &semantics);
      if (needs_membar(t, sc_arg(t, at, 1), semantics))
         emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
      return;
   }
   default:
      if (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformLogicalXor) {
         subgroup(t, at);
         return;
      }
      if (op == SpvOpFunctionCall)
         FAIL("function calls remain after inlining (recursion is not allowed in Vulkan)");
      FAIL("unsupported SPIR-V instruction (opcode %u)", op);
   }
}

/* ---- blocks ----------------------------------------------------------------------------- */

static bool is_terminator(uint16_t op)
{
   switch (op) {
   case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
   case SpvOpReturnValue: case SpvOpUnreachable: case SpvOpKill: case SpvOpTerminateInvocation:
      return true;
   default:
      return false;
   }
}

static void find_blocks(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   t->block_of = malloc(m->bound * sizeof(*t->block_of));
   if (!t->block_of)
      FAIL("out of memory");
   for (uint32_t i = 0; i < m->bound; i++)
      t->block_of[i] = -1;
   uint32_t cap = 0;
   struct sc_block *cur = NULL;
   for (uint32_t at = m->function_start; at < m->function_end; at += sc_len(m, at)) {
      uint16_t op = sc_op(m, at);
      if (op == SpvOpLabel) {
         t->blocks = grow_array(t->blocks, &cap, t->block_count + 1, sizeof(*t->blocks), t->e);
         cur = &t->blocks[t->block_count];
         *cur = (struct sc_block){.label = sc_arg(t, at, 1), .start = at};
         t->block_of[cur->label] = (int32_t)t->block_count++;
      } else if (!cur) {
         continue;
      } else if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
         cur->merge = at;
      } else if (is_terminator(op)) {
         cur->term = at;
         cur = NULL;
      } else if (op != SpvOpPhi && !cur->first_inst) {
         cur->first_inst = at;
      }
   }
   for (uint32_t i = 0; i < t->block_count; i++) {
      if (!t->blocks[i].term)
         FAIL("invalid SPIR-V: block %u has no terminator", t->blocks[i].label);
      if (!t->blocks[i].first_inst)
         t->blocks[i].first_inst = t->blocks[i].merge ? t->blocks[i].merge : t->blocks[i].term;
   }
}

struct sc_block *sc_block_of(struct sc_tx *t, uint32_t label)
{
   if (label >= t->m->bound || t->block_of[label] < 0)
      FAIL("invalid SPIR-V: %u is not a block of the entry point", label);
   return &t->blocks[t->block_of[label]];
}

/* ---- phi copies ----------------------------------------------------------------------------- */

/* Registers for a phi's value (made on first need: a loop's preheader
 * copies into them before the header is lowered). */
static struct val *phi_value(struct sc_tx *t, uint32_t id, uint32_t type)
{
   if (val_at(t, id)->kind == VAL_REGS)
      return &t->vals[id];
   return result(t, id, type);
}

/* The copies of edge from -> to: for each phi of `to`, its value on that
 * edge. They form a parallel copy: sources are read before any phi is
 * written, through temporaries when a source is itself a destination. */
static void emit_edge(struct sc_tx *t, uint32_t from, uint32_t to)
{
   struct sc_block *b = sc_block_of(t, to);
   struct { struct sc_opnd dst, src; bool wide; } copies[256];
   uint32_t n = 0;
   for (uint32_t at = b->start + sc_len(t->m, b->start); at < b->term; at += sc_len(t->m, at)) {
      if (sc_op(t->m, at) != SpvOpPhi)
         continue;
      uint32_t len = sc_len(t->m, at), type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
      if (id == t->counter_phi)
         continue;
      for (uint32_t k = 3; k + 1 < len; k += 2) {
         if (sc_arg(t, at, k + 1) != from)
            continue;
         struct val *dst = phi_value(t, id, type);
         struct operands src = operand(t, sc_arg(t, at, k));
         for (uint32_t i = 0; i < dst->n && i < src.n; i++) {
            if (n == 256)
               FAIL("too many phi copies on one edge");
            struct tinfo s = scalar_at(t, type, i);
            copies[n].dst = dst->comp[i];
            copies[n].src = src.c[i];
            copies[n].wide = is64(&s);
            n++;
         }
         release(&src);
         break;
      }
   }
   bool overlap = false;
   for (uint32_t i = 0; i < n && !overlap; i++) {
      for (uint32_t j = 0; j < n; j++) {
         if (i != j && copies[i].src.kind == SC_REG && copies[i].src.value == copies[j].dst.value)
            overlap = true;
      }
   }
   if (overlap) {
      for (uint32_t i = 0; i < n; i++) {
         struct sc_opnd tmp = sc_reg(new_reg(t, copies[i].wide ? 2 : 1,
                                             t->mir->regs[copies[i].dst.value].uniform));
         copy_scalar(t, tmp, copies[i].src, copies[i].wide);
         copies[i].src = tmp;
      }
   }
   for (uint32_t i = 0; i < n; i++) {
      if (copies[i].src.kind == SC_REG && copies[i].src.value == copies[i].dst.value &&
          copies[i].src.part == copies[i].dst.part)
         continue;
      copy_scalar(t, copies[i].dst, copies[i].src, copies[i].wide);
   }
}

/* ---- structured control flow ------------------------------------------------------------------ */

static void region(struct sc_tx *t, uint32_t label, uint32_t stop);

static void open_construct(struct sc_tx *t, struct construct c)
{
   if (t->depth == ISA_MAX_STACK)
      FAIL("control flow nested more than %u deep (SPIR-V's universal limit is 1023)",
           ISA_MAX_STACK);
   t->cons[t->depth++] = c;
   if (t->depth > t->mir->stack_depth)
      t->mir->stack_depth = t->depth;
}

/* What a branch to `target` means from inside the open constructs: the
 * construct index it leaves (break: merge of a loop/switch; continue:
 * continue target of a loop), or -1 for an ordinary branch. */
static int exit_of(const struct sc_tx *t, uint32_t target, bool *is_continue)
{
   for (int i = (int)t->depth - 1; i >= 0; i--) {
      const struct construct *c = &t->cons[i];
      if (c->kind == CK_LOOP && c->cont == target && c->cont != c->header) {
         *is_continue = true;
         return i;
      }
      if ((c->kind == CK_LOOP || c->kind == CK_SWITCH) && c->merge == target) {
         *is_continue = false;
         return i;
      }
   }
   return -1;
}

/* BRK levels: breakable constructs between the innermost and construct k. */
static uint32_t break_levels(const struct sc_tx *t, int k)
{
   uint32_t levels = 0;
   for (int i = (int)t->depth - 1; i > k; i--) {
      if (t->cons[i].kind == CK_LOOP || t->cons[i].kind == CK_SWITCH)
         levels++;
   }
   return levels;
}

static uint32_t restore_label(const struct sc_tx *t)
{
   return t->depth ? t->cons[t->depth - 1].restore_label : t->exit_label;
}

/* Lanes leave constructs above index k (a BRK or CONT to construct k; a
 * RET leaves all of them: k = -1). */
static void escape_above(struct sc_tx *t, int k)
{
   for (int i = k + 1; i < (int)t->depth; i++)
      t->cons[i].escaped = true;
}

/* Closes the innermost construct after its closer was emitted: if lanes
 * left it for an outer one, none may be active now, and the code after
 * the closer is skipped up to the next closer out (see hw_isa.h). */
static void close_construct(struct sc_tx *t)
{
   bool escaped = t->cons[--t->depth].escaped;
   if (escaped && t->depth)
      emit_flow(t, ISA_OP_JEZ, sc_none(), restore_label(t), 0);
}

/* Takes the branch from -> target for the active lanes. Returns true if
 * they stay on this path (target is where the region continues). */
static bool take_branch(struct sc_tx *t, uint32_t from, uint32_t target, uint32_t stop)
{
   emit_edge(t, from, target);
   if (target == stop) {
      /* The natural end of the region; a switch case falling through sets
       * its flag. */
      if (t->depth && t->cons[t->depth - 1].kind == CK_SELECTION &&
          t->cons[t->depth - 1].fallthrough.kind == SC_REG)
         emit(t, ISA_OP_MOV, 0, t->cons[t->depth - 1].fallthrough, sc_imm(1), sc_none(), sc_none());
      return false;
   }
   bool cont;
   int k = exit_of(t, target, &cont);
   if (k >= 0) {
      if (cont)
         emit_flow(t, ISA_OP_CONT, sc_imm(1), restore_label(t), 0);
      else
         emit_flow(t, ISA_OP_BRK, sc_imm(1), restore_label(t), break_levels(t, k));
      escape_above(t, k);
      return false;
   }
   return true;
}

static struct sc_opnd negate(struct sc_tx *t, struct sc_opnd c)
{
   return alu(t, ISA_OP_XOR, 0, c, sc_imm(1), sc_none());
}

static bool has_phi_copies(struct sc_tx *t, uint32_t from, uint32_t to);

/* A selection (IF/ELSE/ENDIF) whose sides are branches `then` and `other`. */
static void selection(struct sc_tx *t, uint32_t from, struct sc_opnd cond, uint32_t then,
                      uint32_t other, uint32_t merge)
{
   uint32_t else_label = new_label(t), end_label = new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = merge,
                                        .restore_label = else_label});
   emit_flow(t, ISA_OP_IF, cond, else_label, 0);
   if (take_branch(t, from, then, merge))
      region(t, then, merge);
   t->cons[t->depth - 1].restore_label = end_label;
   place_label(t, else_label);
   /* An else side that goes straight to the merge, with no phi copies
    * to make, runs nothing: no ELSE (IF's jump lands on the ENDIF). */
   if (other != merge || has_phi_copies(t, from, merge)) {
      emit_flow(t, ISA_OP_ELSE, sc_none(), end_label, 0);
      if (take_branch(t, from, other, merge))
         region(t, other, merge);
   }
   place_label(t, end_label);
   emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
}

/* Whether the edge from -> to carries phi copies. */
static bool has_phi_copies(struct sc_tx *t, uint32_t from, uint32_t to)
{
   const struct sc_block *b = sc_block_of(t, to);
   for (uint32_t at = b->start + sc_len(t->m, b->start); at < b->term; at += sc_len(t->m, at)) {
      if (sc_op(t->m, at) != SpvOpPhi)
         continue;
      for (uint32_t k = 4; k < sc_len(t->m, at); k += 2) {
         if (t->m->words[at + k] == from)
            return true;
      }
   }
   return false;
}

/* A conditional branch with no selection merge: each target is an exit
 * (break, continue, the region's end) or at most one ordinary block.
 * Returns where the remaining lanes continue, or UINT32_MAX. */
static uint32_t unmerged_conditional(struct sc_tx *t, uint32_t from, struct sc_opnd cond,
                                     uint32_t a, uint32_t b, uint32_t stop)
{
   bool ca, cb;
   bool a_exit = a == stop || exit_of(t, a, &ca) >= 0;
   bool b_exit = b == stop || exit_of(t, b, &cb) >= 0;
   if (!a_exit && !b_exit)
      FAIL("invalid SPIR-V: conditional branch without a merge to two ordinary blocks");
   bool both = a_exit && b_exit;
   if (both && a != stop && b != stop) {
      /* Both sides leave: one selection. */
      uint32_t else_label = new_label(t), end_label = new_label(t);
      open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                           .restore_label = else_label});
      emit_flow(t, ISA_OP_IF, cond, else_label, 0);
      take_branch(t, from, a, stop);
      t->cons[t->depth - 1].restore_label = end_label;
      place_label(t, else_label);
      emit_flow(t, ISA_OP_ELSE, sc_none(), end_label, 0);
      take_branch(t, from, b, stop);
      place_label(t, end_label);
      emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
      close_construct(t);
      return UINT32_MAX;
   }
   /* One side leaves; the others go on to the ordinary block, or end the
    * region (a do-while's latch: back to the header, or break). */
   uint32_t next = both ? stop : a_exit ? b : a;
   uint32_t exit_target = both ? (a == stop ? b : a) : a_exit ? a : b;
   struct sc_opnd leave = exit_target == a ? cond : negate(t, cond);
   bool is_cont;
   int k = exit_target == stop ? -1 : exit_of(t, exit_target, &is_cont);
   if (k >= 0 && !has_phi_copies(t, from, exit_target)) {
      /* A break or continue: BRK/CONT take the condition themselves (the
       * lanes where it holds leave; with none left, they jump to the
       * closer of the innermost construct, as the JEZ after an IF would). */
      if (is_cont)
         emit_flow(t, ISA_OP_CONT, leave, restore_label(t), 0);
      else
         emit_flow(t, ISA_OP_BRK, leave, restore_label(t), break_levels(t, k));
      escape_above(t, k);
      return take_branch(t, from, next, stop) ? next : UINT32_MAX;
   }
   uint32_t end_label = new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                        .restore_label = end_label});
   emit_flow(t, ISA_OP_IF, leave, end_label, 0);
   take_branch(t, from, exit_target, stop);
   place_label(t, end_label);
   emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
   return take_branch(t, from, next, stop) ? next : UINT32_MAX;
}

/* Case blocks of a switch in layout order. */
static int compare_blocks(const void *a, const void *b)
{
   int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
   return (x > y) - (x < y);
}

/* The selector compared (EQ or NE) with the literal at word k of the
 * OpSwitch at `at`: a 64-bit selector against both words of its literal. */
static struct sc_opnd case_compare(struct sc_tx *t, struct sc_opnd sel, uint32_t at, uint32_t k,
                                   enum isa_icmp cmp)
{
   if (switch_literal_words(t, at) == 1)
      return alu(t, ISA_OP_ICMP, cmp, sel, sc_imm(sc_arg(t, at, k)), sc_none());
   uint64_t literal = sc_arg(t, at, k) | (uint64_t)sc_arg(t, at, k + 1) << 32;
   struct sc_opnd d = sc_reg(new_reg(t, 1, opnd_uniform(t, sel)));
   emit(t, ISA_OP_ICMP64, cmp, d, sel, pair64(t, literal), sc_none());
   return d;
}

static void switch_construct(struct sc_tx *t, struct sc_block *blk, uint32_t merge)
{
   uint32_t at = blk->term, len = sc_len(t->m, at), lw = switch_literal_words(t, at);
   struct sc_opnd sel = get1(t, sc_arg(t, at, 1), 0);
   uint32_t deflt = sc_arg(t, at, 2);
   /* one per distinct target: as many as the instruction names, up to every
    * block (a switch may have hundreds of cases) */
   uint32_t cap = len < t->block_count ? len : t->block_count;
   int32_t *order = calloc(cap ? cap : 1, sizeof(*order));
   if (!order)
      FAIL("out of memory");
   own(t, order);
   uint32_t n = 0;
   /* distinct targets, merge excluded; case k's literal is at k, its
    * target at k + lw */
   for (uint32_t k = 2; k + (k == 2 ? 0 : lw) < len; k += (k == 2 ? 1 : lw + 1)) {
      uint32_t target = k == 2 ? deflt : sc_arg(t, at, k + lw);
      if (target == merge)
         continue;
      int32_t bi = (int32_t)(sc_block_of(t, target) - t->blocks);
      bool seen = false;
      for (uint32_t i = 0; i < n; i++)
         seen |= order[i] == bi;
      if (!seen && n < cap)
         order[n++] = bi;
   }
   qsort(order, n, sizeof(order[0]), compare_blocks);
   uint32_t end_label = new_label(t);
   open_construct(t, (struct construct){.kind = CK_SWITCH, .merge = merge, .restore_label = end_label});
   emit(t, ISA_OP_SWITCH, 0, sc_none(), sc_none(), sc_none(), sc_none());
   struct sc_opnd ft = sc_reg(new_reg(t, 1, false));
   struct sc_opnd taken = sc_reg(new_reg(t, 1, false));
   emit(t, ISA_OP_MOV, 0, ft, sc_imm(0), sc_none(), sc_none());
   emit(t, ISA_OP_MOV, 0, taken, sc_imm(0), sc_none(), sc_none());
   /* Lanes whose selector matches no literal take the default. */
   struct sc_opnd is_default = sc_imm(1);
   for (uint32_t k = 3; k + lw < len; k += lw + 1)
      is_default = alu(t, ISA_OP_AND, 0, is_default, case_compare(t, sel, at, k, ISA_ICMP_NE),
                       sc_none());
   for (uint32_t i = 0; i < n; i++) {
      uint32_t target = t->blocks[order[i]].label;
      uint32_t next = i + 1 < n ? t->blocks[order[i + 1]].label : merge;
      struct sc_opnd cond = ft;
      for (uint32_t k = 3; k + lw < len; k += lw + 1) {
         if (sc_arg(t, at, k + lw) == target)
            cond = alu(t, ISA_OP_OR, 0, cond, case_compare(t, sel, at, k, ISA_ICMP_EQ), sc_none());
      }
      if (target == deflt)
         cond = alu(t, ISA_OP_OR, 0, cond, is_default, sc_none());
      /* The header's phi copies run for the lanes the selector sends here,
       * and not for those falling through from the case before: they
       * already made their own edge's copies. */
      const struct sc_block *tb = sc_block_of(t, target);
      if (tb->first_inst > tb->start + sc_len(t->m, tb->start)) {
         struct sc_opnd sent = alu(t, ISA_OP_AND, 0, cond, negate(t, ft), sc_none());
         uint32_t copied = new_label(t);
         open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                              .restore_label = copied});
         emit_flow(t, ISA_OP_IF, sent, copied, 0);
         emit_edge(t, blk->label, target);
         place_label(t, copied);
         emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
         close_construct(t);
      }
      uint32_t case_end = new_label(t);
      open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = next,
                                           .restore_label = case_end, .fallthrough = ft});
      emit_flow(t, ISA_OP_IF, cond, case_end, 0);
      emit(t, ISA_OP_MOV, 0, ft, sc_imm(0), sc_none(), sc_none());
      emit(t, ISA_OP_MOV, 0, taken, sc_imm(1), sc_none(), sc_none());
      region(t, target, next);
      place_label(t, case_end);
      emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
      close_construct(t);
   }
   /* Lanes whose target is the merge itself took no case: their edge's
    * phi copies run under their own mask. */
   uint32_t skip = new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                        .restore_label = skip});
   emit_flow(t, ISA_OP_IF, negate(t, taken), skip, 0);
   emit_edge(t, blk->label, merge);
   place_label(t, skip);
   emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
   place_label(t, end_label);
   emit(t, ISA_OP_ENDSWITCH, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
   disown(t, order);
}

/* ---- counted loops, unrolled ------------------------------------------------------------------ */

/*
 * A loop that counts an integer induction variable from a constant, by a
 * constant step, to a constant bound runs a number of iterations known at
 * compile time. When they are few and the body small, it is translated
 * once per iteration with the counter a constant: addresses and
 * conditions built from it fold (a tile's k-th element is an offset), and
 * the loop's compare, branch and increment go.
 *
 * The induction variable is found in either of the forms SPIR-V carries
 * it in, so that a shader runs the same code however it was built:
 * - an SSA value (glslc -O, spirv-opt): an OpPhi of the header whose
 *   value on entry is a constant and whose value on the back edge is the
 *   phi stepped by a constant; the header (or its one successor) compares
 *   it with a constant and branches into the body or out to the merge:
 *     H: %i = OpPhi <init> P %n C; ... %c = <compare> %i <bound>
 *        OpLoopMerge M C; OpBranchConditional %c B M    (or %c M B)
 *     ... %n = <step> %i <const> (anywhere the back edge passes)
 *     C: ... OpBranch H
 * - a promoted Function variable (glslc without -O, which the driver's
 *   default path translates as is):
 *     P: ... OpStore %i <init>; OpBranch H
 *     H: OpLoopMerge M C; OpBranch X
 *     X: %a = OpLoad %i; %c = <compare> %a <bound>; OpBranchConditional %c B M
 *     B..: the body, ending in the one branch to C
 *     C: %b = OpLoad %i; %d = <step> %b <const>; OpStore %i %d; OpBranch H
 * In both, nothing else leaves the loop, returns, breaks or continues (so
 * the body is a region from B to C of the kind selection() lowers).
 */
#define UNROLL_TRIPS 16u         /* at most this many iterations */
#define UNROLL_BUDGET 320u       /* SPIR-V instructions, all copies of the body together */

struct counted {
   uint32_t var;                /* variable form: the counter, a promoted 32-bit integer
                                   variable; 0 in the SSA form */
   uint32_t phi;                /* SSA form: the counter's OpPhi in the header; 0 otherwise */
   bool exit_on_true;           /* the test's true branch leaves the loop */
   const struct sc_block *cond;    /* X (in the SSA form, the header or its successor) */
   uint32_t header, body, cont, merge;   /* labels of H, B, C and M */
   uint32_t trips;
   uint32_t value[UNROLL_TRIPS];   /* the counter in each iteration */
   uint32_t final;              /* and after the loop */
};

static void source_line(struct sc_tx *t, uint32_t at);

/* The instructions of block b other than OpLine/OpNoLine and its merge
 * instruction, up to max: their word offsets in at[]; returns how many
 * (max + 1 if there are more). */
static uint32_t plain_instructions(const struct sc_tx *t, const struct sc_block *b, uint32_t *at,
                                   uint32_t max)
{
   uint32_t n = 0;
   for (uint32_t w = b->first_inst; w < b->term && n <= max; w += sc_len(t->m, w)) {
      uint16_t op = sc_op(t->m, w);
      if (op == SpvOpLine || op == SpvOpNoLine || w == b->merge)
         continue;
      if (n < max)
         at[n] = w;
      n++;
   }
   return n;
}

static bool has_phis(const struct sc_tx *t, const struct sc_block *b)
{
   return b->first_inst != b->start + sc_len(t->m, b->start);
}

/* `%r = <op> %x <constant>`: op, x and the constant, if `at` is that. */
static bool op_with_constant(const struct sc_tx *t, uint32_t at, uint16_t *op, uint32_t *x,
                             uint32_t *k)
{
   if (sc_len(t->m, at) != 5)
      return false;
   *op = sc_op(t->m, at);
   *x = sc_arg(t, at, 3);
   return const_u32(t, sc_arg(t, at, 4), k);
}

static bool compare_holds(uint16_t op, uint32_t a, uint32_t b)
{
   switch (op) {
   case SpvOpULessThan: return a < b;
   case SpvOpULessThanEqual: return a <= b;
   case SpvOpUGreaterThan: return a > b;
   case SpvOpUGreaterThanEqual: return a >= b;
   case SpvOpSLessThan: return (int32_t)a < (int32_t)b;
   case SpvOpSLessThanEqual: return (int32_t)a <= (int32_t)b;
   case SpvOpSGreaterThan: return (int32_t)a > (int32_t)b;
   case SpvOpSGreaterThanEqual: return (int32_t)a >= (int32_t)b;
   case SpvOpINotEqual: return a != b;
   default: return false;
   }
}

static bool is_counter_compare(uint16_t op)
{
   return op >= SpvOpINotEqual && op <= SpvOpSLessThanEqual;   /* != and the orderings */
}

/* The counter after one step, or false for a step this does not know. */
static bool step_value(uint16_t op, uint32_t v, uint32_t k, uint32_t *out)
{
   switch (op) {
   case SpvOpIAdd: *out = v + k; return true;
   case SpvOpISub: *out = v - k; return true;
   case SpvOpIMul: *out = v * k; return true;
   case SpvOpShiftLeftLogical: *out = k < 32 ? v << k : 0; return k < 32;
   case SpvOpShiftRightLogical: *out = k < 32 ? v >> k : 0; return k < 32;
   default: return false;
   }
}

/* Whether `at` writes promoted variable var (a store, or modf/frexp's
 * second result). */
static bool writes_variable(const struct sc_tx *t, uint32_t at, uint32_t var)
{
   uint16_t op = sc_op(t->m, at);
   if (op == SpvOpStore)
      return sc_root_variable(t, sc_arg(t, at, 1)) == var;
   return op == SpvOpExtInst && sc_len(t->m, at) > 6 && sc_root_variable(t, sc_arg(t, at, 6)) == var;
}

/* The counter's value on entry: the last store to it in the block that
 * enters the loop (the header's one predecessor besides C). */
static bool entry_value(struct sc_tx *t, const struct sc_block *hb, uint32_t cont, uint32_t var,
                        uint32_t *init)
{
   const struct sc_block *pre = NULL;
   uint32_t hi = (uint32_t)(hb - t->blocks);
   for (uint32_t k = t->pred_first[hi]; k < t->pred_first[hi + 1]; k++) {
      const struct sc_block *p = &t->blocks[t->pred_list[k]];
      sc_work(t, 1);
      if (p->label == cont)
         continue;
      if (pre || sc_op(t->m, p->term) != SpvOpBranch)
         return false;
      pre = p;
   }
   uint32_t store = 0;
   for (uint32_t at = pre ? pre->first_inst : 0; pre && at < pre->term; at += sc_len(t->m, at)) {
      if (writes_variable(t, at, var))
         store = at;
   }
   return store && sc_op(t->m, store) == SpvOpStore && const_u32(t, sc_arg(t, store, 2), init);
}
/* Whether the loop's blocks (in) keep to the shape above: only X leaves
 * (to merge), one branch goes to C, nothing but C writes var, no block
 * returns or ends the invocation, every merge block inside is in the loop
 * (a break or continue would leave one unreachable), and the body is
 * small enough for trips copies. */
static bool plain_body(struct sc_tx *t, const uint8_t *in, uint32_t count, const struct counted *c,
                       uint32_t h, uint32_t merge)
{
   uint32_t to_cont = 0, size = 0;
   for (uint32_t m = 0; m < count; m++) {
      uint32_t i = t->members[m];
      const struct sc_block *b = &t->blocks[i];
      sc_work(t, 1);
      uint16_t term = sc_op(t->m, b->term);
      if (term != SpvOpBranch && term != SpvOpBranchConditional && term != SpvOpSwitch)
         return false;
      uint32_t succ[256], n = sc_successors(t, b, succ, 256);
      for (uint32_t k = 0; k < n; k++) {
         uint32_t label = t->blocks[succ[k]].label;
         if ((label == merge && b != c->cond) || (succ[k] == h && b->label != c->cont))
            return false;
         to_cont += label == c->cont;
      }
      if (b->merge && i != h) {
         uint32_t mb = sc_arg(t, b->merge, 1);
         if (mb >= t->m->bound || t->block_of[mb] < 0 || !in[t->block_of[mb]])
            return false;
      }
      for (uint32_t at = b->first_inst; at < b->term; at += sc_len(t->m, at)) {
         if (c->var && b->label != c->cont && writes_variable(t, at, c->var))
            return false;
         /* the SSA form translates every block of the loop per iteration;
          * the variable form all but the header, X and C */
         size += c->phi || (i != h && b != c->cond && b->label != c->cont);
      }
   }
   return to_cont == 1 && (uint64_t)size * c->trips <= UNROLL_BUDGET;
}

/* The iterations: the counter from init while the compare holds. */
static bool count_trips(struct counted *c, uint16_t cmp, uint32_t bound, uint16_t step,
                        uint32_t k, uint32_t init)
{
   uint32_t v = init;
   for (c->trips = 0; compare_holds(cmp, v, bound) != c->exit_on_true; c->trips++) {
      if (c->trips == UNROLL_TRIPS)
         return false;
      c->value[c->trips] = v;
      if (!step_value(step, v, k, &v))
         return false;
   }
   c->final = v;
   return true;
}

/* The variable form's counter: X loads and compares it, C steps it. */
static bool counted_variable(struct sc_tx *t, const struct sc_block *hb, struct counted *c,
                             uint32_t merge, uint16_t *cmp, uint32_t *bound, uint16_t *step,
                             uint32_t *k, uint32_t *init)
{
   uint32_t at[4], x;
   c->cond = sc_block_of(t, sc_arg(t, hb->term, 1));
   const struct sc_block *cb = sc_block_of(t, c->cont);
   /* X: load, compare, branch on to B or out to M */
   if (c->cond == hb || has_phis(t, c->cond) || c->cond->merge ||
       plain_instructions(t, c->cond, at, 2) != 2 || sc_op(t->m, at[0]) != SpvOpLoad ||
       sc_op(t->m, c->cond->term) != SpvOpBranchConditional ||
       sc_arg(t, c->cond->term, 1) != sc_arg(t, at[1], 2) || sc_arg(t, c->cond->term, 3) != merge)
      return false;
   c->var = sc_arg(t, at[0], 3);
   c->body = sc_arg(t, c->cond->term, 2);
   if (c->var >= t->m->bound || !t->slots[c->var])
      return false;
   if (!op_with_constant(t, at[1], cmp, &x, bound) || x != sc_arg(t, at[0], 2) ||
       !is_counter_compare(*cmp) || idp(t, c->var)->opcode != SpvOpVariable ||
       !t->promote[c->var])
      return false;
   struct tinfo vt = type_of(t, type_of(t, idp(t, c->var)->type).elem);
   if (vt.kind != TK_INT || vt.width != 32)
      return false;
   /* C: load, step, store back, to the header */
   if (has_phis(t, cb) || plain_instructions(t, cb, at, 3) != 3 ||
       sc_op(t->m, at[0]) != SpvOpLoad || sc_arg(t, at[0], 3) != c->var ||
       !op_with_constant(t, at[1], step, &x, k) || x != sc_arg(t, at[0], 2) ||
       sc_op(t->m, at[2]) != SpvOpStore || sc_arg(t, at[2], 1) != c->var ||
       sc_arg(t, at[2], 2) != sc_arg(t, at[1], 2) || sc_op(t->m, cb->term) != SpvOpBranch)
      return false;
   return entry_value(t, hb, c->cont, c->var, init);
}

/* The compare a <op> b with a constant on one side: the other side, the
 * constant and the comparison as if the variable side were first. */
static bool compare_with_constant(const struct sc_tx *t, uint32_t at, uint16_t *cmp, uint32_t *x,
                                  uint32_t *bound)
{
   static const uint16_t mirrored[][2] = {
      {SpvOpULessThan, SpvOpUGreaterThan}, {SpvOpULessThanEqual, SpvOpUGreaterThanEqual},
      {SpvOpSLessThan, SpvOpSGreaterThan}, {SpvOpSLessThanEqual, SpvOpSGreaterThanEqual}};
   if (sc_len(t->m, at) != 5 || !is_counter_compare(sc_op(t->m, at)))
      return false;
   *cmp = sc_op(t->m, at);
   if (op_with_constant(t, at, cmp, x, bound))
      return true;
   if (!const_u32(t, sc_arg(t, at, 3), bound))
      return false;
   *x = sc_arg(t, at, 4);
   for (uint32_t i = 0; i < sizeof(mirrored) / sizeof(mirrored[0]); i++) {
      if (mirrored[i][0] == *cmp || mirrored[i][1] == *cmp) {
         *cmp = mirrored[i][mirrored[i][0] == *cmp];
         break;
      }
   }
   return true;
}

/* The SSA form's counter: a phi of the header, tested in the header or
 * its successor X, stepped on the back edge from C. */
static bool counted_phi(struct sc_tx *t, const struct sc_block *hb, struct counted *c, uint32_t merge,
                        uint16_t *cmp, uint32_t *bound, uint16_t *step, uint32_t *k,
                        uint32_t *init)
{
   uint32_t at[2], x;
   c->cond = hb;
   if (sc_op(t->m, hb->term) == SpvOpBranch) {
      c->cond = sc_block_of(t, sc_arg(t, hb->term, 1));
      if (c->cond == hb || has_phis(t, c->cond) || c->cond->merge ||
          plain_instructions(t, hb, at, 1) != 0)
         return false;
   }
   const struct sc_block *x_b = c->cond;
   if (sc_op(t->m, x_b->term) != SpvOpBranchConditional)
      return false;
   uint32_t yes = sc_arg(t, x_b->term, 2), no = sc_arg(t, x_b->term, 3);
   c->exit_on_true = yes == merge;
   c->body = c->exit_on_true ? no : yes;
   uint32_t out = c->exit_on_true ? yes : no;
   if (out != merge || c->body == merge || c->body == hb->label)
      return false;
   const struct sc_id *cond = idp(t, sc_arg(t, x_b->term, 1));
   if (!compare_with_constant(t, cond->def, cmp, &x, bound))
      return false;
   /* the compared value: a phi of the header, 32-bit, entered with a
    * constant from outside and stepped on C's back edge */
   const struct sc_id *phi = idp(t, x);
   if (phi->opcode != SpvOpPhi || phi->def < hb->start || phi->def >= hb->first_inst ||
       sc_len(t->m, phi->def) != 7)
      return false;
   struct tinfo pt = type_of(t, phi->type);
   if (pt.kind != TK_INT || pt.width != 32)
      return false;
   uint32_t next = 0;
   bool have_init = false;
   for (uint32_t i = 3; i + 1 < 7; i += 2) {
      uint32_t value = sc_arg(t, phi->def, i), from = sc_arg(t, phi->def, i + 1);
      if (from == c->cont)
         next = value;
      else
         have_init = const_u32(t, value, init);
   }
   if (!next || !have_init || sc_op(t->m, sc_block_of(t, c->cont)->term) != SpvOpBranch)
      return false;
   const struct sc_id *nd = idp(t, next);
   uint32_t y;
   if (!op_with_constant(t, nd->def, step, &y, k) || y != x)
      return false;
   c->phi = x;
   return true;
}

/* Whether the loop headed by hb is a counted loop to unroll (see above). */
static bool counted_loop_found(struct sc_tx *t, const struct sc_block *hb, struct counted *c)
{
   uint32_t merge = sc_arg(t, hb->merge, 1);
   *c = (struct counted){.header = hb->label, .cont = sc_arg(t, hb->merge, 2), .merge = merge};
   if (c->cont == hb->label)
      return false;
   uint16_t cmp, step;
   uint32_t bound, k, init;
   bool phi_form = has_phis(t, hb);
   if (phi_form ? !counted_phi(t, hb, c, merge, &cmp, &bound, &step, &k, &init)
                : (plain_instructions(t, hb, (uint32_t[1]){0}, 1) != 0 ||
                   sc_op(t->m, hb->term) != SpvOpBranch ||
                   !counted_variable(t, hb, c, merge, &cmp, &bound, &step, &k, &init)))
      return false;
   if (!count_trips(c, cmp, bound, step, k, init))
      return false;
   uint8_t *in = calloc(t->block_count, 1);
   if (!in)
      FAIL("out of memory");
   uint32_t n = sc_loop_blocks(t, (uint32_t)(hb - t->blocks), in);
   bool ok = plain_body(t, in, n, c, (uint32_t)(hb - t->blocks), merge);
   free(in);
   return ok;
}

/* counted_loop_found, its work counted as the unroller's. */
static bool counted_loop(struct sc_tx *t, const struct sc_block *hb, struct counted *c)
{
   t->pass = SC_PASS_UNROLL;
   bool found = counted_loop_found(t, hb, c);
   t->pass = SC_PASS_TRANSLATE;
   return found;
}

/* X's instructions (the counter's load and compare): they dominate the
 * body and the merge, so code there may use what they define. */
static void counter_test(struct sc_tx *t, const struct counted *c)
{
   for (uint32_t at = c->cond->first_inst; at < c->cond->term; at += sc_len(t->m, at)) {
      source_line(t, at);
      instruction(t, at);
   }
}

/* The iterations one after the other, the counter a constant in each,
 * then X as on the loop's way out. The body's region runs inside a
 * construct of its own, so that what it takes for the innermost
 * construct (a switch case's fallthrough flag) is nobody's; its branches
 * reach no construct out of the loop. */
static void unroll(struct sc_tx *t, const struct counted *c)
{
   if (t->depth == ISA_MAX_STACK)
      FAIL("control flow nested more than %u deep (SPIR-V's universal limit is 1023)",
           ISA_MAX_STACK);
   /* The counter's register: the variable's slot, or the phi's (the
    * preheader's edge copy made it). While the iterations run, the value
    * there is the iteration's constant, and emit_edge leaves the phi's
    * back-edge copy out. */
   struct sc_opnd *slot;
   uint32_t outer_phi = t->counter_phi;
   if (c->phi) {
      slot = &phi_value(t, c->phi, idp(t, c->phi)->type)->comp[0];
      t->counter_phi = c->phi;
   } else {
      slot = &t->slots[c->var][0];
   }
   struct sc_opnd counter = *slot;
   t->cons[t->depth++] = (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                            .restore_label = UINT32_MAX};
   for (uint32_t i = 0; i < c->trips; i++) {
      *slot = sc_imm(c->value[i]);
      counter_test(t, c);
      emit_edge(t, c->cond->label, c->body);
      region(t, c->body, c->cont);
      /* the SSA form's continue target does work of its own (often the
       * whole body) and ends in the back edge's copies */
      if (c->phi)
         region(t, c->cont, c->header);
   }
   t->depth--;
   t->counter_phi = outer_phi;
   *slot = counter;
   copy_scalar(t, counter, sc_imm(c->final), false);
   counter_test(t, c);
   emit_edge(t, c->cond->label, c->merge);
}

/* A loop whose header is block hb; returns its merge. */
static uint32_t loop_construct(struct sc_tx *t, struct sc_block *hb)
{
   struct counted counted;
   if (counted_loop(t, hb, &counted)) {
      unroll(t, &counted);
      return sc_arg(t, hb->merge, 1);
   }
   uint32_t merge = sc_arg(t, hb->merge, 1), cont = sc_arg(t, hb->merge, 2);
   uint32_t top = new_label(t), join = new_label(t), end = new_label(t);
   emit(t, ISA_OP_LOOP, 0, sc_none(), sc_none(), sc_none(), sc_none());
   place_label(t, top);
   open_construct(t, (struct construct){.kind = CK_LOOP, .merge = merge, .cont = cont,
                                        .header = hb->label, .restore_label = join});
   /* The body runs from the header to the continue target (or, for a
    * single-block loop, back to the header). */
   region(t, hb->label, cont == hb->label ? UINT32_MAX : cont);
   place_label(t, join);
   emit_flow(t, ISA_OP_CONTJOIN, sc_none(), end, 0);
   t->cons[t->depth - 1].restore_label = end;
   if (cont != hb->label)
      region(t, cont, hb->label);
   place_label(t, end);
   emit_flow(t, ISA_OP_ENDLOOP, sc_none(), top, 0);
   close_construct(t);
   return merge;
}

/* Follows the source line: OpLine, or DebugLine of
 * NonSemantic.Shader.DebugInfo.100 (whose line is a constant's id). */
static void source_line(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   if (op == SpvOpLine && sc_len(t->m, at) >= 4) {
      t->line = sc_arg(t, at, 2);
   } else if (op == SpvOpNoLine) {
      t->line = 0;
   } else if (op == SpvOpExtInst && t->m->debug_info && sc_len(t->m, at) >= 5 &&
              sc_arg(t, at, 3) == t->m->debug_info) {
      uint32_t line;
      if (sc_arg(t, at, 4) == 103 && sc_len(t->m, at) >= 7 &&
          const_u32(t, sc_arg(t, at, 6), &line))   /* DebugLine */
         t->line = line;
      else if (sc_arg(t, at, 4) == 104)   /* DebugNoLine */
         t->line = 0;
   }
}

/* Lowers blocks from `label` until control reaches `stop` (which the caller
 * handles) or leaves through a break, continue or return. */
static void region(struct sc_tx *t, uint32_t label, uint32_t stop)
{
   bool loop_header_done = false;
   while (label != stop && label != UINT32_MAX) {
      struct sc_block *b = sc_block_of(t, label);
      if (b->merge && sc_op(t->m, b->merge) == SpvOpLoopMerge && !loop_header_done &&
          !(t->depth && t->cons[t->depth - 1].kind == CK_LOOP &&
            t->cons[t->depth - 1].header == label)) {
         label = loop_construct(t, b);
         continue;
      }
      loop_header_done = false;
      for (uint32_t at = b->first_inst; at < b->term; at += sc_len(t->m, at)) {
         source_line(t, at);
         instruction(t, at);
      }
      uint32_t at = b->term;
      switch (sc_op(t->m, at)) {
      case SpvOpBranch: {
         uint32_t target = sc_arg(t, at, 1);
         /* back edge of the innermost loop: the iteration's end */
         if (t->depth && t->cons[t->depth - 1].kind == CK_LOOP &&
             t->cons[t->depth - 1].header == target) {
            emit_edge(t, label, target);
            return;
         }
         label = take_branch(t, label, target, stop) ? target : UINT32_MAX;
         break;
      }
      case SpvOpBranchConditional: {
         uint32_t a = sc_arg(t, at, 2), c = sc_arg(t, at, 3);
         struct sc_opnd cond = get1(t, sc_arg(t, at, 1), 0);
         bool back = t->depth && t->cons[t->depth - 1].kind == CK_LOOP &&
                     (t->cons[t->depth - 1].header == a || t->cons[t->depth - 1].header == c);
         if (a == c) {
            label = take_branch(t, label, a, stop) ? a : UINT32_MAX;
         } else if (back) {
            /* the loop's latch: lanes not going back break out */
            uint32_t header = t->cons[t->depth - 1].header;
            unmerged_conditional(t, label, cond, a, c, header);
            return;
         } else if (b->merge && sc_op(t->m, b->merge) == SpvOpSelectionMerge) {
            uint32_t merge = sc_arg(t, b->merge, 1);
            selection(t, label, cond, a, c, merge);
            label = merge;
         } else {
            label = unmerged_conditional(t, label, cond, a, c, stop);
         }
         break;
      }
      case SpvOpSwitch: {
         if (!b->merge || sc_op(t->m, b->merge) != SpvOpSelectionMerge)
            FAIL("invalid SPIR-V: OpSwitch without OpSelectionMerge");
         uint32_t merge = sc_arg(t, b->merge, 1);
         switch_construct(t, b, merge);
         label = merge;
         break;
      }
      case SpvOpReturn:
      case SpvOpReturnValue:
         emit_flow(t, ISA_OP_RET, sc_imm(1), restore_label(t), 0);
         escape_above(t, -1);
         return;
      case SpvOpUnreachable:
         return;
      default:
         FAIL("unsupported terminator (opcode %u)", sc_op(t->m, at));
      }
   }
}

/* ---- the entry point ---------------------------------------------------------------------------- */

/* The operations of OpSpecConstantOp that the optimizer left (lowered to
 * instructions among the globals by sc_lower_spec_ops), computed at the
 * start, so they dominate every use, variables' initializers included. */
static void spec_operations(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   for (uint32_t at = 5; at < m->globals_end; at += sc_len(m, at)) {
      if (sc_spec_operation(sc_op(m, at)) && sc_result_id(t, at))
         instruction(t, at);
   }
}

/* Global variables the function uses, so their descriptors are loaded
 * once at the start (dominating every use). */
static void prologue(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   t->root = sc_reg(new_reg(t, 2, true));
   emit(t, ISA_OP_S2R, ISA_SR_ROOT_LO, part_of(t->root, 0), sc_none(), sc_none(), sc_none());
   emit(t, ISA_OP_S2R, ISA_SR_ROOT_HI, part_of(t->root, 1), sc_none(), sc_none(), sc_none());
   spec_operations(t);
   uint8_t *used = t->used_globals = calloc(m->bound, 1);
   if (!used)
      FAIL("out of memory");
   for (uint32_t at = m->function_start; at < m->function_end; at += sc_len(m, at)) {
      uint32_t slot = 0, last = 0;   /* the operands that may name a variable */
      switch (sc_op(m, at)) {
      case SpvOpStore: case SpvOpAtomicStore: slot = last = 1; break;
      case SpvOpCopyMemory: slot = 1, last = 2; break;
      case SpvOpLoad: case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
      case SpvOpInBoundsPtrAccessChain: case SpvOpArrayLength: case SpvOpCopyObject:
         slot = last = 3;
         break;
      default:
         if (sc_op(m, at) >= SpvOpAtomicLoad && sc_op(m, at) <= SpvOpAtomicXor)
            slot = last = 3;
         break;
      }
      for (; slot && slot <= last && slot < sc_len(m, at); slot++) {
         uint32_t id = m->words[at + slot];
         if (id < m->bound && m->ids[id].opcode == SpvOpVariable && m->ids[id].def < m->function_start)
            used[id] = 1;
      }
   }
   for (uint32_t id = 1; id < m->bound; id++) {
      if (used[id])
         variable(t, id);   /* may fail (longjmp): tx_free frees used */
   }
   free(used);
   t->used_globals = NULL;
}

static void tx_free(struct sc_tx *t)
{
   for (uint32_t i = 0; i < t->m->bound; i++) {
      free(t->vals[i].comp);
      free(t->vals[i].ptr);
      if (t->slots)
         free(t->slots[i]);
   }
   free(t->vals);
   free(t->cons);
   free(t->divergent);
   free(t->blocks);
   free(t->block_of);
   free(t->promote);
   free(t->used_globals);
   free(t->slots);
   free(t->join);
   free(t->used_outside);
   for (uint32_t i = 0; i < t->owned_n; i++)
      free(t->owned[i]);
   free(t->owned);
   free(t->var_divergent);
   free(t->ctrl);
   free(t->stack);
   free(t->loop_of);
   free(t->loop_parent);
   free(t->preds);
   free(t->members);
   free(t->visited);
   free(t->merge_header);
   free(t->cont_header);
   free(t->pred_first);
   free(t->pred_list);
}

void sc_translate(const struct sc_module *m, const struct sc_options *o,
                  const uint32_t local_size[3], struct sc_mir *mir, struct sc_error *e)
{
   struct sc_tx t = {.m = m, .o = o, .local_size = local_size, .mir = mir, .e = e};
   memset(mir, 0, sizeof(*mir));
   t.vals = calloc(m->bound, sizeof(*t.vals));
   t.cons = malloc(ISA_MAX_STACK * sizeof(*t.cons));
   if (!t.vals || !t.cons) {
      free(t.vals);
      free(t.cons);
      sc_fail(e, "out of memory");
   }
   /* Everything below frees through tx_free on the error path too. */
   struct sc_error inner = {.text = e->text, .size = e->size};
   if (setjmp(inner.jump)) {
      tx_free(&t);
      longjmp(e->jump, 1);
   }
   t.e = &inner;
   t.need_ranges = o->robust_buffer_access;
   for (uint32_t at = m->function_start; at < m->function_end; at += sc_len(m, at))
      t.need_ranges |= sc_op(m, at) == SpvOpArrayLength;
   find_blocks(&t);
   find_promotable(&t);
   sc_cfg_build(&t);
   sc_divergence(&t);
   t.exit_label = new_label(&t);
   prologue(&t);
   region(&t, t.blocks[0].label, UINT32_MAX);
   place_label(&t, t.exit_label);
   emit(&t, ISA_OP_EXIT, 0, sc_none(), sc_none(), sc_none(), sc_none());
   mir->shared_bytes = t.shared_next;
   mir->private_bytes = t.private_next;
   tx_free(&t);
}

void sc_mir_free(struct sc_mir *mir)
{
   for (uint32_t i = 0; i < mir->format_count; i++)
      free(mir->formats[i]);
   free(mir->formats);
   free(mir->code);
   free(mir->regs);
   free(mir->labels);
   memset(mir, 0, sizeof(*mir));
}
