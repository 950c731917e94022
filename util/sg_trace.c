/*
 * The timeline trace recorder; sg_trace.h describes the contract. Every
 * piece of state is behind a lock, so the final teardown (at exit or
 * unload, possibly while GPU threads still record) only has to take the
 * locks: a recorder that finds its ring gone records nothing.
 */
#include "sg_trace.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sg_log.h"

#define SHARDS 8u
#define DEFAULT_EVENTS (256u * 1024u)
#define MAX_TRACKS 1024u
#define MAX_PROCESSES 64u
#define MAX_STRINGS 8192u            /* interned strings */
#define MAX_STRING_BYTES (1u << 20)  /* their total size */
#define NAME_SLOTS 16384u            /* named keys (power of two) */

_Atomic bool sg_trace_active;

struct event {
   uint64_t ts, dur;
   const char *name;
   const char *arg_names[SG_TRACE_MAX_ARGS];
   uint64_t args[SG_TRACE_MAX_ARGS];
   uint32_t track;                  /* 0 for counters */
   uint32_t pid;                    /* counters only; tracks know theirs */
   char ph;
   uint8_t arg_count;
};

/* A ring of events: head counts every event recorded; the newest cap stay. */
struct shard {
   pthread_mutex_t lock;
   struct event *ring;
   uint32_t cap;
   uint64_t head, dropped;
};

struct track {
   uint32_t pid;
   const char *name;                /* interned */
   const void *key;
};

struct named_key {
   const void *key;                 /* NULL: empty; TOMBSTONE: removed */
   const char *name;                /* interned */
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static struct shard shards[SHARDS];
static _Atomic uint32_t next_shard;
static char *out_path;
static uint64_t t_base;

/* The metadata lock: strings, tracks, processes, named keys, the file. */
static pthread_mutex_t meta_lock = PTHREAD_MUTEX_INITIALIZER;
static bool torn_down;
static char **strings;               /* open addressing, MAX_STRINGS * 2 slots */
static uint32_t string_count;
static size_t string_bytes;
static struct track tracks[MAX_TRACKS + 1];   /* [0] unused: track 0 is "none" */
static uint32_t track_count;
static const char *processes[MAX_PROCESSES];
static struct named_key *names;
static uint32_t app_threads;

static const char TOMBSTONE_BYTE;
#define TOMBSTONE ((const void *)&TOMBSTONE_BYTE)

static _Thread_local uint32_t my_shard;   /* index + 1 */
static _Thread_local uint32_t my_track;

uint64_t sg_trace_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* FNV-1a over bytes. */
static uint64_t hash_bytes(const void *p, size_t n)
{
   const unsigned char *b = p;
   uint64_t h = 0xcbf29ce484222325u;
   for (size_t i = 0; i < n; i++)
      h = (h ^ b[i]) * 0x100000001b3u;
   return h;
}

/* ---- set-up and teardown ------------------------------------------------- */

static void teardown(void)
{
   sg_trace_flush();
   atomic_store_explicit(&sg_trace_active, false, memory_order_relaxed);
   for (uint32_t i = 0; i < SHARDS; i++) {
      pthread_mutex_lock(&shards[i].lock);
      free(shards[i].ring);
      shards[i].ring = NULL;
      shards[i].cap = 0;
      pthread_mutex_unlock(&shards[i].lock);
   }
   pthread_mutex_lock(&meta_lock);
   torn_down = true;
   for (uint32_t i = 0; strings && i < MAX_STRINGS * 2; i++)
      free(strings[i]);
   free(strings);
   strings = NULL;
   free(names);
   names = NULL;
   free(out_path);
   out_path = NULL;
   pthread_mutex_unlock(&meta_lock);
}

static uint32_t parse_cap(void)
{
   const char *s = getenv("SOFTGPU_TRACE_EVENTS");
   if (!s || !*s)
      return DEFAULT_EVENTS;
   char *end;
   unsigned long long v = strtoull(s, &end, 10);
   if (*end || v == 0 || v > (1u << 28)) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "SOFTGPU_TRACE_EVENTS=%s is not a count from 1 to %u; "
             "using %u", s, 1u << 28, DEFAULT_EVENTS);
      return DEFAULT_EVENTS;
   }
   return (uint32_t)v;
}

/* Publishes the buffers under the locks that every later reader takes, so
 * even a thread that only saw the relaxed flag reads them safely. */
