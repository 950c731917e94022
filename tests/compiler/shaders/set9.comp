#version 450
// A buffer in descriptor set 9: beyond the 8 sets of the root table.
layout(local_size_x = 1) in;
layout(std430, set = 9, binding = 0) buffer B { uint v[]; };

void main()
{
   v[0] = 1u;
}
