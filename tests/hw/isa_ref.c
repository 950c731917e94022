#include "isa_ref.h"

#include <ctype.h>
#include <float.h>
#include <math.h>

const char *const isa_form_names[FORM_COUNT] = {"vector", "uniform b", "immediate b",
                                                "immediate a/c", "uniform dst",
                                                "uniform dst+srcs", "dst=a"};

/* ---- the case table ---------------------------------------------------------------- */

static bool float_source(enum isa_op op, uint32_t mod, int which)
{
   switch (op) {
   case ISA_OP_FADD: case ISA_OP_FSUB: case ISA_OP_FMUL: case ISA_OP_FFMA: case ISA_OP_FDIV:
   case ISA_OP_FMIN: case ISA_OP_FMAX: case ISA_OP_FNEG: case ISA_OP_FABS: case ISA_OP_FFLOOR:
   case ISA_OP_FCEIL: case ISA_OP_FTRUNC: case ISA_OP_FRINT: case ISA_OP_FROUND:
   case ISA_OP_FFRACT: case ISA_OP_FSQRT: case ISA_OP_FRSQ: case ISA_OP_FSIGN:
   case ISA_OP_FMATH1: case ISA_OP_FCMP: case ISA_OP_F2I_S: case ISA_OP_F2I_U:
   case ISA_OP_F2H: case ISA_OP_F2I64_S: case ISA_OP_F2I64_U: case ISA_OP_F2D:
      return true;
   case ISA_OP_FMATH2:
      return !(mod == ISA_FM_LDEXP && which == 1);
   default:
      return false;
   }
}

/* A binary64 source (a register pair). */
static bool double_source(enum isa_op op, int which)
{
   switch (op) {
   case ISA_OP_DADD: case ISA_OP_DSUB: case ISA_OP_DMUL: case ISA_OP_DFMA: case ISA_OP_DDIV:
   case ISA_OP_DMIN: case ISA_OP_DMAX: case ISA_OP_DNEG: case ISA_OP_DABS: case ISA_OP_DFLOOR:
   case ISA_OP_DCEIL: case ISA_OP_DTRUNC: case ISA_OP_DRINT: case ISA_OP_DROUND:
   case ISA_OP_DFRACT: case ISA_OP_DSQRT: case ISA_OP_DRSQ: case ISA_OP_DSIGN: case ISA_OP_DCMP:
   case ISA_OP_D2F: case ISA_OP_D2H: case ISA_OP_D2I_S: case ISA_OP_D2I_U:
   case ISA_OP_D2I64_S: case ISA_OP_D2I64_U:
      return true;
   case ISA_OP_DLDEXP:
      return which == 0;
   default:
      return false;
   }
}

/* A binary16 source (bits 0-15 of a register). */
static bool half_source(enum isa_op op)
{
   switch (op) {
   case ISA_OP_HADD: case ISA_OP_HSUB: case ISA_OP_HMUL: case ISA_OP_HDIV: case ISA_OP_HFMA:
   case ISA_OP_HSQRT: case ISA_OP_HMIN: case ISA_OP_HMAX: case ISA_OP_HCMP: case ISA_OP_H2F:
      return true;
   default:
      return false;
   }
}

static bool float_result(enum isa_op op)
{
   switch (op) {
   case ISA_OP_FADD: case ISA_OP_FSUB: case ISA_OP_FMUL: case ISA_OP_FFMA: case ISA_OP_FDIV:
   case ISA_OP_FMIN: case ISA_OP_FMAX: case ISA_OP_FFLOOR: case ISA_OP_FCEIL:
   case ISA_OP_FTRUNC: case ISA_OP_FRINT: case ISA_OP_FROUND: case ISA_OP_FFRACT:
   case ISA_OP_FSQRT: case ISA_OP_FRSQ: case ISA_OP_FSIGN: case ISA_OP_H2F: case ISA_OP_D2F:
      return true;
   default:
      return false;
   }
}

static bool double_result(enum isa_op op)
{
   switch (op) {
   case ISA_OP_DADD: case ISA_OP_DSUB: case ISA_OP_DMUL: case ISA_OP_DFMA: case ISA_OP_DDIV:
   case ISA_OP_DMIN: case ISA_OP_DMAX: case ISA_OP_DNEG: case ISA_OP_DABS: case ISA_OP_DFLOOR:
   case ISA_OP_DCEIL: case ISA_OP_DTRUNC: case ISA_OP_DRINT: case ISA_OP_DROUND:
   case ISA_OP_DFRACT: case ISA_OP_DSQRT: case ISA_OP_DRSQ: case ISA_OP_DSIGN:
   case ISA_OP_DLDEXP: case ISA_OP_F2D: case ISA_OP_I2D_S: case ISA_OP_I2D_U:
   case ISA_OP_I642D_S: case ISA_OP_I642D_U:
      return true;
   default:
      return false;
   }
}

static bool half_result(enum isa_op op)
{
   switch (op) {
   case ISA_OP_HADD: case ISA_OP_HSUB: case ISA_OP_HMUL: case ISA_OP_HDIV: case ISA_OP_HFMA:
   case ISA_OP_HSQRT: case ISA_OP_HMIN: case ISA_OP_HMAX: case ISA_OP_F2H: case ISA_OP_D2H:
      return true;
   default:
      return false;
   }
}

/* Which operands of an ALU64 instruction are 32-bit registers rather than
 * pairs (which: 0 dst, 1..3 a..c), written out here from hw_isa.h's
 * comments rather than taken from isa_operand_span, which the table
 * checks. */
static bool alu64_narrow(enum isa_op op, int which)
{
   switch (op) {
   case ISA_OP_SEXT64: case ISA_OP_ZEXT64: case ISA_OP_F2I64_S: case ISA_OP_F2I64_U:
   case ISA_OP_F2D: case ISA_OP_I2D_S: case ISA_OP_I2D_U:
      return which == 1;
   case ISA_OP_SHL64: case ISA_OP_SHR64_U: case ISA_OP_SHR64_S: case ISA_OP_DLDEXP:
      return which == 2;
   case ISA_OP_ICMP64: case ISA_OP_I2F64_S: case ISA_OP_I2F64_U: case ISA_OP_DCMP:
   case ISA_OP_D2F: case ISA_OP_D2H: case ISA_OP_D2I_S: case ISA_OP_D2I_U:
      return which == 0;
   default:
      return false;
   }
}

static void add_case(struct isa_case *out, uint32_t *n, uint32_t cap, enum isa_op op,
                     uint32_t mod)
{
   HWT_REQUIRE(*n < cap, "too many ALU cases");
   struct isa_case *k = &out[(*n)++];
   memset(k, 0, sizeof(*k));
   k->op = op;
   k->mod = mod;
   k->nsrc = isa_op_info[op].sources;
   /* The mnemonic as the disassembler writes it. */
   struct isa_inst in = {.op = (uint16_t)op, .dst = ISA_NONE, .a = ISA_NONE, .b = ISA_NONE,
                         .c = ISA_NONE, .mod = (uint16_t)mod};
   char text[64];
   isa_disassemble(&in, text, sizeof(text));
   snprintf(k->mnemonic, sizeof(k->mnemonic), "%.31s", text);
   if (isa_op_info[op].cls == ISA_CLASS_ALU64) {
      /* Pairs, except for the 32-bit operands alu64_narrow names. */
      for (int s = 0; s < k->nsrc; s++)
         k->src64[s] = !alu64_narrow(op, s + 1);
      k->dst64 = !alu64_narrow(op, 0);
   }
   /* The table's shapes are isa_operand_span's. */
   for (int w = 0; w < 4; w++) {
      bool wide = w == 0 ? k->dst64 : w <= k->nsrc && k->src64[w - 1];
      HWT_CHECK(w > k->nsrc || isa_operand_span(op, (uint16_t)mod, w) == (wide ? 2u : 1u),
                "%s: operand %d spans %u registers, expected %u", k->mnemonic, w,
                isa_operand_span(op, (uint16_t)mod, w), wide ? 2u : 1u);
   }
   k->cmp = (op == ISA_OP_FMATH1 || op == ISA_OP_FMATH2) ? REF_FMATH
            : half_result(op)                            ? REF_HALF
            : float_result(op)                           ? REF_FLOAT
            : double_result(op)                          ? REF_DOUBLE
                                                         : REF_EXACT;
}

