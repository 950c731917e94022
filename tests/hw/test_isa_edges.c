/*
 * test_isa_edges: every ALU and ALU64 instruction on edge values, at every
 * warp width, with edge values also in inactive lanes.
 *
 * Pins down, for each case of isa_ref.c (every opcode; every ICMP, ICMP64
 * and FCMP comparison; every FMATH function):
 * - NaNs (quiet, signalling, negative), +-inf, denormals, +-0, FLT_MAX,
 *   conversion limits (+-2^31, 2^32 and their neighbours), rounding ties;
 *   for binary64 the same, and the edges of binary32 and binary16 (largest
 *   finite values and the ties above them, least normals and subnormals,
 *   ties of the significand) for D2F and D2H in every rounding mode;
 *   binary16 sums and products that tie or overflow; 64-bit integers a
 *   double rounds; IDP4 bytes at -128, 127, 255 and accumulators at the
 *   saturation limits;
 *   0, +-1, INT_MIN, INT_MAX, INT_MIN / -1, zero divisors; shift counts
 *   0..63 and beyond (64, 65, 127, 2^31, 2^32-1); bit-field offsets and
 *   counts past bit 31; 64-bit limits; crossed pairwise (each value of a
 *   with each value of b), the third source spread over them;
 * - the instruction sits inside IF mask .. ENDIF, and runs twice with
 *   complementary masks, so that every input tuple is computed once in an
 *   active lane (result: the C reference with the semantics hw_isa.h and
 *   hw_interp.c define) and once in an inactive lane (its destination keeps
 *   the sentinel it had): lanes are computed whether active or not, so the
 *   interpreter must be free of C undefined behaviour for all of them, which
 *   the ASan+UBSan build (-fno-sanitize-recover) turns into a crash;
 * - the same with b uniform (four edge values, inside the IF too), with b an
 *   immediate (two edge values), and with uniform sources and destination
 *   (four edge triples, no IF), each over every edge value of a;
 * - results bit for bit (any NaN for a NaN); FMATH results as the C
 *   library's float functions within 4 ULP, NaN, infinities and zeros
 *   exact.
 */
#include "isa_ref.h"

#define CTA 128u
#define GROUPS 16u
#define N (CTA * GROUPS)
/* The uniform and immediate forms vary only a across lanes: 3 CTAs cover
 * every edge value of a (and stay off the command processor's inline path,
 * which is for launches of at most 256 invocations). */
#define GROUPS_SMALL 3u

struct job {
   const struct isa_case *k;
   enum isa_form f;
   bool masked;
   uint32_t n;             /* invocations */
   const uint64_t *x[3];
   const uint32_t *mask;   /* NULL: all active */
   uint64_t u[3];
   uint32_t imm;
   uint64_t r_va;
};

static uint32_t reported;

static void check_job(struct eut *t, uint32_t w, const struct job *j)
{
   const struct isa_case *k = j->k;
   const uint64_t *r = eut_ptr(t, j->r_va);
   uint32_t bad = 0;
   for (uint32_t i = 0; i < j->n; i++) {
      bool active = !j->mask || j->mask[i];
      uint64_t op[3] = {0, 0, 0}, want;
      for (int s = 0; s < k->nsrc; s++)
         op[s] = isa_form_operand(k, j->f, s, j->x[s][i], j->u[s], j->imm);
      if (active)
         want = isa_form_stored(k, j->f, isa_ref(k, op[0], op[1], op[2]), j->x[0][i]);
      else
         want = (uint64_t)SENT_V_HI << 32 | SENT_V_LO;
      uint64_t got = r[i];
      bool ok = active ? (k->dst64 || (got >> 32) == (want >> 32)) && isa_ref_match(k, got, want)
                       : got == want;
      if (!ok) {
         if (bad++ < 3 && reported++ < 60) {
            char ta[48], tb[48], tc[48];
            HWT_CHECK(false, "W=%u %s (%s%s) invocation %u (%s): a=%s b=%s c=%s: got "
                      "0x%016llx, expected 0x%016llx", w, k->mnemonic, isa_form_names[j->f],
                      j->masked ? ", in IF" : "", i, active ? "active" : "inactive",
                      isa_value_text(k, 0, op[0], ta, sizeof(ta)),
                      k->nsrc > 1 ? isa_value_text(k, 1, op[1], tb, sizeof(tb)) : "-",
                      k->nsrc > 2 ? isa_value_text(k, 2, op[2], tc, sizeof(tc)) : "-",
                      (unsigned long long)got, (unsigned long long)want);
         } else {
            atomic_fetch_add(&hwt_failures, 1);
         }
      }
   }
}

struct batch {
   struct eut t;
   struct hwt_pb pb;
   struct job jobs[512];
   uint32_t njobs;
   uint32_t w;
   uint32_t *masks[2];      /* host copies */
   uint64_t mask_va[2];
};

static void batch_start(struct batch *b)
{
   eut_init(&b->t, NULL);
   eut_begin(&b->t, &b->pb);
   for (int m = 0; m < 2; m++) {
      b->mask_va[m] = eut_alloc(&b->t, 4 * N, 64);
      b->masks[m] = eut_ptr(&b->t, b->mask_va[m]);
      for (uint32_t i = 0; i < N; i++)
         b->masks[m][i] = (((i ^ (i >> 3) ^ (i >> 5)) & 1) ^ (uint32_t)m) ? 0x80000000u >> (i % 32)
                                                                         : 0;
   }
   b->njobs = 0;
}

