/* The ISA's tables, program validation, and its text form (assembler and
 * disassembler share the names below, so text always round-trips). */
#include "hw_isa.h"
#include "sg_str.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct isa_op_info isa_op_info[ISA_OP_COUNT] = {
#define ISA_INFO(name, cls, n) [ISA_OP_##name] = {#name, ISA_CLASS_##cls, n},
   ISA_OPCODES(ISA_INFO)
#undef ISA_INFO
};

static const char *const icmp_names[ISA_ICMP_COUNT] = {
   "eq", "ne", "lt_s", "le_s", "gt_s", "ge_s", "lt_u", "le_u", "gt_u", "ge_u"};
static const char *const fcmp_names[ISA_FCMP_COUNT] = {
   "oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge",
   "ord", "uno", "isnan", "isinf"};
static const char *const fmath_names[ISA_FM_COUNT] = {
   "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
   "atanh", "exp", "exp2", "log", "log2", "rcp", "atan2", "pow", "fmod", "ldexp"};
static const char *const sreg_names[ISA_SR_COUNT] = {
   "lane_id", "local_id_x", "local_id_y", "local_id_z", "local_index", "warp_id",
   "warp_count", "warp_width", "group_id_x", "group_id_y", "group_id_z", "num_groups_x",
   "num_groups_y", "num_groups_z", "group_size_x", "group_size_y", "group_size_z",
   "root_lo", "root_hi", "clock_lo", "clock_hi"};
static const char *const atomic_names[ISA_ATOM_COUNT] = {
   "add", "min_s", "min_u", "max_s", "max_u", "and", "or", "xor", "xchg", "fadd"};
static const char *const vote_names[] = {"all", "any", "eq"};
static const char *const shfl_names[] = {"idx", "xor", "up", "down"};
static const char *const reduce_names[ISA_RED_COUNT] = {
   "iadd", "imul", "imin_s", "imin_u", "imax_s", "imax_u", "and", "or", "xor",
   "fadd", "fmul", "fmin", "fmax"};

static const char *const round_names[ISA_RND_COUNT] = {"rte", "rtz", "rtp", "rtn"};
static const char *const dp4_names[ISA_DP4_COUNT] = {"ss", "uu", "su"};

/*
 * How an opcode's modifier reads as text: a named value in its low bits
 * (value_mask), single-bit flags, and for REDUCE and SCAN the cluster
 * field (".clusterN"). Whatever is left prints as ".modN", so any modifier
 * round-trips.
 */
struct mod_syntax {
   const char *const *names;
   uint32_t count;
   uint32_t value_mask;
   bool zero_silent;       /* value 0 (the default) prints nothing */
   uint32_t flag[3];
   const char *flag_name[3];
   bool cluster;
};

static struct mod_syntax syntax_of(enum isa_op op)
{
#define N(arr) .names = arr, .count = sizeof(arr) / sizeof(arr[0]), .value_mask = 0xffu
   switch (op) {
   case ISA_OP_ICMP: case ISA_OP_ICMP64: return (struct mod_syntax){N(icmp_names)};
   case ISA_OP_FCMP: case ISA_OP_DCMP: case ISA_OP_HCMP: return (struct mod_syntax){N(fcmp_names)};
   case ISA_OP_FMATH1: case ISA_OP_FMATH2: return (struct mod_syntax){N(fmath_names)};
   case ISA_OP_S2R: return (struct mod_syntax){N(sreg_names)};
   case ISA_OP_ATOMG: case ISA_OP_ATOMS:
      return (struct mod_syntax){N(atomic_names), .flag = {ISA_ATOM_64}, .flag_name = {"64"}};
   case ISA_OP_CASG: case ISA_OP_CASS:
      return (struct mod_syntax){.flag = {ISA_ATOM_64}, .flag_name = {"64"}};
   case ISA_OP_VOTE: return (struct mod_syntax){N(vote_names)};
   case ISA_OP_SHFL: return (struct mod_syntax){N(shfl_names)};
   case ISA_OP_REDUCE:
      return (struct mod_syntax){N(reduce_names), .flag = {ISA_SUBGROUP_64, ISA_SUBGROUP_F16},
                                 .flag_name = {"64", "f16"}, .cluster = true};
   case ISA_OP_SCAN:
      return (struct mod_syntax){N(reduce_names),
                                 .flag = {ISA_SCAN_EXCLUSIVE, ISA_SUBGROUP_64, ISA_SUBGROUP_F16},
                                 .flag_name = {"excl", "64", "f16"}, .cluster = true};
   case ISA_OP_F2H: case ISA_OP_D2F: case ISA_OP_D2H:
      return (struct mod_syntax){.names = round_names, .count = ISA_RND_COUNT,
                                 .value_mask = 3u, .zero_silent = true};
   case ISA_OP_IDP4:
      return (struct mod_syntax){.names = dp4_names, .count = ISA_DP4_COUNT, .value_mask = 3u,
                                 .flag = {ISA_DP4_SAT}, .flag_name = {"sat"}};
   default: return (struct mod_syntax){0};
   }
#undef N
}

