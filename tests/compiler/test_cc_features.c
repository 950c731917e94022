/*
 * test_cc_features: features real compute shaders commonly use, which the
 * compiler may or may not support yet. Each is probed: if sc_compile
 * refuses the shader, the message must say what is unsupported (one of
 * the listed words: the capability, the instruction, its number), and the
 * feature is listed as missing; if it compiles, it is run over the whole
 * matrix and its results are checked like any other shader. So the test
 * fails on a crash, a vague refusal, or a wrong result, and keeps working
 * as support is added. A probe of core SPIR-V (OpAny and OpAll) fails on
 * any refusal.
 */
#include "sct.h"

/* ---- references of the map probes ------------------------------------------------ */

/* GLSL's % on ints is OpSMod: the result takes the divisor's sign. */
static int32_t smod(uint32_t a, int32_t b)
{
   int32_t r = (int32_t)a % b;
   return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static void sign_int_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   int32_t a = (int32_t)in[0], b = a >> 28;
   w[0] = sct_i((a > 0) - (a < 0));
   w[1] = sct_i((b > 0) - (b < 0));
}

static void sign_int_init(uint32_t i, uint32_t *in)
{
   in[0] = i % 5 == 0 ? 0 : sct_hash(i);
}

static void radians_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float f = (float)smod(in[0], 720);
   w[0] = sct_f(f * 0.017453292519943295f, 1e-7f, 1e-6f);
   w[1] = sct_f(f * 0.01f * 57.29577951308232f, 1e-5f, 1e-6f);
}

static void frexp_modf_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float f = (float)smod(in[0], 100000) * 0.125f, ip;
   int e;
   w[0] = sct_fx(frexpf(f, &e));
   w[1] = sct_i(e);
   w[2] = sct_fx(modff(f, &ip));
   w[3] = sct_fx(ip);
}

/* A float that is exactly a half (normal or zero) as its 16 bits. */
static uint32_t to_half(float f)
{
   uint32_t u = eut_u(f), sign = (u >> 16) & 0x8000u;
   if ((u & 0x7fffffffu) == 0)
      return sign;
   uint32_t e = ((u >> 23) & 0xffu) - 127 + 15, m = (u >> 13) & 0x3ffu;
   return sign | e << 10 | m;
}

static void pack_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t x = in[0];
   float hx = (float)((int32_t)(x & 0xffu) - 128) * 0.125f, hy = (float)(x >> 24) * 0.5f;
   w[0] = sct_u(to_half(hx) | to_half(hy) << 16);
   w[1] = sct_fx(-(2.0f + (float)(x & 0x3ffu) / 512.0f));
   w[2] = sct_fx(1.0f);
   w[3] = sct_u(255u << 8 | 64u << 16 | (x & 0xffu) << 24);
   w[4] = sct_f((float)((x >> 8) & 0xffu) / 255.0f, 1e-7f, 1e-6f);
   w[5] = sct_u(0x8001u | ((x & 1) ? 0x7fffu << 16 : 0));
}

static void matrix_inverse_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float m00 = (float)smod(in[0], 8), m10 = (float)smod(in[1], 8);
   float m01 = (float)smod(in[2], 8), m11 = (float)smod(in[3], 8) + 20.0f;
   float det = m00 * m11 - m01 * m10;
   w[0] = sct_fx(det);
   w[1] = det == 0 ? sct_skip() : sct_f(m11, 1e-5f, 1e-5f);
   w[2] = sct_fx(det);
}

static void geometry_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   float iy = (float)smod(in[1], 8);
   int32_t k = smod(in[2], 3) - 1;
   w[0] = sct_f(-iy, 1e-6f, 0);
   w[1] = sct_f(0.5f * 0.70710678f, 1e-5f, 0);
   w[2] = sct_fx((float)k * iy < 0 ? 1.0f : -1.0f);
}

static void extended_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   uint64_t p = (uint64_t)a * b;
   int64_t sp = (int64_t)(int32_t)a * (int32_t)b;
   w[0] = sct_u((uint32_t)(p >> 32));
   w[1] = sct_u((uint32_t)p);
   w[2] = sct_u((uint32_t)((uint64_t)sp >> 32));
   w[3] = sct_u(a + b + (a + b < a));
   w[4] = sct_u(a - b);
   w[5] = sct_u(a < b);
}

