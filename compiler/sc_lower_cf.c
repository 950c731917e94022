/*
 * Lowering of structured control flow to the mask stack: constructs become
 * IF/ELSE/ENDIF, LOOP/BRK/CONT/CONTJOIN/ENDLOOP and SWITCH/ENDSWITCH,
 * recursively, construct by construct; OpPhi becomes copies emitted where
 * each incoming edge is taken, so they run under that edge's mask; counted
 * loops (sc_loops.c) are unrolled. The blocks' instructions are translated
 * by sc_instruction (sc_translate.c) as the walk reaches them.
 */
#include "sc_tx.h"

#include <stdlib.h>

/* Open constructs during lowering, innermost last. */
enum construct_kind { CK_LOOP, CK_SWITCH, CK_SELECTION };

struct construct {
   enum construct_kind kind;
   uint32_t merge;              /* label id */
   uint32_t cont;               /* loops: continue target label */
   uint32_t header;             /* loops: header label */
   uint32_t restore_label;      /* where an exec that went to 0 continues */
   struct sc_opnd fallthrough;  /* switch cases: set when a case falls through */
   bool escaped;                /* lanes left it for an outer construct (BRK, CONT, RET) */
};

static bool has_phi_copies(struct sc_tx *t, uint32_t from, uint32_t to);
static void source_line(struct sc_tx *t, uint32_t at);

/* Registers for a phi's value (made on first need: a loop's preheader
 * copies into them before the header is lowered). */
static struct sc_val *phi_value(struct sc_tx *t, uint32_t id, uint32_t type)
{
   if (sc_val_at(t, id)->kind == SC_VAL_REGS)
      return &t->vals[id];
   return sc_result(t, id, type);
}

/* The copies of edge from -> to: for each phi of `to`, its value on that
 * edge. They form a parallel copy: sources are read before any phi is
 * written, through temporaries when a source is itself a destination. */
static void emit_edge(struct sc_tx *t, uint32_t from, uint32_t to)
{
   struct sc_block *b = sc_block_of(t, to);
   struct { struct sc_opnd dst, src; bool wide; } copies[256];
   uint32_t n = 0;
   for (uint32_t at = b->start + sc_len(t->m, b->start); at < b->term; at += sc_len(t->m, at)) {
      if (sc_op(t->m, at) != SpvOpPhi)
         continue;
      uint32_t len = sc_len(t->m, at), type = sc_arg(t, at, 1), id = sc_arg(t, at, 2);
      if (id == t->counter_phi)
         continue;
      for (uint32_t k = 3; k + 1 < len; k += 2) {
         if (sc_arg(t, at, k + 1) != from)
            continue;
         struct sc_val *dst = phi_value(t, id, type);
         struct sc_operands src = sc_operand(t, sc_arg(t, at, k));
         for (uint32_t i = 0; i < dst->n && i < src.n; i++) {
            if (n == 256)
               FAIL("too many phi copies on one edge");
            struct sc_tinfo s = sc_scalar_at(t, type, i);
            copies[n].dst = dst->comp[i];
            copies[n].src = src.c[i];
            copies[n].wide = sc_is64(&s);
            n++;
         }
         sc_release(&src);
         break;
      }
   }
   bool overlap = false;
   for (uint32_t i = 0; i < n && !overlap; i++) {
      for (uint32_t j = 0; j < n; j++) {
         if (i != j && copies[i].src.kind == SC_REG && copies[i].src.value == copies[j].dst.value)
            overlap = true;
      }
   }
   if (overlap) {
      for (uint32_t i = 0; i < n; i++) {
         struct sc_opnd tmp = sc_reg(sc_new_reg(t, copies[i].wide ? 2 : 1,
                                             t->mir->regs[copies[i].dst.value].uniform));
         sc_copy_scalar(t, tmp, copies[i].src, copies[i].wide);
         copies[i].src = tmp;
      }
   }
   for (uint32_t i = 0; i < n; i++) {
      if (copies[i].src.kind == SC_REG && copies[i].src.value == copies[i].dst.value &&
          copies[i].src.part == copies[i].dst.part)
         continue;
      sc_copy_scalar(t, copies[i].dst, copies[i].src, copies[i].wide);
   }
}

