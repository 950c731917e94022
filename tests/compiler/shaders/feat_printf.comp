#version 450
// debugPrintfEXT (NonSemantic.DebugPrintf): no output needed, but the
// shader must compile and run.
#extension GL_EXT_debug_printf : require
#define INS 1
#define OUTS 1
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint x = iu(0);
   debugPrintfEXT("x = %u", x);
   ou(0, x + 1u);
}
