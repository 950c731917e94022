/*
 * softgpu-cc: compiles a SPIR-V compute shader to softgpu ISA and prints
 * the disassembly, the register count, where the compile time went and
 * the work each compiler pass did (its deterministic counter).
 *
 *   softgpu-cc shader.spv [-e main] [-w 32] [-o program.bin] [-O] [--no-validate]
 *              [--repeat N]
 *
 * -O runs the SPIRV-Tools performance passes first (the driver's default
 * path does not).
 * The layout is sets 0-3 with bindings 0-15, all storage buffers. --repeat
 * compiles N more times after the first (cold) compile and reports the
 * median of each stage: the validation verdict is cached by then, as it is
 * in a driver that has seen the module before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_isa.h"
#include "sc_compiler.h"

static uint32_t *read_words(const char *path, size_t *count)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   uint32_t *w = size > 0 ? malloc((size_t)size) : NULL;
   if (w && fread(w, 1, (size_t)size, f) != (size_t)size) {
      free(w);
      w = NULL;
   }
   fclose(f);
   *count = size > 0 ? (size_t)size / 4 : 0;
   return w;
}

struct stages {
   double s[6];   /* validate, optimize, translate, registers, encode, total */
};

static struct stages stages_of(const struct sc_program *p)
{
   struct stages r = {{p->ms_validate, p->ms_optimize, p->ms_translate, p->ms_regalloc,
                       p->ms_encode, 0}};
   for (int i = 0; i < 5; i++)
      r.s[5] += r.s[i];
   return r;
}

static int by_value(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

static void print_stages(const char *what, const struct stages *st)
{
   printf("; %s %.3f ms: validate %.3f, optimize %.3f, translate %.3f, registers %.3f, "
          "encode %.3f\n",
          what, st->s[5], st->s[0], st->s[1], st->s[2], st->s[3], st->s[4]);
}

/* Compiles n more times; the median of each stage (and of the totals). */
static bool repeat(const uint32_t *words, size_t count, const struct sc_options *o, int n,
                   struct stages *median)
{
   double *v = malloc(sizeof(double) * 6 * (size_t)n);
   if (!v)
      return false;
   for (int i = 0; i < n; i++) {
      struct sc_program p;
      char err[1024];
      if (!sc_compile(words, count, o, &p, err, sizeof(err))) {
         free(v);
         return false;
      }
      struct stages st = stages_of(&p);
      for (int k = 0; k < 6; k++)
         v[k * n + i] = st.s[k];
      sc_program_free(&p);
   }
   for (int k = 0; k < 6; k++) {
      qsort(v + k * n, (size_t)n, sizeof(double), by_value);
      median->s[k] = v[k * n + n / 2];
   }
   free(v);
   return true;
}

int main(int argc, char **argv)
{
   int repeats = 0;
   const char *in = NULL, *out = NULL, *entry = "main";
   uint32_t width = 32;
   bool validate = true, optimize = false;
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "-e") == 0 && i + 1 < argc)
         entry = argv[++i];
      else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
         width = (uint32_t)atoi(argv[++i]);
      else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
         out = argv[++i];
      else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
         repeats = atoi(argv[++i]);
      else if (strcmp(argv[i], "-O") == 0)
         optimize = true;
      else if (strcmp(argv[i], "--no-validate") == 0)
         validate = false;
      else
         in = argv[i];
   }
   if (!in) {
      fprintf(stderr, "usage: softgpu-cc shader.spv [-e entry] [-w width] [-o out.bin] [-O] [--no-validate] [--repeat N]\n");
      return 2;
   }
   size_t count;
   uint32_t *words = read_words(in, &count);
   if (!words) {
      perror(in);
      return 1;
   }
   /* A generous default layout: sets 0-3, bindings 0-15, storage buffers. */
   static struct sc_binding bindings[16];
   static struct sc_set_layout sets[4];
   for (uint32_t b = 0; b < 16; b++)
      bindings[b] = (struct sc_binding){.binding = b, .kind = SC_DESC_STORAGE_BUFFER, .count = 1,
                                        .offset = b * HW_DESCRIPTOR_BYTES};
   for (uint32_t s = 0; s < 4; s++)
      sets[s] = (struct sc_set_layout){16, bindings};
   struct sc_options o = {.entry_point = entry, .warp_width = width, .set_count = 4, .sets = sets,
                          .validate = validate, .optimize = optimize};
   struct sc_program p;
   char err[1024];
   if (!sc_compile(words, count, &o, &p, err, sizeof(err))) {
      fprintf(stderr, "%s: %s\n", in, err);
      free(words);
      return 1;
   }
   char *text = isa_disassemble_program(p.image, p.size);
   fputs(text ? text : "(cannot disassemble)\n", stdout);
   free(text);
   printf("; local size %ux%ux%u, %u vector registers, %u bytes shared, %u bytes private%s\n",
          p.local_size[0], p.local_size[1], p.local_size[2], p.vreg_count, p.shared_bytes,
          p.private_bytes, p.uses_barrier ? ", barriers" : "");
   struct stages cold = stages_of(&p);
   print_stages(repeats > 0 ? "compile time (cold)" : "compile time", &cold);
   /* the passes' work counters: deterministic, unlike the times */
   printf("; work:");
   for (int k = 0; k < SC_PASS_COUNT; k++)
      printf("%s %s %llu", k ? "," : "", sc_pass_names[k], (unsigned long long)p.work[k]);
   printf("\n");
   struct stages median;
   if (repeats > 0 && repeat(words, count, &o, repeats, &median)) {
      char what[64];
      snprintf(what, sizeof(what), "compile time (median of %d, validation cached)", repeats);
      print_stages(what, &median);
   }
   if (out) {
      FILE *f = fopen(out, "wb");
      if (!f || fwrite(p.image, 1, p.size, f) != p.size) {
         perror(out);
         return 1;
      }
      fclose(f);
   }
   sc_program_free(&p);
   free(words);
   return 0;
}