static void open_construct(struct sc_tx *t, struct construct c)
{
   if (t->depth == ISA_MAX_STACK)
      FAIL("control flow nested more than %u deep (SPIR-V's universal limit is 1023)",
           ISA_MAX_STACK);
   t->cons[t->depth++] = c;
   if (t->depth > t->mir->stack_depth)
      t->mir->stack_depth = t->depth;
}

/* What a branch to `target` means from inside the open constructs: the
 * construct index it leaves (break: merge of a loop/switch; continue:
 * continue target of a loop), or -1 for an ordinary branch. */
static int exit_of(const struct sc_tx *t, uint32_t target, bool *is_continue)
{
   for (int i = (int)t->depth - 1; i >= 0; i--) {
      const struct construct *c = &t->cons[i];
      if (c->kind == CK_LOOP && c->cont == target && c->cont != c->header) {
         *is_continue = true;
         return i;
      }
      if ((c->kind == CK_LOOP || c->kind == CK_SWITCH) && c->merge == target) {
         *is_continue = false;
         return i;
      }
   }
   return -1;
}

/* BRK levels: breakable constructs between the innermost and construct k. */
static uint32_t break_levels(const struct sc_tx *t, int k)
{
   uint32_t levels = 0;
   for (int i = (int)t->depth - 1; i > k; i--) {
      if (t->cons[i].kind == CK_LOOP || t->cons[i].kind == CK_SWITCH)
         levels++;
   }
   return levels;
}

static uint32_t restore_label(const struct sc_tx *t)
{
   return t->depth ? t->cons[t->depth - 1].restore_label : t->exit_label;
}

/* Lanes leave constructs above index k (a BRK or CONT to construct k; a
 * RET leaves all of them: k = -1). */
static void escape_above(struct sc_tx *t, int k)
{
   for (int i = k + 1; i < (int)t->depth; i++)
      t->cons[i].escaped = true;
}

/* Closes the innermost construct after its closer was emitted: if lanes
 * left it for an outer one, none may be active now, and the code after
 * the closer is skipped up to the next closer out (see hw_isa.h). */
static void close_construct(struct sc_tx *t)
{
   bool escaped = t->cons[--t->depth].escaped;
   if (escaped && t->depth)
      sc_emit_flow(t, ISA_OP_JEZ, sc_none(), restore_label(t), 0);
}

/* Takes the branch from -> target for the active lanes. Returns true if
 * they stay on this path (target is where the region continues). */
static bool take_branch(struct sc_tx *t, uint32_t from, uint32_t target, uint32_t stop)
{
   emit_edge(t, from, target);
   if (target == stop) {
      /* The natural end of the region; a switch case falling through sets
       * its flag. */
      if (t->depth && t->cons[t->depth - 1].kind == CK_SELECTION &&
          t->cons[t->depth - 1].fallthrough.kind == SC_REG)
         sc_emit(t, ISA_OP_MOV, 0, t->cons[t->depth - 1].fallthrough, sc_imm(1), sc_none(), sc_none());
      return false;
   }
   bool cont;
   int k = exit_of(t, target, &cont);
   if (k >= 0) {
      if (cont)
         sc_emit_flow(t, ISA_OP_CONT, sc_imm(1), restore_label(t), 0);
      else
         sc_emit_flow(t, ISA_OP_BRK, sc_imm(1), restore_label(t), break_levels(t, k));
      escape_above(t, k);
      return false;
   }
   return true;
}

static struct sc_opnd negate(struct sc_tx *t, struct sc_opnd c)
{
   return sc_alu(t, ISA_OP_XOR, 0, c, sc_imm(1), sc_none());
}

