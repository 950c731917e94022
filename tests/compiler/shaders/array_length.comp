#version 450
// .length() of runtime arrays: from the descriptor's range, after a
// header in the block.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { uint hdr[3]; vec4 pad; uvec2 v[]; } bb;
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };

void main()
{
   o[0] = uint(a.length());
   o[1] = uint(bb.v.length());
}
