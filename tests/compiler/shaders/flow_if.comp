#version 450
// Selections: nested if/else chains, ternaries, short-circuit && and ||
// whose right side has a side effect, stores inside both sides, and a
// deep nest whose every level is divergent.
#define INS 3
#define OUTS 8
#include "map.glsl"

bool touch(uint k, uint v)
{
   ou(k, v * 2u);
   return (v & 4u) != 0u;
}

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1), c = iu(2);
   uint r = 0u;
   if (a % 3u == 0u) {
      if (b % 2u == 0u)
         r = 1u;
      else if (b % 5u == 0u)
         r = 2u;
      else
         r = 3u;
   } else if (a % 3u == 1u) {
      r = (c & 1u) != 0u ? 4u : 5u;
      if (c % 7u == 0u) {
         r += 10u;
         if (b < a)
            r += 100u;
      }
   } else {
      r = 6u;
   }
   ou(0, r);

   uint flags = 0u;
   if ((a & 1u) != 0u && touch(3u, a))
      flags |= 1u;
   if ((b & 1u) != 0u || touch(4u, b))
      flags |= 2u;
   ou(1, flags);

   float x = float(a % 1000u) - 500.0;
   ou(2, x > 0.0 ? (x > 250.0 ? 1u : 2u) : (x < -250.0 ? 3u : 4u));

   uint v = a;
   if (b > c)
      v = v * 3u;
   else
      v = v + 7u;
   if (v > 1000u)
      v -= 1000u;
   ou(5, v);

   uint d = 0u;
   if ((c & 1u) != 0u) {
      d += 1u;
      if ((c & 2u) != 0u) {
         d += 2u;
         if ((c & 4u) != 0u) {
            d += 4u;
            if ((c & 8u) != 0u) {
               d += 8u;
               if ((c & 16u) != 0u) {
                  d += 16u;
                  if ((c & 32u) != 0u) {
                     d += 32u;
                     if ((c & 64u) != 0u)
                        d += 64u;
                     else
                        d += 2000u;
                  }
               } else {
                  d += 1000u;
               }
            }
         } else {
            d += 500u;
         }
      }
   } else if ((c & 2u) != 0u) {
      d = 300u;
   }
   ou(6, d);

   if (a > b)
      ou(7, a);
   else
      ou(7, b);
}