/* A selection (IF/ELSE/ENDIF) whose sides are branches `then` and `other`. */
static void selection(struct sc_tx *t, uint32_t from, struct sc_opnd cond, uint32_t then,
                      uint32_t other, uint32_t merge)
{
   uint32_t else_label = sc_new_label(t), end_label = sc_new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = merge,
                                        .restore_label = else_label});
   sc_emit_flow(t, ISA_OP_IF, cond, else_label, 0);
   if (take_branch(t, from, then, merge))
      sc_region(t, then, merge);
   t->cons[t->depth - 1].restore_label = end_label;
   sc_place_label(t, else_label);
   /* An else side that goes straight to the merge, with no phi copies
    * to make, runs nothing: no ELSE (IF's jump lands on the ENDIF). */
   if (other != merge || has_phi_copies(t, from, merge)) {
      sc_emit_flow(t, ISA_OP_ELSE, sc_none(), end_label, 0);
      if (take_branch(t, from, other, merge))
         sc_region(t, other, merge);
   }
   sc_place_label(t, end_label);
   sc_emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
}

/* Whether the edge from -> to carries phi copies. */
static bool has_phi_copies(struct sc_tx *t, uint32_t from, uint32_t to)
{
   const struct sc_block *b = sc_block_of(t, to);
   for (uint32_t at = b->start + sc_len(t->m, b->start); at < b->term; at += sc_len(t->m, at)) {
      if (sc_op(t->m, at) != SpvOpPhi)
         continue;
      for (uint32_t k = 4; k < sc_len(t->m, at); k += 2) {
         if (t->m->words[at + k] == from)
            return true;
      }
   }
   return false;
}

/* A conditional branch with no selection merge: each target is an exit
 * (break, continue, the region's end) or at most one ordinary block.
 * Returns where the remaining lanes continue, or UINT32_MAX. */
static uint32_t unmerged_conditional(struct sc_tx *t, uint32_t from, struct sc_opnd cond,
                                     uint32_t a, uint32_t b, uint32_t stop)
{
   bool ca, cb;
   bool a_exit = a == stop || exit_of(t, a, &ca) >= 0;
   bool b_exit = b == stop || exit_of(t, b, &cb) >= 0;
   if (!a_exit && !b_exit)
      FAIL("invalid SPIR-V: conditional branch without a merge to two ordinary blocks");
   bool both = a_exit && b_exit;
   if (both && a != stop && b != stop) {
      /* Both sides leave: one selection. */
      uint32_t else_label = sc_new_label(t), end_label = sc_new_label(t);
      open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                           .restore_label = else_label});
      sc_emit_flow(t, ISA_OP_IF, cond, else_label, 0);
      take_branch(t, from, a, stop);
      t->cons[t->depth - 1].restore_label = end_label;
      sc_place_label(t, else_label);
      sc_emit_flow(t, ISA_OP_ELSE, sc_none(), end_label, 0);
      take_branch(t, from, b, stop);
      sc_place_label(t, end_label);
      sc_emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
      close_construct(t);
      return UINT32_MAX;
   }
   /* One side leaves; the others go on to the ordinary block, or end the
    * region (a do-while's latch: back to the header, or break). */
   uint32_t next = both ? stop : a_exit ? b : a;
   uint32_t exit_target = both ? (a == stop ? b : a) : a_exit ? a : b;
   struct sc_opnd leave = exit_target == a ? cond : negate(t, cond);
   bool is_cont;
   int k = exit_target == stop ? -1 : exit_of(t, exit_target, &is_cont);
   if (k >= 0 && !has_phi_copies(t, from, exit_target)) {
      /* A break or continue: BRK/CONT take the condition themselves (the
       * lanes where it holds leave; with none left, they jump to the
       * closer of the innermost construct, as the JEZ after an IF would). */
      if (is_cont)
         sc_emit_flow(t, ISA_OP_CONT, leave, restore_label(t), 0);
      else
         sc_emit_flow(t, ISA_OP_BRK, leave, restore_label(t), break_levels(t, k));
      escape_above(t, k);
      return take_branch(t, from, next, stop) ? next : UINT32_MAX;
   }
   uint32_t end_label = sc_new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                        .restore_label = end_label});
   sc_emit_flow(t, ISA_OP_IF, leave, end_label, 0);
   take_branch(t, from, exit_target, stop);
   sc_place_label(t, end_label);
   sc_emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
   return take_branch(t, from, next, stop) ? next : UINT32_MAX;
}

