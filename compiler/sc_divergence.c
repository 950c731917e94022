/*
 * The divergence analysis: which SPIR-V values may differ between the
 * lanes of a warp (and go to vector registers) and which are warp-invariant
 * (uniform registers), which promoted variables may, and which blocks only
 * part of the lanes run. A fixpoint over the entry point, after the
 * control-flow graph (sc_cfg.c) and before translation, which reads
 * t->divergent, t->var_divergent and t->ctrl.
 */
#include "sc_tx.h"

#include <stdlib.h>
#include <string.h>

static bool builtin_divergent(uint32_t builtin)
{
   switch (builtin) {
   case SpvBuiltInLocalInvocationId: case SpvBuiltInLocalInvocationIndex:
   case SpvBuiltInGlobalInvocationId: case SpvBuiltInSubgroupLocalInvocationId:
   case SpvBuiltInSubgroupEqMask: case SpvBuiltInSubgroupGeMask: case SpvBuiltInSubgroupGtMask:
   case SpvBuiltInSubgroupLeMask: case SpvBuiltInSubgroupLtMask:
      return true;
   default:
      return false;
   }
}

/* The variable a pointer id ultimately points into (through chains). */
uint32_t sc_root_variable(const struct sc_tx *t, uint32_t id)
{
   for (int guard = 0; guard < 64 && id && id < t->m->bound; guard++) {
      const struct sc_id *d = &t->m->ids[id];
      if (d->opcode == SpvOpVariable)
         return id;
      if (d->opcode != SpvOpAccessChain && d->opcode != SpvOpInBoundsAccessChain &&
          d->opcode != SpvOpPtrAccessChain && d->opcode != SpvOpCopyObject)
         return 0;
      id = t->m->words[d->def + 3];
   }
   return 0;
}

/* Results that differ between lanes no matter their operands. */
static bool inherently_divergent(const struct sc_tx *t, uint32_t at)
{
   uint16_t op = sc_op(t->m, at);
   switch (op) {
   case SpvOpLoad: {
      uint32_t var = sc_root_variable(t, t->m->words[at + 3]);
      if (!var)
         return false;
      const struct sc_id *v = &t->m->ids[var];
      uint32_t storage = t->m->words[v->def + 3];
      if (storage == SpvStorageClassInput)
         return v->builtin && builtin_divergent(v->builtin - 1);
      /* Per-invocation memory holds per-invocation values, but a variable
       * kept in registers that only ever receives the same value in every
       * lane, in code every lane runs, holds warp-invariant values. */
      if (storage != SpvStorageClassFunction && storage != SpvStorageClassPrivate)
         return false;
      return !t->promote[var] || t->var_divergent[var];
   }
   case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement:
   case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin:
   case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd:
   case SpvOpAtomicOr: case SpvOpAtomicXor:
   case SpvOpGroupNonUniformElect: case SpvOpGroupNonUniformShuffle:
   case SpvOpGroupNonUniformShuffleXor: case SpvOpGroupNonUniformShuffleUp:
   case SpvOpGroupNonUniformShuffleDown: case SpvOpGroupNonUniformInverseBallot:
      return true;
   default:
      break;
   }
   if (op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor)
      return sc_len(t->m, at) > 4 && t->m->words[at + 4] != SpvGroupOperationReduce;
   if (op == SpvOpGroupNonUniformBallotBitCount)
      return t->m->words[at + 4] != SpvGroupOperationReduce;
   return false;
}

/* Results equal in every lane whatever their operands (subgroup-wide). */
static bool inherently_uniform(const struct sc_tx *t, uint32_t at)
{
   switch (sc_op(t->m, at)) {
   case SpvOpGroupNonUniformAll: case SpvOpGroupNonUniformAny: case SpvOpGroupNonUniformAllEqual:
   case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformBroadcastFirst:
   case SpvOpGroupNonUniformBallot:
      return true;
   default:
      break;
   }
   uint16_t op = sc_op(t->m, at);
   return op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor &&
          t->m->words[at + 4] == SpvGroupOperationReduce;
}

uint32_t sc_result_id(const struct sc_tx *t, uint32_t at)
{
   const struct sc_module *m = t->m;
   uint32_t len = sc_len(m, at);
   for (uint32_t k = 1; k < len && k < 3; k++) {
      uint32_t id = m->words[at + k];
      if (id < m->bound && m->ids[id].def == at)
         return id;
   }
   return 0;
}

static bool any_operand_divergent(const struct sc_tx *t, uint32_t at, uint32_t first)
{
   uint32_t len = sc_len(t->m, at);
   for (uint32_t k = first; k < len; k++) {
      uint32_t id = t->m->words[at + k];
      if (id < t->m->bound && t->divergent[id])
         return true;
   }
   return false;
}

