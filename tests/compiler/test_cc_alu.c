/*
 * test_cc_alu: arithmetic through the compiler. Map shaders (sct.h) for
 * int, uint and float arithmetic, bit operations, conversions, the
 * GLSL.std.450 functions, vectors and matrices, function-local arrays and
 * 64-bit integers, at every warp width and local size, against C.
 *
 * Exact operations are compared bit for bit; transcendental functions with
 * tolerances near the Vulkan precision requirements. Inputs avoid what the
 * specs leave undefined (division by zero, INT_MIN / -1, shifts >= 32,
 * out-of-domain math), or the output is skipped for those inputs.
 */
#include "sct.h"

#include <float.h>

#define PI_F 3.14159265f

/* Input word k of invocation i, and helpers to shape it. */
static uint32_t h(uint32_t i, uint32_t k)
{
   return sct_hash(i * 977u + k * 131071u + 0x51ed27u);
}

/* A float in [lo, hi) from a hash. */
static float in_range(uint32_t x, float lo, float hi)
{
   return lo + (hi - lo) * (float)(x >> 8) / (float)(1u << 24);
}

/* ---- int_arith ------------------------------------------------------------------- */

static int32_t some_int(uint32_t x)
{
   switch (x & 3) {
   case 0: return (int32_t)((x >> 2) % 2001u) - 1000;
   case 1: return (int32_t)((x >> 2) % 41u) - 20;
   default: return (int32_t)(x | 1u) == INT32_MIN ? 5 : (int32_t)x;
   }
}

static void int_init(uint32_t i, uint32_t *in)
{
   int32_t a = some_int(h(i, 0)), b = some_int(h(i, 1));
   if (a == INT32_MIN)
      a = 12345;
   if (b == 0)
      b = (i & 1) ? -3 : 7;
   in[0] = (uint32_t)a;
   in[1] = (uint32_t)b;
}

/* SPIR-V OpSMod: the remainder takes the sign of the divisor. */
static int32_t smod(int32_t a, int32_t b)
{
   int32_t r = a % b;
   return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static uint32_t cmp_bits(bool lt, bool le, bool eq, bool ne, bool gt, bool ge)
{
   return (uint32_t)lt | (uint32_t)le << 1 | (uint32_t)eq << 2 | (uint32_t)ne << 3 |
          (uint32_t)gt << 4 | (uint32_t)ge << 5;
}

static void int_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   int32_t a = (int32_t)in[0], b = (int32_t)in[1];
   uint32_t ua = in[0], ub = in[1];
   w[0] = sct_u(ua + ub);
   w[1] = sct_u(ua - ub);
   w[2] = sct_u(ua * ub);
   w[3] = sct_i(a / b);
   w[4] = sct_i(smod(a, b));
   w[5] = sct_u(0u - ua);
   w[6] = sct_i(a < 0 ? -a : a);
   w[7] = sct_i(a < b ? a : b);
   w[8] = sct_i(a > b ? a : b);
   w[9] = sct_i(a < -1000 ? -1000 : a > 1000 ? 1000 : a);
   w[10] = sct_u(cmp_bits(a < b, a <= b, a == b, a != b, a > b, a >= b));
   w[11] = sct_u(ua * 7u + ub);
   w[12] = sct_i(a / 3);
   w[13] = sct_i(smod(a, 8));
   w[14] = sct_i(a / -7);
   w[15] = sct_u((ua - ub) * (ua + 3u));
}

static const char *const int_names[] = {
   "a+b", "a-b", "a*b", "a/b", "a%b (SMod)", "-a", "abs", "min", "max", "clamp", "compare",
   "a*7+b", "a/3", "a%8", "a/-7", "(a-b)*(a+3)"};

/* ---- uint_arith ------------------------------------------------------------------ */

static void uint_init(uint32_t i, uint32_t *in)
{
   uint32_t a = h(i, 0), b = h(i, 1);
   if (i % 3 == 0)
      b %= 1000u;
   if (i % 5 == 1)
      a = b;
   in[0] = a;
   in[1] = b ? b : 3u;
}

