/*
 * test_isa_mem: the memory instructions at every warp width, per invocation
 * against C, in CTAs of 100 (partial last warps), 2 CTAs.
 *
 * Pins down:
 * - LDG .b32/.b64/.b128 from a vector address pair with positive offsets;
 *   STG .b32/.b64/.b128 with a negative offset; STG of uniform data (every
 *   lane stores the uniform registers); LDR .b32 into a vector register and
 *   .b128 into uniform registers; LDG into a uniform register (one access at
 *   the first active lane's address);
 * - STS/LDS .b128/.b32 of each invocation's own shared slot; STP/LDP .b128,
 *   .b32, .b64 of private memory, one private area per invocation (a
 *   partial overwrite reads back merged);
 * - lanes that are not active make no access: inside an IF, the inactive
 *   lanes' addresses point at freed global memory, past shared memory and
 *   past private memory, and neither the loads, the stores, ATOMG nor CASG
 *   fault; the active lanes' accesses happen; MEMBAR and NOP change nothing.
 */
#include "eut.h"

#define CTA 100u
#define GROUPS 2u
#define N (CTA * GROUPS)
#define OUT_DWORDS 20u
#define SENT 0x5a5a5a5au

static const char *const program_text =
   ".warp %u\n"
   "ldr.b64 u0 +0               ; src: 4 dwords per invocation\n"
   "ldr.b64 u2 +8               ; out: 20 dwords per invocation\n"
   "ldr.b64 u4 +16              ; a freed allocation\n"
   "ldr.b128 u8 +24             ; root dwords 6..9\n"
   "ldr.b32 v20 +24             ; root dword 6, in a vector register\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u12\n"
   "s2r.group_size_x u13\n"
   "imad v1, u12, u13, v0\n"
   "shl v2, v1, #4\n"
   "zext64 v4, v2\n"
   "iadd64 v4, v4, u0           ; &src[4 i]\n"
   "imul v3, v1, #80\n"
   "zext64 v6, v3\n"
   "iadd64 v6, v6, u2           ; &out[20 i]\n"
   "ldg.b128 v10, v4\n"
   "ldg.b64 v14, v4 +8\n"
   "ldg.b32 v16, v4 +12\n"
   "stg.b128 _, v6, v10\n"
   "stg.b64 _, v6, v14 +16\n"
   "stg.b32 _, v6, v16 +24\n"
   "iadd64 v8, v6, #32\n"
   "stg.b32 _, v8, v16 -4\n"
   "stg.b128.uaddr _, v6, u8 +32\n"
   "stg.b32 _, v6, v20 +48\n"
   "ldg.b32 u14, v4\n"
   "mov v21, u14\n"
   "stg.b32 _, v6, v21 +52\n"
   "shl v22, v0, #4\n"
   "sts.b128 _, v22, v10\n"
   "lds.b32 v23, v22 +8\n"
   "stg.b32 _, v6, v23 +56\n"
   "stp.b128 _, _, v10\n"
   "stp.b32 _, _, v16 +4\n"
   "ldp.b64 v24, _\n"
   "iadd v24, v24, v25\n"
   "stg.b32 _, v6, v24 +60\n"
   "membar\n"
   "nop\n"
   /* Odd invocations active; the even ones hold bad addresses. */
   "and v30, v1, #1\n"
   "mov v26, v4\n"
   "mov v27, v5\n"
   "mov v28, v22\n"
   "mov v29, #0\n"
   "if _, v30 @else1\n"
   "else1: else @even_done\n"
   "   mov v26, u4\n"
   "   mov v27, u5\n"
   "   mov v28, #0x7ffffff0\n"
   "   mov v29, #0x10000\n"
   "even_done: endif\n"
   "mov v31, #1\n"
   "if _, v30 @odd_done\n"
   "   ldg.b32 v32, v26\n"
   "   stg.b32 _, v6, v32 +64\n"
   "   stg.b32 _, v26, v32 +4    ; src[4 i + 1] = src[4 i]\n"
   "   atomg.add v33, v26, v31 +8\n"
   "   casg v34, v26, v33, v31 +12\n"
   "   lds.b32 v35, v28\n"
   "   sts.b32 _, v28, v35 +4\n"
   "   ldp.b32 v36, v29\n"
   "   stp.b32 _, v29, v36 +8\n"
   "   stg.b32 _, v6, v33 +68\n"
   "   stg.b32 _, v6, v34 +72\n"
   "   stg.b32 _, v6, v36 +76\n"
   "odd_done: endif\n"
   "exit\n";

static void test_memory(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t src = eut_alloc(&t, 16ull * N, 64), out = eut_alloc(&t, 4ull * OUT_DWORDS * N, 64);
      uint32_t *s = eut_ptr(&t, src), *o = eut_ptr(&t, out);
      uint32_t *s0 = malloc(16ull * N);
      HWT_REQUIRE(s0, "oom");
      uint64_t rng = 77 + w;
      for (uint32_t i = 0; i < 4 * N; i++)
         s[i] = s0[i] = (uint32_t)eut_rand(&rng);
      for (uint32_t i = 0; i < OUT_DWORDS * N; i++)
         o[i] = SENT;
      uint64_t freed = hwt_alloc(t.gpu, 4096);
      hw_mem_free(hw_gpu_memory(t.gpu), freed);
      uint64_t root[5] = {src, out, freed, 0x1111111122222222ull, 0x3333333344444444ull};
      struct eut_launch l = {.program = eut_programf(&t, program_text, w), .grid = {GROUPS},
                             .size = {CTA}, .shared_bytes = 16 * CTA, .private_bytes = 16,
                             .root = eut_root(&t, root, 5)};
      eut_run(&t, &l, "memory instructions");
      uint32_t bad = 0;
      for (uint32_t i = 0; i < N; i++) {
         const uint32_t *x = s0 + 4 * i;
         uint32_t local = i % CTA, first = i - local + local / w * w;
         bool odd = i & 1;
         uint32_t want[OUT_DWORDS] = {
            x[0], x[1], x[2], x[3], x[2], x[3], x[3], x[3],
            0x22222222, 0x11111111, 0x44444444, 0x33333333, 0x22222222,
            s0[4 * first], x[2], x[0] + x[3],
            odd ? x[0] : SENT, odd ? x[2] : SENT, odd ? x[3] : SENT, odd ? x[0] : SENT};
         for (uint32_t k = 0; k < OUT_DWORDS; k++) {
            if (o[OUT_DWORDS * i + k] != want[k] && bad++ < 8)
               HWT_CHECK(false, "W=%u invocation %u dword %u: 0x%08x, expected 0x%08x", w, i, k,
                         o[OUT_DWORDS * i + k], want[k]);
         }
         /* The odd invocations' global writes: src[4i+1] = src[4i]; the
          * atomic add of 1 to src[4i+2]; the compare-exchange of src[4i+3]
          * with the value the add returned (old src[4i+2]) for 1. */
         uint32_t w1 = odd ? x[0] : x[1], w2 = odd ? x[2] + 1 : x[2], w3 = x[3];
         if (odd && x[3] == x[2])
            w3 = 1;
         if ((s[4 * i + 1] != w1 || s[4 * i + 2] != w2 || s[4 * i + 3] != w3) && bad++ < 8)
            HWT_CHECK(false, "W=%u invocation %u: src after = %08x %08x %08x, expected %08x "
                      "%08x %08x", w, i, s[4 * i + 1], s[4 * i + 2], s[4 * i + 3], w1, w2, w3);
      }
      free(s0);
      eut_fini(&t);
   }
}

int main(void)
{
   HWT_RUN(test_memory);
   return hwt_finish();
}
