#version 450
// An unsized array of storage buffers (RuntimeDescriptorArray), indexed by
// a value that differs between the lanes of a subgroup
// (StorageBufferArrayNonUniformIndexing, ShaderNonUniform).
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; } outb;
layout(set = 0, binding = 1) buffer Data { uint v[]; } data[];
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint which = (i * 7u + (i >> 3)) % 5u;
   outb.o[i] = data[nonuniformEXT(which)].v[i] + which * 1000000u;
   data[nonuniformEXT(which)].v[i + 256u] = i * 3u + which;
}
