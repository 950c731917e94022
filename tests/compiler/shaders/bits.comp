#version 450
// Bitwise operations, shifts, bitfieldExtract/Insert, bitCount, findLSB,
// findMSB (signed and unsigned), bitfieldReverse; scalars and vectors.
#define INS 3
#define OUTS 22
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1), c = iu(2);
   int ia = int(a);
   uint s = c & 31u;
   int off = int((c >> 5) & 31u);
   int bits = int((c >> 10) % uint(33 - off));   // off + bits <= 32
   ou(0, a & b);
   ou(1, a | b);
   ou(2, a ^ b);
   ou(3, ~a);
   ou(4, a << s);
   ou(5, a >> s);
   oi(6, ia >> int(s));
   ou(7, bitfieldExtract(a, off, bits));
   oi(8, bitfieldExtract(ia, off, bits));
   ou(9, bitfieldInsert(a, b, off, bits));
   oi(10, bitCount(a));
   oi(11, bitCount(ia));
   oi(12, findLSB(a));
   oi(13, findMSB(a));
   oi(14, findMSB(ia));
   ou(15, bitfieldReverse(a));
   ou(16, (a << 5) | (a >> 27));
   oi(17, findLSB(a & 0xffff0000u));
   oi(18, findMSB(int(b) >> 20));
   uvec2 v = uvec2(a, b) ^ uvec2(c);
   ivec2 cnt = bitCount(v);
   oi(19, cnt.x * 100 + cnt.y);
   ivec2 lsb = findLSB(v >> uvec2(4u, 28u));
   oi(20, lsb.x * 100 + lsb.y);
   ou(21, bitfieldExtract(a, 8, 8) | bitfieldInsert(0u, b, 24, 8));
}
