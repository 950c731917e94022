// robustBufferAccess: mode 0 reads in and out of range of small
// descriptors, mode 1 writes and atomics out of range only, mode 2 writes
// in range only. Two workgroups: i = 0..127.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Small { uint s[]; };         // 256-byte range: 64 words
layout(set = 0, binding = 1) uniform U { uvec4 u[16]; };         // 64-byte range: 4 vectors
layout(set = 0, binding = 2) buffer Dyn { uint d[]; };           // dynamic, 128-byte range: 32 words
layout(set = 0, binding = 3) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform P { uint mode; } p;
void main()
{
   uint i = gl_GlobalInvocationID.x;
   if (p.mode == 0u) {
      o[i] = s[i];
      if (i < 64u) {
         o[128u + i] = u[i / 4u][i % 4u];
         o[192u + i] = d[i];
      }
      if (i == 0u) {
         o[256] = uint(s.length());
         o[257] = uint(d.length());
      }
   } else if (p.mode == 1u) {
      s[64u + i] = 0xBAD00000u + i;
      s[0x4000000u + i * 4096u] = 0xBAD00000u + i;    // a gigabyte away
      atomicAdd(s[64u + i], 1u);
      atomicExchange(s[100000u + i], 7u);
      if (i < 64u)
         d[32u + i] = 0xBAD20000u + i;
   } else {
      if (i < 64u)
         s[i] = 0x5000u + i;
      if (i < 32u)
         d[i] = 0x6000u + i;
   }
}
