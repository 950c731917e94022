#version 450
// sign() of ints (GLSL.std.450 SSign).
#define INS 1
#define OUTS 2
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   int a = ii(0);
   oi(0, sign(a));
   oi(1, sign(a >> 28));
}
