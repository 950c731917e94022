/*
 * test_eu_atomics: global and shared atomics at every warp width, with
 * CTAs spread over the execution-unit workers (eut_threads(), 2 by
 * default).
 *
 * Pins down:
 * - atomicAdd(p, 1) (ATOMG.add, uniform address) from every lane of 512
 *   CTAs of 128: the returned values are a permutation of 0..N-1 and the
 *   counter ends at N; the same with per-lane addresses spread over 7
 *   counters (a permutation per counter);
 * - ATOMG.min_s/min_u/max_s/max_u/and/or/xor on random values end at the C
 *   fold of them; ATOMG.xchg's returned values plus the final one are the
 *   initial value plus every value stored (as multisets);
 * - 64-bit ATOMG (.64) add of 2^32-1 (a carry into the high dword each
 *   time): returned values are k * (2^32-1) for a permutation of k, the
 *   final one N * (2^32-1); 64-bit min_s/min_u/max_s/max_u/and/or/xor/xchg;
 * - CASG (32 and 64 bits) as a lock-free increment loop: every
 *   invocation's successful compare value is distinct, a permutation of
 *   0..N-1;
 * - shared atomics (ATOMS.add returns a permutation of 0..S-1 within each
 *   CTA; ATOMS.max_u/min_s/or/64-bit add; CASS increments) in CTAs of 100
 *   with barriers around them, the CTA's results copied out.
 */
#include "eut.h"

static int cmp_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

static void sort64(uint64_t *v, uint64_t n)
{
   qsort(v, n, sizeof(*v), cmp_u64);
}

/* values[0..n) are exactly {k * unit : k < n}. */
static void check_permutation(const uint64_t *values, uint64_t n, uint64_t unit,
                              const char *what)
{
   uint64_t *v = malloc(n * sizeof(*v));
   HWT_REQUIRE(v, "out of memory");
   memcpy(v, values, n * sizeof(*v));
   sort64(v, n);
   for (uint64_t i = 0; i < n; i++) {
      if (v[i] != i * unit) {
         HWT_CHECK(false, "%s: sorted returned value %llu is 0x%llx, expected 0x%llx", what,
                   (unsigned long long)i, (unsigned long long)v[i],
                   (unsigned long long)(i * unit));
         break;
      }
   }
   free(v);
}

/* Program = prologue (formatted with w) + body. In the prologue:
 * u0 = the atomic word(s), u2 = out, u4 = in, v1 = invocation index,
 * v4 = v1 * 4 as a 64-bit pair, v6 = v1 * 8 as a pair. */
static uint64_t program(struct eut *t, uint32_t w, const char *body)
{
   return eut_programf(t,
                       ".warp %u\n"
                       ".barrier\n"
                       "ldr.b64 u0 +0\n"
                       "ldr.b64 u2 +8\n"
                       "ldr.b64 u4 +16\n"
                       "s2r.local_index v0\n"
                       "s2r.group_id_x u8\n"
                       "s2r.group_size_x u9\n"
                       "imad v1, u8, u9, v0\n"
                       "shl v2, v1, #2\n"
                       "zext64 v4, v2\n"
                       "shl v3, v1, #3\n"
                       "zext64 v6, v3\n"
                       "%s", w, body);
}

struct run {
   struct eut t;
   uint64_t word, out, in;
   uint32_t n;
};

static void run_start(struct run *r, uint32_t words, uint32_t out_bytes_per, uint32_t n)
{
   eut_init(&r->t, NULL);
   r->n = n;
   r->word = eut_alloc(&r->t, 8ull * words, 64);
   r->out = eut_alloc(&r->t, (uint64_t)out_bytes_per * n, 64);
   r->in = eut_alloc(&r->t, 8ull * n, 64);
}

static void run_launch(struct run *r, uint64_t prog, uint32_t cta, uint32_t shared,
                       const char *what)
{
   uint64_t root[3] = {r->word, r->out, r->in};
   struct eut_launch l = {.program = prog, .grid = {r->n / cta}, .size = {cta},
                          .shared_bytes = shared, .root = eut_root(&r->t, root, 3)};
   eut_run(&r->t, &l, what);
}

/* ---- atomicAdd(p, 1) ------------------------------------------------------------------ */

