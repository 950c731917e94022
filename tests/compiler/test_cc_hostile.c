/*
 * test_cc_hostile: sc_compile on input it must refuse, cleanly (a false
 * return with a message that names the problem, no crash, no leak under
 * ASan) or, for valid input, accept:
 * - no input, short input, wrong and byte-swapped magic numbers;
 * - every truncation of a valid module, with and without validation;
 * - hand-written invalid modules (a call to an undefined function, a
 *   vector of a non-type), with and without validation;
 * - thousands of deterministic mutations (bit flips, replaced words and
 *   ids, broken word counts and opcodes, truncations, deleted and
 *   duplicated instructions) of four valid modules, with and without
 *   validation. They run in child processes so that a crash or a hang is
 *   reported with the mutation that caused it (and the rest still run);
 *   a compile that succeeds must produce a well-formed ISA program;
 * - entry points: a wrong name, a vertex shader, a module with several
 *   entry points (each compute one compiled and run);
 * - an unsupported capability (Geometry; the compute-relevant ones are in
 *   test_cc_features), with and without validation;
 * - limits: too many registers, too much shared memory, a set beyond the
 *   root table, a binding or set the layout does not describe, bad warp
 *   widths, workgroups of 0 or more than 1024 invocations;
 * - the same input twice gives the same program (with or without the
 *   validator's cache).
 *
 * One case can be replayed in-process, and written out as a .spv:
 *   test_cc_hostile mutant|truncated|invalid <base> <index> [--no-validate] [out.spv]
 * (case i compiles for warp width 8 << (i % 4), with the SPIRV-Tools
 * optimizer when (i / 4) is odd).
 */
#include "sct.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* Checks that compiling fails and the message contains `needle` (NULL:
 * any non-empty message). */
static void expect_error(const uint32_t *words, size_t count, const struct sc_options *o,
                         const char *needle, const char *what)
{
   char err[512];
   memset(err, 0x55, sizeof(err));
   struct sc_program p;
   bool ok = sc_compile(words, count, o, &p, err, sizeof(err));
   HWT_CHECK(!ok, "%s: compiled, but should have been refused", what);
   if (ok) {
      sc_program_free(&p);
      return;
   }
   HWT_CHECK(memchr(err, '\0', sizeof(err)) != NULL, "%s: message not terminated", what);
   HWT_CHECK(err[0] != '\0', "%s: empty message", what);
   HWT_CHECK(!needle || strstr(err, needle), "%s: message \"%s\" does not mention \"%s\"", what,
             err, needle);
   HWT_CHECK(p.image == NULL, "%s: failed compile left an image", what);
}

static void default_options(struct sct_opts *so, uint32_t width)
{
   sct_options(so, width, 64, &sct_map_layout, 1);
}

/* ---- empty, short, wrong magic --------------------------------------------------- */

static void test_headers(void)
{
   struct sct_opts so;
   default_options(&so, 32);
   expect_error(NULL, 0, &so.o, NULL, "NULL words");
   uint32_t tiny[5] = {0x07230203u, 0x00010300u, 0, 10, 0};
   expect_error(tiny, 0, &so.o, NULL, "0 words");
   for (size_t n = 1; n <= 5; n++)
      expect_error(tiny, n, &so.o, NULL, "header only");
   size_t count;
   uint32_t *w = sct_spirv("int_arith", &count);
   uint32_t magic = w[0];
   w[0] = 0x07230203u ^ 0x100u;
   expect_error(w, count, &so.o, NULL, "wrong magic");
   w[0] = __builtin_bswap32(magic);
   expect_error(w, count, &so.o, NULL, "byte-swapped magic (other words not swapped)");
   w[0] = magic;
   so.o.validate = false;
   w[3] = 0;
   expect_error(w, count, &so.o, NULL, "id bound 0, no validation");
   w[3] = 0xffffffffu;
   expect_error(w, count, &so.o, NULL, "id bound 2^32-1, no validation");
   free(w);
}


/* ---- cases run in child processes ------------------------------------------------ */

/* A family of generated inputs: case i of a base module, compiled with or
 * without validation. */
