// One compare-and-swap step (k, j) of a bitonic sort of a power-of-two
// number of words, ascending.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
layout(push_constant) uniform P { uint j; uint k; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   uint l = i ^ p.j;
   if (l > i) {
      uint a = d[i];
      uint b = d[l];
      bool ascending = (i & p.k) == 0u;
      if ((a > b) == ascending) {
         d[i] = b;
         d[l] = a;
      }
   }
}
