/*
 * The interpreter's handler table, as the decoder (hw_eu.c) sees it. An
 * interpreter instance called with cta == NULL fills labels[HW_INTERP_LABELS]:
 * labels[form * ISA_OP_COUNT + op] is the handler of op in that form, NULL
 * where the instance has no such form; labels[HW_LABEL_JIT] runs a
 * compiled block. Forms are picked once per
 * instruction at decode, by operand kinds, so the hot handlers do not
 * decode operands each time they run.
 */
#ifndef HW_INTERP_H
#define HW_INTERP_H

#include "hw_isa.h"

enum hw_form {
   HW_FORM_ANY,      /* any operands: every op has it */
   HW_FORM_VECTOR,   /* destination and every source a vector register (ALU ops) */
   HW_FORM_UNIFORM,  /* a uniform destination, every source uniform or immediate (ALU ops) */
   HW_FORM_COUNT,
};

/* After the forms: the handler that runs a compiled block (hw_jit.h). */
#define HW_LABEL_JIT (HW_FORM_COUNT * ISA_OP_COUNT)
#define HW_INTERP_LABELS (HW_LABEL_JIT + 1)

#endif
