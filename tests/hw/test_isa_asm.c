/*
 * test_isa_asm: the ISA's text form and program validation (hw_isa.c), and
 * the softgpu-asm tool.
 *
 * Pins down:
 * - every instruction, with random operands (vector, uniform, immediate
 *   with index bits, none with index bits), random modifiers (each named
 *   value, rounding modes, the flags .64 / .excl / .f16 / .sat / .uaddr /
 *   .clusterN, memory widths .b8 to .b128, unnamed values) and random
 *   immediates / offsets / branch targets, 200 each: the line
 *   isa_disassemble writes assembles (isa_assemble_line) to the same
 *   instruction, bit for bit;
 * - hand-written programs (labels, forward and backward references,
 *   directives .warp .vregs .uregs .stack .barrier .line, ';' and '//'
 *   comments, blank lines, several labels on one line, every mnemonic of
 *   ISA version 3 with its modifiers) and random whole
 *   programs: disassemble(assemble(text)) reassembles to identical bytes,
 *   and disassembling that gives the same text again; labels resolve to the
 *   right instruction indices; .line entries land in the line table;
 * - a .line after the last instruction survives the round trip, and so
 *   does the text of a program of long instructions;
 * - assembler errors name the line: unknown instruction, unknown modifier,
 *   bad operand, too many operands, unknown label, bad directive;
 * - isa_program_validate accepts the programs above and refuses: bad magic,
 *   bad W, an unknown opcode, an operand past the declared registers
 *   (pairs and wider memory accesses included, the binary64 group's pairs
 *   and one-register operands, which fit in the last register), a byte or
 *   halfword access of another width or on LDR, a branch target outside
 *   the code, an immediate operand on a memory instruction, a stack
 *   deeper than ISA_MAX_STACK;
 * - a program whose LDG.b128 reaches past its registers is refused by the
 *   GPU rather than run into the next warp's registers;
 * - a program without ".line" assembles (no line table, no undefined
 *   behaviour: the build-asan configuration checks);
 * - softgpu-asm: FILE.s -o FILE.bin gives isa_assemble_program's bytes,
 *   -d FILE.bin prints text that the tool assembles back to the same
 *   bytes; a bad file fails with the line number.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "eut.h"

/* ---- single instructions ------------------------------------------------------------ */

static uint16_t random_operand(uint64_t *rng)
{
   uint64_t r = eut_rand(rng);
   uint16_t index = (uint16_t)(r % 4 == 0 ? (r >> 8) & 0x3fff : (r >> 8) % 256);
   switch ((r >> 32) % 5) {
   case 0: case 1: return ISA_V(index);
   case 2: return ISA_U(index);
   case 3: return (uint16_t)(ISA_IMM | (r % 3 == 0 ? index : 0));
   default: return (uint16_t)(ISA_NONE | (r % 3 == 0 ? index : 0));
   }
}

static uint16_t random_mod(enum isa_op op, uint64_t *rng)
{
   uint64_t r = eut_rand(rng);
   uint32_t names = 0;
   switch (op) {
   case ISA_OP_ICMP: case ISA_OP_ICMP64: names = ISA_ICMP_COUNT; break;
   case ISA_OP_FCMP: case ISA_OP_DCMP: case ISA_OP_HCMP: names = ISA_FCMP_COUNT; break;
   case ISA_OP_F2H: case ISA_OP_D2F: case ISA_OP_D2H: names = ISA_RND_COUNT; break;
   case ISA_OP_IDP4: names = ISA_DP4_COUNT; break;
   case ISA_OP_FMATH1: case ISA_OP_FMATH2: names = ISA_FM_COUNT; break;
   case ISA_OP_S2R: names = ISA_SR_COUNT; break;
   case ISA_OP_ATOMG: case ISA_OP_ATOMS: case ISA_OP_CASG: case ISA_OP_CASS:
      names = ISA_ATOM_COUNT;
      break;
   case ISA_OP_VOTE: names = 3; break;
   case ISA_OP_SHFL: names = 4; break;
   case ISA_OP_REDUCE: case ISA_OP_SCAN: names = ISA_RED_COUNT; break;
   default: break;
   }
   if (isa_op_info[op].cls == ISA_CLASS_MEM) {
      static const uint16_t widths[] = {1, 2, 4, 0, 3, 7, ISA_MEM_SUB | 1, ISA_MEM_SUB | 2,
                                        ISA_MEM_SUB | 4, ISA_MEM_SUB};
      uint16_t m = widths[r % 10];
      if ((r >> 8) & 1)
         m |= ISA_MEM_UNIFORM_ADDR;
      if ((r >> 9) % 8 == 0)
         m |= (uint16_t)((r >> 16) & 0xffe0);
      return m;
   }
   switch ((r >> 32) % 8) {
   case 0: return 0;
   case 1: case 2: return names ? (uint16_t)((r >> 8) % names) : 0;
   case 3: return (uint16_t)((names ? (r >> 8) % names : 0) | 0x100u);   /* .64 / .excl */
   case 4: return (uint16_t)(r >> 16);
   case 5:   /* the flags and fields of REDUCE, SCAN and IDP4 (.64 .f16 .clusterN .sat) */
      return (uint16_t)((names ? (r >> 8) % names : 0) | ((r >> 40) & 0x3f04u));
   default: return (uint16_t)((r >> 16) & 0xff);
   }
}

