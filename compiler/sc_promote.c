/*
 * Promotion: which Function and Private variables are kept in registers
 * (one virtual register per scalar) instead of private memory. A variable
 * qualifies when every use of a pointer into it is a whole load or store,
 * directly or through access chains with constant indices (or modf/frexp's
 * second result), so that each access names its scalars at compile time.
 * Under SIMT, writes are masked per lane and control flow is structured,
 * so a register behaves exactly like the variable. Other variables
 * (dynamically indexed arrays, for one) live in private memory.
 */
#include "sc_tx.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <stdlib.h>

#define MAX_PROMOTED_SLOTS 32u

/* Whether operand word k of the instruction at `at` is a literal rather
 * than an id, for the instructions that commonly carry literals (a
 * literal mistaken for an id only costs a promotion). */
static bool literal_operand(const struct sc_tx *t, uint32_t at, uint32_t k)
{
   uint16_t op = sc_op(t->m, at);
   switch (op) {
   case SpvOpLine: return k >= 2;
   case SpvOpExtInst: return k == 4;
   case SpvOpLoad: return k >= 4;
   case SpvOpStore: case SpvOpCopyMemory: return k >= 3;
   case SpvOpCompositeExtract: return k >= 4;
   case SpvOpCompositeInsert: case SpvOpVectorShuffle: return k >= 5;
   case SpvOpSwitch: return k >= 3 && !sc_switch_target(t, at, k);
   case SpvOpLoopMerge: return k >= 3;
   case SpvOpSelectionMerge: return k >= 2;
   default:
      return op >= SpvOpGroupNonUniformIAdd && op <= SpvOpGroupNonUniformLogicalXor && k == 4;
   }
}

/* Marks t->promote for the per-invocation variables kept in registers:
 * every other use of a pointer into them disqualifies the variable. */
void sc_find_promotable(struct sc_tx *t)
{
   const struct sc_module *m = t->m;
   t->promote = calloc(m->bound, 1);
   t->slots = calloc(m->bound, sizeof(*t->slots));
   if (!t->promote || !t->slots)
      FAIL("out of memory");
   for (uint32_t id = 1; id < m->bound; id++) {
      const struct sc_id *d = &m->ids[id];
      if (d->opcode != SpvOpVariable || !d->def || sc_len(m, d->def) < 4)
         continue;
      uint32_t storage = m->words[d->def + 3];
      if (storage != SpvStorageClassFunction && storage != SpvStorageClassPrivate)
         continue;
      struct sc_tinfo pt = sc_type_of(t, d->type);
      t->promote[id] = sc_flat_size(t, pt.elem, MAX_PROMOTED_SLOTS, 0) != UINT32_MAX;
   }
   for (uint32_t at = m->function_start; at < m->function_end; at += sc_len(m, at)) {
      uint16_t op = sc_op(m, at);
      uint32_t len = sc_len(m, at), self = sc_result_id(t, at);
      for (uint32_t k = 1; k < len; k++) {
         uint32_t id = m->words[at + k];
         if (id == self || id >= m->bound || literal_operand(t, at, k))
            continue;
         uint32_t var = sc_root_variable(t, id);
         if (!var || !t->promote[var])
            continue;
         bool split = op == SpvOpExtInst && k == 6 && len > 4 && m->words[at + 3] == m->glsl_std_450 &&
                      (m->words[at + 4] == GLSLstd450Modf || m->words[at + 4] == GLSLstd450Frexp);
         bool ok = split || (op == SpvOpLoad && k == 3) || (op == SpvOpStore && k == 1) ||
                   ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && k == 3 &&
                    sc_constant_chain(t, at));
         if (!ok)
            t->promote[var] = 0;
      }
   }
}
