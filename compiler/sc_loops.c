/*
 * Loop analysis: counted loops, from the SSA form or from a promoted
 * variable, with their trip counts and the counter's value in each
 * iteration (see struct sc_counted). The lowering of control flow
 * (sc_lower_cf.c) unrolls what this finds.
 */
#include "sc_tx.h"

#include <stdlib.h>

/*
 * A loop that counts an integer induction variable from a constant, by a
 * constant step, to a constant bound runs a number of iterations known at
 * compile time. When they are few and the body small, it is translated
 * once per iteration with the counter a constant: addresses and
 * conditions built from it fold (a tile's k-th element is an offset), and
 * the loop's compare, branch and increment go.
 *
 * The induction variable is found in either of the forms SPIR-V carries
 * it in, so that a shader runs the same code however it was built:
 * - an SSA value (glslc -O, spirv-opt): an OpPhi of the header whose
 *   value on entry is a constant and whose value on the back edge is the
 *   phi stepped by a constant; the header (or its one successor) compares
 *   it with a constant and branches into the body or out to the merge:
 *     H: %i = OpPhi <init> P %n C; ... %c = <compare> %i <bound>
 *        OpLoopMerge M C; OpBranchConditional %c B M    (or %c M B)
 *     ... %n = <step> %i <const> (anywhere the back edge passes)
 *     C: ... OpBranch H
 * - a promoted Function variable (glslc without -O, which the driver's
 *   default path translates as is):
 *     P: ... OpStore %i <init>; OpBranch H
 *     H: OpLoopMerge M C; OpBranch X
 *     X: %a = OpLoad %i; %c = <compare> %a <bound>; OpBranchConditional %c B M
 *     B..: the body, ending in the one branch to C
 *     C: %b = OpLoad %i; %d = <step> %b <const>; OpStore %i %d; OpBranch H
 * In both, nothing else leaves the loop, returns, breaks or continues (so
 * the body is a region from B to C of the kind selection() lowers).
 */
#define UNROLL_BUDGET 320u       /* SPIR-V instructions, all copies of the body together */

/* The instructions of block b other than OpLine/OpNoLine and its merge
 * instruction, up to max: their word offsets in at[]; returns how many
 * (max + 1 if there are more). */
static uint32_t plain_instructions(const struct sc_tx *t, const struct sc_block *b, uint32_t *at,
                                   uint32_t max)
{
   uint32_t n = 0;
   for (uint32_t w = b->first_inst; w < b->term && n <= max; w += sc_len(t->m, w)) {
      uint16_t op = sc_op(t->m, w);
      if (op == SpvOpLine || op == SpvOpNoLine || w == b->merge)
         continue;
      if (n < max)
         at[n] = w;
      n++;
   }
   return n;
}

static bool has_phis(const struct sc_tx *t, const struct sc_block *b)
{
   return b->first_inst != b->start + sc_len(t->m, b->start);
}

/* `%r = <op> %x <constant>`: op, x and the constant, if `at` is that. */
static bool op_with_constant(const struct sc_tx *t, uint32_t at, uint16_t *op, uint32_t *x,
                             uint32_t *k)
{
   if (sc_len(t->m, at) != 5)
      return false;
   *op = sc_op(t->m, at);
   *x = sc_arg(t, at, 3);
   return sc_const_u32(t, sc_arg(t, at, 4), k);
}

static bool compare_holds(uint16_t op, uint32_t a, uint32_t b)
{
   switch (op) {
   case SpvOpULessThan: return a < b;
   case SpvOpULessThanEqual: return a <= b;
   case SpvOpUGreaterThan: return a > b;
   case SpvOpUGreaterThanEqual: return a >= b;
   case SpvOpSLessThan: return (int32_t)a < (int32_t)b;
   case SpvOpSLessThanEqual: return (int32_t)a <= (int32_t)b;
   case SpvOpSGreaterThan: return (int32_t)a > (int32_t)b;
   case SpvOpSGreaterThanEqual: return (int32_t)a >= (int32_t)b;
   case SpvOpINotEqual: return a != b;
   default: return false;
   }
}

static bool is_counter_compare(uint16_t op)
{
   return op >= SpvOpINotEqual && op <= SpvOpSLessThanEqual;   /* != and the orderings */
}

