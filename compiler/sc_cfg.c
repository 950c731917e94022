/*
 * The control-flow graph of the entry point, for the translator's passes
 * (see sc_tx.h): successors, predecessor lists, the header each merge
 * block and continue target belongs to, the blocks of each loop, and the
 * loop forest. Built once per translation, so that the passes asking of
 * it (divergence, counted loops) cost what they visit, never the
 * function's size per question.
 */
#include "sc_tx.h"

#include <stdlib.h>
#include <string.h>

uint32_t sc_successors(const struct sc_tx *t, const struct sc_block *b, uint32_t *out, uint32_t max)
{
   sc_work(t, 1);
   uint32_t at = b->term, len = sc_len(t->m, at), first = 0, n = 0;
   switch (sc_op(t->m, at)) {
   case SpvOpBranch: first = 1; len = len < 2 ? len : 2; break;
   case SpvOpBranchConditional: first = 2; len = len < 4 ? len : 4; break;
   case SpvOpSwitch: first = 2; break;
   default: len = 0; break;
   }
   for (uint32_t k = first; k < len && n < max; k++) {
      if (sc_op(t->m, at) == SpvOpSwitch && !sc_switch_target(t, at, k))
         continue;   /* a literal, not a target */
      uint32_t target = t->m->words[at + k];
      if (target < t->m->bound && t->block_of[target] >= 0)
         out[n++] = (uint32_t)t->block_of[target];
   }
   return n;
}

/* The blocks of the loop headed by block h: reachable from it without
 * passing its merge. Marks them in in[], which must be clear, and lists
 * them in t->members; returns how many. The caller clears in[] with
 * sc_unmark() when done, so that a walk costs the loop's size, not the
 * function's. */
uint32_t sc_loop_blocks(struct sc_tx *t, uint32_t h, uint8_t *in)
{
   uint32_t merge = sc_arg(t, t->blocks[h].merge, 1);
   uint32_t *list = t->members, n = 0, sp = 0;
   in[h] = 1;
   list[n++] = h;
   while (sp < n) {
      const struct sc_block *b = &t->blocks[list[sp++]];
      uint32_t at = b->term, len = sc_len(t->m, at), first = 0, step = 1;
      sc_work(t, 1);
      switch (sc_op(t->m, at)) {
      case SpvOpBranch: first = 1; len = 2; break;
      case SpvOpBranchConditional: first = 2; len = len < 4 ? len : 4; break;
      case SpvOpSwitch: first = 2; step = 1; break;
      default: len = 0; break;
      }
      for (uint32_t k = first; k < len; k += step) {
         if (sc_op(t->m, at) == SpvOpSwitch && !sc_switch_target(t, at, k))
            continue;   /* a literal, not a target */
         uint32_t target = t->m->words[at + k];
         if (target == merge || target >= t->m->bound || t->block_of[target] < 0)
            continue;
         uint32_t bi = (uint32_t)t->block_of[target];
         if (!in[bi]) {
            in[bi] = 1;
            list[n++] = bi;
         }
      }
   }
   return n;
}

/* Clears the n marks of list in in[]. */
void sc_unmark(uint8_t *in, const uint32_t *list, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++)
      in[list[i]] = 0;
}

/* The loop forest, once (and the edges into each block): structured
 * loops nest, so the innermost loop holding a block is the smallest
 * sc_loop_blocks() set that contains it, and
 * the loop around a loop the smallest other set holding its header. One
 * walk per loop, not one per question: what divergence asks of every
 * branch (the loops around it) then costs the nesting depth, where a
 * walk of every loop per branch grew with the cube of the nesting. */