static uint32_t random_imm(uint64_t *rng)
{
   uint64_t r = eut_rand(rng);
   switch (r % 4) {
   case 0: return 0;
   case 1: return (uint32_t)(r >> 32) % 64;
   case 2: return (uint32_t)-(int32_t)((r >> 32) % 4096);
   default: return (uint32_t)(r >> 32);
   }
}

static struct isa_inst random_inst(enum isa_op op, uint64_t *rng)
{
   struct isa_inst in = {.op = (uint16_t)op, .dst = random_operand(rng),
                         .a = random_operand(rng), .b = random_operand(rng),
                         .c = random_operand(rng), .mod = random_mod(op, rng),
                         .imm = random_imm(rng)};
   /* Trailing operands absent now and then, as most instructions have. */
   uint64_t r = eut_rand(rng) % 4;
   if (r >= 1)
      in.c = ISA_NONE;
   if (r >= 2)
      in.b = ISA_NONE;
   if (r >= 3)
      in.a = ISA_NONE;
   return in;
}

static void test_instruction_round_trip(void)
{
   uint64_t rng = 0x5eed;
   for (uint32_t op = 0; op < ISA_OP_COUNT; op++) {
      uint32_t bad = 0;
      for (int k = 0; k < 200; k++) {
         struct isa_inst in = random_inst((enum isa_op)op, &rng), out;
         char text[256], err[128] = "";
         bool empty = false;
         isa_disassemble(&in, text, sizeof(text));
         bool ok = isa_assemble_line(text, &out, &empty, err, sizeof(err)) && !empty &&
                   memcmp(&in, &out, sizeof(in)) == 0;
         if (!ok && bad++ < 2) {
            char back[256] = "";
            if (!empty && !err[0])
               isa_disassemble(&out, back, sizeof(back));
            HWT_CHECK(false, "%s: \"%s\" (op %u dst 0x%x a 0x%x b 0x%x c 0x%x mod 0x%x imm %u) "
                      "does not assemble back: %s%s", isa_op_info[op].name, text, in.op, in.dst,
                      in.a, in.b, in.c, in.mod, in.imm, err[0] ? err : "differs: ", back);
         }
      }
      if (bad > 2)
         HWT_CHECK(false, "%s: %u of 200 random instructions do not round-trip",
                   isa_op_info[op].name, bad);
   }
}

/* ---- whole programs ------------------------------------------------------------------- */

static void *assemble(const char *text, size_t *size)
{
   char err[256];
   void *image = isa_assemble_program(text, size, err, sizeof(err));
   HWT_CHECK(image, "does not assemble: %s\n%s", err, text);
   return image;
}

/* assemble -> disassemble -> assemble gives identical bytes and text. */
static void round_trip(const char *name, const char *text)
{
   size_t size1, size2, size3;
   void *image1 = assemble(text, &size1);
   if (!image1)
      return;
   char *text2 = isa_disassemble_program(image1, size1);
   HWT_REQUIRE(text2, "%s: no disassembly", name);
   void *image2 = assemble(text2, &size2);
   if (image2) {
      bool same = size1 == size2 && memcmp(image1, image2, size1) == 0;
      if (!same) {
         size_t i = 0;
         while (i < size1 && i < size2 && ((uint8_t *)image1)[i] == ((uint8_t *)image2)[i])
            i++;
         bool show = strlen(text) < 2000;
         HWT_CHECK(false, "%s: reassembled image differs (%zu and %zu bytes, first at byte %zu)"
                   "%s%s%s%s", name, size1, size2, i, show ? "\n--- text ---\n" : "",
                   show ? text : "", show ? "--- disassembly ---\n" : "", show ? text2 : "");
      }
      char *text3 = isa_disassemble_program(image2, size2);
      void *image3 = text3 ? assemble(text3, &size3) : NULL;
      HWT_CHECK(text3 && strcmp(text2, text3) == 0, "%s: the disassembly changes on a second "
                "round", name);
      free(text3);
      free(image3);
   }
   free(image1);
   free(image2);
   free(text2);
}

