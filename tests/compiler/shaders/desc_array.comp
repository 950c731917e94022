#version 450
// An array of four storage-buffer descriptors indexed by constants, by a
// push constant, by a loop counter and by the workgroup id (all
// dynamically uniform).
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[4];
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform Push { uint n; uint k; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   o[g * 4u + 0u] = bufs[0].v[g] + bufs[3].v[g];
   o[g * 4u + 1u] = bufs[pc.k].v[g];
   uint s = 0u;
   for (uint j = 0u; j < 4u; j++)
      s += bufs[j].v[g] * (j + 1u);
   o[g * 4u + 2u] = s;
   o[g * 4u + 3u] = bufs[gl_WorkGroupID.x & 3u].v[g];
}
