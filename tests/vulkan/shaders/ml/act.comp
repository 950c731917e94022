// GELU (the tanh approximation) and SiLU of n values (n a multiple of 4),
// f32, four per invocation. Both are x times a logistic function:
//   SiLU(x) = x / (1 + exp(-x)),
//   GELU(x) = 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)),
//             u = sqrt(2/pi) (x + 0.044715 x^3),
// the second form from 1 + tanh(u) = 2 / (1 + exp(-2u)); written so, GELU
// has no cancellation for negative x (1 + tanh(u) would lose every digit
// there) and a relative error bound everywhere. Push constant: n.
#version 450
#extension GL_GOOGLE_include_directive : require
#define ML_NO_SUMS
#include "ml.glsl"

layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer X { vec4 x4[]; };
layout(std430, binding = 1) writeonly buffer Gelu { vec4 gelu4[]; };
layout(std430, binding = 2) writeonly buffer Silu { vec4 silu4[]; };

const float SQRT_2_OVER_PI = 0.7978845608028654;
const float GELU_A = 0.044715;

void main()
{
   uint j = gl_GlobalInvocationID.x;
   if (j >= p.n / 4u)
      return;
   vec4 v = x4[j];
   vec4 u = SQRT_2_OVER_PI * (v + GELU_A * v * v * v);
   gelu4[j] = v / (1.0 + exp(-2.0 * u));
   silu4[j] = v / (1.0 + exp(-v));
}
