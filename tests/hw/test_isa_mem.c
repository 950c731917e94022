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
 *   fault; the active lanes' accesses happen; MEMBAR and NOP change nothing;
 * - byte and halfword accesses (.b8, .b16: ISA_MEM_SUB) in global, shared
 *   and private memory: loads zero-extend into the register (from vector
 *   and uniform addresses, into vector and uniform registers); stores
 *   write the register's low bytes only, so neighbouring lanes storing
 *   neighbouring bytes and halfwords all land, and two lanes of a warp
 *   storing one byte leave the higher lane's; a byte and a halfword stored
 *   into a private dword leave its other bytes; accesses ending exactly at
 *   the end of shared and private memory work; inactive lanes store
 *   nothing;
 * - their faults, by their own size: a halfword load just past a global
 *   allocation (invalid address) and one at an odd address (misaligned),
 *   a byte load past it, a halfword load straddling the end of an odd-sized
 *   shared memory and a byte store just past it (out of range), private
 *   halfword accesses misaligned and past the end; the report names the
 *   access's size, address and lane.
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

/* ---- bytes and halfwords --------------------------------------------------------- */

#define SUB_OUT 12u          /* result dwords per invocation */
#define SENT8 0x5au
#define SUB_SHARED (128u + 2u * CTA)   /* bytes 0..CTA-1, halfwords from 128: to the end */

static const char *const sub_text =
   ".warp %u\n"
   ".barrier\n"
   "ldr.b64 u0 +0               ; src: 4 bytes per invocation\n"
   "ldr.b64 u2 +8               ; out: SUB_OUT dwords per invocation\n"
   "ldr.b64 u4 +16              ; bytes: 4N + 16\n"
   "ldr.b64 u6 +24              ; halfwords: N\n"
   "ldr.b32 u8 +32              ; 0x11223344\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u12\n"
   "s2r.group_size_x u13\n"
   "imad v1, u12, u13, v0\n"
   "shl v2, v1, #2\n"
   "zext64 v4, v2\n"
   "iadd64 v4, v4, u0           ; &src[4 i]\n"
   "imul v3, v1, #48\n"
   "zext64 v6, v3\n"
   "iadd64 v6, v6, u2           ; &out[12 i]\n"
   "ldg.b8 v10, v4 +1\n"
   "ldg.b16 v11, v4 +2\n"
   "ldg.b8 v12, v4 +3\n"
   "stg.b32 _, v6, v10\n"
   "stg.b32 _, v6, v11 +4\n"
   "stg.b32 _, v6, v12 +8\n"
   "ldg.b16 u14, v4 +2          ; the first active lane's\n"
   "mov v13, u14\n"
   "stg.b32 _, v6, v13 +12\n"
   "mov u20, #3735879680\n"
   "imad v14, v1, #16777619, u20 ; val(i): garbage above its low bytes\n"
   "zext64 v16, v1\n"
   "iadd64 v16, v16, u4         ; &bytes[i]\n"
   "stg.b8 _, v16, v14\n"
   "shl v15, v1, #1\n"
   "zext64 v18, v15\n"
   "iadd64 v18, v18, u6         ; &halfwords[i]\n"
   "stg.b16 _, v18, v14\n"
   "stg.b8 _, v16, u8 +%u       ; bytes[N + i] = 0x44\n"
   "shr_u v19, v1, #1\n"
   "zext64 v26, v19\n"
   "iadd64 v26, v26, u4\n"
   "stg.b8 _, v26, v14 +%u      ; bytes[3N + i / 2]: lanes 2j and 2j + 1\n"
   "sts.b8 _, v0, v14\n"
   "shl v20, v0, #1\n"
   "sts.b16 _, v20, v14 +128\n"
   "bar\n"
   "iadd v21, v0, #1\n"
   "icmp.eq v22, v21, u13\n"
   "sel v21, v22, #0, v21       ; the next invocation of the CTA\n"
   "lds.b8 v23, v21\n"
   "shl v24, v21, #1\n"
   "lds.b16 v25, v24 +128\n"
   "stg.b32 _, v6, v23 +16\n"
   "stg.b32 _, v6, v25 +20\n"
   "mov v30, #0x55667788\n"
   "stp.b32 _, _, v30\n"
   "stp.b8 _, _, v14 +1\n"
   "stp.b16 _, _, v14 +2\n"
   "ldp.b32 v31, _\n"
   "ldp.b8 v32, _ +1\n"
   "ldp.b16 v33, _ +2\n"
   "stg.b32 _, v6, v31 +24\n"
   "stg.b32 _, v6, v32 +28\n"
   "stg.b32 _, v6, v33 +32\n"
   "ldg.b8 u15, u0 +5           ; a uniform address\n"
   "mov v36, u15\n"
   "stg.b32 _, v6, v36 +40\n"
   "lds.b8 u16, v21             ; the first active lane's\n"
   "mov v37, u16\n"
   "stg.b32 _, v6, v37 +44\n"
   "and v34, v1, #1\n"
   "if _, v34 @done\n"
   "   stg.b8 _, v16, v14 +%u   ; bytes[2N + i], odd i\n"
   "   ldg.b8 v35, v4\n"
   "   stg.b32 _, v6, v35 +36\n"
   "done: endif\n"
   "exit\n";