static void bvec_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t v[3] = {in[0] & 3, in[1] & 3, in[2] & 3};
   w[0] = sct_b(v[0] == 0 || v[1] == 0 || v[2] == 0);
   w[1] = sct_b(v[0] != 0 && v[1] != 0 && v[2] != 0);
   w[2] = sct_b(v[0] == 1 && v[1] == 2 && v[2] == 3);
   w[3] = sct_b(v[0] != v[1] || v[1] != v[2]);
}

static void int64_div_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint64_t a = in[0] | (uint64_t)in[1] << 32;
   uint64_t b = (in[2] | 1u) | (uint64_t)(in[3] >> 20) << 32;
   w[0] = sct_u((uint32_t)(a / b));
   w[1] = sct_u((uint32_t)((a / b) >> 32));
   w[2] = sct_u((uint32_t)(a % b));
   w[3] = sct_u((uint32_t)((a % b) >> 32));
}

static void int64_float_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   int64_t a = (int64_t)(in[0] | (uint64_t)(in[1] & 0xffffu) << 32);
   w[0] = sct_fx((float)a);
   w[1] = sct_u(in[0] >> 8);
}

static void double_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_fx((float)((double)in[0] * 3.0 / (double)(in[1] | 1u)));
}

static void float16_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_fx((float)(in[0] & 0xffu) * 0.5f);
}

static void printf_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(in[0] + 1);
}

/* Every invocation < n printed one record {3, format number, x}, in any
 * order (format number: the root's base + index 0);
 * with a small buffer, `used` counts them all and the ones that fit are
 * whole. */
static bool printf_check(const struct sc_program *p, const struct hw_printf_buffer *b,
                         const uint32_t *in, uint32_t n, const char *what)
{
   bool ok = true;
   HWT_CHECK(p->printf_count == 1 && strcmp(p->printf_formats[0], "x = %u") == 0,
             "%s: printf formats: %u, first \"%s\"", what, p->printf_count,
             p->printf_count ? p->printf_formats[0] : "");
   ok &= b->used == 12 * n;
   HWT_CHECK(b->used == 12 * n, "%s: printf used %u bytes, want %u", what, b->used, 12 * n);
   uint32_t fit = (b->capacity < b->used ? b->capacity : b->used) / 12;
   const uint32_t *r = (const uint32_t *)(b + 1);
   uint8_t *seen = calloc(n, 1);
   HWT_REQUIRE(seen, "out of memory");
   for (uint32_t k = 0; k < fit && ok; k++, r += 3) {
      /* x is a hash: find which invocation's it is */
      uint32_t who = n;
      for (uint32_t g = 0; g < n && who == n; g++)
         who = in[g] == r[2] && !seen[g] ? g : n;
      ok = r[0] == 3 && r[1] == SCT_PRINTF_BASE && who < n;
      HWT_CHECK(ok, "%s: printf record %u = {%u, %u, %u}", what, k, r[0], r[1], r[2]);
      if (ok)
         seen[who] = 1;
   }
   free(seen);
   return ok;
}

static void clock_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(1);
}

/* ---- probes ---------------------------------------------------------------------- */

struct probe {
   struct sct_map map;
   const char *feature;
   const char *words[6];        /* a refusal names one of these */
};

/* Probes of core SPIR-V, which every Vulkan implementation takes: a refusal
 * fails. */
static bool core_spirv(const char *shader)
{
   return strcmp(shader, "feat_bvec") == 0;
}

