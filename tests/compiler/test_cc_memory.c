/*
 * test_cc_memory: shared memory, barriers and atomics through the
 * compiler, at every warp width and local size (grids not a multiple of
 * the local size): tree reductions and prefix sums across barriers,
 * shared arrays of structs, every atomic operation on shared and on
 * buffer memory with results checked exactly (final values, and the
 * values atomicAdd/atomicExchange returned: a permutation, a chain).
 */
#include "sct.h"

#define SENTINEL 0xdeadbeefu

/* One run of a memory shader: binding 0 the input x[n], 1 the outputs
 * (outs words per invocation), 2 per-workgroup results or counters. */
struct mem_run {
   const char *shader;
   uint32_t w, l, n, groups, slots;
   bool optimize;
   uint32_t outs, grp_words;
   uint32_t *x, *o, *grp;
   char what[96];
};

static const struct sc_binding mem_bindings[3] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                                  {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0},
                                                  {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0}};
static const struct sc_set_layout mem_layout = {3, mem_bindings};

/* Compiles r->shader for (w, l) and runs it; grp_init fills binding 2
 * first (NULL: sentinels). False if anything failed. */
static bool mem_launch(struct sct *s, struct mem_run *r, void (*grp_init)(uint32_t *grp))
{
   snprintf(r->what, sizeof(r->what), "%s W=%u L=%u%s", r->shader, r->w, r->l,
            r->optimize ? " optimized" : "");
   struct sct_opts so;
   sct_options(&so, r->w, r->l, &mem_layout, 1);
   so.o.optimize = r->optimize;
   struct sc_program p;
   if (!sct_compile_named(r->shader, &so.o, &p, r->what))
      return false;
   HWT_CHECK(p.uses_barrier == (strncmp(r->shader, "shared", 6) == 0 ||
                                strcmp(r->shader, "atomics_shared") == 0),
             "%s: uses_barrier %d", r->what, p.uses_barrier);
   r->n = sct_map_count(r->l);
   r->groups = (r->n + r->l - 1) / r->l;
   r->slots = r->groups * r->l;
   sct_fresh(s);
   uint64_t x_va = sct_buf(s, 4ull * r->slots, &r->x);
   uint64_t o_va = sct_buf_fill(s, 4ull * r->slots * r->outs, SENTINEL, &r->o);
   uint64_t g_va = sct_buf_fill(s, 4ull * r->grp_words, SENTINEL, &r->grp);
   for (uint32_t g = 0; g < r->n; g++)
      r->x[g] = sct_hash(g ^ (r->w << 20) ^ (r->l << 8));
   if (grp_init)
      grp_init(r->grp);
   uint64_t set_va = sct_buf(s, 64, NULL);
   sct_descriptor(s, set_va, 0, x_va, 4ull * r->slots);
   sct_descriptor(s, set_va, 16, o_va, 4ull * r->slots * r->outs);
   sct_descriptor(s, set_va, 32, g_va, 4ull * r->grp_words);
   struct hw_root_table root = {.sets = {set_va}};
   memcpy(root.push, &r->n, 4);
   bool ok = sct_launch(s, &p, (uint32_t[3]){r->groups, 1, 1}, sct_root_upload(s, &root), r->what);
   sc_program_free(&p);
   return ok;
}

/* The invocations of workgroup G that are < n: [first, end). */
static void group_range(const struct mem_run *r, uint32_t G, uint32_t *first, uint32_t *end)
{
   *first = G * r->l;
   *end = (G + 1) * r->l < r->n ? (G + 1) * r->l : r->n;
}

/* Runs fn over the matrix. */
static void matrix(struct sct *s, const char *shader, void (*fn)(struct sct *, struct mem_run *))
{
   uint32_t runs = 0;
   int before = atomic_load(&hwt_failures);
   for (uint32_t wi = 0; wi < 4; wi++) {
      for (uint32_t li = 0; li < 4; li++) {
         if (!sct_matrix_pair(sct_widths[wi], sct_locals[li]))
            continue;
         for (int optimize = 0; optimize < 2; optimize++) {
            struct mem_run r = {.shader = shader, .w = sct_widths[wi], .l = sct_locals[li],
                                .optimize = optimize};
            fn(s, &r);
            runs++;
         }
      }
   }
   fprintf(stderr, "  %-24s %u runs, %s\n", shader, runs,
           atomic_load(&hwt_failures) == before ? "ok" : "FAILED");
}

/* ---- reductions and scans -------------------------------------------------------- */

