/*
 * softgpu-cc: compiles a SPIR-V compute shader to softgpu ISA and prints
 * the disassembly, the register count and where the compile time went.
 *
 *   softgpu-cc shader.spv [-e main] [-w 32] [-o program.bin] [--no-validate]
 *              [--set S:B[:kind][,...]]   (default: sets 0-3, bindings 0-15, storage buffers)
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

int main(int argc, char **argv)
{
   const char *in = NULL, *out = NULL, *entry = "main";
   uint32_t width = 32;
   bool validate = true;
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "-e") == 0 && i + 1 < argc)
         entry = argv[++i];
      else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
         width = (uint32_t)atoi(argv[++i]);
      else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
         out = argv[++i];
      else if (strcmp(argv[i], "--no-validate") == 0)
         validate = false;
      else
         in = argv[i];
   }
   if (!in) {
      fprintf(stderr, "usage: softgpu-cc shader.spv [-e entry] [-w width] [-o out.bin] [--no-validate]\n");
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
                                        .offset = b * SC_DESCRIPTOR_BYTES};
   for (uint32_t s = 0; s < 4; s++)
      sets[s] = (struct sc_set_layout){16, bindings};
   struct sc_options o = {.entry_point = entry, .warp_width = width, .set_count = 4, .sets = sets,
                          .validate = validate, .optimize = true};
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
   printf("; compile time %.3f ms: validate %.3f, optimize %.3f, translate %.3f, registers %.3f, "
          "encode %.3f\n",
          p.ms_validate + p.ms_optimize + p.ms_translate + p.ms_regalloc + p.ms_encode,
          p.ms_validate, p.ms_optimize, p.ms_translate, p.ms_regalloc, p.ms_encode);
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
