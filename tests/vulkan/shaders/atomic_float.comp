#version 450
// Float atomics (VK_EXT_shader_atomic_float): atomicAdd and atomicExchange
// on 32- and 64-bit floats in a storage buffer and in shared memory. Every
// invocation adds a value whose sum is exact in any order. Read by
// test_compute_features.c (atomic_float).
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Sums { float fsum; uint pad; double dsum; float fx; uint pad2; double dx; };
layout(std430, binding = 1) writeonly buffer Out { float fold[64]; double dold[64]; float shared_f; uint pad3; double shared_d; };
shared float sf;
shared double sd;
void main()
{
   uint i = gl_LocalInvocationIndex;
   if (i == 0u) {
      sf = 0.0;
      sd = 0.0lf;
   }
   barrier();
   atomicAdd(fsum, float(i) * 0.5);
   atomicAdd(dsum, double(i) * 0.25lf);
   fold[i] = atomicExchange(fx, float(i));
   dold[i] = atomicExchange(dx, double(i) + 0.5lf);
   atomicAdd(sf, float(i));
   atomicAdd(sd, double(i) * 2.0lf);
   barrier();
   if (i == 0u) {
      shared_f = atomicExchange(sf, -1.0);
      shared_d = atomicExchange(sd, -1.0lf);
   }
}
