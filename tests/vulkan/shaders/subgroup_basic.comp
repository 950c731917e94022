// Basic subgroup built-ins and subgroupElect, in uniform and in divergent
// control flow. 16 words per invocation, at its global index.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint r[]; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   uint base = g * 16u;
   r[base + 0u] = gl_SubgroupID;
   r[base + 1u] = gl_SubgroupInvocationID;
   r[base + 2u] = gl_SubgroupSize;
   r[base + 3u] = gl_NumSubgroups;
   r[base + 4u] = subgroupElect() ? 1u : 0u;
   uint l = gl_LocalInvocationIndex;
   if (l % 3u == 0u)
      r[base + 5u] = subgroupElect() ? 1u : 0u;
   else
      r[base + 5u] = 2u;
   r[base + 6u] = l;
}
