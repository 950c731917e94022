#version 450
// A switch of 300 cases, each its own block: more targets than the
// translator once kept (256), whose later cases never ran.
#define INS 1
#define OUTS 1
#include "map.glsl"

#define CASE(n) case n: r = (n) * 7u + 1u; break;
#define CASE4(n) CASE(n) CASE(n + 1) CASE(n + 2) CASE(n + 3)
#define CASE20(n) CASE4(n) CASE4(n + 4) CASE4(n + 8) CASE4(n + 12) CASE4(n + 16)
#define CASE100(n) CASE20(n) CASE20(n + 20) CASE20(n + 40) CASE20(n + 60) CASE20(n + 80)

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint a = iu(0) % 301u, r = 5u;
   switch (a) {
   CASE100(0u)
   CASE100(100u)
   CASE100(200u)
   }
   ou(0, r);
}
