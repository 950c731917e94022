/*
 * test_cc_resources: how compiled shaders reach memory, with the root
 * table, descriptor sets and buffers laid out by hand as hw_root.h
 * specifies: push constants at every offset, a std140 uniform buffer
 * (row- and column-major matrices, 16-byte array strides), several sets
 * and bindings, descriptor arrays, dynamic offsets, buffer device
 * addresses, specialization constants, the built-in ids of 3-D dispatches,
 * structs copied between std140 and std430 layouts, OpArrayLength,
 * robust buffer access, and 8- and 16-bit storage (byte and halfword
 * accesses, also at a range's end under robust access).
 */
#include "sct.h"

#include "../common/sgt_half.h"

#define SENTINEL 0xdeadbeefu

/* Compiles alternate between the driver's default path and the SPIRV-Tools
 * optimizer's. */
static bool next_optimize(void)
{
   static unsigned count;
   return count++ & 1;
}

/* Options for one variant: the sets, the width and local size, and the
 * next optimizer setting, which `what` then names. */
static void variant_options(struct sct_opts *so, char *what, size_t size, uint32_t w, uint32_t l,
                            const struct sc_set_layout *set)
{
   sct_options(so, w, l, set, 1);
   so->o.optimize = next_optimize();
   if (so->o.optimize)
      strncat(what, " optimized", size - strlen(what) - 1);
}

static uint32_t groups_for(uint32_t n, uint32_t local)
{
   return (n + local - 1) / local;
}

/* Checks words out[0 .. count) against want[], counting failures. */
static bool check_words(const uint32_t *out, const struct sct_want *want, uint32_t count,
                        const char *what)
{
   int budget = 6;
   bool ok = true;
   for (uint32_t k = 0; k < count; k++)
      ok &= sct_check(out[k], &want[k], &budget, "%s word %u", what, k);
   return ok;
}

/* ---- push constants -------------------------------------------------------------- */

static void test_push(struct sct *s)
{
   static const struct sc_binding b[1] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout set = {1, b};
   for (uint32_t wi = 0; wi < 4; wi++) {
      for (uint32_t li = 0; li < 4; li++) {
         uint32_t w = sct_widths[wi], l = sct_locals[li];
         if (!sct_matrix_pair(w, l))
            continue;
         char what[64];
         snprintf(what, sizeof(what), "push W=%u L=%u", w, l);
         struct sct_opts so;
         variant_options(&so, what, sizeof(what), w, l, &set);
         struct sc_program p;
         if (!sct_compile_named("push", &so.o, &p, what))
            continue;
         uint32_t n = sct_map_count(l), groups = groups_for(n, l);
         sct_fresh(s);
         uint32_t *out;
         uint64_t out_va = sct_buf_fill(s, 48ull * groups * l, SENTINEL, &out);
         uint64_t set_va = sct_buf(s, 64, NULL);
         sct_descriptor(s, set_va, 0, out_va, 48ull * groups * l);
         struct hw_root_table root = {.sets = {set_va}};
         uint32_t pw[64] = {0};
         pw[0] = n;
         pw[1] = (uint32_t)-1000;
         pw[2] = eut_u(0.5f);
         pw[3] = 0xabcdef01u;
         pw[4] = eut_u(1.25f), pw[5] = eut_u(2.5f);
         for (int k = 0; k < 4; k++)
            pw[8 + k] = eut_u((float)(k + 1) * 2.0f);     /* v4 = (2, 4, 6, 8) */
         for (int k = 0; k < 4; k++)
            pw[12 + k] = 100u + (uint32_t)k * 11u;         /* arr */
         for (int k = 0; k < 4; k++)
            pw[16 + k] = eut_u((float)(k + 1));            /* m = ((1,2),(3,4)) */
         pw[20] = 7, pw[21] = 8, pw[22] = 9;               /* u3 */
         pw[23] = eut_u(-3.75f);                           /* last */
         for (int k = 0; k < 8; k++)
            pw[24 + k] = 0x1000u * (uint32_t)(k + 1);      /* tail */
         pw[63] = 0xfeedf00du;                             /* far, offset 252 */
         memcpy(root.push, pw, sizeof(pw));
         bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
         for (uint32_t g = 0; ok && g < n; g++) {
            struct sct_want want[12] = {
               sct_i(-1000 + (int32_t)g), sct_fx(0.5f * (float)g), sct_fx(3.75f), sct_fx(60.0f),
               sct_u(100u + (g % 4) * 11u), sct_fx(7.0f), sct_fx(10.0f), sct_u(16), sct_fx(-3.75f),
               sct_u(0x1000u * ((g & 7) + 1)), sct_u(0xfeedf00du), sct_u(0xabcdef01u)};
            char ctx[96];
            snprintf(ctx, sizeof(ctx), "%s g=%u", what, g);
            ok = check_words(out + 12 * g, want, 12, ctx);
         }
         sc_program_free(&p);
      }
   }
}

/* ---- a std140 uniform buffer ----------------------------------------------------- */

static void put_f(uint8_t *base, uint32_t offset, float f)
{
   uint32_t u = eut_u(f);
   memcpy(base + offset, &u, 4);
}

static void put_u(uint8_t *base, uint32_t offset, uint32_t u)
{
   memcpy(base + offset, &u, 4);
}

