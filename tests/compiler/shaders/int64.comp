#version 450
// 64-bit integers: arithmetic, shifts, bit operations, comparisons,
// extensions and truncations, a 64-bit loop-carried value.
#extension GL_ARB_gpu_shader_int64 : require
#define INS 5
#define OUTS 29
#include "map.glsl"

void o64(uint k, uint64_t v)
{
   uvec2 p = unpackUint2x32(v);
   ou(k, p.x);
   ou(k + 1u, p.y);
}

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint64_t a = packUint2x32(uvec2(iu(0), iu(1)));
   uint64_t b = packUint2x32(uvec2(iu(2), iu(3)));
   uint s = iu(4) & 63u;
   int64_t ia = int64_t(a), ib = int64_t(b);
   o64(0u, a + b);
   o64(2u, a - b);
   o64(4u, a * b);
   o64(6u, a << s);
   o64(8u, a >> s);
   o64(10u, uint64_t(ia >> s));
   o64(12u, (a & b) ^ (~a | b));
   ou(14u, uint(a < b) | uint(a <= b) << 1 | uint(a == b) << 2 | uint(a != b) << 3 |
              uint(a > b) << 4 | uint(a >= b) << 5);
   ou(15u, uint(ia < ib) | uint(ia <= ib) << 1 | uint(ia > ib) << 4 | uint(ia >= ib) << 5);
   o64(16u, uint64_t(int64_t(int(iu(0)))));
   o64(18u, uint64_t(iu(1)));
   ou(20u, uint(a * 3ul));
   o64(21u, a > b ? a : b);
   o64(23u, uint64_t(-ia));
   uint64_t acc = 1ul;
   for (uint j = 0u; j < iu(4) % 20u; j++)
      acc = acc * 3ul + a;
   o64(25u, acc);
   o64(27u, a * 0x100000001ul + 0xffffffffful);
}
