#version 450
// A workgroup inclusive prefix sum (Hillis-Steele, ping-pong buffers in
// shared memory, a barrier per step), and the exclusive sum derived from
// it; a value broadcast by invocation 0 through shared memory.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform Push { uint n; } pc;
shared uint buf[2][1024];
shared uint token;

void main()
{
   uint lid = gl_LocalInvocationIndex, g = gl_GlobalInvocationID.x;
   uint L = gl_WorkGroupSize.x;
   uint v = g < pc.n ? x[g] & 0xffffu : 0u;
   if (lid == 0u)
      token = gl_WorkGroupID.x * 7u + 3u;
   buf[0][lid] = v;
   barrier();
   uint pin = 0u;
   for (uint off = 1u; off < L; off <<= 1) {
      uint s = buf[pin][lid];
      if (lid >= off)
         s += buf[pin][lid - off];
      buf[1u - pin][lid] = s;
      pin = 1u - pin;
      barrier();
   }
   if (g < pc.n) {
      o[g * 3u] = buf[pin][lid];
      o[g * 3u + 1u] = buf[pin][lid] - v;
      o[g * 3u + 2u] = token;
   }
}
