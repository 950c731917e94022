#include "sg_log.h"
#include "sg_atomic.h"
#include "sg_hash.h"
#include "sg_str.h"

#if SG_TSAN
_Atomic unsigned sg_fence_word;
#endif

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

const char *const sg_log_area_names[SG_AREA_COUNT] = {
   [SG_AREA_API] = "api",   [SG_AREA_ICD] = "icd",  [SG_AREA_MEMORY] = "memory",
   [SG_AREA_SYNC] = "sync", [SG_AREA_RING] = "ring", [SG_AREA_CP] = "cp",
   [SG_AREA_DMA] = "dma",   [SG_AREA_EU] = "eu",    [SG_AREA_COMPILER] = "compiler",
   [SG_AREA_FAULT] = "fault", [SG_AREA_SHADER] = "shader",
};

static const char *const level_names[] = {"none", "error", "warn", "info", "debug"};

#define DEFAULT_THRESHOLDS                                                  \
   {                                                                        \
      SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN,      \
      SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN, SG_LOG_WARN,      \
      /* debugPrintfEXT output is what the application asked for: shown */ \
      SG_LOG_INFO,                                                          \
   }
_Static_assert(SG_AREA_COUNT == 11, "initialize every area's threshold");
static const uint8_t default_thresholds[SG_AREA_COUNT] = DEFAULT_THRESHOLDS;
_Atomic uint8_t sg_log_thresholds[SG_AREA_COUNT] = DEFAULT_THRESHOLDS;

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

/* Applies spec to levels[]; false if it does not parse. */
static bool parse_specs(const char *spec, uint8_t levels[SG_AREA_COUNT])
{
   const char *p = spec;
   while (*p) {
      size_t n = strcspn(p, ";");
      if (n > 0 && !parse_spec(p, n, levels))
         return false;
      p += n + (p[n] == ';');
   }
   return true;
}

static void store_levels(const uint8_t levels[SG_AREA_COUNT])
{
   for (int i = 0; i < SG_AREA_COUNT; i++)
      atomic_store_explicit(&sg_log_thresholds[i], levels[i], memory_order_relaxed);
}

bool sg_log_configure(const char *spec)
{
   uint8_t levels[SG_AREA_COUNT];
   for (int i = 0; i < SG_AREA_COUNT; i++)
      levels[i] = atomic_load_explicit(&sg_log_thresholds[i], memory_order_relaxed);
   if (!parse_specs(spec, levels))
      return false;
   store_levels(levels);
   return true;
}

bool sg_log_set(const char *spec)
{
   uint8_t levels[SG_AREA_COUNT];
   memcpy(levels, default_thresholds, sizeof(levels));
   if (spec && !parse_specs(spec, levels))
      return false;
   store_levels(levels);
   return true;
}

void sg_log_describe(char *buf, size_t size)
{
   uint8_t levels[SG_AREA_COUNT];
   int count[SG_LOG_DEBUG + 1] = {0};
   for (int i = 0; i < SG_AREA_COUNT; i++) {
      levels[i] = atomic_load_explicit(&sg_log_thresholds[i], memory_order_relaxed);
      count[levels[i] <= SG_LOG_DEBUG ? levels[i] : SG_LOG_DEBUG]++;
   }
   /* The most common level for all areas, then the exceptions. */
   int common = 0;
   for (int l = 1; l <= SG_LOG_DEBUG; l++)
      common = count[l] > count[common] ? l : common;
   size_t used = sg_appendf(buf, size, 0, "%s", level_names[common]);
   for (int l = 0; l <= SG_LOG_DEBUG; l++) {
      if (l == common || count[l] == 0)
         continue;
      used = sg_appendf(buf, size, used, ";%s:", level_names[l]);
      const char *sep = "";
      for (int i = 0; i < SG_AREA_COUNT; i++) {
         if (levels[i] == l) {
            used = sg_appendf(buf, size, used, "%s%s", sep, sg_log_area_names[i]);
            sep = ",";
         }
      }
   }
}