static uint32_t val(uint32_t i)
{
   return i * 16777619u + 3735879680u;
}

static void test_bytes_and_halfwords(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t src = eut_alloc(&t, 4ull * N, 64), out = eut_alloc(&t, 4ull * SUB_OUT * N, 64);
      uint64_t bytes = eut_alloc(&t, 4ull * N + 16, 64), halves = eut_alloc(&t, 2ull * N + 16, 64);
      uint8_t *s = eut_ptr(&t, src), *b = eut_ptr(&t, bytes);
      uint16_t *h = eut_ptr(&t, halves);
      uint32_t *o = eut_ptr(&t, out);
      uint64_t rng = 99 + w;
      for (uint32_t i = 0; i < 4 * N; i++)
         s[i] = (uint8_t)eut_rand(&rng);
      memset(b, SENT8, 4 * N + 16);
      memset(h, SENT8, 2 * N + 16);
      for (uint32_t i = 0; i < SUB_OUT * N; i++)
         o[i] = SENT;
      uint64_t root[5] = {src, out, bytes, halves, 0x11223344};
      struct eut_launch l = {.program = eut_programf(&t, sub_text, w, N, 3 * N, 2 * N),
                             .grid = {GROUPS}, .size = {CTA}, .shared_bytes = SUB_SHARED,
                             .private_bytes = 4, .root = eut_root(&t, root, 5)};
      eut_run(&t, &l, "byte and halfword accesses");
      uint32_t bad = 0;
      for (uint32_t i = 0; i < N; i++) {
         uint32_t local = i % CTA, cta0 = i - local, first = cta0 + local / w * w;
         uint32_t next = cta0 + (local + 1) % CTA, first_next = cta0 + (local / w * w + 1) % CTA;
         uint32_t v = val(i);
         bool odd = i & 1;
         uint32_t want[SUB_OUT] = {
            s[4 * i + 1], s[4 * i + 2] | (uint32_t)s[4 * i + 3] << 8, s[4 * i + 3],
            s[4 * first + 2] | (uint32_t)s[4 * first + 3] << 8,
            val(next) & 0xffu, val(next) & 0xffffu,
            0x88u | (v & 0xffu) << 8 | (v & 0xffffu) << 16, v & 0xffu, v & 0xffffu,
            odd ? s[4 * i] : SENT, s[5], val(first_next) & 0xffu};
         for (uint32_t k = 0; k < SUB_OUT; k++) {
            if (o[SUB_OUT * i + k] != want[k] && bad++ < 8)
               HWT_CHECK(false, "W=%u invocation %u dword %u: 0x%08x, expected 0x%08x", w, i,
                         k, o[SUB_OUT * i + k], want[k]);
         }
         uint8_t wb[3] = {(uint8_t)v, 0x44, odd ? (uint8_t)v : SENT8};
         for (uint32_t k = 0; k < 3; k++) {
            if (b[k * N + i] != wb[k] && bad++ < 8)
               HWT_CHECK(false, "W=%u invocation %u: bytes[%uN + i] = 0x%02x, expected 0x%02x",
                         w, i, k, b[k * N + i], wb[k]);
         }
         if (h[i] != (uint16_t)v && bad++ < 8)
            HWT_CHECK(false, "W=%u invocation %u: halfwords[i] = 0x%04x, expected 0x%04x", w, i,
                      h[i], (uint16_t)v);
         /* Lanes 2j and 2j + 1 stored bytes[3N + j]: lane order, the odd one's. */
         if (odd && b[3 * N + i / 2] != (uint8_t)v && bad++ < 8)
            HWT_CHECK(false, "W=%u: bytes[3N + %u] = 0x%02x, expected invocation %u's 0x%02x", w,
                      i / 2, b[3 * N + i / 2], i, (uint8_t)v);
      }
      for (uint32_t k = 3 * N + N / 2; k < 4 * N + 16; k++) {
         if (b[k] != SENT8 && bad++ < 8)
            HWT_CHECK(false, "W=%u: bytes[%u] written (0x%02x)", w, k, b[k]);
      }
      for (uint32_t k = N; k < N + 8; k++) {
         if (h[k] != (SENT8 | SENT8 << 8) && bad++ < 8)
            HWT_CHECK(false, "W=%u: halfwords[%u] written (0x%04x)", w, k, h[k]);
      }
      eut_fini(&t);
   }
}

