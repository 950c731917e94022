/*
 * The SIMT interpreter. This file is compiled once per warp width W (8, 16,
 * 32, 64) and per vector ISA (generic, AVX2, AVX-512): HW_W and HW_ISA name
 * the instance, so every lane loop has a constant trip count the C compiler
 * vectorizes.
 *
 * Direct threading: each decoded instruction carries its handler's address
 * and every handler ends by jumping to the next one's. Every lane is
 * computed, active or not; results are blended into the destination under
 * the execution mask. Nothing here may be C undefined behaviour for any
 * operand in any lane: divisions, shifts and float-to-int conversions are
 * defined for every input (see hw_isa.h), integer arithmetic is unsigned.
 * Global memory is read and written through relaxed atomics, because
 * shaders may race legally and TSan must stay meaningful; the one
 * exception is a whole warp's consecutive access (block_copy), exempt from
 * TSan in this file only.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hw_eu.h"
#include "hw_gpu.h"
#include "hw_interp.h"
#include "sg_atomic.h"

#ifndef HW_W
#error "HW_W must be defined"
#endif
#define W HW_W
#define CAT_(a, b, c) a##b##_##c
#define CAT(a, b, c) CAT_(a, b, c)
#define INTERP CAT(hw_interp_w, HW_W, HW_ISA)

#if W == 64
#define FULL UINT64_MAX
#else
#define FULL ((UINT64_C(1) << W) - 1)
#endif

#define LANES for (uint32_t l = 0; l < W; l++)

typedef _Atomic uint8_t atomic_u8;
typedef _Atomic uint16_t atomic_u16;
typedef _Atomic uint32_t atomic_u32;
typedef _Atomic uint64_t atomic_u64;

/* Forced into every handler that uses them: the operand accessors of ALU
 * instructions. Left to itself gcc calls them out of line, which costs a
 * call per operand and keeps the lane loops from seeing the register file.
 * (Forcing every helper inline made the build three times slower.) */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static inline float f32(uint32_t x)
{
   float f;
   memcpy(&f, &x, 4);
   return f;
}

static inline uint32_t u32(float f)
{
   uint32_t x;
   memcpy(&x, &f, 4);
   return x;
}

static inline uint32_t first_lane(uint64_t m)
{
   return (uint32_t)__builtin_ctzll(m);
}

/* Flow instructions set the mask far more often than they change it (a
 * loop's BRK and CONTJOIN while every lane stays), so an unchanged mask
 * costs a compare; a new one is spread to lane_mask on 32-bit halves,
 * shifts the lane loop vectorizes. */
static inline void set_exec(struct hw_warp *wp, uint64_t e)
{
   if (wp->exec == e)
      return;
   wp->exec = e;
   uint32_t half[2] = {(uint32_t)e, (uint32_t)(e >> 32)};
   LANES wp->lane_mask[l] = -(int32_t)((half[l / 32] >> (l % 32)) & 1u);
}

/* ---- operands ------------------------------------------------------------- */

static ALWAYS_INLINE const uint32_t *src(const struct hw_warp *wp, const struct isa_inst *in,
                                         uint16_t o, uint32_t *tmp)
{
   uint32_t i = isa_opnd_index(o);
   if (isa_opnd_kind(o) == ISA_OPND_VREG)
      return wp->v + i * W;
   /* One broadcast loop for every other kind keeps the inlined code small. */
   uint32_t x = isa_opnd_kind(o) == ISA_OPND_UREG ? wp->u[i]
                : isa_opnd_kind(o) == ISA_OPND_IMM ? in->imm : 0;
   LANES tmp[l] = x;
   return tmp;
}

/* A uniform operand's value (a vector register gives its first active lane). */
static ALWAYS_INLINE uint32_t scalar(const struct hw_warp *wp, const struct isa_inst *in, uint16_t o)
{
   uint32_t i = isa_opnd_index(o);
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: return wp->v[i * W + (wp->exec ? first_lane(wp->exec) : 0)];
   case ISA_OPND_UREG: return wp->u[i];
   case ISA_OPND_IMM: return in->imm;
   default: return 0;
   }
}

/* A vector register operand, in place. Its kind bits (ISA_OPND_VREG) are
 * zero, so the operand is the register's index. */
static ALWAYS_INLINE uint32_t *vreg(const struct hw_warp *wp, uint16_t o)
{
   return wp->v + (uint32_t)o * W;
}

/* A uniform register or immediate operand's value (the uniform form of an
 * ALU instruction has no other kind of source). */
static ALWAYS_INLINE uint32_t uval(const struct hw_warp *wp, const struct isa_inst *in, uint16_t o)
{
   return isa_opnd_kind(o) == ISA_OPND_UREG ? wp->u[isa_opnd_index(o)] : in->imm;
}

/* d = r in the lanes of m (lane_mask), d elsewhere. */
static ALWAYS_INLINE void blend(uint32_t *d, const uint32_t *r, const int32_t *m)
{
   LANES d[l] = (r[l] & (uint32_t)m[l]) | (d[l] & ~(uint32_t)m[l]);
}

/* Eight lanes as one 32-byte vector (two SSE moves in the portable build). */
typedef uint32_t hw_vec8 __attribute__((vector_size(32), aligned(4), may_alias));

/* A register's lanes, copied as vectors: as a memcpy of W * 4 bytes gcc
 * emitted rep movs, which takes tens of cycles to start, in every 64-bit
 * write-back. */
static ALWAYS_INLINE void copy_lanes(uint32_t *restrict d, const uint32_t *restrict r)
{
   for (uint32_t j = 0; j < W / 8; j++)
      *(hw_vec8 *)(d + 8 * j) = *(const hw_vec8 *)(r + 8 * j);
}

static ALWAYS_INLINE void write_v(struct hw_warp *wp, uint32_t i, const uint32_t *r)
{
   /* It is inlined everywhere: one loop (the blend), and a copy. */
   uint32_t *d = wp->v + i * W;
   if (wp->exec == FULL) {
      copy_lanes(d, r);   /* r is a temporary or another register, never d */
      return;
   }
   blend(d, r, wp->lane_mask);
}

/* Writes a result: vector registers under the mask; a uniform register
 * takes the (warp-invariant) value of the first active lane. */
static ALWAYS_INLINE void write(struct hw_warp *wp, uint16_t o, const uint32_t *r)
{
   uint32_t i = isa_opnd_index(o);
   if (isa_opnd_kind(o) == ISA_OPND_VREG)
      write_v(wp, i, r);
   else if (isa_opnd_kind(o) == ISA_OPND_UREG && wp->exec)
      wp->u[i] = r[first_lane(wp->exec)];
}

static inline void src64(const struct hw_warp *wp, const struct isa_inst *in, uint16_t o,
                         uint64_t *out)
{
   uint32_t i = isa_opnd_index(o);
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: {
      const uint32_t *lo = wp->v + i * W, *hi = lo + W;
      LANES out[l] = lo[l] | ((uint64_t)hi[l] << 32);
      return;
   }
   case ISA_OPND_UREG: {
      uint64_t x = wp->u[i] | ((uint64_t)wp->u[i + 1] << 32);
      LANES out[l] = x;
      return;
   }
   case ISA_OPND_IMM: {
      uint64_t x = (uint64_t)(int64_t)(int32_t)in->imm;   /* sign-extended */
      LANES out[l] = x;
      return;
   }
   default:
      LANES out[l] = 0;
   }
}

/* A 64-bit operand's uniform value (a vector pair gives its first active lane). */
static inline uint64_t scalar64(const struct hw_warp *wp, const struct isa_inst *in, uint16_t o)
{
   uint32_t i = isa_opnd_index(o);
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: {
      uint32_t l = wp->exec ? first_lane(wp->exec) : 0;
      return wp->v[i * W + l] | ((uint64_t)wp->v[(i + 1) * W + l] << 32);
   }
   case ISA_OPND_UREG: return wp->u[i] | ((uint64_t)wp->u[i + 1] << 32);
   case ISA_OPND_IMM: return (uint64_t)(int64_t)(int32_t)in->imm;   /* sign-extended */
   default: return 0;
   }
}

/* A 64-bit operand as its two 32-bit halves: a vector pair is read in place,
 * anything else is broadcast into tlo/thi. Lane loops on halves vectorize
 * at 32 bits, twice the lanes of 64-bit temporaries. */
static inline void src_pair(const struct hw_warp *wp, const struct isa_inst *in, uint16_t o,
                            uint32_t *tlo, uint32_t *thi, const uint32_t **lo,
                            const uint32_t **hi)
{
   if (isa_opnd_kind(o) == ISA_OPND_VREG) {
      *lo = wp->v + isa_opnd_index(o) * W;
      *hi = *lo + W;
      return;
   }
   uint64_t x = scalar64(wp, in, o);
   LANES {
      tlo[l] = (uint32_t)x;
      thi[l] = (uint32_t)(x >> 32);
   }
   *lo = tlo;
   *hi = thi;
}

/* Writes a 64-bit result given as halves (see write() for a uniform dst).
 * lo may be the destination's own low register (then left as it is); hi
 * must be a temporary. */
static inline void write_pair(struct hw_warp *wp, uint16_t o, const uint32_t *lo,
                              const uint32_t *hi)
{
   uint32_t i = isa_opnd_index(o);
   if (isa_opnd_kind(o) == ISA_OPND_VREG) {
      if (lo != wp->v + i * W)
         write_v(wp, i, lo);
      write_v(wp, i + 1, hi);
   } else if (isa_opnd_kind(o) == ISA_OPND_UREG && wp->exec) {
      uint32_t f = first_lane(wp->exec);
      wp->u[i] = lo[f];
      wp->u[i + 1] = hi[f];
   }
}

static inline void write_u64(struct hw_warp *wp, uint16_t o, uint64_t x)
{
   uint32_t i = isa_opnd_index(o);
   wp->u[i] = (uint32_t)x;
   wp->u[i + 1] = (uint32_t)(x >> 32);
}

static inline void write64(struct hw_warp *wp, uint16_t o, const uint64_t *r)
{
   uint32_t lo[W], hi[W];
   LANES {
      lo[l] = (uint32_t)r[l];
      hi[l] = (uint32_t)(r[l] >> 32);
   }
   write_pair(wp, o, lo, hi);
}

/* ---- defined results for every input ------------------------------------------ */

static inline uint32_t sdiv(uint32_t a, uint32_t b)
{
   int32_t x = (int32_t)a, y = (int32_t)b;
   if (y == 0)
      return UINT32_MAX;
   if (x == INT32_MIN && y == -1)
      return a;
   return (uint32_t)(x / y);
}

static inline uint32_t srem(uint32_t a, uint32_t b)
{
   int32_t x = (int32_t)a, y = (int32_t)b;
   if (y == 0)
      return a;
   if (x == INT32_MIN && y == -1)
      return 0;
   return (uint32_t)(x % y);
}

static inline uint32_t smod(uint32_t a, uint32_t b)
{
   int32_t y = (int32_t)b;
   uint32_t r = srem(a, b);
   if (y != 0 && r != 0 && (((int32_t)r < 0) != (y < 0)))
      r += b;
   return r;
}

/* 64-bit division and remainder, with the 32-bit forms' results for the
 * cases C leaves undefined. */
static inline uint64_t sdiv64(uint64_t a, uint64_t b)
{
   int64_t x = (int64_t)a, y = (int64_t)b;
   if (y == 0)
      return UINT64_MAX;
   if (x == INT64_MIN && y == -1)
      return a;
   return (uint64_t)(x / y);
}

static inline uint64_t srem64(uint64_t a, uint64_t b)
{
   int64_t x = (int64_t)a, y = (int64_t)b;
   if (y == 0)
      return a;
   if (x == INT64_MIN && y == -1)
      return 0;
   return (uint64_t)(x % y);
}

static inline uint64_t smod64(uint64_t a, uint64_t b)
{
   int64_t y = (int64_t)b;
   uint64_t r = srem64(a, b);
   if (y != 0 && r != 0 && (((int64_t)r < 0) != (y < 0)))
      r += b;
   return r;
}

static inline uint64_t f2i64_s(float x)
{
   if (x != x)
      return 0;
   if (x >= 9223372036854775808.0f)
      return (uint64_t)INT64_MAX;
   if (x <= -9223372036854775808.0f)
      return (uint64_t)INT64_MIN;
   return (uint64_t)(int64_t)x;
}

static inline uint64_t f2i64_u(float x)
{
   if (!(x > 0.0f))
      return 0;   /* NaN, zero, negatives */
   if (x >= 18446744073709551616.0f)
      return UINT64_MAX;
   return (uint64_t)x;
}

static inline uint32_t f2i_s(float x)
{
   if (x != x)
      return 0;
   if (x >= 2147483648.0f)
      return (uint32_t)INT32_MAX;
   if (x <= -2147483648.0f)
      return (uint32_t)INT32_MIN;
   return (uint32_t)(int32_t)x;
}

static inline uint32_t f2i_u(float x)
{
   if (!(x > -1.0f))
      return 0;   /* NaN and negatives */
   if (x >= 4294967296.0f)
      return UINT32_MAX;
   return (uint32_t)x;
}

static inline uint32_t bfe_u(uint32_t a, uint32_t off, uint32_t count)
{
   off &= 31;
   count = count > 32 - off ? 32 - off : count;
   if (count == 0)
      return 0;
   uint32_t mask = count == 32 ? UINT32_MAX : (UINT32_C(1) << count) - 1;
   return (a >> off) & mask;
}

static inline uint32_t bfe_s(uint32_t a, uint32_t off, uint32_t count)
{
   off &= 31;
   count = count > 32 - off ? 32 - off : count;
   uint32_t v = bfe_u(a, off, count);
   if (count == 0 || count == 32)
      return v;
   uint32_t sign = UINT32_C(1) << (count - 1);
   return (v ^ sign) - sign;
}

