#include "sct.h"

/* libspirv.h defines this constant with external linkage in C: the
 * compiler library's copy (sc_validate.c) would clash with this one. */
#define kDefaultMaxIdBound sct_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const uint32_t sct_widths[4] = {8, 16, 32, 64};
const uint32_t sct_locals[4] = {1, 33, 100, 1024};

/* Replace the GPU well before the program cache (EUT_MAX_PROGRAMS) or the
 * 256 MiB of memory fill up: every launch places a program and buffers. */
#define SCT_LAUNCHES_PER_GPU 150u
#define SCT_MEMORY_PER_GPU (160ull << 20)

bool sct_matrix_pair(uint32_t width, uint32_t local)
{
   if (!SCT_SANITIZED_BUILD)
      return true;
   uint32_t wi = 0, li = 0;
   for (uint32_t i = 0; i < 4; i++) {
      wi = sct_widths[i] == width ? i : wi;
      li = sct_locals[i] == local ? i : li;
   }
   /* the diagonal, the anti-diagonal: 8 of 16 pairs, every W and L twice */
   return wi == li || wi + li == 3;
}

/* ---- SPIR-V ---------------------------------------------------------------------- */

uint32_t *sct_spirv(const char *name, size_t *count)
{
   char path[512];
   snprintf(path, sizeof(path), "%s/%s.spv", SCT_SHADER_DIR, name);
   FILE *f = fopen(path, "rb");
   HWT_REQUIRE(f, "cannot open %s (is the shader in tests/compiler/shaders?)", path);
   fseek(f, 0, SEEK_END);
   long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   HWT_REQUIRE(size > 0 && size % 4 == 0, "%s: %ld bytes", path, size);
   uint32_t *w = malloc((size_t)size);
   HWT_REQUIRE(w && fread(w, 1, (size_t)size, f) == (size_t)size, "cannot read %s", path);
   fclose(f);
   *count = (size_t)size / 4;
   return w;
}

void sct_options(struct sct_opts *so, uint32_t width, uint32_t local,
                 const struct sc_set_layout *sets, uint32_t set_count)
{
   memset(so, 0, sizeof(*so));
   /* optimize off: the driver's default path */
   so->o = (struct sc_options){.entry_point = "main", .warp_width = width, .set_count = set_count,
                               .sets = sets, .spec = so->spec, .validate = true, .optimize = false};
   if (local)
      sct_spec(so, 0, 4, local);
}

void sct_spec(struct sct_opts *so, uint32_t id, uint32_t size, uint64_t value)
{
   HWT_REQUIRE(so->o.spec_count < sizeof(so->spec) / sizeof(so->spec[0]),
               "too many spec constants");
   so->spec[so->o.spec_count++] = (struct sc_spec_value){id, size, value};
   so->o.spec = so->spec;
}

bool sct_compile(const uint32_t *words, size_t count, const struct sc_options *o,
                 struct sc_program *p, const char *what)
{
   char err[1024];
   if (!sc_compile(words, count, o, p, err, sizeof(err))) {
      HWT_CHECK(false, "%s: sc_compile failed: %s", what, err);
      return false;
   }
   char why[256] = "";
   bool ok = isa_program_validate(p->image, p->size, why, sizeof(why));
   HWT_CHECK(ok, "%s: the compiled program is malformed: %s", what, why);
   const struct isa_program_header *h = p->image;
   HWT_CHECK(!ok || h->warp_width == o->warp_width, "%s: program for W=%u, asked for %u", what,
             h->warp_width, o->warp_width);
   if (!ok)
      sc_program_free(p);
   return ok;
}

bool sct_compile_named(const char *name, const struct sc_options *o, struct sc_program *p,
                       const char *what)
{
   size_t n;
   uint32_t *w = sct_spirv(name, &n);
   bool ok = sct_compile(w, n, o, p, what);
   free(w);
   return ok;
}

uint32_t *sct_assemble(const char *text, size_t *count, const char *what)
{
   spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_2);
   spv_binary bin = NULL;
   spv_diagnostic diag = NULL;
   uint32_t *words = NULL;
   if (spvTextToBinary(ctx, text, strlen(text), &bin, &diag) == SPV_SUCCESS) {
      words = malloc(bin->wordCount * 4);
      HWT_CHECK(words != NULL, "%s: out of memory", what);
      if (words) {
         memcpy(words, bin->code, bin->wordCount * 4);
         *count = bin->wordCount;
      }
   } else {
      HWT_CHECK(false, "%s: spirv-as failed: %s", what, diag ? diag->error : "?");
   }
   spvBinaryDestroy(bin);
   spvDiagnosticDestroy(diag);
   spvContextDestroy(ctx);
   return words;
}

