// Subgroup arithmetic, ballot broadcasts and shuffles on 64-bit integers
// (shaderSubgroupExtendedTypes with shaderInt64), over all invocations
// and, in a divergent branch, over the active ones only.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint64_t r[]; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   uint base = g * 16u;
   // Values that use both halves and the sign bit, so a 32-bit operation
   // or a lost carry shows.
   uint64_t v = uint64_t(g) * 0x9E3779B97F4A7C15ul + (uint64_t(g & 3u) << 62);
   r[base + 0u] = uint64_t(gl_SubgroupID) | (uint64_t(gl_SubgroupInvocationID) << 32);
   r[base + 1u] = subgroupAdd(v);
   r[base + 2u] = subgroupInclusiveAdd(v);
   r[base + 3u] = subgroupExclusiveAdd(v);
   r[base + 4u] = subgroupMax(v);
   r[base + 5u] = subgroupMin(v);
   r[base + 6u] = uint64_t(subgroupMax(int64_t(v)));
   r[base + 7u] = uint64_t(subgroupMin(int64_t(v)));
   r[base + 8u] = subgroupXor(v);
   r[base + 9u] = subgroupAnd(v);
   r[base + 10u] = subgroupOr(v);
   r[base + 11u] = subgroupMul(v | 1ul);
   r[base + 12u] = subgroupBroadcastFirst(v);
   r[base + 13u] = subgroupBroadcast(v, 1u);
   r[base + 14u] = subgroupShuffle(v, gl_SubgroupInvocationID ^ 1u);
   if (g % 3u != 1u)
      r[base + 15u] = subgroupAdd(v) ^ subgroupBroadcastFirst(v);
}