static bool is_memory(enum isa_op op)
{
   return isa_op_info[op].cls == ISA_CLASS_MEM;
}

static bool is_flow(enum isa_op op)
{
   return isa_op_info[op].cls == ISA_CLASS_FLOW;
}

/* ---- disassembly --------------------------------------------------------------- */

/* The modifier as ".name" suffixes; unnamed values as ".modN". */
static size_t put_mod(char *buf, size_t size, size_t used, const struct isa_inst *in)
{
   enum isa_op op = (enum isa_op)in->op;
   uint32_t mod = in->mod;
   if (is_memory(op)) {
      uint32_t w = ISA_MEM_WIDTH(mod);
      if ((mod & ISA_MEM_SUB) && (w == 1 || w == 2)) {
         used = sg_appendf(buf, size, used, ".b%u", 8 * w);
         mod &= ~(7u | ISA_MEM_SUB);
      } else if (!(mod & ISA_MEM_SUB) && (w == 1 || w == 2 || w == 4)) {
         used = sg_appendf(buf, size, used, ".b%u", 32 * w);
         mod &= ~7u;
      }
      if (mod & ISA_MEM_UNIFORM_ADDR) {
         used = sg_appendf(buf, size, used, ".uaddr");
         mod &= ~ISA_MEM_UNIFORM_ADDR;
      }
   } else {
      struct mod_syntax sx = syntax_of(op);
      uint32_t known = sx.value_mask | (sx.cluster ? ISA_SUBGROUP_CLUSTER_MASK : 0);
      for (int f = 0; f < 3; f++)
         known |= sx.flag[f];
      uint32_t value = mod & sx.value_mask;
      if (sx.names && value < sx.count && !(mod & ~known)) {
         if (value || !sx.zero_silent)
            used = sg_appendf(buf, size, used, ".%s", sx.names[value]);
         mod &= ~sx.value_mask;
      }
      if (sx.cluster && (mod & ISA_SUBGROUP_CLUSTER_MASK)) {
         used = sg_appendf(buf, size, used, ".cluster%u", isa_subgroup_cluster(mod));
         mod &= ~ISA_SUBGROUP_CLUSTER_MASK;
      }
      for (int f = 0; f < 3; f++) {
         if (sx.flag[f] && (mod & sx.flag[f])) {
            used = sg_appendf(buf, size, used, ".%s", sx.flag_name[f]);
            mod &= ~sx.flag[f];
         }
      }
   }
   if (mod)
      used = sg_appendf(buf, size, used, ".mod%u", mod);
   return used;
}

static size_t put_operand(char *buf, size_t size, size_t used, uint16_t o, uint32_t imm)
{
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: return sg_appendf(buf, size, used, "v%u", isa_opnd_index(o));
   case ISA_OPND_UREG: return sg_appendf(buf, size, used, "u%u", isa_opnd_index(o));
   case ISA_OPND_IMM:
      return isa_opnd_index(o) ? sg_appendf(buf, size, used, "#%u:%u", imm, isa_opnd_index(o))
                               : sg_appendf(buf, size, used, "#%u", imm);
   default:
      return isa_opnd_index(o) ? sg_appendf(buf, size, used, "_%u", isa_opnd_index(o))
                               : sg_appendf(buf, size, used, "_");
   }
}