struct family {
   const char *kind;            /* "mutant" or "truncated" */
   const char *base;            /* shader name */
   const uint32_t *words;
   size_t count;
   uint32_t cases;
   bool validate;
   /* The input of case i (malloc'd, exact size: ASan sees overreads). */
   uint32_t *(*make)(const struct family *f, uint32_t i, size_t *n);
};

/* Compiles case i; false if sc_compile misbehaved (a success that is not
 * a valid program, a failure without a message). Counts acceptances. */
static bool compile_case(const struct family *f, uint32_t i, uint32_t *accepted)
{
   size_t n;
   uint32_t *w = f->make(f, i, &n);
   /* bindings 0-7 of sets 0 and 1: every base module's resources */
   static const struct sc_binding bindings[8] = {
      {0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},   {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0},
      {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0},  {3, SC_DESC_STORAGE_BUFFER, 1, 48, 0},
      {4, SC_DESC_UNIFORM_BUFFER, 1, 64, 0},  {5, SC_DESC_UNIFORM_BUFFER, 1, 80, 0},
      {6, SC_DESC_STORAGE_BUFFER, 1, 96, 0},  {7, SC_DESC_STORAGE_BUFFER, 1, 112, 0}};
   static const struct sc_set_layout sets[2] = {{8, bindings}, {8, bindings}};
   struct sct_opts so;
   sct_options(&so, sct_widths[i % 4], 64, sets, 2);
   so.o.validate = f->validate;
   so.o.optimize = (i / 4) % 2;   /* both paths: with and without the SPIRV-Tools optimizer */
   char err[512];
   memset(err, 0x55, sizeof(err));
   struct sc_program p;
   bool ok = sc_compile(w, n, &so.o, &p, err, sizeof(err)), good = true;
   if (ok) {
      char why[256];
      if (!isa_program_validate(p.image, p.size, why, sizeof(why))) {
         fprintf(stderr, "  %s %s %u (validate %d): accepted, but the program is malformed: %s\n",
                 f->base, f->kind, i, f->validate, why);
         good = false;
      }
      (*accepted)++;
      sc_program_free(&p);
   } else if (!memchr(err, '\0', sizeof(err)) || err[0] == '\0') {
      fprintf(stderr, "  %s %s %u (validate %d): refused without a message\n", f->base, f->kind,
              i, f->validate);
      good = false;
   }
   free(w);
   return good;
}

/* A child compiles cases [first, cases), writing each index to the pipe
 * before compiling it; exits 0 if all behaved. */
static _Noreturn void family_child(int fd, const struct family *f, uint32_t first)
{
   uint32_t accepted = 0;
   bool good = true;
   for (uint32_t i = first; i < f->cases; i++) {
      if (write(fd, &i, 4) != 4)
         _exit(3);
      alarm(60);   /* a hang is a failure too */
      good &= compile_case(f, i, &accepted);
   }
   uint32_t done[2] = {UINT32_MAX, accepted};
   if (write(fd, done, 8) != 8)
      _exit(3);
   close(fd);
   exit(good ? 0 : 1);   /* exit, not _exit: LeakSanitizer checks at exit */
}

/* Runs every case of a family in children, starting a new child after the
 * case that crashed one. */