/* The counter after one step, or false for a step this does not know. */
static bool step_value(uint16_t op, uint32_t v, uint32_t k, uint32_t *out)
{
   switch (op) {
   case SpvOpIAdd: *out = v + k; return true;
   case SpvOpISub: *out = v - k; return true;
   case SpvOpIMul: *out = v * k; return true;
   case SpvOpShiftLeftLogical: *out = k < 32 ? v << k : 0; return k < 32;
   case SpvOpShiftRightLogical: *out = k < 32 ? v >> k : 0; return k < 32;
   default: return false;
   }
}

/* Whether `at` writes promoted variable var (a store, or modf/frexp's
 * second result). */
static bool writes_variable(const struct sc_tx *t, uint32_t at, uint32_t var)
{
   uint16_t op = sc_op(t->m, at);
   if (op == SpvOpStore)
      return sc_root_variable(t, sc_arg(t, at, 1)) == var;
   return op == SpvOpExtInst && sc_len(t->m, at) > 6 && sc_root_variable(t, sc_arg(t, at, 6)) == var;
}

/* The counter's value on entry: the last store to it in the block that
 * enters the loop (the header's one predecessor besides C). */
static bool entry_value(struct sc_tx *t, const struct sc_block *hb, uint32_t cont, uint32_t var,
                        uint32_t *init)
{
   const struct sc_block *pre = NULL;
   uint32_t hi = (uint32_t)(hb - t->blocks);
   for (uint32_t k = t->pred_first[hi]; k < t->pred_first[hi + 1]; k++) {
      const struct sc_block *p = &t->blocks[t->pred_list[k]];
      sc_work(t, 1);
      if (p->label == cont)
         continue;
      if (pre || sc_op(t->m, p->term) != SpvOpBranch)
         return false;
      pre = p;
   }
   uint32_t store = 0;
   for (uint32_t at = pre ? pre->first_inst : 0; pre && at < pre->term; at += sc_len(t->m, at)) {
      if (writes_variable(t, at, var))
         store = at;
   }
   return store && sc_op(t->m, store) == SpvOpStore && sc_const_u32(t, sc_arg(t, store, 2), init);
}

/* Whether the loop's blocks (in) keep to the shape above: only X leaves
 * (to merge), one branch goes to C, nothing but C writes var, no block
 * returns or ends the invocation, every merge block inside is in the loop
 * (a break or continue would leave one unreachable), and the body is
 * small enough for trips copies. */
static bool plain_body(struct sc_tx *t, const uint8_t *in, uint32_t count, const struct sc_counted *c,
                       uint32_t h, uint32_t merge)
{
   uint32_t to_cont = 0, size = 0;
   for (uint32_t m = 0; m < count; m++) {
      uint32_t i = t->members[m];
      const struct sc_block *b = &t->blocks[i];
      sc_work(t, 1);
      uint16_t term = sc_op(t->m, b->term);
      if (term != SpvOpBranch && term != SpvOpBranchConditional && term != SpvOpSwitch)
         return false;
      uint32_t succ[256], n = sc_successors(t, b, succ, 256);
      for (uint32_t k = 0; k < n; k++) {
         uint32_t label = t->blocks[succ[k]].label;
         if ((label == merge && b != c->cond) || (succ[k] == h && b->label != c->cont))
            return false;
         to_cont += label == c->cont;
      }
      if (b->merge && i != h) {
         uint32_t mb = sc_arg(t, b->merge, 1);
         if (mb >= t->m->bound || t->block_of[mb] < 0 || !in[t->block_of[mb]])
            return false;
      }
      for (uint32_t at = b->first_inst; at < b->term; at += sc_len(t->m, at)) {
         if (c->var && b->label != c->cont && writes_variable(t, at, c->var))
            return false;
         /* the SSA form translates every block of the loop per iteration;
          * the variable form all but the header, X and C */
         size += c->phi || (i != h && b != c->cond && b->label != c->cont);
      }
   }
   return to_cont == 1 && (uint64_t)size * c->trips <= UNROLL_BUDGET;
}

/* The iterations: the counter from init while the compare holds. */
static bool count_trips(struct sc_counted *c, uint16_t cmp, uint32_t bound, uint16_t step,
                        uint32_t k, uint32_t init)
{
   uint32_t v = init;
   for (c->trips = 0; compare_holds(cmp, v, bound) != c->exit_on_true; c->trips++) {
      if (c->trips == SC_UNROLL_TRIPS)
         return false;
      c->value[c->trips] = v;
      if (!step_value(step, v, k, &v))
         return false;
   }
   c->final = v;
   return true;
}

