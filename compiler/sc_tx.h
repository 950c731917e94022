/*
 * The translator's state, shared by its passes over the parsed SPIR-V (an
 * SSA form with structured control flow), in the order sc_translate runs
 * them: the blocks and the control-flow graph (sc_cfg.c), promotion of
 * variables to registers (sc_promote.c), the divergence analysis
 * (sc_divergence.c), counted loops (sc_loops.c), then the lowering of
 * structured control flow to the mask stack (sc_lower_cf.c), which
 * translates each block's instructions (sc_translate.c) into machine IR
 * through the builder (sc_build.c), with the types of sc_types.c.
 * Private to compiler/: the rest of the compiler sees sc_translate() alone.
 */
#ifndef SC_TX_H
#define SC_TX_H

#include "hw_root.h"
#include "sc_internal.h"

/* A block of the entry point: word offsets into the module. */
struct sc_block {
   uint32_t label;              /* label id */
   uint32_t start;              /* word offset of OpLabel */
   uint32_t merge;              /* word offset of OpSelectionMerge/OpLoopMerge, or 0 */
   uint32_t term;               /* word offset of the terminator */
   uint32_t first_inst;         /* first instruction after the phis */
};

#define SC_MAX_COMPONENTS 256u  /* scalars a value held in registers may have (a struct of five mat4, 80) */

/* What the translation of an id holds: registers, or a pointer known at
 * compile time (struct ptr, sc_translate.c). */
enum sc_val_kind { SC_VAL_NONE, SC_VAL_REGS, SC_VAL_PTR };

struct sc_val {
   uint8_t kind;
   uint16_t n;
   struct sc_opnd *comp;        /* SC_VAL_REGS: n components */
   struct ptr *ptr;             /* SC_VAL_PTR */
};

/* How sc_get presents the 8- and 16-bit operands of the instruction being
 * translated ("Values narrower and wider than 32 bits", docs/architecture.md):
 * as they are (upper bits undefined); integers zero- or sign-extended, for
 * instructions that read the upper bits; binary16 widened to binary32, for
 * instructions without a binary16 form (the result is then rounded back). */
enum sc_view { SC_VIEW_RAW = 0, SC_VIEW_ZEXT = 1, SC_VIEW_SEXT = 2, SC_VIEW_F32 = 4 };

/* A type, as far as the translator looks at it. */
enum sc_tkind { SC_TK_VOID, SC_TK_BOOL, SC_TK_INT, SC_TK_FLOAT, SC_TK_VECTOR, SC_TK_MATRIX,
                SC_TK_ARRAY, SC_TK_RARRAY, SC_TK_STRUCT, SC_TK_POINTER, SC_TK_OTHER };

struct sc_tinfo {
   enum sc_tkind kind;
   uint32_t width;              /* scalars: 8, 16, 32 or 64 (bool: 32) */
   bool is_signed;
   uint32_t elem;               /* vector, matrix (column type), arrays: element type */
   uint32_t count;              /* vector, matrix, array: element count */
   uint32_t storage;            /* pointer */
   uint32_t id;
};

/* A counted loop (sc_loops.c): its shape, and the counter's value in each
 * iteration. */
#define SC_UNROLL_TRIPS 16u      /* at most this many iterations */

struct sc_counted {
   uint32_t var;                /* variable form: the counter, a promoted 32-bit integer
                                   variable; 0 in the SSA form */
   uint32_t phi;                /* SSA form: the counter's OpPhi in the header; 0 otherwise */
   bool exit_on_true;           /* the test's true branch leaves the loop */
   const struct sc_block *cond;    /* X (in the SSA form, the header or its successor) */
   uint32_t header, body, cont, merge;   /* labels of H, B, C and M */
   uint32_t trips;
   uint32_t value[SC_UNROLL_TRIPS];   /* the counter in each iteration */
   uint32_t final;              /* and after the loop */
};


/* Operand arrays of an instruction's value operands (freed by the caller). */
struct sc_operands {
   struct sc_opnd *c;
   uint32_t n;
   bool owned;
   struct sc_tx *t;                /* for sc_release() */
};


