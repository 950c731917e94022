#version 450
// GLSL.std.450 functions on 64-bit integers: abs, min, max, clamp.
#extension GL_ARB_gpu_shader_int64 : require
#define INS 4
#define OUTS 12
#include "map.glsl"

void o64(uint k, uint64_t v)
{
   uvec2 p = unpackUint2x32(v);
   ou(k, p.x);
   ou(k + 1u, p.y);
}

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint64_t a = packUint2x32(uvec2(iu(0), iu(1)));
   uint64_t b = packUint2x32(uvec2(iu(2), iu(3)));
   int64_t ia = int64_t(a), ib = int64_t(b);
   o64(0u, uint64_t(abs(ia)));
   o64(2u, min(a, b));
   o64(4u, max(a, b));
   o64(6u, uint64_t(min(ia, ib)));
   o64(8u, uint64_t(max(ia, ib)));
   o64(10u, uint64_t(clamp(ia, -1000000000000l, 1000000000000l)));
}
