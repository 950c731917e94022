/*
 * test_eu_flow: divergent structured control flow, per lane against C, at
 * every warp width, in CTAs of 100 invocations (partial last warps), 3 CTAs.
 * Inputs are random per lane, except that every third warp gets one value
 * in all its lanes (so whole warps take one side and the "exec became 0"
 * jumps run).
 *
 * Pins down the mask-stack contract of hw_isa.h / hw_interp.c:
 * - nested IF / ELSE / ENDIF three deep, IF without ELSE, JMP over code;
 *   IF jumps to its ELSE (or ENDIF) when no lane takes it, ELSE to its
 *   ENDIF when no lane is left for it;
 * - a loop with per-lane trip counts (BRK at the top of the body, ENDLOOP
 *   back to the header while lanes remain);
 * - BRK and CONT from inside nested IFs (then and else sides), with
 *   CONTJOIN re-adding the continued lanes before the loop's continue
 *   block; as hw_isa.h says, a BRK/CONT/RET that leaves no lane active
 *   jumps to the closer of the innermost open construct (its ELSE/ENDIF),
 *   and a JEZ after that closer skips to the next closer out when no lane
 *   is left; nested loops with BRK in the inner one and CONT in the outer;
 * - SWITCH / ENDSWITCH: BRK leaves the switch (the lanes rejoin at
 *   ENDSWITCH), BRK.mod1 leaves the loop around it;
 * - early RET: at top level, inside an IF inside a loop (the returned
 *   lanes store nothing afterwards; the others go on), and whole warps
 *   returning while the other warps of the CTA go on.
 * (A BRK that jumps past the innermost closer, leaving IF entries on the
 * mask stack, is a program error: test_eu_faults checks that it faults.)
 */
#include "eut.h"

#define CTA 100u
#define GROUPS 3u
#define N (CTA * GROUPS)
#define UNWRITTEN 0xdeadbeefu

static const char *const prologue =
   ".warp %u\n"
   "ldr.b64 u0 +0\n"
   "ldr.b64 u2 +8\n"
   "ldr.b64 u4 +16\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u8\n"
   "s2r.group_size_x u9\n"
   "imad v1, u8, u9, v0\n"
   "shl v2, v1, #2\n"
   "zext64 v4, v2\n"
   "iadd64 v6, v4, u0\n"
   "ldg.b32 v10, v6            ; x\n"
   "iadd64 v6, v4, u2          ; &out[i]\n"
   "iadd64 v8, v4, u4          ; &out2[i]\n"
   "mov v11, #0\n";

typedef void (*ref_fn)(uint32_t x, uint32_t *out, uint32_t *out2);

static void make_inputs(uint32_t *x, uint32_t w, uint64_t seed)
{
   uint64_t rng = seed;
   for (uint32_t i = 0; i < N; i++) {
      uint32_t local = i % CTA, warp = local / w;
      if (warp % 3 == 0) {
         uint64_t s = seed ^ (i / CTA * 977 + warp);
         x[i] = (uint32_t)eut_rand(&s);
      } else {
         x[i] = (uint32_t)eut_rand(&rng);
      }
   }
}

/* Runs body (after the prologue) at every width and compares out and out2
 * with ref per invocation. cfg_lost: the run is expected to work; a lost
 * GPU is a failure whose report is shown. */
static void run_flow(const char *name, const char *body, ref_fn ref)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t in = eut_alloc(&t, 4 * N, 64), out = eut_alloc(&t, 4 * N, 64),
               out2 = eut_alloc(&t, 4 * N, 64);
      uint32_t *x = eut_ptr(&t, in), *o = eut_ptr(&t, out), *o2 = eut_ptr(&t, out2);
      make_inputs(x, w, 0x51ed + w);
      for (uint32_t i = 0; i < N; i++)
         o[i] = o2[i] = UNWRITTEN;
      uint64_t root[3] = {in, out, out2};
      struct eut_text text = {0};
      eut_text_add(&text, prologue, w);
      eut_text_add(&text, "%s", body);
      struct eut_launch l = {.program = eut_program(&t, text.s), .grid = {GROUPS},
                             .size = {CTA}, .root = eut_root(&t, root, 3)};
      eut_text_free(&text);
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
      enum hw_wait_result r = eut_submit(&t, &pb);
      if (r != HW_WAIT_SATISFIED) {
         HWT_CHECK(false, "%s W=%u: the launch did not complete (wait %d):\n%s", name, w, (int)r,
                   hw_gpu_fault_report(t.gpu) ? hw_gpu_fault_report(t.gpu) : "(no fault)");
         eut_fini(&t);
         continue;
      }
      uint32_t bad = 0;
      for (uint32_t i = 0; i < N; i++) {
         uint32_t want = UNWRITTEN, want2 = UNWRITTEN;
         ref(x[i], &want, &want2);
         if ((o[i] != want || o2[i] != want2) && bad++ < 5)
            HWT_CHECK(false, "%s W=%u invocation %u (x=0x%08x): got %u/%u, expected %u/%u",
                      name, w, i, x[i], o[i], o2[i], want, want2);
      }
      if (bad > 5)
         HWT_CHECK(false, "%s W=%u: %u invocations wrong", name, w, bad);
      eut_fini(&t);
   }
}