static const struct probe probes[] = {
   {SCT_MAP("feat_sign_int", 1, 2, sign_int_init, sign_int_ref, NULL), "sign(int)",
    {"SSign", "GLSL.std.450 instruction 7"}},
   {SCT_MAP("feat_radians", 1, 2, NULL, radians_ref, NULL), "radians/degrees",
    {"Radians", "Degrees", "instruction 11", "instruction 12"}},
   {SCT_MAP("feat_frexp_modf", 1, 4, NULL, frexp_modf_ref, NULL), "frexp/modf",
    {"Frexp", "Modf", "instruction 52", "instruction 36", "instruction 35", "instruction 51"}},
   {SCT_MAP("feat_pack", 1, 6, NULL, pack_ref, NULL), "pack/unpack functions",
    {"Pack", "Unpack", "instruction 5"}},
   {SCT_MAP("feat_matrix_inverse", 4, 3, NULL, matrix_inverse_ref, NULL),
    "determinant/inverse",
    {"Determinant", "Inverse", "instruction 33", "instruction 34"}},
   {SCT_MAP("feat_geometry", 3, 3, NULL, geometry_ref, NULL),
    "reflect/refract/faceforward",
    {"Reflect", "Refract", "FaceForward", "instruction 7"}},
   {SCT_MAP("feat_extended", 2, 6, NULL, extended_ref, NULL),
    "umulExtended/uaddCarry/usubBorrow",
    {"Extended", "Carry", "Borrow", "opcode 15"}},
   {SCT_MAP("feat_bvec", 3, 4, NULL, bvec_ref, NULL), "any/all/vector ==",
    {"Any", "All", "opcode 154", "opcode 155"}},
   {SCT_MAP("feat_int64_div", 4, 4, NULL, int64_div_ref, NULL), "64-bit division", {"64-bit"}},
   {SCT_MAP("feat_int64_float", 2, 2, NULL, int64_float_ref, NULL), "64-bit int <-> float",
    {"64-bit"}},
   {SCT_MAP("feat_double", 2, 1, NULL, double_ref, NULL), "double", {"Float64"}},
   {SCT_MAP("feat_float16", 1, 1, NULL, float16_ref, NULL), "float16_t", {"Float16"}},
   {{.shader = "feat_printf", .ins = 1, .outs = 1, .ref = printf_ref,
     .printf_check = printf_check}, "debugPrintfEXT",
    {"Printf", "printf"}},
   /* a buffer for 10 records: the rest is counted but dropped */
   {{.shader = "feat_printf", .ins = 1, .outs = 1, .ref = printf_ref, .printf_capacity = 120,
     .printf_check = printf_check}, "debugPrintfEXT overflow",
    {"Printf", "printf"}},
   {SCT_MAP("feat_clock", 1, 1, NULL, clock_ref, NULL), "shader clock",
    {"ShaderClock", "5055", "Clock"}},
};

/* Probes one shader at W=32, L=33: true if it compiles; if not, checks
 * the message. */
static bool probe_compiles(const char *shader, const struct sc_set_layout *sets, uint32_t nsets,
                           const char *feature, const char *const *words)
{
   size_t count;
   uint32_t *w = sct_spirv(shader, &count);
   struct sct_opts so;
   sct_options(&so, 32, 33, sets, nsets);
   struct sc_program p;
   char err[512] = "";
   bool ok = sc_compile(w, count, &so.o, &p, err, sizeof(err));
   free(w);
   if (ok) {
      sc_program_free(&p);
      return true;
   }
   bool named = false;
   for (int k = 0; k < 6 && words[k]; k++)
      named |= strstr(err, words[k]) != NULL;
   HWT_CHECK(err[0] && (strstr(err, "unsupported") || strstr(err, "not supported")) && named,
             "%s: the refusal does not say what is unsupported: \"%s\"", shader, err);
   fprintf(stderr, "  MISSING %-34s (%s): %s\n", feature, shader, err);
   return false;
}

static void run_map_probes(struct sct *s)
{
   for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
      const struct probe *pr = &probes[i];
      bool ok = probe_compiles(pr->map.shader, &sct_map_layout, 1, pr->feature, pr->words);
      HWT_CHECK(ok || !core_spirv(pr->map.shader), "%s (%s) is core SPIR-V: the compiler must take it",
                pr->feature, pr->map.shader);
      if (ok)
         sct_map_matrix(s, &pr->map);
   }
}

/* ---- probes with their own resources --------------------------------------------- */

/* 8-bit reads, 16-bit writes. */
static void probe_int8_storage(struct sct *s)
{
   static const char *const words[6] = {"8Bit", "16Bit", "Int8", "Int16"};
   if (!probe_compiles("feat_int8_storage", &sct_map_layout, 1, "8/16-bit storage", words))
      return;
   struct sct_opts so;
   sct_options(&so, 16, 100, &sct_map_layout, 1);
   struct sc_program p;
   if (!sct_compile_named("feat_int8_storage", &so.o, &p, "feat_int8_storage W=16 L=100"))
      return;
   uint32_t n = 250;
   sct_fresh(s);
   uint8_t *b;
   uint16_t *h;
   uint64_t b_va = sct_buf(s, 300, &b), h_va = sct_buf_fill(s, 600, 0xeeeeeeeeu, &h);
   for (uint32_t g = 0; g < 300; g++)
      b[g] = (uint8_t)sct_hash(g);
   uint64_t set = sct_buf(s, 32, NULL);
   sct_descriptor(s, set, 0, b_va, 300);
   sct_descriptor(s, set, 16, h_va, 600);
   struct hw_root_table root = {.sets = {set}};
   memcpy(root.push, &n, 4);
   if (sct_launch(s, &p, (uint32_t[3]){3, 1, 1}, sct_root_upload(s, &root), "feat_int8_storage")) {
      int budget = 4;
      for (uint32_t g = 0; g < 300; g++)
         SCT_CHECK_U(h[g], g < n ? (uint16_t)(b[g] * 3u) : 0xeeeeu,
                     &budget, "feat_int8_storage h[%u]", g);
   }
   sc_program_free(&p);
}