/* Case blocks of a switch in layout order. */
static int compare_blocks(const void *a, const void *b)
{
   int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
   return (x > y) - (x < y);
}

/* The selector compared (EQ or NE) with the literal at word k of the
 * OpSwitch at `at`: a 64-bit selector against both words of its literal. */
static struct sc_opnd case_compare(struct sc_tx *t, struct sc_opnd sel, uint32_t at, uint32_t k,
                                   enum isa_icmp cmp)
{
   if (sc_switch_literal_words(t, at) == 1)
      return sc_alu(t, ISA_OP_ICMP, cmp, sel, sc_imm(sc_arg(t, at, k)), sc_none());
   uint64_t literal = sc_arg(t, at, k) | (uint64_t)sc_arg(t, at, k + 1) << 32;
   struct sc_opnd d = sc_reg(sc_new_reg(t, 1, sc_opnd_uniform(t, sel)));
   sc_emit(t, ISA_OP_ICMP64, cmp, d, sel, sc_pair64(t, literal), sc_none());
   return d;
}

static void switch_construct(struct sc_tx *t, struct sc_block *blk, uint32_t merge)
{
   uint32_t at = blk->term, len = sc_len(t->m, at), lw = sc_switch_literal_words(t, at);
   /* An 8- or 16-bit selector's literals are extended as its type says
    * (SPIR-V 2.2.1: sign-extended for signed types, else zero). */
   struct sc_tinfo st = sc_scalar_at(t, sc_idp(t, sc_arg(t, at, 1))->type, 0);
   struct sc_opnd sel = sc_get_extended(t, sc_arg(t, at, 1), 0, st.is_signed);
   uint32_t deflt = sc_arg(t, at, 2);
   /* one per distinct target: as many as the instruction names, up to every
    * block (a switch may have hundreds of cases) */
   uint32_t cap = len < t->block_count ? len : t->block_count;
   int32_t *order = calloc(cap ? cap : 1, sizeof(*order));
   if (!order)
      FAIL("out of memory");
   sc_own(t, order);
   uint32_t n = 0;
   /* distinct targets, merge excluded; case k's literal is at k, its
    * target at k + lw */
   for (uint32_t k = 2; k + (k == 2 ? 0 : lw) < len; k += (k == 2 ? 1 : lw + 1)) {
      uint32_t target = k == 2 ? deflt : sc_arg(t, at, k + lw);
      if (target == merge)
         continue;
      int32_t bi = (int32_t)(sc_block_of(t, target) - t->blocks);
      bool seen = false;
      for (uint32_t i = 0; i < n; i++)
         seen |= order[i] == bi;
      if (!seen && n < cap)
         order[n++] = bi;
   }
   qsort(order, n, sizeof(order[0]), compare_blocks);
   uint32_t end_label = sc_new_label(t);
   open_construct(t, (struct construct){.kind = CK_SWITCH, .merge = merge, .restore_label = end_label});
   sc_emit(t, ISA_OP_SWITCH, 0, sc_none(), sc_none(), sc_none(), sc_none());
   struct sc_opnd ft = sc_reg(sc_new_reg(t, 1, false));
   struct sc_opnd taken = sc_reg(sc_new_reg(t, 1, false));
   sc_emit(t, ISA_OP_MOV, 0, ft, sc_imm(0), sc_none(), sc_none());
   sc_emit(t, ISA_OP_MOV, 0, taken, sc_imm(0), sc_none(), sc_none());
   /* Lanes whose selector matches no literal take the default. */
   struct sc_opnd is_default = sc_imm(1);
   for (uint32_t k = 3; k + lw < len; k += lw + 1)
      is_default = sc_alu(t, ISA_OP_AND, 0, is_default, case_compare(t, sel, at, k, ISA_ICMP_NE),
                       sc_none());
   for (uint32_t i = 0; i < n; i++) {
      uint32_t target = t->blocks[order[i]].label;
      uint32_t next = i + 1 < n ? t->blocks[order[i + 1]].label : merge;
      struct sc_opnd cond = ft;
      for (uint32_t k = 3; k + lw < len; k += lw + 1) {
         if (sc_arg(t, at, k + lw) == target)
            cond = sc_alu(t, ISA_OP_OR, 0, cond, case_compare(t, sel, at, k, ISA_ICMP_EQ), sc_none());
      }
      if (target == deflt)
         cond = sc_alu(t, ISA_OP_OR, 0, cond, is_default, sc_none());
      /* The header's phi copies run for the lanes the selector sends here,
       * and not for those falling through from the case before: they
       * already made their own edge's copies. */
      const struct sc_block *tb = sc_block_of(t, target);
      if (tb->first_inst > tb->start + sc_len(t->m, tb->start)) {
         struct sc_opnd sent = sc_alu(t, ISA_OP_AND, 0, cond, negate(t, ft), sc_none());
         uint32_t copied = sc_new_label(t);
         open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                              .restore_label = copied});
         sc_emit_flow(t, ISA_OP_IF, sent, copied, 0);
         emit_edge(t, blk->label, target);
         sc_place_label(t, copied);
         sc_emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
         close_construct(t);
      }
      uint32_t case_end = sc_new_label(t);
      open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = next,
                                           .restore_label = case_end, .fallthrough = ft});
      sc_emit_flow(t, ISA_OP_IF, cond, case_end, 0);
      sc_emit(t, ISA_OP_MOV, 0, ft, sc_imm(0), sc_none(), sc_none());
      sc_emit(t, ISA_OP_MOV, 0, taken, sc_imm(1), sc_none(), sc_none());
      sc_region(t, target, next);
      sc_place_label(t, case_end);
      sc_emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
      close_construct(t);
   }
   /* Lanes whose target is the merge itself took no case: their edge's
    * phi copies run under their own mask. */
   uint32_t skip = sc_new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                        .restore_label = skip});
   sc_emit_flow(t, ISA_OP_IF, negate(t, taken), skip, 0);
   emit_edge(t, blk->label, merge);
   sc_place_label(t, skip);
   sc_emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
   sc_place_label(t, end_label);
   sc_emit(t, ISA_OP_ENDSWITCH, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
   sc_disown(t, order);
}

