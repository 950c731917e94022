#version 450
// 80 KiB of shared memory: more than softgpu provides.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint o[]; };
shared uint big[20480];

void main()
{
   uint l = gl_LocalInvocationIndex;
   big[l * 320u] = l;
   barrier();
   o[l] = big[(63u - l) * 320u];
}