static bool publish(const char *path, uint32_t per_shard)
{
   bool ok = true;
   for (uint32_t i = 0; i < SHARDS; i++) {
      struct event *ring = malloc((size_t)per_shard * sizeof(struct event));
      pthread_mutex_lock(&shards[i].lock);
      shards[i].ring = ring;
      shards[i].cap = ring ? per_shard : 0;
      pthread_mutex_unlock(&shards[i].lock);
      ok &= ring != NULL;
   }
   pthread_mutex_lock(&meta_lock);
   out_path = strdup(path);
   strings = calloc(MAX_STRINGS * 2, sizeof(*strings));
   names = calloc(NAME_SLOTS, sizeof(*names));
   ok &= out_path && strings && names;
   t_base = sg_trace_now();
   processes[SG_TRACE_APP_PID] = "application";
   pthread_mutex_unlock(&meta_lock);
   return ok;
}

static void init_once_fn(void)
{
   const char *path = getenv("SOFTGPU_TRACE");
   for (uint32_t i = 0; i < SHARDS; i++)
      pthread_mutex_init(&shards[i].lock, NULL);
   if (!path || !*path)
      return;
   uint32_t cap = parse_cap();
   uint32_t per_shard = (cap + SHARDS - 1) / SHARDS;
   if (!publish(path, per_shard)) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "out of host memory for the trace: SOFTGPU_TRACE ignored");
      teardown();
      return;
   }
   atomic_store_explicit(&sg_trace_active, true, memory_order_release);
   SG_LOG(SG_LOG_INFO, SG_AREA_API, "tracing to %s (%u events kept)", path, per_shard * SHARDS);
}

/* The last flush and the frees, at exit or when the library is unloaded,
 * whichever comes first. A destructor rather than atexit(): the sanitizers'
 * atexit() forgets which shared object registered the handler, so it would
 * run after the library was unloaded. */
__attribute__((destructor)) static void trace_fini(void)
{
   if (sg_trace_on())
      teardown();
}

void sg_trace_init(void)
{
   pthread_once(&init_once, init_once_fn);
}

/* ---- strings, tracks, names ----------------------------------------------- */

static const char *intern_locked(const char *s)
{
   if (!strings)
      return "";
   size_t n = strlen(s);
   uint32_t mask = MAX_STRINGS * 2 - 1;
   for (uint32_t i = (uint32_t)hash_bytes(s, n) & mask;; i = (i + 1) & mask) {
      if (!strings[i]) {
         if (string_count == MAX_STRINGS || string_bytes + n + 1 > MAX_STRING_BYTES ||
             !(strings[i] = strdup(s)))
            return "(trace name table full)";
         string_count++;
         string_bytes += n + 1;
         return strings[i];
      }
      if (strcmp(strings[i], s) == 0)
         return strings[i];
   }
}

const char *sg_trace_intern(const char *s)
{
   pthread_mutex_lock(&meta_lock);
   const char *r = intern_locked(s ? s : "");
   pthread_mutex_unlock(&meta_lock);
   return r;
}

void sg_trace_process(uint32_t pid, const char *name)
{
   if (!sg_trace_on() || pid >= MAX_PROCESSES)
      return;
   pthread_mutex_lock(&meta_lock);
   processes[pid] = intern_locked(name);
   pthread_mutex_unlock(&meta_lock);
}

static struct named_key *name_slot(const void *key, bool insert)
{
   if (!names)
      return NULL;
   uint32_t mask = NAME_SLOTS - 1;
   struct named_key *free_slot = NULL;
   uint32_t i = (uint32_t)hash_bytes(&key, sizeof(key)) & mask;
   for (uint32_t n = 0; n < NAME_SLOTS; n++, i = (i + 1) & mask) {
      if (names[i].key == key)
         return &names[i];
      if (names[i].key == TOMBSTONE && !free_slot)
         free_slot = &names[i];
      if (!names[i].key)
         return insert ? (free_slot ? free_slot : &names[i]) : NULL;
   }
   return insert ? free_slot : NULL;
}

static const char *key_name_locked(const void *key)
{
   struct named_key *k = name_slot(key, false);
   return k ? k->name : NULL;
}

uint32_t sg_trace_track(uint32_t pid, const char *name, const void *key)
{
   if (!sg_trace_on())
      return 0;
   uint32_t id = 0;
   pthread_mutex_lock(&meta_lock);
   if (!torn_down && track_count < MAX_TRACKS) {
      const char *known = key ? key_name_locked(key) : NULL;
      id = ++track_count;
      tracks[id] = (struct track){.pid = pid, .name = known ? known : intern_locked(name),
                                  .key = key};
   }
   pthread_mutex_unlock(&meta_lock);
   return id;
}

uint32_t sg_trace_thread_track(void)
{
   if (my_track || !sg_trace_on())
      return my_track;
   char thread_name[32] = "", name[64];
   pthread_getname_np(pthread_self(), thread_name, sizeof(thread_name));
   pthread_mutex_lock(&meta_lock);
   uint32_t n = ++app_threads;
   pthread_mutex_unlock(&meta_lock);
   snprintf(name, sizeof(name), "app thread %u%s%s%s", n, thread_name[0] ? " (" : "",
            thread_name, thread_name[0] ? ")" : "");
   my_track = sg_trace_track(SG_TRACE_APP_PID, name, NULL);
   return my_track;
}

