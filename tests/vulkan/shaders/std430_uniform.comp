#version 450
// A uniform block in std430 layout (uniformBufferStandardLayout): arrays of
// float and vec2 at strides 4 and 8, where std140 would need 16.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) uniform U { float a[16]; vec2 b[8]; } u;
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; } outb;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   outb.o[i] = u.a[i % 16u] * 10.0 + u.b[i % 8u].y;
}