static void test_add_permutation(void)
{
   const uint32_t cta = 128, n = cta * 512;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct run r;
      run_start(&r, 8, 8, n);
      /* One counter, uniform address; then 7 counters, per-lane addresses
       * (word + 8 + (i % 7) * 4). */
      uint64_t prog = program(&r.t, w,
                              "mov v11, #1\n"
                              "atomg.add v10, u0, v11\n"
                              "irem_u v12, v1, #7\n"
                              "shl v12, v12, #2\n"
                              "iadd v12, v12, #8\n"
                              "zext64 v14, v12\n"
                              "iadd64 v14, v14, u0\n"
                              "atomg.add v11, v14, v11\n"
                              "iadd64 v8, v6, u2\n"
                              "stg.b64 _, v8, v10\n"
                              "exit\n");
      run_launch(&r, prog, cta, 0, "atomicAdd");
      const uint32_t *o = eut_ptr(&r.t, r.out), *word = eut_ptr(&r.t, r.word);
      uint64_t *v = malloc(8ull * n);
      HWT_REQUIRE(v, "oom");
      char what[96];
      for (uint32_t i = 0; i < n; i++)
         v[i] = o[2 * i];
      snprintf(what, sizeof(what), "atomicAdd(p, 1) W=%u", w);
      check_permutation(v, n, 1, what);
      HWT_CHECK(word[0] == n, "%s: counter %u, expected %u", what, word[0], n);
      for (uint32_t c = 0; c < 7; c++) {
         uint32_t m = 0;
         for (uint32_t i = c; i < n; i += 7)
            v[m++] = o[2 * i + 1];
         snprintf(what, sizeof(what), "atomicAdd(p[i %% 7], 1) W=%u counter %u", w, c);
         check_permutation(v, m, 1, what);
         HWT_CHECK(word[2 + c] == m, "%s: counter %u, expected %u", what, word[2 + c], m);
      }
      free(v);
      eut_fini(&r.t);
   }
}

/* ---- 32-bit folds and exchange --------------------------------------------------------- */

static void test_folds32(void)
{
   static const char *const ops[] = {"min_s", "min_u", "max_s", "max_u", "and", "or", "xor",
                                     "xchg"};
   const uint32_t cta = 64, n = cta * 64;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct run r;
      run_start(&r, 8, 4 * 8, n);
      uint32_t *in = eut_ptr(&r.t, r.in), *word = eut_ptr(&r.t, r.word);
      uint64_t rng = 99 + w;
      for (uint32_t i = 0; i < n; i++)
         in[i] = (uint32_t)eut_rand(&rng);
      const uint32_t init[8] = {0x12345678u, 0x12345678u, 0x12345678u, 0x12345678u,
                                0xffffffffu, 0, 0x5a5a5a5au, 0xabcdef01u};
      memcpy(word, init, sizeof(init));
      struct eut_text body = {0};
      eut_text_add(&body, "iadd64 v8, v4, u4\n"
                          "ldg.b32 v10, v8\n"
                          "shl v12, v1, #5\n"
                          "zext64 v12, v12\n"
                          "iadd64 v12, v12, u2\n");
      for (int k = 0; k < 8; k++)
         eut_text_add(&body, "atomg.%s v11, u0, v10 +%d\n"
                             "stg.b32 _, v12, v11 +%d\n", ops[k], 4 * k, 4 * k);
      eut_text_add(&body, "exit\n");
      run_launch(&r, program(&r.t, w, body.s), cta, 0, "32-bit folds");
      eut_text_free(&body);
      uint32_t want[8];
      memcpy(want, init, sizeof(want));
      for (uint32_t i = 0; i < n; i++) {
         uint32_t x = in[i];
         want[0] = (int32_t)x < (int32_t)want[0] ? x : want[0];
         want[1] = x < want[1] ? x : want[1];
         want[2] = (int32_t)x > (int32_t)want[2] ? x : want[2];
         want[3] = x > want[3] ? x : want[3];
         want[4] &= x;
         want[5] |= x;
         want[6] ^= x;
      }
      for (int k = 0; k < 7; k++)
         HWT_CHECK(word[k] == want[k], "atomg.%s W=%u: 0x%08x, expected 0x%08x", ops[k], w,
                   word[k], want[k]);
      /* xchg: {returned} + {final} == {initial} + {stored}. */
      const uint32_t *o = eut_ptr(&r.t, r.out);
      uint64_t *a = malloc(8ull * (n + 1)), *b = malloc(8ull * (n + 1));
      HWT_REQUIRE(a && b, "oom");
      for (uint32_t i = 0; i < n; i++) {
         a[i] = o[8 * i + 7];
         b[i] = in[i];
      }
      a[n] = word[7];
      b[n] = init[7];
      sort64(a, n + 1);
      sort64(b, n + 1);
      HWT_CHECK(memcmp(a, b, 8ull * (n + 1)) == 0, "atomg.xchg W=%u: returned + final values "
                "are not initial + stored", w);
      /* Every returned value of a fold is an intermediate: for min_u it is
       * >= the final minimum. */
      for (uint32_t i = 0; i < n; i++) {
         if (o[8 * i + 1] < word[1]) {
            HWT_CHECK(false, "atomg.min_u W=%u returned 0x%08x below the final 0x%08x", w,
                      o[8 * i + 1], word[1]);
            break;
         }
      }
      free(a);
      free(b);
      eut_fini(&r.t);
   }
}