static void test_ubo(struct sct *s)
{
   static const struct sc_binding b[2] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                          {1, SC_DESC_UNIFORM_BUFFER, 1, 16, 0}};
   static const struct sc_set_layout set = {2, b};
   /* M(row, col) = row * 4 + col + 1; R(row, col) = (row + 1) * 10 + col */
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi], l = sct_locals[(wi + 1) % 4];
      char what[64];
      snprintf(what, sizeof(what), "ubo W=%u L=%u", w, l);
      struct sct_opts so;
      variant_options(&so, what, sizeof(what), w, l, &set);
      struct sc_program p;
      if (!sct_compile_named("ubo", &so.o, &p, what))
         continue;
      uint32_t n = sct_map_count(l), groups = groups_for(n, l);
      sct_fresh(s);
      uint32_t *out;
      uint8_t *u;
      uint64_t out_va = sct_buf_fill(s, 64ull * groups * l, SENTINEL, &out);
      uint64_t u_va = sct_buf_fill(s, 512, 0x7fc00001u, &u);   /* NaN where nothing is */
      put_f(u, 0, 1.5f);
      put_f(u, 16, 10.0f), put_f(u, 20, 20.0f), put_f(u, 24, 30.0f);
      put_f(u, 28, -2.0f);
      for (int e = 0; e < 3; e++)
         for (int c = 0; c < 4; c++)
            put_f(u, 32 + 16 * e + 4 * c, (float)(e * 10 + c));
      for (int e = 0; e < 4; e++)
         put_f(u, 80 + 16 * e, (float)(e + 1) * 0.25f);
      for (int col = 0; col < 4; col++)
         for (int row = 0; row < 4; row++)
            put_f(u, 144 + 16 * col + 4 * row, (float)(row * 4 + col + 1));
      for (int row = 0; row < 3; row++)
         for (int col = 0; col < 3; col++)
            put_f(u, 208 + 16 * row + 4 * col, (float)((row + 1) * 10 + col));
      put_u(u, 256, (uint32_t)-5), put_u(u, 260, 12);
      for (int e = 0; e < 2; e++) {
         put_f(u, 272 + 16 * e, 0.5f + (float)e);
         put_u(u, 280 + 16 * e, 40u + (uint32_t)e);
         put_u(u, 284 + 16 * e, 50u + (uint32_t)e);
      }
      uint64_t set_va = sct_buf(s, 64, NULL);
      sct_descriptor(s, set_va, 0, out_va, 64ull * groups * l);
      sct_descriptor(s, set_va, 16, u_va, 304);
      struct hw_root_table root = {.sets = {set_va}};
      memcpy(root.push, &n, 4);
      bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
      for (uint32_t g = 0; ok && g < n; g++) {
         struct sct_want want[16];
         want[0] = sct_fx(1.5f);
         want[1] = sct_fx(20.0f);
         want[2] = sct_fx(-2.0f);
         want[3] = sct_fx((float)((g % 3) * 10 + 2));
         want[4] = sct_fx((float)((g & 3) + 1) * 0.25f);
         for (int row = 0; row < 4; row++) {   /* M * (1, 2, 3, 4) */
            float acc = 0;
            for (int col = 0; col < 4; col++)
               acc += (float)(row * 4 + col + 1) * (float)(col + 1);
            want[5 + row] = sct_fx(acc);
         }
         for (int row = 0; row < 3; row++) {   /* R * (1, 10, 100) */
            float acc = 0;
            for (int col = 0; col < 3; col++)
               acc += (float)((row + 1) * 10 + col) * (col == 0 ? 1.0f : col == 1 ? 10.0f : 100.0f);
            want[9 + row] = sct_fx(acc);
         }
         /* r[c][r'] is column c, row r' */
         uint32_t c = g % 3, rr = (g + 1) % 3;
         want[12] = sct_fx((float)((rr + 1) * 10 + c));
         want[13] = sct_u(7);
         want[14] = sct_u(50u + (g & 1));
         want[15] = sct_fx(0.5f + (float)(g & 1));
         char ctx[96];
         snprintf(ctx, sizeof(ctx), "%s g=%u", what, g);
         ok = check_words(out + 16 * g, want, 16, ctx);
      }
      sc_program_free(&p);
   }
}

/* ---- several sets and bindings --------------------------------------------------- */

static void test_sets(struct sct *s)
{
   /* Layouts describe more than the shader uses, bindings out of order. */
   static const struct sc_binding s0[3] = {{2, SC_DESC_STORAGE_BUFFER, 1, 48, 0},
                                           {1, SC_DESC_STORAGE_BUFFER, 1, 32, 0},
                                           {0, SC_DESC_STORAGE_BUFFER, 1, 16, 0}};
   static const struct sc_binding s1[2] = {{5, SC_DESC_UNIFORM_BUFFER, 1, 0, 0},
                                           {0, SC_DESC_STORAGE_BUFFER, 1, 32, 0}};
   static const struct sc_binding s3[1] = {{7, SC_DESC_STORAGE_BUFFER, 1, 64, 0}};
   static const struct sc_set_layout sets[4] = {{3, s0}, {2, s1}, {0, NULL}, {1, s3}};
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi], l = sct_locals[(wi + 2) % 4];
      char what[64];
      snprintf(what, sizeof(what), "sets W=%u L=%u", w, l);
      struct sct_opts so;
      sct_options(&so, w, l, sets, 4);
      so.o.optimize = next_optimize();
      if (so.o.optimize)
         strncat(what, " optimized", sizeof(what) - strlen(what) - 1);
      struct sc_program p;
      if (!sct_compile_named("sets", &so.o, &p, what))
         continue;
      uint32_t n = sct_map_count(l), groups = groups_for(n, l), slots = groups * l;
      sct_fresh(s);
      uint32_t *a, *b, *c, *d, *o;
      uint64_t a_va = sct_buf(s, 4ull * slots, &a), b_va = sct_buf(s, 4ull * slots, &b);
      uint64_t c_va = sct_buf(s, 4ull * slots, &c), d_va = sct_buf(s, 16, &d);
      uint64_t o_va = sct_buf_fill(s, 4ull * slots, SENTINEL, &o);
      for (uint32_t g = 0; g < n; g++) {
         a[g] = sct_hash(g);
         b[g] = sct_hash(g + 100000);
         c[g] = sct_hash(g + 200000);
      }
      for (int k = 0; k < 4; k++)
         d[k] = 0x11111111u * (uint32_t)(k + 1);
      uint64_t set0 = sct_buf(s, 128, NULL), set1 = sct_buf(s, 128, NULL);
      uint64_t set3 = sct_buf(s, 128, NULL);
      sct_descriptor(s, set0, 16, a_va, 4ull * slots);
      sct_descriptor(s, set0, 48, b_va, 4ull * slots);
      sct_descriptor(s, set1, 32, c_va, 4ull * slots);
      sct_descriptor(s, set1, 0, d_va, 16);
      sct_descriptor(s, set3, 64, o_va, 4ull * slots);
      /* set 2 is never read: a poisoned address catches a wrong index */
      struct hw_root_table root = {.sets = {set0, set1, 0xdead0000u, set3}};
      memcpy(root.push, &n, 4);
      if (!sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what)) {
         sc_program_free(&p);
         continue;
      }
      int budget = 6;
      for (uint32_t g = 0; g < slots; g++) {
         struct sct_want want =
            g < n ? sct_u(a[g] + b[g] * 3u + c[g] * 7u + d[g & 3]) : sct_u(SENTINEL);
         sct_check(o[g], &want, &budget, "%s g=%u", what, g);
      }
      sc_program_free(&p);
   }
}

