/*
 * test_eu_jit: the execution units' compiled ALU runs (hw/hw_jit.h)
 * against the interpreter, which is their reference.
 *
 * Pins down:
 * - the native tier is used where the host has it (x86-64 with AVX2 and
 *   FMA, not SOFTGPU_INTERP=generic): a program's ALU runs are compiled
 *   (the jit_blocks counter), and a GPU configured interpret_only (what
 *   SOFTGPU_JIT=0 sets) compiles none;
 * - random programs of every compiled instruction (32-bit integer and
 *   float arithmetic, comparisons of every modifier, selects, conversions,
 *   64-bit add, subtract, move and extensions on register pairs), with
 *   vector, uniform and immediate sources, destinations aliasing sources,
 *   more registers than a block holds (so runs split), uniform
 *   instructions (run once per block) writing registers that vector
 *   instructions before and after them read, instructions the tier does
 *   not compile in between, and a divergent IF whose partial
 *   warps interpret the compiled runs inside it: every register at the end
 *   is the interpreter's, bit for bit (floats: any NaN for a NaN), at every
 *   warp width, in CTAs of 100 invocations (a partial last warp); on an
 *   AVX-512 host, ALU segments of 16 lanes or more are zmm code (the
 *   jit_wide counter), and ymm code with SOFTGPU_INTERP=avx2 (ctest runs
 *   this test both ways: test_eu_jit_avx2);
 * - shared loads and stores inside the runs: consecutive ones (copied by
 *   the block), loads of a neighbour's word (gathered by the block) and of
 *   one word per chunk of 8 lanes (broadcast);
 * - global loads of rows of 8 words 16 words apart and of one word per
 *   chunk (done by the block chunk by chunk);
 * - global loads and stores inside the runs: consecutive ones (done by
 *   the block) and one with lanes 8 bytes apart (left to the
 *   interpreter, the block returning early), with the same global-byte
 *   counts as the interpreter's;
 * - special registers (lane and local index, every uniform one) and loads
 *   into uniform registers (root table words, words of the input through
 *   a uniform address, counted) in the runs;
 * - a BRA_U after uniform instructions tests the last one's value only
 *   where it wrote the branch's register;
 * - BRK and CONT that no lane takes and BRA_U not taken go on inside the
 *   blocks, and a block from a loop's head to its ENDLOOP loops itself (one
 *   exit per warp and loop of 16 trips, instruction counts as interpreted;
 *   a loop that never ends still meets the watchdog); BRK outside any loop
 *   faults as interpreted;
 * - selections (IF ... ENDIF) in blocks: a reduction's tree (every
 *   lane's condition set, none, part), a body leaving an access to the
 *   interpreter, results and counts as interpreted, the exact number of
 *   instructions interpreted; an IF with no room on the mask stack
 *   faults as interpreted;
 * - a register a block wrote that no lane's own path reads again is not
 *   stored, but one another lane reads through SHFL still is;
 * - the page a warp's access found live is kept for the CTA's other
 *   warps: one in the next page, or straddling into it, faults as
 *   interpreted;
 * - a loop whose load walks 40 pages sums right; such a load running
 *   into the page after its allocation, or straddling its end, faults as
 *   interpreted;
 * - a barrier loop closed by a JMP: blocks ending at a BAR go on with the
 *   CTA's next warp themselves and follow the JMP, with the interpreter's
 *   results and counts, the exact number of instructions left to the
 *   interpreter, and partial warps left to it;
 * - a global access's prefetch goes by its warp step where that is known
 *   (the local index, the lane, root table words), not where a uniform
 *   register from the warp's index, a ballot or a selection's body is in
 *   its address;
 * - SOFTGPU_PERF_MAP's lines name every block of a program, in pc order,
 *   end to end;
 * - faults at accesses the blocks do themselves (not live, misaligned,
 *   past the VA space, wrapping, a warp running off its allocation) are
 *   reported as the interpreter reports them;
 * - the inputs are the edge values: zero, negative zero, denormals,
 *   infinities, NaN, INT_MIN, INT_MAX, shift counts past 31, all ones;
 * - the tier is not extended for ISA version 3: each of its new opcodes
 *   (every case of isa_ref.c from DADD on, and F2H's rounding modes), its
 *   byte and halfword accesses and its new reductions, between compiled
 *   runs, gives with the tier on the C reference's and the interpreter's
 *   results, and leaves exactly as many instructions to the interpreter
 *   as a NOP in its place does (some of the random programs' instructions
 *   in between are such ones too).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa_ref.h"

#define CTA 100u
#define GROUPS 3u
#define N (CTA * GROUPS)
#define FREG 10u          /* float registers v10..v21 */
#define FCOUNT 12u
#define IREG 22u          /* integer registers v22..v37 */
#define ICOUNT 16u
#define REGS (FCOUNT + ICOUNT)
#define PROGRAMS 24u      /* per warp width */
#define BODY 48u          /* instructions per program */

static const uint32_t float_edges[] = {
   0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0x40400000u,
   0x7149f2cau, 0xf149f2cau, 0x00000001u, 0x807fffffu, 0x7f800000u, 0xff800000u,
   0x7fc00000u, 0x3fc00000u, 0x4b800001u, 0xcf000000u, 0x4f000000u, 0x42f6e979u,
};
static const uint32_t int_edges[] = {
   0u, 1u, 2u, 31u, 32u, 33u, 63u, 64u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu,
   0x12345678u, 0x0000ffffu, 0xffff0000u, 100u,
};
#define EDGES(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t pick(uint64_t *rng, uint32_t n) { return (uint32_t)(eut_rand(rng) % n); }

static uint32_t input(uint64_t *rng, bool is_float)
{
   if (pick(rng, 4) == 0)
      return (uint32_t)eut_rand(rng);
   return is_float ? float_edges[pick(rng, EDGES(float_edges))]
                   : int_edges[pick(rng, EDGES(int_edges))];
}

/* A source operand of a float or integer instruction; *imm is the
 * instruction's one immediate (every immediate operand of an instruction
 * is the same value). */
static void source(struct eut_text *t, uint64_t *rng, bool is_float, uint32_t imm)
{
   uint32_t r = pick(rng, 10);
   if (r == 0)
      eut_text_add(t, ", u%u", is_float ? 6 + pick(rng, 2) : 4 + pick(rng, 2));
   else if (r == 1)
      eut_text_add(t, ", #0x%08x", imm);
   else if (is_float)
      eut_text_add(t, ", v%u", FREG + pick(rng, FCOUNT));
   else
      eut_text_add(t, ", v%u", IREG + pick(rng, ICOUNT));
}

static void float_op(struct eut_text *t, uint64_t *rng)
{
   static const char *const ops[] = {"fadd", "fsub", "fmul", "fdiv", "ffma", "fneg",
                                     "fabs", "fsqrt", "mov", "i2f_s", "sel"};
   const char *op = ops[pick(rng, EDGES(ops))];
   uint32_t imm = input(rng, true), srcs = 2;
   eut_text_add(t, "%s v%u", op, FREG + pick(rng, FCOUNT));
   if (!strcmp(op, "ffma"))
      srcs = 3;
   else if (!strcmp(op, "fneg") || !strcmp(op, "fabs") || !strcmp(op, "fsqrt") ||
            !strcmp(op, "mov"))
      srcs = 1;
   if (!strcmp(op, "i2f_s")) {
      source(t, rng, false, input(rng, false));
      srcs = 0;
   } else if (!strcmp(op, "sel")) {
      source(t, rng, false, imm);   /* the condition, an integer */
      srcs = 2;
   }
   for (uint32_t k = 0; k < srcs; k++)
      source(t, rng, true, imm);
   eut_text_add(t, "\n");
}

/* A register pair in the integer registers (its high half included). */
static uint32_t pair(uint64_t *rng) { return IREG + pick(rng, ICOUNT - 1); }

static void pair_source(struct eut_text *t, uint64_t *rng, uint32_t imm)
{
   uint32_t r = pick(rng, 8);
   if (r == 0)
      eut_text_add(t, ", u4");
   else if (r == 1)
      eut_text_add(t, ", #0x%08x", imm);
   else
      eut_text_add(t, ", v%u", pair(rng));
}

static void int_op(struct eut_text *t, uint64_t *rng)
{
   static const char *const ops[] = {
      "iadd", "isub", "imul", "imin_s", "imin_u", "imax_s", "imax_u", "and", "or", "xor",
      "shl", "shr_u", "shr_s", "ineg", "iabs", "not", "mov", "imad", "sel", "icmp", "fcmp",
      "iadd64", "isub64", "mov64", "zext64", "sext64", "idiv_u", "irem_u"};
   static const char *const icmp[] = {"eq", "ne", "lt_s", "le_s", "gt_s",
                                      "ge_s", "lt_u", "le_u", "gt_u", "ge_u"};
   static const char *const fcmp[] = {"oeq", "one", "olt", "ole", "ogt", "oge", "ueq",
                                      "une", "ult", "ule", "ugt", "uge", "ord", "uno"};
   const char *op = ops[pick(rng, EDGES(ops))];
   uint32_t imm = input(rng, false);
   if (!strcmp(op, "icmp") || !strcmp(op, "fcmp")) {
      bool f = op[0] == 'f';
      eut_text_add(t, "%s.%s v%u", op, f ? fcmp[pick(rng, EDGES(fcmp))] : icmp[pick(rng, EDGES(icmp))],
                   IREG + pick(rng, ICOUNT));
      uint32_t k_imm = f ? input(rng, true) : imm;
      source(t, rng, f, k_imm);
      source(t, rng, f, k_imm);
   } else if (!strcmp(op, "idiv_u") || !strcmp(op, "irem_u")) {
      /* By a power of two, 1 to 2^31: the tier's shifts (hw_jit.c imm_shift). */
      eut_text_add(t, "%s v%u", op, IREG + pick(rng, ICOUNT));
      source(t, rng, false, imm);
      eut_text_add(t, ", #0x%08x", 1u << pick(rng, 32));
   } else if (strstr(op, "64")) {
      eut_text_add(t, "%s v%u", op, pair(rng));
      if (!strcmp(op, "zext64") || !strcmp(op, "sext64")) {
         source(t, rng, false, imm);
      } else {
         pair_source(t, rng, imm);
         if (op[1] != 'o')   /* not mov64 */
            pair_source(t, rng, imm);
      }
   } else {
      uint32_t srcs = !strcmp(op, "imad") || !strcmp(op, "sel") ? 3
                      : !strcmp(op, "ineg") || !strcmp(op, "iabs") || !strcmp(op, "not") ||
                              !strcmp(op, "mov")
                         ? 1
                         : 2;
      eut_text_add(t, "%s v%u", op, IREG + pick(rng, ICOUNT));
      for (uint32_t k = 0; k < srcs; k++)
         source(t, rng, false, imm);
   }
   eut_text_add(t, "\n");
}

/* A uniform instruction: the tier runs it once per block, before the lanes. */
static void uniform_op(struct eut_text *t, uint64_t *rng)
{
   static const char *const ops[] = {"iadd", "isub", "imul", "imad", "and", "or", "xor",
                                     "shl", "shr_u", "shr_s", "mov", "icmp.lt_u", "icmp.ge_s",
                                     "icmp.ne"};
   const char *op = ops[pick(rng, EDGES(ops))];
   uint32_t srcs = !strcmp(op, "imad") ? 3 : !strcmp(op, "mov") ? 1 : 2;
   uint32_t imm = input(rng, false);
   eut_text_add(t, "%s u%u", op, pick(rng, 4) ? 4 + pick(rng, 2) : 6 + pick(rng, 2));
   for (uint32_t k = 0; k < srcs; k++) {
      if (pick(rng, 3))
         eut_text_add(t, ", u%u", 4 + pick(rng, 4));
      else
         eut_text_add(t, ", #0x%08x", imm);
   }
   eut_text_add(t, "\n");
}

/*
 * Special registers and loads into uniform registers, which the tier runs
 * too: lane numbers into vector registers; any uniform special register,
 * a root table word, or words of the input (one uniform access, counted)
 * into u4-u5, which the integer instructions read.
 */
static void special_op(struct eut_text *t, uint64_t *rng)
{
   static const char *const uniform_sr[] = {
      "warp_id", "warp_count", "warp_width", "group_id_x", "group_id_y", "group_id_z",
      "num_groups_x", "num_groups_y", "num_groups_z", "group_size_x", "group_size_y",
      "group_size_z", "root_lo", "root_hi"};
   switch (pick(rng, 11)) {
   case 8: eut_text_add(t, "lds.b32 v%u, v44\n", IREG + pick(rng, ICOUNT)); break;
   case 9: eut_text_add(t, "ldg.b32 v%u, v46\n", IREG + pick(rng, ICOUNT)); break;
   case 10: eut_text_add(t, "ldg.b32 v%u, v48\n", IREG + pick(rng, ICOUNT)); break;
   case 5: eut_text_add(t, "sts.b32 _, v42, v%u +%u\n", IREG + pick(rng, ICOUNT),
                        4 * CTA * pick(rng, 2)); break;
   case 6: eut_text_add(t, "lds.b32 v%u, v42 +%u\n", FREG + pick(rng, FCOUNT),
                        4 * CTA * pick(rng, 2)); break;
   case 7: eut_text_add(t, "lds.b32 v%u, v43\n", IREG + pick(rng, ICOUNT)); break;
   case 0: eut_text_add(t, "s2r.%s v%u\n", pick(rng, 2) ? "local_index" : "lane_id",
                        IREG + pick(rng, ICOUNT)); break;
   case 1: eut_text_add(t, "s2r.%s u%u\n", uniform_sr[pick(rng, EDGES(uniform_sr))],
                        4 + pick(rng, 2)); break;
   case 2: eut_text_add(t, "ldr.b32 u%u +%u\n", 4 + pick(rng, 2), 16 + 4 * pick(rng, 4)); break;
   case 3: eut_text_add(t, "ldr.b64 u4 +%u\n", 16 + 4 * pick(rng, 3)); break;
   default:
      eut_text_add(t, "ldg.b%u u4, u0 +%u\n", pick(rng, 2) ? 32 : 64, 4 * pick(rng, N * REGS - 1));
      break;
   }
}

/* An instruction the tier does not compile: it ends a run. */
static void other_op(struct eut_text *t, uint64_t *rng)
{
   switch (pick(rng, 7)) {
   case 4: eut_text_add(t, "hfma v%u, v%u, v%u, v%u\n", FREG + pick(rng, FCOUNT),
                        FREG + pick(rng, FCOUNT), FREG + pick(rng, FCOUNT),
                        FREG + pick(rng, FCOUNT)); break;
   case 5: eut_text_add(t, "idp4.su.sat v%u, v%u, v%u, v%u\n", IREG + pick(rng, ICOUNT),
                        IREG + pick(rng, ICOUNT), IREG + pick(rng, ICOUNT),
                        IREG + pick(rng, ICOUNT)); break;
   case 6: eut_text_add(t, "dfma v%u, v%u, v%u, v%u\n", pair(rng), pair(rng), pair(rng),
                        pair(rng)); break;
   case 3: eut_text_add(t, "imulhi_u u5, u5, u4\n"); break;
   case 0: eut_text_add(t, "imulhi_u v%u, v%u, v%u\n", IREG + pick(rng, ICOUNT),
                        IREG + pick(rng, ICOUNT), IREG + pick(rng, ICOUNT)); break;
   case 1: eut_text_add(t, "iadd u5, u5, #7\n"); break;
   default: eut_text_add(t, "fmin v%u, v%u, v%u\n", FREG + pick(rng, FCOUNT),
                         FREG + pick(rng, FCOUNT), FREG + pick(rng, FCOUNT)); break;
   }
}

static void body(struct eut_text *t, uint64_t *rng, uint32_t count)
{
   for (uint32_t i = 0; i < count; i++) {
      uint32_t r = pick(rng, 20);
      if (r == 0)
         other_op(t, rng);
      else if (r < 3)
         uniform_op(t, rng);
      else if (r < 5)
         special_op(t, rng);
      else if (r < 10)
         float_op(t, rng);
      else
         int_op(t, rng);
   }
}

/*
 * The program: every invocation loads its REGS registers, runs the body
 * (part of it under an IF on odd invocations), stores them. Root table:
 * input VA, output VA, u4:u5 (integers), u6:u7 (floats).
 */