/* ---- 64-bit atomics ------------------------------------------------------------------------ */

static void test_atomics64(void)
{
   const uint32_t cta = 100, n = cta * 80;
   const uint64_t unit = 0xffffffffull;
   static const char *const ops[] = {"min_s", "min_u", "max_s", "max_u", "and", "or", "xor",
                                     "xchg"};
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct run r;
      run_start(&r, 16, 8 * 16, n);
      uint64_t *in = eut_ptr(&r.t, r.in), *word = eut_ptr(&r.t, r.word);
      uint64_t rng = 7 + w;
      for (uint32_t i = 0; i < n; i++)
         in[i] = eut_rand(&rng);
      const uint64_t init[9] = {0, 0x0123456789abcdefull, 0x0123456789abcdefull,
                                0x0123456789abcdefull, 0x0123456789abcdefull, UINT64_MAX, 0,
                                0x5a5a5a5a5a5a5a5aull, 0x1111222233334444ull};
      memcpy(word, init, sizeof(init));
      struct eut_text body = {0};
      eut_text_add(&body, "mov v10, #0xffffffff\n"
                          "mov v11, #0\n"
                          "atomg.add.64 v12, u0, v10\n"
                          "shl v20, v1, #7\n"
                          "zext64 v20, v20\n"
                          "iadd64 v20, v20, u2\n"
                          "stg.b64 _, v20, v12\n"
                          "iadd64 v8, v6, u4\n"
                          "ldg.b64 v14, v8\n");
      for (int k = 0; k < 8; k++)
         eut_text_add(&body, "atomg.%s.64 v16, u0, v14 +%d\n"
                             "stg.b64 _, v20, v16 +%d\n", ops[k], 8 * (k + 1), 8 * (k + 1));
      eut_text_add(&body, "exit\n");
      run_launch(&r, program(&r.t, w, body.s), cta, 0, "64-bit atomics");
      eut_text_free(&body);
      const uint64_t *o = eut_ptr(&r.t, r.out);
      uint64_t *v = malloc(8ull * (n + 1)), *b = malloc(8ull * (n + 1));
      HWT_REQUIRE(v && b, "oom");
      for (uint32_t i = 0; i < n; i++)
         v[i] = o[16 * i];
      char what[64];
      snprintf(what, sizeof(what), "atomg.add.64 W=%u", w);
      check_permutation(v, n, unit, what);
      HWT_CHECK(word[0] == n * unit, "%s: final 0x%llx, expected 0x%llx", what,
                (unsigned long long)word[0], (unsigned long long)(n * unit));
      uint64_t want[9];
      memcpy(want, init, sizeof(want));
      for (uint32_t i = 0; i < n; i++) {
         uint64_t x = in[i];
         want[1] = (int64_t)x < (int64_t)want[1] ? x : want[1];
         want[2] = x < want[2] ? x : want[2];
         want[3] = (int64_t)x > (int64_t)want[3] ? x : want[3];
         want[4] = x > want[4] ? x : want[4];
         want[5] &= x;
         want[6] |= x;
         want[7] ^= x;
      }
      for (int k = 0; k < 7; k++)
         HWT_CHECK(word[k + 1] == want[k + 1], "atomg.%s.64 W=%u: 0x%016llx, expected 0x%016llx",
                   ops[k], w, (unsigned long long)word[k + 1], (unsigned long long)want[k + 1]);
      for (uint32_t i = 0; i < n; i++) {
         v[i] = o[16 * i + 8];
         b[i] = in[i];
      }
      v[n] = word[8];
      b[n] = init[8];
      sort64(v, n + 1);
      sort64(b, n + 1);
      HWT_CHECK(memcmp(v, b, 8ull * (n + 1)) == 0, "atomg.xchg.64 W=%u: returned + final values "
                "are not initial + stored", w);
      free(v);
      free(b);
      eut_fini(&r.t);
   }
}

