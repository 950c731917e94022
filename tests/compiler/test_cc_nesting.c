/*
 * test_cc_nesting: structured control flow nested as deep as SPIR-V's
 * universal limits allow (1023 constructs) compiles, and runs right at
 * every warp width with the lanes going all the way down; one level more
 * is refused with a message. The shader is generated here as SPIR-V
 * assembly and assembled with SPIRV-Tools: the entry's guard
 * `if (gid < n)`, then levels alternating a selection on a per-lane value
 * (x != K: x = 3x + 1, then the next level) and a do-while loop around
 * the next level whose condition (x == K2) is per-lane too. The reference
 * follows the same structure in C.
 *
 * The SPIRV-Tools validator is off for these modules: its structured
 * control-flow checks take over a minute on 1023 levels (it refuses 1024
 * with "Maximum Control Flow nesting depth exceeded"), and what is tested
 * here is the compiler's own handling.
 */
#include "sct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K_SEL 0x7fffffffu     /* a value x takes for no input here */
#define K_LOOP 0x12345678u

/* Level k (0 = the guard) opens its construct; its code ends in the block
 * where level k + 1 goes. */
static void open_level(struct eut_text *t, uint32_t k)
{
   if (k == 0) {
      eut_text_add(t, "%%inb = OpULessThan %%bool %%gid %%n\nOpSelectionMerge %%m0 None\n"
             "OpBranchConditional %%inb %%b0 %%m0\n%%b0 = OpLabel\n"
             "%%pin = OpAccessChain %%p_sb_uint %%buf0 %%u0 %%gid\n"
             "%%x_in = OpLoad %%uint %%pin\nOpStore %%x %%x_in\n");
      return;
   }
   if (k % 2) {
      eut_text_add(t, "%%l%u = OpLoad %%uint %%x\n%%c%u = OpINotEqual %%bool %%l%u %%ksel\n"
             "OpSelectionMerge %%m%u None\nOpBranchConditional %%c%u %%b%u %%m%u\n%%b%u = OpLabel\n",
          k, k, k, k, k, k, k, k);
   } else {
      eut_text_add(t, "OpBranch %%h%u\n%%h%u = OpLabel\nOpLoopMerge %%m%u %%cc%u None\nOpBranch %%b%u\n"
             "%%b%u = OpLabel\n", k, k, k, k, k, k);
   }
   eut_text_add(t, "%%v%u = OpLoad %%uint %%x\n%%t%u = OpIMul %%uint %%v%u %%u3\n"
          "%%s%u = OpIAdd %%uint %%t%u %%u1\nOpStore %%x %%s%u\n", k, k, k, k, k, k);
}

/* Level k closes its construct; its merge block continues the level above. */
static void close_level(struct eut_text *t, uint32_t k)
{
   if (k == 0) {
      eut_text_add(t, "%%xf = OpLoad %%uint %%x\n%%pout = OpAccessChain %%p_sb_uint %%buf1 %%u0 %%gid\n"
             "OpStore %%pout %%xf\nOpBranch %%m0\n%%m0 = OpLabel\n");
   } else if (k % 2) {
      eut_text_add(t, "OpBranch %%m%u\n%%m%u = OpLabel\n", k, k);
   } else {
      eut_text_add(t, "OpBranch %%cc%u\n%%cc%u = OpLabel\n%%w%u = OpLoad %%uint %%x\n"
             "%%a%u = OpIEqual %%bool %%w%u %%kloop\nOpBranchConditional %%a%u %%h%u %%m%u\n"
             "%%m%u = OpLabel\n", k, k, k, k, k, k, k, k, k);
   }
}

/* The module for `depth` nested constructs, assembled; NULL (with a
 * check failed) if SPIRV-Tools refused it. */
static uint32_t *nested_module(uint32_t depth, size_t *count)
{
   struct eut_text t = {0};
   char globals[128];
   snprintf(globals, sizeof(globals), "%%ksel = OpConstant %%uint %u\n%%kloop = OpConstant %%uint %u\n",
            K_SEL, K_LOOP);
   sct_text_module(&t, 2, globals, "%x = OpVariable %p_fn_uint Function\n");
   for (uint32_t k = 0; k < depth; k++)
      open_level(&t, k);
   for (uint32_t k = depth; k-- > 0;)
      close_level(&t, k);
   eut_text_add(&t, "OpReturn\nOpFunctionEnd\n");

   char what[32];
   snprintf(what, sizeof(what), "depth %u", depth);
   uint32_t *words = sct_assemble(t.s, count, what);
   eut_text_free(&t);
   return words;
}