void sc_cfg_build(struct sc_tx *t)
{
   t->pass = SC_PASS_CFG;
   uint32_t n = t->block_count ? t->block_count : 1;
   uint32_t *size = malloc(2 * n * sizeof(*size));
   uint8_t *in = calloc(n, 1);
   t->stack = malloc(n * sizeof(*t->stack));
   t->join = calloc(n, 1);
   t->loop_of = malloc(n * sizeof(*t->loop_of));
   t->loop_parent = malloc(n * sizeof(*t->loop_parent));
   t->preds = calloc(n, sizeof(*t->preds));
   t->pred_first = calloc(n + 1, sizeof(*t->pred_first));
   t->members = malloc(n * sizeof(*t->members));
   t->visited = malloc(n * sizeof(*t->visited));
   t->merge_header = malloc(n * sizeof(*t->merge_header));
   t->cont_header = malloc(n * sizeof(*t->cont_header));
   if (!size || !in || !t->stack || !t->join || !t->loop_of || !t->loop_parent || !t->preds ||
       !t->pred_first || !t->members || !t->visited || !t->merge_header || !t->cont_header) {
      free(size);
      free(in);
      FAIL("out of memory");
   }
   uint32_t *parent_size = size + n;
   for (uint32_t i = 0; i < n; i++) {
      t->loop_of[i] = t->loop_parent[i] = t->merge_header[i] = t->cont_header[i] = UINT32_MAX;
      size[i] = parent_size[i] = UINT32_MAX;
   }
   /* the edges, as predecessor lists (an edge taken twice counts twice) */
   uint64_t edges = 0;
   for (uint32_t i = 0; i < t->block_count; i++) {
      uint32_t m = sc_successors(t, &t->blocks[i], t->stack, t->block_count);
      for (uint32_t k = 0; k < m; k++)
         t->preds[t->stack[k]]++;
      edges += m;
   }
   t->pred_list = malloc((edges ? edges : 1) * sizeof(*t->pred_list));
   if (!t->pred_list) {
      free(size);
      free(in);
      FAIL("out of memory");
   }
   for (uint32_t i = 0; i < t->block_count; i++)
      t->pred_first[i + 1] = t->pred_first[i] + t->preds[i];
   for (uint32_t i = 0; i < t->block_count; i++)
      size[i] = t->pred_first[i];   /* the next free place, for now */
   for (uint32_t i = 0; i < t->block_count; i++) {
      uint32_t m = sc_successors(t, &t->blocks[i], t->stack, t->block_count);
      for (uint32_t k = 0; k < m; k++)
         t->pred_list[size[t->stack[k]]++] = i;
   }
   for (uint32_t i = 0; i < t->block_count; i++)
      size[i] = UINT32_MAX;
   /* merge blocks and continue targets, to their headers */
   for (uint32_t h = 0; h < t->block_count; h++) {
      const struct sc_block *hb = &t->blocks[h];
      if (!hb->merge)
         continue;
      bool loop = sc_op(t->m, hb->merge) == SpvOpLoopMerge;
      for (uint32_t k = 1; k <= (loop ? 2u : 1u) && k < sc_len(t->m, hb->merge); k++) {
         uint32_t label = sc_arg(t, hb->merge, k);
         if (label < t->m->bound && t->block_of[label] >= 0) {
            (k == 1 ? t->merge_header : t->cont_header)[t->block_of[label]] = h;
            t->join[t->block_of[label]] = 1;   /* where parted lanes rejoin */
         }
      }
   }
   /* the loops: each loop's blocks, innermost and parent by size */
   for (uint32_t h = 0; h < t->block_count; h++) {
      const struct sc_block *hb = &t->blocks[h];
      if (!hb->merge || sc_op(t->m, hb->merge) != SpvOpLoopMerge)
         continue;
      uint32_t count = sc_loop_blocks(t, h, in);
      for (uint32_t m = 0; m < count; m++) {
         uint32_t i = t->members[m];
         if (count < size[i]) {
            size[i] = count;
            t->loop_of[i] = h;
         }
         if (i != h && count < parent_size[i]) {
            parent_size[i] = count;
            t->loop_parent[i] = h;
         }
      }
      sc_unmark(in, t->members, count);
   }
   free(size);
   free(in);
   t->pass = SC_PASS_TRANSLATE;
}

/* The words of each literal of the OpSwitch at `at`: OpSwitch, "Literal
 * must be ... the same width as Selector's type" (SPIR-V 3.42.17), so two
 * for a 64-bit selector. Malformed input counts as one word. */
uint32_t sc_switch_literal_words(const struct sc_tx *t, uint32_t at)
{
   const struct sc_module *m = t->m;
   uint32_t sel = sc_len(m, at) > 1 ? m->words[at + 1] : 0;
   uint32_t type = sel && sel < m->bound ? m->ids[sel].type : 0;
   if (!type || type >= m->bound || m->ids[type].opcode != SpvOpTypeInt)
      return 1;
   return sc_len(m, m->ids[type].def) > 2 && m->words[m->ids[type].def + 2] == 64 ? 2 : 1;
}

/* Whether word k >= 2 of the OpSwitch at `at` is a target label (the
 * default, or a case's after its literal) rather than a literal. */
bool sc_switch_target(const struct sc_tx *t, uint32_t at, uint32_t k)
{
   uint32_t lw = sc_switch_literal_words(t, at);
   return k == 2 || (k > 2 && (k - 3) % (lw + 1) == lw);
}

static bool is_terminator(uint16_t op)
{
   switch (op) {
   case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
   case SpvOpReturnValue: case SpvOpUnreachable: case SpvOpKill: case SpvOpTerminateInvocation:
      return true;
   default:
      return false;
   }
}

void sc_find_blocks(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   t->block_of = malloc(m->bound * sizeof(*t->block_of));
   if (!t->block_of)
      FAIL("out of memory");
   for (uint32_t i = 0; i < m->bound; i++)
      t->block_of[i] = -1;
   uint32_t cap = 0;
   struct sc_block *cur = NULL;
   for (uint32_t at = m->function_start; at < m->function_end; at += sc_len(m, at)) {
      uint16_t op = sc_op(m, at);
      if (op == SpvOpLabel) {
         t->blocks = sc_grow(t->blocks, &cap, t->block_count + 1, sizeof(*t->blocks), t->e);
         cur = &t->blocks[t->block_count];
         *cur = (struct sc_block){.label = sc_arg(t, at, 1), .start = at};
         t->block_of[cur->label] = (int32_t)t->block_count++;
      } else if (!cur) {
         continue;
      } else if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
         cur->merge = at;
      } else if (is_terminator(op)) {
         cur->term = at;
         cur = NULL;
      } else if (op != SpvOpPhi && !cur->first_inst) {
         cur->first_inst = at;
      }
   }
   for (uint32_t i = 0; i < t->block_count; i++) {
      if (!t->blocks[i].term)
         FAIL("invalid SPIR-V: block %u has no terminator", t->blocks[i].label);
      if (!t->blocks[i].first_inst)
         t->blocks[i].first_inst = t->blocks[i].merge ? t->blocks[i].merge : t->blocks[i].term;
   }
}

struct sc_block *sc_block_of(struct sc_tx *t, uint32_t label)
{
   if (label >= t->m->bound || t->block_of[label] < 0)
      FAIL("invalid SPIR-V: %u is not a block of the entry point", label);
   return &t->blocks[t->block_of[label]];
}