static void uint_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   w[0] = sct_u(a + b);
   w[1] = sct_u(a - b);
   w[2] = sct_u(a * b);
   w[3] = sct_u(a / b);
   w[4] = sct_u(a % b);
   w[5] = sct_u(a < b ? a : b);
   w[6] = sct_u(a > b ? a : b);
   w[7] = sct_u(a < 100u ? 100u : a > 0x80000000u ? 0x80000000u : a);
   w[8] = sct_u(cmp_bits(a < b, a <= b, a == b, a != b, a > b, a >= b));
   w[9] = sct_u(a / 10u);
   w[10] = sct_u(a % 10u);
   w[11] = sct_u(a * 2654435761u + b);
   w[12] = sct_u((a >> 1) + (b >> 1) + (a & b & 1u));
   w[13] = sct_u(a > b ? a - b : b - a);
}

/* ---- bits ------------------------------------------------------------------------ */

static void bits_init(uint32_t i, uint32_t *in)
{
   static const uint32_t special[] = {0, UINT32_MAX, 1, 0x80000000u, 0x7fffffffu, 0x00010000u};
   for (uint32_t k = 0; k < 3; k++)
      in[k] = h(i, k);
   if (i % 7 == 0)
      in[0] = special[(i / 7) % 6];
   if (i % 11 == 0)
      in[1] = special[(i / 11) % 6];
}

static int32_t find_lsb(uint32_t x) { return x ? __builtin_ctz(x) : -1; }
static int32_t find_msb_u(uint32_t x) { return x ? 31 - __builtin_clz(x) : -1; }
static int32_t find_msb_s(int32_t x) { return find_msb_u(x < 0 ? ~(uint32_t)x : (uint32_t)x); }

static uint32_t bfe_u(uint32_t a, uint32_t off, uint32_t bits)
{
   if (bits == 0)
      return 0;
   return (a >> off) & (bits == 32 ? UINT32_MAX : (1u << bits) - 1);
}

static int32_t bfe_s(uint32_t a, uint32_t off, uint32_t bits)
{
   if (bits == 0)
      return 0;
   uint32_t v = bfe_u(a, off, bits);
   uint32_t sign = 1u << (bits - 1);
   return (int32_t)((v ^ sign) - sign);
}

static uint32_t bfi(uint32_t base, uint32_t ins, uint32_t off, uint32_t bits)
{
   if (bits == 0)
      return base;
   uint32_t mask = (bits == 32 ? UINT32_MAX : (1u << bits) - 1) << off;
   return (base & ~mask) | ((ins << off) & mask);
}

static uint32_t bitrev(uint32_t x)
{
   uint32_t r = 0;
   for (int b = 0; b < 32; b++)
      r |= ((x >> b) & 1u) << (31 - b);
   return r;
}

static void bits_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1], c = in[2];
   uint32_t s = c & 31u, off = (c >> 5) & 31u, bits = (c >> 10) % (33u - off);
   w[0] = sct_u(a & b);
   w[1] = sct_u(a | b);
   w[2] = sct_u(a ^ b);
   w[3] = sct_u(~a);
   w[4] = sct_u(a << s);
   w[5] = sct_u(a >> s);
   w[6] = sct_i((int32_t)a >> s);
   w[7] = sct_u(bfe_u(a, off, bits));
   w[8] = sct_i(bfe_s(a, off, bits));
   w[9] = sct_u(bfi(a, b, off, bits));
   w[10] = sct_i(__builtin_popcount(a));
   w[11] = sct_i(__builtin_popcount(a));
   w[12] = sct_i(find_lsb(a));
   w[13] = sct_i(find_msb_u(a));
   w[14] = sct_i(find_msb_s((int32_t)a));
   w[15] = sct_u(bitrev(a));
   w[16] = sct_u((a << 5) | (a >> 27));
   w[17] = sct_i(find_lsb(a & 0xffff0000u));
   w[18] = sct_i(find_msb_s((int32_t)b >> 20));
   uint32_t vx = a ^ c, vy = b ^ c;
   w[19] = sct_i(__builtin_popcount(vx) * 100 + __builtin_popcount(vy));
   w[20] = sct_i(find_lsb(vx >> 4) * 100 + find_lsb(vy >> 28));
   w[21] = sct_u(bfe_u(a, 8, 8) | bfi(0, b, 24, 8));
}

