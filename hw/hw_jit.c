/*
 * The native tier (see hw_jit.h): an encoder for the few x86-64, AVX2 and
 * AVX-512 instructions it needs, a register assignment per run, and the
 * code of each supported ALU instruction. Encodings are from the Intel SDM
 * (volume 2, "Instruction Format" for VEX prefixes and ModRM, 2.7 for
 * EVEX).
 */
#include "hw_jit.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hw_bits.h"
#include "hw_eu.h"
#include "sg_log.h"

struct hw_jit {
   void *mem;                    /* executable pages */
   size_t size;
   uint8_t *gathers;             /* the blocks' LDS hints, written by their code */
   struct hw_jit_block *blocks;
   uint32_t count;
};

void hw_jit_free(struct hw_jit *j)
{
   if (!j)
      return;
   munmap(j->mem, j->size);
   free(j->gathers);
   free(j->blocks);
   free(j);
}

#if defined(__x86_64__)

bool hw_jit_supported(void)
{
   __builtin_cpu_init();
   return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* ---- encoder ------------------------------------------------------------------ */

#define MAX_SEGS 64u   /* a block's segments, at most (struct plan) */
/* ... and of a block starting inside the previous one (compile_runs):
 * blocks overlap, so a long one's successors stay short. */
#define OVERLAP_SEGS 16u
#define MAX_INDICES 4u /* a loop's indices whose stride a block checks at its entry */
#define MAX_TILES 4u   /* invariant LDS address registers a block checks at its entry */
/* What is known of a pair's high halves (struct lanes hi, struct emit hi_known). */
enum { HI_LANES = -1, HI_UNIFORM = -2, HI_ENDS = -3, HI_CHUNK_ENDS = -4, HI_SEXT = -5,
       HI_CHUNK_SEXT = -6 };
/* A tile whose whole warp's offsets are consecutive (emit_tile_kinds):
 * kind 2 (rows, bit 1) with bit 2 set, so that the rows' code takes it
 * too (emit_tile_load, and emit_fused masking bit 2). */
#define TILE_WARP_ROWS 6u

struct emit {
   uint8_t *b;
   size_t len, cap;
   bool oom;
   /* The block being emitted: its first pc, its followed JMP's index and
    * target, where a warp switch goes on (emit_bar) and where each trip
    * of its loop starts (emit_back). */
   uint32_t start, jmp, target;
   size_t switched, top;
   uint32_t strides;   /* stride slots handed out (stride_slot) */
   uint32_t sel_if, sel_endif;   /* its selection's IF and ENDIF (UINT32_MAX: none) */
   size_t sel_none;              /* the IF's jump where no lane's condition is set */
   uint8_t *gathers;   /* per LDS and warp: seen not consecutive (see gather_hint) */
   const uint32_t *lds_site;   /* per pc: the LDS's number, its row of gathers */
   const uint32_t *page_site;  /* per pc: the access's page slot, or UINT32_MAX */
   bool looping;               /* the block being emitted loops (SEG_BACK) */
   const uint64_t *live;       /* per pc: the vector registers live there (liveness) */
   /* Per segment of the block being emitted: the host slot (struct
    * hw_cta hosts[]) + 1 its access saves its address in, or takes it
    * from (plan_reuse); 0: none. */
   uint8_t save[MAX_SEGS], reuse[MAX_SEGS];
   /* Per segment: the slot (struct hw_cta byref[]) + 1 its LDG leaves the
    * address of its words in, for its one reader (plan_byref); 0: none.
    * The slots in use as the block is emitted: their registers, and the
    * segment that reads each (the slot is free after it). */
   uint8_t byref[MAX_SEGS];
   uint32_t byref_reg[HW_BYREF_SLOTS];
   uint8_t byref_reader[HW_BYREF_SLOTS];
   uint8_t byref_active;   /* bit s: slot s holds a register's words */
   uint32_t byref_bytes;   /* a register's: 4 * W */
#define NO_STRIDE INT64_MIN   /* a stride or warp step not known (struct lanes) */
   /* Per segment: its access's address (low halves) is lane 0's + 4 * l
    * in lane l, mod 2^32, whatever the values (plan_strides); its lane
    * stride, or NO_STRIDE; what is known of its high halves (struct
    * lanes). */
   bool consecutive[MAX_SEGS];
   int64_t stride[MAX_SEGS];
   /* Per segment: how far its access's address moves from one warp of a
    * CTA to the next (struct lanes wstep), or NO_STRIDE: emit_prefetch. */
   int64_t wstep[MAX_SEGS];
   int16_t hi_known[MAX_SEGS];
   /* Per segment: its access is not known consecutive as a whole but is
    * in each chunk of 8 lanes, with high halves chunk_hi (struct lanes):
    * emit_known_chunks. */
   bool chunks[MAX_SEGS];
   int8_t chunk_hi[MAX_SEGS];
   /* What the program's straight prefix leaves known (prefix_facts), or
    * NULL. */
   struct prefix *prefix;
   /* The same where the block's loop indices have lane stride 1 (checked
    * at its entry into cta->indexed: plan_strides, emit_indexed). */
   bool consecutive_x[MAX_SEGS];
   int16_t hi_known_x[MAX_SEGS];
   uint16_t index[MAX_INDICES];
   uint32_t indices;
   /* LDS address registers the block never writes (a tile's row or
    * column), checked at its entry (emit_tile_kinds), with the span of
    * their LDSs' offsets; per segment, its LDS's tile (index + 1, or 0). */
   uint16_t tile[MAX_TILES];
   uint32_t tile_lo[MAX_TILES], tile_hi[MAX_TILES];
   uint32_t tiles;
   /* Per tile: its site in the warp's tile cache (struct hw_warp), or -1
    * where an instruction reachable from the block writes its register;
    * the program's sites so far, and its length. */
   int8_t tile_site[MAX_TILES];
   uint32_t tile_sites, n;
   uint8_t tile_of[MAX_SEGS];
   uint8_t seg;                /* the segment being emitted */
   /* The block being emitted ends at a BAR its warps sweep (emit_sweep_bar):
    * that BAR's index and pc, and where its fix-up starts (emit_fixup). Per
    * pc, the warp-switch entry of a block starting there that sweeps, or
    * SIZE_MAX; the chain jumps to it (patch_chains). */
   bool sweeps;
   uint32_t bar_i, bar_pc;
   size_t fixup;
   size_t *sweep_entry;
   struct chain {
      size_t at;
      uint32_t pc;
   } *chains;
   uint32_t chain_count, chain_cap;
   /* The program's ALU segments are zmm code, 16 lanes a chunk (the host
    * and the interpreter it runs are AVX-512: hw_jit_compile), and the one
    * being emitted is (emit_alu). */
   bool avx512, wide;
   uint32_t wide_segments;   /* emitted so (struct hw_jit_counts) */
   uint32_t stepped;         /* global accesses prefetched by their warp step (the same) */
   /* The uniform register eax holds as the segment being emitted starts
    * (UINT32_MAX: none known): the last one a segment of uniform
    * instructions only wrote, straight before it (eax_after). */
   uint32_t eax_ureg;
   /* The vector registers that are an access's address (block_access; both
    * halves of a global one): the blocks' lane checks read their dwords
    * (move_vregs). */
   uint64_t addresses[ISA_MAX_VREGS / 64];
};

static void put(struct emit *e, const void *p, size_t n)
{
   if (e->len + n > e->cap) {
      size_t cap = e->cap ? 2 * e->cap : 4096;
      uint8_t *b = e->oom ? NULL : realloc(e->b, cap);
      if (!b) {
         e->oom = true;
         return;
      }
      e->b = b;
      e->cap = cap;
   }
   memcpy(e->b + e->len, p, n);
   e->len += n;
}

static void byte(struct emit *e, uint8_t x)
{
   if (e->len < e->cap)   /* most bytes: no call (compile time) */
      e->b[e->len++] = x;
   else
      put(e, &x, 1);
}
static void dword(struct emit *e, uint32_t x) { put(e, &x, 4); }   /* x86 is little endian */

enum { RAX = 0, RCX = 1, RDX = 2, RSP = 4, RSI = 6, RDI = 7, R8 = 8, R10 = 10, R11 = 11,
       R12 = 12, R13 = 13 };

/* An r/m operand: a register (ymm or general), or memory at [base + disp]. */
struct rm {
   int reg, base;
   int32_t disp;
};
static struct rm R(int r) { return (struct rm){r, -1, 0}; }
static struct rm M(int base, int32_t disp) { return (struct rm){-1, base, disp}; }

static void modrm(struct emit *e, int reg, struct rm rm)
{
   if (rm.reg >= 0) {
      byte(e, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm.reg & 7)));
      return;
   }
   /* Always a displacement (mod 01 or 10): no special case for rbp/r13. */
   bool d8 = rm.disp >= -128 && rm.disp < 128;
   byte(e, (uint8_t)((d8 ? 0x40 : 0x80) | (reg & 7) << 3 | (rm.base & 7)));
   if ((rm.base & 7) == 4)
      byte(e, 0x24);   /* SIB: base only */
   if (d8)
      byte(e, (uint8_t)rm.disp);
   else
      dword(e, (uint32_t)rm.disp);
}

/* A VEX instruction (three-byte prefix, W0): reg in ModRM.reg, vvvv the
 * first source (0 when unused: encoded inverted as 1111), rm the last. */
struct vop {
   uint8_t map, pp, op;   /* map 1: 0F, 2: 0F38, 3: 0F3A; pp 0: none, 1: 66, 2: F3 */
};

static void vex(struct emit *e, struct vop o, bool l256, int reg, int vvvv, struct rm rm)
{
   int x = rm.reg >= 0 ? rm.reg : rm.base;
   byte(e, 0xc4);
   byte(e, (uint8_t)(!(reg & 8) << 7 | 1 << 6 | !(x & 8) << 5 | o.map));
   byte(e, (uint8_t)((~vvvv & 15) << 3 | (l256 ? 4 : 0) | o.pp));
   byte(e, o.op);
   modrm(e, reg, rm);
}

/* An EVEX-encoded AVX-512 instruction on zmm registers 0-15 (Intel SDM
 * vol. 2, 2.7 "EVEX encoding"), W0, 512 bits: reg in ModRM.reg (a zmm or
 * a mask register), vvvv the first source, rm the last; k the write mask
 * (0: none), zero for zeroing-masking, bcst for a dword broadcast from
 * memory ({1to16}); w1 for the insert and extract of 256-bit halves (W1).
 * A memory displacement is a multiple of N bytes for its short form (2.7.5
 * "Compressed Displacement"): 4 for a broadcast or a single dword
 * (scalar), 32 for a half, 64 for a whole vector. */
struct evex_opts {
   int k;
   bool zero, bcst, scalar, w1;
};

static void evex(struct emit *e, struct vop o, int reg, int vvvv, struct rm rm,
                 struct evex_opts x)
{
   int b = rm.reg >= 0 ? rm.reg : rm.base;
   byte(e, 0x62);
   byte(e, (uint8_t)(!(reg & 8) << 7 | 1 << 6 | !(b & 8) << 5 | 1 << 4 | o.map));
   byte(e, (uint8_t)(x.w1 << 7 | (~vvvv & 15) << 3 | 1 << 2 | o.pp));
   byte(e, (uint8_t)(x.zero << 7 | 2 << 5 | x.bcst << 4 | 1 << 3 | (x.k & 7)));
   byte(e, o.op);
   int32_t n = x.bcst || x.scalar ? 4 : x.w1 ? 32 : 64;   /* w1: the 256-bit halves' */
   if (rm.reg >= 0 || (rm.disp % n == 0 && rm.disp / n >= -128 && rm.disp / n < 128)) {
      modrm(e, reg, rm.reg >= 0 ? rm : M(rm.base, rm.disp / n));
      return;
   }
   byte(e, (uint8_t)(0x80 | (reg & 7) << 3 | (rm.base & 7)));   /* mod 10: disp32, unscaled */
   if ((rm.base & 7) == 4)
      byte(e, 0x24);
   dword(e, (uint32_t)rm.disp);
}

/* The constants' rows (below) whose eight lanes are one value: in zmm code
 * an operand of one is that dword broadcast. */
static bool konst_row(struct rm rm);

/* An instruction of the VEX forms below in zmm code: the EVEX form of the
 * same opcode (W0 dword forms), but for the float logic, which is AVX512DQ
 * there, done as the integer logic of the same bits. */
static void zmm_form(struct emit *e, struct vop o, int d, int a, struct rm b)
{
   if (o.map == 1 && o.pp == 0 && (o.op == 0x54 || o.op == 0x57))   /* vandps, vxorps */
      o = (struct vop){1, 1, o.op == 0x54 ? 0xdb : 0xef};           /* vpandd, vpxord */
   bool scalar = o.map == 2 && o.op == 0x58;                        /* vpbroadcastd m32 */
   evex(e, o, d, a, b, (struct evex_opts){.bcst = konst_row(b), .scalar = scalar});
}

/* d = a <op> b, 256 bits (512 in zmm code: e->wide). */
static void v3(struct emit *e, struct vop o, int d, int a, struct rm b)
{
   if (e->wide)
      zmm_form(e, o, d, a, b);
   else
      vex(e, o, true, d, a, b);
}
/* d = <op> a, 256 bits (512 in zmm code). */
static void v2(struct emit *e, struct vop o, int d, struct rm a) { v3(e, o, d, 0, a); }

static const struct vop VMOVDQA = {1, 1, 0x6f}, VMOVDQU_LOAD = {1, 2, 0x6f},
                        VMOVDQU_STORE = {1, 2, 0x7f}, VMOVD = {1, 1, 0x6e},
                        VPBROADCASTD = {2, 1, 0x58}, VPADDD = {1, 1, 0xfe}, VPSUBD = {1, 1, 0xfa},
                        VPMULLD = {2, 1, 0x40}, VPAND = {1, 1, 0xdb}, VPOR = {1, 1, 0xeb},
                        VPXOR = {1, 1, 0xef}, VPCMPEQD = {1, 1, 0x76}, VPCMPGTD = {1, 1, 0x66},
                        VPMINSD = {2, 1, 0x39}, VPMINUD = {2, 1, 0x3b}, VPMAXSD = {2, 1, 0x3d},
                        VPMAXUD = {2, 1, 0x3f}, VPSLLVD = {2, 1, 0x47}, VPSRLVD = {2, 1, 0x45},
                        VPSRAVD = {2, 1, 0x46}, VPABSD = {2, 1, 0x1e}, VPSHIFTI = {1, 1, 0x72},
                        VPBLENDVB = {3, 1, 0x4c}, VADDPS = {1, 0, 0x58}, VMULPS = {1, 0, 0x59},
                        VSUBPS = {1, 0, 0x5c}, VDIVPS = {1, 0, 0x5e}, VSQRTPS = {1, 0, 0x51},
                        VANDPS = {1, 0, 0x54}, VXORPS = {1, 0, 0x57}, VCVTDQ2PS = {1, 0, 0x5b},
                        VCMPPS = {1, 0, 0xc2}, VFMADD231PS = {2, 1, 0xb8},
                        VPMOVMSKB = {1, 1, 0xd7}, VPTEST = {2, 1, 0x17};

static void mov_ymm(struct emit *e, int d, int s)
{
   if (d != s)
      v2(e, VMOVDQA, d, R(s));
}

/* vpsrld (/2), vpsrad (/4) or vpslld (/6) d, s, imm. */
static void shift_imm(struct emit *e, int ext, int d, int s, uint8_t imm)
{
   v3(e, VPSHIFTI, ext, d, R(s));
   byte(e, imm);
}

/* ---- constants ------------------------------------------------------------------ */

/* Eight-lane constants the code reads at [r8 + K_*]; zmm code broadcasts a
 * dword of those of one value (konst_row) and reads the lane numbers 16 at
 * a time (aligned to 64 bytes). */
enum { K_SIGN = 0, K_ABS = 32, K_31 = 64, K_ONE = 96, K_IOTA4 = 128, K_32 = 160,
       K_LANES = 192 /* 0, 1, ..., 63: chunk c's lane numbers at K_LANES + 32 * c */ };
#define LANES8(x) {x, x, x, x, x, x, x, x}
#define ROW8(c) {8 * (c), 8 * (c) + 1, 8 * (c) + 2, 8 * (c) + 3, 8 * (c) + 4, 8 * (c) + 5, \
                 8 * (c) + 6, 8 * (c) + 7}
static const uint32_t consts[14][8] __attribute__((aligned(64))) = {
   LANES8(0x80000000u), LANES8(0x7fffffffu), LANES8(31u), LANES8(1u),
   {0, 4, 8, 12, 16, 20, 24, 28}, LANES8(32u),
   ROW8(0), ROW8(1), ROW8(2), ROW8(3), ROW8(4), ROW8(5), ROW8(6), ROW8(7)};

static bool konst_row(struct rm rm)
{
   return rm.reg < 0 && rm.base == R8 && rm.disp < K_LANES && rm.disp != K_IOTA4;
}

static void mov_r8_consts(struct emit *e)
{
   byte(e, 0x49), byte(e, 0xb8);   /* mov r8, imm64 */
   uint64_t k = (uint64_t)(uintptr_t)consts;
   put(e, &k, 8);
}

/* ---- registers ------------------------------------------------------------------ */

/* ymm0-12 hold the run's vector registers and its uniform and immediate
 * operands (broadcast once per call); ymm13-15 are scratch. */
enum { YMM_HELD = 13, S0 = 13, S1 = 14, S2 = 15 };

/* What a held operand holds. */
enum konst_kind {
   KIMM,     /* the immediate value */
   KUREG,    /* u[value] */
   KWBASE,   /* the warp's first invocation index (wp->index * W): local_index - lane */
   KPROD,    /* the product of two held uniform operands, ymm (value >> 8) and (value & 255):
                IMAD's a * b, the same in every chunk */
};

struct konst {
   uint8_t kind;     /* enum konst_kind */
   uint8_t version;  /* KUREG: after this many writes to u[value] in the run */
   uint32_t value;
};

struct alloc {
   int8_t vreg[ISA_MAX_VREGS];   /* the ymm holding each vector register, or -1 */
   struct konst k[YMM_HELD];     /* held from ymm12 down */
   uint32_t nv, nk;
   uint64_t live_in[ISA_MAX_VREGS / 64];   /* read before written: loaded per chunk */
   uint64_t written[ISA_MAX_VREGS / 64];   /* stored per chunk */
   uint8_t uwrites[ISA_MAX_UREGS];         /* writes to each uniform register so far */
   bool vector;                            /* the run has a vector instruction */
};


/* A uniform register's value as of this point of the run (uniform
 * instructions earlier in the run may have written it), or an immediate. */
static int konst(struct alloc *a, enum konst_kind kind, uint32_t value)
{
   uint8_t version = kind == KUREG ? a->uwrites[value] : 0;
   for (uint32_t i = 0; i < a->nk; i++) {
      if (a->k[i].kind == kind && a->k[i].value == value && a->k[i].version == version)
         return YMM_HELD - 1 - (int)i;
   }
   if (a->nv + a->nk >= YMM_HELD)
      return -1;
   a->k[a->nk] = (struct konst){(uint8_t)kind, version, value};
   return YMM_HELD - 1 - (int)a->nk++;
}

/* An empty assignment: no register held. */
static void fresh_alloc(struct alloc *a)
{
   memset(a, 0, sizeof(*a));
   memset(a->vreg, -1, sizeof(a->vreg));
}

static int vreg(struct alloc *a, uint32_t r, bool write)
{
   if (a->vreg[r] < 0) {
      if (a->nv + a->nk >= YMM_HELD)
         return -1;
      a->vreg[r] = (int8_t)a->nv++;
   }
   if (write)
      hw_bit_set(a->written, r);
   else if (!hw_bit_test(a->written, r))
      hw_bit_set(a->live_in, r);
   return a->vreg[r];
}

/* The ymm of 32-bit source operand o, or -1 (no ymm left, or a kind the
 * tier does not take). */
static int src32(struct alloc *a, const struct isa_inst *in, uint16_t o)
{
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: return vreg(a, isa_opnd_index(o), false);
   case ISA_OPND_UREG: return konst(a, KUREG, isa_opnd_index(o));
   case ISA_OPND_IMM: return konst(a, KIMM, in->imm);
   default: return -1;
   }
}

/* The halves of 64-bit source operand o (an immediate is sign-extended). */
static bool src64(struct alloc *a, const struct isa_inst *in, uint16_t o, int *lo, int *hi)
{
   uint32_t i = isa_opnd_index(o);
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: *lo = vreg(a, i, false), *hi = vreg(a, i + 1, false); break;
   case ISA_OPND_UREG: *lo = konst(a, KUREG, i), *hi = konst(a, KUREG, i + 1); break;
   case ISA_OPND_IMM:
      *lo = konst(a, KIMM, in->imm);
      *hi = konst(a, KIMM, (int32_t)in->imm < 0 ? UINT32_MAX : 0);
      break;
   default: return false;
   }
   return *lo >= 0 && *hi >= 0;
}

/* ---- instructions ---------------------------------------------------------------- */

/* How an instruction's operands are shaped, or NONE if the tier does not
 * compile it. */
enum shape { NONE, S1OP, S2OP, S3OP, S64_2, S64_1, S64_EXT, SUNI, SLANE };

/* A special register read into a uniform register, as scalar code. */
static bool uniform_s2r(uint32_t mod)
{
   return mod >= ISA_SR_WARP_ID && mod <= ISA_SR_ROOT_HI;
}

/* A uniform instruction the tier runs as one scalar operation: a uniform
 * destination, uniform or immediate sources. */
static bool uniform_op(const struct isa_inst *in)
{
   switch ((enum isa_op)in->op) {
   case ISA_OP_S2R:
      return uniform_s2r(in->mod);
   case ISA_OP_MOV: case ISA_OP_IADD: case ISA_OP_ISUB: case ISA_OP_IMUL: case ISA_OP_IMAD:
   case ISA_OP_AND: case ISA_OP_OR: case ISA_OP_XOR: case ISA_OP_SHL: case ISA_OP_SHR_U:
   case ISA_OP_SHR_S:
      break;
   case ISA_OP_ICMP:
      if (in->mod >= ISA_ICMP_COUNT)
         return false;
      break;
   default:
      return false;
   }
   const uint16_t src[3] = {in->a, in->b, in->c};
   for (uint32_t k = 0; k < isa_op_info[in->op].sources; k++) {
      enum isa_operand_kind kind = isa_opnd_kind(src[k]);
      if (kind != ISA_OPND_UREG && kind != ISA_OPND_IMM)
         return false;
   }
   return true;
}

/* A shift by an immediate count: vpslld, vpsrld or vpsrad with the count
 * in the instruction (no ymm for it); so is IMUL's or IMAD's product by an
 * immediate power of two (an index * 4: vpmulld takes 10 cycles), and
 * IDIV_U's quotient or IREM_U's remainder by one (an index % 256). */
static bool imm_shift(const struct isa_inst *in)
{
   if (isa_opnd_kind(in->b) != ISA_OPND_IMM)
      return false;
   if (in->op == ISA_OP_IMUL || in->op == ISA_OP_IMAD || in->op == ISA_OP_IDIV_U ||
       in->op == ISA_OP_IREM_U)
      return in->imm && !(in->imm & (in->imm - 1));
   return in->op == ISA_OP_SHL || in->op == ISA_OP_SHR_U || in->op == ISA_OP_SHR_S;
}

static enum shape shape_of(const struct isa_inst *in)
{
   if (isa_opnd_kind(in->dst) == ISA_OPND_UREG)
      return uniform_op(in) ? SUNI : NONE;
   if (isa_opnd_kind(in->dst) != ISA_OPND_VREG)
      return NONE;
   switch ((enum isa_op)in->op) {
   case ISA_OP_S2R:
      return in->mod == ISA_SR_LANE_ID || in->mod == ISA_SR_LOCAL_INDEX ? SLANE : NONE;
   case ISA_OP_MOV: case ISA_OP_INEG: case ISA_OP_IABS: case ISA_OP_NOT: case ISA_OP_FNEG:
   case ISA_OP_FABS: case ISA_OP_FSQRT: case ISA_OP_I2F_S:
      return S1OP;
   case ISA_OP_IADD: case ISA_OP_ISUB: case ISA_OP_IMUL: case ISA_OP_IMIN_S: case ISA_OP_IMIN_U:
   case ISA_OP_IMAX_S: case ISA_OP_IMAX_U: case ISA_OP_AND: case ISA_OP_OR: case ISA_OP_XOR:
   case ISA_OP_SHL: case ISA_OP_SHR_U: case ISA_OP_SHR_S: case ISA_OP_FADD: case ISA_OP_FSUB:
   case ISA_OP_FMUL: case ISA_OP_FDIV:
      return S2OP;
   case ISA_OP_ICMP:
      return in->mod < ISA_ICMP_COUNT ? S2OP : NONE;
   case ISA_OP_FCMP:
      return in->mod <= ISA_FCMP_UNO ? S2OP : NONE;
   case ISA_OP_IDIV_U: case ISA_OP_IREM_U:   /* by a power of two: shifts (imm_shift) */
      return imm_shift(in) ? S2OP : NONE;
   case ISA_OP_SEL: case ISA_OP_IMAD: case ISA_OP_FFMA:
      return S3OP;
   case ISA_OP_IADD64: case ISA_OP_ISUB64:
      return S64_2;
   case ISA_OP_MOV64:
      return S64_1;
   case ISA_OP_ZEXT64: case ISA_OP_SEXT64:
      return S64_EXT;
   default:
      return NONE;
   }
}

/* An instruction's operands' ymm registers. */
struct ops {
   int d, dh, a, ah, b, bh, c;
   bool product;   /* IMAD: a holds a * b (KPROD) */
};

/* Assigns registers to an instruction's operands (sources first, so a
 * source is live-in unless an earlier instruction wrote it). False when it
 * does not fit; *a may then be partly updated (the caller keeps a copy). */
static bool assign(struct alloc *a, const struct isa_inst *in, struct ops *o)
{
   enum shape s = shape_of(in);
   uint32_t d = isa_opnd_index(in->dst);
   bool ok = true;
   if (s == SUNI) {   /* runs once, before the chunks: no ymm */
      if (a->uwrites[d] == UINT8_MAX)
         return false;
      a->uwrites[d]++;
      return true;
   }
   a->vector = true;
   o->product = false;
   switch (s) {
   case S3OP: o->c = src32(a, in, in->c), ok = ok && o->c >= 0; /* fall through */
   case S2OP:
      o->b = imm_shift(in) ? 0 : src32(a, in, in->b), ok = ok && o->b >= 0;
      /* fall through */
   case S1OP: case S64_EXT: o->a = src32(a, in, in->a), ok = ok && o->a >= 0; break;
   case S64_2: ok = src64(a, in, in->b, &o->b, &o->bh); /* fall through */
   case S64_1: ok = src64(a, in, in->a, &o->a, &o->ah) && ok; break;
   case SLANE:
      if (in->mod == ISA_SR_LOCAL_INDEX)
         o->a = konst(a, KWBASE, 0), ok = o->a >= 0;
      break;
   default: return false;
   }
   if (!ok)
      return false;
   int held = (int)(YMM_HELD - a->nk);   /* ymm held..12: uniform and immediate operands */
   if (in->op == ISA_OP_IMAD && o->a >= held && o->b >= held) {
      /* Both factors held (uniform): their product once per call, not per
       * chunk, where a ymm is left for it. */
      int p = konst(a, KPROD, (uint32_t)(o->a << 8 | o->b));
      if (p >= 0)
         o->a = p, o->product = true;
   }
   o->d = vreg(a, d, true);
   if (s == S64_2 || s == S64_1 || s == S64_EXT)
      o->dh = d + 1 < ISA_MAX_VREGS ? vreg(a, d + 1, true) : -1;
   else
      o->dh = 0;
   return o->d >= 0 && o->dh >= 0;
}

static void emit_icmp(struct emit *e, uint32_t mod, const struct ops *o)
{
   int a = o->a, b = o->b;
   if (mod >= ISA_ICMP_LT_U) {   /* unsigned: compare with the sign bits flipped */
      v3(e, VPXOR, S1, a, M(R8, K_SIGN));
      v3(e, VPXOR, S2, b, M(R8, K_SIGN));
      a = S1, b = S2;
      mod -= ISA_ICMP_LT_U - ISA_ICMP_LT_S;
   }
   /* A mask of the comparison or of its negation, then 1 or 0 from it. */
   bool negate = mod == ISA_ICMP_NE || mod == ISA_ICMP_LE_S || mod == ISA_ICMP_GE_S;
   switch (mod) {
   case ISA_ICMP_EQ: case ISA_ICMP_NE: v3(e, VPCMPEQD, S0, a, R(b)); break;
   case ISA_ICMP_GT_S: case ISA_ICMP_LE_S: v3(e, VPCMPGTD, S0, a, R(b)); break;
   default: v3(e, VPCMPGTD, S0, b, R(a)); break;   /* LT_S, GE_S */
   }
   if (negate)
      v3(e, VPADDD, o->d, S0, M(R8, K_ONE));   /* -1 -> 0, 0 -> 1 */
   else
      shift_imm(e, 2, o->d, S0, 31);
}

/* vcmpps predicates (Intel SDM, CMPPS): the quiet forms; exceptions are
 * masked, so signalling does not matter. */
static const uint8_t fcmp_pred[ISA_FCMP_UNO + 1] = {
   [ISA_FCMP_OEQ] = 0x00, [ISA_FCMP_ONE] = 0x0c, [ISA_FCMP_OLT] = 0x11, [ISA_FCMP_OLE] = 0x12,
   [ISA_FCMP_OGT] = 0x1e, [ISA_FCMP_OGE] = 0x1d, [ISA_FCMP_UEQ] = 0x08, [ISA_FCMP_UNE] = 0x04,
   [ISA_FCMP_ULT] = 0x19, [ISA_FCMP_ULE] = 0x1a, [ISA_FCMP_UGT] = 0x16, [ISA_FCMP_UGE] = 0x15,
   [ISA_FCMP_ORD] = 0x07, [ISA_FCMP_UNO] = 0x03,
};

/* 64-bit add or subtract on halves: the carry (borrow) of the low halves
 * is an unsigned compare, done signed with the sign bits flipped. The low
 * half goes straight to its register unless that is a source read after
 * it; the high half, computed last, always does. */