void isa_disassemble(const struct isa_inst *in, char *buf, size_t size)
{
   if (in->op >= ISA_OP_COUNT) {
      snprintf(buf, size, ".word %u, %u, %u, %u, %u, %u, %u", in->op, in->dst, in->a, in->b,
               in->c, in->mod, in->imm);
      return;
   }
   enum isa_op op = (enum isa_op)in->op;
   size_t used = 0;
   for (const char *n = isa_op_info[op].name; *n && used + 1 < size; n++)
      buf[used++] = (char)tolower((unsigned char)*n);
   buf[used] = '\0';
   used = put_mod(buf, size, used, in);
   const uint16_t ops[4] = {in->dst, in->a, in->b, in->c};
   int last = 3;
   while (last >= 0 && ops[last] == ISA_NONE)
      last--;
   bool imm_used = false;
   for (int i = 0; i <= last; i++) {
      used = sg_appendf(buf, size, used, i ? ", " : " ");
      used = put_operand(buf, size, used, ops[i], in->imm);
      imm_used |= isa_opnd_kind(ops[i]) == ISA_OPND_IMM;
   }
   if (in->imm && !imm_used) {
      if (is_flow(op))
         used = sg_appendf(buf, size, used, " @%u", in->imm);
      else if (is_memory(op))
         used = sg_appendf(buf, size, used, " %+d", (int32_t)in->imm);
      else
         sg_appendf(buf, size, used, " imm=%u", in->imm);
   }
}

/* ---- assembly --------------------------------------------------------------------- */

static bool fail(char *err, size_t size, const char *fmt, const char *what)
   __attribute__((format(printf, 3, 0)));
static bool fail(char *err, size_t size, const char *fmt, const char *what)
{
   snprintf(err, size, fmt, what);
   return false;
}

static bool parse_u32(const char *s, uint32_t *out)
{
   char *end;
   errno = 0;
   long long v = strtoll(s, &end, 0);
   if (end == s || *end || v < INT32_MIN || v > UINT32_MAX)
      return false;
   *out = (uint32_t)v;
   return true;
}

static bool parse_operand(const char *t, uint16_t *o, uint32_t *imm, bool *has_imm)
{
   uint32_t n;
   if ((t[0] == 'v' || t[0] == 'u') && parse_u32(t + 1, &n) && n < 0x4000) {
      *o = t[0] == 'v' ? ISA_V(n) : ISA_U(n);
      return true;
   }
   if (t[0] == '_') {
      n = 0;
      if (t[1] && (t[1] != ':' && !parse_u32(t + 1, &n)))
         return false;
      *o = (uint16_t)(ISA_NONE | (n & 0x3fff));
      return true;
   }
   if (t[0] == '#') {
      char copy[64];
      snprintf(copy, sizeof(copy), "%s", t + 1);
      char *colon = strchr(copy, ':');
      uint32_t extra = 0;
      if (colon) {
         *colon = '\0';
         if (!parse_u32(colon + 1, &extra) || extra >= 0x4000)
            return false;
      }
      if (!parse_u32(copy, imm))
         return false;
      *has_imm = true;
      *o = (uint16_t)(ISA_IMM | extra);
      return true;
   }
   return false;
}

static int find_name(const char *const *names, uint32_t count, const char *s)
{
   for (uint32_t i = 0; i < count; i++) {
      if (strcasecmp(names[i], s) == 0)
         return (int)i;
   }
   return -1;
}

static bool parse_mod_token(enum isa_op op, const char *t, uint16_t *mod)
{
   uint32_t n;
   if (strncasecmp(t, "mod", 3) == 0 && parse_u32(t + 3, &n) && n <= 0xffff) {
      *mod |= (uint16_t)n;
      return true;
   }
   if (is_memory(op)) {
      if (strcasecmp(t, "b8") == 0) { *mod |= ISA_MEM_SUB | 1; return true; }
      if (strcasecmp(t, "b16") == 0) { *mod |= ISA_MEM_SUB | 2; return true; }
      if (strcasecmp(t, "b32") == 0) { *mod |= 1; return true; }
      if (strcasecmp(t, "b64") == 0) { *mod |= 2; return true; }
      if (strcasecmp(t, "b128") == 0) { *mod |= 4; return true; }
      if (strcasecmp(t, "uaddr") == 0) { *mod |= ISA_MEM_UNIFORM_ADDR; return true; }
      return false;
   }
   struct mod_syntax sx = syntax_of(op);
   for (int f = 0; f < 3; f++) {
      if (sx.flag[f] && strcasecmp(t, sx.flag_name[f]) == 0) {
         *mod |= (uint16_t)sx.flag[f];
         return true;
      }
   }
   if (sx.cluster && strncasecmp(t, "cluster", 7) == 0 && parse_u32(t + 7, &n) && n &&
       n <= 64 && !(n & (n - 1))) {
      *mod |= (uint16_t)((__builtin_ctz(n) + 1u) << ISA_SUBGROUP_CLUSTER_SHIFT);
      return true;
   }
   int i = sx.names ? find_name(sx.names, sx.count, t) : -1;
   if (i < 0)
      return false;
   *mod |= (uint16_t)i;
   return true;
}