static const char *const bits_names[] = {
   "and", "or", "xor", "not", "shl", "shr", "ashr", "bfe_u", "bfe_s", "bfi", "bitCount(u)",
   "bitCount(i)", "findLSB", "findMSB(u)", "findMSB(i)", "bitfieldReverse", "rotate",
   "findLSB(hi)", "findMSB(i>>20)", "bitCount(uvec2)", "findLSB(uvec2)", "bfe|bfi const"};

/* ---- convert --------------------------------------------------------------------- */

static void convert_init(uint32_t i, uint32_t *in)
{
   float f;
   switch (i % 4) {
   case 0: f = in_range(h(i, 0), -2e9f, 2e9f); break;
   case 1: f = in_range(h(i, 0), -100.0f, 100.0f); break;
   case 2: f = (float)((int32_t)(h(i, 0) % 64u) - 32) * 0.25f; break;
   default: f = (i & 4) ? 0.0f : -0.0f; break;
   }
   float g = (i % 3 == 0) ? in_range(h(i, 1), 0, 4e9f) : in_range(h(i, 1), 0, 1000.0f);
   in[0] = eut_u(f);
   in[1] = eut_u(g);
   in[2] = (i % 5 == 0) ? h(i, 2) % 100u : h(i, 2);
}

static void convert_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float f = eut_f(in[0]), g = eut_f(in[1]);
   uint32_t u = in[2];
   int32_t si = (int32_t)u;
   w[0] = sct_i((int32_t)f);
   w[1] = sct_u((uint32_t)g);
   w[2] = sct_fx((float)si);
   w[3] = sct_fx((float)u);
   w[4] = sct_u(u & 1u);
   w[5] = sct_fx((float)(u & 1u));
   w[6] = sct_fx((u & 2u) ? 1.0f : 0.0f);
   w[7] = sct_i((int32_t)(f * 0.5f));
   w[8] = sct_u(in[0]);
   w[9] = sct_u((uint32_t)si & 0x3fffffffu);
   w[10] = sct_u((uint32_t)(si >> 4));
   w[11] = sct_i((int32_t)(f < 0.0f) - (int32_t)((si & 4) != 0));
   w[12] = sct_fx((float)(int32_t)f);
   w[13] = sct_u((uint32_t)(f != 0.0f) + (uint32_t)(u != 0) * 2u);
}

static const char *const convert_names[] = {
   "int(f)", "uint(g)", "float(int)", "float(uint)", "uint(bool)", "float(uint&1)",
   "float(bool)", "int(f*0.5)", "floatBitsToInt", "intBitsToFloat", "uint(int>>4)",
   "bool arith", "float(int(f))", "bool(f)+bool(u)"};

/* ---- float_arith ----------------------------------------------------------------- */

static float some_float(uint32_t x)
{
   static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 0.5f, 1.5f, 2.5f,
                                   -0.5f, -2.5f, 1.0f, -1.0f};
   switch (x % 6) {
   case 0: return (float)((int32_t)((x >> 3) % 17u) - 8);
   case 1: return in_range(x, -1000.0f, 1000.0f);
   case 2: return in_range(x, -1.0f, 1.0f);
   case 3: return special[(x >> 3) % 12];
   case 4: return (float)((int32_t)((x >> 3) % 41u) - 20) + 0.5f;
   default: return in_range(x, -1e6f, 1e6f);
   }
}

static void float_init(uint32_t i, uint32_t *in)
{
   for (uint32_t k = 0; k < 3; k++)
      in[k] = eut_u(some_float(h(i, k)));
}