/* c packs the offset (bits 0-7) and the count (bits 8-15). */
static inline uint32_t bfi(uint32_t base, uint32_t insert, uint32_t c)
{
   uint32_t off = c & 31, count = (c >> 8) & 63;
   count = count > 32 - off ? 32 - off : count;
   if (count == 0)
      return base;
   uint32_t mask = (count == 32 ? UINT32_MAX : (UINT32_C(1) << count) - 1) << off;
   return (base & ~mask) | ((insert << off) & mask);
}

static inline uint32_t bitrev(uint32_t x)
{
   x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
   x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
   x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
   x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
   return (x >> 16) | (x << 16);
}

static inline uint32_t findmsb_s(uint32_t a)
{
   uint32_t x = (int32_t)a < 0 ? ~a : a;
   return x ? 31u - (uint32_t)__builtin_clz(x) : UINT32_MAX;
}

static inline uint32_t icmp(uint32_t mod, uint32_t a, uint32_t b)
{
   int32_t x = (int32_t)a, y = (int32_t)b;
   switch (mod) {
   case ISA_ICMP_EQ: return a == b;
   case ISA_ICMP_NE: return a != b;
   case ISA_ICMP_LT_S: return x < y;
   case ISA_ICMP_LE_S: return x <= y;
   case ISA_ICMP_GT_S: return x > y;
   case ISA_ICMP_GE_S: return x >= y;
   case ISA_ICMP_LT_U: return a < b;
   case ISA_ICMP_LE_U: return a <= b;
   case ISA_ICMP_GT_U: return a > b;
   case ISA_ICMP_GE_U: return a >= b;
   default: return 0;
   }
}

static inline uint32_t icmp64(uint32_t mod, uint64_t a, uint64_t b)
{
   int64_t x = (int64_t)a, y = (int64_t)b;
   switch (mod) {
   case ISA_ICMP_EQ: return a == b;
   case ISA_ICMP_NE: return a != b;
   case ISA_ICMP_LT_S: return x < y;
   case ISA_ICMP_LE_S: return x <= y;
   case ISA_ICMP_GT_S: return x > y;
   case ISA_ICMP_GE_S: return x >= y;
   case ISA_ICMP_LT_U: return a < b;
   case ISA_ICMP_LE_U: return a <= b;
   case ISA_ICMP_GT_U: return a > b;
   case ISA_ICMP_GE_U: return a >= b;
   default: return 0;
   }
}

/* An isa_fcmp comparison of two floats of type T (float or double: one
 * body, so both widths order and treat NaNs alike). */
#define FCMP_BODY(mod, a, b)                                                    \
   bool uno = a != a || b != b;                                                 \
   switch (mod) {                                                               \
   case ISA_FCMP_OEQ: return !uno && a == b;                                    \
   case ISA_FCMP_ONE: return !uno && a != b;                                    \
   case ISA_FCMP_OLT: return !uno && a < b;                                     \
   case ISA_FCMP_OLE: return !uno && a <= b;                                    \
   case ISA_FCMP_OGT: return !uno && a > b;                                     \
   case ISA_FCMP_OGE: return !uno && a >= b;                                    \
   case ISA_FCMP_UEQ: return uno || a == b;                                     \
   case ISA_FCMP_UNE: return uno || a != b;                                     \
   case ISA_FCMP_ULT: return uno || a < b;                                      \
   case ISA_FCMP_ULE: return uno || a <= b;                                     \
   case ISA_FCMP_UGT: return uno || a > b;                                      \
   case ISA_FCMP_UGE: return uno || a >= b;                                     \
   case ISA_FCMP_ORD: return !uno;                                              \
   case ISA_FCMP_UNO: return uno;                                               \
   case ISA_FCMP_ISNAN: return a != a;                                          \
   case ISA_FCMP_ISINF: return isinf(a) != 0;                                   \
   default: return 0;                                                           \
   }

static inline uint32_t fcmp(uint32_t mod, float a, float b)
{
   FCMP_BODY(mod, a, b)
}

static inline uint32_t fcmp_u32(uint32_t mod, uint32_t a, uint32_t b)
{
   return fcmp(mod, f32(a), f32(b));
}

static inline float fmath1(uint32_t mod, float a)
{
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
   default: return NAN;
   }
}

static inline float fmath2(uint32_t mod, float a, uint32_t braw)
{
   float b = f32(braw);
   switch (mod) {
   case ISA_FM_ATAN2: return atan2f(a, b);
   case ISA_FM_POW: return powf(a, b);
   case ISA_FM_FMOD: return fmodf(a, b);
   case ISA_FM_LDEXP: return ldexpf(a, (int32_t)braw);
   default: return NAN;
   }
}

static inline double f64(uint64_t x)
{
   double d;
   memcpy(&d, &x, 8);
   return d;
}

static inline uint64_t u64(double d)
{
   uint64_t x;
   memcpy(&x, &d, 8);
   return x;
}

/* IEEE 754 binary16 <-> binary32; f2h_rte rounds to nearest even. */
static inline uint32_t f2h_rte(uint32_t f)
{
   uint32_t sign = (f >> 16) & 0x8000u, exp = (f >> 23) & 0xffu, man = f & 0x7fffffu;
   if (exp == 0xff)   /* inf, NaN (kept quiet) */
      return sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0);
   int32_t e = (int32_t)exp - 127 + 15;
   if (e >= 31)
      return sign | 0x7c00u;
   if (e <= 0) {   /* subnormal or zero: shift the implicit one in */
      if (e < -10)
         return sign;
      man |= 0x800000u;
      uint32_t shift = (uint32_t)(14 - e);
      uint32_t h = man >> shift, rest = man & ((1u << shift) - 1), half = 1u << (shift - 1);
      if (rest > half || (rest == half && (h & 1)))
         h++;
      return sign | h;
   }
   uint32_t h = ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1fffu;
   if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
      h++;   /* may carry into the exponent, up to infinity: correct */
   return sign | h;
}

/*
 * Conversions to a narrower binary format with a rounding mode (enum
 * isa_round): binary16 (p = 10 fraction bits, largest exponent emax = 15)
 * and binary32 (23, 127). round_narrow gives the magnitude's bits of the
 * finite nonzero value sig * 2^exp (sig < 2^53, neg its sign) in exact
 * integer arithmetic, so a double becomes a half with one rounding.
 */
static inline uint32_t round_narrow(bool neg, uint64_t sig, int32_t exp, uint32_t p,
                                    int32_t emax, uint32_t mode)
{
   int32_t e = 63 - __builtin_clzll(sig) + exp;   /* the value is in [2^e, 2^(e+1)) */
   int32_t emin = 1 - emax;
   uint32_t inf = (uint32_t)(2 * emax + 1) << p;
   bool away = mode == ISA_RND_RTE || (mode == ISA_RND_RTP && !neg) ||
               (mode == ISA_RND_RTN && neg);
   if (e > emax)   /* past the largest finite value: infinity or that value */
      return away ? inf : inf - 1;
   int32_t shift = (e < emin ? emin : e) - (int32_t)p - exp;   /* bits below the last place */
   uint64_t h;
   if (shift <= 0) {
      h = sig << -shift;   /* exact */
   } else {
      /* Past 63 bits every bit of sig (< 2^53) is below half the last place. */
      uint64_t half = shift >= 64 ? UINT64_MAX : UINT64_C(1) << (shift - 1);
      uint64_t rest = shift >= 64 ? sig : sig & ((half << 1) - 1);
      h = shift >= 64 ? 0 : sig >> shift;
      switch (mode) {
      case ISA_RND_RTE: h += rest > half || (rest == half && (h & 1)); break;
      case ISA_RND_RTP: h += rest && !neg; break;
      case ISA_RND_RTN: h += rest && neg; break;
      default: break;   /* RTZ */
      }
   }
   /* Normal: the biased exponent above the fraction (a carry out of the
    * fraction moves into it); subnormal: the fraction alone, where a carry
    * makes the least normal value. */
   uint64_t bits = e < emin ? h : ((uint64_t)(e + emax) << p) + h - (UINT64_C(1) << p);
   if (bits >= inf)   /* rounded up past the largest finite value */
      return away ? inf : inf - 1;
   return (uint32_t)bits;
}

/* A binary64's bits in the format of p fraction bits, largest exponent
 * emax and sign bit sign_bit; NaNs stay quiet NaNs with the top of their
 * payload. */
static inline uint32_t narrow(uint64_t x, uint32_t p, int32_t emax, uint32_t sign_bit,
                              uint32_t mode)
{
   bool neg = x >> 63;
   uint32_t sign = (uint32_t)neg << sign_bit, exp = (uint32_t)(x >> 52) & 0x7ffu;
   uint64_t man = x & ((UINT64_C(1) << 52) - 1);
   uint32_t inf = (uint32_t)(2 * emax + 1) << p;
   if (exp == 0x7ff)
      return sign | inf | (man ? (1u << (p - 1)) | (uint32_t)(man >> (52 - p)) : 0);
   if (exp == 0 && man == 0)
      return sign;
   uint64_t sig = exp ? man | (UINT64_C(1) << 52) : man;
   int32_t e = (exp ? (int32_t)exp : 1) - 1075;
   return sign | round_narrow(neg, sig, e, p, emax, mode);
}

static inline uint32_t d2h(uint64_t x, uint32_t mode)
{
   return narrow(x, 10, 15, 15, mode);
}

static inline uint32_t d2f(uint64_t x, uint32_t mode)
{
   return narrow(x, 23, 127, 31, mode);
}

/* F2H: the common mode by binary32 bits, the others through the (exact)
 * binary64 of a; a NaN keeps its own payload either way. */
static inline uint32_t f2h(uint32_t f, uint32_t mode)
{
   mode = ISA_RND_MODE(mode);
   if (mode == ISA_RND_RTE || (f & 0x7f800000u) == 0x7f800000u)
      return f2h_rte(f);
   return d2h(u64((double)f32(f)), mode);
}

static inline double h2d(uint32_t h)
{
   return (double)f32(isa_h2f(h));
}

/* binary16 arithmetic: in binary32, one rounding to binary16 (exact for
 * min and max). */
static inline uint32_t hop2(uint32_t op, uint32_t a, uint32_t b)
{
   float x = f32(isa_h2f(a)), y = f32(isa_h2f(b));
   switch (op) {
   case ISA_OP_HADD: return f2h_rte(u32(x + y));
   case ISA_OP_HSUB: return f2h_rte(u32(x - y));
   case ISA_OP_HMUL: return f2h_rte(u32(x * y));
   case ISA_OP_HDIV: return f2h_rte(u32(x / y));
   case ISA_OP_HMIN: return f2h_rte(u32(x != x ? y : y != y ? x : fminf(x, y)));
   case ISA_OP_HMAX: return f2h_rte(u32(x != x ? y : y != y ? x : fmaxf(x, y)));
   default: return 0;
   }
}

static inline uint32_t hfma(uint32_t a, uint32_t b, uint32_t c)
{
   return d2h(u64(fma(h2d(a), h2d(b), h2d(c))), ISA_RND_RTE);
}

static inline uint32_t hcmp(uint32_t mod, uint32_t a, uint32_t b)
{
   return fcmp(mod, f32(isa_h2f(a)), f32(isa_h2f(b)));
}

static inline uint32_t dcmp(uint32_t mod, double a, double b)
{
   FCMP_BODY(mod, a, b)
}

/* binary64 to integers: saturating, NaN -> 0 (as F2I). */
static inline uint32_t d2i_s(double x)
{
   if (x != x)
      return 0;
   if (x >= 2147483648.0)
      return (uint32_t)INT32_MAX;
   if (x <= -2147483648.0)
      return (uint32_t)INT32_MIN;
   return (uint32_t)(int32_t)x;
}

static inline uint32_t d2i_u(double x)
{
   if (!(x > -1.0))
      return 0;   /* NaN and negatives */
   if (x >= 4294967296.0)
      return UINT32_MAX;
   return (uint32_t)x;
}

static inline uint64_t d2i64_s(double x)
{
   if (x != x)
      return 0;
   if (x >= 9223372036854775808.0)
      return (uint64_t)INT64_MAX;
   if (x <= -9223372036854775808.0)
      return (uint64_t)INT64_MIN;
   return (uint64_t)(int64_t)x;
}

static inline uint64_t d2i64_u(double x)
{
   if (!(x > -1.0))
      return 0;
   if (x >= 18446744073709551616.0)
      return UINT64_MAX;
   return (uint64_t)x;
}

/* DMIN, DMAX: a NaN operand loses, signalling or quiet (C libraries
 * differ on signalling ones). */
static inline double dmin(double a, double b)
{
   return a != a ? b : b != b ? a : fmin(a, b);
}

static inline double dmax(double a, double b)
{
   return a != a ? b : b != b ? a : fmax(a, b);
}

static inline double dsign(double x)
{
   return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x;
}

/* IDP4: the exact dot product of the bytes (at most 4 * 2^16 in
 * magnitude), then c plus it, wrapping or saturating (hw_isa.h). */