static char *random_program(uint32_t w, uint64_t *rng)
{
   struct eut_text t = {0};
   eut_text_add(&t, ".warp %u\n"
                    "ldr.b64 u0 +0\nldr.b64 u2 +8\nldr.b64 u4 +16\nldr.b64 u6 +24\n"
                    "s2r.local_index v0\ns2r.group_id_x u8\ns2r.group_size_x u9\n"
                    "imad v1, u8, u9, v0\nshl v2, v1, #2\nzext64 v4, v2\n"
                    "iadd64 v6, v4, u0\niadd64 v8, v4, u2\nand v3, v0, #1\n"
                    "shl v40, v1, #3\nzext64 v38, v40\niadd64 v38, v38, u0\n"
                    "shl v42, v0, #2\nxor v43, v0, #1\nshl v43, v43, #2\n"
                    "shr_u v44, v0, #3\nshl v44, v44, #5\n"
                    "shr_u v45, v1, #3\nshl v46, v45, #4\nand v47, v1, #7\n"
                    "iadd v46, v46, v47\nshl v46, v46, #2\nzext64 v46, v46\n"
                    "iadd64 v46, v46, u0\nshl v48, v45, #2\nzext64 v48, v48\n"
                    "iadd64 v48, v48, u0\n",
                w);
   /* Register r of every invocation is one array: consecutive accesses, the
    * ones a block does itself. */
   for (uint32_t r = 0; r < REGS; r++)
      eut_text_add(&t, "ldg.b32 v%u, v6 +%u\n", FREG + r, 4 * N * r);
   /* Shared memory: two words per invocation, each written by its
    * invocation before any is read (v42 = its offset; v43 = its neighbour's,
    * in its own warp: lanes not consecutive, left to the interpreter). */
   eut_text_add(&t, "sts.b32 _, v42, v10\nsts.b32 _, v42, v11 +%u\n", 4 * CTA);
   body(&t, rng, BODY / 4);
   /* Lanes 8 bytes apart: a block leaves this access to the interpreter. */
   eut_text_add(&t, "ldg.b32 v%u, v38\n", IREG + pick(rng, ICOUNT));
   body(&t, rng, BODY / 4);
   eut_text_add(&t, "if _, v3 @odd_end\n");
   body(&t, rng, BODY / 4);
   eut_text_add(&t, "odd_end: endif\n");
   body(&t, rng, BODY / 4);
   for (uint32_t r = 0; r < REGS; r++)
      eut_text_add(&t, "stg.b32 _, v8, v%u +%u\n", FREG + r, 4 * N * r);
   eut_text_add(&t, "exit\n");
   return t.s;
}

static bool is_nan(uint32_t x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu); }

/* Runs one program on a GPU; returns its output (REGS words per invocation). */
static const uint32_t *run(struct eut *t, const char *text, const uint32_t *in,
                           const uint32_t *uniforms)
{
   uint64_t prog = eut_program(t, text);
   uint64_t in_va = eut_alloc(t, 4ull * N * REGS, 64), out_va = eut_alloc(t, 4ull * N * REGS, 64);
   memcpy(eut_ptr(t, in_va), in, 4ull * N * REGS);
   uint64_t root[4] = {in_va, out_va, uniforms[0] | (uint64_t)uniforms[1] << 32,
                       uniforms[2] | (uint64_t)uniforms[3] << 32};
   eut_run(t, &(struct eut_launch){.program = prog, .grid = {GROUPS}, .size = {CTA},
                                   .shared_bytes = 8 * CTA, .root = eut_root(t, root, 4)},
           "random ALU program");
   return eut_ptr(t, out_va);
}

static bool jit_expected(void)
{
#if defined(__x86_64__)
   const char *interp = getenv("SOFTGPU_INTERP");
   __builtin_cpu_init();
   return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
          !(interp && !strcmp(interp, "generic"));
#else
   return false;
#endif
}

/* Whether ALU segments of warps of 16 lanes or more are zmm code: the host
 * has AVX-512 and the AVX-512 interpreter runs (not SOFTGPU_INTERP=avx2). */
static bool wide_expected(void)
{
#if defined(__x86_64__)
   const char *interp = getenv("SOFTGPU_INTERP");
   return jit_expected() && __builtin_cpu_supports("avx512f") &&
          __builtin_cpu_supports("avx512bw") && !(interp && !strcmp(interp, "avx2"));
#else
   return false;
#endif
}

/* Execution-unit workers of the GPUs init_pair makes (UINT32_MAX: the
 * default; 0: the command processor runs every CTA, on one context). */
static uint32_t pair_threads = UINT32_MAX;

static void init_pair(struct eut *jit, struct eut *ref)
{
   struct hw_gpu_config cfg;
   eut_config(&cfg);
   if (pair_threads != UINT32_MAX)
      cfg.eu_threads = pair_threads;
   eut_init(jit, &cfg);
   cfg.interpret_only = true;
   eut_init(ref, &cfg);
}

static struct hw_gpu_stats stats_of(struct eut *t)
{
   struct hw_gpu_stats s;
   hw_gpu_get_stats(t->gpu, &s);
   return s;
}

/* Where the native tier runs, it left exactly `expected` of the
 * instructions run in CTAs of `size` to the interpreter. */
static void check_interpreted(const struct hw_gpu_stats *s, uint64_t expected, uint32_t w,
                              uint32_t size)
{
   uint64_t interpreted = s->warp_instructions - s->jit_instructions;
   HWT_CHECK(!jit_expected() || interpreted == expected,
             "W=%u, %u invocations: %llu of %llu instructions interpreted, expected %llu", w,
             size, (unsigned long long)interpreted, (unsigned long long)s->warp_instructions,
             (unsigned long long)expected);
}

static void test_random_programs(void)
{
   uint64_t rng = 0x5eed1234abcdull;
   uint32_t *in = malloc(4ull * N * REGS);
   HWT_REQUIRE(in, "out of memory");
   uint32_t reported = 0;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut jit, ref;
      init_pair(&jit, &ref);
      for (uint32_t p = 0; p < PROGRAMS; p++) {
         char *text = random_program(w, &rng);
         for (uint32_t i = 0; i < N * REGS; i++)
            in[i] = input(&rng, i / N < FCOUNT);
         uint32_t uniforms[4] = {input(&rng, false), input(&rng, false), input(&rng, true),
                                 input(&rng, true)};
         const uint32_t *got = run(&jit, text, in, uniforms);
         const uint32_t *want = run(&ref, text, in, uniforms);
         uint32_t bad = 0;
         for (uint32_t i = 0; i < N * REGS; i++) {
            bool is_float = i / N < FCOUNT;
            if (got[i] == want[i] || (is_float && is_nan(got[i]) && is_nan(want[i])))
               continue;
            if (!bad++ && reported++ < 3)
               HWT_CHECK(false, "W=%u program %u: invocation %u v%u = 0x%08x, interpreter "
                         "0x%08x; program:\n%s", w, p, i % N, FREG + i / N, got[i],
                         want[i], text);
         }
         HWT_CHECK(!bad, "W=%u program %u: %u registers differ from the interpreter's", w, p,
                   bad);
         free(text);
      }
      struct hw_gpu_stats js = stats_of(&jit), rs = stats_of(&ref);
      uint64_t compiled = js.jit_blocks, interpreted = rs.jit_blocks;
      HWT_CHECK(js.global_bytes == rs.global_bytes && js.warp_instructions == rs.warp_instructions,
                "W=%u: counted %llu global bytes and %llu instructions, the interpreter %llu "
                "and %llu", w, (unsigned long long)js.global_bytes,
                (unsigned long long)js.warp_instructions, (unsigned long long)rs.global_bytes,
                (unsigned long long)rs.warp_instructions);
      HWT_CHECK(jit_expected() ? compiled >= PROGRAMS : compiled == 0,
                "W=%u: %llu runs compiled (native tier %s)", w, (unsigned long long)compiled,
                jit_expected() ? "expected" : "not expected");
      HWT_CHECK(interpreted == 0, "W=%u: the interpret-only GPU compiled %llu runs", w,
                (unsigned long long)interpreted);
      HWT_CHECK(w >= 16 && wide_expected() ? js.jit_wide > 0 : js.jit_wide == 0,
                "W=%u: %llu ALU segments in zmm code (%s)", w, (unsigned long long)js.jit_wide,
                wide_expected() ? "AVX-512 host" : "not expected");
      /* The strided load, and the loads of a neighbour's shared word. */
      HWT_CHECK(jit_expected() ? js.jit_exits >= PROGRAMS : js.jit_exits == 0,
                "W=%u: %llu accesses left to the interpreter", w,
                (unsigned long long)js.jit_exits);
      HWT_CHECK(rs.jit_exits == 0, "W=%u: the interpret-only GPU counted %llu exits", w,
                (unsigned long long)rs.jit_exits);
      eut_fini(&jit);
      eut_fini(&ref);
   }
   free(in);
}

/*
 * Full warps whose accesses are all consecutive (global and shared, loads
 * and stores), consecutive only in each chunk of 8 lanes (rows of a tile),
 * one address per chunk (loads, broadcast), a shared load of the
 * neighbour's word (gathered) and uniform loads: the blocks do every one
 * of them (no jit_exits), and the result is right.
 */
static void test_accesses_in_blocks(void)
{
   enum { SIZE = 256, CTAS = 4, COUNT = SIZE * CTAS };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t in = eut_alloc(&t, 4 * COUNT, 64), out = eut_alloc(&t, 4 * COUNT, 64);
      uint64_t in2 = eut_alloc(&t, 8 * COUNT, 64), out2 = eut_alloc(&t, 8 * COUNT, 64);
      uint32_t *x = eut_ptr(&t, in), *x2 = eut_ptr(&t, in2);
      for (uint32_t i = 0; i < COUNT; i++)
         x[i] = i * 7 + 3;
      for (uint32_t i = 0; i < 2 * COUNT; i++)
         x2[i] = i * 5 + 1;
      uint64_t root[4] = {in, out, in2, out2};
      uint64_t prog = eut_programf(&t, ".warp %u\n"
                                       "ldr.b64 u0 +0\nldr.b64 u2 +8\n"
                                       "s2r.local_index v0\ns2r.group_id_x u8\n"
                                       "s2r.group_size_x u9\nimad v1, u8, u9, v0\n"
                                       "shl v2, v1, #2\nzext64 v4, v2\niadd64 v6, v4, u0\n"
                                       "ldg.b32 v10, v6\nldg.b32 u4, u0 +4\n"
                                       "shl v3, v0, #2\nsts.b32 _, v3, v10\n"
                                       "lds.b32 v11, v3\nxor v12, v0, #1\n"
                                       "shl v12, v12, #2\nlds.b32 v13, v12\n"
                                       "iadd v11, v11, v13\niadd v11, v11, u4\n"
                                       "iadd64 v8, v4, u2\nstg.b32 _, v8, v11\n"
                                       /* Rows of 8 words, 16 apart (r = the
                                        * row's word), and a word per row. */
                                       "ldr.b64 u10 +16\nldr.b64 u12 +24\n"
                                       "shr_u v14, v1, #3\nshl v15, v14, #4\n"
                                       "and v16, v1, #7\niadd v15, v15, v16\n"
                                       "shl v15, v15, #2\nzext64 v16, v15\n"
                                       "iadd64 v18, v16, u10\nldg.b32 v20, v18\n"
                                       "shl v14, v14, #2\nzext64 v22, v14\n"
                                       "iadd64 v22, v22, u10\nldg.b32 v21, v22\n"
                                       /* The shared word of the chunk's first lane. */
                                       "shr_u v24, v0, #3\nshl v24, v24, #5\n"
                                       "lds.b32 v25, v24\niadd v20, v20, v21\n"
                                       "iadd v20, v20, v25\niadd64 v18, v16, u12\n"
                                       "stg.b32 _, v18, v20\nexit\n", w);
      eut_run(&t, &(struct eut_launch){.program = prog, .grid = {CTAS}, .size = {SIZE},
                                       .shared_bytes = 4 * SIZE, .root = eut_root(&t, root, 4)},
              "consecutive accesses");
      const uint32_t *y = eut_ptr(&t, out), *y2 = eut_ptr(&t, out2);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < COUNT; i++) {
         uint32_t r = (i >> 3) * 16 + (i & 7);
         bad += y[i] != x[i] + x[i ^ 1] + x[1];
         bad += y2[r] != x2[r] + x2[i >> 3] + x[i & ~7u];
         bad += y2[r + 8] != 0;   /* between the rows: not written */
      }
      HWT_CHECK(!bad, "W=%u: %u results wrong", w, bad);
      struct hw_gpu_stats st = stats_of(&t);
      HWT_CHECK(st.jit_exits == 0, "W=%u: compiled runs left %llu accesses to the interpreter",
                w, (unsigned long long)st.jit_exits);
      /* All but each CTA's last warp's EXIT ran compiled (the others'
       * blocks end there and go on with the next warp): no instruction
       * the tier should take was left out of the blocks. */
      uint64_t exits = CTAS;
      if (jit_expected())
         HWT_CHECK(st.jit_instructions + exits == st.warp_instructions,
                   "W=%u: %llu of %llu instructions ran compiled, expected all but %llu EXITs",
                   w, (unsigned long long)st.jit_instructions,
                   (unsigned long long)st.warp_instructions, (unsigned long long)exits);
      HWT_CHECK(!jit_expected() || st.jit_blocks > 0, "W=%u: nothing compiled", w);
      eut_fini(&t);
   }
}

/*
 * Loops inside the blocks: BRK and CONT on conditions no lane meets go on
 * compiled, and a block from a loop's head through its ENDLOOP (or a
 * BRA_U back to it) jumps back itself. Two loops of 16 trips (one with a
 * CONT, whose CONTJOIN ends the block; one the block runs whole) leave
 * their blocks once per warp each, at the BRK every lane takes; a third,
 * closed by a BRA_U, never leaves; the results, and the count of
 * instructions run, are the interpreter's.
 */
static void test_loops_in_blocks(void)
{
   enum { SIZE = 128, CTAS = 2, COUNT = SIZE * CTAS, TRIPS = 16 };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut gpus[2];
      init_pair(&gpus[0], &gpus[1]);
      struct hw_gpu_stats st[2];
      for (int g = 0; g < 2; g++) {
         struct eut *t = &gpus[g];
         uint64_t out = eut_alloc(t, 16 * COUNT, 64);
         uint64_t root[2] = {out, TRIPS};
         uint64_t prog = eut_programf(t, ".warp %u\n"
                                         "ldr.b64 u0 +0\nldr.b32 u2 +8\n"
                                         "s2r.local_index v0\ns2r.group_id_x u8\n"
                                         "s2r.group_size_x u9\nimad v1, u8, u9, v0\n"
                                         "mov v2, #0\nmov v3, #0\n"
                                         "loop\n"
                                         "head: icmp.ge_u v4, v2, u2\n"
                                         "   brk _, v4 @cj\n"
                                         "   iadd v3, v3, v1\n"
                                         "   icmp.gt_u v5, v2, #1000\n"
                                         "   cont _, v5 @cj\n"
                                         "   iadd v2, v2, #1\n"
                                         "cj: contjoin @end\n"
                                         "end: endloop @head\n"
                                         "mov v2, #0\nmov v7, #1\n"
                                         "loop\n"
                                         "head2: icmp.ge_u v4, v2, u2\n"
                                         "   brk _, v4 @end2\n"
                                         "   imul v7, v7, #3\n"
                                         "   iadd v2, v2, #1\n"
                                         "end2: endloop @head2\n"
                                         "mov u3, #0\nmov v10, #0\n"
                                         "head3: iadd v10, v10, #2\n"
                                         "   iadd u3, u3, #1\n"
                                         "   icmp.lt_u u4, u3, u2\n"
                                         "   bra_u _, u4 @head3\n"
                                         "mov u3, #0\nmov v11, #0\n"
                                         "head4: icmp.ge_u u4, u3, u2\n"
                                         "   bra_u _, u4 @done4\n"
                                         "   iadd v11, v11, #5\n"
                                         "   iadd u3, u3, #1\n"
                                         "   jmp @head4\n"
                                         "done4: shl v6, v1, #2\nzext64 v8, v6\n"
                                         "iadd64 v8, v8, u0\n"
                                         "stg.b32 _, v8, v3\nstg.b32 _, v8, v7 +%u\n"
                                         "stg.b32 _, v8, v10 +%u\nstg.b32 _, v8, v11 +%u\n"
                                         "exit\n",
                                         w, 4 * COUNT, 8 * COUNT, 12 * COUNT);
         eut_run(t, &(struct eut_launch){.program = prog, .grid = {CTAS}, .size = {SIZE},
                                         .root = eut_root(t, root, 2)},
                 "loops");
         const uint32_t *y = eut_ptr(t, out);
         uint32_t bad = 0, pow = 1;
         for (uint32_t k = 0; k < TRIPS; k++)
            pow *= 3;
         for (uint32_t i = 0; i < COUNT; i++)
            bad += y[i] != TRIPS * i || y[COUNT + i] != pow || y[2 * COUNT + i] != 2 * TRIPS ||
                   y[3 * COUNT + i] != 5 * TRIPS;
         HWT_CHECK(!bad, "W=%u%s: %u results wrong", w, g ? " (interpreted)" : "", bad);
         st[g] = stats_of(t);
      }
      uint64_t warps = (uint64_t)CTAS * (SIZE / w);
      if (jit_expected())
         HWT_CHECK(st[0].jit_exits == 3 * warps, "W=%u: compiled runs left %llu BRK, CONT or "
                   "BRA_U to the interpreter, expected one per loop and warp but the third's "
                   "(%llu)", w, (unsigned long long)st[0].jit_exits,
                   (unsigned long long)(3 * warps));
      /* Interpreted per warp: the two LOOPs; CONTJOIN and ENDLOOP of the
       * first loop's 16 trips; on its 17th, BRK, CONTJOIN and ENDLOOP;
       * on the second loop's 17th, BRK and ENDLOOP; the fourth loop's
       * BRA_U taken on the 17th; and each CTA's last warp's EXIT.
       * Everything else ran compiled: the second loop's ENDLOOP, the
       * third's BRA_U, the fourth's BRA_U not taken and its JMP back to
       * the head, and the other warps' EXITs included. */
      check_interpreted(&st[0], (2 + 2 * TRIPS + 3 + 2 + 1) * warps + CTAS, w, SIZE);
      HWT_CHECK(st[0].warp_instructions == st[1].warp_instructions,
                "W=%u: %llu instructions counted, the interpreter counts %llu", w,
                (unsigned long long)st[0].warp_instructions,
                (unsigned long long)st[1].warp_instructions);
      eut_fini(&gpus[0]);
      eut_fini(&gpus[1]);
   }
}

