#version 450
// A special register (the workgroup's y index) read first inside a
// divergent branch and again after it. The clean-up shares one read of
// each special register between all its uses, so that read must move to
// the program's start (test_cc_flow checks the code's shape): left in the
// branch, lanes that skipped it would read a register nobody wrote.
#define INS 1
#define OUTS 2
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0);
   uint r = 7u;
   if ((a & 1u) != 0u)
      r = gl_WorkGroupID.y + 5u;
   ou(0, r);
   ou(1, gl_WorkGroupID.y + 3u);
}
