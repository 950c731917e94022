#version 450
// Valid only under scalar block layout: a vec3 array at stride 12.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(scalar, set = 0, binding = 0) buffer B { vec3 v[]; } b;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   b.v[i] = b.v[i] * 2.0;
}