/* ---- descriptor arrays ----------------------------------------------------------- */

static void test_desc_array(struct sct *s)
{
   static const struct sc_binding b[2] = {{0, SC_DESC_STORAGE_BUFFER, 4, 32, 0},
                                          {1, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout set = {2, b};
   for (uint32_t wi = 0; wi < 4; wi++) {
      for (uint32_t li = 0; li < 4; li++) {
         uint32_t w = sct_widths[wi], l = sct_locals[li];
         if (!sct_matrix_pair(w, l))
            continue;
         char what[64];
         snprintf(what, sizeof(what), "desc_array W=%u L=%u", w, l);
         struct sct_opts so;
         variant_options(&so, what, sizeof(what), w, l, &set);
         struct sc_program p;
         if (!sct_compile_named("desc_array", &so.o, &p, what))
            continue;
         uint32_t n = sct_map_count(l), groups = groups_for(n, l), slots = groups * l;
         uint32_t k = (wi + li) % 4;
         sct_fresh(s);
         uint32_t *v[4], *o;
         uint64_t set_va = sct_buf(s, 128, NULL);
         for (uint32_t j = 0; j < 4; j++) {
            uint64_t va = sct_buf(s, 4ull * slots, &v[j]);
            for (uint32_t g = 0; g < n; g++)
               v[j][g] = sct_hash(g * 4 + j);
            sct_descriptor(s, set_va, 32 + 16 * j, va, 4ull * slots);
         }
         uint64_t o_va = sct_buf_fill(s, 16ull * slots, SENTINEL, &o);
         sct_descriptor(s, set_va, 0, o_va, 16ull * slots);
         struct hw_root_table root = {.sets = {set_va}};
         memcpy(root.push, (uint32_t[2]){n, k}, 8);
         bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
         for (uint32_t g = 0; ok && g < n; g++) {
            uint32_t sum = 0;
            for (uint32_t j = 0; j < 4; j++)
               sum += v[j][g] * (j + 1);
            struct sct_want want[4] = {sct_u(v[0][g] + v[3][g]), sct_u(v[k][g]), sct_u(sum),
                                       sct_u(v[(g / l) & 3][g])};
            char ctx[96];
            snprintf(ctx, sizeof(ctx), "%s k=%u g=%u", what, k, g);
            ok = check_words(o + 4 * g, want, 4, ctx);
         }
         sc_program_free(&p);
      }
   }
}

/* ---- dynamic offsets ------------------------------------------------------------- */

static void test_dynamic(struct sct *s)
{
   /* dynamic indices: the uniform buffer 0, the storage buffer 1, the
    * array 2 and 3 */
   static const struct sc_binding b[4] = {{0, SC_DESC_STORAGE_BUFFER_DYNAMIC, 1, 0, 1},
                                          {1, SC_DESC_UNIFORM_BUFFER_DYNAMIC, 1, 16, 0},
                                          {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0},
                                          {3, SC_DESC_STORAGE_BUFFER_DYNAMIC, 2, 48, 2}};
   static const struct sc_set_layout set = {4, b};
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi], l = sct_locals[(wi + 3) % 4];
      char what[64];
      snprintf(what, sizeof(what), "dynamic W=%u L=%u", w, l);
      struct sct_opts so;
      variant_options(&so, what, sizeof(what), w, l, &set);
      struct sc_program p;
      if (!sct_compile_named("dynamic", &so.o, &p, what))
         continue;
      uint32_t n = sct_map_count(l), groups = groups_for(n, l), slots = groups * l;
      sct_fresh(s);
      /* Each dynamic buffer: a descriptor at the start of a bigger buffer
       * holding garbage, the real data at the dynamic offset. */
      const uint32_t dyn[4] = {256, 512, 768, 1024};
      uint32_t *sb, *ub, *o, *d0, *d1;
      uint64_t s_va = sct_buf_fill(s, dyn[1] + 4ull * slots, 0x0badf00du, &sb);
      uint64_t u_va = sct_buf_fill(s, dyn[0] + 64, 0x0badf00du, &ub);
      uint64_t o_va = sct_buf_fill(s, 8ull * slots, SENTINEL, &o);
      uint64_t d0_va = sct_buf_fill(s, dyn[2] + 4ull * slots, 0x0badf00du, &d0);
      uint64_t d1_va = sct_buf_fill(s, dyn[3] + 4ull * slots, 0x0badf00du, &d1);
      uint32_t *sd = sb + dyn[1] / 4, *ud = ub + dyn[0] / 4;
      uint32_t *dd0 = d0 + dyn[2] / 4, *dd1 = d1 + dyn[3] / 4;
      for (uint32_t g = 0; g < slots; g++) {
         sd[g] = sct_hash(g);
         dd0[g] = sct_hash(g + 7777);
         dd1[g] = sct_hash(g + 9999);
      }
      for (uint32_t k = 0; k < 16; k++)
         ud[k] = 1000u * k;
      uint64_t set_va = sct_buf(s, 128, NULL);
      sct_descriptor(s, set_va, 0, s_va, 4ull * slots);
      sct_descriptor(s, set_va, 16, u_va, 64);
      sct_descriptor(s, set_va, 32, o_va, 8ull * slots);
      sct_descriptor(s, set_va, 48, d0_va, 4ull * slots);
      sct_descriptor(s, set_va, 64, d1_va, 4ull * slots);
      struct hw_root_table root = {.sets = {set_va}, .dynamic = {dyn[0], dyn[1], dyn[2], dyn[3]}};
      memcpy(root.push, &n, 4);
      bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
      int budget = 6;
      for (uint32_t g = 0; ok && g < slots; g++) {
         bool in = g < n;
         struct sct_want want[3] = {
            in ? sct_u(sct_hash(g) + 1000u * ((g & 3) * 4 + 1)) : sct_u(SENTINEL),
            in ? sct_u(sct_hash(g + 7777) * 2 + sct_hash(g + 9999)) : sct_u(SENTINEL),
            sct_u(sct_hash(g + 9999) + (in ? 1000u : 0u))};
         sct_check(o[2 * g], &want[0], &budget, "%s g=%u s+u", what, g);
         sct_check(o[2 * g + 1], &want[1], &budget, "%s g=%u darr", what, g);
         sct_check(dd1[g], &want[2], &budget, "%s g=%u darr[1] written", what, g);
      }
      /* the memory before the dynamic offset is untouched */
      for (uint32_t k = 0; ok && k < dyn[3] / 4; k++)
         SCT_CHECK_U(d1[k], 0x0badf00du, &budget,
                     "%s word %u before darr[1]'s offset", what, k);
      sc_program_free(&p);
   }
}

