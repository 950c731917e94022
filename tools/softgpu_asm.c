/*
 * softgpu-asm: assembles softgpu ISA text into a program image, or (with
 * -d) disassembles an image back into text that assembles to the same
 * bytes.
 *
 *   softgpu-asm prog.s -o prog.bin
 *   softgpu-asm -d prog.bin            (text on stdout)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_isa.h"

static void *read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   size_t cap = 4096, used = 0;
   char *buf = malloc(cap + 1);
   size_t n;
   while (buf && (n = fread(buf + used, 1, cap - used, f)) > 0) {
      used += n;
      if (used == cap) {
         char *b = realloc(buf, (cap *= 2) + 1);
         if (!b) {
            free(buf);
            buf = NULL;
         }
         buf = b;
      }
   }
   fclose(f);
   if (buf)
      buf[used] = '\0';
   *size = used;
   return buf;
}

static int usage(void)
{
   fprintf(stderr, "usage: softgpu-asm FILE.s [-o FILE.bin]\n"
                   "       softgpu-asm -d FILE.bin\n");
   return 2;
}

int main(int argc, char **argv)
{
   bool disassemble = argc == 3 && strcmp(argv[1], "-d") == 0;
   const char *in = disassemble ? argv[2] : argc >= 2 ? argv[1] : NULL;
   const char *out = argc == 4 && strcmp(argv[2], "-o") == 0 ? argv[3] : NULL;
   if (!in || (!disassemble && argc != 2 && !out))
      return usage();
   size_t size;
   void *data = read_file(in, &size);
   if (!data) {
      perror(in);
      return 1;
   }
   if (disassemble) {
      char *text = isa_disassemble_program(data, size);
      if (!text) {
         fprintf(stderr, "%s: not a softgpu program image\n", in);
         return 1;
      }
      fputs(text, stdout);
      free(text);
      free(data);
      return 0;
   }
   char err[256];
   size_t image_size;
   void *image = isa_assemble_program(data, &image_size, err, sizeof(err));
   free(data);
   if (!image) {
      fprintf(stderr, "%s: %s\n", in, err);
      return 1;
   }
   FILE *f = out ? fopen(out, "wb") : stdout;
   if (!f || fwrite(image, 1, image_size, f) != image_size) {
      perror(out ? out : "stdout");
      return 1;
   }
   if (out)
      fclose(f);
   free(image);
   return 0;
}