uint32_t isa_cases(struct isa_case *out, uint32_t cap)
{
   uint32_t n = 0;
   for (uint32_t op = 0; op < ISA_OP_COUNT; op++) {
      enum isa_class cls = isa_op_info[op].cls;
      if (cls != ISA_CLASS_ALU && cls != ISA_CLASS_ALU64)
         continue;
      uint32_t mods = 1;
      if (op == ISA_OP_ICMP || op == ISA_OP_ICMP64)
         mods = ISA_ICMP_COUNT;
      else if (op == ISA_OP_FCMP || op == ISA_OP_DCMP || op == ISA_OP_HCMP)
         mods = ISA_FCMP_COUNT;
      else if (op == ISA_OP_F2H || op == ISA_OP_D2F || op == ISA_OP_D2H)
         mods = ISA_RND_COUNT;
      for (uint32_t m = 0; m < mods; m++) {
         if (op == ISA_OP_IDP4) {   /* every signedness, wrapping and saturating */
            for (uint32_t sg = 0; sg < ISA_DP4_COUNT; sg++) {
               add_case(out, &n, cap, (enum isa_op)op, sg);
               add_case(out, &n, cap, (enum isa_op)op, sg | ISA_DP4_SAT);
            }
            break;
         }
         if (op == ISA_OP_FMATH1) {
            for (uint32_t f = 0; f < ISA_FM_ATAN2; f++)
               add_case(out, &n, cap, (enum isa_op)op, f);
            break;
         }
         if (op == ISA_OP_FMATH2) {
            for (uint32_t f = ISA_FM_ATAN2; f < ISA_FM_COUNT; f++)
               add_case(out, &n, cap, (enum isa_op)op, f);
            break;
         }
         add_case(out, &n, cap, (enum isa_op)op, m);
      }
   }
   /* An opcode this file has no reference for fails here, and is left out. */
   uint32_t kept = 0;
   for (uint32_t i = 0; i < n; i++) {
      if (isa_ref_known(out[i].op))
         out[kept++] = out[i];
      else
         HWT_CHECK(false, "no C reference for %s: isa_ref.c needs one", out[i].mnemonic);
   }
   return kept;
}

/* ---- references -------------------------------------------------------------------- */

static float F(uint32_t x) { return eut_f(x); }
static uint32_t U(float f) { return eut_u(f); }

/*
 * x rounded by mode (enum isa_round) to a binary format of p fraction bits
 * and exponents emin..emax, as a double (which holds the result exactly),
 * by arithmetic, not by _Float16 (which clang 14 lacks on x86-64) nor the
 * host's rounding modes: scaling by a power of two is exact, so rint
 * (round to nearest even, the default mode), trunc or ceil round the
 * significand to its p + 1 bits exactly once. Past the largest finite
 * value: infinity where the mode rounds away from zero, else that value.
 */
static double ref_round(double x, uint32_t mode, int p, int emin, int emax)
{
   if (isnan(x) || isinf(x) || x == 0)
      return x;
   bool neg = signbit(x) != 0;
   bool away = mode == ISA_RND_RTE || (mode == ISA_RND_RTP && !neg) ||
               (mode == ISA_RND_RTN && neg);
   double mag = fabs(x), max = ldexp(2.0 - ldexp(1.0, -p), emax);
   int e = ilogb(mag);
   int q = (e < emin ? emin : e) - p;   /* the exponent of the last place */
   double scaled = ldexp(mag, -q), r;
   if (mode == ISA_RND_RTE)
      r = rint(scaled);
   else if ((mode == ISA_RND_RTP && !neg) || (mode == ISA_RND_RTN && neg))
      r = ceil(scaled);   /* the magnitude grows */
   else
      r = trunc(scaled);
   double v = ldexp(r, q);
   if (e > emax || v > max)
      v = away ? INFINITY : max;
   return neg ? -v : v;
}

/* The binary16 bits of a double that is one (or an infinity, a NaN). */
static uint32_t ref_half_bits(double v)
{
   uint32_t sign = signbit(v) ? 0x8000u : 0;
   double mag = fabs(v);
   if (isnan(v))
      return sign | 0x7e00u;
   if (isinf(v))
      return sign | 0x7c00u;
   if (mag < 0x1p-14)   /* subnormal or zero */
      return sign | (uint32_t)(mag * 0x1p24);
   int e = ilogb(mag);
   return sign | (uint32_t)(e + 15) << 10 | ((uint32_t)ldexp(mag, 10 - e) - 1024u);
}

static uint32_t ref_d2h(double x, uint32_t mode)
{
   return ref_half_bits(ref_round(x, mode & 3, 10, -14, 15));
}

static float ref_d2f(double x, uint32_t mode)
{
   return (float)ref_round(x, mode & 3, 23, -126, 127);
}

static float ref_h2f(uint16_t h)
{
   double sign = h & 0x8000u ? -1.0 : 1.0;
   uint32_t e = h >> 10 & 31u, m = h & 1023u;
   if (e == 31)
      return m ? NAN : (float)(sign * INFINITY);
   if (e == 0)
      return (float)(sign * ldexp(m, -24));
   return (float)(sign * ldexp(1024 + m, (int)e - 25));
}

static double ref_h2d(uint32_t h)
{
   return (double)ref_h2f((uint16_t)h);
}

static double D(uint64_t x)
{
   double d;
   memcpy(&d, &x, 8);
   return d;
}

static uint64_t DU(double d)
{
   uint64_t x;
   memcpy(&x, &d, 8);
   return x;
}

static uint32_t bit(uint64_t x, uint32_t i) { return (uint32_t)(x >> i) & 1u; }

/* a[off +: count] with off taken mod 32 and the field cut at bit 31. */
static uint32_t ref_bfe(uint32_t a, uint32_t off, uint32_t count, bool sign)
{
   off &= 31;
   uint32_t r = 0, top = 0;
   uint32_t i = 0;
   for (; i < count && off + i < 32; i++) {
      r |= bit(a, off + i) << i;
      top = bit(a, off + i);
   }
   if (sign && i > 0) {
      for (; i < 32; i++)
         r |= top << i;
   }
   return r;
}

static uint32_t ref_bfi(uint32_t base, uint32_t insert, uint32_t c)
{
   uint32_t off = c & 31, count = (c >> 8) & 63;
   uint32_t r = base;
   for (uint32_t i = 0; i < count && off + i < 32; i++)
      r = (r & ~(1u << (off + i))) | (bit(insert, i) << (off + i));
   return r;
}

static uint32_t ref_sdiv(uint32_t a, uint32_t b)
{
   if (b == 0)
      return UINT32_MAX;      /* hw_interp.c sdiv: x / 0 = -1 */
   if (a == 0x80000000u && b == UINT32_MAX)
      return a;               /* INT_MIN / -1 = INT_MIN */
   return (uint32_t)((int32_t)a / (int32_t)b);
}

static uint32_t ref_srem(uint32_t a, uint32_t b)
{
   if (b == 0)
      return a;               /* x % 0 = x */
   if (a == 0x80000000u && b == UINT32_MAX)
      return 0;
   return (uint32_t)((int32_t)a % (int32_t)b);
}

static uint32_t ref_smod(uint32_t a, uint32_t b)
{
   uint32_t r = ref_srem(a, b);
   if (b != 0 && r != 0 && ((int32_t)r < 0) != ((int32_t)b < 0))
      r += b;                 /* the sign of the divisor */
   return r;
}

static uint32_t ref_sar32(uint32_t a, uint32_t s)
{
   s &= 31;
   uint32_t r = a >> s;
   if ((a & 0x80000000u) && s)
      r |= ~(UINT32_MAX >> s);
   return r;
}

static uint64_t ref_sar64(uint64_t a, uint32_t s)
{
   s &= 63;
   uint64_t r = a >> s;
   if ((a >> 63) && s)
      r |= ~(UINT64_MAX >> s);
   return r;
}

static uint64_t ref_sdiv64(uint64_t a, uint64_t b)
{
   if (b == 0)
      return UINT64_MAX;
   if (a == 0x8000000000000000ull && b == UINT64_MAX)
      return a;
   return (uint64_t)((int64_t)a / (int64_t)b);
}

static uint64_t ref_srem64(uint64_t a, uint64_t b)
{
   if (b == 0)
      return a;
   if (a == 0x8000000000000000ull && b == UINT64_MAX)
      return 0;
   return (uint64_t)((int64_t)a % (int64_t)b);
}