/* The variable form's counter: X loads and compares it, C steps it. */
static bool counted_variable(struct sc_tx *t, const struct sc_block *hb, struct sc_counted *c,
                             uint32_t merge, uint16_t *cmp, uint32_t *bound, uint16_t *step,
                             uint32_t *k, uint32_t *init)
{
   uint32_t at[4], x;
   c->cond = sc_block_of(t, sc_arg(t, hb->term, 1));
   const struct sc_block *cb = sc_block_of(t, c->cont);
   /* X: load, compare, branch on to B or out to M */
   if (c->cond == hb || has_phis(t, c->cond) || c->cond->merge ||
       plain_instructions(t, c->cond, at, 2) != 2 || sc_op(t->m, at[0]) != SpvOpLoad ||
       sc_op(t->m, c->cond->term) != SpvOpBranchConditional ||
       sc_arg(t, c->cond->term, 1) != sc_arg(t, at[1], 2) || sc_arg(t, c->cond->term, 3) != merge)
      return false;
   c->var = sc_arg(t, at[0], 3);
   c->body = sc_arg(t, c->cond->term, 2);
   if (c->var >= t->m->bound)
      return false;
   if (!op_with_constant(t, at[1], cmp, &x, bound) || x != sc_arg(t, at[0], 2) ||
       !is_counter_compare(*cmp) || sc_idp(t, c->var)->opcode != SpvOpVariable ||
       !t->promote[c->var])
      return false;
   struct sc_tinfo vt = sc_type_of(t, sc_type_of(t, sc_idp(t, c->var)->type).elem);
   if (vt.kind != SC_TK_INT || vt.width != 32)
      return false;
   /* C: load, step, store back, to the header */
   if (has_phis(t, cb) || plain_instructions(t, cb, at, 3) != 3 ||
       sc_op(t->m, at[0]) != SpvOpLoad || sc_arg(t, at[0], 3) != c->var ||
       !op_with_constant(t, at[1], step, &x, k) || x != sc_arg(t, at[0], 2) ||
       sc_op(t->m, at[2]) != SpvOpStore || sc_arg(t, at[2], 1) != c->var ||
       sc_arg(t, at[2], 2) != sc_arg(t, at[1], 2) || sc_op(t->m, cb->term) != SpvOpBranch)
      return false;
   return entry_value(t, hb, c->cont, c->var, init);
}

/* The compare a <op> b with a constant on one side: the other side, the
 * constant and the comparison as if the variable side were first. */
static bool compare_with_constant(const struct sc_tx *t, uint32_t at, uint16_t *cmp, uint32_t *x,
                                  uint32_t *bound)
{
   static const uint16_t mirrored[][2] = {
      {SpvOpULessThan, SpvOpUGreaterThan}, {SpvOpULessThanEqual, SpvOpUGreaterThanEqual},
      {SpvOpSLessThan, SpvOpSGreaterThan}, {SpvOpSLessThanEqual, SpvOpSGreaterThanEqual}};
   if (sc_len(t->m, at) != 5 || !is_counter_compare(sc_op(t->m, at)))
      return false;
   *cmp = sc_op(t->m, at);
   if (op_with_constant(t, at, cmp, x, bound))
      return true;
   if (!sc_const_u32(t, sc_arg(t, at, 3), bound))
      return false;
   *x = sc_arg(t, at, 4);
   for (uint32_t i = 0; i < sizeof(mirrored) / sizeof(mirrored[0]); i++) {
      if (mirrored[i][0] == *cmp || mirrored[i][1] == *cmp) {
         *cmp = mirrored[i][mirrored[i][0] == *cmp];
         break;
      }
   }
   return true;
}

/* The SSA form's counter: a phi of the header, tested in the header or
 * its successor X, stepped on the back edge from C. */