static inline uint32_t idp4(uint32_t mod, uint32_t a, uint32_t b, uint32_t c)
{
   uint32_t signs = ISA_DP4_SIGNS(mod);
   bool sa = signs != ISA_DP4_UU, sb = signs != ISA_DP4_UU && signs != ISA_DP4_SU;
   int32_t dot = 0;
   for (uint32_t k = 0; k < 32; k += 8) {
      uint32_t x = (a >> k) & 0xffu, y = (b >> k) & 0xffu;
      int32_t xs = sa ? (int32_t)(x ^ 0x80u) - 0x80 : (int32_t)x;
      int32_t ys = sb ? (int32_t)(y ^ 0x80u) - 0x80 : (int32_t)y;
      dot += xs * ys;
   }
   if (!(mod & ISA_DP4_SAT))
      return c + (uint32_t)dot;
   if (signs == ISA_DP4_UU) {   /* dot >= 0 */
      uint64_t sum = (uint64_t)c + (uint32_t)dot;
      return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
   }
   int64_t sum = (int64_t)(int32_t)c + dot;
   return sum > INT32_MAX ? (uint32_t)INT32_MAX
          : sum < INT32_MIN ? (uint32_t)INT32_MIN : (uint32_t)(int32_t)sum;
}

static inline float fsign(float x)
{
   return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x;
}

/* ---- faults ------------------------------------------------------------------- */

static enum hw_run_status fault(struct hw_cta *cta, struct hw_warp *wp, uint32_t pc, int lane,
                                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static enum hw_run_status fault(struct hw_cta *cta, struct hw_warp *wp, uint32_t pc, int lane,
                                const char *fmt, ...)
{
   struct hw_fault_info *f = &cta->fault;
   f->set = true;
   f->warp = wp->index;
   f->lane = lane < 0 ? UINT32_MAX : (uint32_t)lane;
   f->pc = pc;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(f->what, sizeof(f->what), fmt, ap);
   va_end(ap);
   wp->pc = pc;
   return HW_RUN_FAULT;
}

/* ---- memory ------------------------------------------------------------------- */

/* The alignment an access of `bytes` per lane needs, as a mask: natural
 * for bytes and halfwords, dwords for the wider ones. */
static inline uint32_t align_mask(uint32_t bytes)
{
   return bytes < 4 ? bytes - 1 : 3;
}

/* The host pointer of a global access, or NULL (the caller faults). */
static inline uint32_t *global_ptr(const struct hw_cta *cta, uint64_t addr, uint32_t bytes)
{
   if (addr & align_mask(bytes))
      return NULL;
   return hw_mem_check(cta->mem, addr, bytes);
}

static inline uint64_t lane_addr64(const struct hw_warp *wp, const struct isa_inst *in,
                                   uint32_t l)
{
   uint32_t i = isa_opnd_index(in->a);
   uint64_t base;
   if (isa_opnd_kind(in->a) == ISA_OPND_VREG)
      base = wp->v[i * W + l] | ((uint64_t)wp->v[(i + 1) * W + l] << 32);
   else if (isa_opnd_kind(in->a) == ISA_OPND_UREG)
      base = wp->u[i] | ((uint64_t)wp->u[i + 1] << 32);
   else
      base = 0;
   return base + (uint64_t)(int64_t)(int32_t)in->imm;
}

/* One check for a whole warp's global access: when the address operand is a
 * vector register pair, every active lane's address is aligned (as
 * align_mask says for `bytes`) and all lie
 * in a span of at most SPAN_MAX bytes of live pages, fills addr[] (every
 * lane's address) and returns the host base, so each lane's pointer is
 * base + addr[l]. Otherwise NULL: the caller checks lane by lane, which
 * also names the lane that faults. Coalesced accesses, the common case,
 * pay one page walk per warp instead of one per lane. */
#define SPAN_MAX (64u * HW_PAGE_SIZE)
static inline uint8_t *warp_span(const struct hw_cta *cta, const struct hw_warp *wp,
                                 const struct isa_inst *in, uint32_t bytes, uint64_t *addr)
{
   if (isa_opnd_kind(in->a) != ISA_OPND_VREG || !wp->exec)
      return NULL;
   const uint32_t *lo = &wp->v[isa_opnd_index(in->a) * W];
   const uint32_t *hi = lo + W;
   uint64_t off = (uint64_t)(int64_t)(int32_t)in->imm;
   LANES addr[l] = (lo[l] | ((uint64_t)hi[l] << 32)) + off;
   uint64_t mn = UINT64_MAX, mx = 0, bits = 0;
   if (wp->exec == FULL) {
      LANES {
         mn = addr[l] < mn ? addr[l] : mn;
         mx = addr[l] > mx ? addr[l] : mx;
         bits |= addr[l];
      }
   } else {
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint64_t a = addr[first_lane(m)];
         mn = a < mn ? a : mn;
         mx = a > mx ? a : mx;
         bits |= a;
      }
   }
   if ((bits & align_mask(bytes)) || mx - mn > SPAN_MAX ||
       !hw_mem_check(cta->mem, mn, mx - mn + bytes))
      return NULL;
   return cta->mem->base;
}

/* ---- coalesced global accesses: one block per warp --------------------------------- */

/* When every lane runs, each accesses n = 1, 2 or 4 dwords, and lane l's
 * address is the first lane's plus l * 4n, the warp's access is one block
 * of W * 4n bytes: returns its host pointer if it is aligned and live, else
 * NULL (the caller goes on lane by lane). One check per warp, and a copy
 * instead of W accesses. */
static inline uint8_t *warp_block(const struct hw_cta *cta, const struct hw_warp *wp,
                                  const struct isa_inst *in, uint32_t n)
{
   if (wp->exec != FULL || isa_opnd_kind(in->a) != ISA_OPND_VREG || !n || (n & (n - 1)))
      return NULL;
   uint32_t bytes = 4 * n;
   const uint32_t *lo = &wp->v[isa_opnd_index(in->a) * W], *hi = lo + W;
   uint32_t lo0 = lo[0], hi0 = hi[0], bad = 0;
   LANES bad |= (lo[l] - lo0 - bytes * l) | (hi[l] - hi0);
   if (bad || lo0 > UINT32_MAX - bytes * W)   /* the low halves must not wrap */
      return NULL;
   uint64_t addr = (lo0 | ((uint64_t)hi0 << 32)) + (uint64_t)(int64_t)(int32_t)in->imm;
   if (addr & 3)
      return NULL;
   return hw_mem_check(cta->mem, addr, (uint64_t)bytes * W);
}

/*
 * Block copies between a warp's registers and global memory (n dwords per
 * lane: register k of lane l is dword l * n + k of the block). These are
 * plain accesses, not the relaxed atomics of every other global access, so
 * that they vectorize (gcc vectorizes no atomic access). Shaders may race
 * on global memory legally (Vulkan leaves such values undefined, not the
 * behaviour); in C terms the race is on plain accesses, which on x86 are
 * the same instructions as relaxed ones. Issue 4 allows this as a
 * sanitizer exemption confined to one file: TSan does not see these
 * accesses, and the lane-by-lane paths (partial warps, scattered
 * addresses) keep it meaningful for every other one. Vector
 * types (not loops) for n = 1, so the compiler cannot turn the copy into a
 * memcpy call, which TSan would intercept.
 */
typedef uint32_t hw_u32a __attribute__((aligned(4), may_alias));
#define HW_NO_TSAN __attribute__((no_sanitize("thread")))

/* Loads (store false) or stores (store true) a warp's n = 1, 2 or 4
 * registers from v as one block. Also used for consecutive shared-memory
 * accesses (warp_local), which race with nothing: only the CTA's worker
 * touches its shared memory. */
static HW_NO_TSAN void block_copy(uint32_t *restrict v, uint8_t *restrict block, uint32_t n,
                                  bool store)
{
   hw_u32a *p = (hw_u32a *)block;
   if (n == 1) {
      for (uint32_t j = 0; j < W / 8; j++) {
         hw_vec8 *x = (hw_vec8 *)(v + 8 * j), *y = (hw_vec8 *)(p + 8 * j);
         if (store)
            *y = *x;
         else
            *x = *y;
      }
      return;
   }
   /* A constant stride for each width, so the lane loops vectorize. */
#define BLOCK_LANES(N)                                                          \
   for (uint32_t k = 0; k < (N); k++) {                                         \
      LANES {                                                                   \
         if (store)                                                             \
            p[(N) * l + k] = v[k * W + l];                                      \
         else                                                                   \
            v[k * W + l] = p[(N) * l + k];                                      \
      }                                                                         \
   }
   if (n == 2)
      BLOCK_LANES(2)
   else
      BLOCK_LANES(4)
#undef BLOCK_LANES
}

static inline uint32_t lane_addr32(const struct hw_warp *wp, const struct isa_inst *in,
                                   uint32_t l)
{
   uint32_t i = isa_opnd_index(in->a);
   switch (isa_opnd_kind(in->a)) {
   case ISA_OPND_VREG: return wp->v[i * W + l] + in->imm;
   case ISA_OPND_UREG: return wp->u[i] + in->imm;
   default: return in->imm;
   }
}

/* Shared or private memory of a lane: base, size, and the lane's byte
 * offset into it; NULL if the access does not fit. */
static inline uint8_t *local_ptr(const struct hw_cta *cta, const struct hw_warp *wp, bool shared,
                                 uint32_t addr, uint32_t bytes, uint32_t l)
{
   uint64_t size = shared ? cta->params->shared_bytes : cta->params->private_bytes;
   if ((addr & align_mask(bytes)) || (uint64_t)addr + bytes > size)
      return NULL;
   if (shared)
      return cta->shared + addr;
   uint64_t invocation = (uint64_t)wp->index * W + l;
   return cta->private_mem + invocation * size + addr;
}

/* A whole warp's shared or private access: when every lane runs and the
 * address is a vector register, all W offsets are checked at once (a loop
 * the compiler vectorizes) and returned in off[]. LOCAL_SLOW when any
 * lane's access is misaligned or does not fit (or the warp is partial): the
 * caller then goes lane by lane, which names the lane that faults.
 * LOCAL_BLOCK when, in shared memory, the lanes access consecutive n-dword
 * elements (lane l at off[0] + 4n * l: an array indexed by the invocation),
 * a block copy; else LOCAL_GATHER. */
enum local_access { LOCAL_SLOW, LOCAL_GATHER, LOCAL_BLOCK };
static inline enum local_access warp_local(const struct hw_cta *cta, const struct hw_warp *wp,
                                           const struct isa_inst *in, bool shared, uint32_t n,
                                           uint32_t *off)
{
   uint32_t bytes = 4 * n;
   uint64_t size = shared ? cta->params->shared_bytes : cta->params->private_bytes;
   if (wp->exec != FULL || isa_opnd_kind(in->a) != ISA_OPND_VREG || size < bytes ||
       size > UINT32_MAX)
      return LOCAL_SLOW;
   const uint32_t *a = &wp->v[isa_opnd_index(in->a) * W];
   uint32_t limit = (uint32_t)(size - bytes), bad = 0, scattered = 0, off0 = a[0] + in->imm;
   LANES {
      off[l] = a[l] + in->imm;
      bad |= (off[l] & 3) | (uint32_t)(off[l] > limit);
      scattered |= off[l] - off0 - bytes * l;
   }
   if (bad)
      return LOCAL_SLOW;
   return shared && !scattered && n != 3 ? LOCAL_BLOCK : LOCAL_GATHER;
}

/* The host base of a warp's shared or private memory, and the distance
 * between consecutive lanes' private memories (0 for shared memory, which
 * all lanes share): lane l's offset off is at base + l * stride + off. */
static inline uint8_t *local_base(const struct hw_cta *cta, const struct hw_warp *wp,
                                  bool shared, size_t *stride)
{
   *stride = shared ? 0 : cta->params->private_bytes;
   if (shared)
      return cta->shared;
   return cta->private_mem + (uint64_t)wp->index * W * cta->params->private_bytes;
}

static inline uint64_t atomic_op64(uint32_t op, atomic_u64 *p, uint64_t v)
{
   uint64_t old;
   switch (op) {
   case ISA_ATOM_ADD: return atomic_fetch_add(p, v);
   case ISA_ATOM_AND: return atomic_fetch_and(p, v);
   case ISA_ATOM_OR: return atomic_fetch_or(p, v);
   case ISA_ATOM_XOR: return atomic_fetch_xor(p, v);
   case ISA_ATOM_XCHG: return atomic_exchange(p, v);
   default:
      old = atomic_load(p);
      for (;;) {
         uint64_t n = old;
         switch (op) {
         case ISA_ATOM_MIN_S: n = (int64_t)v < (int64_t)old ? v : old; break;
         case ISA_ATOM_MIN_U: n = v < old ? v : old; break;
         case ISA_ATOM_MAX_S: n = (int64_t)v > (int64_t)old ? v : old; break;
         case ISA_ATOM_MAX_U: n = v > old ? v : old; break;
         case ISA_ATOM_FADD: n = u64(f64(old) + f64(v)); break;
         default: break;
         }
         if (atomic_compare_exchange_weak(p, &old, n))
            return old;
      }
   }
}

static inline uint32_t atomic_op32(uint32_t op, atomic_u32 *p, uint32_t v)
{
   uint32_t old;
   switch (op) {
   case ISA_ATOM_ADD: return atomic_fetch_add(p, v);
   case ISA_ATOM_AND: return atomic_fetch_and(p, v);
   case ISA_ATOM_OR: return atomic_fetch_or(p, v);
   case ISA_ATOM_XOR: return atomic_fetch_xor(p, v);
   case ISA_ATOM_XCHG: return atomic_exchange(p, v);
   default:
      old = atomic_load(p);
      for (;;) {
         uint32_t n = old;
         switch (op) {
         case ISA_ATOM_MIN_S: n = (int32_t)v < (int32_t)old ? v : old; break;
         case ISA_ATOM_MIN_U: n = v < old ? v : old; break;
         case ISA_ATOM_MAX_S: n = (int32_t)v > (int32_t)old ? v : old; break;
         case ISA_ATOM_MAX_U: n = v > old ? v : old; break;
         case ISA_ATOM_FADD: n = u32(f32(old) + f32(v)); break;
         default: break;
         }
         if (atomic_compare_exchange_weak(p, &old, n))
            return old;
      }
   }
}

