#version 450
// Atomics on shared memory, every kind, from the invocations < n of each
// workgroup: results per workgroup, and the values atomicAdd and
// atomicExchange returned per invocation.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Group { uint grp[]; };
layout(push_constant) uniform Push { uint n; } pc;
shared uint cnt, mn, mx, a_and, a_or, a_xor, xchg, cas;
shared int smin, smax;

void main()
{
   uint lid = gl_LocalInvocationIndex, g = gl_GlobalInvocationID.x;
   if (lid == 0u) {
      cnt = 0u;
      mn = 0xffffffffu;
      mx = 0u;
      a_and = 0xffffffffu;
      a_or = 0u;
      a_xor = 0u;
      xchg = 0xffffffffu;
      cas = 0u;
      smin = 0x7fffffff;
      smax = -0x7fffffff - 1;
   }
   barrier();
   if (g < pc.n) {
      uint v = x[g];
      o[g * 2u] = atomicAdd(cnt, 1u);
      atomicMin(mn, v);
      atomicMax(mx, v);
      atomicAnd(a_and, v | 0xf0f0f0f0u);
      atomicOr(a_or, v & 0x0f0f0f0fu);
      atomicXor(a_xor, v);
      atomicMin(smin, int(v));
      atomicMax(smax, int(v));
      o[g * 2u + 1u] = atomicExchange(xchg, g);
      uint cur = 0u;
      for (;;) {
         uint seen = atomicCompSwap(cas, cur, cur + 3u);
         if (seen == cur)
            break;
         cur = seen;
      }
   }
   barrier();
   if (lid == 0u) {
      uint b = gl_WorkGroupID.x * 10u;
      grp[b + 0u] = cnt;
      grp[b + 1u] = mn;
      grp[b + 2u] = mx;
      grp[b + 3u] = a_and;
      grp[b + 4u] = a_or;
      grp[b + 5u] = a_xor;
      grp[b + 6u] = uint(smin);
      grp[b + 7u] = uint(smax);
      grp[b + 8u] = xchg;
      grp[b + 9u] = cas;
   }
}