/* The high 64 bits of a 128-bit product, from 32-bit halves. */
static uint64_t ref_mulhi64_u(uint64_t a, uint64_t b)
{
   uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
   uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
   uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
   return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static uint64_t ref_mulhi64_s(uint64_t a, uint64_t b)
{
   uint64_t h = ref_mulhi64_u(a, b);
   if (a >> 63)
      h -= b;
   if (b >> 63)
      h -= a;
   return h;
}

static uint64_t ref_f2i64_s(float x)
{
   if (isnan(x))
      return 0;
   if (x >= 9223372036854775808.0f)
      return 0x7fffffffffffffffull;
   if (x < -9223372036854775808.0f)
      return 0x8000000000000000ull;
   return (uint64_t)(int64_t)truncf(x);
}

static uint64_t ref_f2i64_u(float x)
{
   if (isnan(x) || x <= -1.0f)
      return 0;
   if (x >= 18446744073709551616.0f)
      return UINT64_MAX;
   return (uint64_t)truncf(x);
}

static uint32_t ref_icmp(uint32_t mod, uint64_t a, uint64_t b, bool wide)
{
   int64_t sa = wide ? (int64_t)a : (int64_t)(int32_t)a;
   int64_t sb = wide ? (int64_t)b : (int64_t)(int32_t)b;
   if (!wide) {
      a = (uint32_t)a;
      b = (uint32_t)b;
   }
   switch (mod) {
   case ISA_ICMP_EQ: return a == b;
   case ISA_ICMP_NE: return a != b;
   case ISA_ICMP_LT_S: return sa < sb;
   case ISA_ICMP_LE_S: return sa <= sb;
   case ISA_ICMP_GT_S: return sa > sb;
   case ISA_ICMP_GE_S: return sa >= sb;
   case ISA_ICMP_LT_U: return a < b;
   case ISA_ICMP_LE_U: return a <= b;
   case ISA_ICMP_GT_U: return a > b;
   case ISA_ICMP_GE_U: return a >= b;
   default: return 0;
   }
}

static uint32_t ref_fcmp(uint32_t mod, double a, double b)
{
   bool uno = isnan(a) || isnan(b);
   switch (mod) {
   case ISA_FCMP_OEQ: return !uno && a == b;
   case ISA_FCMP_ONE: return !uno && a != b;
   case ISA_FCMP_OLT: return !uno && a < b;
   case ISA_FCMP_OLE: return !uno && a <= b;
   case ISA_FCMP_OGT: return !uno && a > b;
   case ISA_FCMP_OGE: return !uno && a >= b;
   case ISA_FCMP_UEQ: return uno || a == b;
   case ISA_FCMP_UNE: return uno || a != b;
   case ISA_FCMP_ULT: return uno || a < b;
   case ISA_FCMP_ULE: return uno || a <= b;
   case ISA_FCMP_UGT: return uno || a > b;
   case ISA_FCMP_UGE: return uno || a >= b;
   case ISA_FCMP_ORD: return !uno;
   case ISA_FCMP_UNO: return uno;
   case ISA_FCMP_ISNAN: return isnan(a);
   case ISA_FCMP_ISINF: return isinf(a) != 0;
   default: return 0;
   }
}

static float ref_fmath(uint32_t mod, float a, uint32_t braw)
{
   float b = F(braw);
   switch (mod) {
   case ISA_FM_SIN: return sinf(a);
   case ISA_FM_COS: return cosf(a);
   case ISA_FM_TAN: return tanf(a);
   case ISA_FM_ASIN: return asinf(a);
   case ISA_FM_ACOS: return acosf(a);
   case ISA_FM_ATAN: return atanf(a);
   case ISA_FM_SINH: return sinhf(a);
   case ISA_FM_COSH: return coshf(a);
   case ISA_FM_TANH: return tanhf(a);
   case ISA_FM_ASINH: return asinhf(a);
   case ISA_FM_ACOSH: return acoshf(a);
   case ISA_FM_ATANH: return atanhf(a);
   case ISA_FM_EXP: return expf(a);
   case ISA_FM_EXP2: return exp2f(a);
   case ISA_FM_LOG: return logf(a);
   case ISA_FM_LOG2: return log2f(a);
   case ISA_FM_RCP: return 1.0f / a;
   case ISA_FM_ATAN2: return atan2f(a, b);
   case ISA_FM_POW: return powf(a, b);
   case ISA_FM_FMOD: return fmodf(a, b);
   case ISA_FM_LDEXP: return ldexpf(a, (int32_t)braw);
   default: return NAN;
   }
}

/* Saturating float -> int32, NaN -> 0 (hw_isa.h). */
static uint32_t ref_f2i_s(float x)
{
   if (isnan(x))
      return 0;
   if (x >= 2147483648.0f)
      return 0x7fffffffu;
   if (x < -2147483648.0f)
      return 0x80000000u;
   return (uint32_t)(int32_t)truncf(x);
}

static uint32_t ref_f2i_u(float x)
{
   if (isnan(x) || x <= -1.0f)
      return 0;
   if (x >= 4294967296.0f)
      return UINT32_MAX;
   return (uint32_t)truncf(x) ;
}

/* Saturating binary64 -> integers, NaN -> 0, by cases. */
static uint64_t ref_d2i(double x, bool sign, int bits)
{
   double lo = sign ? -ldexp(1.0, bits - 1) : 0.0, hi = ldexp(1.0, bits - (sign ? 1 : 0));
   uint64_t max = sign ? (UINT64_MAX >> (65 - bits)) : (UINT64_MAX >> (64 - bits));
   uint64_t min = sign ? (uint64_t)0 - (UINT64_C(1) << (bits - 1)) : 0;
   if (isnan(x))
      return 0;
   if (x >= hi)
      return max;
   x = trunc(x);
   if (x <= lo)
      return bits == 32 ? (uint32_t)min : min;
   uint64_t r = sign ? (uint64_t)(int64_t)x : (uint64_t)x;
   return bits == 32 ? (uint32_t)r : r;
}

/* IDP4 by a loop over the bytes, in 64-bit arithmetic. */
static uint32_t ref_idp4(uint32_t mod, uint32_t a, uint32_t b, uint32_t c)
{
   uint32_t signs = mod & 3;
   bool sa = signs != ISA_DP4_UU, sb = signs == ISA_DP4_SS || signs == 3;
   int64_t dot = 0;
   for (int i = 0; i < 4; i++) {
      int64_t x = (a >> (8 * i)) & 255, y = (b >> (8 * i)) & 255;
      if (sa && x >= 128)
         x -= 256;
      if (sb && y >= 128)
         y -= 256;
      dot += x * y;
   }
   if (!(mod & ISA_DP4_SAT))
      return (uint32_t)((uint64_t)c + (uint64_t)dot);
   int64_t sum = signs == ISA_DP4_UU ? (int64_t)c + dot : (int64_t)(int32_t)c + dot;
   int64_t lo = signs == ISA_DP4_UU ? 0 : INT32_MIN, hi = signs == ISA_DP4_UU ? UINT32_MAX
                                                                              : INT32_MAX;
   return (uint32_t)(sum < lo ? lo : sum > hi ? hi : sum);
}

/* DMIN/DMAX and HMIN/HMAX: a NaN operand, signalling or quiet, loses. */
static double ref_nminmax(double a, double b, bool max)
{
   if (isnan(a))
      return b;
   if (isnan(b))
      return a;
   return (max ? a > b : a < b) ? a : b;
}

static double ref_dsign(double x)
{
   if (isnan(x))
      return x;
   if (x > 0)
      return 1.0;
   if (x < 0)
      return -1.0;
   return x;
}

static float ref_fsign(float x)
{
   if (isnan(x))
      return x;
   if (x > 0)
      return 1.0f;
   if (x < 0)
      return -1.0f;
   return x;   /* keeps the sign of zero */
}

bool isa_ref_known(enum isa_op op)
{
   switch (op) {
#define KNOWN(name) case ISA_OP_##name:
   KNOWN(MOV) KNOWN(SEL) KNOWN(IADD) KNOWN(ISUB) KNOWN(IMUL) KNOWN(IMULHI_S) KNOWN(IMULHI_U)
   KNOWN(IDIV_S) KNOWN(IDIV_U) KNOWN(IREM_S) KNOWN(IREM_U) KNOWN(IMOD_S) KNOWN(INEG) KNOWN(IABS)
   KNOWN(IMIN_S) KNOWN(IMIN_U) KNOWN(IMAX_S) KNOWN(IMAX_U) KNOWN(IMAD) KNOWN(ICMP) KNOWN(AND)
   KNOWN(OR) KNOWN(XOR) KNOWN(NOT) KNOWN(SHL) KNOWN(SHR_U) KNOWN(SHR_S) KNOWN(BFE_U) KNOWN(BFE_S)
   KNOWN(BFI) KNOWN(BITREV) KNOWN(POPC) KNOWN(FINDLSB) KNOWN(FINDMSB_U) KNOWN(FINDMSB_S)
   KNOWN(FADD) KNOWN(FSUB) KNOWN(FMUL) KNOWN(FFMA) KNOWN(FDIV) KNOWN(FMIN) KNOWN(FMAX)
   KNOWN(FNEG) KNOWN(FABS) KNOWN(FFLOOR) KNOWN(FCEIL) KNOWN(FTRUNC) KNOWN(FRINT) KNOWN(FROUND)
   KNOWN(FFRACT) KNOWN(FSQRT) KNOWN(FRSQ) KNOWN(FSIGN) KNOWN(FMATH1) KNOWN(FMATH2) KNOWN(FCMP)
   KNOWN(F2I_S) KNOWN(F2I_U) KNOWN(I2F_S) KNOWN(I2F_U) KNOWN(F2H) KNOWN(H2F)
   KNOWN(IADD64) KNOWN(ISUB64) KNOWN(IMUL64) KNOWN(SHL64) KNOWN(SHR64_U) KNOWN(SHR64_S)
   KNOWN(ICMP64) KNOWN(SEXT64) KNOWN(ZEXT64) KNOWN(MOV64) KNOWN(IDIV64_S) KNOWN(IDIV64_U)
   KNOWN(IREM64_S) KNOWN(IREM64_U) KNOWN(IMOD64_S) KNOWN(IMIN64_S) KNOWN(IMIN64_U)
   KNOWN(IMAX64_S) KNOWN(IMAX64_U) KNOWN(IMULHI64_S) KNOWN(IMULHI64_U) KNOWN(I2F64_S)
   KNOWN(I2F64_U) KNOWN(F2I64_S) KNOWN(F2I64_U)
   KNOWN(DADD) KNOWN(DSUB) KNOWN(DMUL) KNOWN(DFMA) KNOWN(DDIV) KNOWN(DMIN) KNOWN(DMAX)
   KNOWN(DNEG) KNOWN(DABS) KNOWN(DFLOOR) KNOWN(DCEIL) KNOWN(DTRUNC) KNOWN(DRINT)
   KNOWN(DROUND) KNOWN(DFRACT) KNOWN(DSQRT) KNOWN(DRSQ) KNOWN(DSIGN) KNOWN(DLDEXP)
   KNOWN(DCMP) KNOWN(F2D) KNOWN(D2F) KNOWN(D2H) KNOWN(D2I_S) KNOWN(D2I_U) KNOWN(I2D_S)
   KNOWN(I2D_U) KNOWN(D2I64_S) KNOWN(D2I64_U) KNOWN(I642D_S) KNOWN(I642D_U)
   KNOWN(HADD) KNOWN(HSUB) KNOWN(HMUL) KNOWN(HDIV) KNOWN(HFMA) KNOWN(HSQRT) KNOWN(HMIN)
   KNOWN(HMAX) KNOWN(HCMP) KNOWN(IDP4)
#undef KNOWN
      return true;
   default:
      return false;
   }
}

uint64_t isa_ref(const struct isa_case *k, uint64_t A, uint64_t B, uint64_t C)
{
   uint32_t a = (uint32_t)A, b = (uint32_t)B, c = (uint32_t)C;
   int32_t sa = (int32_t)a, sb = (int32_t)b;
   float fa = F(a), fb = F(b), fc = F(c);
   uint32_t r = 0;
   switch (k->op) {
   case ISA_OP_MOV: return a;
   case ISA_OP_SEL: return a ? b : c;
   case ISA_OP_IADD: return (uint32_t)(a + b);
   case ISA_OP_ISUB: return (uint32_t)(a - b);
   case ISA_OP_IMUL: return (uint32_t)((uint64_t)a * b);
   case ISA_OP_IMULHI_S: return (uint32_t)((uint64_t)((int64_t)sa * (int64_t)sb) >> 32);
   case ISA_OP_IMULHI_U: return (uint32_t)(((uint64_t)a * b) >> 32);
   case ISA_OP_IDIV_S: return ref_sdiv(a, b);
   case ISA_OP_IDIV_U: return b ? a / b : UINT32_MAX;
   case ISA_OP_IREM_S: return ref_srem(a, b);
   case ISA_OP_IREM_U: return b ? a % b : a;
   case ISA_OP_IMOD_S: return ref_smod(a, b);
   case ISA_OP_INEG: return (uint32_t)(0u - a);
   case ISA_OP_IABS: return sa < 0 ? (uint32_t)(0u - a) : a;
   case ISA_OP_IMIN_S: return sa < sb ? a : b;
   case ISA_OP_IMIN_U: return a < b ? a : b;
   case ISA_OP_IMAX_S: return sa > sb ? a : b;
   case ISA_OP_IMAX_U: return a > b ? a : b;
   case ISA_OP_IMAD: return (uint32_t)((uint64_t)a * b + c);
   case ISA_OP_ICMP: return ref_icmp(k->mod, a, b, false);
   case ISA_OP_AND: return a & b;
   case ISA_OP_OR: return a | b;
   case ISA_OP_XOR: return a ^ b;
   case ISA_OP_NOT: return ~a;
   case ISA_OP_SHL: return (uint32_t)(a << (b & 31));
   case ISA_OP_SHR_U: return a >> (b & 31);
   case ISA_OP_SHR_S: return ref_sar32(a, b);
   case ISA_OP_BFE_U: return ref_bfe(a, b, c, false);
   case ISA_OP_BFE_S: return ref_bfe(a, b, c, true);
   case ISA_OP_BFI: return ref_bfi(a, b, c);
   case ISA_OP_BITREV:
      for (uint32_t i = 0; i < 32; i++)
         r |= bit(a, i) << (31 - i);
      return r;
   case ISA_OP_POPC:
      for (uint32_t i = 0; i < 32; i++)
         r += bit(a, i);
      return r;
   case ISA_OP_FINDLSB:
      for (uint32_t i = 0; i < 32; i++) {
         if (bit(a, i))
            return i;
      }
      return UINT32_MAX;
   case ISA_OP_FINDMSB_U:
      for (uint32_t i = 32; i-- > 0;) {
         if (bit(a, i))
            return i;
      }
      return UINT32_MAX;
   case ISA_OP_FINDMSB_S:
      /* The most significant bit that differs from the sign bit. */
      for (uint32_t i = 32; i-- > 0;) {
         if (bit(a, i) != bit(a, 31))
            return i;
      }
      return UINT32_MAX;
   case ISA_OP_FADD: return U(fa + fb);
   case ISA_OP_FSUB: return U(fa - fb);
   case ISA_OP_FMUL: return U(fa * fb);
   case ISA_OP_FFMA: return U(fmaf(fa, fb, fc));
   case ISA_OP_FDIV: return U(fa / fb);
   case ISA_OP_FMIN: return U(fminf(fa, fb));
   case ISA_OP_FMAX: return U(fmaxf(fa, fb));
   case ISA_OP_FNEG: return a ^ 0x80000000u;
   case ISA_OP_FABS: return a & 0x7fffffffu;
   case ISA_OP_FFLOOR: return U(floorf(fa));
   case ISA_OP_FCEIL: return U(ceilf(fa));
   case ISA_OP_FTRUNC: return U(truncf(fa));
   case ISA_OP_FRINT: return U(rintf(fa));
   case ISA_OP_FROUND: return U(roundf(fa));
   case ISA_OP_FFRACT: return U(fa - floorf(fa));
   case ISA_OP_FSQRT: return U(sqrtf(fa));
   case ISA_OP_FRSQ: return U(1.0f / sqrtf(fa));
   case ISA_OP_FSIGN: return U(ref_fsign(fa));
   case ISA_OP_FMATH1:
   case ISA_OP_FMATH2: return U(ref_fmath(k->mod, fa, b));
   case ISA_OP_FCMP: return ref_fcmp(k->mod, fa, fb);
   case ISA_OP_F2I_S: return ref_f2i_s(fa);
   case ISA_OP_F2I_U: return ref_f2i_u(fa);
   case ISA_OP_I2F_S: return U((float)sa);
   case ISA_OP_I2F_U: return U((float)a);
   case ISA_OP_F2H: return ref_d2h((double)fa, k->mod);
   case ISA_OP_H2F: return U(ref_h2f((uint16_t)a));
   case ISA_OP_IADD64: return A + B;
   case ISA_OP_ISUB64: return A - B;
   case ISA_OP_IMUL64: return A * B;
   case ISA_OP_SHL64: return A << (b & 63);
   case ISA_OP_SHR64_U: return A >> (b & 63);
   case ISA_OP_SHR64_S: return ref_sar64(A, b);
   case ISA_OP_ICMP64: return ref_icmp(k->mod, A, B, true);
   case ISA_OP_SEXT64: return (uint64_t)(int64_t)sa;
   case ISA_OP_ZEXT64: return a;
   case ISA_OP_MOV64: return A;
   case ISA_OP_IDIV64_S: return ref_sdiv64(A, B);
   case ISA_OP_IDIV64_U: return B ? A / B : UINT64_MAX;
   case ISA_OP_IREM64_S: return ref_srem64(A, B);
   case ISA_OP_IREM64_U: return B ? A % B : A;
   case ISA_OP_IMOD64_S: {
      uint64_t r64 = ref_srem64(A, B);
      if (B != 0 && r64 != 0 && ((int64_t)r64 < 0) != ((int64_t)B < 0))
         r64 += B;
      return r64;
   }
   case ISA_OP_IMIN64_S: return (int64_t)A < (int64_t)B ? A : B;
   case ISA_OP_IMIN64_U: return A < B ? A : B;
   case ISA_OP_IMAX64_S: return (int64_t)A > (int64_t)B ? A : B;
   case ISA_OP_IMAX64_U: return A > B ? A : B;
   case ISA_OP_IMULHI64_S: return ref_mulhi64_s(A, B);
   case ISA_OP_IMULHI64_U: return ref_mulhi64_u(A, B);
   case ISA_OP_I2F64_S: return U((float)(int64_t)A);
   case ISA_OP_I2F64_U: return U((float)A);
   case ISA_OP_F2I64_S: return ref_f2i64_s(fa);
   case ISA_OP_F2I64_U: return ref_f2i64_u(fa);
   /* binary64: C double arithmetic */
   case ISA_OP_DADD: return DU(D(A) + D(B));
   case ISA_OP_DSUB: return DU(D(A) - D(B));
   case ISA_OP_DMUL: return DU(D(A) * D(B));
   case ISA_OP_DFMA: return DU(fma(D(A), D(B), D(C)));
   case ISA_OP_DDIV: return DU(D(A) / D(B));
   case ISA_OP_DMIN: return DU(ref_nminmax(D(A), D(B), false));
   case ISA_OP_DMAX: return DU(ref_nminmax(D(A), D(B), true));
   case ISA_OP_DNEG: return A ^ 0x8000000000000000ull;
   case ISA_OP_DABS: return A & 0x7fffffffffffffffull;
   case ISA_OP_DFLOOR: return DU(floor(D(A)));
   case ISA_OP_DCEIL: return DU(ceil(D(A)));
   case ISA_OP_DTRUNC: return DU(trunc(D(A)));
   case ISA_OP_DRINT: return DU(rint(D(A)));
   case ISA_OP_DROUND: return DU(round(D(A)));
   case ISA_OP_DFRACT: return DU(D(A) - floor(D(A)));
   case ISA_OP_DSQRT: return DU(sqrt(D(A)));
   case ISA_OP_DRSQ: return DU(1.0 / sqrt(D(A)));
   case ISA_OP_DSIGN: return DU(ref_dsign(D(A)));
   case ISA_OP_DLDEXP: return DU(ldexp(D(A), sb));
   case ISA_OP_DCMP: return ref_fcmp(k->mod, D(A), D(B));
   case ISA_OP_F2D: return DU((double)fa);
   case ISA_OP_D2F: return U(ref_d2f(D(A), k->mod));
   case ISA_OP_D2H: return ref_d2h(D(A), k->mod);
   case ISA_OP_D2I_S: return ref_d2i(D(A), true, 32);
   case ISA_OP_D2I_U: return ref_d2i(D(A), false, 32);
   case ISA_OP_I2D_S: return DU((double)sa);
   case ISA_OP_I2D_U: return DU((double)a);
   case ISA_OP_D2I64_S: return ref_d2i(D(A), true, 64);
   case ISA_OP_D2I64_U: return ref_d2i(D(A), false, 64);
   /* one rounding: the long double holds any 64-bit integer exactly */
   case ISA_OP_I642D_S: return DU((double)(long double)(int64_t)A);
   case ISA_OP_I642D_U: return DU((double)(long double)A);
   /* binary16: the exact (or, for / and sqrt, innocuously rounded) double
    * result, rounded once to binary16 */
   case ISA_OP_HADD: return ref_d2h(ref_h2d(a) + ref_h2d(b), ISA_RND_RTE);
   case ISA_OP_HSUB: return ref_d2h(ref_h2d(a) - ref_h2d(b), ISA_RND_RTE);
   case ISA_OP_HMUL: return ref_d2h(ref_h2d(a) * ref_h2d(b), ISA_RND_RTE);
   case ISA_OP_HDIV: return ref_d2h(ref_h2d(a) / ref_h2d(b), ISA_RND_RTE);
   case ISA_OP_HFMA: return ref_d2h(fma(ref_h2d(a), ref_h2d(b), ref_h2d(c)), ISA_RND_RTE);
   case ISA_OP_HSQRT: return ref_d2h(sqrt(ref_h2d(a)), ISA_RND_RTE);
   case ISA_OP_HMIN: return ref_d2h(ref_nminmax(ref_h2d(a), ref_h2d(b), false), ISA_RND_RTE);
   case ISA_OP_HMAX: return ref_d2h(ref_nminmax(ref_h2d(a), ref_h2d(b), true), ISA_RND_RTE);
   case ISA_OP_HCMP: return ref_fcmp(k->mod, ref_h2d(a), ref_h2d(b));
   case ISA_OP_IDP4: return ref_idp4(k->mod, a, b, c);
   default:
      (void)fc;
      HWT_REQUIRE(false, "no reference for %s", k->mnemonic);
      return 0;
   }
}

static bool is_special(float x)
{
   return isnan(x) || isinf(x) || x == 0.0f;
}

/* The size of one float ULP at the magnitude of x. */
static double ulp_of(double x)
{
   int e;
   frexp(fabs(x), &e);
   if (x == 0)
      e = -148;
   return ldexp(1.0, e - 24 < -149 ? -149 : e - 24);
}

static bool half_nan(uint32_t h)
{
   return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
}

static bool min_max(enum isa_op op)
{
   return op == ISA_OP_FMIN || op == ISA_OP_FMAX || op == ISA_OP_DMIN || op == ISA_OP_DMAX ||
          op == ISA_OP_HMIN || op == ISA_OP_HMAX;
}

bool isa_ref_match(const struct isa_case *k, uint64_t got, uint64_t want)
{
   /* fmin/fmax may return either zero for (-0, +0) (C11 F.10.9.2 only
    * hopes for -0 / +0), and the interpreter's instances differ by warp
    * width there: so do the half and double forms. */
   if (k->cmp == REF_DOUBLE) {
      if (isnan(D(want)))
         return isnan(D(got));
      if (min_max(k->op) && D(want) == 0.0)
         return D(got) == 0.0;
      return got == want;
   }
   if (k->cmp == REF_EXACT || k->dst64)
      return got == want;
   if (k->cmp == REF_HALF) {
      if (min_max(k->op) && ((uint32_t)want & 0x7fffu) == 0)
         return ((uint32_t)got & 0xffff7fffu) == 0;
      return half_nan((uint32_t)want) ? (uint32_t)got <= 0xffffu && half_nan((uint32_t)got)
                                      : (uint32_t)got == (uint32_t)want;
   }
   float g = F((uint32_t)got), w = F((uint32_t)want);
   if (isnan(w))
      return isnan(g);
   if (min_max(k->op) && w == 0.0f)
      return g == 0.0f;
   if (k->cmp == REF_FLOAT || is_special(w))
      return (uint32_t)got == (uint32_t)want;
   return !isnan(g) && fabs((double)g - (double)w) <= 4 * ulp_of(w);
}

bool isa_fmath_within_vulkan(const struct isa_case *k, float got, uint32_t ai, uint32_t bi,
                             char *why, size_t why_size)
{
   double a = F(ai), b = F(bi), ref, tol;
   const double e11 = ldexp(1.0, -11), e21 = ldexp(1.0, -21), e23 = ldexp(1.0, -23);
   switch (k->mod) {
   case ISA_FM_SIN: ref = sin(a); tol = e11; break;
   case ISA_FM_COS: ref = cos(a); tol = e11; break;
   case ISA_FM_TAN: /* inherited from sin() / cos() */
      ref = tan(a);
      tol = e11 * (1 + fabs(ref)) / fabs(cos(a)) + 3 * ulp_of(ref);
      break;
   case ISA_FM_ASIN: ref = asin(a); tol = 4096 * ulp_of(ref); break;
   case ISA_FM_ACOS: ref = acos(a); tol = 4096 * ulp_of(ref); break;
   case ISA_FM_ATAN: ref = atan(a); tol = 4096 * ulp_of(ref); break;
   case ISA_FM_ATAN2: ref = atan2(a, b); tol = 4096 * ulp_of(ref); break;
   case ISA_FM_SINH: case ISA_FM_COSH: /* inherited from (exp(x) +- exp(-x)) / 2 */
      ref = k->mod == ISA_FM_SINH ? sinh(a) : cosh(a);
      tol = (3 + 2 * fabs(a)) * e23 * cosh(a) + 2 * ulp_of(ref);
      break;
   case ISA_FM_TANH: ref = tanh(a); tol = 2 * (3 + 2 * fabs(a)) * e23 + 2 * ulp_of(ref); break;
   case ISA_FM_ASINH: case ISA_FM_ACOSH: case ISA_FM_ATANH: /* inherited from log() */
      ref = k->mod == ISA_FM_ASINH ? asinh(a) : k->mod == ISA_FM_ACOSH ? acosh(a) : atanh(a);
      tol = 4 * e21 + 8 * ulp_of(ref) + (k->mod == ISA_FM_ATANH ? fabs(ref) * ldexp(1, -18) : 0);
      break;
   case ISA_FM_EXP: ref = exp(a); tol = (3 + 2 * fabs(a)) * ulp_of(ref); break;
   case ISA_FM_EXP2: ref = exp2(a); tol = (3 + 2 * fabs(a)) * ulp_of(ref); break;
   case ISA_FM_LOG: case ISA_FM_LOG2:
      ref = k->mod == ISA_FM_LOG ? log(a) : log2(a);
      tol = (a >= 0.5 && a <= 2.0) ? e21 : 3 * ulp_of(ref);
      break;
   case ISA_FM_RCP: ref = 1.0 / a; tol = 2.5 * ulp_of(ref); break;
   case ISA_FM_POW: { /* inherited from exp2(y * log2(x)) */
      double l2 = log2(a), t = b * l2;
      double log_err = fmax(e21, 3 * ulp_of(l2));
      ref = pow(a, b);
      tol = fabs(ref) * (fabs(b) * log_err * 0.6931471805599453 * 1.01 + (3 + 2 * fabs(t)) * e23) +
            2 * ulp_of(ref);
      break;
   }
   case ISA_FM_FMOD: ref = fmod(a, b); tol = 0; break;   /* exact in float */
   case ISA_FM_LDEXP: ref = (float)ldexp(a, (int32_t)bi); tol = 0; break;   /* correctly rounded */
   default: ref = NAN; tol = 0; break;
   }
   double err = fabs((double)got - ref);
   if (!(err <= tol)) {
      snprintf(why, why_size, "%s(%.9g%s%.9g) = %.9g, libm (double) %.9g, error %.3g > %.3g",
               k->mnemonic, a, k->op == ISA_OP_FMATH2 ? ", " : "",
               k->op == ISA_OP_FMATH2 ? (k->mod == ISA_FM_LDEXP ? (double)(int32_t)bi : b) : 0.0,
               (double)got, ref, err, tol);
      if (k->op != ISA_OP_FMATH2)
         snprintf(why, why_size, "%s(%.9g) = %.9g, libm (double) %.9g, error %.3g > %.3g",
                  k->mnemonic, a, (double)got, ref, err, tol);
      return false;
   }
   return true;
}

/* ---- inputs ----------------------------------------------------------------------------- */

static double uniform(uint64_t *rng, double lo, double hi)
{
   return lo + (hi - lo) * (double)(eut_rand(rng) >> 11) * 0x1.0p-53;
}

static double log_uniform(uint64_t *rng, double lo, double hi)
{
   return exp(uniform(rng, log(lo), log(hi)));
}

static uint32_t typical_int(uint64_t *rng)
{
   static const uint32_t special[] = {0, 1, 2, UINT32_MAX, 0x80000000u, 0x7fffffffu, 0xffffu,
                                      0x10000u, 7, 0xfffffff9u};
   uint64_t r = eut_rand(rng);
   switch (r % 8) {
   case 0: case 1: case 2: case 3: return (uint32_t)(r >> 32);
   case 4: case 5: return (uint32_t)((int32_t)((r >> 32) % 129) - 64);
   case 6: return special[(r >> 32) % (sizeof(special) / sizeof(special[0]))];
   default: return (1u << ((r >> 32) % 32)) + (uint32_t)((int32_t)((r >> 40) % 3) - 1);
   }
}

static uint64_t typical_int64(uint64_t *rng)
{
   static const uint64_t special[] = {0, 1, UINT64_MAX, 0x8000000000000000ull,
                                      0x7fffffffffffffffull, 0xffffffffull, 0x100000000ull,
                                      0x80000000ull};
   uint64_t r = eut_rand(rng);
   switch (r % 6) {
   case 0: case 1: case 2: return eut_rand(rng);
   case 3: return (uint64_t)((int64_t)(eut_rand(rng) % 2001) - 1000);
   case 4: return (uint64_t)(int64_t)(int32_t)typical_int(rng);
   default: return special[(r >> 32) % (sizeof(special) / sizeof(special[0]))];
   }
}

static uint32_t typical_float(uint64_t *rng)
{
   static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.5f, -2.5f, 0.5f, INFINITY,
                                   -INFINITY, NAN};
   uint64_t r = eut_rand(rng);
   switch (r % 10) {
   case 0: case 1: case 2: case 3: return U((float)uniform(rng, -1000, 1000));
   case 4: return U((float)((int)(r >> 32) % 41 - 20));
   case 5: return U((float)((int)(r >> 32) % 41 - 20) + 0.5f);
   case 6: return U((float)uniform(rng, -0.01, 0.01));
   case 7: return U((float)log_uniform(rng, 1e-20, 1e20) * ((r >> 63) ? -1.0f : 1.0f));
   case 8: return U(special[(r >> 32) % (sizeof(special) / sizeof(special[0]))]);
   default: return U((float)uniform(rng, -3, 3));
   }
}