/* ---- compare-exchange ------------------------------------------------------------------ */

static void test_cas(void)
{
   const uint32_t cta = 64, n = cta * 64;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct run r;
      run_start(&r, 4, 16, n);
      /* 32-bit at word[0]; 64-bit at word + 8, starting at 2^32 - n/2 (the
       * increments carry into the high dword). */
      uint64_t *word = eut_ptr(&r.t, r.word);
      const uint64_t base64 = (1ull << 32) - n / 2;
      word[1] = base64;
      uint64_t prog = program(&r.t, w,
                              "loop\n"
                              "h1: ldg.b32 v10, u0\n"
                              "   iadd v11, v10, #1\n"
                              "   casg v12, u0, v10, v11\n"
                              "   icmp.eq v13, v12, v10\n"
                              "   brk _, v13 @e1\n"
                              "e1: endloop @h1\n"
                              "loop\n"
                              "h2: ldg.b64 v14, u0 +8\n"
                              "   iadd64 v16, v14, #1\n"
                              "   casg.64 v18, u0, v14, v16 +8\n"
                              "   icmp64.eq v13, v18, v14\n"
                              "   brk _, v13 @e2\n"
                              "e2: endloop @h2\n"
                              "shl v20, v1, #4\n"
                              "zext64 v20, v20\n"
                              "iadd64 v20, v20, u2\n"
                              "stg.b32 _, v20, v10\n"
                              "stg.b64 _, v20, v14 +8\n"
                              "exit\n");
      run_launch(&r, prog, cta, 0, "CAS loops");
      const uint64_t *o = eut_ptr(&r.t, r.out);
      uint64_t *v = malloc(8ull * n);
      HWT_REQUIRE(v, "oom");
      char what[64];
      for (uint32_t i = 0; i < n; i++)
         v[i] = (uint32_t)o[2 * i];
      snprintf(what, sizeof(what), "casg increments W=%u", w);
      check_permutation(v, n, 1, what);
      HWT_CHECK((uint32_t)word[0] == n, "%s: final %u", what, (uint32_t)word[0]);
      for (uint32_t i = 0; i < n; i++)
         v[i] = o[2 * i + 1] - base64;
      snprintf(what, sizeof(what), "casg.64 increments W=%u", w);
      check_permutation(v, n, 1, what);
      HWT_CHECK(word[1] == base64 + n, "%s: final 0x%llx", what, (unsigned long long)word[1]);
      free(v);
      eut_fini(&r.t);
   }
}

/* ---- shared atomics ---------------------------------------------------------------------- */

