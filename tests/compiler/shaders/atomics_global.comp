#version 450
// Atomics on storage-buffer memory from every invocation < n of every
// workgroup: counters of every kind, a histogram indexed per invocation,
// 64-bit atomicAdd, and the returned values of atomicAdd/atomicExchange.
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(std430, set = 0, binding = 2) buffer Counters {
   uint cnt, mn, mx, a_and, a_or, a_xor;
   int smin, smax, neg;
   uint xchg, cas, pad;
   uint64_t add64;
   uint hist[16];
} c;
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
   uint g = gl_GlobalInvocationID.x;
   if (g >= pc.n)
      return;
   uint v = x[g];
   o[g * 2u] = atomicAdd(c.cnt, 1u);
   atomicMin(c.mn, v);
   atomicMax(c.mx, v);
   atomicAnd(c.a_and, v | 0xf0f0f0f0u);
   atomicOr(c.a_or, v & 0x0f0f0f0fu);
   atomicXor(c.a_xor, v);
   atomicMin(c.smin, int(v));
   atomicMax(c.smax, int(v));
   atomicAdd(c.neg, -int(v & 0xffu));
   o[g * 2u + 1u] = atomicExchange(c.xchg, g);
   uint cur = 0u;
   for (;;) {
      uint seen = atomicCompSwap(c.cas, cur, cur + 3u);
      if (seen == cur)
         break;
      cur = seen;
   }
   atomicAdd(c.add64, uint64_t(v) << 20);
   atomicAdd(c.hist[v & 15u], 1u);
}
