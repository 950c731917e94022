#version 450
// bench_compute "sgemm": C = ALPHA * A * B for n x n row-major matrices,
// n a multiple of 16. Each 16x16 workgroup computes one 16x16 tile of C,
// staging 16x16 tiles of A and B through shared memory.
// ALPHA is a specialization constant so that the "pipeline" phase can
// build a genuinely different pipeline each time from the same module.
layout(local_size_x = 16, local_size_y = 16) in;

layout(constant_id = 0) const float ALPHA = 1.0;

layout(push_constant) uniform Push {
    uint n;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer A {
    float a[];
};
layout(std430, set = 0, binding = 1) readonly buffer B {
    float b[];
};
layout(std430, set = 0, binding = 2) writeonly buffer C {
    float c[];
};

shared float tileA[16][16];
shared float tileB[16][16];

void main()
{
    uint n = pc.n;
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    float acc = 0.0;
    for (uint t = 0u; t < n; t += 16u) {
        tileA[ty][tx] = a[row * n + t + tx];
        tileB[ty][tx] = b[(t + ty) * n + col];
        barrier();
        for (uint k = 0u; k < 16u; k++)
            acc += tileA[ty][k] * tileB[k][tx];
        barrier();
    }
    c[row * n + col] = ALPHA * acc;
}
