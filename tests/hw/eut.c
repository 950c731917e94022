#include "eut.h"

#include <stdarg.h>

const uint32_t eut_widths[4] = {8, 16, 32, 64};

#define EUT_ARENA_CHUNK (16ull << 20)
#define EUT_PB_DWORDS (256u * 1024u)

uint32_t eut_threads(void)
{
   const char *v = getenv("SOFTGPU_THREADS");
   if (v && *v) {
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (!*end && n <= 64)
         return (uint32_t)n;
   }
   return 2;
}

void eut_config(struct hw_gpu_config *cfg)
{
   hwt_config(cfg, 1, 0);
   cfg->eu_threads = eut_threads();
}

void eut_init(struct eut *t, const struct hw_gpu_config *cfg)
{
   struct hw_gpu_config def;
   if (!cfg) {
      eut_config(&def);
      cfg = &def;
   }
   memset(t, 0, sizeof(*t));
   t->gpu = hwt_gpu_create(cfg);
   hwt_channel_init(&t->ch, t->gpu, 0, 64, 0);
   t->sem = hwt_alloc(t->gpu, 4096);
   t->pb_cap = EUT_PB_DWORDS;
   t->pb_va = hwt_alloc(t->gpu, 4ull * t->pb_cap);
}

void eut_fini(struct eut *t)
{
   hw_gpu_destroy(t->gpu);
   memset(t, 0, sizeof(*t));
}

uint64_t eut_alloc(struct eut *t, uint64_t size, uint64_t align)
{
   if (align < 16)
      align = 16;
   uint64_t at = (t->arena_used + align - 1) & ~(align - 1);
   if (!t->arena_va || at + size > t->arena_size) {
      uint64_t chunk = size + align > EUT_ARENA_CHUNK ? size + align : EUT_ARENA_CHUNK;
      t->arena_va = hwt_alloc(t->gpu, chunk);
      t->arena_size = chunk;
      at = 0;
   }
   t->arena_used = at + size;
   return t->arena_va + at;
}

void *eut_ptr(struct eut *t, uint64_t va)
{
   return hwt_ptr(t->gpu, va);
}

uint64_t eut_image(struct eut *t, const void *image, size_t size)
{
   uint64_t va = eut_alloc(t, size, 64);
   memcpy(eut_ptr(t, va), image, size);
   t->programs++;
   return va;
}

uint64_t eut_program(struct eut *t, const char *text)
{
   char err[256];
   size_t size;
   void *image = isa_assemble_program(text, &size, err, sizeof(err));
   if (!image)
      fprintf(stderr, "program:\n%s\n", text);
   HWT_REQUIRE(image, "assembler: %s", err);
   uint64_t va = eut_image(t, image, size);
   free(image);
   return va;
}

uint64_t eut_programf(struct eut *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *text = NULL;
   int n = vasprintf(&text, fmt, ap);
   va_end(ap);
   HWT_REQUIRE(n >= 0 && text, "out of memory");
   uint64_t va = eut_program(t, text);
   free(text);
   return va;
}

uint64_t eut_desc(struct eut *t, const struct eut_launch *l)
{
   uint64_t va = eut_alloc(t, sizeof(struct hw_launch_desc), 64);
   struct hw_launch_desc *d = eut_ptr(t, va);
   const struct isa_program_header *h = eut_ptr(t, l->program);
   *d = (struct hw_launch_desc){
      .program_va = l->program,
      /* Programs are never overwritten (eut_alloc never reuses memory), so
       * the VA names a program for good: launches of one program share
       * one decoded copy in the GPU's cache. */
      .program_id = l->program,
      .shared_bytes = l->shared_bytes,
      .private_bytes = l->private_bytes,
      .register_count = l->register_count ? l->register_count : h->vreg_count,
      .flags = l->flags,
      .root_va = l->root,
   };
   for (int i = 0; i < 3; i++) {
      d->grid[i] = l->grid[i] ? l->grid[i] : 1;
      d->size[i] = l->size[i] ? l->size[i] : 1;
      d->base[i] = l->base[i];
   }
   return va;
}

uint64_t eut_root(struct eut *t, const uint64_t *words, uint32_t n)
{
   uint64_t va = eut_alloc(t, 8ull * (n ? n : 1), 64);
   memcpy(eut_ptr(t, va), words, 8ull * n);
   return va;
}

void eut_begin(struct eut *t, struct hwt_pb *pb)
{
   hwt_pb_at(pb, t->gpu, t->pb_va, t->pb_cap - 16);
}

enum hw_wait_result eut_submit(struct eut *t, struct hwt_pb *pb)
{
   t->sem_value++;
   hwt_release(pb, t->sem, t->sem_value, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(pb, &t->ch);
   struct hw_wait_item item = {t->sem, t->sem_value};
   return hw_wait(t->gpu, &item, 1, true, HWT_TIMEOUT_NS);
}

void eut_submit_ok(struct eut *t, struct hwt_pb *pb, const char *what)
{
   enum hw_wait_result r = eut_submit(t, pb);
   HWT_REQUIRE(r == HW_WAIT_SATISFIED, "%s: wait returned %d\n%s%s", what, (int)r,
               hwt_snapshot(t->gpu),
               hw_gpu_fault_report(t->gpu) ? hw_gpu_fault_report(t->gpu) : "");
}

void eut_run(struct eut *t, const struct eut_launch *l, const char *what)
{
   uint64_t desc = eut_desc(t, l);
   struct hwt_pb pb;
   eut_begin(t, &pb);
   pb.p = hw_emit_launch(pb.p, desc);
   eut_submit_ok(t, &pb, what);
}

uint64_t eut_rand(uint64_t *state)
{
   uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
   x ^= x >> 12;
   x ^= x << 25;
   x ^= x >> 27;
   *state = x;
   return x * 0x2545f4914f6cdd1dull;
}

void eut_text_add(struct eut_text *t, const char *fmt, ...)
{
   for (;;) {
      va_list ap;
      va_start(ap, fmt);
      size_t room = t->cap - t->len;
      int n = t->s ? vsnprintf(t->s + t->len, room, fmt, ap) : -1;
      va_end(ap);
      if (n >= 0 && (size_t)n < room) {
         t->len += (size_t)n;
         return;
      }
      size_t cap = t->cap ? t->cap * 2 : 4096;
      while (n >= 0 && cap < t->len + (size_t)n + 1)
         cap *= 2;
      char *s = realloc(t->s, cap);
      HWT_REQUIRE(s, "out of memory");
      t->s = s;
      t->cap = cap;
      t->s[t->len] = '\0';
   }
}

void eut_text_free(struct eut_text *t)
{
   free(t->s);
   memset(t, 0, sizeof(*t));
}
