#version 450
// radians() and degrees() (GLSL.std.450 Radians, Degrees).
#define INS 1
#define OUTS 2
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   float f = float(ii(0) % 720);
   of(0, radians(f));
   of(1, degrees(f * 0.01));
}
