// Rotary position embedding: x is T tokens x H heads x D values (D even),
// f32; each pair of values of a head is rotated by theta = pos[t] *
// base^(-2i/D), i the pair's index in the head. Pairs are neighbours
// (2i, 2i + 1), or, with specialization constant 1 (NEOX) set, the two
// halves of the head (i, i + D/2). One invocation per pair.
//
// theta grows to hundreds of radians, where the GPU's sin and cos have no
// precision requirement (Vulkan's are for [-pi, pi]): it is reduced to
// [-pi, pi] first, subtracting k * 2pi in two parts (Cody and Waite) so
// that k * C1 is exact. Push constants: T, H, D, log2(base).
#version 450
#extension GL_GOOGLE_include_directive : require
#define ML_NO_SUMS
#include "ml.glsl"

layout(constant_id = 1) const uint NEOX = 0u;

layout(push_constant) uniform P { uint T; uint H; uint D; float log2_base; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Pos { int pos[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

const float TWO_PI_C1 = 6.28125;                  // 8 significant bits
const float TWO_PI_C2 = 1.9353071795864769e-3;    // 2 pi - C1
const float INV_TWO_PI = 0.15915494309189535;

void main()
{
   uint half_d = p.D / 2u;
   uint pair = gl_GlobalInvocationID.x;
   if (pair >= p.T * p.H * half_d)
      return;
   uint i = pair % half_d, head = pair / half_d, t = head / p.H;
   uint base = head * p.D;
   uint i0 = NEOX != 0u ? base + i : base + 2u * i;
   uint i1 = NEOX != 0u ? i0 + half_d : i0 + 1u;
   float theta = float(pos[t]) * exp2(-2.0 * float(i) / float(p.D) * p.log2_base);
   float k = round(theta * INV_TWO_PI);
   float a = (theta - k * TWO_PI_C1) - k * TWO_PI_C2;
   float c = cos(a), s = sin(a);
   float x0 = x[i0], x1 = x[i1];
   y[i0] = x0 * c - x1 * s;
   y[i1] = x0 * s + x1 * c;
}
