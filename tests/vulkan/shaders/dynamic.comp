// Dynamic storage and uniform buffers in two sets; also the length of a
// runtime array, which comes from the descriptor's range.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer D { uint o[]; };             // STORAGE_BUFFER_DYNAMIC
layout(set = 0, binding = 1) uniform U { uvec4 u[4]; };          // UNIFORM_BUFFER_DYNAMIC
layout(set = 1, binding = 0) readonly buffer S { uint s[]; };    // STORAGE_BUFFER_DYNAMIC
void main()
{
   uint t = gl_LocalInvocationID.x;
   o[t] = u[t / 4u][t % 4u] + s[t] * 1000u;
   if (t == 0u) {
      o[16] = uint(o.length());
      o[17] = uint(s.length());
   }
}
