// Softmax of each row of N logits, in one pass over the data for the
// maximum and the sum (an online softmax) and one for the output: logits
// v = scale * x + mask, x an f16 row, the mask an f16 row of MR rows
// (row r uses mask row r % MR, as attention heads share a mask; masked
// entries hold a large negative value), y = exp(v - max) / sum exp(v - max)
// in f32. One workgroup per row, N at least the workgroup size.
//
// Each invocation keeps the running maximum m of its logits and the sum s
// of exp(v - m), rescaled by exp(m_old - m_new) whenever m grows; the
// subgroup and then the workgroup combine their (m, s) pairs the same way.
// With ARITH_F16 the subgroup's maximum is an f16 subgroupMax of the lanes'
// maxima rounded to f16: softmax is the same for any shift, which only has
// to be near the maximum to keep exp in range.
// Push constants: N, MR, scale.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#ifdef ARITH_F16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#endif
#include "ml.glsl"

layout(push_constant) uniform P { uint N; uint MR; float scale; } p;
layout(std430, binding = 0) readonly buffer X { float16_t x[]; };
layout(std430, binding = 1) readonly buffer Mask { float16_t mask[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

shared float sg_max[ML_MAX_SUBGROUPS];
shared float sg_sum[ML_MAX_SUBGROUPS];

float logit(uint r, uint i)
{
   return p.scale * float(x[r * p.N + i]) + float(mask[(r % p.MR) * p.N + i]);
}

void main()
{
   uint r = gl_WorkGroupID.x, tid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
   float m = logit(r, tid), s = 1.0;
   for (uint i = tid + wg; i < p.N; i += wg) {
      float v = logit(r, i);
      if (v > m) {
         s = s * exp(m - v) + 1.0;
         m = v;
      } else {
         s += exp(v - m);
      }
   }
#ifdef ARITH_F16
   float shift = float(subgroupMax(float16_t(m)));
#else
   float shift = subgroupMax(m);
#endif
   float sum = subgroupAdd(s * exp(m - shift));
   if (subgroupElect()) {
      sg_max[gl_SubgroupID] = shift;
      sg_sum[gl_SubgroupID] = sum;
   }
   barrier();
   float top = sg_max[0];
   for (uint i = 1u; i < gl_NumSubgroups; i++)
      top = max(top, sg_max[i]);
   float total = 0.0;
   for (uint i = 0u; i < gl_NumSubgroups; i++)
      total += sg_sum[i] * exp(sg_max[i] - top);
   float inv = 1.0 / total;
   for (uint i = tid; i < p.N; i += wg)
      y[r * p.N + i] = exp(logit(r, i) - top) * inv;
}
