/*
 * softgpu's instruction set: the one definition shared by the execution
 * units (hw/), the SPIR-V compiler (compiler/), the assembler and the
 * disassembler (tools/).
 *
 * Warp-wide and register based. A warp runs W lanes (8, 16, 32 or 64; a
 * program is compiled for one W). Vector registers v0..v255 hold one 32-bit
 * value per lane; uniform registers u0..u255 hold one 32-bit value for the
 * whole warp. 64-bit values live in register pairs (low in vN, high in
 * vN+1). Booleans are 32-bit 0 or 1.
 *
 * Control flow is structured: an execution mask (exec) says which lanes
 * run, and IF/ELSE/ENDIF, LOOP/BRK/CONT/CONTJOIN/ENDLOOP and
 * SWITCH/ENDSWITCH keep the masks to restore on a per-warp stack whose
 * depth the program header declares. BRK leaves the innermost breakable
 * construct (loop or switch), or with mod = n the n-th one further out;
 * CONT goes to the innermost loop's continue point, past any switch.
 * `alive` holds the lanes that have not returned; every restore is masked
 * with it. Instructions compute every lane, active or not; only active
 * lanes' results are written.
 *
 * When an instruction leaves no lane active (IF, ELSE, BRK, CONT, RET,
 * CONTJOIN), it jumps to imm, which must be the closer of the innermost
 * open construct (its ELSE, ENDIF, CONTJOIN, ENDLOOP or ENDSWITCH), so the
 * mask stack stays balanced. A closer restores lanes that wait for it;
 * if lanes left for an outer construct (a BRK or CONT past it, a RET) none
 * may be left, and the code that follows the closer must not run: the
 * program puts JEZ to the next closer out right after it.
 *
 * In GPU memory a program is a struct isa_program_header followed by
 * isa_inst[inst_count] and an optional line table; all little endian.
 */
#ifndef HW_ISA_H
#define HW_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISA_MAGIC 0x55504753u   /* "SGPU" */
/* 2: the mask stack may be 1024 entries deep; 3: byte and halfword
 * accesses, binary64 and binary16 arithmetic, IDP4, clustered and
 * floating-point 64- and 16-bit reductions (the reserved encodings went) */
#define ISA_VERSION 3u

#define ISA_MAX_VREGS 256u
#define ISA_MAX_UREGS 256u
/* Mask stack entries a program may declare: one per open construct, and
 * SPIR-V's universal limits allow structured control flow nested 1023
 * deep (plus the entry's own). The execution units size each warp's
 * stack by what the program declares, so a shallow program pays nothing. */
#define ISA_MAX_STACK 1024u

/* ---- Operands: 16 bits, kind in the top two ------------------------------- */

enum isa_operand_kind {
   ISA_OPND_VREG = 0,   /* vector register: index 0..255 */
   ISA_OPND_UREG = 1,   /* uniform register: index 0..255 */
   ISA_OPND_IMM = 2,    /* the instruction's 32-bit immediate */
   ISA_OPND_NONE = 3,
};

#define ISA_V(i) ((uint16_t)(i))
#define ISA_U(i) ((uint16_t)(0x4000u | (i)))
#define ISA_IMM ((uint16_t)0x8000u)
#define ISA_NONE ((uint16_t)0xc000u)

static inline enum isa_operand_kind isa_opnd_kind(uint16_t o) { return (enum isa_operand_kind)(o >> 14); }
static inline uint32_t isa_opnd_index(uint16_t o) { return o & 0x3fffu; }

/* ---- Instructions: 16 bytes -------------------------------------------------- */

struct isa_inst {
   uint16_t op;      /* enum isa_op */
   uint16_t dst;     /* operand */
   uint16_t a, b, c; /* sources */
   uint16_t mod;     /* opcode-specific modifier (comparison, width, atomic op, ...) */
   uint32_t imm;     /* immediate, address offset, or branch target (instruction index) */
};

/*
 * X(name, class, sources)  class: how the interpreter runs it; sources: how
 * many of a, b, c it reads. Keep new opcodes at the end of their group;
 * the numbering is the binary format (ISA_VERSION changes if it moves).
 */