static const char *const hand_written[] = {
   /* labels, forward and backward, several on a line, comments, directives */
   "; a reduction\n"
   ".warp 16\n"
   ".barrier\n"
   "   ldr.b64 u0 +0      // root word 0\n"
   "\n"
   ".line 3\n"
   "   s2r.local_index v0\n"
   "   mov u5, #64\n"
   "top: bar\n"
   "   icmp.lt_u v20, v0, u5 ; comment\n"
   "   if _, v20 @skip\n"
   "      lds.b32 v24, v23 +4\n"
   "      sts.b32 _, v12, v25 -8\n"
   "   skip: endif\n"
   ".line 9\n"
   "   shr_u u5, u5, #1\n"
   "   bra_u _, u5 @top\n"
   "a: b: c: exit\n",
   /* every kind of flow, explicit sizes */
   ".warp 64\n"
   ".vregs 40\n"
   ".uregs 12\n"
   ".stack 5\n"
   "loop\n"
   "h: brk _, v1 @cj\n"
   "   if _, v2 @e\n"
   "      cont _, v3 @cj\n"
   "   e: else @f\n"
   "      ret _, v4 @f\n"
   "   f: endif\n"
   "cj: contjoin @end\n"
   "end: endloop @h\n"
   "jmp @0\n"
   "exit\n",
   /* modifiers and operand forms */
   ".warp 8\n"
   "icmp.ge_u v1, v2, #4294967295\n"
   "fcmp.isinf v1, v2, _\n"
   "fmath1.rcp v3, u4\n"
   "fmath2.ldexp v3, v4, #-3\n"
   "atomg.xchg v1, v2, v3 +16\n"
   "atoms.max_s v1, _, v3 -4\n"
   "scan.fmax.excl v1, v2\n"
   "reduce.imin_u u1, v2\n"
   "vote.eq v1, v2\n"
   "shfl.down v1, v2, #1\n"
   "ldg.b128.uaddr v4, u2 +2147483647\n"
   "stp.b64 _, v1, v2 -2147483648\n"
   "ldr.b32 u9 +12\n"
   "s2r.root_hi u3\n"
   "iadd v1, #7:12, _5\n"
   "nop imm=99\n"
   "membar\n"
   "dfma v1, v2, v3, v4\n"
   "exit\n",
   /* a 64-bit atomic and compare-exchange */
   ".warp 32\n"
   "atomg.add.64 v6, v2, v4\n"
   "casg.64 v6, v2, v4, v8 +8\n"
   "atoms.min_u.64 v6, _, v4\n"
   "exit\n",
   /* switch, levelled break, JEZ, half conversions */
   ".warp 16\n"
   "loop\n"
   "h: switch\n"
   "      brk _, v1 @s\n"
   "      brk.mod1 _, v2 @s\n"
   "   s: endswitch\n"
   "   jez @e\n"
   "   f2h v3, v4\n"
   "   h2f v5, v3\n"
   "e: endloop @h\n"
   "exit\n",
   /* ISA version 3: bytes and halfwords, binary64, binary16, IDP4,
    * floating-point and clustered reductions */
   ".warp 32\n"
   "ldg.b8 v1, v2 +3\n"
   "ldg.b16.uaddr u1, u2 -2\n"
   "stg.b8 _, v2, v4\n"
   "stg.b16 _, v2, u4 +6\n"
   "lds.b8 v1, v3\n"
   "sts.b16 _, v3, v1 +2\n"
   "ldp.b16 v1, _ +2\n"
   "stp.b8 _, v3, v1\n"
   "dadd v10, v12, v14\n"
   "dsub v10, v12, u4\n"
   "dmul v10, v12, #5\n"
   "dfma v10, v12, v14, v16\n"
   "ddiv u10, u12, u14\n"
   "dmin v10, v12, v14\n"
   "dmax v10, v12, v14\n"
   "dneg v10, v12\n"
   "dabs v10, v12\n"
   "dfloor v10, v12\n"
   "dceil v10, v12\n"
   "dtrunc v10, v12\n"
   "drint v10, v12\n"
   "dround v10, v12\n"
   "dfract v10, v12\n"
   "dsqrt v10, v12\n"
   "drsq v10, v12\n"
   "dsign v10, v12\n"
   "dldexp v10, v12, v3\n"
   "dcmp.olt v1, v12, v14\n"
   "dcmp.isnan v1, v12\n"
   "f2d v10, v1\n"
   "d2f v1, v12\n"
   "d2f.rtz v1, v12\n"
   "d2f.rtp v1, v12\n"
   "d2h.rtn v1, v12\n"
   "d2h v1, v12\n"
   "d2i_s v1, v12\n"
   "d2i_u v1, v12\n"
   "i2d_s v10, v1\n"
   "i2d_u v10, v1\n"
   "d2i64_s v10, v12\n"
   "d2i64_u v10, v12\n"
   "i642d_s v10, v12\n"
   "i642d_u v10, v12\n"
   "f2h.rtz v1, v2\n"
   "f2h.rtp v1, v2\n"
   "f2h.rtn v1, v2\n"
   "hadd v1, v2, v3\n"
   "hsub v1, v2, u3\n"
   "hmul v1, v2, #15360\n"
   "hdiv v1, v2, v3\n"
   "hfma v1, v2, v3, v4\n"
   "hsqrt v1, v2\n"
   "hmin v1, v2, v3\n"
   "hmax v1, v2, v3\n"
   "hcmp.uge v1, v2, v3\n"
   "idp4.ss v1, v2, v3, v4\n"
   "idp4.uu.sat v1, v2, v3, _\n"
   "idp4.su.sat v1, v2, u3, #7\n"
   "reduce.fadd.64 v10, v12\n"
   "reduce.fmin.f16 v1, v2\n"
   "reduce.iadd.cluster4 v1, v2\n"
   "reduce.fmax.cluster64.64 u10, v12\n"
   "scan.fmul.excl.f16 v1, v2\n"
   "scan.imax_s.cluster1 v1, v2\n"
   "exit\n",
   /* a .line after the last instruction */
   ".warp 32\n"
   ".line 1\n"
   "mov v0, #1\n"
   "exit\n"
   ".line 2\n",
};