static char *run_faulting(struct eut *t, const char *text, uint64_t root, const char *what);
static void same_faults(const char *what, char *lines[2], struct eut *jit, struct eut *ref);

/* bench_compute's reduction's tree, then a selection whose body has a
 * load the block leaves to the interpreter (lanes 8 bytes apart), then one
 * for lane 0 alone: the program text for width w. */
static char *tree_program(uint32_t w, uint32_t size)
{
   struct eut_text t = {0};
   eut_text_add(&t, ".warp %u\n"
                    "ldr.b64 u0 +0\nldr.b64 u2 +8\nldr.b64 u4 +16\n"
                    "s2r.local_index v0\ns2r.group_id_x u8\ns2r.group_size_x u9\n"
                    "shl v1, v0, #2\nimad v2, u8, u9, v0\n"
                    "sts.b32 _, v1, v2\nbar\n", w);
   for (uint32_t k = size / 2; k > 0; k /= 2)
      eut_text_add(&t, "icmp.lt_u v3, v0, #%u\n"
                       "if _, v3 @e%u\n"
                       "   lds.b32 v4, v1 +%u\nlds.b32 v5, v1\n"
                       "   iadd v5, v5, v4\nsts.b32 _, v1, v5\n"
                       "e%u: endif\nbar\n", k, k, 4 * k, k);
   eut_text_add(&t, "icmp.lt_u v3, v0, #%u\n"
                    "if _, v3 @f\n"
                    "   shl v10, v2, #3\nzext64 v12, v10\niadd64 v12, v12, u2\n"
                    "   ldg.b32 v11, v12\n"
                    "   iadd v11, v11, #1\n"
                    "   shl v10, v2, #2\nzext64 v12, v10\niadd64 v12, v12, u4\n"
                    "   stg.b32 _, v12, v11\n"
                    "f: endif\n"
                    "icmp.eq v3, v0, #0\n"
                    "if _, v3 @g\n"
                    "   lds.b32 v4, v1\nmov v6, u8\nshl v6, v6, #2\n"
                    "   zext64 v8, v6\niadd64 v8, v8, u0\nstg.b32 _, v8, v4\n"
                    "g: endif\nexit\n", size);
   return t.s;
}

/*
 * Selections in blocks: a tree reduction's levels (an IF with every lane's
 * condition set in some warps, none in others, part in one at the last
 * levels, between BARs), a selection whose body leaves an access to the
 * interpreter (the block pushes the IF's mask entry for it), and one of a
 * single lane. The sums and loads are right, the counts are the
 * interpreter's, and in CTAs of 256 exactly these are interpreted (the
 * last warp to arrive at a BAR releases it in its block): per level below
 * W, warp 0's IF, body, ENDIF and BAR; warp 0's last IF, body, ENDIF and
 * EXIT; the last warp's EXIT (a block's EXIT goes on with the next warp,
 * the last warp's is left to the interpreter). The strided load (stride 8:
 * v2, the global index, comes from the program's straight prefix, whose
 * lane facts the block knows) runs in its block, as does the rest of
 * that selection.
 */
static void test_selections_in_blocks(void)
{
   enum { SIZE = 256, CTAS = 3, COUNT = SIZE * CTAS };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      char *text = tree_program(w, SIZE);
      struct eut gpus[2];
      init_pair(&gpus[0], &gpus[1]);
      struct hw_gpu_stats st[2];
      for (int g = 0; g < 2; g++) {
         struct eut *t = &gpus[g];
         uint64_t out = eut_alloc(t, 4 * CTAS, 64), in = eut_alloc(t, 8 * COUNT, 64);
         uint64_t out2 = eut_alloc(t, 4 * COUNT, 64);
         uint32_t *x = eut_ptr(t, in);
         for (uint32_t i = 0; i < 2 * COUNT; i++)
            x[i] = i * 7u;
         uint64_t root[3] = {out, in, out2};
         eut_run(t, &(struct eut_launch){.program = eut_program(t, text), .grid = {CTAS},
                                         .size = {SIZE}, .shared_bytes = 4 * SIZE,
                                         .root = eut_root(t, root, 3)},
                 "tree");
         const uint32_t *y = eut_ptr(t, out), *y2 = eut_ptr(t, out2);
         uint32_t bad = 0;
         for (uint32_t c = 0; c < CTAS; c++)
            bad += y[c] != (c * SIZE + (c + 1) * SIZE - 1) * SIZE / 2;
         for (uint32_t i = 0; i < COUNT; i++)
            bad += y2[i] != x[2 * i] + 1;
         HWT_CHECK(!bad, "W=%u%s: %u results wrong", w, g ? " (interpreted)" : "", bad);
         st[g] = stats_of(t);
      }
      HWT_CHECK(st[0].warp_instructions == st[1].warp_instructions &&
                st[0].barrier_waits == st[1].barrier_waits,
                "W=%u: %llu instructions and %llu barrier waits counted, the interpreter "
                "counts %llu and %llu", w, (unsigned long long)st[0].warp_instructions,
                (unsigned long long)st[0].barrier_waits,
                (unsigned long long)st[1].warp_instructions,
                (unsigned long long)st[1].barrier_waits);
      uint64_t per_cta = 0;
      for (uint32_t k = SIZE / 2; k > 0; k /= 2)
         per_cta += k < w ? 7 : 0;
      per_cta += 8 + 2;
      check_interpreted(&st[0], CTAS * per_cta, w, SIZE);
      eut_fini(&gpus[0]);
      eut_fini(&gpus[1]);
      free(text);
   }
   /* A selection in a loop with a .stack of 1: its IF has no room for its
    * entry, and faults as interpreted. */
   struct eut jit, ref;
   init_pair(&jit, &ref);
   static const char overflow[] = ".warp 32\n.stack 1\ns2r.local_index v0\nloop\n"
                                  "h: icmp.lt_u v3, v0, #1000\n"
                                  "   if _, v3 @e\n      iadd v4, v0, #1\n   e: endif\n"
                                  "   brk _, v3 @end\nend: endloop @h\nexit\n";
   const uint64_t root[4] = {0};
   char *lines[2] = {run_faulting(&jit, overflow, eut_root(&jit, root, 4),
                                  "selection past the mask stack"),
                     run_faulting(&ref, overflow, eut_root(&ref, root, 4),
                                  "selection past the mask stack")};
   same_faults("selection past the mask stack", lines, &jit, &ref);
}

/* Runs text on both GPUs of a pair (init_pair; g = 0 compiles, g = 1
 * interprets): grid CTAs of size invocations with shared_bytes, the root
 * table one buffer of count words (zeroed), whose words end in got[g],
 * and the counters in st[g] unless st is NULL. */
static void run_pair(const char *what, const char *text, uint32_t grid, uint32_t size,
                     uint32_t shared_bytes, uint32_t count, uint32_t *const got[2],
                     struct hw_gpu_stats *st)
{
   struct eut gpus[2];
   init_pair(&gpus[0], &gpus[1]);
   for (int g = 0; g < 2; g++) {
      struct eut *t = &gpus[g];
      uint64_t out = eut_alloc(t, 4ull * count, 64);
      eut_run(t, &(struct eut_launch){.program = eut_program(t, text), .grid = {grid},
                                      .size = {size}, .shared_bytes = shared_bytes,
                                      .root = eut_root(t, &out, 1)},
              what);
      memcpy(got[g], eut_ptr(t, out), 4ull * count);
      if (st)
         st[g] = stats_of(t);
   }
   eut_fini(&gpus[0]);
   eut_fini(&gpus[1]);
}

/*
 * A block need not store a register that no lane's own path reads again,
 * but a SHFL reads other lanes' registers: here the lower half of each
 * warp, in an IF, overwrites v1 and then shuffles the upper half's v1 (as
 * the block computed it) while the upper half, outside the IF, overwrites
 * its own. The results are the interpreter's at every width.
 */
static void test_shuffle_of_dead_register(void)
{
   enum { SIZE = 128 };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      char text[1024];
      snprintf(text, sizeof(text), ".warp %u\n"
                                   "ldr.b64 u0 +0\n"
                                   "s2r.lane_id v0\ns2r.local_index v6\n"
                                   "iadd v1, v0, #100\nmov v3, #0\n"
                                   "icmp.lt_u v2, v0, #%u\n"
                                   "if _, v2 @e\n"
                                   "   mov v1, #7\n"
                                   "   mov v4, #%u\n"
                                   "   shfl.xor v3, v1, v4\n"
                                   "e: endif\n"
                                   "mov v1, #0\n"
                                   "shl v5, v6, #2\nzext64 v8, v5\niadd64 v8, v8, u0\n"
                                   "stg.b32 _, v8, v3\nexit\n", w, w / 2, w / 2);
      static uint32_t got[2][SIZE];
      run_pair("shuffle of a dead register", text, 1, SIZE, 0, SIZE,
               (uint32_t *const[2]){got[0], got[1]}, NULL);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < SIZE; i++)
         bad += got[0][i] != got[1][i];
      HWT_CHECK(!bad, "W=%u: %u results differ from the interpreter's (lane 0: 0x%x, "
                "interpreter 0x%x)", w, bad, got[0][0], got[1][0]);
   }
}

/*
 * A block ending at EXIT goes on with the CTA's next running warp where
 * that waits at the block's start with every lane running, and leaves the
 * next warp to the interpreter otherwise. Here warp 1 exits early, from
 * a block of its own before the BAR (the next warp waits elsewhere; the
 * others arrive and the barrier is released without it), so warp 0's
 * EXIT after the BAR goes on with warp 2, skipping it; in the partial
 * CTA the last warp is partial. Results and counts are the
 * interpreter's, and exactly these are interpreted: warp 1's BRA_U
 * (taken), the BAR where the last warp arrives and the last warp's EXIT;
 * in the partial CTA, warp 1's BRA_U and the partial warp's every
 * instruction.
 */
static void test_exits_in_blocks(void)
{
   enum { CTAS = 3 };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      const uint32_t sizes[2] = {8 * w, 8 * w - w / 2};
      char text[1024];
      snprintf(text, sizeof(text), ".warp %u\n"
                                   "ldr.b64 u0 +0\n"
                                   "s2r.warp_id u2\nicmp.eq u3, u2, #1\n"
                                   "bra_u _, u3 @early\n"
                                   "bar\n"
                                   "s2r.local_index v0\ns2r.group_id_x u8\n"
                                   "s2r.group_size_x u9\nimad v1, u8, u9, v0\n"
                                   "shl v2, v1, #2\nzext64 v4, v2\n"
                                   "iadd64 v4, v4, u0\nstg.b32 _, v4, v1\n"
                                   "exit\n"
                                   "early: s2r.local_index v0\n"
                                   "s2r.group_id_x u8\ns2r.group_size_x u9\n"
                                   "imad v1, u8, u9, v0\nshl v2, v1, #2\n"
                                   "zext64 v4, v2\niadd64 v4, v4, u0\n"
                                   "iadd v1, v1, #7\nstg.b32 _, v4, v1\n"
                                   "exit\n", w);
      for (int si = 0; si < 2; si++) {
         uint32_t size = sizes[si], count = size * CTAS;
         static uint32_t got[2][8 * 64 * CTAS];
         struct hw_gpu_stats st[2];
         run_pair("exits", text, CTAS, size, 0, count, (uint32_t *const[2]){got[0], got[1]}, st);
         for (int g = 0; g < 2; g++) {
            uint32_t bad = 0;
            for (uint32_t i = 0; i < count; i++)
               bad += got[g][i] != ((i % size) / w == 1 ? i + 7 : i);
            HWT_CHECK(!bad, "W=%u, %u invocations%s: %u results wrong", w, size,
                      g ? " (interpreted)" : "", bad);
         }
         HWT_CHECK(st[0].warp_instructions == st[1].warp_instructions,
                   "W=%u, %u invocations: %llu instructions counted, the interpreter counts "
                   "%llu", w, size, (unsigned long long)st[0].warp_instructions,
                   (unsigned long long)st[1].warp_instructions);
         /* Per CTA: the first block runs to the BAR, warp after warp (the
          * BRA_U not taken goes on inside it); the block after the BAR to
          * the EXIT, warp after warp, skipping warp 1. A partial warp runs
          * its 5 instructions to the BAR and 9 after it interpreted. */
         uint64_t interpreted = CTAS * (si ? 1 + 5 + 9 : 1 + 1 + 1);
         check_interpreted(&st[0], interpreted, w, size);
      }
   }
}

/* v0 = the local index, v1 = the global index (u8, u9: group id and size). */
#define GLOBAL_INDEX                                                                             \
   "s2r.local_index v0\ns2r.group_id_x u8\ns2r.group_size_x u9\nimad v1, u8, u9, v0\n"

/* Runs text (W=w, 3 CTAs of 128, root table: 4 buffers of 8192 words)
 * compiled and interpreted: the buffers end the same. */
static void same_memory_as_interpreted(const char *what, uint32_t w, const char *text)
{
   enum { SIZE = 128, CTAS = 3, WORDS = 8192 };
   struct eut gpus[2];
   init_pair(&gpus[0], &gpus[1]);
   static uint32_t got[2][4 * WORDS];
   for (int g = 0; g < 2; g++) {
      struct eut *t = &gpus[g];
      uint64_t buf[4];
      for (int k = 0; k < 4; k++) {
         buf[k] = eut_alloc(t, 4 * WORDS, 64);
         uint32_t *x = eut_ptr(t, buf[k]);
         for (uint32_t i = 0; i < WORDS; i++)
            x[i] = i * 7u + (uint32_t)k;
      }
      eut_run(t, &(struct eut_launch){.program = eut_program(t, text), .grid = {CTAS},
                                      .size = {SIZE}, .root = eut_root(t, buf, 4)},
              what);
      for (int k = 0; k < 4; k++)
         memcpy(got[g] + WORDS * k, eut_ptr(t, buf[k]), 4 * WORDS);
   }
   uint32_t bad = 0, first = UINT32_MAX;
   for (uint32_t i = 0; i < 4 * WORDS; i++) {
      if (got[0][i] != got[1][i] && first == UINT32_MAX)
         first = i;
      bad += got[0][i] != got[1][i];
   }
   HWT_CHECK(!bad, "W=%u, %s: %u words differ from the interpreter's (buffer %u, word %u "
             "first)", w, what, bad, first / WORDS, first % WORDS);
   eut_fini(&gpus[0]);
   eut_fini(&gpus[1]);
}

/* Each case (name, text, a second text or NULL) at every warp width: fmt,
 * a format taking the width and the two texts, compared by same() with
 * the interpreter's run. */
typedef void same_fn(const char *what, uint32_t w, const char *text);
static void cases_as_interpreted(same_fn *same, const char *fmt, const char *const (*cases)[3],
                                 uint32_t n)
{
   for (int wi = 0; wi < 4; wi++) {
      for (uint32_t c = 0; c < n; c++) {
         char text[4096];
         snprintf(text, sizeof(text), fmt, eut_widths[wi], cases[c][1],
                  cases[c][2] ? cases[c][2] : "");
         same(cases[c][0], eut_widths[wi], text);
      }
   }
}

/* ---- instructions the tier does not know ------------------------------------------ */

struct run_counts {
   uint64_t interpreted, compiled_blocks;
};

/* Runs a launch of `program` (CTAs of `size`, full warps) on t; what it
 * left to the interpreter and the blocks compiled for it. */
static struct run_counts run_counted(struct eut *t, const struct eut_launch *l, const char *what)
{
   struct hw_gpu_stats before = stats_of(t);
   eut_run(t, l, what);
   struct hw_gpu_stats after = stats_of(t);
   return (struct run_counts){
      (after.warp_instructions - after.jit_instructions) -
         (before.warp_instructions - before.jit_instructions),
      after.jit_blocks - before.jit_blocks};
}

/* text with the line holding `inst` replaced by a NOP (which the tier
 * does not compile either, so it leaves the same runs around it). */
static char *with_nop(const char *text, const char *inst)
{
   const char *at = strstr(text, inst);
   HWT_REQUIRE(at, "\"%s\" not in the program", inst);
   while (at > text && at[-1] != '\n')
      at--;
   const char *end = strchr(at, '\n');
   size_t n = strlen(text);
   char *out = malloc(n + 8);
   HWT_REQUIRE(out && end, "out of memory");
   snprintf(out, n + 8, "%.*snop%s", (int)(at - text), text, end);
   return out;
}

/* The runs around one instruction of ISA version 3 (an ALU case of
 * isa_ref.c): with the native tier on, its result is the C reference's
 * and the interpreter-only GPU's, and exactly as many instructions are
 * interpreted as with a NOP in its place: the instruction itself, handed
 * to the interpreter, not compiled as something else. */
