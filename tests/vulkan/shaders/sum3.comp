// out = a + b + c over n words.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) readonly buffer C { uint c[]; };
layout(set = 0, binding = 3) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint n; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < p.n)
      o[i] = a[i] + b[i] + c[i];
}