/* A non-uniform index into an array of 4 descriptors. */
static void probe_nonuniform(struct sct *s)
{
   static const char *const words[6] = {"NonUniform", "RuntimeDescriptorArray", "5301", "5302",
                                        "5306"};
   static const struct sc_binding b0[1] = {{0, SC_DESC_STORAGE_BUFFER, 4, 0, 0}};
   static const struct sc_binding b1[1] = {{0, SC_DESC_STORAGE_BUFFER, 1, 0, 0}};
   static const struct sc_set_layout sets[2] = {{1, b0}, {1, b1}};
   if (!probe_compiles("feat_nonuniform", sets, 2, "non-uniform descriptor indexing", words))
      return;
   struct sct_opts so;
   sct_options(&so, 32, 33, sets, 2);
   struct sc_program p;
   if (!sct_compile_named("feat_nonuniform", &so.o, &p, "feat_nonuniform W=32 L=33"))
      return;
   uint32_t n = 80;
   sct_fresh(s);
   uint64_t set0 = sct_buf(s, 64, NULL), set1 = sct_buf(s, 16, NULL);
   uint32_t *v[4], *o;
   for (uint32_t j = 0; j < 4; j++) {
      uint64_t va = sct_buf(s, 4 * 99, &v[j]);
      for (uint32_t g = 0; g < 99; g++)
         v[j][g] = sct_hash(g * 4 + j);
      sct_descriptor(s, set0, 16 * j, va, 4 * 99);
   }
   uint64_t o_va = sct_buf(s, 4 * 99, &o);
   sct_descriptor(s, set1, 0, o_va, 4 * 99);
   struct hw_root_table root = {.sets = {set0, set1}};
   memcpy(root.push, &n, 4);
   if (sct_launch(s, &p, (uint32_t[3]){3, 1, 1}, sct_root_upload(s, &root), "feat_nonuniform")) {
      int budget = 4;
      for (uint32_t g = 0; g < n; g++)
         SCT_CHECK_U(o[g], v[g & 3][g], &budget,
                     "feat_nonuniform o[%u]", g);
   }
   sc_program_free(&p);
}

/* atomicAdd(float) from every invocation. */
static void probe_atomic_float(struct sct *s)
{
   static const char *const words[6] = {"AtomicFloat32AddEXT", "AtomicFloat"};
   if (!probe_compiles("feat_atomic_float", &sct_map_layout, 1, "float atomics", words))
      return;
   struct sct_opts so;
   sct_options(&so, 8, 100, &sct_map_layout, 1);
   struct sc_program p;
   if (!sct_compile_named("feat_atomic_float", &so.o, &p, "feat_atomic_float W=8 L=100"))
      return;
   sct_fresh(s);
   float *sum;
   uint64_t va = sct_buf(s, 4, &sum);
   uint64_t set = sct_buf(s, 16, NULL);
   sct_descriptor(s, set, 0, va, 4);
   struct hw_root_table root = {.sets = {set}};
   if (sct_launch(s, &p, (uint32_t[3]){5, 1, 1}, sct_root_upload(s, &root), "feat_atomic_float"))
      HWT_CHECK(*sum == 500.0f, "feat_atomic_float: sum %g, want 500", (double)*sum);
   sc_program_free(&p);
}

/* Storage images: the layout cannot even describe an image descriptor,
 * so this is always refused; the message must say why. */
static void probe_image(void)
{
   static const char *const words[6] = {"image", "Image", "UniformConstant", "storage class 0",
                                        "binding 0"};
   HWT_CHECK(!probe_compiles("feat_image", &sct_map_layout, 1, "storage images", words),
             "feat_image compiled, though no descriptor kind describes an image");
}

int main(int argc, char **argv)
{
   (void)argc;
   (void)argv;
   struct sct s;
   sct_init(&s);
   run_map_probes(&s);
   probe_int8_storage(&s);
   probe_nonuniform(&s);
   probe_atomic_float(&s);
   probe_image();
   sct_fini(&s);
   return hwt_finish();
}
