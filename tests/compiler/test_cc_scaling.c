/*
 * test_cc_scaling: every pass of the compiler does work linear in the
 * module's size. Modules of four shapes are generated at about 10k and
 * 100k SPIR-V instructions (sct_assemble) and compiled; each pass's work
 * counter (sc_program.work: instructions, blocks, registers it visited)
 * must grow at most 12.5 times (10 times the instructions, 25% slack),
 * never by the square. The counters are deterministic, so this holds on
 * any machine, loaded or not.
 *
 * Shapes: straight-line code (one long block of loads, arithmetic and
 * stores to one buffer element: the common-subexpression and copy passes'
 * worst case), a chain of divergent selections with phis, a chain of
 * loops with a run-time trip count, and selections nested eight deep,
 * repeated.
 */
#include "sct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum shape { STRAIGHT, SELECTIONS, LOOPS, NESTED, SHAPES };
static const char *const shape_names[SHAPES] = {"straight", "selections", "loops", "nested"};
/* SPIR-V instructions per unit of each shape, roughly */
static const uint32_t unit_size[SHAPES] = {4, 8, 12, 64};

static void header(struct eut_text *t)
{
   sct_text_module(t, 1, "%u1000 = OpConstant %uint 1000\n", "");
   eut_text_add(t, "%%p = OpAccessChain %%p_sb_uint %%buf0 %%u0 %%gid\n%%x0 = OpLoad %%uint %%p\n");
}

/* Unit i: from value %x<i> to %x<i+1>, in the shape's way. */
static void unit(struct eut_text *t, enum shape s, uint32_t i)
{
   uint32_t j = i + 1;
   switch (s) {
   case STRAIGHT:
      eut_text_add(t, "%%l%u = OpLoad %%uint %%p\n%%a%u = OpIAdd %%uint %%x%u %%l%u\n"
                      "%%x%u = OpIMul %%uint %%a%u %%u3\nOpStore %%p %%x%u\n",
                   i, i, i, i, j, i, j);
      return;
   case SELECTIONS:
      eut_text_add(t, "%%c%u = OpULessThan %%bool %%x%u %%u1000\nOpSelectionMerge %%m%u None\n"
                      "OpBranchConditional %%c%u %%t%u %%m%u\n%%t%u = OpLabel\n"
                      "%%y%u = OpIMul %%uint %%x%u %%u3\nOpBranch %%m%u\n%%m%u = OpLabel\n"
                      "%%x%u = OpPhi %%uint %%y%u %%t%u %%x%u %%b%u\n",
                   i, i, i, i, i, i, i, i, i, i, i, j, i, i, i, i);
      eut_text_add(t, "OpBranch %%b%u\n%%b%u = OpLabel\n", j, j);
      return;
   case LOOPS:
      /* header h, body-and-continue c, merge m; counter k, sum s */
      eut_text_add(t, "OpBranch %%h%u\n%%h%u = OpLabel\n", i, i);
      eut_text_add(t, "%%k%u = OpPhi %%uint %%u0 %%b%u %%kn%u %%c%u\n", i, i, i, i);
      eut_text_add(t, "%%s%u = OpPhi %%uint %%x%u %%b%u %%sn%u %%c%u\n", i, i, i, i, i);
      eut_text_add(t, "%%more%u = OpULessThan %%bool %%k%u %%n\n", i, i);
      eut_text_add(t, "OpLoopMerge %%m%u %%c%u None\n", i, i);
      eut_text_add(t, "OpBranchConditional %%more%u %%c%u %%m%u\n%%c%u = OpLabel\n", i, i, i, i);
      eut_text_add(t, "%%sn%u = OpIAdd %%uint %%s%u %%k%u\n", i, i, i);
      eut_text_add(t, "%%kn%u = OpIAdd %%uint %%k%u %%u1\nOpBranch %%h%u\n", i, i, i);
      eut_text_add(t, "%%m%u = OpLabel\n%%x%u = OpIMul %%uint %%s%u %%u3\n", i, j, i);
      eut_text_add(t, "OpBranch %%b%u\n%%b%u = OpLabel\n", j, j);
      return;
   default:
      /* eight selections nested, each stepping x on its way in and out */
      for (uint32_t d = 0; d < 8; d++) {
         eut_text_add(t, "%%c%u_%u = OpULessThan %%bool %%x%u %%u1000\n"
                         "OpSelectionMerge %%m%u_%u None\n"
                         "OpBranchConditional %%c%u_%u %%t%u_%u %%m%u_%u\n%%t%u_%u = OpLabel\n"
                         "OpStore %%p %%x%u\n",
                      i, d, i, i, d, i, d, i, d, i, d, i, d, i);
      }
      for (uint32_t d = 8; d-- > 0;)
         eut_text_add(t, "OpBranch %%m%u_%u\n%%m%u_%u = OpLabel\n", i, d, i, d);
      eut_text_add(t, "%%x%u = OpIAdd %%uint %%x%u %%u1\n", j, i);
      return;
   }
}