/* X's instructions (the counter's load and compare): they dominate the
 * body and the merge, so code there may use what they define. */
static void counter_test(struct sc_tx *t, const struct sc_counted *c)
{
   for (uint32_t at = c->cond->first_inst; at < c->cond->term; at += sc_len(t->m, at)) {
      source_line(t, at);
      sc_instruction(t, at);
   }
}

/* The iterations one after the other, the counter a constant in each,
 * then X as on the loop's way out. The body's region runs inside a
 * construct of its own, so that what it takes for the innermost
 * construct (a switch case's fallthrough flag) is nobody's; its branches
 * reach no construct out of the loop. */
static void unroll(struct sc_tx *t, const struct sc_counted *c)
{
   if (t->depth == ISA_MAX_STACK)
      FAIL("control flow nested more than %u deep (SPIR-V's universal limit is 1023)",
           ISA_MAX_STACK);
   /* The counter's register: the variable's slot, or the phi's (the
    * preheader's edge copy made it). While the iterations run, the value
    * there is the iteration's constant, and emit_edge leaves the phi's
    * back-edge copy out. */
   struct sc_opnd *slot;
   uint32_t outer_phi = t->counter_phi;
   if (c->phi) {
      slot = &phi_value(t, c->phi, sc_idp(t, c->phi)->type)->comp[0];
      t->counter_phi = c->phi;
   } else {
      if (!t->slots[c->var])
         FAIL("internal: the counter variable %u has no registers", c->var);
      slot = &t->slots[c->var][0];
   }
   struct sc_opnd counter = *slot;
   t->cons[t->depth++] = (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                            .restore_label = UINT32_MAX};
   for (uint32_t i = 0; i < c->trips; i++) {
      *slot = sc_imm(c->value[i]);
      counter_test(t, c);
      emit_edge(t, c->cond->label, c->body);
      sc_region(t, c->body, c->cont);
      /* the SSA form's continue target does work of its own (often the
       * whole body) and ends in the back edge's copies */
      if (c->phi)
         sc_region(t, c->cont, c->header);
   }
   t->depth--;
   t->counter_phi = outer_phi;
   *slot = counter;
   sc_copy_scalar(t, counter, sc_imm(c->final), false);
   counter_test(t, c);
   emit_edge(t, c->cond->label, c->merge);
}