static uint64_t typical_double(uint64_t *rng)
{
   static const double special[] = {0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 0.5, INFINITY, -INFINITY,
                                    NAN, 0x1p-1074, DBL_MAX};
   uint64_t r = eut_rand(rng);
   switch (r % 10) {
   case 0: case 1: case 2: return DU(uniform(rng, -1000, 1000));
   case 3: return DU((double)((int)(r >> 32) % 41 - 20));
   case 4: return DU((double)((int)(r >> 32) % 41 - 20) + 0.5);
   case 5: return DU(uniform(rng, -0.01, 0.01));
   case 6: return DU(log_uniform(rng, 1e-300, 1e300) * ((r >> 63) ? -1.0 : 1.0));
   case 7: return DU(special[(r >> 32) % (sizeof(special) / sizeof(special[0]))]);
   case 8: return eut_rand(rng);   /* any bits: denormals, NaNs with payloads */
   default: return DU(uniform(rng, -3, 3));
   }
}

/* A binary16 in bits 0-15, bits 16-31 garbage. */
static uint32_t typical_half(uint64_t *rng)
{
   static const uint32_t special[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00,
                                      0x7bff, 0x0001, 0x0400, 0x3800, 0x4100};
   uint64_t r = eut_rand(rng);
   uint32_t garbage = (uint32_t)(r >> 40) << 16;
   switch (r % 8) {
   case 0: case 1: case 2:   /* finite: any exponent but 31 */
      return garbage | ((uint32_t)(r >> 8) & 0x83ffu) | (uint32_t)((r >> 20) % 31) << 10;
   case 3: return garbage | special[(r >> 24) % (sizeof(special) / sizeof(special[0]))];
   case 4: return garbage | ((uint32_t)(r >> 8) & 0xffffu);
   default: return garbage | ref_d2h(uniform(rng, -8, 8), ISA_RND_RTE);
   }
}