/* ---- buffer device addresses ----------------------------------------------------- */

static void test_bda(struct sct *s)
{
   static const struct sc_set_layout none = {0, NULL};
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi], l = sct_locals[wi];
      char what[64];
      snprintf(what, sizeof(what), "bda W=%u L=%u", w, l);
      struct sct_opts so;
      sct_options(&so, w, l, &none, 0);
      so.o.optimize = next_optimize();
      if (so.o.optimize)
         strncat(what, " optimized", sizeof(what) - strlen(what) - 1);
      struct sc_program p;
      if (!sct_compile_named("bda", &so.o, &p, what))
         continue;
      uint32_t n = sct_map_count(l), groups = groups_for(n, l), slots = groups * l;
      sct_fresh(s);
      uint32_t *src, *dst;
      uint64_t src_va = sct_buf(s, 4ull * slots, &src);
      uint64_t dst_va = sct_buf_fill(s, 4ull * slots, SENTINEL, &dst);
      for (uint32_t g = 0; g < n; g++)
         src[g] = sct_hash(g);
      /* a list of 4 nodes {value, pad, next} */
      uint8_t *nodes;
      uint64_t node_va = sct_buf(s, 64, &nodes);
      for (uint32_t k = 0; k < 4; k++) {
         uint32_t v = 100 + k;
         uint64_t next = node_va + 16 * ((k + 1) % 4);
         memcpy(nodes + 16 * k, &v, 4);
         memcpy(nodes + 16 * k + 8, &next, 8);
      }
      struct hw_root_table root = {0};
      memcpy(root.push, &n, 4);
      memcpy(root.push + 8, &src_va, 8);
      memcpy(root.push + 16, &dst_va, 8);
      memcpy(root.push + 24, &node_va, 8);
      bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
      int budget = 6;
      for (uint32_t g = 0; ok && g < slots; g++) {
         struct sct_want want = g < n ? sct_u(src[g] * 3 + 100 + (g & 3)) : sct_u(SENTINEL);
         sct_check(dst[g], &want, &budget, "%s g=%u", what, g);
      }
      sc_program_free(&p);
   }
}

/* Pointers that access chains form into physical storage buffers are
 * values too: selected, merged by a phi, copied, stepped by
 * OpPtrAccessChain and kept in a variable (shaders/bda_values.spvasm). */
static void test_bda_values(struct sct *s)
{
   static const struct sc_set_layout none = {0, NULL};
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi], l = sct_locals[wi];
      char what[64];
      snprintf(what, sizeof(what), "bda_values W=%u L=%u", w, l);
      struct sct_opts so;
      sct_options(&so, w, l, &none, 0);
      so.o.optimize = next_optimize();
      if (so.o.optimize)
         strncat(what, " optimized", sizeof(what) - strlen(what) - 1);
      struct sc_program p;
      if (!sct_compile_named("bda_values", &so.o, &p, what))
         continue;
      uint32_t n = sct_map_count(l), groups = groups_for(n, l), slots = groups * l;
      sct_fresh(s);
      uint32_t *src, *dst;
      uint64_t src_va = sct_buf(s, 8ull * slots, &src);
      uint64_t dst_va = sct_buf_fill(s, 12ull * slots, SENTINEL, &dst);
      for (uint32_t i = 0; i < 2 * n; i++)
         src[i] = sct_hash(i);
      struct hw_root_table root = {0};
      memcpy(root.push, &n, 4);
      memcpy(root.push + 8, &src_va, 8);
      memcpy(root.push + 16, &dst_va, 8);
      bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
      int budget = 6;
      for (uint32_t g = 0; ok && g < slots; g++) {
         uint32_t a = g < n ? src[2 * g] : 0, b = g < n ? src[2 * g + 1] : 0;
         bool odd = a & 1;
         uint32_t want[3] = {odd ? a : b, odd ? b : a, b};
         for (uint32_t k = 0; k < 3; k++) {
            struct sct_want wk = g < n ? sct_u(want[k]) : sct_u(SENTINEL);
            sct_check(dst[3 * g + k], &wk, &budget, "%s g=%u dst[3g+%u]", what, g, k);
         }
      }
      sc_program_free(&p);
   }
}

/* ---- specialization constants ---------------------------------------------------- */

struct spec_values {
   bool given;
   int32_t si;
   uint32_t su;
   bool sb;
   float sf;
};

