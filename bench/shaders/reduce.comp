#version 450
// bench_compute "reduce": the sum (mod 2^32) of n u32. Each invocation sums
// a grid-strided slice, the workgroup folds its 256 partial sums in shared
// memory, and one invocation per workgroup adds the result atomically to
// `total` (zeroed by the command buffer before the dispatch).
layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    uint n;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer In {
    uint v[];
};
layout(std430, set = 0, binding = 1) buffer Out {
    uint total;
};

shared uint partial[256];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint s = 0u;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += stride)
        s += v[i];
    partial[lid] = s;
    barrier();
    for (uint k = 128u; k > 0u; k >>= 1) {
        if (lid < k)
            partial[lid] += partial[lid + k];
        barrier();
    }
    if (lid == 0u)
        atomicAdd(total, partial[0]);
}