static void emit_addsub64(struct emit *e, bool sub, const struct ops *o)
{
   bool clobbers = o->d == o->a || o->d == o->ah || o->d == o->bh || (sub && o->d == o->b);
   int lo = clobbers ? S0 : o->d;
   if (!sub) {
      v3(e, VPADDD, lo, o->a, R(o->b));
      v3(e, VPXOR, S1, lo, M(R8, K_SIGN));
      v3(e, VPXOR, S2, o->a, M(R8, K_SIGN));
      v3(e, VPCMPGTD, S2, S2, R(S1));           /* carry: a.lo > lo, unsigned */
      v3(e, VPADDD, o->dh, o->ah, R(o->bh));
      v3(e, VPSUBD, o->dh, o->dh, R(S2));       /* minus -1 */
   } else {
      v3(e, VPSUBD, lo, o->a, R(o->b));
      v3(e, VPXOR, S1, o->b, M(R8, K_SIGN));
      v3(e, VPXOR, S2, o->a, M(R8, K_SIGN));
      v3(e, VPCMPGTD, S2, S1, R(S2));           /* borrow: b.lo > a.lo, unsigned */
      v3(e, VPSUBD, o->dh, o->ah, R(o->bh));
      v3(e, VPADDD, o->dh, o->dh, R(S2));       /* plus -1 */
   }
   mov_ymm(e, o->d, lo);
}

/* AVX-512's own forms (Intel SDM vol. 2): compares write a mask register
 * (k1 here), selected by mask; VPTERNLOGD's imm8 is the truth table of
 * (dst, vvvv, rm) as bits 2, 1, 0 of its index. */
static const struct vop VPCMPD = {3, 1, 0x1f}, VPCMPUD = {3, 1, 0x1e}, VPTESTMD = {2, 1, 0x27},
                        VPBLENDMD = {2, 1, 0x64}, VPTERNLOGD = {3, 1, 0x25};
enum { K1 = 1 };

/* d = 1 in the lanes of k1, 0 in the others (the ISA's booleans). */
static void ones_of_k1(struct emit *e, int d)
{
   evex(e, VPBROADCASTD, d, 0, M(R8, K_ONE), (struct evex_opts){.k = K1, .zero = true,
                                                                .scalar = true});
}

/* 64-bit add or subtract on halves in zmm code: the carry (borrow) of the
 * low halves as an unsigned compare into k1, which adds (subtracts) one to
 * the high halves' lanes; the order of emit_addsub64, for the same
 * aliasing. */
static void wide_addsub64(struct emit *e, bool sub, const struct ops *o)
{
   bool clobbers = o->d == o->a || o->d == o->ah || o->d == o->bh || (sub && o->d == o->b);
   int lo = clobbers ? S0 : o->d;
   v3(e, sub ? VPSUBD : VPADDD, lo, o->a, R(o->b));
   if (sub)
      evex(e, VPCMPUD, K1, o->a, R(o->b), (struct evex_opts){0});   /* borrow: a.lo < b.lo */
   else
      evex(e, VPCMPUD, K1, lo, R(o->a), (struct evex_opts){0});     /* carry: lo < a.lo */
   byte(e, 1);                                                       /* LT */
   v3(e, sub ? VPSUBD : VPADDD, o->dh, o->ah, R(o->bh));
   evex(e, sub ? VPSUBD : VPADDD, o->dh, o->dh, M(R8, K_ONE),
        (struct evex_opts){.k = K1, .bcst = true});
   mov_ymm(e, o->d, lo);
}

/* The instructions whose zmm code is not their ymm code's (emit_inst) in
 * 512 bits: those with compares, blends or an all-ones register. False
 * for the others. */
static bool emit_wide_inst(struct emit *e, const struct isa_inst *in, const struct ops *o)
{
   /* vpcmpd predicates: EQ, LT, LE, NE, NLT, NLE as 0, 1, 2, 4, 5, 6, in
    * the ISA's order (EQ, NE, LT, LE, GT, GE; signed, then unsigned). */
   static const uint8_t icmp_pred[ISA_ICMP_COUNT] = {0, 4, 1, 2, 6, 5, 1, 2, 6, 5};
   int d = o->d, a = o->a, b = o->b;
   switch ((enum isa_op)in->op) {
   case ISA_OP_ICMP:
      evex(e, in->mod >= ISA_ICMP_LT_U ? VPCMPUD : VPCMPD, K1, a, R(b), (struct evex_opts){0});
      byte(e, icmp_pred[in->mod]);
      ones_of_k1(e, d);
      return true;
   case ISA_OP_FCMP:
      evex(e, VCMPPS, K1, a, R(b), (struct evex_opts){0});
      byte(e, fcmp_pred[in->mod]);
      ones_of_k1(e, d);
      return true;
   case ISA_OP_SEL:   /* a ? b : c: b in the lanes where a is not 0 */
      evex(e, VPTESTMD, K1, a, R(a), (struct evex_opts){0});
      evex(e, VPBLENDMD, d, o->c, R(b), (struct evex_opts){.k = K1});
      return true;
   case ISA_OP_NOT:
      evex(e, VPTERNLOGD, d, a, R(a), (struct evex_opts){0});
      byte(e, 0x55);   /* ~rm */
      return true;
   case ISA_OP_IADD64: case ISA_OP_ISUB64:
      wide_addsub64(e, in->op == ISA_OP_ISUB64, o);
      return true;
   default:
      return false;
   }
}

/* One instruction on chunk `chunk` (lanes 8 * chunk ..., 16 * chunk ... in
 * zmm code) of the warp. */
static void emit_inst(struct emit *e, const struct isa_inst *in, const struct ops *o,
                      uint32_t chunk)
{
   int d = o->d, a = o->a, b = o->b, c = o->c;
   if (e->wide && emit_wide_inst(e, in, o))
      return;
   switch ((enum isa_op)in->op) {
   case ISA_OP_S2R: {   /* lane_id, or local_index = the warp's first index + lane_id */
      struct rm lanes = M(R8, (int32_t)(K_LANES + (e->wide ? 64 : 32) * chunk));
      if (in->mod == ISA_SR_LOCAL_INDEX)
         v3(e, VPADDD, d, a, lanes);
      else
         v2(e, VMOVDQA, d, lanes);
      break;
   }
   case ISA_OP_MOV: mov_ymm(e, d, a); break;
   case ISA_OP_IADD: v3(e, VPADDD, d, a, R(b)); break;
   case ISA_OP_ISUB: v3(e, VPSUBD, d, a, R(b)); break;
   case ISA_OP_IMUL:
      if (imm_shift(in))   /* vpslld /6 */
         shift_imm(e, 6, d, a, (uint8_t)__builtin_ctz(in->imm));
      else
         v3(e, VPMULLD, d, a, R(b));
      break;
   case ISA_OP_IMAD:
      if (o->product) {
         v3(e, VPADDD, d, a, R(c));
         break;
      }
      if (imm_shift(in))
         shift_imm(e, 6, S0, a, (uint8_t)__builtin_ctz(in->imm));
      else
         v3(e, VPMULLD, S0, a, R(b));
      v3(e, VPADDD, d, S0, R(c));
      break;
   case ISA_OP_IDIV_U:   /* by 2^k (imm_shift): a >> k */
      shift_imm(e, 2, d, a, (uint8_t)__builtin_ctz(in->imm));
      break;
   case ISA_OP_IREM_U: {   /* by 2^k: a's low k bits, shifted out to the top and back */
      uint8_t n = (uint8_t)(32 - __builtin_ctz(in->imm));   /* 32 (k = 0) clears all */
      shift_imm(e, 6, d, a, n);
      shift_imm(e, 2, d, d, n);
      break;
   }
   case ISA_OP_INEG:
      v3(e, VPXOR, S0, S0, R(S0));
      v3(e, VPSUBD, d, S0, R(a));
      break;
   case ISA_OP_IABS: v2(e, VPABSD, d, R(a)); break;   /* |INT_MIN| = INT_MIN, as 0u - a */
   case ISA_OP_IMIN_S: v3(e, VPMINSD, d, a, R(b)); break;
   case ISA_OP_IMIN_U: v3(e, VPMINUD, d, a, R(b)); break;
   case ISA_OP_IMAX_S: v3(e, VPMAXSD, d, a, R(b)); break;
   case ISA_OP_IMAX_U: v3(e, VPMAXUD, d, a, R(b)); break;
   case ISA_OP_AND: v3(e, VPAND, d, a, R(b)); break;
   case ISA_OP_OR: v3(e, VPOR, d, a, R(b)); break;
   case ISA_OP_XOR: v3(e, VPXOR, d, a, R(b)); break;
   case ISA_OP_NOT:
      v3(e, VPCMPEQD, S0, S0, R(S0));   /* all ones */
      v3(e, VPXOR, d, a, R(S0));
      break;
   case ISA_OP_SHL: case ISA_OP_SHR_U: case ISA_OP_SHR_S: {
      /* The count is b & 31 (hw_isa.h); the variable shifts take any count. */
      if (imm_shift(in)) {   /* vpslld /6, vpsrld /2, vpsrad /4 */
         int ext = in->op == ISA_OP_SHL ? 6 : in->op == ISA_OP_SHR_U ? 2 : 4;
         shift_imm(e, ext, d, a, (uint8_t)(in->imm & 31));
         break;
      }
      struct vop op = in->op == ISA_OP_SHL ? VPSLLVD : in->op == ISA_OP_SHR_U ? VPSRLVD : VPSRAVD;
      v3(e, VPAND, S0, b, M(R8, K_31));
      v3(e, op, d, a, R(S0));
      break;
   }
   case ISA_OP_ICMP: emit_icmp(e, in->mod, o); break;
   case ISA_OP_FADD: v3(e, VADDPS, d, a, R(b)); break;
   case ISA_OP_FSUB: v3(e, VSUBPS, d, a, R(b)); break;
   case ISA_OP_FMUL: v3(e, VMULPS, d, a, R(b)); break;
   case ISA_OP_FDIV: v3(e, VDIVPS, d, a, R(b)); break;
   case ISA_OP_FFMA:   /* d = a * b + c, one rounding, as fmaf */
      if (d != a && d != b) {   /* c into d, then d += a * b */
         mov_ymm(e, d, c);
         v3(e, VFMADD231PS, d, a, R(b));
         break;
      }
      mov_ymm(e, S0, c);
      v3(e, VFMADD231PS, S0, a, R(b));
      mov_ymm(e, d, S0);
      break;
   case ISA_OP_FNEG: v3(e, VXORPS, d, a, M(R8, K_SIGN)); break;
   case ISA_OP_FABS: v3(e, VANDPS, d, a, M(R8, K_ABS)); break;
   case ISA_OP_FSQRT: v2(e, VSQRTPS, d, R(a)); break;
   case ISA_OP_I2F_S: v2(e, VCVTDQ2PS, d, R(a)); break;
   case ISA_OP_FCMP:
      v3(e, VCMPPS, S0, a, R(b));
      byte(e, fcmp_pred[in->mod]);
      shift_imm(e, 2, d, S0, 31);
      break;
   case ISA_OP_SEL:   /* a ? b : c: c where a == 0 */
      v3(e, VPXOR, S0, S0, R(S0));
      v3(e, VPCMPEQD, S0, a, R(S0));
      v3(e, VPBLENDVB, d, b, R(c));
      byte(e, (uint8_t)(S0 << 4));
      break;
   case ISA_OP_IADD64: emit_addsub64(e, false, o); break;
   case ISA_OP_ISUB64: emit_addsub64(e, true, o); break;
   case ISA_OP_MOV64:   /* the pairs may overlap: both halves read first */
      mov_ymm(e, S0, a);
      mov_ymm(e, S1, o->ah);
      mov_ymm(e, d, S0);
      mov_ymm(e, o->dh, S1);
      break;
   case ISA_OP_ZEXT64: case ISA_OP_SEXT64:   /* a is read last by the high half */
      mov_ymm(e, d, a);
      if (in->op == ISA_OP_SEXT64)
         shift_imm(e, 4, o->dh, a, 31);
      else
         v3(e, VPXOR, o->dh, o->dh, R(o->dh));
      break;
   default:
      break;   /* shape_of() admits only the cases above */
   }
}

/* ---- liveness ------------------------------------------------------------------ */

#define VWORDS (ISA_MAX_VREGS / 64)

/* set |= the vector registers operand k (0 dst, 1 a, 2 b, 3 c) of in
 * names, pairs and wide accesses included. */
static void operand_vregs(const struct isa_inst *in, int k, uint64_t *set)
{
   const uint16_t ops[4] = {in->dst, in->a, in->b, in->c};
   if (isa_opnd_kind(ops[k]) != ISA_OPND_VREG)
      return;
   uint32_t r = isa_opnd_index(ops[k]), span = isa_operand_span(in->op, in->mod, k);
   for (uint32_t j = r; j < r + span && j < ISA_MAX_VREGS; j++)
      hw_bit_set(set, j);
}

/* live[pc] (VWORDS words) from its successors' (one pass): true if it
 * changed. */
static bool live_before(const struct hw_dinst *code, uint32_t n, uint32_t pc, uint64_t *live)
{
   const struct isa_inst *in = &code[pc].in;
   uint64_t now[VWORDS] = {0}, kill[VWORDS] = {0};
   for (uint32_t i = 0; i < VWORDS; i++) {
      if (in->op != ISA_OP_EXIT)
         now[i] = live[(pc + 1) * VWORDS + i];   /* live[n] is empty */
      if (isa_op_info[in->op].cls == ISA_CLASS_FLOW && in->imm < n)
         now[i] |= live[in->imm * VWORDS + i];
   }
   if (isa_writes_dst(in))
      operand_vregs(in, 0, kill);
   for (uint32_t i = 0; i < VWORDS; i++)
      now[i] &= ~kill[i];
   for (int k = isa_writes_dst(in) ? 1 : 0; k < 4; k++)
      operand_vregs(in, k, now);
   bool changed = memcmp(now, &live[pc * VWORDS], sizeof(now)) != 0;
   memcpy(&live[pc * VWORDS], now, sizeof(now));
   return changed;
}

/*
 * The vector registers live before each instruction (VWORDS words per pc,
 * pc up to n, which has none): read on some path from there before the
 * path writes them. Per lane: each lane runs the program as a thread. A
 * write under a partial mask kills only in the lanes that run it; the
 * others' paths go around it through flow instructions, whose successors
 * here (the next instruction and the target, whatever the instruction)
 * include every lane's. A block need not store a register it wrote that
 * is dead where its segment ends (emit_alu): nothing, the interpreter
 * after an exit included, reads that value. NULL when a lane may read
 * another's registers (SHFL, BCAST: a value dead in its own lane is not
 * dead) or out of memory; then every written register is stored.
 */
static uint64_t *liveness(const struct hw_dinst *code, uint32_t n)
{
   for (uint32_t pc = 0; pc < n; pc++) {
      if (code[pc].in.op == ISA_OP_SHFL || code[pc].in.op == ISA_OP_BCAST)
         return NULL;
   }
   uint64_t *live = calloc(((size_t)n + 1) * VWORDS, sizeof(uint64_t));
   for (bool changed = live != NULL; changed;) {   /* to the fixed point: loops */
      changed = false;
      for (uint32_t pc = n; pc-- > 0;)
         changed |= live_before(code, n, pc, live);
   }
   return live;
}

/* ---- blocks -------------------------------------------------------------------- */

/*
 * A block is a run of segments: ALU segments (their own register
 * assignment each) and, between them, memory accesses (one instruction
 * each): a full warp's global or shared load or store, or a load into
 * uniform registers. Every register is in memory between segments, so an access
 * may leave the block there. At most MAX_SEGS segments.
 */

enum seg_kind {
   SEG_ALU,
   SEG_BLOCK,    /* LDG, STG, LDS or STS of a full warp (block_access) */
   SEG_SCALAR,   /* LDR or a uniform LDG (scalar_load) */
   SEG_LEAVE,    /* BRK or CONT that no lane takes (leave_check), BRA_U not taken
                    (uniform_branch) */
   SEG_BACK,     /* ENDLOOP, BRA_U or JMP back to the block's start (back_edge) */
   SEG_JMP,      /* a JMP the block follows (follows) */
   SEG_BAR,      /* a BAR ending the block (emit_bar) */
   SEG_EXIT,     /* an EXIT ending the block (emit_exit_warp) */
   SEG_IF,       /* the IF of a selection the block takes whole (selection) */
   SEG_ENDIF,    /* ... and its ENDIF */
};

struct seg {
   uint32_t first, len;   /* instructions, counted as run from the block's first */
   uint32_t pc;           /* its first instruction's */
   enum seg_kind kind;
   struct alloc a;
};

struct plan {
   uint32_t len, count;
   uint32_t max;          /* segments it may take: MAX_SEGS or OVERLAP_SEGS (set by the caller) */
   uint32_t jmp;          /* the followed JMP's index (UINT32_MAX: none) */
   uint32_t end;          /* the pc after the block's last instruction */
   bool worth;            /* a vector instruction or an access: the call pays */
   struct seg seg[MAX_SEGS];
};

/* LDG, STG, LDS or STS of one dword per lane, vector address (pair) and
 * data register: the block does a full warp's consecutive access itself
 * (as warp_block, warp_local and block_copy in the interpreter), gathers
 * other shared loads, and leaves anything else to the interpreter: byte
 * and halfword accesses (ISA_MEM_SUB) among them, like every instruction
 * this tier does not know (shape_of, NONE). */
static bool block_access(const struct isa_inst *in)
{
   bool load = in->op == ISA_OP_LDG || in->op == ISA_OP_LDS;
   bool store = in->op == ISA_OP_STG || in->op == ISA_OP_STS;
   if (!(load || store) || in->mod != 1 || isa_opnd_kind(in->a) != ISA_OPND_VREG)
      return false;   /* (in->mod == 1: one dword, no ISA_MEM_SUB) */
   return isa_opnd_kind(load ? in->dst : in->b) == ISA_OPND_VREG;
}

/* A load into uniform registers from the root table (LDR) or from a
 * uniform address (LDG from a uniform register pair): one scalar access,
 * as the interpreter's. */
static bool scalar_load(const struct isa_inst *in)
{
   uint32_t n = ISA_MEM_WIDTH(in->mod);
   if (isa_opnd_kind(in->dst) != ISA_OPND_UREG || n < 1 || n > 4 || (in->mod & ISA_MEM_SUB))
      return false;   /* a byte or halfword load is the interpreter's */
   return in->op == ISA_OP_LDR ||
          (in->op == ISA_OP_LDG && isa_opnd_kind(in->a) == ISA_OPND_UREG);
}

/* A BRK (of the innermost loop or switch) or CONT on a vector condition:
 * where no lane's condition is set, and the construct it leaves is the
 * innermost on the mask stack, the interpreter would change nothing
 * (L_BRK: no lane leaves, exec stays full), so the block goes on; it
 * returns there otherwise. A loop's exit test then costs no return. */
static bool leave_check(const struct isa_inst *in)
{
   return ((in->op == ISA_OP_BRK && in->mod == 0) || in->op == ISA_OP_CONT) &&
          isa_opnd_kind(in->a) == ISA_OPND_VREG;
}

/* A BRA_U on a uniform register that is not the block's back_edge: where
 * the register is zero, L_BRA_U falls through (NEXT) and so does the
 * block; it returns there otherwise, for the interpreter to jump (a loop's
 * uniform exit test, as bench_compute's barrier loop's, then costs no
 * return). */
static bool uniform_branch(const struct isa_inst *in)
{
   return in->op == ISA_OP_BRA_U && isa_opnd_kind(in->a) == ISA_OPND_UREG;
}

/* The ENDLOOP of a loop whose head is the block's first instruction, at
 * pc, or a BRA_U on a uniform register or a JMP back to it: the block's
 * last instruction, which jumps back to its start. Its own pc may be a
 * jump target (BRK's, for lanes leaving): such a jump runs the
 * interpreter's ENDLOOP, as it would without the block. */
static bool back_edge(const struct isa_inst *in, uint32_t pc, uint32_t len)
{
   bool loop = in->op == ISA_OP_ENDLOOP || in->op == ISA_OP_JMP ||
               (in->op == ISA_OP_BRA_U && isa_opnd_kind(in->a) == ISA_OPND_UREG);
   return loop && in->imm == pc && len > 0;
}

/* A JMP the block follows: its code goes on at the target (one JMP per
 * block, so a loop of jumps cannot make it endless). A loop closed by a
 * JMP whose head ends at a BAR (bench_compute's barrier loop) is then one
 * block from the instruction after the previous BAR through the head's,
 * where every warp of the CTA arrives in turn (emit_bar). So is a BRA_U
 * on a uniform register back to an earlier pc, at, where taken (a loop
 * closed by its condition, bench_eu's barrier loop). */
static bool follows(const struct isa_inst *in, uint32_t at, uint32_t n)
{
   return (in->op == ISA_OP_JMP && in->imm < n) || (uniform_branch(in) && in->imm < at);
}

/* An IF on a vector condition whose target is its ENDIF (no ELSE): a
 * block may take the selection whole (emit_if), one per block. */
static bool selection(const struct hw_dinst *code, const struct isa_inst *in, uint32_t at,
                      uint32_t n)
{
   return in->op == ISA_OP_IF && isa_opnd_kind(in->a) == ISA_OPND_VREG && in->imm > at &&
          in->imm < n && code[in->imm].in.op == ISA_OP_ENDIF;
}

/* What a block does not take inside a selection: what looks at the mask
 * stack (leave checks, back edges: the IF's entry would be innermost) or
 * would end or leave the block there (BAR, EXIT, a followed JMP, BRA_U). */
static bool not_in_selection(const struct isa_inst *in, uint32_t pc, uint32_t len, uint32_t n)
{
   return in->op == ISA_OP_BAR || in->op == ISA_OP_EXIT || back_edge(in, pc, len) ||
          leave_check(in) || uniform_branch(in) || follows(in, n, n);
}

static enum seg_kind single_seg(const struct isa_inst *in)
{
   return block_access(in) ? SEG_BLOCK : scalar_load(in) ? SEG_SCALAR : SEG_LEAVE;
}

/* An instruction that is a segment of its own. */
static bool own_seg(const struct isa_inst *in)
{
   return block_access(in) || scalar_load(in) || leave_check(in) || uniform_branch(in);
}

static struct seg *open_seg(struct plan *p, enum seg_kind kind, uint32_t pc)
{
   struct seg *g = &p->seg[p->count++];
   memset(g, 0, sizeof(*g));
   fresh_alloc(&g->a);
   g->first = p->len;
   g->pc = pc;
   g->kind = kind;
   return g;
}

/* A segment of its own for the instruction at `at` (run as the block's
 * len-th), then a new ALU segment at `next`. */
static struct seg *own_then(struct plan *p, struct seg *g, enum seg_kind kind, uint32_t at,
                            uint32_t next)
{
   if (g->len == 0)
      p->count--;   /* no ALU instruction since the last segment */
   open_seg(p, kind, at)->len = 1;
   p->len++;
   return open_seg(p, SEG_ALU, next);
}

/* Whether a planned block pays for its call: a vector instruction, an
 * access, a leave check or a selection. */
static bool worth(const struct plan *p)
{
   for (uint32_t k = 0; k < p->count; k++) {
      enum seg_kind kind = p->seg[k].kind;
      if (kind == SEG_ALU ? p->seg[k].a.vector : kind < SEG_BACK || kind == SEG_IF)
         return true;
   }
   return false;
}

/* The block's last instruction, a segment of its own, if one is left. */
static bool close_with(struct plan *p, struct seg *g, enum seg_kind kind, uint32_t pc)
{
   uint32_t used = p->count - (g->len == 0);   /* no ALU instruction since the last */
   if (used + 1 > p->max)
      return false;
   p->count = used;
   open_seg(p, kind, pc)->len = 1;
   p->len++;
   return true;
}

/* The longest block from code[pc] that no jump enters past its start
 * (targets: bit pc of starts; past a followed JMP, no other code runs
 * it); len 0 if code[pc] does not begin one. A selection it takes is
 * taken whole, or the block ends before its IF. */
static void plan(const struct hw_dinst *code, uint32_t pc, uint32_t n, const uint64_t *starts,
                 struct plan *p)
{
   p->len = p->count = 0;
   p->jmp = UINT32_MAX;
   uint32_t at = pc, sel = UINT32_MAX, endif = 0;   /* the selection's IF segment, ENDIF */
   bool took = false;
   struct seg *g = open_seg(p, SEG_ALU, at);
   while (at < n) {
      const struct isa_inst *in = &code[at].in;
      if (sel != UINT32_MAX && at == endif && p->count + 2 <= p->max) {
         g = own_then(p, g, SEG_ENDIF, at, at + 1);
         at++, sel = UINT32_MAX;
         continue;
      }
      if (sel != UINT32_MAX && (not_in_selection(in, pc, p->len, n) || hw_bit_test(starts, at)))
         break;
      if (back_edge(in, pc, p->len)) {
         at += close_with(p, g, SEG_BACK, at);
         break;
      }
      if (p->len && p->jmp == UINT32_MAX && hw_bit_test(starts, at))
         break;
      if (in->op == ISA_OP_BAR || in->op == ISA_OP_EXIT) {
         at += close_with(p, g, in->op == ISA_OP_BAR ? SEG_BAR : SEG_EXIT, at);
         break;
      }
      bool jump = p->jmp == UINT32_MAX && follows(in, at, n);
      bool take = !took && selection(code, in, at, n);
      if (own_seg(in) || jump || take) {
         if (p->count + 2 > p->max)
            break;
         if (take)
            sel = p->count - (g->len == 0), endif = in->imm, took = true;
         if (jump)
            p->jmp = p->len;
         g = own_then(p, g, jump ? SEG_JMP : take ? SEG_IF : single_seg(in), at,
                      jump ? in->imm : at + 1);
         at = jump ? in->imm : at + 1;
         continue;
      }
      struct alloc before = g->a;
      struct ops o;
      if (!assign(&g->a, in, &o)) {
         /* Out of ymm registers: a new segment (its registers through
          * the register file), where one is left; else the block ends. */
         g->a = before;
         if (g->len == 0 || p->count + 1 > p->max)
            break;
         g = open_seg(p, SEG_ALU, at);
         if (!assign(&g->a, in, &o)) {   /* not for the tier at all */
            p->count--;
            break;
         }
      }
      g->len++;
      p->len++;
      at++;
   }
   if (sel != UINT32_MAX)   /* not taken whole: the block ends before the IF */
      p->count = sel, p->len = p->seg[sel].first, at = p->seg[sel].pc;
   p->end = at;
   if (p->count && p->seg[p->count - 1].len == 0)
      p->count--;
   p->worth = worth(p);
}

/* rcx = cta->params (struct hw_launch_params *). */
static void emit_params(struct emit *e)
{
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RCX, M(RDX, (int32_t)offsetof(struct hw_cta, params)));
}

/* ecx = the CTA's shared memory bytes. */
static void emit_shared_bytes(struct emit *e)
{
   emit_params(e);
   byte(e, 0x8b), modrm(e, RCX, M(RCX, (int32_t)offsetof(struct hw_launch_params, shared_bytes)));
}

/* rax = the warp the block runs (pushed at its entry, replaced at a warp
 * switch: emit_block, emit_bar). */
static void warp_to_rax(struct emit *e)
{
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RAX, M(RSP, 0));   /* mov rax, [rsp] */
}

/* eax = the warp's index in its CTA (the warp is at [rsp]: emit_block). */
static void emit_warp_index(struct emit *e)
{
   warp_to_rax(e);
   byte(e, 0x8b), modrm(e, RAX, M(RAX, (int32_t)offsetof(struct hw_warp, index)));
}

/* Broadcasts the held operands: the immediates and the uniform registers'
 * values before the run's first write to them (uniform true, version 0),
 * or the values of one uniform register after its version-th write; then
 * the products (KPROD) whose factors both are now (*done: the held
 * operands so far, by index). */
static void emit_konsts(struct emit *e, const struct alloc *a, bool first, uint32_t ureg,
                        uint8_t version, uint32_t w, uint32_t *done)
{
   for (uint32_t i = 0; i < a->nk; i++) {
      const struct konst *k = &a->k[i];
      int y = YMM_HELD - 1 - (int)i;
      bool now = k->kind != KPROD &&
                 (first ? k->kind != KUREG || k->version == 0
                        : k->kind == KUREG && k->value == ureg && k->version == version);
      if (!now)
         continue;
      *done |= 1u << i;
      switch ((enum konst_kind)k->kind) {
      case KUREG:
         v2(e, VPBROADCASTD, y, M(RSI, (int32_t)(4 * k->value)));
         continue;
      case KIMM:
         byte(e, 0xb8);   /* mov eax, imm32 */
         dword(e, k->value);
         break;
      case KWBASE:
         emit_warp_index(e);
         byte(e, 0xc1), modrm(e, 4, R(RAX)), byte(e, (uint8_t)__builtin_ctz(w));   /* shl eax */
         break;
      case KPROD:
         break;
      }
      vex(e, VMOVD, false, y, 0, R(RAX));
      v2(e, VPBROADCASTD, y, R(y));
   }
   for (uint32_t i = 0; i < a->nk; i++) {
      const struct konst *k = &a->k[i];
      if (k->kind != KPROD || (*done & 1u << i))
         continue;
      int fa = (int)(k->value >> 8), fb = (int)(k->value & 255);   /* held ymm: < YMM_HELD */
      uint32_t factors = 1u << (YMM_HELD - 1 - fa) | 1u << (YMM_HELD - 1 - fb);
      if ((*done & factors) != factors)
         continue;
      *done |= 1u << i;
      v3(e, VPMULLD, YMM_HELD - 1 - (int)i, fa, R(fb));
   }
}

/* eax or ecx = a uniform or immediate operand. */
static void load_scalar(struct emit *e, int reg, const struct isa_inst *in, uint16_t o)
{
   if (isa_opnd_kind(o) == ISA_OPND_UREG) {
      byte(e, 0x8b);   /* mov r32, [rsi + disp] */
      modrm(e, reg, M(RSI, (int32_t)(4 * isa_opnd_index(o))));
   } else {
      byte(e, (uint8_t)(0xb8 + reg));   /* mov r32, imm32 */
      dword(e, in->imm);
   }
}

/* eax = a uniform special register (uniform_s2r), as the interpreter's S2R. */
static void emit_s2r(struct emit *e, uint32_t mod, uint32_t w)
{
   int32_t at;   /* the field's offset in struct hw_launch_params */
   switch (mod) {
   case ISA_SR_WARP_ID: emit_warp_index(e); return;
   case ISA_SR_WARP_WIDTH: byte(e, 0xb8), dword(e, w); return;   /* mov eax, W */
   case ISA_SR_WARP_COUNT:
      byte(e, 0x8b), modrm(e, RAX, M(RDX, (int32_t)offsetof(struct hw_cta, warp_count)));
      return;
   case ISA_SR_GROUP_ID_X: case ISA_SR_GROUP_ID_Y: case ISA_SR_GROUP_ID_Z:
      byte(e, 0x8b), modrm(e, RAX, M(RDX, (int32_t)(offsetof(struct hw_cta, group) +
                                                    4 * (mod - ISA_SR_GROUP_ID_X))));
      return;
   case ISA_SR_NUM_GROUPS_X: case ISA_SR_NUM_GROUPS_Y: case ISA_SR_NUM_GROUPS_Z:
      at = (int32_t)(offsetof(struct hw_launch_params, grid) + 4 * (mod - ISA_SR_NUM_GROUPS_X));
      break;
   case ISA_SR_GROUP_SIZE_X: case ISA_SR_GROUP_SIZE_Y: case ISA_SR_GROUP_SIZE_Z:
      at = (int32_t)(offsetof(struct hw_launch_params, size) + 4 * (mod - ISA_SR_GROUP_SIZE_X));
      break;
   default:   /* ROOT_LO, ROOT_HI: the halves of root_va (little endian) */
      at = (int32_t)(offsetof(struct hw_launch_params, root_va) + 4 * (mod - ISA_SR_ROOT_LO));
      break;
   }
   emit_params(e);
   byte(e, 0x8b), modrm(e, RAX, M(RCX, at));
}