static void run_family(const struct family *f)
{
   uint32_t first = 0, crashes = 0, accepted = 0;
   while (first < f->cases) {
      int fds[2];
      HWT_REQUIRE(pipe(fds) == 0, "pipe");
      fflush(stderr);
      pid_t pid = fork();
      HWT_REQUIRE(pid >= 0, "fork");
      if (pid == 0) {
         close(fds[0]);
         family_child(fds[1], f, first);
      }
      close(fds[1]);
      uint32_t last = first, v;
      bool finished = false;
      while (read(fds[0], &v, 4) == 4) {
         if (v == UINT32_MAX) {
            finished = read(fds[0], &v, 4) == 4;
            accepted += v;
            break;
         }
         last = v;
      }
      close(fds[0]);
      int status;
      HWT_REQUIRE(waitpid(pid, &status, 0) == pid, "waitpid");
      if (finished && WIFEXITED(status)) {
         HWT_CHECK(WEXITSTATUS(status) == 0,
                   "%s %s cases (validate %d): misbehaved or leaked (child exit %d); see above",
                   f->base, f->kind, f->validate, WEXITSTATUS(status));
         break;
      }
      crashes++;
      const char *how = !WIFSIGNALED(status) ? "exited"
                        : WTERMSIG(status) == SIGALRM ? "hung"
                                                      : strsignal(WTERMSIG(status));
      atomic_fetch_add(&hwt_failures, 1);
      if (crashes <= 5)
         fprintf(stderr,
                 "  %s %s %u (validate %d): sc_compile %s (replay: test_cc_hostile %s %s %u%s)\n",
                 f->base, f->kind, last, f->validate, how, f->kind, f->base, last,
                 f->validate ? "" : " --no-validate");
      first = last + 1;
   }
   if (crashes > 5)
      fprintf(stderr, "  ... and %u more crashes\n", crashes - 5);
   fprintf(stderr, "  %-16s %-9s validate %d: %u cases, %u accepted, %u crashed or hung\n",
           f->base, f->kind, f->validate, f->cases, accepted, crashes);
}

/* ---- every truncation ------------------------------------------------------------ */

static uint32_t *truncated(const struct family *f, uint32_t i, size_t *n)
{
   uint32_t *w = malloc(4 * (i ? i : 1));
   HWT_REQUIRE(w, "out of memory");
   memcpy(w, f->words, 4 * i);
   *n = i;
   return w;
}

/* No proper prefix of a module is valid (OpFunctionEnd comes last), so
 * every truncation must be refused. */
static void test_truncations(void)
{
   size_t count;
   uint32_t *w = sct_spirv("flow_switch", &count);
   for (int validate = 1; validate >= 0; validate--) {
      struct family f = {"truncated", "flow_switch", w, count, (uint32_t)count, validate,
                         truncated};
      run_family(&f);
   }
   free(w);
}

/* ---- hand-written invalid modules ------------------------------------------------ */

static uint32_t *copied(const struct family *f, uint32_t i, size_t *n)
{
   uint32_t *w = malloc(4 * f->count);
   HWT_REQUIRE(w, "out of memory");
   memcpy(w, f->words, 4 * f->count);
   *n = f->count;
   return w;
}

/* Modules the validator rejects, compiled with and without it: cases
 * 0-7 are the four widths without and with the SPIRV-Tools optimizer. */
static void test_invalid_modules(void)
{
   static const char *const names[] = {"invalid_call", "invalid_vector_type"};
   for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
      size_t count;
      uint32_t *w = sct_spirv(names[k], &count);
      for (int validate = 1; validate >= 0; validate--) {
         struct family f = {"invalid", names[k], w, count, 8, validate, copied};
         run_family(&f);
      }
      free(w);
   }
}

/* ---- mutations ------------------------------------------------------------------- */

static const char *const mutation_bases[] = {"int_arith", "flow_loops", "subgroup",
                                             "atomics_shared"};
#define MUTATION_BASES 4u

#ifdef SCT_SANITIZED
#define MUTATIONS_PER_BASE 250u
#else
#define MUTATIONS_PER_BASE 600u
#endif

/* Instruction starts of a module (word offsets), up to max. */
static uint32_t instructions(const uint32_t *w, size_t count, uint32_t *at, uint32_t max)
{
   uint32_t n = 0;
   for (size_t i = 5; i < count && n < max;) {
      uint32_t len = w[i] >> 16;
      if (len == 0 || i + len > count)
         break;
      at[n++] = (uint32_t)i;
      i += len;
   }
   return n;
}

/* Mutant `index` of a module: a copy (malloc'd, exact size) changed one
 * to three times. */
