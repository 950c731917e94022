/* debugPrintfEXT output: buffers, formatting and printing (sg_printf.h). */
#include "sg_printf.h"
#include "sg_str.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hw_gpu.h"
#include "hw_mem.h"
#include "hw_packets.h"
#include "sc_compiler.h"
#include "sg_alloc.h"
#include "sg_cmd_buffer.h"
#include "sg_cmd_pool.h"
#include "sg_device.h"
#include "sg_log.h"
#include "sg_pipeline.h"

/* Room for the output of one command buffer's executions between prints. */
#define PRINTF_BUFFER_BYTES (1u << 20)

/* ---- formatting ------------------------------------------------------------------ */

struct args {
   const uint32_t *w;
   uint32_t count, next;
};

static uint64_t take(struct args *a, bool wide)
{
   uint64_t v = a->next < a->count ? a->w[a->next] : 0;
   a->next++;
   if (wide) {
      v |= (uint64_t)(a->next < a->count ? a->w[a->next] : 0) << 32;
      a->next++;
   }
   return v;
}

/* One conversion of one value: spec holds "%[flags][width][.prec]" and
 * conv the conversion letter. */
static size_t convert(char *out, size_t size, size_t at, const char *spec, char conv, bool wide,
                      struct args *a)
{
   char f[48];
   uint64_t v = take(a, wide);
   switch (conv) {
   case 'd': case 'i':
      snprintf(f, sizeof(f), "%s%s", spec, PRId64);
      return sg_appendf(out, size, at, f, wide ? (int64_t)v : (int64_t)(int32_t)v);
   case 'u': case 'x': case 'X': case 'o': {
      const char *m = conv == 'u' ? PRIu64 : conv == 'x' ? PRIx64 : conv == 'X' ? PRIX64 : PRIo64;
      snprintf(f, sizeof(f), "%s%s", spec, m);
      return sg_appendf(out, size, at, f, v);
   }
   case 'c':
      snprintf(f, sizeof(f), "%sc", spec);
      return sg_appendf(out, size, at, f, (int)(v & 0xff));
   default: {   /* a floating-point conversion: 32-bit floats (64-bit with l) */
      double d;
      if (wide) {
         memcpy(&d, &v, 8);
      } else {
         float x;
         uint32_t lo = (uint32_t)v;
         memcpy(&x, &lo, 4);
         d = x;
      }
      snprintf(f, sizeof(f), "%s%c", spec, conv);
      return sg_appendf(out, size, at, f, d);
   }
   }
}

void sg_printf_format(char *out, size_t size, const char *fmt, const uint32_t *args, uint32_t count)
{
   struct args a = {args, count, 0};
   size_t at = 0;
   out[0] = '\0';
   for (const char *p = fmt; *p;) {
      if (*p != '%') {
         at = sg_appendf(out, size, at, "%c", *p++);
         continue;
      }
      if (p[1] == '%') {
         at = sg_appendf(out, size, at, "%%");
         p += 2;
         continue;
      }
      /* %[flags][width][.precision][vN][l]conv */
      char spec[32] = "%";
      size_t n = 1;
      const char *q = p + 1;
      while (*q && strchr("-+ #0123456789.", *q) && n < sizeof(spec) - 1)
         spec[n++] = *q++;
      spec[n] = '\0';
      uint32_t lanes = 1;
      if (*q == 'v' && q[1] >= '2' && q[1] <= '4') {
         lanes = (uint32_t)(q[1] - '0');
         q += 2;
      }
      bool wide = false;
      if (*q == 'l') {
         wide = true;
         q++;
      }
      char conv = *q;
      if (!conv || !strchr("diuxXocfFeEgGaA", conv)) {
         at = sg_appendf(out, size, at, "%.*s", (int)(q - p), p);   /* not a conversion: as is */
         p = q;
         continue;
      }
      for (uint32_t i = 0; i < lanes; i++) {
         if (i)
            at = sg_appendf(out, size, at, ", ");
         at = convert(out, size, at, spec, conv, wide, &a);
      }
      p = q + 1;
   }
}

/* ---- per command buffer ----------------------------------------------------------- */