static void test_spec(struct sct *s)
{
   static const struct sc_binding b[1] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout set = {1, b};
   static const struct spec_values cases[] = {
      {false, 3, 10, false, 1.5f},
      {true, -7, 5, true, -0.25f},
      {true, 100, 30, false, 3.0f},
      {true, 0, 1, true, 0.0f},
   };
   for (uint32_t c = 0; c < 4; c++) {
      const struct spec_values *v = &cases[c];
      uint32_t w = sct_widths[c], l = v->given ? sct_locals[(c + 1) % 4] : 1;
      char what[64];
      snprintf(what, sizeof(what), "spec case %u W=%u L=%u", c, w, l);
      struct sct_opts so;
      sct_options(&so, w, v->given ? l : 0, &set, 1);
      so.o.optimize = next_optimize();
      if (so.o.optimize)
         strncat(what, " optimized", sizeof(what) - strlen(what) - 1);
      if (v->given) {
         sct_spec(&so, 1, 4, (uint32_t)v->si);
         sct_spec(&so, 2, 4, v->su);
         sct_spec(&so, 3, 1, v->sb);
         sct_spec(&so, 4, 4, eut_u(v->sf));
      }
      struct sc_program p;
      if (!sct_compile_named("spec", &so.o, &p, what))
         continue;
      HWT_CHECK(p.local_size[0] == l, "%s: local size %u", what, p.local_size[0]);
      uint32_t n = sct_map_count(l), groups = groups_for(n, l);
      sct_fresh(s);
      uint32_t *o;
      uint64_t o_va = sct_buf_fill(s, 32ull * groups * l, SENTINEL, &o);
      uint64_t set_va = sct_buf(s, 64, NULL);
      sct_descriptor(s, set_va, 0, o_va, 32ull * groups * l);
      struct hw_root_table root = {.sets = {set_va}};
      memcpy(root.push, &n, 4);
      bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
      uint32_t size = v->su + 2;
      for (uint32_t g = 0; ok && g < n; g++) {
         uint32_t sum = 0;
         for (uint32_t j = 0; j < size; j++)
            sum += j * g;
         struct sct_want want[8] = {
            sct_u((uint32_t)v->si * g), sct_u(v->su + g), sct_u(v->sb ? 111 : 222),
            sct_fx(v->sf * (float)g), sct_u(size), sct_u((g % size) * g),
            sct_u(v->sb ? sum : ((uint32_t)v->si ^ v->su)), sct_u(l)};
         char ctx[96];
         snprintf(ctx, sizeof(ctx), "%s g=%u", what, g);
         ok = check_words(o + 8 * g, want, 8, ctx);
      }
      sc_program_free(&p);
   }
}

/* ---- built-in ids of 3-D dispatches ---------------------------------------------- */

/* Where the workgroup's sizes make it a shift or a mask of the invocation
 * index, gl_LocalInvocationID reads no LOCAL_ID_* (whose per-lane
 * divisions cost the interpreter): a dimension of size x, y, z is
 * derived when the sizes below it multiply to a power of two and it is a
 * power of two itself or the last dimension above 1. */
static void check_ids_derived(const uint32_t ls[3], const struct sc_program *p, const char *what)
{
   uint32_t below[3] = {1, ls[0], ls[0] * ls[1]};
   for (uint32_t c = 0; c < 3; c++) {
      bool last = c == 2 || (c == 1 && ls[2] == 1) || (c == 0 && ls[1] * ls[2] == 1);
      bool pow2 = !(ls[c] & (ls[c] - 1)), below_pow2 = !(below[c] & (below[c] - 1));
      bool derived = ls[c] == 1 || (below_pow2 && (pow2 || last));
      uint32_t n = sct_count_op(p, ISA_OP_S2R, (int32_t)(ISA_SR_LOCAL_ID_X + c));
      HWT_CHECK(derived ? n == 0 : n > 0, "%s: %u S2R LOCAL_ID_%c, expected %s", what, n,
                "XYZ"[c], derived ? "none" : "some");
   }
}

static void test_ids(struct sct *s)
{
   static const struct sc_binding b[1] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout set = {1, b};
   static const uint32_t shapes[][6] = {   /* local size, grid */
      {1, 1, 1, 3, 2, 2},   {33, 1, 1, 2, 3, 1},  {100, 1, 1, 1, 1, 3}, {1024, 1, 1, 2, 1, 1},
      {4, 3, 2, 3, 2, 2},   {33, 3, 1, 1, 2, 2},  {8, 8, 16, 1, 1, 2},  {2, 5, 7, 2, 2, 1},
      {1, 1, 64, 2, 1, 1},  {1, 17, 1, 1, 3, 1},  {16, 16, 1, 2, 2, 1}, {2, 4, 3, 2, 1, 2},
      {4, 4, 4, 1, 2, 1},   {8, 3, 1, 2, 2, 1},   {3, 4, 2, 1, 1, 2},
   };
   uint32_t count = sizeof(shapes) / sizeof(shapes[0]);
   for (uint32_t c = 0; c < count; c++) {
      for (uint32_t wi = 0; wi < 4; wi++) {
         const uint32_t *ls = shapes[c], *gr = shapes[c] + 3;
         uint32_t w = sct_widths[wi];
         if (SCT_SANITIZED_BUILD && (wi + c) % 2)
            continue;
         char what[96];
         snprintf(what, sizeof(what), "ids W=%u local %ux%ux%u grid %ux%ux%u", w, ls[0], ls[1],
                  ls[2], gr[0], gr[1], gr[2]);
         struct sct_opts so;
         sct_options(&so, w, ls[0], &set, 1);
         so.o.optimize = next_optimize();
         if (so.o.optimize)
            strncat(what, " optimized", sizeof(what) - strlen(what) - 1);
         sct_spec(&so, 1, 4, ls[1]);
         sct_spec(&so, 2, 4, ls[2]);
         struct sc_program p;
         if (!sct_compile_named("ids", &so.o, &p, what))
            continue;
         HWT_CHECK(p.local_size[0] == ls[0] && p.local_size[1] == ls[1] && p.local_size[2] == ls[2],
                   "%s: local size %ux%ux%u", what, p.local_size[0], p.local_size[1],
                   p.local_size[2]);
         check_ids_derived(ls, &p, what);
         uint32_t sx = ls[0] * gr[0], sy = ls[1] * gr[1], sz = ls[2] * gr[2];
         uint32_t total = sx * sy * sz;
         sct_fresh(s);
         uint32_t *o;
         uint64_t o_va = sct_buf_fill(s, 64ull * total, SENTINEL, &o);
         uint64_t set_va = sct_buf(s, 64, NULL);
         sct_descriptor(s, set_va, 0, o_va, 64ull * total);
         struct hw_root_table root = {.sets = {set_va}};
         bool ok = sct_launch(s, &p, gr, sct_root_upload(s, &root), what);
         for (uint32_t z = 0; ok && z < sz; z++) {
            for (uint32_t y = 0; ok && y < sy; y++) {
               for (uint32_t x = 0; ok && x < sx; x++) {
                  uint32_t lin = (z * sy + y) * sx + x;
                  uint32_t lx = x % ls[0], ly = y % ls[1], lz = z % ls[2];
                  struct sct_want want[16] = {
                     sct_u(gr[0]), sct_u(gr[1]), sct_u(gr[2]), sct_u(x / ls[0]), sct_u(y / ls[1]),
                     sct_u(z / ls[2]), sct_u(lx), sct_u(ly), sct_u(lz),
                     sct_u((lz * ls[1] + ly) * ls[0] + lx), sct_u(x), sct_u(y), sct_u(z),
                     sct_u(ls[0]), sct_u(ls[1]), sct_u(ls[2])};
                  char ctx[160];
                  snprintf(ctx, sizeof(ctx), "%s at (%u,%u,%u)", what, x, y, z);
                  ok = check_words(o + 16 * lin, want, 16, ctx);
               }
            }
         }
         sc_program_free(&p);
      }
   }
}

