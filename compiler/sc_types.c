/*
 * The module's types as the translator sees them: scalars, composites and
 * pointers, how many scalar components a value of a type has in registers,
 * and constants read at compile time.
 */
#include "sc_tx.h"

const struct sc_id *sc_idp(const struct sc_tx *t, uint32_t id)
{
   if (id == 0 || id >= t->m->bound || !t->m->ids[id].def)
      FAIL("invalid SPIR-V: id %u is not defined", id);
   return &t->m->ids[id];
}

struct sc_tinfo sc_type_of(const struct sc_tx *t, uint32_t type)
{
   const struct sc_id *d = sc_idp(t, type);
   struct sc_tinfo ti = {.kind = SC_TK_OTHER, .id = type};
   uint32_t at = d->def;
   switch (d->opcode) {
   case SpvOpTypeVoid: ti.kind = SC_TK_VOID; break;
   case SpvOpTypeBool: ti.kind = SC_TK_BOOL; ti.width = 32; break;
   case SpvOpTypeInt:
      ti.kind = SC_TK_INT;
      ti.width = sc_arg(t, at, 2);
      ti.is_signed = sc_arg(t, at, 3) != 0;
      if (ti.width != 8 && ti.width != 16 && ti.width != 32 && ti.width != 64)
         FAIL("unsupported %u-bit integers", ti.width);
      break;
   case SpvOpTypeFloat:
      ti.kind = SC_TK_FLOAT;
      ti.width = sc_arg(t, at, 2);
      if (ti.width != 16 && ti.width != 32 && ti.width != 64)
         FAIL("unsupported %u-bit floats", ti.width);
      break;
   case SpvOpTypeVector:
   case SpvOpTypeMatrix:
      ti.kind = d->opcode == SpvOpTypeVector ? SC_TK_VECTOR : SC_TK_MATRIX;
      ti.elem = sc_arg(t, at, 2);
      ti.count = sc_arg(t, at, 3);
      if (ti.count == 0 || ti.count > 16)
         FAIL("invalid SPIR-V: %u-element vector", ti.count);
      break;
   case SpvOpTypeArray: {
      ti.kind = SC_TK_ARRAY;
      ti.elem = sc_arg(t, at, 2);
      const struct sc_id *len = sc_idp(t, sc_arg(t, at, 3));
      if (len->opcode != SpvOpConstant)
         FAIL("array length is not a constant (specialization failed?)");
      ti.count = sc_arg(t, len->def, 3);
      break;
   }
   case SpvOpTypeRuntimeArray: ti.kind = SC_TK_RARRAY; ti.elem = sc_arg(t, at, 2); break;
   case SpvOpTypeStruct: ti.kind = SC_TK_STRUCT; ti.count = sc_len(t->m, at) - 2; break;
   case SpvOpTypePointer:
   case SpvOpTypeForwardPointer:
      ti.kind = SC_TK_POINTER;
      ti.storage = sc_arg(t, at, 2);
      ti.elem = sc_arg(t, at, 3);
      break;
   default: break;
   }
   return ti;
}

uint32_t sc_struct_member(const struct sc_tx *t, uint32_t type, uint32_t i)
{
   const struct sc_id *d = sc_idp(t, type);
   return sc_arg(t, d->def, 2 + i);
}

/* Scalar components of a type held in registers. */
uint32_t sc_components(const struct sc_tx *t, uint32_t type)
{
   struct sc_tinfo ti = sc_type_of(t, type);
   switch (ti.kind) {
   case SC_TK_BOOL: case SC_TK_INT: case SC_TK_FLOAT: case SC_TK_POINTER: return 1;
   case SC_TK_VECTOR: case SC_TK_MATRIX: case SC_TK_ARRAY: {
      uint64_t n = (uint64_t)ti.count * sc_components(t, ti.elem);
      if (n > SC_MAX_COMPONENTS)
         FAIL("a value of %llu components is too large to keep in registers", (unsigned long long)n);
      return (uint32_t)n;
   }
   case SC_TK_STRUCT: {
      uint32_t n = 0;
      for (uint32_t i = 0; i < ti.count; i++)
         n += sc_components(t, sc_struct_member(t, type, i));
      if (n > SC_MAX_COMPONENTS)
         FAIL("a value of %u components is too large to keep in registers", n);
      return n;
   }
   case SC_TK_VOID: return 0;
   default: FAIL("unsupported type (opcode %u) in a register value", sc_idp(t, type)->opcode);
   }
}