struct sc_tx {
   const struct sc_module *m;
   const struct sc_options *o;
   const uint32_t *local_size;  /* the workgroup size, [3] */
   struct sc_mir *mir;
   struct sc_error *e;
   struct sc_val *vals;         /* per id */
   uint8_t *divergent;          /* per id: 1 if the value differs between lanes */
   struct sc_block *blocks;
   uint32_t block_count;
   int32_t *block_of;           /* label id -> block index */
   struct construct *cons;      /* the open constructs, ISA_MAX_STACK of them at most */
   uint32_t depth;
   uint32_t line;
   uint32_t shared_next, private_next;
   /* Block-decorated Workgroup variables' common offset, once placed */
   uint32_t explicit_shared;
   bool explicit_shared_placed;
   uint32_t *var_offset;        /* Workgroup/Private/Function variables: byte offset */
   uint8_t *promote;            /* per id: a variable kept in registers */
   uint8_t *used_globals;       /* per id, during prologue(); freed by tx_free on failure */
   uint8_t *join;               /* per block: a merge block or continue target */
   uint8_t *used_outside;       /* per id, scratch of mark_live_out */
   uint8_t *var_divergent;      /* per promoted variable: may differ between lanes */
   uint8_t *ctrl;               /* per block: reached by only part of the lanes */
   uint32_t *stack;             /* per block: scratch for walks */
   uint32_t *members;           /* per block: scratch, the blocks sc_loop_blocks() marked */
   uint32_t *visited;           /* per block: scratch, the blocks a walk marked seen */
   uint32_t *merge_header;      /* per block: the header whose merge it is, or UINT32_MAX */
   uint32_t *cont_header;       /* per block: the loop whose continue target it is, or
                                   UINT32_MAX */
   uint32_t *pred_first, *pred_list;   /* per block: its predecessors, pred_list[pred_first[b]
                                          .. pred_first[b + 1]) */
   /* The loop forest (find_loops): per block, the header block of the
    * innermost loop holding it, and per loop header, the header of the
    * loop around it; UINT32_MAX for none. */
   uint32_t *loop_of, *loop_parent;
   uint32_t *preds;             /* per block: the edges into it (find_loops) */
   /* Arrays get() made for constants (and other scratch), until their user
    * frees them: a compile error unwinds past the user, and tx_free frees
    * them. */
   void **owned;
   uint32_t owned_n, owned_cap;
   struct sc_opnd **slots;      /* per promoted variable: one register per scalar */
   uint32_t exit_label;         /* the program's final EXIT */
   bool need_ranges;            /* load descriptor ranges (robust access, OpArrayLength) */
   /* cached uniform registers */
   struct sc_opnd root;         /* the root table's address */
   struct sc_opnd set_va[HW_ROOT_SETS];   /* descriptor sets' addresses, once loaded */
   bool root_loaded;
   bool exact;                  /* the instruction being translated is NoContraction */
   uint8_t view;                /* enum sc_view: how sc_get presents 8- and 16-bit operands */
   bool fp64;                   /* the instruction computes on binary64: sc_emit and sc_alu
                                   give its binary32 operations their binary64 forms */
   enum sc_pass pass;           /* what the work counted now is charged to */
   uint32_t counter_phi;        /* the counter of the SSA-form loop being unrolled: its
                                   phi's back-edge copies are left out (see unroll) */
   struct sc_counted **counted; /* per block: the counted loop it heads, or NULL */
};

/* A compile error at any depth (sc_fail unwinds to sc_compile). */
#define FAIL(...) sc_fail(t->e, __VA_ARGS__)

/* sc_translate.c: counts n units of work against the pass running
 * (sc_program.work). */
void sc_work(const struct sc_tx *t, uint64_t n);
/* sc_translate.c: operand word i of the instruction at `at`,
 * bounds-checked (malformed input fails the compile). */
uint32_t sc_arg(const struct sc_tx *t, uint32_t at, uint32_t i);