#define ISA_OPCODES(X)                                                          \
   /* moves and selects */                                                      \
   X(NOP, MISC, 0)                                                              \
   X(MOV, ALU, 1)        /* dst = a */                                          \
   X(SEL, ALU, 3)        /* dst = a ? b : c */                                  \
   /* 32-bit integer */                                                         \
   X(IADD, ALU, 2) X(ISUB, ALU, 2) X(IMUL, ALU, 2)                              \
   X(IMULHI_S, ALU, 2) X(IMULHI_U, ALU, 2)                                      \
   X(IDIV_S, ALU, 2) X(IDIV_U, ALU, 2)   /* x/0 = all ones (u) or -1/1 (s) */   \
   X(IREM_S, ALU, 2) X(IREM_U, ALU, 2)   /* x%0 = x; sign of dividend */        \
   X(IMOD_S, ALU, 2)                     /* sign of divisor */                  \
   X(INEG, ALU, 1) X(IABS, ALU, 1)                                              \
   X(IMIN_S, ALU, 2) X(IMIN_U, ALU, 2) X(IMAX_S, ALU, 2) X(IMAX_U, ALU, 2)      \
   X(IMAD, ALU, 3)       /* dst = a * b + c */                                  \
   X(ICMP, ALU, 2)       /* dst = a <mod: enum isa_icmp> b ? 1 : 0 */           \
   /* bits */                                                                   \
   X(AND, ALU, 2) X(OR, ALU, 2) X(XOR, ALU, 2) X(NOT, ALU, 1)                   \
   X(SHL, ALU, 2) X(SHR_U, ALU, 2) X(SHR_S, ALU, 2)  /* count & 31 */          \
   X(BFE_U, ALU, 3) X(BFE_S, ALU, 3)     /* extract a[b +: c] */                \
   X(BFI, ALU, 3)        /* insert b into a; c = offset | count << 8 */        \
   X(BITREV, ALU, 1) X(POPC, ALU, 1) X(FINDLSB, ALU, 1)                         \
   X(FINDMSB_U, ALU, 1) X(FINDMSB_S, ALU, 1)   /* -1 when none */               \
   /* 32-bit float */                                                           \
   X(FADD, ALU, 2) X(FSUB, ALU, 2) X(FMUL, ALU, 2) X(FFMA, ALU, 3)              \
   X(FDIV, ALU, 2) X(FMIN, ALU, 2) X(FMAX, ALU, 2)                              \
   X(FNEG, ALU, 1) X(FABS, ALU, 1) X(FFLOOR, ALU, 1) X(FCEIL, ALU, 1)           \
   X(FTRUNC, ALU, 1) X(FRINT, ALU, 1) X(FROUND, ALU, 1) X(FFRACT, ALU, 1)       \
   X(FSQRT, ALU, 1) X(FRSQ, ALU, 1) X(FSIGN, ALU, 1)                            \
   X(FMATH1, ALU, 1)     /* dst = f(a), mod: enum isa_fmath */                 \
   X(FMATH2, ALU, 2)     /* dst = f(a, b), mod: enum isa_fmath */              \
   X(FCMP, ALU, 2)       /* dst = a <mod: enum isa_fcmp> b ? 1 : 0 */           \
   /* conversions */                                                            \
   X(F2I_S, ALU, 1) X(F2I_U, ALU, 1)     /* saturating; NaN -> 0 */             \
   X(I2F_S, ALU, 1) X(I2F_U, ALU, 1)                                            \
   X(F2H, ALU, 1)        /* binary16 of a in bits 0-15 (16-31 zero), mod: enum isa_round */ \
   X(H2F, ALU, 1)        /* the binary16 in a's bits 0-15, as a float */        \
   /* 64-bit integer on register pairs: dst, a, b name the low register */      \
   X(IADD64, ALU64, 2) X(ISUB64, ALU64, 2) X(IMUL64, ALU64, 2)                  \
   X(SHL64, ALU64, 2) X(SHR64_U, ALU64, 2) X(SHR64_S, ALU64, 2) /* b: 32-bit count & 63 */ \
   X(ICMP64, ALU64, 2)   /* dst (32-bit) = a <mod> b */                          \
   X(SEXT64, ALU64, 1) X(ZEXT64, ALU64, 1)   /* 32-bit a -> pair dst */         \
   X(MOV64, ALU64, 1)                                                           \
   X(IDIV64_S, ALU64, 2) X(IDIV64_U, ALU64, 2)   /* x/0 as the 32-bit forms */   \
   X(IREM64_S, ALU64, 2) X(IREM64_U, ALU64, 2) X(IMOD64_S, ALU64, 2)            \
   X(IMIN64_S, ALU64, 2) X(IMIN64_U, ALU64, 2) X(IMAX64_S, ALU64, 2) X(IMAX64_U, ALU64, 2) \
   X(IMULHI64_S, ALU64, 2) X(IMULHI64_U, ALU64, 2)                              \
   X(I2F64_S, ALU64, 1) X(I2F64_U, ALU64, 1)   /* pair a -> 32-bit float dst */ \
   X(F2I64_S, ALU64, 1) X(F2I64_U, ALU64, 1)   /* float a -> pair dst, saturating; NaN -> 0 */ \
   /* warp and workgroup state */                                               \
   X(S2R, SPECIAL, 0)    /* dst = built-in value, mod: enum isa_sreg */         \
   /* memory: mod = enum isa_mem (width, flags); imm = byte offset */          \
   X(LDG, MEM, 1) X(STG, MEM, 2)   /* global: a = address pair; STG b = data */ \
   X(LDS, MEM, 1) X(STS, MEM, 2)   /* shared: a = 32-bit byte address */       \
   X(LDP, MEM, 1) X(STP, MEM, 2)   /* private: a = 32-bit byte address */      \
   X(LDR, MEM, 0)                  /* root table: dst (uniform) = root[imm] */ \
   X(ATOMG, ATOMIC, 2)   /* global: a = address, b = value; mod: enum isa_atomic */ \
   X(ATOMS, ATOMIC, 2)   /* shared */                                           \
   X(CASG, ATOMIC, 3)    /* global compare-exchange: a = address, b = compare, c = value */ \
   X(CASS, ATOMIC, 3)                                                           \
   /* MEMBAR orders the lane's memory accesses against other CTAs and the   \
    * host (device scope). Within a CTA no fence is needed: a CTA runs on    \
    * one execution unit, its warps in turn, so they see each other's        \
    * accesses in program order, and BAR orders them across warps. */        \
   X(MEMBAR, MISC, 0)                                                           \
   X(BAR, SYNC, 0)       /* workgroup barrier */                                 \
   /* structured control flow; imm = target instruction index */               \
   X(IF, FLOW, 1) X(ELSE, FLOW, 0) X(ENDIF, FLOW, 0)                            \
   X(LOOP, FLOW, 0) X(BRK, FLOW, 1) X(CONT, FLOW, 1) X(CONTJOIN, FLOW, 0)       \
   X(ENDLOOP, FLOW, 0)                                                          \
   X(RET, FLOW, 1)       /* lanes where a != 0 return; then like BRK to imm */  \
   X(SWITCH, FLOW, 0)    /* opens a breakable construct (a switch) */           \
   X(ENDSWITCH, FLOW, 0) /* closes it: lanes that broke out rejoin */          \
   X(JMP, FLOW, 0)       /* unconditional, all lanes */                         \
   X(BRA_U, FLOW, 1)     /* jump if uniform a != 0 */                           \
   X(JEZ, FLOW, 0)       /* jump if no lane is active (exec == 0) */           \
   X(EXIT, FLOW, 0)      /* the warp is done */                                 \
   /* subgroup operations; mod: enum isa_subgroup */                            \
   X(VOTE, SUBGROUP, 1) X(BALLOT, SUBGROUP, 1) X(BCAST, SUBGROUP, 2)            \
   X(SHFL, SUBGROUP, 2) X(REDUCE, SUBGROUP, 1) X(SCAN, SUBGROUP, 1)             \
   X(ELECT, SUBGROUP, 0)                                                        \
   /* binary64 on register pairs, shaped as the 64-bit integer group: dst,      \
    * a, b, c name the low register; an immediate operand is sign-extended      \
    * to 64 bits, as for IADD64 (doubles come from registers). */               \
   X(DADD, ALU64, 2) X(DSUB, ALU64, 2) X(DMUL, ALU64, 2)                        \
   X(DFMA, ALU64, 3)     /* a * b + c, rounded once */                          \
   X(DDIV, ALU64, 2)                                                            \
   X(DMIN, ALU64, 2) X(DMAX, ALU64, 2)   /* a NaN operand (even signalling) loses */ \
   X(DNEG, ALU64, 1) X(DABS, ALU64, 1)   /* the sign bit only */                \
   X(DFLOOR, ALU64, 1) X(DCEIL, ALU64, 1) X(DTRUNC, ALU64, 1)                   \
   X(DRINT, ALU64, 1)    /* to nearest, ties to even */                         \
   X(DROUND, ALU64, 1)   /* to nearest, ties away from zero */                  \
   X(DFRACT, ALU64, 1)   /* a - floor(a) */                                     \
   X(DSQRT, ALU64, 1) X(DRSQ, ALU64, 1)  /* DRSQ: 1 / sqrt(a) */                \
   X(DSIGN, ALU64, 1)    /* -1, +-0 or 1; NaN stays NaN */                      \
   X(DLDEXP, ALU64, 2)   /* a * 2^b, b a 32-bit signed integer */               \
   X(DCMP, ALU64, 2)     /* dst (32-bit) = a <mod: enum isa_fcmp> b ? 1 : 0 */  \
   X(F2D, ALU64, 1)      /* 32-bit float a -> pair dst (exact) */               \
   X(D2F, ALU64, 1)      /* pair a -> float dst, mod: enum isa_round */         \
   X(D2H, ALU64, 1)      /* pair a -> binary16 (bits 0-15; 16-31 zero), one     \
                          * rounding, mod: enum isa_round */                    \
   X(D2I_S, ALU64, 1) X(D2I_U, ALU64, 1)   /* -> 32-bit dst, saturating; NaN -> 0 */ \
   X(I2D_S, ALU64, 1) X(I2D_U, ALU64, 1)   /* 32-bit a -> pair dst (exact) */   \
   X(D2I64_S, ALU64, 1) X(D2I64_U, ALU64, 1)   /* saturating; NaN -> 0 */       \
   X(I642D_S, ALU64, 1) X(I642D_U, ALU64, 1)   /* to nearest, ties to even */   \
   /* binary16 in bits 0-15 of one register: bits 16-31 of a source are         \
    * not read, those of the result are zero. Computed in binary32 and          \
    * rounded once to binary16, to nearest even: correctly rounded for + -      \
    * * / and sqrt (binary32 carries 2 x 11 + 2 significand bits). */           \
   X(HADD, ALU, 2) X(HSUB, ALU, 2) X(HMUL, ALU, 2) X(HDIV, ALU, 2)              \
   X(HFMA, ALU, 3)       /* a * b + c computed in binary64, rounded once */     \
   X(HSQRT, ALU, 1)                                                             \
   X(HMIN, ALU, 2) X(HMAX, ALU, 2)   /* a NaN operand loses, as DMIN/DMAX */    \
   X(HCMP, ALU, 2)       /* dst = a <mod: enum isa_fcmp> b ? 1 : 0 */           \
   /* packed integer dot product: a and b hold four 8-bit integers each;        \
    * dst = c + the sum of a.byte[i] * b.byte[i], mod: enum isa_dp4 and         \
    * ISA_DP4_SAT; c NONE counts as 0 */                                        \
   X(IDP4, ALU, 3)