/* Splits "name.mod.mod" and fills op and mod. */
static bool parse_mnemonic(char *word, struct isa_inst *in, char *err, size_t err_size)
{
   char *dot = strchr(word, '.');
   if (dot)
      *dot = '\0';
   int op = -1;
   for (int i = 0; i < ISA_OP_COUNT; i++) {
      if (strcasecmp(isa_op_info[i].name, word) == 0)
         op = i;
   }
   if (op < 0)
      return fail(err, err_size, "unknown instruction \"%s\"", word);
   in->op = (uint16_t)op;
   for (char *t = dot ? dot + 1 : NULL; t;) {
      char *next = strchr(t, '.');
      if (next)
         *next++ = '\0';
      if (!parse_mod_token((enum isa_op)op, t, &in->mod))
         return fail(err, err_size, "unknown modifier \".%s\"", t);
      t = next;
   }
   return true;
}

/* The trailing "@target", "+offset"/"-offset" or "imm=n". */
static bool parse_trailer(char *t, struct isa_inst *in)
{
   if (t[0] == '@')
      return parse_u32(t + 1, &in->imm);
   if (t[0] == '+' || t[0] == '-')
      return parse_u32(t, &in->imm);
   if (strncmp(t, "imm=", 4) == 0)
      return parse_u32(t + 4, &in->imm);
   return false;
}

bool isa_assemble_line(const char *line, struct isa_inst *in, bool *empty, char *err,
                       size_t err_size)
{
   char text[512];
   snprintf(text, sizeof(text), "%s", line);
   char *comment = strpbrk(text, ";/");
   if (comment && (*comment == ';' || comment[1] == '/'))
      *comment = '\0';
   *in = (struct isa_inst){.op = ISA_OP_NOP, .dst = ISA_NONE, .a = ISA_NONE, .b = ISA_NONE,
                           .c = ISA_NONE};
   char *save = NULL;
   char *word = strtok_r(text, " \t\r\n", &save);
   *empty = word == NULL;
   if (!word)
      return true;
   if (!parse_mnemonic(word, in, err, err_size))
      return false;
   uint16_t *slots[4] = {&in->dst, &in->a, &in->b, &in->c};
   int n = 0;
   bool has_imm = false;
   for (char *t = strtok_r(NULL, " ,\t\r\n", &save); t; t = strtok_r(NULL, " ,\t\r\n", &save)) {
      if (t[0] == '@' || t[0] == '+' || t[0] == '-' || strncmp(t, "imm=", 4) == 0) {
         if (!parse_trailer(t, in))
            return fail(err, err_size, "bad immediate \"%s\"", t);
         continue;
      }
      if (n == 4)
         return fail(err, err_size, "too many operands at \"%s\"", t);
      if (!parse_operand(t, slots[n], &in->imm, &has_imm))
         return fail(err, err_size, "bad operand \"%s\"", t);
      n++;
   }
   return true;
}

/* ---- validation ---------------------------------------------------------------- */

bool isa_writes_dst(const struct isa_inst *in)
{
   switch (isa_op_info[in->op].cls) {
   case ISA_CLASS_ALU: case ISA_CLASS_ALU64: case ISA_CLASS_SPECIAL: case ISA_CLASS_ATOMIC:
   case ISA_CLASS_SUBGROUP:
      return true;
   case ISA_CLASS_MEM:
      return in->op == ISA_OP_LDG || in->op == ISA_OP_LDS || in->op == ISA_OP_LDP ||
             in->op == ISA_OP_LDR;
   default:
      return false;
   }
}

