// Subgroup ballot operations on a pseudo-random predicate, in uniform
// control flow.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint r[]; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   uint base = g * 16u;
   bool pred = ((g * 7u + g / 3u) % 5u) < 2u;
   uint val = g * 13u + 1u;
   r[base + 0u] = gl_SubgroupID;
   r[base + 1u] = gl_SubgroupInvocationID;
   uvec4 b = subgroupBallot(pred);
   r[base + 2u] = b.x;
   r[base + 3u] = b.y;
   r[base + 4u] = b.z;
   r[base + 5u] = b.w;
   r[base + 6u] = subgroupBallotBitCount(b);
   r[base + 7u] = subgroupBallotExclusiveBitCount(b);
   r[base + 8u] = subgroupBroadcastFirst(val);
   r[base + 9u] = subgroupInverseBallot(b) ? 1u : 0u;
   r[base + 10u] = pred ? 1u : 0u;
   r[base + 11u] = subgroupBallotFindLSB(b);
   r[base + 12u] = subgroupBallotFindMSB(b);
}
