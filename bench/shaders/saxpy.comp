#version 450
// bench_compute "saxpy": y = a * x + y over n floats, in place. A fixed
// grid walks the array with a grid-sized stride, so that any n fits
// (the host picks the grid; each invocation handles about n / grid).
layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    float a;
    uint n;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer X {
    float x[];
};
layout(std430, set = 0, binding = 1) buffer Y {
    float y[];
};

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += stride)
        y[i] = pc.a * x[i] + y[i];
}
