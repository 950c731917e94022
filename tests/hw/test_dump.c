/*
 * test_dump: the softgpu-dump tool (tools/softgpu_dump.c), run as a
 * separate process on files this test writes.
 *
 * Pins down:
 * - a pushbuffer file (raw little-endian dwords) prints one packet per line
 *   as "<dword offset, %6u>  <text>", the exact texts given here (control
 *   characters of labels escaped as \xNN); with
 *   --va BASE each line starts with the packet's VA as 0x%016llx;
 * - malformed data (an unknown opcode, a payload length the opcode does
 *   not allow, a packet truncated by the end of the file) prints the
 *   decoder's INVALID text plus "; skipped 1 dword", and the dump
 *   resynchronizes one dword later; trailing bytes that are not a whole
 *   dword are reported; the exit status is 1 then, 0 when all is well;
 * - a ring file (--ring, raw struct hw_ring_entry records) prints one entry
 *   per line, flags reserved entries and empty ones, reports a partial
 *   entry;
 * - random garbage never crashes the tool, and every dword is accounted for
 *   (line offsets increase, the lines cover the file);
 * - usage and I/O errors exit with 2; an empty file is fine.
 */
#define _GNU_SOURCE 1
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hwt.h"

#ifndef SOFTGPU_DUMP
#error "SOFTGPU_DUMP (the path of softgpu-dump) must be defined"
#endif

static char dir[256];

static void write_file(const char *name, const void *data, size_t size, char *path, size_t n)
{
   snprintf(path, n, "%s/%s", dir, name);
   FILE *f = fopen(path, "wb");
   HWT_REQUIRE(f, "cannot write %s", path);
   HWT_REQUIRE(fwrite(data, 1, size, f) == size, "short write");
   fclose(f);
}

/* Runs the tool with args; returns its stdout (malloc'd) and exit status
 * (-1 if it did not exit normally, e.g. crashed). */
static char *run(const char *args, int *status)
{
   char cmd[1024];
   snprintf(cmd, sizeof(cmd), "'%s' %s 2>/dev/null", SOFTGPU_DUMP, args);
   FILE *p = popen(cmd, "r");
   HWT_REQUIRE(p, "popen");
   size_t cap = 1 << 16, n = 0;
   char *out = malloc(cap);
   HWT_REQUIRE(out, "out of memory");
   size_t got;
   while ((got = fread(out + n, 1, cap - n - 1, p)) > 0) {
      n += got;
      if (cap - n - 1 == 0) {
         cap *= 2;
         out = realloc(out, cap);
         HWT_REQUIRE(out, "out of memory");
      }
   }
   out[n] = '\0';
   int st = pclose(p);
   *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
   return out;
}

struct expect {
   char text[8192];
   size_t used;
};

static void line(struct expect *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct expect *e, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   e->used += (size_t)vsnprintf(e->text + e->used, sizeof(e->text) - e->used, fmt, ap);
   va_end(ap);
   e->used += (size_t)snprintf(e->text + e->used, sizeof(e->text) - e->used, "\n");
}

