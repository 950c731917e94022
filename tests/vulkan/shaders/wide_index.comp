// Writes x[p.base + i] for i < p.count: with base near 2^30, the byte
// offset (base + i) * 4 does not fit in 32 bits (test_compute_wide.c).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer X { uint x[]; };
layout(set = 0, binding = 1) buffer Y { uint y[]; };
layout(push_constant) uniform P { uint base; uint count; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < p.count) {
      x[p.base + i] = 0xBAD00000u + i;
      y[i] = 0x600D0000u + i;   // in range: must land on a robust device
   }
}
