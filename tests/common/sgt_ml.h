/*
 * The C side of the machine-learning kernels (tests/vulkan/shaders/ml,
 * run by tests/vulkan/test_compute_ml.c and bench/bench_compute.c): the
 * quantized formats of ml.glsl, test data, references in double precision
 * and the error bounds the kernels' results are held to. Header only, so
 * that the benchmark, which does not link the test helpers, checks its
 * results with the same references and bounds.
 *
 * Error bounds. A correctly rounded operation on f32 (f16) values errs by
 * at most u = 2^-24 (2^-11) times its result (Vulkan requires correct
 * rounding of OpFAdd, OpFSub and OpFMul at both widths, and allows a
 * contraction into an FMA, which only rounds less). A sum of products
 * computed in any order, where each product passes through at most n16
 * roundings in f16 and n32 in f32 on its way to the result, errs by at
 * most ((1 + u16)^n16 (1 + u32)^n32 - 1) times the sum of the products'
 * magnitudes, S: each product reaches the result multiplied by one factor
 * (1 + d) per rounding, |d| <= u (Higham, "Accuracy and Stability of
 * Numerical Algorithms", 3.1). The bounds below count roundings along a
 * kernel's longest path (a subgroup reduction counted as a sequential one,
 * since its order is the implementation's) and scale S. Vulkan's own
 * precision table bounds what is not correctly rounded: exp and exp2 err
 * by 3 + 2|x| ulp, division by 2.5 ulp, inversesqrt by 2 ulp, sin and cos
 * by 2^-11 absolute on [-pi, pi].
 */
#ifndef SGT_ML_H
#define SGT_ML_H

#include <math.h>
#include <stdint.h>

#include "sgt_half.h"

#define SGT_ML_BLOCK 32u        /* values per quantized block */
#define SGT_ML_U32 0x1p-24      /* unit roundoff of f32 */
#define SGT_ML_U16 0x1p-11      /* unit roundoff of f16 */
/* An ulp of a normal f32 value x is at most 2^-23 |x|. */
#define SGT_ML_ULP32 0x1p-23
/* The smallest normal f16: a result below it may be flushed to zero (the
 * f16 denormal mode is the implementation's unless the shader declares
 * one), an absolute error of at most this much. */
#define SGT_ML_F16_MIN_NORMAL 0x1p-14

/* ---- data ---------------------------------------------------------------- */

/* A deterministic generator (a 32-bit LCG, its state hashed on the way
 * out); any seed. */
static inline uint32_t sgt_ml_rand(uint32_t *state)
{
   uint32_t x = *state = *state * 1664525u + 1013904223u;
   x ^= x >> 16;
   x *= 0x85ebca6bu;
   x ^= x >> 13;
   return x;
}

/* Uniform in [lo, hi), then at least 1/64 away from zero: no product of
 * two such values in f16 is subnormal. */
static inline double sgt_ml_uniform(uint32_t *state, double lo, double hi)
{
   double v = lo + (hi - lo) * (sgt_ml_rand(state) >> 8) * 0x1p-24;
   if (fabs(v) < 1.0 / 64)
      v = v < 0 ? -1.0 / 64 : 1.0 / 64;
   return v;
}

static inline uint16_t sgt_ml_half(uint32_t *state, double lo, double hi)
{
   return sgt_float_to_half((float)sgt_ml_uniform(state, lo, hi));
}

/* ---- the quantized formats (tests/vulkan/shaders/ml/ml.glsl) --------------- */

/* Element (m, k) of an M x K q8 matrix: quants qs (K bytes a row), f16
 * scales d (K / 32 a row). */
static inline double sgt_ml_q8(const int8_t *qs, const uint16_t *d, uint32_t K, uint32_t m,
                               uint32_t k)
{
   return (double)sgt_half_to_float(d[(size_t)m * (K / SGT_ML_BLOCK) + k / SGT_ML_BLOCK]) *
          qs[(size_t)m * K + k];
}

/* Where value k of a q4 row lives: byte (k / 8) * 4 + k % 4 of the row's
 * K / 2 bytes, low nibble for k % 8 < 4, high nibble otherwise. */
static inline uint32_t sgt_ml_q4_byte(uint32_t k)
{
   return k / 8 * 4 + k % 4;
}

static inline unsigned sgt_ml_q4_nibble(const uint8_t *qs, uint32_t K, uint32_t m, uint32_t k)
{
   uint8_t byte = qs[(size_t)m * (K / 2) + sgt_ml_q4_byte(k)];
   return k % 8 < 4 ? byte & 15u : byte >> 4;
}

static inline double sgt_ml_q4(const uint8_t *qs, const uint16_t *d, uint32_t K, uint32_t m,
                               uint32_t k)
{
   return (double)sgt_half_to_float(d[(size_t)m * (K / SGT_ML_BLOCK) + k / SGT_ML_BLOCK]) *
          ((int)sgt_ml_q4_nibble(qs, K, m, k) - 8);
}