/* ---- nested IF / ELSE --------------------------------------------------------- */

static const char *const nested_if =
   "and v20, v10, #1\n"
   "if _, v20 @else1\n"
   "   iadd v11, v11, #1\n"
   "   and v20, v10, #2\n"
   "   if _, v20 @else2\n"
   "      iadd v11, v11, #10\n"
   "   else2: else @endif2\n"
   "      iadd v11, v11, #20\n"
   "      and v20, v10, #4\n"
   "      if _, v20 @else3\n"
   "         iadd v11, v11, #100\n"
   "      else3: else @endif3\n"
   "         iadd v11, v11, #200\n"
   "      endif3: endif\n"
   "   endif2: endif\n"
   "   imul v11, v11, #3\n"
   "else1: else @endif1\n"
   "   iadd v11, v11, #2\n"
   "   and v20, v10, #8\n"
   "   if _, v20 @endif4\n"
   "      iadd v11, v11, #1000\n"
   "      jmp @over\n"
   "      iadd v11, v11, #77777       ; jumped over\n"
   "      over: iadd v11, v11, #4000\n"
   "   endif4: endif\n"
   "endif1: endif\n"
   "iadd v11, v11, #5\n"
   "stg.b32 _, v6, v11\n"
   "exit\n";

static void ref_nested_if(uint32_t x, uint32_t *out, uint32_t *out2)
{
   uint32_t r = 0;
   if (x & 1) {
      r += 1;
      if (x & 2) {
         r += 10;
      } else {
         r += 20;
         if (x & 4)
            r += 100;
         else
            r += 200;
      }
      r *= 3;
   } else {
      r += 2;
      if (x & 8)
         r += 5000;
   }
   *out = r + 5;
}

static void test_nested_if(void)
{
   run_flow("nested IF/ELSE", nested_if, ref_nested_if);
}

/* ---- a loop with per-lane trip counts ----------------------------------------------- */

static const char *const trip_loop =
   "mov v21, #0\n"
   "and v22, v10, #31           ; n\n"
   "loop\n"
   "head: icmp.ge_u v20, v21, v22\n"
   "   brk _, v20 @end\n"
   "   imad v11, v21, v10, v11\n"
   "   iadd v11, v11, #1\n"
   "   iadd v21, v21, #1\n"
   "end: endloop @head\n"
   "stg.b32 _, v6, v11\n"
   "stg.b32 _, v8, v21\n"
   "exit\n";

static void ref_trip_loop(uint32_t x, uint32_t *out, uint32_t *out2)
{
   uint32_t acc = 0, k = 0, n = x & 31;
   for (; k < n; k++)
      acc += k * x + 1;
   *out = acc;
   *out2 = k;
}

static void test_trip_loop(void)
{
   run_flow("per-lane trip counts", trip_loop, ref_trip_loop);
}

/* ---- BRK and CONT inside nested IFs --------------------------------------------------- */

/* The targets are the closers of the innermost constructs; JEZ after a
 * closer skips on when every lane has left for an outer construct. */
