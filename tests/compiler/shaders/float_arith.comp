#version 450
// Float arithmetic, comparisons (ordered and unordered, NaN), rounding
// functions, min/max/clamp, sign, step, smoothstep, mix, mod, fma.
#define INS 3
#define OUTS 28
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   float a = if_(0), b = if_(1), c = if_(2);
   of(0, a + b);
   of(1, a - b);
   of(2, a * b);
   of(3, a / b);
   of(4, fma(a, b, c));
   of(5, -a);
   of(6, abs(a));
   of(7, min(a, b));
   of(8, max(a, b));
   of(9, clamp(a, -10.0, 10.0));
   ou(10, uint(a < b) | uint(a <= b) << 1 | uint(a == b) << 2 | uint(a != b) << 3 |
             uint(a > b) << 4 | uint(a >= b) << 5 | uint(!(a < b)) << 6 | uint(!(a >= b)) << 7);
   ou(11, uint(isnan(a)) | uint(isinf(a)) << 1 | uint(isnan(b)) << 2 | uint(isinf(b)) << 3);
   of(12, floor(a));
   of(13, ceil(a));
   of(14, trunc(a));
   of(15, round(a));
   of(16, roundEven(a));
   of(17, fract(a));
   of(18, mod(a, b));
   of(19, sign(a));
   of(20, step(a, b));
   of(21, smoothstep(-1.5, 2.5, a));
   of(22, mix(a, b, fract(c)));
   of(23, a * b + c);
   of(24, 1.0 / a);
   of(25, a / 4.0);
   of(26, a * 0.5 - b * 0.25);
   of(27, (a + b) * (a - b));
}
