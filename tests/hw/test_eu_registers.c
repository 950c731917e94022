/*
 * test_eu_registers: every CTA starts with zeroed registers, where a
 * program can tell, also on a worker whose register file an earlier CTA
 * (of another program, then of the same one) left full of other values.
 * The execution units zero only the registers whose initial value is
 * visible (hw/hw_eu.c, find_zeroed_registers), so this pins down that
 * choice, at every warp width, in CTAs of 100 (partial last warps):
 * - a register read before any write (v3, which a branch later writes; u13,
 *   written at the end) is 0 in every CTA;
 * - a register written only inside an IF (v5, odd invocations) reads 0 in
 *   the lanes that skipped it, after the ENDIF;
 * - registers the straight-line start of the program writes hold their
 *   values (the outputs' addresses, the index).
 * A worker keeps the warps' layout from one CTA to the next of the same
 * shape, so this also pins down that every CTA starts with all its lanes
 * running, whatever lanes the CTA before it returned: a lane whose exec
 * bit or lane mask (which blends in partial warps) stayed cleared would
 * skip the store or keep an old value.
 */
#include "eut.h"

#define CTA 100u
#define GROUPS 64u
#define N (CTA * GROUPS)

/* Fills v0..v15 of every lane with 0xdead0000 + register, and u13. */
static const char *const dirty_text =
   ".warp %u\n"
   ".vregs 16\n"
   ".uregs 16\n"
   "mov u13, #0xdead0013\n"
   "mov v0, #0xdead0000\n"  "mov v1, #0xdead0001\n"  "mov v2, #0xdead0002\n"
   "mov v3, #0xdead0003\n"  "mov v4, #0xdead0004\n"  "mov v5, #0xdead0005\n"
   "mov v6, #0xdead0006\n"  "mov v7, #0xdead0007\n"  "mov v8, #0xdead0008\n"
   "mov v9, #0xdead0009\n"  "mov v10, #0xdead000a\n" "mov v11, #0xdead000b\n"
   "mov v12, #0xdead000c\n" "mov v13, #0xdead000d\n" "mov v14, #0xdead000e\n"
   "mov v15, #0xdead000f\n"
   "exit\n";

/* The start of the checking programs: u0 = out (the root table's first
 * word), v1 = the invocation's index in the grid. */
#define INDEX_V1 \
   ".warp %u\n" \
   "ldr.b64 u0 +0\n" \
   "s2r.local_index v0\n" \
   "s2r.group_id_x u8\n" \
   "s2r.group_size_x u9\n" \
   "imad v1, u8, u9, v0\n"

/* out[i] = v3 * 1000 + v5: i for odd i, 0 for even i. */
static const char *const check_text =
   INDEX_V1
   "iadd v4, v3, u13         ; both read before written\n"
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
   "mov u13, #9              ; dirties u13 for the next CTA on this worker\n"
   "exit\n";

/* out[i] = i + 1, then every third invocation returns: most warps end
 * with lanes missing from exec. */
static const char *const returns_text =
   INDEX_V1
   "iadd v7, v1, #1          ; blends through the lane mask in a partial warp\n"
   "shl v6, v1, #2\n"
   "zext64 v8, v6\n"
   "iadd64 v8, v8, u0\n"
   "stg.b32 _, v8, v7\n"
   "irem_u v2, v1, #3\n"
   "icmp.eq v3, v2, #0\n"
   "ret _, v3 @done\n"
   "done: exit\n";

/* Runs `text` (at width w) in GROUPS CTAs of CTA invocations, twice, so
 * that the second round's first CTAs follow the first round's last ones
 * on each worker; invocation i stores one word at out[i], which must be
 * want(i). */
static void run_twice(struct eut *t, uint32_t w, const char *text, uint32_t (*want)(uint32_t),
                      const char *what)
{
   uint64_t out = eut_alloc(t, 4ull * N, 64);
   uint32_t *o = eut_ptr(t, out);
   uint64_t root[1] = {out};
   struct eut_launch l = {.program = eut_programf(t, text, w), .grid = {GROUPS},
                          .size = {CTA}, .root = eut_root(t, root, 1)};
   for (int round = 0; round < 2; round++) {
      for (uint32_t i = 0; i < N; i++)
         o[i] = 0x5a5a5a5au;
      eut_run(t, &l, what);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < N; i++) {
         if (o[i] != want(i) && bad++ < 5)
            HWT_CHECK(false, "%s: W=%u round %d invocation %u: %u, expected %u", what, w, round,
                      i, o[i], want(i));
      }
   }
}

static uint32_t zeroed_want(uint32_t i)
{
   return i & 1 ? i : 0;
}

static void test_zeroed(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      struct eut_launch dirty = {.program = eut_programf(&t, dirty_text, w), .grid = {GROUPS},
                                 .size = {128}};
      eut_run(&t, &dirty, "dirtying registers");
      run_twice(&t, w, check_text, zeroed_want, "reading registers never written");
      eut_fini(&t);
   }
}

static uint32_t lanes_want(uint32_t i)
{
   return i + 1;
}

static void test_lanes_reset(void)
{
   for (int wi = 0; wi < 4; wi++) {
      struct eut t;
      eut_init(&t, NULL);
      run_twice(&t, eut_widths[wi], returns_text, lanes_want, "returning lanes");
      eut_fini(&t);
   }
}

int main(void)
{
   HWT_RUN(test_zeroed);
   HWT_RUN(test_lanes_reset);
   return hwt_finish();
}