static uint32_t *mutate(const uint32_t *base, size_t count, uint32_t index, size_t *out_count)
{
   uint64_t rng = 0x9e3779b97f4a7c15ull * (index + 1) + 12345;
   size_t n = count;
   uint32_t *w = malloc(4 * (count + 64));
   HWT_REQUIRE(w, "out of memory");
   memcpy(w, base, 4 * count);
   static uint32_t at[8192];
   uint32_t rounds = 1 + (uint32_t)(eut_rand(&rng) % 3);
   for (uint32_t r = 0; r < rounds && n > 5; r++) {
      uint32_t insts = instructions(w, n, at, 8192);
      uint32_t pick = insts ? at[eut_rand(&rng) % insts] : 5;
      uint32_t len = w[pick] >> 16;
      size_t word = 5 + eut_rand(&rng) % (n - 5);
      uint32_t bound = w[3];
      switch (eut_rand(&rng) % 9) {
      case 0:   /* flip a bit anywhere after the magic */
         word = 1 + eut_rand(&rng) % (n - 1);
         w[word] ^= 1u << (eut_rand(&rng) % 32);
         break;
      case 1:   /* an operand becomes another id (or one past the bound) */
         if (len > 1)
            w[pick + 1 + eut_rand(&rng) % (len - 1)] = (uint32_t)(eut_rand(&rng) % (bound + 2));
         break;
      case 2:   /* a word becomes a boundary value */
         w[word] = (uint32_t[]){0, 1, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0xffffu,
                                bound, bound - 1}[eut_rand(&rng) % 8];
         break;
      case 3:   /* a wrong word count */
         w[pick] = (w[pick] & 0xffffu) | (uint32_t)(eut_rand(&rng) % (len + 4)) << 16;
         break;
      case 4:   /* another opcode, keeping the operands */
         w[pick] = (w[pick] & 0xffff0000u) | (uint32_t)(eut_rand(&rng) % 400);
         break;
      case 5:   /* truncation */
         n = 5 + eut_rand(&rng) % (n - 5);
         break;
      case 6:   /* delete an instruction */
         if (len && pick + len <= n) {
            memmove(w + pick, w + pick + len, 4 * (n - pick - len));
            n -= len;
         }
         break;
      case 7:   /* duplicate an instruction (redefines its result id) */
         if (len && len <= 64 && pick + len <= n) {
            memmove(w + pick + len, w + pick, 4 * (n - pick));
            n += len;
            r = rounds;   /* the buffer has room for one duplication */
         }
         break;
      default:  /* a random word */
         w[word] = (uint32_t)eut_rand(&rng);
         break;
      }
   }
   uint32_t *exact = malloc(4 * (n ? n : 1));
   HWT_REQUIRE(exact, "out of memory");
   memcpy(exact, w, 4 * n);
   free(w);
   *out_count = n;
   return exact;
}

/* Compiles mutant `index`; false if sc_compile misbehaved (a success
 * that is not a valid program, a failure without a message). */

static uint32_t *mutant(const struct family *f, uint32_t i, size_t *n)
{
   return mutate(f->words, f->count, i, n);
}

static void test_mutations(void)
{
   for (uint32_t b = 0; b < MUTATION_BASES; b++) {
      size_t count;
      uint32_t *w = sct_spirv(mutation_bases[b], &count);
      for (int validate = 1; validate >= 0; validate--) {
         struct family f = {"mutant", mutation_bases[b], w, count, MUTATIONS_PER_BASE, validate,
                            mutant};
         run_family(&f);
      }
      free(w);
   }
}

/* test_cc_hostile mutant|truncated|invalid <base> <index> [--no-validate] [out.spv] */
static int replay(int argc, char **argv)
{
   if (argc < 4)
      return 2;
   bool validate = true;
   const char *out = NULL;
   for (int i = 4; i < argc; i++) {
      if (strcmp(argv[i], "--no-validate") == 0)
         validate = false;
      else
         out = argv[i];
   }
   size_t words, n;
   uint32_t *base = sct_spirv(argv[2], &words);
   uint32_t index = (uint32_t)strtoul(argv[3], NULL, 10);
   struct family f = {argv[1], argv[2], base, words, index + 1, validate,
                      strcmp(argv[1], "mutant") == 0      ? mutant
                      : strcmp(argv[1], "truncated") == 0 ? truncated
                                                          : copied};
   if (out) {
      uint32_t *w = f.make(&f, index, &n);
      FILE *file = fopen(out, "wb");
      HWT_REQUIRE(file && fwrite(w, 4, n, file) == n, "cannot write %s", out);
      fclose(file);
      free(w);
   }
   uint32_t accepted = 0;
   bool good = compile_case(&f, index, &accepted);
   fprintf(stderr, "%s %u of %s: %s\n", argv[1], index, argv[2],
           !good ? "misbehaved" : accepted ? "accepted" : "refused");
   free(base);
   return good ? 0 : 1;
}