static void test_hand_written(void)
{
   for (size_t i = 0; i < sizeof(hand_written) / sizeof(hand_written[0]); i++) {
      char name[32];
      snprintf(name, sizeof(name), "hand-written program %zu", i);
      round_trip(name, hand_written[i]);
   }
   /* What the first one means. */
   size_t size;
   struct isa_program_header *h = assemble(hand_written[0], &size);
   HWT_REQUIRE(h, "no image");
   const struct isa_inst *code = (const struct isa_inst *)(h + 1);
   const struct isa_line *lines = (const struct isa_line *)(code + h->inst_count);
   HWT_CHECK(h->magic == ISA_MAGIC && h->version == ISA_VERSION && h->warp_width == 16 &&
             h->inst_count == 12 && (h->flags & ISA_PROG_USES_BARRIER) && h->stack_depth == 1 &&
             h->line_count == 2, "header: W %u, %u instructions, flags %u, stack %u, %u lines",
             h->warp_width, h->inst_count, h->flags, h->stack_depth, h->line_count);
   HWT_CHECK(code[5].op == ISA_OP_IF && code[5].imm == 8 && code[8].op == ISA_OP_ENDIF,
             "IF targets its ENDIF (pc 8): %u", code[5].imm);
   HWT_CHECK(code[10].op == ISA_OP_BRA_U && code[10].imm == 3, "BRA_U back to top (pc 3): %u",
             code[10].imm);
   HWT_CHECK(code[6].imm == 4 && code[7].imm == (uint32_t)-8, "memory offsets +4 and -8");
   HWT_CHECK(lines[0].pc == 1 && lines[0].line == 3 && lines[1].pc == 9 && lines[1].line == 9,
             "line table {%u, %u} {%u, %u}", lines[0].pc, lines[0].line, lines[1].pc,
             lines[1].line);
   HWT_CHECK(h->vreg_count >= 26 && h->ureg_count >= 6, "registers sized from the code: %u %u",
             h->vreg_count, h->ureg_count);
   free(h);
}

