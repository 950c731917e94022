/*
 * Compiler internals: the parsed SPIR-V module, the machine IR (ISA
 * instructions on virtual registers) and the passes' entry points.
 */
#ifndef SC_INTERNAL_H
#define SC_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "hw_isa.h"
#include "sc_compiler.h"
#include "sc_opt.h"

/* ---- the SPIR-V module ----------------------------------------------------- */

/* Member decorations of a struct type. */
struct sc_member_deco {
   uint32_t offset;
   uint32_t matrix_stride;
   bool row_major;
   uint32_t builtin;            /* SpvBuiltIn + 1, or 0 */
};

/* Everything known about one id. */
struct sc_id {
   uint32_t def;                /* word offset of the defining instruction; 0: none */
   uint16_t opcode;
   uint32_t type;               /* result type id */
   /* decorations */
   uint32_t builtin;            /* SpvBuiltIn + 1, or 0 */
   uint32_t set, binding;
   bool has_set, has_binding;
   bool block, buffer_block, non_writable;
   bool no_contraction;         /* NoContraction: not to be fused with another operation */
   uint8_t rounding;            /* FPRoundingMode + 1 (conversions), or 0 */
   uint32_t array_stride;
   uint32_t spec_id;            /* SpecId + 1, or 0 */
   struct sc_member_deco *members;
   uint32_t member_count;
   uint32_t line;               /* source line of the last OpLine before it */
};

struct sc_module {
   const uint32_t *words;
   uint32_t count;
   uint32_t bound;
   struct sc_id *ids;
   uint32_t glsl_std_450;       /* id of the GLSL.std.450 import, or 0 */
   uint32_t debug_printf;       /* NonSemantic.DebugPrintf import, or 0 */
   uint32_t debug_info;         /* NonSemantic.Shader.DebugInfo.100 import, or 0 */
   uint32_t entry_function;
   uint32_t local_size[3];
   uint32_t local_size_id[3];   /* LocalSizeId operands, or 0 */
   uint32_t workgroup_size_id;  /* the WorkgroupSize built-in constant, or 0 */
   uint32_t globals_end;        /* word offset of the first OpFunction */
   uint32_t function_start;     /* word offset of the entry's OpFunction */
   uint32_t function_end;
   bool addressing_physical64;
};

/* The instruction at a word offset: opcode and word count. */
static inline uint16_t sc_op(const struct sc_module *m, uint32_t at) { return m->words[at] & 0xffff; }
static inline uint16_t sc_len(const struct sc_module *m, uint32_t at) { return m->words[at] >> 16; }

/* ---- failing ----------------------------------------------------------------- */

/* A compile error unwinds to sc_compile through a jmp_buf: every pass can
 * fail at any depth with one call. */
struct sc_error {
   jmp_buf jump;
   char *text;
   size_t size;
};

