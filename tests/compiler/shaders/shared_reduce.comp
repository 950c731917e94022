#version 450
// Workgroup tree reductions (sum and max) in shared memory with barrier():
// every invocation takes part, including those past n (they add 0); the
// halving loop's trip count depends on the local size.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Group { uint o[]; };
layout(push_constant) uniform Push { uint n; } pc;
shared uint sum[1024];
shared uint mx[1024];

void main()
{
   uint lid = gl_LocalInvocationIndex, g = gl_GlobalInvocationID.x;
   uint L = gl_WorkGroupSize.x;
   uint v = g < pc.n ? x[g] : 0u;
   sum[lid] = v;
   mx[lid] = v;
   barrier();
   for (uint stride = 1u << findMSB(L); stride > 0u; stride >>= 1) {
      if (lid < stride && lid + stride < L) {
         sum[lid] += sum[lid + stride];
         mx[lid] = max(mx[lid], mx[lid + stride]);
      }
      barrier();
   }
   if (lid == 0u) {
      o[gl_WorkGroupID.x * 2u] = sum[0];
      o[gl_WorkGroupID.x * 2u + 1u] = mx[0];
   }
}
