#version 450
// A sized array of uniform buffers indexed by a value that differs between
// the lanes of a subgroup (UniformBufferArrayNonUniformIndexing): the same
// selection as nonuniform.comp, read-only since uniform blocks are.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; } outb;
// std140 gives uvec4 arrays a 16-byte stride, so v[i >> 2][i & 3] is word i.
layout(set = 0, binding = 1) uniform Data { uvec4 v[64]; } data[5];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint which = (i * 7u + (i >> 3)) % 5u;
   outb.o[i] = data[nonuniformEXT(which)].v[i >> 2][i & 3u] + which * 1000000u;
}
