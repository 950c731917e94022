/*
 * The compiler's pipeline: validate (cached) -> specialize and optimize ->
 * parse -> translate (with the divergence analysis) -> allocate registers
 * -> uniform loops -> encode. Every stage is timed.
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool valid_width(uint32_t w)
{
   return w == 8 || w == 16 || w == 32 || w == 64;
}

/* The workgroup size: LocalSize, LocalSizeId, or the WorkgroupSize
 * built-in constant, which wins (SPIR-V "WorkgroupSize"). */
static void local_size(const struct sc_module *m, uint32_t out[3], struct sc_error *e)
{
   for (int i = 0; i < 3; i++) {
      out[i] = m->local_size[i];
      uint32_t id = m->local_size_id[i];
      if (id) {
         if (id >= m->bound || m->ids[id].opcode != SpvOpConstant)
            sc_fail(e, "LocalSizeId operand %u is not a constant", id);
         out[i] = m->words[m->ids[id].def + 3];
      }
   }
   uint32_t wg = m->workgroup_size_id;
   if (wg && m->ids[wg].opcode == SpvOpConstantComposite && (m->words[m->ids[wg].def] >> 16) >= 6) {
      for (int i = 0; i < 3; i++) {
         uint32_t c = m->words[m->ids[wg].def + 3 + i];
         if (c < m->bound && m->ids[c].opcode == SpvOpConstant)
            out[i] = m->words[m->ids[c].def + 3];
      }
   }
   uint64_t n = (uint64_t)out[0] * out[1] * out[2];
   if (n == 0 || n > 1024)
      sc_fail(e, "workgroup size %ux%ux%u is not between 1 and 1024 invocations", out[0], out[1],
              out[2]);
}

/* The machine IR's validator between passes, in debug builds (NIR's
 * model: a pass that breaks the IR is caught where it ran). */
#ifdef NDEBUG
#define VALIDATE_MIR(mir, after, allocated, e) ((void)0)
#else
#define VALIDATE_MIR(mir, after, allocated, e) sc_mir_validate(mir, after, allocated, e)
#endif

const char *const sc_pass_names[SC_PASS_COUNT] = {
   [SC_PASS_CFG] = "cfg", [SC_PASS_TRANSLATE] = "translate", [SC_PASS_DIVERGENCE] = "divergence",
   [SC_PASS_UNROLL] = "unroll", [SC_PASS_MIR_OPT] = "mir-opt", [SC_PASS_REGALLOC] = "regalloc",
   [SC_PASS_ENCODE] = "encode"};

bool sc_compile(const uint32_t *words, size_t word_count, const struct sc_options *opts,
                struct sc_program *out, char *err, size_t err_size)
{
   memset(out, 0, sizeof(*out));
   struct sc_error e = {.text = err, .size = err_size};
   struct sc_module m = {0};
   struct sc_mir mir = {0};
   /* volatile: read after a longjmp from sc_fail */
   uint32_t *volatile optimized = NULL;
   err[0] = '\0';
   if (setjmp(e.jump)) {
      sc_module_free(&m);
      sc_mir_free(&mir);
      free(optimized);
      return false;
   }
   if (!valid_width(opts->warp_width))
      sc_fail(&e, "subgroup size %u is not 8, 16, 32 or 64", opts->warp_width);
   if (!words || word_count < 5 || words[0] != SpvMagicNumber)
      sc_fail(&e, "invalid SPIR-V: not a SPIR-V module (%zu words)", word_count);
   double t0 = now_ms();
   sc_check_capabilities(words, word_count, opts->device, &e);
   if (opts->validate)
      sc_validate(words, word_count, &opts->validator, &e);
   double t1 = now_ms();
   /* The default path needs no SPIR-V optimizer (variables are kept in
    * registers by the translator): it runs only when asked to, or to
    * inline functions and fold OpSpecConstantOp. */
   size_t count = word_count;
   bool needs_optimizer = opts->optimize;
   if (!needs_optimizer)
      optimized = sc_specialize(words, word_count, opts->spec, opts->spec_count, &needs_optimizer, &e);
   if (needs_optimizer) {
      /* The SPIRV-Tools optimizer trusts its input and can crash on invalid
       * SPIR-V: it only ever sees validated modules, whatever
       * opts->validate says (the translator bounds-checks everything). */
      if (!opts->validate)
         sc_validate(words, word_count, &opts->validator, &e);
      char why[512];
      optimized = sc_optimize(words, word_count, opts->spec, opts->spec_count, opts->optimize,
                              &count, why, sizeof(why));
      if (!optimized)
         sc_fail(&e, "%s", why);
   }
   sc_lower_spec_ops(optimized, count);
   double t2 = now_ms();
   sc_parse(&m, optimized, count, opts->entry_point ? opts->entry_point : "main", &e);
   local_size(&m, out->local_size, &e);
   sc_translate(&m, opts, out->local_size, &mir, &e);
   VALIDATE_MIR(&mir, "translation", false, &e);
   sc_mir_optimize(&mir, &e);
   VALIDATE_MIR(&mir, "the machine-IR optimizations", false, &e);
   double t3 = now_ms();
   uint32_t vregs, uregs;
   sc_regalloc(&mir, &e, &vregs, &uregs);
   VALIDATE_MIR(&mir, "register allocation", true, &e);
   sc_mir_uniform_loops(&mir, &e);
   VALIDATE_MIR(&mir, "uniform loops", true, &e);
   double t4 = now_ms();
   out->image = sc_encode(&mir, opts->warp_width, vregs, uregs, &out->size, &e);
   mir.work[SC_PASS_ENCODE] += mir.count;
   double t5 = now_ms();
   out->shared_bytes = mir.shared_bytes;
   out->private_bytes = mir.private_bytes;
   out->vreg_count = vregs;
   out->uses_barrier = mir.uses_barrier;
   out->printf_count = mir.format_count;
   out->printf_formats = mir.formats;   /* the program owns them now */
   mir.formats = NULL;
   mir.format_count = 0;
   out->ms_validate = t1 - t0;
   out->ms_optimize = t2 - t1;
   out->ms_translate = t3 - t2;
   out->ms_regalloc = t4 - t3;
   out->ms_encode = t5 - t4;
   memcpy(out->work, mir.work, sizeof(out->work));
   sc_module_free(&m);
   sc_mir_free(&mir);
   free(optimized);
   return true;
}

void sc_program_free(struct sc_program *p)
{
   for (uint32_t i = 0; i < p->printf_count; i++)
      free(p->printf_formats[i]);
   free(p->printf_formats);
   free(p->image);
   memset(p, 0, sizeof(*p));
}
