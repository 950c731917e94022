// Activations to q8 blocks (ml.glsl): x (f32, n values, n a multiple of
// 32) to packed int8 quants (4 per word) and one f32 scale per block of
// 32, d = max|x| / 127, q = round(x / d). Each invocation quantizes 4
// values, so 8 neighbouring lanes hold a block and find its maximum with a
// clustered reduction of 8 (or, with SHUFFLE_CLUSTERS, a butterfly of
// subgroupShuffleXor over the same 8 lanes).
//
// Which values a lane takes comes from its subgroup IDs, not from
// gl_LocalInvocationID: the lanes of a cluster are neighbours within the
// subgroup, whatever the implementation's mapping of local invocations to
// subgroups. It needs subgroups of at least 8 lanes, all full: the test
// asks for full subgroups (computeFullSubgroups) where the device offers
// them. Push constant: n.
#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef SHUFFLE_CLUSTERS
#extension GL_KHR_shader_subgroup_shuffle : require
#else
#extension GL_KHR_shader_subgroup_clustered : require
#endif
#define ML_NO_SUMS
#include "ml.glsl"

layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer X { vec4 x4[]; };
layout(std430, binding = 1) writeonly buffer Q { uint q[]; };
layout(std430, binding = 2) writeonly buffer D { float d[]; };

void main()
{
   uint u = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_SubgroupID * gl_SubgroupSize +
            gl_SubgroupInvocationID;
   bool in_range = u < p.n / 4u;
   vec4 v = in_range ? x4[u] : vec4(0.0);
   vec4 a = abs(v);
   float amax = max(max(a.x, a.y), max(a.z, a.w));
   // Every lane takes part, in range or not: a cluster is in range whole.
#ifdef SHUFFLE_CLUSTERS
   amax = max(amax, subgroupShuffleXor(amax, 1u));
   amax = max(amax, subgroupShuffleXor(amax, 2u));
   amax = max(amax, subgroupShuffleXor(amax, 4u));
#else
   amax = subgroupClusteredMax(amax, 8u);
#endif
   float inv = amax > 0.0 ? 127.0 / amax : 0.0;
   ivec4 qi = clamp(ivec4(round(v * inv)), -127, 127);
   uvec4 b = uvec4(qi) & 0xffu;
   if (in_range) {
      q[u] = b.x | b.y << 8u | b.z << 16u | b.w << 24u;
      if ((gl_SubgroupInvocationID & 7u) == 0u)
         d[u / 8u] = amax / 127.0;
   }
}
