/*
 * softgpu-dump: prints a pushbuffer or a ring in readable form, with the
 * packet decoder of hw/include/hw_packets.h (hw_packet_format).
 *
 *   softgpu-dump [--ring] [--va BASE] FILE
 *
 * A pushbuffer file holds raw little-endian dwords: one line per packet,
 *   <dword offset>  <packet>
 * A ring file (--ring) holds raw struct hw_ring_entry records (16 bytes,
 * little endian: pushbuffer VA, length in dwords, flags): one line per entry,
 *   <entry index>  RING_ENTRY pushbuffer=0x... dwords=N [flags=0x... (reserved)] [(empty)]
 * With --va BASE (decimal, or hex with 0x), each line starts with the GPU
 * virtual address of the packet or entry, the file being at BASE.
 *
 * Control characters in label text are printed as \xNN, so that a packet
 * is always one line. A malformed packet (unknown opcode, bad payload
 * length, truncated) is printed as hw_packet_format reports it, followed by
 * "; skipped 1 dword", and the dump goes on at the next dword: it
 * resynchronizes on the next valid header, and never reads past the data. Lines starting with '#' are
 * comments: a header, trailing bytes that do not make a whole dword (or
 * entry), and a summary.
 *
 * A SOFTGPU_CAPTURE file (util/sg_capture_format.h; recognized by its
 * first bytes) is printed record by record: a comment line naming the
 * submission, the channel and what the pushbuffer is (ring entry, linked,
 * CALL/JUMP target), then its packets with their GPU virtual addresses.
 *
 * Exit status: 0 if everything decoded, 1 if malformed data was found,
 * 2 on a usage or I/O error.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_packets.h"
#include "sg_capture_format.h"

static void usage(FILE *f)
{
   fprintf(f, "usage: softgpu-dump [--ring] [--va BASE] FILE\n"
              "  prints a pushbuffer (raw little-endian dwords) or, with --ring, a ring\n"
              "  (raw struct hw_ring_entry records), one packet or entry per line;\n"
              "  --va BASE gives the GPU virtual address of the file's first byte;\n"
              "  a SOFTGPU_CAPTURE file is recognized and printed record by record\n");
}

static uint8_t *read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      fprintf(stderr, "softgpu-dump: %s: %s\n", path, strerror(errno));
      return NULL;
   }
   size_t cap = 1 << 16, n = 0;
   uint8_t *data = malloc(cap);
   while (data) {
      size_t got = fread(data + n, 1, cap - n, f);
      n += got;
      if (n < cap) {
         if (ferror(f)) {
            fprintf(stderr, "softgpu-dump: %s: read error\n", path);
            free(data);
            data = NULL;
         }
         break;
      }
      uint8_t *bigger = realloc(data, cap * 2);
      if (!bigger)
         free(data);
      data = bigger;
      cap *= 2;
   }
   fclose(f);
   if (!data)
      fprintf(stderr, "softgpu-dump: %s: cannot read\n", path);
   *size = n;
   return data;
}

static uint32_t le32(const uint8_t *p)
{
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void prefix(bool have_va, uint64_t va, unsigned long long index)
{
   if (have_va)
      printf("0x%016llx  ", (unsigned long long)va);
   printf("%6llu  ", index);
}

/* Prints text with control characters (which label payloads may hold)
 * escaped as \xNN, so that every packet stays on one line. */
static void print_text(const char *text)
{
   for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
      if (*c < 0x20 || *c == 0x7f)
         printf("\\x%02x", *c);
      else
         putchar(*c);
   }
}

static int dump_pushbuffer(const uint8_t *data, size_t size, bool have_va, uint64_t base)
{
   size_t n = size / 4;
   uint32_t *dw = malloc((n ? n : 1) * sizeof(*dw));
   if (!dw) {
      fprintf(stderr, "softgpu-dump: out of memory\n");
      return 2;
   }
   for (size_t i = 0; i < n; i++)
      dw[i] = le32(data + 4 * i);
   printf("# pushbuffer: %zu dwords\n", n);
   size_t pos = 0, packets = 0, bad = 0;
   char text[1024];
   while (pos < n) {
      size_t left = n - pos;
      uint32_t avail = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
      uint32_t len = hw_packet_format(dw + pos, avail, text, sizeof(text));
      prefix(have_va, base + 4ull * pos, pos);
      print_text(text);
      if (len == 0) {
         printf("; skipped 1 dword\n");
         bad++;
         pos++;
      } else {
         printf("\n");
         packets++;
         pos += len;
      }
   }
   if (size % 4)
      printf("# %zu trailing bytes ignored (not a whole dword)\n", size % 4);
   printf("# %zu packets, %zu malformed dwords skipped\n", packets, bad);
   free(dw);
   return bad || size % 4 ? 1 : 0;
}