/* The scalar type of component i of a type (its 32/64-bit width matters). */
struct sc_tinfo sc_scalar_at(const struct sc_tx *t, uint32_t type, uint32_t i)
{
   struct sc_tinfo ti = sc_type_of(t, type);
   switch (ti.kind) {
   case SC_TK_VECTOR: case SC_TK_MATRIX: case SC_TK_ARRAY: {
      uint32_t per = sc_components(t, ti.elem);
      return sc_scalar_at(t, ti.elem, i % per);
   }
   case SC_TK_STRUCT:
      for (uint32_t k = 0; k < ti.count; k++) {
         uint32_t mt = sc_struct_member(t, type, k), n = sc_components(t, mt);
         if (i < n)
            return sc_scalar_at(t, mt, i);
         i -= n;
      }
      FAIL("component out of range");
   default: return ti;
   }
}

bool sc_is64(const struct sc_tinfo *ti)
{
   return ti->width == 64 || ti->kind == SC_TK_POINTER;
}

/* A constant's value if it is a 32-bit scalar constant. */
bool sc_const_u32(const struct sc_tx *t, uint32_t id, uint32_t *value)
{
   const struct sc_id *d = sc_idp(t, id);
   if (d->opcode == SpvOpConstant && sc_len(t->m, d->def) == 4) {
      *value = t->m->words[d->def + 3];
      return true;
   }
   return false;
}

/* An index's value if it is a constant below 2^32: access chains index
 * with integers of either width ("Indexes ... must be scalar integer
 * types", SPIR-V 3.42.8, OpAccessChain). */
bool sc_const_index(const struct sc_tx *t, uint32_t id, uint32_t *value)
{
   const struct sc_id *d = sc_idp(t, id);
   if (d->opcode == SpvOpConstant && sc_len(t->m, d->def) == 5 && t->m->words[d->def + 4] == 0) {
      *value = t->m->words[d->def + 3];
      return true;
   }
   return sc_const_u32(t, id, value);
}

/* Scalars in a value of `type`, or UINT32_MAX if more than `limit` or not
 * kept in registers. */
uint32_t sc_flat_size(const struct sc_tx *t, uint32_t type, uint32_t limit, int depth)
{
   if (depth > 16 || type >= t->m->bound)
      return UINT32_MAX;
   struct sc_tinfo ti = sc_type_of(t, type);
   uint64_t n = 0;
   switch (ti.kind) {
   case SC_TK_BOOL: case SC_TK_INT: case SC_TK_FLOAT: return 1;
   case SC_TK_VECTOR: case SC_TK_MATRIX: case SC_TK_ARRAY: {
      uint32_t e = sc_flat_size(t, ti.elem, limit, depth + 1);
      n = e == UINT32_MAX ? UINT64_MAX : (uint64_t)ti.count * e;
      break;
   }
   case SC_TK_STRUCT:
      for (uint32_t i = 0; i < ti.count && n <= limit; i++) {
         uint32_t e = sc_flat_size(t, sc_struct_member(t, type, i), limit, depth + 1);
         n = e == UINT32_MAX ? UINT64_MAX : n + e;
      }
      break;
   default: return UINT32_MAX;
   }
   return n > limit ? UINT32_MAX : (uint32_t)n;
}

/* Whether an access chain's indices are all constants. */
bool sc_constant_chain(const struct sc_tx *t, uint32_t at)
{
   for (uint32_t k = 4; k < sc_len(t->m, at); k++) {
      uint32_t c;
      if (!sc_const_index(t, sc_arg(t, at, k), &c))
         return false;
   }
   return true;
}