static void test_random_programs(void)
{
   uint64_t rng = 0xfeed;
   for (int p = 0; p < 50; p++) {
      struct eut_text text = {0};
      eut_text_add(&text, ".warp %u\n.vregs %u\n.uregs %u\n.stack %u\n%s",
                   eut_widths[p % 4], (uint32_t)(eut_rand(&rng) % 257),
                   (uint32_t)(eut_rand(&rng) % 257), (uint32_t)(eut_rand(&rng) % 65),
                   p % 3 == 0 ? ".barrier\n" : "");
      uint32_t n = 1 + (uint32_t)(eut_rand(&rng) % 120);
      for (uint32_t i = 0; i < n; i++) {
         if (eut_rand(&rng) % 16 == 0)
            eut_text_add(&text, ".line %u\n", (uint32_t)(eut_rand(&rng) % 100000));
         if (eut_rand(&rng) % 8 == 0)
            eut_text_add(&text, "l%u: ", i);
         uint32_t op;
         do
            op = (uint32_t)(eut_rand(&rng) % ISA_OP_COUNT);
         while (op == ISA_OP_ATOMG || op == ISA_OP_ATOMS || op == ISA_OP_CASG ||
                op == ISA_OP_CASS);   /* their .64 form is checked apart */
         struct isa_inst in = random_inst((enum isa_op)op, &rng);
         char line[256];
         isa_disassemble(&in, line, sizeof(line));
         eut_text_add(&text, "%s\n", line);
      }
      char name[32];
      snprintf(name, sizeof(name), "random program %d", p);
      round_trip(name, text.s);
      eut_text_free(&text);
   }
}

/* The disassembly of a program of the longest instructions is complete. */
static void test_long_lines(void)
{
   struct eut_text text = {0};
   eut_text_add(&text, ".warp 64\n.vregs 65535\n.uregs 65535\n.stack 65535\n");
   for (int i = 0; i < 200; i++)
      eut_text_add(&text, "ldg.b128.uaddr.mod65512 #4294967295:16383, #4294967295:16383, "
                          "#4294967295:16383, #4294967295:16383\n");
   round_trip("200 of the longest instructions", text.s);
   eut_text_free(&text);
}

static void test_errors(void)
{
   static const struct {
      const char *text, *error;
   } cases[] = {
      {"mov v1, #1\nfoo v1\n", "line 2: unknown instruction \"foo\""},
      {"\n\niadd.b32 v1, v2, v3\n", "line 3: unknown modifier \".b32\""},
      {"iadd v1, w2, v3\n", "line 1: bad operand \"w2\""},
      {"sel v1, v2, v3, v4, v5\n", "line 1: too many operands"},
      {"mov v1, #1\njmp @nowhere\n", "line 2: unknown label \"nowhere\""},
      {".warp\nexit\n", "line 1: bad directive"},
      {".frobnicate 3\nexit\n", "line 1: unknown directive"},
      {"; nothing\n", "no instructions"},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      char err[256] = "";
      size_t size;
      void *image = isa_assemble_program(cases[i].text, &size, err, sizeof(err));
      HWT_CHECK(!image && strstr(err, cases[i].error), "\"%s\": got \"%s\", expected \"%s\"",
                cases[i].text, image ? "(assembled)" : err, cases[i].error);
      free(image);
   }
}

/* ---- validation ------------------------------------------------------------------------------ */

static bool validates(const void *image, size_t size, char *err, size_t err_size)
{
   return isa_program_validate(image, size, err, err_size);
}

static void expect_invalid(const char *name, const char *text, void (*patch)(void *image),
                           const char *why)
{
   size_t size;
   void *image = assemble(text, &size);
   if (!image)
      return;
   if (patch)
      patch(image);
   char err[256] = "";
   bool ok = validates(image, size, err, sizeof(err));
   HWT_CHECK(!ok && strstr(err, why), "%s: %s (expected refusal: \"%s\")", name,
             ok ? "accepted" : err, why);
   free(image);
}

static void patch_magic(void *image) { ((struct isa_program_header *)image)->magic = 0; }
static void patch_width(void *image) { ((struct isa_program_header *)image)->warp_width = 12; }
static void patch_stack(void *image)
{
   ((struct isa_program_header *)image)->stack_depth = ISA_MAX_STACK + 1;
}
static void patch_far(void *image)
{
   ((struct isa_inst *)((struct isa_program_header *)image + 1))[1].op = 0xffff;
}
static void patch_unknown(void *image)
{
   ((struct isa_inst *)((struct isa_program_header *)image + 1))[1].op = ISA_OP_COUNT;
}

