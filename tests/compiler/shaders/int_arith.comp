#version 450
// Signed 32-bit arithmetic, division and modulo (GLSL % is OpSMod) with
// negative operands, comparisons, min/max/clamp/abs.
#define INS 2
#define OUTS 16
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   int a = ii(0), b = ii(1);
   oi(0, a + b);
   oi(1, a - b);
   oi(2, a * b);
   oi(3, a / b);
   oi(4, a % b);
   oi(5, -a);
   oi(6, abs(a));
   oi(7, min(a, b));
   oi(8, max(a, b));
   oi(9, clamp(a, -1000, 1000));
   ou(10, uint(a < b) | uint(a <= b) << 1 | uint(a == b) << 2 | uint(a != b) << 3 |
             uint(a > b) << 4 | uint(a >= b) << 5);
   oi(11, a * 7 + b);
   oi(12, a / 3);
   oi(13, a % 8);
   oi(14, a / -7);
   oi(15, (a - b) * (a + 3));
}