/* eax = 1 where the flags of a uniform ICMP's cmp say its comparison mod
 * holds (setcc of each: e, ne, l, le, g, ge, b, be, a, ae), else 0. */
static void emit_setcc(struct emit *e, uint32_t mod)
{
   static const uint8_t setcc[ISA_ICMP_COUNT] = {0x94, 0x95, 0x9c, 0x9e, 0x9f,
                                                 0x9d, 0x92, 0x96, 0x97, 0x93};
   byte(e, 0x0f), byte(e, setcc[mod]), modrm(e, 0, R(RAX));
   byte(e, 0x0f), byte(e, 0xb6), modrm(e, RAX, R(RAX));   /* movzx eax, al */
}

/* eax = eax <op> b for a uniform instruction whose b is its immediate, in
 * the x86 form that takes it (a loop counter's step and bound); false
 * where there is none (or b is a register). */
static bool emit_uniform_imm(struct emit *e, const struct isa_inst *in)
{
   /* add, sub, and, or, xor, cmp eax, imm32 */
   static const uint8_t eax_imm[ISA_OP_COUNT] = {
      [ISA_OP_IADD] = 0x05, [ISA_OP_ISUB] = 0x2d, [ISA_OP_AND] = 0x25,
      [ISA_OP_OR] = 0x0d,   [ISA_OP_XOR] = 0x35,  [ISA_OP_ICMP] = 0x3d};
   if (isa_opnd_kind(in->b) != ISA_OPND_IMM)
      return false;
   if (eax_imm[in->op]) {
      byte(e, eax_imm[in->op]), dword(e, in->imm);
      if (in->op == ISA_OP_ICMP)
         emit_setcc(e, in->mod);
      return true;
   }
   switch ((enum isa_op)in->op) {
   case ISA_OP_IMUL: byte(e, 0x69), modrm(e, RAX, R(RAX)), dword(e, in->imm); return true;
   case ISA_OP_SHL: case ISA_OP_SHR_U: case ISA_OP_SHR_S:   /* shl, shr, sar eax, imm8 */
      byte(e, 0xc1), modrm(e, in->op == ISA_OP_SHL ? 4 : in->op == ISA_OP_SHR_U ? 5 : 7, R(RAX));
      byte(e, (uint8_t)(in->imm & 31));   /* masked to 5 bits, as x86 masks cl */
      return true;
   default: return false;
   }
}

/* eax = eax <op> ecx for a uniform instruction that neither an immediate
 * form nor a memory form takes (emit_uniform_imm, emit_uniform_mem): IMAD,
 * and shifts by a register. x86 masks shift counts to 5 bits, as the ISA
 * does. */
static void emit_uniform_ecx(struct emit *e, const struct isa_inst *in)
{
   switch ((enum isa_op)in->op) {
   case ISA_OP_IMAD:
      byte(e, 0x0f), byte(e, 0xaf), modrm(e, RAX, R(RCX));   /* imul eax, ecx */
      load_scalar(e, RCX, in, in->c);
      byte(e, 0x01), modrm(e, RCX, R(RAX));                  /* add eax, ecx */
      break;
   case ISA_OP_SHL: byte(e, 0xd3), modrm(e, 4, R(RAX)); break;     /* shl eax, cl */
   case ISA_OP_SHR_U: byte(e, 0xd3), modrm(e, 5, R(RAX)); break;   /* shr eax, cl */
   case ISA_OP_SHR_S: byte(e, 0xd3), modrm(e, 7, R(RAX)); break;   /* sar eax, cl */
   default:
      break;   /* the others take an immediate or a memory form */
   }
}

/* eax = eax <op> u[b] for a uniform instruction whose b is a uniform
 * register, in the x86 form reading it from memory (a loop's bound);
 * false where there is none. */
static bool emit_uniform_mem(struct emit *e, const struct isa_inst *in)
{
   /* add, sub, and, or, xor, cmp r32, r/m32 */
   static const uint8_t eax_mem[ISA_OP_COUNT] = {
      [ISA_OP_IADD] = 0x03, [ISA_OP_ISUB] = 0x2b, [ISA_OP_AND] = 0x23,
      [ISA_OP_OR] = 0x0b,   [ISA_OP_XOR] = 0x33,  [ISA_OP_ICMP] = 0x3b};
   if (isa_opnd_kind(in->b) != ISA_OPND_UREG || (!eax_mem[in->op] && in->op != ISA_OP_IMUL))
      return false;
   if (in->op == ISA_OP_IMUL)
      byte(e, 0x0f), byte(e, 0xaf);   /* imul eax, r/m32 */
   else
      byte(e, eax_mem[in->op]);
   modrm(e, RAX, M(RSI, (int32_t)(4 * isa_opnd_index(in->b))));
   if (in->op == ISA_OP_ICMP)
      emit_setcc(e, in->mod);
   return true;
}

/* A uniform instruction as scalar code on u[] (rsi): eax = a <op> b,
 * stored to u[dst]. */
static void emit_uniform(struct emit *e, const struct isa_inst *in, uint32_t w)
{
   if (in->op == ISA_OP_S2R)
      emit_s2r(e, in->mod, w);
   else
      load_scalar(e, RAX, in, in->a);
   if (in->op != ISA_OP_S2R && in->op != ISA_OP_MOV && !emit_uniform_imm(e, in) &&
       !emit_uniform_mem(e, in)) {
      load_scalar(e, RCX, in, in->b);
      emit_uniform_ecx(e, in);
   }
   byte(e, 0x89);   /* mov [rsi + disp], eax */
   modrm(e, RAX, M(RSI, (int32_t)(4 * isa_opnd_index(in->dst))));
}

/* The uniform instructions, in order, each followed by the broadcasts of
 * the value it wrote that the vector instructions after it read. */
static void emit_prologue(struct emit *e, const struct hw_dinst *code, uint32_t pc, uint32_t len,
                          const struct alloc *planned, uint32_t w)
{
   uint32_t done = 0;
   emit_konsts(e, planned, true, 0, 0, w, &done);
   uint8_t writes[ISA_MAX_UREGS] = {0};
   for (uint32_t i = 0; i < len; i++) {
      const struct isa_inst *in = &code[pc + i].in;
      if (shape_of(in) != SUNI)
         continue;
      emit_uniform(e, in, w);
      uint32_t d = isa_opnd_index(in->dst);
      emit_konsts(e, planned, false, d, ++writes[d], w, &done);
   }
}

/* zmm z from or to 64 bytes of the register file at `at`, as two 32-byte
 * halves, for an address register (e->addresses): a load of a dword of a
 * 64-byte store's upper half is not forwarded from the store on Intel
 * hosts (13 cycles more, measured; as for a 64-byte load of two 32-byte
 * stores), and the blocks' lane checks read lane W-1's dword of addresses
 * straight after. Other registers move whole (a 32-byte load of a
 * 64-byte store's upper half measured 2 cycles more, where other code
 * reads it in halves: gathers, fused runs of tile kinds 1 and 2). */
static void move_halves(struct emit *e, int z, struct rm at, bool store)
{
   static const struct vop VINSERTI64X4 = {3, 1, 0x3a}, VEXTRACTI64X4 = {3, 1, 0x3b};
   vex(e, store ? VMOVDQU_STORE : VMOVDQU_LOAD, true, z, 0, at);   /* loads zero bits 256+ */
   if (store)
      evex(e, VEXTRACTI64X4, z, 0, M(at.base, at.disp + 32), (struct evex_opts){.w1 = true});
   else
      evex(e, VINSERTI64X4, z, z, M(at.base, at.disp + 32), (struct evex_opts){.w1 = true});
   byte(e, 1);   /* the upper half */
}

/* Byref slot s of the CTA (plan_byref). */
static struct rm byref_slot(uint32_t s)
{
   return M(RDX, (int32_t)(offsetof(struct hw_cta, byref) + 8 * s));
}

/* r11 = the address byref slot s holds. */
static void byref_to_r11(struct emit *e, uint32_t s)
{
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, R11 & 7, byref_slot(s));   /* mov r11, [slot] */
}

/* The byref slot holding register r's words (plan_byref), or -1. */
static int byref_of(const struct emit *e, uint32_t r)
{
   for (uint32_t s = 0; s < HW_BYREF_SLOTS; s++) {
      if ((e->byref_active & (1u << s)) && e->byref_reg[s] == r)
         return (int)s;
   }
   return -1;
}

/* The registers the run keeps: chunk c of register r is at
 * [rdi + r * W * 4 + c * 32] (c * 64 in zmm code). */
static void move_vregs(struct emit *e, const struct alloc *a, const uint64_t *which, uint32_t w,
                       uint32_t c, bool store)
{
   uint32_t chunk = e->wide ? 64 : 32;   /* bytes */
   for (uint32_t i = 0; i < VWORDS; i++) {
      for (uint64_t m = which[i]; m; m &= m - 1) {   /* set bits only (compile time) */
         uint32_t r = 64 * i + (uint32_t)__builtin_ctzll(m);
         struct rm at = M(RDI, (int32_t)(r * w * 4 + c * chunk));
         int s = store ? -1 : byref_of(e, r);
         if (s >= 0) {   /* where its LDG left its words (plan_byref) */
            byref_to_r11(e, (uint32_t)s);
            at = M(R11, (int32_t)(c * chunk));
         }
         if (e->wide && hw_bit_test(e->addresses, r))
            move_halves(e, a->vreg[r], at, store);
         else
            v2(e, store ? VMOVDQU_STORE : VMOVDQU_LOAD, a->vreg[r], at);
      }
   }
}

/* One ALU segment: its uniform instructions and broadcasts, then for each
 * chunk of eight lanes: loads; the instructions; stores of the registers
 * live after the segment (its next instruction's: liveness). The chunks are
 * unrolled: a short segment then costs no loop, and each chunk's registers
 * are constant displacements from rdi. */
/* *stored = what a run that wrote `written` must store: the registers live
 * at end, its next instruction (liveness; all of them without it). */
static void live_stores(const struct emit *e, const uint64_t *written, uint32_t end,
                        uint64_t *stored)
{
   const uint64_t *after = e->live ? &e->live[end * VWORDS] : NULL;
   for (uint32_t i = 0; i < VWORDS; i++)
      stored[i] = written[i] & (after ? after[i] : UINT64_MAX);
}

/* Chunk c of the vector instructions at pc..pc+len, their registers
 * assigned again instruction by instruction into *a (assign() is
 * deterministic: the run's planned assignment). */
static void replay(struct emit *e, const struct hw_dinst *code, uint32_t pc, uint32_t len,
                   struct alloc *a, uint32_t c)
{
   for (uint32_t i = pc; i < pc + len; i++) {
      struct ops o;
      if (assign(a, &code[i].in, &o) && shape_of(&code[i].in) != SUNI)
         emit_inst(e, &code[i].in, &o, c);
   }
}

static void emit_alu(struct emit *e, const struct hw_dinst *code, const struct seg *g, uint32_t w)
{
   e->wide = e->avx512 && w >= 16;
   e->wide_segments += e->wide && g->a.vector;
   emit_prologue(e, code, g->pc, g->len, &g->a, w);
   uint64_t stored[VWORDS];   /* what it writes that is live after it */
   live_stores(e, g->a.written, g->pc + g->len, stored);
   for (uint32_t c = 0; g->a.vector && c < w / (e->wide ? 16 : 8); c++) {
      move_vregs(e, &g->a, g->a.live_in, w, c, false);
      struct alloc a;
      fresh_alloc(&a);
      replay(e, code, g->pc, g->len, &a, c);
      move_vregs(e, &g->a, stored, w, c, true);
   }
   e->wide = false;
}

/* A forward jump (jcc rel32, or jmp rel32 when cc is 0) to patch later:
 * returns where its displacement is. */
static size_t jump_fwd(struct emit *e, uint8_t cc)
{
   if (cc)
      byte(e, 0x0f), byte(e, cc);
   else
      byte(e, 0xe9);
   dword(e, 0);
   return e->len - 4;
}

/* The jump whose rel32 is at `at` goes to `to`. */
static void patch_to(struct emit *e, size_t at, size_t to)
{
   if (e->oom)
      return;
   uint32_t rel = (uint32_t)((int64_t)to - (int64_t)(at + 4));
   memcpy(e->b + at, &rel, 4);
}

static void patch(struct emit *e, size_t at) { patch_to(e, at, e->len); }

/* Pops the warp pushed at the block's entry (emit_block), adds the block's
 * counts to the CTA's and restores r12 and r13 (emit_tally), and returns. */
static void emit_ret(struct emit *e)
{
   byte(e, 0x59);                                        /* pop rcx */
   /* add [rdx + field], r12 / r13: the block's counts (emit_tally) */
   const int32_t bytes = (int32_t)offsetof(struct hw_cta, global_bytes);
   const int32_t insts = (int32_t)offsetof(struct hw_cta, insts);
   const int32_t jit = (int32_t)offsetof(struct hw_cta, jit_insts);
   byte(e, 0x4c), byte(e, 0x01), modrm(e, R12, M(RDX, bytes));
   byte(e, 0x4c), byte(e, 0x01), modrm(e, R13, M(RDX, insts));
   byte(e, 0x4c), byte(e, 0x01), modrm(e, R13, M(RDX, jit));
   byte(e, 0x41), byte(e, 0x5d);                         /* pop r13 */
   byte(e, 0x41), byte(e, 0x5c);                         /* pop r12 */
   byte(e, 0xc5), byte(e, 0xf8), byte(e, 0x77);          /* vzeroupper */
   byte(e, 0xc3);                                        /* ret */
}

/* Leaves the block: eax = how many of its instructions ran. In a block
 * that sweeps, by its fix-up where the CTA's sweep is on (emit_fixup). */
static void emit_return(struct emit *e, uint32_t ran)
{
   byte(e, 0xb8), dword(e, ran);                         /* mov eax, ran */
   if (e->sweeps) {
      byte(e, 0x66), byte(e, 0x83);                      /* cmp word [sweeping], 0 */
      modrm(e, 7, M(RDX, (int32_t)offsetof(struct hw_cta, sweeping))), byte(e, 0);
      byte(e, 0x0f), byte(e, 0x85);                      /* jne fixup */
      dword(e, (uint32_t)((int64_t)e->fixup - (int64_t)(e->len + 4)));
   }
   emit_ret(e);
}

/* cta->field += n (a uint64_t). */
static void emit_count(struct emit *e, size_t field, uint32_t n)
{
   byte(e, 0x48), byte(e, 0x81), modrm(e, 0, M(RDX, (int32_t)field)), dword(e, n);
}

/*
 * The counts a block makes on its fast path, every warp: the global bytes
 * of each access (R12) and the instructions it ran at each warp switch and
 * exit (R13, for cta->insts and jit_insts alike). Both registers are
 * callee-saved: pushed and zeroed as the block is entered (emit_block),
 * added to the CTA's counters as it returns (emit_ret), so every count is
 * in before the interpreter or run_warps reads one. As adds to the CTA
 * record they were read-modify-writes through memory, three to one word in
 * a stream's warp: bench_eu stream W=32 +3% to +6% in each of four code
 * layouts (n sign-extended: a selection no lane enters takes its body's
 * count back).
 */
static void emit_tally(struct emit *e, int reg, uint32_t n)
{
   byte(e, 0x49), byte(e, 0x81), modrm(e, 0, R(reg)), dword(e, n);   /* add r12 / r13, n */
}

/* The instructions counted += rcx (emit_tally's r13). */
static void tally_rcx(struct emit *e)
{
   byte(e, 0x49), byte(e, 0x01), modrm(e, RCX, R(R13));   /* add r13, rcx */
}

/* Pushes the mask stack entry of the selection's IF, as L_IF does with
 * every lane's condition set: the block, leaving inside the selection,
 * leaves it to the interpreter's ENDIF to pop (emit_if checked there is
 * room). */
static void emit_push_if(struct emit *e)
{
   warp_to_rax(e);
   byte(e, 0x8b), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, sp)));
   byte(e, 0x44), byte(e, 0x69), modrm(e, 1, R(RCX)), dword(e, sizeof(struct hw_mask_entry));
   byte(e, 0x4c), byte(e, 0x03), modrm(e, 1, M(RAX, (int32_t)offsetof(struct hw_warp, stack)));
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, exec)));
   const int32_t saved = (int32_t)offsetof(struct hw_mask_entry, saved);
   byte(e, 0x49), byte(e, 0x89), modrm(e, RCX, M(1, saved));   /* mov [r9 + saved], rcx */
   const size_t zero[] = {offsetof(struct hw_mask_entry, other),
                          offsetof(struct hw_mask_entry, cont)};
   for (int k = 0; k < 2; k++)   /* mov qword [r9 + ...], 0 */
      byte(e, 0x49), byte(e, 0xc7), modrm(e, 0, M(1, (int32_t)zero[k])), dword(e, 0);
   byte(e, 0x41), byte(e, 0xc7), modrm(e, 0, M(1, (int32_t)offsetof(struct hw_mask_entry, kind)));
   dword(e, HW_MASK_IF);
   byte(e, 0xff), modrm(e, 0, M(RAX, (int32_t)offsetof(struct hw_warp, sp)));   /* inc dword */
}

/* Before the block leaves with byref slots in use: their words into their
 * registers, where the interpreter reads them (a copy onto itself where a
 * slower path of the LDG had put them there). */
static void emit_byref_copies(struct emit *e)
{
   bool wide = e->wide;
   e->wide = false;   /* ymm moves, whatever the code around */
   for (uint32_t s = 0; s < HW_BYREF_SLOTS; s++) {
      if (!(e->byref_active & (1u << s)))
         continue;
      int32_t reg = (int32_t)(e->byref_reg[s] * e->byref_bytes);
      byref_to_r11(e, s);
      for (int32_t off = 0; off < (int32_t)e->byref_bytes; off += 32) {
         v2(e, VMOVDQU_LOAD, 0, M(R11, off));
         v2(e, VMOVDQU_STORE, 0, M(RDI, reg + off));
      }
   }
   e->wide = wide;
}

/* Leaves the block having run `ran` of its instructions (in the order run),
 * for the interpreter to go on at the next: the count, where that is
 * start + ran; past the followed JMP, that pc is stored and the
 * instructions counted instead (HW_JIT_RESUME). */
static void emit_stop(struct emit *e, uint32_t ran)
{
   emit_byref_copies(e);
   if (e->sel_if != UINT32_MAX && ran > e->sel_if && ran <= e->sel_endif)
      emit_push_if(e);
   if (e->jmp == UINT32_MAX || ran <= e->jmp) {
      emit_return(e, ran);
      return;
   }
   warp_to_rax(e);
   byte(e, 0xc7), modrm(e, 0, M(RAX, (int32_t)offsetof(struct hw_warp, pc)));
   dword(e, e->target + (ran - e->jmp - 1));                 /* mov dword [rax + pc], imm */
   emit_tally(e, R13, ran);
   emit_return(e, HW_JIT_RESUME);
}

/* Leaves the block at instruction `at` (in the order run), which the
 * interpreter then runs: counted (cta->jit_exits, for the statistics and
 * the tests). */
static void emit_exit(struct emit *e, uint32_t at)
{
   emit_count(e, offsetof(struct hw_cta, jit_exits), 1);
   emit_stop(e, at);
}

/* Fail jumps of an access, to patch to its return; NONE where unused. */
#define NFAIL 8
#define NONE_FAIL SIZE_MAX

/* r11 = the page of rax. */
static void page_of_rax(struct emit *e)
{
   put(e, (const uint8_t[]){0x49, 0x89, 0xc3, 0x49, 0xc1, 0xeb, 12}, 7);   /* mov, shr r11 */
}

/* The page slot (struct hw_cta's pages[]) of the access at pc, or -1:
 * one of the program's first HW_PAGE_SITES global access sites, and for
 * a full warp's access, not in a loop (a grid-stride loop's warp is on a
 * new page every trip: the slot would only cost there). */
static int page_slot(const struct emit *e, uint32_t pc, bool warp)
{
   uint32_t k = e->page_site[pc];
   return k == UINT32_MAX || (warp && e->looping) ? -1 : (int)k;
}

/* rax = the host address of [rax, rax + size), size at most a page, as
 * hw_mem_check finds it, or a jump to patch (*fail) where that returns
 * NULL: the range wraps, ends past the VA space, or its first or last
 * page is not live (no page lies between them). Inline, in r9-r11 and
 * rcx: a call would cost more than the check. With a page slot (slot >=
 * 0), a range inside the page the slot holds needs no more (the CTA's
 * other warps there: a stream's warps, the root table's words); a live
 * page found is kept there. A page freed meanwhile is an application's
 * bug the CTA may then miss: freed pages stay mapped (hw_mem_free punches
 * them out of the backing file), so nothing worse follows. */
static void emit_check(struct emit *e, uint32_t size, size_t fail[4], int slot)
{
   const int32_t mem = (int32_t)offsetof(struct hw_cta, mem);
   const struct rm cached = M(RDX, (int32_t)(offsetof(struct hw_cta, pages) + 8 * (size_t)slot));
   size_t known = NONE_FAIL;
   if (slot >= 0) {   /* one page, and that one: a wrapping range spans two */
      page_of_rax(e);
      byte(e, 0x48), byte(e, 0x8d), modrm(e, RCX, M(RAX, (int32_t)size - 1));   /* lea rcx */
      put(e, (const uint8_t[]){0x48, 0xc1, 0xe9, 12, 0x49, 0x39, 0xcb}, 7);   /* shr; cmp */
      size_t pages = jump_fwd(e, 0x85);                                   /* jne: two */
      byte(e, 0x4c), byte(e, 0x3b), modrm(e, 3, cached);                  /* cmp r11, [slot] */
      size_t other = jump_fwd(e, 0x85);
      byte(e, 0x4c), byte(e, 0x8b), modrm(e, 1, M(RDX, mem));            /* mov r9, cta->mem */
      byte(e, 0x49), byte(e, 0x03), modrm(e, RAX, M(1, (int32_t)offsetof(struct hw_mem, base)));
      known = jump_fwd(e, 0);
      patch(e, pages);
      patch(e, other);
   }
   static const uint8_t first_page[] = {
      0x49, 0x89, 0xc3,         /* mov r11, rax */
      0x49, 0xc1, 0xeb, 12,     /* shr r11, 12: the first page */
      0x4d, 0x89, 0xd9,         /* mov r9, r11 */
      0x49, 0xc1, 0xe9, 6,      /* shr r9, 6: its word of live[] */
      0x4f, 0x8b, 0x0c, 0xca,   /* mov r9, [r10 + r9 * 8] */
      0x4d, 0x0f, 0xa3, 0xd9,   /* bt r9, r11 */
   };
   static const uint8_t last_page[] = {
      0x48, 0xc1, 0xe9, 12,     /* shr rcx, 12: the last page */
      0x49, 0x89, 0xcb,         /* mov r11, rcx */
      0x49, 0xc1, 0xeb, 6,      /* shr r11, 6 */
      0x4f, 0x8b, 0x1c, 0xda,   /* mov r11, [r10 + r11 * 8] */
      0x49, 0x0f, 0xa3, 0xcb,   /* bt r11, rcx */
   };
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, 1, M(RDX, mem));            /* mov r9, cta->mem */
   byte(e, 0x48), byte(e, 0x8d), modrm(e, RCX, M(RAX, (int32_t)size - 1));   /* lea rcx: last */
   byte(e, 0x48), byte(e, 0x39), byte(e, 0xc1);                        /* cmp rcx, rax */
   fail[0] = jump_fwd(e, 0x82);                                        /* jb: wraps */
   byte(e, 0x49), byte(e, 0x3b), modrm(e, RCX, M(1, (int32_t)offsetof(struct hw_mem, va_size)));
   fail[1] = jump_fwd(e, 0x83);                                        /* jae: past the end */
   byte(e, 0x4d), byte(e, 0x8b), modrm(e, 2, M(1, (int32_t)offsetof(struct hw_mem, live)));
   put(e, first_page, sizeof(first_page));                             /* r10 = live */
   fail[2] = jump_fwd(e, 0x83);                                        /* jnc: not live */
   put(e, last_page, sizeof(last_page));
   fail[3] = jump_fwd(e, 0x83);
   if (slot >= 0) {
      page_of_rax(e);
      byte(e, 0x4c), byte(e, 0x89), modrm(e, 3, cached);                 /* mov [slot], r11 */
   }
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, 1, M(RDX, mem));            /* mov r9, cta->mem */
   byte(e, 0x49), byte(e, 0x03), modrm(e, RAX, M(1, (int32_t)offsetof(struct hw_mem, base)));
   if (known != NONE_FAIL)
      patch(e, known);
}

/* The red zone's slots below the chunks' (chunk_slot): the host address
 * of a full warp's global access at one place of the block on its last
 * trip, or 0 (emit_block clears them at entry). */
#define STRIDE_SLOTS 7u
static struct rm stride_slot(uint32_t k) { return M(RSP, -72 - 8 * (int32_t)k); }

/* 2^shift trips on: 4 in a loop; from warp to warp of a CTA (the block
 * runs each in turn: a stream's warps are 4 * w bytes apart), 4 KiB on,
 * at least 4 warps (bench_eu stream, 16M floats: 1 KiB was W=8 +55%, W=32
 * +5% against 4 warps; with zmm code, 4 KiB against 1 KiB: W=8 +3%, W=16
 * +1%, W=32 +12%, W=64 +15%, and 2, 8 and 16 KiB worse than 4). */
static uint8_t prefetch_shift(const struct emit *e, uint32_t w)
{
   uint8_t shift = 2;
   while (!e->looping && (4u * w << shift) < 4096)
      shift++;
   return shift;
}

/* r11 = how far the access at rax moves in 2^prefetch_shift trips, as it
 * moved since the last (0 on a first trip: slot k holds 0); slot k = rax. */
static void prefetch_delta(struct emit *e, uint32_t k, uint32_t w)
{
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RCX, stride_slot(k));   /* mov rcx, [slot] */
   byte(e, 0x48), byte(e, 0x89), modrm(e, RAX, stride_slot(k));   /* mov [slot], rax */
   byte(e, 0x48), byte(e, 0x85), byte(e, 0xc9);         /* test rcx, rcx */
   byte(e, 0x48), byte(e, 0x0f), byte(e, 0x44), byte(e, 0xc8);    /* cmovz rcx, rax */
   put(e, (const uint8_t[]){0x49, 0x89, 0xc3, 0x49, 0x29, 0xcb}, 6);   /* mov, sub r11, rcx */
   put(e, (const uint8_t[]){0x49, 0xc1, 0xe3, prefetch_shift(e, w)}, 4);   /* shl r11 */
}

/* prefetchw or prefetcht0 [base + off] (rcx or r11). */
static void prefetch_at(struct emit *e, int base, int32_t off, bool store)
{
   if (base & 8)
      byte(e, 0x41);
   byte(e, 0x0f), byte(e, store ? 0x0d : 0x18);
   modrm(e, 1, M(base, off));
}

/* How far the next warp's address is from this one's, at the access of a
 * block that does not loop (signed: mod 2^32, back or forth), where
 * plan_strides knows it; NO_STRIDE elsewhere. */
static int64_t warp_step(const struct emit *e)
{
   int64_t s = e->looping ? NO_STRIDE : e->wstep[e->seg];
   return s == NO_STRIDE ? NO_STRIDE : (int32_t)(uint32_t)s;
}

/* How far the access of a block that does not loop moves in
 * 2^prefetch_shift warps where plan_strides knows its warp step (struct
 * lanes wstep; mod 2^32, so back or forth), the trips of other steps
 * measured ahead of the same time: at least 4 warps, 4 KiB. NO_STRIDE
 * where it is not known or no displacement reaches it. */
static int64_t warps_ahead(const struct emit *e, uint32_t w)
{
   int64_t step = warp_step(e);
   if (step == NO_STRIDE)
      return NO_STRIDE;
   int64_t size = step < 0 ? -step : step;
   uint8_t shift = 2;
   while (size && (size << shift) < 4096)
      shift++;
   int64_t d = step * (INT64_C(1) << shift), next = d + step;   /* emit_prefetch's second */
   return d >= INT32_MIN && next >= INT32_MIN && d + 4 * (int64_t)w <= INT32_MAX &&
          next + 4 * (int64_t)w <= INT32_MAX ? d : NO_STRIDE;
}

/* Prefetches what the access at rax (host address, 4 * w bytes; a store
 * for writing) reaches some trips of the block on (below) if it moves as
 * it moved since the last trip: a grid-stride loop's warp moves a whole grid a
 * trip, too far for the host's own prefetcher, and waited for every line
 * (saxpy: one trip ahead +20-35%, two +9% more, four +6% more, in A/B
 * runs). On a first trip (slot 0) it moves by 0. Prefetches never fault.
 * Where the warp step is known (warps_ahead), the prefetch is at a
 * displacement from rax, none for a step of 0 (every warp there): the
 * slot's bookkeeping cost a stream's warp 6 instructions of its 180 or
 * so, and bench_eu stream at W=32 5%. From W=32 on, a warp also asks for
 * the next warp's lines there (ahead + step), so each line is asked for
 * twice, a warp apart: bench_eu stream +6% to +11% at W=32 in five code
 * layouts (the block moved by 0 to 56 bytes: a layout alone moves it by up
 * to 18%), +5% at W=64; at W=16 nothing, and the same lines asked for twice
 * by one warp +1%, the next warp's alone -2%. */
static void emit_prefetch(struct emit *e, uint32_t k, uint32_t w, bool store)
{
   int64_t ahead = warps_ahead(e, w);
   if (ahead != NO_STRIDE) {
      e->stepped++;
      int64_t step = warp_step(e);
      for (uint32_t off = 0; ahead && off < 4 * w; off += 64)
         prefetch_at(e, RAX, (int32_t)(ahead + off), store);
      for (uint32_t off = 0; ahead && w >= 32 && off < 4 * w; off += 64)
         prefetch_at(e, RAX, (int32_t)(ahead + step + off), store);
      return;
   }
   prefetch_delta(e, k, w);
   put(e, (const uint8_t[]){0x49, 0x01, 0xc3}, 3);      /* add r11, rax */
   for (uint32_t off = 0; off < 4 * w; off += 64)
      prefetch_at(e, R11, (int32_t)off, store);
}