static void new_case_as_interpreted(struct eut *jit, struct eut *ref, const struct isa_case *k,
                                    uint32_t w, uint64_t *rng)
{
   enum { SIZE = 128, CTAS = 3, COUNT = SIZE * CTAS };
   struct eut_text text = {0};
   isa_case_program(&text, k, FORM_V, w, 0, false);
   char line[64];
   snprintf(line, sizeof(line), "%s v16", k->mnemonic);
   char *nop = with_nop(text.s, line);
   uint64_t in[3][COUNT];
   for (int s = 0; s < 3; s++) {
      const uint64_t *e;
      uint32_t ne = s < k->nsrc ? isa_edge_values(k, s, &e) : 0;
      for (uint32_t i = 0; i < COUNT; i++)
         in[s][i] = s >= k->nsrc ? eut_rand(rng)
                    : i % 2 ? e[(i / 2 + (uint32_t)s * 7) % ne] : isa_gen_typical(k, s, rng);
   }
   struct run_counts counts[3];
   const uint64_t *out[2];
   for (int g = 0; g < 3; g++) {
      struct eut *t = g == 1 ? ref : jit;
      uint64_t va[3], r_va = eut_alloc(t, 8 * COUNT, 64);
      for (int s = 0; s < 3; s++) {
         va[s] = eut_alloc(t, 8 * COUNT, 64);
         memcpy(eut_ptr(t, va[s]), in[s], 8 * COUNT);
      }
      uint64_t root[ROOT_WORDS] = {va[0], va[1], va[2], r_va, 0, 0, 0, 0};
      struct eut_launch l = {.program = eut_program(t, g == 2 ? nop : text.s), .grid = {CTAS},
                             .size = {SIZE}, .root = eut_root(t, root, ROOT_WORDS)};
      counts[g] = run_counted(t, &l, k->mnemonic);
      if (g < 2)
         out[g] = eut_ptr(t, r_va);
   }
   uint32_t bad = 0;
   for (uint32_t i = 0; i < COUNT; i++) {
      uint64_t want = isa_form_stored(k, FORM_V, isa_ref(k, in[0][i], in[1][i], in[2][i]),
                                      in[0][i]);
      bool ok = (k->dst64 || (out[0][i] >> 32) == (want >> 32)) &&
                isa_ref_match(k, out[0][i], want) && isa_ref_match(k, out[1][i], want) &&
                (out[0][i] == out[1][i] || k->cmp != REF_EXACT);
      if (!ok && bad++ < 2)
         HWT_CHECK(false, "W=%u %s invocation %u: native tier on 0x%016llx, interpreter "
                   "0x%016llx, reference 0x%016llx", w, k->mnemonic, i,
                   (unsigned long long)out[0][i], (unsigned long long)out[1][i],
                   (unsigned long long)want);
   }
   HWT_CHECK(counts[0].interpreted == counts[2].interpreted,
             "W=%u %s: %llu instructions interpreted, %llu with a NOP in its place", w,
             k->mnemonic, (unsigned long long)counts[0].interpreted,
             (unsigned long long)counts[2].interpreted);
   HWT_CHECK(!jit_expected() || (counts[0].compiled_blocks > 0 &&
                                 counts[0].interpreted < counts[1].interpreted),
             "W=%u %s: the runs around it were not compiled (%llu blocks, %llu of %llu "
             "instructions interpreted)", w, k->mnemonic,
             (unsigned long long)counts[0].compiled_blocks,
             (unsigned long long)counts[0].interpreted,
             (unsigned long long)counts[1].interpreted);
   free(nop);
   eut_text_free(&text);
}

/* An access or subgroup operation of ISA version 3 (`inst`) between
 * compiled runs, with the native tier on and off: the same memory, and
 * the same instructions interpreted as with a NOP in its place. */
static void new_access_as_interpreted(uint32_t w, const char *inst)
{
   enum { SIZE = 128, CTAS = 3, WORDS = 4 * SIZE * CTAS };
   static const char *const fmt =
      ".warp %u\n"
      "ldr.b64 u0 +0\n"
      "ldr.b64 u2 +8\n"
      "s2r.local_index v0\n"
      "s2r.group_id_x u8\n"
      "s2r.group_size_x u9\n"
      "imad v1, u8, u9, v0\n"
      "shl v2, v1, #2\n"
      "zext64 v4, v2\n"
      "iadd64 v6, v4, u0\n"
      "iadd64 v8, v4, u2\n"
      "shl v3, v0, #2\n"
      "ldg.b32 v10, v6\n"
      "sts.b32 _, v3, v10\n"
      "stp.b32 _, _, v10\n"
      "iadd v11, v10, #0x01020304\n"
      "mov v12, #0x3c00\n"
      "%s\n"
      "iadd v13, v12, v11\n"
      "xor v14, v13, v10\n"
      "stg.b32 _, v8, v14\n"
      "stg.b32 _, v8, v13 +%u\n"
      "exit\n";
   struct eut gpus[2];
   init_pair(&gpus[0], &gpus[1]);
   char text[2048], *nop;
   snprintf(text, sizeof(text), fmt, w, inst, 4 * SIZE * CTAS);
   nop = with_nop(text, inst);
   static uint32_t got[2][2 * WORDS];
   struct run_counts counts[3];
   for (int g = 0; g < 3; g++) {
      struct eut *t = &gpus[g == 1];
      uint64_t buf[2];
      for (int k = 0; k < 2; k++) {
         buf[k] = eut_alloc(t, 4 * WORDS, 64);
         uint32_t *x = eut_ptr(t, buf[k]);
         for (uint32_t i = 0; i < WORDS; i++)
            x[i] = i * 0x9e3779b9u + (uint32_t)k;
      }
      struct eut_launch l = {.program = eut_program(t, g == 2 ? nop : text), .grid = {CTAS},
                             .size = {SIZE}, .shared_bytes = 4 * SIZE, .private_bytes = 16,
                             .root = eut_root(t, buf, 2)};
      counts[g] = run_counted(t, &l, inst);
      for (int k = 0; g < 2 && k < 2; k++)
         memcpy(got[g] + WORDS * k, eut_ptr(t, buf[k]), 4 * WORDS);
   }
   uint32_t bad = 0;
   for (uint32_t i = 0; i < 2 * WORDS; i++)
      bad += got[0][i] != got[1][i];
   HWT_CHECK(!bad, "W=%u \"%s\": %u words differ from the interpreter's", w, inst, bad);
   HWT_CHECK(counts[0].interpreted == counts[2].interpreted &&
             (!jit_expected() || counts[0].interpreted < counts[1].interpreted),
             "W=%u \"%s\": %llu instructions interpreted (%llu with a NOP in its place, %llu "
             "without the native tier)", w, inst, (unsigned long long)counts[0].interpreted,
             (unsigned long long)counts[2].interpreted,
             (unsigned long long)counts[1].interpreted);
   free(nop);
   eut_fini(&gpus[0]);
   eut_fini(&gpus[1]);
}

/*
 * The native tier is not extended for ISA version 3 (issue 27): every
 * instruction it does not know is handed to the interpreter. Each new
 * opcode (every modifier of the ALU cases: rounding modes, comparisons,
 * IDP4's forms; F2H's new rounding modes), the byte and halfword accesses
 * and the new reductions, between compiled runs at every warp width.
 */
static void test_new_instructions_interpreted(void)
{
   static struct isa_case cases[ISA_MAX_CASES];
   uint32_t count = isa_cases(cases, ISA_MAX_CASES);
   /* Dword-aligned ones too, which taken for dword accesses would run. */
   static const char *const accesses[] = {
      "ldg.b8 v12, v6", "ldg.b16 v12, v6 +2", "ldg.b16 u12, v6", "ldg.b8 u12, u0 +4",
      "ldg.b16 u12, u0 +6", "stg.b8 _, v6, v11", "stg.b16 _, v6, v11 +2", "stg.b16 _, v6, u8",
      "lds.b8 v12, v3", "lds.b16 v12, v3 +2", "sts.b8 _, v3, v11", "sts.b16 _, v3, v11 +2",
      "stp.b16 _, _, v11", "ldp.b8 v12, _ +1",
      "reduce.fadd.64 v12, v10", "reduce.fmax.f16 v12, v11", "reduce.iadd.cluster4 v12, v10",
      "scan.fmul.excl.f16.cluster8 v12, v12", "reduce.fmin.64.cluster2 u12, v10",
   };
   uint32_t done_count[4] = {0};
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      uint64_t rng = 0x27 + w;
      struct eut jit, ref;
      init_pair(&jit, &ref);
      uint32_t done = 0;
      for (uint32_t c = 0; c < count; c++) {
         const struct isa_case *k = &cases[c];
         if (k->op < ISA_OP_DADD && !(k->op == ISA_OP_F2H && k->mod))
            continue;
         if (jit.programs + 2 > EUT_MAX_PROGRAMS) {
            eut_fini(&jit);
            eut_fini(&ref);
            init_pair(&jit, &ref);
         }
         new_case_as_interpreted(&jit, &ref, k, w, &rng);
         done++;
      }
      done_count[wi] = done;
      eut_fini(&jit);
      eut_fini(&ref);
      for (size_t i = 0; i < sizeof(accesses) / sizeof(accesses[0]); i++)
         new_access_as_interpreted(w, accesses[i]);
   }
   /* What the tier knows of the lanes of registers it does not write
    * itself: a pair whose low halves are one value (a double of a small
    * integer) but not its high halves is no uniform source, and a scan
    * of a uniform value is not uniform either; either, taken as uniform,
    * would make lanes 8 bytes apart look consecutive. */
   static const char *const facts[][3] = {
      {"d2i_s of a pair with uniform low halves", "i2d_s v30, v0\nmov v30, #0",
       "d2i_s v32, v30"},
      {"an exclusive scan of a uniform value", "mov v31, #1", "scan.iadd.excl v32, v31"},
   };
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\n"
                        "ldr.b64 u0 +0\n"
                        "ldr.b64 u2 +8\n"
                        "s2r.local_index v0\n"
                        "%s\n"
                        "%s              ; the local index\n"
                        "shl v33, v32, #2\n"
                        "shl v35, v0, #2\n"
                        "iadd v36, v33, v35   ; 8 * the local index\n"
                        "zext64 v38, v36\n"
                        "iadd64 v38, v38, u0\n"
                        "ldg.b32 v40, v38\n"
                        "zext64 v42, v35\n"
                        "iadd64 v42, v42, u2\n"
                        "stg.b32 _, v42, v40\n"
                        "exit\n",
                        facts, sizeof(facts) / sizeof(facts[0]));
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      fprintf(stderr, "   W=%u: %u ALU cases, %zu accesses and reductions\n", w,
              done_count[wi], sizeof(accesses) / sizeof(accesses[0]));
   }
}

/*
 * A block's global access to the address of an earlier one reuses its
 * host address, but not where the address register was written between
 * them, where the earlier one is in a selection's body the later one is
 * not in (the warps taking none of it), or where the earlier one went
 * chunk by chunk (odd warps here): the results are the interpreter's.
 */
static void test_reused_addresses(void)
{
   static const char *const cases[][3] = {
      {"x[i] += 1, z[i] = y[i] through one register",
       "iadd64 v6, v4, u0\nldg.b32 v10, v6\niadd v10, v10, #1\nstg.b32 _, v6, v10\n"
       "iadd64 v8, v4, u2\nldg.b32 v11, v8\niadd64 v8, v4, u4\nstg.b32 _, v8, v11\n"},
      {"a load in the body of a selection even warps take, a store after it",
       "iadd64 v16, v4, u0\ns2r.warp_id u10\nand u11, u10, #1\nmov v13, u11\n"
       "icmp.eq v12, v13, #0\n"
       "if _, v12 @e\n   ldg.b32 v14, v16\n   iadd v14, v14, #5\ne: endif\n"
       "stg.b32 _, v16, v1\n"},
      /* A block with a load and a store to one address, then (after an
       * instruction the tier does not take) one of its own where the same
       * host slot's load and store are strided. */
      {"a vec4's components loaded, two stored back (16 bytes a lane)",
       "iadd64 v6, v4, u2\nldg.b32 v8, v6\niadd v8, v8, #9\nstg.b32 _, v6, v8\n"
       "imulhi_u u13, u13, u13\ns2r.local_index v0\ns2r.group_id_x u10\n"
       "s2r.group_size_x u11\nimad v1, u10, u11, v0\n"
       "shl v20, v1, #4\nzext64 v22, v20\niadd64 v22, v22, u0\nldg.b32 v10, v22\n"
       "ldg.b32 v11, v22 +4\niadd v10, v10, #5\nstg.b32 _, v22, v10\nstg.b32 _, v22, v11 +8\n"},
      {"a load odd warps do chunk by chunk, a store to the same addresses",
       "s2r.lane_id v20\ns2r.warp_id u12\nand u13, u12, #1\n"
       "isub v21, v1, v20\nshl v21, v21, #1\n"
       "shr_u v22, v20, #3\nshl v22, v22, #4\nand v23, v20, #7\niadd v22, v22, v23\n"
       "sel v24, u13, v22, v20\niadd v25, v21, v24\nshl v25, v25, #2\n"
       "zext64 v26, v25\niadd64 v26, v26, u6\n"
       "ldg.b32 v28, v26\niadd v28, v28, #3\nstg.b32 _, v26, v28\n"},
   };
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\nldr.b64 u4 +16\n"
                        "ldr.b64 u6 +24\n" GLOBAL_INDEX "shl v2, v1, #2\nzext64 v4, v2\n%s%sexit\n",
                        cases, EDGES(cases));
}

/*
 * Loads by reference (hw_jit.c, plan_byref): an LDG whose one reader is an
 * ALU run leaves its words in global memory for it. The results are the
 * interpreter's where both loads are read by one sum; where the first
 * load's words are read after a load the block leaves to the interpreter
 * (lanes' words swapped in pairs: its words must be in the register by
 * then); where a load is read by two runs; where a store to the loaded
 * words comes before the reader; where the reader writes the register
 * again and stores it.
 */
static void test_loads_by_reference(void)
{
   static const char *const cases[][3] = {
      {"y[i] += x[i]", "iadd64 v6, v4, u0\nldg.b32 v10, v6\niadd64 v8, v4, u2\n"
                       "ldg.b32 v11, v8\niadd v11, v10, v11\nstg.b32 _, v8, v11\n"},
      {"a load read after one the block leaves to the interpreter",
       "iadd64 v6, v4, u0\nldg.b32 v10, v6\ns2r.lane_id v20\nxor v20, v20, #1\n"
       "iadd v20, v20, v1\nshl v20, v20, #2\nzext64 v22, v20\niadd64 v22, v22, u2\n"
       "ldg.b32 v12, v22\niadd v13, v10, v12\niadd64 v8, v4, u4\nstg.b32 _, v8, v13\n"},
      {"a load read by two runs",
       "iadd64 v6, v4, u0\nldg.b32 v10, v6\niadd v11, v10, #1\niadd64 v8, v4, u2\n"
       "ldg.b32 v12, v8\niadd v12, v12, v10\nstg.b32 _, v8, v12\niadd64 v8, v4, u4\n"
       "stg.b32 _, v8, v11\n"},
      {"a store to the loaded words before their reader",
       "iadd64 v6, v4, u0\nldg.b32 v10, v6\nstg.b32 _, v6, v1\niadd v10, v10, #3\n"
       "iadd64 v8, v4, u2\nstg.b32 _, v8, v10\n"},
      {"the reader writes the register again",
       "iadd64 v6, v4, u0\nldg.b32 v10, v6\niadd v10, v10, #1\nimul v11, v10, v10\n"
       "iadd64 v8, v4, u2\nstg.b32 _, v8, v11\nstg.b32 _, v6, v10\n"},
   };
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\nldr.b64 u4 +16\n"
                        "ldr.b64 u6 +24\n" GLOBAL_INDEX "shl v2, v1, #2\nzext64 v4, v2\n%s%sexit\n",
                        cases, EDGES(cases));
}

/*
 * The lane strides a block infers for its addresses (hw_jit.c,
 * plan_strides): a load through addresses computed as below gives the
 * interpreter's results, whether they are consecutive (a product by an
 * immediate, a sum of strides), strided (gathered: a vec4's components,
 * strides 8, 12 and 64) or not (a difference of strides 6 and -2,
 * pairs of lanes sharing a word, a product by a uniform register,
 * addresses set in a selection's body that odd warps skip), or
 * consecutive only in each chunk of 8 lanes (a 2D workgroup's rows of 16
 * or 8: the local index & 15 and >> 4; rows of 4 are not).
 */
