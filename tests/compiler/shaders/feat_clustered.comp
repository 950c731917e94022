#version 450
// Clustered and quad subgroup operations.
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
#define INS 1
#define OUTS 2
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   ou(0, subgroupClusteredAdd(iu(0), 4u));
   ou(1, subgroupQuadSwapHorizontal(iu(0)));
}
