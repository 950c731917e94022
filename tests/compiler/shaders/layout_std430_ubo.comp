#version 450
// Valid only with uniformBufferStandardLayout: a uniform block whose float
// array has stride 4.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) uniform U { float a[16]; } u;
layout(set = 0, binding = 1) buffer B { float o[]; } b;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   b.o[i] = u.a[i % 16u];
}