/* ---- mask stack ----------------------------------------------------------------- */

/* The CTA's first running warp after wp, or NULL. */
static inline struct hw_warp *next_running(const struct hw_cta *cta, const struct hw_warp *wp)
{
   for (uint32_t i = wp->index + 1; i < cta->warp_count; i++) {
      if (cta->warps[i].state == HW_WARP_RUNNING)
         return &cta->warps[i];
   }
   return NULL;
}

/* The last running warp of the CTA reached the barrier at pc. When every
 * warp waits there (none exited, none at another barrier), the barrier is
 * released here and the CTA's first warp goes on, as run_warps would do
 * after its sweep; NULL otherwise, for run_warps to report the fault or
 * warn about the exited invocations. */
static inline struct hw_warp *release_here(struct hw_cta *cta, uint32_t pc)
{
   for (uint32_t i = 0; i < cta->warp_count; i++) {
      const struct hw_warp *w = &cta->warps[i];
      if (w->state != HW_WARP_AT_BARRIER || w->barrier_pc != pc)
         return NULL;
   }
   for (uint32_t i = 0; i < cta->warp_count; i++)
      cta->warps[i].state = HW_WARP_RUNNING;
   return &cta->warps[0];
}

/* The construct a BRK (levels further out) or a CONT leaves, or NULL. */
static inline struct hw_mask_entry *target_construct(struct hw_warp *wp, bool cont, uint32_t levels)
{
   for (uint32_t i = wp->sp; i-- > 0;) {
      uint32_t k = wp->stack[i].kind;
      if (k == HW_MASK_LOOP || (!cont && k == HW_MASK_SWITCH)) {
         if (cont || levels-- == 0)
            return &wp->stack[i];
      }
   }
   return NULL;
}

/* Lanes leaving a loop (break or continue) must not come back when the
 * selections inside it restore their masks. */
static inline void forget_lanes_above(struct hw_warp *wp, struct hw_mask_entry *loop, uint64_t m)
{
   for (struct hw_mask_entry *e = &wp->stack[wp->sp - 1]; e > loop; e--) {
      e->saved &= ~m;
      e->other &= ~m;
   }
}

/* The lanes whose condition is non-zero, as a mask: built on 32-bit halves,
 * whose variable shifts and OR the compiler vectorizes (a 64-bit shift per
 * lane stays scalar). */
static inline uint64_t lane_bits(const uint32_t *cond)
{
   uint32_t half[2] = {0, 0};
   for (uint32_t h = 0; h < (W + 31) / 32; h++) {
      uint32_t m = 0;
      for (uint32_t l = 0; l < (W < 32 ? W : 32); l++)
         m |= (uint32_t)(cond[32 * h + l] != 0) << l;
      half[h] = m;
   }
   return half[0] | (uint64_t)half[1] << 32;
}

/* ---- reductions ----------------------------------------------------------------- */

static inline uint32_t red_identity(uint32_t op)
{
   switch (op) {
   case ISA_RED_IMUL: return 1;
   case ISA_RED_IMIN_S: return (uint32_t)INT32_MAX;
   case ISA_RED_IMIN_U: return UINT32_MAX;
   case ISA_RED_IMAX_S: return (uint32_t)INT32_MIN;
   case ISA_RED_AND: return UINT32_MAX;
   case ISA_RED_FADD: return u32(0.0f);
   case ISA_RED_FMUL: return u32(1.0f);
   case ISA_RED_FMIN: return u32(INFINITY);
   case ISA_RED_FMAX: return u32(-INFINITY);
   default: return 0;
   }
}

static inline uint64_t red_identity64(uint32_t op)
{
   switch (op) {
   case ISA_RED_IMUL: return 1;
   case ISA_RED_IMIN_S: return (uint64_t)INT64_MAX;
   case ISA_RED_IMIN_U: case ISA_RED_AND: return UINT64_MAX;
   case ISA_RED_IMAX_S: return (uint64_t)INT64_MIN;
   case ISA_RED_FMUL: return u64(1.0);
   case ISA_RED_FMIN: return u64(INFINITY);
   case ISA_RED_FMAX: return u64(-INFINITY);
   default: return 0;   /* FADD: +0.0, as the 32-bit one */
   }
}

static inline uint64_t red_apply64(uint32_t op, uint64_t x, uint64_t y)
{
   switch (op) {
   case ISA_RED_IADD: return x + y;
   case ISA_RED_IMUL: return x * y;
   case ISA_RED_IMIN_S: return (int64_t)x < (int64_t)y ? x : y;
   case ISA_RED_IMIN_U: return x < y ? x : y;
   case ISA_RED_IMAX_S: return (int64_t)x > (int64_t)y ? x : y;
   case ISA_RED_IMAX_U: return x > y ? x : y;
   case ISA_RED_AND: return x & y;
   case ISA_RED_OR: return x | y;
   case ISA_RED_XOR: return x ^ y;
   case ISA_RED_FADD: return u64(f64(x) + f64(y));
   case ISA_RED_FMUL: return u64(f64(x) * f64(y));
   case ISA_RED_FMIN: return u64(dmin(f64(x), f64(y)));
   case ISA_RED_FMAX: return u64(dmax(f64(x), f64(y)));
   default: return x;
   }
}

static inline uint32_t red_apply(uint32_t op, uint32_t x, uint32_t y)
{
   switch (op) {
   case ISA_RED_IADD: return x + y;
   case ISA_RED_IMUL: return x * y;
   case ISA_RED_IMIN_S: return (int32_t)x < (int32_t)y ? x : y;
   case ISA_RED_IMIN_U: return x < y ? x : y;
   case ISA_RED_IMAX_S: return (int32_t)x > (int32_t)y ? x : y;
   case ISA_RED_IMAX_U: return x > y ? x : y;
   case ISA_RED_AND: return x & y;
   case ISA_RED_OR: return x | y;
   case ISA_RED_XOR: return x ^ y;
   case ISA_RED_FADD: return u32(f32(x) + f32(y));
   case ISA_RED_FMUL: return u32(f32(x) * f32(y));
   case ISA_RED_FMIN: return u32(fminf(f32(x), f32(y)));
   case ISA_RED_FMAX: return u32(fmaxf(f32(x), f32(y)));
   default: return x;
   }
}

/* binary16 reductions (ISA_SUBGROUP_F16, float operations only): each step
 * rounded to binary16. */
static inline uint32_t red_identity16(uint32_t op)
{
   switch (op) {
   case ISA_RED_FMUL: return 0x3c00u;
   case ISA_RED_FMIN: return 0x7c00u;
   case ISA_RED_FMAX: return 0xfc00u;
   default: return 0;
   }
}

static inline uint32_t red_apply16(uint32_t op, uint32_t x, uint32_t y)
{
   float a = f32(isa_h2f(x)), b = f32(isa_h2f(y));
   switch (op) {
   case ISA_RED_FADD: return f2h_rte(u32(a + b));
   case ISA_RED_FMUL: return f2h_rte(u32(a * b));
   case ISA_RED_FMIN: return hop2(ISA_OP_HMIN, x, y);
   default: return hop2(ISA_OP_HMAX, x, y);
   }
}

/* The kinds of REDUCE and SCAN: 32-bit, pairs, binary16. */
enum red_kind { RED_32, RED_64, RED_16 };

static inline enum red_kind red_kind_of(uint32_t mod)
{
   uint32_t op = mod & 0xffu;
   if (mod & ISA_SUBGROUP_64)
      return RED_64;
   return (mod & ISA_SUBGROUP_F16) && op >= ISA_RED_FADD && op <= ISA_RED_FMAX ? RED_16 : RED_32;
}

static inline uint64_t red_identity_of(enum red_kind k, uint32_t op)
{
   return k == RED_64 ? red_identity64(op) : k == RED_16 ? red_identity16(op) : red_identity(op);
}

static inline uint64_t red_apply_of(enum red_kind k, uint32_t op, uint64_t x, uint64_t y)
{
   if (k == RED_64)
      return red_apply64(op, x, y);
   if (k == RED_16)
      return red_apply16(op, (uint32_t)x, (uint32_t)y);
   return red_apply(op, (uint32_t)x, (uint32_t)y);
}

/* ---- the interpreter ------------------------------------------------------------- */

#define IN (&ip->in)
/*
 * Dispatch. The instruction counter (cta->insts: dispatches to a next
 * instruction) is not bumped per instruction: a run of straight-line
 * instructions is counted when it ends, as the distance from its first
 * instruction (seg) to the current one, at every jump (GOTO) and every
 * return (RETURN, FAULT). A memory increment per instruction was a
 * dependency chain through memory on every dispatch.
 */
#define NEXT                                                                    \
   do {                                                                         \
      ip++;                                                                     \
      goto *ip->handler;                                                        \
   } while (0)
#define GOTO(target)                                                            \
   do {                                                                         \
      cta->insts += (uint64_t)(ip - seg) + 1;                                   \
      ip = code + (target);                                                     \
      seg = ip;                                                                 \
      goto *ip->handler;                                                        \
   } while (0)
#define RETURN(...)                                                             \
   do {                                                                         \
      cta->insts += (uint64_t)(ip - seg);                                       \
      return __VA_ARGS__;                                                       \
   } while (0)
#define FAULT(...) RETURN(fault(__VA_ARGS__))
/* A warp stopped at a barrier or exited: the CTA's next running warp, if
 * any, continues in this call (its first instruction counted here, as
 * run_warps counts each call's), which saves a return and a call per warp
 * and barrier. */
#define SWITCH_TO(next)                                                         \
   do {                                                                         \
      cta->insts += (uint64_t)(ip - seg) + 1;                                   \
      wp = (next);                                                              \
      cta->current = wp->index;                                                 \
      ip = seg = code + wp->pc;                                                 \
      goto *ip->handler;                                                        \
   } while (0)
#define SWITCH_OR_RETURN(status)                                                \
   do {                                                                         \
      struct hw_warp *next_ = next_running(cta, wp);                            \
      if (!next_)                                                               \
         RETURN(status);                                                        \
      SWITCH_TO(next_);                                                         \
   } while (0)
#define PC ((uint32_t)(ip - code))
/* A backward jump spends budget: when it runs out the warp yields, so the
 * scheduler can check the watchdog and a lost device. */
#define BACK_EDGE(target)                                                       \
   do {                                                                         \
      if (--cta->budget == 0) {                                                 \
         wp->pc = (target);                                                     \
         RETURN(HW_RUN_YIELD);                                                  \
      }                                                                         \
      GOTO(target);                                                             \
   } while (0)

/*
 * ALU instructions. Each handler comes in three forms; the decoder picks
 * one per instruction by its operand kinds (hw_interp.h):
 * - L_<op>, any operands: a uniform destination takes the first active
 *   lane's result (see write()), so it is computed once, from the
 *   operands' scalar values; a vector destination is computed lane by lane
 *   from sources read in place (vector registers) or broadcast (src()).
 * - LV_<op>, destination and sources all vector registers: read and
 *   written in place, with no operand kind to decode.
 * - LU_<op>, a uniform destination and uniform or immediate sources: one
 *   scalar operation (loop counters, addresses).
 * LOAD reads lane l's operands (a, b, c) for EXPR; the uniform paths read
 * the operands' values instead.
 */
#define ALU_UNIFORM(LOAD, EXPR)                                                 \
   if (isa_opnd_kind(IN->dst) != ISA_OPND_VREG) {                               \
      if (isa_opnd_kind(IN->dst) == ISA_OPND_UREG && wp->exec) {                \
         LOAD;                                                                  \
         wp->u[isa_opnd_index(IN->dst)] = (EXPR);                               \
      }                                                                         \
      NEXT;                                                                     \
   }
/* A vector destination. Registers are W-lane slots, so the destination and
 * a source are one register or disjoint, and lane l reads only lane l of
 * its sources: computing straight into the destination is right even when
 * it is also a source, which ivdep tells gcc (else it versions the loop on
 * an alias check, or does not vectorize it), as assume_safety tells clang.
 * A partial warp computes into a temporary and blends it in under the
 * execution mask. */
#if defined(__clang__)
#define IVDEP _Pragma("clang loop vectorize(assume_safety)")
#else
#define IVDEP _Pragma("GCC ivdep")
#endif
#define ALU_LANES(LOAD, EXPR)                                                   \
   do {                                                                         \
      uint32_t r_[W], *d_ = vreg(wp, IN->dst);                                  \
      uint32_t *out_ = wp->exec == FULL ? d_ : r_;                              \
      IVDEP LANES {                                                             \
         LOAD;                                                                  \
         out_[l] = (EXPR);                                                      \
      }                                                                         \
      if (out_ == r_)                                                           \
         blend(d_, r_, wp->lane_mask);                                          \
      NEXT;                                                                     \
   } while (0)
/* The uniform form. */
#define ALU_SCALAR(NAME, LOAD, EXPR)                                            \
   LU_##NAME : {                                                                \
      if (wp->exec) {                                                           \
         LOAD;                                                                  \
         wp->u[isa_opnd_index(IN->dst)] = (EXPR);                               \
      }                                                                         \
      NEXT;                                                                     \
   }
#define ALU1(NAME, EXPR)                                                        \
   L_##NAME : {                                                                 \
      ALU_UNIFORM(uint32_t a = scalar(wp, IN, IN->a), EXPR)                     \
      uint32_t ta[W];                                                           \
      const uint32_t *A = src(wp, IN, IN->a, ta);                               \
      ALU_LANES(uint32_t a = A[l], EXPR);                                       \
   }                                                                            \
   LV_##NAME : {                                                                \
      const uint32_t *A = vreg(wp, IN->a);                                      \
      ALU_LANES(uint32_t a = A[l], EXPR);                                       \
   }                                                                            \
   ALU_SCALAR(NAME, uint32_t a = uval(wp, IN, IN->a), EXPR)
