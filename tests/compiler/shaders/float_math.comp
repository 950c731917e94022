#version 450
// The transcendental GLSL.std.450 functions, each inside its domain.
#define INS 4
#define OUTS 22
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   float x = if_(0);   // [-pi, pi]
   float y = if_(1);   // (0.001, 100)
   float z = if_(2);   // [-1, 1]
   float w = if_(3);   // [-5, 5]
   of(0, sin(x));
   of(1, cos(x));
   of(2, tan(z));
   of(3, asin(z));
   of(4, acos(z));
   of(5, atan(w));
   of(6, atan(z, w));
   of(7, sinh(w));
   of(8, cosh(w));
   of(9, tanh(w));
   of(10, asinh(w));
   of(11, acosh(1.0 + y));
   of(12, atanh(z * 0.99));
   of(13, exp(w));
   of(14, exp2(w));
   of(15, log(y));
   of(16, log2(y));
   of(17, pow(y, w * 0.5));
   of(18, sqrt(y));
   of(19, inversesqrt(y));
   of(20, ldexp(z, int(w)));
   of(21, exp(x) * cos(w));
}