static void test_validation(void)
{
   for (size_t i = 0; i < sizeof(hand_written) / sizeof(hand_written[0]); i++) {
      size_t size;
      void *image = assemble(hand_written[i], &size);
      char err[256] = "";
      if (i != 2)   /* program 2 holds memory-offset extremes */
         HWT_CHECK(image && validates(image, size, err, sizeof(err)),
                   "hand-written program %zu refused: %s", i, err);
      free(image);
   }
   expect_invalid("bad magic", "exit\n", patch_magic, "bad magic");
   expect_invalid("W=12", "exit\n", patch_width, "warp width 12");
   expect_invalid("stack ISA_MAX_STACK + 1", "exit\n", patch_stack, "bad program header");
   expect_invalid("opcode 0xffff", "nop\nnop\nexit\n", patch_far, "illegal instruction");
   expect_invalid("unknown opcode", "nop\nnop\nexit\n", patch_unknown, "illegal instruction");
   expect_invalid("vector register past vregs", ".vregs 8\nmov v8, #1\n", NULL,
                  "beyond the program's registers");
   expect_invalid("uniform register past uregs", ".uregs 4\nmov v1, u4\n", NULL,
                  "beyond the program's registers");
   expect_invalid("64-bit pair past vregs", ".vregs 8\niadd64 v7, v0, v2\n", NULL,
                  "beyond the program's registers");
   expect_invalid("address pair past vregs", ".vregs 8\nldg.b32 v0, v7\n", NULL,
                  "beyond the program's registers");
   expect_invalid("branch past the code", "jmp @7\nexit\n", NULL, "outside the program");
   expect_invalid("immediate operand on a memory instruction", "stg.b32 _, v0, #5\n", NULL,
                  "take no immediate operand");
   /* Wider accesses than one register: the whole span must fit. */
   expect_invalid("LDG.b128 destination past vregs", ".vregs 8\nldg.b128 v6, v0\n", NULL,
                  "beyond the program's registers");
   expect_invalid("STG.b128 data past vregs", ".vregs 8\nstg.b128 _, v0, v6\n", NULL,
                  "beyond the program's registers");
   expect_invalid("LDS.b64 destination past vregs", ".vregs 8\nlds.b64 v7, v0\n", NULL,
                  "beyond the program's registers");
   expect_invalid("LDR.b128 destination past uregs", ".uregs 8\nldr.b128 u6\n", NULL,
                  "beyond the program's registers");
   expect_invalid("LDG of 7 dwords (width 7)", ".vregs 16\nldg.mod7 v10, v0\n", NULL,
                  "beyond the program's registers");
   expect_invalid("64-bit atomic result past vregs", ".vregs 8\natomg.add.64 v7, v0, v2\n",
                  NULL, "beyond the program's registers");
   expect_invalid("64-bit atomic value past vregs", ".vregs 8\natomg.add.64 v2, v0, v7\n",
                  NULL, "beyond the program's registers");
   expect_invalid("64-bit CAS value past vregs", ".vregs 8\ncasg.64 v2, v0, v4, v7\n", NULL,
                  "beyond the program's registers");
   /* ISA version 3: pairs of the binary64 group, one register where a
    * 32-bit operand is; byte and halfword accesses load one register. */
   expect_invalid("DADD pair past vregs", ".vregs 8\ndadd v7, v0, v2\n", NULL,
                  "beyond the program's registers");
   expect_invalid("DFMA c pair past vregs", ".vregs 8\ndfma v0, v2, v4, v7\n", NULL,
                  "beyond the program's registers");
   expect_invalid("F2D result pair past vregs", ".vregs 8\nf2d v7, v0\n", NULL,
                  "beyond the program's registers");
   expect_invalid("D2F source pair past vregs", ".vregs 8\nd2f v0, v7\n", NULL,
                  "beyond the program's registers");
   expect_invalid("REDUCE.64 of doubles past vregs", ".vregs 8\nreduce.fadd.64 v7, v0\n", NULL,
                  "beyond the program's registers");
   expect_invalid("a byte access of 4 bytes", ".vregs 8\nldg.mod12 v1, v2\n", NULL,
                  "a byte or halfword access");
   expect_invalid("a byte access of no bytes", ".vregs 8\nstg.mod8 _, v2, v1\n", NULL,
                  "a byte or halfword access");
   expect_invalid("LDR of a byte", ".uregs 8\nldr.b8 u1\n", NULL, "a byte or halfword access");
   static const char *const fits[] = {
      ".vregs 8\ndcmp.olt v7, v0, v2\n", ".vregs 8\nd2f v7, v0\n",
      ".vregs 8\nd2h.rtz v7, v0\n", ".vregs 8\nd2i_s v7, v0\n",
      ".vregs 8\ndldexp v0, v2, v7\n", ".vregs 8\ni2d_u v0, v7\n",
      ".vregs 8\nldg.b16 v7, v0\n", ".vregs 8\nlds.b8 v7, v0\n",
      ".vregs 8\nstp.b16 _, v0, v7\n", ".vregs 8\nreduce.fadd.f16 v7, v0\n",
      ".vregs 8\nhfma v7, v6, v5, v4\n", ".vregs 8\nidp4.su.sat v7, v6, v5, _\n",
   };
   for (size_t i = 0; i < sizeof(fits) / sizeof(fits[0]); i++) {
      size_t size;
      void *image = assemble(fits[i], &size);
      char err[256] = "";
      HWT_CHECK(image && validates(image, size, err, sizeof(err)), "\"%s\" refused: %s",
                fits[i], err);
      free(image);
   }
}