static void batch_flush(struct batch *b)
{
   eut_submit_ok(&b->t, &b->pb, "edge cases");
   for (uint32_t i = 0; i < b->njobs; i++)
      check_job(&b->t, b->w, &b->jobs[i]);
   eut_fini(&b->t);
}

static void add_launch(struct batch *b, uint64_t program, const uint64_t in_va[3],
                       const struct job *j, int mask)
{
   HWT_REQUIRE(b->njobs < sizeof(b->jobs) / sizeof(b->jobs[0]), "too many jobs");
   struct job *nj = &b->jobs[b->njobs++];
   *nj = *j;
   nj->mask = mask >= 0 ? b->masks[mask] : NULL;
   nj->n = j->f == FORM_V ? N : CTA * GROUPS_SMALL;
   nj->r_va = eut_alloc(&b->t, 8 * N, 64);
   uint64_t root[ROOT_WORDS] = {in_va[0], in_va[1], in_va[2], nj->r_va, j->u[0], j->u[1],
                                j->u[2], mask >= 0 ? b->mask_va[mask] : 0};
   struct eut_launch l = {.program = program, .grid = {nj->n / CTA}, .size = {CTA},
                          .root = eut_root(&b->t, root, ROOT_WORDS)};
   b->pb.p = hw_emit_launch(b->pb.p, eut_desc(&b->t, &l));
}

static uint64_t case_program(struct batch *b, const struct isa_case *k, enum isa_form f,
                             uint32_t imm, bool masked)
{
   struct eut_text text = {0};
   isa_case_program(&text, k, f, b->w, imm, masked);
   uint64_t va = eut_program(&b->t, text.s);
   eut_text_free(&text);
   return va;
}

static void run_case(struct batch *b, const struct isa_case *k, uint64_t *rng)
{
   const uint64_t *e[3];
   uint32_t n[3] = {1, 1, 1};
   for (int s = 0; s < k->nsrc; s++)
      n[s] = isa_edge_values(k, s, &e[s]);
   uint64_t in_va[3];
   const uint64_t *x[3];
   for (int s = 0; s < 3; s++) {
      in_va[s] = eut_alloc(&b->t, 8 * N, 64);
      uint64_t *p = eut_ptr(&b->t, in_va[s]);
      for (uint32_t i = 0; i < N; i++) {
         if (s >= k->nsrc)
            p[i] = eut_rand(rng);
         else if (s == 0)
            p[i] = e[0][i % n[0]];
         else if (s == 1)
            p[i] = e[1][(i / n[0]) % n[1]];
         else
            p[i] = e[2][(uint32_t)((i * 2654435761u) >> 7) % n[2]];
      }
      x[s] = p;
   }
   HWT_CHECK(k->nsrc < 2 || n[0] * n[1] <= N, "%s: the edge pairs do not fit", k->mnemonic);
   struct job j = {.k = k, .x = {x[0], x[1], x[2]}};

   /* Vector operands, in IF, both masks. */
   j.f = FORM_V;
   j.masked = true;
   uint64_t prog = case_program(b, k, FORM_V, 0, true);
   add_launch(b, prog, in_va, &j, 0);
   add_launch(b, prog, in_va, &j, 1);

   /* b (a) uniform, in IF: four edge values. */
   int us = k->nsrc >= 2 ? 1 : 0;
   j.f = FORM_UB;
   prog = case_program(b, k, FORM_UB, 0, true);
   for (int v = 0; v < 4; v++) {
      uint32_t pick[4] = {n[us] - 1, n[us] / 2, 4 % n[us], 1 % n[us]};
      memset(j.u, 0, sizeof(j.u));
      j.u[us] = e[us][pick[v]];
      add_launch(b, prog, in_va, &j, v & 1);
   }

   /* b (a) immediate: two edge values, all lanes. */
   j.f = FORM_IB;
   j.masked = false;
   memset(j.u, 0, sizeof(j.u));
   for (int v = 0; v < 2; v++) {
      j.imm = (uint32_t)e[us][eut_rand(rng) % n[us]];
      add_launch(b, case_program(b, k, FORM_IB, j.imm, false), in_va, &j, -1);
   }

   /* Uniform sources and destination: four edge triples. */
   j.f = FORM_UU;
   j.imm = 0;
   prog = case_program(b, k, FORM_UU, 0, false);
   for (int v = 0; v < 4; v++) {
      for (int s = 0; s < k->nsrc; s++)
         j.u[s] = e[s][eut_rand(rng) % n[s]];
      add_launch(b, prog, in_va, &j, -1);
   }
}

static void test_edges(void)
{
   static struct isa_case cases[ISA_MAX_CASES];
   uint32_t count = isa_cases(cases, ISA_MAX_CASES);
   static struct batch b;
   for (int wi = 0; wi < 4; wi++) {
      b.w = eut_widths[wi];
      uint64_t rng = 0xabcdefull + b.w;
      batch_start(&b);
      for (uint32_t c = 0; c < count; c++) {
         if (b.t.programs + 4 > EUT_MAX_PROGRAMS || b.njobs + 12 > 512) {
            batch_flush(&b);
            batch_start(&b);
         }
         run_case(&b, &cases[c], &rng);
      }
      batch_flush(&b);
      fprintf(stderr, "   W=%u: %u cases\n", b.w, count);
   }
}

int main(void)
{
   HWT_RUN(test_edges);
   return hwt_finish();
}