/* ---- entry points ---------------------------------------------------------------- */

static void test_entry_points(struct sct *s)
{
   struct sct_opts so;
   default_options(&so, 32);
   size_t count;
   uint32_t *w = sct_spirv("int_arith", &count);
   so.o.entry_point = "mian";
   expect_error(w, count, &so.o, "mian", "wrong entry point name");
   so.o.entry_point = "";
   expect_error(w, count, &so.o, NULL, "empty entry point name");
   free(w);

   w = sct_spirv("vertex", &count);
   default_options(&so, 32);
   expect_error(w, count, &so.o, "GLCompute", "vertex shader");
   free(w);

   /* Two compute entry points and a vertex one named "main". */
   static const struct sc_binding b[1] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout set = {1, b};
   w = sct_spirv("two_entries", &count);
   sct_options(&so, 16, 0, &set, 1);
   expect_error(w, count, &so.o, "GLCompute", "two_entries: \"main\" is the vertex one");
   static const struct { const char *name; uint32_t size, value; } entries[2] = {
      {"alpha", 4, 0xa1fa}, {"beta", 8, 0xbe7a}};
   for (int e = 0; e < 2; e++) {
      so.o.entry_point = entries[e].name;
      struct sc_program p;
      char what[64];
      snprintf(what, sizeof(what), "two_entries entry %s", entries[e].name);
      if (!sct_compile(w, count, &so.o, &p, what))
         continue;
      HWT_CHECK(p.local_size[0] == entries[e].size, "%s: local size %u", what, p.local_size[0]);
      sct_fresh(s);
      uint32_t *o;
      uint64_t o_va = sct_buf_fill(s, 4 * 32, 0, &o);
      uint64_t set_va = sct_buf(s, 16, NULL);
      sct_descriptor(s, set_va, 0, o_va, 4 * 32);
      struct hw_root_table root = {.sets = {set_va}};
      if (sct_launch(s, &p, (uint32_t[3]){2, 1, 1}, sct_root_upload(s, &root), what)) {
         int budget = 4;
         for (uint32_t g = 0; g < 32; g++)
            SCT_CHECK_U(o[g], g < 2 * entries[e].size ? entries[e].value : 0, &budget,
                        "%s out[%u]", what, g);
      }
      sc_program_free(&p);
   }
   free(w);
}

/* ---- limits and layouts ---------------------------------------------------------- */

