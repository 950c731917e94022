// Several descriptor sets, one binding number that is not 0, and a hole:
// set 2 is in the pipeline layout but the shader never uses it.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 1, binding = 3) uniform K { uvec4 k; };
layout(set = 3, binding = 0) readonly buffer B { uint b[]; };
layout(set = 3, binding = 1) buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; uint out_offset; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < p.n)
      o[p.out_offset + i] = a[i] * k.x + b[i] + k.y;
}