/* sc_cfg.c: the entry point's blocks (t->blocks, t->block_of). */
void sc_find_blocks(struct sc_tx *t);
/* sc_cfg.c: the block a label id names (the compile fails if none). */
struct sc_block *sc_block_of(struct sc_tx *t, uint32_t label);
/* sc_cfg.c: how many words each case literal of the OpSwitch at `at`
 * takes (the selector's width: 1 or 2). */
uint32_t sc_switch_literal_words(const struct sc_tx *t, uint32_t at);
/* sc_cfg.c: whether word k >= 2 of the OpSwitch at `at` is a target label
 * rather than a case literal. */
bool sc_switch_target(const struct sc_tx *t, uint32_t at, uint32_t k);
/* sc_cfg.c: the successor block indices of b, up to max; returns how many. */
uint32_t sc_successors(const struct sc_tx *t, const struct sc_block *b, uint32_t *out,
                       uint32_t max);
/* sc_cfg.c: the predecessor lists, merge and continue headers (and the
 * join marks), and the loop forest (t->loop_of, t->loop_parent); the
 * scratch arrays of the walks (t->stack, t->members, t->visited). */
void sc_cfg_build(struct sc_tx *t);
/* sc_cfg.c: the blocks of the loop headed by block h, marked in in[] (which
 * must be clear) and listed in t->members; returns how many. */
uint32_t sc_loop_blocks(struct sc_tx *t, uint32_t h, uint8_t *in);
/* sc_cfg.c: clears the n marks of list in in[]. */
void sc_unmark(uint8_t *in, const uint32_t *list, uint32_t n);

/* sc_divergence.c: the analysis (t->divergent, t->var_divergent, t->ctrl). */
void sc_divergence(struct sc_tx *t);
/* sc_divergence.c: the result id the instruction at `at` defines, or 0. */
uint32_t sc_result_id(const struct sc_tx *t, uint32_t at);
/* sc_divergence.c: the variable a pointer id points into (through access
 * chains and copies), or 0. */
uint32_t sc_root_variable(const struct sc_tx *t, uint32_t id);

/* ---- sc_types.c ---- */
/* The definition of an id (the compile fails if there is none). */
const struct sc_id *sc_idp(const struct sc_tx *t, uint32_t id);
struct sc_tinfo sc_type_of(const struct sc_tx *t, uint32_t type);
/* Member i's type of a struct type. */
uint32_t sc_struct_member(const struct sc_tx *t, uint32_t type, uint32_t i);
/* Scalar components of a type held in registers. */
uint32_t sc_components(const struct sc_tx *t, uint32_t type);
/* The scalar type of component i of a type. */
struct sc_tinfo sc_scalar_at(const struct sc_tx *t, uint32_t type, uint32_t i);
/* Whether a scalar takes a register pair. */
bool sc_is64(const struct sc_tinfo *ti);
/* A 32-bit scalar constant's value; false if id is not one. */
bool sc_const_u32(const struct sc_tx *t, uint32_t id, uint32_t *value);
/* An index's value if it is a constant below 2^32, of either width. */
bool sc_const_index(const struct sc_tx *t, uint32_t id, uint32_t *value);
/* Scalars of a type held in registers, or UINT32_MAX beyond limit (or for
 * what registers cannot hold). */
uint32_t sc_flat_size(const struct sc_tx *t, uint32_t type, uint32_t limit, int depth);
/* Whether an access chain's indices are all constants. */
bool sc_constant_chain(const struct sc_tx *t, uint32_t at);

/* ---- sc_build.c ---- */
void *sc_grow(void *p, uint32_t *cap, uint32_t need, size_t elem, struct sc_error *e);
uint32_t sc_new_reg(struct sc_tx *t, uint32_t size, bool uniform);
uint32_t sc_new_label(struct sc_tx *t);
void sc_place_label(struct sc_tx *t, uint32_t label);
struct sc_minst *sc_emit(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd dst,
                         struct sc_opnd a, struct sc_opnd b, struct sc_opnd c);
/* A flow instruction to a label. */
void sc_emit_flow(struct sc_tx *t, enum isa_op op, struct sc_opnd a, uint32_t label, uint32_t mod);
/* Whether an operand is the same in every lane (an immediate, a uniform
 * register). */