static void check_output(const char *what, const char *got, const char *want)
{
   if (strcmp(got, want) == 0)
      return;
   /* Report the first differing line. */
   const char *g = got, *w = want;
   int n = 1;
   while (*g && *w) {
      const char *ge = strchr(g, '\n'), *we = strchr(w, '\n');
      size_t gl = ge ? (size_t)(ge - g) : strlen(g), wl = we ? (size_t)(we - w) : strlen(w);
      if (gl != wl || memcmp(g, w, gl) != 0)
         break;
      g += gl + (ge ? 1 : 0);
      w += wl + (we ? 1 : 0);
      n++;
   }
   HWT_CHECK(false, "%s: line %d differs:\n  got:  %.*s\n  want: %.*s\nfull output:\n%s", what, n,
             (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w, got);
}

static void test_pushbuffer(void)
{
   _Alignas(8) uint32_t pb[64];
   uint32_t *p = pb;
   p = hw_emit_label(p, HW_OP_LABEL_PUSH, "draw");            /* 0 */
   p = hw_emit_sem(p, HW_OP_SEM_ACQUIRE, 0, 0x1000, 5);       /* 3 */
   *p++ = 0xc8000000u;                                        /* 8: unknown opcode */
   p = hw_emit_copy(p, 0x2000, 0x3000, 64);                   /* 9 */
   *p++ = HW_PKT_HEADER(HW_OP_SEM_RELEASE, 0, 3);             /* 16: too short */
   *p++ = 0;                                                  /* 17..19: read as NOPs */
   *p++ = 0;
   *p++ = 0;
   p = hw_emit_timestamp(p, HW_PKT_FLAG_WFI, 0x5000);         /* 20 */
   HWT_REQUIRE(p - pb == 23, "layout");
   p = hw_emit_link_slot(p);                                  /* 23, no padding */
   HWT_REQUIRE(p - pb == 27, "link slot without padding");
   p = hw_emit_fill(p, 0x0e0000000a000000ull, 64, 1);         /* 27: cut after 2 payload dwords */
   uint32_t n = 30;
   uint8_t bytes[30 * 4 + 3];
   memcpy(bytes, pb, 30 * 4);
   bytes[120] = 0xaa;
   bytes[121] = 0xbb;
   bytes[122] = 0xcc;

   static const char *const texts[][2] = {
      {"0", "LABEL_PUSH \"draw\""},
      {"3", "SEM_ACQUIRE va=0x1000 value=5"},
      {"8", "INVALID header=0xc8000000 (unknown opcode 200); skipped 1 dword"},
      {"9", "DMA_COPY src=0x2000 dst=0x3000 size=64"},
      {"16", "INVALID SEM_RELEASE header=0x02000003: payload of 3 dwords, expected 4..4; "
             "skipped 1 dword"},
      {"17", "NOP"},
      {"18", "NOP"},
      {"19", "NOP"},
      {"20", "TIMESTAMP va=0x5000 wfi"},
      {"23", "LINK_SLOT open"},
      {"27", "INVALID DMA_FILL header=0x06000005: 5 payload dwords, 2 left; skipped 1 dword"},
      {"28", "RETURN"},
      {"29", "LABEL_POP"},
   };
   char path[512], args[600];
   write_file("pb.bin", bytes, sizeof(bytes), path, sizeof(path));
   for (int va = 0; va < 2; va++) {
      struct expect e = {.used = 0};
      line(&e, "# pushbuffer: %u dwords", n);
      for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
         unsigned off = (unsigned)atoi(texts[i][0]);
         if (va)
            line(&e, "0x%016llx  %6u  %s", 0xfffff00000010000ull + 4ull * off, off, texts[i][1]);
         else
            line(&e, "%6u  %s", off, texts[i][1]);
      }
      line(&e, "# 3 trailing bytes ignored (not a whole dword)");
      line(&e, "# 10 packets, 3 malformed dwords skipped");
      snprintf(args, sizeof(args), va ? "--va 0xfffff00000010000 %s" : "%s", path);
      int status;
      char *out = run(args, &status);
      check_output(va ? "pushbuffer with --va" : "pushbuffer", out, e.text);
      HWT_CHECK(status == 1, "malformed data: exit status %d", status);
      free(out);
   }

   /* A clean one: exit status 0, and the --va after the file name. A label
    * with control characters stays on one line. */
   p = pb;
   p = hw_emit_sem(p, HW_OP_SEM_RELEASE, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT, 0x1008, 6);
   p = hw_emit_branch(p, HW_OP_CALL, 0x4000, 12);
   p = hw_emit_label(p, HW_OP_LABEL_INSERT, "a\nb\tc\x7f");
   write_file("clean.bin", pb, (size_t)(p - pb) * 4, path, sizeof(path));
   snprintf(args, sizeof(args), "%s --va 65536", path);
   int status;
   char *out = run(args, &status);
   check_output("clean pushbuffer", out,
                "# pushbuffer: 12 dwords\n"
                "0x0000000000010000       0  SEM_RELEASE va=0x1008 value=6 wfi interrupt\n"
                "0x0000000000010014       5  CALL va=0x4000 dwords=12\n"
                "0x0000000000010024       9  LABEL_INSERT \"a\\x0ab\\x09c\\x7f\"\n"
                "# 3 packets, 0 malformed dwords skipped\n");
   HWT_CHECK(status == 0, "clean: exit status %d", status);
   free(out);
}

static void test_ring(void)
{
   struct hw_ring_entry ring[3] = {
      {0x10000, 30, 0},
      {0xffffffff00001000ull, 0, 0},
      {0x12340, 7, 0x4},
   };
   uint8_t bytes[sizeof(ring) + 5];
   memcpy(bytes, ring, sizeof(ring));
   memset(bytes + sizeof(ring), 0x11, 5);
   char path[512], args[600];
   write_file("ring.bin", bytes, sizeof(bytes), path, sizeof(path));
   snprintf(args, sizeof(args), "--ring --va 0x20000 %s", path);
   int status;
   char *out = run(args, &status);
   check_output("ring", out,
                "# ring: 3 entries\n"
                "0x0000000000020000       0  RING_ENTRY pushbuffer=0x10000 dwords=30\n"
                "0x0000000000020010       1  RING_ENTRY pushbuffer=0xffffffff00001000 dwords=0 (empty)\n"
                "0x0000000000020020       2  RING_ENTRY pushbuffer=0x12340 dwords=7 flags=0x4 (reserved)\n"
                "# 5 trailing bytes ignored (not a whole entry)\n"
                "# 3 entries, 1 with reserved flags set\n");
   HWT_CHECK(status == 1, "odd ring: exit status %d", status);
   free(out);

   write_file("ring2.bin", ring, 2 * sizeof(ring[0]), path, sizeof(path));
   snprintf(args, sizeof(args), "%s --ring", path);
   out = run(args, &status);
   check_output("clean ring", out,
                "# ring: 2 entries\n"
                "     0  RING_ENTRY pushbuffer=0x10000 dwords=30\n"
                "     1  RING_ENTRY pushbuffer=0xffffffff00001000 dwords=0 (empty)\n"
                "# 2 entries, 0 with reserved flags set\n");
   HWT_CHECK(status == 0, "clean ring: exit status %d", status);
   free(out);
}