static void run_reduce(struct sct *s, struct mem_run *r)
{
   r->outs = 0;
   r->grp_words = 2 * 2048;
   if (!mem_launch(s, r, NULL))
      return;
   int budget = 6;
   for (uint32_t G = 0; G < r->groups; G++) {
      uint32_t first, end, sum = 0, mx = 0;
      group_range(r, G, &first, &end);
      for (uint32_t g = first; g < end; g++) {
         sum += r->x[g];
         mx = r->x[g] > mx ? r->x[g] : mx;
      }
      SCT_CHECK_U(r->grp[2 * G], sum, &budget, "%s group %u sum",
                  r->what, G);
      SCT_CHECK_U(r->grp[2 * G + 1], mx, &budget,
                  "%s group %u max", r->what, G);
   }
}

static void run_scan(struct sct *s, struct mem_run *r)
{
   r->outs = 3;
   r->grp_words = 4;
   if (!mem_launch(s, r, NULL))
      return;
   int budget = 6;
   for (uint32_t G = 0; G < r->groups; G++) {
      uint32_t first, end, acc = 0;
      group_range(r, G, &first, &end);
      for (uint32_t g = first; g < end; g++) {
         uint32_t v = r->x[g] & 0xffffu;
         acc += v;
         SCT_CHECK_U(r->o[3 * g], acc, &budget,
                     "%s g=%u inclusive", r->what, g);
         SCT_CHECK_U(r->o[3 * g + 1], acc - v, &budget,
                     "%s g=%u exclusive", r->what, g);
         SCT_CHECK_U(r->o[3 * g + 2], G * 7 + 3, &budget,
                     "%s g=%u token", r->what, g);
      }
   }
}

static void run_struct(struct sct *s, struct mem_run *r)
{
   r->outs = 4;
   r->grp_words = 4;
   if (!mem_launch(s, r, NULL))
      return;
   int budget = 6;
   for (uint32_t g = 0; g < r->n; g++) {
      uint32_t G = g / r->l, lid = g % r->l;
      uint32_t lid2 = r->l - 1 - lid, g2 = G * r->l + lid2;
      uint32_t tl = (lid % 32) * 32 + lid / 32;
      struct sct_want want[4] = {sct_fx((float)g2), sct_u(g2 ^ 0x5a5au),
                                 sct_fx((float)lid2 + 0.5f),
                                 tl < r->l ? sct_u(G * r->l + tl) : sct_skip()};
      for (uint32_t k = 0; k < 4; k++)
         sct_check(r->o[4 * g + k], &want[k], &budget, "%s g=%u word %u", r->what, g, k);
   }
}

/* ---- atomics --------------------------------------------------------------------- */

/* The reference of one set of counters over x[first, end). */
struct counters {
   uint32_t cnt, mn, mx, a_and, a_or, a_xor;
   int32_t smin, smax, neg;
   uint64_t add64;
   uint32_t hist[16];
};

static void counters_ref(const uint32_t *x, uint32_t first, uint32_t end, struct counters *c)
{
   *c = (struct counters){.mn = UINT32_MAX, .a_and = UINT32_MAX, .smin = INT32_MAX,
                          .smax = INT32_MIN};
   for (uint32_t g = first; g < end; g++) {
      uint32_t v = x[g];
      c->cnt++;
      c->mn = v < c->mn ? v : c->mn;
      c->mx = v > c->mx ? v : c->mx;
      c->a_and &= v | 0xf0f0f0f0u;
      c->a_or |= v & 0x0f0f0f0fu;
      c->a_xor ^= v;
      c->smin = (int32_t)v < c->smin ? (int32_t)v : c->smin;
      c->smax = (int32_t)v > c->smax ? (int32_t)v : c->smax;
      c->neg = (int32_t)((uint32_t)c->neg - (v & 0xffu));
      c->add64 += (uint64_t)v << 20;
      c->hist[v & 15]++;
   }
}

/* The values atomicAdd(counter, 1) returned to [first, end) (word 0 of
 * each invocation's pair) must be a permutation of 0 .. end - first - 1;
 * those atomicExchange(x, g) returned (word 1), with the final value,
 * the initial value and every g exactly once. */