void sg_trace_name(const void *key, const char *name)
{
   if (!sg_trace_on() || !key)
      return;
   pthread_mutex_lock(&meta_lock);
   struct named_key *k = name_slot(key, name != NULL);
   if (k && name) {
      k->key = key;
      k->name = intern_locked(name);
      for (uint32_t i = 1; i <= track_count; i++) {
         if (tracks[i].key == key)
            tracks[i].name = k->name;
      }
   } else if (k) {
      k->key = TOMBSTONE;
      k->name = NULL;
      for (uint32_t i = 1; i <= track_count; i++) {
         if (tracks[i].key == key)
            tracks[i].key = NULL;   /* the address may name something else next */
      }
   }
   pthread_mutex_unlock(&meta_lock);
}

/* ---- recording -------------------------------------------------------------- */

static void record(const struct event *e)
{
   if (!my_shard)
      my_shard = atomic_fetch_add_explicit(&next_shard, 1, memory_order_relaxed) % SHARDS + 1;
   struct shard *s = &shards[my_shard - 1];
   pthread_mutex_lock(&s->lock);
   if (s->ring) {
      if (s->head >= s->cap)
         s->dropped++;   /* the oldest event makes room */
      s->ring[s->head % s->cap] = *e;
      s->head++;
   }
   pthread_mutex_unlock(&s->lock);
}

static void set_args(struct event *e, const struct sg_trace_arg *args, uint32_t count)
{
   e->arg_count = (uint8_t)(count < SG_TRACE_MAX_ARGS ? count : SG_TRACE_MAX_ARGS);
   for (uint32_t i = 0; i < e->arg_count; i++) {
      e->arg_names[i] = args[i].name;
      e->args[i] = args[i].value;
   }
}

void sg_trace_span(uint32_t track, const char *static_name, uint64_t t0, uint64_t t1,
                   const struct sg_trace_arg *args, uint32_t arg_count)
{
   if (!track || !sg_trace_on())
      return;
   struct event e = {.ts = t0, .dur = t1 > t0 ? t1 - t0 : 0, .name = static_name,
                     .track = track, .ph = 'X'};
   set_args(&e, args, arg_count);
   record(&e);
}

void sg_trace_instant(uint32_t track, const char *static_name, uint64_t t,
                      const struct sg_trace_arg *args, uint32_t arg_count)
{
   if (!track || !sg_trace_on())
      return;
   struct event e = {.ts = t, .name = static_name, .track = track, .ph = 'i'};
   set_args(&e, args, arg_count);
   record(&e);
}

static void labelled(uint32_t track, const char *label, uint64_t t, char ph)
{
   if (!track || !sg_trace_on())
      return;
   struct event e = {.ts = t, .name = label ? sg_trace_intern(label) : "", .track = track,
                     .ph = ph};
   record(&e);
}

void sg_trace_begin(uint32_t track, const char *label, uint64_t t)
{
   labelled(track, label, t, 'B');
}

void sg_trace_end(uint32_t track, uint64_t t)
{
   labelled(track, NULL, t, 'E');
}

void sg_trace_mark(uint32_t track, const char *label, uint64_t t)
{
   labelled(track, label, t, 'i');
}

void sg_trace_counter(uint32_t pid, const char *static_name, uint64_t t, uint64_t value)
{
   if (!sg_trace_on())
      return;
   struct event e = {.ts = t, .name = static_name, .pid = pid, .ph = 'C', .arg_count = 1,
                     .arg_names = {"value"}, .args = {value}};
   record(&e);
}

void sg_trace_counter_at(uint32_t pid, const void *key, uint64_t t, uint64_t value)
{
   if (!sg_trace_on())
      return;
   pthread_mutex_lock(&meta_lock);
   const char *name = key_name_locked(key);
   pthread_mutex_unlock(&meta_lock);
   if (name)
      sg_trace_counter(pid, name, t, value);
}

/* ---- the file ------------------------------------------------------------------ */

uint64_t sg_trace_dropped(void)
{
   uint64_t n = 0;
   if (!sg_trace_on())
      return 0;   /* the shards' locks exist once tracing is on */
   for (uint32_t i = 0; i < SHARDS; i++) {
      pthread_mutex_lock(&shards[i].lock);
      n += shards[i].dropped;
      pthread_mutex_unlock(&shards[i].lock);
   }
   return n;
}

