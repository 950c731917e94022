#version 450
// Specialization constants of every kind: int, uint, bool, float, an
// expression of them sizing a local array and bounding a loop, a branch
// on a bool one. The local size is constant 0.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int SI = 3;
layout(constant_id = 2) const uint SU = 10u;
layout(constant_id = 3) const bool SB = false;
layout(constant_id = 4) const float SF = 1.5;
const uint SIZE = SU + 2u;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   uint arr[SIZE];
   for (uint j = 0u; j < SIZE; j++)
      arr[j] = j * g;
   uint b = g * 8u;
   o[b + 0u] = uint(SI * int(g));
   o[b + 1u] = SU + g;
   o[b + 2u] = SB ? 111u : 222u;
   o[b + 3u] = floatBitsToUint(SF * float(g));
   o[b + 4u] = SIZE;
   o[b + 5u] = arr[g % SIZE];
   uint s = 0u;
   if (SB) {
      for (uint j = 0u; j < SIZE; j++)
         s += arr[j];
   } else {
      s = uint(SI) ^ SU;
   }
   o[b + 6u] = s;
   o[b + 7u] = gl_WorkGroupSize.x;
}
