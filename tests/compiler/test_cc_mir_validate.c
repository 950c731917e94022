/*
 * test_cc_mir_validate: the machine IR's validator (sc_mir_validate, run
 * between the compiler's passes in debug builds) accepts well-formed code
 * and names each broken invariant: a register that does not exist, a
 * missing half, arithmetic without a destination, a branch to a label
 * never placed, constructs that do not nest or nest deeper than declared,
 * left open, and, after register allocation, two immediates in one
 * instruction, an immediate beside a memory offset, a register outside the
 * register file. Machine IR is built by hand here, as a broken pass would
 * leave it.
 */
#include "sc_internal.h"
#include "sct.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CODE 16

struct fixture {
   struct sc_mir mir;
   struct sc_minst code[MAX_CODE];
   struct sc_vreg regs[4];
   uint32_t labels[2];
};

static struct sc_minst inst(enum isa_op op, struct sc_opnd dst, struct sc_opnd a, struct sc_opnd b)
{
   return (struct sc_minst){.op = (uint16_t)op, .dst = dst, .a = a, .b = b, .c = sc_none(),
                            .label = UINT32_MAX};
}

/* A valid program: v0 = v1 + 1; IF v0 { v2 = v0 * 3 } ENDIF; EXIT. */
static void valid_program(struct fixture *f)
{
   memset(f, 0, sizeof(*f));
   for (uint32_t r = 0; r < 3; r++)
      f->regs[r] = (struct sc_vreg){.size = 1, .phys = r, .start = -1, .end = -1};
   f->regs[3] = (struct sc_vreg){.size = 2, .phys = 4, .start = -1, .end = -1};
   uint32_t n = 0;
   f->code[n++] = inst(ISA_OP_IADD, sc_reg(0), sc_reg(1), sc_imm(1));
   f->code[n] = inst(ISA_OP_IF, sc_none(), sc_reg(0), sc_none());
   f->code[n++].label = 0;
   f->code[n++] = inst(ISA_OP_IMUL, sc_reg(2), sc_reg(0), sc_imm(3));
   f->code[n++] = inst(ISA_OP_ENDIF, sc_none(), sc_none(), sc_none());
   f->code[n++] = inst(ISA_OP_EXIT, sc_none(), sc_none(), sc_none());
   f->labels[0] = 3;   /* the ENDIF */
   f->mir = (struct sc_mir){.code = f->code, .count = n, .capacity = MAX_CODE, .regs = f->regs,
                            .reg_count = 4, .reg_capacity = 4, .labels = f->labels,
                            .label_count = 1, .label_capacity = 2, .stack_depth = 1};
}

/* Validates; returns the message ("" if valid). */
static const char *validate(const struct fixture *f, bool allocated)
{
   static char text[512];
   struct sc_error e = {.text = text, .size = sizeof(text)};
   text[0] = '\0';
   if (setjmp(e.jump))
      return text;
   sc_mir_validate(&f->mir, "the test's pass", allocated, &e);
   return "";
}

static void expect(const struct fixture *f, bool allocated, const char *what, const char *want)
{
   const char *got = validate(f, allocated);
   if (!want) {
      HWT_CHECK(got[0] == '\0', "%s: rejected: %s", what, got);
      return;
   }
   HWT_CHECK(strstr(got, want) && strstr(got, "after the test's pass"),
             "%s: want \"%s\", got \"%s\"", what, want, got);
}

int main(void)
{
   struct fixture f;
   valid_program(&f);
   expect(&f, false, "a valid program", NULL);
   expect(&f, true, "a valid program, allocated", NULL);

   valid_program(&f);
   f.code[2].b = sc_reg(9);
   expect(&f, false, "an unknown register", "register that does not exist");

   valid_program(&f);
   f.code[2].a.part = 1;
   expect(&f, false, "the high half of a 32-bit register", "half of a register that has none");

   valid_program(&f);
   f.code[3].a = sc_reg(3);
   f.code[3].a.part = 1;   /* the high half of the pair: fine (ENDIF ignores it) */
   expect(&f, false, "a pair's high half", NULL);

   valid_program(&f);
   f.code[0].dst = sc_none();
   expect(&f, false, "arithmetic without a destination", "without a destination register");

   valid_program(&f);
   f.labels[0] = UINT32_MAX;
   expect(&f, false, "an unplaced label", "a label never placed");

   valid_program(&f);
   f.code[3] = inst(ISA_OP_ENDLOOP, sc_none(), sc_none(), sc_none());
   expect(&f, false, "IF closed by ENDLOOP", "matches no open construct");

   valid_program(&f);
   f.code[3] = inst(ISA_OP_NOP, sc_none(), sc_none(), sc_none());
   expect(&f, false, "IF never closed", "1 constructs left open");

   valid_program(&f);
   f.mir.stack_depth = 0;
   expect(&f, false, "deeper than declared", "deeper than the declared mask stack");

   valid_program(&f);
   f.code[0].op = ISA_OP_COUNT;
   expect(&f, false, "an opcode out of range", "an opcode the ISA does not define");

   /* the one-immediate rule holds from register allocation on */
   valid_program(&f);
   f.code[0] = inst(ISA_OP_SEL, sc_reg(0), sc_reg(1), sc_imm(1));
   f.code[0].c = sc_imm(2);
   expect(&f, false, "two immediates before allocation", NULL);
   expect(&f, true, "two immediates after allocation", "two different immediates");

   valid_program(&f);
   f.code[2] = inst(ISA_OP_STS, sc_none(), sc_reg(1), sc_imm(7));
   f.code[2].imm = 16;
   expect(&f, true, "an immediate beside a memory offset", "field holds an offset or target");

   valid_program(&f);
   f.regs[2].phys = ISA_MAX_VREGS;
   expect(&f, false, "outside the register file, before allocation", NULL);
   expect(&f, true, "outside the register file", "outside the register file");

   return hwt_finish();
}