enum isa_op {
#define ISA_ENUM(name, cls, n) ISA_OP_##name,
   ISA_OPCODES(ISA_ENUM)
#undef ISA_ENUM
   ISA_OP_COUNT
};

/* ISA_CLASS_RESERVED: an encoding kept for later, which programs may not
 * use (isa_program_validate refuses it); version 3 has none. */
enum isa_class {
   ISA_CLASS_MISC, ISA_CLASS_ALU, ISA_CLASS_ALU64, ISA_CLASS_SPECIAL, ISA_CLASS_MEM,
   ISA_CLASS_ATOMIC, ISA_CLASS_SYNC, ISA_CLASS_FLOW, ISA_CLASS_SUBGROUP, ISA_CLASS_RESERVED,
};

struct isa_op_info {
   const char *name;      /* lower-case mnemonic */
   enum isa_class cls;
   uint8_t sources;
};
extern const struct isa_op_info isa_op_info[ISA_OP_COUNT];

/* ---- Modifiers ------------------------------------------------------------------ */

enum isa_icmp {
   ISA_ICMP_EQ, ISA_ICMP_NE, ISA_ICMP_LT_S, ISA_ICMP_LE_S, ISA_ICMP_GT_S, ISA_ICMP_GE_S,
   ISA_ICMP_LT_U, ISA_ICMP_LE_U, ISA_ICMP_GT_U, ISA_ICMP_GE_U, ISA_ICMP_COUNT
};