static void test_limits(void)
{
   struct sct_opts so;
   size_t count;
   uint32_t *w = sct_spirv("too_many_regs", &count);
   default_options(&so, 32);
   expect_error(w, count, &so.o, "registers", "72 live uvec4");
   free(w);

   w = sct_spirv("big_shared", &count);
   expect_error(w, count, &so.o, "workgroup memory", "80 KiB of shared memory");
   free(w);

   w = sct_spirv("cap_geometry", &count);
   for (int validate = 0; validate < 2; validate++) {
      so.o.validate = validate;
      expect_error(w, count, &so.o, "Geometry", "capability Geometry");
   }
   so.o.validate = true;
   free(w);

   w = sct_spirv("set9", &count);
   expect_error(w, count, &so.o, "set 9", "descriptor set 9");
   free(w);

   w = sct_spirv("int_arith", &count);
   static const struct sc_binding only0[1] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout missing = {1, only0};
   sct_options(&so, 32, 64, &missing, 1);
   expect_error(w, count, &so.o, "binding 1", "layout without binding 1");
   sct_options(&so, 32, 64, NULL, 0);
   expect_error(w, count, &so.o, "set 0", "no sets in the layout");
   static const struct sc_binding other[2] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                              {5, SC_DESC_STORAGE_BUFFER, 1, 16, 0}};
   static const struct sc_set_layout wrong = {2, other};
   sct_options(&so, 32, 64, &wrong, 1);
   expect_error(w, count, &so.o, "binding 1", "layout with bindings 0 and 5");

   static const uint32_t widths[] = {0, 1, 4, 12, 24, 48, 128, 256};
   for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
      char what[48], needle[16];
      snprintf(what, sizeof(what), "warp width %u", widths[i]);
      snprintf(needle, sizeof(needle), "%u", widths[i]);
      default_options(&so, 32);
      so.o.warp_width = widths[i];
      expect_error(w, count, &so.o, needle, what);
   }
   static const uint32_t locals[] = {0, 1025, 4096, 0x80000000u};
   for (size_t i = 0; i < sizeof(locals) / sizeof(locals[0]); i++) {
      char what[48];
      snprintf(what, sizeof(what), "local size %u", locals[i]);
      sct_options(&so, 32, 0, &sct_map_layout, 1);
      sct_spec(&so, 0, 4, locals[i]);
      expect_error(w, count, &so.o, "workgroup size", what);
   }
   free(w);

   /* 3-D sizes whose product is too large, each dimension fine */
   w = sct_spirv("ids", &count);
   static const struct sc_binding b[1] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout set = {1, b};
   sct_options(&so, 32, 32, &set, 1);
   sct_spec(&so, 1, 4, 32);
   sct_spec(&so, 2, 4, 2);
   expect_error(w, count, &so.o, "workgroup size", "local size 32x32x2");
   free(w);
}

/* ---- determinism ----------------------------------------------------------------- */

static void test_determinism(void)
{
   static const char *const names[] = {"flow_loops", "subgroup", "vecmat"};
   for (size_t k = 0; k < 3; k++) {
      size_t count;
      uint32_t *w = sct_spirv(names[k], &count);
      struct sc_program p[3];
      bool ok = true;
      for (int i = 0; i < 3; i++) {
         struct sct_opts so;
         default_options(&so, 16);
         so.o.validate = i != 1;   /* the second skips the validator */
         ok &= sct_compile(w, count, &so.o, &p[i], names[k]);
      }
      if (ok) {
         for (int i = 1; i < 3; i++)
            HWT_CHECK(p[i].size == p[0].size && memcmp(p[i].image, p[0].image, p[0].size) == 0,
                      "%s: compile %d differs from the first", names[k], i);
      }
      for (int i = 0; i < 3 && ok; i++)
         sc_program_free(&p[i]);
      free(w);
   }
}

int main(int argc, char **argv)
{
   if (argc > 1 && (strcmp(argv[1], "mutant") == 0 || strcmp(argv[1], "truncated") == 0 ||
                    strcmp(argv[1], "invalid") == 0))
      return replay(argc, argv);
   bool only = argc > 1;
   struct sct s;
   sct_init(&s);
   if (!only || strcmp(argv[1], "headers") == 0)
      HWT_RUN(test_headers);
   if (!only || strcmp(argv[1], "entry") == 0) {
      fprintf(stderr, "-- test_entry_points\n");
      test_entry_points(&s);
   }
   if (!only || strcmp(argv[1], "limits") == 0)
      HWT_RUN(test_limits);
   if (!only || strcmp(argv[1], "determinism") == 0)
      HWT_RUN(test_determinism);
   sct_fini(&s);
   /* Last, without a GPU (no worker threads while forking). */
   if (!only || strcmp(argv[1], "invalid_modules") == 0)
      HWT_RUN(test_invalid_modules);
   if (!only || strcmp(argv[1], "truncations") == 0)
      HWT_RUN(test_truncations);
   if (!only || strcmp(argv[1], "mutations") == 0)
      HWT_RUN(test_mutations);
   return hwt_finish();
}
