// What the machine-learning kernels (test_compute_ml.c, bench_compute.c)
// share: the workgroup size from specialization constant 0, and workgroup
// sums built from a subgroup reduction and one partial sum per subgroup in
// shared memory, the way GPU runtimes reduce a row.
//
// The quantized formats (designed for these tests; tests/common/sgt_ml.h
// has the C side, which is the reference):
//   q8: blocks of 32 values, v = d * q with q an int8 in [-127, 127] and d
//       an f16 scale per block. The quants of a row are an int8 array of K
//       bytes, the scales another buffer of K/32 halves per row: structure
//       of arrays, so quants are word aligned for 4x8-bit packed loads.
//   q4: blocks of 32 values, v = d * (n - 8) with n a 4-bit nibble and d
//       an f16 scale per block. Every 32-bit word holds 8 values: byte i
//       (little-endian) holds value i in its low nibble and value 4 + i in
//       its high one, so the low nibbles of a word are 4 consecutive values
//       (one packed 4x8-bit operand after masking), as are the high ones.
//       Quants: K/2 bytes per row; scales as for q8.
//   q8 activations (quantize.comp): the same int8 blocks with an f32 scale.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;

// Workgroups of at most 256 invocations: room for subgroups of one.
#define ML_MAX_SUBGROUPS 256u

// Kernels that sum nothing over the workgroup define ML_NO_SUMS, so that
// they do not declare the shared memory below.
#ifndef ML_NO_SUMS
// Values per invocation a workgroup sum takes at once (rows of a matvec).
#define ML_MAX_ROWS 4u

shared float ml_part[ML_MAX_ROWS * ML_MAX_SUBGROUPS];

// Workgroup sums in two steps around one barrier, the way a matrix-vector
// product ends: every invocation passes its partial sum of each row (row <
// ML_MAX_ROWS) to ml_sum_begin, which leaves each subgroup's sum
// (subgroupAdd) in shared memory; after a barrier, ml_sum_finish(row) adds
// the subgroups' sums in subgroup order, in whichever invocation needs the
// total (one, for a matvec: a loop over the subgroups in every invocation
// would cost more than the product).
void ml_sum_begin(uint row, float v)
{
   float s = subgroupAdd(v);
   if (subgroupElect())
      ml_part[row * ML_MAX_SUBGROUPS + gl_SubgroupID] = s;
}

float ml_sum_finish(uint row)
{
   float t = 0.0;
   for (uint i = 0u; i < gl_NumSubgroups; i++)
      t += ml_part[row * ML_MAX_SUBGROUPS + i];
   return t;
}

// The sum of v over the workgroup, in every invocation (all of them add
// the subgroups' sums, in the same order, so they agree). Called in uniform
// control flow; ends with a barrier, so that ml_part may be reused.
float ml_workgroup_add(float v)
{
   ml_sum_begin(0u, v);
   barrier();
   float t = ml_sum_finish(0u);
   barrier();
   return t;
}
#endif