bool sg_log_ratelimit_pass(struct sg_log_ratelimit *rl, uint64_t now_ns, uint32_t *suppressed)
{
   uint64_t next = atomic_load_explicit(&rl->next_ns, memory_order_relaxed);
   /* One thread wins the interval; the others count themselves dropped. */
   if (now_ns < next || !atomic_compare_exchange_strong_explicit(
                           &rl->next_ns, &next, now_ns + SG_LOG_RATELIMIT_NS,
                           memory_order_relaxed, memory_order_relaxed)) {
      atomic_fetch_add_explicit(&rl->suppressed, 1, memory_order_relaxed);
      return false;
   }
   *suppressed = atomic_exchange_explicit(&rl->suppressed, 0, memory_order_relaxed);
   return true;
}

const char *sg_log_suppressed_note(uint32_t suppressed)
{
   static _Thread_local char note[64];
   if (!suppressed)
      return "";
   snprintf(note, sizeof(note), "; %u more since the last message", suppressed);
   return note;
}

/* The SOFTGPU_LOG value last applied (or rejected), as a hash, to notice a
 * change: no heap copy to leak when the loader unloads the driver. */
static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;
static bool env_seen;
static uint64_t env_hash;

/* Lock held. Applies SOFTGPU_LOG if it differs from the value last seen;
 * true if it was applied. */
static bool apply_env_locked(void)
{
   const char *spec = getenv("SOFTGPU_LOG");
   if (!spec)
      return false;
   uint64_t hash = sg_hash64(spec, strlen(spec), 0);
   if (env_seen && hash == env_hash)
      return false;
   env_seen = true;
   env_hash = hash;
   if (!sg_log_set(spec)) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API,
             "SOFTGPU_LOG=\"%s\" does not parse; expected <level>[:<area>,...][;...] with "
             "level error|warn|info|debug|none", spec);
      return false;
   }
   return true;
}

static void init_once(void)
{
   pthread_mutex_lock(&env_lock);
   apply_env_locked();
   pthread_mutex_unlock(&env_lock);
}

void sg_log_init(void)
{
   static pthread_once_t once = PTHREAD_ONCE_INIT;
   pthread_once(&once, init_once);
}

void sg_log_reload_env(void)
{
   sg_log_init();
   pthread_mutex_lock(&env_lock);
   bool changed = apply_env_locked();
   pthread_mutex_unlock(&env_lock);
   if (changed) {
      char now[256];
      sg_log_describe(now, sizeof(now));
      SG_LOG(SG_LOG_INFO, SG_AREA_API, "SOFTGPU_LOG changed: the log selection is now \"%s\"",
             now);
   }
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
 * Debug lines start with "[<seconds>.<us> <thread id>] " (CLOCK_MONOTONIC,
 * the clock of GPU timestamps), so that a submission can be followed from
 * the host thread through the ring to its releases. Returns the message's
 * offset and length (without the newline). */
static size_t emit(char *line, size_t size, const char *kind, bool stamp, enum sg_log_area area,
                   const char *fmt, va_list ap, size_t *prefix_out)
{
   int prefix = 0;
   if (stamp) {
      struct timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      prefix = snprintf(line, size, "[%lld.%06ld %ld] ", (long long)ts.tv_sec,
                        ts.tv_nsec / 1000, (long)syscall(SYS_gettid));
   }
   prefix += snprintf(line + prefix, size - (size_t)prefix, "softgpu: %s: %s: ", kind,
                      sg_log_area_names[area]);
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
   emit(line, sizeof(line), "report", false, area, fmt, ap, &prefix);
   va_end(ap);
}

void sg_log_write(enum sg_log_level level, enum sg_log_area area, const char *fmt, ...)
{
   char line[16384];
   size_t prefix;
   va_list ap;
   va_start(ap, fmt);
   size_t len = emit(line, sizeof(line), level_names[level], level == SG_LOG_DEBUG, area, fmt,
                     ap, &prefix);
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