/* ymm2 &= lane l of the register at [rdi + at] equals lane 0's + 4 * l
 * (step), or lane 0's (!step: the high halves of consecutive addresses
 * whose low halves do not wrap). */
static void emit_lanes_match(struct emit *e, int32_t at, int y, uint32_t w, bool step)
{
   v2(e, VPBROADCASTD, y, M(RDI, at));
   if (step)
      v3(e, VPADDD, y, y, M(R8, K_IOTA4));
   for (uint32_t c = 0; c < w / 8; c++) {
      v3(e, VPCMPEQD, 3, y, M(RDI, at + (int32_t)(32 * c)));
      v3(e, VPAND, 2, 2, R(3));
      if (step && c + 1 < w / 8)
         v3(e, VPADDD, y, y, M(R8, K_32));
   }
}

/* rax = the host address of `size` bytes of shared memory at offset
 * eax + imm, or a jump to fail[0..1]: misaligned, or not inside the CTA's
 * shared memory (as the interpreter's warp_local: offsets wrap at 32
 * bits, and the first lane's is checked with the whole span's size). */
static void emit_shared_host(struct emit *e, const struct isa_inst *in, uint32_t size,
                             size_t fail[2])
{
   if (in->imm)   /* eax was loaded by a 32-bit mov: rax = the offset already */
      byte(e, 0x05), dword(e, in->imm);                  /* add eax, imm: rax = offset */
   byte(e, 0xa8), byte(e, 3);                            /* test al, 3 */
   fail[0] = jump_fwd(e, 0x85);                          /* jnz: misaligned */
   emit_shared_bytes(e);
   byte(e, 0x4c), byte(e, 0x8d), modrm(e, 1, M(RAX, (int32_t)size));   /* lea r9: end */
   byte(e, 0x49), byte(e, 0x39), byte(e, 0xc9);          /* cmp r9, rcx */
   fail[1] = jump_fwd(e, 0x87);                          /* ja: past shared memory */
   byte(e, 0x48), byte(e, 0x03), modrm(e, RAX, M(RDX, (int32_t)offsetof(struct hw_cta, shared)));
}

/* rax = the host address of `size` bytes of global memory at the first
 * lane's address (low half in eax, high half at [rdi + hi]) + imm, or a
 * jump to fail[0..5]: the low halves of `size` consecutive bytes wrap (a
 * lane's high half does not carry: the interpreter's addresses would not
 * be consecutive), misaligned, or not live (emit_check). */
static void emit_global_host(struct emit *e, const struct isa_inst *in, int32_t hi, uint32_t size,
                             size_t fail[6], int slot)
{
   fail[0] = NONE_FAIL;
   if (size > 4) {
      byte(e, 0x3d), dword(e, UINT32_MAX - (size - 4));  /* cmp eax, imm32 */
      fail[0] = jump_fwd(e, 0x87);                       /* ja: the low halves wrap */
   }
   byte(e, 0x8b), modrm(e, RCX, M(RDI, hi));             /* mov ecx, its high half */
   byte(e, 0x48), byte(e, 0xc1), byte(e, 0xe1), byte(e, 32);   /* shl rcx, 32 */
   byte(e, 0x48), byte(e, 0x09), byte(e, 0xc8);          /* or rax, rcx */
   if (in->imm)
      byte(e, 0x48), byte(e, 0x05), dword(e, in->imm);   /* add rax, sign-extended imm */
   byte(e, 0xa8), byte(e, 3);                            /* test al, 3 */
   fail[1] = jump_fwd(e, 0x85);                          /* jnz: misaligned */
   emit_check(e, size, &fail[2], slot);
}

/* eax == -1, ymm2's lanes all set, or a jump (cc: 0x85 jne) to patch. */
static size_t unless_all(struct emit *e, uint8_t cc)
{
   vex(e, VPMOVMSKB, true, RAX, 0, R(2));
   byte(e, 0x83), byte(e, 0xf8), byte(e, 0xff);          /* cmp eax, -1 */
   return jump_fwd(e, cc);
}

/* The check of the high halves (at [rdi + hi]) plan_strides knows: none
 * for HI_UNIFORM, lane 0's against lane W-1's for HI_ENDS, a jump to
 * patch where that fails (NONE_FAIL: none emitted). */
static size_t emit_hi_known(struct emit *e, int hi_known, int32_t hi, uint32_t w)
{
   if (hi_known != HI_ENDS)
      return NONE_FAIL;
   byte(e, 0x8b), modrm(e, RAX, M(RDI, hi));                          /* mov eax, lane 0's */
   byte(e, 0x3b), modrm(e, RAX, M(RDI, hi + (int32_t)(4 * (w - 1))));   /* cmp eax, lane W-1's */
   return jump_fwd(e, 0x85);                                          /* jne */
}

/* rax = the host address of a full warp's consecutive dword access through
 * the address at register a (a vector pair for global memory, a vector
 * register of offsets for shared memory), or a jump to a fail[] entry:
 * lanes not 4 bytes apart, or a check of emit_shared_host or
 * emit_global_host failing. */
/* The lane checks of a full warp's address (low halves at [rdi + lo],
 * high halves at [rdi + hi]; none for shared memory) that what is known
 * of it leaves (known: low halves of stride 4, lane 0's then says them
 * all; hi_known: struct lanes), or a jump to patch where they fail
 * (NONE_FAIL: none emitted). */
static size_t emit_lane_checks(struct emit *e, int32_t lo, int32_t hi, uint32_t w, bool shared,
                               bool known, int hi_known)
{
   hi_known = shared ? HI_UNIFORM : known ? hi_known : HI_LANES;
   if (known && hi_known != HI_LANES)
      return emit_hi_known(e, hi_known, hi, w);
   v3(e, VPCMPEQD, 2, 2, R(2));
   if (!known)
      emit_lanes_match(e, lo, 0, w, true);
   if (hi_known == HI_LANES)
      emit_lanes_match(e, hi, 1, w, false);
   return unless_all(e, 0x85);
}

static void emit_block_address(struct emit *e, const struct isa_inst *in, uint32_t pc,
                               uint32_t w, size_t fail[NFAIL])
{
   bool shared = in->op == ISA_OP_LDS || in->op == ISA_OP_STS;
   int32_t lo = (int32_t)(isa_opnd_index(in->a) * w * 4), hi = lo + (int32_t)(w * 4);
   for (int k = 0; k < NFAIL; k++)
      fail[k] = NONE_FAIL;
   /* What plan_strides knows needs no lane by lane check: low halves of
    * stride 4 (lane 0's, checked not to wrap, says them all); high halves
    * all one, or all one where lane 0's and lane W-1's are (struct
    * lanes); more where the loop's indices were found of stride 1 at the
    * block's entry (cta->indexed). */
   uint32_t k = e->seg;
   bool more = e->indices && (e->consecutive_x[k] != e->consecutive[k] ||
                              e->hi_known_x[k] != e->hi_known[k]);
   size_t plain = NONE_FAIL, common = NONE_FAIL;
   if (more) {
      byte(e, 0x80), modrm(e, 7, M(RDX, (int32_t)offsetof(struct hw_cta, indexed))), byte(e, 0);
      plain = jump_fwd(e, 0x84);                         /* je: not of stride 1 */
      fail[7] = emit_lane_checks(e, lo, hi, w, shared, e->consecutive_x[k], e->hi_known_x[k]);
      common = jump_fwd(e, 0);
      patch(e, plain);
   }
   fail[0] = emit_lane_checks(e, lo, hi, w, shared, e->consecutive[k], e->hi_known[k]);
   if (common != NONE_FAIL)
      patch(e, common);
   byte(e, 0x8b), modrm(e, RAX, M(RDI, lo));             /* mov eax, lane 0's low half */
   if (shared)
      emit_shared_host(e, in, 4 * w, &fail[1]);
   else
      emit_global_host(e, in, hi, 4 * w, &fail[1], page_slot(e, pc, true));
}

/* Forward jumps to patch to one place. */
struct jumps {
   size_t at[128];
   uint32_t count;
};

/* At most 13 per chunk, 8 chunks; more would be a bug here: the block is
 * then not compiled (as when out of memory), never left unpatched. */
static void add_jumps(struct emit *e, struct jumps *j, const size_t *at, uint32_t n)
{
   for (uint32_t k = 0; k < n; k++) {
      if (at[k] == NONE_FAIL)
         continue;
      if (j->count == sizeof(j->at) / sizeof(j->at[0]))
         e->oom = true;
      else
         j->at[j->count++] = at[k];
   }
}

/* Chunk c's host address goes below the stack pointer: the red zone
 * (System V AMD64 ABI, 3.2.2), free to a function that calls nothing. Its
 * 128 bytes: chunk slots at -8 to -64, stride slots at -72 to -120
 * (stride_slot), the innermost mask entry's kind at -128
 * (innermost_slot). */
static struct rm chunk_slot(uint32_t c) { return M(RSP, -8 - 8 * (int32_t)c); }

/* Chunk c's host address into its slot: its lanes are consecutive (a span
 * of 32 bytes) or, !consecutive, all one address (4 bytes, the slot's
 * bit 0 set). The chunk's checks jump to *j. */
static void chunk_address(struct emit *e, const struct isa_inst *in, int32_t lo, int32_t hi,
                          bool consecutive, uint32_t c, struct jumps *j)
{
   bool shared = in->op == ISA_OP_LDS || in->op == ISA_OP_STS;
   uint32_t size = consecutive ? 32 : 4;
   size_t fail[6];
   byte(e, 0x8b), modrm(e, RAX, M(RDI, lo));             /* mov eax, the first lane's */
   if (shared) {
      emit_shared_host(e, in, size, fail);
      add_jumps(e, j, fail, 2);
   } else {
      emit_global_host(e, in, hi, size, fail, -1);
      add_jumps(e, j, fail, 6);
   }
   if (!consecutive)
      byte(e, 0x0c), byte(e, 1);                         /* or al, 1 */
   byte(e, 0x48), byte(e, 0x89), modrm(e, RAX, chunk_slot(c));   /* mov [slot], rax */
}

/* emit_prefetch for a global access chunk by chunk (a tile's rows, 4
 * KiB apart in sgemm's B, which the host's prefetcher does not follow),
 * its chunks' host addresses in their slots: each moves as chunk 0's. */
static void emit_chunk_prefetch(struct emit *e, uint32_t k, uint32_t w, bool store)
{
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RAX, chunk_slot(0));   /* mov rax, [chunk 0] */
   prefetch_delta(e, k, w);
   for (uint32_t c = 0; c < w / 8; c++) {
      byte(e, 0x48), byte(e, 0x8b), modrm(e, RCX, chunk_slot(c));   /* mov rcx, [chunk c] */
      byte(e, 0x4c), byte(e, 0x01), byte(e, 0xd9);                /* add rcx, r11 */
      prefetch_at(e, RCX, 0, store);
   }
}

/* The copies of an access chunk by chunk, each chunk's host address in
 * its slot (chunk_address); unless every chunk is known consecutive, a
 * load's slot with bit 0 set is one address, broadcast. */
static void chunk_copies(struct emit *e, const struct isa_inst *in, uint32_t w, bool consecutive)
{
   bool load = in->op == ISA_OP_LDG;
   int32_t reg = (int32_t)(isa_opnd_index(load ? in->dst : in->b) * w * 4);
   for (uint32_t c = 0; c < w / 8; c++) {
      int32_t off = reg + (int32_t)(32 * c);
      byte(e, 0x48), byte(e, 0x8b), modrm(e, RAX, chunk_slot(c));   /* mov rax, [slot] */
      if (!load || consecutive) {
         v2(e, VMOVDQU_LOAD, 0, load ? M(RAX, 0) : M(RDI, off));
         v2(e, VMOVDQU_STORE, 0, load ? M(RDI, off) : M(RAX, 0));
         continue;
      }
      byte(e, 0xa8), byte(e, 1);                         /* test al, 1 */
      size_t one = jump_fwd(e, 0x85);                    /* jnz: one address */
      v2(e, VMOVDQU_LOAD, 0, M(RAX, 0));
      size_t loaded = jump_fwd(e, 0);
      patch(e, one);
      v2(e, VPBROADCASTD, 0, M(RAX, -1));
      patch(e, loaded);
      v2(e, VMOVDQU_STORE, 0, M(RDI, off));
   }
}

/*
 * A full warp's access that is not consecutive as a whole but is in each
 * chunk of 8 lanes: a tile's rows, or (LDG) one address per chunk,
 * broadcast. Every chunk is checked (as the whole warp's access would be)
 * before any is done, so a failing check, which jumps to *j, leaves no
 * side effect. The high halves of a chunk's global addresses are equal.
 * For LDG, STG and STS (an LDS gathers instead).
 */
static void emit_chunked(struct emit *e, const struct isa_inst *in, uint32_t w, struct jumps *j,
                         int slot)
{
   bool shared = in->op == ISA_OP_STS;
   bool load = in->op == ISA_OP_LDG;
   int32_t a = (int32_t)(isa_opnd_index(in->a) * w * 4);
   for (uint32_t c = 0; c < w / 8; c++) {
      int32_t lo = a + (int32_t)(32 * c), hi = lo + (int32_t)(w * 4);
      if (!shared) {   /* ymm3 = the high halves equal to the first's */
         v2(e, VPBROADCASTD, 3, M(RDI, hi));
         v3(e, VPCMPEQD, 3, 3, M(RDI, hi));
      }
      size_t consecutive = NONE_FAIL, next = NONE_FAIL;
      if (load) {
         v2(e, VPBROADCASTD, 1, M(RDI, lo));
         v3(e, VPCMPEQD, 2, 1, M(RDI, lo));
         v3(e, VPAND, 2, 2, R(3));
         consecutive = unless_all(e, 0x85);
         chunk_address(e, in, lo, hi, false, c, j);
         next = jump_fwd(e, 0);
         patch(e, consecutive);
      }
      v2(e, VPBROADCASTD, 1, M(RDI, lo));
      v3(e, VPADDD, 1, 1, M(R8, K_IOTA4));
      v3(e, VPCMPEQD, 2, 1, M(RDI, lo));
      if (!shared)
         v3(e, VPAND, 2, 2, R(3));
      size_t scattered = unless_all(e, 0x85);
      add_jumps(e, j, &scattered, 1);
      chunk_address(e, in, lo, hi, true, c, j);
      if (next != NONE_FAIL)
         patch(e, next);
   }
   if (slot >= 0)
      emit_chunk_prefetch(e, (uint32_t)slot, w, in->op == ISA_OP_STG);
   chunk_copies(e, in, w, false);
}

/* The check of chunk c's high halves (at [rdi + hi]): its first lane's
 * against its last's (none where all are one, chunk_hi HI_UNIFORM). */
static void chunk_ends(struct emit *e, int32_t hi, struct jumps *j)
{
   if (e->chunk_hi[e->seg] == HI_UNIFORM)
      return;
   byte(e, 0x8b), modrm(e, RAX, M(RDI, hi));             /* mov eax, the first's */
   byte(e, 0x3b), modrm(e, RAX, M(RDI, hi + 28));        /* cmp eax, the last's */
   size_t differ = jump_fwd(e, 0x85);
   add_jumps(e, j, &differ, 1);
}

/*
 * Odd chunk c of emit_known_chunks where it continues chunk c - 1 (a
 * 16-wide row): its first lane's low half 32 bytes past that one's, on
 * the page chunk c - 1's check found live, with room for both chunks' 64
 * bytes (host addresses keep a VA's place in its page: the arena is
 * mapped at a page boundary, hw_mem.c), so the 16 lanes' low halves are
 * consecutive and do not wrap; then their carries drop at most once (see
 * struct lanes), and chunk c - 1's first lane's high half against chunk
 * c's last's checks all 16, which chunk_ends does for each chunk
 * otherwise. Chunk c's host address is then chunk c - 1's + 32, into its
 * slot. Else a jump (fail[], NONE_FAIL where none) to the chunks' own
 * checks.
 */
static void continued_chunk(struct emit *e, int32_t lo, int32_t hi, uint32_t c, size_t fail[3])
{
   byte(e, 0x8b), modrm(e, RAX, M(RDI, lo));             /* mov eax, the first lane's */
   byte(e, 0x2b), modrm(e, RAX, M(RDI, lo - 32));        /* sub eax, chunk c - 1's */
   byte(e, 0x83), byte(e, 0xf8), byte(e, 32);            /* cmp eax, 32 */
   fail[0] = jump_fwd(e, 0x85);
   fail[1] = NONE_FAIL;
   if (e->chunk_hi[e->seg] != HI_UNIFORM) {
      byte(e, 0x8b), modrm(e, RAX, M(RDI, hi - 32));     /* mov eax, chunk c - 1's first */
      byte(e, 0x3b), modrm(e, RAX, M(RDI, hi + 28));     /* cmp eax, chunk c's last */
      fail[1] = jump_fwd(e, 0x85);
   }
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RAX, chunk_slot(c - 1));   /* mov rax, [slot] */
   byte(e, 0x89), byte(e, 0xc1);                         /* mov ecx, eax */
   byte(e, 0x81), byte(e, 0xe1), dword(e, 4095);         /* and ecx, 4095 */
   byte(e, 0x81), byte(e, 0xf9), dword(e, 4096 - 64);    /* cmp ecx, 4032 */
   fail[2] = jump_fwd(e, 0x87);                          /* ja */
   byte(e, 0x48), byte(e, 0x83), byte(e, 0xc0), byte(e, 32);   /* add rax, 32 */
   byte(e, 0x48), byte(e, 0x89), modrm(e, RAX, chunk_slot(c));   /* mov [slot], rax */
}

/* A global access plan_strides knows consecutive in each chunk of 8 lanes
 * but not as a whole (e->chunks: a 16-wide workgroup's rows of a matrix),
 * its high halves all one in a chunk (chunk_hi HI_UNIFORM) or wherever
 * the chunk's first and last lanes' agree: as emit_chunked, without its
 * lane-by-lane checks, chunks paired where an odd one continues the even
 * one before it (continued_chunk). Every chunk is checked before any is
 * done; a failing check jumps to *j. */
static void emit_known_chunks(struct emit *e, const struct isa_inst *in, uint32_t w, int slot,
                              struct jumps *j)
{
   int32_t a = (int32_t)(isa_opnd_index(in->a) * w * 4), n = (int32_t)(w / 8);
   for (int32_t c = 0; c < n; c++) {
      int32_t lo = a + 32 * c, hi = lo + (int32_t)(w * 4);
      if (c % 2 == 0) {   /* its high halves checked with the next chunk's */
         if (c + 1 == n)
            chunk_ends(e, hi, j);
         chunk_address(e, in, lo, hi, true, (uint32_t)c, j);
         continue;
      }
      size_t own[3];
      continued_chunk(e, lo, hi, (uint32_t)c, own);
      size_t paired = jump_fwd(e, 0);
      for (int k = 0; k < 3; k++) {
         if (own[k] != NONE_FAIL)
            patch(e, own[k]);
      }
      chunk_ends(e, hi - 32, j);
      chunk_ends(e, hi, j);
      chunk_address(e, in, lo, hi, true, (uint32_t)c, j);
      patch(e, paired);
   }
   if (slot >= 0)
      emit_chunk_prefetch(e, (uint32_t)slot, w, in->op == ISA_OP_STG);
   chunk_copies(e, in, w, true);
}

/* vpgatherdd d, [rax + ymm idx * 1], mask (Intel SDM, VPGATHERDD: VSIB
 * addressing; d, idx and mask distinct; the mask is cleared). */
static void gather(struct emit *e, int d, int idx, int mask)
{
   byte(e, 0xc4);
   byte(e, (uint8_t)(!(d & 8) << 7 | !(idx & 8) << 6 | 1 << 5 | 2));
   byte(e, (uint8_t)((~mask & 15) << 3 | 4 | 1));
   byte(e, 0x90);
   byte(e, (uint8_t)((d & 7) << 3 | 4));                 /* mod 00, SIB follows */
   byte(e, (uint8_t)((idx & 7) << 3 | RAX));              /* scale 1, base rax */
}

/* ymm y = imm in every lane. */
static void broadcast_imm(struct emit *e, int y, uint32_t imm)
{
   byte(e, 0xb9), dword(e, imm);                         /* mov ecx, imm */
   vex(e, VMOVD, false, y, 0, R(RCX));
   v2(e, VPBROADCASTD, y, R(y));
}

/* ymm0 = chunk c's shared offsets: register a's lanes + imm (ymm1). */
static void shared_offsets(struct emit *e, int32_t a, uint32_t c)
{
   v3(e, VPADDD, 0, 1, M(RDI, a + (int32_t)(32 * c)));
}

/* Every lane's shared offset, register a's (its byte offset in the
 * register file) + imm (ymm1) where `imm`, aligned and at most the shared
 * memory's bytes - room; else a jump in fail[] (room past it, a lane out
 * of range, a lane misaligned). */
static void lanes_inside(struct emit *e, int32_t a, uint32_t w, uint32_t room, bool imm,
                         size_t fail[3])
{
   emit_shared_bytes(e);
   byte(e, 0x81), modrm(e, 5, R(RCX)), dword(e, room);  /* sub ecx, room: the last offset */
   fail[0] = jump_fwd(e, 0x82);                          /* jb: no room at all */
   vex(e, VMOVD, false, 2, 0, R(RCX));
   v2(e, VPBROADCASTD, 2, R(2));                         /* ymm2 = the last offset */
   v3(e, VPCMPEQD, 4, 4, R(4));                          /* ymm4 = in range so far */
   v3(e, VPXOR, 5, 5, R(5));                             /* ymm5 = low bits so far */
   for (uint32_t c = 0; c < w / 8; c++) {
      if (imm)
         shared_offsets(e, a, c);
      else
         v2(e, VMOVDQU_LOAD, 0, M(RDI, a + (int32_t)(32 * c)));
      v3(e, VPMAXUD, 3, 0, R(2));
      v3(e, VPCMPEQD, 3, 3, R(2));                       /* offset <= the last */
      v3(e, VPAND, 4, 4, R(3));
      shift_imm(e, 6, 3, 0, 30);                         /* vpslld: the low two bits */
      v3(e, VPOR, 5, 5, R(3));
   }
   vex(e, VPMOVMSKB, true, RAX, 0, R(4));
   byte(e, 0x83), byte(e, 0xf8), byte(e, 0xff);          /* cmp eax, -1 */
   fail[1] = jump_fwd(e, 0x85);
   v2(e, VPTEST, 5, R(5));
   fail[2] = jump_fwd(e, 0x85);                          /* jnz: misaligned */
}

/* A full warp's LDS whose offsets are not consecutive (the interpreter's
 * LOCAL_GATHER): every lane's offset aligned and inside shared memory,
 * checked for all chunks before any is loaded (the destination may be
 * the address register), then gathered (from *gathers on, with ymm1 =
 * imm: where a tile of kind 3 jumps in, emit_tile_load). Else a jump to
 * *fail. */
static void emit_shared_gather(struct emit *e, const struct isa_inst *in, uint32_t w,
                               size_t *fail, size_t *gathers)
{
   int32_t a = (int32_t)(isa_opnd_index(in->a) * w * 4);
   int32_t d = (int32_t)(isa_opnd_index(in->dst) * w * 4);
   size_t outside[3];
   broadcast_imm(e, 1, in->imm);
   lanes_inside(e, a, w, 4, true, outside);
   *gathers = e->len;
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RAX, M(RDX, (int32_t)offsetof(struct hw_cta, shared)));
   for (uint32_t c = 0; c < w / 8; c++) {
      shared_offsets(e, a, c);
      v3(e, VPCMPEQD, 4, 4, R(4));
      gather(e, 3, 0, 4);
      v2(e, VMOVDQU_STORE, 3, M(RDI, d + (int32_t)(32 * c)));
   }
   size_t over = jump_fwd(e, 0);
   patch(e, outside[0]), patch(e, outside[1]), patch(e, outside[2]);
   *fail = jump_fwd(e, 0);
   patch(e, over);
}

/* Rows of gathers: one byte per warp of a CTA (at most 128: 1024
 * invocations, W=8); a larger warp index shares a byte, costing a check. */
#define GATHER_WARPS 128u

/* r9 + rax = this warp's byte of the hints of the LDS at pc: set when the
 * warp's access there was not consecutive. Per warp, because a warp's
 * place in the CTA decides its pattern (the last warp of a ring of
 * neighbours wraps, the others do not); the other CTAs' same warps share
 * it. Only block code reads and writes these bytes: any warp's store of 1
 * is as good as another's, and a stale 0 costs one check. */
static void gather_hint(struct emit *e, uint32_t pc)
{
   uint64_t row = (uint64_t)(uintptr_t)(e->gathers + (size_t)e->lds_site[pc] * GATHER_WARPS);
   warp_to_rax(e);
   byte(e, 0x8b), modrm(e, RAX, M(RAX, (int32_t)offsetof(struct hw_warp, index)));
   byte(e, 0x83), byte(e, 0xe0), byte(e, GATHER_WARPS - 1);  /* and eax, 127 */
   byte(e, 0x49), byte(e, 0xb9), put(e, &row, 8);           /* mov r9, imm64 */
}

/*
 * A full warp's LDG or STG whose lanes' addresses are lane 0's + s *
 * lane, s a known multiple of 4 from 8 to 64 (plan_strides: a vec2 or
 * vec4 array's component, a row of a matrix), high halves all one: the
 * span from lane 0's word to lane W-1's, at most a page, checked live
 * (aligned, not wrapping) as the interpreter checks each lane's word,
 * then gathered chunk by chunk (vpgatherdd, byte offsets s * lane) or
 * stored lane by lane (distinct words, in lane order). A jump (*fail, to
 * patch) where a check fails: the general path runs it.
 */
static void emit_strided(struct emit *e, const struct isa_inst *in, uint32_t w,
                         size_t fail[NFAIL])
{
   uint32_t s = (uint32_t)e->stride[e->seg];
   int32_t lo = (int32_t)(isa_opnd_index(in->a) * w * 4), hi = lo + (int32_t)(w * 4);
   bool load = in->op == ISA_OP_LDG;
   int32_t d = (int32_t)(isa_opnd_index(load ? in->dst : in->b) * w * 4);
   for (int k = 0; k < NFAIL; k++)
      fail[k] = NONE_FAIL;
   fail[6] = emit_hi_known(e, e->hi_known[e->seg], hi, w);
   byte(e, 0x8b), modrm(e, RAX, M(RDI, lo));             /* mov eax, lane 0's low half */
   emit_global_host(e, in, hi, s * (w - 1) + 4, fail, -1);
   if (!load) {
      for (uint32_t l = 0; l < w; l++) {
         byte(e, 0x8b), modrm(e, RCX, M(RDI, d + (int32_t)(4 * l)));   /* mov ecx, lane l's */
         byte(e, 0x89), modrm(e, RCX, M(RAX, (int32_t)(s * l)));       /* mov [rax + s * l] */
      }
      return;
   }
   byte(e, 0xb9), dword(e, s);                           /* mov ecx, s */
   vex(e, VMOVD, false, 1, 0, R(RCX));
   v2(e, VPBROADCASTD, 1, R(1));                         /* ymm1 = s */
   for (uint32_t c = 0; c < w / 8; c++) {
      v3(e, VPMULLD, 0, 1, M(R8, (int32_t)(K_LANES + 32 * c)));   /* lane * s */
      v3(e, VPCMPEQD, 4, 4, R(4));
      gather(e, 3, 0, 4);
      v2(e, VMOVDQU_STORE, 3, M(RDI, d + (int32_t)(32 * c)));
   }
}

/* The byte holding tile t's kind for the warp the block runs: its tile
 * cache's where it has a site (filled at the block's entry: cached_kind,
 * cache_kind), after a load of the warp into rax emitted here, else
 * cta->tile_kind[t]. */
static struct rm kind_of(struct emit *e, uint32_t t)
{
   if (e->tile_site[t] < 0)
      return M(RDX, (int32_t)(offsetof(struct hw_cta, tile_kind) + t));
   warp_to_rax(e);
   return M(RAX, (int32_t)(offsetof(struct hw_warp, tile_cache) + (uint32_t)e->tile_site[t]));
}

/* Whether tile kind TILE_WARP_ROWS is found: only where a fused run's zmm
 * variant takes it (emit_fused); elsewhere it would be kind 2's code. */
static bool warp_rows(const struct emit *e, uint32_t w) { return e->avx512 && w >= 16; }

/* A full warp's LDS of a tile register whose kind the block's entry found
 * (emit_tile_kinds): chunk by chunk, its first lane's offset + imm, one
 * word broadcast (kind 1) or 32 bytes (kind 2), all checked inside shared
 * memory at the entry; then jumps (done[0..1], to patch past the general
 * path). Kind 3 jumps (*gathers, with ymm1 = imm) to the general path's
 * gathers past their checks (emit_shared_gather); kind 0 runs the general
 * path, the code after this. */
static void emit_tile_load(struct emit *e, const struct isa_inst *in, uint32_t w, size_t done[2],
                           size_t *gathers)
{
   uint32_t t = e->tile_of[e->seg] - 1u;
   int32_t r = (int32_t)(isa_opnd_index(in->a) * w * 4);
   int32_t d = (int32_t)(isa_opnd_index(in->dst) * w * 4);
   struct rm kind = kind_of(e, t);   /* (emits a load of rax) */
   byte(e, 0x0f), byte(e, 0xb6), modrm(e, RCX, kind);           /* movzx ecx, byte [kind] */
   byte(e, 0x85), byte(e, 0xc9);                                /* test ecx, ecx */
   size_t general = jump_fwd(e, 0x84);                          /* jz */
   byte(e, 0x83), byte(e, 0xf9), byte(e, 3);                    /* cmp ecx, 3 */
   size_t other = jump_fwd(e, 0x85);
   broadcast_imm(e, 1, in->imm);
   *gathers = jump_fwd(e, 0);
   patch(e, other);
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, 1, M(RDX, (int32_t)offsetof(struct hw_cta, shared)));
   byte(e, 0x83), byte(e, 0xf9), byte(e, 1);                    /* cmp ecx, 1 */
   size_t consecutive = jump_fwd(e, 0x85);
   for (int k = 0; k < 2; k++) {   /* broadcasts, then 32-byte loads */
      if (k)
         patch(e, consecutive);
      for (uint32_t c = 0; c < w / 8; c++) {
         byte(e, 0x8b), modrm(e, RAX, M(RDI, r + (int32_t)(32 * c)));   /* mov eax */
         byte(e, 0x4c), byte(e, 0x01), byte(e, 0xc8);                 /* add rax, r9 */
         v2(e, k ? VMOVDQU_LOAD : VPBROADCASTD, 0, M(RAX, (int32_t)in->imm));
         v2(e, VMOVDQU_STORE, 0, M(RDI, d + (int32_t)(32 * c)));
      }
      done[k] = jump_fwd(e, 0);
   }
   patch(e, general);
}

