/*
 * test_isa_alu: every ALU and ALU64 instruction of hw_isa.h against the C
 * references of isa_ref.c, at every warp width (8, 16, 32, 64), on typical
 * values.
 *
 * Pins down, for each opcode (ICMP, ICMP64 and FCMP once per comparison,
 * FMATH1/FMATH2 once per function), one generated program per operand form:
 * - all-vector operands; b (or a) from a uniform register; b (or a) an
 *   immediate; the immediate in the other slot (a of two sources, c of
 *   three); a uniform destination from vector sources (the first active
 *   lane's result, stored by every lane through STG's uniform data
 *   operand); uniform destination and uniform sources; the destination
 *   aliasing source a;
 * - 64-bit operands as register pairs (uniform pairs, sign-extended
 *   immediates), 32-bit results leaving the pair's high register alone;
 * - the binary64 (register pairs), binary16 (bits 0-15, 16-31 zero) and
 *   IDP4 instructions of ISA version 3 the same way: F2H, D2F and D2H in
 *   each rounding mode, DCMP and HCMP in each comparison, IDP4 in each
 *   signedness, wrapping and saturating;
 * - integer and float results bit for bit (any NaN for a NaN), FMATH results
 *   within the precision Vulkan requires of the double-precision libm value
 *   (sin/cos absolute 2^-11 on [-pi, pi], exp/exp2 3 + 2|x| ULP, log/log2 3
 *   ULP or absolute 2^-21 on [0.5, 2], asin/acos/atan/atan2 4096 ULP, 1/x
 *   2.5 ULP, ldexp and fmod exact, the rest inherited from those);
 * - CTAs of 100 invocations (partial last warps at every W), 3 of them, run
 *   by the execution-unit workers.
 * Also S2R: every special register at every W in a 5x3x2 CTA of a 2x3x2
 * grid with base workgroup (1,2,3).
 */
#include "isa_ref.h"

#define CTA 100u
#define GROUPS 3u
#define N (CTA * GROUPS)

struct job {
   const struct isa_case *k;
   enum isa_form f;
   const uint64_t *x[3];   /* the case's inputs (host copies) */
   uint64_t u[3];
   uint32_t imm;
   uint64_t r_va;
};

static uint32_t failures_reported;

static void check_job(struct eut *t, uint32_t w, const struct job *j)
{
   const struct isa_case *k = j->k;
   const uint64_t *r = eut_ptr(t, j->r_va);
   uint32_t bad = 0;
   for (uint32_t i = 0; i < N; i++) {
      uint32_t local = i % CTA;
      uint32_t from = j->f == FORM_UD ? i - local + local / w * w : i;
      uint64_t op[3] = {0, 0, 0};
      for (int s = 0; s < k->nsrc; s++)
         op[s] = isa_form_operand(k, j->f, s, j->x[s][from], j->u[s], j->imm);
      uint64_t want = isa_form_stored(k, j->f, isa_ref(k, op[0], op[1], op[2]), j->x[0][i]);
      uint64_t got = r[i];
      bool ok;
      char why[256] = "";
      if (k->cmp == REF_EXACT || k->dst64) {
         ok = isa_ref_match(k, got, want);
      } else if ((got >> 32) != (want >> 32)) {
         ok = false;
      } else if (k->cmp == REF_FMATH) {
         ok = isa_fmath_within_vulkan(k, eut_f((uint32_t)got), (uint32_t)op[0], (uint32_t)op[1],
                                      why, sizeof(why));
      } else {
         ok = isa_ref_match(k, got, want);
      }
      if (!ok) {
         if (bad++ < 3 && failures_reported++ < 60) {
            char ta[48], tb[48], tc[48];
            HWT_CHECK(false, "W=%u %s (%s) invocation %u: a=%s b=%s c=%s: got 0x%016llx, "
                      "expected 0x%016llx %s", w, k->mnemonic, isa_form_names[j->f], i,
                      isa_value_text(k, 0, op[0], ta, sizeof(ta)),
                      k->nsrc > 1 ? isa_value_text(k, 1, op[1], tb, sizeof(tb)) : "-",
                      k->nsrc > 2 ? isa_value_text(k, 2, op[2], tc, sizeof(tc)) : "-",
                      (unsigned long long)got, (unsigned long long)want, why);
         } else {
            atomic_fetch_add(&hwt_failures, 1);
         }
      }
   }
}