uint32_t isa_operand_span(enum isa_op op, uint16_t mod, int which)
{
   enum isa_class cls = isa_op_info[op].cls;
   if ((op == ISA_OP_REDUCE || op == ISA_OP_SCAN) && (mod & ISA_SUBGROUP_64))
      return which <= 1 ? 2 : 1;
   if (cls == ISA_CLASS_ALU64) {
      switch (op) {
      /* 32-bit results of pair sources */
      case ISA_OP_ICMP64: case ISA_OP_I2F64_S: case ISA_OP_I2F64_U: case ISA_OP_DCMP:
      case ISA_OP_D2F: case ISA_OP_D2H: case ISA_OP_D2I_S: case ISA_OP_D2I_U:
         return which == 0 ? 1 : 2;
      /* pair results of 32-bit sources */
      case ISA_OP_SEXT64: case ISA_OP_ZEXT64: case ISA_OP_F2I64_S: case ISA_OP_F2I64_U:
      case ISA_OP_F2D: case ISA_OP_I2D_S: case ISA_OP_I2D_U:
         return which == 0 ? 2 : 1;
      /* a 32-bit b: shift counts, exponents */
      case ISA_OP_SHL64: case ISA_OP_SHR64_U: case ISA_OP_SHR64_S: case ISA_OP_DLDEXP:
         return which == 2 ? 1 : 2;
      default:
         return 2;
      }
   }
   if ((op == ISA_OP_LDG || op == ISA_OP_STG || op == ISA_OP_ATOMG || op == ISA_OP_CASG) &&
       which == 1)
      return 2;
   /* Loads write, stores read, as many registers as the width says. */
   if ((op == ISA_OP_LDG || op == ISA_OP_LDS || op == ISA_OP_LDP || op == ISA_OP_LDR) &&
       which == 0)
      return isa_mem_dwords(mod);
   if ((op == ISA_OP_STG || op == ISA_OP_STS || op == ISA_OP_STP) && which == 2)
      return isa_mem_dwords(mod);
   /* 64-bit atomics: result, value and comparand are pairs. */
   if (cls == ISA_CLASS_ATOMIC && (mod & ISA_ATOM_64) && which != 1)
      return 2;
   if (op == ISA_OP_BALLOT && which == 0)
      return 2;
   return 1;
}

static bool operand_ok(const struct isa_program_header *h, const struct isa_inst *in, int which,
                       uint16_t o)
{
   uint32_t span = isa_operand_span((enum isa_op)in->op, in->mod, which);
   uint32_t i = isa_opnd_index(o);
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: return i + span <= h->vreg_count;
   case ISA_OPND_UREG: return i + span <= h->ureg_count;
   default: return true;
   }
}

