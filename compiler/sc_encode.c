/* Encoding: machine IR with assigned registers to an ISA program image. */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

static uint16_t operand(const struct sc_mir *mir, const struct sc_opnd *o, uint32_t *imm)
{
   switch (o->kind) {
   case SC_REG: {
      const struct sc_vreg *r = &mir->regs[o->value];
      uint32_t index = r->phys + o->part;
      return r->uniform ? ISA_U(index) : ISA_V(index);
   }
   case SC_IMM:
      *imm = o->value;
      return ISA_IMM;
   default:
      return ISA_NONE;
   }
}

void *sc_encode(const struct sc_mir *mir, uint32_t warp_width, uint32_t vregs, uint32_t uregs,
                size_t *size, struct sc_error *e)
{
   uint32_t lines = 0, last = UINT32_MAX;
   for (uint32_t i = 0; i < mir->count; i++) {
      if (mir->code[i].line && mir->code[i].line != last)
         lines++;
      last = mir->code[i].line ? mir->code[i].line : last;
   }
   *size = sizeof(struct isa_program_header) + mir->count * sizeof(struct isa_inst) +
           lines * sizeof(struct isa_line);
   uint8_t *image = calloc(1, *size);
   if (!image)
      sc_fail(e, "out of memory");
   struct isa_program_header *h = (struct isa_program_header *)image;
   *h = (struct isa_program_header){
      .magic = ISA_MAGIC, .version = ISA_VERSION, .warp_width = (uint16_t)warp_width,
      .inst_count = mir->count, .vreg_count = (uint16_t)vregs, .ureg_count = (uint16_t)uregs,
      .stack_depth = (uint16_t)(mir->stack_depth ? mir->stack_depth : 1),
      .flags = (uint16_t)((mir->uses_barrier ? ISA_PROG_USES_BARRIER : 0) |
                          (mir->zero_shared ? ISA_PROG_ZERO_SHARED : 0)),
      .line_count = lines};
   if (mir->stack_depth > ISA_MAX_STACK) {
      free(image);
      sc_fail(e, "control flow nests %u constructs deep; softgpu's mask stack holds %u",
              mir->stack_depth, ISA_MAX_STACK);
   }
   struct isa_inst *code = (struct isa_inst *)(h + 1);
   struct isa_line *table = (struct isa_line *)(code + mir->count);
   uint32_t k = 0;
   last = UINT32_MAX;
   for (uint32_t i = 0; i < mir->count; i++) {
      const struct sc_minst *in = &mir->code[i];
      uint32_t imm = in->imm;
      code[i] = (struct isa_inst){.op = in->op, .mod = in->mod};
      code[i].dst = operand(mir, &in->dst, &imm);
      code[i].a = operand(mir, &in->a, &imm);
      code[i].b = operand(mir, &in->b, &imm);
      code[i].c = operand(mir, &in->c, &imm);
      if (in->label != UINT32_MAX) {
         if (in->label >= mir->label_count || mir->labels[in->label] == UINT32_MAX) {
            free(image);
            sc_fail(e, "internal error: unplaced label %u", in->label);
         }
         imm = mir->labels[in->label];
      }
      code[i].imm = imm;
      if (in->line && in->line != last)
         table[k++] = (struct isa_line){i, in->line};
      last = in->line ? in->line : last;
   }
   return image;
}