static bool branch_divergent(const struct sc_tx *t, const struct sc_block *b)
{
   uint16_t op = sc_op(t->m, b->term);
   if (op != SpvOpBranchConditional && op != SpvOpSwitch)
      return false;
   uint32_t id = t->m->words[b->term + 1];
   return id < t->m->bound && t->divergent[id];
}

/* Whether lanes that part at the divergent branch of block bi can leave the
 * loop headed by block h (whose blocks `in` marks) in different
 * iterations: a path from the branch reaches outside the loop before the
 * lanes rejoin. They rejoin at the branch's own merge block, at the loop's
 * header or continue target, and, for a branch without a merge (a break or
 * continue), at any construct's merge or continue target. */
static bool leaves_loop(struct sc_tx *t, uint32_t bi, uint32_t h, const uint8_t *in, uint8_t *seen,
                        uint32_t *stack)
{
   const struct sc_block *b = &t->blocks[bi], *hb = &t->blocks[h];
   uint32_t cont = sc_arg(t, hb->merge, 2), own_merge = b->merge ? sc_arg(t, b->merge, 1) : 0;
   uint32_t sp = sc_successors(t, b, stack, t->block_count), marked = 0;
   bool leaves = false;
   while (sp && !leaves) {
      uint32_t i = stack[--sp];
      const struct sc_block *x = &t->blocks[i];
      sc_work(t, 1);
      if (!in[i]) {
         leaves = true;
         break;
      }
      if (seen[i] || i == h || x->label == cont || x->label == own_merge ||
          (!own_merge && t->join[i]))
         continue;
      seen[i] = 1;
      t->visited[marked++] = i;
      /* A loop nested in h is left only through its merge (a break
       * leaves the innermost loop alone): its body is skipped, which
       * keeps this walk from growing with the nesting below. */
      if (x->merge && sc_op(t->m, x->merge) == SpvOpLoopMerge) {
         uint32_t merge = sc_arg(t, x->merge, 1);
         if (merge < t->m->bound && t->block_of[merge] >= 0 && sp < t->block_count)
            stack[sp++] = (uint32_t)t->block_of[merge];
         continue;
      }
      uint32_t next[256];
      uint32_t n = sc_successors(t, x, next, 256);
      for (uint32_t k = 0; k < n && sp < t->block_count; k++)
         stack[sp++] = next[k];
   }
   sc_unmark(seen, t->visited, marked);
   return leaves;
}

/* Temporal divergence: lanes that leave a loop in different iterations
 * carry out different iterations' values, so every result the loop's
 * blocks (in) define and code outside them uses is divergent. Inside the
 * loop the lanes still in it run each iteration together, so a value
 * uniform within an iteration (an address, a push constant, a counter
 * derived from uniform values) stays uniform there. Any operand word is
 * taken for an id: a literal mistaken for one only costs a uniform
 * register. */
static bool mark_live_out(struct sc_tx *t, const uint8_t *in)
{
   const struct sc_module *m = t->m;
   memset(t->used_outside, 0, m->bound);
   sc_work(t, m->bound + (t->m->function_end - t->m->function_start));
   for (uint32_t i = 0; i < t->block_count; i++) {
      if (in[i])
         continue;
      for (uint32_t at = t->blocks[i].start; at <= t->blocks[i].term; at += sc_len(m, at)) {
         for (uint32_t k = 1; k < sc_len(m, at); k++) {
            if (m->words[at + k] < m->bound)
               t->used_outside[m->words[at + k]] = 1;
         }
      }
   }
   bool changed = false;
   for (uint32_t i = 0; i < t->block_count; i++) {
      if (!in[i])
         continue;
      for (uint32_t at = t->blocks[i].start; at <= t->blocks[i].term; at += sc_len(m, at)) {
         uint32_t id = sc_result_id(t, at);
         if (id && !t->divergent[id] && t->used_outside[id] && sc_op(m, at) != SpvOpVariable) {
            t->divergent[id] = 1;
            changed = true;
         }
      }
   }
   return changed;
}

/* Other joins where lanes arrive from different paths: a switch case
 * that a divergent selector sends some lanes to while others fall through
 * from the case before, and a continue target reached both by the body's
 * end and by a continue, in a loop with a divergent branch. */
static bool divergent_join(struct sc_tx *t, const struct sc_block *b)
{
   uint32_t bi = (uint32_t)(b - t->blocks);
   if (t->preds[bi] < 2)
      return false;
   for (uint32_t k = t->pred_first[bi]; k < t->pred_first[bi + 1]; k++) {
      const struct sc_block *h = &t->blocks[t->pred_list[k]];
      sc_work(t, 1);
      if (sc_op(t->m, h->term) == SpvOpSwitch && branch_divergent(t, h))
         return true;
   }
   uint32_t l = t->cont_header[bi];
   if (l == UINT32_MAX || l == bi)
      return false;
   uint8_t *in = calloc(t->block_count, 1);
   if (!in)
      FAIL("out of memory");
   uint32_t n = sc_loop_blocks(t, l, in);
   free(in);
   bool divergent = false;
   for (uint32_t m = 0; m < n && !divergent; m++)
      divergent = branch_divergent(t, &t->blocks[t->members[m]]);
   sc_work(t, n);
   return divergent;
}