static float fsign(float x)
{
   return x > 0 ? 1.0f : x < 0 ? -1.0f : x;
}

static float smooth(float e0, float e1, float x)
{
   float t = fminf(fmaxf((x - e0) / (e1 - e0), 0.0f), 1.0f);
   return t * t * (3.0f - 2.0f * t);
}

static void float_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float a = eut_f(in[0]), b = eut_f(in[1]), c = eut_f(in[2]);
   bool fin = isfinite(a) && isfinite(b) && isfinite(c);
   bool nan = isnan(a) || isnan(b);
   w[0] = sct_fx(a + b);
   w[1] = sct_fx(a - b);
   w[2] = sct_fx(a * b);
   /* Vulkan: division within 2.5 ULP */
   w[3] = fin && b != 0 ? sct_f(a / b, 0, 3e-7f) : sct_skip();
   /* fused or not: within the rounding of both */
   w[4] = fin ? sct_f(fmaf(a, b, c), 1e-30f, 0) : sct_skip();
   if (fin)
      w[4].abs_tol = 2.5e-7f * (fabsf(a * b) + fabsf(c));
   w[5] = sct_fx(-a);
   w[6] = sct_fx(fabsf(a));
   /* min/max of NaN are undefined; of +-0 either zero */
   bool zeros = a == 0 && b == 0;
   w[7] = nan || zeros ? sct_skip() : sct_fx(fminf(a, b));
   w[8] = nan || zeros ? sct_skip() : sct_fx(fmaxf(a, b));
   w[9] = isnan(a) ? sct_skip() : sct_fx(fminf(fmaxf(a, -10.0f), 10.0f));
   /* ordered comparisons are false with a NaN; != is unordered */
   w[10] = sct_u(cmp_bits(a < b, a <= b, a == b, !(a == b), a > b, a >= b) |
                 (uint32_t)!(a < b) << 6 | (uint32_t)!(a >= b) << 7);
   w[11] = sct_u((uint32_t)(isnan(a) != 0) | (uint32_t)(isinf(a) != 0) << 1 |
                 (uint32_t)(isnan(b) != 0) << 2 | (uint32_t)(isinf(b) != 0) << 3);
   w[12] = sct_fx(floorf(a));
   w[13] = sct_fx(ceilf(a));
   w[14] = sct_fx(truncf(a));
   /* round() of x.5 may go either way */
   w[15] = isfinite(a) && fabsf(a - truncf(a)) == 0.5f ? sct_skip() : sct_fx(roundf(a));
   w[16] = sct_fx(nearbyintf(a));
   w[17] = isfinite(a) ? sct_fx(a - floorf(a)) : sct_skip();
   if (fin && b != 0) {
      float m = a - b * floorf(a / b);
      w[18] = sct_f(m, 4e-7f * (fabsf(a) + fabsf(b)), 0);
   } else {
      w[18] = sct_skip();
   }
   w[19] = isnan(a) ? sct_skip() : sct_fx(fsign(a));
   w[20] = nan ? sct_skip() : sct_fx(b < a ? 0.0f : 1.0f);
   w[21] = isfinite(a) ? sct_f(smooth(-1.5f, 2.5f, a), 1e-6f, 0) : sct_skip();
   if (fin) {
      float t = c - floorf(c);
      w[22] = sct_f(a + (b - a) * t, 2.5e-7f * (fabsf(a) + fabsf(b)) * 2, 0);
      w[23] = sct_f(a * b + c, 2.5e-7f * (fabsf(a * b) + fabsf(c)), 0);
   } else {
      w[22] = w[23] = sct_skip();
   }
   w[24] = isfinite(a) && a != 0 ? sct_f(1.0f / a, 0, 3e-7f) : sct_skip();
   w[25] = sct_fx(a / 4.0f);
   w[26] = fin ? sct_f(a * 0.5f - b * 0.25f, 0, 1.2e-7f) : sct_skip();
   w[27] = fin ? sct_fx((a + b) * (a - b)) : sct_skip();
}