static uint32_t fmath_input(uint32_t mod, int which, uint64_t *rng)
{
   const double pi = 3.14159265358979;
   double x;
   switch (mod) {
   case ISA_FM_SIN: case ISA_FM_COS: x = uniform(rng, -pi, pi); break;
   case ISA_FM_TAN: x = uniform(rng, -1.3, 1.3); break;
   case ISA_FM_ASIN: case ISA_FM_ACOS: x = uniform(rng, -1, 1); break;
   case ISA_FM_ATAN: case ISA_FM_ASINH: x = uniform(rng, -50, 50); break;
   case ISA_FM_SINH: case ISA_FM_COSH: case ISA_FM_TANH: x = uniform(rng, -8, 8); break;
   case ISA_FM_ACOSH: x = uniform(rng, 1, 50); break;
   case ISA_FM_ATANH: x = uniform(rng, -0.95, 0.95); break;
   case ISA_FM_EXP: x = uniform(rng, -15, 15); break;
   case ISA_FM_EXP2: x = uniform(rng, -20, 20); break;
   case ISA_FM_LOG: case ISA_FM_LOG2:
      x = (eut_rand(rng) & 1) ? uniform(rng, 0.5, 2) : log_uniform(rng, 1e-3, 1e4);
      break;
   case ISA_FM_RCP: x = log_uniform(rng, 1e-3, 1e3) * ((eut_rand(rng) & 1) ? -1 : 1); break;
   case ISA_FM_ATAN2: x = uniform(rng, -10, 10); break;
   case ISA_FM_POW: x = which == 0 ? log_uniform(rng, 0.01, 20) : uniform(rng, -4, 4); break;
   case ISA_FM_FMOD:
      x = which == 0 ? uniform(rng, -100, 100)
                     : log_uniform(rng, 0.5, 20) * ((eut_rand(rng) & 1) ? -1 : 1);
      break;
   case ISA_FM_LDEXP:
      if (which == 1)
         return (uint32_t)((int32_t)(eut_rand(rng) % 61) - 30);
      x = uniform(rng, -10, 10);
      break;
   default: x = 0; break;
   }
   return U((float)x);
}

