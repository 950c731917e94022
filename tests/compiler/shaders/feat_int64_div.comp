#version 450
// 64-bit division and remainder (OpUDiv/OpSDiv/OpUMod/OpSRem on 64 bits).
#extension GL_ARB_gpu_shader_int64 : require
#define INS 4
#define OUTS 4
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint64_t a = packUint2x32(uvec2(iu(0), iu(1)));
   uint64_t b = packUint2x32(uvec2(iu(2) | 1u, iu(3) >> 20));
   uvec2 q = unpackUint2x32(a / b);
   ou(0, q.x);
   ou(1, q.y);
   uvec2 r = unpackUint2x32(a % b);
   ou(2, r.x);
   ou(3, r.y);
}