bool isa_program_validate(const struct isa_program_header *h, uint64_t size, char *err,
                          size_t err_size)
{
   if (size < sizeof(*h) || h->magic != ISA_MAGIC || h->version != ISA_VERSION) {
      snprintf(err, err_size, "not a softgpu program (bad magic or version)");
      return false;
   }
   uint32_t w = h->warp_width;
   if (w != 8 && w != 16 && w != 32 && w != 64) {
      snprintf(err, err_size, "warp width %u is not 8, 16, 32 or 64", w);
      return false;
   }
   if (h->inst_count == 0 || h->vreg_count > ISA_MAX_VREGS || h->ureg_count > ISA_MAX_UREGS ||
       h->stack_depth > ISA_MAX_STACK ||
       sizeof(*h) + (uint64_t)h->inst_count * sizeof(struct isa_inst) +
             (uint64_t)h->line_count * sizeof(struct isa_line) > size) {
      snprintf(err, err_size, "bad program header (%u instructions, %u/%u registers, stack %u)",
               h->inst_count, h->vreg_count, h->ureg_count, h->stack_depth);
      return false;
   }
   const struct isa_inst *code = (const struct isa_inst *)(h + 1);
   for (uint32_t pc = 0; pc < h->inst_count; pc++) {
      const struct isa_inst *in = &code[pc];
      if (in->op >= ISA_OP_COUNT || isa_op_info[in->op].cls == ISA_CLASS_RESERVED) {
         snprintf(err, err_size, "illegal instruction (opcode %u) at pc %u", in->op, pc);
         return false;
      }
      const uint16_t ops[4] = {in->dst, in->a, in->b, in->c};
      enum isa_class cls = isa_op_info[in->op].cls;
      uint32_t bytes = ISA_MEM_WIDTH(in->mod);
      if (cls == ISA_CLASS_MEM && (in->mod & ISA_MEM_SUB) &&
          (in->op == ISA_OP_LDR || (bytes != 1 && bytes != 2))) {
         snprintf(err, err_size, "pc %u: a byte or halfword access (.b8, .b16) is 1 or 2 "
                  "bytes wide, of LDG, STG, LDS, STS, LDP or STP", pc);
         return false;
      }
      for (int k = 0; k < 4 && (cls == ISA_CLASS_MEM || cls == ISA_CLASS_ATOMIC); k++) {
         if (isa_opnd_kind(ops[k]) == ISA_OPND_IMM) {
            snprintf(err, err_size, "pc %u: memory instructions take no immediate operand "
                     "(the immediate is the address offset)", pc);
            return false;
         }
      }
      for (int k = 0; k < 4; k++) {
         if (!operand_ok(h, in, k, ops[k])) {
            snprintf(err, err_size, "operand %d of pc %u is beyond the program's registers", k,
                     pc);
            return false;
         }
      }
      bool targetless = in->op == ISA_OP_EXIT || in->op == ISA_OP_LOOP ||
                        in->op == ISA_OP_ENDIF || in->op == ISA_OP_SWITCH ||
                        in->op == ISA_OP_ENDSWITCH;
      if (is_flow((enum isa_op)in->op) && !targetless && in->imm >= h->inst_count) {
         snprintf(err, err_size, "branch target %u of pc %u is outside the program", in->imm, pc);
         return false;
      }
   }
   return true;
}

/* ---- whole programs ----------------------------------------------------------------- */

struct asm_label {
   char name[64];
   uint32_t pc;
};

struct asm_state {
   struct isa_inst *code;
   uint32_t count, capacity;
   struct asm_label *labels;
   uint32_t label_count, label_capacity;
   struct isa_line *lines;
   uint32_t line_count, line_capacity;
   struct isa_program_header header;
   bool vregs_set, uregs_set, stack_set;
   /* "@name" operands, resolved once every label is known. */
   struct { uint32_t pc; char name[64]; uint32_t source_line; } *fixups;
   uint32_t fixup_count, fixup_capacity;
};

static bool reserve(void **buf, uint32_t *cap, uint32_t need, size_t elem)
{
   if (need <= *cap)
      return true;
   uint32_t n = *cap ? *cap * 2 : 64;
   while (n < need)
      n *= 2;
   void *p = realloc(*buf, n * elem);
   if (!p)
      return false;
   *buf = p;
   *cap = n;
   return true;
}

static bool directive(struct asm_state *st, char *line, char *err, size_t err_size)
{
   char name[32];
   unsigned value = 0;
   int n = sscanf(line, " .%31s %u", name, &value);
   if (n >= 1 && strcmp(name, "barrier") == 0) {
      st->header.flags |= ISA_PROG_USES_BARRIER;
      return true;
   }
   if (n >= 1 && strcmp(name, "zero_shared") == 0) {
      st->header.flags |= ISA_PROG_ZERO_SHARED;
      return true;
   }
   if (n != 2)
      return fail(err, err_size, "bad directive \"%.100s\"", line);
   if (strcmp(name, "warp") == 0) {
      st->header.warp_width = (uint16_t)value;
   } else if (strcmp(name, "vregs") == 0) {
      st->header.vreg_count = (uint16_t)value;
      st->vregs_set = true;
   } else if (strcmp(name, "uregs") == 0) {
      st->header.ureg_count = (uint16_t)value;
      st->uregs_set = true;
   } else if (strcmp(name, "stack") == 0) {
      st->header.stack_depth = (uint16_t)value;
      st->stack_set = true;
   } else if (strcmp(name, "line") == 0) {
      if (!reserve((void **)&st->lines, &st->line_capacity, st->line_count + 1,
                   sizeof(*st->lines)))
         return fail(err, err_size, "%s", "out of memory");
      st->lines[st->line_count++] = (struct isa_line){st->count, value};
   } else {
      return fail(err, err_size, "unknown directive \".%s\"", name);
   }
   return true;
}

