#version 450
// Scalar block layout (scalarBlockLayout): a vec3 array at stride 12, and a
// struct {float; vec3} of 16 bytes with its vec3 at offset 4.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
struct P { float s; vec3 v; };
layout(scalar, set = 0, binding = 0) readonly buffer In { vec3 a[]; } inb;
layout(scalar, set = 0, binding = 1) writeonly buffer Out { P p[]; } outb;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   vec3 a = inb.a[i];
   outb.p[i].s = a.x + a.y + a.z;
   outb.p[i].v = a * 2.0;
}
