// Subgroup arithmetic over all invocations and, in a divergent branch,
// over the active ones only.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint r[]; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   uint base = g * 16u;
   uint v = (g * 2654435761u) >> 7;
   r[base + 0u] = gl_SubgroupID;
   r[base + 1u] = gl_SubgroupInvocationID;
   r[base + 2u] = subgroupAdd(v);
   r[base + 3u] = subgroupInclusiveAdd(v);
   r[base + 4u] = subgroupExclusiveAdd(v);
   r[base + 5u] = subgroupMax(v);
   r[base + 6u] = subgroupMin(v);
   r[base + 7u] = subgroupXor(v);
   bool on = g % 4u != 1u;
   r[base + 8u] = on ? 1u : 0u;
   if (on) {
      r[base + 9u] = subgroupAdd(v);
      r[base + 10u] = subgroupInclusiveAdd(v);
      r[base + 11u] = subgroupExclusiveAdd(v);
      r[base + 12u] = subgroupMax(v);
      r[base + 13u] = subgroupOr(v);
   }
}