static const char *const brk_cont =
   "mov v21, #0\n"
   "and v22, v10, #15           ; n\n"
   "loop\n"
   "head: icmp.ge_u v20, v21, v22\n"
   "   brk _, v20 @cj\n"
   "   imul v23, v21, #0x9e3779b1\n"
   "   xor v23, v23, v10\n"
   "   imul v23, v23, #0x85ebca6b\n"
   "   shr_u v24, v23, #13\n"
   "   xor v23, v23, v24         ; x_k\n"
   "   and v20, v23, #1\n"
   "   if _, v20 @else1\n"
   "      and v20, v23, #2\n"
   "      if _, v20 @endif2\n"
   "         iadd v11, v11, #1\n"
   "         cont _, v20 @endif2\n"
   "      endif2: endif\n"
   "      jez @else1\n"
   "      iadd v11, v11, #10\n"
   "      and v20, v23, #4\n"
   "      if _, v20 @endif3\n"
   "         and v25, v10, #7\n"
   "         icmp.gt_u v20, v21, v25\n"
   "         brk _, v20 @endif3\n"
   "         iadd v11, v11, #20000\n"
   "      endif3: endif\n"
   "      jez @else1\n"
   "   else1: else @endif1\n"
   "      iadd v11, v11, #100\n"
   "      and v20, v23, #24\n"
   "      icmp.eq v20, v20, #24\n"
   "      cont _, v20 @endif1\n"
   "      iadd v11, v11, #1000\n"
   "   endif1: endif\n"
   "   jez @cj\n"
   "   iadd v11, v11, #7\n"
   "cj: contjoin @end\n"
   "   iadd v21, v21, #1\n"
   "end: endloop @head\n"
   "stg.b32 _, v6, v11\n"
   "stg.b32 _, v8, v21\n"
   "exit\n";

static void ref_brk_cont(uint32_t x, uint32_t *out, uint32_t *out2)
{
   uint32_t acc = 0, k = 0, n = x & 15;
   for (;; k++) {
      if (k >= n)
         break;
      uint32_t xk = (k * 0x9e3779b1u) ^ x;
      xk *= 0x85ebca6bu;
      xk ^= xk >> 13;
      if (xk & 1) {
         if (xk & 2) {
            acc += 1;
            continue;
         }
         acc += 10;
         if (xk & 4) {
            if (k > (x & 7))
               break;
            acc += 20000;
         }
      } else {
         acc += 100;
         if ((xk & 24) == 24)
            continue;
         acc += 1000;
      }
      acc += 7;
   }
   *out = acc;
   *out2 = k;
}

static void test_brk_cont(void)
{
   run_flow("BRK/CONT in nested IFs", brk_cont, ref_brk_cont);
}

/* ---- nested loops ------------------------------------------------------------------------ */

static const char *const nested_loops =
   "mov v21, #0                 ; i\n"
   "and v22, v10, #7            ; n1\n"
   "shr_u v26, v10, #8\n"
   "and v26, v26, #3\n"
   "loop\n"
   "ohead: icmp.ge_u v20, v21, v22\n"
   "   brk _, v20 @ocj\n"
   "   shr_u v20, v10, v21\n"
   "   and v20, v20, #1\n"
   "   cont _, v20 @ocj\n"
   "   mov v27, #0                 ; j\n"
   "   iadd v28, v21, v26          ; inner limit\n"
   "   loop\n"
   "   ihead: icmp.ge_u v20, v27, v28\n"
   "      brk _, v20 @iend\n"
   "      imad v11, v21, v27, v11\n"
   "      iadd v11, v11, #1\n"
   "      icmp.gt_u v20, v11, #40\n"
   "      brk _, v20 @iend\n"
   "      iadd v27, v27, #1\n"
   "   iend: endloop @ihead\n"
   "   iadd v11, v11, #3\n"
   "ocj: contjoin @oend\n"
   "   iadd v21, v21, #1\n"
   "oend: endloop @ohead\n"
   "stg.b32 _, v6, v11\n"
   "exit\n";

static void ref_nested_loops(uint32_t x, uint32_t *out, uint32_t *out2)
{
   uint32_t acc = 0, n1 = x & 7, extra = (x >> 8) & 3;
   for (uint32_t i = 0; i < n1; i++) {
      if ((x >> i) & 1)
         continue;
      for (uint32_t j = 0; j < i + extra; j++) {
         acc += i * j + 1;
         if (acc > 40)
            break;
      }
      acc += 3;
   }
   *out = acc;
}

static void test_nested_loops(void)
{
   run_flow("nested loops", nested_loops, ref_nested_loops);
}

