/*
 * test_eu_registers: every CTA starts with zeroed registers, where a
 * program can tell, also on a worker whose register file an earlier CTA
 * (of another program, then of the same one) left full of other values.
 * The execution units zero only the registers whose initial value is
 * visible (hw/hw_eu.c, find_zeroed_registers), so this pins down that
 * choice, at every warp width, in CTAs of 100 (partial last warps):
 * - a register read before any write (v3, which a branch later writes) is
 *   0 in every CTA;
 * - a register written only inside an IF (v5, odd invocations) reads 0 in
 *   the lanes that skipped it, after the ENDIF;
 * - registers the straight-line start of the program writes hold their
 *   values (the outputs' addresses, the index).
 */
#include "eut.h"

#define CTA 100u
#define GROUPS 64u
#define N (CTA * GROUPS)

/* Fills v0..v15 of every lane with 0xdead0000 + register. */
static const char *const dirty_text =
   ".warp %u\n"
   ".vregs 16\n"
   "mov v0, #0xdead0000\n"  "mov v1, #0xdead0001\n"  "mov v2, #0xdead0002\n"
   "mov v3, #0xdead0003\n"  "mov v4, #0xdead0004\n"  "mov v5, #0xdead0005\n"
   "mov v6, #0xdead0006\n"  "mov v7, #0xdead0007\n"  "mov v8, #0xdead0008\n"
   "mov v9, #0xdead0009\n"  "mov v10, #0xdead000a\n" "mov v11, #0xdead000b\n"
   "mov v12, #0xdead000c\n" "mov v13, #0xdead000d\n" "mov v14, #0xdead000e\n"
   "mov v15, #0xdead000f\n"
   "exit\n";

/* out[i] = v3 * 1000 + v5: i for odd i, 0 for even i. */
static const char *const check_text =
   ".warp %u\n"
   "ldr.b64 u0 +0\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u8\n"
   "s2r.group_size_x u9\n"
   "imad v1, u8, u9, v0\n"
   "iadd v4, v3, #0          ; read before written\n"
   "and v2, v1, #1\n"
   "if _, v2 @e\n"
   "   mov v5, v1\n"
   "   mov v3, #7            ; dirties v3 for the next CTA on this worker\n"
   "e: endif\n"
   "imad v7, v4, #1000, v5   ; v5: only the odd lanes wrote it\n"
   "shl v6, v1, #2\n"
   "zext64 v8, v6\n"
   "iadd64 v8, v8, u0\n"
   "stg.b32 _, v8, v7\n"
   "exit\n";

static void test_zeroed(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t out = eut_alloc(&t, 4ull * N, 64);
      uint32_t *o = eut_ptr(&t, out);
      struct eut_launch dirty = {.program = eut_programf(&t, dirty_text, w), .grid = {GROUPS},
                                 .size = {128}};
      eut_run(&t, &dirty, "dirtying registers");
      uint64_t root[1] = {out};
      struct eut_launch l = {.program = eut_programf(&t, check_text, w), .grid = {GROUPS},
                             .size = {CTA}, .root = eut_root(&t, root, 1)};
      for (int round = 0; round < 2; round++) {
         for (uint32_t i = 0; i < N; i++)
            o[i] = 0x5a5a5a5au;
         eut_run(&t, &l, "reading registers never written");
         uint32_t bad = 0;
         for (uint32_t i = 0; i < N; i++) {
            uint32_t want = i & 1 ? i : 0;
            if (o[i] != want && bad++ < 5)
               HWT_CHECK(false, "W=%u round %d invocation %u: %u, expected %u", w, round, i,
                         o[i], want);
         }
      }
      eut_fini(&t);
   }
}

int main(void)
{
   HWT_RUN(test_zeroed);
   return hwt_finish();
}
