// Every invocation takes a slot with an atomic counter and records its
// built-in IDs there, so the host can check the exact set of invocations a
// dispatch ran (vkCmdDispatch, vkCmdDispatchBase, vkCmdDispatchIndirect).
#version 450
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Out { uint count; uint pad[3]; uvec4 rec[]; };
void main()
{
   uint slot = atomicAdd(count, 1u);
   rec[slot * 4u + 0u] = uvec4(gl_WorkGroupID, gl_LocalInvocationIndex);
   rec[slot * 4u + 1u] = uvec4(gl_LocalInvocationID, 0xC0FFEEu);
   rec[slot * 4u + 2u] = uvec4(gl_GlobalInvocationID, 0u);
   rec[slot * 4u + 3u] = uvec4(gl_NumWorkGroups, 0u);
}