/* ---- SWITCH ---------------------------------------------------------------------------- */

static const char *const switch_loop =
   "mov v21, #0\n"
   "and v22, v10, #15\n"
   "loop\n"
   "head: icmp.ge_u v20, v21, v22\n"
   "   brk _, v20 @end\n"
   "   imul v23, v21, #0x9e3779b1\n"
   "   xor v23, v23, v10\n"
   "   imul v23, v23, #0x85ebca6b\n"
   "   shr_u v24, v23, #13\n"
   "   xor v23, v23, v24\n"
   "   irem_u v23, v23, #5\n"
   "   switch\n"
   "      icmp.eq v24, v23, #0           ; case 0: += 1, break\n"
   "      if _, v24 @e1\n"
   "         iadd v11, v11, #1\n"
   "         brk _, v24 @e1\n"
   "      e1: endif\n"
   "      jez @es\n"
   "      icmp.eq v24, v23, #1           ; case 1: += 10, leave the loop\n"
   "      if _, v24 @e2\n"
   "         iadd v11, v11, #10\n"
   "         brk.mod1 _, v24 @e2\n"
   "      e2: endif\n"
   "      jez @es\n"
   "      icmp.eq v24, v23, #2           ; case 2: += 100, fall through\n"
   "      if _, v24 @e3\n"
   "         iadd v11, v11, #100\n"
   "      e3: endif\n"
   "      iadd v11, v11, #1000           ; case 3 and default: += 1000\n"
   "   es: endswitch\n"
   "   jez @end\n"
   "   iadd v21, v21, #1\n"
   "end: endloop @head\n"
   "stg.b32 _, v6, v11\n"
   "stg.b32 _, v8, v21\n"
   "exit\n";

static void ref_switch_loop(uint32_t x, uint32_t *out, uint32_t *out2)
{
   uint32_t acc = 0, k = 0, n = x & 15;
   for (; k < n; k++) {
      uint32_t xk = (k * 0x9e3779b1u) ^ x;
      xk *= 0x85ebca6bu;
      xk ^= xk >> 13;
      switch (xk % 5) {
      case 0:
         acc += 1;
         break;
      case 1:
         acc += 10;
         goto done;
      case 2:
         acc += 100;
         /* fall through */
      default:
         acc += 1000;
      }
   }
done:
   *out = acc;
   *out2 = k;
}

static void test_switch(void)
{
   run_flow("SWITCH in a loop", switch_loop, ref_switch_loop);
}

/* ---- early RET ---------------------------------------------------------------------------- */

static const char *const early_ret =
   "and v20, v10, #1\n"
   "ret _, v20 @first\n"
   "first: imul v11, v10, #2\n"
   "stg.b32 _, v6, v11\n"
   "mov v21, #0\n"
   "and v22, v10, #15\n"
   "shr_u v24, v10, #4\n"
   "loop\n"
   "head: icmp.ge_u v20, v21, v22\n"
   "   brk _, v20 @end\n"
   "   shr_u v23, v24, v21\n"
   "   and v23, v23, #3\n"
   "   icmp.eq v23, v23, #0\n"
   "   if _, v23 @else5\n"
   "      ret _, v23 @else5\n"
   "      iadd v11, v11, #55555\n"
   "   else5: else @endif5\n"
   "      iadd v11, v11, v21\n"
   "   endif5: endif\n"
   "   jez @end\n"
   "   iadd v21, v21, #1\n"
   "end: endloop @head\n"
   "stg.b32 _, v8, v11\n"
   "exit\n";

static void ref_early_ret(uint32_t x, uint32_t *out, uint32_t *out2)
{
   if (x & 1)
      return;
   uint32_t r = x * 2;
   *out = r;
   for (uint32_t k = 0; k < (x & 15); k++) {
      if ((((x >> 4) >> k) & 3) == 0)
         return;
      r += k;
   }
   *out2 = r;
}

static void test_early_ret(void)
{
   run_flow("early RET", early_ret, ref_early_ret);
}

int main(void)
{
   HWT_RUN(test_nested_if);
   HWT_RUN(test_trip_loop);
   HWT_RUN(test_brk_cont);
   HWT_RUN(test_nested_loops);
   HWT_RUN(test_switch);
   HWT_RUN(test_early_ret);
   return hwt_finish();
}