#define ALU2(NAME, EXPR)                                                        \
   L_##NAME : {                                                                 \
      ALU_UNIFORM(uint32_t a = scalar(wp, IN, IN->a);                           \
                  uint32_t b = scalar(wp, IN, IN->b), EXPR)                     \
      uint32_t ta[W], tb[W];                                                    \
      const uint32_t *A = src(wp, IN, IN->a, ta), *B = src(wp, IN, IN->b, tb);  \
      ALU_LANES(uint32_t a = A[l]; uint32_t b = B[l], EXPR);                    \
   }                                                                            \
   LV_##NAME : {                                                                \
      const uint32_t *A = vreg(wp, IN->a), *B = vreg(wp, IN->b);                \
      ALU_LANES(uint32_t a = A[l]; uint32_t b = B[l], EXPR);                    \
   }                                                                            \
   ALU_SCALAR(NAME, uint32_t a = uval(wp, IN, IN->a);                           \
              uint32_t b = uval(wp, IN, IN->b), EXPR)
#define ALU3(NAME, EXPR)                                                        \
   L_##NAME : {                                                                 \
      ALU_UNIFORM(uint32_t a = scalar(wp, IN, IN->a);                           \
                  uint32_t b = scalar(wp, IN, IN->b);                           \
                  uint32_t c = scalar(wp, IN, IN->c), EXPR)                     \
      uint32_t ta[W], tb[W], tc[W];                                             \
      const uint32_t *A = src(wp, IN, IN->a, ta), *B = src(wp, IN, IN->b, tb);  \
      const uint32_t *C = src(wp, IN, IN->c, tc);                               \
      ALU_LANES(uint32_t a = A[l]; uint32_t b = B[l]; uint32_t c = C[l], EXPR); \
   }                                                                            \
   LV_##NAME : {                                                                \
      const uint32_t *A = vreg(wp, IN->a), *B = vreg(wp, IN->b);                \
      const uint32_t *C = vreg(wp, IN->c);                                      \
      ALU_LANES(uint32_t a = A[l]; uint32_t b = B[l]; uint32_t c = C[l], EXPR); \
   }                                                                            \
   ALU_SCALAR(NAME, uint32_t a = uval(wp, IN, IN->a); uint32_t b = uval(wp, IN, IN->b); \
              uint32_t c = uval(wp, IN, IN->c), EXPR)
/* Comparisons: one lane loop per modifier, chosen before the loop (a
 * switch in every lane keeps the loop from vectorizing); FN(MOD, a, b)
 * with a constant MOD folds to one comparison. Written in place when every
 * lane runs, as ALU_LANES. */
#define ICMP_MODS(X)                                                            \
   X(ISA_ICMP_EQ) X(ISA_ICMP_NE) X(ISA_ICMP_LT_S) X(ISA_ICMP_LE_S) X(ISA_ICMP_GT_S) \
   X(ISA_ICMP_GE_S) X(ISA_ICMP_LT_U) X(ISA_ICMP_LE_U) X(ISA_ICMP_GT_U) X(ISA_ICMP_GE_U)
#define FCMP_MODS(X)                                                            \
   X(ISA_FCMP_OEQ) X(ISA_FCMP_ONE) X(ISA_FCMP_OLT) X(ISA_FCMP_OLE) X(ISA_FCMP_OGT) \
   X(ISA_FCMP_OGE) X(ISA_FCMP_UEQ) X(ISA_FCMP_UNE) X(ISA_FCMP_ULT) X(ISA_FCMP_ULE) \
   X(ISA_FCMP_UGT) X(ISA_FCMP_UGE) X(ISA_FCMP_ORD) X(ISA_FCMP_UNO)
#define ICMP_CASE(MOD) case MOD: LANES r[l] = icmp(MOD, A[l], B[l]); break;
#define FCMP_CASE(MOD) case MOD: LANES r[l] = fcmp_u32(MOD, A[l], B[l]); break;
#define HCMP_CASE(MOD) case MOD: LANES r[l] = hcmp(MOD, A[l], B[l]); break;
#define CMP_LANES(FN, CASES)                                                    \
   do {                                                                         \
      uint32_t r_[W], *d_ = vreg(wp, IN->dst);                                  \
      uint32_t *r = wp->exec == FULL ? d_ : r_;                                 \
      switch (IN->mod) {                                                        \
      CASES                                                                     \
      default: LANES r[l] = FN(IN->mod, A[l], B[l]);                            \
      }                                                                         \
      if (r == r_)                                                              \
         blend(d_, r_, wp->lane_mask);                                          \
      NEXT;                                                                     \
   } while (0)
#define CMP2(NAME, FN, CASES)                                                   \
   L_##NAME : {                                                                 \
      ALU_UNIFORM(uint32_t a = scalar(wp, IN, IN->a);                           \
                  uint32_t b = scalar(wp, IN, IN->b), FN(IN->mod, a, b))        \
      uint32_t ta[W], tb[W];                                                    \
      const uint32_t *A = src(wp, IN, IN->a, ta), *B = src(wp, IN, IN->b, tb);  \
      CMP_LANES(FN, CASES);                                                     \
   }                                                                            \
   LV_##NAME : {                                                                \
      const uint32_t *A = vreg(wp, IN->a), *B = vreg(wp, IN->b);                \
      CMP_LANES(FN, CASES);                                                     \
   }                                                                            \
   ALU_SCALAR(NAME, uint32_t a = uval(wp, IN, IN->a);                           \
              uint32_t b = uval(wp, IN, IN->b), FN(IN->mod, a, b))
#define ALU64_UNIFORM(EXPR)                                                     \
   if (isa_opnd_kind(IN->dst) == ISA_OPND_UREG) {                               \
      if (wp->exec) {                                                           \
         uint64_t a = scalar64(wp, IN, IN->a), b = scalar64(wp, IN, IN->b);     \
         (void)b;                                                               \
         write_u64(wp, IN->dst, (EXPR));                                        \
      }                                                                         \
      NEXT;                                                                     \
   }
/* Vector forms work on the operands' halves in place (src_pair). */
#define ALU64_SOURCES                                                           \
   uint32_t tal[W], tah[W], tbl[W], tbh[W], rl[W], rh[W];                       \
   const uint32_t *AL, *AH, *BL, *BH;                                           \
   src_pair(wp, IN, IN->a, tal, tah, &AL, &AH);                                 \
   src_pair(wp, IN, IN->b, tbl, tbh, &BL, &BH)
#define ALU64(NAME, EXPR)                                                       \
   L_##NAME : {                                                                 \
      ALU64_UNIFORM(EXPR)                                                       \
      ALU64_SOURCES;                                                            \
      LANES {                                                                   \
         uint64_t a = AL[l] | ((uint64_t)AH[l] << 32);                          \
         uint64_t b = BL[l] | ((uint64_t)BH[l] << 32);                          \
         (void)b;                                                               \
         uint64_t r = (EXPR);                                                   \
         rl[l] = (uint32_t)r;                                                   \
         rh[l] = (uint32_t)(r >> 32);                                           \
      }                                                                         \
      write_pair(wp, IN->dst, rl, rh);                                          \
      NEXT;                                                                     \
   }
/* Addition and subtraction on 32-bit halves with the carry (borrow) made
 * explicit: the address arithmetic of every global access. */
#define ALU64_HALVES(NAME, EXPR, LO, HI)                                        \
   L_##NAME : {                                                                 \
      ALU64_UNIFORM(EXPR)                                                       \
      ALU64_SOURCES;                                                            \
      LANES {                                                                   \
         uint32_t al = AL[l], ah = AH[l], bl = BL[l], bh = BH[l];               \
         uint32_t lo = (LO);                                                    \
         rl[l] = lo;                                                            \
         rh[l] = (HI);                                                          \
      }                                                                         \
      write_pair(wp, IN->dst, rl, rh);                                          \
      NEXT;                                                                     \
   }
/* 64-bit operations whose b is 32 bits: shift counts, exponents. */
#define ALU64_B32(NAME, EXPR)                                                   \
   L_##NAME : {                                                                 \
      if (isa_opnd_kind(IN->dst) == ISA_OPND_UREG) {                            \
         if (wp->exec) {                                                        \
            uint64_t a = scalar64(wp, IN, IN->a);                               \
            uint32_t b = scalar(wp, IN, IN->b);                                 \
            write_u64(wp, IN->dst, (EXPR));                                     \
         }                                                                      \
         NEXT;                                                                  \
      }                                                                         \
      uint64_t A[W], r[W];                                                      \
      uint32_t tb[W];                                                           \
      src64(wp, IN, IN->a, A);                                                  \
      const uint32_t *B = src(wp, IN, IN->b, tb);                               \
      LANES {                                                                   \
         uint64_t a = A[l];                                                     \
         uint32_t b = B[l];                                                     \
         r[l] = (EXPR);                                                         \
      }                                                                         \
      write64(wp, IN->dst, r);                                                  \
      NEXT;                                                                     \
   }
/* Three pair sources (DFMA). */
#define ALU64_3(NAME, EXPR)                                                     \
   L_##NAME : {                                                                 \
      if (isa_opnd_kind(IN->dst) == ISA_OPND_UREG) {                            \
         if (wp->exec) {                                                        \
            uint64_t a = scalar64(wp, IN, IN->a), b = scalar64(wp, IN, IN->b);  \
            uint64_t c = scalar64(wp, IN, IN->c);                               \
            write_u64(wp, IN->dst, (EXPR));                                     \
         }                                                                      \
         NEXT;                                                                  \
      }                                                                         \
      uint64_t A[W], B[W], C[W], r[W];                                          \
      src64(wp, IN, IN->a, A);                                                  \
      src64(wp, IN, IN->b, B);                                                  \
      src64(wp, IN, IN->c, C);                                                  \
      LANES {                                                                   \
         uint64_t a = A[l], b = B[l], c = C[l];                                 \
         r[l] = (EXPR);                                                         \
      }                                                                         \
      write64(wp, IN->dst, r);                                                  \
      NEXT;                                                                     \
   }

