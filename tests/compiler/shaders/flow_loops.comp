#version 450
// Loops: divergent trip counts, break and continue, a data-dependent
// while (Collatz), do-while, nested loops breaking out of the inner one,
// several exits carrying several values.
#define INS 3
#define OUTS 10
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1), c = iu(2);

   uint n = a % 37u, s = 0u;
   for (uint j = 0u; j < n; j++)
      s += (j * j) ^ b;
   ou(0, s);

   uint t = 0u;
   for (uint j = 0u; j < 64u; j++) {
      if ((j & 3u) == (b & 3u))
         continue;
      if (j * 3u > c % 150u)
         break;
      t += j;
   }
   ou(1, t);

   uint x = a % 1000u + 1u, steps = 0u;
   while (x != 1u) {
      x = (x & 1u) != 0u ? 3u * x + 1u : x / 2u;
      steps++;
   }
   ou(2, steps);

   uint y = b % 10u, dw = 0u;
   do {
      dw = dw * 3u + y;
   } while (y-- > 0u);
   ou(3, dw);

   uint found = 0u;
   for (uint i = 0u; i < 8u; i++) {
      for (uint j = 0u; j < 8u; j++) {
         if (((a >> (i + j)) & 1u) != 0u) {
            found += i * 8u + j;
            break;
         }
         found += 1u;
      }
   }
   ou(4, found);

   float f = 0.0;
   int it = -1;
   for (int i = 0; i < 100; i++) {
      f += float(i) * 0.5;
      if (f > float(c % 500u)) {
         it = i;
         break;
      }
   }
   oi(5, it);

   uint acc = 0u;
   for (uint j = 0u; j < 10u; j++) {
      if ((a + j) % 3u == 0u)
         acc += j;
      else if ((a + j) % 3u == 1u)
         continue;
      else
         acc ^= j << 4;
      acc += 1u;
   }
   ou(6, acc);

   uint p = a, q = b, r = 0u;
   for (;;) {
      if (p == 0u)
         break;
      r += p & 1u;
      p >>= 1;
      q = q * 5u + 1u;
      if (r > 10u)
         break;
   }
   ou(7, r);
   ou(8, q);
   ou(9, p);
}
