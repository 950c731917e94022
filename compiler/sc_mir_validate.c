/*
 * The machine IR's validator, run between the passes in debug builds (as
 * NIR's nir_validate): a pass that breaks an invariant fails the compile
 * there, naming itself, instead of producing a program that misbehaves
 * at run time.
 *
 * Invariants: opcodes are real; operands are registers that exist (and
 * the half named exists), immediates or nothing; arithmetic writes a
 * register; flow instructions name placed labels; the constructs nest
 * (IF [ELSE] ENDIF, LOOP [CONTJOIN] ENDLOOP, SWITCH ENDSWITCH) no deeper
 * than the declared mask stack. After register allocation (whose
 * legalization moves extra immediates into registers), every register
 * lies inside the ISA's register files, and an instruction carries at most
 * one immediate value, none where the immediate field holds an address
 * offset or a branch target.
 */
#include "sc_internal.h"

#include <stdlib.h>

static _Noreturn void invalid(struct sc_error *e, const char *after, uint32_t i,
                              const struct sc_minst *in, const char *what)
{
   sc_fail(e, "internal error: machine IR invalid after %s: instruction %u (%s, source line %u): %s",
           after, i, in->op < ISA_OP_COUNT ? isa_op_info[in->op].name : "?", in->line, what);
}

static void check_operand(const struct sc_mir *mir, const struct sc_opnd *o, struct sc_error *e,
                          const char *after, uint32_t i, const struct sc_minst *in)
{
   if (o->kind > SC_IMM)
      invalid(e, after, i, in, "operand of unknown kind");
   if (o->kind != SC_REG)
      return;
   if (o->value >= mir->reg_count)
      invalid(e, after, i, in, "register that does not exist");
   if (o->part >= mir->regs[o->value].size)
      invalid(e, after, i, in, "half of a register that has none");
}

/* One immediate field: every immediate operand must agree, and none may
 * share the field with an address offset or a branch target. */
static void check_immediates(const struct sc_minst *in, struct sc_error *e, const char *after,
                             uint32_t i)
{
   const struct sc_opnd *ops[4] = {&in->dst, &in->a, &in->b, &in->c};
   enum isa_class cls = isa_op_info[in->op].cls;
   bool field_taken = in->label != UINT32_MAX || cls == ISA_CLASS_MEM || cls == ISA_CLASS_ATOMIC;
   const struct sc_opnd *first = NULL;
   for (int k = 0; k < 4; k++) {
      if (ops[k]->kind != SC_IMM)
         continue;
      if (k == 0)
         invalid(e, after, i, in, "an immediate destination");
      if (field_taken)
         invalid(e, after, i, in, "an immediate operand where the field holds an offset or target");
      if (first && first->value != ops[k]->value)
         invalid(e, after, i, in, "two different immediates");
      first = ops[k];
   }
}

/* Arithmetic writes a register. (A uniform destination from per-lane
 * sources is legal: it takes the first active lane, which is how a value
 * the divergence analysis proved uniform leaves a vector register.) */
static void check_destination(const struct sc_minst *in, struct sc_error *e, const char *after,
                              uint32_t i)
{
   enum isa_class cls = isa_op_info[in->op].cls;
   if ((cls == ISA_CLASS_ALU || cls == ISA_CLASS_ALU64) && in->dst.kind != SC_REG)
      invalid(e, after, i, in, "arithmetic without a destination register");
}

static void check_label(const struct sc_mir *mir, const struct sc_minst *in, struct sc_error *e,
                        const char *after, uint32_t i)
{
   if (isa_op_info[in->op].cls != ISA_CLASS_FLOW || in->label == UINT32_MAX)
      return;
   if (in->label >= mir->label_count || mir->labels[in->label] == UINT32_MAX)
      invalid(e, after, i, in, "a branch to a label never placed");
   if (mir->labels[in->label] > mir->count)
      invalid(e, after, i, in, "a branch past the end of the code");
}

/* The construct an instruction opens (1 + kind), closes or continues. */
static void check_nesting(const struct sc_mir *mir, uint8_t *open, uint32_t *depth,
                          const struct sc_minst *in, struct sc_error *e, const char *after,
                          uint32_t i)
{
   enum { K_IF = 1, K_LOOP, K_SWITCH };
   uint8_t opens = 0, closes = 0, inner = 0;
   switch (in->op) {
   case ISA_OP_IF: opens = K_IF; break;
   case ISA_OP_LOOP: opens = K_LOOP; break;
   case ISA_OP_SWITCH: opens = K_SWITCH; break;
   case ISA_OP_ELSE: inner = K_IF; break;
   case ISA_OP_CONTJOIN: inner = K_LOOP; break;
   case ISA_OP_ENDIF: closes = K_IF; break;
   case ISA_OP_ENDLOOP: closes = K_LOOP; break;
   case ISA_OP_ENDSWITCH: closes = K_SWITCH; break;
   default: return;
   }
   if (opens) {
      if (*depth == ISA_MAX_STACK || *depth >= mir->stack_depth)
         invalid(e, after, i, in, "constructs nest deeper than the declared mask stack");
      open[(*depth)++] = opens;
      return;
   }
   uint8_t want = closes ? closes : inner;
   if (*depth == 0 || open[*depth - 1] != want)
      invalid(e, after, i, in, "a closer that matches no open construct");
   if (closes)
      (*depth)--;
}

static void check_allocation(const struct sc_mir *mir, const struct sc_opnd *o,
                             struct sc_error *e, const char *after, uint32_t i,
                             const struct sc_minst *in)
{
   if (o->kind != SC_REG)
      return;
   const struct sc_vreg *r = &mir->regs[o->value];
   uint32_t limit = r->uniform ? ISA_MAX_UREGS : ISA_MAX_VREGS;
   if (r->phys + r->size > limit)
      invalid(e, after, i, in, "a register outside the register file");
}

void sc_mir_validate(const struct sc_mir *mir, const char *after, bool allocated,
                     struct sc_error *e)
{
   uint8_t *open = malloc(ISA_MAX_STACK);
   if (!open)
      sc_fail(e, "out of memory");
   /* sc_fail unwinds past this frame: catch it to free the stack first */
   struct sc_error inner = {.text = e->text, .size = e->size};
   if (setjmp(inner.jump)) {
      free(open);
      longjmp(e->jump, 1);
   }
   uint32_t depth = 0;
   for (uint32_t i = 0; i < mir->count; i++) {
      const struct sc_minst *in = &mir->code[i];
      if (in->op >= ISA_OP_COUNT || isa_op_info[in->op].cls == ISA_CLASS_RESERVED)
         invalid(&inner, after, i, in, "an opcode the ISA does not define");
      const struct sc_opnd *ops[4] = {&in->dst, &in->a, &in->b, &in->c};
      for (int k = 0; k < 4; k++) {
         check_operand(mir, ops[k], &inner, after, i, in);
         if (allocated)
            check_allocation(mir, ops[k], &inner, after, i, in);
      }
      if (allocated)
         check_immediates(in, &inner, after, i);
      check_destination(in, &inner, after, i);
      check_label(mir, in, &inner, after, i);
      check_nesting(mir, open, &depth, in, &inner, after, i);
   }
   if (depth)
      sc_fail(&inner, "internal error: machine IR invalid after %s: %u constructs left open", after,
              depth);
   free(open);
}
