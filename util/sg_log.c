#include "sg_log.h"
#include "sg_atomic.h"

#if defined(__SANITIZE_THREAD__)
_Atomic unsigned sg_fence_word;
#endif

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const sg_log_area_names[SG_AREA_COUNT] = {
   [SG_AREA_API] = "api",   [SG_AREA_ICD] = "icd",  [SG_AREA_MEMORY] = "memory",
   [SG_AREA_SYNC] = "sync", [SG_AREA_RING] = "ring", [SG_AREA_CP] = "cp",
   [SG_AREA_DMA] = "dma",   [SG_AREA_EU] = "eu",    [SG_AREA_COMPILER] = "compiler",
   [SG_AREA_FAULT] = "fault", [SG_AREA_SHADER] = "shader",
};

static const char *const level_names[] = {"none", "error", "warn", "info", "debug"};

_Atomic uint8_t sg_log_thresholds[SG_AREA_COUNT] = {
   SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN,
   SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN,
   /* debugPrintfEXT output is what the application asked for: shown */
   SG_LOG_INFO,
};
_Static_assert(SG_AREA_COUNT == 11, "initialize every area's threshold");

static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;
static sg_log_sink_fn sink_fn;
static void *sink_user;

static int parse_level(const char *s, size_t len)
{
   for (int i = 0; i <= SG_LOG_DEBUG; i++) {
      if (strlen(level_names[i]) == len && strncmp(s, level_names[i], len) == 0)
         return i;
   }
   return -1;
}

static int parse_area(const char *s, size_t len)
{
   for (int i = 0; i < SG_AREA_COUNT; i++) {
      if (strlen(sg_log_area_names[i]) == len && strncmp(s, sg_log_area_names[i], len) == 0)
         return i;
   }
   return -1;
}

/* Parses one "<level>" or "<level>:<area>,<area>" into levels[]. */
static bool parse_spec(const char *s, size_t len, uint8_t levels[SG_AREA_COUNT])
{
   const char *colon = memchr(s, ':', len);
   size_t level_len = colon ? (size_t)(colon - s) : len;
   int level = parse_level(s, level_len);
   if (level < 0)
      return false;
   if (!colon) {
      memset(levels, level, SG_AREA_COUNT);
      return true;
   }
   const char *p = colon + 1, *end = s + len;
   while (p < end) {
      const char *comma = memchr(p, ',', (size_t)(end - p));
      size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
      int area = parse_area(p, n);
      if (area < 0)
         return false;
      levels[area] = (uint8_t)level;
      p += n + 1;
   }
   return true;
}

bool sg_log_configure(const char *spec)
{
   uint8_t levels[SG_AREA_COUNT];
   for (int i = 0; i < SG_AREA_COUNT; i++)
      levels[i] = atomic_load_explicit(&sg_log_thresholds[i], memory_order_relaxed);
   const char *p = spec;
   while (*p) {
      size_t n = strcspn(p, ";");
      if (n > 0 && !parse_spec(p, n, levels))
         return false;
      p += n + (p[n] == ';');
   }
   for (int i = 0; i < SG_AREA_COUNT; i++)
      atomic_store_explicit(&sg_log_thresholds[i], levels[i], memory_order_relaxed);
   return true;
}

static void init_once(void)
{
   const char *spec = getenv("SOFTGPU_LOG");
   if (spec && !sg_log_configure(spec)) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API,
             "SOFTGPU_LOG=\"%s\" does not parse; expected <level>[:<area>,...][;...] with "
             "level error|warn|info|debug|none", spec);
   }
}

void sg_log_init(void)
{
   static pthread_once_t once = PTHREAD_ONCE_INIT;
   pthread_once(&once, init_once);
}

void sg_log_set_sink(sg_log_sink_fn sink, void *user)
{
   pthread_mutex_lock(&sink_lock);
   sink_fn = sink;
   sink_user = user;
   pthread_mutex_unlock(&sink_lock);
}

/* Formats "softgpu: <kind>: <area>: <message>\n" into line and writes it
 * with one write(2), which keeps lines from different threads whole.
 * Returns the message's offset and length (without the newline). */
static size_t emit(char *line, size_t size, const char *kind, enum sg_log_area area,
                   const char *fmt, va_list ap, size_t *prefix_out)
{
   int prefix = snprintf(line, size, "softgpu: %s: %s: ", kind, sg_log_area_names[area]);
   int body = vsnprintf(line + prefix, size - (size_t)prefix - 1, fmt, ap);
   size_t len = (size_t)prefix + (body < 0 ? 0 : (size_t)body);
   if (len > size - 2)
      len = size - 2;
   line[len] = '\n';
   ssize_t written = write(STDERR_FILENO, line, len + 1);
   (void)written;
   *prefix_out = (size_t)prefix;
   return len;
}

void sg_log_report(enum sg_log_area area, const char *fmt, ...)
{
   char line[16384];
   size_t prefix;
   va_list ap;
   va_start(ap, fmt);
   emit(line, sizeof(line), "report", area, fmt, ap, &prefix);
   va_end(ap);
}

void sg_log_write(enum sg_log_level level, enum sg_log_area area, const char *fmt, ...)
{
   char line[16384];
   size_t prefix;
   va_list ap;
   va_start(ap, fmt);
   size_t len = emit(line, sizeof(line), level_names[level], area, fmt, ap, &prefix);
   va_end(ap);

   /* The sink may call back into the application, which may call the
    * driver, which may log: such nested messages go to stderr only. */
   static _Thread_local bool in_sink;
   if (in_sink)
      return;
   pthread_mutex_lock(&sink_lock);
   if (sink_fn) {
      line[len] = '\0';
      in_sink = true;
      sink_fn(level, area, line + prefix, sink_user);
      in_sink = false;
   }
   pthread_mutex_unlock(&sink_lock);
}
