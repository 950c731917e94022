#version 450
// Variables written with the same value in every lane, but where only
// part of the lanes run: in a divergent if, a switch case, after a
// divergent continue or break. Lanes that did not run the write keep the
// old value, so the variable differs between lanes afterwards.
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

   uint x = 1u;
   if ((a & 1u) != 0u)
      x = 7u;
   OUT(0, x);

   uint y = 0u;
   switch (b % 3u) {
   case 0u: y = 10u; break;
   case 1u: y = 20u; break;
   default: break;
   }
   OUT(1, y);

   uint z = 0u;
   for (uint j = 0u; j < 8u; j++) {
      if (((a >> j) & 1u) != 0u)
         continue;
      z = j;
   }
   OUT(2, z);

   uint q = 0u;
   for (uint j = 0u; j < 8u; j++) {
      if (((b >> j) & 1u) != 0u)
         break;
      q = 100u + j;
   }
   OUT(3, q);

   // the same value everywhere: stays uniform, and must still be right
   uint u = 3u;
   for (uint j = 0u; j < 4u; j++)
      u = u * 5u + j;
   OUT(4, u + (a & 1u));

   // a continue inside a divergent if skips the rest of the iteration,
   // past the if's merge
   uint c2 = 0u, k2 = 0u;
   for (uint j = 0u; j < 6u; j++) {
      if ((a & 1u) != 0u) {
         if (((b >> j) & 1u) != 0u)
            continue;
         c2 = 50u + j;
      }
      k2 = k2 + 2u;
   }
   OUT(5, c2 + k2 * 1000u);

   // a continue as the last statement: every lane still runs the next
   // iteration's start together
   uint w = 0u;
   for (uint j = 0u; j < 5u; j++) {
      w += j;
      if (((a >> j) & 1u) != 0u)
         continue;
   }
   OUT(6, w + (a & 3u));
}
