#version 450
// The packing functions: packHalf2x16/unpackHalf2x16, packUnorm4x8/
// unpackUnorm4x8, packSnorm2x16 (GLSL.std.450 Pack*/Unpack*).
#define INS 1
#define OUTS 6
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint x = iu(0);
   vec2 h = vec2(float(int(x & 0xffu) - 128) * 0.125, float(x >> 24) * 0.5);
   ou(0, packHalf2x16(h));
   vec2 uh = unpackHalf2x16(0x3c00c000u + (x & 0x3ffu));
   of(1, uh.x);
   of(2, uh.y);
   ou(3, packUnorm4x8(vec4(0.0, 1.0, 0.25, float(x & 0xffu) / 255.0)));
   vec4 u4 = unpackUnorm4x8(x);
   of(4, u4.y);
   ou(5, packSnorm2x16(vec2(-1.0, float(x & 1u))));
}