/* A loop whose header is block hb; returns its merge. */
static uint32_t loop_construct(struct sc_tx *t, struct sc_block *hb)
{
   const struct sc_counted *counted = t->counted[hb - t->blocks];
   if (counted) {
      unroll(t, counted);
      return sc_arg(t, hb->merge, 1);
   }
   uint32_t merge = sc_arg(t, hb->merge, 1), cont = sc_arg(t, hb->merge, 2);
   uint32_t top = sc_new_label(t), join = sc_new_label(t), end = sc_new_label(t);
   sc_emit(t, ISA_OP_LOOP, 0, sc_none(), sc_none(), sc_none(), sc_none());
   sc_place_label(t, top);
   open_construct(t, (struct construct){.kind = CK_LOOP, .merge = merge, .cont = cont,
                                        .header = hb->label, .restore_label = join});
   /* The body runs from the header to the continue target (or, for a
    * single-block loop, back to the header). */
   sc_region(t, hb->label, cont == hb->label ? UINT32_MAX : cont);
   sc_place_label(t, join);
   sc_emit_flow(t, ISA_OP_CONTJOIN, sc_none(), end, 0);
   t->cons[t->depth - 1].restore_label = end;
   if (cont != hb->label)
      sc_region(t, cont, hb->label);
   sc_place_label(t, end);
   sc_emit_flow(t, ISA_OP_ENDLOOP, sc_none(), top, 0);
   close_construct(t);
   return merge;
}

/* Follows the source line: OpLine, or DebugLine of
 * NonSemantic.Shader.DebugInfo.100 (whose line is a constant's id). */
static void source_line(struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   if (op == SpvOpLine && sc_len(t->m, at) >= 4) {
      t->line = sc_arg(t, at, 2);
   } else if (op == SpvOpNoLine) {
      t->line = 0;
   } else if (op == SpvOpExtInst && t->m->debug_info && sc_len(t->m, at) >= 5 &&
              sc_arg(t, at, 3) == t->m->debug_info) {
      uint32_t line;
      if (sc_arg(t, at, 4) == 103 && sc_len(t->m, at) >= 7 &&
          sc_const_u32(t, sc_arg(t, at, 6), &line))   /* DebugLine */
         t->line = line;
      else if (sc_arg(t, at, 4) == 104)   /* DebugNoLine */
         t->line = 0;
   }
}

/* Lowers blocks from `label` until control reaches `stop` (which the caller
 * handles) or leaves through a break, continue or return. */