enum hw_run_status INTERP(struct hw_cta *cta, struct hw_warp *wp, const void **labels)
{
   /* Every op's general handler, then the vector and uniform forms
    * (hw_interp.h) of the ALU class; NULL for the other classes. */
   static const void *const table[HW_INTERP_LABELS] = {
#define ISA_LABEL(name, cls, n) [ISA_OP_##name] = &&L_##name,
#define VFORM_ALU(name)                                                        \
   [HW_FORM_VECTOR * ISA_OP_COUNT + ISA_OP_##name] = &&LV_##name,                \
   [HW_FORM_UNIFORM * ISA_OP_COUNT + ISA_OP_##name] = &&LU_##name,
#define VFORM_NONE(name)
#define VFORM_MISC VFORM_NONE
#define VFORM_ALU64 VFORM_NONE
#define VFORM_SPECIAL VFORM_NONE
#define VFORM_MEM VFORM_NONE
#define VFORM_ATOMIC VFORM_NONE
#define VFORM_SYNC VFORM_NONE
#define VFORM_FLOW VFORM_NONE
#define VFORM_SUBGROUP VFORM_NONE
#define VFORM_RESERVED VFORM_NONE
#define ISA_VLABEL(name, cls, n) VFORM_##cls(name)
      ISA_OPCODES(ISA_LABEL)
      ISA_OPCODES(ISA_VLABEL)
      [HW_LABEL_JIT] = &&L_JIT,
#undef ISA_LABEL
#undef ISA_VLABEL
   };
   if (!cta) {
      memcpy(labels, table, sizeof(table));
      return HW_RUN_EXIT;
   }
   /* ip lives in a callee-saved register. Left to itself gcc keeps it in
    * the stack frame (the handlers' register pressure spills it, and the
    * computed gotos keep it from splitting the live range), which puts a
    * store and a reload into every dispatch; pinned, the arith benchmark
    * ran about 1.3 times faster on one worker. The binding only places
    * the variable: what the code computes is the same wherever it lives. */
#if defined(__x86_64__)
#define HW_REG(r) __asm__(r)
#else
#define HW_REG(r)
#endif
   const struct hw_dinst *code = cta->prog->code;
   register const struct hw_dinst *ip HW_REG("rbx") = code + wp->pc;
   const struct hw_dinst *seg = ip;   /* where the current straight run began */
   goto *ip->handler;

L_NOP:
   NEXT;
   /* A compiled run (hw_jit.h): every lane computed and written, so only
    * for a full warp; a partial one interprets the run from its first
    * instruction's own handler. The block may stop early, at an access it
    * leaves to the interpreter; at its first, the handler runs it. A block
    * ending at a BAR may have gone on with other warps (cta->current's
    * entered it at the same pc, so the count still says where it is), or
    * counted what it ran and stored where to go on (HW_JIT_RESUME). */
L_JIT: {
      if (wp->exec != FULL)
         goto *ip->jit->handler;
      uint32_t done = ip->jit->fn(wp->v, wp->u, cta, wp);
      wp = &cta->warps[cta->current];
      if (done == HW_JIT_RESUME) {
         cta->insts += (uint64_t)(ip - seg);
         ip = seg = code + wp->pc;
         goto *ip->handler;
      }
      if (!done)
         goto *ip->jit->handler;
      cta->jit_insts += done;   /* counter: once per block, not per instruction */
      ip += done - 1;
      NEXT;
   }
   ALU1(MOV, a)
   ALU3(SEL, a ? b : c)

   ALU2(IADD, a + b)
   ALU2(ISUB, a - b)
   ALU2(IMUL, a * b)
   ALU2(IMULHI_S, (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32))
   ALU2(IMULHI_U, (uint32_t)(((uint64_t)a * b) >> 32))
   ALU2(IDIV_S, sdiv(a, b))
   ALU2(IDIV_U, b ? a / b : UINT32_MAX)
   ALU2(IREM_S, srem(a, b))
   ALU2(IREM_U, b ? a % b : a)
   ALU2(IMOD_S, smod(a, b))
   ALU1(INEG, 0u - a)
   ALU1(IABS, (int32_t)a < 0 ? 0u - a : a)
   ALU2(IMIN_S, (int32_t)a < (int32_t)b ? a : b)
   ALU2(IMIN_U, a < b ? a : b)
   ALU2(IMAX_S, (int32_t)a > (int32_t)b ? a : b)
   ALU2(IMAX_U, a > b ? a : b)
   ALU3(IMAD, a * b + c)
   CMP2(ICMP, icmp, ICMP_MODS(ICMP_CASE))

   ALU2(AND, a & b)
   ALU2(OR, a | b)
   ALU2(XOR, a ^ b)
   ALU1(NOT, ~a)
   ALU2(SHL, a << (b & 31))
   ALU2(SHR_U, a >> (b & 31))
   ALU2(SHR_S, (uint32_t)((int32_t)a >> (b & 31)))
   ALU3(BFE_U, bfe_u(a, b, c))
   ALU3(BFE_S, bfe_s(a, b, c))
   ALU3(BFI, bfi(a, b, c))
   ALU1(BITREV, bitrev(a))
   ALU1(POPC, (uint32_t)__builtin_popcount(a))
   ALU1(FINDLSB, a ? (uint32_t)__builtin_ctz(a) : UINT32_MAX)
   ALU1(FINDMSB_U, a ? 31u - (uint32_t)__builtin_clz(a) : UINT32_MAX)
   ALU1(FINDMSB_S, findmsb_s(a))

   ALU2(FADD, u32(f32(a) + f32(b)))
   ALU2(FSUB, u32(f32(a) - f32(b)))
   ALU2(FMUL, u32(f32(a) * f32(b)))
   ALU3(FFMA, u32(fmaf(f32(a), f32(b), f32(c))))
   ALU2(FDIV, u32(f32(a) / f32(b)))
   ALU2(FMIN, u32(fminf(f32(a), f32(b))))
   ALU2(FMAX, u32(fmaxf(f32(a), f32(b))))
   ALU1(FNEG, a ^ 0x80000000u)
   ALU1(FABS, a & 0x7fffffffu)
   ALU1(FFLOOR, u32(floorf(f32(a))))
   ALU1(FCEIL, u32(ceilf(f32(a))))
   ALU1(FTRUNC, u32(truncf(f32(a))))
   ALU1(FRINT, u32(nearbyintf(f32(a))))
   ALU1(FROUND, u32(roundf(f32(a))))
   ALU1(FFRACT, u32(f32(a) - floorf(f32(a))))
   ALU1(FSQRT, u32(sqrtf(f32(a))))
   ALU1(FRSQ, u32(1.0f / sqrtf(f32(a))))
   ALU1(FSIGN, u32(fsign(f32(a))))
   ALU1(FMATH1, u32(fmath1(IN->mod, f32(a))))
   ALU2(FMATH2, u32(fmath2(IN->mod, f32(a), b)))
   CMP2(FCMP, fcmp_u32, FCMP_MODS(FCMP_CASE))

   ALU1(F2I_S, f2i_s(f32(a)))
   ALU1(F2I_U, f2i_u(f32(a)))
   ALU1(I2F_S, u32((float)(int32_t)a))
   ALU1(I2F_U, u32((float)a))
   ALU1(F2H, f2h(a, IN->mod))
   ALU1(H2F, isa_h2f(a))

   ALU2(HADD, hop2(ISA_OP_HADD, a, b))
   ALU2(HSUB, hop2(ISA_OP_HSUB, a, b))
   ALU2(HMUL, hop2(ISA_OP_HMUL, a, b))
   ALU2(HDIV, hop2(ISA_OP_HDIV, a, b))
   ALU3(HFMA, hfma(a, b, c))
   ALU1(HSQRT, f2h_rte(u32(sqrtf(f32(isa_h2f(a))))))
   ALU2(HMIN, hop2(ISA_OP_HMIN, a, b))
   ALU2(HMAX, hop2(ISA_OP_HMAX, a, b))
   CMP2(HCMP, hcmp, FCMP_MODS(HCMP_CASE))
   ALU3(IDP4, idp4(IN->mod, a, b, c))

   ALU64_HALVES(IADD64, a + b, al + bl, ah + bh + (lo < al))
   ALU64_HALVES(ISUB64, a - b, al - bl, ah - bh - (al < bl))
   ALU64(IMUL64, a * b)
   ALU64(IDIV64_S, sdiv64(a, b))
   ALU64(IDIV64_U, b ? a / b : UINT64_MAX)
   ALU64(IREM64_S, srem64(a, b))
   ALU64(IREM64_U, b ? a % b : a)
   ALU64(IMOD64_S, smod64(a, b))
   ALU64(IMIN64_S, (int64_t)a < (int64_t)b ? a : b)
   ALU64(IMIN64_U, a < b ? a : b)
   ALU64(IMAX64_S, (int64_t)a > (int64_t)b ? a : b)
   ALU64(IMAX64_U, a > b ? a : b)
   ALU64(IMULHI64_S, (uint64_t)(((__int128)(int64_t)a * (__int128)(int64_t)b) >> 64))
   ALU64(IMULHI64_U, (uint64_t)(((unsigned __int128)a * b) >> 64))
L_I2F64_S:
L_I2F64_U: {
      uint64_t A[W];
      uint32_t r[W];
      src64(wp, IN, IN->a, A);
      if (IN->op == ISA_OP_I2F64_S)
         LANES r[l] = u32((float)(int64_t)A[l]);
      else
         LANES r[l] = u32((float)A[l]);
      write(wp, IN->dst, r);
      NEXT;
   }
L_F2I64_S:
L_F2I64_U: {
      uint32_t ta[W];
      uint64_t r[W];
      const uint32_t *A = src(wp, IN, IN->a, ta);
      if (IN->op == ISA_OP_F2I64_S)
         LANES r[l] = f2i64_s(f32(A[l]));
      else
         LANES r[l] = f2i64_u(f32(A[l]));
      write64(wp, IN->dst, r);
      NEXT;
   }
   ALU64_B32(SHL64, a << (b & 63))
   ALU64_B32(SHR64_U, a >> (b & 63))
   ALU64_B32(SHR64_S, (uint64_t)((int64_t)a >> (b & 63)))
L_ICMP64: {
      uint64_t A[W], B[W];
      uint32_t r[W];
      src64(wp, IN, IN->a, A);
      src64(wp, IN, IN->b, B);
      LANES r[l] = icmp64(IN->mod, A[l], B[l]);
      write(wp, IN->dst, r);
      NEXT;
   }
L_SEXT64:
L_ZEXT64: {
      uint32_t ta[W], rh[W];
      const uint32_t *A = src(wp, IN, IN->a, ta);
      if (IN->op == ISA_OP_SEXT64)
         LANES rh[l] = (uint32_t)((int32_t)A[l] >> 31);
      else
         LANES rh[l] = 0;
      write_pair(wp, IN->dst, A, rh);
      NEXT;
   }
L_MOV64: {
      /* Copied first: the destination pair may overlap the source's. */
      uint32_t tl[W], th[W], rl[W], rh[W];
      const uint32_t *AL, *AH;
      src_pair(wp, IN, IN->a, tl, th, &AL, &AH);
      LANES {
         rl[l] = AL[l];
         rh[l] = AH[l];
      }
      write_pair(wp, IN->dst, rl, rh);
      NEXT;
   }

   /* binary64 */
   ALU64(DADD, u64(f64(a) + f64(b)))
   ALU64(DSUB, u64(f64(a) - f64(b)))
   ALU64(DMUL, u64(f64(a) * f64(b)))
   ALU64_3(DFMA, u64(fma(f64(a), f64(b), f64(c))))
   ALU64(DDIV, u64(f64(a) / f64(b)))
   ALU64(DMIN, u64(dmin(f64(a), f64(b))))
   ALU64(DMAX, u64(dmax(f64(a), f64(b))))
   ALU64(DNEG, a ^ (UINT64_C(1) << 63))
   ALU64(DABS, a & ~(UINT64_C(1) << 63))
   ALU64(DFLOOR, u64(floor(f64(a))))
   ALU64(DCEIL, u64(ceil(f64(a))))
   ALU64(DTRUNC, u64(trunc(f64(a))))
   ALU64(DRINT, u64(nearbyint(f64(a))))
   ALU64(DROUND, u64(round(f64(a))))
   ALU64(DFRACT, u64(f64(a) - floor(f64(a))))
   ALU64(DSQRT, u64(sqrt(f64(a))))
   ALU64(DRSQ, u64(1.0 / sqrt(f64(a))))
   ALU64(DSIGN, u64(dsign(f64(a))))
   ALU64_B32(DLDEXP, u64(ldexp(f64(a), (int32_t)b)))
   ALU64(D2I64_S, d2i64_s(f64(a)))
   ALU64(D2I64_U, d2i64_u(f64(a)))
   ALU64(I642D_S, u64((double)(int64_t)a))
   ALU64(I642D_U, u64((double)a))
L_DCMP: {
      uint64_t A[W], B[W];
      uint32_t r[W];
      src64(wp, IN, IN->a, A);
      src64(wp, IN, IN->b, B);
      LANES r[l] = dcmp(IN->mod, f64(A[l]), f64(B[l]));
      write(wp, IN->dst, r);
      NEXT;
   }
   /* Pairs to 32-bit results. */
L_D2F:
L_D2H:
L_D2I_S:
L_D2I_U: {
      uint64_t A[W];
      uint32_t r[W], mode = ISA_RND_MODE(IN->mod);
      src64(wp, IN, IN->a, A);
      switch (IN->op) {
      case ISA_OP_D2F: LANES r[l] = d2f(A[l], mode); break;
      case ISA_OP_D2H: LANES r[l] = d2h(A[l], mode); break;
      case ISA_OP_D2I_S: LANES r[l] = d2i_s(f64(A[l])); break;
      default: LANES r[l] = d2i_u(f64(A[l])); break;
      }
      write(wp, IN->dst, r);
      NEXT;
   }
   /* 32-bit sources to pairs. */
L_F2D:
L_I2D_S:
L_I2D_U: {
      uint32_t ta[W];
      uint64_t r[W];
      const uint32_t *A = src(wp, IN, IN->a, ta);
      switch (IN->op) {
      case ISA_OP_F2D: LANES r[l] = u64((double)f32(A[l])); break;
      case ISA_OP_I2D_S: LANES r[l] = u64((double)(int32_t)A[l]); break;
      default: LANES r[l] = u64((double)A[l]); break;
      }
      write64(wp, IN->dst, r);
      NEXT;
   }

L_S2R: {
      uint32_t r[W];
      const struct hw_launch_params *p = cta->params;
      uint32_t sx = p->size[0], sy = p->size[1];
      switch (IN->mod) {
      case ISA_SR_LANE_ID: LANES r[l] = l; break;
      case ISA_SR_LOCAL_INDEX: LANES r[l] = wp->index * W + l; break;
      case ISA_SR_LOCAL_ID_X: LANES r[l] = (wp->index * W + l) % sx; break;
      case ISA_SR_LOCAL_ID_Y: LANES r[l] = (wp->index * W + l) / sx % sy; break;
      case ISA_SR_LOCAL_ID_Z: LANES r[l] = (wp->index * W + l) / (sx * sy); break;
      default: {
         uint32_t x = 0;
         switch (IN->mod) {
         case ISA_SR_WARP_ID: x = wp->index; break;
         case ISA_SR_WARP_COUNT: x = cta->warp_count; break;
         case ISA_SR_WARP_WIDTH: x = W; break;
         case ISA_SR_GROUP_ID_X: x = cta->group[0]; break;
         case ISA_SR_GROUP_ID_Y: x = cta->group[1]; break;
         case ISA_SR_GROUP_ID_Z: x = cta->group[2]; break;
         case ISA_SR_NUM_GROUPS_X: x = p->grid[0]; break;
         case ISA_SR_NUM_GROUPS_Y: x = p->grid[1]; break;
         case ISA_SR_NUM_GROUPS_Z: x = p->grid[2]; break;
         case ISA_SR_GROUP_SIZE_X: x = p->size[0]; break;
         case ISA_SR_GROUP_SIZE_Y: x = p->size[1]; break;
         case ISA_SR_GROUP_SIZE_Z: x = p->size[2]; break;
         case ISA_SR_ROOT_LO: x = (uint32_t)p->root_va; break;
         case ISA_SR_ROOT_HI: x = (uint32_t)(p->root_va >> 32); break;
         case ISA_SR_CLOCK_LO: {
            uint64_t now = hw_now_ns();
            wp->clock_hi = (uint32_t)(now >> 32);
            x = (uint32_t)now;
            break;
         }
         case ISA_SR_CLOCK_HI: x = wp->clock_hi; break;
         default: FAULT(cta, wp, PC, -1, "illegal instruction: special register %u",
                               IN->mod);
         }
         LANES r[l] = x;
      }
      }
      write(wp, IN->dst, r);
      NEXT;
   }

   /* ---- memory ---- */
L_LDG: {
      if (IN->mod & ISA_MEM_SUB)
         goto sub_global;
      uint32_t n = ISA_MEM_WIDTH(IN->mod);
      cta->global_bytes += 4u * n * (isa_opnd_kind(IN->dst) == ISA_OPND_UREG   /* counter */
                                     ? !!wp->exec : (uint32_t)__builtin_popcountll(wp->exec));
      uint32_t i = isa_opnd_index(IN->dst);
      if (isa_opnd_kind(IN->dst) == ISA_OPND_UREG) {
         /* A uniform load: one access, at the first active lane's address. */
         if (!wp->exec)
            NEXT;
         uint32_t l = first_lane(wp->exec);
         uint64_t addr = lane_addr64(wp, IN, l);
         uint32_t *p = global_ptr(cta, addr, 4 * n);
         if (!p)
            FAULT(cta, wp, PC, (int)l, "global load of %u bytes at 0x%llx: %s", 4 * n,
                         (unsigned long long)addr, addr & 3 ? "misaligned" : "invalid address");
         for (uint32_t k = 0; k < n; k++)
            wp->u[i + k] = atomic_load_explicit((atomic_u32 *)(p + k), memory_order_relaxed);
         NEXT;
      }
      uint8_t *block = warp_block(cta, wp, IN, n);
      if (block) {
         block_copy(&wp->v[i * W], block, n, false);
         NEXT;
      }
      uint64_t addrs[W];
      uint8_t *base = warp_span(cta, wp, IN, 4 * n, addrs);
      if (base && n == 1) {
         uint32_t *d = &wp->v[i * W];
         if (wp->exec == FULL) {
            LANES d[l] = atomic_load_explicit((atomic_u32 *)(base + addrs[l]),
                                              memory_order_relaxed);
            NEXT;
         }
         for (uint64_t m = wp->exec; m; m &= m - 1) {
            uint32_t l = first_lane(m);
            d[l] = atomic_load_explicit((atomic_u32 *)(base + addrs[l]), memory_order_relaxed);
         }
         NEXT;
      }
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         uint64_t addr = base ? addrs[l] : lane_addr64(wp, IN, l);
         uint32_t *p = base ? (uint32_t *)(base + addr) : global_ptr(cta, addr, 4 * n);
         if (!p)
            FAULT(cta, wp, PC, (int)l, "global load of %u bytes at 0x%llx: %s", 4 * n,
                         (unsigned long long)addr, addr & 3 ? "misaligned" : "invalid address");
         for (uint32_t k = 0; k < n; k++)
            wp->v[(i + k) * W + l] = atomic_load_explicit((atomic_u32 *)(p + k),
                                                          memory_order_relaxed);
      }
      NEXT;
   }
L_STG: {
      if (IN->mod & ISA_MEM_SUB)
         goto sub_global;
      uint32_t n = ISA_MEM_WIDTH(IN->mod);
      cta->global_bytes += 4u * n * (uint32_t)__builtin_popcountll(wp->exec);   /* counter */
      uint32_t i = isa_opnd_index(IN->b);
      bool uniform = isa_opnd_kind(IN->b) == ISA_OPND_UREG;
      uint8_t *block = uniform ? NULL : warp_block(cta, wp, IN, n);
      if (block) {   /* distinct addresses: lane order does not matter */
         block_copy(&wp->v[i * W], block, n, true);
         NEXT;
      }
      uint64_t addrs[W];
      uint8_t *base = warp_span(cta, wp, IN, 4 * n, addrs);
      if (base && n == 1 && !uniform) {
         const uint32_t *v = &wp->v[i * W];
         if (wp->exec == FULL) {   /* lane order, as the ISA says */
            LANES atomic_store_explicit((atomic_u32 *)(base + addrs[l]), v[l],
                                        memory_order_relaxed);
            NEXT;
         }
         for (uint64_t m = wp->exec; m; m &= m - 1) {
            uint32_t l = first_lane(m);
            atomic_store_explicit((atomic_u32 *)(base + addrs[l]), v[l], memory_order_relaxed);
         }
         NEXT;
      }
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         uint64_t addr = base ? addrs[l] : lane_addr64(wp, IN, l);
         uint32_t *p = base ? (uint32_t *)(base + addr) : global_ptr(cta, addr, 4 * n);
         if (!p)
            FAULT(cta, wp, PC, (int)l, "global store of %u bytes at 0x%llx: %s", 4 * n,
                         (unsigned long long)addr, addr & 3 ? "misaligned" : "invalid address");
         for (uint32_t k = 0; k < n; k++) {
            uint32_t v = uniform ? wp->u[i + k] : wp->v[(i + k) * W + l];
            atomic_store_explicit((atomic_u32 *)(p + k), v, memory_order_relaxed);
         }
      }
      NEXT;
   }
L_LDS:
L_LDP: {
      if (IN->mod & ISA_MEM_SUB)
         goto sub_local;
      bool shared = IN->op == ISA_OP_LDS;
      uint32_t n = ISA_MEM_WIDTH(IN->mod);
      uint32_t i = isa_opnd_index(IN->dst);
      bool uniform = isa_opnd_kind(IN->dst) == ISA_OPND_UREG;
      uint32_t off[W];
      enum local_access how = uniform ? LOCAL_SLOW : warp_local(cta, wp, IN, shared, n, off);
      if (how == LOCAL_BLOCK) {
         block_copy(&wp->v[i * W], cta->shared + off[0], n, false);
         NEXT;
      }
      if (how == LOCAL_GATHER) {
         /* Shared and private memory belong to this CTA, which only this
          * worker runs: plain accesses. */
         size_t stride;
         const uint8_t *base = local_base(cta, wp, shared, &stride);
         for (uint32_t k = 0; k < n; k++) {
            uint32_t *d = &wp->v[(i + k) * W];
            const uint8_t *b = base + 4 * k;
            if (!stride)   /* shared memory: a gather */
               LANES d[l] = *(const hw_u32a *)(b + off[l]);
            else
               LANES d[l] = *(const hw_u32a *)(b + l * stride + off[l]);
         }
         NEXT;
      }
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         uint32_t addr = lane_addr32(wp, IN, l);
         uint8_t *p = local_ptr(cta, wp, shared, addr, 4 * n, l);
         if (!p)
            FAULT(cta, wp, PC, (int)l, "%s load of %u bytes at %u: %s",
                         shared ? "shared" : "private", 4 * n, addr,
                         addr & 3 ? "misaligned" : "out of range");
         for (uint32_t k = 0; k < n; k++)
            memcpy(uniform ? &wp->u[i + k] : &wp->v[(i + k) * W + l], p + 4 * k, 4);
         if (uniform)
            break;   /* one access, at the first active lane's address */
      }
      NEXT;
   }
