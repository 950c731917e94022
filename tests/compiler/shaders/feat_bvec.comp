#version 450
// Boolean vectors: any(), all(), not(), and == / != on whole vectors
// (OpAny, OpAll).
#define INS 3
#define OUTS 4
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uvec3 v = uvec3(iu(0), iu(1), iu(2)) & 3u;
   bvec3 z = equal(v, uvec3(0u));
   ou(0, uint(any(z)));
   ou(1, uint(all(not(z))));
   ou(2, uint(v == uvec3(1u, 2u, 3u)));
   ou(3, uint(v.xy != v.yz));
}