static void test_lane_strides(void)
{
   static const char *const cases[][3] = {
      {"local index * 4", "shl v20, v1, #2\n"},
      {"local index * 4 as a product", "imul v20, v1, #4\n"},
      {"local index * 4 as a product and a sum", "shl v21, v1, #1\nimad v20, v1, #2, v21\n"},
      {"rows of 16, 64 words apart", "and v20, v0, #15\nshr_u v21, v0, #4\nshl v21, v21, #6\n"
                                     "iadd v20, v20, v21\nshl v20, v20, #2\n"},
      {"rows of 8, 64 words apart", "and v20, v0, #7\nshr_u v21, v0, #3\nshl v21, v21, #6\n"
                                    "iadd v20, v20, v21\nshl v20, v20, #2\n"},
      {"rows of 4, 64 words apart", "and v20, v0, #3\nshr_u v21, v0, #2\nshl v21, v21, #6\n"
                                    "iadd v20, v20, v21\nshl v20, v20, #2\n"},
      {"8 * lane - 4 * lane", "shl v20, v0, #3\nisub v20, v20, v0\nisub v20, v20, v0\n"
                              "isub v20, v20, v0\nisub v20, v20, v0\n"},
      {"6 * lane - -2 * lane", "imul v20, v0, #6\nimul v21, v0, #0xfffffffe\n"
                               "isub v20, v20, v21\n"},
      {"pairs of lanes", "shl v20, v1, #2\nand v20, v20, #0xfffffff8\n"},
      {"a product by a uniform register", "mov u13, #2\nimul v20, v0, u13\nshl v20, v20, #2\n"},
      {"local index * 16: a vec4's x", "shl v20, v1, #4\n"},
      {"local index * 16 + 12: a vec4's w", "shl v20, v1, #4\niadd v20, v20, #12\n"},
      {"local index * 8", "shl v20, v1, #3\n"},
      {"local index * 12", "imul v20, v1, #12\n"},
      {"local index * 64", "shl v20, v1, #6\n"},
      {"consecutive in even warps' selection only",
       "mov v20, #0\ns2r.warp_id u10\nand u11, u10, #1\nmov v13, u11\n"
       "icmp.eq v12, v13, #0\nif _, v12 @e\n   shl v20, v1, #2\ne: endif\n"},
   };
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\n" GLOBAL_INDEX "%s%s"
                        "zext64 v22, v20\niadd64 v22, v22, u0\nldg.b32 v24, v22\n"
                        "shl v26, v1, #2\nzext64 v28, v26\niadd64 v28, v28, u2\n"
                        "stg.b32 _, v28, v24\nexit\n",
                        cases, EDGES(cases));
}

/*
 * Buffer offsets as the compiler forms them (compiler/sc_translate.c
 * scaled64): the pair sext(x) << k, as SHL by k and SHR_S by 32 - k of x
 * into its halves or SEXT64, added to a uniform base (here 4 KiB into the
 * buffer, so negative offsets stay inside it). The analysis knows such a
 * sum's high halves agree when lane 0's and lane W-1's do (HI_SEXT); the
 * offsets here are negative in some lanes and positive in others, whole
 * warps of each, and rows of 16 (consecutive in chunks of 8 only); and
 * look-alikes that are not a sign extension (a shift pair that does not
 * match, an SHL that overwrites x). Results are the interpreter's.
 */
static void test_sign_extended_offsets(void)
{
   static const char *const cases[][3] = {
      {"the global index, shifted", "shl v20, v1, #2\nshr_s v21, v1, #30\n"},
      {"the global index * 4, sign-extended", "shl v19, v1, #2\nsext64 v20, v19\n"},
      {"the global index - 200", "iadd v18, v1, #0xffffff38\nshl v20, v18, #2\n"
                                 "shr_s v21, v18, #30\n"},
      {"the global index - 60: a warp across zero", "iadd v18, v1, #0xffffffc4\n"
                                                    "shl v20, v18, #2\nshr_s v21, v18, #30\n"},
      {"rows of 16, 64 words apart", "and v18, v0, #15\nshr_u v17, v0, #4\nshl v17, v17, #6\n"
                                     "iadd v18, v18, v17\nshl v20, v18, #2\nshr_s v21, v18, #30\n"},
      {"the global index * 2, shifted", "shl v20, v1, #3\nshr_s v21, v1, #29\n"},
      {"a shift pair that does not match", "shl v20, v1, #2\nshr_s v21, v1, #29\n"},
      {"x overwritten by its shift", "mov v20, v1\nshl v20, v20, #2\nshr_s v21, v20, #30\n"},
   };
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\n" GLOBAL_INDEX
                        "iadd64 u4, u0, #4096\n%s%s"
                        "iadd64 v22, v20, u4\nldg.b32 v24, v22\n"
                        "shl v26, v1, #2\nzext64 v28, v26\niadd64 v28, v28, u2\n"
                        "stg.b32 _, v28, v24\nexit\n",
                        cases, EDGES(cases));
}

/*
 * A block that does not loop prefetches a global access at a displacement
 * from its address where the analysis knows how far the next warp's is
 * (jit_stepped counts them): from the global index, the lane alone (0:
 * none), a root table word, in blocks inside the program's straight
 * prefix and after it (the root table's registers written once, in it);
 * not where a uniform register from the warp's index, a ballot, or
 * a selection's body that some warps skip takes part (each case's store
 * goes to the global index through the warp's index: never known).
 * Results are the interpreter's.
 */
static void test_warp_steps(void)
{
   static const struct {
      const char *name, *text;
      bool known;
   } cases[] = {
      {"the global index", "shl v20, v1, #2\n", true},
      {"the lane", "s2r.lane_id v21\nshl v20, v21, #2\n", true},
      {"a root table word", "ldr.b32 u12 +0\nand u12, u12, #64\nshl v20, v1, #2\n"
                            "iadd v20, v20, u12\n", true},
      {"after a subgroup operation", "ballot u16, v0\nshl v20, v1, #2\n", true},
      {"after the prefix", "mov v30, #1\nif _, v30 @e\ne: endif\nballot u16, v0\n"
                           "shl v20, v1, #2\n", true},
      {"the warp's index", "s2r.warp_id u12\nshl u12, u12, #9\ns2r.lane_id v21\n"
                           "shl v20, v21, #2\niadd v20, v20, u12\n", false},
      {"a ballot", "icmp.lt_u v21, v0, #40\nballot u12, v21\nand u12, u12, #64\n"
                   "shl v20, v1, #2\niadd v20, v20, u12\n", false},
      {"a selection's body", "mov u12, #0\ns2r.warp_id u13\nmov v21, u13\n"
                             "icmp.eq v22, v21, #0\nif _, v22 @e\n   mov u12, #64\n"
                             "e: endif\nshl v20, v1, #2\niadd v20, v20, u12\n", false},
   };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      for (uint32_t c = 0; c < EDGES(cases); c++) {
         char text[1024];
         snprintf(text, sizeof(text),
                  ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\n" GLOBAL_INDEX "%s"
                  "zext64 v22, v20\niadd64 v22, v22, u0\nldg.b32 v24, v22\n"
                  "s2r.warp_id u14\nimul u14, u14, #%u\nimul u15, u8, u9\n"
                  "s2r.lane_id v26\niadd v26, v26, u14\niadd v26, v26, u15\n"
                  "shl v26, v26, #2\nzext64 v28, v26\niadd64 v28, v28, u2\n"
                  "stg.b32 _, v28, v24\nexit\n", w, cases[c].text, w);
         same_memory_as_interpreted(cases[c].name, w, text);
         struct eut t;
         struct hw_gpu_config cfg;
         eut_config(&cfg);
         eut_init(&t, &cfg);
         uint64_t buf[2] = {eut_alloc(&t, 1 << 16, 64), eut_alloc(&t, 1 << 16, 64)};
         eut_run(&t, &(struct eut_launch){.program = eut_program(&t, text), .grid = {3},
                                          .size = {128}, .root = eut_root(&t, buf, 2)},
                 cases[c].name);
         uint64_t got = stats_of(&t).jit_stepped;
         bool known = jit_expected() && cases[c].known;
         HWT_CHECK(known ? got > 0 : got == 0, "W=%u, %s: %llu accesses prefetched by their "
                   "warp step (%s)", w, cases[c].name, (unsigned long long)got,
                   known ? "expected some" : "expected none");
         eut_fini(&t);
      }
   }
}

/*
 * A loop whose body keeps more registers than a block has ymm registers
 * for (16 values of the global index, added up; 4 trips): the block goes
 * on in a new segment, through the register file, where it ended before;
 * a block that ended there left the back edge to a block that does not
 * start at the loop's head, and the interpreter ran it every trip. The
 * sums are the interpreter's, and only each CTA's last warp's EXIT is
 * interpreted.
 */
static void test_long_runs(void)
{
   enum { CTAS = 3, VALUES = 16, TRIPS = 4 };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi], size = 8 * w, count = size * CTAS;
      struct eut_text t = {0};
      eut_text_add(&t, ".warp %u\nldr.b64 u0 +0\n" GLOBAL_INDEX "mov v30, #0\nmov u10, #0\nh:\n",
                   w);
      for (uint32_t k = 0; k < VALUES; k++)
         eut_text_add(&t, "imul v%u, v1, #%u\n", 2 + k, 3 + 2 * k);
      for (uint32_t k = 0; k < VALUES; k++)
         eut_text_add(&t, "iadd v30, v30, v%u\n", 2 + k);
      eut_text_add(&t, "iadd u10, u10, #1\nicmp.lt_u u11, u10, #%u\nbra_u _, u11 @h\n"
                       "shl v31, v1, #2\nzext64 v32, v31\niadd64 v32, v32, u0\n"
                       "stg.b32 _, v32, v30\nexit\n", TRIPS);
      static uint32_t got[2][8 * 64 * CTAS];
      struct hw_gpu_stats st[2];
      run_pair("long run", t.s, CTAS, size, 0, count, (uint32_t *const[2]){got[0], got[1]}, st);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < count; i++) {
         uint32_t sum = 0;
         for (uint32_t k = 0; k < VALUES; k++)
            sum += TRIPS * i * (3 + 2 * k);
         bad += got[0][i] != sum || got[1][i] != sum;
      }
      HWT_CHECK(!bad, "W=%u: %u sums wrong", w, bad);
      check_interpreted(&st[0], CTAS, w, size);   /* the last warp's EXIT */
      free(t.s);
   }
}

/*
 * What a program's straight prefix computes (a 2D workgroup's row and
 * column, hw_jit.c prefix_facts) a loop's block knows of the registers
 * nothing on the way back to it writes: rows of 16 and 8 words (loaded
 * chunk by chunk, unchecked lane by lane) and of 4 (not chunk-
 * consecutive), every one written again after the loop, give the
 * interpreter's results; so does a row register the loop itself
 * rewrites on its first trip to pairs of lanes sharing a word, which the
 * block must then check lane by lane; and a block inside the prefix,
 * which reads a register (zero: one word for every lane) before the
 * prefix's end writes the local index into it.
 */
static void test_prefix_facts(void)
{
   static const char *const cases[][3] = {
      {"rows of 16", "and v20, v0, #15\nshr_u v21, v0, #4\n", ""},
      {"rows of 8", "and v20, v0, #7\nshr_u v21, v0, #3\n", ""},
      {"rows of 4", "and v20, v0, #3\nshr_u v21, v0, #2\n", ""},
      {"rows of 16 rewritten in the loop", "and v20, v0, #15\nshr_u v21, v0, #4\n",
       "shr_u v20, v20, #1\n"},
   };
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\n" GLOBAL_INDEX "%s"
                        "shl v21, v21, #6\niadd v20, v20, v21\n"
                        "s2r.group_id_x u10\nshl u10, u10, #9\niadd v20, v20, u10\n"
                        "mov v30, #0\nmov u12, #0\n"
                        "h: shl v22, v20, #2\nzext64 v24, v22\niadd64 v24, v24, u0\n"
                        "   ldg.b32 v26, v24\niadd v30, v30, v26\n"
                        "   %siadd u12, u12, #1\nicmp.lt_u u13, u12, #3\nbra_u _, u13 @h\n"
                        "mov v20, #0\nmov v21, #0\n"
                        "shl v27, v1, #2\nzext64 v28, v27\niadd64 v28, v28, u2\n"
                        "stg.b32 _, v28, v30\nexit\n",
                        cases, EDGES(cases));
   static const char *const inside[][3] = {{"a register read before the prefix writes it", "",
                                            ""}};
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\n" GLOBAL_INDEX "%s%s"
                        "imulhi_u u9, u9, u9\nshl v20, v21, #2\nzext64 v22, v20\n"
                        "iadd64 v22, v22, u0\nldg.b32 v24, v22\n"
                        "shl v26, v1, #2\nzext64 v28, v26\niadd64 v28, v28, u2\n"
                        "stg.b32 _, v28, v24\nmov v21, v0\nexit\n",
                        inside, EDGES(inside));
}

/*
 * A grid-stride loop's block checks at its entry whether the loop's index
 * (i += grid size, every write) has lane stride 1, and then knows every
 * trip's addresses of x[i] consecutive (hw_jit.c, plan_strides): loops
 * whose index is the global index, twice it, or 383 minus it, and one
 * whose would-be index also adds the local index every trip, give the
 * interpreter's results.
 */
static void test_loop_indices(void)
{
   static const char *const cases[][3] = {
      {"index of stride 1", "", ""},
      {"index of stride 2", "shl v1, v1, #1\n", ""},
      {"index of stride -1", "mov v3, #383\nisub v1, v3, v1\n", ""},
      /* Not an index: its stride grows by 1 a trip. */
      {"index plus the local index a trip", "", "iadd v1, v1, v0\n"},
   };
   cases_as_interpreted(same_memory_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\nldr.b64 u2 +8\n" GLOBAL_INDEX "%s"
                        "loop\n"
                        "h: icmp.ge_u v5, v1, #2048\n"
                        "   brk _, v5 @e\n"
                        "   shl v2, v1, #2\nzext64 v4, v2\niadd64 v6, v4, u0\n"
                        "   ldg.b32 v8, v6\niadd v9, v8, #1000\n"
                        "   iadd64 v10, v4, u2\nstg.b32 _, v10, v9\n"
                        "   %siadd v1, v1, #384\n"
                        "e: endloop @h\nexit\n",
                        cases, EDGES(cases));
}

/* Runs text (W=w, 2 CTAs of 256, 1 KiB of shared memory, root table: the
 * output's VA) compiled and interpreted: each invocation's output word is
 * the same. */
enum { OUT_SIZE = 256, OUT_CTAS = 2, OUT_COUNT = OUT_SIZE * OUT_CTAS };

/* The outputs of a run_pair of 2 CTAs of 256 agree. */
static void outputs_agree(const char *what, uint32_t w, uint32_t (*got)[OUT_COUNT])
{
   uint32_t bad = 0;
   for (uint32_t i = 0; i < OUT_COUNT; i++)
      bad += got[0][i] != got[1][i];
   HWT_CHECK(!bad, "W=%u, %s: %u outputs differ from the interpreter's (first: 0x%x, "
             "interpreter 0x%x)", w, what, bad, got[0][0], got[1][0]);
}

static void same_output_as_interpreted(const char *what, uint32_t w, const char *text)
{
   static uint32_t got[2][OUT_COUNT];
   run_pair(what, text, OUT_CTAS, OUT_SIZE, 4 * OUT_SIZE, OUT_COUNT,
            (uint32_t *const[2]){got[0], got[1]}, NULL);
   outputs_agree(what, w, got);
}

/*
 * LDS of registers a loop block never writes (sgemm's tile row and
 * column): the block finds at its entry whether each chunk of 8 lanes
 * holds one offset (v4: a row of a 16-wide tile) or consecutive ones (v3:
 * a column), inside shared memory (hw_jit.c, emit_tile_kinds); v7 holds
 * neither; v8 is written in the loop. Sums of the loaded words are the
 * interpreter's.
 */
static void test_tile_loads(void)
{
   static const char *const cases[][3] = {{"tile loads",
         "ldr.b64 u0 +0\n" GLOBAL_INDEX
         "and v2, v0, #15\nshr_u v5, v0, #4\n"
         "shl v3, v2, #2\nshl v4, v5, #6\n"
         "and v7, v0, #5\nshl v7, v7, #2\nmov v8, v3\n"
         "iadd v6, v1, #100\nshl v9, v0, #2\n"
         "sts.b32 _, v9, v6\nbar\n"
         "mov v9, #0\nmov u2, #0\n"
         "h: lds.b32 v10, v4\nlds.b32 v11, v3 +4\n"
         "   lds.b32 v12, v7\nlds.b32 v13, v8\n"
         "   lds.b32 v14, v4 +8\n"
         "   iadd v9, v9, v10\nimad v9, v9, #3, v11\n"
         "   imad v9, v9, #5, v12\nimad v9, v9, #7, v13\n"
         "   iadd v9, v9, v14\niadd v8, v8, #4\n"
         "   iadd u2, u2, #1\nicmp.lt_u u3, u2, #4\n"
         "   bra_u _, u3 @h\n"
         "shl v6, v1, #2\nzext64 v12, v6\niadd64 v12, v12, u0\n"
         "stg.b32 _, v12, v9\nexit\n",
         NULL}};
   cases_as_interpreted(same_output_as_interpreted, ".warp %u\n%s%s", cases, EDGES(cases));
}

/*
 * Tile registers in a block that ends at a BAR, where the CTA's warps run
 * the block in turn in one call: each warp's tile kinds are its own (odd
 * warps' row register holds no tile), found again at every warp switch.
 */
