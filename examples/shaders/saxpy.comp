#version 450
// compute_saxpy's shader: y[i] = a * x[i] + y[i], one element per invocation.
//
// Compiled to SPIR-V by glslc at build time (examples/CMakeLists.txt) and
// embedded into the program as an array of 32-bit words.

// 256 invocations per workgroup; the host launches ceil(n / 256) workgroups.
layout(local_size_x = 256) in;

// Small per-dispatch parameters travel as push constants (vkCmdPushConstants).
layout(push_constant) uniform Params {
    float a;
    uint n;
} params;

// The two arrays, bound through descriptor set 0.
layout(std430, set = 0, binding = 0) readonly buffer X {
    float x[];
};
layout(std430, set = 0, binding = 1) buffer Y {
    float y[];
};

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n)   // the last workgroup may stick out past the end
        y[i] = params.a * x[i] + y[i];
}
