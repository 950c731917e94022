// What each invocation sees of its subgroup: gl_SubgroupSize, how many
// invocations of it are active (a ballot of true), its IDs.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint r[]; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   r[g * 4u + 0u] = gl_SubgroupSize;
   r[g * 4u + 1u] = subgroupBallotBitCount(subgroupBallot(true));
   r[g * 4u + 2u] = gl_SubgroupID;
   r[g * 4u + 3u] = gl_SubgroupInvocationID;
}