static const char *const float_names[] = {
   "a+b", "a-b", "a*b", "a/b", "fma", "-a", "abs", "min", "max", "clamp", "compare",
   "isnan/isinf", "floor", "ceil", "trunc", "round", "roundEven", "fract", "mod", "sign", "step",
   "smoothstep", "mix", "a*b+c", "1/a", "a/4", "a*.5-b*.25", "(a+b)*(a-b)"};

/* ---- float_math ------------------------------------------------------------------ */

static void math_init(uint32_t i, uint32_t *in)
{
   in[0] = eut_u(in_range(h(i, 0), -PI_F, PI_F));
   in[1] = eut_u(in_range(h(i, 1), 0.001f, 100.0f));
   in[2] = eut_u(in_range(h(i, 2), -1.0f, 1.0f));
   float w = in_range(h(i, 3), -5.0f, 5.0f);
   in[3] = eut_u(fabsf(w) < 1e-3f ? 0.5f : w);
}

/* Relative tolerance, with an absolute floor near zero. */
static struct sct_want near(float v, float rel)
{
   return sct_f(v, rel * 1e-1f, rel);
}

static void math_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float x = eut_f(in[0]), y = eut_f(in[1]), z = eut_f(in[2]), v = eut_f(in[3]);
   /* Vulkan: sin/cos within 2^-11 absolute on [-pi, pi] */
   w[0] = sct_f(sinf(x), 4.9e-4f, 0);
   w[1] = sct_f(cosf(x), 4.9e-4f, 0);
   w[2] = near(tanf(z), 1e-3f);
   w[3] = near(asinf(z), 1e-4f);
   w[4] = near(acosf(z), 1e-4f);
   w[5] = near(atanf(v), 1e-4f);
   w[6] = near(atan2f(z, v), 1e-4f);
   w[7] = near(sinhf(v), 1e-4f);
   w[8] = near(coshf(v), 1e-4f);
   w[9] = near(tanhf(v), 1e-4f);
   w[10] = near(asinhf(v), 1e-4f);
   w[11] = near(acoshf(1.0f + y), 1e-4f);
   w[12] = near(atanhf(z * 0.99f), 1e-4f);
   w[13] = near(expf(v), 1e-5f);
   w[14] = near(exp2f(v), 1e-5f);
   w[15] = near(logf(y), 1e-5f);
   w[16] = near(log2f(y), 1e-5f);
   w[17] = near(powf(y, v * 0.5f), 1e-4f);
   w[18] = sct_f(sqrtf(y), 0, 3e-7f);
   w[19] = sct_f(1.0f / sqrtf(y), 0, 3e-7f);
   w[20] = sct_fx(ldexpf(z, (int)v));
   w[21] = near(expf(x) * cosf(v), 1e-4f);
}

static const char *const math_names[] = {
   "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
   "atanh", "exp", "exp2", "log", "log2", "pow", "sqrt", "inversesqrt", "ldexp", "exp*cos"};

/* ---- vecmat ---------------------------------------------------------------------- */

static void vecmat_init(uint32_t i, uint32_t *in)
{
   for (uint32_t k = 0; k < 16; k++)
      in[k] = eut_u((float)((int32_t)(h(i, k) % 17u) - 8) * 0.5f);
   /* word 15 also picks the dynamic index (bits 4-5 of its float bits) */
}