/* Ordered comparisons are false when either operand is NaN; unordered ones
 * true. */
enum isa_fcmp {
   ISA_FCMP_OEQ, ISA_FCMP_ONE, ISA_FCMP_OLT, ISA_FCMP_OLE, ISA_FCMP_OGT, ISA_FCMP_OGE,
   ISA_FCMP_UEQ, ISA_FCMP_UNE, ISA_FCMP_ULT, ISA_FCMP_ULE, ISA_FCMP_UGT, ISA_FCMP_UGE,
   ISA_FCMP_ORD, ISA_FCMP_UNO, ISA_FCMP_ISNAN, ISA_FCMP_ISINF, ISA_FCMP_COUNT
};

/* H2F: the binary32 of the binary16 in bits 0-15 of h (exact; a NaN keeps
 * its payload). The interpreter executes it and the compiler folds
 * constants with it, so both compute the same bits. */
static inline uint32_t isa_h2f(uint32_t h)
{
   uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
   if (exp == 0x1f)
      return sign | 0x7f800000u | (man << 13);
   if (exp == 0) {
      if (!man)
         return sign;
      int shift = 0;   /* normalize the subnormal */
      while (!(man & 0x400u)) {
         man <<= 1;
         shift++;
      }
      return sign | ((uint32_t)(127 - 15 + 1 - shift) << 23) | ((man & 0x3ffu) << 13);
   }
   return sign | ((exp - 15 + 127) << 23) | (man << 13);
}

