#version 450
// Loop-invariant code: values a loop computes from operands it does not
// change, in the loop body, under a divergent if (a division by a lane's
// zero divisor, which must not matter when the if skips it), in an inner
// loop that depends on the outer loop's counter, and used after the loop.
#define INS 2
#define OUTS 5
#include "map.glsl"
#define IN(k) in_w[gl_GlobalInvocationID.x * INS + (k)]
#define OUT(k, v) out_w[gl_GlobalInvocationID.x * OUTS + (k)] = (v)

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   // no function calls: the driver's default path keeps the variables
   uint a = IN(0), b = IN(1) % 5u;
   uint acc = 0u, last = 0u;
   for (uint j = 0u; j < (a % 9u); j++) {
      uint inv = a * 3u + 7u;
      if (b != 0u)
         acc += a / b + inv;
      last = inv ^ j;
   }
   OUT(0, acc);
   OUT(1, last);

   uint sum = 0u;
   for (uint i = 0u; i < 5u; i++) {
      for (uint k = 0u; k < 4u; k++)
         sum += (i * 11u + b) * (k + 1u) + (a >> 3u);
   }
   OUT(2, sum);

   float f = 0.0;
   for (uint i = 0u; i < (b + 2u); i++)
      f += float(a & 255u) * 0.5 + float(i);
   OUT(3, floatBitsToUint(f));

   // a push constant read in a loop (moves out of it): pc.n is above
   // every running invocation's index
   uint p = 0u;
   for (uint i = 0u; i < (a % 7u); i++)
      p += pc.n > gl_GlobalInvocationID.x ? i : 1000u;
   OUT(4, p);
}