static int dump_ring(const uint8_t *data, size_t size, bool have_va, uint64_t base)
{
   const size_t entry = sizeof(struct hw_ring_entry);
   size_t n = size / entry;
   printf("# ring: %zu entries\n", n);
   size_t odd = 0;
   for (size_t i = 0; i < n; i++) {
      const uint8_t *e = data + entry * i;
      uint64_t va = (uint64_t)le32(e) | (uint64_t)le32(e + 4) << 32;
      uint32_t length = le32(e + 8), flags = le32(e + 12);
      prefix(have_va, base + entry * i, i);
      printf("RING_ENTRY pushbuffer=0x%llx dwords=%u", (unsigned long long)va, length);
      if (flags) {
         printf(" flags=0x%x (reserved)", flags);
         odd++;
      }
      if (length == 0)
         printf(" (empty)");
      printf("\n");
   }
   if (size % entry)
      printf("# %zu trailing bytes ignored (not a whole entry)\n", size % entry);
   printf("# %zu entries, %zu with reserved flags set\n", n, odd);
   return odd || size % entry ? 1 : 0;
}

static const char *capture_kind(uint32_t kind)
{
   switch (kind) {
   case SG_CAPTURE_RING_ENTRY: return "ring entry";
   case SG_CAPTURE_LINKED: return "linked to the previous submission";
   case SG_CAPTURE_BRANCH: return "CALL/JUMP target";
   default: return "unknown kind";
   }
}

static bool is_capture(const uint8_t *data, size_t size)
{
   return size >= 4 && le32(data) == SG_CAPTURE_MAGIC;
}

static int dump_capture(const uint8_t *data, size_t size)
{
   size_t pos = 0, records = 0;
   int worst = 0;
   const size_t header = sizeof(struct sg_capture_record);
   while (pos < size) {
      const uint8_t *h = data + pos;
      if (size - pos < header || le32(h) != SG_CAPTURE_MAGIC) {
         printf("# byte %zu: %s; the rest is not decoded\n", pos,
                size - pos < header ? "a truncated record header" : "not a capture record");
         return 1;
      }
      uint64_t va = (uint64_t)le32(h + 8) | (uint64_t)le32(h + 12) << 32;
      uint64_t submission = (uint64_t)le32(h + 16) | (uint64_t)le32(h + 20) << 32;
      uint32_t kind = le32(h + 4), channel = le32(h + 24), dwords = le32(h + 28);
      if ((size - pos - header) / 4 < dwords) {
         printf("# byte %zu: a record of %u dwords, truncated\n", pos, dwords);
         return 1;
      }
      printf("# submission %llu, channel %u: %s, pushbuffer 0x%llx\n",
             (unsigned long long)submission, channel, capture_kind(kind), (unsigned long long)va);
      int r = dump_pushbuffer(h + header, (size_t)dwords * 4, true, va);
      worst = r > worst ? r : worst;
      pos += header + (size_t)dwords * 4;
      records++;
   }
   printf("# %zu capture records\n", records);
   return worst;
}

int main(int argc, char **argv)
{
   bool ring = false, have_va = false;
   uint64_t base = 0;
   const char *path = NULL;
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--ring") == 0) {
         ring = true;
      } else if (strcmp(argv[i], "--va") == 0 && i + 1 < argc) {
         char *end;
         errno = 0;
         const char *v = argv[++i];
         unsigned long long b = strtoull(v, &end, 0);
         if (!*v || *end || errno || v[0] == '-') {
            fprintf(stderr, "softgpu-dump: --va %s: not an address\n", v);
            return 2;
         }
         base = b;
         have_va = true;
      } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
         usage(stdout);
         return 0;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         fprintf(stderr, "softgpu-dump: unknown option %s\n", argv[i]);
         usage(stderr);
         return 2;
      } else if (!path) {
         path = argv[i];
      } else {
         usage(stderr);
         return 2;
      }
   }
   if (!path) {
      usage(stderr);
      return 2;
   }
   size_t size = 0;
   uint8_t *data = read_file(path, &size);
   if (!data)
      return 2;
   int r = ring ? dump_ring(data, size, have_va, base)
           : is_capture(data, size) ? dump_capture(data, size)
                                    : dump_pushbuffer(data, size, have_va, base);
   free(data);
   if (fflush(stdout) != 0)
      return 2;
   return r;
}