static bool counted_phi(struct sc_tx *t, const struct sc_block *hb, struct sc_counted *c, uint32_t merge,
                        uint16_t *cmp, uint32_t *bound, uint16_t *step, uint32_t *k,
                        uint32_t *init)
{
   uint32_t at[2], x;
   c->cond = hb;
   if (sc_op(t->m, hb->term) == SpvOpBranch) {
      c->cond = sc_block_of(t, sc_arg(t, hb->term, 1));
      if (c->cond == hb || has_phis(t, c->cond) || c->cond->merge ||
          plain_instructions(t, hb, at, 1) != 0)
         return false;
   }
   const struct sc_block *x_b = c->cond;
   if (sc_op(t->m, x_b->term) != SpvOpBranchConditional)
      return false;
   uint32_t yes = sc_arg(t, x_b->term, 2), no = sc_arg(t, x_b->term, 3);
   c->exit_on_true = yes == merge;
   c->body = c->exit_on_true ? no : yes;
   uint32_t out = c->exit_on_true ? yes : no;
   if (out != merge || c->body == merge || c->body == hb->label)
      return false;
   const struct sc_id *cond = sc_idp(t, sc_arg(t, x_b->term, 1));
   if (!compare_with_constant(t, cond->def, cmp, &x, bound))
      return false;
   /* the compared value: a phi of the header, 32-bit, entered with a
    * constant from outside and stepped on C's back edge */
   const struct sc_id *phi = sc_idp(t, x);
   if (phi->opcode != SpvOpPhi || phi->def < hb->start || phi->def >= hb->first_inst ||
       sc_len(t->m, phi->def) != 7)
      return false;
   struct sc_tinfo pt = sc_type_of(t, phi->type);
   if (pt.kind != SC_TK_INT || pt.width != 32)
      return false;
   uint32_t next = 0;
   bool have_init = false;
   for (uint32_t i = 3; i + 1 < 7; i += 2) {
      uint32_t value = sc_arg(t, phi->def, i), from = sc_arg(t, phi->def, i + 1);
      if (from == c->cont)
         next = value;
      else
         have_init = sc_const_u32(t, value, init);
   }
   if (!next || !have_init || sc_op(t->m, sc_block_of(t, c->cont)->term) != SpvOpBranch)
      return false;
   const struct sc_id *nd = sc_idp(t, next);
   uint32_t y;
   if (!op_with_constant(t, nd->def, step, &y, k) || y != x)
      return false;
   c->phi = x;
   return true;
}

/* Whether the loop headed by hb is a counted loop to unroll (see above). */
/* Whether the loop headed by hb is a counted loop to unroll (see above);
 * in: scratch marks, one per block, clear. */
static bool counted_loop_found(struct sc_tx *t, const struct sc_block *hb, struct sc_counted *c,
                               uint8_t *in)
{
   uint32_t merge = sc_arg(t, hb->merge, 1);
   *c = (struct sc_counted){.header = hb->label, .cont = sc_arg(t, hb->merge, 2), .merge = merge};
   if (c->cont == hb->label)
      return false;
   uint16_t cmp, step;
   uint32_t bound, k, init;
   bool phi_form = has_phis(t, hb);
   if (phi_form ? !counted_phi(t, hb, c, merge, &cmp, &bound, &step, &k, &init)
                : (plain_instructions(t, hb, (uint32_t[1]){0}, 1) != 0 ||
                   sc_op(t->m, hb->term) != SpvOpBranch ||
                   !counted_variable(t, hb, c, merge, &cmp, &bound, &step, &k, &init)))
      return false;
   if (!count_trips(c, cmp, bound, step, k, init))
      return false;
   uint32_t n = sc_loop_blocks(t, (uint32_t)(hb - t->blocks), in);
   bool ok = plain_body(t, in, n, c, (uint32_t)(hb - t->blocks), merge);
   sc_unmark(in, t->members, n);
   return ok;
}

void sc_find_counted_loops(struct sc_tx *t)
{
   t->pass = SC_PASS_UNROLL;
   t->counted = calloc(t->block_count, sizeof(*t->counted));
   if (!t->counted)
      FAIL("out of memory");
   /* owned: malformed input fails the compile inside the walk, and the
    * translator's clean-up frees what it owns */
   uint8_t *in = calloc(t->block_count ? t->block_count : 1, 1);
   if (!in)
      FAIL("out of memory");
   sc_own(t, in);
   struct sc_counted c;
   for (uint32_t i = 0; i < t->block_count; i++) {
      const struct sc_block *hb = &t->blocks[i];
      sc_work(t, 1);
      if (!hb->merge || sc_op(t->m, hb->merge) != SpvOpLoopMerge || !counted_loop_found(t, hb, &c, in))
         continue;
      t->counted[i] = malloc(sizeof(c));
      if (!t->counted[i])
         FAIL("out of memory");
      *t->counted[i] = c;
   }
   sc_disown(t, in);
   t->pass = SC_PASS_TRANSLATE;
}
