#version 450
// 8- and 16-bit arithmetic (shaderFloat16, shaderInt16, shaderInt8,
// shaderSubgroupExtendedTypes): binary16 operations, 16- and 8-bit integer
// operations that read their operands' upper bits (division, right shifts,
// comparisons, min/max, conversions), bitcasts that pack and unpack, and
// subgroup reductions on each type. Read by test_compute_features.c
// (arith16), which holds the C reference.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(local_size_x = 64) in;
struct In { float16_t a, b; int16_t s, t; uint16_t u, v; int8_t c, d; uint8_t e, f; };
layout(std430, binding = 0) readonly buffer Ins { In x[]; };
layout(std430, binding = 1) writeonly buffer Outs { uint r[]; };
uint h(float16_t v) { return uint(float16BitsToUint16(v)); }
void main()
{
   uint i = gl_GlobalInvocationID.x;
   In v = x[i];
   uint o = i * 40u;
   // binary16: correctly rounded operations
   r[o + 0] = h(v.a + v.b);
   r[o + 1] = h(v.a * v.b);
   r[o + 2] = h(v.a / v.b);
   r[o + 3] = h(fma(v.a, v.b, v.a));
   r[o + 4] = h(sqrt(abs(v.a)));
   r[o + 5] = h(max(v.a, v.b) - min(v.a, v.b));
   r[o + 6] = h(-v.a);
   r[o + 7] = uint(v.a < v.b) | uint(v.a == v.b) << 1 | uint(v.a >= v.b) << 2 |
              uint(isnan((v.b - v.b) / (v.b - v.b))) << 3;
   r[o + 8] = h(floor(v.a * float16_t(0.5)));
   r[o + 9] = uint(int(v.a));
   r[o + 10] = h(float16_t(v.s));
   r[o + 11] = floatBitsToUint(float(v.b));
   // binary16 through binary32, within 2 units in the last place
   r[o + 12] = h(exp(v.b * float16_t(0.25)));
   r[o + 13] = h(dot(f16vec2(v.a, v.b), f16vec2(v.b, float16_t(2.0))));
   // 16-bit integers
   r[o + 14] = uint(uint16_t(v.s + v.t));
   r[o + 15] = uint(int(v.s * v.t));
   r[o + 16] = uint(int(v.s / (v.t | int16_t(1))));
   r[o + 17] = uint(v.u / (v.v | uint16_t(1)));
   r[o + 18] = uint(int(v.s >> 3));
   r[o + 19] = uint(v.u >> 5);
   r[o + 20] = uint(v.s < v.t) | uint(v.u < v.v) << 1 | uint(v.s == v.t) << 2 |
               uint(min(v.s, v.t) == v.s) << 3 | uint(max(v.u, v.v) == v.u) << 4;
   r[o + 21] = uint(int(max(v.s, v.t)));
   r[o + 22] = floatBitsToUint(float(v.s) + float(v.u));
   // 8-bit integers
   r[o + 23] = uint(int(int8_t(v.c * v.d)));
   r[o + 24] = uint(int(v.c / (v.d | int8_t(1))));
   r[o + 25] = uint(v.e % (v.f | uint8_t(1)));
   r[o + 26] = uint(int(v.c >> 2));
   r[o + 27] = uint(v.c < v.d) | uint(v.e > v.f) << 1 |
               uint(clamp(v.c, int8_t(-10), int8_t(10)) == v.c) << 2;
   // bitcasts: packing and unpacking
   r[o + 28] = pack32(u8vec4(uint8_t(v.c), uint8_t(v.d), v.e, v.f));
   r[o + 29] = packFloat2x16(f16vec2(v.a, v.b));
   u8vec4 bytes = unpack8(uint(v.u) * 65537u + i);
   r[o + 30] = uint(bytes.x) + uint(bytes.y) * 3u + uint(bytes.z) * 5u + uint(bytes.w) * 7u;
   i16vec2 halves = unpack16(int(v.s) * 3 + int(i));
   r[o + 31] = uint(int(halves.x) - int(halves.y));
   // subgroup operations
   r[o + 32] = h(subgroupAdd(float16_t(i & 7u)));
   r[o + 33] = uint(int(subgroupMin(v.s)));
   r[o + 34] = uint(subgroupMax(v.e));
   r[o + 35] = uint(int(subgroupAdd(v.c)));
   r[o + 36] = h(subgroupMax(v.a));
   r[o + 37] = gl_SubgroupID;
   r[o + 38] = gl_SubgroupSize;
   r[o + 39] = h(subgroupBroadcastFirst(v.b));
}
