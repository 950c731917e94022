#version 450
// A runtime array of descriptors indexed non-uniformly (descriptor
// indexing: RuntimeDescriptorArray, ShaderNonUniform).
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[];
layout(std430, set = 1, binding = 0) writeonly buffer O { uint o[]; };
layout(push_constant) uniform Push { uint n; } pc;
void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   o[g] = bufs[nonuniformEXT(g & 3u)].v[g];
}
