// 64-bit atomics on a storage buffer (shaderBufferInt64Atomics).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint64_t sum; uint64_t maxv; uint64_t minv; uint64_t orv; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   uint64_t v = uint64_t(g) * 0x100000001ul + (uint64_t(g) << 40);
   atomicAdd(sum, v);
   atomicMax(maxv, v);
   atomicMin(minv, v);
   atomicOr(orv, v);
}
