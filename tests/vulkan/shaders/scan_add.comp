// Adds the scanned block totals to every word of each 512-word block.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) readonly buffer Sums { uint sums[]; };
layout(push_constant) uniform P { uint n; } p;
void main()
{
   uint i = gl_WorkGroupID.x * 512u + gl_LocalInvocationID.x;
   uint add = sums[gl_WorkGroupID.x];
   if (i < p.n)
      data[i] += add;
   if (i + 256u < p.n)
      data[i + 256u] += add;
}
