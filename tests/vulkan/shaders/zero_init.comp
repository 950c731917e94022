// Workgroup variables with null initializers (VK_KHR_zero_initialize_workgroup_memory,
// GL_EXT_null_initializer) read before anything writes them, then
// overwritten, so that a later workgroup reusing the memory would see the
// garbage if the zeroing were missing.
#version 450
#extension GL_EXT_null_initializer : require
layout(local_size_x = 64) in;
struct S { uint a; uint b[3]; };
shared uint words[256] = {};
shared S st = {};
layout(set = 0, binding = 0) writeonly buffer Out { uint r[]; };
void main()
{
   uint l = gl_LocalInvocationIndex;
   uint seen = words[l] | words[l + 64u] | words[l + 128u] | words[l + 192u] | st.a | st.b[l % 3u];
   r[gl_WorkGroupID.x * 64u + l] = seen + 1u;
   barrier();
   words[l] = 0xdead0000u + l;
   words[l + 64u] = 0xbeef0000u + l;
   words[l + 128u] = ~l;
   words[l + 192u] = l + 1u;
   if (l < 3u)
      st.b[l] = 7u;
   if (l == 0u)
      st.a = 9u;
}