/* Random q8 weights: quants in [-127, 127], scales in [1/512, 1/128). */
static inline void sgt_ml_fill_q8(int8_t *qs, uint16_t *d, uint32_t M, uint32_t K,
                                  uint32_t *state)
{
   for (size_t i = 0; i < (size_t)M * K; i++)
      qs[i] = (int8_t)((int)(sgt_ml_rand(state) % 255u) - 127);
   for (size_t i = 0; i < (size_t)M * K / SGT_ML_BLOCK; i++)
      d[i] = sgt_ml_half(state, 1.0 / 512, 1.0 / 128);
}

/* Random q4 weights: nibbles in [0, 15], scales in [1/64, 1/16). */
static inline void sgt_ml_fill_q4(uint8_t *qs, uint16_t *d, uint32_t M, uint32_t K,
                                  uint32_t *state)
{
   for (size_t i = 0; i < (size_t)M * K / 2; i++)
      qs[i] = (uint8_t)sgt_ml_rand(state);
   for (size_t i = 0; i < (size_t)M * K / SGT_ML_BLOCK; i++)
      d[i] = sgt_ml_half(state, 1.0 / 64, 1.0 / 16);
}

/* ---- references ------------------------------------------------------------ */

/* A sum in double, and the sum of its terms' magnitudes (what a bound
 * scales). */
struct sgt_ml_sum {
   double value, abs;
};

static inline void sgt_ml_add(struct sgt_ml_sum *s, double term)
{
   s->value += term;
   s->abs += fabs(term);
}

