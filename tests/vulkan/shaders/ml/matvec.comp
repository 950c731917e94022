// y = A x: A is M x K, row-major, in f16 (A_F16), q8 or q4 blocks (A_Q8,
// A_Q4; formats in ml.glsl); y is f32. Each workgroup computes ROWS rows
// (specialization constant 1): its invocations stride along K, each
// keeping one f32 partial sum per row, then the workgroup adds them up
// (subgroupAdd, then shared memory: ml_sum_begin, ml_sum_finish). Push constants: M, K (K a multiple of
// 32; of 4 for f16).
//
// f16: x is f16 too. With ARITH_F16 the products are f16 arithmetic: each
// f16vec4 dot product in f16, added to the f32 partial sum; before the
// workgroup sum the partial sums go through f16 and are added in clusters
// of 4 lanes in f16 (subgroupClusteredAdd, or with SHUFFLE_CLUSTERS an
// equivalent butterfly of subgroupShuffleXor for devices without clustered
// operations), of which one lane per cluster feeds the f32 sum. The error
// this costs is bounded in test_compute_ml.c. Without ARITH_F16 the halves
// only go through f16 storage and everything is f32.
// q8, q4: x is f32; every block is dequantized in f32.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#if defined(A_Q8) || defined(A_Q4)
#extension GL_EXT_shader_8bit_storage : require
#endif
#ifdef ARITH_F16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#ifdef SHUFFLE_CLUSTERS
#extension GL_KHR_shader_subgroup_shuffle : require
#else
#extension GL_KHR_shader_subgroup_clustered : require
#endif
#endif
#include "ml.glsl"

layout(constant_id = 1) const uint ROWS = 1u;   // at most ML_MAX_ROWS

layout(push_constant) uniform P { uint M; uint K; } p;

#if defined(A_F16)
layout(std430, binding = 0) readonly buffer A { f16vec4 a4[]; };
layout(std430, binding = 1) readonly buffer X { f16vec4 x4[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };
#define UNIT 4u          // values per invocation step
#else
layout(std430, binding = 0) readonly buffer AQ {
#ifdef A_Q8
   i8vec4 q4[];          // 4 quants
#else
   u8vec4 q8[];          // 8 nibbles (one word)
#endif
};
layout(std430, binding = 1) readonly buffer AD { float16_t d[]; };
layout(std430, binding = 2) readonly buffer X { vec4 x4[]; };
layout(std430, binding = 3) writeonly buffer Y { float y[]; };
#ifdef A_Q8
#define UNIT 4u
#else
#define UNIT 8u
#endif
#endif

// The dot product of unit j of row `row` with the matching values of x.
#if defined(A_F16) && defined(ARITH_F16)
float unit_dot(uint row, uint j, f16vec4 xv)
{
   return float(dot(a4[row * (p.K / 4u) + j], xv));
}
#elif defined(A_F16)
float unit_dot(uint row, uint j, vec4 xv)
{
   return dot(vec4(a4[row * (p.K / 4u) + j]), xv);
}
#elif defined(A_Q8)
float unit_dot(uint row, uint j, vec4 xv)
{
   float scale = float(d[row * (p.K / 32u) + j / 8u]);
   // (8-bit storage converts to 32-bit integers only.)
   return scale * dot(vec4(ivec4(q4[row * (p.K / 4u) + j])), xv);
}
#else
float unit_dot(uint row, uint j, vec4 xlo, vec4 xhi)
{
   float scale = float(d[row * (p.K / 32u) + j / 4u]);
   uvec4 w = uvec4(q8[row * (p.K / 8u) + j]);
   vec4 lo = vec4(w & 15u) - 8.0, hi = vec4(w >> 4u) - 8.0;
   return scale * (dot(lo, xlo) + dot(hi, xhi));
}
#endif

void main()
{
   uint row0 = gl_WorkGroupID.x * ROWS;
   uint units = p.K / UNIT;
   float acc[ML_MAX_ROWS];
   for (uint r = 0u; r < ROWS; r++)
      acc[r] = 0.0;
   for (uint j = gl_LocalInvocationID.x; j < units; j += gl_WorkGroupSize.x) {
      // x is loaded once for all the rows of the workgroup.
#if defined(A_F16) && defined(ARITH_F16)
      f16vec4 xv = x4[j];
#elif defined(A_F16)
      vec4 xv = vec4(x4[j]);
#elif defined(A_Q8)
      vec4 xv = x4[j];
#else
      vec4 xlo = x4[2u * j], xhi = x4[2u * j + 1u];
#endif
      for (uint r = 0u; r < ROWS; r++) {
         if (row0 + r < p.M) {
#if defined(A_Q4)
            acc[r] += unit_dot(row0 + r, j, xlo, xhi);
#else
            acc[r] += unit_dot(row0 + r, j, xv);
#endif
         }
      }
   }
   for (uint r = 0u; r < ROWS; r++) {
      float part = acc[r];
#ifdef ARITH_F16
      float16_t h = float16_t(part);
#ifdef SHUFFLE_CLUSTERS
      h += subgroupShuffleXor(h, 1u);
      h += subgroupShuffleXor(h, 2u);
#else
      h = subgroupClusteredAdd(h, 4u);
#endif
      part = (gl_SubgroupInvocationID & 3u) == 0u ? float(h) : 0.0;
#endif
      ml_sum_begin(r, part);
   }
   barrier();
   if (gl_LocalInvocationID.x == 0u) {
      for (uint r = 0u; r < ROWS && row0 + r < p.M; r++)
         y[row0 + r] = ml_sum_finish(r);
   }
}
