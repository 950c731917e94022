#version 450
// Conversions between 64-bit integers and floats.
#extension GL_ARB_gpu_shader_int64 : require
#define INS 2
#define OUTS 2
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   int64_t a = int64_t(packUint2x32(uvec2(iu(0), iu(1) & 0xffffu)));
   of(0, float(a));
   ou(1, uint(int64_t(float(iu(0) >> 8) * 4096.0) >> 12));
}