void sc_region(struct sc_tx *t, uint32_t label, uint32_t stop)
{
   bool loop_header_done = false;
   while (label != stop && label != UINT32_MAX) {
      struct sc_block *b = sc_block_of(t, label);
      if (b->merge && sc_op(t->m, b->merge) == SpvOpLoopMerge && !loop_header_done &&
          !(t->depth && t->cons[t->depth - 1].kind == CK_LOOP &&
            t->cons[t->depth - 1].header == label)) {
         label = loop_construct(t, b);
         continue;
      }
      loop_header_done = false;
      for (uint32_t at = b->first_inst; at < b->term; at += sc_len(t->m, at)) {
         source_line(t, at);
         sc_instruction(t, at);
      }
      uint32_t at = b->term;
      switch (sc_op(t->m, at)) {
      case SpvOpBranch: {
         uint32_t target = sc_arg(t, at, 1);
         /* back edge of the innermost loop: the iteration's end */
         if (t->depth && t->cons[t->depth - 1].kind == CK_LOOP &&
             t->cons[t->depth - 1].header == target) {
            emit_edge(t, label, target);
            return;
         }
         label = take_branch(t, label, target, stop) ? target : UINT32_MAX;
         break;
      }
      case SpvOpBranchConditional: {
         uint32_t a = sc_arg(t, at, 2), c = sc_arg(t, at, 3);
         struct sc_opnd cond = sc_get1(t, sc_arg(t, at, 1), 0);
         bool back = t->depth && t->cons[t->depth - 1].kind == CK_LOOP &&
                     (t->cons[t->depth - 1].header == a || t->cons[t->depth - 1].header == c);
         if (a == c) {
            label = take_branch(t, label, a, stop) ? a : UINT32_MAX;
         } else if (back) {
            /* the loop's latch: lanes not going back break out */
            uint32_t header = t->cons[t->depth - 1].header;
            unmerged_conditional(t, label, cond, a, c, header);
            return;
         } else if (b->merge && sc_op(t->m, b->merge) == SpvOpSelectionMerge) {
            uint32_t merge = sc_arg(t, b->merge, 1);
            selection(t, label, cond, a, c, merge);
            label = merge;
         } else {
            label = unmerged_conditional(t, label, cond, a, c, stop);
         }
         break;
      }
      case SpvOpSwitch: {
         if (!b->merge || sc_op(t->m, b->merge) != SpvOpSelectionMerge)
            FAIL("invalid SPIR-V: OpSwitch without OpSelectionMerge");
         uint32_t merge = sc_arg(t, b->merge, 1);
         switch_construct(t, b, merge);
         label = merge;
         break;
      }
      case SpvOpReturn:
      case SpvOpReturnValue:
         sc_emit_flow(t, ISA_OP_RET, sc_imm(1), restore_label(t), 0);
         escape_above(t, -1);
         return;
      case SpvOpUnreachable:
         return;
      default:
         FAIL("unsupported terminator (opcode %u)", sc_op(t->m, at));
      }
   }
}

uint32_t sc_guard_begin(struct sc_tx *t, struct sc_opnd cond)
{
   uint32_t skip = sc_new_label(t);
   open_construct(t, (struct construct){.kind = CK_SELECTION, .merge = UINT32_MAX,
                                        .restore_label = skip});
   sc_emit_flow(t, ISA_OP_IF, cond, skip, 0);
   return skip;
}

void sc_guard_end(struct sc_tx *t, uint32_t label)
{
   sc_place_label(t, label);
   sc_emit(t, ISA_OP_ENDIF, 0, sc_none(), sc_none(), sc_none(), sc_none());
   close_construct(t);
}

void sc_lower_init(struct sc_tx *t)
{
   t->cons = malloc(ISA_MAX_STACK * sizeof(*t->cons));
   if (!t->cons)
      FAIL("out of memory");
}