/* Runs the jobs built so far on t, checks them, and starts a fresh GPU
 * (see EUT_MAX_PROGRAMS). */
static void flush(struct eut *t, struct hwt_pb *pb, uint32_t w, struct job *jobs,
                  uint32_t *njobs, bool again)
{
   if (*njobs) {
      eut_submit_ok(t, pb, "ALU cases");
      for (uint32_t i = 0; i < *njobs; i++)
         check_job(t, w, &jobs[i]);
   }
   *njobs = 0;
   eut_fini(t);
   if (again) {
      eut_init(t, NULL);
      eut_begin(t, pb);
   }
}

static void test_alu_width(struct isa_case *cases, uint32_t count, uint32_t w)
{
   struct eut t;
   eut_init(&t, NULL);
   uint64_t rng = 0x1234567ull + w;
   struct job *jobs = calloc(EUT_MAX_PROGRAMS + FORM_COUNT * 2, sizeof(*jobs));
   HWT_REQUIRE(jobs, "out of memory");
   uint32_t njobs = 0, programs = 0;
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   for (uint32_t c = 0; c < count; c++) {
      const struct isa_case *k = &cases[c];
      if (t.programs + 2 * FORM_COUNT > EUT_MAX_PROGRAMS)
         flush(&t, &pb, w, jobs, &njobs, true);
      uint64_t in_va[3];
      const uint64_t *x[3];
      for (int s = 0; s < 3; s++) {
         in_va[s] = eut_alloc(&t, 8 * N, 64);
         uint64_t *p = eut_ptr(&t, in_va[s]);
         for (uint32_t i = 0; i < N; i++)
            p[i] = s < k->nsrc ? isa_gen_typical(k, s, &rng) : eut_rand(&rng);
         x[s] = p;
      }
      for (int f = 0; f < FORM_COUNT; f++) {
         if (!isa_form_applies(k, (enum isa_form)f))
            continue;
         int rounds = f == FORM_UB || f == FORM_IB || f == FORM_IX || f == FORM_UU ? 2 : 1;
         for (int round = 0; round < rounds; round++) {
            struct job *j = &jobs[njobs++];
            *j = (struct job){.k = k, .f = (enum isa_form)f};
            memcpy(j->x, x, sizeof(x));
            for (int s = 0; s < 3; s++)
               j->u[s] = s < k->nsrc ? isa_gen_typical(k, s, &rng) : 0;
            int imm_slot = f == FORM_IX ? (k->nsrc == 2 ? 0 : 2) : (k->nsrc >= 2 ? 1 : 0);
            j->imm = (uint32_t)isa_gen_typical(k, imm_slot, &rng);
            j->r_va = eut_alloc(&t, 8 * N, 64);
            struct eut_text text = {0};
            isa_case_program(&text, k, j->f, w, j->imm, false);
            uint64_t root[ROOT_WORDS] = {in_va[0], in_va[1], in_va[2], j->r_va,
                                         j->u[0], j->u[1], j->u[2], 0};
            struct eut_launch l = {.program = eut_program(&t, text.s),
                                   .grid = {GROUPS}, .size = {CTA},
                                   .root = eut_root(&t, root, ROOT_WORDS)};
            eut_text_free(&text);
            pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
            programs++;
         }
      }
   }
   flush(&t, &pb, w, jobs, &njobs, false);
   fprintf(stderr, "   W=%u: %u programs (%u cases)\n", w, programs, count);
   free(jobs);
}