/* GELU, the tanh approximation, by its definition. */
static inline double sgt_ml_gelu(double x)
{
   return 0.5 * x * (1.0 + tanh(sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

static inline double sgt_ml_silu(double x)
{
   return x / (1.0 + exp(-x));
}

/* ---- bounds ---------------------------------------------------------------- */

/* The relative error of a path of n16 f16 and n32 f32 roundings. */
static inline double sgt_ml_rounds(double n16, double n32)
{
   return expm1(n16 * log1p(SGT_ML_U16) + n32 * log1p(SGT_ML_U32));
}

/* The f32 roundings of a workgroup sum (ml_workgroup_add): a subgroup
 * reduction of `width` lanes, then one partial sum per subgroup, added in
 * sequence. */
static inline double sgt_ml_workgroup_sum_rounds(uint32_t wg, uint32_t width)
{
   return (double)width + (double)((wg + width - 1) / width);
}

/* matvec.comp without ARITH_F16 (f16, q8, q4): each product is formed and
 * scaled in at most 6 f32 roundings (product, 3 in the 4-wide dot, q4's
 * two halves, the block's scale), added into an invocation's partial sum
 * over ceil(K / unit / wg) steps, then through the workgroup sum.
 * Relative to S. */
static inline double sgt_ml_matvec_bound(uint32_t K, uint32_t unit, uint32_t wg, uint32_t width)
{
   double steps = (double)((K / unit + wg - 1) / wg);
   return sgt_ml_rounds(0, 6 + steps + sgt_ml_workgroup_sum_rounds(wg, width));
}

/* matvec.comp with ARITH_F16: 4 f16 roundings in each f16vec4 dot product
 * (product, 3 additions), 1 converting the partial sum to f16, 3 in the
 * cluster of 4; f32 roundings as above. Relative to S; *abs_slack is the
 * absolute error flushed subnormals may add: each of the kernel's f16
 * operations for one row (fewer than 2K in the dot products, 4 per lane
 * for the clusters) once, with room for the later roundings. */
static inline double sgt_ml_matvec_f16_bound(uint32_t K, uint32_t wg, uint32_t width,
                                             double *abs_slack)
{
   double steps = (double)((K / 4 + wg - 1) / wg);
   *abs_slack = 1.01 * (2.0 * K + 4.0 * wg) * SGT_ML_F16_MIN_NORMAL;
   return sgt_ml_rounds(8, steps + sgt_ml_workgroup_sum_rounds(wg, width));
}

/* matvec_dot.comp: a block's integer dot product is exact (|sum| <= 32 *
 * 127 * 127 < 2^24, so also its conversion to f32); 2 f32 roundings scale
 * it (the scales' product, then the product with the sum), then the partial
 * sum over ceil(K / 32 / wg) steps and the workgroup sum. Relative to S,
 * the sum of |block dot product * scales|. */
static inline double sgt_ml_matvec_dot_bound(uint32_t K, uint32_t wg, uint32_t width)
{
   double steps = (double)((K / SGT_ML_BLOCK + wg - 1) / wg);
   return sgt_ml_rounds(0, 2 + steps + sgt_ml_workgroup_sum_rounds(wg, width));
}

/* matmul.comp: every product is formed in one rounding (f16 with
 * ARITH_F16, else f32; the dequantization's scale product is one f32
 * rounding more) and added in sequence over K. Relative to S;
 * *abs_slack: with f16 products, flushing subnormal ones (none with
 * sgt_ml_uniform's data, which keeps them normal) could lose 2^-14 each. */
static inline double sgt_ml_matmul_bound(uint32_t K, int f16_products, double *abs_slack)
{
   *abs_slack = f16_products ? 1.01 * K * SGT_ML_F16_MIN_NORMAL : 0;
   return sgt_ml_rounds(f16_products ? 1 : 0, (f16_products ? 0 : 2) + K);
}

/* softmax.comp, relative to each output. Logits v = scale * x + mask within
 * [-L, L] where unmasked (masked ones give exp() of about -30000, 0 to
 * within far less than any output). Each exp() of a difference of logits
 * errs by 3 + 2 * 2L ulp, plus what the difference's 3 roundings (v
 * twice, the subtraction) move it: at most 4L * u32 absolute, so as much
 * relative in exp. A term of the sum reaches it through at most
 * ceil(N / wg) + 2 exp() factors (one per rise of an invocation's maximum,
 * then the subgroup's and the workgroup's shifts; with the f16 shift, the
 * shift can exceed a lane's maximum by L * u16, which lengthens exp()'s
 * argument by as much), each with 1 rounding of its product, and at most
 * ceil(N / wg) + width + subgroups additions, all of positive terms. The
 * output is one more exp() over the sum's reciprocal (2.5 ulp) and a
 * product. */
static inline double sgt_ml_softmax_bound(uint32_t N, uint32_t wg, uint32_t width, double L,
                                          int f16_shift)
{
   double span = 2 * L + (f16_shift ? L * SGT_ML_U16 : 0);
   double e = (3 + 2 * span) * SGT_ML_ULP32 + 4 * L * SGT_ML_U32 + SGT_ML_U32;
   double steps = (double)((N + wg - 1) / wg);
   double sum = (steps + 2) * e + sgt_ml_rounds(0, steps + sgt_ml_workgroup_sum_rounds(wg, width));
   return 1.01 * (e + sum + 2.5 * SGT_ML_ULP32 + SGT_ML_U32);
}

/* rmsnorm.comp and the normalization in qkv.comp, relative to each output:
 * the sum of squares (positive terms: relative error of 4 roundings in a
 * 4-wide dot, ceil(N / 4 / wg) steps and the workgroup sum); the mean
 * (division, 2.5 ulp) plus eps (1 rounding); inversesqrt (2 ulp) halves the
 * relative error of its argument and adds its own; then x * scale * g, 2
 * roundings. */
static inline double sgt_ml_rmsnorm_bound(uint32_t N, uint32_t wg, uint32_t width)
{
   double steps = (double)((N / 4 + wg - 1) / wg);
   double ss = sgt_ml_rounds(0, 4 + steps + sgt_ml_workgroup_sum_rounds(wg, width));
   double mean = ss + 2.5 * SGT_ML_ULP32 + SGT_ML_U32;
   return 1.01 * (mean / 2 + 2 * SGT_ML_ULP32 + 2 * SGT_ML_U32);
}

/* rope.comp, for an output of the pair (x0, x1) rotated by theta (radians)
 * at pair index i of a head of D values, log2(base) = lb: the angle's error
 * times |x0| + |x1|, plus sin and cos's 2^-11 each (per output, one of
 * each), plus the output's 3 roundings. The angle: exp2's argument, -2i/D
 * * lb, errs by its division (2.5 ulp) and 2 products (and lb's rounding to
 * f32), so exp2's result by that relative error times ln 2 |argument|,
 * plus exp2's own 3 + 2|argument| ulp; theta's product 1 more rounding;
 * the reduction by 2 pi: k * C1 exact, C2 off by u32 relative, 3
 * roundings of values below 2 pi + |theta| u32. */
static inline double sgt_ml_rope_bound(double theta, uint32_t i, uint32_t D, double lb,
                                       double x0, double x1)
{
   double arg = 2.0 * i / D * lb;
   double rel = (3 + 2 * arg) * SGT_ML_ULP32 + M_LN2 * arg * (2.5 * SGT_ML_ULP32 + 3 * SGT_ML_U32) +
                SGT_ML_U32;
   double k = fabs(round(theta / (2 * M_PI)));
   double angle = theta * rel + k * 2e-3 * SGT_ML_U32 + 3 * (2 * M_PI + theta * SGT_ML_U32) * SGT_ML_U32;
   double mag = fabs(x0) + fabs(x1);
   return 1.01 * (mag * (angle + 0x1p-11) + 3 * mag * SGT_ML_U32);
}

/* act.comp, relative to each output, for z = x (SiLU) or z = 2u (GELU):
 * z's own errors (GELU: 6 roundings and the f32 constants' 2, on terms of
 * one sign, so relative to |z|) move exp(-z) by |z| times their relative
 * error; exp errs by 3 + 2|z| ulp; 1 + e, 1
 * rounding (e >= 0, so relative to 1 + e at most e's); the division 2.5
 * ulp. */
static inline double sgt_ml_act_bound(double z, int gelu)
{
   double az = fabs(z);
   double zrel = gelu ? 8 * SGT_ML_U32 : 0;
   return 1.01 * (az * zrel + (3 + 2 * az) * SGT_ML_ULP32 + SGT_ML_U32 + 2.5 * SGT_ML_ULP32);
}

#endif
