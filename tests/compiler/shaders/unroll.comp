#version 450
// Counted loops (a constant start, step and bound) that the compiler
// unrolls, the counter a constant in each copy: up, down with a signed
// counter, by shifts, with != as the test, nested, with a divergent if and
// a private array indexed by the counter inside. A counted loop with a
// break, one with 17 iterations and one whose counter the body writes are
// not unrolled.
#define INS 2
#define OUTS 8
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1);

   uint s = 0u;
   for (uint k = 0u; k < 16u; k++)
      s = s * 3u + ((a >> k) & 1u);
   ou(0, s);

   int d = 0;
   for (int i = 5; i >= -3; i -= 2)
      d = d * 5 + i * int(b & 7u);
   oi(1, d);

   uint h = 0u;
   for (uint k = 128u; k > 0u; k >>= 1) {
      if ((a & k) != 0u)
         h += k * 3u;
      else
         h ^= b;
   }
   ou(2, h);

   uint n = 0u;
   for (uint i = 0u; i != 12u; i += 3u) {
      for (uint j = 1u; j <= 3u; j++)
         n = n * 7u + ((a + i) % (j + 1u));
   }
   ou(3, n);

   uint arr[4];
   for (uint k = 0u; k < 4u; k++)
      arr[k] = a ^ (k * b);
   uint x = 0u;
   for (uint k = 0u; k < 4u; k++)
      x += arr[3u - k] << k;
   ou(4, x);

   uint r = 0u;
   for (uint k = 0u; k < 8u; k++) {
      if (((a >> k) & 3u) == 3u)
         break;
      r += k;
   }
   ou(5, r);

   uint m = 0u;
   for (uint k = 0u; k < 17u; k++)
      m += (b >> k) & 1u;
   ou(6, m);

   uint w = 0u;
   for (uint k = 0u; k < 10u; k++) {
      w += k;
      k += b & 1u;
   }
   ou(7, w);
}