static void test_alu(void)
{
   static struct isa_case cases[ISA_MAX_CASES];
   uint32_t count = isa_cases(cases, ISA_MAX_CASES);
   /* The table covers every ALU and ALU64 opcode. */
   uint32_t seen[ISA_OP_COUNT] = {0};
   for (uint32_t i = 0; i < count; i++)
      seen[cases[i].op]++;
   for (uint32_t op = 0; op < ISA_OP_COUNT; op++) {
      enum isa_class cls = isa_op_info[op].cls;
      if (cls == ISA_CLASS_ALU || cls == ISA_CLASS_ALU64)
         HWT_CHECK(seen[op] > 0, "no case for %s", isa_op_info[op].name);
   }
   HWT_CHECK(seen[ISA_OP_ICMP] == ISA_ICMP_COUNT && seen[ISA_OP_FCMP] == ISA_FCMP_COUNT &&
             seen[ISA_OP_FMATH1] + seen[ISA_OP_FMATH2] == ISA_FM_COUNT,
             "every comparison and function");
   for (int i = 0; i < 4; i++)
      test_alu_width(cases, count, eut_widths[i]);
}

/* ---- S2R ------------------------------------------------------------------------- */

static void test_s2r(void)
{
   const uint32_t sx = 5, sy = 3, sz = 2, gx = 2, gy = 3, gz = 2, bx = 1, by = 2, bz = 3;
   const uint32_t cta = sx * sy * sz, groups = gx * gy * gz;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      /* Each invocation writes its 19 special registers at
       * out[(flat group * cta + local index) * 19 ...]. */
      struct eut_text text = {0};
      eut_text_add(&text, ".warp %u\n"
                          "ldr.b64 u0 +0\n"
                          "s2r.local_index v0\n"
                          "s2r.group_id_x u2\n"
                          "s2r.group_id_y u3\n"
                          "s2r.group_id_z u4\n"
                          "isub u2, u2, #%u\n"
                          "isub u3, u3, #%u\n"
                          "isub u4, u4, #%u\n"
                          "imad u5, u4, #%u, u3\n"
                          "imad u5, u5, #%u, u2          ; flat group\n"
                          "imad v1, u5, #%u, v0\n"
                          "imul v1, v1, #%u\n"
                          "shl v1, v1, #2\n"
                          "zext64 v2, v1\n"
                          "iadd64 v2, v2, u0\n",
                   w, bx, by, bz, gy, gx, cta, ISA_SR_COUNT);
      for (uint32_t s = 0; s < ISA_SR_COUNT && isa_sreg_fixed(s); s++) {
         struct isa_inst in = {.op = ISA_OP_S2R, .dst = ISA_NONE, .a = ISA_NONE, .b = ISA_NONE,
                               .c = ISA_NONE, .mod = (uint16_t)s};
         char name[48];
         isa_disassemble(&in, name, sizeof(name));
         /* Uniform registers into uniform destinations, the rest vector. */
         bool uniform = s >= ISA_SR_WARP_ID;
         if (uniform)
            eut_text_add(&text, "%s u8\nstg.b32 _, v2, u8 +%u\n", name, 4 * s);
         else
            eut_text_add(&text, "%s v8\nstg.b32 _, v2, v8 +%u\n", name, 4 * s);
      }
      eut_text_add(&text, "exit\n");
      uint64_t out = eut_alloc(&t, 4ull * cta * groups * ISA_SR_COUNT, 64);
      uint64_t root = eut_root(&t, &out, 1);
      struct eut_launch l = {.program = eut_program(&t, text.s), .grid = {gx, gy, gz},
                             .base = {bx, by, bz}, .size = {sx, sy, sz}, .root = root};
      eut_text_free(&text);
      eut_run(&t, &l, "S2R");
      const uint32_t *o = eut_ptr(&t, out);
      uint32_t bad = 0;
      uint32_t warps = (cta + w - 1) / w;
      for (uint32_t g = 0; g < groups; g++) {
         for (uint32_t li = 0; li < cta; li++) {
            uint32_t want[ISA_SR_COUNT] = {
               [ISA_SR_LANE_ID] = li % w,
               [ISA_SR_LOCAL_ID_X] = li % sx,
               [ISA_SR_LOCAL_ID_Y] = li / sx % sy,
               [ISA_SR_LOCAL_ID_Z] = li / (sx * sy),
               [ISA_SR_LOCAL_INDEX] = li,
               [ISA_SR_WARP_ID] = li / w,
               [ISA_SR_WARP_COUNT] = warps,
               [ISA_SR_WARP_WIDTH] = w,
               [ISA_SR_GROUP_ID_X] = bx + g % gx,
               [ISA_SR_GROUP_ID_Y] = by + g / gx % gy,
               [ISA_SR_GROUP_ID_Z] = bz + g / (gx * gy),
               [ISA_SR_NUM_GROUPS_X] = gx,
               [ISA_SR_NUM_GROUPS_Y] = gy,
               [ISA_SR_NUM_GROUPS_Z] = gz,
               [ISA_SR_GROUP_SIZE_X] = sx,
               [ISA_SR_GROUP_SIZE_Y] = sy,
               [ISA_SR_GROUP_SIZE_Z] = sz,
               [ISA_SR_ROOT_LO] = (uint32_t)root,
               [ISA_SR_ROOT_HI] = (uint32_t)(root >> 32),
            };
            for (uint32_t s = 0; s < ISA_SR_COUNT && isa_sreg_fixed(s); s++) {
               uint32_t got = o[(g * cta + li) * ISA_SR_COUNT + s];
               if (got != want[s] && bad++ < 10)
                  HWT_CHECK(false, "W=%u group %u invocation %u: special register %u = %u, "
                            "expected %u", w, g, li, s, got, want[s]);
            }
         }
      }
      eut_fini(&t);
   }
}