/* Events of every shard, oldest first within each; *count set. */
static struct event *gather(size_t *count)
{
   size_t total = 0;
   struct event *all = NULL;
   for (uint32_t i = 0; i < SHARDS; i++) {
      struct shard *s = &shards[i];
      pthread_mutex_lock(&s->lock);
      uint64_t n = s->head < s->cap ? s->head : s->cap;
      struct event *grown = n ? realloc(all, (total + n) * sizeof(*all)) : all;
      if (grown) {
         all = grown;
         for (uint64_t k = s->head - n; k < s->head; k++)
            all[total++] = s->ring[k % s->cap];
      }
      pthread_mutex_unlock(&s->lock);
   }
   *count = total;
   return all;
}

static int by_time(const void *a, const void *b)
{
   const struct event *x = a, *y = b;
   if (x->ts != y->ts)
      return x->ts < y->ts ? -1 : 1;
   /* Same instant: ends before begins, so back-to-back regions stay apart. */
   return (x->ph != 'E') - (y->ph != 'E');
}

static void put_string(FILE *f, const char *s)
{
   fputc('"', f);
   for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
      if (*p == '"' || *p == '\\')
         fprintf(f, "\\%c", *p);
      else if (*p < 0x20)
         fprintf(f, "\\u%04x", *p);
      else
         fputc(*p, f);
   }
   fputc('"', f);
}

static void put_ts(FILE *f, const char *key, uint64_t ns)
{
   fprintf(f, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned)(ns % 1000));
}

static void put_event(FILE *f, const struct event *e)
{
   uint32_t pid = e->ph == 'C' ? e->pid : tracks[e->track].pid;
   fprintf(f, ",\n{\"ph\":\"%c\",\"pid\":%u,\"tid\":%u,\"name\":", e->ph, pid, e->track);
   put_string(f, e->name ? e->name : "");
   put_ts(f, "ts", e->ts > t_base ? e->ts - t_base : 0);
   if (e->ph == 'X')
      put_ts(f, "dur", e->dur);
   if (e->ph == 'i')
      fputs(",\"s\":\"t\"", f);
   if (e->arg_count) {
      fputs(",\"args\":{", f);
      for (uint32_t i = 0; i < e->arg_count; i++)
         fprintf(f, "%s\"%s\":%" PRIu64, i ? "," : "", e->arg_names[i], e->args[i]);
      fputc('}', f);
   }
   fputc('}', f);
}

/* Names the processes, and the tracks that have events (a device binds
 * every channel; most of them never run anything). */
static void put_metadata(FILE *f, const struct event *ev, size_t count)
{
   bool used[MAX_TRACKS + 1] = {false};
   for (size_t i = 0; i < count; i++)
      used[ev[i].track] = true;
   fputs("{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"trace_start\",\"args\":{}}", f);
   for (uint32_t pid = 0; pid < MAX_PROCESSES; pid++) {
      if (!processes[pid])
         continue;
      fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"name\":\"process_name\",\"args\":"
              "{\"name\":", pid);
      put_string(f, processes[pid]);
      fputs("}}", f);
   }
   for (uint32_t i = 1; i <= track_count; i++) {
      if (!used[i])
         continue;
      fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\",\"args\":"
              "{\"name\":", tracks[i].pid, i);
      put_string(f, tracks[i].name);
      fprintf(f, "}},\n{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_sort_index\","
              "\"args\":{\"sort_index\":%u}}", tracks[i].pid, i, i);
   }
}

/* Writes path.tmp, then renames it: a reader never sees half a file. */
static void write_file(const struct event *ev, size_t count, uint64_t dropped)
{
   size_t len = strlen(out_path);
   char *tmp = malloc(len + 5);
   if (!tmp)
      return;
   memcpy(tmp, out_path, len);
   memcpy(tmp + len, ".tmp", 5);
   FILE *f = fopen(tmp, "w");
   if (!f) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "SOFTGPU_TRACE: cannot write %s", tmp);
      free(tmp);
      return;
   }
   fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"dropped_events\":%" PRIu64
           ",\"events\":%zu},\n\"traceEvents\":[\n", dropped, count);
   put_metadata(f, ev, count);
   for (size_t i = 0; i < count; i++)
      put_event(f, &ev[i]);
   fputs("\n]}\n", f);
   bool ok = fclose(f) == 0;
   if (!ok || rename(tmp, out_path) != 0)
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "SOFTGPU_TRACE: cannot write %s", out_path);
   free(tmp);
}

void sg_trace_flush(void)
{
   if (!sg_trace_on())
      return;
   size_t count;
   uint64_t dropped = sg_trace_dropped();
   struct event *ev = gather(&count);
   if (count)
      qsort(ev, count, sizeof(*ev), by_time);
   pthread_mutex_lock(&meta_lock);
   if (!torn_down && out_path)
      write_file(ev, count, dropped);
   pthread_mutex_unlock(&meta_lock);
   free(ev);
   if (dropped)
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "SOFTGPU_TRACE: %" PRIu64 " oldest events dropped "
             "(SOFTGPU_TRACE_EVENTS raises the cap)", dropped);
}