/* ---- structs copied between layouts ---------------------------------------------- */

/* struct S {vec3 p; float w; uint k[2]; mat2 m;}: std430 p 0, w 12, k 16
 * (stride 4), m 24 (columns 8 apart), 48 per element; std140 p 0, w 12,
 * k 16 (stride 16), m 48 (columns 16 apart), 80 per element. */
struct s_layout {
   uint32_t k_stride, m_offset, m_stride, size;
};
static const struct s_layout std430_s = {4, 24, 8, 48}, std140_s = {16, 48, 16, 80};

/* Word w of element e's member: p (0-2), w (3), k (4-5), m (6-9). */
static uint32_t *s_word(uint8_t *base, const struct s_layout *l, uint32_t e, uint32_t w)
{
   uint8_t *at = base + (size_t)e * l->size;
   if (w < 4)
      return (uint32_t *)(at + 4 * w);
   if (w < 6)
      return (uint32_t *)(at + 16 + l->k_stride * (w - 4));
   uint32_t c = (w - 6) / 2, r = (w - 6) % 2;
   return (uint32_t *)(at + l->m_offset + l->m_stride * c + 4 * r);
}

static void test_struct_copy(struct sct *s)
{
   static const struct sc_binding b[3] = {{0, SC_DESC_UNIFORM_BUFFER, 1, 0, 0},
                                          {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0},
                                          {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0}};
   static const struct sc_set_layout set = {3, b};
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi], l = sct_locals[(wi + 2) % 4];
      char what[64];
      snprintf(what, sizeof(what), "struct_copy W=%u L=%u", w, l);
      struct sct_opts so;
      variant_options(&so, what, sizeof(what), w, l, &set);
      struct sc_program p;
      if (!sct_compile_named("struct_copy", &so.o, &p, what))
         continue;
      uint32_t n = sct_map_count(l), groups = groups_for(n, l), slots = groups * l;
      sct_fresh(s);
      uint8_t *u, *in, *out;
      uint64_t u_va = sct_buf_fill(s, 4 * 80, 0x7fc00002u, &u);
      uint64_t in_va = sct_buf_fill(s, 48ull * slots, 0x7fc00003u, &in);
      uint64_t out_va = sct_buf_fill(s, 48ull * slots, SENTINEL, &out);
      /* floats in p, w, m; integers in k */
      for (uint32_t e = 0; e < 4; e++)
         for (uint32_t k = 0; k < 10; k++)
            *s_word(u, &std140_s, e, k) = k == 4 || k == 5 ? 500 + e * 10 + k : eut_u((float)(e * 16 + k));
      for (uint32_t g = 0; g < n; g++)
         for (uint32_t k = 0; k < 10; k++)
            *s_word(in, &std430_s, g, k) =
               k == 4 || k == 5 ? sct_hash(g * 10 + k) : eut_u((float)(g % 1000) + (float)k * 0.25f);
      uint64_t set_va = sct_buf(s, 64, NULL);
      sct_descriptor(s, set_va, 0, u_va, 4 * 80);
      sct_descriptor(s, set_va, 16, in_va, 48ull * slots);
      sct_descriptor(s, set_va, 32, out_va, 48ull * slots);
      struct hw_root_table root = {.sets = {set_va}};
      memcpy(root.push, &n, 4);
      bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
      int budget = 6;
      for (uint32_t g = 0; ok && g < slots; g++) {
         static const char *const names[10] = {"p.x", "p.y", "p.z", "w", "k[0]", "k[1]",
                                               "m[0].x", "m[0].y", "m[1].x", "m[1].y"};
         for (uint32_t k = 0; k < 10; k++) {
            uint32_t a = *s_word(in, &std430_s, g, k), bb = *s_word(u, &std140_s, g & 3, k);
            uint32_t want = a;
            if (k < 3 && (g & 1))
               want = bb;
            else if (k == 3)
               want = eut_u(eut_f(a) + eut_f(bb));
            else if (k == 5)
               want = *s_word(u, &std140_s, g & 3, 4);
            else if (k >= 8)
               want = *s_word(u, &std140_s, g & 3, k - 2);
            SCT_CHECK_U(*s_word(out, &std430_s, g, k), g < n ? want : SENTINEL, &budget,
                        "%s os[%u].%s", what, g, names[k]);
         }
      }
      sc_program_free(&p);
   }
}