static void test_tile_kinds_per_warp(void)
{
   static const char *const cases[][3] = {{"tile kinds per warp",
         "ldr.b64 u0 +0\n" GLOBAL_INDEX
         "s2r.warp_id u4\nand u5, u4, #1\n"
         "and v2, v0, #15\nshr_u v5, v0, #4\n"
         "shl v3, v2, #2\nshl v4, v5, #6\n"
         "and v7, v0, #5\nshl v7, v7, #2\nsel v4, u5, v7, v4\n"
         "iadd v6, v1, #100\nshl v8, v0, #2\n"
         "sts.b32 _, v8, v6\nbar\n"
         "mov v9, #0\nmov u3, #0\n"
         "head: icmp.ge_u u6, u3, #4\n"
         "   bra_u _, u6 @done\n"
         "   lds.b32 v10, v4\nlds.b32 v11, v3 +4\n"
         "   imad v9, v9, #3, v10\niadd v9, v9, v11\n"
         "   bar\n"
         "   iadd u3, u3, #1\n"
         "   jmp @head\n"
         "done: shl v6, v1, #2\nzext64 v12, v6\n"
         "iadd64 v12, v12, u0\nstg.b32 _, v12, v9\nexit\n",
         NULL}};
   cases_as_interpreted(same_output_as_interpreted, ".warp %u\n%s%s", cases, EDGES(cases));
}

/* same_output_as_interpreted, and the same instructions and barrier waits
 * counted (a warp run again after it exited would add some); st: the
 * native tier's GPU's statistics and the interpreter's. */
static void counts_as_interpreted(const char *what, uint32_t w, const char *text,
                                  struct hw_gpu_stats st[2])
{
   static uint32_t got[2][OUT_COUNT];
   run_pair(what, text, OUT_CTAS, OUT_SIZE, 4 * OUT_SIZE, OUT_COUNT,
            (uint32_t *const[2]){got[0], got[1]}, st);
   outputs_agree(what, w, got);
   HWT_CHECK(st[0].warp_instructions == st[1].warp_instructions &&
             st[0].barrier_waits == st[1].barrier_waits,
             "W=%u, %s: %llu instructions and %llu barrier waits counted, the interpreter "
             "counts %llu and %llu", w, what, (unsigned long long)st[0].warp_instructions,
             (unsigned long long)st[0].barrier_waits, (unsigned long long)st[1].warp_instructions,
             (unsigned long long)st[1].barrier_waits);
}

static void same_counts_as_interpreted(const char *what, uint32_t w, const char *text)
{
   struct hw_gpu_stats st[2];
   counts_as_interpreted(what, w, text, st);
}

/*
 * The last warp to arrive at a BAR in a block releases it (hw_jit.c
 * emit_release) only where every other warp waits there: here warp 1
 * returns after the second BAR of the loop's third trip, so at the next
 * trip's second BAR it has that BAR's pc as its last barrier but has
 * exited; the interpreter releases that barrier (the returned invocations
 * count as arrived), and warp 1 stays exited. Results and counts are the
 * interpreter's.
 */
static void test_release_with_returned_warp(void)
{
   static const char *const cases[][3] = {{"a warp returned inside the loop",
         "ldr.b64 u0 +0\n" GLOBAL_INDEX
         "s2r.warp_id u4\n"
         "shl v3, v0, #2\niadd v4, v0, #1\nirem_u v4, v4, u9\nshl v4, v4, #2\n"
         "mov v5, v1\nmov u3, #0\n"
         "head: icmp.ge_u u6, u3, #5\nbra_u _, u6 @done\n"
         "   sts.b32 _, v3, v5\n   bar\n   lds.b32 v6, v4\n   iadd v5, v5, v6\n   bar\n"
         "   icmp.eq u10, u4, #1\n   icmp.eq u11, u3, #2\n   and u12, u10, u11\n"
         "   mov v9, u12\n   icmp.ne v10, v9, #0\n   ret _, v10 @cont\n"
         "cont: iadd u3, u3, #1\n   jmp @head\n"
         "done: shl v6, v1, #2\nzext64 v12, v6\niadd64 v12, v12, u0\nstg.b32 _, v12, v5\n"
         "exit\n",
         NULL}};
   cases_as_interpreted(same_counts_as_interpreted, ".warp %u\n.barrier\n%s%s", cases,
                        EDGES(cases));
}

/* IDIV_U and IREM_U by immediate powers of two, the tier's shifts
 * (hw_jit.c imm_shift), at the ends: by 1 (the remainder 0, a shift by 32)
 * and by 2^31; each result moves the output word. */
static void test_divisions_by_powers_of_two(void)
{
   static const char *const cases[][3] = {
      {"quotients and remainders by 1, 2, 256 and 2^31",
       "ldr.b64 u0 +0\n" GLOBAL_INDEX "imul v2, v1, #0x9e3779b9\n"
       "irem_u v3, v2, #1\nirem_u v4, v2, #2\nirem_u v5, v2, #256\n"
       "irem_u v6, v2, #0x80000000\nidiv_u v7, v2, #1\nidiv_u v8, v2, #2\n"
       "idiv_u v9, v2, #256\nidiv_u v10, v2, #0x80000000\n"
       "imad v11, v3, #3, v4\nimad v11, v11, #5, v5\nimad v11, v11, #7, v6\n"
       "imad v11, v11, #11, v7\nimad v11, v11, #13, v8\nimad v11, v11, #17, v9\n"
       "imad v11, v11, #19, v10\n"
       "shl v12, v1, #2\nzext64 v14, v12\niadd64 v14, v14, u0\nstg.b32 _, v14, v11\n"
       "exit\n",
       NULL}};
   cases_as_interpreted(same_output_as_interpreted, ".warp %u\n%s%s", cases, EDGES(cases));
}

/*
 * A BRA_U straight after a run's uniform instructions tests the value the
 * last of them left in eax (hw_jit.c eax_after) only where that one wrote
 * its register: taken and not, after a run of uniform instructions only
 * (an ICMP's result, a MOV's), and after a run whose last instruction is
 * a vector one whose register number is the branch's (eax holds another
 * uniform register's 0 there, and the branch is taken: falling through
 * would store 99).
 */
static void test_branches_after_uniforms(void)
{
#define STORE_V3                                                                                 \
   "taken: shl v1, v0, #2\nzext64 v4, v1\niadd64 v4, v4, u0\nstg.b32 _, v4, v3\nexit\n"
   static const char *const cases[][3] = {
      {"an ICMP's result, taken",
       "ldr.b64 u0 +0\ns2r.local_index v0\niadd v3, v0, #7\nmov u6, #2\n"
       "icmp.lt_u u3, u6, #3\nbra_u _, u3 @taken\nmov v3, #99\n" STORE_V3, NULL},
      {"an ICMP's result, not taken",
       "ldr.b64 u0 +0\ns2r.local_index v0\niadd v3, v0, #7\nmov u6, #5\n"
       "icmp.lt_u u3, u6, #3\nbra_u _, u3 @taken\nmov v3, #99\n" STORE_V3, NULL},
      {"a vector instruction's register number",
       "ldr.b64 u0 +0\ns2r.local_index v0\nmov u3, #1\nmov u5, #0\niadd v3, v0, #7\n"
       "bra_u _, u3 @taken\nmov v3, #99\n" STORE_V3, NULL}};
#undef STORE_V3
   cases_as_interpreted(same_output_as_interpreted, ".warp %u\n%s%s", cases, EDGES(cases));
}

/*
 * A CTA's warps sweep a block ending at a BAR (hw_jit.c emit_sweep_bar):
 * each runs it in turn without being marked at the BAR until one leaves
 * the block, here warp 2 on one trip, at an LDG swapping its lanes' words
 * in pairs that trip (in the block after the first BAR), or at an STS
 * doing the same (in the block after the second, which the sweep entered
 * chained from the first, and which follows the loop's JMP or BRA_U back
 * to the STS). The warps before it must
 * then wait at the BAR (marked there), the warps after it run from the
 * block's start, and the one leaving goes on interpreted: each lane adds
 * its value from half a workgroup away, so a warp running past a BAR
 * early would overwrite what another has yet to read. Results and counts
 * are the interpreter's, and the BARs sweeps release are counted.
 */
static void test_sweeps(void)
{
#define SWEEP_LOOP(STS, LDG)                                                   \
   "ldr.b64 u0 +0\n" GLOBAL_INDEX "s2r.warp_id u4\n"                           \
   "shl v3, v0, #2\niadd v4, v0, #128\nirem_u v4, v4, u9\nshl v4, v4, #2\n"     \
   "mov v5, v1\nmov u3, #0\n"                                                  \
   "head: icmp.ge_u u6, u3, #5\nbra_u _, u6 @done\n"                           \
   "   icmp.eq u10, u4, #2\n" STS "   bar\n"                                   \
   "   lds.b32 v6, v4\n   iadd v5, v5, v6\n" LDG "   bar\n"                   \
   "   iadd u3, u3, #1\n   jmp @head\n"                                        \
   "done: shl v6, v1, #2\nzext64 v12, v6\niadd64 v12, v12, u0\n"                \
   "stg.b32 _, v12, v5\nexit\n"
#define SWEEP_STS "   sts.b32 _, v3, v5\n"
#define SWEEP_LDG ""
   static const char *const cases[][3] = {
      {"a warp leaving a sweep at an LDG",
       SWEEP_LOOP(SWEEP_STS, "   icmp.eq u11, u3, #2\n   and u12, u10, u11\n"
                             "   xor v12, v0, u12\n"
                             "   shl v12, v12, #2\n   zext64 v14, v12\n"
                             "   iadd64 v14, v14, u0\n   ldg.b32 v11, v14\n"),
       NULL},
      {"a warp leaving a chained sweep at an STS",
       SWEEP_LOOP("   icmp.eq u11, u3, #3\n   and u12, u10, u11\n"
                  "   xor v13, v0, u12\n   shl v13, v13, #2\n   sts.b32 _, v13, v5\n",
                  SWEEP_LDG),
       NULL},
      {"sweeps left by no warp", SWEEP_LOOP(SWEEP_STS, SWEEP_LDG), NULL},
      /* The loop closed by a BRA_U back to its head (bench_eu's barrier
       * loop): the block after the second BAR follows it, taken, to the
       * STS and the first BAR; not taken, the interpreter runs it. */
      {"a loop closed by a BRA_U, left at an STS",
       "ldr.b64 u0 +0\n" GLOBAL_INDEX "s2r.warp_id u4\n"
       "shl v3, v0, #2\niadd v4, v0, #128\nirem_u v4, v4, u9\nshl v4, v4, #2\n"
       "mov v5, v1\nmov u3, #0\nicmp.eq u10, u4, #2\n"
       "head: icmp.eq u11, u3, #3\n   and u12, u10, u11\n   xor v13, v0, u12\n"
       "   shl v13, v13, #2\n   sts.b32 _, v13, v5\n   bar\n"
       "   lds.b32 v6, v4\n   iadd v5, v5, v6\n   bar\n"
       "   iadd u3, u3, #1\n   icmp.lt_u u6, u3, #5\n   bra_u _, u6 @head\n"
       "shl v6, v1, #2\nzext64 v12, v6\niadd64 v12, v12, u0\nstg.b32 _, v12, v5\nexit\n",
       NULL},
   };
#undef SWEEP_LOOP
#undef SWEEP_STS
#undef SWEEP_LDG
   /* Per CTA, the BARs a sweep releases (jit_sweeps): the loop's 10 but
    * its first (the other warps are still in the prefix when the first
    * reaches it) and the one a warp leaves the sweep before. */
   static const uint32_t swept[] = {8, 8, 9, 8};
   _Static_assert(EDGES(swept) == EDGES(cases), "one count per case");
   for (int wi = 0; wi < 4; wi++) {
      for (uint32_t c = 0; c < EDGES(cases); c++) {
         char text[4096];
         snprintf(text, sizeof(text), ".warp %u\n.barrier\n%s", eut_widths[wi], cases[c][1]);
         struct hw_gpu_stats st[2];
         counts_as_interpreted(cases[c][0], eut_widths[wi], text, st);
         uint64_t want = jit_expected() ? OUT_CTAS * swept[c] : 0;
         HWT_CHECK(st[0].jit_sweeps == want && st[1].jit_sweeps == 0,
                   "W=%u, %s: %llu barriers released by sweeps, expected %llu (the "
                   "interpreter's GPU: %llu)", eut_widths[wi], cases[c][0],
                   (unsigned long long)st[0].jit_sweeps, (unsigned long long)want,
                   (unsigned long long)st[1].jit_sweeps);
      }
   }
}

/*
 * Tile kinds a warp found, kept for its later visits of a block where
 * nothing on the way back writes the tile register (hw_jit.c
 * written_between_visits, struct hw_warp tile_cache): found again where a
 * loop alternates the register between a tile's row and its column
 * (written in a block of its own between the visits); cleared for the
 * next CTA (even CTAs load rows, odd ones columns). The command processor
 * runs the CTAs, so that they share one context, in turn.
 */
static void test_tile_kind_cache(void)
{
   static const char *const cases[][3] = {
      {"a tile register alternating between trips",
       "mov v7, v4\n"
       "head: icmp.ge_u u6, u3, #4\nbra_u _, u6 @done\n"
       "   lds.b32 v10, v7\nimad v9, v9, #3, v10\n"
       "   bar\n"
       "   and u7, u3, #1\nsel v7, u7, v4, v3\n"
       "   bar\n"
       "   iadd u3, u3, #1\n"
       "   jmp @head\n"},
      {"rows in even CTAs, columns in odd ones",
       "and u5, u8, #1\nsel v7, u5, v3, v4\n"
       "head: icmp.ge_u u6, u3, #4\nbra_u _, u6 @done\n"
       "   lds.b32 v10, v7\nimad v9, v9, #3, v10\n"
       "   bar\n"
       "   iadd u3, u3, #1\n"
       "   jmp @head\n"}};
   pair_threads = 0;
   cases_as_interpreted(same_output_as_interpreted,
                        ".warp %u\nldr.b64 u0 +0\n" GLOBAL_INDEX
                        "and v2, v0, #15\nshr_u v5, v0, #4\nshl v3, v2, #2\nshl v4, v5, #6\n"
                        "iadd v6, v1, #100\nshl v8, v0, #2\nsts.b32 _, v8, v6\nbar\n"
                        "mov v9, #0\nmov u3, #0\n%s"
                        "done: shl v6, v1, #2\nzext64 v12, v6\niadd64 v12, v12, u0\n"
                        "stg.b32 _, v12, v9\nexit\n%s",
                        cases, EDGES(cases));
   pair_threads = UINT32_MAX;
}

/*
 * sgemm's unrolled k-loop: LDSs of two tile registers, each step's
 * product added into a sum, in one block after the BAR, which runs them
 * as a fused run (hw_jit.c emit_fused) in the variant of the warp's tile
 * kinds: warps 0, 1, 2, 3 (mod 4) find them (1, 2), (2, 1), (0, 2: the
 * unfused segments) and (1, 1). A uniform register written inside the
 * run is read after its write. Sums are the interpreter's, bit for bit.
 */
static void test_fused_runs(void)
{
   static const char *const cases[][3] = {{"fused runs",
         "ldr.b64 u0 +0\n" GLOBAL_INDEX
         "s2r.warp_id u4\nand u5, u4, #3\n"
         "and v2, v0, #15\nshr_u v5, v0, #4\n"
         "shl v3, v2, #2\nshl v4, v5, #6\n"
         "and v9, v0, #5\nshl v9, v9, #2\n"
         "mov v7, v4\nmov v8, v3\n"
         "icmp.eq u6, u5, #1\nsel v7, u6, v3, v7\nsel v8, u6, v4, v8\n"
         "icmp.eq u6, u5, #2\nsel v7, u6, v9, v7\n"
         "icmp.eq u6, u5, #3\nsel v8, u6, v4, v8\n"
         "iadd v6, v1, #3\ni2f_s v6, v6\nshl v10, v0, #2\n"
         "sts.b32 _, v10, v6\nbar\n"
         "mov v11, #0\n"
         "lds.b32 v12, v7\nlds.b32 v13, v8\nfmul v14, v12, v13\nfadd v11, v11, v14\n"
         "lds.b32 v12, v7 +4\nlds.b32 v13, v8 +16\nfmul v14, v12, v13\n"
         "fadd v11, v11, v14\n"
         "mov u8, #3\nimad v15, v2, u8, v5\ni2f_s v15, v15\nfadd v11, v11, v15\n"
         "lds.b32 v12, v7 +8\nlds.b32 v13, v8 +32\nfmul v14, v12, v13\n"
         "fadd v11, v11, v14\n"
         "shl v6, v1, #2\nzext64 v12, v6\niadd64 v12, v12, u0\n"
         "stg.b32 _, v12, v11\nexit\n",
         NULL}};
   cases_as_interpreted(same_output_as_interpreted, ".warp %u\n%s%s", cases, EDGES(cases));
}

/*
 * bench_compute's reduction's first loop: each invocation sums the words
 * a grid's stride apart, so each warp's load walks the buffer 128 bytes a
 * trip (W=32) across 40 pages, in a block that loops; the sums are right
 * (the buffer's tail is a partial trip).
 */