void sct_text_module(struct eut_text *t, uint32_t buffers, const char *globals,
                     const char *locals)
{
   eut_text_add(t, "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                   "OpEntryPoint GLCompute %%main \"main\" %%gid_var %%pc");
   for (uint32_t b = 0; b < buffers; b++)
      eut_text_add(t, " %%buf%u", b);
   eut_text_add(t, "\nOpExecutionMode %%main LocalSize 64 1 1\n"
                   "OpDecorate %%gid_var BuiltIn GlobalInvocationId\n"
                   "OpDecorate %%rt ArrayStride 4\nOpMemberDecorate %%Buf 0 Offset 0\n"
                   "OpDecorate %%Buf Block\nOpMemberDecorate %%Push 0 Offset 0\n"
                   "OpDecorate %%Push Block\n");
   for (uint32_t b = 0; b < buffers; b++)
      eut_text_add(t, "OpDecorate %%buf%u DescriptorSet 0\nOpDecorate %%buf%u Binding %u\n", b, b, b);
   eut_text_add(t, "%%void = OpTypeVoid\n%%fn = OpTypeFunction %%void\n%%bool = OpTypeBool\n"
                   "%%uint = OpTypeInt 32 0\n%%v3uint = OpTypeVector %%uint 3\n"
                   "%%rt = OpTypeRuntimeArray %%uint\n%%Buf = OpTypeStruct %%rt\n"
                   "%%Push = OpTypeStruct %%uint\n%%p_sb_Buf = OpTypePointer StorageBuffer %%Buf\n"
                   "%%p_pc_Push = OpTypePointer PushConstant %%Push\n"
                   "%%p_pc_uint = OpTypePointer PushConstant %%uint\n"
                   "%%p_sb_uint = OpTypePointer StorageBuffer %%uint\n"
                   "%%p_in_v3uint = OpTypePointer Input %%v3uint\n"
                   "%%p_fn_uint = OpTypePointer Function %%uint\n"
                   "%%pc = OpVariable %%p_pc_Push PushConstant\n"
                   "%%gid_var = OpVariable %%p_in_v3uint Input\n"
                   "%%u0 = OpConstant %%uint 0\n%%u1 = OpConstant %%uint 1\n"
                   "%%u3 = OpConstant %%uint 3\n");
   for (uint32_t b = 0; b < buffers; b++)
      eut_text_add(t, "%%buf%u = OpVariable %%p_sb_Buf StorageBuffer\n", b);
   eut_text_add(t, "%s%%main = OpFunction %%void None %%fn\n%%entry = OpLabel\n%s"
                   "%%gid3 = OpLoad %%v3uint %%gid_var\n"
                   "%%gid = OpCompositeExtract %%uint %%gid3 0\n"
                   "%%n_ptr = OpAccessChain %%p_pc_uint %%pc %%u0\n%%n = OpLoad %%uint %%n_ptr\n",
                globals, locals);
}

/* ---- the GPU --------------------------------------------------------------------- */

void sct_init(struct sct *s)
{
   memset(s, 0, sizeof(*s));
   eut_init(&s->eu, NULL);
   s->live = true;
}

void sct_fini(struct sct *s)
{
   if (s->live)
      eut_fini(&s->eu);
   s->live = false;
}

void sct_fresh(struct sct *s)
{
   if (s->live && !s->lost && s->launches < SCT_LAUNCHES_PER_GPU &&
       s->eu.programs < EUT_MAX_PROGRAMS / 2 && s->bytes < SCT_MEMORY_PER_GPU)
      return;
   sct_fini(s);
   sct_init(s);
}

uint64_t sct_buf(struct sct *s, uint64_t bytes, void *host)
{
   uint64_t va = eut_alloc(&s->eu, bytes ? bytes : 4, 256);
   s->bytes += bytes + 256;
   void *p = eut_ptr(&s->eu, va);
   memset(p, 0, bytes);
   if (host)
      *(void **)host = p;
   return va;
}

uint64_t sct_buf_fill(struct sct *s, uint64_t bytes, uint32_t pattern, void *host)
{
   uint32_t *p;
   uint64_t va = sct_buf(s, bytes, &p);
   for (uint64_t i = 0; i < bytes / 4; i++)
      p[i] = pattern;
   if (host)
      *(void **)host = p;
   return va;
}

