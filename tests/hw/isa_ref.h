/*
 * C references for the ALU instructions of hw_isa.h, shared by
 * test_isa_alu.c (typical values at every warp width and operand form) and
 * test_isa_edges.c (edge values, also in inactive lanes).
 *
 * The references are written from the semantics hw_isa.h documents (and
 * hw_interp.c defines where the header is silent), independently of the
 * interpreter's code: bit-field and bit-scan results by bit loops, 64-bit
 * arithmetic shifts and saturating conversions by cases, F2H/H2F, D2F and
 * D2H by power-of-two scaling and rint/trunc/ceil (any NaN for a NaN),
 * binary64 by C double arithmetic, binary16 arithmetic as the double
 * result rounded once to binary16, IDP4 by a loop over the bytes, 64-bit
 * integers to double through long double (one rounding). FMATH1/FMATH2
 * results are the C library's float functions (what hw_interp.c calls);
 * test_isa_alu.c also checks them against double-precision libm within the
 * precision Vulkan requires.
 *
 * Every ALU case runs one program: each invocation loads its a, b, c from
 * 64-bit arrays (32-bit operands use the low dword), runs the instruction
 * once, and stores the 64-bit destination pair (32-bit results leave a
 * sentinel in the high register, which is checked too).
 */
#ifndef ISA_REF_H
#define ISA_REF_H

#include "eut.h"

enum isa_ref_cmp {
   REF_EXACT,   /* bit for bit */
   REF_FLOAT,   /* bit for bit, except that any NaN matches a NaN */
   REF_FMATH,   /* a transcendental: see isa_fmath_within_vulkan / isa_libm_match */
   REF_HALF,    /* a binary16 in bits 0-15: bit for bit, any half NaN for a half NaN */
   REF_DOUBLE,  /* a binary64 pair: bit for bit, any NaN for a NaN */
};

struct isa_case {
   enum isa_op op;
   uint32_t mod;
   char mnemonic[32];     /* "icmp.lt_s", as the disassembler names it */
   uint8_t nsrc;
   bool src64[3], dst64;
   enum isa_ref_cmp cmp;
};

#define ISA_MAX_CASES 320u

/* Every ALU and ALU64 opcode once, ICMP, ICMP64, FCMP, DCMP and HCMP once
 * per comparison, FMATH1/FMATH2 once per function, F2H, D2F and D2H once
 * per rounding mode, IDP4 once per signedness, wrapping and saturating. */
uint32_t isa_cases(struct isa_case *out, uint32_t cap);

/* isa_ref has a reference for op (isa_cases leaves the others out, with a
 * failing check that names them). */
bool isa_ref_known(enum isa_op op);

/* The defined result of k on a, b, c (each as a 64-bit operand; 32-bit
 * operands use the low dword). 32-bit results come zero-extended. */
uint64_t isa_ref(const struct isa_case *k, uint64_t a, uint64_t b, uint64_t c);

/* got (the destination's low 32 bits for a 32-bit destination) matches the
 * reference want under k->cmp; REF_FMATH here compares with the C library's
 * float result within 4 ULP (specials exact). */
bool isa_ref_match(const struct isa_case *k, uint64_t got, uint64_t want);

/* For FMATH cases: got is within the precision Vulkan requires of the
 * double-precision libm value on inputs a, b. On failure writes why. */
bool isa_fmath_within_vulkan(const struct isa_case *k, float got, uint32_t a, uint32_t b,
                             char *why, size_t why_size);

/* A typical operand value for source `which` of k (in the domain Vulkan
 * gives precision for, for the transcendentals). */
uint64_t isa_gen_typical(const struct isa_case *k, int which, uint64_t *rng);

/* The edge values for source `which` of k: NaNs, infinities, denormals,
 * signed zeros, conversion limits for floats; 0, +-1, INT_MIN, INT_MAX and
 * friends for integers; 0..63 and beyond for shift counts and bit-field
 * operands. */
uint32_t isa_edge_values(const struct isa_case *k, int which, const uint64_t **values);

/* Operand forms a case runs in. */
enum isa_form {
   FORM_V,      /* every operand a vector register */
   FORM_UB,     /* b uniform (a, for one-source instructions) */
   FORM_IB,     /* b immediate (a, for one-source instructions) */
   FORM_IX,     /* the immediate in the other slot: a (two sources) or c (three) */
   FORM_UD,     /* uniform destination, vector sources: the first active lane's result */
   FORM_UU,     /* uniform destination and uniform sources */
   FORM_ALIAS,  /* the destination is operand a's register */
   FORM_COUNT
};
extern const char *const isa_form_names[FORM_COUNT];
bool isa_form_applies(const struct isa_case *k, enum isa_form f);

/* Root table of an ALU case program, in 64-bit words. */
enum {
   ROOT_A, ROOT_B, ROOT_C, ROOT_R,      /* input arrays (u64 each) and results (u64) */
   ROOT_UA, ROOT_UB, ROOT_UC,           /* uniform operand values */
   ROOT_MASK,                           /* u32 per invocation: run the instruction? */
   ROOT_WORDS
};

#define SENT_V_LO 0x5a5a5a5au
#define SENT_V_HI 0xa5a5a5a5u
#define SENT_U_LO 0x3c3c3c3cu
#define SENT_U_HI 0xc3c3c3c3u

/* Appends the program text of case k in form f at warp width w; imm is the
 * immediate operand's value (FORM_IB, FORM_IX). masked: the instruction
 * sits in IF mask[i] .. ENDIF. */
void isa_case_program(struct eut_text *t, const struct isa_case *k, enum isa_form f, uint32_t w,
                      uint32_t imm, bool masked);

/* The operand value the instruction sees, for source s, given the lane's
 * own loaded value x, the uniform value u and the immediate imm. */
uint64_t isa_form_operand(const struct isa_case *k, enum isa_form f, int s, uint64_t x,
                          uint64_t u, uint32_t imm);

/* The 64 bits a lane stores: the destination pair after the instruction,
 * given the (already computed) result and the lane's loaded a. */
uint64_t isa_form_stored(const struct isa_case *k, enum isa_form f, uint64_t result, uint64_t a);

/* The references' binary16 conversions, for other tests: the value of
 * the binary16 in bits 0-15 of h, and the binary16 of x rounded by mode
 * (enum isa_round). */
double isa_ref_h2d(uint32_t h);
uint32_t isa_ref_d2h(double x, uint32_t mode);

/* Printable operand value. */
const char *isa_value_text(const struct isa_case *k, int which, uint64_t v, char *buf,
                           size_t size);

#endif
