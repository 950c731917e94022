#version 450
// Doubles (capability Float64).
#define INS 2
#define OUTS 1
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   double a = double(iu(0)) * 3.0lf;
   of(0, float(a / double(iu(1) | 1u)));
}