/* Replaces a symbolic "@name" in the line by "@0", remembering a fixup. */
static bool symbolic_target(struct asm_state *st, char *line, uint32_t source_line)
{
   char *at = strchr(line, '@');
   if (!at || isdigit((unsigned char)at[1]))
      return true;
   size_t len = strcspn(at + 1, " \t,;\r\n");
   if (len == 0 || len >= 64)
      return false;
   if (!reserve((void **)&st->fixups, &st->fixup_capacity, st->fixup_count + 1,
                sizeof(*st->fixups)))
      return false;
   st->fixups[st->fixup_count].pc = st->count;
   st->fixups[st->fixup_count].source_line = source_line;
   memcpy(st->fixups[st->fixup_count].name, at + 1, len);
   st->fixups[st->fixup_count].name[len] = '\0';
   st->fixup_count++;
   memmove(at + 2, at + 1 + len, strlen(at + 1 + len) + 1);
   at[1] = '0';
   return true;
}

static bool label_def(struct asm_state *st, char *line)
{
   char *colon = strchr(line, ':');
   char *start = line + strspn(line, " \t");
   if (!colon || start == colon || start[0] == '.' || start[0] == '#')
      return false;
   for (char *c = start; c < colon; c++) {
      if (!isalnum((unsigned char)*c) && *c != '_')
         return false;
   }
   if (!reserve((void **)&st->labels, &st->label_capacity, st->label_count + 1,
                sizeof(*st->labels)) || colon - start >= 64)
      return false;
   struct asm_label *l = &st->labels[st->label_count++];
   memcpy(l->name, start, (size_t)(colon - start));
   l->name[colon - start] = '\0';
   l->pc = st->count;
   memmove(line, colon + 1, strlen(colon + 1) + 1);
   return true;
}

/* Registers and stack depth the code needs, for what the directives leave. */
static void size_program(struct asm_state *st)
{
   uint32_t v = 0, u = 0, depth = 0, cur = 0;
   for (uint32_t pc = 0; pc < st->count; pc++) {
      const struct isa_inst *in = &st->code[pc];
      const uint16_t ops[4] = {in->dst, in->a, in->b, in->c};
      for (int k = 0; k < 4; k++) {
         uint32_t end = isa_opnd_index(ops[k]) + isa_operand_span((enum isa_op)in->op, in->mod, k) + 3;
         if (isa_opnd_kind(ops[k]) == ISA_OPND_VREG && end > v)
            v = end;
         if (isa_opnd_kind(ops[k]) == ISA_OPND_UREG && end > u)
            u = end;
      }
      if (in->op == ISA_OP_IF || in->op == ISA_OP_LOOP || in->op == ISA_OP_SWITCH)
         depth = ++cur > depth ? cur : depth;
      else if ((in->op == ISA_OP_ENDIF || in->op == ISA_OP_ENDLOOP ||
                in->op == ISA_OP_ENDSWITCH) && cur)
         cur--;
   }
   if (!st->vregs_set)
      st->header.vreg_count = (uint16_t)(v > ISA_MAX_VREGS ? ISA_MAX_VREGS : v);
   if (!st->uregs_set)
      st->header.ureg_count = (uint16_t)(u > ISA_MAX_UREGS ? ISA_MAX_UREGS : u);
   if (!st->stack_set)
      st->header.stack_depth = (uint16_t)(depth > ISA_MAX_STACK ? ISA_MAX_STACK : depth);
}

