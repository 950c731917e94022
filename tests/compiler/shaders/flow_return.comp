#version 450
// Early returns: from functions (inlined) inside loops, and from main
// inside a loop after some outputs were already written.
#define INS 2
#define OUTS 4
#include "map.glsl"

uint first_set(uint v)
{
   for (uint j = 0u; j < 32u; j++) {
      if (((v >> j) & 1u) != 0u)
         return j;
   }
   return 99u;
}

uint digits(uint v)
{
   if (v < 10u)
      return 1u;
   if (v < 100u)
      return 2u;
   uint k = 0u;
   while (v > 0u) {
      v /= 10u;
      k++;
      if (k == 7u)
         return 77u;
   }
   return k;
}

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1);
   ou(0, first_set(a & 0xfff000u));
   ou(1, digits(b >> (b & 31u)));
   uint s = 0u;
   for (uint j = 0u; j < 20u; j++) {
      s += j;
      ou(2, s);
      if (j == a % 25u) {
         ou(3, 1000u + j);
         return;
      }
   }
   ou(3, 7u);
}