uint64_t isa_gen_typical(const struct isa_case *k, int which, uint64_t *rng)
{
   uint64_t r = eut_rand(rng);
   switch (k->op) {
   case ISA_OP_FMATH1: case ISA_OP_FMATH2:
      return fmath_input(k->mod, which, rng);
   case ISA_OP_SHL: case ISA_OP_SHR_U: case ISA_OP_SHR_S:
      return which == 1 ? (r % 4 ? r % 64 : (uint32_t)r) : typical_int(rng);
   case ISA_OP_SHL64: case ISA_OP_SHR64_U: case ISA_OP_SHR64_S:
      return which == 1 ? (r % 4 ? r % 128 : (uint32_t)r) : typical_int64(rng);
   case ISA_OP_BFE_U: case ISA_OP_BFE_S:
      return which == 0 ? typical_int(rng) : r % 8 ? r % 40 : (uint32_t)r;
   case ISA_OP_BFI:
      return which < 2 ? typical_int(rng)
             : r % 8 ? (uint32_t)((r % 40) | ((r >> 8) % 40) << 8) : (uint32_t)(r >> 16);
   case ISA_OP_SEL:
      return which == 0 ? (r % 3 == 0 ? 0 : (uint32_t)(r >> 32) | 0x100u) : typical_int(rng);
   case ISA_OP_ICMP:
      return r % 4 == 0 ? (uint32_t)((int32_t)(r >> 32) % 4) : typical_int(rng);
   case ISA_OP_ICMP64:
      return r % 4 == 0 ? (uint64_t)((int64_t)(r >> 32) % 4) : typical_int64(rng);
   case ISA_OP_F2I_S: case ISA_OP_F2I_U:
      return r % 2 ? U((float)uniform(rng, -3e9, 5e9)) : U((float)uniform(rng, -100, 100));
   case ISA_OP_F2I64_S: case ISA_OP_F2I64_U:
      return r % 2 ? U((float)uniform(rng, -2e19, 4e19)) : U((float)uniform(rng, -1e6, 1e6));
   case ISA_OP_F2H:   /* the binary16 range: normals, subnormals, overflow */
      switch (r % 4) {
      case 0: return U((float)uniform(rng, -70000, 70000));
      case 1: return U((float)uniform(rng, -2, 2));
      case 2: return U((float)log_uniform(rng, 1e-9, 1e-3) * ((r >> 63) ? -1.0f : 1.0f));
      default: return typical_float(rng);
      }
   case ISA_OP_H2F:   /* bits 16-31 are not part of the operand */
      return (uint32_t)(r >> 16);
   case ISA_OP_DLDEXP:
      if (which == 1)
         return (uint32_t)(r % 2 ? (int32_t)(r % 121) - 60 : (int32_t)(r % 4201) - 2100);
      break;
   case ISA_OP_D2I_S: case ISA_OP_D2I_U:
      return DU(r % 2 ? uniform(rng, -3e9, 5e9) : uniform(rng, -100, 100));
   case ISA_OP_D2I64_S: case ISA_OP_D2I64_U:
      return DU(r % 2 ? uniform(rng, -2e19, 4e19) : uniform(rng, -1e6, 1e6));
   case ISA_OP_D2F:   /* the binary32 range: normals, subnormals, overflow */
      switch (r % 4) {
      case 0: return DU(uniform(rng, -4e38, 4e38));
      case 1: return DU(log_uniform(rng, 1e-47, 1e-36) * ((r >> 63) ? -1.0 : 1.0));
      case 2: return DU(uniform(rng, -2, 2));
      default: return typical_double(rng);
      }
   case ISA_OP_D2H:   /* the binary16 range */
      switch (r % 4) {
      case 0: return DU(uniform(rng, -70000, 70000));
      case 1: return DU(log_uniform(rng, 1e-9, 1e-3) * ((r >> 63) ? -1.0 : 1.0));
      case 2: return DU(uniform(rng, -2, 2));
      default: return typical_double(rng);
      }
   case ISA_OP_I642D_S: case ISA_OP_I642D_U:
      return typical_int64(rng);
   case ISA_OP_HSQRT:   /* mostly in its domain */
      return typical_half(rng) & (r % 4 ? 0xffff7fffu : 0xffffffffu);
   default:
      break;
   }
   if (double_source(k->op, which))
      return typical_double(rng);
   if (half_source(k->op))
      return typical_half(rng);
   if (float_source(k->op, k->mod, which))
      return typical_float(rng);
   if (k->src64[which])
      return typical_int64(rng);
   return typical_int(rng);
}

