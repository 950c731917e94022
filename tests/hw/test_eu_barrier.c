/*
 * test_eu_barrier: workgroup barriers with shared memory, at every warp
 * width, at CTA sizes 1, 33, 100 and 1024 (none but 1024 a multiple of
 * every W: the lanes past the CTA's end are not live and count as arrived).
 *
 * Pins down:
 * - a tree reduction through shared memory (BAR in a BRA_U loop with a
 *   uniform stride, an IF between barriers) gives each CTA's exact sum of
 *   its inputs, in grids of 8 CTAs run by the workers;
 * - the same with the invocations that have nothing left to add returning
 *   (RET) right after their store: returned lanes, and whole warps that
 *   exited, count as arrived at the later barriers;
 * - a matrix transpose through shared memory in a 2D CTA (R x C: 1x1, 3x11,
 *   10x10, 32x32), then a reversal through a second shared region behind a
 *   second barrier: every element lands where C says, so each barrier
 *   orders the shared stores of every warp before the loads after it.
 */
#include "eut.h"

static const uint32_t sizes[4][2] = {{1, 1}, {3, 11}, {10, 10}, {32, 32}};   /* R x C */

static uint32_t pow2_at_least(uint32_t n)
{
   uint32_t p = 1;
   while (p < n)
      p *= 2;
   return p;
}

/* %s: what the invocations past the first stride do after their store. */
static const char *const reduction =
   ".warp %u\n"
   ".barrier\n"
   "ldr.b64 u0 +0               ; in\n"
   "ldr.b64 u2 +8               ; out\n"
   "ldr.b32 u4 +16              ; first stride: half the next power of two\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u8\n"
   "s2r.group_size_x u9\n"
   "imad v1, u8, u9, v0\n"
   "shl v2, v1, #2\n"
   "zext64 v4, v2\n"
   "iadd64 v6, v4, u0\n"
   "ldg.b32 v10, v6\n"
   "shl v12, v0, #2\n"
   "sts.b32 _, v12, v10\n"
   "%s"
   "mov u5, u4\n"
   "icmp.eq u6, u5, #0\n"
   "bra_u _, u6 @done\n"
   "top: bar\n"
   "   icmp.lt_u v20, v0, u5\n"
   "   iadd v21, v0, u5\n"
   "   icmp.lt_u v22, v21, u9\n"
   "   and v20, v20, v22\n"
   "   if _, v20 @skip\n"
   "      shl v23, v21, #2\n"
   "      lds.b32 v24, v23\n"
   "      lds.b32 v25, v12\n"
   "      iadd v25, v25, v24\n"
   "      sts.b32 _, v12, v25\n"
   "   skip: endif\n"
   "   shr_u u5, u5, #1\n"
   "   icmp.ne u6, u5, #0\n"
   "   bra_u _, u6 @top\n"
   "done: bar\n"
   "icmp.eq v20, v0, #0\n"
   "if _, v20 @end\n"
   "   lds.b32 v24, _\n"
   "   shl u10, u8, #2\n"
   "   zext64 u12, u10\n"
   "   iadd64 u12, u12, u2\n"
   "   stg.b32 _, u12, v24\n"
   "end: endif\n"
   "exit\n";

static const char *const ret_idle =
   "icmp.ge_u v20, v0, u4\n"
   "icmp.ne v21, v0, #0\n"
   "and v20, v20, v21\n"
   "ret _, v20 @after\n"
   "after: nop\n";

static void run_reduction(bool ret)
{
   const uint32_t groups = 8;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      for (int si = 0; si < 4; si++) {
         uint32_t s = sizes[si][0] * sizes[si][1];
         uint64_t in = eut_alloc(&t, 4ull * s * groups, 64), out = eut_alloc(&t, 4 * groups, 64);
         uint32_t *x = eut_ptr(&t, in), *o = eut_ptr(&t, out);
         uint64_t rng = s * 31 + w;
         for (uint32_t i = 0; i < s * groups; i++)
            x[i] = (uint32_t)eut_rand(&rng);
         for (uint32_t g = 0; g < groups; g++)
            o[g] = 0xdeadbeef;
         uint64_t root[3] = {in, out, pow2_at_least(s) / 2};
         struct eut_launch l = {.program = eut_programf(&t, reduction, w, ret ? ret_idle : ""),
                                .grid = {groups}, .size = {s}, .shared_bytes = 4 * s,
                                .root = eut_root(&t, root, 3), .flags = HW_LAUNCH_USES_BARRIER};
         eut_run(&t, &l, "reduction");
         for (uint32_t g = 0; g < groups; g++) {
            uint32_t sum = 0;
            for (uint32_t i = 0; i < s; i++)
               sum += x[g * s + i];
            HWT_CHECK(o[g] == sum, "reduction%s W=%u CTA size %u, CTA %u: %u, expected %u",
                      ret ? " (idle invocations returned)" : "", w, s, g, o[g], sum);
         }
      }
      eut_fini(&t);
   }
}

