/*
 * Translation of SPIR-V instructions to machine IR, an ISA instruction list
 * on virtual registers; sc_translate() runs the passes of sc_tx.h and
 * sc_lower_cf.c calls sc_instruction() for each block it reaches.
 *
 * Values are scalarized: every SPIR-V value is a list of scalar components,
 * each a virtual register (64-bit scalars take a two-part register) or an
 * immediate; pointers known at compile time are address expressions
 * (struct ptr). Which values are warp-invariant (uniform registers) was
 * decided before (sc_divergence.c).
 */
#include "sc_tx.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- translated values ------------------------------------------------------- */

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

/* ---- values ---------------------------------------------------------------------- */

static void constant_components(struct sc_tx *t, uint32_t id, struct sc_opnd *out, uint32_t *n);

/* Scalar constant: an immediate, or a 64-bit value in a register pair
 * materialized where it is used (so it dominates the use). */
static struct sc_opnd scalar_constant(struct sc_tx *t, uint32_t type, uint64_t bits)
{
   struct sc_tinfo ti = sc_type_of(t, type);
   if (sc_is64(&ti))
      return sc_pair64(t, bits);
   return sc_imm((uint32_t)bits);
}

static void constant_components(struct sc_tx *t, uint32_t id, struct sc_opnd *out, uint32_t *n)
{
   const struct sc_id *d = sc_idp(t, id);
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
      uint32_t count = sc_components(t, d->type);
      for (uint32_t i = 0; i < count; i++) {
         struct sc_tinfo s = sc_scalar_at(t, d->type, i);
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

/* The components of a value; constants are produced on the spot. The
 * returned array is the caller's to free when `owned` is set. */
static struct sc_opnd *get_raw(struct sc_tx *t, uint32_t id, uint32_t *n, bool *owned)
{
   const struct sc_id *d = sc_idp(t, id);
   if (is_constant_op(d->opcode)) {
      struct sc_opnd *c = sc_owned_array(t, sc_components(t, d->type));
      uint32_t k = 0;
      constant_components(t, id, c, &k);
      *n = k;
      *owned = true;
      return c;
   }
   struct sc_val *v = sc_val_at(t, id);
   if (v->kind == SC_VAL_PTR && v->ptr->storage == SpvStorageClassPhysicalStorageBuffer) {
      /* A PhysicalStorageBuffer pointer is also a value (OpSelect, OpPhi,
       * OpStore of it, a function's argument): its 64-bit address. An access
       * chain keeps it as an address expression, so the sum is formed here,
       * at the use, whose position its own registers dominate. */
      struct sc_opnd *c = sc_owned_array(t, 1);
      c[0] = pointer_address(t, v->ptr);
      *n = 1;
      *owned = true;
      return c;
   }
   if (v->kind != SC_VAL_REGS)
      FAIL("value %u (opcode %u) is used before it is defined, or is not a value", id, d->opcode);
   *n = v->n;
   *owned = false;
   return v->comp;
}

/* An 8- or 16-bit integer widened: its low `from` bits zero- or
 * sign-extended (the register's upper bits may hold anything, see
 * "Values narrower and wider than 32 bits" in docs/architecture.md). */
static struct sc_opnd canonical(struct sc_tx *t, struct sc_opnd x, uint32_t from, bool is_signed)
{
   if (from >= 32)
      return x;
   uint32_t mask = (1u << from) - 1;
   if (x.kind == SC_IMM) {
      uint32_t v = x.value & mask;
      return sc_imm(is_signed && (v >> (from - 1)) ? v | ~mask : v);
   }
   if (is_signed)
      return sc_alu(t, ISA_OP_BFE_S, 0, x, sc_imm(0), sc_imm(from));
   return sc_alu(t, ISA_OP_AND, 0, x, sc_imm(mask), sc_none());
}

/* Whether a value of type `type` has 8- or 16-bit numeric scalars. */
static bool narrow_type(const struct sc_tx *t, uint32_t type)
{
   if (type == 0 || type >= t->m->bound || !t->m->ids[type].def)
      return false;
   struct sc_tinfo ti = sc_type_of(t, type);
   while (ti.kind == SC_TK_VECTOR || ti.kind == SC_TK_MATRIX)   /* a matrix's element is a column */
      ti = sc_type_of(t, ti.elem);
   return (ti.kind == SC_TK_INT || ti.kind == SC_TK_FLOAT) && ti.width < 32;
}

/* The components of value id as t->view presents them to the instruction
 * being translated (enum sc_view). */
static struct sc_opnd *present(struct sc_tx *t, uint32_t id, struct sc_opnd *c, uint32_t n,
                               bool *owned)
{
   uint32_t type = sc_idp(t, id)->type;
   struct sc_opnd *out = *owned ? c : sc_owned_array(t, n);
   for (uint32_t i = 0; i < n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      struct sc_opnd x = c[i];
      if (s.kind == SC_TK_INT && s.width < 32 && (t->view & (SC_VIEW_ZEXT | SC_VIEW_SEXT)))
         x = canonical(t, x, s.width, (t->view & SC_VIEW_SEXT) != 0);
      else if (s.kind == SC_TK_FLOAT && s.width == 16 && (t->view & SC_VIEW_F32))
         x = x.kind == SC_IMM ? sc_imm(isa_h2f(x.value))
                              : sc_alu(t, ISA_OP_H2F, 0, x, sc_none(), sc_none());
      out[i] = x;
   }
   *owned = true;
   return out;
}

struct sc_opnd *sc_get(struct sc_tx *t, uint32_t id, uint32_t *n, bool *owned)
{
   struct sc_opnd *c = get_raw(t, id, n, owned);
   if (t->view != SC_VIEW_RAW && narrow_type(t, sc_idp(t, id)->type))
      c = present(t, id, c, *n, owned);
   return c;
}

/* Scalar component i of a value. */
struct sc_opnd sc_get1(struct sc_tx *t, uint32_t id, uint32_t i)
{
   uint32_t n;
   bool owned;
   struct sc_opnd *c = sc_get(t, id, &n, &owned);
   if (i >= n)
      FAIL("component %u of a %u-component value", i, n);
   struct sc_opnd r = c[i];
   if (owned)
      sc_disown(t, c);
   return r;
}

/* Component i of integer value id, extended to 32 bits if it is an 8- or
 * 16-bit integer (indices, switch selectors). */
struct sc_opnd sc_get_extended(struct sc_tx *t, uint32_t id, uint32_t i, bool is_signed)
{
   struct sc_opnd x = sc_get1(t, id, i);
   struct sc_tinfo s = sc_scalar_at(t, sc_idp(t, id)->type, i);
   return s.kind == SC_TK_INT ? canonical(t, x, s.width, is_signed) : x;
}

/* ---- layouts ------------------------------------------------------------------------ */

/* softgpu's own layout (shared and private memory): scalars 4 or 8 bytes,
 * vectors and matrices packed, arrays and structs aligned to their
 * elements. Returns the size and writes the alignment. */
static uint32_t implicit_size(const struct sc_tx *t, uint32_t type, uint32_t *align)
{
   struct sc_tinfo ti = sc_type_of(t, type);
   uint32_t a = 4, size;
   switch (ti.kind) {
   case SC_TK_BOOL: case SC_TK_INT: case SC_TK_FLOAT: case SC_TK_POINTER:
      size = a = sc_is64(&ti) ? 8 : 4;
      break;
   case SC_TK_VECTOR: case SC_TK_MATRIX: case SC_TK_ARRAY: {
      uint32_t ea, es = implicit_size(t, ti.elem, &ea);
      uint32_t stride = (es + ea - 1) / ea * ea;
      if ((uint64_t)stride * ti.count > (1ull << 30))
         FAIL("a %u-element array of %u bytes is too large", ti.count, stride);
      size = stride * ti.count;
      a = ea;
      break;
   }
   case SC_TK_STRUCT: {
      size = 0;
      for (uint32_t i = 0; i < ti.count; i++) {
         uint32_t ma, ms = implicit_size(t, sc_struct_member(t, type, i), &ma);
         size = (size + ma - 1) / ma * ma + ms;
         a = ma > a ? ma : a;
      }
      size = (size + a - 1) / a * a;
      break;
   }
   default:
      FAIL("type (opcode %u) cannot be placed in shared or private memory", sc_idp(t, type)->opcode);
   }
   if (align)
      *align = a;
   return size;
}

static uint32_t implicit_member_offset(const struct sc_tx *t, uint32_t type, uint32_t member)
{
   uint32_t off = 0;
   for (uint32_t i = 0; i <= member; i++) {
      uint32_t ma, ms = implicit_size(t, sc_struct_member(t, type, i), &ma);
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
      uint32_t s = sc_idp(t, array_type)->array_stride;
      if (!s)
         FAIL("array in a buffer has no ArrayStride decoration");
      return s;
   }
   struct sc_tinfo ti = sc_type_of(t, array_type);
   uint32_t a, s = implicit_size(t, ti.elem, &a);
   return (s + a - 1) / a * a;
}

/* A scalar's size: in explicit layouts (buffers, push constants) its own
 * width; in softgpu's own layout (shared, private) 8- and 16-bit scalars
 * take a dword, accessed whole (see "Values narrower and wider than 32
 * bits" in docs/architecture.md). */
static uint32_t scalar_bytes(const struct sc_tx *t, uint32_t type, bool explicit_layout)
{
   struct sc_tinfo ti = sc_type_of(t, type);
   if (explicit_layout && (ti.kind == SC_TK_INT || ti.kind == SC_TK_FLOAT) && ti.width < 32)
      return ti.width / 8;
   return sc_is64(&ti) ? 8 : 4;
}

/* The memory modifier of a scalar's access: dwords, or bytes (ISA_MEM_SUB)
 * for an 8- or 16-bit scalar in an explicit layout. Loads zero-extend. */
static uint32_t access_mod(const struct sc_tx *t, const struct sc_tinfo *s, bool explicit_layout)
{
   uint32_t bytes = scalar_bytes(t, s->id, explicit_layout);
   return bytes < 4 ? ISA_MEM_SUB | bytes : bytes / 4;
}

/* ---- addresses ------------------------------------------------------------------------- */

static struct ptr *ptr_new(struct sc_tx *t, uint32_t id)
{
   struct sc_val *v = sc_val_at(t, id);
   free(v->ptr);
   v->kind = SC_VAL_PTR;
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
      return index.value ? sc_alu(t, ISA_OP_IADD, 0, offset, sc_imm(index.value * stride), sc_none())
                         : offset;
   return sc_alu(t, ISA_OP_IMAD, 0, index, sc_imm(stride), offset);
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
      return pow2 ? sc_alu64(t, ISA_OP_SHL64, 0, index, sc_imm(k))
                  : sc_alu64(t, ISA_OP_IMUL64, 0, index, sc_imm(stride));
   }
   if (stride == 1)
      return sc_alu64(t, ISA_OP_SEXT64, 0, index, sc_none());
   struct sc_opnd d = sc_reg(sc_new_reg(t, 2, sc_opnd_uniform(t, index)));
   if (pow2) {
      sc_emit(t, ISA_OP_SHL, 0, sc_part_of(d, 0), index, sc_imm(k), sc_none());
      sc_emit(t, ISA_OP_SHR_S, 0, sc_part_of(d, 1), index, sc_imm(32 - k), sc_none());
   } else {
      sc_emit(t, ISA_OP_IMUL, 0, sc_part_of(d, 0), index, sc_imm(stride), sc_none());
      sc_emit(t, ISA_OP_IMULHI_S, 0, sc_part_of(d, 1), index, sc_imm(stride), sc_none());
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
      struct sc_opnd c = sc_pair64(t, (uint64_t)sum);
      p->dyn = p->dyn.kind == SC_REG ? sc_alu64(t, ISA_OP_IADD64, 0, p->dyn, c) : c;
      p->offset = sc_imm(0);
      return;
   }
   struct sc_opnd s = scaled64(t, index, index64, stride);
   p->dyn = p->dyn.kind == SC_REG ? sc_alu64(t, ISA_OP_IADD64, 0, p->dyn, s) : s;
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
      index = sc_part_of(index, 0);   /* shared and private offsets are 32-bit */
   if (p->offset.kind == SC_IMM) {
      p->disp += p->offset.value;
      p->offset = sc_imm(0);
   }
   if (index.kind == SC_IMM) {
      p->disp += index.value * stride;
   } else if (p->offset.kind == SC_IMM) {
      p->offset = stride == 1 ? index : sc_alu(t, ISA_OP_IMUL, 0, index, sc_imm(stride), sc_none());
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
      a = sc_alu64(t, ISA_OP_IADD64, 0, a, p->dyn);
   uint64_t disp = (uint64_t)p->offset.value + extra;
   if (disp < 0x80000000u) {
      *imm = (uint32_t)disp;
      return a;
   }
   *imm = 0;
   return sc_alu64(t, ISA_OP_IADD64, 0, a, sc_pair64(t, disp));
}

/* A buffer pointer's whole 64-bit address, in a two-part register. */
static struct sc_opnd pointer_address(struct sc_tx *t, const struct ptr *p)
{
   uint32_t imm;
   struct sc_opnd a = buffer_address(t, p, 0, &imm);
   return imm ? sc_alu64(t, ISA_OP_IADD64, 0, a, sc_imm(imm)) : a;
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
   struct sc_tinfo ti = sc_type_of(t, type);
   switch (ti.kind) {
   case SC_TK_BOOL: case SC_TK_INT: case SC_TK_FLOAT: case SC_TK_POINTER:
      out[(*n)++] = base;
      return;
   case SC_TK_VECTOR: {
      uint32_t step = vector_stride ? vector_stride : scalar_bytes(t, ti.elem, p->explicit_layout);
      for (uint32_t i = 0; i < ti.count; i++)
         component_offsets(t, p, ti.elem, base + i * step, 0, out, n);
      return;
   }
   case SC_TK_MATRIX: {
      /* Columns: MatrixStride apart, or for row-major matrices the column
       * components are MatrixStride apart and columns one scalar apart. */
      uint32_t stride = p->matrix_stride;
      if (p->explicit_layout && !stride)
         FAIL("matrix in a buffer has no MatrixStride decoration");
      struct sc_tinfo col = sc_type_of(t, ti.elem);
      uint32_t sb = scalar_bytes(t, col.elem, p->explicit_layout);
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
   case SC_TK_ARRAY: {
      uint32_t stride = array_stride(t, p, type);
      for (uint32_t i = 0; i < ti.count; i++)
         component_offsets(t, p, ti.elem, base + i * stride, vector_stride, out, n);
      return;
   }
   case SC_TK_STRUCT: {
      const struct sc_id *sd = sc_idp(t, type);
      for (uint32_t i = 0; i < ti.count; i++) {
         uint32_t off = p->explicit_layout
                           ? (i < sd->member_count ? sd->members[i].offset : 0)
                           : implicit_member_offset(t, type, i);
         struct ptr inner = *p;
         if (p->explicit_layout && i < sd->member_count) {
            inner.matrix_stride = sd->members[i].matrix_stride;
            inner.row_major = sd->members[i].row_major;
         }
         component_offsets(t, &inner, sc_struct_member(t, type, i), base + off, 0, out, n);
      }
      return;
   }
   default:
      FAIL("cannot load or store a value of this type (opcode %u)", sc_idp(t, type)->opcode);
   }
}

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
         start = sc_alu64(t, ISA_OP_IADD64, 0, start, sc_imm(p->offset.value));
      struct sc_opnd below = sc_alu(t, ISA_OP_ICMP64, ISA_ICMP_LE_U, start, p->range, sc_none());
      struct sc_opnd room = sc_alu64(t, ISA_OP_ISUB64, 0, p->range, start);
      struct sc_opnd fits = sc_alu(t, ISA_OP_ICMP64, ISA_ICMP_GE_U, room, sc_imm(extent), sc_none());
      ok = sc_alu(t, ISA_OP_AND, 0, below, fits, sc_none());
   } else {
      /* offset + extent < 2^32: a descriptor's range is below 4 GiB */
      struct sc_opnd limit = sc_part_of(p->range, 0);
      ok = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_GE_U, limit, sc_imm(p->offset.value + extent), sc_none());
   }
   return sc_guard_begin(t, ok);
}

static void guard_end(struct sc_tx *t, uint32_t skip)
{
   if (skip != UINT32_MAX)
      sc_guard_end(t, skip);
}

/* Zero into a result register (its lanes that a guarded access skips). */
static void zero_fill(struct sc_tx *t, struct sc_opnd r, bool wide)
{
   sc_emit(t, ISA_OP_MOV, 0, sc_part_of(r, 0), sc_imm(0), sc_none(), sc_none());
   if (wide)
      sc_emit(t, ISA_OP_MOV, 0, sc_part_of(r, 1), sc_imm(0), sc_none(), sc_none());
}

/* The bytes an access of `type` at offsets offs spans from the pointer. */
static uint32_t access_extent(struct sc_tx *t, const struct ptr *p, uint32_t type,
                              const uint32_t *offs, uint32_t n)
{
   uint32_t end = 0;
   for (uint32_t i = 0; i < n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      uint32_t e = offs[i] + scalar_bytes(t, s.id, p->explicit_layout);
      end = e > end ? e : end;
   }
   return end;
}

