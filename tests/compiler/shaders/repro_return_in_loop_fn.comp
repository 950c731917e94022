#version 450
// Reduced from flow_return / flow_switch: a function returning from inside
// a loop. With optimize = false (the driver's default) sc_compile refused
// it: "function calls remain after inlining" (SPIRV-Tools' inliner does not
// inline functions with a return inside a loop unless merge-return ran).
#define INS 1
#define OUTS 1
#include "map.glsl"

uint find(uint v)
{
   for (uint j = 0u; j < 4u; j++) {
      if (v == j)
         return j * 10u;
   }
   return 99u;
}

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   ou(0, find(iu(0) & 7u));
}
