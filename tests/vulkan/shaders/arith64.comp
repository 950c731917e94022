#version 450
// 64-bit floats (shaderFloat64): binary64 arithmetic, the GLSL.std.450
// functions defined at 64 bits, conversions to and from every other
// numeric type, comparisons and subgroup reductions. Read by
// test_compute_features.c (arith64), which holds the C reference.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
struct In { double a, b; float f; int s; int64_t l; uint u; float16_t h; uint16_t pad; };
layout(std430, binding = 0) readonly buffer Ins { In x[]; };
layout(std430, binding = 1) writeonly buffer Outs { double r[]; };
layout(std430, binding = 2) writeonly buffer Words { uint w[]; };
void main()
{
   uint i = gl_GlobalInvocationID.x;
   In v = x[i];
   uint o = i * 24u;
   // correctly rounded
   r[o + 0] = v.a + v.b;
   r[o + 1] = v.a * v.b;
   r[o + 2] = v.a / v.b;
   r[o + 3] = sqrt(abs(v.a));
   r[o + 4] = floor(v.a) + fract(v.b) * 4.0;
   r[o + 5] = clamp(v.a, -5.5LF, 7.25LF) - min(v.a, v.b) + max(v.a, v.b);
   r[o + 6] = double(v.f) * 3.0LF;
   r[o + 7] = double(v.s) + double(v.l) + double(v.u);
   r[o + 8] = double(v.h);
   int ea;
   double ma = frexp(v.a, ea);
   r[o + 9] = ldexp(ma, ea + 3);
   int e;
   double m = frexp(v.b * 1.0e300, e);
   r[o + 10] = m;
   r[o + 11] = sign(v.a) * trunc(v.b * 100.0) + round(v.a) - ceil(v.b);
   double whole;
   r[o + 12] = modf(v.a, whole);
   r[o + 13] = whole;
   r[o + 14] = -v.a;
   r[o + 15] = mod(v.a, v.b);
   // fused or not, within a relative 2^-50
   r[o + 16] = fma(v.a, v.b, 1.0LF);
   r[o + 17] = mix(v.a, v.b, 0.375LF);
   r[o + 18] = dot(dvec3(v.a, v.b, 1.0LF), dvec3(v.b, 2.0LF, v.a));
   r[o + 19] = determinant(dmat2(v.a, v.b, 1.0LF, 3.0LF));
   r[o + 20] = inversesqrt(abs(v.b) + 1.0LF);
   r[o + 21] = subgroupAdd(double(i & 7u));
   r[o + 22] = subgroupMax(v.a);
   r[o + 23] = double(gl_SubgroupID);
   // to other types, comparisons, bits
   w[i * 8u + 0u] = floatBitsToUint(float(v.a));
   w[i * 8u + 1u] = uint(int(v.a * 1000.0));
   w[i * 8u + 2u] = uint(int64_t(v.b * -1.0e12) >> 20);
   w[i * 8u + 3u] = uint(float16BitsToUint16(float16_t(v.a)));
   w[i * 8u + 4u] = uint(v.a < v.b) | uint(v.a == v.a) << 1 | uint(v.a >= v.b) << 2 |
                    uint(isnan(v.a)) << 3 | uint(v.a != v.b) << 4;
   uvec2 bits = unpackDouble2x32(v.a);
   w[i * 8u + 5u] = bits.x ^ bits.y;
   w[i * 8u + 6u] = uint(e);
   w[i * 8u + 7u] = packDouble2x32(uvec2(bits.y, bits.x)) == v.b ? 1u : 0u;
}