/* Loads a value of `type` through p into regs (one per component). */
static void load(struct sc_tx *t, const struct ptr *p, uint32_t type, struct sc_opnd *regs,
                 uint32_t vector_stride)
{
   uint32_t offs[SC_MAX_COMPONENTS], n = 0;
   component_offsets(t, p, type, 0, vector_stride, offs, &n);
   uint32_t guard = UINT32_MAX;
   if (t->o->robust_buffer_access && p->range.kind == SC_REG) {
      for (uint32_t i = 0; i < n; i++) {
         struct sc_tinfo s = sc_scalar_at(t, type, i);
         zero_fill(t, regs[i], sc_is64(&s));
      }
      guard = guard_begin(t, p, access_extent(t, p, type, offs, n));
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
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      struct sc_minst *in = sc_emit(t, op, access_mod(t, &s, p->explicit_layout), regs[i], addr,
                                    sc_none(), sc_none());
      in->imm = base_imm + offs[i];
      in->invariant = invariant;
   }
   guard_end(t, guard);
}

static void store(struct sc_tx *t, const struct ptr *p, uint32_t type, const struct sc_opnd *regs,
                  uint32_t vector_stride)
{
   uint32_t offs[SC_MAX_COMPONENTS], n = 0;
   component_offsets(t, p, type, 0, vector_stride, offs, &n);
   uint32_t guard = guard_begin(t, p, access_extent(t, p, type, offs, n));
   enum isa_op op = memory_op(t, p->storage, true);
   struct sc_opnd addr;
   uint32_t base_imm = 0;
   if (op == ISA_OP_STG)
      addr = buffer_address(t, p, 0, &base_imm);
   else
      addr = local_address(t, p, 0, &base_imm);
   for (uint32_t i = 0; i < n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      struct sc_opnd data = regs[i];
      /* Memory instructions take no immediate operands. */
      if (data.kind == SC_IMM)
         data = sc_alu(t, ISA_OP_MOV, 0, data, sc_none(), sc_none());
      struct sc_minst *in = sc_emit(t, op, access_mod(t, &s, p->explicit_layout), sc_none(), addr,
                                    data, sc_none());
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
   struct sc_opnd r = sc_reg(sc_new_reg(t, 2, true));
   struct sc_minst *in = sc_emit(t, ISA_OP_LDG, 2, r, t->root, sc_none(), sc_none());
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
      struct sc_opnd off = sc_alu(t, ISA_OP_IMUL, 0, index, sc_imm(HW_DESCRIPTOR_BYTES), sc_none());
      at = sc_alu64(t, ISA_OP_IADD64, 0, set_va, sc_alu64(t, ISA_OP_ZEXT64, 0, off, sc_none()));
   } else {
      imm += index.value * HW_DESCRIPTOR_BYTES;
   }
   bool u = sc_opnd_uniform(t, at);
   struct sc_opnd va = sc_reg(sc_new_reg(t, 2, u)), range = sc_none();
   sc_emit(t, ISA_OP_LDG, 2, va, at, sc_none(), sc_none())->imm = imm + HW_DESCRIPTOR_VA_OFFSET;
   /* The range only matters to robust accesses and OpArrayLength. */
   if (t->need_ranges) {
      range = sc_reg(sc_new_reg(t, 2, u));
      sc_emit(t, ISA_OP_LDG, 2, range, at, sc_none(), sc_none())->imm =
         imm + HW_DESCRIPTOR_RANGE_OFFSET;
   }
   if (dynamic_kind(b->kind)) {
      /* this element's dynamic offset: root[DYNAMIC + 4 * (first + index)] */
      struct sc_opnd from = t->root;
      uint32_t k = b->dynamic_index;
      if (index.kind == SC_REG) {
         struct sc_opnd off = sc_alu(t, ISA_OP_IMUL, 0, index, sc_imm(4), sc_none());
         from = sc_alu64(t, ISA_OP_IADD64, 0, t->root, sc_alu64(t, ISA_OP_ZEXT64, 0, off, sc_none()));
      } else {
         k += index.value;
      }
      struct sc_opnd dyn = sc_reg(sc_new_reg(t, 1, u));
      sc_emit(t, ISA_OP_LDG, 1, dyn, from, sc_none(), sc_none())->imm = HW_ROOT_DYNAMIC_OFFSET + 4 * k;
      va = sc_alu64(t, ISA_OP_IADD64, 0, va, sc_alu64(t, ISA_OP_ZEXT64, 0, dyn, sc_none()));
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
   const struct sc_id *d = sc_idp(t, var);
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
   struct sc_tinfo ti = sc_type_of(t, pointee);
   if (ti.kind == SC_TK_ARRAY || ti.kind == SC_TK_RARRAY) {
      p->desc_array = true;   /* the access chain picks the descriptor */
      return;
   }
   load_descriptor(t, p, p->set_va, b, sc_imm(0));
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
   return (v + a - 1) / a * a;
}

/* Registers for a promoted variable, and its initializer. */
static void promoted_variable(struct sc_tx *t, uint32_t var, struct ptr *p, uint32_t at)
{
   uint32_t n = sc_components(t, p->pointee);
   struct sc_opnd *slots = calloc(n ? n : 1, sizeof(*slots));
   if (!slots)
      FAIL("out of memory");
   free(t->slots[var]);   /* unvalidated input may define the variable twice */
   t->slots[var] = slots;
   for (uint32_t i = 0; i < n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, p->pointee, i);
      uint32_t r = sc_new_reg(t, sc_is64(&s) ? 2 : 1, !t->var_divergent[var]);
      t->mir->regs[r].variable = true;
      slots[i] = sc_reg(r);
   }
   p->var = var;
   p->slot = 0;
   if (sc_len(t->m, at) > 4) {
      uint32_t c;
      bool owned;
      struct sc_opnd *v = sc_get(t, sc_arg(t, at, 4), &c, &owned);
      for (uint32_t i = 0; i < n && i < c; i++) {
         struct sc_tinfo s = sc_scalar_at(t, p->pointee, i);
         sc_copy_scalar(t, slots[i], v[i], sc_is64(&s));
      }
      if (owned)
         sc_disown(t, v);
   }
}

/* A constant-index step into a promoted variable: skip the scalars of the
 * elements or members before the one selected. */
static void step_into_promoted(struct sc_tx *t, struct ptr *p, uint32_t *type, uint32_t index_id)
{
   struct sc_tinfo ti = sc_type_of(t, *type);
   uint32_t index;
   if (!sc_const_index(t, index_id, &index))
      FAIL("internal: dynamic index into a promoted variable");
   switch (ti.kind) {
   case SC_TK_STRUCT:
      if (index >= ti.count)
         FAIL("invalid SPIR-V: struct member index");
      for (uint32_t i = 0; i < index; i++)
         p->slot += sc_components(t, sc_struct_member(t, *type, i));
      *type = sc_struct_member(t, *type, index);
      return;
   case SC_TK_ARRAY: case SC_TK_VECTOR: case SC_TK_MATRIX:
      if (index >= ti.count)
         FAIL("constant index %u out of range of a %u-element variable", index, ti.count);
      p->slot += index * sc_components(t, ti.elem);
      *type = ti.elem;
      return;
   default:
      FAIL("invalid SPIR-V: access chain through a non-composite");
   }
}

/* Places a variable and gives it its pointer value. */
/* The bytes a type takes in an explicit layout (Offset, ArrayStride and
 * MatrixStride decorations): at most its last byte's offset plus one,
 * rounded up to whole strides. */
static uint32_t explicit_size(const struct sc_tx *t, uint32_t type, uint32_t matrix_stride,
                              bool row_major, int depth)
{
   struct sc_tinfo ti = sc_type_of(t, type);
   if (depth > 64)
      FAIL("type nesting deeper than 64");
   switch (ti.kind) {
   case SC_TK_INT: case SC_TK_FLOAT: return ti.width / 8;
   case SC_TK_VECTOR: return explicit_size(t, ti.elem, 0, false, depth + 1) * ti.count;
   case SC_TK_MATRIX: {
      struct sc_tinfo col = sc_type_of(t, ti.elem);
      if (!matrix_stride)
         FAIL("matrix in an explicit layout has no MatrixStride decoration");
      return matrix_stride * (row_major ? col.count : ti.count);
   }
   case SC_TK_ARRAY: {
      uint32_t stride = sc_idp(t, type)->array_stride;
      if (!stride)
         FAIL("array in an explicit layout has no ArrayStride decoration");
      uint64_t size = (uint64_t)stride * ti.count;
      if (size > 65536)
         FAIL("the shader needs more than 65536 bytes of workgroup memory");
      return (uint32_t)size;
   }
   case SC_TK_STRUCT: {
      const struct sc_id *sd = sc_idp(t, type);
      uint32_t end = 0;
      for (uint32_t i = 0; i < ti.count && i < sd->member_count; i++) {
         const struct sc_member_deco *md = &sd->members[i];
         uint64_t e = (uint64_t)md->offset +
                      explicit_size(t, sc_struct_member(t, type, i), md->matrix_stride, md->row_major,
                                    depth + 1);
         if (e > 65536)
            FAIL("the shader needs more than 65536 bytes of workgroup memory");
         end = e > end ? (uint32_t)e : end;
      }
      return end;
   }
   default:
      FAIL("type %u cannot be in an explicit layout in workgroup memory", type);
   }
}

/* A Block-decorated Workgroup variable (WorkgroupMemoryExplicitLayoutKHR):
 * laid out by its decorations, and aliasing every other one ("Block-
 * decorated variables in Workgroup storage class ... alias each other",
 * SPV_KHR_workgroup_memory_explicit_layout): all start at one offset, of a
 * region as large as the largest of them, placed at the first one's
 * translation. */
static void explicit_workgroup_variable(struct sc_tx *t, uint32_t var, struct ptr *p)
{
   if (!t->explicit_shared_placed) {
      uint32_t size = 0;
      const struct sc_module *m = t->m;
      for (uint32_t at = 5; at < m->globals_end; at += sc_len(m, at)) {
         if (sc_op(m, at) != SpvOpVariable || sc_arg(t, at, 3) != SpvStorageClassWorkgroup)
            continue;
         uint32_t pointee = sc_type_of(t, sc_arg(t, at, 1)).elem;
         if (sc_idp(t, pointee)->block) {
            uint32_t s = explicit_size(t, pointee, 0, false, 0);
            size = s > size ? s : size;
         }
      }
      t->shared_next = align_up(t->shared_next, 16);
      t->explicit_shared = t->shared_next;
      if ((uint64_t)t->shared_next + size > 65536)
         FAIL("the shader needs more than 65536 bytes of workgroup memory");
      t->shared_next += size;
      t->explicit_shared_placed = true;
   }
   p->explicit_layout = true;
   p->offset = sc_imm(t->explicit_shared);
   uint32_t at = sc_idp(t, var)->def;
   if (sc_len(t->m, at) > 4) {
      if (sc_idp(t, sc_arg(t, at, 4))->opcode != SpvOpConstantNull)
         FAIL("a Workgroup variable's initializer must be OpConstantNull");
      t->mir->zero_shared = true;
   }
}