/* The clock (S2R CLOCK_LO, CLOCK_HI): two readings per lane, a loop of
 * work between them, each 64-bit reading within the host's readings of
 * hw_now_ns before the launch and after it, the second not before the
 * first. */
static void test_clock(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      struct eut_text text = {0};
      eut_text_add(&text, ".warp %u\n"
                          "ldr.b64 u0 +0\n"
                          "s2r.local_index v0\n"
                          "shl v1, v0, #4\n"
                          "zext64 v2, v1\n"
                          "iadd64 v2, v2, u0\n"
                          "s2r.clock_lo u2\n"
                          "s2r.clock_hi u3\n"
                          "mov u4, #0\n"
                          "top: iadd u4, u4, #1\n"
                          "icmp.lt_u u5, u4, #2000\n"
                          "bra_u _, u5 @top\n"
                          "s2r.clock_lo u6\n"
                          "s2r.clock_hi u7\n"
                          "stg.b32 _, v2, u2 +0\n"
                          "stg.b32 _, v2, u3 +4\n"
                          "stg.b32 _, v2, u6 +8\n"
                          "stg.b32 _, v2, u7 +12\n"
                          "exit\n",
                   w);
      const uint32_t cta = 64;
      uint64_t out = eut_alloc(&t, 16ull * cta, 64);
      uint64_t root = eut_root(&t, &out, 1);
      struct eut_launch l = {.program = eut_program(&t, text.s), .grid = {1, 1, 1},
                             .size = {cta, 1, 1}, .root = root};
      eut_text_free(&text);
      uint64_t before = hw_now_ns();
      eut_run(&t, &l, "clock");
      uint64_t after = hw_now_ns();
      const uint32_t *o = eut_ptr(&t, out);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < cta && bad < 4; i++) {
         uint64_t c0 = o[4 * i] | (uint64_t)o[4 * i + 1] << 32;
         uint64_t c1 = o[4 * i + 2] | (uint64_t)o[4 * i + 3] << 32;
         if (!(before <= c0 && c0 <= c1 && c1 <= after)) {
            bad++;
            HWT_CHECK(false, "W=%u invocation %u: clock %llu then %llu, host %llu .. %llu", w, i,
                      (unsigned long long)c0, (unsigned long long)c1, (unsigned long long)before,
                      (unsigned long long)after);
         }
      }
      eut_fini(&t);
   }
}

int main(void)
{
   HWT_RUN(test_s2r);
   HWT_RUN(test_clock);
   HWT_RUN(test_alu);
   return hwt_finish();
}