/* Patches the first *n of jumps at[] to here; *n = 0. */
static void patch_all(struct emit *e, const size_t *at, uint32_t *n)
{
   for (uint32_t i = 0; i < *n; i++)
      patch(e, at[i]);
   *n = 0;
}

/* ---- fused runs ------------------------------------------------------------------ */

/*
 * A fused run: a block's consecutive ALU segments and tile LDSs
 * (plan_tiles), compiled as one ALU segment whose LDSs load each chunk
 * from shared memory straight into a ymm register, in one variant per
 * combination of its tiles' kinds 1 and 2 (emit_tile_kinds). sgemm's
 * k-loop so keeps its sum and its products in ymm registers across its
 * steps, where unfused every LDS and every ALU segment passes its values
 * through the register file. Where a tile's kind is 0 for the warp, the
 * run's segments run unfused (emitted after the variants).
 */
#define FUSED_TILES 2u   /* tiles a fused run reads: 2^FUSED_TILES variants (+ 1) */

struct fused {
   uint32_t end;                  /* the segment after the run */
   uint32_t tiles;                /* tile[s] (an e->tile index) is addressed by r10 + s */
   uint8_t tile[FUSED_TILES];
   struct alloc a;                /* the run's registers, as emit_alu's */
};

static bool fusable(const struct emit *e, const struct plan *p, uint32_t k)
{
   return p->seg[k].kind == SEG_ALU || (p->seg[k].kind == SEG_BLOCK && e->tile_of[k]);
}

/* The slot of tile t in f (added if new), or -1: f has FUSED_TILES others. */
static int fused_slot(struct fused *f, uint32_t t)
{
   for (uint32_t s = 0; s < f->tiles; s++) {
      if (f->tile[s] == t)
         return (int)s;
   }
   if (f->tiles == FUSED_TILES)
      return -1;
   f->tile[f->tiles] = (uint8_t)t;
   return (int)f->tiles++;
}

/* A tile LDS's registers: its destination only (its address register,
 * which nothing in the block writes, is read per chunk from the register
 * file: fused_addresses). */
static int assign_tile(struct alloc *a, const struct isa_inst *in)
{
   a->vector = true;
   return vreg(a, isa_opnd_index(in->dst), true);
}

static bool assign_seg(struct alloc *a, const struct hw_dinst *code, const struct seg *g,
                       bool tile)
{
   if (tile)
      return assign_tile(a, &code[g->pc].in) >= 0;
   struct ops o;
   for (uint32_t pc = g->pc; pc < g->pc + g->len; pc++) {
      if (!assign(a, &code[pc].in, &o))
         return false;
   }
   return true;
}

/* The longest fused run from segment k whose registers fit, on code
 * without a gap (emit_prologue runs its uniform instructions in order);
 * false unless it takes a tile LDS and a vector ALU instruction. */
static bool plan_fused(const struct emit *e, const struct hw_dinst *code, const struct plan *p,
                       uint32_t k, struct fused *f)
{
   memset(f, 0, sizeof(*f));
   fresh_alloc(&f->a);
   bool loads = false, alu = false;
   for (f->end = k; f->end < p->count && fusable(e, p, f->end); f->end++) {
      const struct seg *g = &p->seg[f->end];
      if (f->end > k && g->pc != g[-1].pc + g[-1].len)
         break;
      struct fused before = *f;
      bool tile = g->kind == SEG_BLOCK;
      bool room = !tile || fused_slot(f, e->tile_of[f->end] - 1u) >= 0;
      if (!room || !assign_seg(&f->a, code, g, tile)) {
         *f = before;
         break;
      }
      loads |= tile;
      alu |= !tile && g->a.vector;
   }
   return loads && alu;
}

/* Chunk c: r10 + s = the host address of tile s's offset in the chunk's
 * first lane (r9: shared memory's), checked with room at the entry. */
static void fused_addresses(struct emit *e, const struct fused *f, uint32_t w, uint32_t c)
{
   for (uint32_t s = 0; s < f->tiles; s++) {
      int r = R10 + (int)s;
      int32_t at = (int32_t)(e->tile[f->tile[s]] * w * 4 + 32 * c);
      byte(e, 0x44), byte(e, 0x8b), modrm(e, r, M(RDI, at));   /* mov r10d/r11d, [rdi + at] */
      byte(e, 0x4d), byte(e, 0x01), modrm(e, 1, R(r));         /* add r10/r11, r9 */
   }
}

/* Variant v of the fused run from segment k (bit s of v: tile s is of
 * kind 2, consecutive; else 1, one word a chunk), as emit_alu; or, whole,
 * the zmm code of every tile of kind TILE_WARP_ROWS: each tile's address
 * once (lane 0's), 64 bytes a chunk of 16 lanes from it. */
static void emit_fused_variant(struct emit *e, const struct hw_dinst *code, const struct plan *p,
                               uint32_t k, const struct fused *f, uint32_t v, uint32_t w,
                               bool whole)
{
   uint32_t pc = p->seg[k].pc, end = p->seg[f->end - 1].pc + p->seg[f->end - 1].len;
   e->wide = whole;
   e->wide_segments += whole;
   emit_prologue(e, code, pc, end - pc, &f->a, w);
   uint64_t stored[VWORDS];
   live_stores(e, f->a.written, end, stored);
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, 1, M(RDX, (int32_t)offsetof(struct hw_cta, shared)));
   if (whole)
      fused_addresses(e, f, w, 0);
   for (uint32_t c = 0; c < w / (whole ? 16 : 8); c++) {
      if (!whole)
         fused_addresses(e, f, w, c);
      move_vregs(e, &f->a, f->a.live_in, w, c, false);
      struct alloc a;   /* the same assignment again (replay) */
      fresh_alloc(&a);
      for (uint32_t j = k; j < f->end; j++) {
         const struct seg *g = &p->seg[j];
         if (g->kind == SEG_BLOCK) {
            const struct isa_inst *in = &code[g->pc].in;
            uint32_t s = 0;
            while (f->tile[s] != e->tile_of[j] - 1u)
               s++;
            int32_t at = (int32_t)in->imm + (whole ? 64 * (int32_t)c : 0);
            v2(e, whole || v >> s & 1 ? VMOVDQU_LOAD : VPBROADCASTD, assign_tile(&a, in),
               M(R10 + (int)s, at));
            continue;
         }
         replay(e, code, g->pc, g->len, &a, c);
      }
      move_vregs(e, &f->a, stored, w, c, true);
   }
   e->wide = false;
}

/* The fused run from segment k: each variant where the warp's tiles are
 * of its kinds (first, on an AVX-512 host, the zmm one where all are of
 * kind TILE_WARP_ROWS: bench_compute's barrier loop +5%; kinds 1 and 2
 * in zmm code, each chunk of 16 lanes two loads and an insert, measured
 * sgemm -4%), then a jump (done[]) past the run's segments, which the
 * block emits next, unfused, for the other kinds. Returns the jumps. */
static uint32_t emit_fused(struct emit *e, const struct hw_dinst *code, const struct plan *p,
                           uint32_t k, const struct fused *f, uint32_t w, size_t *done)
{
   bool whole = warp_rows(e, w);
   uint32_t n = 0;
   for (uint32_t v = 0; v < 1u << f->tiles; v += !whole) {
      size_t other[FUSED_TILES];
      for (uint32_t s = 0; s < f->tiles; s++) {
         struct rm kind = kind_of(e, f->tile[s]);
         if (whole || !(v >> s & 1)) {   /* cmp byte [kind], TILE_WARP_ROWS or 1 */
            byte(e, 0x80), modrm(e, 7, kind), byte(e, whole ? TILE_WARP_ROWS : 1);
         } else {   /* rows: kind 2 or TILE_WARP_ROWS */
            byte(e, 0x0f), byte(e, 0xb6), modrm(e, RCX, kind);   /* movzx ecx */
            byte(e, 0x83), modrm(e, 4, R(RCX)), byte(e, 0xfb);          /* and ecx, ~4 */
            byte(e, 0x83), modrm(e, 7, R(RCX)), byte(e, 2);             /* cmp ecx, 2 */
         }
         other[s] = jump_fwd(e, 0x85);   /* jne */
      }
      emit_fused_variant(e, code, p, k, f, v, w, whole);
      done[n++] = jump_fwd(e, 0);
      for (uint32_t s = 0; s < f->tiles; s++)
         patch(e, other[s]);
      whole = false;
   }
   return n;
}

/* Host slot s - 1 of the CTA (plan_reuse). */
static struct rm host_slot(uint32_t s)
{
   return M(RDX, (int32_t)(offsetof(struct hw_cta, hosts) + 8 * (s - 1)));
}

/* A global access of known stride 8 to 64 with known high halves goes
 * strided first (emit_strided; its host slot, if it saves one, gets 0:
 * no one consecutive range): a jump to patch past the general path, or
 * NONE_FAIL when it does not apply; the general path follows its fails. */
static size_t emit_strided_first(struct emit *e, const struct isa_inst *in, uint32_t w,
                                 uint32_t save)
{
   int64_t s = e->stride[e->seg];
   if (s < 8 || s > 64 || s % 4 || e->hi_known[e->seg] == HI_LANES)
      return NONE_FAIL;
   size_t fail[NFAIL];
   emit_strided(e, in, w, fail);
   if (save)   /* mov qword [slot], 0 */
      byte(e, 0x48), byte(e, 0xc7), modrm(e, 0, host_slot(save)), dword(e, 0);
   size_t done = jump_fwd(e, 0);
   for (int k = 0; k < NFAIL; k++) {
      if (fail[k] != NONE_FAIL)
         patch(e, fail[k]);
   }
   return done;
}

/* A full warp's LDG, STG, LDS or STS, block instruction index i:
 * consecutive (one check, one copy), consecutive or one address in each
 * chunk (emit_chunked), or gathered (LDS); on any other access the block
 * returns i and the interpreter runs it. */
static void emit_access(struct emit *e, const struct isa_inst *in, uint32_t pc, uint32_t i,
                        uint32_t w)
{
   size_t tiled[2] = {NONE_FAIL, NONE_FAIL}, unchecked = NONE_FAIL;
   uint32_t byref = e->byref[e->seg];   /* slot + 1, or 0 */
   if (e->tile_of[e->seg])
      emit_tile_load(e, in, w, tiled, &unchecked);
   /* An LDS whose warp was once not consecutive there (a tile's
    * column, a neighbour's word across the warp's end: the same every
    * time after) gathers straight away; its failing check cost about as
    * much as the gather (sgemm). */
   size_t hinted = NONE_FAIL;
   if (in->op == ISA_OP_LDS) {
      gather_hint(e, pc);
      put(e, (const uint8_t[]){0x41, 0x80, 0x3c, 0x01, 0}, 5);   /* cmp byte [r9 + rax], 0 */
      hinted = jump_fwd(e, 0x85);                        /* jne: gather */
   }
   size_t fail[NFAIL], checked = NONE_FAIL;
   bool global = in->op == ISA_OP_LDG || in->op == ISA_OP_STG;
   uint32_t save = e->save[e->seg], reuse = e->reuse[e->seg];
   size_t gathered = global ? emit_strided_first(e, in, w, save) : NONE_FAIL;
   if (reuse) {   /* the host address an earlier access found (plan_reuse) */
      byte(e, 0x48), byte(e, 0x8b), modrm(e, RAX, host_slot(reuse));   /* mov rax, [slot] */
      byte(e, 0x48), byte(e, 0x85), byte(e, 0xc0);      /* test rax, rax */
      checked = jump_fwd(e, 0x85);                      /* jnz */
   }
   int slot = global && e->strides < STRIDE_SLOTS ? (int)e->strides++ : -1;
   size_t known = NONE_FAIL;   /* past the general path, from emit_known_chunks */
   if (global && e->chunks[e->seg]) {
      static _Thread_local struct jumps failed;   /* 1 KiB: not on the stack */
      failed.count = 0;
      emit_known_chunks(e, in, w, slot, &failed);
      if (save)   /* mov qword [slot], 0: no one host address */
         byte(e, 0x48), byte(e, 0xc7), modrm(e, 0, host_slot(save)), dword(e, 0);
      known = jump_fwd(e, 0);
      for (uint32_t k = 0; k < failed.count; k++)   /* the general path */
         patch(e, failed.at[k]);
   }
   emit_block_address(e, in, pc, w, fail);
   bool load = in->op == ISA_OP_LDG || in->op == ISA_OP_LDS;
   if (save)
      byte(e, 0x48), byte(e, 0x89), modrm(e, RAX, host_slot(save));   /* mov [slot], rax */
   if (slot >= 0)
      emit_prefetch(e, (uint32_t)slot, w, in->op == ISA_OP_STG);
   if (checked != NONE_FAIL)
      patch(e, checked);
   int32_t reg = (int32_t)(isa_opnd_index(load ? in->dst : in->b) * w * 4);
   e->wide = e->avx512 && w >= 16;   /* as the ALU segments move registers (move_vregs) */
   if (byref)   /* the words stay where they are: their address */
      byte(e, 0x48), byte(e, 0x89), modrm(e, RAX, byref_slot(byref - 1));   /* mov [slot], rax */
   for (int32_t off = 0; !byref && off < (int32_t)(4 * w); off += e->wide ? 64 : 32) {
      v2(e, VMOVDQU_LOAD, 0, load ? M(RAX, off) : M(RDI, reg + off));
      v2(e, VMOVDQU_STORE, 0, load ? M(RDI, reg + off) : M(RAX, off));
   }
   e->wide = false;
   size_t done[2];
   done[0] = jump_fwd(e, 0);
   if (in->op == ISA_OP_LDS) {   /* not consecutive: remembered */
      if (fail[0] != NONE_FAIL)
         patch(e, fail[0]);
      fail[0] = NONE_FAIL;
      gather_hint(e, pc);
      put(e, (const uint8_t[]){0x41, 0xc6, 0x04, 0x01, 1}, 5);   /* mov byte [r9 + rax], 1 */
      patch(e, hinted);
   }
   for (int k = 0; k < NFAIL; k++) {
      if (fail[k] != NONE_FAIL)
         patch(e, fail[k]);
   }
   /* Not consecutive: an LDS gathers (faster than chunks of shared
    * memory), anything else goes chunk by chunk; failing that, the block
    * returns i. */
   static _Thread_local struct jumps other;   /* 1 KiB: not on the stack */
   other.count = 0;
   if (in->op == ISA_OP_LDS) {
      size_t fail_gather, gathers;
      emit_shared_gather(e, in, w, &fail_gather, &gathers);
      add_jumps(e, &other, &fail_gather, 1);
      if (unchecked != NONE_FAIL)   /* a tile of kind 3 */
         patch_to(e, unchecked, gathers);
   } else {
      emit_chunked(e, in, w, &other, slot);
      if (save)   /* mov qword [slot], 0: no one host address */
         byte(e, 0x48), byte(e, 0xc7), modrm(e, 0, host_slot(save)), dword(e, 0);
   }
   done[1] = jump_fwd(e, 0);
   for (uint32_t k = 0; k < other.count; k++)
      patch(e, other.at[k]);
   emit_exit(e, i);
   patch(e, done[1]);
   if (known != NONE_FAIL)
      patch(e, known);
   if (gathered != NONE_FAIL)
      patch(e, gathered);
   for (int k = 0; k < 2; k++) {
      if (tiled[k] != NONE_FAIL)
         patch(e, tiled[k]);
   }
   if (byref) {   /* the slower paths left the words in the register */
      int32_t at = (int32_t)(isa_opnd_index(in->dst) * w * 4);
      byte(e, 0x48), byte(e, 0x8d), modrm(e, RCX, M(RDI, at));   /* lea rcx, [rdi + reg] */
      byte(e, 0x48), byte(e, 0x89), modrm(e, RCX, byref_slot(byref - 1));   /* mov [slot] */
   }
   patch(e, done[0]);   /* the consecutive path left their address (above) */
   if (global)
      emit_tally(e, R12, 4 * w);   /* as interpreted */
   if (byref)
      e->byref_active |= (uint8_t)(1u << (byref - 1));
}

/* The CTA's root window becomes the page of the root table's byte imm,
 * found live at host address rax: the root table's host address is rax -
 * imm, the page's offsets from it [lo, lo + 4096). The LDRs of the CTA's
 * warps there then check two bounds (emit_scalar_load): the root table
 * is the same for all of them. As with emit_check's page slots, a page
 * freed meanwhile is an application's bug the CTA may then miss. */
static void emit_root_window(struct emit *e, uint32_t imm)
{
   byte(e, 0x48), byte(e, 0x8d), modrm(e, RCX, M(RAX, -(int32_t)imm));   /* lea rcx */
   byte(e, 0x48), byte(e, 0x89), modrm(e, RCX, M(RDX, (int32_t)offsetof(struct hw_cta, root_host)));
   put(e, (const uint8_t[]){0x49, 0x89, 0xc3}, 3);                      /* mov r11, rax */
   byte(e, 0x49), byte(e, 0x81), modrm(e, 4, R(R11)), dword(e, (uint32_t)-4096);   /* and */
   byte(e, 0x49), byte(e, 0x29), byte(e, 0xcb);                        /* sub r11, rcx */
   byte(e, 0x4c), byte(e, 0x89), modrm(e, R11, M(RDX, (int32_t)offsetof(struct hw_cta, root_lo)));
   byte(e, 0x49), byte(e, 0x81), modrm(e, 0, R(R11)), dword(e, 4096);  /* add r11, 4096 */
   byte(e, 0x4c), byte(e, 0x89), modrm(e, R11, M(RDX, (int32_t)offsetof(struct hw_cta, root_hi)));
}

/* A scalar_load, block instruction index i: the address (root_va + imm
 * for LDR, zero-extended as the interpreter adds it; the uniform pair +
 * sign-extended imm for LDG), its checks, the words into u[]. Any check
 * failing returns i: the interpreter runs the load again and faults. */
/* An LDR the root window can serve (emit_scalar_load). */
static bool root_load(const struct isa_inst *in)
{
   return in->op == ISA_OP_LDR && in->imm <= INT32_MAX - 16;
}

/* rax = the root table's host address where the root window holds bytes
 * [lo, hi) of it, or jumps (out[0..1]) to patch where it does not. */
static void emit_in_window(struct emit *e, uint32_t lo, uint32_t hi, size_t out[2])
{
   byte(e, 0x48), byte(e, 0x81), modrm(e, 7, M(RDX, (int32_t)offsetof(struct hw_cta, root_lo)));
   dword(e, lo);                                         /* cmp qword [root_lo], lo */
   out[0] = jump_fwd(e, 0x8f);                           /* jg: it starts after lo */
   byte(e, 0x48), byte(e, 0x81), modrm(e, 7, M(RDX, (int32_t)offsetof(struct hw_cta, root_hi)));
   dword(e, hi);                                         /* cmp qword [root_hi], hi */
   out[1] = jump_fwd(e, 0x8c);                           /* jl: it ends before hi */
   byte(e, 0x48), byte(e, 0x8b),
      modrm(e, RAX, M(RDX, (int32_t)offsetof(struct hw_cta, root_host)));
}

/* LDRs in a row (segments k.. of the block, *end past the last): where
 * all their words lie in the CTA's root window, one check of it and their
 * loads, then a jump (returned, to patch) past their segments, which
 * follow for the rest (each checks its own). 0 jumps: a single LDR. */
static size_t emit_root_group(struct emit *e, const struct hw_dinst *code, const struct plan *p,
                              uint32_t k, uint32_t *end)
{
   uint32_t lo = UINT32_MAX, hi = 0, m = k;
   for (; m < p->count && p->seg[m].kind == SEG_SCALAR && root_load(&code[p->seg[m].pc].in); m++) {
      const struct isa_inst *in = &code[p->seg[m].pc].in;
      lo = in->imm < lo ? in->imm : lo;
      hi = in->imm + 4 * ISA_MEM_WIDTH(in->mod) > hi ? in->imm + 4 * ISA_MEM_WIDTH(in->mod) : hi;
   }
   *end = m;
   if (m - k < 2)
      return NONE_FAIL;
   size_t outside[2];
   emit_in_window(e, lo, hi, outside);
   for (uint32_t j = k; j < m; j++) {
      const struct isa_inst *in = &code[p->seg[j].pc].in;
      int32_t d = (int32_t)(4 * isa_opnd_index(in->dst));
      for (uint32_t w = 0; w < ISA_MEM_WIDTH(in->mod); w++) {
         byte(e, 0x8b), modrm(e, RCX, M(RAX, (int32_t)(in->imm + 4 * w)));   /* mov ecx */
         byte(e, 0x89), modrm(e, RCX, M(RSI, d + (int32_t)(4 * w)));          /* mov [rsi] */
      }
   }
   size_t done = jump_fwd(e, 0);
   patch(e, outside[0]);
   patch(e, outside[1]);
   return done;
}

static void emit_scalar_load(struct emit *e, const struct isa_inst *in, uint32_t pc, uint32_t i)
{
   uint32_t n = ISA_MEM_WIDTH(in->mod);
   bool root = root_load(in);
   size_t slow[2], known = NONE_FAIL;
   if (root) {   /* inside the CTA's root window: its host address */
      emit_in_window(e, in->imm, in->imm + 4 * n, slow);
      byte(e, 0x48), byte(e, 0x05), dword(e, in->imm);   /* add rax, imm */
      known = jump_fwd(e, 0);
      patch(e, slow[0]);
      patch(e, slow[1]);
   }
   if (in->op == ISA_OP_LDR) {
      emit_params(e);
      byte(e, 0x48), byte(e, 0x8b),
         modrm(e, RAX, M(RCX, (int32_t)offsetof(struct hw_launch_params, root_va)));
      byte(e, 0xb9), dword(e, in->imm);                  /* mov ecx, imm32 */
      byte(e, 0x48), byte(e, 0x01), byte(e, 0xc8);       /* add rax, rcx */
   } else {
      int32_t a = (int32_t)(4 * isa_opnd_index(in->a));
      byte(e, 0x8b), modrm(e, RAX, M(RSI, a));           /* mov eax, low half */
      byte(e, 0x8b), modrm(e, RCX, M(RSI, a + 4));       /* mov ecx, high half */
      byte(e, 0x48), byte(e, 0xc1), byte(e, 0xe1), byte(e, 32);   /* shl rcx, 32 */
      byte(e, 0x48), byte(e, 0x09), byte(e, 0xc8);       /* or rax, rcx */
      byte(e, 0x48), byte(e, 0x05), dword(e, in->imm);   /* add rax, sign-extended imm */
   }
   size_t fail[5];
   byte(e, 0xa8), byte(e, 3);                            /* test al, 3 */
   fail[0] = jump_fwd(e, 0x85);                          /* jnz: misaligned */
   emit_check(e, 4 * n, &fail[1], root ? -1 : page_slot(e, pc, false));
   if (root)
      emit_root_window(e, in->imm);
   if (known != NONE_FAIL)
      patch(e, known);
   int32_t d = (int32_t)(4 * isa_opnd_index(in->dst));
   for (uint32_t k = 0; k < n; k++) {
      byte(e, 0x8b), modrm(e, RCX, M(RAX, (int32_t)(4 * k)));    /* mov ecx, [rax + 4k] */
      byte(e, 0x89), modrm(e, RCX, M(RSI, d + (int32_t)(4 * k))); /* mov [rsi + ...], ecx */
   }
   if (in->op == ISA_OP_LDG)
      emit_tally(e, R12, 4 * n);
   size_t over = jump_fwd(e, 0);
   for (int k = 0; k < 5; k++)
      patch(e, fail[k]);
   emit_exit(e, i);
   patch(e, over);
}

/* The red zone's last slot: the kind of the warp's innermost mask stack
 * entry, or -1 when the stack is empty. Nothing in a block pushes or pops
 * the stack, so emit_block reads it once per warp (emit_innermost_kind). */
static struct rm innermost_slot(void) { return M(RSP, -128); }

/* Whether the block's leave checks or back edge look at the innermost
 * mask stack entry (emit_innermost). */
static bool uses_innermost(const struct hw_dinst *code, const struct plan *p)
{
   for (uint32_t k = 0; k < p->count; k++) {
      const struct isa_inst *in = &code[p->seg[k].pc].in;
      if ((p->seg[k].kind == SEG_LEAVE && !uniform_branch(in)) ||
          (p->seg[k].kind == SEG_BACK && in->op == ISA_OP_ENDLOOP))
         return true;
   }
   return false;
}

/* innermost_slot = the warp's innermost mask stack entry's kind, or -1. */
static void emit_innermost_kind(struct emit *e)
{
   warp_to_rax(e);
   byte(e, 0x8b), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, sp)));
   byte(e, 0x41), byte(e, 0xbb), dword(e, UINT32_MAX);   /* mov r11d, -1 */
   byte(e, 0x85), byte(e, 0xc9);                         /* test ecx, ecx */
   size_t empty = jump_fwd(e, 0x84);                     /* jz: no construct */
   byte(e, 0x69), modrm(e, RCX, R(RCX)), dword(e, sizeof(struct hw_mask_entry));  /* imul */
   byte(e, 0x48), byte(e, 0x03), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, stack)));
   const int32_t kind = (int32_t)(offsetof(struct hw_mask_entry, kind) -
                                  sizeof(struct hw_mask_entry));   /* the top entry's */
   byte(e, 0x44), byte(e, 0x8b), modrm(e, R11, M(RCX, kind));      /* mov r11d */
   patch(e, empty);
   byte(e, 0x44), byte(e, 0x89), modrm(e, R11, innermost_slot());   /* mov [slot], r11d */
}

/* Jumps to ok[] where the innermost mask stack entry is a loop (or, with
 * or_switch, a switch); falls through where it is not or the stack is
 * empty. */
static void emit_innermost(struct emit *e, bool or_switch, size_t ok[2])
{
   byte(e, 0x83), modrm(e, 7, innermost_slot()), byte(e, HW_MASK_LOOP);   /* cmp dword */
   ok[0] = jump_fwd(e, 0x84);                            /* je */
   ok[1] = NONE_FAIL;
   if (or_switch) {
      byte(e, 0x83), modrm(e, 7, innermost_slot()), byte(e, HW_MASK_SWITCH);
      ok[1] = jump_fwd(e, 0x84);
   }
}

static void patch_ok(struct emit *e, const size_t ok[2])
{
   for (int k = 0; k < 2; k++) {
      if (ok[k] != NONE_FAIL)
         patch(e, ok[k]);
   }
}

/* A jump, to patch, taken where a BRA_U's uniform register is zero (the
 * branch not taken). */
static size_t unless_taken(struct emit *e, const struct isa_inst *in)
{
   if (e->eax_ureg != isa_opnd_index(in->a))
      byte(e, 0x8b), modrm(e, RAX, M(RSI, (int32_t)(4 * isa_opnd_index(in->a))));
   byte(e, 0x85), byte(e, 0xc0);                         /* test eax, eax */
   return jump_fwd(e, 0x84);                             /* jz */
}

/* A leave_check instruction, block index i: on when no lane's condition
 * is set and the innermost mask stack entry is a loop (or, for BRK, a
 * switch); else the block returns i and the interpreter runs it. A
 * uniform_branch: on when its register is zero. */
static void emit_leave(struct emit *e, const struct isa_inst *in, uint32_t i, uint32_t w)
{
   if (uniform_branch(in)) {
      size_t falls = unless_taken(e, in);
      emit_exit(e, i);
      patch(e, falls);
      return;
   }
   int32_t a = (int32_t)(isa_opnd_index(in->a) * w * 4);
   v2(e, VMOVDQU_LOAD, 0, M(RDI, a));
   for (uint32_t c = 1; c < w / 8; c++)
      v3(e, VPOR, 0, 0, M(RDI, a + (int32_t)(32 * c)));
   v2(e, VPTEST, 0, R(0));
   size_t leaves = jump_fwd(e, 0x85);                    /* jnz: a lane leaves */
   size_t ok[2];
   emit_innermost(e, in->op == ISA_OP_BRK, ok);
   patch(e, leaves);
   emit_exit(e, i);
   patch_ok(e, ok);
}

/* cta->budget--, as a backward jump spends it (BACK_EDGE in the
 * interpreter), and a jump to patch: jz (cc 0x84) where that spent the
 * last, jnz (0x85) where not. Where it did, the code there gives it back
 * (unspend) and leaves: the interpreter then runs the jump itself and
 * yields, for the watchdog. */
static size_t spend_budget(struct emit *e, uint8_t cc)
{
   const int32_t budget = (int32_t)offsetof(struct hw_cta, budget);
   byte(e, 0x48), byte(e, 0xff), modrm(e, 1, M(RDX, budget));               /* dec qword */
   return jump_fwd(e, cc);
}

static void unspend(struct emit *e)
{
   const int32_t budget = (int32_t)offsetof(struct hw_cta, budget);
   byte(e, 0x48), byte(e, 0xff), modrm(e, 0, M(RDX, budget));               /* inc qword */
}

/* A followed JMP or BRA_U (follows), block index i at pc: a backward one
 * spends budget as the interpreter's; the code goes on with its target's.
 * A BRA_U not taken returns i: the interpreter runs it, going on after it. */
static void emit_jmp(struct emit *e, const struct isa_inst *in, uint32_t i, uint32_t pc)
{
   if (in->imm > pc)
      return;
   size_t not_taken = in->op == ISA_OP_BRA_U ? unless_taken(e, in) : NONE_FAIL;
   size_t on = spend_budget(e, 0x85);
   unspend(e);
   emit_stop(e, i);
   if (not_taken != NONE_FAIL) {
      patch(e, not_taken);
      emit_stop(e, i);
   }
   patch(e, on);
}

/* r10 = cta->warps_end, where the walks over a CTA's warps stop. */
static void warps_end_to_r10(struct emit *e)
{
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, R10, M(RDX, (int32_t)offsetof(struct hw_cta, warps_end)));
}

/* r11 = the CTA's first warp. */
static void first_warp_to_r11(struct emit *e)
{
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, R11, M(RDX, (int32_t)offsetof(struct hw_cta, warps)));
}

/* r11 = the warp after r11's. */
static void next_r11(struct emit *e)
{
   byte(e, 0x49), byte(e, 0x81), modrm(e, 0, R(R11)), dword(e, (uint32_t)sizeof(struct hw_warp));
}

/* Back to `top` while r11 is below r10. */
static void loop_r11(struct emit *e, size_t top)
{
   byte(e, 0x4d), byte(e, 0x39), modrm(e, R10, R(R11));  /* cmp r11, r10 */
   byte(e, 0x0f), byte(e, 0x82), dword(e, (uint32_t)((int64_t)top - (int64_t)(e->len + 4)));
}

/* mov dword [base + at], value: a field of the warp at base (rax or r11). */
static void mark_warp(struct emit *e, int base, size_t at, uint32_t value)
{
   if (base & 8)
      byte(e, 0x41);
   byte(e, 0xc7), modrm(e, 0, M(base, (int32_t)at)), dword(e, value);
}