/* ---- OpArrayLength --------------------------------------------------------------- */

static void test_array_length(struct sct *s)
{
   static const struct sc_binding b[3] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                          {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0},
                                          {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0}};
   static const struct sc_set_layout set = {3, b};
   static const uint32_t ranges[][2] = {{0, 32}, {4, 40}, {1000, 39}, {4096 + 4, 32 + 8 * 1000}};
   for (uint32_t c = 0; c < 4; c++) {
      uint32_t w = sct_widths[c];
      char what[64];
      snprintf(what, sizeof(what), "array_length W=%u ranges %u,%u", w, ranges[c][0], ranges[c][1]);
      struct sct_opts so;
      variant_options(&so, what, sizeof(what), w, 0, &set);
      struct sc_program p;
      if (!sct_compile_named("array_length", &so.o, &p, what))
         continue;
      sct_fresh(s);
      uint32_t *o;
      uint64_t a_va = sct_buf(s, 8192, NULL), b_va = sct_buf(s, 8192 + 64, NULL);
      uint64_t o_va = sct_buf_fill(s, 16, SENTINEL, &o);
      uint64_t set_va = sct_buf(s, 64, NULL);
      sct_descriptor(s, set_va, 0, a_va, ranges[c][0]);
      sct_descriptor(s, set_va, 16, b_va, ranges[c][1]);
      sct_descriptor(s, set_va, 32, o_va, 16);
      struct hw_root_table root = {.sets = {set_va}};
      if (sct_launch(s, &p, (uint32_t[3]){1, 1, 1}, sct_root_upload(s, &root), what)) {
         struct sct_want want[2] = {sct_u(ranges[c][0] / 4), sct_u((ranges[c][1] - 32) / 8)};
         check_words(o, want, 2, what);
      }
      sc_program_free(&p);
   }
}

/* ---- 8- and 16-bit storage ------------------------------------------------------- */

/* One invocation's expected words of Out (5) and bytes of Out16 (6). */
static void narrow_ref(const uint8_t *in, uint32_t g, uint16_t scale, int8_t bias,
                       struct sct_want *o, uint8_t *w)
{
   const uint8_t *x = in + 8 * g;
   uint16_t h = (uint16_t)(x[0] | x[1] << 8), u = (uint16_t)(x[4] | x[5] << 8);
   int16_t sv = (int16_t)(x[2] | x[3] << 8);
   float f = sgt_half_to_float(h) * sgt_half_to_float(scale);
   o[0] = sct_fx(f);
   o[1] = sct_i((int32_t)sv + bias);
   o[2] = sct_u(u);
   o[3] = sct_i((int8_t)x[6]);
   o[4] = sct_u(x[7]);
   uint16_t wh = sgt_float_to_half(f * 3.0f), wu = (uint16_t)(u + g);
   w[0] = (uint8_t)wh, w[1] = (uint8_t)(wh >> 8);
   w[2] = (uint8_t)wu, w[3] = (uint8_t)(wu >> 8);
   w[4] = (uint8_t)(x[7] * 3u);
   w[5] = (uint8_t)((int8_t)x[6] - 1);
}

/* Runs narrow.comp for one width and local size; robust: the last three
 * invocations fall past the buffers' ranges (their loads read 0, their
 * stores are dropped; the last in-range element's bytes, up to the
 * range's end, are written). */
static void narrow_run(struct sct *s, uint32_t w, uint32_t l, bool robust)
{
   static const struct sc_binding b[3] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                          {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0},
                                          {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0}};
   static const struct sc_set_layout set = {3, b};
   char what[80];
   snprintf(what, sizeof(what), "narrow W=%u L=%u%s", w, l, robust ? " robust" : "");
   struct sct_opts so;
   variant_options(&so, what, sizeof(what), w, l, &set);
   so.o.robust_buffer_access = robust;
   struct sc_program p;
   if (!sct_compile_named("narrow", &so.o, &p, what))
      return;
   uint32_t slots = sct_map_count(l) / l * l + l, groups = slots / l;
   uint32_t n = robust ? slots - 3 : slots;
   sct_fresh(s);
   uint8_t *in, *w16;
   uint32_t *out;
   uint64_t in_va = sct_buf(s, 8ull * slots, &in);
   uint64_t out_va = sct_buf_fill(s, 20ull * slots, SENTINEL, &out);
   uint64_t w_va = sct_buf_fill(s, 6ull * slots + 4, SENTINEL, &w16);
   for (uint32_t g = 0; g < slots; g++) {
      uint16_t h = sgt_float_to_half(((float)g - 40.0f) * 0.37f);
      uint16_t sv = (uint16_t)(int16_t)(((int32_t)g - 50) * 613), u = (uint16_t)(65535u - g * 97u);
      uint8_t *x = in + 8 * g;
      x[0] = (uint8_t)h, x[1] = (uint8_t)(h >> 8), x[2] = (uint8_t)sv, x[3] = (uint8_t)(sv >> 8);
      x[4] = (uint8_t)u, x[5] = (uint8_t)(u >> 8), x[6] = (uint8_t)(g * 37u + 5u);
      x[7] = (uint8_t)(255u - g);
   }
   uint64_t set_va = sct_buf(s, 64, NULL);
   sct_descriptor(s, set_va, 0, in_va, 8ull * n);
   sct_descriptor(s, set_va, 16, out_va, 20ull * n);
   sct_descriptor(s, set_va, 32, w_va, 6ull * n);
   const uint16_t scale = sgt_float_to_half(1.5f);
   const int8_t bias = -7;
   struct hw_root_table root = {.sets = {set_va}};
   memcpy(root.push, &n, 4);
   memcpy(root.push + 4, &scale, 2);
   memcpy(root.push + 6, &bias, 1);
   bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
   int budget = 6;
   for (uint32_t g = 0; ok && g < slots && budget > 0; g++) {
      struct sct_want o[5];
      uint8_t wb[6];
      narrow_ref(in, g, scale, bias, o, wb);
      if (g >= n) {   /* past the ranges: nothing written */
         for (int k = 0; k < 5; k++)
            o[k] = sct_u(SENTINEL);
         for (int k = 0; k < 6; k++)
            wb[k] = (uint8_t)(SENTINEL >> (8 * ((6 * g + (uint32_t)k) % 4)));
      }
      char at[120];
      snprintf(at, sizeof(at), "%s invocation %u", what, g);
      ok &= check_words(out + 5 * g, o, 5, at);
      for (int k = 0; k < 6; k++) {
         if (w16[6 * g + (uint32_t)k] != wb[k] && budget-- > 0)
            HWT_CHECK(false, "%s: Out16 byte %d is 0x%02x, want 0x%02x", at, k,
                      w16[6 * g + (uint32_t)k], wb[k]);
      }
   }
   sc_program_free(&p);
}