static void test_shared(void)
{
   const uint32_t cta = 100, groups = 20, n = cta * groups;
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct run r;
      run_start(&r, 1, 8, n);
      uint32_t *in = eut_ptr(&r.t, r.in);
      uint64_t rng = 5 + w;
      for (uint32_t i = 0; i < n; i++)
         in[i] = (uint32_t)eut_rand(&rng);
      /* shared: [0] add counter, [1] max_u, [2] min_s, [3] or, [4] CAS
       * counter, [6..7] 64-bit add. Lane 0 initializes, all add, lane 0
       * copies the CTA's results to out (as 8 dwords per CTA at
       * out + 8 * n). Each invocation stores its add and CAS results. */
      uint64_t summary = eut_alloc(&r.t, 32ull * groups, 64);
      uint64_t prog = program(&r.t, w,
                              "ldr.b64 u10 +24\n"
                              "icmp.eq v20, v0, #0\n"
                              "if _, v20 @i_end\n"
                              "   mov v21, #0\n"
                              "   sts.b32 _, _, v21\n"
                              "   sts.b32 _, _, v21 +4\n"
                              "   mov v22, #0x7fffffff\n"
                              "   sts.b32 _, _, v22 +8\n"
                              "   sts.b32 _, _, v21 +12\n"
                              "   sts.b32 _, _, v21 +16\n"
                              "   mov v22, #0xfffffff0\n"
                              "   sts.b32 _, _, v22 +24\n"
                              "   sts.b32 _, _, v21 +28\n"
                              "i_end: endif\n"
                              "bar\n"
                              "iadd64 v8, v4, u4\n"
                              "ldg.b32 v10, v8\n"
                              "mov v11, #1\n"
                              "atoms.add v12, _, v11\n"
                              "atoms.max_u v13, _, v10 +4\n"
                              "atoms.min_s v13, _, v10 +8\n"
                              "atoms.or v13, _, v10 +12\n"
                              "mov v14, #0\n"
                              "atoms.add.64 v16, _, v11 +24 ; v11:v12 = 1 + (add result << 32)\n"
                              "loop\n"
                              "h: lds.b32 v18, _ +16\n"
                              "   iadd v19, v18, #1\n"
                              "   cass v24, _, v18, v19 +16\n"
                              "   icmp.eq v25, v24, v18\n"
                              "   brk _, v25 @e\n"
                              "e: endloop @h\n"
                              "iadd64 v8, v6, u2\n"
                              "stg.b32 _, v8, v12\n"
                              "stg.b32 _, v8, v18 +4\n"
                              "bar\n"
                              "if _, v20 @c_end\n"
                              "   lds.b128 v26, _\n"
                              "   lds.b128 v30, _ +16\n"
                              "   shl u12, u8, #5\n"
                              "   zext64 u14, u12\n"
                              "   iadd64 u14, u14, u10\n"
                              "   stg.b128 _, u14, v26\n"
                              "   stg.b128 _, u14, v30 +16\n"
                              "c_end: endif\n"
                              "exit\n");
      uint64_t root[4] = {r.word, r.out, r.in, summary};
      struct eut_launch l = {.program = prog, .grid = {groups}, .size = {cta},
                             .shared_bytes = 32, .root = eut_root(&r.t, root, 4)};
      eut_run(&r.t, &l, "shared atomics");
      const uint32_t *o = eut_ptr(&r.t, r.out), *s = eut_ptr(&r.t, summary);
      uint64_t *v = malloc(8ull * cta);
      HWT_REQUIRE(v, "oom");
      for (uint32_t g = 0; g < groups; g++) {
         char what[64];
         snprintf(what, sizeof(what), "atoms.add W=%u CTA %u", w, g);
         for (uint32_t i = 0; i < cta; i++)
            v[i] = o[2 * (g * cta + i)];
         check_permutation(v, cta, 1, what);
         snprintf(what, sizeof(what), "cass increments W=%u CTA %u", w, g);
         for (uint32_t i = 0; i < cta; i++)
            v[i] = o[2 * (g * cta + i) + 1];
         check_permutation(v, cta, 1, what);
         uint32_t mx = 0, orv = 0;
         int32_t mn = INT32_MAX;
         for (uint32_t i = 0; i < cta; i++) {
            uint32_t x = in[g * cta + i];
            mx = x > mx ? x : mx;
            mn = (int32_t)x < mn ? (int32_t)x : mn;
            orv |= x;
         }
         const uint32_t *sg = s + 8 * g;
         uint64_t add64 = sg[6] | (uint64_t)sg[7] << 32;
         /* The 64-bit value added is the pair (v11, v12): 1 and the lane's
          * own add result, so the sum is cta + (sum of 0..cta-1) << 32. */
         uint64_t want64 = 0xfffffff0ull + cta + ((uint64_t)(cta * (cta - 1) / 2) << 32);
         HWT_CHECK(sg[0] == cta && sg[1] == mx && sg[2] == (uint32_t)mn && sg[3] == orv &&
                   sg[4] == cta && add64 == want64,
                   "shared results W=%u CTA %u: add %u max_u 0x%x min_s 0x%x or 0x%x cas %u "
                   "add64 0x%llx; expected %u 0x%x 0x%x 0x%x %u 0x%llx", w, g, sg[0], sg[1],
                   sg[2], sg[3], sg[4], (unsigned long long)add64, cta, mx, (uint32_t)mn, orv,
                   cta, (unsigned long long)want64);
      }
      free(v);
      eut_fini(&r.t);
   }
}

int main(void)
{
   HWT_RUN(test_add_permutation);
   HWT_RUN(test_folds32);
   HWT_RUN(test_atomics64);
   HWT_RUN(test_cas);
   HWT_RUN(test_shared);
   return hwt_finish();
}