/* The block runs r11's warp from here: [rsp], rdi and rsi are its. */
static void switch_to_r11(struct emit *e)
{
   byte(e, 0x4c), byte(e, 0x89), modrm(e, R11, M(RSP, 0));   /* mov [rsp], r11 */
   byte(e, 0x49), byte(e, 0x8b), modrm(e, RDI, M(R11, (int32_t)offsetof(struct hw_warp, v)));
   byte(e, 0x49), byte(e, 0x8b), modrm(e, RSI, M(R11, (int32_t)offsetof(struct hw_warp, u)));
}

/* Every lane of a warp of width w. */
static uint64_t full_mask(uint32_t w) { return w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1; }

/* r11 = the CTA's first running warp after the one at rax, or a jump to
 * patch where there is none (as next_running in the interpreter). */
static size_t emit_next_running(struct emit *e)
{
   const int32_t size = (int32_t)sizeof(struct hw_warp);
   /* r11 walks the warps after rax's, up to r10 = cta->warps_end. */
   warps_end_to_r10(e);
   byte(e, 0x4c), byte(e, 0x8d), modrm(e, R11, M(RAX, size));                       /* lea */
   size_t walk = e->len;
   byte(e, 0x4d), byte(e, 0x39), modrm(e, R10, R(R11));  /* cmp r11, r10 */
   size_t none = jump_fwd(e, 0x83);                      /* jae */
   byte(e, 0x41), byte(e, 0x83), modrm(e, 7, M(R11, (int32_t)offsetof(struct hw_warp, state)));
   byte(e, HW_WARP_RUNNING);                             /* cmp dword [r11 + state], imm8 */
   size_t found = jump_fwd(e, 0x84);
   next_r11(e);
   byte(e, 0xe9), dword(e, (uint32_t)((int64_t)walk - (int64_t)(e->len + 4)));   /* jmp walk */
   patch(e, found);
   return none;
}

/* The block's instructions up to index i are counted (as the interpreter
 * counts them when it switches warps, SWITCH_TO) and r11's warp is the
 * CTA's current one. */
static void emit_handover(struct emit *e, uint32_t i)
{
   emit_tally(e, R13, i + 1);
   byte(e, 0x41), byte(e, 0x8b), modrm(e, RCX, M(R11, (int32_t)offsetof(struct hw_warp, index)));
   byte(e, 0x89), modrm(e, RCX, M(RDX, (int32_t)offsetof(struct hw_cta, current)));
}

/* The CTA's current warp, r11's, goes on: where it waits at the block's
 * start with every lane running, its registers replace the last warp's
 * and the block runs again from its top; elsewhere the interpreter takes
 * it on (HW_JIT_RESUME). */
static void emit_go_on(struct emit *e, uint32_t w)
{
   byte(e, 0x41), byte(e, 0x81), modrm(e, 7, M(R11, (int32_t)offsetof(struct hw_warp, pc)));
   dword(e, e->start);                                   /* cmp dword [r11 + pc], start */
   size_t elsewhere = jump_fwd(e, 0x85);
   uint64_t full = full_mask(w);
   byte(e, 0x48), byte(e, 0xb9), put(e, &full, 8);       /* mov rcx, imm64 */
   byte(e, 0x49), byte(e, 0x39), modrm(e, RCX, M(R11, (int32_t)offsetof(struct hw_warp, exec)));
   size_t partial = jump_fwd(e, 0x85);                   /* jne: a partial warp */
   switch_to_r11(e);
   byte(e, 0xe9), dword(e, (uint32_t)((int64_t)e->switched - (int64_t)(e->len + 4)));
   patch(e, elsewhere);
   patch(e, partial);
   emit_return(e, HW_JIT_RESUME);
}

/*
 * The last running warp (at rax) reaches the BAR at pc, the block's i-th
 * instruction: where every other warp of the CTA waits at that BAR, it
 * is released as L_BAR and release_here release it (this warp marked and
 * counted, every warp running again) and the CTA's first warp goes on
 * (emit_go_on: the interpreter takes it on at the next block, whose
 * call the interpreter's release cost about as much again in the barrier
 * loop). Else (a warp exited, or waits at another BAR) a jump to the
 * code after this, for the interpreter to run the BAR (and fault or warn).
 */
static void emit_release(struct emit *e, uint32_t i, uint32_t pc, uint32_t w)
{
   warps_end_to_r10(e);
   first_warp_to_r11(e);
   size_t walk = e->len, other[2];
   byte(e, 0x49), byte(e, 0x39), modrm(e, RAX, R(R11));          /* cmp r11, rax */
   size_t self = jump_fwd(e, 0x84);                              /* je: this warp */
   byte(e, 0x41), byte(e, 0x83), modrm(e, 7, M(R11, (int32_t)offsetof(struct hw_warp, state)));
   byte(e, HW_WARP_AT_BARRIER);                                  /* cmp dword [state], imm8 */
   other[0] = jump_fwd(e, 0x85);
   byte(e, 0x41), byte(e, 0x81), modrm(e, 7, M(R11, (int32_t)offsetof(struct hw_warp, barrier_pc)));
   dword(e, pc);                                                 /* cmp dword [barrier_pc] */
   other[1] = jump_fwd(e, 0x85);
   patch(e, self);
   next_r11(e);
   loop_r11(e, walk);
   mark_warp(e, RAX, offsetof(struct hw_warp, barrier_pc), pc);  /* as L_BAR */
   mark_warp(e, RAX, offsetof(struct hw_warp, pc), pc + 1);
   emit_count(e, offsetof(struct hw_cta, barrier_waits), 1);
   first_warp_to_r11(e);                                         /* every warp running */
   size_t run = e->len;
   mark_warp(e, R11, offsetof(struct hw_warp, state), HW_WARP_RUNNING);
   next_r11(e);
   loop_r11(e, run);
   first_warp_to_r11(e);                                         /* the first warp goes on */
   emit_handover(e, i);
   emit_go_on(e, w);
   patch(e, other[0]);
   patch(e, other[1]);
}

/* ---- sweeps: a CTA's warps through a block ending at a BAR ---------------- */

_Static_assert(offsetof(struct hw_cta, chained) == offsetof(struct hw_cta, sweeping) + 1,
               "emit_return and emit_fixup test and clear both as one word");

/* cta->field += rcx. */
static void count_rcx(struct emit *e, size_t field)
{
   byte(e, 0x48), byte(e, 0x01), modrm(e, RCX, M(RDX, (int32_t)field));
}

/* The instructions counted += rcx * n; barrier_waits += rcx (ecx: warps
 * that ran the block to its BAR, n = its instructions up to it). */
static void count_warps_at_bar(struct emit *e, uint32_t n)
{
   count_rcx(e, offsetof(struct hw_cta, barrier_waits));
   byte(e, 0x69), modrm(e, RCX, R(RCX)), dword(e, n);   /* imul ecx, ecx, n */
   tally_rcx(e);
}

/* mov word [sweeping], 0: the sweep ends (and its chain). */
static void end_sweep(struct emit *e)
{
   byte(e, 0x66), byte(e, 0xc7), modrm(e, 0, M(RDX, (int32_t)offsetof(struct hw_cta, sweeping)));
   byte(e, 0), byte(e, 0);
}

/*
 * The fix-up of a block that sweeps, emitted before its entry (every
 * return of the block comes here while cta->sweeping: emit_return; eax =
 * what it returns). The warps before the block's current one ran it to
 * its BAR: each is marked waiting there and counted, as emit_bar marks
 * and counts a warp; those after it run at the block's start (a chained
 * sweep never wrote their pcs); cta->current names the current one. A
 * chained sweep entered the block without the interpreter, whose pc is
 * still the first block's: a count the block returns is the current
 * warp's pc, counted here, and the interpreter resumes (HW_JIT_RESUME).
 */
static void emit_fixup(struct emit *e, uint32_t start)
{
   e->fixup = e->len;
   byte(e, 0x41), byte(e, 0x89), modrm(e, RAX, R(1));            /* mov r9d, eax */
   warp_to_rax(e);
   first_warp_to_r11(e);
   byte(e, 0x31), byte(e, 0xc9);                                 /* xor ecx, ecx */
   size_t before = e->len;
   byte(e, 0x49), byte(e, 0x39), modrm(e, RAX, R(R11));          /* cmp r11, rax */
   size_t reached = jump_fwd(e, 0x83);                           /* jae */
   mark_warp(e, R11, offsetof(struct hw_warp, barrier_pc), e->bar_pc);
   mark_warp(e, R11, offsetof(struct hw_warp, pc), e->bar_pc + 1);
   mark_warp(e, R11, offsetof(struct hw_warp, state), HW_WARP_AT_BARRIER);
   byte(e, 0xff), byte(e, 0xc1);                                 /* inc ecx */
   next_r11(e);
   byte(e, 0xe9), dword(e, (uint32_t)((int64_t)before - (int64_t)(e->len + 4)));
   patch(e, reached);
   count_warps_at_bar(e, e->bar_i + 1);
   warps_end_to_r10(e);
   size_t after = e->len;
   next_r11(e);
   byte(e, 0x4d), byte(e, 0x39), modrm(e, R10, R(R11));          /* cmp r11, r10 */
   size_t done = jump_fwd(e, 0x83);                              /* jae */
   mark_warp(e, R11, offsetof(struct hw_warp, pc), start);
   byte(e, 0xe9), dword(e, (uint32_t)((int64_t)after - (int64_t)(e->len + 4)));
   patch(e, done);
   byte(e, 0x8b), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, index)));
   byte(e, 0x89), modrm(e, RCX, M(RDX, (int32_t)offsetof(struct hw_cta, current)));
   byte(e, 0x80), modrm(e, 7, M(RDX, (int32_t)offsetof(struct hw_cta, chained))), byte(e, 0);
   size_t unchained = jump_fwd(e, 0x84);                         /* je */
   byte(e, 0x41), byte(e, 0x81), modrm(e, 7, R(1)), dword(e, HW_JIT_RESUME);   /* cmp r9d */
   size_t resumes = jump_fwd(e, 0x84);                           /* je */
   byte(e, 0x41), byte(e, 0x8d), modrm(e, RCX, M(1, (int32_t)start));   /* lea ecx, [r9 + start] */
   byte(e, 0x89), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, pc)));
   byte(e, 0x44), byte(e, 0x89), modrm(e, 1, R(RCX));            /* mov ecx, r9d */
   tally_rcx(e);
   byte(e, 0x41), byte(e, 0xb9), dword(e, HW_JIT_RESUME);        /* mov r9d */
   patch(e, unchained);
   patch(e, resumes);
   end_sweep(e);
   byte(e, 0x44), byte(e, 0x89), modrm(e, 1, R(RAX));            /* mov eax, r9d */
   emit_ret(e);
}

/*
 * At the entry of a block that sweeps, before its warp-switch entry: the
 * CTA's first warp entering it, where every other warp runs and waits to
 * enter it at its start with every lane running, starts a sweep
 * (cta->sweeping): the warps run the block in turn to its BAR without
 * being marked there (emit_sweep_bar), as interpreted they would run in
 * index order and wait. (Every lane running is every lane live: a lane
 * that returned runs no more.) Else (the jumps in fail[], to patch) the
 * block runs as it does without sweeps.
 */
#define SWEEP_FAILS 4
static void emit_sweep_check(struct emit *e, uint32_t start, uint32_t w, size_t fail[SWEEP_FAILS])
{
   const int32_t size = (int32_t)sizeof(struct hw_warp);
   warp_to_rax(e);
   byte(e, 0x48), byte(e, 0x3b), modrm(e, RAX, M(RDX, (int32_t)offsetof(struct hw_cta, warps)));
   fail[0] = jump_fwd(e, 0x85);                                  /* jne: not the first warp */
   uint64_t full = full_mask(w);
   byte(e, 0x49), byte(e, 0xb9), put(e, &full, 8);               /* mov r9, imm64 */
   warps_end_to_r10(e);
   byte(e, 0x4c), byte(e, 0x8d), modrm(e, R11, M(RAX, size));   /* lea r11 */
   size_t walk = e->len;
   byte(e, 0x4d), byte(e, 0x39), modrm(e, R10, R(R11));          /* cmp r11, r10 */
   size_t all = jump_fwd(e, 0x83);                               /* jae */
   byte(e, 0x41), byte(e, 0x83), modrm(e, 7, M(R11, (int32_t)offsetof(struct hw_warp, state)));
   byte(e, HW_WARP_RUNNING);                                     /* cmp dword [state], imm8 */
   fail[1] = jump_fwd(e, 0x85);
   byte(e, 0x41), byte(e, 0x81), modrm(e, 7, M(R11, (int32_t)offsetof(struct hw_warp, pc)));
   dword(e, start);
   fail[2] = jump_fwd(e, 0x85);
   byte(e, 0x4d), byte(e, 0x39), modrm(e, 1, M(R11, (int32_t)offsetof(struct hw_warp, exec)));
   fail[3] = jump_fwd(e, 0x85);                                  /* cmp [r11 + exec], r9 */
   next_r11(e);
   byte(e, 0xe9), dword(e, (uint32_t)((int64_t)walk - (int64_t)(e->len + 4)));
   patch(e, all);
   byte(e, 0xc6), modrm(e, 0, M(RDX, (int32_t)offsetof(struct hw_cta, sweeping))), byte(e, 1);
}

/* A jump (rel32 0: on to the next instruction) for patch_chains to aim at
 * the sweep entry of the block starting at pc, if one does. */
static void emit_chain(struct emit *e, uint32_t pc)
{
   if (e->chain_count == e->chain_cap) {
      uint32_t cap = e->chain_cap ? 2 * e->chain_cap : 16;
      struct chain *c = realloc(e->chains, cap * sizeof(*c));
      if (!c) {
         e->oom = true;
         return;
      }
      e->chains = c, e->chain_cap = cap;
   }
   size_t at = jump_fwd(e, 0);
   e->chains[e->chain_count++] = (struct chain){at, pc};
}

static void patch_chains(struct emit *e)
{
   for (uint32_t k = 0; k < e->chain_count && !e->oom; k++) {
      const struct chain *c = &e->chains[k];
      size_t to = c->pc < e->n ? e->sweep_entry[c->pc] : SIZE_MAX;
      if (to != SIZE_MAX)
         patch_to(e, c->at, to);
   }
}

/*
 * The BAR ending a block that sweeps, block index i at pc, while the CTA
 * sweeps (emit_sweep_check): the next warp runs the block from its top
 * (every warp waits to, running, with every lane running and live, and
 * no block changes that: a lane leaving or a partial selection returns).
 * After the last, every warp has reached the BAR, which releases them:
 * they are counted (as emit_bar counts each), and the first goes on at
 * pc + 1, in the block starting there where that one sweeps (the sweep
 * chained: every warp runs there, as the check would find); else the
 * warps are stopped there, for the interpreter to resume.
 */
static void emit_sweep_bar(struct emit *e, uint32_t i, uint32_t pc)
{
   const int32_t size = (int32_t)sizeof(struct hw_warp);
   warp_to_rax(e);
   byte(e, 0x4c), byte(e, 0x8d), modrm(e, R11, M(RAX, size));   /* lea r11 */
   byte(e, 0x4c), byte(e, 0x3b), modrm(e, R11, M(RDX, (int32_t)offsetof(struct hw_cta, warps_end)));
   size_t last = jump_fwd(e, 0x83);                              /* jae */
   switch_to_r11(e);
   byte(e, 0xe9), dword(e, (uint32_t)((int64_t)e->switched - (int64_t)(e->len + 4)));
   patch(e, last);
   byte(e, 0x8b), modrm(e, RCX, M(RDX, (int32_t)offsetof(struct hw_cta, warp_count)));
   count_warps_at_bar(e, i + 1);
   emit_count(e, offsetof(struct hw_cta, jit_sweeps), 1);
   first_warp_to_r11(e);
   switch_to_r11(e);
   byte(e, 0xc6), modrm(e, 0, M(RDX, (int32_t)offsetof(struct hw_cta, chained))), byte(e, 1);
   emit_chain(e, pc + 1);
   warps_end_to_r10(e);
   size_t each = e->len;
   mark_warp(e, R11, offsetof(struct hw_warp, pc), pc + 1);
   next_r11(e);
   loop_r11(e, each);
   byte(e, 0xc7), modrm(e, 0, M(RDX, (int32_t)offsetof(struct hw_cta, current))), dword(e, 0);
   end_sweep(e);
   byte(e, 0xb8), dword(e, HW_JIT_RESUME);                       /* mov eax */
   emit_ret(e);
}

/*
 * The BAR ending a block, block index i at pc (SPIR-V OpControlBarrier:
 * every invocation of the workgroup reaches it before any goes on past
 * it). As the interpreter's L_BAR: the warp waits there, counted, and the
 * CTA's next running warp in index order goes on (cta->current). Here,
 * when that warp waits at the block's start with every lane running, its
 * registers replace this warp's and the block runs again from its top:
 * the warps of a CTA each run the block in turn in one call. A next warp
 * elsewhere is left to the interpreter (HW_JIT_RESUME). The last warp to
 * arrive releases the barrier where every other warp waits there
 * (emit_release); else, or where a part of the warp returned (it faults),
 * the interpreter runs the BAR. While the CTA sweeps the block, none of
 * that: emit_sweep_bar.
 */
static void emit_bar(struct emit *e, uint32_t i, uint32_t pc, uint32_t w)
{
   size_t here[2];
   if (e->sweeps) {
      byte(e, 0x80), modrm(e, 7, M(RDX, (int32_t)offsetof(struct hw_cta, sweeping))), byte(e, 0);
      size_t one = jump_fwd(e, 0x84);                    /* je: the CTA does not sweep */
      emit_sweep_bar(e, i, pc);
      patch(e, one);
   }
   warp_to_rax(e);
   byte(e, 0x48), byte(e, 0x8b), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, exec)));
   byte(e, 0x48), byte(e, 0x3b), modrm(e, RCX, M(RAX, (int32_t)offsetof(struct hw_warp, alive)));
   here[0] = jump_fwd(e, 0x85);                          /* jne: part of it returned */
   here[1] = emit_next_running(e);
   /* As L_BAR marks and counts the warp. */
   mark_warp(e, RAX, offsetof(struct hw_warp, barrier_pc), pc);
   mark_warp(e, RAX, offsetof(struct hw_warp, pc), pc + 1);
   mark_warp(e, RAX, offsetof(struct hw_warp, state), HW_WARP_AT_BARRIER);
   emit_count(e, offsetof(struct hw_cta, barrier_waits), 1);
   emit_handover(e, i);
   emit_go_on(e, w);
   patch(e, here[1]);
   emit_release(e, i, pc, w);
   patch(e, here[0]);
   emit_exit(e, i);
}

/*
 * The EXIT ending a block, block index i at pc: as L_EXIT, the warp
 * exits (every lane, whatever its mask) and the CTA's next running warp
 * in index order goes on (emit_go_on): the warps of a CTA each run the
 * block in turn in one call. With no next running warp the interpreter
 * runs the EXIT (the CTA is done: run_warps returns).
 */
static void emit_exit_warp(struct emit *e, uint32_t i, uint32_t pc, uint32_t w)
{
   warp_to_rax(e);
   size_t last = emit_next_running(e);
   mark_warp(e, RAX, offsetof(struct hw_warp, pc), pc);
   mark_warp(e, RAX, offsetof(struct hw_warp, state), HW_WARP_EXITED);
   emit_handover(e, i);
   emit_go_on(e, w);
   patch(e, last);
   emit_stop(e, i);
}

/*
 * The IF of the block's selection, block index i (its ENDIF at
 * e->sel_endif). With every lane's condition set, L_IF would push an
 * entry, leave exec whole and ENDIF pop it again: the block runs the body
 * (pushing the entry only where it leaves inside, emit_stop). With none
 * set, L_IF jumps to the ENDIF, which restores exec: the block jumps past
 * its ENDIF (emit_endif), taking the body's instructions off its count
 * (all counting here is by position). A partial warp, or no room on the
 * mask stack (the interpreter faults), is left to the interpreter at the IF.
 */
static void emit_if(struct emit *e, const struct isa_inst *in, uint32_t i, uint32_t w)
{
   const int32_t depth = (int32_t)(offsetof(struct hw_program, header) +
                                   offsetof(struct isa_program_header, stack_depth));
   size_t here[2];
   warp_to_rax(e);
   byte(e, 0x4c), byte(e, 0x8b), modrm(e, 1, M(RDX, (int32_t)offsetof(struct hw_cta, prog)));
   byte(e, 0x45), byte(e, 0x0f), byte(e, 0xb7), modrm(e, 1, M(1, depth));   /* movzx r9d */
   byte(e, 0x44), byte(e, 0x39), modrm(e, 1, M(RAX, (int32_t)offsetof(struct hw_warp, sp)));
   here[0] = jump_fwd(e, 0x83);                          /* jae: no room (cmp [sp], r9d) */
   int32_t a = (int32_t)(isa_opnd_index(in->a) * w * 4);
   v3(e, VPXOR, 2, 2, R(2));                             /* zero */
   v3(e, VPXOR, 3, 3, R(3));                             /* lanes set */
   v3(e, VPXOR, 4, 4, R(4));                             /* lanes clear */
   for (uint32_t c = 0; c < w / 8; c++) {
      v2(e, VMOVDQU_LOAD, 0, M(RDI, a + (int32_t)(32 * c)));
      v3(e, VPOR, 3, 3, R(0));
      v3(e, VPCMPEQD, 1, 0, R(2));
      v3(e, VPOR, 4, 4, R(1));
   }
   v2(e, VPTEST, 3, R(3));
   size_t set = jump_fwd(e, 0x85);                       /* jnz: a lane's is set */
   uint32_t body = e->sel_endif - i - 1;
   emit_tally(e, R13, (uint32_t)-body);   /* sign-extended */
   e->sel_none = jump_fwd(e, 0);
   patch(e, set);
   v2(e, VPTEST, 4, R(4));
   here[1] = jump_fwd(e, 0x85);                          /* jnz: a lane's is clear */
   size_t all = jump_fwd(e, 0);
   patch(e, here[0]);
   patch(e, here[1]);
   emit_exit(e, i);
   patch(e, all);
}

/*
 * The back_edge ending a block that starts at its loop's head, block index
 * i. With every lane still running, L_ENDLOOP jumps back (BACK_EDGE), and
 * so does L_BRA_U where its register is not zero; the block does, to `top`
 * (its code after the entry), counting the iteration's instructions as
 * the interpreter would (insts, and jit_insts). It returns i for the
 * interpreter to run the instruction instead where that faults (ENDLOOP
 * with no loop innermost) or spends the last of the budget (the warp
 * yields there, for the watchdog). A BRA_U not taken falls through to the
 * block's end.
 */
static void emit_back(struct emit *e, const struct isa_inst *in, uint32_t i, size_t top)
{
   size_t not_taken = NONE_FAIL;
   if (in->op == ISA_OP_ENDLOOP) {
      size_t ok[2];
      emit_innermost(e, false, ok);
      emit_exit(e, i);
      patch_ok(e, ok);
   } else if (in->op == ISA_OP_BRA_U) {
      not_taken = unless_taken(e, in);
   }
   size_t last = spend_budget(e, 0x84);
   emit_tally(e, R13, i + 1);
   byte(e, 0xe9), dword(e, (uint32_t)((int64_t)top - (int64_t)(e->len + 4)));   /* jmp top */
   patch(e, last);
   unspend(e);
   emit_stop(e, i);
   if (not_taken != NONE_FAIL)
      patch(e, not_taken);
}

/* Whether an instruction of the block's segments first..last-1 (in the
 * order run) writes a vector register of `regs`. */
static bool writes_between(const struct hw_dinst *code, const struct plan *p, uint32_t first,
                           uint32_t last, const uint64_t *regs)
{
   for (uint32_t k = first; k < last; k++) {
      for (uint32_t pc = p->seg[k].pc; pc < p->seg[k].pc + p->seg[k].len; pc++) {
         uint64_t w[VWORDS] = {0};
         if (isa_writes_dst(&code[pc].in))
            operand_vregs(&code[pc].in, 0, w);
         for (uint32_t i = 0; i < VWORDS; i++) {
            if (w[i] & regs[i])
               return true;
         }
      }
   }
   return false;
}

/* Whether segment k lies in the block's selection's body. */
static bool in_body(const struct plan *p, uint32_t k, uint32_t sel_if, uint32_t sel_endif)
{
   return sel_if != UINT32_MAX && p->seg[k].first > sel_if && p->seg[k].first < sel_endif;
}

/*
 * Lane strides: stride[r] = s when vector register r holds r[0] + s * l in
 * lane l (mod 2^32) whatever the registers' values, or NO_STRIDE. Every
 * lane runs a block's code (full warps only), so lane and local index
 * have stride 1 (local index = the warp's first index + lane), a uniform
 * or immediate operand 0, and sums, differences, products by an
 * immediate and left shifts carry strides as the mod 2^32 identities
 * they are. An address register of stride 4 needs no lane by lane check
 * (emit_block_address): lane 0's, checked not to wrap, says them all.
 */
static int64_t stride_of(const int64_t *stride, uint16_t o)
{
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: return stride[isa_opnd_index(o)];
   case ISA_OPND_UREG: case ISA_OPND_IMM: return 0;
   default: return NO_STRIDE;
   }
}

static int64_t wrap32(int64_t x) { return (int64_t)(uint32_t)x; }

/* a * b's stride: a product by an immediate, or of uniform values. */
static int64_t product_stride(const struct isa_inst *in, int64_t sa, int64_t sb)
{
   if (sa == NO_STRIDE || sb == NO_STRIDE)
      return NO_STRIDE;
   if (isa_opnd_kind(in->b) == ISA_OPND_IMM)
      return wrap32((int64_t)((uint32_t)sa * in->imm));
   if (isa_opnd_kind(in->a) == ISA_OPND_IMM)
      return wrap32((int64_t)((uint32_t)sb * in->imm));
   return sa == 0 && sb == 0 ? 0 : NO_STRIDE;
}

/* The low (or only) half's stride of an instruction's vector result. */
static int64_t result_stride(const struct isa_inst *in, const int64_t *src)
{
   bool known = src[0] != NO_STRIDE && src[1] != NO_STRIDE;
   switch ((enum isa_op)in->op) {
   case ISA_OP_S2R:
      return in->mod == ISA_SR_LANE_ID || in->mod == ISA_SR_LOCAL_INDEX ? 1 : NO_STRIDE;
   case ISA_OP_MOV: case ISA_OP_ZEXT64: case ISA_OP_SEXT64: case ISA_OP_MOV64: return src[0];
   case ISA_OP_IADD: case ISA_OP_IADD64: return known ? wrap32(src[0] + src[1]) : NO_STRIDE;
   case ISA_OP_ISUB: return known ? wrap32(src[0] - src[1]) : NO_STRIDE;
   case ISA_OP_IMUL: return product_stride(in, src[0], src[1]);
   case ISA_OP_IMAD: {
      int64_t p = product_stride(in, src[0], src[1]);
      return p != NO_STRIDE && src[2] != NO_STRIDE ? wrap32(p + src[2]) : NO_STRIDE;
   }
   case ISA_OP_SHL:
      if (src[0] != NO_STRIDE && isa_opnd_kind(in->b) == ISA_OPND_IMM)
         return wrap32((int64_t)((uint32_t)src[0] << (in->imm & 31)));
      return NO_STRIDE;
   default: return NO_STRIDE;
   }
}

/* What a block knows of its vector registers' lanes at a point of it:
 * stride[r] (see above); hi[r], for r as a pair's high half: HI_UNIFORM
 * when its lanes are all one; HI_ENDS when they are all one if lane 0's
 * and lane W-1's are, while the pair's low half is not written again:
 * the high half of a 64-bit sum of a uniform pair and a pair whose high
 * half is all one and whose low halves have stride s, 0 <= s * (W - 1) <=
 * 2^31, so that they wrap at most once. Where the sum's low halves do not
 * wrap (an access through it checks that), its carries are then 1 up to
 * some lane and 0 after it (a carry can only drop, where the summand's
 * low halves wrap): lanes 0 and W-1 agree only if all do. HI_CHUNK_ENDS:
 * the same in each chunk of 8 lanes (its first and last agree only if all
 * do, where its low halves do not wrap), from a summand whose low halves
 * have cstride s, 0 <= 7 * s <= 2^31. HI_SEXT: the pair holds sext(x) << k
 * (SEXT64, or SHL by k then SHR_S by 32 - k of one x: a buffer offset,
 * compiler/sc_translate.c scaled64) for an x whose lanes have stride s,
 * 0 <= s * (W - 1) <= 2^31; a sum of it and a uniform pair is HI_ENDS
 * (sum_high), which no access reads of the pair itself. Why: x's signed
 * values step by s, or once at most by s - 2^32 (past INT_MAX), so the
 * sum's lanes step by s << k or (s - 2^32) << k; where the access finds
 * its low halves 4 apart without wrapping, s << k = 4 + m * 2^32, so the
 * high halves step by m, or once by m - 2^k: they all agree when lanes 0
 * and W-1 do, (W - 1) * m being 0 or odd times m, never 2^k.
 * HI_CHUNK_SEXT: the same for x's cstride s, 0 <= 7 * s <= 2^31, and each
 * chunk of 8 lanes (a sum: HI_CHUNK_ENDS). HI_LANES when nothing is
 * known.
 * cstride[r]: the stride within each chunk (lane 8c + j holds lane 8c's +
 * j * cstride, mod 2^32): a tile's row in a 16-wide workgroup (the local
 * index & 15) is consecutive in every chunk, not across a warp of 32. */
struct lanes {
   int64_t stride[ISA_MAX_VREGS];
   int64_t cstride[ISA_MAX_VREGS];
   uint8_t aligned[ISA_MAX_VREGS];
   int8_t hi[ISA_MAX_VREGS];
   int64_t wstep[ISA_MAX_VREGS];
   uint64_t uinv[ISA_MAX_UREGS / 64];
   /* the instruction before, if `shl v<shl_dst>, v<shl_src>, #shl_k`
    * (HI_SEXT); shl_k 0 otherwise */
   uint16_t shl_dst, shl_src;
   uint8_t shl_k;
};

/* struct lanes wstep[r]: lane l of r in warp k + 1 of a CTA holds lane l's
 * of warp k + wstep[r] (mod 2^32), or NO_STRIDE: the local index's is W
 * (warps take its values W by W), a lane's 0, and sums and products carry
 * it as they carry strides (result_stride), from uniform operands the
 * warps of a CTA all hold alike: uinv, the uniform registers last written
 * from the root table, the workgroup's built-ins or immediates (not from
 * the warp's index or its lanes: a ballot, a broadcast). It only aims
 * prefetches (emit_prefetch): a memory word that differs between two
 * warps' loads of it makes no fault. */