/* The same kind of program on the GPU: warp 0 loads 4 dwords into v6..v9
 * of a program declaring 8 registers. A CTA's warps keep their registers
 * back to back, so if the GPU runs it, warp 0 writes warp 1's v0 and v1;
 * warp 1 then stores its v0, which it never writes (registers start at
 * zero). */
static void test_validation_on_gpu(void)
{
   struct eut t;
   eut_init(&t, NULL);
   uint64_t data = eut_alloc(&t, 4096, 64), out = eut_alloc(&t, 4096, 64);
   uint32_t *d = eut_ptr(&t, data);
   for (int i = 0; i < 4; i++)
      d[i] = 0xc0de0000u + (uint32_t)i;
   uint64_t root[2] = {data, out};
   uint64_t prog = eut_program(&t, ".warp 8\n"
                                   ".vregs 8\n"
                                   ".uregs 8\n"
                                   "ldr.b64 u0 +0\n"
                                   "ldr.b64 u2 +8\n"
                                   "s2r.warp_id u4\n"
                                   "icmp.eq u5, u4, #0\n"
                                   "bra_u _, u5 @w0\n"
                                   "s2r.lane_id v3\n"
                                   "shl v4, v3, #2\n"
                                   "zext64 v4, v4\n"
                                   "iadd64 v4, v4, u2\n"
                                   "stg.b32 _, v4, v0\n"
                                   "exit\n"
                                   "w0: ldg.b128 v6, u0\n"
                                   "exit\n");
   struct eut_launch l = {.program = prog, .size = {16}, .root = eut_root(&t, root, 2)};
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
   enum hw_wait_result r = eut_submit(&t, &pb);
   const uint32_t *o = eut_ptr(&t, out);
   HWT_CHECK(r == HW_WAIT_LOST && hw_gpu_fault_report(t.gpu) &&
             strstr(hw_gpu_fault_report(t.gpu), "beyond the program's registers"),
             "a program whose ldg.b128 v6 passes its 8 registers was run (wait %d): warp 1's "
             "v0, never written, reads 0x%08x", (int)r, o[0]);
   eut_fini(&t);
}

/* ---- softgpu-asm ------------------------------------------------------------------------ */

