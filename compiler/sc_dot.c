/*
 * Integer dot products (SPV_KHR_integer_dot_product): OpSDot, OpUDot,
 * OpSUDot and their accumulating-saturating forms, on vectors of integers
 * of any width and on four 8-bit integers packed in a 32-bit word
 * (PackedVectorFormat4x8Bit).
 *
 * The extension's definitions: without saturation the result is "the
 * low-order N bits of the correct result R" (N the result's width, R
 * computed without overflow); with it, R is added to the accumulator with
 * a saturating add in the result's range, signed for OpSDotAccSat and
 * OpSUDotAccSat, unsigned for OpUDotAccSat. Packed operands with a 32-bit
 * result are one IDP4 (its modifier names the signedness, ISA_DP4_SAT the
 * saturation); everything else is computed on register pairs: the low
 * bits from 64-bit multiplies and adds, and the saturating forms from an
 * exact 128-bit sum (IMULHI64 for 64-bit elements) clamped at the end.
 */
#include "sc_tx.h"

static struct sc_opnd extend64(struct sc_tx *t, struct sc_opnd x, bool is_signed)
{
   return sc_alu64(t, is_signed ? ISA_OP_SEXT64 : ISA_OP_ZEXT64, 0, x, sc_none());
}

/* Element i of operand id as a 64-bit pair, extended from its width
 * (written to *width); byte i of the word when packed. */
static struct sc_opnd element64(struct sc_tx *t, uint32_t id, uint32_t i, bool packed, bool is_signed,
                                uint32_t *width)
{
   if (packed) {
      *width = 8;
      struct sc_opnd b = sc_alu(t, is_signed ? ISA_OP_BFE_S : ISA_OP_BFE_U, 0, sc_get1(t, id, 0),
                                sc_imm(8 * i), sc_imm(8));
      return extend64(t, b, is_signed);
   }
   struct sc_tinfo s = sc_scalar_at(t, sc_idp(t, id)->type, i);
   *width = s.width;
   if (s.width == 64)
      return sc_get1(t, id, i);
   return extend64(t, sc_get_extended(t, id, i, is_signed), is_signed);
}

/* A 64-bit select, half by half. */
static struct sc_opnd select64(struct sc_tx *t, struct sc_opnd c, struct sc_opnd a, struct sc_opnd b)
{
   struct sc_opnd d = sc_reg(sc_new_reg(t, 2, sc_opnd_uniform(t, c) && sc_opnd_uniform(t, a) &&
                                                   sc_opnd_uniform(t, b)));
   for (uint32_t h = 0; h < 2; h++)
      sc_emit(t, ISA_OP_SEL, 0, sc_part_of(d, h), c, sc_part_of(a, h), sc_part_of(b, h));
   return d;
}

/* (hi, lo) += (phi, plo), 128 bits. */
static void add128(struct sc_tx *t, struct sc_opnd *hi, struct sc_opnd *lo, struct sc_opnd phi,
                   struct sc_opnd plo)
{
   struct sc_opnd sum = sc_alu64(t, ISA_OP_IADD64, 0, *lo, plo);
   struct sc_opnd carry = sc_reg(sc_new_reg(t, 1, sc_opnd_uniform(t, sum) && sc_opnd_uniform(t, *lo)));
   sc_emit(t, ISA_OP_ICMP64, ISA_ICMP_LT_U, carry, sum, *lo, sc_none());
   *hi = sc_alu64(t, ISA_OP_IADD64, 0, sc_alu64(t, ISA_OP_IADD64, 0, *hi, phi), extend64(t, carry, false));
   *lo = sum;
}

/* The high 64 bits of x * y (64-bit elements): a signed x times an
 * unsigned y is the unsigned high product less y where x is negative. */
static struct sc_opnd high64(struct sc_tx *t, struct sc_opnd x, struct sc_opnd y, bool sx, bool sy)
{
   if (sx == sy)
      return sc_alu64(t, sx ? ISA_OP_IMULHI64_S : ISA_OP_IMULHI64_U, 0, x, y);
   struct sc_opnd h = sc_alu64(t, ISA_OP_IMULHI64_U, 0, x, y);
   struct sc_opnd neg = sc_reg(sc_new_reg(t, 1, sc_opnd_uniform(t, x)));
   sc_emit(t, ISA_OP_ICMP64, ISA_ICMP_LT_S, neg, x, sc_pair64(t, 0), sc_none());
   return sc_alu64(t, ISA_OP_ISUB64, 0, h, select64(t, neg, y, sc_pair64(t, 0)));
}

/* The 128-bit value (hi, lo) clamped to the range of a `width`-bit
 * integer, signed or not, as a 64-bit pair. */