/* struct lanes aligned[r]: r has stride 1 and lane l holds l plus a
 * multiple of W (ALIGN_WARP: the local index, whose warps start at
 * multiples of W), or cstride 1 and lane 8c + j holds j plus a multiple of
 * 8 (ALIGN_CHUNK). */
enum { ALIGN_WARP = 1, ALIGN_CHUNK = 2 };

/* Everything unknown. */
static void unknown_lanes(struct lanes *l)
{
   for (uint32_t r = 0; r < ISA_MAX_VREGS; r++) {
      l->stride[r] = l->cstride[r] = l->wstep[r] = NO_STRIDE;
      l->aligned[r] = 0, l->hi[r] = HI_LANES;
   }
   memset(l->uinv, 0, sizeof(l->uinv));
}

/* Whether 64-bit sum a + b (pairs, or an immediate), from the sources'
 * lanes (strides: l->stride or l->cstride), has a high half struct lanes
 * calls HI_ENDS (lanes: W) or HI_CHUNK_ENDS (lanes: 8). */
static bool sum_high(const struct lanes *l, const int64_t *strides, const struct isa_inst *in,
                     uint32_t lanes)
{
   const uint16_t ops[2] = {in->a, in->b};
   for (int k = 0; k < 2; k++) {
      uint16_t v = ops[k], u = ops[1 - k];
      if (isa_opnd_kind(v) != ISA_OPND_VREG || isa_opnd_kind(u) == ISA_OPND_VREG)
         continue;
      uint32_t r = isa_opnd_index(v);
      int64_t sv = strides[r];
      if (r + 1 < ISA_MAX_VREGS && l->hi[r + 1] == HI_UNIFORM && sv >= 0 &&
          sv * (int64_t)(lanes - 1) <= INT64_C(1) << 31)
         return true;
      /* their conditions were checked at SEXT64 or SHR_S (sext_lanes) */
      if (r + 1 < ISA_MAX_VREGS && (l->hi[r + 1] == HI_SEXT ||
                                    (l->hi[r + 1] == HI_CHUNK_SEXT && strides == l->cstride)))
         return true;
   }
   return false;
}

/* x & (2^k - 1) and x >> k (immediates) of a register aligned as struct
 * lanes says: within a group of 2^k lanes or more whose first holds a
 * multiple of the group's size, x & (2^k - 1) keeps stride 1 (it cannot
 * wrap inside the group) and x >> k is one value. *lo and *clo (the
 * result's stride and cstride) and *aligned are set where that applies. */
static void masked_lanes(const struct isa_inst *in, const struct lanes *l, uint32_t w,
                         int64_t *lo, int64_t *clo, uint8_t *aligned)
{
   bool mask = in->op == ISA_OP_AND, shr = in->op == ISA_OP_SHR_U;
   if (!(mask || shr) || isa_opnd_kind(in->a) != ISA_OPND_VREG ||
       isa_opnd_kind(in->b) != ISA_OPND_IMM || (shr && in->imm >= 32) ||
       (mask && (in->imm == 0 || (in->imm & (in->imm + 1)) != 0)))
      return;
   uint64_t span = mask ? (uint64_t)in->imm + 1 : UINT64_C(1) << in->imm;
   uint8_t al = l->aligned[isa_opnd_index(in->a)];
   if ((al & ALIGN_WARP) && span >= w) {
      *lo = *clo = mask ? 1 : 0;
      *aligned = mask ? ALIGN_WARP | ALIGN_CHUNK : 0;
   } else if ((al & ALIGN_CHUNK) && span >= 8) {
      *clo = mask ? 1 : 0;
      *aligned = mask ? ALIGN_CHUNK : 0;
   }
}

/* Whether built-in value `sr` is the same in every warp of a CTA (a
 * lane's index is: lane l is l in each). */
static bool sreg_warp_invariant(uint16_t sr)
{
   return sr != ISA_SR_LOCAL_ID_X && sr != ISA_SR_LOCAL_ID_Y && sr != ISA_SR_LOCAL_ID_Z &&
          sr != ISA_SR_LOCAL_INDEX && sr != ISA_SR_WARP_ID;
}

/* An operand's warp step (struct lanes wstep). */
static int64_t wstep_of(const struct lanes *l, uint16_t o)
{
   switch (isa_opnd_kind(o)) {
   case ISA_OPND_VREG: return l->wstep[isa_opnd_index(o)];
   case ISA_OPND_UREG: return hw_bit_test(l->uinv, isa_opnd_index(o)) ? 0 : NO_STRIDE;
   case ISA_OPND_IMM: return 0;
   default: return NO_STRIDE;
   }
}

/* The warp step of an instruction's vector result (its low half's): of
 * built-ins, of the arithmetic result_stride follows, 0 for any other
 * arithmetic on operands the warps all hold alike. */
static int64_t result_wstep(const struct isa_inst *in, const struct lanes *l, uint32_t w)
{
   if (in->op == ISA_OP_S2R) {
      return in->mod == ISA_SR_LOCAL_INDEX ? w : sreg_warp_invariant(in->mod) ? 0 : NO_STRIDE;
   }
   enum isa_class cls = isa_op_info[in->op].cls;
   if (cls != ISA_CLASS_ALU && cls != ISA_CLASS_ALU64)
      return NO_STRIDE;
   const uint16_t ops[3] = {in->a, in->b, in->c};
   int64_t src[3] = {0, 0, 0};
   bool alike = true;
   for (uint32_t k = 0; k < isa_op_info[in->op].sources; k++)
      src[k] = wstep_of(l, ops[k]), alike = alike && src[k] == 0;
   return alike ? 0 : result_stride(in, src);
}

/* The uniform registers an instruction writes, into *set. */
static void dst_uregs(const struct isa_inst *in, uint64_t *set)
{
   if (!isa_writes_dst(in) || isa_opnd_kind(in->dst) != ISA_OPND_UREG)
      return;
   uint32_t r = isa_opnd_index(in->dst), span = isa_operand_span(in->op, in->mod, 0);
   for (uint32_t j = r; j < r + span && j < ISA_MAX_UREGS; j++)
      hw_bit_set(set, j);
}

/* uinv after an instruction that writes uniform registers, whose
 * result's warp step is `step` (result_wstep): root table words are
 * alike too. */
static void uniform_lanes(const struct isa_inst *in, int64_t step, struct lanes *l)
{
   bool alike = in->op == ISA_OP_LDR || step == 0;
   uint64_t written[ISA_MAX_UREGS / 64] = {0};
   dst_uregs(in, written);
   for (uint32_t u = 0; u < ISA_MAX_UREGS / 64; u++)
      l->uinv[u] = alike ? l->uinv[u] | written[u] : l->uinv[u] & ~written[u];
}

/* HI_SEXT (struct lanes) after an instruction: SEXT64 of a vector x, or
 * SHR_S by 32 - k of x right after SHL by k of x into the register below,
 * where x's stride s has 0 <= s * (W - 1) <= 2^31; and the SHL record. */
static bool stride_fits(int64_t s, uint32_t lanes)
{
   return s != NO_STRIDE && s >= 0 && s * (int64_t)(lanes - 1) <= INT64_C(1) << 31;
}

static void sext_lanes(const struct isa_inst *in, struct lanes *l, int64_t sx, int64_t cx,
                       uint32_t w)
{
   bool vx = isa_opnd_kind(in->a) == ISA_OPND_VREG && isa_opnd_kind(in->dst) == ISA_OPND_VREG;
   uint32_t x = isa_opnd_index(in->a), d = isa_opnd_index(in->dst);
   int8_t known = stride_fits(sx, w) ? HI_SEXT : stride_fits(cx, 8) ? HI_CHUNK_SEXT : HI_LANES;
   bool imm = isa_opnd_kind(in->b) == ISA_OPND_IMM;
   uint32_t h = in->op == ISA_OP_SEXT64 ? d + 1 : d;
   bool sext = in->op == ISA_OP_SEXT64 ||
               (in->op == ISA_OP_SHR_S && imm && l->shl_k && in->imm == 32u - l->shl_k &&
                (uint32_t)l->shl_dst + 1 == d && l->shl_src == x);
   /* (HI_UNIFORM, from a source of stride 0, says more) */
   if (vx && sext && h < ISA_MAX_VREGS && l->hi[h] == HI_LANES)
      l->hi[h] = known;
   bool shl = vx && in->op == ISA_OP_SHL && imm && in->imm >= 1 && in->imm <= 31 && x != d;
   l->shl_dst = (uint16_t)d, l->shl_src = (uint16_t)x;
   l->shl_k = shl ? (uint8_t)in->imm : 0;
}

/* The lanes of the vector registers an instruction writes (a pair's high
 * half: stride 0 for ZEXT64's, else known only from uniform sources). */
static void inst_lanes(const struct isa_inst *in, struct lanes *l, uint32_t w)
{
   uint64_t written[VWORDS] = {0};
   if (isa_writes_dst(in))
      operand_vregs(in, 0, written);
   int64_t wlo = result_wstep(in, l, w), whi = wlo == 0 || in->op == ISA_OP_ZEXT64 ? 0 : NO_STRIDE;
   uniform_lanes(in, wlo, l);
   const uint16_t ops[3] = {in->a, in->b, in->c};
   int64_t src[3], csrc[3];
   bool uniform = in->op != ISA_OP_S2R;   /* every source uniform: so is the result */
   for (uint32_t k = 0; k < 3; k++) {
      src[k] = stride_of(l->stride, ops[k]);
      csrc[k] = stride_of(l->cstride, ops[k]);
      /* A pair source (a double's low half is often one value in every
       * lane) is uniform where both halves are. */
      uint32_t r = isa_opnd_index(ops[k]);
      bool pair = isa_opnd_kind(ops[k]) == ISA_OPND_VREG &&
                  isa_operand_span(in->op, in->mod, (int)k + 1) == 2;
      int64_t high = pair ? (r + 1 < ISA_MAX_VREGS ? l->stride[r + 1] : NO_STRIDE) : 0;
      uniform = uniform && (k >= isa_op_info[in->op].sources || (src[k] == 0 && high == 0));
   }
   /* A scan, a clustered reduction and ELECT give the lanes different
    * values even of uniform sources. */
   if (in->op == ISA_OP_SCAN || in->op == ISA_OP_ELECT ||
       (in->op == ISA_OP_REDUCE && isa_subgroup_cluster(in->mod)))
      uniform = false;
   int64_t lo = uniform ? 0 : result_stride(in, src);
   int64_t clo = uniform ? 0 : result_stride(in, csrc);
   int64_t hi = uniform || in->op == ISA_OP_ZEXT64 ? 0 : NO_STRIDE;
   uint8_t aligned = 0;
   if (in->op == ISA_OP_S2R)
      aligned = lo == 1 ? ALIGN_WARP | ALIGN_CHUNK : 0;   /* lane and local index */
   else if (in->op == ISA_OP_MOV && isa_opnd_kind(in->a) == ISA_OPND_VREG)
      aligned = l->aligned[isa_opnd_index(in->a)];
   else if (!uniform)
      masked_lanes(in, l, w, &lo, &clo, &aligned);
   bool sum = in->op == ISA_OP_IADD64 && !uniform;   /* the sources' lanes */
   int8_t ends = sum && sum_high(l, l->stride, in, w)       ? HI_ENDS
                 : sum && sum_high(l, l->cstride, in, 8) ? HI_CHUNK_ENDS
                                                           : HI_LANES;
   /* A high half known by its low half's sum no longer is once that is
    * written. */
   for (uint32_t r = 0; r + 1 < ISA_MAX_VREGS; r++) {
      if (hw_bit_test(written, r) && (l->hi[r + 1] == HI_ENDS || l->hi[r + 1] == HI_CHUNK_ENDS ||
                                      l->hi[r + 1] == HI_SEXT || l->hi[r + 1] == HI_CHUNK_SEXT))
         l->hi[r + 1] = HI_LANES;
   }
   uint32_t dst = UINT32_MAX;
   for (uint32_t r = 0; r < ISA_MAX_VREGS; r++) {
      if (hw_bit_test(written, r)) {
         l->stride[r] = dst == UINT32_MAX ? lo : hi;   /* a pair's low half first */
         l->cstride[r] = dst == UINT32_MAX ? clo : hi;
         l->aligned[r] = dst == UINT32_MAX ? aligned : 0;
         l->wstep[r] = dst == UINT32_MAX ? wlo : whi;
         l->hi[r] = uniform || (dst != UINT32_MAX && in->op == ISA_OP_ZEXT64) ? HI_UNIFORM
                                                                             : HI_LANES;
         dst = dst == UINT32_MAX ? r : dst;
      }
   }
   if (ends != HI_LANES && dst != UINT32_MAX && dst + 1 < ISA_MAX_VREGS)
      l->hi[dst + 1] = ends;
   sext_lanes(in, l, src[0], csrc[0], w);
}

/* *indices = the registers every write of which in the block adds a
 * uniform or immediate operand to them (a loop's index: i += grid size),
 * written at least once: their lane stride stays what it was at the
 * block's top. One pass over the block. */
static void loop_indices(const struct emit *e, const struct hw_dinst *code, const struct plan *p,
                         uint64_t *indices)
{
   uint64_t other[VWORDS] = {0};   /* written some other way */
   memset(indices, 0, VWORDS * sizeof(uint64_t));
   for (uint32_t k = 0; k < p->count; k++) {
      for (uint32_t pc = p->seg[k].pc; pc < p->seg[k].pc + p->seg[k].len; pc++) {
         const struct isa_inst *in = &code[pc].in;
         uint64_t w[VWORDS] = {0};
         if (isa_writes_dst(in))
            operand_vregs(in, 0, w);
         bool step = (in->op == ISA_OP_IADD || in->op == ISA_OP_ISUB) && in->a == in->dst &&
                     (isa_opnd_kind(in->b) == ISA_OPND_UREG ||
                      isa_opnd_kind(in->b) == ISA_OPND_IMM) &&
                     !in_body(p, k, e->sel_if, e->sel_endif);
         for (uint32_t i = 0; i < VWORDS; i++) {
            indices[i] |= step ? w[i] : 0;
            other[i] |= step ? 0 : w[i];
         }
      }
   }
   for (uint32_t i = 0; i < VWORDS; i++)
      indices[i] &= ~other[i];
}

/* One pass of the lane analysis over the block from `top` (what is known
 * at its top): the facts at each access into e->consecutive, hi_known,
 * stride, chunks and chunk_hi, or (indexed: the pass with the loop's
 * indices of stride 1) into e->consecutive_x and hi_known_x. Registers
 * written in the selection's body are not known after the ENDIF (the body
 * may not have run). */
static void strides_pass(struct emit *e, const struct hw_dinst *code, const struct plan *p,
                         uint32_t w, const struct lanes *top, bool indexed)
{
   bool *consecutive = indexed ? e->consecutive_x : e->consecutive;
   int16_t *hi_known = indexed ? e->hi_known_x : e->hi_known;
   static _Thread_local struct lanes l;
   uint64_t body[VWORDS] = {0}, ubody[ISA_MAX_UREGS / 64] = {0};
   l = *top;
   for (uint32_t k = 0; k < p->count; k++) {
      const struct seg *g = &p->seg[k];
      const struct isa_inst *in = &code[g->pc].in;
      bool access = g->kind == SEG_BLOCK;
      int64_t stride = access ? stride_of(l.stride, in->a) : NO_STRIDE;
      int64_t cstride = access ? stride_of(l.cstride, in->a) : NO_STRIDE;
      consecutive[k] = stride == 4;
      uint32_t a = isa_opnd_index(in->a);
      int8_t hi = a + 1 < ISA_MAX_VREGS ? l.hi[a + 1] : HI_LANES;
      hi = hi == HI_SEXT || hi == HI_CHUNK_SEXT ? HI_LANES : hi;   /* of sums only */
      /* HI_CHUNK_ENDS says nothing of the whole warp */
      hi_known[k] = stride != NO_STRIDE && hi != HI_CHUNK_ENDS ? hi : HI_LANES;
      if (!indexed) {
         e->stride[k] = stride;
         e->wstep[k] = access ? wstep_of(&l, in->a) : NO_STRIDE;
         e->chunks[k] = cstride == 4 && stride != 4 && hi != HI_LANES;
         e->chunk_hi[k] = hi;
      }
      if (g->kind == SEG_ENDIF) {
         for (uint32_t r = 0; r < ISA_MAX_VREGS; r++) {
            bool sum = l.hi[r] == HI_ENDS || l.hi[r] == HI_CHUNK_ENDS || l.hi[r] == HI_SEXT ||
                       l.hi[r] == HI_CHUNK_SEXT;
            bool forget = hw_bit_test(body, r) || (sum && r > 0 && hw_bit_test(body, r - 1));
            l.stride[r] = hw_bit_test(body, r) ? NO_STRIDE : l.stride[r];
            l.cstride[r] = hw_bit_test(body, r) ? NO_STRIDE : l.cstride[r];
            l.aligned[r] = hw_bit_test(body, r) ? 0 : l.aligned[r];
            l.wstep[r] = hw_bit_test(body, r) ? NO_STRIDE : l.wstep[r];
            l.hi[r] = forget ? HI_LANES : l.hi[r];
         }
         /* a warp with no lane in the body skips it (JEZ): warps differ */
         for (uint32_t u = 0; u < ISA_MAX_UREGS / 64; u++)
            l.uinv[u] &= ~ubody[u];
      }
      for (uint32_t pc = g->pc; pc < g->pc + g->len; pc++) {
         const struct isa_inst *at = &code[pc].in;
         inst_lanes(at, &l, w);
         if (in_body(p, k, e->sel_if, e->sel_endif) && isa_writes_dst(at)) {
            operand_vregs(at, 0, body);
            dst_uregs(at, ubody);
         }
      }
   }
}

/*
 * What the program's straight prefix (hw_eu.c straight_prefix) leaves
 * known: every warp runs it once, with all its lanes (a block runs only
 * for a full warp), before any flow instruction, so what the lane
 * analysis finds at its end holds at a later block's top for each
 * register no instruction on a way from there back to the block writes
 * again (a 2D workgroup's row and column, computed before its loop):
 * where the block's first pc is not in taint[r], the pcs a write of r at
 * or after the prefix's end reaches (computed once per program, for the
 * registers something is known of; NULL for the others).
 */
static uint64_t *reach_any(const struct hw_dinst *code, uint32_t n, const uint32_t *starts,
                           uint32_t count, bool backward);

struct prefix {
   uint32_t end;
   struct lanes lanes;
   uint64_t *taint[ISA_MAX_VREGS];
   /* Per uniform register: the pc of the one instruction of the program
    * that writes it, in the prefix, where every warp of a CTA writes the
    * same (struct lanes uinv), or UINT32_MAX: alike at any later pc. */
   uint32_t alike_from[ISA_MAX_UREGS];
   /* What code[0..at) leaves, for blocks that start inside the prefix
    * (prefix_facts): compiled in pc order, each goes on from the last. */
   uint32_t at;
   struct lanes upto;
};

static void prefix_free(struct prefix *x)
{
   for (uint32_t r = 0; x && r < ISA_MAX_VREGS; r++)
      free(x->taint[r]);
   free(x);
}

static bool known_lanes(const struct lanes *l, uint32_t r)
{
   return l->stride[r] != NO_STRIDE || l->cstride[r] != NO_STRIDE || l->hi[r] != HI_LANES ||
          l->wstep[r] != NO_STRIDE;
}

/* The prefix of code[0..end), or NULL when out of memory. */
static struct prefix *prefix_new(const struct hw_dinst *code, uint32_t n, uint32_t end, uint32_t w)
{
   struct prefix *x = calloc(1, sizeof(*x));
   uint32_t *writes = malloc(((size_t)n + 1) * sizeof(uint32_t));
   bool ok = x && writes;
   if (ok) {
      x->end = end;
      unknown_lanes(&x->lanes);
      uint64_t once[ISA_MAX_UREGS / 64] = {0}, more[ISA_MAX_UREGS / 64] = {0};
      for (uint32_t pc = 0; pc < n; pc++) {   /* written once: once & ~more */
         uint64_t dst[ISA_MAX_UREGS / 64] = {0};
         dst_uregs(&code[pc].in, dst);
         for (uint32_t u = 0; u < ISA_MAX_UREGS / 64; u++)
            more[u] |= once[u] & dst[u], once[u] |= dst[u];
      }
      for (uint32_t u = 0; u < ISA_MAX_UREGS; u++)
         x->alike_from[u] = UINT32_MAX;
      for (uint32_t pc = 0; pc < end; pc++) {
         inst_lanes(&code[pc].in, &x->lanes, w);
         uint64_t dst[ISA_MAX_UREGS / 64] = {0};
         dst_uregs(&code[pc].in, dst);
         for (uint32_t i = 0; i < ISA_MAX_UREGS / 64; i++) {
            for (uint64_t m = dst[i] & ~more[i] & x->lanes.uinv[i]; m; m &= m - 1)
               x->alike_from[64 * i + (uint32_t)__builtin_ctzll(m)] = pc;
         }
      }
      x->at = 0;
      unknown_lanes(&x->upto);
   }
   for (uint32_t r = 0; ok && r < ISA_MAX_VREGS; r++) {
      if (!known_lanes(&x->lanes, r))
         continue;
      uint32_t count = 0;
      for (uint32_t pc = end; pc < n; pc++) {
         uint64_t dst[VWORDS] = {0};
         if (isa_writes_dst(&code[pc].in))
            operand_vregs(&code[pc].in, 0, dst);
         if (hw_bit_test(dst, r))
            writes[count++] = pc;
      }
      x->taint[r] = reach_any(code, n, writes, count, false);
      ok = x->taint[r] != NULL;
   }
   free(writes);
   if (!ok)
      prefix_free(x), x = NULL;
   return x;
}

/* *top = what is known of the registers' lanes at the top of a block
 * with accesses (struct prefix); nothing for the others. A high half
 * known by its pair's sum (HI_ENDS) needs the low half's facts too. A
 * uniform register is alike in every warp after its one write (uinv).
 * A block that starts inside the prefix (after an instruction the tier
 * leaves to the interpreter, a subgroup operation) knows what the prefix
 * up to its start leaves: no jump leads there. */
static void prefix_facts(const struct emit *e, const struct hw_dinst *code, const struct plan *p,
                         uint32_t w, struct lanes *top)
{
   unknown_lanes(top);
   struct prefix *x = e->prefix;
   bool accesses = false;
   for (uint32_t k = 0; k < p->count; k++)
      accesses = accesses || p->seg[k].kind == SEG_BLOCK;
   if (!accesses || !x)
      return;
   if (e->start < x->end) {   /* inside: every warp ran code[0..start) alike */
      if (e->start < x->at)
         x->at = 0, unknown_lanes(&x->upto);
      for (; x->at < e->start; x->at++)
         inst_lanes(&code[x->at].in, &x->upto, w);
      *top = x->upto;
      return;
   }
   for (uint32_t u = 0; u < ISA_MAX_UREGS; u++) {
      if (x->alike_from[u] < e->start)
         hw_bit_set(top->uinv, u);
   }
   for (uint32_t r = 0; r < ISA_MAX_VREGS; r++) {
      if (!x->taint[r] || hw_bit_test(x->taint[r], e->start))
         continue;
      const struct lanes *l = &x->lanes;
      top->stride[r] = l->stride[r], top->cstride[r] = l->cstride[r];
      top->aligned[r] = l->aligned[r], top->wstep[r] = l->wstep[r];
      bool sum = l->hi[r] == HI_ENDS || l->hi[r] == HI_CHUNK_ENDS;
      bool low = r > 0 && x->taint[r - 1] && !hw_bit_test(x->taint[r - 1], e->start);
      top->hi[r] = sum && !low ? HI_LANES : l->hi[r];
   }
}

/* e->consecutive, e->stride and e->hi_known for the block's accesses
 * (see struct lanes), knowing nothing at its top (each trip, each warp
 * starts there); and for a loop, the same where its indices (loop_indices)
 * have lane stride 1 at its top (a grid-stride loop's i = global index +
 * trips * grid size: then every trip's address of x[i] is known), which
 * emit_indexed checks at the block's entry, once per warp: e->index. */
static void plan_strides(struct emit *e, const struct hw_dinst *code, const struct plan *p,
                         uint32_t w)
{
   static _Thread_local struct lanes top;
   prefix_facts(e, code, p, w, &top);
   strides_pass(e, code, p, w, &top, false);
   e->indices = 0;
   uint64_t indices[VWORDS] = {0};
   if (e->looping)
      loop_indices(e, code, p, indices);
   for (uint32_t r = 0; r < ISA_MAX_VREGS && e->indices < MAX_INDICES; r++) {
      if (hw_bit_test(indices, r))
         e->index[e->indices++] = (uint16_t)r, top.stride[r] = top.cstride[r] = 1;
   }
   bool better = false;
   if (e->indices) {
      strides_pass(e, code, p, w, &top, true);
      for (uint32_t k = 0; k < p->count; k++) {
         better = better || (e->consecutive_x[k] && !e->consecutive[k]) ||
                  (e->hi_known_x[k] != HI_LANES && e->hi_known[k] == HI_LANES);
      }
   }
   if (!better)
      e->indices = 0;
}

/* pc's successors, as liveness() takes them (the next instruction and a
 * flow instruction's target: every path a warp's lanes take) but for the
 * flow instructions without a target (as hw_eu.c's straight_prefix):
 * their imm, 0, is no jump. n for none. */
static void successors(const struct hw_dinst *code, uint32_t n, uint32_t pc, uint32_t next[2])
{
   const struct isa_inst *in = &code[pc].in;
   enum isa_op op = (enum isa_op)in->op;
   bool targetless = op == ISA_OP_EXIT || op == ISA_OP_LOOP || op == ISA_OP_ENDIF ||
                     op == ISA_OP_SWITCH || op == ISA_OP_ENDSWITCH;
   next[0] = op == ISA_OP_EXIT ? n : pc + 1;
   next[1] = isa_op_info[op].cls == ISA_CLASS_FLOW && !targetless && in->imm < n ? in->imm : n;
}

/* Every pc's predecessors (successors' inverse), as CSR: those of p are
 * pred[first[p]] up to pred[first[p + 1]]; false when out of memory. */
static bool predecessors(const struct hw_dinst *code, uint32_t n, uint32_t **first,
                         uint32_t **pred)
{
   *first = calloc((size_t)n + 2, sizeof(uint32_t));
   *pred = malloc(2 * ((size_t)n + 1) * sizeof(uint32_t));
   uint32_t *fill = malloc(((size_t)n + 1) * sizeof(uint32_t));   /* each pc's next slot */
   bool ok = *first && *pred && fill;
   for (uint32_t q = 0; ok && q < n; q++) {   /* counts, at first[p + 1] */
      uint32_t next[2];
      successors(code, n, q, next);
      for (int k = 0; k < 2; k++)
         (*first)[next[k] + 1] += next[k] < n;
   }
   for (uint32_t q = 0; ok && q <= n; q++)
      (*first)[q + 1] += (*first)[q];
   if (ok)
      memcpy(fill, *first, ((size_t)n + 1) * sizeof(uint32_t));
   for (uint32_t q = 0; ok && q < n; q++) {
      uint32_t next[2];
      successors(code, n, q, next);
      for (int k = 0; k < 2; k++) {
         if (next[k] < n)
            (*pred)[fill[next[k]]++] = q;
      }
   }
   free(fill);
   return ok;
}

/* The pcs reachable from any of the `starts` pcs (those included;
 * backward: from which one is reachable), as a bit set, or NULL when out
 * of memory. */
static uint64_t *reach_any(const struct hw_dinst *code, uint32_t n, const uint32_t *starts,
                           uint32_t count, bool backward)
{
   uint64_t *seen = calloc(n / 64 + 1, sizeof(uint64_t));
   uint32_t *todo = malloc(((size_t)n + 1) * sizeof(uint32_t)), *first = NULL, *pred = NULL;
   bool ok = seen && todo && (!backward || predecessors(code, n, &first, &pred));
   uint32_t pushed = count;
   count = 0;
   for (uint32_t k = 0; ok && k < pushed; k++) {
      if (!hw_bit_test(seen, starts[k]))
         todo[count++] = starts[k], hw_bit_set(seen, starts[k]);
   }
   while (count) {   /* each pc is pushed once: todo has room */
      uint32_t at = todo[--count], next[2];
      successors(code, n, at, next);
      uint32_t lo = backward ? first[at] : 0, hi = backward ? first[at + 1] : 2;
      for (uint32_t k = lo; k < hi; k++) {
         uint32_t q = backward ? pred[k] : next[k];
         if (q < n && !hw_bit_test(seen, q))
            hw_bit_set(seen, q), todo[count++] = q;
      }
   }
   free(todo), free(first), free(pred);
   if (!ok)
      free(seen);
   return ok ? seen : NULL;
}

static uint64_t *reach(const struct hw_dinst *code, uint32_t n, uint32_t pc, bool backward)
{
   return reach_any(code, n, &pc, 1, backward);
}

/* Whether vector register r may change between a warp's visits of pc: an
 * instruction that writes it lies on a path from pc back to pc. */
static bool written_between_visits(const struct emit *e, const struct hw_dinst *code,
                                   uint32_t pc, uint32_t r)
{
   uint64_t *from = reach(code, e->n, pc, false), *to = reach(code, e->n, pc, true);
   bool written = !from || !to;   /* out of memory: as if written */
   for (uint32_t q = 0; q < e->n && !written; q++) {
      if (hw_bit_test(from, q) && hw_bit_test(to, q) && isa_writes_dst(&code[q].in)) {
         uint64_t w[VWORDS] = {0};
         operand_vregs(&code[q].in, 0, w);
         written = hw_bit_test(w, r);
      }
   }
   free(from), free(to);
   return written;
}

/* e->tile...: the LDSs (one dword a lane, offsets a multiple of 4) whose
 * address register no instruction of the block writes; and where nothing
 * on the way from the block back to it writes it either, a site in the
 * warp's tile cache, while the program has sites left: the kind a warp
 * finds there then holds at its every visit in its CTA. */