L_STS:
L_STP: {
      if (IN->mod & ISA_MEM_SUB)
         goto sub_local;
      bool shared = IN->op == ISA_OP_STS;
      uint32_t n = ISA_MEM_WIDTH(IN->mod);
      uint32_t i = isa_opnd_index(IN->b);
      uint32_t off[W];
      enum local_access how = warp_local(cta, wp, IN, shared, n, off);
      if (how == LOCAL_BLOCK && isa_opnd_kind(IN->b) == ISA_OPND_VREG) {
         block_copy(&wp->v[i * W], cta->shared + off[0], n, true);
         NEXT;
      }
      if (how != LOCAL_SLOW) {
         /* Lane order within each dword of the access, as below: of two
          * lanes storing the same element, the higher lane's value stays.
          * (Multi-dword stores that overlap only in part are a race between
          * invocations, whose values Vulkan leaves undefined; this order
          * differs there from the lane-by-lane path's.) */
         size_t stride;
         uint8_t *base = local_base(cta, wp, shared, &stride);
         for (uint32_t k = 0; k < n; k++) {
            uint32_t tv[W];
            const uint32_t *v = tv;
            if (isa_opnd_kind(IN->b) == ISA_OPND_VREG)
               v = &wp->v[(i + k) * W];
            else
               LANES tv[l] = wp->u[i + k];
            uint8_t *b = base + 4 * k;
            if (!stride)
               LANES *(hw_u32a *)(b + off[l]) = v[l];
            else
               LANES *(hw_u32a *)(b + l * stride + off[l]) = v[l];
         }
         NEXT;
      }
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         uint32_t addr = lane_addr32(wp, IN, l);
         uint8_t *p = local_ptr(cta, wp, shared, addr, 4 * n, l);
         if (!p)
            FAULT(cta, wp, PC, (int)l, "%s store of %u bytes at %u: %s",
                         shared ? "shared" : "private", 4 * n, addr,
                         addr & 3 ? "misaligned" : "out of range");
         for (uint32_t k = 0; k < n; k++) {
            uint32_t v = isa_opnd_kind(IN->b) == ISA_OPND_VREG ? wp->v[(i + k) * W + l]
                                                                : wp->u[i + k];
            memcpy(p + 4 * k, &v, 4);
         }
      }
      NEXT;
   }
   /* Byte and halfword accesses (ISA_MEM_SUB): lane by lane, in lane
    * order, each of its own size (1 or 2 bytes, naturally aligned); loads
    * zero-extend, stores write the low bytes only. A global one is checked
    * once for the warp where warp_span can, else lane by lane. */
sub_global: {
      bool load = IN->op == ISA_OP_LDG;
      uint32_t bytes = ISA_MEM_WIDTH(IN->mod);
      uint16_t data = load ? IN->dst : IN->b;
      uint32_t i = isa_opnd_index(data);
      bool uniform = isa_opnd_kind(data) == ISA_OPND_UREG;
      uint32_t lanes = load && uniform ? !!wp->exec : (uint32_t)__builtin_popcountll(wp->exec);
      cta->global_bytes += bytes * lanes;   /* counter */
      uint64_t addrs[W];
      uint8_t *base = load && uniform ? NULL : warp_span(cta, wp, IN, bytes, addrs);
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         uint64_t addr = base ? addrs[l] : lane_addr64(wp, IN, l);
         uint8_t *p = base ? base + addr : (uint8_t *)global_ptr(cta, addr, bytes);
         if (!p)
            FAULT(cta, wp, PC, (int)l, "global %s of %u bytes at 0x%llx: %s",
                  load ? "load" : "store", bytes, (unsigned long long)addr,
                  addr & (bytes - 1) ? "misaligned" : "invalid address");
         if (load) {
            uint32_t v = bytes == 1
               ? atomic_load_explicit((atomic_u8 *)p, memory_order_relaxed)
               : atomic_load_explicit((atomic_u16 *)p, memory_order_relaxed);
            if (uniform) {
               wp->u[i] = v;
               break;   /* one access, at the first active lane's address */
            }
            if (isa_opnd_kind(data) == ISA_OPND_VREG)
               wp->v[i * W + l] = v;
         } else {
            uint32_t v = uniform ? wp->u[i] : isa_opnd_kind(data) == ISA_OPND_VREG
                                                  ? wp->v[i * W + l] : 0;
            if (bytes == 1)
               atomic_store_explicit((atomic_u8 *)p, (uint8_t)v, memory_order_relaxed);
            else
               atomic_store_explicit((atomic_u16 *)p, (uint16_t)v, memory_order_relaxed);
         }
      }
      NEXT;
   }
sub_local: {
      bool load = IN->op == ISA_OP_LDS || IN->op == ISA_OP_LDP;
      bool shared = IN->op == ISA_OP_LDS || IN->op == ISA_OP_STS;
      uint32_t bytes = ISA_MEM_WIDTH(IN->mod);
      uint16_t data = load ? IN->dst : IN->b;
      uint32_t i = isa_opnd_index(data);
      bool uniform = isa_opnd_kind(data) == ISA_OPND_UREG;
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         uint32_t addr = lane_addr32(wp, IN, l);
         uint8_t *p = local_ptr(cta, wp, shared, addr, bytes, l);
         if (!p)
            FAULT(cta, wp, PC, (int)l, "%s %s of %u bytes at %u: %s",
                  shared ? "shared" : "private", load ? "load" : "store", bytes, addr,
                  addr & (bytes - 1) ? "misaligned" : "out of range");
         if (load) {
            uint32_t v = bytes == 1 ? *p : (uint32_t)p[0] | (uint32_t)p[1] << 8;
            if (uniform) {
               wp->u[i] = v;
               break;
            }
            if (isa_opnd_kind(data) == ISA_OPND_VREG)
               wp->v[i * W + l] = v;
         } else {
            uint32_t v = uniform ? wp->u[i] : isa_opnd_kind(data) == ISA_OPND_VREG
                                                  ? wp->v[i * W + l] : 0;
            p[0] = (uint8_t)v;
            if (bytes == 2)
               p[1] = (uint8_t)(v >> 8);
         }
      }
      NEXT;
   }
L_LDR: {
      uint32_t n = ISA_MEM_WIDTH(IN->mod);
      uint64_t addr = cta->params->root_va + IN->imm;
      uint32_t *p = global_ptr(cta, addr, 4 * n);
      if (!p)
         FAULT(cta, wp, PC, -1, "root table read of %u bytes at 0x%llx: invalid address",
                      4 * n, (unsigned long long)addr);
      uint32_t i = isa_opnd_index(IN->dst);
      for (uint32_t k = 0; k < n; k++) {
         uint32_t v = atomic_load_explicit((atomic_u32 *)(p + k), memory_order_relaxed);
         if (isa_opnd_kind(IN->dst) == ISA_OPND_UREG) {
            wp->u[i + k] = v;
         } else {
            uint32_t r[W];
            LANES r[l] = v;
            write_v(wp, i + k, r);
         }
      }
      NEXT;
   }