static void variable(struct sc_tx *t, uint32_t var)
{
   const struct sc_id *d = sc_idp(t, var);
   uint32_t at = d->def;
   struct sc_tinfo pt = sc_type_of(t, d->type);
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
      if (sc_idp(t, pt.elem)->block) {
         explicit_workgroup_variable(t, var, p);
         break;
      }
      uint32_t align, size = implicit_size(t, pt.elem, &align);
      t->shared_next = align_up(t->shared_next, align < 16 ? 16 : align);
      p->offset = sc_imm(t->shared_next);
      if ((uint64_t)t->shared_next + size > 65536)
         FAIL("the shader needs more than 65536 bytes of workgroup memory");
      t->shared_next += size;
      /* Workgroup initializers are OpConstantNull (VK_KHR_zero_initialize_
       * workgroup_memory): each CTA's shared memory starts zeroed. */
      if (sc_len(t->m, at) > 4) {
         if (sc_idp(t, sc_arg(t, at, 4))->opcode != SpvOpConstantNull)
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
         struct sc_opnd *c = sc_get(t, sc_arg(t, at, 4), &n, &owned);
         store(t, p, pt.elem, c, 0);
         if (owned)
            sc_disown(t, c);
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
   struct sc_opnd d = sc_reg(sc_new_reg(t, 1, uniform));
   sc_emit(t, ISA_OP_S2R, r, d, sc_none(), sc_none(), sc_none());
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
      id = sc_alu(t, ISA_OP_SHR_U, 0, id, sc_imm(log2_of(below)), sc_none());
   if (!last)
      id = sc_alu(t, ISA_OP_AND, 0, id, sc_imm(ls[comp] - 1), sc_none());
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
      return sc_alu(t, ISA_OP_IMAD, 0, g, s, l);
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
      struct sc_opnd rel = sc_alu(t, ISA_OP_ISUB, 0, lane, sc_imm(32 * comp), sc_none());
      /* eq: bit rel if 0 <= rel < 32 */
      struct sc_opnd in = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_LT_U, rel, sc_imm(32), sc_none());
      struct sc_opnd bit = sc_alu(t, ISA_OP_SHL, 0, sc_imm(1), rel, sc_none());
      struct sc_opnd eq = sc_alu(t, ISA_OP_SEL, 0, in, bit, sc_imm(0));
      /* lanes below this one in this word: rel >= 32: all; rel < 0: none */
      struct sc_opnd below_in = sc_alu(t, ISA_OP_ISUB, 0, bit, sc_imm(1), sc_none());
      struct sc_opnd ge32 = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_GE_S, rel, sc_imm(32), sc_none());
      struct sc_opnd lt = sc_alu(t, ISA_OP_SEL, 0, in, below_in,
                              sc_alu(t, ISA_OP_SEL, 0, ge32, sc_imm(UINT32_MAX), sc_imm(0)));
      /* Ge and Gt: only lanes of the subgroup (the warp, W lanes), as the
       * ballot operations count them (dEQP-VK.subgroups.builtin_mask_var
       * compares bitCount of the words with subgroupBallotBitCount). */
      uint32_t w = t->o->warp_width;
      uint32_t in_w = w >= 32 * (comp + 1) ? UINT32_MAX : w <= 32 * comp ? 0 : (1u << (w % 32)) - 1;
      switch (builtin) {
      case SpvBuiltInSubgroupEqMask: return eq;
      case SpvBuiltInSubgroupLtMask: return lt;
      case SpvBuiltInSubgroupLeMask: return sc_alu(t, ISA_OP_OR, 0, lt, eq, sc_none());
      case SpvBuiltInSubgroupGtMask:
         return sc_alu(t, ISA_OP_AND, 0,
                    sc_alu(t, ISA_OP_NOT, 0, sc_alu(t, ISA_OP_OR, 0, lt, eq, sc_none()), sc_none(), sc_none()),
                    sc_imm(in_w), sc_none());
      default:
         return sc_alu(t, ISA_OP_AND, 0, sc_alu(t, ISA_OP_NOT, 0, lt, sc_none(), sc_none()), sc_imm(in_w),
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
   struct sc_val *v = sc_val_at(t, id);
   if (v->kind == SC_VAL_PTR)
      return *v->ptr;
   const struct sc_id *d = sc_idp(t, id);
   struct sc_tinfo pt = sc_type_of(t, d->type);
   if (pt.kind != SC_TK_POINTER || pt.storage != SpvStorageClassPhysicalStorageBuffer)
      FAIL("pointer %u (opcode %u) is not supported here (variable pointers?)", id, d->opcode);
   return (struct ptr){.storage = pt.storage, .pointee = pt.elem, .base = sc_get1(t, id, 0),
                       .offset = sc_imm(0), .explicit_layout = true};
}

/* An index: SPIR-V's access chains treat theirs as signed (2.16.1 "Indexes
 * ... are treated as signed"), so an 8- or 16-bit one is sign-extended. */
static struct sc_opnd index_operand(struct sc_tx *t, uint32_t id)
{
   struct sc_tinfo ti = sc_type_of(t, sc_idp(t, id)->type);
   struct sc_opnd i = sc_get_extended(t, id, 0, true);
   if (sc_is64(&ti))
      i = sc_part_of(i, 0);   /* a descriptor or vector component: anything larger is out of range */
   return i;
}

/* p += index * stride, index being value id: a 64-bit index whole (as a
 * pair), unless it is a constant that fits in 32 bits. */
static void step_index(struct sc_tx *t, struct ptr *p, uint32_t id, uint32_t stride)
{
   const struct sc_id *d = sc_idp(t, id);
   struct sc_tinfo ti = sc_type_of(t, d->type);
   if (!sc_is64(&ti)) {
      advance(t, p, sc_get_extended(t, id, 0, true), stride);
      return;
   }
   if (d->opcode == SpvOpConstant && sc_len(t->m, d->def) == 5) {
      uint64_t v = sc_arg(t, d->def, 3) | (uint64_t)sc_arg(t, d->def, 4) << 32;
      if ((int64_t)v == (int32_t)v) {
         advance(t, p, sc_imm((uint32_t)v), stride);
         return;
      }
   }
   advance_by(t, p, sc_get1(t, id, 0), true, stride);
}

/* Whether id is `x + c` with c a 32-bit value known at compile time (a
 * constant, an unrolled loop's counter): x and c. */
static bool add_of_constant(struct sc_tx *t, uint32_t id, uint32_t *x, uint32_t *c)
{
   const struct sc_id *d = sc_idp(t, id);
   struct sc_tinfo ti = sc_type_of(t, d->type);
   if (d->opcode != SpvOpIAdd || ti.kind != SC_TK_INT || ti.width != 32)
      return false;
   uint32_t a = t->m->words[d->def + 3], b = t->m->words[d->def + 4];
   struct sc_opnd va = sc_get1(t, a, 0), vb = sc_get1(t, b, 0);
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
   const struct sc_id *sd = sc_idp(t, *type);
   uint32_t off = p->explicit_layout ? (member < sd->member_count ? sd->members[member].offset : 0)
                                     : implicit_member_offset(t, *type, member);
   if (p->explicit_layout && member < sd->member_count) {
      p->matrix_stride = sd->members[member].matrix_stride;
      p->row_major = sd->members[member].row_major;
   }
   advance(t, p, sc_imm(off), 1);
   *type = sc_struct_member(t, *type, member);
}

static void step_into(struct sc_tx *t, struct ptr *p, uint32_t *type, uint32_t index_id)
{
   if (p->var) {
      step_into_promoted(t, p, type, index_id);
      return;
   }
   struct sc_tinfo ti = sc_type_of(t, *type);
   if (p->builtin) {
      if (!sc_const_index(t, index_id, &p->comp)) {
         p->comp = 0;
         p->comp_index = index_operand(t, index_id);
         p->comp_count = ti.count;
      }
      *type = ti.elem;
      return;
   }
   switch (ti.kind) {
   case SC_TK_STRUCT: {
      uint32_t member;
      if (!sc_const_index(t, index_id, &member) || member >= ti.count)
         FAIL("invalid SPIR-V: struct member index");
      step_member(t, p, type, member);
      return;
   }
   case SC_TK_ARRAY:
   case SC_TK_RARRAY:
      if (p->desc_array) {
         load_descriptor(t, p, p->set_va, p->binding, index_operand(t, index_id));
         p->desc_array = false;
      } else {
         step_by_index(t, p, index_id, array_stride(t, p, *type));
      }
      *type = ti.elem;
      return;
   case SC_TK_VECTOR: {
      uint32_t step = p->vector_stride ? p->vector_stride
                                       : scalar_bytes(t, ti.elem, p->explicit_layout);
      step_index(t, p, index_id, step);
      p->vector_stride = 0;
      *type = ti.elem;
      return;
   }
   case SC_TK_MATRIX: {
      struct sc_tinfo col = sc_type_of(t, ti.elem);
      uint32_t sb = scalar_bytes(t, col.elem, p->explicit_layout);
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
      uint32_t stride = sc_idp(t, sc_idp(t, sc_arg(t, at, 3))->type)->array_stride;
      if (!stride)
         stride = scalar_bytes(t, type, p.explicit_layout) * sc_components(t, type);
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
   uint32_t n = sc_components(t, type);
   for (uint32_t i = 0; i < n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      struct sc_opnd slot = t->slots[p->var][p->slot + i];
      /* an unrolled loop's counter is a constant, which stays put */
      if (slot.kind == SC_IMM)
         regs[i] = slot;
      else
         sc_copy_scalar(t, regs[i], slot, sc_is64(&s));
   }
}

static void op_load(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   if (p.builtin) {
      struct sc_val *v = sc_val_new(t, id, sc_components(t, type));
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
   struct sc_val *v = sc_result(t, id, type);
   load_value(t, &p, type, v->comp);
}

/* Stores components c through pointer p (a variable in registers or
 * memory). */
static void store_value(struct sc_tx *t, const struct ptr *p, const struct sc_opnd *c, uint32_t n)
{
   if (p->var) {
      for (uint32_t i = 0; i < n; i++) {
         struct sc_tinfo s = sc_scalar_at(t, p->pointee, i);
         sc_copy_scalar(t, t->slots[p->var][p->slot + i], c[i], sc_is64(&s));
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
   struct sc_opnd *c = sc_get(t, sc_arg(t, at, 2), &n, &owned);
   store_value(t, &p, c, n);
   if (owned)
      sc_disown(t, c);
}

/* A step to element or member i of the array or struct *type. */
static void step_element(struct sc_tx *t, struct ptr *p, uint32_t *type, uint32_t i)
{
   struct sc_tinfo ti = sc_type_of(t, *type);
   if (ti.kind == SC_TK_STRUCT) {
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
   struct sc_tinfo ti = sc_type_of(t, type);
   bool aggregate = ti.kind == SC_TK_ARRAY || ti.kind == SC_TK_STRUCT;
   if (aggregate && sc_flat_size(t, type, SC_MAX_COMPONENTS, 0) == UINT32_MAX) {
      for (uint32_t i = 0; i < ti.count; i++) {
         struct ptr d = *dst, s = *src;
         uint32_t dt = type, st = type;
         step_element(t, &d, &dt, i);
         step_element(t, &s, &st, i);
         copy_value(t, &d, &s, dt);
      }
      return;
   }
   uint32_t n = sc_components(t, type);
   struct sc_opnd regs[SC_MAX_COMPONENTS];
   for (uint32_t i = 0; i < n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      regs[i] = sc_reg(sc_new_reg(t, sc_is64(&s) ? 2 : 1, false));
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
   struct sc_tinfo st = sc_type_of(t, p.pointee);
   if (st.kind != SC_TK_STRUCT || member >= st.count)
      FAIL("invalid SPIR-V: OpArrayLength");
   const struct sc_id *sd = sc_idp(t, p.pointee);
   uint32_t off = member < sd->member_count ? sd->members[member].offset : 0;
   uint32_t stride = sc_idp(t, sc_struct_member(t, p.pointee, member))->array_stride;
   if (!stride)
      FAIL("runtime array without ArrayStride");
   /* range is at most 2^32 - 1 (maxStorageBufferRange): its low half. */
   struct sc_opnd len = sc_alu(t, ISA_OP_ISUB, 0, sc_part_of(p.range, 0), sc_imm(off), sc_none());
   struct sc_val *v = sc_val_new(t, id, 1);
   v->comp[0] = sc_alu(t, ISA_OP_IDIV_U, 0, len, sc_imm(stride), sc_none());
}

/* ---- arithmetic ---------------------------------------------------------------------- */

struct sc_operands sc_operand(struct sc_tx *t, uint32_t id)
{
   struct sc_operands o = {.t = t};
   o.c = sc_get(t, id, &o.n, &o.owned);
   return o;
}

void sc_release(struct sc_operands *o)
{
   if (o->owned)
      sc_disown(o->t, o->c);
}

/* Component i of a scalar-or-vector operand (scalars broadcast). */
static struct sc_opnd pick(const struct sc_operands *o, uint32_t i)
{
   return o->c[o->n == 1 ? 0 : i];
}

static struct sc_tinfo result_scalar(struct sc_tx *t, uint32_t at)
{
   return sc_scalar_at(t, sc_arg(t, at, 1), 0);
}

static struct sc_tinfo operand_scalar(struct sc_tx *t, uint32_t id)
{
   return sc_scalar_at(t, sc_idp(t, id)->type, 0);
}

/* The binary16 form of a float operation on 16-bit operands ("Values
 * narrower and wider than 32 bits", docs/architecture.md); the others go
 * through binary32 (SC_VIEW_F32) and never reach here with 16 bits.
 * Negation and absolute value are the sign bit's. */
static enum isa_op at_width(const struct sc_tinfo *s, enum isa_op op, struct sc_opnd *b)
{
   if (s->kind != SC_TK_FLOAT || s->width != 16)
      return op;
   switch (op) {
   case ISA_OP_FADD: return ISA_OP_HADD;
   case ISA_OP_FSUB: return ISA_OP_HSUB;
   case ISA_OP_FMUL: return ISA_OP_HMUL;
   case ISA_OP_FDIV: return ISA_OP_HDIV;
   case ISA_OP_FFMA: return ISA_OP_HFMA;
   case ISA_OP_FSQRT: return ISA_OP_HSQRT;
   case ISA_OP_FMIN: return ISA_OP_HMIN;
   case ISA_OP_FMAX: return ISA_OP_HMAX;
   case ISA_OP_FCMP: return ISA_OP_HCMP;
   case ISA_OP_FNEG: *b = sc_imm(0x8000u); return ISA_OP_XOR;
   case ISA_OP_FABS: *b = sc_imm(0x7fffu); return ISA_OP_AND;
   default: return op;
   }
}

/* dst = op(a, b) per component, 32- or 64-bit by the result's width. */
static void binop(struct sc_tx *t, uint32_t at, enum isa_op op32, enum isa_op op64, uint32_t mod)
{
   struct sc_tinfo rs = operand_scalar(t, sc_arg(t, at, 3));
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3)), b = sc_operand(t, sc_arg(t, at, 4));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd unused;
      enum isa_op op = sc_is64(&rs) ? op64 : at_width(&rs, op32, &unused);
      if (op == ISA_OP_NOP)
         FAIL("unsupported 64-bit operation (opcode %u)", sc_op(t->m, at));
      struct sc_opnd bb = pick(&b, i);
      /* 64-bit shifts count with a 32-bit operand. */
      if (sc_is64(&rs) && (op == ISA_OP_SHL64 || op == ISA_OP_SHR64_U || op == ISA_OP_SHR64_S) &&
          sc_is64(&(struct sc_tinfo){.width = operand_scalar(t, sc_arg(t, at, 4)).width}))
         bb = sc_part_of(bb, 0);
      /* Integer arithmetic on constants (an unrolled loop's counter) is
       * a constant. */
      uint32_t folded;
      if (isa_op_info[op].cls == ISA_CLASS_ALU && op < ISA_OP_FADD &&
          sc_fold(op, pick(&a, i), bb, sc_none(), &folded)) {
         v->comp[i] = sc_imm(folded);
         continue;
      }
      sc_emit(t, op, mod, v->comp[i], pick(&a, i), bb, sc_none());
   }
   sc_release(&a);
   sc_release(&b);
}

static void unop(struct sc_tx *t, uint32_t at, enum isa_op op32, enum isa_op op64, uint32_t mod)
{
   struct sc_tinfo rs = operand_scalar(t, sc_arg(t, at, 3));
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd b = sc_none();
      enum isa_op op = sc_is64(&rs) ? op64 : at_width(&rs, op32, &b);
      if (op == ISA_OP_NOP)
         FAIL("unsupported 64-bit operation (opcode %u)", sc_op(t->m, at));
      sc_emit(t, op, mod, v->comp[i], pick(&a, i), b, sc_none());
   }
   sc_release(&a);
}

/* 64-bit bitwise operations: the same 32-bit operation on both halves. */
static void bitwise(struct sc_tx *t, uint32_t at, enum isa_op op, bool unary)
{
   struct sc_tinfo rs = operand_scalar(t, sc_arg(t, at, 3));
   if (!sc_is64(&rs)) {
      if (unary)
         unop(t, at, op, op, 0);
      else
         binop(t, at, op, op, 0);
      return;
   }
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_operands b = unary ? a : sc_operand(t, sc_arg(t, at, 4));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      for (uint32_t h = 0; h < 2; h++)
         sc_emit(t, op, 0, sc_part_of(v->comp[i], h), sc_part_of(pick(&a, i), h),
              unary ? sc_none() : sc_part_of(pick(&b, i), h), sc_none());
   }
   sc_release(&a);
   if (!unary)
      sc_release(&b);
}

static void compare(struct sc_tx *t, uint32_t at, enum isa_op op, uint32_t mod)
{
   struct sc_tinfo s = operand_scalar(t, sc_arg(t, at, 3));
   struct sc_opnd unused;
   if (op == ISA_OP_ICMP && sc_is64(&s))
      op = ISA_OP_ICMP64;
   op = at_width(&s, op, &unused);
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_operands b = sc_len(t->m, at) > 4 ? sc_operand(t, sc_arg(t, at, 4)) : a;
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++)
      sc_emit(t, op, mod, v->comp[i], pick(&a, i), pick(&b, i), sc_none());
   sc_release(&a);
   if (sc_len(t->m, at) > 4)
      sc_release(&b);
}

static void select_op(struct sc_tx *t, uint32_t at)
{
   struct sc_operands c = sc_operand(t, sc_arg(t, at, 3));
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 4)), b = sc_operand(t, sc_arg(t, at, 5));
   struct sc_tinfo rs = result_scalar(t, at);
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, sc_arg(t, at, 1), i);
      uint32_t halves = sc_is64(&s) ? 2 : 1;
      for (uint32_t h = 0; h < halves; h++)
         sc_emit(t, ISA_OP_SEL, 0, sc_part_of(v->comp[i], h), pick(&c, i), sc_part_of(pick(&a, i), h),
              sc_part_of(pick(&b, i), h));
   }
   (void)rs;
   sc_release(&c);
   sc_release(&a);
   sc_release(&b);
}

/* Integer width changes: 32 -> 64 extends, 64 -> 32 truncates, 8 and
 * 16 bits extend to 32 first. */
static void int_convert(struct sc_tx *t, uint32_t at, bool is_signed)
{
   struct sc_tinfo from = operand_scalar(t, sc_arg(t, at, 3)), to = result_scalar(t, at);
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      if (from.width < to.width && from.width < 32) {
         /* widening a narrow integer: extend it to 32 bits first */
         struct sc_opnd x = canonical(t, pick(&a, i), from.width, is_signed);
         if (sc_is64(&to))
            sc_emit(t, is_signed ? ISA_OP_SEXT64 : ISA_OP_ZEXT64, 0, v->comp[i], x, sc_none(),
                    sc_none());
         else
            sc_copy_scalar(t, v->comp[i], x, false);
      } else if (sc_is64(&to) && !sc_is64(&from))
         sc_emit(t, is_signed ? ISA_OP_SEXT64 : ISA_OP_ZEXT64, 0, v->comp[i], pick(&a, i), sc_none(),
              sc_none());
      else if (!sc_is64(&to) && sc_is64(&from))
         sc_emit(t, ISA_OP_MOV, 0, v->comp[i], sc_part_of(pick(&a, i), 0), sc_none(), sc_none());
      else
         sc_copy_scalar(t, v->comp[i], pick(&a, i), sc_is64(&to));
   }
   sc_release(&a);
}

/* A scalar's width in bits as OpBitcast regroups it (pointers: 64). */
static uint32_t bit_width(const struct sc_tinfo *s)
{
   if (sc_is64(s))
      return 64;
   return (s->kind == SC_TK_INT || s->kind == SC_TK_FLOAT) ? s->width : 32;
}

/* A run of a value's bits: a register or immediate whose low `bits` bits
 * they are (the others undefined). */
struct bit_piece {
   struct sc_opnd x;
   uint32_t bits;
};

/* Bits [offset, offset + width) of a bit string made of pieces (widths and
 * offsets are powers of two and aligned, as OpBitcast's types make them):
 * a piece at least that wide shifted down, or narrower pieces put side by
 * side. */
static struct sc_opnd bits_at(struct sc_tx *t, const struct bit_piece *p, uint32_t np,
                              uint32_t offset, uint32_t width)
{
   uint32_t start = 0, k = 0;
   while (k < np && start + p[k].bits <= offset)
      start += p[k++].bits;
   if (k == np)
      FAIL("OpBitcast between types of different sizes");
   if (p[k].bits >= width)
      return offset == start ? p[k].x
                             : sc_alu(t, ISA_OP_SHR_U, 0, p[k].x, sc_imm(offset - start), sc_none());
   struct sc_opnd acc = sc_none();
   for (uint32_t got = 0; got < width; got += p[k++].bits) {
      if (k == np)
         FAIL("OpBitcast between types of different sizes");
      struct sc_opnd x = canonical(t, p[k].x, p[k].bits, false);
      if (got)
         x = sc_alu(t, ISA_OP_SHL, 0, x, sc_imm(got), sc_none());
      acc = got ? sc_alu(t, ISA_OP_OR, 0, acc, x, sc_none()) : x;
   }
   return acc;
}

/* OpBitcast: the same bits, regrouped (u64 <-> uvec2, f16vec2 <-> uint,
 * i8vec4 <-> uint, ...): the source read as a bit string, its components
 * in order from bit 0, and each result component cut from it. */
static void bitcast(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2), src = sc_arg(t, at, 3);
   struct sc_operands a = sc_operand(t, src);
   struct bit_piece pieces[SC_MAX_COMPONENTS * 2];
   uint32_t np = 0;
   for (uint32_t i = 0; i < a.n && i < SC_MAX_COMPONENTS; i++) {
      struct sc_tinfo s = sc_scalar_at(t, sc_idp(t, src)->type, i);
      uint32_t w = bit_width(&s);
      if (w == 64) {
         pieces[np++] = (struct bit_piece){sc_part_of(a.c[i], 0), 32};
         pieces[np++] = (struct bit_piece){sc_part_of(a.c[i], 1), 32};
      } else {
         pieces[np++] = (struct bit_piece){a.c[i], w};
      }
   }
   struct sc_val *v = sc_result(t, id, type);
   uint32_t offset = 0;
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      uint32_t w = bit_width(&s);
      if (w == 64) {
         for (uint32_t h = 0; h < 2; h++)
            sc_emit(t, ISA_OP_MOV, 0, sc_part_of(v->comp[i], h), bits_at(t, pieces, np, offset + 32 * h, 32),
                    sc_none(), sc_none());
      } else {
         sc_emit(t, ISA_OP_MOV, 0, v->comp[i], bits_at(t, pieces, np, offset, w), sc_none(), sc_none());
      }
      offset += w;
   }
   sc_release(&a);
}

/* A value made of other values' components (OpCopyObject, composite
 * extraction, construction, shuffles): it shares their registers, which
 * is safe because SSA registers are written once (phi copies are parallel
 * copies, see emit_edge). */
