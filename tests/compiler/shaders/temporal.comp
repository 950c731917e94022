#version 450
// Temporal divergence: values computed inside loops whose lanes leave in
// different iterations. Inside such a loop a value derived from uniform
// values is the same for every lane still in it (and may live in a uniform
// register); the value a lane carries out is that of its own last
// iteration, which differs between lanes.
#define INS 2
#define OUTS 7
#include "map.glsl"
#define IN(k) in_w[gl_GlobalInvocationID.x * INS + (k)]
#define OUT(k, v) out_w[gl_GlobalInvocationID.x * OUTS + (k)] = (v)

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   // no function calls: the driver's default path keeps the variables
   uint a = IN(0), b = IN(1);

   uint lim = a % 23u, k = 0u, last = 0u, acc = 0u;
   for (;;) {
      uint u = k * 7u + 3u;
      acc += u ^ b;
      last = u;
      if (k >= lim)
         break;
      k++;
   }
   OUT(0, acc);
   OUT(1, last);
   OUT(2, k);

   uint m = 0u;
   for (uint j = 0u; j < 40u; j++) {
      uint w = j * j + 5u;
      if (w > b % 1600u) {
         m = w;
         break;
      }
   }
   OUT(3, m);

   // nested: the inner loop's exit diverges, the outer one's does not
   uint total = 0u;
   for (uint i = 0u; i < 4u; i++) {
      uint inner = 0u;
      while (inner * (i + 1u) < (a >> (i * 4u)) % 13u)
         inner++;
      total += inner * (i + 2u) + i;
   }
   OUT(4, total);

   // float loop conditions with NaN limits: the exit test is the negated
   // comparison, which must hold for NaN (unordered) in the first loop and
   // not in the second
   float flim = (a & 3u) == 0u ? uintBitsToFloat(0x7fc00000u) : float(a % 7u);
   float f = 0.0;
   uint n1 = 0u, n2 = 0u;
   while (f < flim) {
      f += 1.0;
      n1++;
   }
   OUT(5, n1);
   f = 0.0;
   while (!(f >= flim) && n2 < 20u) {
      f += 1.0;
      n2++;
   }
   OUT(6, n2);
}
