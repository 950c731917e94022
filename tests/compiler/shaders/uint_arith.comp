#version 450
// Unsigned 32-bit arithmetic: wrap-around, division, modulo, comparisons
// across the sign bit, min/max/clamp.
#define INS 2
#define OUTS 14
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1);
   ou(0, a + b);
   ou(1, a - b);
   ou(2, a * b);
   ou(3, a / b);
   ou(4, a % b);
   ou(5, min(a, b));
   ou(6, max(a, b));
   ou(7, clamp(a, 100u, 0x80000000u));
   ou(8, uint(a < b) | uint(a <= b) << 1 | uint(a == b) << 2 | uint(a != b) << 3 |
             uint(a > b) << 4 | uint(a >= b) << 5);
   ou(9, a / 10u);
   ou(10, a % 10u);
   ou(11, a * 2654435761u + b);
   ou(12, (a >> 1) + (b >> 1) + (a & b & 1u));
   ou(13, a > b ? a - b : b - a);
}