static void plan_tiles(struct emit *e, const struct hw_dinst *code, const struct plan *p)
{
   e->tiles = 0;
   memset(e->tile_of, 0, sizeof(e->tile_of));
   for (uint32_t k = 0; k < p->count; k++) {
      const struct isa_inst *in = &code[p->seg[k].pc].in;
      if (p->seg[k].kind != SEG_BLOCK || in->op != ISA_OP_LDS || in->imm % 4 ||
          in->imm > (1u << 20))
         continue;
      uint64_t regs[VWORDS] = {0};
      operand_vregs(in, 1, regs);
      if (writes_between(code, p, 0, p->count, regs))
         continue;
      uint32_t a = isa_opnd_index(in->a), t = 0;
      while (t < e->tiles && e->tile[t] != a)
         t++;
      if (t == e->tiles) {
         if (t == MAX_TILES)
            continue;
         e->tile[t] = (uint16_t)a, e->tile_lo[t] = in->imm, e->tile_hi[t] = in->imm;
         e->tiles++;
      }
      e->tile_lo[t] = in->imm < e->tile_lo[t] ? in->imm : e->tile_lo[t];
      e->tile_hi[t] = in->imm > e->tile_hi[t] ? in->imm : e->tile_hi[t];
      e->tile_of[k] = (uint8_t)(t + 1);
   }
   /* (t < MAX_TILES: e->tiles never exceeds it, which gcc -O3 cannot see) */
   for (uint32_t t = 0; t < e->tiles && t < MAX_TILES; t++) {
      bool cached = e->tile_sites < HW_TILE_SITES &&
                    !written_between_visits(e, code, e->start, e->tile[t]);
      e->tile_site[t] = cached ? (int8_t)e->tile_sites++ : -1;
   }
}

/*
 * A full warp's global access to the address of an earlier one in the
 * block (the same register pair, unwritten since, and offset; y = a * x +
 * y's store after its load) reuses that one's host address, saved in a
 * slot of the CTA's hosts[] (e->save, e->reuse): the same bytes, checked
 * live there. The earlier one runs first in every trip of the block (not
 * in a selection's body the later one is not in), and saves 0 where it
 * went chunk by chunk: the later one then checks its own.
 */
static void plan_reuse(struct emit *e, const struct hw_dinst *code, const struct plan *p)
{
   memset(e->save, 0, sizeof(e->save));
   memset(e->reuse, 0, sizeof(e->reuse));
   uint32_t slots = 0;
   for (uint32_t k = 0; k < p->count; k++) {
      const struct isa_inst *in = &code[p->seg[k].pc].in;
      if (p->seg[k].kind != SEG_BLOCK || (in->op != ISA_OP_LDG && in->op != ISA_OP_STG))
         continue;
      uint64_t regs[VWORDS] = {0};
      operand_vregs(in, 1, regs);
      for (uint32_t j = 0; j < k && !e->reuse[k]; j++) {
         const struct isa_inst *at = &code[p->seg[j].pc].in;
         bool same = p->seg[j].kind == SEG_BLOCK &&
                     (at->op == ISA_OP_LDG || at->op == ISA_OP_STG) && at->a == in->a &&
                     at->imm == in->imm;
         if (!same || (in_body(p, j, e->sel_if, e->sel_endif) &&
                       !in_body(p, k, e->sel_if, e->sel_endif)) ||
             writes_between(code, p, j, k, regs))
            continue;
         if (!e->save[j] && slots < HW_HOST_SLOTS)
            e->save[j] = (uint8_t)++slots;
         e->reuse[k] = e->save[j];
      }
   }
}

/* Whether a segment's access (SEG_BLOCK) names register r. */
static bool access_names(const struct isa_inst *in, uint32_t r)
{
   uint64_t regs[VWORDS] = {0};
   for (int k = 0; k < 4; k++)
      operand_vregs(in, k, regs);
   return hw_bit_test(regs, r);
}

/* The ALU segment after LDG segment k that reads its register r, where
 * that is r's only use: nothing in between names r, stores to global
 * memory or leaves the block other than to the interpreter, and r is
 * dead after the reader (or the reader writes it again). 0 if none. */
static uint32_t byref_reader(const struct emit *e, const struct hw_dinst *code,
                             const struct plan *p, uint32_t k, uint32_t r)
{
   for (uint32_t j = k + 1; j < p->count; j++) {
      const struct seg *g = &p->seg[j];
      const struct isa_inst *in = &code[g->pc].in;
      if (g->kind == SEG_ALU) {
         if (hw_bit_test(g->a.written, r) && !hw_bit_test(g->a.live_in, r))
            return 0;
         if (!hw_bit_test(g->a.live_in, r))
            continue;
         bool after = hw_bit_test(&e->live[(g->pc + g->len) * VWORDS], r);
         return !after || hw_bit_test(g->a.written, r) ? j : 0;
      }
      if (g->kind == SEG_SCALAR)
         continue;
      if (g->kind != SEG_BLOCK || in->op == ISA_OP_STG || access_names(in, r))
         return 0;
   }
   return 0;
}

/* The LDGs whose words their one reader, an ALU segment, takes straight
 * from global memory: the LDG then copies nothing into the register file
 * when its warp's words are consecutive, and leaves their address
 * (cta->byref) instead; its slower paths copy, and leave the register's
 * address. A leave to the interpreter in between copies the words into
 * the register (emit_stop). A C loop through a register file of its own
 * ran at 63-65% of the same loop without (bench_eu's stream kernel: two
 * of these LDGs per warp). Not in blocks with fused runs, whose variants
 * emit segments again. */
static void plan_byref(struct emit *e, const struct hw_dinst *code, const struct plan *p,
                       uint32_t w)
{
   memset(e->byref, 0, sizeof(e->byref));
   e->byref_active = 0;
   e->byref_bytes = 4 * w;
   if (!e->live || e->tiles)
      return;
   uint32_t slots = 0;
   for (uint32_t k = 0; k < p->count && slots < HW_BYREF_SLOTS; k++) {
      const struct isa_inst *in = &code[p->seg[k].pc].in;
      if (p->seg[k].kind != SEG_BLOCK || in->op != ISA_OP_LDG)
         continue;
      uint32_t r = isa_opnd_index(in->dst);
      uint64_t address[VWORDS] = {0};
      operand_vregs(in, 1, address);
      if (hw_bit_test(e->addresses, r) || hw_bit_test(address, r))
         continue;
      uint32_t j = byref_reader(e, code, p, k, r);
      if (!j)
         continue;
      e->byref[k] = (uint8_t)(slots + 1);
      e->byref_reg[slots] = r;
      e->byref_reader[slots] = (uint8_t)j;
      slots++;
   }
}

/* What the block's segments need to know of it (struct emit), and its
 * stride slots cleared. */
static void emit_entry(struct emit *e, const struct hw_dinst *code, uint32_t pc,
                       const struct plan *p, uint32_t w)
{
   e->start = pc;
   e->jmp = p->jmp;
   e->sel_if = e->sel_endif = UINT32_MAX;
   e->strides = 0;
   e->looping = false;
   for (uint32_t k = 0, n = 0; k < p->count; k++) {
      const struct seg *g = &p->seg[k];
      uint32_t op = code[g->pc].in.op;
      if (g->kind == SEG_JMP)
         e->target = code[g->pc].in.imm;
      if (g->kind == SEG_IF)
         e->sel_if = g->first;
      if (g->kind == SEG_ENDIF)
         e->sel_endif = g->first;
      e->looping = e->looping || g->kind == SEG_BACK;
      if (g->kind == SEG_BLOCK && (op == ISA_OP_LDG || op == ISA_OP_STG) && n < STRIDE_SLOTS)
         byte(e, 0x48), byte(e, 0xc7), modrm(e, 0, stride_slot(n++)), dword(e, 0);
   }
   plan_reuse(e, code, p);
   plan_strides(e, code, p, w);
   plan_tiles(e, code, p);
   plan_byref(e, code, p, w);
}

/* The warp's tile cache (struct hw_warp): where site s of tile t holds a
 * kind, a jump (to patch past the check); else on to the check. */
static size_t cached_kind(struct emit *e, uint32_t t)
{
   uint32_t s = (uint32_t)e->tile_site[t];
   warp_to_rax(e);
   byte(e, 0xf6), modrm(e, 0, M(RAX, (int32_t)offsetof(struct hw_warp, tile_known)));
   byte(e, (uint8_t)(1u << s));                                   /* test byte [known], bit */
   return jump_fwd(e, 0x85);                                      /* jnz */
}

/* The kind the check found for tile t into the warp's cache at its site. */
static void cache_kind(struct emit *e, uint32_t t)
{
   uint32_t s = (uint32_t)e->tile_site[t];
   warp_to_rax(e);
   byte(e, 0x0f), byte(e, 0xb6);                                  /* movzx ecx, byte [kind] */
   modrm(e, RCX, M(RDX, (int32_t)(offsetof(struct hw_cta, tile_kind) + t)));
   byte(e, 0x88), modrm(e, RCX, M(RAX, (int32_t)(offsetof(struct hw_warp, tile_cache) + s)));
   byte(e, 0x80), modrm(e, 1, M(RAX, (int32_t)offsetof(struct hw_warp, tile_known)));
   byte(e, (uint8_t)(1u << s));                                   /* or byte [known], bit */
}

/* Kind 3 of tile t (emit_tile_kinds) where every lane's offset, aligned,
 * leaves room for its LDSs' 4 bytes at offsets tile_lo..tile_hi inside
 * shared memory (as emit_shared_gather checks); else a jump to bad. */
static void tile_gathers(struct emit *e, uint32_t t, uint32_t w, struct jumps *bad)
{
   size_t outside[3];
   lanes_inside(e, (int32_t)(e->tile[t] * w * 4), w, e->tile_hi[t] + 4, false, outside);
   add_jumps(e, bad, outside, 3);
   const int32_t kind = (int32_t)(offsetof(struct hw_cta, tile_kind) + t);
   byte(e, 0xc6), modrm(e, 0, M(RDX, kind)), byte(e, 3);   /* mov byte [kind], 3 */
}

/* ymm4 (ymm5): all ones where each chunk of tile t's register holds one
 * offset (consecutive ones: lane 0's of the chunk + 4 * lane); ymm6, where
 * warp_rows, where the whole warp's are consecutive (lane 0's of the warp
 * + 4 * lane). */
static void tile_shapes(struct emit *e, uint32_t t, uint32_t w)
{
   int32_t r = (int32_t)(e->tile[t] * w * 4);
   bool whole = warp_rows(e, w);
   v3(e, VPCMPEQD, 4, 4, R(4));
   v3(e, VPCMPEQD, 5, 5, R(5));
   if (whole) {
      v3(e, VPCMPEQD, 6, 6, R(6));
      v2(e, VPBROADCASTD, 2, M(RDI, r));
      v3(e, VPADDD, 2, 2, M(R8, K_IOTA4));   /* the warp's: lane 0's + 4 * lane */
   }
   for (uint32_t c = 0; c < w / 8; c++) {
      int32_t chunk = r + (int32_t)(32 * c);
      v2(e, VPBROADCASTD, 0, M(RDI, chunk));
      v3(e, VPCMPEQD, 1, 0, M(RDI, chunk));
      v3(e, VPAND, 4, 4, R(1));
      v3(e, VPADDD, 0, 0, M(R8, K_IOTA4));
      v3(e, VPCMPEQD, 1, 0, M(RDI, chunk));
      v3(e, VPAND, 5, 5, R(1));
      if (!whole)
         continue;
      v3(e, VPCMPEQD, 1, 2, M(RDI, chunk));
      v3(e, VPAND, 6, 6, R(1));
      v3(e, VPADDD, 2, 2, M(R8, K_32));
   }
}

/* cta->tile_kind[t] for each tile register (e->tile): 1 where each chunk
 * of 8 lanes holds one offset, 2 where consecutive ones (lane 0's of the
 * chunk + 4 * lane), TILE_WARP_ROWS (6) where the whole warp's are
 * (bench_compute's barrier loop), where every chunk's first offset,
 * 4-aligned, leaves room for its LDSs' 32 bytes at offsets
 * tile_lo..tile_hi inside shared
 * memory (else 0: the general path checks each LDS, and loads a chunk
 * with room whole); 3 where neither shape, every lane's offset inside
 * for them (the LDSs then gather, unchecked: a ring of neighbours' last
 * warp); 0 otherwise. The warp's, as it enters the block: nothing in it
 * writes them. */
static void emit_tile_kinds(struct emit *e, uint32_t w)
{
   static _Thread_local struct jumps bad;   /* to the end: the kind stays 0 */
   for (uint32_t t = 0; t < e->tiles; t++) {
      int32_t r = (int32_t)(e->tile[t] * w * 4);
      const int32_t kind = (int32_t)(offsetof(struct hw_cta, tile_kind) + t);
      size_t cached = e->tile_site[t] >= 0 ? cached_kind(e, t) : NONE_FAIL;
      bad.count = 0;
      byte(e, 0xc6), modrm(e, 0, M(RDX, kind)), byte(e, 0);   /* mov byte [kind], 0 */
      tile_shapes(e, t, w);
      size_t shaped[3] = {NONE_FAIL, NONE_FAIL, NONE_FAIL}, at[2];
      static const uint8_t mask[3] = {6, 4, 5}, kinds[3] = {TILE_WARP_ROWS, 1, 2};
      for (int k = !warp_rows(e, w); k < 3; k++) {   /* r10d = the first shape's kind */
         vex(e, VPMOVMSKB, true, RAX, 0, R(mask[k]));
         byte(e, 0x41), byte(e, 0xba), dword(e, kinds[k]);   /* mov r10d, kind */
         byte(e, 0x83), byte(e, 0xf8), byte(e, 0xff);         /* cmp eax, -1 */
         shaped[k] = jump_fwd(e, 0x84);
      }
      tile_gathers(e, t, w, &bad);
      at[0] = jump_fwd(e, 0);
      add_jumps(e, &bad, at, 1);
      for (int k = 0; k < 3; k++) {
         if (shaped[k] != NONE_FAIL)
            patch(e, shaped[k]);
      }
      emit_shared_bytes(e);                                    /* ecx = shared bytes */
      byte(e, 0x81), modrm(e, 5, R(RCX)), dword(e, e->tile_hi[t] + 32);   /* sub ecx */
      at[0] = jump_fwd(e, 0x82);                               /* jb: no room at all */
      add_jumps(e, &bad, at, 1);
      for (uint32_t c = 0; c < w / 8; c++) {
         byte(e, 0x8b), modrm(e, RAX, M(RDI, r + (int32_t)(32 * c)));   /* the chunk's first */
         byte(e, 0xa8), byte(e, 3);                            /* test al, 3 */
         at[0] = jump_fwd(e, 0x85);                            /* jnz: misaligned */
         byte(e, 0x39), byte(e, 0xc8);                         /* cmp eax, ecx */
         at[1] = jump_fwd(e, 0x87);                            /* ja: past the room */
         add_jumps(e, &bad, at, 2);
      }
      byte(e, 0x44), byte(e, 0x88), modrm(e, R10, M(RDX, kind));   /* mov byte [kind], r10b */
      for (uint32_t k = 0; k < bad.count; k++)
         patch(e, bad.at[k]);
      if (cached != NONE_FAIL) {
         cache_kind(e, t);
         patch(e, cached);
      }
   }
}

/* cta->indexed = whether the loop's indices (e->index) have lane stride
 * 1 (lane 0's + lane number in each lane), the warp's as it enters the
 * block: each trip keeps it (loop_indices). */
static void emit_indexed(struct emit *e, uint32_t w)
{
   v3(e, VPCMPEQD, 2, 2, R(2));
   for (uint32_t i = 0; i < e->indices; i++) {
      int32_t r = (int32_t)(e->index[i] * w * 4);
      v2(e, VPBROADCASTD, 0, M(RDI, r));
      for (uint32_t c = 0; c < w / 8; c++) {
         v3(e, VPADDD, 1, 0, M(R8, (int32_t)(K_LANES + 32 * c)));
         v3(e, VPCMPEQD, 3, 1, M(RDI, r + (int32_t)(32 * c)));
         v3(e, VPAND, 2, 2, R(3));
      }
   }
   vex(e, VPMOVMSKB, true, RAX, 0, R(2));
   byte(e, 0x83), byte(e, 0xf8), byte(e, 0xff);          /* cmp eax, -1 */
   byte(e, 0x0f), byte(e, 0x94), modrm(e, 0, M(RDX, (int32_t)offsetof(struct hw_cta, indexed)));
}

/* The uniform register eax holds as segment k starts: where the segment
 * before it has uniform instructions only (emit_alu emits them alone, the
 * last leaving its value in eax) and no jump lands between them (joined:
 * where a fused run or a group of root loads ends), the last one's
 * destination; else UINT32_MAX. */
static uint32_t eax_after(const struct hw_dinst *code, const struct plan *p, uint32_t k,
                          bool joined)
{
   if (k == 0 || joined || p->seg[k - 1].kind != SEG_ALU || p->seg[k - 1].a.vector)
      return UINT32_MAX;
   const struct isa_inst *last = &code[p->seg[k - 1].pc + p->seg[k - 1].len - 1].in;
   return shape_of(last) == SUNI ? isa_opnd_index(last->dst) : UINT32_MAX;
}

/*
 * One block: fn(v = rdi, u = rsi, cta = rdx, warp = rcx) returns how many
 * of its instructions it ran (all, or up to an access it left to the
 * interpreter). The warp stays pushed, at [rsp], for the special
 * registers that read it. r8 points to the constants.
 */
static void emit_block(struct emit *e, const struct hw_dinst *code, uint32_t pc,
                       const struct plan *p, uint32_t w)
{
   byte(e, 0x41), byte(e, 0x54);                         /* push r12 */
   byte(e, 0x41), byte(e, 0x55);                         /* push r13: emit_tally */
   byte(e, 0x45), byte(e, 0x31), byte(e, 0xe4);          /* xor r12d, r12d */
   byte(e, 0x45), byte(e, 0x31), byte(e, 0xed);          /* xor r13d, r13d */
   byte(e, 0x51);                                        /* push rcx */
   mov_r8_consts(e);
   emit_entry(e, code, pc, p, w);
   size_t fail[SWEEP_FAILS];
   if (e->sweeps)
      emit_sweep_check(e, pc, w, fail);
   e->switched = e->len;   /* a warp switch keeps the stride slots: harmless hints */
   if (e->sweeps) {
      for (int k = 0; k < SWEEP_FAILS; k++)
         patch(e, fail[k]);
      e->sweep_entry[pc] = e->switched;
   }
   if (uses_innermost(code, p))
      emit_innermost_kind(e);
   if (e->indices)
      emit_indexed(e, w);
   if (e->tiles)
      emit_tile_kinds(e, w);
   e->top = e->len;
   size_t group = NONE_FAIL;   /* emit_root_group's jump past its LDRs */
   uint32_t group_end = 0, fused_end = 0, variants = 0;
   size_t fused[(1u << FUSED_TILES) + 1];   /* emit_fused's jumps past its run's segments */
   for (uint32_t k = 0; k < p->count; k++) {
      const struct seg *g = &p->seg[k];
      const struct isa_inst *in = &code[g->pc].in;
      e->seg = (uint8_t)k;
      if (k == group_end && group != NONE_FAIL)
         patch(e, group), group = NONE_FAIL;
      if (k == fused_end)
         patch_all(e, fused, &variants);
      e->eax_ureg = eax_after(code, p, k, k == fused_end || k == group_end);
      static _Thread_local struct fused f;
      if (k >= fused_end && e->tiles && plan_fused(e, code, p, k, &f)) {
         variants = emit_fused(e, code, p, k, &f, w, fused);
         fused_end = f.end;
      }
      if (k >= group_end && g->kind == SEG_SCALAR && root_load(in))
         group = emit_root_group(e, code, p, k, &group_end);
      switch (g->kind) {
      case SEG_BLOCK: emit_access(e, in, g->pc, g->first, w); break;
      case SEG_SCALAR: emit_scalar_load(e, in, g->pc, g->first); break;
      case SEG_LEAVE: emit_leave(e, in, g->first, w); break;
      case SEG_BACK: emit_back(e, in, g->first, e->top); break;
      case SEG_JMP: emit_jmp(e, in, g->first, g->pc); break;
      case SEG_BAR: emit_bar(e, g->first, g->pc, w); break;
      case SEG_EXIT: emit_exit_warp(e, g->first, g->pc, w); break;
      case SEG_IF: emit_if(e, in, g->first, w); break;
      case SEG_ENDIF: patch(e, e->sel_none); break;
      case SEG_ALU: emit_alu(e, code, g, w); break;
      }
      for (uint32_t sl = 0; sl < HW_BYREF_SLOTS; sl++) {   /* read: the slot is free */
         if (e->byref_reader[sl] == k)
            e->byref_active &= (uint8_t)~(1u << sl);
      }
   }
   if (group != NONE_FAIL)   /* the block's last segments were LDRs */
      patch(e, group);
   patch_all(e, fused, &variants);
   emit_stop(e, p->len);
}

static void *executable(const struct emit *e, size_t *size)
{
   size_t page = (size_t)sysconf(_SC_PAGESIZE);
   *size = (e->len + page - 1) / page * page;
   void *m = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (m == MAP_FAILED)
      return NULL;
   memcpy(m, e->b, e->len);
   /* Written, then made executable and read-only (never both writable and
    * executable). */
   if (mprotect(m, *size, PROT_READ | PROT_EXEC) != 0) {
      munmap(m, *size);
      return NULL;
   }
   return m;
}

/* Where each block's code starts, and the instruction it replaces. */
struct pending {
   size_t offset;
   uint32_t pc;
};

/* Compiles every run; false when out of memory. */
static bool compile_runs(const struct hw_dinst *code, uint32_t n, uint32_t w, struct emit *e,
                         struct hw_jit_block **b, struct pending **at, uint32_t *count)
{
   /* A jump into a run would run its tail interpreted (a loop's body
    * every iteration): runs start at jump targets. Flow instructions end
    * runs (but for the leave checks and back edges in plan()), so the
    * instruction after one starts a run anyway. */
   uint64_t *starts = calloc(2 * (n / 64 + 1), sizeof(uint64_t));
   if (!starts)
      return false;
   uint64_t *resume = starts + n / 64 + 1;   /* blocks to start at an access */
   for (uint32_t pc = 0; pc < n; pc++) {
      if (isa_op_info[code[pc].in.op].cls == ISA_CLASS_FLOW && code[pc].in.imm < n)
         hw_bit_set(starts, code[pc].in.imm);
   }
   uint32_t cap = 0, covered = 0;   /* the pc after the blocks so far */
   bool ok = true;
   static _Thread_local struct plan scratch;   /* 6 KiB: not on the stack */
   for (uint32_t pc = 0; pc < n;) {
      struct plan *p = &scratch;
      p->max = pc < covered ? OVERLAP_SEGS : MAX_SEGS;
      plan(code, pc, n, starts, p);
      covered = p->end > covered ? p->end : covered;
      uint32_t len = p->len;
      if (!len || !p->worth) {   /* uniform instructions alone: the interpreter's are as cheap */
         pc++;
         continue;
      }
      if (*count == cap) {
         cap = cap ? 2 * cap : 16;
         void *nb = realloc(*b, cap * sizeof(**b));
         if (nb)
            *b = nb;
         void *na = nb ? realloc(*at, cap * sizeof(**at)) : NULL;
         if (na)
            *at = na;
         ok = nb && na;
         if (!ok)
            break;
      }
      /* A block ending at a BAR sweeps: its fix-up comes first. */
      e->sweeps = p->seg[p->count - 1].kind == SEG_BAR;
      if (e->sweeps) {
         e->bar_i = p->seg[p->count - 1].first;
         e->bar_pc = p->seg[p->count - 1].pc;
         emit_fixup(e, pc);
      }
      (*at)[*count] = (struct pending){e->len, pc};
      (*b)[(*count)++] = (struct hw_jit_block){NULL, code[pc].handler, len};
      emit_block(e, code, pc, p, w);
      /* The next block starts after this one's first access: when the
       * block leaves that access to the interpreter, the instruction after
       * it is compiled again (blocks overlap), not the whole rest of the
       * run interpreted. */
      uint32_t next = len;
      for (uint32_t k = 0; k < p->count; k++) {
         if (p->seg[k].kind != SEG_ALU) {
            next = p->seg[k].first + 1;
            break;
         }
      }
      /* A block that ends before the program's end (at an access it had
       * no segment left for, a selection it could not take, ...) is
       * followed by one starting there, or every pass would interpret
       * from there on. */
      if (p->end < n)
         hw_bit_set(resume, p->end);
      uint32_t to = pc + next;
      while (++pc < to && !hw_bit_test(resume, pc))
         ;
   }
   free(starts);
   return ok && !e->oom;
}

/* The perf map's descriptor for this process, opened at its first use: a
 * new file (O_EXCL), or one that an earlier process with the same pid
 * left, truncated (it would name wrong code). /tmp is everyone's, so the
 * path is never followed through a symbolic link (O_NOFOLLOW) and a file
 * that is not a regular file of this user, with one link and writable by
 * nobody else, is refused: a planted file or link must not get the
 * process's writes. -1 when refused. */
static int open_perf_map(const char *path)
{
   int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
   bool created = fd >= 0;
   if (fd < 0 && errno == EEXIST)
      fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
   if (fd < 0)
      return -1;
   struct stat st;
   if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
       st.st_nlink != 1 || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 ||
       (!created && ftruncate(fd, 0) != 0)) {
      close(fd);
      return -1;
   }
   return fd;
}

/* Appends the blocks' names to /tmp/perf-<pid>.map (perf's own format,
 * tools/perf/Documentation/jit-interface.txt: "START SIZE symbolname" in
 * hex), one line per block; a block ends where the next one starts. The
 * file stays open for the process (open_perf_map); the lock keeps two
 * programs' lines whole. */
static void write_perf_map(const struct hw_jit *j, const struct pending *at, uint32_t count,
                           size_t len, uint32_t w, uint64_t id)
{
   static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
   static pid_t opened_by;   /* a fork starts its own file */
   static int fd = -1;
   char path[64];
   snprintf(path, sizeof(path), "/tmp/perf-%ld.map", (long)getpid());
   pthread_mutex_lock(&lock);
   if (opened_by != getpid()) {
      if (fd >= 0)
         close(fd);   /* the parent's */
      fd = open_perf_map(path);
      opened_by = getpid();
      if (fd < 0)
         SG_LOG(SG_LOG_WARN, SG_AREA_EU,
                "SOFTGPU_PERF_MAP: %s is not a new file nor a regular file of this user that "
                "only it can write, with one link; not writing it", path);
   }
   for (uint32_t i = 0; fd >= 0 && i < count; i++) {
      char line[128];
      size_t end = i + 1 < count ? at[i + 1].offset : len;
      int n = snprintf(line, sizeof(line), "%" PRIxPTR " %zx softgpu_p%" PRIu64 "_w%u_pc%u\n",
                       (uintptr_t)j->mem + at[i].offset, end - at[i].offset, id, w, at[i].pc);
      if (n > 0 && write(fd, line, (size_t)n) != n) {
         SG_LOG(SG_LOG_WARN, SG_AREA_EU, "SOFTGPU_PERF_MAP: cannot append to %s", path);
         break;
      }
   }
   pthread_mutex_unlock(&lock);
}

/* e->addresses gets the address register (pair) of an access in. */
static void mark_address(struct emit *e, const struct isa_inst *in)
{
   if (!block_access(in))
      return;
   uint32_t a = isa_opnd_index(in->a);
   hw_bit_set(e->addresses, a);
   if ((in->op == ISA_OP_LDG || in->op == ISA_OP_STG) && a + 1 < ISA_MAX_VREGS)
      hw_bit_set(e->addresses, a + 1);
}

struct hw_jit *hw_jit_compile(struct hw_dinst *code, uint32_t n, uint32_t prefix_end, uint32_t w,
                              bool avx512, const void *jit_label, bool perf_map, uint64_t id,
                              struct hw_jit_counts *counts)
{
   *counts = (struct hw_jit_counts){0};
   /* Per pc: an LDS's row of gather hints; a global access's page slot. */
   uint32_t *lds_site = calloc(2 * ((size_t)n + 1), sizeof(uint32_t)), sites = 0, pages = 0;
   uint32_t *page_site = lds_site ? lds_site + n + 1 : NULL;
   for (uint32_t pc = 0; lds_site && pc < n; pc++) {
      enum isa_op op = (enum isa_op)code[pc].in.op;
      if (op == ISA_OP_LDS)
         lds_site[pc] = sites++;
      bool global = op == ISA_OP_LDG || op == ISA_OP_STG;   /* LDR: the root window */
      page_site[pc] = global && pages < HW_PAGE_SITES ? pages++ : UINT32_MAX;
   }
   struct emit e = {.gathers = calloc((size_t)sites * GATHER_WARPS + 1, 1), .lds_site = lds_site,
                    .page_site = page_site, .live = liveness(code, n), .n = n, .avx512 = avx512,
                    .prefix = prefix_new(code, n, prefix_end, w),
                    .sweep_entry = malloc(((size_t)n + 1) * sizeof(size_t))};
   for (uint32_t pc = 0; e.sweep_entry && pc <= n; pc++)
      e.sweep_entry[pc] = SIZE_MAX;
   for (uint32_t pc = 0; pc < n; pc++)
      mark_address(&e, &code[pc].in);
   if (!lds_site || !e.gathers || !e.sweep_entry) {
      free((void *)e.live), prefix_free(e.prefix);
      free(e.sweep_entry);
      free(lds_site);
      free(e.gathers);
      return NULL;
   }
   struct hw_jit_block *b = NULL;
   struct pending *at = NULL;
   uint32_t count = 0;
   struct hw_jit *j = NULL;
   if (compile_runs(code, n, w, &e, &b, &at, &count) && count) {
      patch_chains(&e);
      j = calloc(1, sizeof(*j));
   }
   if (j)
      j->mem = executable(&e, &j->size);
   if (j && !j->mem) {
      static atomic_bool warned;
      if (!atomic_exchange(&warned, true))
         SG_LOG(SG_LOG_WARN, SG_AREA_EU,
                "no executable memory for compiled ALU runs: programs are interpreted");
      free(j);
      j = NULL;
   }
   if (j) {
      j->blocks = b;
      j->count = count;
      j->gathers = e.gathers;
      e.gathers = NULL;
      for (uint32_t i = 0; i < count; i++) {
         void *entry = (uint8_t *)j->mem + at[i].offset;
         memcpy(&b[i].fn, &entry, sizeof(entry));   /* POSIX: code addresses are data pointers */
         code[at[i].pc].handler = jit_label;
         code[at[i].pc].jit = &b[i];
      }
      *counts = (struct hw_jit_counts){count, e.wide_segments, e.stepped};
      if (perf_map)
         write_perf_map(j, at, count, e.len, w, id);
   } else {
      free(b);
   }
   free(at);
   free(e.b);
   free(e.gathers);
   free(lds_site);
   free((void *)e.live), prefix_free(e.prefix);
   free(e.sweep_entry);
   free(e.chains);
   return j;
}

#else /* not x86-64: everything is interpreted */

bool hw_jit_supported(void) { return false; }

struct hw_jit *hw_jit_compile(struct hw_dinst *code, uint32_t n, uint32_t prefix_end, uint32_t w,
                              bool avx512, const void *jit_label, bool perf_map, uint64_t id,
                              struct hw_jit_counts *counts)
{
   (void)code, (void)n, (void)prefix_end, (void)w, (void)avx512, (void)jit_label, (void)perf_map;
   (void)id;
   *counts = (struct hw_jit_counts){0};
   return NULL;
}

#endif