/* Rounding of a conversion to a narrower float (F2H, D2F, D2H), as SPIR-V's
 * FPRoundingMode numbers them: to nearest even (0, the default), towards
 * zero, towards +infinity, towards -infinity. Bits above them are
 * ignored. NaNs stay (quiet) NaNs and infinities infinities; a finite value
 * past the largest finite one becomes infinity where the mode rounds away
 * from zero (RTE, RTP above, RTN below), else the largest finite value. */
enum isa_round { ISA_RND_RTE, ISA_RND_RTZ, ISA_RND_RTP, ISA_RND_RTN, ISA_RND_COUNT };
#define ISA_RND_MODE(mod) ((mod) & 3u)

/* IDP4's modifier: how the bytes of a and b are read (SU: a signed, b
 * unsigned), and ISA_DP4_SAT. The four products' sum is exact; without
 * ISA_DP4_SAT it is added to c modulo 2^32; with it the sum c + dot is
 * clamped to the 32-bit signed range (SS, SU: c signed) or unsigned one
 * (UU: c unsigned). The value 3 reads as SS. */
enum isa_dp4 { ISA_DP4_SS, ISA_DP4_UU, ISA_DP4_SU, ISA_DP4_COUNT };
#define ISA_DP4_SAT 0x4u
#define ISA_DP4_SIGNS(mod) ((mod) & 3u)

enum isa_fmath {
   /* one operand */
   ISA_FM_SIN, ISA_FM_COS, ISA_FM_TAN, ISA_FM_ASIN, ISA_FM_ACOS, ISA_FM_ATAN,
   ISA_FM_SINH, ISA_FM_COSH, ISA_FM_TANH, ISA_FM_ASINH, ISA_FM_ACOSH, ISA_FM_ATANH,
   ISA_FM_EXP, ISA_FM_EXP2, ISA_FM_LOG, ISA_FM_LOG2, ISA_FM_RCP,
   /* two operands */
   ISA_FM_ATAN2, ISA_FM_POW, ISA_FM_FMOD, ISA_FM_LDEXP,
   ISA_FM_COUNT
};

