// y = A x with A in q8 (W_Q8) or q4 (W_Q4) blocks and x quantized to q8
// blocks by quantize.comp (formats in ml.glsl): per block, an exact
// integer dot product of the quants, then one f32 multiply by the two
// scales, accumulated in f32. Each invocation takes whole blocks (8 words
// of x); a workgroup computes ROWS rows (specialization constant 1).
//
// The integer dot products are SPIR-V's packed 4x8-bit ones
// (SPV_KHR_integer_dot_product, Vulkan 1.3's shaderIntegerDotProduct),
// reached from GLSL through GL_EXT_spirv_intrinsics since this glslang has
// no GL_EXT_integer_dot_product:
//   q8: OpSDotAccSat on the two words of quants, accumulating the block's
//       sum (it never saturates: |sum| <= 32 * 127 * 127 < 2^31);
//   q4: OpSUDot of the activation's signed bytes with the masked nibbles
//       (unsigned), minus 8 times the activations' sum (OpSDot with
//       0x01010101), which removes the nibbles' offset of 8.
// With DOT_EMULATED (q8 only), the same dot product without
// shaderIntegerDotProduct: the words unpacked to int8 vectors, multiplied
// in 16 bits (127 * 127 < 2^15) and added in 32 (shaderInt8, shaderInt16).
// Push constants: M, K (K a multiple of 32).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#ifdef DOT_EMULATED
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#else
#extension GL_EXT_spirv_intrinsics : require
#endif
#include "ml.glsl"

layout(constant_id = 1) const uint ROWS = 1u;   // at most ML_MAX_ROWS

layout(push_constant) uniform P { uint M; uint K; } p;
layout(std430, binding = 0) readonly buffer WQ { uint wq[]; };
layout(std430, binding = 1) readonly buffer WD { float16_t wd[]; };
layout(std430, binding = 2) readonly buffer XQ { uint xq[]; };
layout(std430, binding = 3) readonly buffer XD { float xd[]; };
layout(std430, binding = 4) writeonly buffer Y { float y[]; };

#ifndef DOT_EMULATED
// Capabilities DotProduct (6019) and DotProductInput4x8BitPacked (6018);
// opcodes OpSDot 4450, OpSUDot 4452, OpSDotAccSat 4453; the last operand
// is the packed vector format, 0: PackedVectorFormat4x8Bit.
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018],
                  id = 4450)
int sdot4x8(uint a, uint b, spirv_literal int format);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018],
                  id = 4452)
int sudot4x8(uint a_signed, uint b_unsigned, spirv_literal int format);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018],
                  id = 4453)
int sdot4x8_accsat(uint a, uint b, int acc, spirv_literal int format);
#define PACKED_4X8 0
#endif

#ifdef W_Q8
int block_dot(uint row, uint b)
{
   uint w0 = row * (p.K / 4u) + b * 8u, x0 = b * 8u;
   int sum = 0;
   for (uint i = 0u; i < 8u; i++) {
#ifdef DOT_EMULATED
      i16vec4 wv = i16vec4(unpack8(int(wq[w0 + i])));
      i16vec4 xv = i16vec4(unpack8(int(xq[x0 + i])));
      i16vec4 prod = wv * xv;
      sum += int(prod.x) + int(prod.y) + int(prod.z) + int(prod.w);
#else
      sum = sdot4x8_accsat(wq[w0 + i], xq[x0 + i], sum, PACKED_4X8);
#endif
   }
   return sum;
}
#else
int block_dot(uint row, uint b)
{
   uint w0 = row * (p.K / 8u) + b * 4u, x0 = b * 8u;
   int sum = 0, xsum = 0;
   for (uint i = 0u; i < 4u; i++) {
      uint w = wq[w0 + i];
      sum += sudot4x8(xq[x0 + 2u * i], w & 0x0f0f0f0fu, PACKED_4X8);
      sum += sudot4x8(xq[x0 + 2u * i + 1u], (w >> 4u) & 0x0f0f0f0fu, PACKED_4X8);
   }
   for (uint i = 0u; i < 8u; i++)
      xsum += sdot4x8(xq[x0 + i], 0x01010101u, PACKED_4X8);
   return sum - 8 * xsum;
}
#endif

void main()
{
   uint row0 = gl_WorkGroupID.x * ROWS;
   uint blocks = p.K / 32u;
   float acc[ML_MAX_ROWS];
   for (uint r = 0u; r < ROWS; r++)
      acc[r] = 0.0;
   for (uint b = gl_LocalInvocationID.x; b < blocks; b += gl_WorkGroupSize.x) {
      float xs = xd[b];
      for (uint r = 0u; r < ROWS; r++) {
         uint row = row0 + r;
         if (row < p.M)
            acc[r] += float(block_dot(row, b)) * (float(wd[row * blocks + b]) * xs);
      }
   }
   for (uint r = 0u; r < ROWS; r++)
      ml_sum_begin(r, acc[r]);
   barrier();
   if (gl_LocalInvocationID.x == 0u) {
      for (uint r = 0u; r < ROWS && row0 + r < p.M; r++)
         y[row0 + r] = ml_sum_finish(r);
   }
}