static void vecmat_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float f[16];
   for (int k = 0; k < 16; k++)
      f[k] = eut_f(in[k]);
   const float *a = f, *b = f + 3, *c = f + 6;
   const float *M = f;   /* mat3 columns: M[col*3 + row] */
   const float *N = f;   /* mat4 columns: N[col*4 + row] */
   int k = (int)(in[15] >> 4) & 3;
   w[0] = sct_fx(a[1] * b[2] - a[2] * b[1]);
   w[1] = sct_fx(a[2] * b[0] - a[0] * b[2]);
   w[2] = sct_fx(a[0] * b[1] - a[1] * b[0]);
   float ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
   w[3] = sct_fx(ab);
   w[4] = sct_f(sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), 1e-6f, 1e-6f);
   float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
   w[5] = sct_f(sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 1e-6f, 1e-6f);
   float bl = sqrtf(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
   for (int r = 0; r < 3; r++)
      w[6 + r] = bl == 0 ? sct_skip() : sct_f(b[r] / bl, 1e-6f, 1e-5f);
   for (int r = 0; r < 3; r++)
      w[9 + r] = sct_fx(M[0 * 3 + r] * b[0] + M[1 * 3 + r] * b[1] + M[2 * 3 + r] * b[2]);
   for (int col = 0; col < 3; col++)
      w[12 + col] = sct_fx(b[0] * M[col * 3 + 0] + b[1] * M[col * 3 + 1] + b[2] * M[col * 3 + 2]);
   for (int r = 0; r < 4; r++) {
      float s = 0;
      for (int col = 0; col < 4; col++)
         s += N[col * 4 + r] * c[col];
      w[15 + r] = sct_fx(s);
   }
   for (int r = 0; r < 4; r++) {   /* (N * N)[1][r] = sum_k N[k][r] * N[1][k] */
      float s = 0;
      for (int kk = 0; kk < 4; kk++)
         s += N[kk * 4 + r] * N[1 * 4 + kk];
      w[19 + r] = sct_fx(s);
   }
   for (int r = 0; r < 3; r++)
      w[23 + r] = sct_fx(M[r * 3 + 0]);   /* transpose(M)[0][r] = M[r][0] */
   for (int r = 0; r < 3; r++)
      w[26 + r] = sct_fx(a[r] * b[2]);    /* outerProduct(a, b)[2] = a * b[2] */
   for (int r = 0; r < 3; r++)
      w[29 + r] = sct_fx(M[3 + r] * M[3 + r]);
   float sw[3] = {a[2] * 2 + b[0], a[1] * 2 + b[0], a[0] * 2 + b[1]};
   for (int r = 0; r < 3; r++)
      w[32 + r] = sct_fx(sw[r]);
   w[35] = sct_fx(c[k]);
   for (int r = 0; r < 4; r++)
      w[36 + r] = sct_fx(r == k ? 99.0f : c[r]);
   for (int r = 0; r < 3; r++)
      w[40 + r] = sct_fx(M[(k % 3) * 3 + r]);
   w[43] = sct_fx(M[(k % 3) * 3 + (k + 1) % 3]);
   for (int r = 0; r < 3; r++)
      w[44 + r] = sct_fx(a[r] * 3.0f - b[r] / 2.0f);
   /* combine(Pair(a, f9, (k, 7)), Pair(b, f10, (-3, 2k))) */
   for (int r = 0; r < 3; r++)
      w[47 + r] = sct_fx(a[r] * f[10] + b[r]);
   w[50] = sct_fx(f[9] - f[10]);
   w[51] = sct_i((7 + -3) * 1000 + (k + k * 2));
}

/* ---- local_array ----------------------------------------------------------------- */

