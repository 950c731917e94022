#version 450
// Whole structs loaded from and stored to buffers of different layouts:
// std140 uniform (arrays and matrix columns 16 bytes apart) and std430
// storage, copied member by member (OpCopyLogical or OpLoad/OpStore of
// structs), then partly overwritten.
layout(local_size_x_id = 0) in;
struct S {
   vec3 p;
   float w;
   uint k[2];
   mat2 m;
};
layout(std140, set = 0, binding = 0) uniform U { S us[4]; };
layout(std430, set = 0, binding = 1) readonly buffer In { S is[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { S os[]; };
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   S a = is[g];
   S b = us[g & 3u];
   a.w += b.w;
   a.k[1] = b.k[0];
   a.m[1] = b.m[0];
   os[g] = a;
   if ((g & 1u) != 0u)
      os[g].p = b.p;
}
