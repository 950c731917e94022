/*
 * The translator's state, shared by its passes: the control-flow graph
 * (sc_cfg.c), the divergence analysis (sc_divergence.c) and translation
 * itself with its counted-loop unrolling (sc_translate.c). Private to
 * compiler/: the rest of the compiler sees sc_translate() alone.
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

struct sc_tx {
   const struct sc_module *m;
   const struct sc_options *o;
   const uint32_t *local_size;  /* the workgroup size, [3] */
   struct sc_mir *mir;
   struct sc_error *e;
   struct val *vals;            /* per id */
   uint8_t *divergent;          /* per id: 1 if the value differs between lanes */
   struct sc_block *blocks;
   uint32_t block_count;
   int32_t *block_of;           /* label id -> block index */
   struct construct *cons;      /* the open constructs, ISA_MAX_STACK of them at most */
   uint32_t depth;
   uint32_t line;
   uint32_t shared_next, private_next;
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
   enum sc_pass pass;           /* what the work counted now is charged to */
   uint32_t counter_phi;        /* the counter of the SSA-form loop being unrolled: its
                                   phi's back-edge copies are left out (see unroll) */
};

/* A compile error at any depth (sc_fail unwinds to sc_compile). */
#define FAIL(...) sc_fail(t->e, __VA_ARGS__)

/* sc_translate.c: counts n units of work against the pass running
 * (sc_program.work). */
void sc_work(const struct sc_tx *t, uint64_t n);
/* sc_translate.c: operand word i of the instruction at `at`,
 * bounds-checked (malformed input fails the compile). */
uint32_t sc_arg(const struct sc_tx *t, uint32_t at, uint32_t i);
/* sc_translate.c: whether word k >= 2 of the OpSwitch at `at` is a target
 * label rather than a case literal. */
bool sc_switch_target(const struct sc_tx *t, uint32_t at, uint32_t k);
/* sc_translate.c: the block a label id names (the compile fails if none). */
struct sc_block *sc_block_of(struct sc_tx *t, uint32_t label);

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

#endif