static void assign(struct sc_tx *t, uint32_t id, uint32_t type, const struct sc_opnd *src, uint32_t n)
{
   if (sc_components(t, type) != n)
      FAIL("invalid SPIR-V: %u components for a %u-component type", n, sc_components(t, type));
   struct sc_val *v = sc_val_new(t, id, n);
   for (uint32_t i = 0; i < n; i++)
      v->comp[i] = src[i];
}

/* Where component `index path` of a composite starts, and how many it has. */
static uint32_t composite_offset(struct sc_tx *t, uint32_t type, const uint32_t *path, uint32_t depth,
                                 uint32_t *count, uint32_t *elem_type)
{
   uint32_t off = 0;
   for (uint32_t d = 0; d < depth; d++) {
      struct sc_tinfo ti = sc_type_of(t, type);
      uint32_t idx = path[d];
      if (ti.kind == SC_TK_STRUCT) {
         if (idx >= ti.count)
            FAIL("invalid SPIR-V: composite index %u", idx);
         for (uint32_t k = 0; k < idx; k++)
            off += sc_components(t, sc_struct_member(t, type, k));
         type = sc_struct_member(t, type, idx);
      } else if (ti.kind == SC_TK_VECTOR || ti.kind == SC_TK_MATRIX || ti.kind == SC_TK_ARRAY) {
         if (idx >= ti.count)
            FAIL("invalid SPIR-V: composite index %u of %u", idx, ti.count);
         off += idx * sc_components(t, ti.elem);
         type = ti.elem;
      } else {
         FAIL("invalid SPIR-V: composite index into a scalar");
      }
   }
   *count = sc_components(t, type);
   *elem_type = type;
   return off;
}

static void composite_extract(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at), src = sc_arg(t, at, 3);
   struct sc_operands a = sc_operand(t, src);
   uint32_t count, et;
   uint32_t off = composite_offset(t, sc_idp(t, src)->type, W(t, at) + 4, len - 4, &count, &et);
   if (off + count > a.n)
      FAIL("invalid SPIR-V: composite extract out of range");
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), a.c + off, count);
   sc_release(&a);
}

static void composite_insert(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at);
   struct sc_operands obj = sc_operand(t, sc_arg(t, at, 3)), comp = sc_operand(t, sc_arg(t, at, 4));
   uint32_t count, et;
   uint32_t off = composite_offset(t, sc_arg(t, at, 1), W(t, at) + 5, len - 5, &count, &et);
   struct sc_opnd all[SC_MAX_COMPONENTS];
   if (comp.n > SC_MAX_COMPONENTS || off + obj.n > SC_MAX_COMPONENTS + count)
      FAIL("composite too large");
   for (uint32_t i = 0; i < comp.n; i++)
      all[i] = comp.c[i];
   for (uint32_t i = 0; i < obj.n; i++)
      all[off + i] = obj.c[i];
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), all, comp.n);
   sc_release(&obj);
   sc_release(&comp);
}

static void composite_construct(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at);
   struct sc_opnd all[SC_MAX_COMPONENTS];
   uint32_t n = 0;
   for (uint32_t i = 3; i < len; i++) {
      struct sc_operands o = sc_operand(t, sc_arg(t, at, i));
      if (n + o.n > SC_MAX_COMPONENTS)
         FAIL("composite too large");
      for (uint32_t k = 0; k < o.n; k++)
         all[n++] = o.c[k];
      sc_release(&o);
   }
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), all, n);
}

static void vector_shuffle(struct sc_tx *t, uint32_t at)
{
   uint32_t len = sc_len(t->m, at);
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3)), b = sc_operand(t, sc_arg(t, at, 4));
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
   sc_release(&a);
   sc_release(&b);
}

/* A component chosen at run time: a chain of selects. */
static struct sc_opnd dynamic_pick(struct sc_tx *t, const struct sc_operands *v, struct sc_opnd index,
                                   bool wide)
{
   struct sc_opnd r = v->c[0];
   for (uint32_t i = 1; i < v->n; i++) {
      struct sc_opnd is = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_EQ, index, sc_imm(i), sc_none());
      if (wide) {
         struct sc_opnd d = sc_reg(sc_new_reg(t, 2, sc_opnd_uniform(t, is) && sc_opnd_uniform(t, r) &&
                                                      sc_opnd_uniform(t, v->c[i])));
         for (uint32_t h = 0; h < 2; h++)
            sc_emit(t, ISA_OP_SEL, 0, sc_part_of(d, h), is, sc_part_of(v->c[i], h), sc_part_of(r, h));
         r = d;
      } else {
         r = sc_alu(t, ISA_OP_SEL, 0, is, v->c[i], r);
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
   struct sc_operands v = {.c = c, .n = n ? n : 1, .t = t};
   if (!n)
      c[0] = sc_imm(0);
   return dynamic_pick(t, &v, p->comp_index, false);
}

static void vector_extract_dynamic(struct sc_tx *t, uint32_t at)
{
   struct sc_operands v = sc_operand(t, sc_arg(t, at, 3));
   struct sc_tinfo s = result_scalar(t, at);
   struct sc_opnd r = dynamic_pick(t, &v, index_operand(t, sc_arg(t, at, 4)), sc_is64(&s));
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), &r, 1);
   sc_release(&v);
}

static void vector_insert_dynamic(struct sc_tx *t, uint32_t at)
{
   struct sc_operands v = sc_operand(t, sc_arg(t, at, 3)), c = sc_operand(t, sc_arg(t, at, 4));
   struct sc_opnd index = index_operand(t, sc_arg(t, at, 5));
   struct sc_opnd all[16];
   struct sc_tinfo s = result_scalar(t, at);
   for (uint32_t i = 0; i < v.n && i < 16; i++) {
      struct sc_opnd is = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_EQ, index, sc_imm(i), sc_none());
      if (sc_is64(&s)) {
         struct sc_opnd d = sc_reg(sc_new_reg(t, 2, false));
         for (uint32_t h = 0; h < 2; h++)
            sc_emit(t, ISA_OP_SEL, 0, sc_part_of(d, h), is, sc_part_of(c.c[0], h), sc_part_of(v.c[i], h));
         all[i] = d;
      } else {
         all[i] = sc_alu(t, ISA_OP_SEL, 0, is, c.c[0], v.c[i]);
      }
   }
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), all, v.n);
   sc_release(&v);
   sc_release(&c);
}

/* OpFRem on doubles: x - y * trunc(x / y), the sign of x (SPIR-V
 * 3.37.13; Vulkan's precision for it is inherited from that formula). */
static void float_rem64(struct sc_tx *t, uint32_t at)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3)), b = sc_operand(t, sc_arg(t, at, 4));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd q = sc_alu(t, ISA_OP_FTRUNC, 0,
                                sc_alu(t, ISA_OP_FDIV, 0, pick(&a, i), pick(&b, i), sc_none()), sc_none(),
                                sc_none());
      sc_emit(t, ISA_OP_FSUB, 0, v->comp[i], pick(&a, i), sc_alu(t, ISA_OP_FMUL, 0, pick(&b, i), q, sc_none()),
              sc_none());
   }
   sc_release(&a);
   sc_release(&b);
}

/* ---- GLSL.std.450 ------------------------------------------------------------------- */

static void ext_unary(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, enum isa_op op,
                      uint32_t mod)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
   struct sc_val *v = sc_result(t, id, type);
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   struct sc_opnd b = sc_none();
   op = at_width(&s, op, &b);
   for (uint32_t i = 0; i < v->n; i++)
      sc_emit(t, op, mod, v->comp[i], pick(&a, i), b, sc_none());
   sc_release(&a);
}

static void ext_binary(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, enum isa_op op,
                       uint32_t mod)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 5)), b = sc_operand(t, sc_arg(t, at, 6));
   struct sc_val *v = sc_result(t, id, type);
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   struct sc_opnd unused;
   op = at_width(&s, op, &unused);
   for (uint32_t i = 0; i < v->n; i++)
      sc_emit(t, op, mod, v->comp[i], pick(&a, i), pick(&b, i), sc_none());
   sc_release(&a);
   sc_release(&b);
}

/* clamp(x, lo, hi) = min(max(x, lo), hi) */
static void ext_clamp(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, enum isa_op max,
                      enum isa_op min)
{
   struct sc_operands x = sc_operand(t, sc_arg(t, at, 5)), lo = sc_operand(t, sc_arg(t, at, 6)),
                   hi = sc_operand(t, sc_arg(t, at, 7));
   struct sc_val *v = sc_result(t, id, type);
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   struct sc_opnd unused;
   max = at_width(&s, max, &unused);
   min = at_width(&s, min, &unused);
   bool wide = isa_op_info[max].cls == ISA_CLASS_ALU64;
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd m = wide ? sc_alu64(t, max, 0, pick(&x, i), pick(&lo, i))
                              : sc_alu(t, max, 0, pick(&x, i), pick(&lo, i), sc_none());
      sc_emit(t, min, 0, v->comp[i], m, pick(&hi, i), sc_none());
   }
   sc_release(&x);
   sc_release(&lo);
   sc_release(&hi);
}

/* A float constant of the instruction's width: a binary32 immediate, or
 * a binary64 in a register pair (binary64 instructions read immediates as
 * integers, see hw_isa.h). */
static struct sc_opnd fimm(struct sc_tx *t, double f)
{
   if (t->fp64) {
      uint64_t u;
      memcpy(&u, &f, 8);
      return sc_pair64(t, u);
   }
   float g = (float)f;
   uint32_t u;
   memcpy(&u, &g, 4);
   return sc_imm(u);
}

/* mix(x, y, a) = x + (y - x) * a */
static void ext_mix(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands x = sc_operand(t, sc_arg(t, at, 5)), y = sc_operand(t, sc_arg(t, at, 6)),
                   a = sc_operand(t, sc_arg(t, at, 7));
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd d = sc_alu(t, ISA_OP_FSUB, 0, pick(&y, i), pick(&x, i), sc_none());
      struct sc_opnd m = sc_alu(t, ISA_OP_FMUL, 0, d, pick(&a, i), sc_none());
      sc_emit(t, ISA_OP_FADD, 0, v->comp[i], pick(&x, i), m, sc_none());
   }
   sc_release(&x);
   sc_release(&y);
   sc_release(&a);
}

static struct sc_opnd dot(struct sc_tx *t, const struct sc_operands *a, const struct sc_operands *b)
{
   struct sc_opnd acc = sc_alu(t, ISA_OP_FMUL, 0, a->c[0], b->c[0], sc_none());
   for (uint32_t i = 1; i < a->n; i++)
      acc = sc_alu(t, ISA_OP_FADD, 0, acc, sc_alu(t, ISA_OP_FMUL, 0, a->c[i], b->c[i], sc_none()),
                sc_none());
   return acc;
}

/* Component-wise f(x) * k. */
/* Radians and Degrees: Vulkan's precision for them is "inherited from
 * x * C", C in the operand's own precision, so binary16 multiplies by C
 * rounded to binary16 (k16), with HMUL. */
static void ext_scale(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, float k, uint32_t k16)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
   struct sc_val *v = sc_result(t, id, type);
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   bool half = s.kind == SC_TK_FLOAT && s.width == 16;
   for (uint32_t i = 0; i < v->n; i++)
      sc_emit(t, half ? ISA_OP_HMUL : ISA_OP_FMUL, 0, v->comp[i], pick(&a, i),
              half ? sc_imm(k16) : fimm(t, k), sc_none());
   sc_release(&a);
}

/* sign(x) for integers: -1, 0 or 1 */
static void ext_ssign(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd neg = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_LT_S, pick(&a, i), sc_imm(0), sc_none());
      struct sc_opnd pos = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_GT_S, pick(&a, i), sc_imm(0), sc_none());
      sc_emit(t, ISA_OP_SEL, 0, v->comp[i], neg, sc_imm(UINT32_MAX), pos);
   }
   sc_release(&a);
}

/* abs and sign of 64-bit integers, half by half under one comparison */
static void ext_abs64(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd x = pick(&a, i);
      struct sc_opnd neg = sc_alu64(t, ISA_OP_ISUB64, 0, sc_pair64(t, 0), x);
      struct sc_opnd below = sc_alu(t, ISA_OP_ICMP64, ISA_ICMP_LT_S, x, sc_pair64(t, 0), sc_none());
      for (uint32_t h = 0; h < 2; h++)
         sc_emit(t, ISA_OP_SEL, 0, sc_part_of(v->comp[i], h), below, sc_part_of(neg, h), sc_part_of(x, h));
   }
   sc_release(&a);
}

static void ext_ssign64(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd x = pick(&a, i);
      struct sc_opnd neg = sc_alu(t, ISA_OP_ICMP64, ISA_ICMP_LT_S, x, sc_pair64(t, 0), sc_none());
      struct sc_opnd pos = sc_alu(t, ISA_OP_ICMP64, ISA_ICMP_GT_S, x, sc_pair64(t, 0), sc_none());
      /* low half: -1, 1 or 0; high half: all ones when negative */
      sc_emit(t, ISA_OP_SEL, 0, sc_part_of(v->comp[i], 0), neg, sc_imm(UINT32_MAX), pos);
      sc_emit(t, ISA_OP_SEL, 0, sc_part_of(v->comp[i], 1), neg, sc_imm(UINT32_MAX), sc_imm(0));
   }
   sc_release(&a);
}

/* faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N */
static void ext_faceforward(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands n = sc_operand(t, sc_arg(t, at, 5)), i = sc_operand(t, sc_arg(t, at, 6)),
                   r = sc_operand(t, sc_arg(t, at, 7));
   struct sc_opnd d = dot(t, &r, &i);
   struct sc_opnd neg = sc_alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, d, fimm(t, 0.0f), sc_none());
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t k = 0; k < v->n; k++) {
      struct sc_opnd minus = sc_alu(t, ISA_OP_FNEG, 0, pick(&n, k), sc_none(), sc_none());
      sc_emit(t, ISA_OP_SEL, 0, v->comp[k], neg, pick(&n, k), minus);
   }
   sc_release(&n);
   sc_release(&i);
   sc_release(&r);
}

/* reflect(I, N) = I - 2 * dot(N, I) * N */
static void ext_reflect(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands i = sc_operand(t, sc_arg(t, at, 5)), n = sc_operand(t, sc_arg(t, at, 6));
   struct sc_opnd d2 = sc_alu(t, ISA_OP_FMUL, 0, dot(t, &n, &i), fimm(t, 2.0f), sc_none());
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t k = 0; k < v->n; k++) {
      struct sc_opnd m = sc_alu(t, ISA_OP_FMUL, 0, d2, pick(&n, k), sc_none());
      sc_emit(t, ISA_OP_FSUB, 0, v->comp[k], pick(&i, k), m, sc_none());
   }
   sc_release(&i);
   sc_release(&n);
}

/* refract(I, N, eta): k = 1 - eta^2 (1 - dot(N, I)^2);
 * k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N */
static void ext_refract(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands i = sc_operand(t, sc_arg(t, at, 5)), n = sc_operand(t, sc_arg(t, at, 6));
   struct sc_opnd eta = sc_get1(t, sc_arg(t, at, 7), 0);
   struct sc_opnd d = dot(t, &n, &i);
   struct sc_opnd one_d2 = sc_alu(t, ISA_OP_FSUB, 0, fimm(t, 1.0f), sc_alu(t, ISA_OP_FMUL, 0, d, d, sc_none()),
                               sc_none());
   struct sc_opnd k = sc_alu(t, ISA_OP_FSUB, 0, fimm(t, 1.0f),
                          sc_alu(t, ISA_OP_FMUL, 0, sc_alu(t, ISA_OP_FMUL, 0, eta, eta, sc_none()), one_d2,
                              sc_none()),
                          sc_none());
   struct sc_opnd tir = sc_alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, k, fimm(t, 0.0f), sc_none());
   struct sc_opnd f = sc_alu(t, ISA_OP_FADD, 0, sc_alu(t, ISA_OP_FMUL, 0, eta, d, sc_none()),
                          sc_alu(t, ISA_OP_FSQRT, 0, k, sc_none(), sc_none()), sc_none());
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t c = 0; c < v->n; c++) {
      struct sc_opnd r = sc_alu(t, ISA_OP_FSUB, 0, sc_alu(t, ISA_OP_FMUL, 0, eta, pick(&i, c), sc_none()),
                             sc_alu(t, ISA_OP_FMUL, 0, f, pick(&n, c), sc_none()), sc_none());
      sc_emit(t, ISA_OP_SEL, 0, v->comp[c], tir, fimm(t, 0.0f), r);
   }
   sc_release(&i);
   sc_release(&n);
}

/* modf: whole = trunc(x), fraction = x - whole (same sign as x). frexp:
 * x = m * 2^e with 0.5 <= |m| < 1; zero gives (0, 0); subnormals are
 * scaled into the normal range first. Infinity and NaN: undefined (GLSL). */
/* frexp of a double: the exponent field is bits 20-30 of the high half;
 * subnormals are scaled by 2^64 first, as for binary32. */