static void check_returns(const struct mem_run *r, uint32_t first, uint32_t end, uint32_t final,
                          int *budget, const char *scope)
{
   uint32_t count = end - first;
   uint8_t *seen = calloc(count + 1, 1);
   HWT_REQUIRE(seen, "out of memory");
   bool perm = true;
   for (uint32_t g = first; g < end; g++) {
      uint32_t v = r->o[2 * g];
      if (v < count && !seen[v])
         seen[v] = 1;
      else
         perm = false;
   }
   SCT_CHECK_U(perm, 1, budget,
               "%s %s: atomicAdd returns are not a permutation of 0..%u", r->what, scope, count - 1);
   /* exchange chain: slot count stands for the initial 0xffffffff */
   memset(seen, 0, count + 1);
   bool chain = true;
   for (uint32_t g = first; g <= end; g++) {
      uint32_t v = g < end ? r->o[2 * g + 1] : final;
      uint32_t slot = v == UINT32_MAX ? count : v - first;
      if (v != UINT32_MAX && (v < first || v >= end))
         chain = false;
      else if (seen[slot])
         chain = false;
      else
         seen[slot] = 1;
   }
   SCT_CHECK_U(chain, 1, budget,
               "%s %s: atomicExchange returns and final value are not the initial value and "
               "every invocation once", r->what, scope);
   free(seen);
}

static void run_atomics_shared(struct sct *s, struct mem_run *r)
{
   r->outs = 2;
   r->grp_words = 10 * 2048;
   if (!mem_launch(s, r, NULL))
      return;
   int budget = 6;
   static const char *const names[10] = {"add", "min", "max", "and", "or", "xor", "smin", "smax",
                                         "xchg", "compswap"};
   for (uint32_t G = 0; G < r->groups; G++) {
      uint32_t first, end;
      group_range(r, G, &first, &end);
      struct counters c;
      counters_ref(r->x, first, end, &c);
      const uint32_t *got = r->grp + 10 * G;
      uint32_t want[10] = {c.cnt, c.mn, c.mx, c.a_and, c.a_or, c.a_xor, (uint32_t)c.smin,
                           (uint32_t)c.smax, got[8], 3 * c.cnt};
      for (uint32_t k = 0; k < 10; k++)
         SCT_CHECK_U(got[k], want[k], &budget,
                     "%s group %u atomic %s", r->what, G, names[k]);
      char scope[32];
      snprintf(scope, sizeof(scope), "group %u", G);
      check_returns(r, first, end, got[8], &budget, scope);
   }
}

enum { C_CNT, C_MN, C_MX, C_AND, C_OR, C_XOR, C_SMIN, C_SMAX, C_NEG, C_XCHG, C_CAS, C_PAD,
       C_ADD64, C_HIST = C_ADD64 + 2, C_WORDS = C_HIST + 16 };

static void global_counters_init(uint32_t *c)
{
   memset(c, 0, 4 * C_WORDS);
   c[C_MN] = UINT32_MAX;
   c[C_AND] = UINT32_MAX;
   c[C_SMIN] = (uint32_t)INT32_MAX;
   c[C_SMAX] = (uint32_t)INT32_MIN;
   c[C_XCHG] = UINT32_MAX;
}

static void run_atomics_global(struct sct *s, struct mem_run *r)
{
   r->outs = 2;
   r->grp_words = C_WORDS;
   if (!mem_launch(s, r, global_counters_init))
      return;
   int budget = 6;
   struct counters c;
   counters_ref(r->x, 0, r->n, &c);
   const uint32_t *got = r->grp;
   const struct { const char *name; uint32_t at, want; } checks[] = {
      {"add", C_CNT, c.cnt}, {"umin", C_MN, c.mn}, {"umax", C_MX, c.mx}, {"and", C_AND, c.a_and},
      {"or", C_OR, c.a_or}, {"xor", C_XOR, c.a_xor}, {"smin", C_SMIN, (uint32_t)c.smin},
      {"smax", C_SMAX, (uint32_t)c.smax}, {"add negative", C_NEG, (uint32_t)c.neg},
      {"compswap loop", C_CAS, 3 * c.cnt}, {"add64 lo", C_ADD64, (uint32_t)c.add64},
      {"add64 hi", C_ADD64 + 1, (uint32_t)(c.add64 >> 32)}};
   for (size_t k = 0; k < sizeof(checks) / sizeof(checks[0]); k++)
      SCT_CHECK_U(got[checks[k].at], checks[k].want, &budget,
                  "%s atomic %s", r->what, checks[k].name);
   for (uint32_t b = 0; b < 16; b++)
      SCT_CHECK_U(got[C_HIST + b], c.hist[b], &budget,
                  "%s histogram bin %u", r->what, b);
   check_returns(r, 0, r->n, got[C_XCHG], &budget, "all invocations");
}

/* ---- fences ---------------------------------------------------------------------- */

/* Memory barriers of workgroup scope need no MEMBAR (the CTA runs on one
 * execution unit), device-scope ones one each; a workgroup barrier keeps
 * its BAR. The shared-memory tests above check that results stay right. */
