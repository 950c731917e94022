#version 450
// Conversions between int, uint, float and bool, and bit casts.
#define INS 3
#define OUTS 14
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   float f = if_(0), g = if_(1);
   uint u = iu(2);
   int si = int(u);
   oi(0, int(f));
   ou(1, uint(g));
   of(2, float(si));
   of(3, float(u));
   ou(4, uint(bool(u & 1u)));
   of(5, float(u & 1u));
   of(6, float(bool(u & 2u)));
   oi(7, int(f * 0.5));
   oi(8, floatBitsToInt(f));
   of(9, intBitsToFloat(si & 0x3fffffff));
   ou(10, uint(si >> 4));
   oi(11, int(uint(f < 0.0)) - int(bool(si & 4)));
   of(12, float(int(f)));
   ou(13, uint(f != 0.0) + uint(bool(u)) * 2u);
}
