#version 450
// 16-bit float arithmetic (capability Float16).
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define INS 1
#define OUTS 1
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   float16_t h = float16_t(float(iu(0) & 0xffu));
   of(0, float(h * float16_t(0.5)));
}