/* Random data: no crash, and the lines account for every dword. */
static void test_garbage(void)
{
   const uint32_t n = 16384;
   uint32_t *g = malloc(n * 4);
   HWT_REQUIRE(g, "out of memory");
   uint64_t x = 0x243f6a8885a308d3ull;
   for (uint32_t i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      /* Mostly plausible opcodes and lengths, so that valid packets of every
       * kind, truncated ones and bad lengths all occur. */
      uint32_t r = (uint32_t)x;
      g[i] = (i % 3) ? r : HW_PKT_HEADER((r >> 24) % 20, (r >> 16) & 3, (r & 0xffff) % 12);
   }
   char path[512], args[600];
   write_file("garbage.bin", g, n * 4, path, sizeof(path));
   snprintf(args, sizeof(args), "%s", path);
   int status;
   char *out = run(args, &status);
   HWT_CHECK(status == 0 || status == 1, "garbage: exit status %d (crashed?)", status);
   long prev = -1;
   unsigned lines = 0, skipped = 0, packets = 0, reported_packets = 0, reported_bad = 0;
   for (char *s = out; *s;) {
      char *e = strchr(s, '\n');
      HWT_REQUIRE(e, "unterminated line");
      *e = '\0';
      if (*s == '#') {
         sscanf(s, "# %u packets, %u malformed", &reported_packets, &reported_bad);
      } else {
         long off = strtol(s, NULL, 10);
         HWT_CHECK(off > prev && off < (long)n, "offset %ld after %ld", off, prev);
         prev = off;
         lines++;
         if (strstr(s, "; skipped 1 dword"))
            skipped++;
         else
            packets++;
      }
      s = e + 1;
   }
   HWT_CHECK(lines > 1000 && skipped > 0 && packets > 0, "%u lines, %u skipped", lines, skipped);
   HWT_CHECK(reported_packets == packets && reported_bad == skipped,
             "summary %u/%u, counted %u/%u", reported_packets, reported_bad, packets, skipped);
   free(out);

   /* The longest NOP covers the whole file. */
   uint32_t *big = calloc(0x10000, 4);
   HWT_REQUIRE(big, "out of memory");
   big[0] = HW_PKT_HEADER(HW_OP_NOP, 0, 0xffff);
   write_file("nop.bin", big, 0x10000 * 4, path, sizeof(path));
   snprintf(args, sizeof(args), "%s", path);
   out = run(args, &status);
   check_output("longest NOP", out,
                "# pushbuffer: 65536 dwords\n"
                "     0  NOP (payload ignored)\n"
                "# 1 packets, 0 malformed dwords skipped\n");
   free(out);
   free(big);
   free(g);
}

static void test_errors(void)
{
   int status;
   char *out = run("", &status);
   HWT_CHECK(status == 2, "no file: %d", status);
   free(out);
   char args[600];
   snprintf(args, sizeof(args), "%s/does-not-exist", dir);
   out = run(args, &status);
   HWT_CHECK(status == 2 && out[0] == '\0', "missing file: %d", status);
   free(out);
   char path[512];
   write_file("empty.bin", "", 0, path, sizeof(path));
   snprintf(args, sizeof(args), "--va nonsense %s", path);
   out = run(args, &status);
   HWT_CHECK(status == 2, "bad --va: %d", status);
   free(out);
   snprintf(args, sizeof(args), "--frobnicate %s", path);
   out = run(args, &status);
   HWT_CHECK(status == 2, "unknown option: %d", status);
   free(out);
   out = run("--help", &status);
   HWT_CHECK(status == 0 && strstr(out, "usage: softgpu-dump"), "--help: %d", status);
   free(out);
   snprintf(args, sizeof(args), "%s", path);
   out = run(args, &status);
   check_output("empty file", out, "# pushbuffer: 0 dwords\n# 0 packets, 0 malformed dwords skipped\n");
   HWT_CHECK(status == 0, "empty file: %d", status);
   free(out);
}

int main(void)
{
   const char *tmp = getenv("TMPDIR");
   snprintf(dir, sizeof(dir), "%s/softgpu-dump-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
   HWT_REQUIRE(mkdtemp(dir), "mkdtemp");
   HWT_RUN(test_pushbuffer);
   HWT_RUN(test_ring);
   HWT_RUN(test_garbage);
   HWT_RUN(test_errors);
   char cmd[600];
   snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
   if (system(cmd) != 0)
      fprintf(stderr, "could not remove %s\n", dir);
   return hwt_finish();
}
