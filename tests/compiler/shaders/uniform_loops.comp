#version 450
// Loops whose exit is uniform (the same in every lane) around divergent
// code: an if, a loop with a divergent break, a uniform loop inside, a
// do-while whose exit is at the latch, a trip count from a push constant.
// They run on uniform jumps (no mask stack); the loops that some lane may
// leave alone (a divergent exit, a break under an if) keep LOOP. Trip
// counts are above what the compiler unrolls.
#define INS 2
#define OUTS 7
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1);

   uint s = 0u;
   for (uint j = 0u; j < 20u; j++) {
      if (((a >> j) & 1u) != 0u)
         s += j * b;
      else
         s ^= j;
   }
   ou(0, s);

   uint found = 0u;
   for (uint i = 0u; i < 17u; i++) {
      for (uint j = 0u; j < 9u; j++) {
         if (((b >> ((i + j) & 31u)) & 3u) == 3u)
            break;
         found += i + j;
      }
      found *= 3u;
   }
   ou(1, found);

   uint t = 0u;
   for (uint i = 0u; i < 18u; i++) {
      for (uint k = 0u; k < 17u; k++)
         t = t * 7u + (a >> ((i * 5u + k) & 31u) & 1u);
   }
   ou(2, t);

   uint d = a, n = 0u;
   do {
      d = d * 1664525u + 1013904223u;
      n++;
   } while (n < 19u);
   ou(3, d);

   // every invocation is below pc.n: the one iteration that matches sets p
   uint p = 0u;
   for (uint i = 0u; i < pc.n; i++) {
      if (i == gl_GlobalInvocationID.x)
         p = a * 3u + i;
   }
   ou(4, p);

   // a divergent exit: not uniform
   uint q = 0u;
   for (uint i = 0u; i < a % 13u; i++)
      q += i ^ b;
   ou(5, q);

   // a break under an if (uniform, but the IF's mask entry is open)
   uint r = 0u;
   for (uint i = 0u; i < 100u; i++) {
      if (i * i > 50u)
         break;
      r += i * (b & 15u);
   }
   ou(6, r);
}
