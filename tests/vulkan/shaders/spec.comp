// Specialization constants: the workgroup size (local_size_x_id), a shared
// array sized by it, and scalars of every 32-bit kind, one never
// specialized (it keeps its default).
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint U = 7u;
layout(constant_id = 2) const int I = -3;
layout(constant_id = 3) const float F = 1.5;
layout(constant_id = 4) const bool B = false;
layout(constant_id = 9) const uint UNSET = 42u;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 1) writeonly buffer Info { uint info[8]; };
shared uint s[gl_WorkGroupSize.x];
void main()
{
   uint l = gl_LocalInvocationID.x;
   uint g = gl_GlobalInvocationID.x;
   s[l] = g * U;
   barrier();
   // The shared array reversed: every slot of it must exist.
   o[2u * g] = s[gl_WorkGroupSize.x - 1u - l];
   o[2u * g + 1u] = gl_WorkGroupSize.x;
   if (g == 0u) {
      info[0] = U;
      info[1] = uint(I);
      info[2] = floatBitsToUint(F * 2.0);
      info[3] = B ? 1u : 0u;
      info[4] = UNSET;
      info[5] = gl_WorkGroupSize.x;
      info[6] = uint(I * int(U)) + (B ? 1000u : 0u);   // spec-constant arithmetic
      info[7] = gl_NumWorkGroups.x;
   }
}