static void *finish_program(struct asm_state *st, size_t *size, char *err, size_t err_size)
{
   for (uint32_t i = 0; i < st->fixup_count; i++) {
      uint32_t k = 0;
      while (k < st->label_count && strcmp(st->labels[k].name, st->fixups[i].name) != 0)
         k++;
      if (k == st->label_count) {
         snprintf(err, err_size, "line %u: unknown label \"%s\"", st->fixups[i].source_line,
                  st->fixups[i].name);
         return NULL;
      }
      st->code[st->fixups[i].pc].imm = st->labels[k].pc;
   }
   /* A ".line" after the last instruction annotates nothing: drop it, so a
    * program and its disassembly assemble to the same bytes. */
   while (st->line_count && st->lines[st->line_count - 1].pc >= st->count)
      st->line_count--;
   size_program(st);
   st->header.magic = ISA_MAGIC;
   st->header.version = ISA_VERSION;
   st->header.inst_count = st->count;
   st->header.line_count = st->line_count;
   *size = sizeof(st->header) + st->count * sizeof(struct isa_inst) +
           st->line_count * sizeof(struct isa_line);
   uint8_t *image = malloc(*size);
   if (!image) {
      snprintf(err, err_size, "out of memory");
      return NULL;
   }
   memcpy(image, &st->header, sizeof(st->header));
   memcpy(image + sizeof(st->header), st->code, st->count * sizeof(struct isa_inst));
   if (st->line_count)   /* st->lines is NULL without a ".line" */
      memcpy(image + sizeof(st->header) + st->count * sizeof(struct isa_inst), st->lines,
             st->line_count * sizeof(struct isa_line));
   return image;
}

void *isa_assemble_program(const char *text, size_t *size, char *err, size_t err_size)
{
   struct asm_state st = {.header = {.warp_width = 32}};
   void *image = NULL;
   uint32_t line_no = 0;
   for (const char *p = text; *p;) {
      size_t len = strcspn(p, "\n");
      char line[512], why[200];
      snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), p);
      p += len + (p[len] == '\n');
      line_no++;
      while (label_def(&st, line))
         ;
      const char *first = line + strspn(line, " \t");
      if (first[0] == '.') {
         if (!directive(&st, line, why, sizeof(why)))
            goto fail_line;
         continue;
      }
      struct isa_inst in;
      bool empty;
      if (!symbolic_target(&st, line, line_no)) {
         snprintf(why, sizeof(why), "bad label reference");
         goto fail_line;
      }
      if (!isa_assemble_line(line, &in, &empty, why, sizeof(why)))
         goto fail_line;
      if (empty)
         continue;
      if (!reserve((void **)&st.code, &st.capacity, st.count + 1, sizeof(*st.code))) {
         snprintf(why, sizeof(why), "out of memory");
         goto fail_line;
      }
      st.code[st.count++] = in;
      continue;
   fail_line:
      snprintf(err, err_size, "line %u: %s", line_no, why);
      goto done;
   }
   if (st.count == 0)
      snprintf(err, err_size, "no instructions");
   else
      image = finish_program(&st, size, err, err_size);
done:
   free(st.code);
   free(st.labels);
   free(st.lines);
   free(st.fixups);
   return image;
}

char *isa_disassemble_program(const void *image, size_t size)
{
   const struct isa_program_header *h = image;
   if (size < sizeof(*h))
      return NULL;
   uint64_t need = sizeof(*h) + (uint64_t)h->inst_count * sizeof(struct isa_inst) +
                   (uint64_t)h->line_count * sizeof(struct isa_line);
   if (need > size)
      return NULL;
   /* ISA_DISASM_MAX bytes hold the longest instruction (every field at its
    * maximum, about 130 characters), so nothing is ever cut. */
   size_t cap = 256 + (size_t)(h->inst_count + h->line_count) * ISA_DISASM_MAX, used = 0;
   char *out = malloc(cap);
   if (!out)
      return NULL;
   used = sg_appendf(out, cap, used, ".warp %u\n.vregs %u\n.uregs %u\n.stack %u\n%s%s", h->warp_width,
              h->vreg_count, h->ureg_count, h->stack_depth,
              (h->flags & ISA_PROG_USES_BARRIER) ? ".barrier\n" : "",
              (h->flags & ISA_PROG_ZERO_SHARED) ? ".zero_shared\n" : "");
   const struct isa_inst *code = (const struct isa_inst *)(h + 1);
   const struct isa_line *lines = (const struct isa_line *)(code + h->inst_count);
   uint32_t next_line = 0;
   for (uint32_t pc = 0; pc < h->inst_count; pc++) {
      while (next_line < h->line_count && lines[next_line].pc == pc)
         used = sg_appendf(out, cap, used, ".line %u\n", lines[next_line++].line);
      char text[ISA_DISASM_MAX];
      isa_disassemble(&code[pc], text, sizeof(text));
      used = sg_appendf(out, cap, used, "%s\n", text);
   }
   return out;
}