static void check_fences(void)
{
   static const struct {
      const char *shader;
      uint32_t membars, bars;
   } want[] = {{"fences_workgroup", 0, 1}, {"fences_device", 2, 0}};
   for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
      struct sct_opts so;
      sct_options(&so, 32, 0, &sct_map_layout, 1);
      struct sc_program p;
      if (!sct_compile_named(want[i].shader, &so.o, &p, want[i].shader))
         continue;
      uint32_t membars = sct_count_op(&p, ISA_OP_MEMBAR, -1);
      uint32_t bars = sct_count_op(&p, ISA_OP_BAR, -1);
      HWT_CHECK(membars == want[i].membars && bars == want[i].bars,
                "%s: %u MEMBAR and %u BAR, expected %u and %u", want[i].shader, membars, bars,
                want[i].membars, want[i].bars);
      sc_program_free(&p);
   }
   fprintf(stderr, "  %-24s %s\n", "fences", "checked");
}

/* ---- shared_tiles ------------------------------------------------------------------ */

static void shared_tiles_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   (void)i;
   uint32_t a = in[0], b = in[1], s = 0;
   for (uint32_t k = 0; k < 3; k++)
      s = s * 31 + a + (2 - k) * b;
   w[0] = sct_u(s);
   w[1] = sct_u(a + b + 7);
   w[2] = sct_u(((a + 2 * b) ^ b) + a * 5);
}

static const struct sct_map shared_tiles =
   SCT_MAP("shared_tiles", 2, 3, NULL, shared_tiles_ref, NULL);

/* ---- copy_memory ------------------------------------------------------------------- */

/* OpCopyMemory between buffer and private memory, and of an array too
 * large for registers (shaders/copy_memory.spvasm). */
static void copy_memory_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   (void)i;
   w[0] = sct_u(in[0]);
   w[1] = sct_u(in[0] * 3);
   w[2] = sct_u(in[0] + 5);
   w[3] = sct_u(in[0]);
}

static const struct sct_map copy_memory =
   SCT_MAP("copy_memory", 1, 4, NULL, copy_memory_ref, NULL);

/* A shared access at a dynamic address plus a constant (the tile's place,
 * a constant index times its stride) takes the constant in its offset
 * field rather than in an add: every access to the tile has a register
 * address and a non-zero offset. Both loops are unrolled, and their
 * accesses all read one address register (l * 4, computed once), as do
 * those of row[l + 8]. */
static void check_shared_offsets(void)
{
   struct sc_program p;
   if (!sct_compile_shape("shared_tiles", &p))
      return;
   const struct isa_program_header *h = p.image;
   const struct isa_inst *code = (const void *)(h + 1);
   uint32_t with_offset = 0, without = 0, other_address = 0, address = UINT32_MAX;
   for (uint32_t i = 0; i < h->inst_count; i++) {
      if ((code[i].op != ISA_OP_LDS && code[i].op != ISA_OP_STS) ||
          isa_opnd_kind(code[i].a) != ISA_OPND_VREG)
         continue;
      with_offset += code[i].imm != 0;
      without += code[i].imm == 0;
      if (address == UINT32_MAX)
         address = code[i].a;
      other_address += code[i].a != address;
   }
   HWT_CHECK(with_offset >= 3 && without == 0,
             "shared_tiles: %u shared accesses at register + offset, %u at a register alone",
             with_offset, without);
   HWT_CHECK(with_offset == 10 && other_address == 0,
             "shared_tiles: %u tile and row accesses, %u of them at another address register "
             "than the first, expected 10 and 0", with_offset, other_address);
   sc_program_free(&p);
   fprintf(stderr, "  %-24s %s\n", "shared offsets", "checked");
}

int main(int argc, char **argv)
{
   static const struct {
      const char *shader;
      void (*fn)(struct sct *, struct mem_run *);
   } tests[] = {
      {"shared_reduce", run_reduce},
      {"shared_scan", run_scan},
      {"shared_struct", run_struct},
      {"atomics_shared", run_atomics_shared},
      {"atomics_global", run_atomics_global},
   };
   struct sct s;
   sct_init(&s);
   for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
      if (argc > 1 && strcmp(argv[1], tests[i].shader) != 0)
         continue;
      matrix(&s, tests[i].shader, tests[i].fn);
   }
   if (argc <= 1 || strcmp(argv[1], "fences") == 0)
      check_fences();
   if (argc <= 1 || strcmp(argv[1], "shared_tiles") == 0) {
      sct_map_matrix(&s, &shared_tiles);
      check_shared_offsets();
   }
   if (argc <= 1 || strcmp(argv[1], "copy_memory") == 0)
      sct_map_matrix(&s, &copy_memory);
   sct_fini(&s);
   return hwt_finish();
}