static void test_loop_over_pages(void)
{
   enum { SIZE = 128, CTAS = 2, COUNT = SIZE * CTAS, WORDS = 40000 };
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t in = eut_alloc(&t, 4 * WORDS, 64), out = eut_alloc(&t, 4 * COUNT, 64);
      uint32_t *x = eut_ptr(&t, in);
      for (uint32_t i = 0; i < WORDS; i++)
         x[i] = i * 2654435761u;
      uint64_t root[3] = {in, out, WORDS};
      uint64_t prog = eut_programf(&t, ".warp %u\n"
                                      "ldr.b64 u0 +0\nldr.b64 u2 +8\nldr.b32 u4 +16\n"
                                      "s2r.local_index v0\ns2r.group_id_x u8\n"
                                      "s2r.group_size_x u9\ns2r.num_groups_x u10\n"
                                      "imad v1, u8, u9, v0\nimul u11, u9, u10\n"
                                      "mov v2, #0\nmov v3, v1\n"
                                      "loop\n"
                                      "head: icmp.ge_u v4, v3, u4\n"
                                      "   brk _, v4 @end\n"
                                      "   shl v5, v3, #2\nzext64 v6, v5\n"
                                      "   iadd64 v6, v6, u0\nldg.b32 v8, v6\n"
                                      "   iadd v2, v2, v8\n"
                                      "   iadd v3, v3, u11\n"
                                      "end: endloop @head\n"
                                      "shl v5, v1, #2\nzext64 v6, v5\n"
                                      "iadd64 v6, v6, u2\nstg.b32 _, v6, v2\n"
                                      "exit\n", w);
      eut_run(&t, &(struct eut_launch){.program = prog, .grid = {CTAS}, .size = {SIZE},
                                       .root = eut_root(&t, root, 3)},
              "loop over pages");
      const uint32_t *y = eut_ptr(&t, out);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < COUNT; i++) {
         uint32_t sum = 0;
         for (uint32_t k = i; k < WORDS; k += COUNT)
            sum += x[k];
         bad += y[i] != sum;
      }
      HWT_CHECK(!bad, "W=%u: %u sums wrong", w, bad);
      eut_fini(&t);
   }
}

/*
 * bench_compute's barrier loop: every invocation stores its value to
 * shared memory, waits, adds its right neighbour's (wrapping in the CTA),
 * waits; a uniform counter closes the loop with a JMP. The blocks ending
 * at each BAR go on with the CTA's next warp themselves, the one after
 * the second BAR following the JMP to the head, and the last warp to
 * arrive releases the BAR (hw_jit.c emit_release). In CTAs of whole
 * warps, exactly these are interpreted per CTA: each warp's IREM_U (not
 * compiled), BRA_U leaving the loop and EXIT; with a partial last warp,
 * that warp (the blocks do not switch to it), which also arrives last at
 * every BAR and runs it. The counts (instructions, barrier waits) and the
 * results are the interpreter's, at every width.
 */
static void test_barriers_in_blocks(void)
{
   enum { TRIPS = 5, CTAS = 3 };
   static const uint32_t sizes[] = {256, 100};
   for (int wi = 0; wi < 4; wi++) {
      for (int si = 0; si < 2; si++) {
         uint32_t w = eut_widths[wi], size = sizes[si], count = size * CTAS;
         struct eut gpus[2];
         init_pair(&gpus[0], &gpus[1]);
         struct hw_gpu_stats st[2];
         for (int g = 0; g < 2; g++) {
            struct eut *t = &gpus[g];
            uint64_t out = eut_alloc(t, 4 * count, 64);
            uint64_t root[2] = {out, TRIPS};
            uint64_t prog = eut_programf(t, ".warp %u\n"
                                            "ldr.b64 u0 +0\nldr.b32 u2 +8\n"
                                            "s2r.local_index v0\ns2r.group_id_x u8\n"
                                            "s2r.group_size_x u9\nimad v1, u8, u9, v0\n"
                                            "shl v3, v0, #2\niadd v4, v0, #1\n"
                                            "irem_u v4, v4, u9\nshl v4, v4, #2\n"
                                            "mov v5, v1\nmov u3, #0\n"
                                            "head: icmp.ge_u u4, u3, u2\n"
                                            "   bra_u _, u4 @done\n"
                                            "   sts.b32 _, v3, v5\n"
                                            "   bar\n"
                                            "   lds.b32 v6, v4\n"
                                            "   iadd v5, v5, v6\n"
                                            "   bar\n"
                                            "   iadd u3, u3, #1\n"
                                            "   jmp @head\n"
                                            "done: shl v6, v1, #2\nzext64 v8, v6\n"
                                            "iadd64 v8, v8, u0\nstg.b32 _, v8, v5\n"
                                            "exit\n", w);
            eut_run(t, &(struct eut_launch){.program = prog, .grid = {CTAS}, .size = {size},
                                            .shared_bytes = 4 * size,
                                            .root = eut_root(t, root, 2)},
                    "barrier loop");
            uint32_t *x = malloc(4 * count), *next = malloc(4 * count);
            HWT_REQUIRE(x && next, "out of memory");
            for (uint32_t i = 0; i < count; i++)
               x[i] = i;
            for (uint32_t k = 0; k < TRIPS; k++) {
               for (uint32_t i = 0; i < count; i++)
                  next[i] = x[i] + x[i - i % size + (i % size + 1) % size];
               memcpy(x, next, 4 * count);
            }
            const uint32_t *y = eut_ptr(t, out);
            uint32_t bad = 0;
            for (uint32_t i = 0; i < count; i++)
               bad += y[i] != x[i];
            HWT_CHECK(!bad, "W=%u, %u invocations%s: %u results wrong", w, size,
                      g ? " (interpreted)" : "", bad);
            free(x);
            free(next);
            st[g] = stats_of(t);
         }
         HWT_CHECK(st[0].warp_instructions == st[1].warp_instructions &&
                   st[0].barrier_waits == st[1].barrier_waits,
                   "W=%u, %u invocations: %llu instructions and %llu barrier waits counted, "
                   "the interpreter counts %llu and %llu", w, size,
                   (unsigned long long)st[0].warp_instructions,
                   (unsigned long long)st[0].barrier_waits,
                   (unsigned long long)st[1].warp_instructions,
                   (unsigned long long)st[1].barrier_waits);
         /* A partial last warp runs everything interpreted (19 instructions
          * and 9 a trip) and arrives last at every BAR; the others, each
          * but for IREM_U and BRA_U, run compiled, EXIT included but for
          * the last warp's. */
         uint64_t warps = (size + w - 1) / w;
         uint64_t interpreted = size % w == 0 ? CTAS * (2 * warps + 1)
                                              : CTAS * (2 * (warps - 1) + 19 + 9 * TRIPS);
         uint64_t exits = size % w == 0 ? CTAS * warps : CTAS * (warps - 1);
         check_interpreted(&st[0], interpreted, w, size);
         HWT_CHECK(!jit_expected() || st[0].jit_exits == exits, "W=%u, %u invocations: "
                   "compiled runs left %llu instructions to the interpreter, expected %llu", w,
                   size, (unsigned long long)st[0].jit_exits, (unsigned long long)exits);
         eut_fini(&gpus[0]);
         eut_fini(&gpus[1]);
      }
   }
}

/* Loops that never end (closed by ENDLOOP, BRA_U and JMP), run by their
 * blocks: a block hands the last of the back-edge budget to the
 * interpreter, so the watchdog still fires. */
static void test_compiled_loop_watchdog(void)
{
   static const char *const loops[] = {
      ".warp 32\nmov v2, #0\nloop\n"
      "h: mov v1, #0\n   brk _, v1 @e\n   iadd v2, v2, #1\ne: endloop @h\nexit\n",
      ".warp 32\nmov v2, #0\nmov u1, #1\nh: iadd v2, v2, #1\n   bra_u _, u1 @h\nexit\n",
      ".warp 32\nmov v2, #0\nh: iadd v2, v2, #1\n   jmp @h\nexit\n",
      /* The block after the BAR follows the JMP back to h: the warps
       * sweep it, and the sweep goes on into the block itself. */
      ".warp 32\nmov v2, #0\nh: iadd v2, v2, #1\n   bar\n   jmp @h\nexit\n",
      /* Two blocks between BARs, the sweep chained from one to the other
       * (hw_jit.c emit_sweep_bar): the JMP's budget still runs out. */
      ".warp 32\nmov v2, #0\nh: iadd v2, v2, #1\n   bar\n   iadd v2, v2, #2\n   bar\n"
      "   jmp @h\nexit\n",
   };
   for (int k = 0; k < 5; k++) {
      struct hw_gpu_config cfg;
      eut_config(&cfg);
      cfg.watchdog_ms = 200;
      struct eut t;
      eut_init(&t, &cfg);
      struct eut_launch l = {.program = eut_program(&t, loops[k]), .grid = {2}, .size = {64}};
      uint64_t desc = eut_desc(&t, &l);
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch(pb.p, desc);
      enum hw_wait_result r = eut_submit(&t, &pb);
      HWT_CHECK(r == HW_WAIT_LOST, "loop %d: wait returned %d, expected the device lost", k,
                (int)r);
      const char *report = hw_gpu_fault_report(t.gpu);
      HWT_CHECK(report && strstr(report, "watchdog"), "loop %d: no watchdog report: %s", k,
                report ? report : "(none)");
      /* No check of the counters here: a faulting CTA's are added after
       * the fault is reported, so the host may read them before. That
       * these loops run compiled is test_loops_in_blocks' to show. */
      HWT_CHECK(!jit_expected() || stats_of(&t).jit_blocks > 0, "loop %d: nothing compiled", k);
      eut_fini(&t);
   }
}

/* With jit_perf_map, /tmp/perf-<pid>.map gets one line per compiled block
 * of the program ("START SIZE softgpu_p<id>_w<w>_pc<pc>", perf's format):
 * as many as jit_blocks counts, in pc order, each block starting where the
 * one before ends. */
/* A GPU whose compiled blocks go to the perf map. */
static void init_perf_map(struct eut *t)
{
   struct hw_gpu_config cfg;
   eut_config(&cfg);
   cfg.jit_perf_map = true;
   eut_init(t, &cfg);
}

static void test_perf_map(void)
{
   if (!jit_expected())
      return;
   struct eut t;
   init_perf_map(&t);
   uint64_t prog = eut_program(&t, ".warp 16\n"
                                   "s2r.local_index v0\nmov v1, #0\nmov u0, #4\n"
                                   "h: iadd v1, v1, v0\n   iadd u0, u0, #-1\n   bra_u _, u0 @h\n"
                                   "fmul v2, v1, v1\nmembar\nfadd v3, v2, v1\nexit\n");
   eut_run(&t, &(struct eut_launch){.program = prog, .grid = {1}, .size = {32}}, "perf map");
   uint64_t blocks = stats_of(&t).jit_blocks;
   char path[64], name[64];
   snprintf(path, sizeof(path), "/tmp/perf-%ld.map", (long)getpid());
   FILE *f = fopen(path, "r");
   HWT_CHECK(f, "no %s", path);
   uint64_t lines = 0, end = 0;
   long last_pc = -1;
   unsigned long long start, size;
   char want[64];
   int wn = snprintf(want, sizeof(want), "softgpu_p%llu_w16_pc", (unsigned long long)prog);
   while (f && fscanf(f, "%llx %llx %63s", &start, &size, name) == 3) {
      if (strncmp(name, want, (size_t)wn) != 0)
         continue;
      long pc = strtol(name + wn, NULL, 10);
      HWT_CHECK(size > 0 && pc > last_pc && (!lines || start == end),
                "line %llu: %llx %llx %s after pc %ld ending at %llx", (unsigned long long)lines,
                start, size, name, last_pc, (unsigned long long)end);
      last_pc = pc;
      end = start + size;
      lines++;
   }
   if (f)
      fclose(f);
   HWT_CHECK(blocks > 1 && lines == blocks, "%llu lines name the program's blocks, %llu compiled",
             (unsigned long long)lines, (unsigned long long)blocks);
   eut_fini(&t);
}

/* Runs test_perf_map's program with jit_perf_map on (in a child). */
static void run_with_perf_map(void)
{
   struct eut t;
   init_perf_map(&t);
   uint64_t prog = eut_program(&t, ".warp 16\ns2r.local_index v0\nmov v1, #0\n"
                                   "iadd v1, v1, v0\nfmul v2, v1, v1\nmembar\nexit\n");
   eut_run(&t, &(struct eut_launch){.program = prog, .grid = {1}, .size = {32}}, "perf map");
   eut_fini(&t);
}

static bool file_is(const char *path, const char *text)
{
   char buf[64] = {0};
   int fd = open(path, O_RDONLY);
   ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
   if (fd >= 0)
      close(fd);
   return n == (ssize_t)strlen(text) && memcmp(buf, text, (size_t)n) == 0;
}

/*
 * /tmp/perf-<pid>.map is in a directory everyone writes: what another user
 * planted there must not get the process's writes. In a child (its own
 * pid, before it starts any thread), with the path made beforehand: a
 * symbolic link to a victim file, a hard link to it, or a file others may
 * write: the victim and the planted file are unchanged. A stale map of
 * this user's (0600, one link) is truncated and rewritten.
 */
static void test_perf_map_planted(void)
{
   if (!jit_expected())
      return;
   static const char *const kinds[] = {"symlink", "hardlink", "writable", "stale"};
   char victim[] = "/tmp/softgpu-victim-XXXXXX";
   int vfd = mkstemp(victim);
   HWT_CHECK(vfd >= 0 && write(vfd, "victim\n", 7) == 7, "cannot make %s", victim);
   close(vfd);
   for (size_t k = 0; k < EDGES(kinds); k++) {
      fflush(NULL);
      pid_t pid = fork();
      if (pid == 0) {
         char path[64];
         snprintf(path, sizeof(path), "/tmp/perf-%ld.map", (long)getpid());
         unlink(path);
         int ok = 1, fd;
         if (k == 0)
            ok = symlink(victim, path) == 0;
         else if (k == 1)
            ok = link(victim, path) == 0;
         else if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) >= 0)
            ok = write(fd, "planted\n", 8) == 8 && fchmod(fd, k == 2 ? 0666 : 0600) == 0 &&
                 close(fd) == 0;
         else
            ok = 0;
         if (!ok)
            _exit(3);
         run_with_perf_map();
         bool kept = file_is(victim, "victim\n") &&
                     (k != 2 || file_is(path, "planted\n")) &&
                     (k != 3 || !file_is(path, "planted\n"));
         bool named = false;   /* the stale map now names the program's blocks */
         char line[128] = {0};
         if (k == 3 && (fd = open(path, O_RDONLY)) >= 0) {
            named = read(fd, line, sizeof(line) - 1) > 0 && strstr(line, "softgpu_p");
            close(fd);
         }
         unlink(path);
         _exit(kept && (k != 3 || named) ? 0 : 1);
      }
      int status = -1;
      HWT_CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork");
      HWT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                "perf map over a planted %s: status %d (1: a file changed; 3: not planted)",
                kinds[k], status);
   }
   unlink(victim);
}

/* The line of a fault report naming the warp, lane, pc and instruction. */
static char *fault_line(struct eut *t, const char *what)
{
   const char *report = hw_gpu_fault_report(t->gpu);
   const char *at = report ? strstr(report, ", warp ") : NULL;
   HWT_CHECK(at != NULL, "%s: no fault report", what);
   if (!at)
      return strdup("");
   return strndup(at, strcspn(at, "\n"));
}

/* The native tier's fault line (lines[0], of jit) and the interpreter's
 * (lines[1], of ref) are the same; both GPUs are done with. */
static void same_faults(const char *what, char *lines[2], struct eut *jit, struct eut *ref)
{
   HWT_CHECK(!strcmp(lines[0], lines[1]), "%s: the native tier's fault \"%s\", the "
             "interpreter's \"%s\"", what, lines[0], lines[1]);
   free(lines[0]);
   free(lines[1]);
   eut_fini(jit);
   eut_fini(ref);
}

/* Runs text (W=32, one CTA of 64, root table at VA root) expecting a
 * fault; returns fault_line. */
static char *run_faulting(struct eut *t, const char *text, uint64_t root, const char *what)
{
   struct eut_launch l = {.program = eut_program(t, text), .grid = {1}, .size = {64},
                          .shared_bytes = 4 * 64 + 32, .root = root};
   uint64_t desc = eut_desc(t, &l);
   struct hwt_pb pb;
   eut_begin(t, &pb);
   pb.p = hw_emit_launch(pb.p, desc);
   enum hw_wait_result r = eut_submit(t, &pb);
   HWT_CHECK(r == HW_WAIT_LOST, "%s: wait returned %d, expected the device lost", what, (int)r);
   return fault_line(t, what);
}

/*
 * Accesses the blocks do themselves until a check fails: there the block
 * returns, and the interpreter's fault names the same warp, lane, pc and
 * instruction as when everything is interpreted (SOFTGPU_JIT=0). Each check of the
 * blocks' inline page walk: not live (the guard page after an
 * allocation), misaligned, past the VA space, wrapping, and a full warp
 * running off its allocation's end.
 */
