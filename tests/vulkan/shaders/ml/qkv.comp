// The projections that start an attention layer, fused into one dispatch
// over twelve storage buffers: the activation row x (K values, f32) is RMS
// normalized with weights g (f16) and multiplied by three q8 matrices
// (ml.glsl): q = Wq xn + bq (Mq rows), k = Wk xn + bk and v = Wv xn + bv
// (Mkv rows each: fewer key/value heads than query heads), all in f32;
// the biases are one f32 buffer of Mq + 2 Mkv values.
//
// Each workgroup computes ROWS rows (specialization constant 1) of one
// matrix (Mq and Mkv are multiples of ROWS), after its own RMS of x (K is
// small next to the K x ROWS weights it reads). Bindings: 0 x, 1 g, 2-3
// Wq quants and scales, 4-5 Wk, 6-7 Wv, 8 biases, 9 q, 10 k, 11 v.
// Push constants: K (a multiple of 32), Mq, Mkv, eps.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#include "ml.glsl"

layout(constant_id = 1) const uint ROWS = 1u;   // at most ML_MAX_ROWS

layout(push_constant) uniform P { uint K; uint Mq; uint Mkv; float eps; } p;
layout(std430, binding = 0) readonly buffer X { vec4 x4[]; };
layout(std430, binding = 1) readonly buffer G { f16vec4 g4[]; };
layout(std430, binding = 2) readonly buffer WqQ { i8vec4 wq_q[]; };
layout(std430, binding = 3) readonly buffer WqD { float16_t wq_d[]; };
layout(std430, binding = 4) readonly buffer WkQ { i8vec4 wk_q[]; };
layout(std430, binding = 5) readonly buffer WkD { float16_t wk_d[]; };
layout(std430, binding = 6) readonly buffer WvQ { i8vec4 wv_q[]; };
layout(std430, binding = 7) readonly buffer WvD { float16_t wv_d[]; };
layout(std430, binding = 8) readonly buffer Bias { float bias[]; };
layout(std430, binding = 9) writeonly buffer Q { float q[]; };
layout(std430, binding = 10) writeonly buffer Kout { float k[]; };
layout(std430, binding = 11) writeonly buffer V { float v[]; };

// Four values (unit j) of row `row` of matrix `mat` (0 q, 1 k, 2 v),
// dequantized, dotted with xn.
float unit_dot(uint mat, uint row, uint j, vec4 xn)
{
   uint qi = row * (p.K / 4u) + j, di = row * (p.K / 32u) + j / 8u;
   if (mat == 0u)
      return float(wq_d[di]) * dot(vec4(ivec4(wq_q[qi])), xn);
   if (mat == 1u)
      return float(wk_d[di]) * dot(vec4(ivec4(wk_q[qi])), xn);
   return float(wv_d[di]) * dot(vec4(ivec4(wv_q[qi])), xn);
}

void main()
{
   uint tid = gl_LocalInvocationID.x, wg = gl_WorkGroupSize.x;
   uint row0 = gl_WorkGroupID.x * ROWS;
   uint mat = row0 < p.Mq ? 0u : row0 < p.Mq + p.Mkv ? 1u : 2u;
   uint first = mat == 0u ? 0u : mat == 1u ? p.Mq : p.Mq + p.Mkv;
   float ss = 0.0;
   for (uint j = tid; j < p.K / 4u; j += wg) {
      vec4 xv = x4[j];
      ss += dot(xv, xv);
   }
   float scale = inversesqrt(ml_workgroup_add(ss) / float(p.K) + p.eps);
   float acc[ML_MAX_ROWS];
   for (uint r = 0u; r < ROWS; r++)
      acc[r] = 0.0;
   for (uint j = tid; j < p.K / 4u; j += wg) {
      vec4 xn = x4[j] * scale * vec4(g4[j]);
      for (uint r = 0u; r < ROWS; r++)
         acc[r] += unit_dot(mat, row0 - first + r, j, xn);
   }
   for (uint r = 0u; r < ROWS; r++)
      ml_sum_begin(r, acc[r]);
   barrier();
   if (tid == 0u) {
      for (uint r = 0u; r < ROWS; r++) {
         float total = ml_sum_finish(r) + bias[row0 + r];
         uint row = row0 - first + r;
         if (mat == 0u)
            q[row] = total;
         else if (mat == 1u)
            k[row] = total;
         else
            v[row] = total;
      }
   }
}