static struct sc_opnd saturate(struct sc_tx *t, struct sc_opnd hi, struct sc_opnd lo, uint32_t width,
                               bool is_signed)
{
   uint64_t max = is_signed ? (width == 64 ? INT64_MAX : (1ull << (width - 1)) - 1)
                            : (width == 64 ? UINT64_MAX : (1ull << width) - 1);
   uint64_t min = is_signed ? (uint64_t)-(int64_t)max - 1 : 0;
   bool u = sc_opnd_uniform(t, hi) && sc_opnd_uniform(t, lo);
   struct sc_opnd fits = sc_reg(sc_new_reg(t, 1, u)), neg = sc_reg(sc_new_reg(t, 1, u));
   /* Within 64 bits: hi is lo's sign (signed) or zero (unsigned). */
   struct sc_opnd ext = is_signed ? sc_alu64(t, ISA_OP_SHR64_S, 0, lo, sc_imm(63)) : sc_pair64(t, 0);
   sc_emit(t, ISA_OP_ICMP64, ISA_ICMP_EQ, fits, hi, ext, sc_none());
   sc_emit(t, ISA_OP_ICMP64, ISA_ICMP_LT_S, neg, hi, sc_pair64(t, 0), sc_none());
   struct sc_opnd in = lo;
   if (width < 64) {
      in = sc_alu64(t, is_signed ? ISA_OP_IMIN64_S : ISA_OP_IMIN64_U, 0, lo, sc_pair64(t, max));
      if (is_signed)
         in = sc_alu64(t, ISA_OP_IMAX64_S, 0, in, sc_pair64(t, min));
   }
   struct sc_opnd out = select64(t, neg, sc_pair64(t, min), sc_pair64(t, max));
   return select64(t, fits, in, out);
}

void sc_integer_dot(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   bool sat = op >= SpvOpSDotAccSat;
   uint16_t base = sat ? (uint16_t)(op - 3) : op;
   bool sa = base != SpvOpUDot, sb = base == SpvOpSDot, signed_result = base != SpvOpUDot;
   uint32_t type = sc_arg(t, at, 1), id = sc_arg(t, at, 2), v1 = sc_arg(t, at, 3), v2 = sc_arg(t, at, 4);
   bool packed = sc_len(t->m, at) > (sat ? 6u : 5u);   /* the PackedVectorFormat operand */
   struct sc_tinfo r = sc_scalar_at(t, type, 0);
   struct sc_val *v = sc_result(t, id, type);
   if (packed && r.width == 32) {
      uint32_t mod = sa && sb ? ISA_DP4_SS : !sa ? ISA_DP4_UU : ISA_DP4_SU;
      sc_emit(t, ISA_OP_IDP4, sat ? mod | ISA_DP4_SAT : mod, v->comp[0], sc_get1(t, v1, 0),
              sc_get1(t, v2, 0), sat ? sc_get1(t, sc_arg(t, at, 5), 0) : sc_none());
      return;
   }
   uint32_t n = packed ? 4 : sc_components(t, sc_idp(t, v1)->type);
   struct sc_opnd lo = sc_pair64(t, 0), hi = sc_pair64(t, 0);
   for (uint32_t i = 0; i < n; i++) {
      uint32_t width;
      struct sc_opnd x = element64(t, v1, i, packed, sa, &width);
      struct sc_opnd y = element64(t, v2, i, packed, sb, &width);
      struct sc_opnd plo = sc_alu64(t, ISA_OP_IMUL64, 0, x, y);
      if (!sat) {
         lo = sc_alu64(t, ISA_OP_IADD64, 0, lo, plo);
         continue;
      }
      /* Up to 32-bit elements the product fits in 64 bits (signed unless
       * both are unsigned): its high half is its sign. */
      struct sc_opnd phi = width == 64 ? high64(t, x, y, sa, sb)
                           : sa || sb  ? sc_alu64(t, ISA_OP_SHR64_S, 0, plo, sc_imm(63))
                                       : sc_pair64(t, 0);
      add128(t, &hi, &lo, phi, plo);
   }
   if (sat) {
      uint32_t width;
      struct sc_opnd acc = element64(t, sc_arg(t, at, 5), 0, false, signed_result, &width);
      add128(t, &hi, &lo,
             signed_result ? sc_alu64(t, ISA_OP_SHR64_S, 0, acc, sc_imm(63)) : sc_pair64(t, 0), acc);
      lo = saturate(t, hi, lo, r.width, signed_result);
   }
   if (r.width == 64)
      sc_copy_scalar(t, v->comp[0], lo, true);
   else
      sc_emit(t, ISA_OP_MOV, 0, v->comp[0], sc_part_of(lo, 0), sc_none(), sc_none());
}