_Noreturn void sc_fail(struct sc_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- machine IR ----------------------------------------------------------------- */

enum sc_opnd_kind { SC_NONE = 0, SC_REG, SC_IMM };

/* An operand: a virtual register (one of its 32-bit parts) or an immediate. */
struct sc_opnd {
   uint8_t kind;
   uint8_t part;                /* 0, or 1 for the high half of a 64-bit register */
   uint32_t value;              /* register number, or the immediate */
};

static inline struct sc_opnd sc_imm(uint32_t v) { return (struct sc_opnd){SC_IMM, 0, v}; }
static inline struct sc_opnd sc_reg(uint32_t r) { return (struct sc_opnd){SC_REG, 0, r}; }
static inline struct sc_opnd sc_none(void) { return (struct sc_opnd){SC_NONE, 0, 0}; }

struct sc_vreg {
   uint8_t size;                /* 32-bit parts: 1, 2 (64-bit or pair) or 4 */
   bool uniform;                /* lives in a uniform register */
   bool variable;               /* a promoted variable: may be read before written in a loop */
   uint32_t phys;               /* assigned register */
   int32_t start, end;          /* live interval in instruction indices */
};

struct sc_minst {
   uint16_t op;                 /* enum isa_op */
   uint16_t mod;
   uint32_t imm;
   struct sc_opnd dst, a, b, c;
   uint32_t label;              /* flow instructions: the target label */
   uint32_t line;               /* source line, 0 if unknown */
   bool exact;                  /* from an instruction decorated NoContraction: not to be
                                   fused (a multiply and an add into an FFMA) */
   bool invariant;              /* a load of memory no shader writes, at an address that
                                   cannot fault (push constants at constant offsets):
                                   may move out of loops like a pure instruction */
};

struct sc_mir {
   struct sc_minst *code;
   uint32_t count, capacity;
   struct sc_vreg *regs;
   uint32_t reg_count, reg_capacity;
   uint32_t *labels;            /* label -> instruction index */
   uint32_t label_count, label_capacity;
   uint32_t stack_depth;        /* deepest mask stack the code reaches */
   uint32_t shared_bytes, private_bytes;
   bool uses_barrier;
   bool zero_shared;            /* a Workgroup variable has a (null) initializer */
   char **formats;              /* debugPrintf format strings */
   uint32_t format_count, format_capacity;
   uint64_t work[SC_PASS_COUNT];   /* see struct sc_program */
};

/* ---- passes --------------------------------------------------------------------- */

/* sc_spirv.c: bounds-checked parsing of the module and its entry point. */
void sc_parse(struct sc_module *m, const uint32_t *words, size_t count, const char *entry,
              struct sc_error *e);
void sc_module_free(struct sc_module *m);

/* sc_spirv.c: every OpCapability and OpExtension of a module (with a valid
 * header) must be allowed by the device and implemented by the compiler;
 * runs before validation, so that a refusal says which and why. */
void sc_check_capabilities(const uint32_t *words, size_t count,
                           const struct sc_device_spirv *device, struct sc_error *e);

/* sc_spirv.c: a copy of the module with the specialization constants
 * applied and frozen into constants (OpSpecConstant* become OpConstant*),
 * for the path that skips the SPIR-V optimizer. Sets *needs_optimizer
 * (and returns NULL) when the module needs SPIRV-Tools first: function
 * calls to inline, or OpSpecConstantOp to fold. */
uint32_t *sc_specialize(const uint32_t *words, size_t count, const struct sc_spec_value *spec,
                        uint32_t spec_count, bool *needs_optimizer, struct sc_error *e);

/* sc_spirv.c: whether OpSpecConstantOp may name opcode op (Shader). */
bool sc_spec_operation(uint16_t op);
/* sc_spirv.c: rewrites in place each OpSpecConstantOp that the optimizer
 * left (it folds only some) as its operation, an ordinary instruction
 * among the module's globals that the translator runs at the program's
 * start. */
void sc_lower_spec_ops(uint32_t *words, size_t count);

/* sc_validate.c: the SPIRV-Tools validator, its verdicts cached by the
 * module's hash and the options. */
void sc_validate(const uint32_t *words, size_t count, const struct sc_validator_options *o,
                 struct sc_error *e);

/* sc_opt.cpp: see sc_opt.h. */

/* sc_translate.c: SPIR-V to machine IR on virtual registers, for workgroups
 * of local_size (the launch descriptor's CTA size). */
void sc_translate(const struct sc_module *m, const struct sc_options *o,
                  const uint32_t local_size[3], struct sc_mir *mir, struct sc_error *e);

/* sc_mir_opt.c: copy propagation, common subexpressions, multiply-add
 * contraction and dead code, within basic blocks. */
void sc_mir_optimize(struct sc_mir *mir, struct sc_error *e);

/* sc_regalloc.c: live intervals and register assignment. */
void sc_regalloc(struct sc_mir *mir, struct sc_error *e, uint32_t *vregs, uint32_t *uregs);

/* sc_mir_opt.c, after register allocation: loops that every lane leaves
 * together run on uniform jumps instead of the mask stack. */
void sc_mir_uniform_loops(struct sc_mir *mir, struct sc_error *e);

/* sc_mir_validate.c: fails the compile ("internal error: machine IR invalid
 * after <after>: ...") if the machine IR breaks an invariant; allocated:
 * registers are assigned. sc_compile runs it after every pass in debug
 * builds. */
void sc_mir_validate(const struct sc_mir *mir, const char *after, bool allocated,
                     struct sc_error *e);

/* sc_encode.c: the ISA program image. */
void *sc_encode(const struct sc_mir *mir, uint32_t warp_width, uint32_t vregs, uint32_t uregs,
                size_t *size, struct sc_error *e);

void sc_mir_free(struct sc_mir *mir);

#endif