enum isa_sreg {
   ISA_SR_LANE_ID,            /* vector */
   ISA_SR_LOCAL_ID_X, ISA_SR_LOCAL_ID_Y, ISA_SR_LOCAL_ID_Z,   /* vector */
   ISA_SR_LOCAL_INDEX,        /* vector */
   ISA_SR_WARP_ID,            /* uniform: subgroup index within the workgroup */
   ISA_SR_WARP_COUNT,         /* uniform */
   ISA_SR_WARP_WIDTH,         /* uniform */
   ISA_SR_GROUP_ID_X, ISA_SR_GROUP_ID_Y, ISA_SR_GROUP_ID_Z,          /* uniform */
   ISA_SR_NUM_GROUPS_X, ISA_SR_NUM_GROUPS_Y, ISA_SR_NUM_GROUPS_Z,    /* uniform */
   ISA_SR_GROUP_SIZE_X, ISA_SR_GROUP_SIZE_Y, ISA_SR_GROUP_SIZE_Z,    /* uniform */
   ISA_SR_ROOT_LO, ISA_SR_ROOT_HI,   /* uniform: the root table's VA */
   /* uniform: the GPU's clock, a 64-bit count of nanoseconds that never
    * goes back and is the same for every CTA of the device (VK_KHR_shader_
    * clock's device and subgroup clocks). CLOCK_LO reads it whole and gives
    * the low half; CLOCK_HI gives the high half of what the warp's last
    * CLOCK_LO read, so the pair is one reading. Unlike the others, these
    * change while a warp runs. */
   ISA_SR_CLOCK_LO, ISA_SR_CLOCK_HI,
   ISA_SR_COUNT
};
/* The special registers whose value is fixed for a warp's whole run. */
static inline bool isa_sreg_fixed(uint32_t mod)
{
   return mod < ISA_SR_CLOCK_LO;
}

/* Memory modifier: low bits the width in dwords (1, 2 or 4), then flags.
 * The address is operand a plus imm, a byte offset (sign-extended for
 * global addresses); a NONE address operand counts as 0, so a constant
 * shared or private address is imm alone. Memory and atomic instructions
 * take no immediate operands: the one immediate field is the offset.
 *
 * With ISA_MEM_SUB the width is in bytes, 1 or 2 (".b8", ".b16"; LDG, STG,
 * LDS, STS, LDP and STP only, isa_program_validate refuses others): the
 * access is naturally aligned, a load zero-extends into its one 32-bit
 * register, a store writes the register's low bytes and nothing else (two
 * lanes storing neighbouring bytes both land). Checks and faults (address,
 * alignment, bounds) go by the access's own size. */
#define ISA_MEM_WIDTH(mod) ((mod) & 7u)
#define ISA_MEM_SUB 0x8u            /* the width counts bytes (1 or 2) */
#define ISA_MEM_UNIFORM_ADDR 0x10u  /* the address operand is uniform */
/* The bytes of one lane's access, and the registers it loads or stores. */
static inline uint32_t isa_mem_bytes(uint32_t mod)
{
   return (mod & ISA_MEM_SUB) ? ISA_MEM_WIDTH(mod) : 4u * ISA_MEM_WIDTH(mod);
}
static inline uint32_t isa_mem_dwords(uint32_t mod)
{
   return (mod & ISA_MEM_SUB) ? 1u : ISA_MEM_WIDTH(mod);
}

/* ISA_ATOM_FADD adds binary32 values (binary64 with ISA_ATOM_64), rounded to
 * nearest even, NaNs and infinities as an FADD/DADD would make them. */
enum isa_atomic {
   ISA_ATOM_ADD, ISA_ATOM_MIN_S, ISA_ATOM_MIN_U, ISA_ATOM_MAX_S, ISA_ATOM_MAX_U,
   ISA_ATOM_AND, ISA_ATOM_OR, ISA_ATOM_XOR, ISA_ATOM_XCHG, ISA_ATOM_FADD, ISA_ATOM_COUNT
};
#define ISA_ATOM_64 0x100u         /* 64-bit: value and result are pairs */
#define ISA_ATOM_OP(mod) ((mod) & 0xffu)

/* Subgroup modifiers. */
enum isa_vote { ISA_VOTE_ALL, ISA_VOTE_ANY, ISA_VOTE_EQ };
enum isa_shfl { ISA_SHFL_IDX, ISA_SHFL_XOR, ISA_SHFL_UP, ISA_SHFL_DOWN };
enum isa_reduce {
   ISA_RED_IADD, ISA_RED_IMUL, ISA_RED_IMIN_S, ISA_RED_IMIN_U, ISA_RED_IMAX_S, ISA_RED_IMAX_U,
   ISA_RED_AND, ISA_RED_OR, ISA_RED_XOR, ISA_RED_FADD, ISA_RED_FMUL, ISA_RED_FMIN, ISA_RED_FMAX,
   ISA_RED_COUNT
};
#define ISA_SCAN_EXCLUSIVE 0x100u
/* REDUCE and SCAN on 64-bit register pairs (a and dst name the low
 * register): the integer operations on 64-bit integers, FADD, FMUL, FMIN
 * and FMAX on binary64 (FADD's identity +0, as at 32 bits; in FMIN and
 * FMAX a NaN operand loses, as in DMIN/DMAX). */
