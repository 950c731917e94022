// The Vulkan memory model with Device scope: each invocation publishes a
// value with a device-scope release store, counts itself with an
// acquire-release atomic, and after a barrier with device-scope
// semantics reads its neighbour's value with an acquire load.
#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint counter; uint pad[3]; uint slots[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint seen[]; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   atomicStore(slots[g], g * 3u + 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
   atomicAdd(counter, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
   controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                  gl_SemanticsAcquireRelease);
   seen[g] = atomicLoad(slots[g ^ 1u], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
}