static void split_double(struct sc_tx *t, struct sc_opnd x, struct sc_opnd *first, struct sc_opnd *second)
{
   struct sc_opnd ax = sc_alu(t, ISA_OP_FABS, 0, x, sc_none(), sc_none());
   struct sc_opnd tiny = sc_alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, ax, fimm(t, 0x1p-1022), sc_none());
   struct sc_opnd scaled = sc_alu(t, ISA_OP_SEL, 0, tiny, sc_alu(t, ISA_OP_FMUL, 0, x, fimm(t, 0x1p64), sc_none()), x);
   struct sc_opnd hi = sc_part_of(scaled, 1);
   struct sc_opnd biased = sc_alu(t, ISA_OP_BFE_U, 0, hi, sc_imm(20), sc_imm(11));
   struct sc_opnd e = sc_alu(t, ISA_OP_ISUB, 0, biased,
                             sc_alu(t, ISA_OP_SEL, 0, tiny, sc_imm(1022 + 64), sc_imm(1022)), sc_none());
   struct sc_opnd m = sc_reg(sc_new_reg(t, 2, sc_opnd_uniform(t, scaled)));
   sc_emit(t, ISA_OP_MOV, 0, sc_part_of(m, 0), sc_part_of(scaled, 0), sc_none(), sc_none());
   sc_emit(t, ISA_OP_OR, 0, sc_part_of(m, 1), sc_alu(t, ISA_OP_AND, 0, hi, sc_imm(0x800fffffu), sc_none()),
           sc_imm(0x3fe00000u), sc_none());
   struct sc_opnd zero = sc_alu(t, ISA_OP_FCMP, ISA_FCMP_OEQ, x, fimm(t, 0.0), sc_none());
   *first = sc_alu(t, ISA_OP_SEL, 0, zero, x, m);
   *second = sc_alu(t, ISA_OP_SEL, 0, zero, sc_imm(0), e);
}

static void split_float(struct sc_tx *t, struct sc_opnd x, bool frexp, struct sc_opnd *first,
                        struct sc_opnd *second)
{
   if (frexp && t->fp64) {
      split_double(t, x, first, second);
      return;
   }
   if (!frexp) {
      *second = sc_alu(t, ISA_OP_FTRUNC, 0, x, sc_none(), sc_none());
      *first = sc_alu(t, ISA_OP_FSUB, 0, x, *second, sc_none());
      return;
   }
   struct sc_opnd ax = sc_alu(t, ISA_OP_FABS, 0, x, sc_none(), sc_none());
   struct sc_opnd tiny = sc_alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, ax, sc_imm(0x00800000u), sc_none());
   struct sc_opnd scaled = sc_alu(t, ISA_OP_SEL, 0, tiny,
                               sc_alu(t, ISA_OP_FMUL, 0, x, sc_imm(0x5f800000u) /* 2^64 */, sc_none()), x);
   struct sc_opnd biased = sc_alu(t, ISA_OP_BFE_U, 0, scaled, sc_imm(23), sc_imm(8));
   struct sc_opnd e = sc_alu(t, ISA_OP_ISUB, 0, biased, sc_alu(t, ISA_OP_SEL, 0, tiny, sc_imm(126 + 64), sc_imm(126)),
                          sc_none());
   struct sc_opnd m = sc_alu(t, ISA_OP_OR, 0, sc_alu(t, ISA_OP_AND, 0, scaled, sc_imm(0x807fffffu), sc_none()),
                          sc_imm(0x3f000000u), sc_none());
   struct sc_opnd zero = sc_alu(t, ISA_OP_FCMP, ISA_FCMP_OEQ, x, fimm(t, 0.0f), sc_none());
   *first = sc_alu(t, ISA_OP_SEL, 0, zero, x, m);
   *second = sc_alu(t, ISA_OP_SEL, 0, zero, sc_imm(0), e);
}

/* Modf/Frexp (the second result through a pointer) and their Struct forms. */
static void ext_split(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, bool frexp, bool by_struct)
{
   struct sc_operands x = sc_operand(t, sc_arg(t, at, 5));
   struct sc_opnd first[16], second[16];
   uint32_t n = x.n < 16 ? x.n : 16;
   for (uint32_t i = 0; i < n; i++)
      split_float(t, x.c[i], frexp, &first[i], &second[i]);
   sc_release(&x);
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
   struct sc_tinfo rs = sc_scalar_at(t, type, 0);
   if (!frexp && rs.kind == SC_TK_FLOAT && rs.width == 16) {   /* computed in binary32 (SC_VIEW_F32) */
      for (uint32_t i = 0; i < n; i++)
         second[i] = sc_alu(t, ISA_OP_F2H, 0, second[i], sc_none(), sc_none());
   }
   store_value(t, &p, second, n);
   assign(t, id, type, first, n);
}

/* Packs: round(clamp(c, lo, 1) * scale) in `bits`-bit fields; the half
 * form converts to binary16. */
static void ext_pack(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, uint32_t bits, bool snorm,
                     bool half)
{
   struct sc_operands v = sc_operand(t, sc_arg(t, at, 5));
   struct sc_opnd acc = sc_imm(0);
   float scale = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);
   for (uint32_t i = 0; i < v.n && i < 4; i++) {
      struct sc_opnd f;
      if (half) {
         f = sc_alu(t, ISA_OP_F2H, 0, v.c[i], sc_none(), sc_none());
      } else {
         struct sc_opnd c = sc_alu(t, ISA_OP_FMIN, 0,
                                sc_alu(t, ISA_OP_FMAX, 0, v.c[i], fimm(t, snorm ? -1.0f : 0.0f), sc_none()),
                                fimm(t, 1.0f), sc_none());
         struct sc_opnd r = sc_alu(t, ISA_OP_FRINT, 0, sc_alu(t, ISA_OP_FMUL, 0, c, fimm(t, scale), sc_none()),
                                sc_none(), sc_none());
         f = sc_alu(t, ISA_OP_AND, 0, sc_alu(t, snorm ? ISA_OP_F2I_S : ISA_OP_F2I_U, 0, r, sc_none(), sc_none()),
                 sc_imm((1u << bits) - 1), sc_none());
      }
      acc = i == 0 ? f : sc_alu(t, ISA_OP_BFI, 0, acc, f, sc_imm(i * bits | bits << 8));
   }
   sc_release(&v);
   assign(t, id, type, &acc, 1);
}

/* Unpacks: snorm clamp(f / scale, -1, 1), unorm f / scale, half widening. */
static void ext_unpack(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type, uint32_t bits, bool snorm,
                       bool half)
{
   struct sc_opnd p = sc_get1(t, sc_arg(t, at, 5), 0);
   uint32_t n = 32 / bits;
   float scale = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);
   struct sc_opnd out[4];
   for (uint32_t i = 0; i < n; i++) {
      struct sc_opnd f = sc_alu(t, snorm ? ISA_OP_BFE_S : ISA_OP_BFE_U, 0, p, sc_imm(i * bits), sc_imm(bits));
      if (half) {
         out[i] = sc_alu(t, ISA_OP_H2F, 0, f, sc_none(), sc_none());
         continue;
      }
      struct sc_opnd x = sc_alu(t, ISA_OP_FDIV, 0,
                             sc_alu(t, snorm ? ISA_OP_I2F_S : ISA_OP_I2F_U, 0, f, sc_none(), sc_none()),
                             fimm(t, scale), sc_none());
      out[i] = snorm ? sc_alu(t, ISA_OP_FMAX, 0, x, fimm(t, -1.0f), sc_none()) : x;
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
      return sc_alu(t, ISA_OP_FSUB, 0, sc_alu(t, ISA_OP_FMUL, 0, m[0], m[3], sc_none()),
                 sc_alu(t, ISA_OP_FMUL, 0, m[2], m[1], sc_none()), sc_none());
   struct sc_opnd acc = sc_none();
   for (uint32_t r = 0; r < n; r++) {
      struct sc_opnd minor[9];
      uint32_t k = 0;
      for (uint32_t c = 1; c < n; c++)
         for (uint32_t rr = 0; rr < n; rr++)
            if (rr != r)
               minor[k++] = m[c * n + rr];
      struct sc_opnd term = sc_alu(t, ISA_OP_FMUL, 0, m[r], determinant(t, minor, n - 1), sc_none());
      if (acc.kind == SC_NONE)
         acc = term;
      else
         acc = sc_alu(t, (r & 1) ? ISA_OP_FSUB : ISA_OP_FADD, 0, acc, term, sc_none());
   }
   return acc;
}

static void ext_determinant(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands m = sc_operand(t, sc_arg(t, at, 5));
   uint32_t n = m.n == 4 ? 2 : m.n == 9 ? 3 : m.n == 16 ? 4 : 0;
   if (!n)
      FAIL("invalid SPIR-V: Determinant of a %u-component matrix", m.n);
   struct sc_opnd d = determinant(t, m.c, n);
   sc_release(&m);
   assign(t, id, type, &d, 1);
}

/* inverse(m) = adjugate(m) / det(m): entry (r, c) of the inverse is the
 * cofactor (c, r) over the determinant. */
static void ext_inverse(struct sc_tx *t, uint32_t at, uint32_t id, uint32_t type)
{
   struct sc_operands m = sc_operand(t, sc_arg(t, at, 5));
   uint32_t n = m.n == 4 ? 2 : m.n == 9 ? 3 : m.n == 16 ? 4 : 0;
   if (!n)
      FAIL("invalid SPIR-V: MatrixInverse of a %u-component matrix", m.n);
   /* binary64 has no reciprocal instruction: 1 / det, rounded once */
   struct sc_opnd det = determinant(t, m.c, n);
   struct sc_opnd inv_det = t->fp64 ? sc_alu(t, ISA_OP_FDIV, 0, fimm(t, 1.0), det, sc_none())
                                    : sc_alu(t, ISA_OP_FMATH1, ISA_FM_RCP, det, sc_none(), sc_none());
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
            cof = sc_alu(t, ISA_OP_FNEG, 0, cof, sc_none(), sc_none());
         out[c * n + r] = sc_alu(t, ISA_OP_FMUL, 0, cof, inv_det, sc_none());
      }
   }
   sc_release(&m);
   assign(t, id, type, out, n * n);
}

static void glsl(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2), inst = sc_arg(t, at, 4);
   struct sc_tinfo rs = sc_scalar_at(t, type, 0);
   bool sint = rs.kind == SC_TK_INT && rs.is_signed;
   bool i64 = rs.kind == SC_TK_INT && sc_is64(&rs);
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
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 5)), b = sc_operand(t, sc_arg(t, at, 6)),
                      c = sc_operand(t, sc_arg(t, at, 7));
      struct sc_val *v = sc_result(t, id, type);
      struct sc_opnd unused;
      enum isa_op fma = at_width(&rs, ISA_OP_FFMA, &unused);
      for (uint32_t i = 0; i < v->n; i++)
         sc_emit(t, fma, 0, v->comp[i], pick(&a, i), pick(&b, i), pick(&c, i));
      sc_release(&a);
      sc_release(&b);
      sc_release(&c);
      return;
   }
   case GLSLstd450Step: {   /* step(edge, x) = x < edge ? 0 : 1 */
      struct sc_operands edge = sc_operand(t, sc_arg(t, at, 5)), x = sc_operand(t, sc_arg(t, at, 6));
      struct sc_val *v = sc_result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++) {
         struct sc_opnd lt = sc_alu(t, ISA_OP_FCMP, ISA_FCMP_OLT, pick(&x, i), pick(&edge, i), sc_none());
         sc_emit(t, ISA_OP_SEL, 0, v->comp[i], lt, fimm(t, 0.0f), fimm(t, 1.0f));
      }
      sc_release(&edge);
      sc_release(&x);
      return;
   }
   case GLSLstd450SmoothStep: {   /* t = clamp((x-e0)/(e1-e0), 0, 1); t*t*(3-2t) */
      struct sc_operands e0 = sc_operand(t, sc_arg(t, at, 5)), e1 = sc_operand(t, sc_arg(t, at, 6)),
                      x = sc_operand(t, sc_arg(t, at, 7));
      struct sc_val *v = sc_result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++) {
         struct sc_opnd num = sc_alu(t, ISA_OP_FSUB, 0, pick(&x, i), pick(&e0, i), sc_none());
         struct sc_opnd den = sc_alu(t, ISA_OP_FSUB, 0, pick(&e1, i), pick(&e0, i), sc_none());
         struct sc_opnd q = sc_alu(t, ISA_OP_FDIV, 0, num, den, sc_none());
         q = sc_alu(t, ISA_OP_FMIN, 0, sc_alu(t, ISA_OP_FMAX, 0, q, fimm(t, 0.0f), sc_none()), fimm(t, 1.0f), sc_none());
         struct sc_opnd k = sc_alu(t, ISA_OP_FSUB, 0, fimm(t, 3.0f), sc_alu(t, ISA_OP_FMUL, 0, fimm(t, 2.0f), q, sc_none()), sc_none());
         sc_emit(t, ISA_OP_FMUL, 0, v->comp[i], sc_alu(t, ISA_OP_FMUL, 0, q, q, sc_none()), k, sc_none());
      }
      sc_release(&e0);
      sc_release(&e1);
      sc_release(&x);
      return;
   }
   case GLSLstd450FindILsb: ext_unary(t, at, id, type, ISA_OP_FINDLSB, 0); return;
   case GLSLstd450FindSMsb: ext_unary(t, at, id, type, ISA_OP_FINDMSB_S, 0); return;
   case GLSLstd450FindUMsb: ext_unary(t, at, id, type, ISA_OP_FINDMSB_U, 0); return;
   case GLSLstd450Length: {
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
      struct sc_val *v = sc_result(t, id, type);
      sc_emit(t, ISA_OP_FSQRT, 0, v->comp[0], dot(t, &a, &a), sc_none(), sc_none());
      sc_release(&a);
      return;
   }
   case GLSLstd450Distance: {
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 5)), b = sc_operand(t, sc_arg(t, at, 6));
      struct sc_opnd d[16];
      for (uint32_t i = 0; i < a.n && i < 16; i++)
         d[i] = sc_alu(t, ISA_OP_FSUB, 0, a.c[i], b.c[i], sc_none());
      struct sc_operands dd = {d, a.n, false, t};
      struct sc_val *v = sc_result(t, id, type);
      sc_emit(t, ISA_OP_FSQRT, 0, v->comp[0], dot(t, &dd, &dd), sc_none(), sc_none());
      sc_release(&a);
      sc_release(&b);
      return;
   }
   case GLSLstd450Normalize: {
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
      struct sc_opnd inv = sc_alu(t, ISA_OP_FRSQ, 0, dot(t, &a, &a), sc_none(), sc_none());
      struct sc_val *v = sc_result(t, id, type);
      for (uint32_t i = 0; i < v->n; i++)
         sc_emit(t, ISA_OP_FMUL, 0, v->comp[i], a.c[i], inv, sc_none());
      sc_release(&a);
      return;
   }
   case GLSLstd450Cross: {
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 5)), b = sc_operand(t, sc_arg(t, at, 6));
      struct sc_val *v = sc_result(t, id, type);
      for (uint32_t i = 0; i < 3; i++) {
         uint32_t j = (i + 1) % 3, k = (i + 2) % 3;
         struct sc_opnd l = sc_alu(t, ISA_OP_FMUL, 0, a.c[j], b.c[k], sc_none());
         struct sc_opnd r = sc_alu(t, ISA_OP_FMUL, 0, a.c[k], b.c[j], sc_none());
         sc_emit(t, ISA_OP_FSUB, 0, v->comp[i], l, r, sc_none());
      }
      sc_release(&a);
      sc_release(&b);
      return;
   }
   /* binary16 0x2478 and 0x5329: pi/180 and 180/pi rounded to nearest */
   case GLSLstd450Radians: ext_scale(t, at, id, type, 0.017453292519943295f, 0x2478u); return;
   case GLSLstd450Degrees: ext_scale(t, at, id, type, 57.29577951308232f, 0x5329u); return;
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
   case GLSLstd450PackDouble2x32: {   /* the same bits: uvec2 <-> double */
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
      struct sc_val *v = sc_result(t, id, type);
      for (uint32_t h = 0; h < 2 && h < a.n; h++)
         sc_emit(t, ISA_OP_MOV, 0, sc_part_of(v->comp[0], h), a.c[h], sc_none(), sc_none());
      sc_release(&a);
      return;
   }
   case GLSLstd450UnpackDouble2x32: {
      struct sc_opnd x = sc_get1(t, sc_arg(t, at, 5), 0);
      struct sc_val *v = sc_result(t, id, type);
      for (uint32_t h = 0; h < 2 && h < v->n; h++)
         sc_emit(t, ISA_OP_MOV, 0, v->comp[h], sc_part_of(x, h), sc_none(), sc_none());
      return;
   }
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
   const struct sc_id *d = sc_idp(t, id);
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
      struct sc_operands o = sc_operand(t, sc_arg(t, at, k));
      struct sc_tinfo s = operand_scalar(t, sc_arg(t, at, k));
      for (uint32_t i = 0; i < o.n; i++) {
         for (uint32_t h = 0; h < (sc_is64(&s) ? 2u : 1u); h++) {
            if (n == 64)
               FAIL("debugPrintf with more than 62 words of arguments");
            words[n++] = sc_is64(&s) ? sc_part_of(o.c[i], h) : o.c[i];
         }
      }
      sc_release(&o);
   }
   words[0] = sc_imm(n);
   /* the driver's number for this program's first format, plus ours */
   struct sc_opnd base = sc_reg(sc_new_reg(t, 1, true));
   sc_emit(t, ISA_OP_LDG, 1, base, t->root, sc_none(), sc_none())->imm = HW_ROOT_PRINTF_BASE_OFFSET;
   words[1] = sc_alu(t, ISA_OP_IADD, 0, base, sc_imm(format), sc_none());
   struct sc_opnd buf = root_load64(t, HW_ROOT_PRINTF_OFFSET);
   struct sc_opnd bytes = as_register(t, sc_imm(4 * n), false);
   struct sc_opnd offset = sc_reg(sc_new_reg(t, 1, false));
   sc_emit(t, ISA_OP_ATOMG, ISA_ATOM_ADD, offset, buf, bytes, sc_none())->imm = HW_PRINTF_USED_OFFSET;
   struct sc_opnd capacity = sc_reg(sc_new_reg(t, 1, true));
   sc_emit(t, ISA_OP_LDG, 1, capacity, buf, sc_none(), sc_none())->imm = HW_PRINTF_CAPACITY_OFFSET;
   struct sc_opnd end = sc_alu(t, ISA_OP_IADD, 0, offset, sc_imm(4 * n), sc_none());
   /* fits: no wrap-around, and end <= capacity */
   struct sc_opnd fits = sc_alu(t, ISA_OP_AND, 0, sc_alu(t, ISA_OP_ICMP, ISA_ICMP_GE_U, end, offset, sc_none()),
                             sc_alu(t, ISA_OP_ICMP, ISA_ICMP_LE_U, end, capacity, sc_none()), sc_none());
   uint32_t skip = sc_guard_begin(t, fits);
   struct sc_opnd record = sc_reg(sc_new_reg(t, 2, false));
   sc_emit(t, ISA_OP_ZEXT64, 0, record, offset, sc_none(), sc_none());
   sc_emit(t, ISA_OP_IADD64, 0, record, buf, record, sc_none());
   for (uint32_t i = 0; i < n; i++) {
      struct sc_opnd w = words[i].kind == SC_IMM ? as_register(t, words[i], false) : words[i];
      sc_emit(t, ISA_OP_STG, 1, sc_none(), record, w, sc_none())->imm =
         (uint32_t)sizeof(struct hw_printf_buffer) + 4 * i;
   }
   sc_guard_end(t, skip);
}