static void local_array_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t arr[16];
   for (uint32_t j = 0; j < 16; j++)
      arr[j] = in[j & 7] ^ j;
   uint32_t k = in[0] & 15u;
   arr[k] += 1000u;
   arr[(k * 7u) & 15u] ^= 0xffu;
   w[0] = sct_u(arr[in[1] & 15u]);
   w[1] = sct_u(arr[k] + arr[15u - k]);
   uint32_t v[8];
   for (uint32_t j = 0; j < 8; j++)
      v[j] = in[j] % 100u;
   for (uint32_t p = 0; p < 7; p++) {
      for (uint32_t j = 0; j < 7 - p; j++) {
         if (v[j] > v[j + 1]) {
            uint32_t t = v[j];
            v[j] = v[j + 1];
            v[j + 1] = t;
         }
      }
   }
   for (uint32_t j = 0; j < 8; j++)
      w[2 + j] = sct_u(v[j]);
   struct { uint32_t a; float b; uint32_t c[2]; } items[4];
   for (uint32_t j = 0; j < 4; j++) {
      items[j].a = in[j];
      items[j].b = (float)j + 0.5f;
      items[j].c[0] = j;
      items[j].c[1] = in[j + 4];
   }
   uint32_t m = in[2] & 3u;
   items[m].a += 5u;
   items[(m + 1u) & 3u].c[1] = 77u;
   w[10] = sct_u(items[m].a);
   w[11] = sct_fx(items[m ^ 1u].b);
   w[12] = sct_u(items[in[3] & 3u].c[1]);
   int32_t g[3][4];
   for (int x = 0; x < 3; x++)
      for (int y = 0; y < 4; y++)
         g[x][y] = x * 10 + y;
   uint32_t gx = in[4] % 3u, gy = in[5] & 3u;
   g[gx][gy] = -1;
   w[13] = sct_i(g[gx][gy]);
   w[14] = sct_i(g[in[6] % 3u][in[7] & 3u]);
   int32_t sum = 0;
   for (int x = 0; x < 3; x++)
      sum += g[x][gy];
   w[15] = sct_i(sum);
}

/* ---- int64, int64_glsl ----------------------------------------------------------- */

/* Two 64-bit values (words 0-3), then a shift count (word 4, int64 only). */
static void int64_pair(uint32_t i, uint32_t *in)
{
   for (uint32_t k = 0; k < 4; k++)
      in[k] = h(i, k);
   if (i % 4 == 1)
      in[1] = in[3];                /* equal high halves */
   if (i % 4 == 2)
      in[1] = in[3] = 0;            /* 32-bit values */
   if (i % 9 == 3) {
      in[2] = in[0];
      in[3] = in[1];                /* a == b */
   }
}

static void int64_init(uint32_t i, uint32_t *in)
{
   int64_pair(i, in);
   in[4] = h(i, 4);
}

static void put64(struct sct_want *w, uint64_t v)
{
   w[0] = sct_u((uint32_t)v);
   w[1] = sct_u((uint32_t)(v >> 32));
}

static uint64_t u64_of(const uint32_t *in) { return in[0] | (uint64_t)in[1] << 32; }

static void int64_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint64_t a = u64_of(in), b = u64_of(in + 2);
   int64_t ia = (int64_t)a, ib = (int64_t)b;
   uint32_t s = in[4] & 63u;
   put64(w + 0, a + b);
   put64(w + 2, a - b);
   put64(w + 4, a * b);
   put64(w + 6, a << s);
   put64(w + 8, a >> s);
   put64(w + 10, (uint64_t)(ia >> s));
   put64(w + 12, (a & b) ^ (~a | b));
   w[14] = sct_u(cmp_bits(a < b, a <= b, a == b, a != b, a > b, a >= b));
   w[15] = sct_u(cmp_bits(ia < ib, ia <= ib, false, false, ia > ib, ia >= ib));
   put64(w + 16, (uint64_t)(int64_t)(int32_t)in[0]);
   put64(w + 18, (uint64_t)in[1]);
   w[20] = sct_u((uint32_t)(a * 3u));
   put64(w + 21, a > b ? a : b);
   put64(w + 23, 0u - a);
   uint64_t acc = 1;
   for (uint32_t j = 0; j < in[4] % 20u; j++)
      acc = acc * 3u + a;
   put64(w + 25, acc);
   put64(w + 27, a * 0x100000001ull + 0xfffffffffull);
}

static const char *const int64_names[] = {
   "a+b lo", "a+b hi", "a-b lo", "a-b hi", "a*b lo", "a*b hi", "a<<s lo", "a<<s hi",
   "a>>s lo", "a>>s hi", "ia>>s lo", "ia>>s hi", "bitops lo", "bitops hi", "ucompare",
   "scompare", "sext lo", "sext hi", "zext lo", "zext hi", "trunc", "select lo", "select hi",
   "neg lo", "neg hi", "loop lo", "loop hi", "a*K+K lo", "a*K+K hi"};

