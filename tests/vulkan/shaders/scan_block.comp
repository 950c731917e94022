// Exclusive prefix sum of 512-word blocks (Blelloch, in shared memory): each
// workgroup scans its block of data in place and writes the block's total
// to sums[workgroup].
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Sums { uint sums[]; };
layout(push_constant) uniform P { uint n; } p;
shared uint t[512];
void main()
{
   uint l = gl_LocalInvocationID.x;
   uint base = gl_WorkGroupID.x * 512u;
   uint i0 = base + 2u * l, i1 = i0 + 1u;
   t[2u * l] = i0 < p.n ? data[i0] : 0u;
   t[2u * l + 1u] = i1 < p.n ? data[i1] : 0u;
   uint offset = 1u;
   for (uint d = 256u; d > 0u; d >>= 1) {
      barrier();
      if (l < d) {
         uint ai = offset * (2u * l + 1u) - 1u;
         uint bi = offset * (2u * l + 2u) - 1u;
         t[bi] += t[ai];
      }
      offset *= 2u;
   }
   barrier();
   if (l == 0u) {
      sums[gl_WorkGroupID.x] = t[511];
      t[511] = 0u;
   }
   for (uint d = 1u; d < 512u; d *= 2u) {
      offset >>= 1;
      barrier();
      if (l < d) {
         uint ai = offset * (2u * l + 1u) - 1u;
         uint bi = offset * (2u * l + 2u) - 1u;
         uint tmp = t[ai];
         t[ai] = t[bi];
         t[bi] += tmp;
      }
   }
   barrier();
   if (i0 < p.n)
      data[i0] = t[2u * l];
   if (i1 < p.n)
      data[i1] = t[2u * l + 1u];
}
