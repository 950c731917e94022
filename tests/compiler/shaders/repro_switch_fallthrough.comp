#version 450
// Reduced from flow_switch / switch_shared.spvasm: a case falling through
// into the next one, whose value therefore merges in a phi at that case.
// Lanes that fell through got the phi value of the header's edge instead
// (a % 3 == 0: expected 15, got 10).
#define INS 1
#define OUTS 1
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint r = 0u;
   switch (iu(0) % 3u) {
   case 0u:
      r = 5u;
   case 1u:
      r += 10u;
      break;
   default:
      r = 1u;
   }
   ou(0, r);
}
