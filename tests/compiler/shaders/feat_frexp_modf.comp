#version 450
// frexp() and modf() (GLSL.std.450 FrexpStruct/ModfStruct or Frexp/Modf).
#define INS 1
#define OUTS 4
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   float f = float(ii(0) % 100000) * 0.125;
   int e;
   float m = frexp(f, e);
   of(0, m);
   oi(1, e);
   float ip;
   of(2, modf(f, ip));
   of(3, ip);
}
