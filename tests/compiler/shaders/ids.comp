#version 450
// Every built-in id of a 3-D dispatch: gl_NumWorkGroups, gl_WorkGroupID,
// gl_LocalInvocationID, gl_LocalInvocationIndex, gl_GlobalInvocationID,
// gl_WorkGroupSize; each invocation writes them at its linear global index.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint o[]; };

void main()
{
   uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
   uvec3 g = gl_GlobalInvocationID;
   uint lin = (g.z * size.y + g.y) * size.x + g.x;
   uint b = lin * 16u;
   o[b + 0u] = gl_NumWorkGroups.x;
   o[b + 1u] = gl_NumWorkGroups.y;
   o[b + 2u] = gl_NumWorkGroups.z;
   o[b + 3u] = gl_WorkGroupID.x;
   o[b + 4u] = gl_WorkGroupID.y;
   o[b + 5u] = gl_WorkGroupID.z;
   o[b + 6u] = gl_LocalInvocationID.x;
   o[b + 7u] = gl_LocalInvocationID.y;
   o[b + 8u] = gl_LocalInvocationID.z;
   o[b + 9u] = gl_LocalInvocationIndex;
   o[b + 10u] = g.x;
   o[b + 11u] = g.y;
   o[b + 12u] = g.z;
   o[b + 13u] = gl_WorkGroupSize.x;
   o[b + 14u] = gl_WorkGroupSize.y;
   o[b + 15u] = gl_WorkGroupSize.z;
}
