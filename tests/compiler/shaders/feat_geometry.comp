#version 450
// reflect(), refract(), faceforward() (GLSL.std.450).
#define INS 3
#define OUTS 3
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   vec2 i = vec2(float(ii(0) % 8), float(ii(1) % 8));
   vec2 n = vec2(0.0, 1.0);
   of(0, reflect(i, n).y);
   of(1, refract(normalize(vec2(1.0, -1.0)), n, 0.5).x);
   of(2, faceforward(n, i, vec2(0.0, float(ii(2) % 3) - 1.0)).y);
}