void sct_descriptor(struct sct *s, uint64_t set_va, uint32_t offset, uint64_t va, uint64_t range)
{
   struct hw_buffer_descriptor d = {va, range};
   memcpy((uint8_t *)eut_ptr(&s->eu, set_va) + offset, &d, sizeof(d));
}

uint64_t sct_root_upload(struct sct *s, const struct hw_root_table *r)
{
   uint64_t va = eut_alloc(&s->eu, sizeof(*r), 256);
   memcpy(eut_ptr(&s->eu, va), r, sizeof(*r));
   return va;
}

bool sct_launch(struct sct *s, const struct sc_program *p, const uint32_t grid[3], uint64_t root,
                const char *what)
{
   struct eut *t = &s->eu;
   struct eut_launch l = {
      .program = eut_image(t, p->image, p->size),
      .grid = {grid[0], grid[1], grid[2]},
      .size = {p->local_size[0], p->local_size[1], p->local_size[2]},
      .root = root,
      .shared_bytes = p->shared_bytes,
      .private_bytes = p->private_bytes,
   };
   uint64_t desc = eut_desc(t, &l);
   struct hwt_pb pb;
   eut_begin(t, &pb);
   pb.p = hw_emit_launch(pb.p, desc);
   enum hw_wait_result r = eut_submit(t, &pb);
   s->launches++;
   if (r == HW_WAIT_SATISFIED)
      return true;
   const char *report = hw_gpu_fault_report(t->gpu);
   HWT_CHECK(false, "%s: the launch %s\n%s", what, r == HW_WAIT_LOST ? "faulted" : "timed out",
             report ? report : hwt_snapshot(t->gpu));
   s->lost = true;
   return false;
}

/* ---- expected values ------------------------------------------------------------- */

bool sct_match(uint32_t got, const struct sct_want *w)
{
   switch (w->cmp) {
   case SCT_SKIP: return true;
   case SCT_EXACT: return got == w->bits;
   default: break;
   }
   float g = eut_f(got), e = eut_f(w->bits);
   if (isnan(e))
      return isnan(g);
   if (w->abs_tol == 0 && w->rel_tol == 0)
      return got == w->bits;
   if (isinf(e) || isnan(g))
      return g == e;
   return fabs((double)g - (double)e) <= (double)w->abs_tol + (double)w->rel_tol * fabs((double)e);
}

bool sct_check(uint32_t got, const struct sct_want *w, int *budget, const char *fmt, ...)
{
   if (sct_match(got, w))
      return true;
   atomic_fetch_add(&hwt_failures, 1);
   if (*budget > 0) {
      (*budget)--;
      char ctx[512];
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(ctx, sizeof(ctx), fmt, ap);
      va_end(ap);
      if (w->cmp == SCT_FLOAT)
         fprintf(stderr, "  MISMATCH %s: got %.9g (0x%08x), want %.9g (0x%08x) +- %g abs %g rel\n",
                 ctx, (double)eut_f(got), got, (double)eut_f(w->bits), w->bits,
                 (double)w->abs_tol, (double)w->rel_tol);
      else
         fprintf(stderr, "  MISMATCH %s: got %u (0x%08x, %d), want %u (0x%08x, %d)\n", ctx, got,
                 got, (int32_t)got, w->bits, w->bits, (int32_t)w->bits);
   }
   return false;
}

uint32_t sct_count_op(const struct sc_program *p, uint16_t op, int32_t mod)
{
   const struct isa_program_header *h = p->image;
   const struct isa_inst *code = (const void *)(h + 1);
   uint32_t n = 0;
   for (uint32_t i = 0; i < h->inst_count; i++)
      n += code[i].op == op && (mod < 0 || code[i].mod == (uint32_t)mod);
   return n;
}

bool sct_compile_shape(const char *name, struct sc_program *p)
{
   struct sct_opts so;
   sct_options(&so, 32, 64, &sct_map_layout, 1);
   return sct_compile_named(name, &so.o, p, name);
}

uint32_t sct_hash(uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}

/* ---- the map runner -------------------------------------------------------------- */

static const struct sc_binding map_bindings[2] = {
   {.binding = 0, .kind = SC_DESC_STORAGE_BUFFER, .count = 1, .offset = 0},
   {.binding = 1, .kind = SC_DESC_STORAGE_BUFFER, .count = 1, .offset = 16},
};
const struct sc_set_layout sct_map_layout = {2, map_bindings};

#define SCT_SENTINEL 0xdeadbeefu

uint32_t sct_map_count(uint32_t local)
{
   return local == 1 ? 193 : 2 * local + local / 3 + 1;
}