/* Where the lanes that part at block h's divergent branch rejoin, besides
 * h's own merge: the merge blocks (1 in stop) and continue targets (2) of
 * the loops around h, where a break or continue waits. stop[] must be
 * clear; the same call with `clear` clears it again. */
static void rejoin_points(struct sc_tx *t, uint32_t h, uint8_t *stop, bool clear)
{
   uint32_t l = t->loop_of[h] == h ? t->loop_parent[h] : t->loop_of[h];
   for (; l != UINT32_MAX; l = t->loop_parent[l]) {
      const struct sc_block *lb = &t->blocks[l];
      sc_work(t, 1);
      for (uint32_t k = 1; k <= 2; k++) {
         uint32_t label = sc_arg(t, lb->merge, k);
         /* the innermost loop's meaning of a label wins */
         if (label < t->m->bound && t->block_of[label] >= 0 && (clear || !stop[t->block_of[label]]))
            stop[t->block_of[label]] = clear ? 0 : (uint8_t)k;
      }
   }
   if (t->blocks[h].merge) {
      uint32_t label = sc_arg(t, t->blocks[h].merge, 1);
      if (label < t->m->bound && t->block_of[label] >= 0 && (clear || !stop[t->block_of[label]]))
         stop[t->block_of[label]] = clear ? 0 : 1;
   }
}

/* Marks ctrl for the blocks reachable from the `count` blocks on t->stack
 * without entering a stop block. Returns whether anything changed; sets
 * *continued when a continue target stopped the walk. */
static bool mark_reached(struct sc_tx *t, uint32_t sp, const uint8_t *stop, uint8_t *seen,
                         bool *continued)
{
   bool changed = false;
   uint32_t marked = 0;
   while (sp) {
      uint32_t i = t->stack[--sp];
      sc_work(t, 1);
      if (stop[i] == 2)
         *continued = true;
      if (seen[i] || stop[i])
         continue;
      seen[i] = 1;
      t->visited[marked++] = i;
      changed |= !t->ctrl[i];
      t->ctrl[i] = 1;
      uint32_t next[256];
      uint32_t n = sc_successors(t, &t->blocks[i], next, 256);
      for (uint32_t k = 0; k < n && sp < t->block_count; k++)
         t->stack[sp++] = next[k];
   }
   sc_unmark(seen, t->visited, marked);
   return changed;
}

/* Blocks that only part of the lanes run: those a divergent branch leads
 * to before its lanes rejoin and, when some of them continue the loop
 * around, the rest of that iteration after the branch's merge (up to the
 * continue target, where the continuing lanes wait). A promoted variable
 * written there differs between lanes afterwards: the others kept the old
 * value. A branch that leaves a loop makes the loop's later iterations
 * partial too; the temporal rule in divergence_pass marks those. */
static bool mark_divergent_control(struct sc_tx *t, uint8_t *stop, uint8_t *seen)
{
   bool changed = false;
   sc_work(t, t->block_count);
   for (uint32_t h = 0; h < t->block_count; h++) {
      const struct sc_block *hb = &t->blocks[h];
      if (!branch_divergent(t, hb))
         continue;
      rejoin_points(t, h, stop, false);
      bool continued = false;
      changed |= mark_reached(t, sc_successors(t, hb, t->stack, t->block_count), stop, seen,
                              &continued);
      uint32_t merge = hb->merge ? sc_arg(t, hb->merge, 1) : 0;
      if (continued && merge < t->m->bound && t->block_of[merge] >= 0 &&
          stop[t->block_of[merge]] != 2) {
         uint32_t mi = (uint32_t)t->block_of[merge];
         changed |= !t->ctrl[mi];
         t->ctrl[mi] = 1;
         changed |= mark_reached(t, sc_successors(t, &t->blocks[mi], t->stack, t->block_count),
                                 stop, seen, &continued);
      }
      rejoin_points(t, h, stop, true);
   }
   return changed;
}

/* Promoted variables that may differ between lanes: written with a
 * divergent value, or in a block only part of the lanes run. */