/* What level k and those inside it leave in x (see open_level). */
static uint32_t reference(uint32_t k, uint32_t depth, uint32_t x)
{
   if (k == depth)
      return x;
   if (k % 2) {
      if (x == K_SEL)
         return x;
      return reference(k + 1, depth, x * 3 + 1);
   }
   do
      x = reference(k + 1, depth, x * 3 + 1);
   while (x == K_LOOP);
   return x;
}

static const struct sc_binding nest_bindings[2] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                                   {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0}};
static const struct sc_set_layout nest_layout = {2, nest_bindings};

static void run(struct sct *s, const struct sc_program *p, uint32_t depth, uint32_t w)
{
   char what[64];
   snprintf(what, sizeof(what), "nesting %u W=%u", depth, w);
   const uint32_t n = 200;   /* not a multiple of the local size: the guard matters */
   const uint32_t slots = 256;
   sct_fresh(s);
   uint32_t *in, *out;
   uint64_t in_va = sct_buf(s, 4ull * slots, &in);
   uint64_t out_va = sct_buf_fill(s, 4ull * slots, 0xdeadbeefu, &out);
   for (uint32_t i = 0; i < slots; i++)
      in[i] = sct_hash(i ^ (w << 16));
   uint64_t set_va = sct_buf(s, 32, NULL);
   sct_descriptor(s, set_va, 0, in_va, 4ull * slots);
   sct_descriptor(s, set_va, 16, out_va, 4ull * slots);
   struct hw_root_table root = {.sets = {set_va}};
   memcpy(root.push, &n, 4);
   if (!sct_launch(s, p, (uint32_t[3]){slots / 64, 1, 1}, sct_root_upload(s, &root), what))
      return;
   int budget = 4;
   for (uint32_t i = 0; i < slots; i++) {
      uint32_t want = i < n ? reference(1, depth, in[i]) : 0xdeadbeefu;
      SCT_CHECK_U(out[i], want, &budget, "%s: out[%u]", what, i);
   }
}

int main(void)
{
   struct sct s;
   sct_init(&s);
   /* SPIR-V's universal limit: 1023 nested constructs, the guard one of them */
   const uint32_t depth = 1023;
   size_t count;
   uint32_t *words = nested_module(depth, &count);
   for (uint32_t wi = 0; words && wi < 4; wi++) {
      struct sct_opts so;
      sct_options(&so, sct_widths[wi], 0, &nest_layout, 1);
      so.o.validate = false;
      struct sc_program p;
      char what[64];
      snprintf(what, sizeof(what), "nesting %u W=%u", depth, sct_widths[wi]);
      if (!sct_compile(words, count, &so.o, &p, what))
         continue;
      const struct isa_program_header *h = p.image;
      HWT_CHECK(h->stack_depth >= depth && h->stack_depth <= ISA_MAX_STACK,
                "%s: mask stack of %u entries", what, h->stack_depth);
      run(&s, &p, depth, sct_widths[wi]);
      sc_program_free(&p);
   }
   free(words);
   fprintf(stderr, "  %-24s %s\n", "nesting 1023", "checked");

   /* beyond what the mask stack holds (the guard, 1024 levels): refused
    * with a message, not a crash */
   words = nested_module(ISA_MAX_STACK + 1, &count);
   if (words) {
      struct sct_opts so;
      sct_options(&so, 32, 0, &nest_layout, 1);
      so.o.validate = false;
      struct sc_program p;
      char err[1024] = "";
      bool ok = sc_compile(words, count, &so.o, &p, err, sizeof(err));
      HWT_CHECK(!ok && strstr(err, "nested more than") != NULL,
                "nesting %u: compiled (%d) or refused without saying why: %s", ISA_MAX_STACK + 1,
                ok, err);
      if (ok)
         sc_program_free(&p);
      else
         fprintf(stderr, "  %-24s refused: %s\n", "nesting 1025", err);
   }
   free(words);
   sct_fini(&s);
   return hwt_finish();
}
