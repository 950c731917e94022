// Buffer device addresses (GL_EXT_buffer_reference): pointers passed in
// push constants, one pointing into the middle of a buffer, and a linked
// list whose next pointers the host wrote into buffer memory.
#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
   Node next;
   uint value;
   uint pad;
};
layout(push_constant) uniform P {
   Words src;
   Words dst;
   Node head;
   uint n;
   uint steps;
} p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < p.n)
      p.dst.v[i] = p.src.v[i] * 3u + 1u;
   if (i == 0u) {
      Node node = p.head;
      uint acc = 0u;
      for (uint k = 0u; k < p.steps; k++) {
         acc = acc * 31u + node.value;
         node = node.next;
      }
      p.dst.v[p.n] = acc;
      // Store a pointer through a pointer: the last node's next becomes the head.
      node.next = p.head;
   }
}