/* ---- edge values ------------------------------------------------------------------------ */

static const uint64_t edge_float[] = {
   0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00000,
   0x7f800001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
   0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3fc00000,
   0x40200000, 0xc0200000, 0x3effffff, 0x4f000000, 0xcf000000, 0x4effffff, 0xcf000001,
   0x4f800000, 0x4f7fffff, 0x4b000001, 0x40490fdb, 0x7149f2ca, 0x0da24260, 0x3f7fffff,
   0xbf7fffff, 0x42b17218, 0xc2cff1b5, 0xbf800001, 0x3f800001,
};

static const uint64_t edge_int[] = {
   0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff,
   0xfffffffe, 0xfffffff9, 0x0000ffff, 0x00010000, 0x55555555, 0xaaaaaaaa, 0x7ffffffe,
   0x12345678, 0xfedcba98, 0x01000001, 0x7fffffc0, 0xffffff81,
};

static const uint64_t edge_int64[] = {
   0, 1, 2, UINT64_MAX, UINT64_MAX - 1, 0x8000000000000000ull, 0x7fffffffffffffffull,
   0x8000000000000001ull, 0xffffffffull, 0x100000000ull, 0x80000000ull, 0x7fffffffull,
   0xffffffff00000000ull, 0x1ffffffffull, 0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull,
   0x123456789abcdef0ull, 0xffffffff80000000ull,
};

static const uint64_t edge_bfe_offset[] = {0, 1, 8, 15, 16, 24, 31, 32, 33, 63, 0xffffffff,
                                           0x80000000};
static const uint64_t edge_bfe_count[] = {0, 1, 7, 8, 16, 24, 31, 32, 33, 64, 0xffffffff,
                                          0x80000000};
static const uint64_t edge_ldexp[] = {0, 1, UINT32_MAX, 23, 24, 126, 127, 128, 149, 150,
                                      254, 300, (uint32_t)-126, (uint32_t)-127,
                                      (uint32_t)-149, (uint32_t)-150, (uint32_t)-300,
                                      0x7fffffff, 0x80000000};
/* Floats at the edges of binary16: its largest finite value and the ties
 * around it, its smallest normal and subnormal, ties to even at 1 + 2^-11. */
static const uint64_t edge_f2h[] = {
   0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0x38800000, 0x387fffff,
   0x33800000, 0x33000000, 0x33000001, 0x337fffff, 0x3f801000, 0x3f803000, 0x3f801001,
   0x3f802000, 0xc77ff000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
   0x7f800001, 0xffc00001, 0x00000001, 0x3f800000, 0xbf800000, 0x7f7fffff, 0x3e2aaaab,
};
/* Floats at the edges of 64-bit integers. */
static const uint64_t edge_f2i64[] = {
   0x5f000000, 0xdf000000, 0x5effffff, 0xdeffffff, 0xdf000001, 0x5f800000, 0x5f7fffff,
   0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xbf7fffff, 0xbf800000,
   0x3f800000, 0x4f000000, 0x4f800000, 0x00000001, 0x7f7fffff, 0xff7fffff,
};
/* binary16 values (bits 0-15), some with garbage in bits 16-31. */
static const uint64_t edge_h2f[] = {
   0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
   0x7c01, 0xfe00, 0x3c00, 0xbc00, 0x3555, 0xffff3c00, 0x12340001, 0xdead7c00, 0x80008000,
};
static const uint64_t edge_select[] = {0, 1, 0xffffffff, 0x80000000, 2, 0x00000100};
/* Doubles (45, so that pairs of them fit a launch): NaNs (quiet,
 * signalling, negative), infinities, zeros, denormals, the limits; ties of
 * rounding to integers; the edges of binary32 (its largest finite value
 * and the tie above it, its least normal and subnormal and the tie below
 * it, ties of its significand) and of binary16 (the same) for D2F and
 * D2H; the integer limits for D2I. */
static const uint64_t edge_double[] = {
   0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
   0x7ff8000000000000, 0xfff8000000000000, 0x7ff4000000000001, 0x0000000000000001,
   0x800fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
   0x3ff0000000000000, 0xbff0000000000000, 0x3fe0000000000000, 0x3ff8000000000000,
   0x4004000000000000, 0xc004000000000000, 0x3fdfffffffffffff, 0x3ff0000000000001,
   0x47efffffe0000000, 0x47efffffefffffff, 0x47effffff0000000, 0xc7effffff0000001,
   0x3810000000000000, 0x36a0000000000000, 0x3690000000000000, 0x3690000000000001,
   0x3ff0000010000000, 0x3ff0000030000000, 0xbff0000010000001, 0x40effc0000000000,
   0x40effe0000000000, 0xc0effdffffffffff, 0x3f10000000000000, 0x3e70000000000000,
   0x3e60000000000000, 0x3ff0020000000000, 0x3ff0060000000000, 0x41dfffffffc00000,
   0x41e0000000000000, 0xc1e0000000200000, 0x41efffffffe00000, 0x43e0000000000000,
   0xc3e0000000000001,
};
/* binary16 values (bits 0-15), some with garbage in bits 16-31: zeros,
 * the smallest subnormal, the largest subnormal, the least normal, the
 * largest finite, infinities, NaNs, 1 and its neighbour, values whose sums
 * and products tie or overflow. */
static const uint64_t edge_half[] = {
   0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
   0x7c01, 0xfe00, 0x3c00, 0xbc00, 0x3c01, 0x3555, 0x4c00, 0x5bff, 0x1400, 0x3800, 0xb800,
   0xffff3c00, 0x12340001, 0xdead7c00, 0x80008000,
};
static const uint64_t edge_dldexp[] = {0, 1, UINT32_MAX, 52, 53, 1023, 1024, 1074, 1075, 2046,
                                       3000, (uint32_t)-1022, (uint32_t)-1023,
                                       (uint32_t)-1074, (uint32_t)-1075, (uint32_t)-3000,
                                       0x7fffffff, 0x80000000};
/* 64-bit integers where a double rounds (ties to even) and the limits. */
static const uint64_t edge_i642d[] = {
   0, 1, UINT64_MAX, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x20000000000001ull,
   0x20000000000003ull, 0x20000000000002ull, 0xffe0000000000001ull, 0xffdfffffffffffffull,
   0x8000000000000401ull, 0x80000000000003ffull, 0xfffffffffffffc00ull, 0x7ffffffffffffe00ull,
   0x123456789abcdef0ull, 0xffffffff80000000ull,
};
/* Packed bytes for IDP4, and accumulators at the saturation limits. */
static const uint64_t edge_dp4[] = {
   0, 0x01010101, 0x80808080, 0x7f7f7f7f, 0xffffffff, 0x807f01ff, 0x7f80ff01, 0x00ff00ff,
   0xff00ff00, 0x12345678, 0xfedcba98, 0x80000000, 0x0000007f, 0x01020304,
};
static const uint64_t edge_dp4_c[] = {
   0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x7fff0000, 0x80010000, 0xfffc0000, 0x7ffffff0,
   0x80000010, 0x00010000, 0xfffffff0,
};

static uint64_t edge_shift32[64 + 8];
static uint64_t edge_shift64[64 + 8];
static uint64_t edge_bfi[8 * 10 + 4];
static bool edges_ready;

