// 256-bin histogram of the bytes of n words: a grid-stride loop counts into
// a per-workgroup histogram with shared-memory atomics, then merges it into
// the global one with global atomics.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Hist { uint bins[256]; };
layout(push_constant) uniform P { uint n; } p;
shared uint local_bins[256];
void main()
{
   uint l = gl_LocalInvocationID.x;
   local_bins[l] = 0u;
   barrier();
   uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
   for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride) {
      uint w = v[i];
      for (uint k = 0u; k < 4u; k++)
         atomicAdd(local_bins[(w >> (8u * k)) & 255u], 1u);
   }
   barrier();
   if (local_bins[l] != 0u)
      atomicAdd(bins[l], local_bins[l]);
}