/* ---- atomics and barriers --------------------------------------------------------------- */

static struct sc_opnd as_register(struct sc_tx *t, struct sc_opnd o, bool wide)
{
   if (o.kind == SC_REG)
      return o;
   if (wide) {
      struct sc_opnd d = sc_reg(sc_new_reg(t, 2, true));
      sc_emit(t, ISA_OP_MOV64, 0, d, o, sc_none(), sc_none());
      return d;
   }
   return sc_alu(t, ISA_OP_MOV, 0, o, sc_none(), sc_none());
}

static void atomic(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   bool wide = sc_is64(&s), global = is_buffer_storage(p.storage);
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
   case SpvOpAtomicIIncrement: value = wide ? sc_pair64(t, 1) : sc_imm(1); break;
   case SpvOpAtomicIDecrement: value = wide ? sc_pair64(t, UINT64_MAX) : sc_imm(UINT32_MAX); break;
   case SpvOpAtomicIAdd: break;
   case SpvOpAtomicISub: break;
   case SpvOpAtomicSMin: kind = ISA_ATOM_MIN_S; break;
   case SpvOpAtomicUMin: kind = ISA_ATOM_MIN_U; break;
   case SpvOpAtomicSMax: kind = ISA_ATOM_MAX_S; break;
   case SpvOpAtomicUMax: kind = ISA_ATOM_MAX_U; break;
   case SpvOpAtomicAnd: kind = ISA_ATOM_AND; break;
   case SpvOpAtomicOr: kind = ISA_ATOM_OR; break;
   case SpvOpAtomicXor: kind = ISA_ATOM_XOR; break;
   case SpvOpAtomicFAddEXT: kind = ISA_ATOM_FADD; break;
   default: break;
   }
   if (value.kind == SC_NONE)
      value = sc_get1(t, sc_arg(t, at, 6), 0);
   if (op == SpvOpAtomicISub)
      value = wide ? sc_alu64(t, ISA_OP_ISUB64, 0, sc_pair64(t, 0), value)
                   : sc_alu(t, ISA_OP_INEG, 0, value, sc_none(), sc_none());
   value = as_register(t, value, wide);
   struct sc_val *v = sc_result(t, id, type);
   uint32_t guard = UINT32_MAX;
   if (global && t->o->robust_buffer_access && p.range.kind == SC_REG) {
      zero_fill(t, v->comp[0], wide);
      guard = guard_begin(t, &p, wide ? 8 : 4);
   }
   struct sc_minst *in =
      sc_emit(t, global ? ISA_OP_ATOMG : ISA_OP_ATOMS, kind | (wide ? ISA_ATOM_64 : 0), v->comp[0],
           addr, value, sc_none());
   in->imm = imm;
   guard_end(t, guard);
}

static void compare_exchange(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   bool wide = sc_is64(&s), global = is_buffer_storage(p.storage);
   uint32_t imm;
   struct sc_opnd addr = global ? buffer_address(t, &p, 0, &imm) : local_address(t, &p, 0, &imm);
   struct sc_opnd value = as_register(t, sc_get1(t, sc_arg(t, at, 7), 0), wide);
   struct sc_opnd cmp = as_register(t, sc_get1(t, sc_arg(t, at, 8), 0), wide);
   struct sc_val *v = sc_result(t, id, type);
   uint32_t guard = UINT32_MAX;
   if (global && t->o->robust_buffer_access && p.range.kind == SC_REG) {
      zero_fill(t, v->comp[0], wide);
      guard = guard_begin(t, &p, wide ? 8 : 4);
   }
   struct sc_minst *in = sc_emit(t, global ? ISA_OP_CASG : ISA_OP_CASS, wide ? ISA_ATOM_64 : 0,
                              v->comp[0], addr, cmp, value);
   in->imm = imm;
   guard_end(t, guard);
}

static void atomic_load(struct sc_tx *t, uint32_t at)
{
   struct ptr p = pointer_of(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   load(t, &p, sc_arg(t, at, 1), v->comp, 0);
}

static void atomic_store(struct sc_tx *t, uint32_t at)
{
   struct ptr p = pointer_of(t, sc_arg(t, at, 1));
   struct sc_opnd value = sc_get1(t, sc_arg(t, at, 4), 0);
   store(t, &p, p.pointee, &value, 0);
   sc_emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
}

static bool scope_of(struct sc_tx *t, uint32_t id, uint32_t *scope)
{
   return sc_const_u32(t, id, scope);
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
   sc_const_u32(t, sc_arg(t, at, 3), &semantics);
   bool membar = needs_membar(t, sc_arg(t, at, 2), semantics);
   if (membar)
      sc_emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
   /* A subgroup's lanes run in lockstep: only a workgroup barrier waits. */
   if (exec_scope == SpvScopeWorkgroup) {
      sc_emit(t, ISA_OP_BAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
      t->mir->uses_barrier = true;
   }
   if (membar)
      sc_emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
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
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   uint32_t rop = reduce_op(t, sc_op(t->m, at));
   enum isa_op op;
   uint32_t mod = rop;
   if (sc_is64(&s))
      mod |= ISA_SUBGROUP_64;   /* 64-bit integers or binary64 */
   if (s.kind == SC_TK_FLOAT && s.width == 16)
      mod |= ISA_SUBGROUP_F16;
   switch (group_op) {
   case SpvGroupOperationReduce: op = ISA_OP_REDUCE; break;
   case SpvGroupOperationInclusiveScan: op = ISA_OP_SCAN; break;
   case SpvGroupOperationExclusiveScan: op = ISA_OP_SCAN; mod |= ISA_SCAN_EXCLUSIVE; break;
   case SpvGroupOperationClusteredReduce: {
      /* "ClusterSize ... must be a constant ... a power of 2" of at least
       * 1 (SPIR-V 3.42.21): the cluster field holds its log2 plus one;
       * clusters of the whole warp or more are the plain reduction. */
      uint32_t size = 0;
      if (sc_len(t->m, at) < 7 || !sc_const_u32(t, sc_arg(t, at, 6), &size) || !is_pow2(size))
         FAIL("ClusteredReduce needs a constant power-of-two cluster size");
      op = ISA_OP_REDUCE;
      if (size < 64)
         mod |= (log2_of(size) + 1) << ISA_SUBGROUP_CLUSTER_SHIFT;
      break;
   }
   default: FAIL("unsupported subgroup group operation %u", group_op);
   }
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 5));
   struct sc_val *v = sc_result(t, id, type);
   /* An exclusive scan's first lane gets the identity: all ones for AND,
    * which is no boolean (booleans are 0 or 1); true is 1. */
   bool bool_and = s.kind == SC_TK_BOOL && rop == ISA_RED_AND && (mod & ISA_SCAN_EXCLUSIVE);
   /* A signed min or max of 8- or 16-bit integers has a narrower one: the 32-bit
    * identity (INT32_MAX, INT32_MIN) clamped to the narrow range is the
    * narrow one; the operands, sign-extended, are within it. */
   bool narrow_signed = s.kind == SC_TK_INT && s.width < 32 && (mod & ISA_SCAN_EXCLUSIVE) &&
                        (rop == ISA_RED_IMIN_S || rop == ISA_RED_IMAX_S);
   for (uint32_t i = 0; i < v->n; i++) {
      if (narrow_signed) {
         struct sc_opnd scan = sc_reg(sc_new_reg(t, 1, sc_opnd_uniform(t, a.c[i])));
         sc_emit(t, op, mod, scan, a.c[i], sc_none(), sc_none());
         uint32_t bound = rop == ISA_RED_IMIN_S ? (1u << (s.width - 1)) - 1 : 0u - (1u << (s.width - 1));
         sc_emit(t, rop == ISA_RED_IMIN_S ? ISA_OP_IMIN_S : ISA_OP_IMAX_S, 0, v->comp[i], scan,
                 sc_imm(bound), sc_none());
         continue;
      }
      if (!bool_and) {
         sc_emit(t, op, mod, v->comp[i], a.c[i], sc_none(), sc_none());
         continue;
      }
      struct sc_opnd scan = sc_reg(sc_new_reg(t, 1, sc_opnd_uniform(t, a.c[i])));
      sc_emit(t, op, mod, scan, a.c[i], sc_none(), sc_none());
      sc_emit(t, ISA_OP_AND, 0, v->comp[i], scan, sc_imm(1), sc_none());
   }
   sc_release(&a);
}

/* Result id (of type) as BCAST or SHFL `mod` of value a from `lane`,
 * 64-bit components half by half. */
static void shuffle_value(struct sc_tx *t, uint32_t id, uint32_t type, enum isa_op isa, uint32_t mod,
                          const struct sc_operands *a, struct sc_opnd lane)
{
   struct sc_tinfo s = sc_scalar_at(t, type, 0);
   struct sc_val *v = sc_result(t, id, type);
   for (uint32_t i = 0; i < v->n; i++) {
      for (uint32_t h = 0; h < (sc_is64(&s) ? 2u : 1u); h++)
         sc_emit(t, isa, mod, sc_part_of(v->comp[i], h), sc_part_of(a->c[i], h), lane, sc_none());
   }
}

/* OpGroupNonUniformQuadBroadcast and QuadSwap: a shuffle within each
 * aligned quad of lanes (quads are lanes 4q to 4q + 3, as SPIR-V 3.42.21
 * numbers them by subgroup invocation id): from lane (id & ~3) | Index,
 * or from id ^ 1, ^ 2, ^ 3 for the horizontal, vertical and diagonal
 * swaps (Direction 0, 1, 2). */
static void quad(struct sc_tx *t, uint32_t at, uint16_t op)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 4));
   struct sc_opnd lane;
   uint32_t mod = ISA_SHFL_IDX;
   if (op == SpvOpGroupNonUniformQuadSwap) {
      uint32_t direction;
      if (!sc_const_u32(t, sc_arg(t, at, 5), &direction) || direction > 2)
         FAIL("QuadSwap needs a constant Direction of 0, 1 or 2");
      lane = sc_imm(direction + 1);
      mod = ISA_SHFL_XOR;
   } else {
      struct sc_opnd base = sc_alu(t, ISA_OP_AND, 0, sreg(t, ISA_SR_LANE_ID, false), sc_imm(~3u), sc_none());
      lane = sc_alu(t, ISA_OP_OR, 0, base,
                    sc_alu(t, ISA_OP_AND, 0, sc_get1(t, sc_arg(t, at, 5), 0), sc_imm(3), sc_none()),
                    sc_none());
   }
   shuffle_value(t, id, type, ISA_OP_SHFL, mod, &a, lane);
   sc_release(&a);
}

/* OpReadClockKHR (SPV_KHR_shader_clock): the GPU's clock, which one reading
 * (S2R CLOCK_LO, then CLOCK_HI of the same reading) gives for the subgroup
 * and device scopes alike: it is the device's clock, the same for every
 * subgroup. The result is a 64-bit integer or a uvec2 (low, high). */
static void read_clock(struct sc_tx *t, uint32_t at)
{
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
   struct sc_opnd lo = sc_reg(sc_new_reg(t, 1, true)), hi = sc_reg(sc_new_reg(t, 1, true));
   sc_emit(t, ISA_OP_S2R, ISA_SR_CLOCK_LO, lo, sc_none(), sc_none(), sc_none());
   sc_emit(t, ISA_OP_S2R, ISA_SR_CLOCK_HI, hi, sc_none(), sc_none(), sc_none());
   struct sc_val *v = sc_result(t, id, type);
   if (v->n == 2) {
      sc_emit(t, ISA_OP_MOV, 0, v->comp[0], lo, sc_none(), sc_none());
      sc_emit(t, ISA_OP_MOV, 0, v->comp[1], hi, sc_none(), sc_none());
      return;
   }
   sc_emit(t, ISA_OP_MOV, 0, sc_part_of(v->comp[0], 0), lo, sc_none(), sc_none());
   sc_emit(t, ISA_OP_MOV, 0, sc_part_of(v->comp[0], 1), hi, sc_none(), sc_none());
}

/* The lane index of the first active lane (uniform). */
static struct sc_opnd first_active_lane(struct sc_tx *t)
{
   struct sc_opnd ballot = sc_reg(sc_new_reg(t, 2, true));
   sc_emit(t, ISA_OP_BALLOT, 0, ballot, sc_imm(1), sc_none(), sc_none());
   struct sc_opnd lo = sc_alu(t, ISA_OP_FINDLSB, 0, sc_part_of(ballot, 0), sc_none(), sc_none());
   struct sc_opnd hi = sc_alu(t, ISA_OP_IADD, 0,
                           sc_alu(t, ISA_OP_FINDLSB, 0, sc_part_of(ballot, 1), sc_none(), sc_none()),
                           sc_imm(32), sc_none());
   struct sc_opnd any_lo = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_NE, sc_part_of(ballot, 0), sc_imm(0), sc_none());
   return sc_alu(t, ISA_OP_SEL, 0, any_lo, lo, hi);
}

static struct sc_opnd ballot_bit(struct sc_tx *t, const struct sc_operands *mask, struct sc_opnd index)
{
   struct sc_opnd low = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_LT_U, index, sc_imm(32), sc_none());
   struct sc_opnd word = sc_alu(t, ISA_OP_SEL, 0, low, mask->c[0], mask->c[1]);
   struct sc_opnd sh = sc_alu(t, ISA_OP_SHR_U, 0, word, sc_alu(t, ISA_OP_AND, 0, index, sc_imm(31), sc_none()),
                           sc_none());
   return sc_alu(t, ISA_OP_AND, 0, sh, sc_imm(1), sc_none());
}

/* A ballot's words 0 and 1 with only the subgroup's bits: "Only the
 * bits that correspond to invocations in the subgroup are used"
 * (OpGroupNonUniformBallotBitCount, FindLSB, FindMSB); the subgroup is the
 * warp, so W bits (words 2 and 3 never count: W <= 64). */
