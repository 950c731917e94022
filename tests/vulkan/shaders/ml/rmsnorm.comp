// RMS normalization of each row of N values (N a multiple of 4): y = x /
// sqrt(mean(x^2) + eps) * g, x and y f32, the weights g f16. One workgroup
// per row; the sum of squares in f32 through ml_workgroup_add.
// Push constants: N, eps.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#include "ml.glsl"

layout(push_constant) uniform P { uint N; float eps; } p;
layout(std430, binding = 0) readonly buffer X { vec4 x4[]; };
layout(std430, binding = 1) readonly buffer G { f16vec4 g4[]; };
layout(std430, binding = 2) writeonly buffer Y { vec4 y4[]; };

void main()
{
   uint base = gl_WorkGroupID.x * (p.N / 4u);
   float ss = 0.0;
   for (uint j = gl_LocalInvocationID.x; j < p.N / 4u; j += gl_WorkGroupSize.x) {
      vec4 v = x4[base + j];
      ss += dot(v, v);
   }
   float scale = inversesqrt(ml_workgroup_add(ss) / float(p.N) + p.eps);
   for (uint j = gl_LocalInvocationID.x; j < p.N / 4u; j += gl_WorkGroupSize.x)
      y4[base + j] = x4[base + j] * scale * vec4(g4[j]);
}