static void test_reduction(void)
{
   run_reduction(false);
}

static void test_reduction_returned(void)
{
   run_reduction(true);
}

/* Transpose R x C (in, row-major) into C x R through shared[0..S), then
 * reverse through shared[S..2S). */
static const char *const transpose =
   ".warp %u\n"
   ".barrier\n"
   "ldr.b64 u0 +0\n"
   "ldr.b64 u2 +8\n"
   "s2r.local_index v0\n"
   "s2r.local_id_x v30\n"
   "s2r.local_id_y v31\n"
   "s2r.group_id_x u8\n"
   "s2r.group_size_x u9          ; C\n"
   "s2r.group_size_y u10         ; R\n"
   "imul u11, u9, u10            ; S\n"
   "imad v1, u8, u11, v0\n"
   "shl v2, v1, #2\n"
   "zext64 v4, v2\n"
   "iadd64 v6, v4, u0\n"
   "ldg.b32 v10, v6\n"
   "imad v12, v31, u9, v30       ; y * C + x\n"
   "shl v12, v12, #2\n"
   "sts.b32 _, v12, v10\n"
   "bar\n"
   "irem_u v13, v0, u10          ; i = t %% R\n"
   "idiv_u v14, v0, u10          ; j = t / R\n"
   "imad v15, v13, u9, v14       ; i * C + j\n"
   "shl v15, v15, #2\n"
   "lds.b32 v16, v15\n"
   "shl u12, u11, #2             ; second region\n"
   "shl v17, v0, #2\n"
   "iadd v17, v17, u12\n"
   "sts.b32 _, v17, v16\n"
   "bar\n"
   "isub v18, u11, v0\n"
   "isub v18, v18, #1            ; S - 1 - t\n"
   "shl v18, v18, #2\n"
   "iadd v18, v18, u12\n"
   "lds.b32 v19, v18\n"
   "iadd64 v6, v4, u2\n"
   "stg.b32 _, v6, v19\n"
   "exit\n";

static void test_transpose(void)
{
   const uint32_t groups = 4;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      for (int si = 0; si < 4; si++) {
         uint32_t r = sizes[si][0], c = sizes[si][1], s = r * c;
         uint64_t in = eut_alloc(&t, 4ull * s * groups, 64);
         uint64_t out = eut_alloc(&t, 4ull * s * groups, 64);
         uint32_t *x = eut_ptr(&t, in), *o = eut_ptr(&t, out);
         for (uint32_t i = 0; i < s * groups; i++)
            x[i] = i * 2654435761u;
         uint64_t root[2] = {in, out};
         struct eut_launch l = {.program = eut_programf(&t, transpose, w), .grid = {groups},
                                .size = {c, r}, .shared_bytes = 8 * s,
                                .root = eut_root(&t, root, 2), .flags = HW_LAUNCH_USES_BARRIER};
         eut_run(&t, &l, "transpose");
         uint32_t bad = 0;
         for (uint32_t g = 0; g < groups; g++) {
            for (uint32_t k = 0; k < s; k++) {
               uint32_t tt = s - 1 - k;              /* the reversal */
               uint32_t i = tt % r, j = tt / r;      /* transposed[j][i] = in[i][j] */
               uint32_t want = x[g * s + i * c + j];
               if (o[g * s + k] != want && bad++ < 5)
                  HWT_CHECK(false, "transpose W=%u %ux%u CTA %u element %u: 0x%08x, expected "
                            "0x%08x", w, r, c, g, k, o[g * s + k], want);
            }
         }
      }
      eut_fini(&t);
   }
}

int main(void)
{
   HWT_RUN(test_reduction);
   HWT_RUN(test_reduction_returned);
   HWT_RUN(test_transpose);
   return hwt_finish();
}
