#version 450
// bench_compute "barrier": bench_eu's barrier loop as a Vulkan shader (issue
// 4 compares the two drivers on it). Each invocation stores its value in
// shared memory, waits for the workgroup, adds its right neighbour's value
// (wrapping), waits again; `iters` times. Lane-operations: the shared store,
// the shared load and the add, 3 per invocation and iteration.
layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    uint iters;
} pc;

layout(std430, set = 0, binding = 0) writeonly buffer Out {
    float result[];
};

shared float sh[256];

void main()
{
    uint i = gl_LocalInvocationID.x;
    uint next = (i + 1u) % gl_WorkGroupSize.x;
    float x = float(i);
    for (uint k = 0u; k < pc.iters; k++) {
        sh[i] = x;
        barrier();
        x += sh[next];
        barrier();
    }
    result[gl_GlobalInvocationID.x] = x;
}