bool sc_opnd_uniform(const struct sc_tx *t, struct sc_opnd o);
/* Folds an operation on immediates as the execution units compute it;
 * false if it cannot. */
bool sc_fold(enum isa_op op, struct sc_opnd a, struct sc_opnd b, struct sc_opnd c, uint32_t *r);
/* dst = op(a, b, c) into a fresh 32-bit register (uniform if every
 * source is), or an immediate if it folds. */
struct sc_opnd sc_alu(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd a,
                      struct sc_opnd b, struct sc_opnd c);
/* The same into a fresh register pair. */
struct sc_opnd sc_alu64(struct sc_tx *t, enum isa_op op, uint32_t mod, struct sc_opnd a,
                        struct sc_opnd b);
/* A 64-bit constant materialized in a uniform register pair. */
struct sc_opnd sc_pair64(struct sc_tx *t, uint64_t v);
/* Half `part` of a register pair (an immediate stays itself). */
struct sc_opnd sc_part_of(struct sc_opnd o, uint32_t part);
/* Copies src into dst, a pair as one MOV64 when wide. */
void sc_copy_scalar(struct sc_tx *t, struct sc_opnd dst, struct sc_opnd src, bool wide);
/* The value slot of an id (the compile fails if the id is not defined). */
struct sc_val *sc_val_at(struct sc_tx *t, uint32_t id);
/* The slot of id, made to hold n register components. */
struct sc_val *sc_val_new(struct sc_tx *t, uint32_t id, uint32_t n);
/* Fresh registers for the components of result id of a type (uniform
 * unless the divergence analysis says otherwise). */
struct sc_val *sc_result(struct sc_tx *t, uint32_t id, uint32_t type);
/* Arrays freed with the translator if a compile error unwinds past their
 * user: sc_own registers one, sc_disown frees it. */
void sc_own(struct sc_tx *t, void *c);
void sc_disown(struct sc_tx *t, void *c);
struct sc_opnd *sc_owned_array(struct sc_tx *t, uint32_t n);

/* ---- sc_promote.c ---- */
/* t->promote: the Function and Private variables kept in registers. */
void sc_find_promotable(struct sc_tx *t);

/* ---- sc_loops.c ---- */
/* t->counted: the counted loops worth unrolling, per header block. */
void sc_find_counted_loops(struct sc_tx *t);

/* ---- sc_lower_cf.c ---- */
/* The construct stack (before anything below). */
void sc_lower_init(struct sc_tx *t);
/* Code that only the lanes where cond holds run: sc_guard_begin opens it
 * (a selection with no else) and returns the label sc_guard_end closes it
 * with. */
uint32_t sc_guard_begin(struct sc_tx *t, struct sc_opnd cond);
void sc_guard_end(struct sc_tx *t, uint32_t label);
/* Lowers blocks from `label` until control reaches `stop` or leaves
 * through a break, continue or return. */
void sc_region(struct sc_tx *t, uint32_t label, uint32_t stop);

/* ---- sc_dot.c ---- */
/* OpSDot, OpUDot, OpSUDot and their AccSat forms at `at`. */
void sc_integer_dot(struct sc_tx *t, uint32_t at);

/* ---- sc_translate.c ---- */
/* The components of a value (constants produced on the spot); the array
 * is the caller's to sc_disown when *owned is set. */
struct sc_opnd *sc_get(struct sc_tx *t, uint32_t id, uint32_t *n, bool *owned);
/* Scalar component i of a value. */
struct sc_opnd sc_get1(struct sc_tx *t, uint32_t id, uint32_t i);
/* Component i of integer value id, an 8- or 16-bit one zero- or
 * sign-extended to 32 bits. */
struct sc_opnd sc_get_extended(struct sc_tx *t, uint32_t id, uint32_t i, bool is_signed);
struct sc_operands sc_operand(struct sc_tx *t, uint32_t id);
void sc_release(struct sc_operands *o);
/* Translates the instruction at `at` (not a terminator or merge). */
void sc_instruction(struct sc_tx *t, uint32_t at);

#endif
