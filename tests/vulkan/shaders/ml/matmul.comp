// C = A B^T: A is M x K in f16 (A_F16), q8 or q4 blocks (A_Q8, A_Q4;
// ml.glsl), B is N x K in f16 (both row-major along K, as a weight matrix
// and a batch of activations are), C is N x M in f32: C[n][m] = sum over k
// of A[m][k] B[n][k]. M and N are any sizes; K is a multiple of BK.
//
// Each workgroup computes a BM x BN tile of C: it stages BM x BK of A
// (dequantized) and BN x BK of B in shared memory, waits at a barrier,
// accumulates, and waits again before the next step along K. Each
// invocation computes TM x TN values of the tile, in f32. Tile sizes are
// specialization constants: 0 the workgroup size, 1 BM, 2 BN, 3 BK, 4 TM,
// 5 TN, with BM * BN = workgroup size * TM * TN, BM a multiple of TM, BN of
// TN; BK = 32 (one block) for the quantized formats.
//
// With ARITH_F16 the tiles are f16 in shared memory and every product is an
// f16 multiply, added to the f32 accumulator; without it the halves only
// pass through f16 storage and the tiles and products are f32.
// Push constants: M, N, K.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#ifdef A_Q8
#extension GL_EXT_shader_8bit_storage : require
#endif
#ifdef ARITH_F16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#define ML_NO_SUMS
#include "ml.glsl"

layout(constant_id = 1) const uint BM = 32u;
layout(constant_id = 2) const uint BN = 32u;
layout(constant_id = 3) const uint BK = 32u;
layout(constant_id = 4) const uint TM = 4u;
layout(constant_id = 5) const uint TN = 4u;
#define MAX_TILE 64u        // TM * TN at most

layout(push_constant) uniform P { uint M; uint N; uint K; } p;

#if defined(A_F16)
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
#define B_BINDING 1
#else
layout(std430, binding = 0) readonly buffer AQ {
#ifdef A_Q8
   int8_t aq[];             // one quant a byte
#else
   uint aq[];               // 8 nibbles a word
#endif
};
layout(std430, binding = 1) readonly buffer AD { float16_t ad[]; };
#define B_BINDING 2
#endif
layout(std430, binding = B_BINDING) readonly buffer B { float16_t b[]; };
layout(std430, binding = B_BINDING + 1) writeonly buffer C { float c[]; };

#ifdef ARITH_F16
#define TILE_T float16_t
#else
#define TILE_T float
#endif
shared TILE_T as[BM * BK];
shared TILE_T bs[BN * BK];

// A[m][k], m < M, as a float.
float a_value(uint m, uint k)
{
#if defined(A_F16)
   return float(a[m * p.K + k]);
#else
   float scale = float(ad[m * (p.K / 32u) + k / 32u]);
#ifdef A_Q8
   return scale * float(int(aq[m * p.K + k]));
#else
   uint i = k % 8u;
   uint shift = i < 4u ? 8u * i : 8u * (i - 4u) + 4u;
   return scale * (float((aq[m * (p.K / 8u) + k / 8u] >> shift) & 15u) - 8.0);
#endif
#endif
}

void main()
{
   const uint RM = BM / TM, RN = BN / TN;   // invocations along each side
   uint tid = gl_LocalInvocationID.x;
   uint tr = tid / RN, tc = tid % RN;
   uint m0 = gl_WorkGroupID.x * BM, n0 = gl_WorkGroupID.y * BN;
   float acc[MAX_TILE];
   for (uint i = 0u; i < TM * TN; i++)
      acc[i] = 0.0;
   for (uint k0 = 0u; k0 < p.K; k0 += BK) {
      // Rows outside A or B load zeros: their results are never stored.
      for (uint e = tid; e < BM * BK; e += gl_WorkGroupSize.x) {
         uint m = m0 + e / BK;
         as[e] = TILE_T(m < p.M ? a_value(m, k0 + e % BK) : 0.0);
      }
      for (uint e = tid; e < BN * BK; e += gl_WorkGroupSize.x) {
         uint n = n0 + e / BK;
         bs[e] = TILE_T(n < p.N ? float(b[n * p.K + k0 + e % BK]) : 0.0);
      }
      barrier();
      for (uint k = 0u; k < BK; k++) {
         for (uint i = 0u; i < TM; i++) {
            TILE_T av = as[(tr + i * RM) * BK + k];
            for (uint j = 0u; j < TN; j++)
               acc[i * TN + j] += float(av * bs[(tc + j * RN) * BK + k]);
         }
      }
      // The next step overwrites the tiles.
      barrier();
   }
   for (uint i = 0u; i < TM; i++) {
      for (uint j = 0u; j < TN; j++) {
         uint m = m0 + tr + i * RM, n = n0 + tc + j * RN;
         if (m < p.M && n < p.N)
            c[n * p.M + m] = acc[i * TN + j];
      }
   }
}