static int run_tool(const char *args, const char *out_path)
{
   char cmd[1024];
   snprintf(cmd, sizeof(cmd), "'%s' %s%s%s 2>%s.err", SOFTGPU_ASM, args,
            out_path ? " > " : "", out_path ? out_path : "", out_path ? out_path : "/tmp/asm");
   int status = system(cmd);
   return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void *read_all(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   void *buf = malloc(n > 0 ? (size_t)n + 1 : 1);
   size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
   fclose(f);
   if (buf)
      ((char *)buf)[got] = '\0';
   *size = got;
   return buf;
}

static void write_all(const char *path, const char *text)
{
   FILE *f = fopen(path, "wb");
   HWT_REQUIRE(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

static void test_tool(void)
{
   char dir[] = "/tmp/test_isa_asm.XXXXXX";
   HWT_REQUIRE(mkdtemp(dir), "mkdtemp");
   char s1[128], b1[128], t2[128], b2[128], bad[128], args[512];
   snprintf(s1, sizeof(s1), "%s/prog.s", dir);
   snprintf(b1, sizeof(b1), "%s/prog.bin", dir);
   snprintf(t2, sizeof(t2), "%s/prog2.s", dir);
   snprintf(b2, sizeof(b2), "%s/prog2.bin", dir);
   snprintf(bad, sizeof(bad), "%s/bad.s", dir);
   write_all(s1, hand_written[0]);
   snprintf(args, sizeof(args), "'%s' -o '%s'", s1, b1);
   HWT_CHECK(run_tool(args, NULL) == 0, "softgpu-asm %s failed", args);
   snprintf(args, sizeof(args), "-d '%s'", b1);
   HWT_CHECK(run_tool(args, t2) == 0, "softgpu-asm %s failed", args);
   snprintf(args, sizeof(args), "'%s' -o '%s'", t2, b2);
   HWT_CHECK(run_tool(args, NULL) == 0, "softgpu-asm %s failed", args);
   size_t n1 = 0, n2 = 0, ns = 0;
   void *i1 = read_all(b1, &n1), *i2 = read_all(b2, &n2);
   void *ref = isa_assemble_program(hand_written[0], &ns, args, sizeof(args));
   HWT_CHECK(i1 && ref && n1 == ns && memcmp(i1, ref, ns) == 0,
             "softgpu-asm output differs from isa_assemble_program's (%zu, %zu bytes)", n1, ns);
   HWT_CHECK(i1 && i2 && n1 == n2 && memcmp(i1, i2, n1) == 0,
             "softgpu-asm: text -> bin -> text -> bin changed the bytes (%zu, %zu)", n1, n2);
   /* To stdout. */
   char b3[160];
   snprintf(b3, sizeof(b3), "%s/prog3.bin", dir);
   snprintf(args, sizeof(args), "'%s'", s1);
   HWT_CHECK(run_tool(args, b3) == 0, "softgpu-asm to stdout failed");
   size_t n3 = 0;
   void *i3 = read_all(b3, &n3);
   HWT_CHECK(i3 && n3 == n1 && memcmp(i3, i1, n1) == 0, "softgpu-asm to stdout differs");
   /* A bad file: non-zero, and the error names the line. */
   write_all(bad, "mov v1, #1\nmov v1, #2\nbogus v1\n");
   char berr[160];
   snprintf(berr, sizeof(berr), "%s/bad.out", dir);
   snprintf(args, sizeof(args), "'%s'", bad);
   HWT_CHECK(run_tool(args, berr) != 0, "softgpu-asm accepted a bad file");
   char errfile[200];
   snprintf(errfile, sizeof(errfile), "%s.err", berr);
   size_t ne = 0;
   char *msg = read_all(errfile, &ne);
   HWT_CHECK(msg && strstr(msg, "line 3: unknown instruction"), "softgpu-asm error: %s",
             msg ? msg : "(none)");
   free(msg);
   free(i1);
   free(i2);
   free(i3);
   free(ref);
   char cmd[300];
   snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
   HWT_CHECK(system(cmd) == 0, "cleanup");
}

/* A program without a line table: isa_assemble_program must not hand
 * memcpy a NULL pointer (undefined behaviour even for 0 bytes; UBSan in
 * the build-asan configuration checks). */
static void test_no_line_table(void)
{
   char err[128];
   size_t size;
   void *image = isa_assemble_program(".warp 8\nmov v0, #1\nexit\n", &size, err, sizeof(err));
   HWT_CHECK(image && size == sizeof(struct isa_program_header) + 2 * sizeof(struct isa_inst),
             "a program without .line: %s", image ? "wrong size" : err);
   free(image);
}

int main(void)
{
   HWT_RUN(test_no_line_table);
   HWT_RUN(test_instruction_round_trip);
   HWT_RUN(test_hand_written);
   HWT_RUN(test_random_programs);
   HWT_RUN(test_long_lines);
   HWT_RUN(test_errors);
   HWT_RUN(test_validation);
   HWT_RUN(test_validation_on_gpu);
   HWT_RUN(test_tool);
   return hwt_finish();
}