L_ATOMG:
L_ATOMS: {
      bool global = IN->op == ISA_OP_ATOMG;
      bool wide = IN->mod & ISA_ATOM_64;
      uint32_t op = ISA_ATOM_OP(IN->mod), bytes = wide ? 8 : 4;
      uint32_t d = isa_opnd_index(IN->dst);
      uint64_t val[W];
      if (wide) {
         src64(wp, IN, IN->b, val);
      } else {
         uint32_t tb[W];
         const uint32_t *B = src(wp, IN, IN->b, tb);
         LANES val[l] = B[l];
      }
      /* Lanes of a warp that hit one address are serialized in lane order. */
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         void *p;
         uint64_t addr;
         if (global) {
            addr = lane_addr64(wp, IN, l);
            p = (addr & (bytes - 1)) ? NULL : hw_mem_check(cta->mem, addr, bytes);
         } else {
            addr = lane_addr32(wp, IN, l);
            p = (addr & (bytes - 1)) ? NULL : local_ptr(cta, wp, true, (uint32_t)addr, bytes, l);
         }
         if (!p)
            FAULT(cta, wp, PC, (int)l, "%s atomic at 0x%llx: %s",
                         global ? "global" : "shared", (unsigned long long)addr,
                         addr & (bytes - 1) ? "misaligned" : "invalid address");
         uint64_t old = wide ? atomic_op64(op, p, val[l])
                             : atomic_op32(op, p, (uint32_t)val[l]);
         if (isa_opnd_kind(IN->dst) == ISA_OPND_VREG) {
            wp->v[d * W + l] = (uint32_t)old;
            if (wide)
               wp->v[(d + 1) * W + l] = (uint32_t)(old >> 32);
         }
      }
      NEXT;
   }
L_CASG:
L_CASS: {
      bool global = IN->op == ISA_OP_CASG;
      bool wide = IN->mod & ISA_ATOM_64;
      uint32_t bytes = wide ? 8 : 4;
      uint32_t d = isa_opnd_index(IN->dst);
      uint64_t cmp[W], val[W];
      if (wide) {
         src64(wp, IN, IN->b, cmp);
         src64(wp, IN, IN->c, val);
      } else {
         uint32_t tb[W], tc[W];
         const uint32_t *B = src(wp, IN, IN->b, tb), *C = src(wp, IN, IN->c, tc);
         LANES {
            cmp[l] = B[l];
            val[l] = C[l];
         }
      }
      for (uint64_t m = wp->exec; m; m &= m - 1) {
         uint32_t l = first_lane(m);
         void *p;
         uint64_t addr;
         if (global) {
            addr = lane_addr64(wp, IN, l);
            p = (addr & (bytes - 1)) ? NULL : hw_mem_check(cta->mem, addr, bytes);
         } else {
            addr = lane_addr32(wp, IN, l);
            p = (addr & (bytes - 1)) ? NULL : local_ptr(cta, wp, true, (uint32_t)addr, bytes, l);
         }
         if (!p)
            FAULT(cta, wp, PC, (int)l, "%s compare-exchange at 0x%llx: %s",
                         global ? "global" : "shared", (unsigned long long)addr,
                         addr & (bytes - 1) ? "misaligned" : "invalid address");
         uint64_t old;
         if (wide) {
            old = cmp[l];
            atomic_compare_exchange_strong((atomic_u64 *)p, &old, val[l]);
         } else {
            uint32_t o32 = (uint32_t)cmp[l];
            atomic_compare_exchange_strong((atomic_u32 *)p, &o32, (uint32_t)val[l]);
            old = o32;
         }
         if (isa_opnd_kind(IN->dst) == ISA_OPND_VREG) {
            wp->v[d * W + l] = (uint32_t)old;
            if (wide)
               wp->v[(d + 1) * W + l] = (uint32_t)(old >> 32);
         }
      }
      NEXT;
   }
L_MEMBAR:
   sg_fence_seq_cst();
   NEXT;
L_BAR:
   /* Every live lane must reach the barrier together. */
   if (wp->exec != wp->alive)
      FAULT(cta, wp, PC, (int)first_lane(wp->alive & ~wp->exec),
                   "barrier reached by part of a live warp (exec 0x%llx, live 0x%llx)",
                   (unsigned long long)wp->exec, (unsigned long long)wp->alive);
   wp->barrier_pc = PC;
   wp->pc = PC + 1;
   wp->state = HW_WARP_AT_BARRIER;
   cta->barrier_waits++;
   {
      struct hw_warp *next_ = next_running(cta, wp);
      if (!next_)
         next_ = release_here(cta, PC);
      if (!next_)
         RETURN(HW_RUN_BARRIER);
      SWITCH_TO(next_);
   }

   /* ---- structured control flow ---- */
L_IF: {
      uint32_t ta[W];
      uint64_t m = lane_bits(src(wp, IN, IN->a, ta));
      if (wp->sp == cta->prog->header.stack_depth)
         FAULT(cta, wp, PC, -1, "mask stack overflow (depth %u)", wp->sp);
      wp->stack[wp->sp++] = (struct hw_mask_entry){.saved = wp->exec,
                                                    .other = wp->exec & ~m,
                                                    .kind = HW_MASK_IF};
      set_exec(wp, wp->exec & m);
      if (!wp->exec)
         GOTO(IN->imm);
      NEXT;
   }
L_ELSE: {
      if (wp->sp == 0)
         FAULT(cta, wp, PC, -1, "ELSE with an empty mask stack");
      struct hw_mask_entry *e = &wp->stack[wp->sp - 1];
      set_exec(wp, e->other & wp->alive);
      e->other = 0;
      if (!wp->exec)
         GOTO(IN->imm);
      NEXT;
   }
L_ENDIF:
   if (wp->sp == 0)
      FAULT(cta, wp, PC, -1, "ENDIF with an empty mask stack");
   wp->sp--;
   set_exec(wp, wp->stack[wp->sp].saved & wp->alive);
   NEXT;
L_LOOP:
   if (wp->sp == cta->prog->header.stack_depth)
      FAULT(cta, wp, PC, -1, "mask stack overflow (depth %u)", wp->sp);
   wp->stack[wp->sp++] = (struct hw_mask_entry){.saved = wp->exec, .kind = HW_MASK_LOOP};
   NEXT;
L_BRK:
L_CONT: {
      uint32_t ta[W];
      uint64_t m = lane_bits(src(wp, IN, IN->a, ta)) & wp->exec;
      struct hw_mask_entry *loop = target_construct(wp, IN->op == ISA_OP_CONT, IN->mod);
      if (!loop)
         FAULT(cta, wp, PC, -1, "%s outside a %s",
                      IN->op == ISA_OP_BRK ? "BRK" : "CONT",
                      IN->op == ISA_OP_BRK ? "loop or switch" : "loop");
      if (IN->op == ISA_OP_BRK)
         loop->other |= m;
      else
         loop->cont |= m;
      forget_lanes_above(wp, loop, m);
      set_exec(wp, wp->exec & ~m);
      if (!wp->exec)
         GOTO(IN->imm);
      NEXT;
   }
L_CONTJOIN: {
      if (wp->sp == 0 || wp->stack[wp->sp - 1].kind != HW_MASK_LOOP)
         FAULT(cta, wp, PC, -1, "CONTJOIN outside a loop");
      struct hw_mask_entry *loop = &wp->stack[wp->sp - 1];
      set_exec(wp, (wp->exec | loop->cont) & wp->alive);
      loop->cont = 0;
      if (!wp->exec)
         GOTO(IN->imm);
      NEXT;
   }
L_ENDLOOP: {
      if (wp->sp == 0 || wp->stack[wp->sp - 1].kind != HW_MASK_LOOP)
         FAULT(cta, wp, PC, -1, "ENDLOOP outside a loop");
      struct hw_mask_entry *loop = &wp->stack[wp->sp - 1];
      if (wp->exec)
         BACK_EDGE(IN->imm);
      set_exec(wp, loop->other & wp->alive);
      wp->sp--;
      NEXT;
   }
L_SWITCH:
   if (wp->sp == cta->prog->header.stack_depth)
      FAULT(cta, wp, PC, -1, "mask stack overflow (depth %u)", wp->sp);
   wp->stack[wp->sp++] = (struct hw_mask_entry){.saved = wp->exec, .kind = HW_MASK_SWITCH};
   NEXT;
L_ENDSWITCH: {
      if (wp->sp == 0 || wp->stack[wp->sp - 1].kind != HW_MASK_SWITCH)
         FAULT(cta, wp, PC, -1, "ENDSWITCH outside a switch");
      wp->sp--;
      set_exec(wp, (wp->exec | wp->stack[wp->sp].other) & wp->alive);
      NEXT;
   }
L_RET: {
      uint32_t ta[W];
      uint64_t m = lane_bits(src(wp, IN, IN->a, ta)) & wp->exec;
      wp->alive &= ~m;
      set_exec(wp, wp->exec & ~m);
      if (!wp->alive) {
         wp->state = HW_WARP_EXITED;
         SWITCH_OR_RETURN(HW_RUN_EXIT);
      }
      if (!wp->exec)
         GOTO(IN->imm);
      NEXT;
   }
L_JMP:
   if (IN->imm <= PC)
      BACK_EDGE(IN->imm);
   GOTO(IN->imm);
L_JEZ:
   if (!wp->exec)
      GOTO(IN->imm);
   NEXT;
L_BRA_U:
   if (scalar(wp, IN, IN->a)) {
      if (IN->imm <= PC)
         BACK_EDGE(IN->imm);
      GOTO(IN->imm);
   }
   NEXT;
L_EXIT:
   wp->state = HW_WARP_EXITED;
   wp->pc = PC;
   SWITCH_OR_RETURN(HW_RUN_EXIT);

   /* ---- subgroup operations over the active lanes ---- */
L_VOTE: {
      uint32_t ta[W], r[W];
      const uint32_t *A = src(wp, IN, IN->a, ta);
      uint64_t bits = lane_bits(A) & wp->exec;
      uint32_t v;
      if (IN->mod == ISA_VOTE_ALL) {
         v = bits == wp->exec;
      } else if (IN->mod == ISA_VOTE_ANY) {
         v = bits != 0;
      } else {
         v = 1;
         uint32_t first = A[wp->exec ? first_lane(wp->exec) : 0];
         for (uint64_t m = wp->exec; m; m &= m - 1)
            v &= A[first_lane(m)] == first;
      }
      LANES r[l] = v;
      write(wp, IN->dst, r);
      NEXT;
   }
L_BALLOT: {
      uint32_t ta[W];
      uint64_t bits = lane_bits(src(wp, IN, IN->a, ta)) & wp->exec;
      uint64_t r[W];
      LANES r[l] = bits;
      write64(wp, IN->dst, r);
      NEXT;
   }
L_BCAST: {
      uint32_t ta[W], r[W];
      const uint32_t *A = src(wp, IN, IN->a, ta);
      uint32_t v = A[scalar(wp, IN, IN->b) & (W - 1)];
      LANES r[l] = v;
      write(wp, IN->dst, r);
      NEXT;
   }
L_SHFL: {
      uint32_t ta[W], tb[W], r[W];
      const uint32_t *A = src(wp, IN, IN->a, ta), *B = src(wp, IN, IN->b, tb);
      LANES {
         uint32_t from;
         switch (IN->mod) {
         case ISA_SHFL_XOR: from = l ^ B[l]; break;
         case ISA_SHFL_UP: from = l - B[l]; break;
         case ISA_SHFL_DOWN: from = l + B[l]; break;
         default: from = B[l]; break;
         }
         /* A lane outside the warp reads its own value. */
         r[l] = from < W ? A[from] : A[l];
      }
      write(wp, IN->dst, r);
      NEXT;
   }
L_REDUCE:
L_SCAN: {
      /* Every kind on 64-bit values (pairs, 32-bit values, binary16 in a
       * register): each aligned cluster of lanes (the whole warp when
       * there is none) on its own, its active lanes in lane order. */
      uint32_t op = IN->mod & 0xffu;
      enum red_kind kind = red_kind_of(IN->mod);
      bool scan = IN->op == ISA_OP_SCAN, exclusive = scan && (IN->mod & ISA_SCAN_EXCLUSIVE);
      uint32_t cluster = isa_subgroup_cluster(IN->mod);
      if (!cluster || cluster > W)
         cluster = W;
      uint64_t A[W], r[W], id = red_identity_of(kind, op);
      if (kind == RED_64) {
         src64(wp, IN, IN->a, A);
      } else {
         uint32_t ta[W];
         const uint32_t *A32 = src(wp, IN, IN->a, ta);
         LANES A[l] = A32[l];
      }
      LANES r[l] = id;
      uint64_t ones = cluster == 64 ? UINT64_MAX : (UINT64_C(1) << cluster) - 1;
      for (uint32_t c0 = 0; c0 < W; c0 += cluster) {
         uint64_t lanes = wp->exec & (ones << c0), acc = id;
         for (uint64_t m = lanes; m; m &= m - 1) {
            uint32_t l = first_lane(m);
            uint64_t next = red_apply_of(kind, op, acc, A[l]);
            r[l] = exclusive ? acc : next;
            acc = next;
         }
         if (!scan) {
            for (uint64_t m = lanes; m; m &= m - 1)
               r[first_lane(m)] = acc;
         }
      }
      if (kind == RED_64) {
         write64(wp, IN->dst, r);
      } else {
         uint32_t r32[W];
         LANES r32[l] = (uint32_t)r[l];
         write(wp, IN->dst, r32);
      }
      NEXT;
   }
L_ELECT: {
      uint32_t r[W];
      uint32_t f = wp->exec ? first_lane(wp->exec) : W;
      LANES r[l] = l == f;
      write(wp, IN->dst, r);
      NEXT;
   }

}
