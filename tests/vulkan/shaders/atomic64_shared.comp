// 64-bit atomics on workgroup memory (shaderSharedInt64Atomics): each
// workgroup sums its values in a shared word and stores the sum.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint64_t sums[]; };
shared uint64_t total;
void main()
{
   uint g = gl_GlobalInvocationID.x;
   uint64_t v = uint64_t(g) * 0x100000001ul + (uint64_t(g) << 40);
   if (gl_LocalInvocationIndex == 0u)
      total = 0ul;
   barrier();
   atomicAdd(total, v);
   barrier();
   if (gl_LocalInvocationIndex == 0u)
      sums[gl_WorkGroupID.x] = total;
}