static bool mark_divergent_variables(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   bool changed = false;
   sc_work(t, m->function_end - m->function_start);
   for (uint32_t i = 0; i < t->block_count; i++) {
      for (uint32_t at = t->blocks[i].start; at <= t->blocks[i].term; at += sc_len(m, at)) {
         uint16_t op = sc_op(m, at);
         uint32_t ptr = 0;
         bool value_divergent = false;
         if (op == SpvOpStore && sc_len(m, at) >= 3) {
            ptr = m->words[at + 1];
            value_divergent = any_operand_divergent(t, at, 1);
         } else if (op == SpvOpExtInst && sc_len(m, at) > 6) {
            ptr = m->words[at + 6];   /* modf, frexp: the second result */
            value_divergent = any_operand_divergent(t, at, 5);
         }
         uint32_t var = ptr ? sc_root_variable(t, ptr) : 0;
         if (var && t->promote[var] && !t->var_divergent[var] &&
             (value_divergent || t->ctrl[i])) {
            t->var_divergent[var] = 1;
            changed = true;
         }
      }
   }
   return changed;
}

/* One pass of the rules; true if anything changed. */
static bool divergence_pass(struct sc_tx *t, uint8_t *scratch)
{
   bool changed = false;
   const struct sc_module *m = t->m;
   struct sc_block *b = NULL;   /* the block the scan is in */
   for (uint32_t at = m->function_start; at < m->function_end; at += sc_len(m, at)) {
      sc_work(t, 1);
      if (sc_op(m, at) == SpvOpLabel && sc_len(m, at) >= 2 && m->words[at + 1] < m->bound &&
          t->block_of[m->words[at + 1]] >= 0)
         b = &t->blocks[t->block_of[m->words[at + 1]]];
      uint32_t id = sc_result_id(t, at);
      if (!id || t->divergent[id] || inherently_uniform(t, at))
         continue;
      bool d = inherently_divergent(t, at) || any_operand_divergent(t, at, 3);
      if (!d && sc_op(m, at) == SpvOpPhi && b && at > b->start && at < b->term) {
         /* A phi where divergent control flow joins differs between lanes:
          * at the merge of a divergent branch, or another join. */
         uint32_t h = t->merge_header[b - t->blocks];
         d = h != UINT32_MAX && branch_divergent(t, &t->blocks[h]);
         if (!d)
            d = divergent_join(t, b);
      }
      if (d) {
         t->divergent[id] = 1;
         changed = true;
      }
   }
   /* Loops whose lanes may leave at different iterations: what they carry
    * out differs between lanes (temporal divergence), and only part of the
    * lanes run their later iterations. */
   for (uint32_t h = 0; h < t->block_count; h++) {
      const struct sc_block *hb = &t->blocks[h];
      if (!hb->merge || sc_op(m, hb->merge) != SpvOpLoopMerge)
         continue;
      uint32_t count = sc_loop_blocks(t, h, scratch);
      bool divergent_exit = false;
      sc_work(t, count);
      for (uint32_t k = 0; k < count && !divergent_exit; k++) {
         uint32_t i = t->members[k];
         divergent_exit = branch_divergent(t, &t->blocks[i]) &&
                          leaves_loop(t, i, h, scratch, scratch + t->block_count, t->stack);
      }
      if (divergent_exit) {
         changed |= mark_live_out(t, scratch);
         for (uint32_t k = 0; k < count; k++) {
            uint32_t i = t->members[k];
            changed |= !t->ctrl[i];
            t->ctrl[i] = 1;
         }
         /* and so do the phis where it ends */
         uint32_t merge = sc_arg(t, hb->merge, 1);
         const struct sc_block *mb = sc_block_of(t, merge);
         for (uint32_t at = mb->start; at < mb->term; at += sc_len(m, at)) {
            uint32_t id = sc_op(m, at) == SpvOpPhi ? sc_result_id(t, at) : 0;
            if (id && !t->divergent[id]) {
               t->divergent[id] = 1;
               changed = true;
            }
         }
      }
      sc_unmark(scratch, t->members, count);
   }
   changed |= mark_divergent_control(t, scratch + t->block_count, scratch + 2 * t->block_count);
   return changed | mark_divergent_variables(t);
}

void sc_divergence(struct sc_tx *t)
{
   uint32_t n = t->block_count ? t->block_count : 1;
   t->divergent = calloc(t->m->bound, 1);
   uint8_t *scratch = calloc(3 * n, 1);   /* kept clear between uses */
   t->used_outside = malloc(t->m->bound ? t->m->bound : 1);
   t->var_divergent = calloc(t->m->bound ? t->m->bound : 1, 1);
   t->ctrl = calloc(n, 1);
   if (!t->divergent || !scratch || !t->used_outside || !t->var_divergent || !t->ctrl) {
      free(scratch);
      FAIL("out of memory");
   }
   t->pass = SC_PASS_DIVERGENCE;
   /* Each pass only marks more ids and blocks divergent, so this ends;
    * stopping earlier would leave values uniform that are not. */
   while (divergence_pass(t, scratch))
      ;
   t->pass = SC_PASS_TRANSLATE;
   free(scratch);
}