/* Lane 3's access (at bad, an offset into a 4096-byte allocation followed
 * by its guard page, or a shared or private address) faults at W=w; the
 * other lanes of its warp, and the next warp, access ok, which works. The
 * report names the access (why) and the lane. */
static void expect_sub_fault(uint32_t w, const char *access, uint32_t shared, uint32_t priv,
                             uint32_t bad, uint32_t ok, const char *why)
{
   struct eut t;
   eut_init(&t, NULL);
   uint64_t buf = hwt_alloc(t.gpu, 4096);
   uint64_t root[1] = {buf};
   uint64_t prog = eut_programf(&t,
                                ".warp %u\n"
                                "ldr.b64 u0 +0\n"
                                "s2r.local_index v0\n"
                                "icmp.eq v1, v0, #3\n"
                                "mov u10, #%u\n"
                                "mov v3, #%u\n"
                                "sel v2, v1, u10, v3\n"
                                "zext64 v4, v2\n"
                                "iadd64 v4, v4, u0\n"
                                "mov v8, #0x1234\n"
                                "%s\n"
                                "exit\n",
                                w, bad, ok, access);
   struct eut_launch l = {.program = prog, .size = {2 * w}, .shared_bytes = shared,
                          .private_bytes = priv, .root = eut_root(&t, root, 1)};
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
   enum hw_wait_result r = eut_submit(&t, &pb);
   const char *report = hw_gpu_fault_report(t.gpu);
   HWT_CHECK(r == HW_WAIT_LOST && report && strstr(report, why) && strstr(report, ", lane 3"),
             "W=%u \"%s\" at %u: %s (expected a fault \"%s\" of lane 3)%s%s", w, access, bad,
             r == HW_WAIT_LOST ? "lost" : "ran", why, report ? ":\n" : "", report ? report : "");
   eut_fini(&t);
}

static void test_sub_faults(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      /* Global: the others access the allocation's last bytes. */
      expect_sub_fault(w, "ldg.b16 v9, v4", 0, 0, 4096, 4094,
                       "global load of 2 bytes at 0x");
      expect_sub_fault(w, "ldg.b16 v9, v4", 0, 0, 4096, 4094, "000: invalid address");
      expect_sub_fault(w, "stg.b16 _, v4, v8", 0, 0, 4095, 4094,
                       "global store of 2 bytes at 0x");
      expect_sub_fault(w, "stg.b16 _, v4, v8", 0, 0, 4095, 4094, "fff: misaligned");
      expect_sub_fault(w, "ldg.b8 v9, v4", 0, 0, 4096, 4095, "global load of 1 bytes at 0x");
      expect_sub_fault(w, "stg.b8 _, v4, v8", 0, 0, 4096, 4095, "000: invalid address");
      /* Shared memory of 13 bytes: a halfword at 12 straddles its end. */
      expect_sub_fault(w, "lds.b16 v9, v2", 13, 0, 12, 10,
                       "shared load of 2 bytes at 12: out of range");
      expect_sub_fault(w, "sts.b8 _, v2, v8", 13, 0, 13, 12,
                       "shared store of 1 bytes at 13: out of range");
      expect_sub_fault(w, "sts.b16 _, v2, v8", 13, 0, 5, 10,
                       "shared store of 2 bytes at 5: misaligned");
      /* Private memory of 8 bytes per invocation. */
      expect_sub_fault(w, "ldp.b16 v9, v2", 0, 8, 7, 6,
                       "private load of 2 bytes at 7: misaligned");
      expect_sub_fault(w, "stp.b16 _, v2, v8", 0, 8, 8, 6,
                       "private store of 2 bytes at 8: out of range");
   }
}

int main(void)
{
   HWT_RUN(test_memory);
   HWT_RUN(test_bytes_and_halfwords);
   HWT_RUN(test_sub_faults);
   return hwt_finish();
}