static void default_init(uint32_t i, uint32_t *in, uint32_t ins)
{
   for (uint32_t k = 0; k < ins; k++)
      in[k] = sct_hash(i * 131u + k * 7u + 12345u);
}

/* Checks a map run's outputs; false if anything is wrong. */
static bool map_verify(const struct sct_map *m, const uint32_t *in, const uint32_t *out,
                       uint32_t n, uint32_t slots, const char *what)
{
   int budget = 6;
   bool ok = true;
   struct sct_want want[SCT_MAX_OUTS];
   for (uint32_t i = 0; i < n; i++) {
      m->ref(in + (size_t)i * m->ins, i, want);
      for (uint32_t k = 0; k < m->outs; k++) {
         ok &= sct_check(out[(size_t)i * m->outs + k], &want[k], &budget, "%s i=%u out[%u]%s%s",
                         what, i, k, m->names ? " " : "", m->names ? m->names[k] : "");
      }
   }
   /* Invocations past n (the bounds check) must not write anything. */
   for (size_t w = (size_t)n * m->outs; w < (size_t)slots * m->outs; w++) {
      ok &= SCT_CHECK_U(out[w], SCT_SENTINEL, &budget,
                        "%s: word %zu past the last invocation", what, w);
   }
   return ok;
}

bool sct_map_run(struct sct *s, const struct sct_map *m, uint32_t width, uint32_t local,
                 bool optimize)
{
   HWT_REQUIRE(m->outs <= SCT_MAX_OUTS && m->ins <= SCT_MAX_INS, "%s: too many words", m->shader);
   char what[160];
   snprintf(what, sizeof(what), "%s W=%u L=%u%s", m->shader, width, local,
            optimize ? " optimized" : "");
   struct sct_opts so;
   sct_options(&so, width, local, &sct_map_layout, 1);
   so.o.optimize = optimize;
   struct sc_program p;
   if (!sct_compile_named(m->shader, &so.o, &p, what))
      return false;
   HWT_CHECK(p.local_size[0] == local && p.local_size[1] == 1 && p.local_size[2] == 1,
             "%s: local size %ux%ux%u", what, p.local_size[0], p.local_size[1], p.local_size[2]);
   uint32_t n = sct_map_count(local);
   uint32_t groups = (n + local - 1) / local;
   uint32_t slots = groups * local;   /* every invocation launched */
   sct_fresh(s);
   uint32_t *in, *out;
   uint64_t in_va = sct_buf(s, 4ull * slots * m->ins, &in);
   uint64_t out_va = sct_buf_fill(s, 4ull * slots * m->outs, SCT_SENTINEL, &out);
   for (uint32_t i = 0; i < n; i++) {
      if (m->init)
         m->init(i, in + (size_t)i * m->ins);
      else
         default_init(i, in + (size_t)i * m->ins, m->ins);
   }
   uint64_t set = sct_buf(s, 64, NULL);
   sct_descriptor(s, set, 0, in_va, 4ull * slots * m->ins);
   sct_descriptor(s, set, 16, out_va, 4ull * slots * m->outs);
   struct hw_root_table root = {.sets = {set}};
   memcpy(root.push, &n, 4);
   struct hw_printf_buffer *pb = NULL;
   if (p.printf_count) {
      uint32_t capacity = m->printf_capacity ? m->printf_capacity : 1u << 20;
      root.printf_va = sct_buf(s, sizeof(*pb) + capacity, &pb);
      root.printf_base = SCT_PRINTF_BASE;
      pb->capacity = capacity;
   }
   bool ok = sct_launch(s, &p, (uint32_t[3]){groups, 1, 1}, sct_root_upload(s, &root), what);
   if (ok)
      ok = map_verify(m, in, out, n, slots, what);
   if (ok && m->printf_check) {
      HWT_CHECK(pb, "%s: the program has no printf formats", what);
      ok = pb && m->printf_check(&p, pb, in, n, what);
   }
   sc_program_free(&p);
   return ok;
}

void sct_map_matrix(struct sct *s, const struct sct_map *m)
{
   uint32_t runs = 0, failed = 0;
   for (uint32_t wi = 0; wi < 4; wi++) {
      for (uint32_t li = 0; li < 4; li++) {
         if (!sct_matrix_pair(sct_widths[wi], sct_locals[li]))
            continue;
         /* the driver's default path, and the SPIRV-Tools optimizer's */
         for (int optimize = 0; optimize < 2; optimize++) {
            runs++;
            failed += !sct_map_run(s, m, sct_widths[wi], sct_locals[li], optimize);
         }
      }
   }
   fprintf(stderr, "  %-24s %u runs, %u failed\n", m->shader, runs, failed);
}