#define ISA_SUBGROUP_64 0x200u
/* REDUCE and SCAN of FADD, FMUL, FMIN and FMAX on binary16 (bits 0-15 of
 * one register; bits 16-31 of the result zero), each step rounded to
 * binary16 (to nearest even; min and max as HMIN/HMAX). The integer
 * operations ignore it; with ISA_SUBGROUP_64 it is ignored. */
#define ISA_SUBGROUP_F16 0x400u
/* Clustered REDUCE and SCAN (".clusterN"): the field holds log2(N) + 1 for
 * a cluster of N = 1, 2, 4, ... 64 lanes, 0 for none (the whole warp, as
 * is a cluster of W lanes or more). Each lane's result is over the active
 * lanes of its own aligned cluster (lanes l & ~(N - 1) to that + N - 1), in
 * lane order from the identity, as SPIR-V's ClusteredReduce defines. */
#define ISA_SUBGROUP_CLUSTER_SHIFT 11u
#define ISA_SUBGROUP_CLUSTER_MASK 0x3800u
static inline uint32_t isa_subgroup_cluster(uint32_t mod)   /* 0: none */
{
   uint32_t f = (mod & ISA_SUBGROUP_CLUSTER_MASK) >> ISA_SUBGROUP_CLUSTER_SHIFT;
   return f ? 1u << (f - 1) : 0;
}

/* ---- Programs ---------------------------------------------------------------- */

struct isa_program_header {
   uint32_t magic;            /* ISA_MAGIC */
   uint16_t version;          /* ISA_VERSION */
   uint16_t warp_width;       /* W: 8, 16, 32 or 64 */
   uint32_t inst_count;
   uint16_t vreg_count;
   uint16_t ureg_count;
   uint16_t stack_depth;      /* mask stack entries needed */
   uint16_t flags;            /* ISA_PROG_* */
   uint32_t line_count;       /* entries of the line table after the code */
   uint32_t reserved[3];
};

#define ISA_PROG_USES_BARRIER 0x1u
#define ISA_PROG_ZERO_SHARED 0x2u    /* shared memory starts zeroed in each CTA */

/* A line table entry: from instruction `pc` on, the source line is `line`. */
struct isa_line {
   uint32_t pc;
   uint32_t line;
};

/* Whether an instruction writes its destination operand in every active
 * lane (loads, arithmetic, special registers, atomics, subgroup
 * operations); the others (stores, flow and the rest) read it, if at all. */
bool isa_writes_dst(const struct isa_inst *in);

/* Registers operand `which` (0 dst, 1 a, 2 b, 3 c) reads or writes, pairs
 * and wide memory accesses included. */
uint32_t isa_operand_span(enum isa_op op, uint16_t mod, int which);

/* Checks that a program is well formed for execution: header, opcodes,
 * operands within the declared register counts, branch targets inside the
 * code. On failure writes why into err. */
bool isa_program_validate(const struct isa_program_header *h, uint64_t size, char *err,
                          size_t err_size);

/* ---- Text -------------------------------------------------------------------- */

/* Writes one instruction as assembly text ("iadd v3, v1, u2"); a buffer of
 * ISA_DISASM_MAX bytes holds any instruction. */
#define ISA_DISASM_MAX 192
void isa_disassemble(const struct isa_inst *inst, char *buf, size_t size);
/* Parses one line of assembly. Returns false (with a message) if it does
 * not parse; blank lines and comments yield a NOP with *empty set. */
bool isa_assemble_line(const char *line, struct isa_inst *inst, bool *empty, char *err,
                       size_t err_size);

/*
 * A whole program as text:
 *   .warp <W>  .vregs <n>  .uregs <n>  .stack <n>  .barrier  .line <n>
 * directives (defaults: W 32, registers and stack sized from the code),
 * one instruction per line, "name:" labels and "@name" branch targets (or
 * "@<index>"), ';' or '//' comments. ".line n" records that the following
 * instructions come from source line n.
 * On success returns a malloc'd image (header, code, line table) and its
 * size; on failure NULL and "line N: why" in err.
 */
void *isa_assemble_program(const char *text, size_t *size, char *err, size_t err_size);
/* The text form of a program image, which assembles back to the same bytes. */
char *isa_disassemble_program(const void *image, size_t size);

#endif