static void test_narrow(struct sct *s)
{
   for (uint32_t wi = 0; wi < 4; wi++) {
      for (uint32_t li = 0; li < 4; li++) {
         if (!sct_matrix_pair(sct_widths[wi], sct_locals[li]))
            continue;
         narrow_run(s, sct_widths[wi], sct_locals[li], false);
         narrow_run(s, sct_widths[wi], sct_locals[li], true);
      }
   }
}

/* ---- robust buffer access -------------------------------------------------------- */

static void test_robust(struct sct *s)
{
   static const struct sc_binding b[4] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0},
                                          {1, SC_DESC_STORAGE_BUFFER, 1, 16, 0},
                                          {2, SC_DESC_STORAGE_BUFFER, 1, 32, 0},
                                          {3, SC_DESC_STORAGE_BUFFER, 1, 48, 0}};
   static const struct sc_set_layout set = {4, b};
   for (uint32_t wi = 0; wi < 4; wi++) {
      uint32_t w = sct_widths[wi], l = sct_locals[(wi + 1) % 4];
      char what[64];
      snprintf(what, sizeof(what), "robust W=%u L=%u", w, l);
      struct sct_opts so;
      variant_options(&so, what, sizeof(what), w, l, &set);
      so.o.robust_buffer_access = true;
      struct sc_program p;
      if (!sct_compile_named("robust", &so.o, &p, what))
         continue;
      uint32_t n = sct_map_count(l), groups = groups_for(n, l), slots = groups * l;
      /* Every buffer is allocated for all n elements, but its descriptor
       * covers fewer: half of x, a third of y, xv ending mid-vector. */
      uint32_t x_range = 4 * (n / 2), y_range = 4 * (n / 3), xv_range = 16 * (n / 4) + 8;
      sct_fresh(s);
      uint32_t *x, *y, *xv, *r;
      uint64_t x_va = sct_buf(s, 4ull * slots, &x);
      uint64_t y_va = sct_buf_fill(s, 4ull * slots, SENTINEL, &y);
      uint64_t xv_va = sct_buf(s, 16ull * slots, &xv);
      uint64_t r_va = sct_buf_fill(s, 4ull * slots, SENTINEL, &r);
      for (uint32_t g = 0; g < slots; g++) {
         x[g] = 1000 + g;
         for (int k = 0; k < 4; k++)
            xv[4 * g + k] = g * 10 + (uint32_t)k;
      }
      uint64_t set_va = sct_buf(s, 64, NULL);
      sct_descriptor(s, set_va, 0, x_va, x_range);
      sct_descriptor(s, set_va, 16, y_va, y_range);
      sct_descriptor(s, set_va, 32, xv_va, xv_range);
      sct_descriptor(s, set_va, 48, r_va, 4ull * slots);
      struct hw_root_table root = {.sets = {set_va}};
      memcpy(root.push, &n, 4);
      bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
      int budget = 6;
      for (uint32_t g = 0; ok && g < n; g++) {
         uint32_t xval = 4 * g < x_range ? 1000 + g : 0;
         struct sct_want wy = 4 * g < y_range ? sct_u(xval + 1) : sct_u(SENTINEL);
         sct_check(y[g], &wy, &budget, "%s y[%u] (x range %u, y range %u)", what, g, x_range,
                   y_range);
         uint32_t sum = 0;
         for (uint32_t k = 0; k < 4; k++)
            sum += 16 * g + 4 * k < xv_range ? g * 10 + k : 0;
         /* A vector straddling the end: its in-range part or all zero. */
         bool straddles = 16 * g < xv_range && 16 * g + 16 > xv_range;
         struct sct_want wr = straddles ? sct_skip() : sct_u(sum);
         sct_check(r[g], &wr, &budget, "%s r[%u] (xv range %u)", what, g, xv_range);
      }
      sc_program_free(&p);
   }
}

int main(int argc, char **argv)
{
   static const struct {
      const char *name;
      void (*fn)(struct sct *);
   } tests[] = {
      {"push", test_push},       {"ubo", test_ubo},         {"sets", test_sets},
      {"desc_array", test_desc_array}, {"dynamic", test_dynamic}, {"bda", test_bda},
      {"bda_values", test_bda_values},
      {"spec", test_spec},       {"ids", test_ids},         {"array_length", test_array_length},
      {"struct_copy", test_struct_copy},
      {"robust", test_robust},
      {"narrow", test_narrow},
   };
   struct sct s;
   sct_init(&s);
   for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
      if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
         continue;
      int before = atomic_load(&hwt_failures);
      fprintf(stderr, "-- %s\n", tests[i].name);
      tests[i].fn(&s);
      fprintf(stderr, "   %s: %s\n", tests[i].name,
              atomic_load(&hwt_failures) == before ? "ok" : "FAILED");
   }
   sct_fini(&s);
   return hwt_finish();
}
