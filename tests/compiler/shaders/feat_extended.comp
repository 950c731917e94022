#version 450
// Extended arithmetic: umulExtended, imulExtended, uaddCarry, usubBorrow
// (OpUMulExtended, OpSMulExtended, OpIAddCarry, OpISubBorrow).
#define INS 2
#define OUTS 6
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0), b = iu(1), hi, lo, carry, borrow;
   umulExtended(a, b, hi, lo);
   ou(0, hi);
   ou(1, lo);
   int ihi, ilo;
   imulExtended(int(a), int(b), ihi, ilo);
   oi(2, ihi);
   ou(3, uaddCarry(a, b, carry) + carry);
   ou(4, usubBorrow(a, b, borrow));
   ou(5, borrow);
}