static void int64_glsl_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint64_t a = u64_of(in), b = u64_of(in + 2);
   int64_t ia = (int64_t)a, ib = (int64_t)b;
   put64(w + 0, ia == INT64_MIN ? a : (uint64_t)(ia < 0 ? -ia : ia));
   put64(w + 2, a < b ? a : b);
   put64(w + 4, a > b ? a : b);
   put64(w + 6, (uint64_t)(ia < ib ? ia : ib));
   put64(w + 8, (uint64_t)(ia > ib ? ia : ib));
   int64_t lim = 1000000000000ll;
   put64(w + 10, (uint64_t)(ia < -lim ? -lim : ia > lim ? lim : ia));
}

static const char *const int64_glsl_names[] = {
   "abs lo", "abs hi", "umin lo", "umin hi", "umax lo", "umax hi", "smin lo", "smin hi",
   "smax lo", "smax hi", "sclamp lo", "sclamp hi"};

/* shaders/spec_ops.spvasm: OpSpecConstantOp results the optimizer leaves. */
static void spec_ops_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(in[0] * 14);
   w[1] = sct_u(in[0] + 7);
   w[2] = sct_u(in[0] + 14);
}

/* shaders/undef_local.spvasm: OpUndef in the function's code. */
static void undef_local_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(in[0] + 1);
   w[1] = sct_u(in[0]);
}

/* shaders/decoration_groups.spvasm: the interface decorated through
 * OpDecorationGroup, OpGroupDecorate and OpGroupMemberDecorate. */
static void decoration_groups_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(in[0] * 2 + 1);
}

/* shaders/builtin_index.spvasm: a dynamic index into a built-in, and
 * 64-bit constant indices. */
static void builtin_index_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(in[0] % 3 == 0 ? i : 0);
   w[1] = sct_u(in[0] + i);
}

/* shaders/big_value.spvasm: a value of 80 scalars in registers. */
static void big_value_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(in[0] + 7);
   w[1] = sct_u(in[0]);
}

/* ---------------------------------------------------------------------------------- */

static const struct sct_map maps[] = {
   SCT_MAP("int_arith", 2, 16, int_init, int_ref, int_names),
   SCT_MAP("uint_arith", 2, 14, uint_init, uint_ref, NULL),
   SCT_MAP("bits", 3, 22, bits_init, bits_ref, bits_names),
   SCT_MAP("convert", 3, 14, convert_init, convert_ref, convert_names),
   SCT_MAP("float_arith", 3, 28, float_init, float_ref, float_names),
   SCT_MAP("float_math", 4, 22, math_init, math_ref, math_names),
   SCT_MAP("vecmat", 16, 52, vecmat_init, vecmat_ref, NULL),
   SCT_MAP("local_array", 8, 16, NULL, local_array_ref, NULL),
   SCT_MAP("int64", 5, 29, int64_init, int64_ref, int64_names),
   SCT_MAP("int64_glsl", 4, 12, int64_pair, int64_glsl_ref, int64_glsl_names),
   SCT_MAP("spec_ops", 1, 3, NULL, spec_ops_ref, NULL),
   SCT_MAP("undef_local", 1, 2, NULL, undef_local_ref, NULL),
   SCT_MAP("decoration_groups", 1, 1, NULL, decoration_groups_ref, NULL),
   SCT_MAP("builtin_index", 1, 2, NULL, builtin_index_ref, NULL),
   SCT_MAP("big_value", 1, 2, NULL, big_value_ref, NULL),
};

int main(int argc, char **argv)
{
   struct sct s;
   sct_init(&s);
   for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
      if (argc > 1 && strcmp(argv[1], maps[i].shader) != 0)
         continue;
      sct_map_matrix(&s, &maps[i]);
   }
   sct_fini(&s);
   return hwt_finish();
}