static void subgroup_words(struct sc_tx *t, const struct sc_operands *mask, struct sc_opnd *w0,
                           struct sc_opnd *w1)
{
   uint32_t w = t->o->warp_width;
   *w0 = w >= 32 ? mask->c[0] : sc_alu(t, ISA_OP_AND, 0, mask->c[0], sc_imm((1u << w) - 1), sc_none());
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
      struct sc_val *v = sc_result(t, id, type);
      sc_emit(t, ISA_OP_ELECT, 0, v->comp[0], sc_none(), sc_none(), sc_none());
      return;
   }
   case SpvOpGroupNonUniformAll:
   case SpvOpGroupNonUniformAny: {
      struct sc_val *v = sc_result(t, id, type);
      sc_emit(t, ISA_OP_VOTE, op == SpvOpGroupNonUniformAll ? ISA_VOTE_ALL : ISA_VOTE_ANY, v->comp[0],
           sc_get1(t, sc_arg(t, at, 4), 0), sc_none(), sc_none());
      return;
   }
   case SpvOpGroupNonUniformAllEqual: {
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 4));
      struct sc_tinfo s = operand_scalar(t, sc_arg(t, at, 4));
      struct sc_opnd acc = sc_imm(1);
      for (uint32_t i = 0; i < a.n; i++) {
         for (uint32_t h = 0; h < (sc_is64(&s) ? 2u : 1u); h++) {
            struct sc_opnd e = sc_alu(t, ISA_OP_VOTE, ISA_VOTE_EQ, sc_part_of(a.c[i], h), sc_none(), sc_none());
            acc = sc_alu(t, ISA_OP_AND, 0, acc, e, sc_none());
         }
      }
      assign(t, id, type, &acc, 1);
      sc_release(&a);
      return;
   }
   case SpvOpGroupNonUniformBroadcast:
   case SpvOpGroupNonUniformBroadcastFirst:
   case SpvOpGroupNonUniformShuffle:
   case SpvOpGroupNonUniformShuffleXor:
   case SpvOpGroupNonUniformShuffleUp:
   case SpvOpGroupNonUniformShuffleDown: {
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 4));
      struct sc_opnd lane = op == SpvOpGroupNonUniformBroadcastFirst ? first_active_lane(t)
                                                                     : sc_get1(t, sc_arg(t, at, 5), 0);
      enum isa_op isa = (op == SpvOpGroupNonUniformBroadcast || op == SpvOpGroupNonUniformBroadcastFirst)
                           ? ISA_OP_BCAST : ISA_OP_SHFL;
      uint32_t mod = op == SpvOpGroupNonUniformShuffleXor ? ISA_SHFL_XOR
                     : op == SpvOpGroupNonUniformShuffleUp ? ISA_SHFL_UP
                     : op == SpvOpGroupNonUniformShuffleDown ? ISA_SHFL_DOWN : ISA_SHFL_IDX;
      shuffle_value(t, id, type, isa, mod, &a, lane);
      sc_release(&a);
      return;
   }
   case SpvOpGroupNonUniformBallot: {
      struct sc_opnd b = sc_reg(sc_new_reg(t, 2, true));
      sc_emit(t, ISA_OP_BALLOT, 0, b, sc_get1(t, sc_arg(t, at, 4), 0), sc_none(), sc_none());
      struct sc_opnd c[4] = {sc_part_of(b, 0), sc_part_of(b, 1), sc_imm(0), sc_imm(0)};
      assign(t, id, type, c, 4);
      return;
   }
   case SpvOpGroupNonUniformInverseBallot:
   case SpvOpGroupNonUniformBallotBitExtract: {
      struct sc_operands mask = sc_operand(t, sc_arg(t, at, 4));
      struct sc_opnd index = op == SpvOpGroupNonUniformInverseBallot
                                ? sreg(t, ISA_SR_LANE_ID, false) : sc_get1(t, sc_arg(t, at, 5), 0);
      struct sc_opnd r = ballot_bit(t, &mask, index);
      assign(t, id, type, &r, 1);
      sc_release(&mask);
      return;
   }
   case SpvOpGroupNonUniformBallotBitCount: {
      uint32_t group_op = sc_arg(t, at, 4);
      struct sc_operands mask = sc_operand(t, sc_arg(t, at, 5));
      struct sc_opnd w0, w1;
      subgroup_words(t, &mask, &w0, &w1);
      if (group_op != SpvGroupOperationReduce) {
         uint32_t bi = group_op == SpvGroupOperationInclusiveScan ? SpvBuiltInSubgroupLeMask
                                                                  : SpvBuiltInSubgroupLtMask;
         w0 = sc_alu(t, ISA_OP_AND, 0, w0, builtin_component(t, bi, 0), sc_none());
         w1 = sc_alu(t, ISA_OP_AND, 0, w1, builtin_component(t, bi, 1), sc_none());
      }
      struct sc_opnd r = sc_alu(t, ISA_OP_IADD, 0, sc_alu(t, ISA_OP_POPC, 0, w0, sc_none(), sc_none()),
                             sc_alu(t, ISA_OP_POPC, 0, w1, sc_none(), sc_none()), sc_none());
      assign(t, id, type, &r, 1);
      sc_release(&mask);
      return;
   }
   case SpvOpGroupNonUniformBallotFindLSB:
   case SpvOpGroupNonUniformBallotFindMSB: {
      struct sc_operands mask = sc_operand(t, sc_arg(t, at, 4));
      struct sc_opnd r, w0, w1;
      subgroup_words(t, &mask, &w0, &w1);
      if (op == SpvOpGroupNonUniformBallotFindLSB) {
         struct sc_opnd any = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_NE, w0, sc_imm(0), sc_none());
         struct sc_opnd hi = sc_alu(t, ISA_OP_IADD, 0, sc_alu(t, ISA_OP_FINDLSB, 0, w1, sc_none(), sc_none()),
                                 sc_imm(32), sc_none());
         r = sc_alu(t, ISA_OP_SEL, 0, any, sc_alu(t, ISA_OP_FINDLSB, 0, w0, sc_none(), sc_none()), hi);
      } else {
         struct sc_opnd any = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_NE, w1, sc_imm(0), sc_none());
         struct sc_opnd hi = sc_alu(t, ISA_OP_IADD, 0, sc_alu(t, ISA_OP_FINDMSB_U, 0, w1, sc_none(), sc_none()),
                                 sc_imm(32), sc_none());
         r = sc_alu(t, ISA_OP_SEL, 0, any, hi, sc_alu(t, ISA_OP_FINDMSB_U, 0, w0, sc_none(), sc_none()));
      }
      assign(t, id, type, &r, 1);
      sc_release(&mask);
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
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_operands b = sc_len(t->m, at) > 4 ? sc_operand(t, sc_arg(t, at, 4)) : a;
   struct sc_tinfo ta = sc_type_of(t, sc_idp(t, sc_arg(t, at, 3))->type);
   struct sc_opnd out[SC_MAX_COMPONENTS];
   uint32_t n = sc_components(t, type);
   switch (op) {
   case SpvOpVectorTimesScalar:
   case SpvOpMatrixTimesScalar:
      for (uint32_t i = 0; i < n; i++)
         out[i] = sc_alu(t, ISA_OP_FMUL, 0, a.c[i], b.c[0], sc_none());
      break;
   case SpvOpDot:
      out[0] = dot(t, &a, &b);
      break;
   case SpvOpTranspose: {
      struct sc_tinfo col = sc_type_of(t, ta.elem);
      for (uint32_t c = 0; c < ta.count; c++)
         for (uint32_t r = 0; r < col.count; r++)
            out[r * ta.count + c] = a.c[c * col.count + r];
      break;
   }
   case SpvOpMatrixTimesVector: {   /* sum over columns c of M[c] * v[c] */
      uint32_t rows = n;
      for (uint32_t r = 0; r < rows; r++) {
         struct sc_opnd acc = sc_alu(t, ISA_OP_FMUL, 0, a.c[r], b.c[0], sc_none());
         for (uint32_t c = 1; c < ta.count; c++)
            acc = sc_alu(t, ISA_OP_FADD, 0, acc, sc_alu(t, ISA_OP_FMUL, 0, a.c[c * rows + r], b.c[c], sc_none()),
                      sc_none());
         out[r] = acc;
      }
      break;
   }
   case SpvOpVectorTimesMatrix: {   /* result[c] = dot(v, M[c]) */
      struct sc_tinfo tb = sc_type_of(t, sc_idp(t, sc_arg(t, at, 4))->type);
      uint32_t rows = sc_components(t, tb.elem);
      for (uint32_t c = 0; c < n; c++) {
         struct sc_operands col = {b.c + c * rows, rows, false, t};
         out[c] = dot(t, &a, &col);
      }
      break;
   }
   case SpvOpMatrixTimesMatrix: {
      struct sc_tinfo tb = sc_type_of(t, sc_idp(t, sc_arg(t, at, 4))->type);
      uint32_t rows = sc_components(t, ta.elem), inner = ta.count;
      for (uint32_t c = 0; c < tb.count; c++) {
         for (uint32_t r = 0; r < rows; r++) {
            struct sc_opnd acc = sc_alu(t, ISA_OP_FMUL, 0, a.c[r], b.c[c * inner], sc_none());
            for (uint32_t k = 1; k < inner; k++)
               acc = sc_alu(t, ISA_OP_FADD, 0, acc,
                         sc_alu(t, ISA_OP_FMUL, 0, a.c[k * rows + r], b.c[c * inner + k], sc_none()),
                         sc_none());
            out[c * rows + r] = acc;
         }
      }
      break;
   }
   case SpvOpOuterProduct:
      for (uint32_t c = 0; c < b.n; c++)
         for (uint32_t r = 0; r < a.n; r++)
            out[c * a.n + r] = sc_alu(t, ISA_OP_FMUL, 0, a.c[r], b.c[c], sc_none());
      break;
   default:
      FAIL("unsupported matrix operation %u", op);
   }
   assign(t, id, type, out, n);
   sc_release(&a);
   if (sc_len(t->m, at) > 4)
      sc_release(&b);
}

/* ---- one instruction -------------------------------------------------------------------- */

/* OpFConvert to or from binary64: F2D (from binary16 through binary32,
 * exactly), D2F and D2H (one rounding, as `mode` says). */
static void double_convert(struct sc_tx *t, uint32_t at, uint32_t from, uint32_t to, uint32_t mode)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd x = pick(&a, i);
      if (from == to)
         sc_copy_scalar(t, v->comp[i], x, true);
      else if (to == 64)
         sc_emit(t, ISA_OP_F2D, 0, v->comp[i],
                 from == 16 ? sc_alu(t, ISA_OP_H2F, 0, x, sc_none(), sc_none()) : x, sc_none(), sc_none());
      else
         sc_emit(t, to == 16 ? ISA_OP_D2H : ISA_OP_D2F, mode, v->comp[i], x, sc_none(), sc_none());
   }
   sc_release(&a);
}

/* OpFConvert between 16- and 32-bit floats; narrowing rounds as the
 * result's FPRoundingMode decoration says, to nearest even without one
 * (SPIR-V 3.37.11, OpFConvert; Vulkan's precision rules allow it). */
static void float_convert(struct sc_tx *t, uint32_t at)
{
   struct sc_tinfo from = operand_scalar(t, sc_arg(t, at, 3)), to = result_scalar(t, at);
   uint32_t id = sc_arg(t, at, 2);
   uint32_t mode = t->m->ids[id].rounding ? t->m->ids[id].rounding - 1u : ISA_RND_RTE;
   if (from.width == 64 || to.width == 64) {
      double_convert(t, at, from.width, to.width, mode);
      return;
   }
   enum isa_op op = from.width == to.width ? ISA_OP_MOV
                    : to.width == 16       ? ISA_OP_F2H
                                           : ISA_OP_H2F;
   unop(t, at, op, ISA_OP_NOP, op == ISA_OP_F2H ? mode : 0);
}

/* Integer to float: I2F/I2F64 to binary32 (binary16 rounds from it, see
 * narrow_results), I2D/I642D to binary64. */
static void convert(struct sc_tx *t, uint32_t at, enum isa_op op)
{
   bool sgn = op == ISA_OP_I2F_S;
   if (result_scalar(t, at).width == 64) {
      unop(t, at, sgn ? ISA_OP_I2D_S : ISA_OP_I2D_U, sgn ? ISA_OP_I642D_S : ISA_OP_I642D_U, 0);
      return;
   }
   unop(t, at, op, sgn ? ISA_OP_I2F64_S : ISA_OP_I2F64_U, 0);
}

/* Float to integer, by the result's width. */
static void float_to_int(struct sc_tx *t, uint32_t at, bool is_signed)
{
   struct sc_tinfo to = result_scalar(t, at);
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   struct sc_tinfo from = operand_scalar(t, sc_arg(t, at, 3));
   enum isa_op op = sc_is64(&to) ? (is_signed ? ISA_OP_F2I64_S : ISA_OP_F2I64_U)
                              : (is_signed ? ISA_OP_F2I_S : ISA_OP_F2I_U);
   if (from.width == 64)
      op = sc_is64(&to) ? (is_signed ? ISA_OP_D2I64_S : ISA_OP_D2I64_U)
                        : (is_signed ? ISA_OP_D2I_S : ISA_OP_D2I_U);
   for (uint32_t i = 0; i < v->n; i++)
      sc_emit(t, op, 0, v->comp[i], pick(&a, i), sc_none(), sc_none());
   sc_release(&a);
}

/* OpQuantizeToF16: through binary16 and back; "too small to represent as
 * a normalized 16-bit float" gives a zero of the same sign. */
static void quantize_f16(struct sc_tx *t, uint32_t at)
{
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd h = sc_alu(t, ISA_OP_F2H, 0, pick(&a, i), sc_none(), sc_none());
      struct sc_opnd f = sc_alu(t, ISA_OP_H2F, 0, h, sc_none(), sc_none());
      struct sc_opnd denorm = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_EQ,
                                  sc_alu(t, ISA_OP_AND, 0, h, sc_imm(0x7c00), sc_none()), sc_imm(0),
                                  sc_none());
      sc_emit(t, ISA_OP_SEL, 0, v->comp[i], denorm, sc_alu(t, ISA_OP_AND, 0, f, sc_imm(0x80000000u), sc_none()), f);
   }
   sc_release(&a);
}

/* OpBitCount: 64-bit operands count both halves; the result may be
 * either width. */
static void bit_count(struct sc_tx *t, uint32_t at)
{
   struct sc_tinfo from = operand_scalar(t, sc_arg(t, at, 3)), to = result_scalar(t, at);
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_opnd x = pick(&a, i);
      struct sc_opnd n = sc_is64(&from)
                            ? sc_alu(t, ISA_OP_IADD, 0, sc_alu(t, ISA_OP_POPC, 0, sc_part_of(x, 0), sc_none(), sc_none()),
                                  sc_alu(t, ISA_OP_POPC, 0, sc_part_of(x, 1), sc_none(), sc_none()), sc_none())
                            : sc_alu(t, ISA_OP_POPC, 0, x, sc_none(), sc_none());
      if (sc_is64(&to))
         sc_emit(t, ISA_OP_ZEXT64, 0, v->comp[i], n, sc_none(), sc_none());
      else
         sc_emit(t, ISA_OP_MOV, 0, v->comp[i], n, sc_none(), sc_none());
   }
   sc_release(&a);
}

/* OpBitReverse: a 64-bit value reverses each half and swaps them. */
static void bit_reverse(struct sc_tx *t, uint32_t at)
{
   struct sc_tinfo from = operand_scalar(t, sc_arg(t, at, 3));
   if (from.width < 32) {   /* the low bits reversed land in the high ones */
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
      struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         sc_emit(t, ISA_OP_SHR_U, 0, v->comp[i],
                 sc_alu(t, ISA_OP_BITREV, 0, pick(&a, i), sc_none(), sc_none()),
                 sc_imm(32 - from.width), sc_none());
      sc_release(&a);
      return;
   }
   if (!sc_is64(&from)) {
      unop(t, at, ISA_OP_BITREV, ISA_OP_NOP, 0);
      return;
   }
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
   struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
   for (uint32_t i = 0; i < v->n; i++) {
      sc_emit(t, ISA_OP_BITREV, 0, sc_part_of(v->comp[i], 0), sc_part_of(pick(&a, i), 1), sc_none(), sc_none());
      sc_emit(t, ISA_OP_BITREV, 0, sc_part_of(v->comp[i], 1), sc_part_of(pick(&a, i), 0), sc_none(), sc_none());
   }
   sc_release(&a);
}

/* The same on 8- or 16-bit operands, which the view made canonical (zero-
 * extended, sign-extended for OpSMulExtended): the 32-bit sum or product
 * holds both results, the high one from bit `width` up. */
static void narrow_wide_arith(struct sc_tx *t, uint16_t op, uint32_t width, struct sc_opnd x,
                              struct sc_opnd y, struct sc_opnd *lo, struct sc_opnd *hi)
{
   switch (op) {
   case SpvOpIAddCarry:
      *lo = sc_alu(t, ISA_OP_IADD, 0, x, y, sc_none());
      *hi = sc_alu(t, ISA_OP_SHR_U, 0, *lo, sc_imm(width), sc_none());
      return;
   case SpvOpISubBorrow:
      *lo = sc_alu(t, ISA_OP_ISUB, 0, x, y, sc_none());
      *hi = sc_alu(t, ISA_OP_ICMP, ISA_ICMP_LT_U, x, y, sc_none());
      return;
   default:
      *lo = sc_alu(t, ISA_OP_IMUL, 0, x, y, sc_none());
      *hi = sc_alu(t, op == SpvOpSMulExtended ? ISA_OP_SHR_S : ISA_OP_SHR_U, 0, *lo, sc_imm(width),
                   sc_none());
      return;
   }
}

/* OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a struct of
 * two members (low result, then carry/borrow or high half). */