/* The module of `units` units of shape s, compiled: its work counters. */
static bool compile(enum shape s, uint32_t units, uint64_t *work, uint32_t *insts)
{
   struct eut_text t = {0};
   header(&t);
   if (s == SELECTIONS || s == LOOPS)
      eut_text_add(&t, "OpBranch %%b0\n%%b0 = OpLabel\n");
   for (uint32_t i = 0; i < units; i++)
      unit(&t, s, i);
   eut_text_add(&t, "OpStore %%p %%x%u\nOpReturn\nOpFunctionEnd\n", units);
   char what[64];
   snprintf(what, sizeof(what), "%s x%u", shape_names[s], units);
   size_t count;
   uint32_t *words = sct_assemble(t.s, &count, what);
   eut_text_free(&t);
   if (!words)
      return false;
   static const struct sc_binding binding = {0, SC_DESC_STORAGE_BUFFER, 1, 0, 0};
   static const struct sc_set_layout layout = {1, &binding};
   struct sct_opts so;
   sct_options(&so, 32, 0, &layout, 1);
   so.o.validate = false;   /* SPIRV-Tools' time is not what is measured */
   struct sc_program p;
   bool ok = sct_compile(words, count, &so.o, &p, what);
   *insts = 0;
   for (size_t at = 5; at < count; at += words[at] >> 16 ? words[at] >> 16 : count)
      (*insts)++;
   free(words);
   if (!ok)
      return false;
   memcpy(work, p.work, sizeof(p.work));
   sc_program_free(&p);
   return true;
}

int main(void)
{
   for (int s = 0; s < SHAPES; s++) {
      uint64_t small[SC_PASS_COUNT], large[SC_PASS_COUNT];
      uint32_t n_small, n_large;
      uint32_t units = 10000 / unit_size[s];
      if (!compile((enum shape)s, units, small, &n_small) ||
          !compile((enum shape)s, 10 * units, large, &n_large))
         continue;
      fprintf(stderr, "  %-10s %6u -> %6u SPIR-V instructions; work:", shape_names[s], n_small,
              n_large);
      for (int k = 0; k < SC_PASS_COUNT; k++)
         fprintf(stderr, " %s %llu -> %llu", sc_pass_names[k], (unsigned long long)small[k],
                 (unsigned long long)large[k]);
      fprintf(stderr, "\n");
      double grew = (double)n_large / n_small;
      for (int k = 0; k < SC_PASS_COUNT; k++) {
         HWT_CHECK((double)large[k] <= 1.25 * grew * (double)(small[k] ? small[k] : 1),
                   "%s: the %s pass's work grew %.1f times for %.1f times the instructions "
                   "(%llu -> %llu)", shape_names[s], sc_pass_names[k],
                   (double)large[k] / (double)(small[k] ? small[k] : 1), grew,
                   (unsigned long long)small[k], (unsigned long long)large[k]);
      }
   }
   return hwt_finish();
}