static bool grow(const VkAllocationCallbacks *alloc, void **array, uint32_t *capacity, uint32_t need,
                 size_t elem)
{
   if (need <= *capacity)
      return true;
   uint32_t cap = *capacity ? *capacity * 2 : 8;
   while (cap < need)
      cap *= 2;
   void *p = sg_alloc(alloc, cap * elem, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return false;
   if (*array)
      memcpy(p, *array, *capacity * elem);
   sg_free(alloc, *array);
   *array = p;
   *capacity = cap;
   return true;
}

/* The first format number of pl in this command buffer, registering its
 * formats on first sight. */
static bool base_of(struct sg_cmd_buffer *cmd, const struct sg_pipeline *pl, uint32_t *base)
{
   const VkAllocationCallbacks *alloc = &cmd->pool->alloc;
   for (uint32_t i = 0; i < cmd->printf.pipe_count; i++) {
      if (cmd->printf.pipes[i] == pl) {
         *base = cmd->printf.bases[i];
         return true;
      }
   }
   uint32_t n = cmd->printf.pipe_count + 1;
   uint32_t cap = cmd->printf.pipe_capacity;
   if (!grow(alloc, (void **)&cmd->printf.pipes, &cap, n, sizeof(*cmd->printf.pipes)) ||
       !grow(alloc, (void **)&cmd->printf.bases, &cmd->printf.pipe_capacity, n, sizeof(uint32_t)) ||
       !grow(alloc, (void **)&cmd->printf.formats, &cmd->printf.format_capacity,
             cmd->printf.format_count + pl->printf_count, sizeof(char *)))
      return false;
   *base = cmd->printf.format_count;
   for (uint32_t i = 0; i < pl->printf_count; i++) {
      char *f = sg_strdup(alloc, pl->printf_formats[i], VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!f)
         return false;
      cmd->printf.formats[cmd->printf.format_count++] = f;
   }
   cmd->printf.pipes[cmd->printf.pipe_count] = pl;
   cmd->printf.bases[cmd->printf.pipe_count++] = *base;
   return true;
}

/* Each execution starts with an empty buffer: the reset is a packet of the
 * recording, ahead of its first printing launch. */
static bool arm(struct sg_cmd_buffer *cmd)
{
   struct sg_device *dev = cmd->base.device;
   if (!cmd->printf.va) {
      struct hw_mem *mem = hw_gpu_memory(dev->gpu);
      if (hw_mem_alloc(mem, PRINTF_BUFFER_BYTES, &cmd->printf.va) != 0) {
         cmd->printf.va = 0;
         SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "out of GPU memory for a debugPrintf buffer");
         cmd->record_error = VK_ERROR_OUT_OF_DEVICE_MEMORY;
         return false;
      }
      cmd->printf.host = hw_mem_host(mem, cmd->printf.va);
   }
   struct hw_printf_buffer h = {0, PRINTF_BUFFER_BYTES - (uint32_t)sizeof(h), {0, 0}};
   uint32_t *p = sg_cmd_reserve(cmd, 1 + HW_PKT_VA_DWORDS + sizeof(h) / 4);
   if (!p)
      return false;
   sg_cmd_commit(cmd, hw_emit_inline_write(p, cmd->printf.va, &h, sizeof(h)));
   cmd->printf.armed = true;
   return true;
}

bool sg_cmd_printf_prepare(struct sg_cmd_buffer *cmd, const struct sg_pipeline *pl, uint64_t *va,
                           uint32_t *base)
{
   if (!cmd->printf.armed && !arm(cmd))
      return false;
   if (!base_of(cmd, pl, base)) {
      cmd->record_error = VK_ERROR_OUT_OF_HOST_MEMORY;
      return false;
   }
   *va = cmd->printf.va;
   return true;
}