static void test_faults_as_interpreted(void)
{
   static const char *const cases[][2] = {
      {"uniform load past its allocation", "ldg.b32 u4, u0 +4096"},
      {"misaligned uniform load", "ldg.b32 u4, u0 +2"},
      {"root table read far past its table", "ldr.b64 u4 +0xfffffff0"},
      {"uniform load at the top of the VA space", "ldg.b32 u4, u2 +4"},
      {"uniform load wrapping", "ldg.b128 u4, u2"},
      {"warp load running off its allocation", "ldg.b32 v8, v6 +4000"},
      {"warp shared store past shared memory", "sts.b32 _, v2, v0 +64"},
      {"misaligned warp shared load", "lds.b32 v8, v2 +2"},
      {"warp shared load wrapping", "lds.b32 v8, v2 +0xffffffc0"},
      /* Lanes consecutive only in each chunk of 8, chunks 1 KiB apart:
       * warp 0's last chunk is past the allocation. */
      {"chunked warp load running off its allocation",
       "shr_u v10, v0, #3\nshl v10, v10, #10\nand v11, v0, #7\nshl v11, v11, #2\n"
       "iadd v10, v10, v11\nzext64 v12, v10\niadd64 v12, v12, u0\nldg.b32 v8, v12 +1024"},
      {"chunk-broadcast warp load past its allocation",
       "shr_u v10, v0, #3\nshl v10, v10, #10\nzext64 v12, v10\niadd64 v12, v12, u0\n"
       "ldg.b32 v8, v12 +1024"},
      /* A 16-wide row in each half warp, the second half's 1 KiB below the
       * first's: warp 0's first chunk ends where the allocation does, its
       * second (its continuation) is past it, the others are inside. */
      /* Chunks 64 bytes apart: warp 1's second chunk is past shared memory. */
      {"chunked warp shared store past shared memory",
       "shr_u v10, v0, #3\nshl v10, v10, #6\nand v11, v0, #7\nshl v11, v11, #2\n"
       "iadd v10, v10, v11\nsts.b32 _, v10, v0"},
      {"chunk-broadcast warp shared load past shared memory",
       "shr_u v10, v0, #3\nshl v10, v10, #6\nlds.b32 v8, v10"},
      /* No lane breaks, but there is no loop to leave. */
      {"BRK outside a loop", "mov v10, #0\nbrk _, v10 @0"},
      /* Warp 0 waits at the first BAR, in a block that goes on with warp
       * 1 at its start; warp 1 branches to the other. */
      /* Warp 0's load ends where the allocation does (its page kept in
       * the CTA's page slot), warp 1's is all in the next page. */
      {"warp load of the page after another warp's", "ldg.b32 v8, v6 +3968"},
      /* Warp 0's load is in the allocation's last page, warp 1's starts
       * there and runs past it from lane 16 on. */
      {"warp load straddling from another warp's page", "ldg.b32 v8, v6 +3904"},
      /* A loop's load walks a warp's 128 bytes a trip, in a block that
       * loops: warp 0's 33rd is past the allocation, in the next page. */
      {"warp load in a loop running into the next page",
       "loop\nh: ldg.b32 v8, v6\niadd64 v6, v6, #128\nendloop @h"},
      /* The same from 64 bytes in: warp 0's 32nd straddles the
       * allocation's end (its first page live), lanes 16 on past it. */
      {"warp load in a loop running off its allocation",
       "iadd64 v6, v6, #64\nloop\nh: ldg.b32 v8, v6\niadd64 v6, v6, #128\nendloop @h"},
      /* The cases from here on start with an instruction the native tier
       * does not take: what follows is a block of its own (the template's
       * registers would leave it too few ymm). */
      /* Lanes 16 bytes apart (a vec4 array's x): lane 16 on past the
       * allocation; the block checks the span before it gathers. */
      {"strided warp load running off its allocation",
       "imulhi_u u9, u9, u9\ns2r.lane_id v30\nshl v20, v30, #4\nzext64 v22, v20\n"
       "iadd64 v26, v22, u0\n"
       "ldg.b32 v8, v26 +3840\nmov v9, v26"},
      {"strided warp store running off its allocation",
       "imulhi_u u9, u9, u9\ns2r.lane_id v30\nshl v20, v30, #4\nzext64 v22, v20\n"
       "iadd64 v26, v22, u0\n"
       "stg.b32 _, v26, v30 +3840\nmov v9, v26"},
      /* Lanes 0-3's 64-bit sums carry, the others' do not: lane 0's
       * address is the allocation's, lane 4's 4 GiB below it. */
      {"warp load whose high halves differ by a carry",
       "imulhi_u u9, u9, u9\nmov u6, #16\nmov u7, #0xffffffff\niadd64 u4, u0, u6\ns2r.lane_id v30\n"
       "shl v20, v30, #2\niadd v20, v20, #0xfffffff0\nzext64 v22, v20\n"
       "iadd64 v26, v22, u4\nldg.b32 v8, v26\nmov v9, v22"},
      /* Lanes 8-15's sums carry, lanes 0-7's and 16-31's do not (the
       * sum's low halves wrap, then the summand's): lane 0 and lane 31
       * agree. The sum's low halves are then written again, consecutive:
       * its high halves are not known any more. */
      {"warp load whose high halves differ in the middle lanes",
       "imulhi_u u9, u9, u9\ns2r.lane_id v30\nshl v20, v30, #2\niadd v20, v20, #0xffffffc0\n"
       "zext64 v22, v20\n"
       "mov u6, #0x20\nmov u7, u1\niadd64 v26, v22, u6\nshl v26, v30, #2\n"
       "iadd v26, v26, u0\nldg.b32 v8, v26"},
      /* A 16-wide row in each half warp, the second half's 1 KiB below the
       * first's: the first chunk ends where the allocation does, the
       * second (its continuation) is past it, the others are inside. */
      {"16-wide row running off its allocation",
       "imulhi_u u9, u9, u9\ns2r.lane_id v30\nand v10, v30, #15\nshr_u v11, v30, #4\n"
       "imul v11, v11, #0xfffffc00\niadd v11, v11, #1024\nshl v10, v10, #2\n"
       "iadd v10, v10, v11\nzext64 v12, v10\niadd64 v12, v12, u0\nldg.b32 v8, v12 +3040"},
      /* Rows of 8 and of 16 whose sums' low halves are consecutive but
       * whose carries drop: in row 0's chunk after lane 3 (rows 32 bytes
       * apart, below a base 4 GiB - 128 under the allocation's); between a
       * 16-wide row's chunks (the second 4 GiB below). */
      {"row of 8 whose high halves differ by a carry",
       "imulhi_u u9, u9, u9\nmov u6, #128\nmov u7, #0xffffffff\niadd64 u4, u0, u6\n"
       "s2r.lane_id v30\nand v10, v30, #7\nshl v10, v10, #2\nshr_u v11, v30, #3\n"
       "imul v11, v11, #0xffffffe0\niadd v10, v10, v11\niadd v10, v10, #0xfffffff0\n"
       "zext64 v12, v10\niadd64 v26, v12, u4\nldg.b32 v8, v26"},
      {"row of 16 whose second chunk's high halves differ by a carry",
       "imulhi_u u9, u9, u9\nmov u6, #64\nmov u7, #0xffffffff\niadd64 u4, u0, u6\n"
       "s2r.lane_id v30\nand v10, v30, #15\nshl v10, v10, #2\nshr_u v11, v30, #4\n"
       "imul v11, v11, #0xffffffe0\niadd v10, v10, v11\niadd v10, v10, #0xffffffe0\n"
       "zext64 v12, v10\niadd64 v26, v12, u4\nldg.b32 v8, v26"},
      /* The same with the carries dropping inside the row's second chunk
       * (lane 12): its first lane agrees with the first chunk's. */
      {"row of 16 whose high halves differ inside its second chunk",
       "imulhi_u u9, u9, u9\nmov u6, #64\nmov u7, #0xffffffff\niadd64 u4, u0, u6\n"
       "s2r.lane_id v30\nand v10, v30, #15\nshl v10, v10, #2\nshr_u v11, v30, #4\n"
       "imul v11, v11, #0xfffffff0\niadd v10, v10, v11\niadd v10, v10, #0xffffffd0\n"
       "zext64 v12, v10\niadd64 v26, v12, u4\nldg.b32 v8, v26"},
      /* One shared offset per chunk of 8 lanes (64 bytes apart), in a
       * block that never writes it: warp 1's chunks past shared memory. */
      {"shared load of a tile register past shared memory",
       "shr_u v10, v0, #3\nshl v10, v10, #6\nimulhi_u u9, u9, u9\nlds.b32 v8, v10"},
      {"misaligned shared load of a tile register",
       "shr_u v10, v0, #3\nshl v10, v10, #5\niadd v10, v10, #2\nimulhi_u u9, u9, u9\n"
       "lds.b32 v8, v10"},
      /* Neighbours' words swapped in pairs (a gathered tile): 200 bytes
       * further, lanes 22 on are past shared memory (288 bytes); the odd
       * lanes' 2 bytes further, each chunk's first offset is aligned. */
      {"gathered tile register past shared memory",
       "shl v10, v0, #2\nxor v10, v10, #4\niadd v10, v10, #200\nimulhi_u u9, u9, u9\n"
       "lds.b32 v8, v10"},
      {"misaligned lane of a gathered tile register",
       "shl v10, v0, #2\nxor v10, v10, #4\nand v11, v0, #1\nshl v11, v11, #1\n"
       "iadd v10, v10, v11\nimulhi_u u9, u9, u9\nlds.b32 v8, v10"},
      /* A sum whose summand's high halves are not all one: 16 in lanes
       * 8-23, 0 in lanes 0-7 and 24-31, whose ends agree. */
      {"warp load whose summand's high halves differ in the middle lanes",
       "imulhi_u u9, u9, u9\ns2r.lane_id v30\nshl v22, v30, #2\niadd v23, v30, #8\n"
       "and v23, v23, #16\niadd64 v26, v22, u0\nldg.b32 v8, v26"},
      /* A sign extension's high halves: lanes 0-3's are 0, the others'
       * all ones (their low halves have the sign bit). */
      {"warp load whose high halves differ by a sign extension",
       "imulhi_u u9, u9, u9\nmov u6, #0x80000010\nmov u7, #0xffffffff\niadd64 u4, u0, u6\n"
       "s2r.lane_id v30\n"
       "shl v20, v30, #2\niadd v20, v20, #0x7ffffff0\nsext64 v22, v20\n"
       "iadd64 v26, v22, u4\nldg.b32 v8, v26\nmov v9, v22"},
      /* The same with the summand dead after the sum. */
      {"warp load whose high halves differ by a carry, its summand dead",
       "imulhi_u u9, u9, u9\nmov u6, #16\nmov u7, #0xffffffff\niadd64 u4, u0, u6\ns2r.lane_id v30\n"
       "shl v20, v30, #2\niadd v20, v20, #0xfffffff0\nzext64 v22, v20\n"
       "iadd64 v26, v22, u4\nldg.b32 v8, v26"},
      /* The same with the summand's register written again after the sum:
       * its new lanes do not wrap, the sum's carries still differ. */
      {"warp load whose high halves differ by a carry, its summand rewritten",
       "imulhi_u u9, u9, u9\nmov u6, #16\nmov u7, #0xffffffff\niadd64 u4, u0, u6\ns2r.lane_id v30\n"
       "shl v20, v30, #2\niadd v20, v20, #0xfffffff0\nzext64 v22, v20\n"
       "iadd64 v26, v22, u4\nshl v22, v30, #2\nldg.b32 v8, v26\nmov v9, v22"},
      {"two different barriers reached from blocks",
       "s2r.warp_id u4\nbra_u _, u4 @other\niadd v8, v0, #1\nbar\njmp @end\n"
       "other: iadd v8, v0, #2\nbar\nend: mov v9, #0"},
   };
   for (uint32_t c = 0; c < EDGES(cases); c++) {
      char text[1024];
      snprintf(text, sizeof(text), ".warp 32\n"
                                   "ldr.b64 u0 +0\nldr.b64 u2 +8\n"
                                   "s2r.local_index v0\nshl v2, v0, #2\nzext64 v4, v2\n"
                                   "iadd64 v6, v4, u0\n%s\nexit\n", cases[c][1]);
      struct eut jit, ref;
      init_pair(&jit, &ref);
      char *lines[2];
      struct eut *gpus[2] = {&jit, &ref};
      for (int g = 0; g < 2; g++) {
         uint64_t buf = hwt_alloc(gpus[g]->gpu, 4096);   /* a guard page follows */
         uint64_t root[4] = {buf, UINT64_MAX - 7, 0, 0};
         lines[g] = run_faulting(gpus[g], text, eut_root(gpus[g], root, 4), cases[c][0]);
      }
      HWT_CHECK(!jit_expected() || stats_of(&jit).jit_blocks > 0, "%s: nothing compiled",
                cases[c][0]);
      same_faults(cases[c][0], lines, &jit, &ref);
   }
}

/*
 * The CTA's root window (the page of the root table an LDR found live):
 * an LDR past it or before it is checked again, and faults as
 * interpreted: a root table of a page, followed by its allocation's
 * guard page; a root VA in the guard page before a buffer (its live
 * words 4096 on). Each block on the way leaves the faulting LDR to the
 * interpreter once, counted once (jit_exits), also where the LDR is the
 * program's first instruction.
 */
static void test_root_window_faults(void)
{
   /* exits: LDRs in a row are left once for the run's check of the window
    * and once for the faulting one's own. */
   static const struct {
      const char *what, *text;
      uint64_t exits;
   } cases[] = {
      {"root table read in the page after the table's",
       ".warp 32\nldr.b64 u0 +0\ns2r.local_index v0\nshl v2, v0, #2\n"
       "ldr.b64 u2 +4096\nexit\n", 1},
      {"root table read in the page before the one read",
       ".warp 32\nldr.b64 u0 +4096\ns2r.local_index v0\nshl v2, v0, #2\n"
       "ldr.b64 u2 +8\nexit\n", 1},
      /* LDRs in a row: one check of the window for all of them. */
      {"root table reads in a row, the last in the page after the table's",
       ".warp 32\nldr.b64 u0 +0\ns2r.local_index v0\nshl v2, v0, #2\n"
       "ldr.b64 u2 +8\nldr.b64 u4 +4096\nexit\n", 2},
      {"root table reads in a row, the last in the page before the one read",
       ".warp 32\nldr.b64 u0 +4096\ns2r.local_index v0\nshl v2, v0, #2\n"
       "ldr.b64 u2 +4104\nldr.b64 u4 +8\nexit\n", 2},
      {"root table read at the program's start in the page after the table's",
       ".warp 32\nldr.b64 u0 +4096\ns2r.local_index v0\nshl v2, v0, #2\nexit\n", 1},
      {"root table read at the program's start in the guard page before a buffer",
       ".warp 32\nldr.b64 u0 +0\ns2r.local_index v0\nshl v2, v0, #2\nexit\n", 1},
   };
   for (uint32_t c = 0; c < EDGES(cases); c++) {
      struct eut jit, ref;
      init_pair(&jit, &ref);
      char *lines[2];
      struct eut *gpus[2] = {&jit, &ref};
      for (int g = 0; g < 2; g++) {
         uint64_t buf = hwt_alloc(gpus[g]->gpu, 4096);   /* a guard page follows */
         uint64_t root = c % 2 == 0 ? buf : buf - 4096;
         lines[g] = run_faulting(gpus[g], cases[c].text, root, cases[c].what);
      }
      /* The loss is signalled inside the faulting CTA, before the thread
       * running it adds the CTA's counts: stopped, every count is in. */
      hw_gpu_stop(jit.gpu);
      uint64_t exits = stats_of(&jit).jit_exits;
      HWT_CHECK(!jit_expected() || exits == cases[c].exits, "%s: %llu exits counted, expected "
                "%llu", cases[c].what, (unsigned long long)exits,
                (unsigned long long)cases[c].exits);
      same_faults(cases[c].what, lines, &jit, &ref);
   }
}

int main(void)
{
   HWT_RUN(test_perf_map_planted);   /* first: its children fork a process with no thread */
   HWT_RUN(test_random_programs);
   HWT_RUN(test_new_instructions_interpreted);
   HWT_RUN(test_faults_as_interpreted);
   HWT_RUN(test_root_window_faults);
   HWT_RUN(test_accesses_in_blocks);
   HWT_RUN(test_loops_in_blocks);
   HWT_RUN(test_loop_over_pages);
   HWT_RUN(test_shuffle_of_dead_register);
   HWT_RUN(test_barriers_in_blocks);
   HWT_RUN(test_exits_in_blocks);
   HWT_RUN(test_reused_addresses);
   HWT_RUN(test_loads_by_reference);
   HWT_RUN(test_lane_strides);
   HWT_RUN(test_sign_extended_offsets);
   HWT_RUN(test_warp_steps);
   HWT_RUN(test_loop_indices);
   HWT_RUN(test_prefix_facts);
   HWT_RUN(test_long_runs);
   HWT_RUN(test_tile_loads);
   HWT_RUN(test_tile_kinds_per_warp);
   HWT_RUN(test_fused_runs);
   HWT_RUN(test_tile_kind_cache);
   HWT_RUN(test_release_with_returned_warp);
   HWT_RUN(test_sweeps);
   HWT_RUN(test_divisions_by_powers_of_two);
   HWT_RUN(test_branches_after_uniforms);
   HWT_RUN(test_selections_in_blocks);
   HWT_RUN(test_compiled_loop_watchdog);
   HWT_RUN(test_perf_map);
   return hwt_finish();
}
