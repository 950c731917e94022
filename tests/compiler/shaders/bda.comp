#version 450
// Buffer device addresses (GL_EXT_buffer_reference, PhysicalStorageBuffer64):
// pointers in push constants, read and written, and pointer arithmetic
// through a struct.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Data { uint v[]; };
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node { uint value; uint pad; Node next; };
layout(push_constant) uniform Push {
   uint n;
   uint pad;
   Data src;
   Data dst;
   Node list;
} pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   uint s = 0u;
   Node p = pc.list;
   for (uint j = 0u; j < (g & 3u); j++)
      p = p.next;
   s = p.value;
   pc.dst.v[g] = pc.src.v[g] * 3u + s;
}