static void wide_arith(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   struct sc_tinfo s = operand_scalar(t, sc_arg(t, at, 3));
   bool wide = sc_is64(&s);
   struct sc_operands a = sc_operand(t, sc_arg(t, at, 3)), b = sc_operand(t, sc_arg(t, at, 4));
   struct sc_opnd out[2 * 16];
   uint32_t n = a.n < 16 ? a.n : 16;
   for (uint32_t i = 0; i < n; i++) {
      struct sc_opnd x = pick(&a, i), y = pick(&b, i), lo, hi;
      if (s.width < 32) {
         narrow_wide_arith(t, op, s.width, x, y, &lo, &hi);
         out[i] = lo;
         out[n + i] = hi;
         continue;
      }
      switch (op) {
      case SpvOpIAddCarry:
      case SpvOpISubBorrow: {
         bool add = op == SpvOpIAddCarry;
         lo = wide ? sc_alu64(t, add ? ISA_OP_IADD64 : ISA_OP_ISUB64, 0, x, y)
                   : sc_alu(t, add ? ISA_OP_IADD : ISA_OP_ISUB, 0, x, y, sc_none());
         /* carry: sum < a; borrow: a < b */
         struct sc_opnd c = wide ? sc_alu(t, ISA_OP_ICMP64, ISA_ICMP_LT_U, add ? lo : x, add ? x : y, sc_none())
                                 : sc_alu(t, ISA_OP_ICMP, ISA_ICMP_LT_U, add ? lo : x, add ? x : y, sc_none());
         hi = c;
         if (wide) {
            hi = sc_reg(sc_new_reg(t, 2, sc_opnd_uniform(t, c)));
            sc_emit(t, ISA_OP_ZEXT64, 0, hi, c, sc_none(), sc_none());
         }
         break;
      }
      default: {
         bool sgn = op == SpvOpSMulExtended;
         lo = wide ? sc_alu64(t, ISA_OP_IMUL64, 0, x, y) : sc_alu(t, ISA_OP_IMUL, 0, x, y, sc_none());
         hi = wide ? sc_alu64(t, sgn ? ISA_OP_IMULHI64_S : ISA_OP_IMULHI64_U, 0, x, y)
                   : sc_alu(t, sgn ? ISA_OP_IMULHI_S : ISA_OP_IMULHI_U, 0, x, y, sc_none());
         break;
      }
      }
      out[i] = lo;
      out[n + i] = hi;
   }
   sc_release(&a);
   sc_release(&b);
   assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), out, 2 * n);
}

/* How a GLSL.std.450 instruction sees 8- and 16-bit operands: the
 * unsigned integer functions zero-extended; the binary16 ones with an
 * instruction of their own as they are; every other one with integers
 * sign-extended (SAbs, SMin, Ldexp's exponent, ...) and binary16 widened. */
static uint32_t glsl_view(uint32_t inst)
{
   switch (inst) {
   case GLSLstd450UMin: case GLSLstd450UMax: case GLSLstd450UClamp: case GLSLstd450FindUMsb:
   case GLSLstd450FindILsb:
      return SC_VIEW_ZEXT;
   case GLSLstd450FAbs: case GLSLstd450Sqrt: case GLSLstd450FMin: case GLSLstd450FMax:
   case GLSLstd450NMin: case GLSLstd450NMax: case GLSLstd450FClamp: case GLSLstd450NClamp:
   case GLSLstd450Fma: case GLSLstd450Radians: case GLSLstd450Degrees:
      return SC_VIEW_RAW;
   default:
      return SC_VIEW_SEXT | SC_VIEW_F32;
   }
}

/* How instruction `at` sees its 8- and 16-bit operands (enum sc_view).
 * Integer operations whose low bits do not depend on the operands' upper
 * bits (add, sub, mul, shifts left, bitwise, negation), moves and
 * conversions that extend for themselves see them as they are, and so do
 * the binary16 operations with an instruction of their own (HADD ... HCMP,
 * subgroup reductions). */
static uint32_t narrow_view(const struct sc_tx *t, uint32_t at, uint16_t op)
{
   switch (op) {
   case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod: case SpvOpShiftRightArithmetic:
   case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual: case SpvOpSLessThan:
   case SpvOpSLessThanEqual: case SpvOpConvertSToF: case SpvOpSMulExtended:
   case SpvOpGroupNonUniformSMin: case SpvOpGroupNonUniformSMax:
      return SC_VIEW_SEXT | SC_VIEW_F32;
   case SpvOpUDiv: case SpvOpUMod: case SpvOpShiftRightLogical: case SpvOpShiftLeftLogical:
   case SpvOpIEqual: case SpvOpINotEqual: case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual:
   case SpvOpULessThan: case SpvOpULessThanEqual: case SpvOpConvertUToF: case SpvOpBitCount:
   case SpvOpBitFieldSExtract: case SpvOpBitFieldUExtract: case SpvOpBitFieldInsert:
   case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended:
   case SpvOpGroupNonUniformUMin: case SpvOpGroupNonUniformUMax:
   case SpvOpGroupNonUniformAllEqual:
      return SC_VIEW_ZEXT | SC_VIEW_F32;
   case SpvOpFRem: case SpvOpFMod: case SpvOpConvertFToU: case SpvOpConvertFToS:
   case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar: case SpvOpDot:
   case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
   case SpvOpOuterProduct:
      return SC_VIEW_F32;
   case SpvOpExtInst:
      return sc_arg(t, at, 3) == t->m->glsl_std_450 ? glsl_view(sc_arg(t, at, 4)) : SC_VIEW_RAW;
   default:
      return SC_VIEW_RAW;
   }
}

/* After an instruction computed on binary16 operands widened to binary32
 * (SC_VIEW_F32): its binary16 results rounded back, as its FPRoundingMode
 * decoration says (conversions), else to nearest even. */
static void narrow_results(struct sc_tx *t, uint32_t id)
{
   struct sc_val *v = &t->vals[id];
   if (v->kind != SC_VAL_REGS)
      return;
   uint32_t type = sc_idp(t, id)->type;
   uint32_t mode = t->m->ids[id].rounding ? t->m->ids[id].rounding - 1u : ISA_RND_RTE;
   for (uint32_t i = 0; i < v->n; i++) {
      struct sc_tinfo s = sc_scalar_at(t, type, i);
      if (s.kind == SC_TK_FLOAT && s.width == 16)
         v->comp[i] = sc_alu(t, ISA_OP_F2H, mode, v->comp[i], sc_none(), sc_none());
   }
}

/* Atomics on 8- and 16-bit integers would need their own memory
 * operations (SPIR-V allows them only with Int16/Int8 atomics
 * extensions, which softgpu does not offer): refused, never run as 32-bit
 * accesses that would touch the neighbours. */
static void check_narrow_atomic(struct sc_tx *t, uint32_t at, uint16_t op, uint32_t id)
{
   if (id && op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor && narrow_type(t, sc_arg(t, at, 1)))
      FAIL("atomic opcode %u on an 8- or 16-bit integer is not supported", op);
   if (op == SpvOpAtomicStore && sc_len(t->m, at) > 4 &&
       narrow_type(t, sc_idp(t, sc_arg(t, at, 4))->type))
      FAIL("atomic store of an 8- or 16-bit integer is not supported");
}

/* Whether `id` is a binary64 value (or vector or matrix of them). */
static bool is_double(const struct sc_tx *t, uint32_t id)
{
   if (id == 0 || id >= t->m->bound || !t->m->ids[id].def)
      return false;
   uint32_t type = t->m->ids[id].opcode == SpvOpTypeFloat || t->m->ids[id].opcode == SpvOpTypeVector ||
                         t->m->ids[id].opcode == SpvOpTypeMatrix
                      ? id
                      : t->m->ids[id].type;
   if (type == 0 || type >= t->m->bound || !t->m->ids[type].def)
      return false;
   struct sc_tinfo ti = sc_type_of(t, type);
   while (ti.kind == SC_TK_VECTOR || ti.kind == SC_TK_MATRIX)
      ti = sc_type_of(t, ti.elem);
   return ti.kind == SC_TK_FLOAT && ti.width == 64;
}

/* Whether instruction `at` computes on binary64 values with the
 * translator's float code (t->fp64): float arithmetic, comparisons,
 * GLSL.std.450 and products whose result or first operand is a double.
 * Conversions, moves and subgroup instructions name their widths
 * themselves. */
static bool fp64_instruction(const struct sc_tx *t, uint32_t at, uint16_t op)
{
   uint32_t len = sc_len(t->m, at);
   switch (op) {
   case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv: case SpvOpFRem: case SpvOpFMod:
   case SpvOpFNegate: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar: case SpvOpDot:
   case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix:
   case SpvOpOuterProduct:
      return is_double(t, sc_arg(t, at, 1));
   case SpvOpExtInst:
      return sc_arg(t, at, 3) == t->m->glsl_std_450 &&
             (is_double(t, sc_arg(t, at, 1)) || (len > 5 && is_double(t, sc_arg(t, at, 5))));
   default:
      if (op >= SpvOpFOrdEqual && op <= SpvOpFUnordGreaterThanEqual)
         return len > 3 && is_double(t, sc_arg(t, at, 3));
      if (op == SpvOpIsNan || op == SpvOpIsInf || op == SpvOpOrdered || op == SpvOpUnordered)
         return len > 3 && is_double(t, sc_arg(t, at, 3));
      return false;
   }
}

static void dispatch(struct sc_tx *t, uint32_t at, uint16_t op, uint32_t id);

void sc_instruction(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   uint32_t id = sc_result_id(t, at);
   t->exact = id && t->m->ids[id].no_contraction;
   sc_work(t, 1);
   check_narrow_atomic(t, at, op, id);
   t->view = (uint8_t)narrow_view(t, at, op);
   t->fp64 = fp64_instruction(t, at, op);
   dispatch(t, at, op, id);
   t->fp64 = false;
   if ((t->view & SC_VIEW_F32) && id)
      narrow_results(t, id);
   t->view = SC_VIEW_RAW;
}

static void dispatch(struct sc_tx *t, uint32_t at, uint16_t op, uint32_t id)
{
   switch (op) {
   case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge:
   case SpvOpPhi: case SpvOpLabel: case SpvOpFunction: case SpvOpFunctionParameter:
      return;
   case SpvOpUndef:
      /* "Make an intermediate object whose value is undefined" (SPIR-V
       * 3.42.2): inside a function as at global scope, sc_get() makes it
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
      if (sc_val_at(t, sc_arg(t, at, 3))->kind == SC_VAL_PTR) {
         struct ptr p = pointer_of(t, sc_arg(t, at, 3));
         *ptr_new(t, sc_arg(t, at, 2)) = p;
         return;
      }
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
      assign(t, sc_arg(t, at, 2), sc_arg(t, at, 1), a.c, a.n);
      sc_release(&a);
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
      struct sc_tinfo s = operand_scalar(t, sc_arg(t, at, 3));
      if (!sc_is64(&s)) {
         unop(t, at, ISA_OP_INEG, ISA_OP_NOP, 0);
         return;
      }
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
      struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         sc_emit(t, ISA_OP_ISUB64, 0, v->comp[i], sc_pair64(t, 0), pick(&a, i), sc_none());
      sc_release(&a);
      return;
   }
   case SpvOpFAdd: binop(t, at, ISA_OP_FADD, ISA_OP_FADD, 0); return;
   case SpvOpFSub: binop(t, at, ISA_OP_FSUB, ISA_OP_FSUB, 0); return;
   case SpvOpFMul: binop(t, at, ISA_OP_FMUL, ISA_OP_FMUL, 0); return;
   case SpvOpFDiv: binop(t, at, ISA_OP_FDIV, ISA_OP_FDIV, 0); return;
   case SpvOpFRem:
      if (t->fp64) {
         float_rem64(t, at);
         return;
      }
      binop(t, at, ISA_OP_FMATH2, ISA_OP_NOP, ISA_FM_FMOD);
      return;
   case SpvOpFMod: {   /* x - y * floor(x / y) */
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3)), b = sc_operand(t, sc_arg(t, at, 4));
      struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++) {
         struct sc_opnd q = sc_alu(t, ISA_OP_FFLOOR, 0,
                                sc_alu(t, ISA_OP_FDIV, 0, pick(&a, i), pick(&b, i), sc_none()), sc_none(), sc_none());
         sc_emit(t, ISA_OP_FSUB, 0, v->comp[i], pick(&a, i),
              sc_alu(t, ISA_OP_FMUL, 0, pick(&b, i), q, sc_none()), sc_none());
      }
      sc_release(&a);
      sc_release(&b);
      return;
   }
   case SpvOpFNegate: unop(t, at, ISA_OP_FNEG, ISA_OP_FNEG, 0); return;
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
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3)), off = sc_operand(t, sc_arg(t, at, 4)),
                      cnt = sc_operand(t, sc_arg(t, at, 5));
      struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         sc_emit(t, op == SpvOpBitFieldSExtract ? ISA_OP_BFE_S : ISA_OP_BFE_U, 0, v->comp[i],
              pick(&a, i), off.c[0], cnt.c[0]);
      sc_release(&a);
      sc_release(&off);
      sc_release(&cnt);
      return;
   }
   case SpvOpBitFieldInsert: {
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3)), b = sc_operand(t, sc_arg(t, at, 4)),
                      off = sc_operand(t, sc_arg(t, at, 5)), cnt = sc_operand(t, sc_arg(t, at, 6));
      struct sc_opnd packed = sc_alu(t, ISA_OP_OR, 0, sc_alu(t, ISA_OP_AND, 0, off.c[0], sc_imm(255), sc_none()),
                                  sc_alu(t, ISA_OP_SHL, 0, cnt.c[0], sc_imm(8), sc_none()), sc_none());
      struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         sc_emit(t, ISA_OP_BFI, 0, v->comp[i], pick(&a, i), pick(&b, i), packed);
      sc_release(&a);
      sc_release(&b);
      sc_release(&off);
      sc_release(&cnt);
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
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
      struct sc_val *v = sc_result(t, sc_arg(t, at, 2), sc_arg(t, at, 1));
      for (uint32_t i = 0; i < v->n; i++)
         sc_emit(t, ISA_OP_XOR, 0, v->comp[i], a.c[i], sc_imm(1), sc_none());
      sc_release(&a);
      return;
   }
   case SpvOpAny:
   case SpvOpAll: {
      /* OpAny: "true if any component of Vector is true"; OpAll: "if all
       * components are true" (SPIR-V 3.42.15, Relational and Logical
       * Instructions). Booleans are 0 or 1: OR or AND them. */
      struct sc_operands a = sc_operand(t, sc_arg(t, at, 3));
      enum isa_op fold_op = sc_op(t->m, at) == SpvOpAny ? ISA_OP_OR : ISA_OP_AND;
      struct sc_opnd r = a.n ? a.c[0] : sc_imm(0);
      for (uint32_t i = 1; i < a.n; i++)
         r = sc_alu(t, fold_op, 0, r, a.c[i], sc_none());
      sc_release(&a);
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
   case SpvOpFConvert: float_convert(t, at); return;
   case SpvOpBitcast: bitcast(t, at); return;
   case SpvOpConvertUToPtr:
   case SpvOpConvertPtrToU: {
      uint32_t src = sc_arg(t, at, 3);
      struct sc_opnd a;
      if (sc_val_at(t, src)->kind == SC_VAL_PTR) {
         struct ptr p = pointer_of(t, src);
         a = pointer_address(t, &p);
      } else {
         a = sc_get1(t, src, 0);
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
   case SpvOpAtomicXor: case SpvOpAtomicFAddEXT:
      atomic(t, at);
      return;
   case SpvOpControlBarrier: control_barrier(t, at); return;
   case SpvOpMemoryBarrier: {
      uint32_t semantics = SpvMemorySemanticsSequentiallyConsistentMask;
      sc_const_u32(t, sc_arg(t, at, 2), &semantics);
      if (needs_membar(t, sc_arg(t, at, 1), semantics))
         sc_emit(t, ISA_OP_MEMBAR, 0, sc_none(), sc_none(), sc_none(), sc_none());
      return;
   }
   default:
      if (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformLogicalXor) {
         subgroup(t, at);
         return;
      }
      if (op == SpvOpReadClockKHR) {
         read_clock(t, at);
         return;
      }
      if (op >= SpvOpSDot && op <= SpvOpSUDotAccSat) {
         sc_integer_dot(t, at);
         return;
      }
      if (op == SpvOpGroupNonUniformQuadBroadcast || op == SpvOpGroupNonUniformQuadSwap) {
         quad(t, at, op);
         return;
      }
      if (op == SpvOpFunctionCall)
         FAIL("function calls remain after inlining (recursion is not allowed in Vulkan)");
      FAIL("unsupported SPIR-V instruction (opcode %u)", op);
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
         sc_instruction(t, at);
   }
}

/* Global variables the function uses, so their descriptors are loaded
 * once at the start (dominating every use). */
static void prologue(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   t->root = sc_reg(sc_new_reg(t, 2, true));
   sc_emit(t, ISA_OP_S2R, ISA_SR_ROOT_LO, sc_part_of(t->root, 0), sc_none(), sc_none(), sc_none());
   sc_emit(t, ISA_OP_S2R, ISA_SR_ROOT_HI, sc_part_of(t->root, 1), sc_none(), sc_none(), sc_none());
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
   for (uint32_t i = 0; t->counted && i < t->block_count; i++)
      free(t->counted[i]);
   free(t->counted);
}

void sc_translate(const struct sc_module *m, const struct sc_options *o,
                  const uint32_t local_size[3], struct sc_mir *mir, struct sc_error *e)
{
   struct sc_tx t = {.m = m, .o = o, .local_size = local_size, .mir = mir, .e = e};
   memset(mir, 0, sizeof(*mir));
   t.vals = calloc(m->bound, sizeof(*t.vals));
   if (!t.vals)
      sc_fail(e, "out of memory");
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
   /* The passes over the SPIR-V, analyses first (see sc_tx.h). */
   sc_find_blocks(&t);
   sc_find_promotable(&t);
   sc_cfg_build(&t);
   sc_divergence(&t);
   sc_find_counted_loops(&t);
   sc_lower_init(&t);
   t.exit_label = sc_new_label(&t);
   prologue(&t);
   sc_region(&t, t.blocks[0].label, UINT32_MAX);
   sc_place_label(&t, t.exit_label);
   sc_emit(&t, ISA_OP_EXIT, 0, sc_none(), sc_none(), sc_none(), sc_none());
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