/* Prints the records of a completed execution. */
static void print_records(struct sg_cmd_buffer *cmd)
{
   const struct hw_printf_buffer *h = cmd->printf.host;
   if (!h)
      return;
   const uint8_t *data = (const uint8_t *)(h + 1);
   uint32_t used = h->used < h->capacity ? h->used : h->capacity;
   char line[1024];
   for (uint32_t at = 0; at + 8 <= used;) {
      uint32_t words, format;
      memcpy(&words, data + at, 4);
      memcpy(&format, data + at + 4, 4);
      if (words < 2 || (uint64_t)at + 4ull * words > used)
         break;
      const char *fmt = format < cmd->printf.format_count ? cmd->printf.formats[format] : "<bad format>";
      sg_printf_format(line, sizeof(line), fmt, (const uint32_t *)(data + at + 8), words - 2);
      SG_LOG(SG_LOG_INFO, SG_AREA_SHADER, "%s", line);
      at += 4 * words;
   }
   if (h->used > h->capacity)
      SG_LOG(SG_LOG_WARN, SG_AREA_SHADER, "debugPrintfEXT: %u bytes of output did not fit the "
             "%u-byte buffer and were lost", h->used - h->capacity, h->capacity);
}

static void unlink_pending(struct sg_device *dev, struct sg_cmd_buffer *cmd)
{
   for (struct sg_cmd_buffer **l = &dev->printf_pending; *l; l = &(*l)->printf.next_pending) {
      if (*l == cmd) {
         *l = cmd->printf.next_pending;
         atomic_fetch_sub(&dev->printf_pending_count, 1);
         break;
      }
   }
   cmd->printf.pending = false;
}

/* Prints pending output; the application has made sure the execution is
 * over (it resets or frees the command buffer), or the device is lost. */
static void flush(struct sg_cmd_buffer *cmd)
{
   struct sg_device *dev = cmd->base.device;
   pthread_mutex_lock(&dev->printf_lock);
   bool pending = cmd->printf.pending;
   if (pending)
      unlink_pending(dev, cmd);
   pthread_mutex_unlock(&dev->printf_lock);
   if (pending && !hw_gpu_is_lost(dev->gpu))
      print_records(cmd);
}

void sg_cmd_printf_reset(struct sg_cmd_buffer *cmd)
{
   flush(cmd);
   const VkAllocationCallbacks *alloc = &cmd->pool->alloc;
   for (uint32_t i = 0; i < cmd->printf.format_count; i++)
      sg_free(alloc, cmd->printf.formats[i]);
   cmd->printf.format_count = 0;
   cmd->printf.pipe_count = 0;
   cmd->printf.armed = false;
}

void sg_cmd_printf_release(struct sg_cmd_buffer *cmd)
{
   sg_cmd_printf_reset(cmd);
   const VkAllocationCallbacks *alloc = &cmd->pool->alloc;
   sg_free(alloc, cmd->printf.formats);
   sg_free(alloc, cmd->printf.pipes);
   sg_free(alloc, cmd->printf.bases);
   if (cmd->printf.va)
      hw_mem_free(hw_gpu_memory(cmd->base.device->gpu), cmd->printf.va);
   memset(&cmd->printf, 0, sizeof(cmd->printf));
}

static void submitted_one(struct sg_device *dev, struct sg_cmd_buffer *cmd)
{
   if (!cmd->printf.armed)
      return;
   pthread_mutex_lock(&dev->printf_lock);
   if (!cmd->printf.pending) {
      cmd->printf.pending = true;
      cmd->printf.next_pending = dev->printf_pending;
      dev->printf_pending = cmd;
      atomic_fetch_add(&dev->printf_pending_count, 1);
   }
   pthread_mutex_unlock(&dev->printf_lock);
}

void sg_printf_submitted(struct sg_device *dev, struct sg_cmd_buffer *cmd)
{
   submitted_one(dev, cmd);
   for (uint32_t i = 0; i < cmd->secondary_count; i++)
      submitted_one(dev, cmd->secondaries[i]);
}

void sg_printf_poll(struct sg_device *dev)
{
   if (!atomic_load_explicit(&dev->printf_pending_count, memory_order_relaxed))
      return;
   pthread_mutex_lock(&dev->printf_lock);
   for (struct sg_cmd_buffer **l = &dev->printf_pending; *l;) {
      struct sg_cmd_buffer *cmd = *l;
      if (!sg_gpu_use_done(dev, &cmd->use)) {
         l = &cmd->printf.next_pending;
         continue;
      }
      *l = cmd->printf.next_pending;
      cmd->printf.pending = false;
      atomic_fetch_sub(&dev->printf_pending_count, 1);
      if (!hw_gpu_is_lost(dev->gpu))
         print_records(cmd);
   }
   pthread_mutex_unlock(&dev->printf_lock);
}