static void init_edges(void)
{
   if (edges_ready)
      return;
   uint32_t n = 0;
   for (uint32_t i = 0; i < 64; i++)
      edge_shift32[n++] = i;
   const uint64_t extra[] = {64, 65, 127, 128, 0xffffffff, 0x80000000, 0x7fffffff, 0xffffffe1};
   for (uint32_t i = 0; i < 8; i++)
      edge_shift32[n++] = extra[i];
   memcpy(edge_shift64, edge_shift32, sizeof(edge_shift32));
   n = 0;
   const uint32_t offs[] = {0, 1, 8, 16, 24, 31, 32, 63};
   const uint32_t counts[] = {0, 1, 7, 8, 16, 24, 31, 32, 33, 63};
   for (uint32_t i = 0; i < 8; i++) {
      for (uint32_t j = 0; j < 10; j++)
         edge_bfi[n++] = offs[i] | counts[j] << 8;
   }
   edge_bfi[n++] = 0xffffffff;
   edge_bfi[n++] = 0x00002000 | 0xffff0000;
   edge_bfi[n++] = 0x0000ff1f;
   edge_bfi[n++] = 0x00004000;
   edges_ready = true;
}

#define EDGES(arr) (*values = (arr), (uint32_t)(sizeof(arr) / sizeof((arr)[0])))

uint32_t isa_edge_values(const struct isa_case *k, int which, const uint64_t **values)
{
   init_edges();
   switch (k->op) {
   case ISA_OP_SHL: case ISA_OP_SHR_U: case ISA_OP_SHR_S:
      if (which == 1)
         return EDGES(edge_shift32);
      break;
   case ISA_OP_SHL64: case ISA_OP_SHR64_U: case ISA_OP_SHR64_S:
      if (which == 1)
         return EDGES(edge_shift64);
      break;
   case ISA_OP_BFE_U: case ISA_OP_BFE_S:
      if (which == 1)
         return EDGES(edge_bfe_offset);
      if (which == 2)
         return EDGES(edge_bfe_count);
      break;
   case ISA_OP_BFI:
      if (which == 2)
         return EDGES(edge_bfi);
      break;
   case ISA_OP_SEL:
      if (which == 0)
         return EDGES(edge_select);
      break;
   case ISA_OP_FMATH2:
      if (k->mod == ISA_FM_LDEXP && which == 1)
         return EDGES(edge_ldexp);
      break;
   case ISA_OP_F2H:
      return EDGES(edge_f2h);
   case ISA_OP_F2I64_S: case ISA_OP_F2I64_U:
      return EDGES(edge_f2i64);
   case ISA_OP_H2F:
      return EDGES(edge_h2f);
   case ISA_OP_DLDEXP:
      if (which == 1)
         return EDGES(edge_dldexp);
      break;
   case ISA_OP_I642D_S: case ISA_OP_I642D_U:
      return EDGES(edge_i642d);
   case ISA_OP_IDP4:
      return which < 2 ? EDGES(edge_dp4) : EDGES(edge_dp4_c);
   default:
      break;
   }
   if (double_source(k->op, which))
      return EDGES(edge_double);
   if (half_source(k->op))
      return EDGES(edge_half);
   if (float_source(k->op, k->mod, which))
      return EDGES(edge_float);
   if (k->src64[which])
      return EDGES(edge_int64);
   return EDGES(edge_int);
}

/* ---- programs ---------------------------------------------------------------------------- */

bool isa_form_applies(const struct isa_case *k, enum isa_form f)
{
   switch (f) {
   case FORM_IX: return k->nsrc >= 2;
   case FORM_ALIAS: return true;
   default: return true;
   }
}

/* Which source slot a form makes uniform or immediate (-1: none, 3: all). */
static int special_slot(const struct isa_case *k, enum isa_form f)
{
   switch (f) {
   case FORM_UB: case FORM_IB: return k->nsrc >= 2 ? 1 : 0;
   case FORM_IX: return k->nsrc == 2 ? 0 : 2;
   case FORM_UU: return 3;
   default: return -1;
   }
}

static void operand_text(char *buf, size_t size, const struct isa_case *k, enum isa_form f,
                         int s, uint32_t imm)
{
   static const int vreg[3] = {10, 12, 14}, ureg[3] = {10, 12, 14};
   int slot = special_slot(k, f);
   bool special = slot == s || slot == 3;
   if (special && (f == FORM_UB || f == FORM_UU))
      snprintf(buf, size, "u%d", ureg[s]);
   else if (special)
      snprintf(buf, size, "#%u", imm);
   else
      snprintf(buf, size, "v%d", vreg[s]);
}

void isa_case_program(struct eut_text *t, const struct isa_case *k, enum isa_form f, uint32_t w,
                      uint32_t imm, bool masked)
{
   eut_text_add(t,
                ".warp %u\n"
                "ldr.b64 u0 +%u\n"
                "ldr.b64 u2 +%u\n"
                "ldr.b64 u4 +%u\n"
                "ldr.b64 u6 +%u\n"
                "ldr.b64 u10 +%u\n"
                "ldr.b64 u12 +%u\n"
                "ldr.b64 u14 +%u\n"
                "ldr.b64 u18 +%u\n"
                "s2r.local_index v0\n"
                "s2r.group_id_x u8\n"
                "s2r.group_size_x u9\n"
                "imad v1, u8, u9, v0          ; invocation index\n"
                "shl v2, v1, #3\n"
                "zext64 v4, v2\n"
                "iadd64 v6, v4, u0\n"
                "ldg.b64 v10, v6              ; a\n"
                "iadd64 v6, v4, u2\n"
                "ldg.b64 v12, v6              ; b\n"
                "iadd64 v6, v4, u4\n"
                "ldg.b64 v14, v6              ; c\n"
                "mov v16, #%u\n"
                "mov v17, #%u\n"
                "mov u16, #%u\n"
                "mov u17, #%u\n",
                w, 8 * ROOT_A, 8 * ROOT_B, 8 * ROOT_C, 8 * ROOT_R, 8 * ROOT_UA, 8 * ROOT_UB,
                8 * ROOT_UC, 8 * ROOT_MASK, SENT_V_LO, SENT_V_HI, SENT_U_LO, SENT_U_HI);
   if (masked)
      eut_text_add(t, "shl v3, v1, #2\n"
                      "zext64 v8, v3\n"
                      "iadd64 v8, v8, u18\n"
                      "ldg.b32 v18, v8\n"
                      "if _, v18 @skip\n");
   const char *dst = f == FORM_UD || f == FORM_UU ? "u16" : f == FORM_ALIAS ? "v10" : "v16";
   eut_text_add(t, "%s %s", k->mnemonic, dst);
   for (int s = 0; s < k->nsrc; s++) {
      char op[32];
      operand_text(op, sizeof(op), k, f, s, imm);
      eut_text_add(t, ", %s", op);
   }
   eut_text_add(t, "\n");
   if (masked)
      eut_text_add(t, "skip: endif\n");
   const char *stored = f == FORM_UD || f == FORM_UU ? "u16" : f == FORM_ALIAS ? "v10" : "v16";
   eut_text_add(t, "iadd64 v6, v4, u6\n"
                   "stg.b64 _, v6, %s\n"
                   "exit\n", stored);
}

uint64_t isa_form_operand(const struct isa_case *k, enum isa_form f, int s, uint64_t x,
                          uint64_t u, uint32_t imm)
{
   int slot = special_slot(k, f);
   bool special = slot == s || slot == 3;
   uint64_t v = x;
   if (special && (f == FORM_UB || f == FORM_UU))
      v = u;
   else if (special)   /* 64-bit operands sign-extend the immediate */
      v = k->src64[s] ? (uint64_t)(int64_t)(int32_t)imm : imm;
   return k->src64[s] ? v : (uint32_t)v;
}

uint64_t isa_form_stored(const struct isa_case *k, enum isa_form f, uint64_t result, uint64_t a)
{
   if (k->dst64)
      return result;
   uint32_t lo = (uint32_t)result;
   uint32_t hi = f == FORM_UD || f == FORM_UU ? SENT_U_HI
                 : f == FORM_ALIAS              ? (uint32_t)(a >> 32)
                                                : SENT_V_HI;
   return (uint64_t)hi << 32 | lo;
}

const char *isa_value_text(const struct isa_case *k, int which, uint64_t v, char *buf,
                           size_t size)
{
   if (double_source(k->op, which))
      snprintf(buf, size, "0x%016llx (%.17g)", (unsigned long long)v, D(v));
   else if (k->src64[which])
      snprintf(buf, size, "0x%016llx", (unsigned long long)v);
   else if (half_source(k->op))
      snprintf(buf, size, "0x%08x (half %.9g)", (uint32_t)v, ref_h2d((uint32_t)v));
   else if (float_source(k->op, k->mod, which))
      snprintf(buf, size, "0x%08x (%.9g)", (uint32_t)v, (double)F((uint32_t)v));
   else
      snprintf(buf, size, "0x%08x (%d)", (uint32_t)v, (int32_t)v);
   return buf;
}

double isa_ref_h2d(uint32_t h)
{
   return ref_h2d(h);
}

uint32_t isa_ref_d2h(double x, uint32_t mode)
{
   return ref_d2h(x, mode);
}
