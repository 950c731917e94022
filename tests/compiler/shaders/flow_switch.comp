#version 450
// Switches: fallthrough, a default in the middle, several labels on one
// case, negative labels, a switch in a loop (break leaves the switch,
// continue the loop), nested switches, returns from a switch in a function.
#define INS 2
#define OUTS 6
#include "map.glsl"

uint classify(uint v)
{
   switch (v % 6u) {
   case 0u:
      return 1u;
   case 1u:
   case 2u:
      return 2u;
   case 5u:
      if ((v & 8u) != 0u)
         return 3u;
      break;
   }
   return 4u;
}

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1);

   uint r = 0u;
   switch (int(a % 10u)) {
   case 0:
      r += 1u;
   case 1:
      r += 10u;
      break;
   case 2:
   case 3:
      r += 100u;
   default:
      r += 1000u;
   case 7:
      r += 10000u;
      break;
   case 8:
      r = 5u;
      break;
   }
   ou(0, r);

   uint acc = 0u;
   for (uint j = 0u; j < 12u; j++) {
      switch ((a + j * b) % 5u) {
      case 0u:
         acc += j;
         break;
      case 1u:
         continue;
      case 2u:
         acc ^= 0x55u;
      case 3u:
         acc *= 3u;
         break;
      default:
         acc += 100u;
      }
      acc += 1u;
   }
   ou(1, acc);

   int si = int(b % 7u) - 3, v;
   switch (si) {
   case -3: v = 30; break;
   case -1: v = 10; break;
   case 0: v = 0; break;
   case 2: v = -20; break;
   default: v = 99; break;
   }
   oi(2, v);

   uint only = 1u;
   switch (a & 1u) {
   default:
      only = 7u + (a & 1u);
   }
   ou(3, only);

   uint ns = 0u;
   switch (a % 3u) {
   case 0u:
      switch (b % 3u) {
      case 0u:
         ns = 1u;
         break;
      case 1u:
         ns = 2u;
      default:
         ns += 3u;
      }
      break;
   case 1u:
      ns = 10u;
      break;
   default:
      ns = 20u;
   }
   ou(4, ns);
   ou(5, classify(a));
}
