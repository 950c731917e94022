/*
 * test_trace: SOFTGPU_TRACE writes a Chrome/Perfetto trace of what the
 * application and the GPU did; the test parses it back.
 *
 * A small compute program runs with SOFTGPU_TRACE set (before the instance
 * exists): a queue named "trace queue", a timeline semaphore named "trace
 * timeline", a command buffer with three dispatches of 128 workgroups inside
 * a debug label "scale pass" (and an inserted label), then a buffer copy,
 * submitted inside a queue label "frame 1" with a wait on the timeline (the
 * channel parks until the host signals 1) and a signal of 2. Everything is
 * destroyed, then the file is parsed with the JSON parser below.
 *
 * Pins down:
 * - the file is valid JSON with a traceEvents array and no dropped events;
 * - tracks: the named queue's channel track is called "trace queue", the
 *   command processor's copies, the application thread (tracks without
 *   events are left out, so the execution-unit workers' appear only when
 *   a worker ran a CTA: the command processor may have run them all);
 * - the application thread's vkQueueSubmit, vkSignalSemaphore,
 *   vkWaitSemaphores and vkQueueWaitIdle spans, and its queue label "frame 1";
 * - on the channel track: every packet after the submit began; a parked
 *   SEM_ACQUIRE for value 1; three LAUNCH_EMBEDDED packets (one per
 *   vkCmdDispatch), inside the "scale pass" label region (B before, E
 *   after), and the inserted label;
 * - CTA spans: 3 x 128 CTAs in all, each launch's starting no earlier than
 *   its LAUNCH_EMBEDDED packet;
 * - a copy span of 16 KiB on the command processor's copy track;
 * - the "trace timeline" counter reaches 1 (host signal) and then 2, the 2
 *   inside the span of the SEM_RELEASE of 2; the CTA counter reaches 384.
 *
 * With the argument "dropped" the same program runs with a cap of 16 events
 * (SOFTGPU_TRACE_EVENTS): the file is still valid JSON, holds at most 16
 * events plus metadata, says how many were dropped, and names the track
 * of every event it kept.
 *
 * The file (test_trace.<pid>.json in the working directory) is removed
 * unless a check failed or SGT_KEEP_TRACE is set.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sgt_compute.h"

#define N 4096u
#define GROUPS (N / 32u)
#define LAUNCHES 3u

/* ---- a minimal JSON parser --------------------------------------------------- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
   enum jtype type;
   double num;
   char *str;
   struct jv *items;     /* array elements, object values */
   char **keys;          /* object keys */
   size_t n;
};

struct jp {
   const char *p, *end;
   const char *error;
};

static void ws(struct jp *j)
{
   while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
      j->p++;
}

static bool fail(struct jp *j, const char *what)
{
   if (!j->error)
      j->error = what;
   return false;
}

static bool parse_value(struct jp *j, struct jv *v, int depth);

static bool parse_string(struct jp *j, char **out)
{
   if (j->p >= j->end || *j->p != '"')
      return fail(j, "expected a string");
   j->p++;
   size_t cap = 16, len = 0;
   char *s = malloc(cap);
   SGT_REQUIRE(s, "out of memory");
   while (j->p < j->end && *j->p != '"') {
      char c = *j->p++;
      if ((unsigned char)c < 0x20) {
         free(s);
         return fail(j, "control character in a string");
      }
      if (c == '\\') {
         if (j->p >= j->end)
            break;
         char e = *j->p++;
         const char *map = strchr("\"\\/bfnrtu", e);
         if (!map || !e) {
            free(s);
            return fail(j, "bad escape");
         }
         if (e == 'u') {
            unsigned x = 0;
            for (int i = 0; i < 4; i++, j->p++) {
               char h = j->p < j->end ? *j->p : 0;
               if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
                  free(s);
                  return fail(j, "bad \\u escape");
               }
               x = x * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
            }
            c = x < 0x80 ? (char)x : '?';
         } else {
            c = "\"\\/\b\f\n\r\t"[map - "\"\\/bfnrtu"];
         }
      }
      if (len + 2 > cap) {
         cap *= 2;
         s = realloc(s, cap);
         SGT_REQUIRE(s, "out of memory");
      }
      s[len++] = c;
   }
   if (j->p >= j->end) {
      free(s);
      return fail(j, "unterminated string");
   }
   j->p++;
   s[len] = 0;
   *out = s;
   return true;
}

static bool parse_number(struct jp *j, struct jv *v)
{
   const char *start = j->p;
   if (j->p < j->end && *j->p == '-')
      j->p++;
   if (j->p >= j->end || !(*j->p >= '0' && *j->p <= '9'))
      return fail(j, "bad number");
   if (*j->p == '0')
      j->p++;
   else
      while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
         j->p++;
   if (j->p < j->end && *j->p == '.') {
      j->p++;
      if (j->p >= j->end || !(*j->p >= '0' && *j->p <= '9'))
         return fail(j, "bad fraction");
      while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
         j->p++;
   }
   if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
      j->p++;
      if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
         j->p++;
      if (j->p >= j->end || !(*j->p >= '0' && *j->p <= '9'))
         return fail(j, "bad exponent");
      while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
         j->p++;
   }
   char buf[64];
   size_t len = (size_t)(j->p - start);
   if (len >= sizeof(buf))
      return fail(j, "number too long");
   memcpy(buf, start, len);
   buf[len] = 0;
   v->type = J_NUM;
   v->num = strtod(buf, NULL);
   return true;
}

static void push_item(struct jv *v, size_t *cap)
{
   if (v->n == *cap) {
      *cap = *cap ? *cap * 2 : 8;
      v->items = realloc(v->items, *cap * sizeof(*v->items));
      SGT_REQUIRE(v->items, "out of memory");
      if (v->type == J_OBJ) {
         v->keys = realloc(v->keys, *cap * sizeof(*v->keys));
         SGT_REQUIRE(v->keys, "out of memory");
      }
   }
   memset(&v->items[v->n], 0, sizeof(v->items[0]));
}

/* An array or object: elements separated by commas, no trailing comma. */
static bool parse_list(struct jp *j, struct jv *v, int depth, char close)
{
   size_t cap = 0;
   j->p++;
   ws(j);
   if (j->p < j->end && *j->p == close) {
      j->p++;
      return true;
   }
   for (;;) {
      push_item(v, &cap);
      if (close == '}') {
         ws(j);
         if (!parse_string(j, &v->keys[v->n]))
            return false;
         ws(j);
         if (j->p >= j->end || *j->p++ != ':') {
            free(v->keys[v->n]);
            return fail(j, "expected ':'");
         }
      }
      v->n++;
      if (!parse_value(j, &v->items[v->n - 1], depth + 1))
         return false;
      ws(j);
      if (j->p < j->end && *j->p == ',') {
         j->p++;
         continue;
      }
      if (j->p < j->end && *j->p == close) {
         j->p++;
         return true;
      }
      return fail(j, "expected ',' or the end of a list");
   }
}

static bool parse_value(struct jp *j, struct jv *v, int depth)
{
   if (depth > 64)
      return fail(j, "nested too deeply");
   ws(j);
   if (j->p >= j->end)
      return fail(j, "unexpected end");
   char c = *j->p;
   size_t left = (size_t)(j->end - j->p);
   if (c == '{' || c == '[') {
      v->type = c == '{' ? J_OBJ : J_ARR;
      return parse_list(j, v, depth, c == '{' ? '}' : ']');
   }
   if (c == '"') {
      v->type = J_STR;
      return parse_string(j, &v->str);
   }
   if (left >= 4 && memcmp(j->p, "true", 4) == 0) {
      *v = (struct jv){.type = J_BOOL, .num = 1};
      j->p += 4;
      return true;
   }
   if (left >= 5 && memcmp(j->p, "false", 5) == 0) {
      *v = (struct jv){.type = J_BOOL};
      j->p += 5;
      return true;
   }
   if (left >= 4 && memcmp(j->p, "null", 4) == 0) {
      *v = (struct jv){.type = J_NULL};
      j->p += 4;
      return true;
   }
   return parse_number(j, v);
}

static void jv_free(struct jv *v)
{
   for (size_t i = 0; i < v->n; i++) {
      jv_free(&v->items[i]);
      if (v->type == J_OBJ)
         free(v->keys[i]);
   }
   free(v->items);
   free(v->keys);
   free(v->str);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
   if (!o || o->type != J_OBJ)
      return NULL;
   for (size_t i = 0; i < o->n; i++) {
      if (strcmp(o->keys[i], key) == 0)
         return &o->items[i];
   }
   return NULL;
}

static const char *jstr(const struct jv *o, const char *key)
{
   const struct jv *v = jget(o, key);
   return v && v->type == J_STR ? v->str : "";
}

static double jnum(const struct jv *o, const char *key)
{
   const struct jv *v = jget(o, key);
   return v && v->type == J_NUM ? v->num : NAN;
}

static double jarg(const struct jv *o, const char *key)
{
   return jnum(jget(o, "args"), key);
}

/* Reads and parses the whole file; the test stops if it is not JSON. */
static void load_trace(const char *path, struct jv *root)
{
   FILE *f = fopen(path, "rb");
   SGT_REQUIRE(f, "SOFTGPU_TRACE wrote no %s", path);
   fseek(f, 0, SEEK_END);
   long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *text = malloc((size_t)size + 1);
   SGT_REQUIRE(text && fread(text, 1, (size_t)size, f) == (size_t)size, "cannot read %s", path);
   fclose(f);
   struct jp j = {.p = text, .end = text + size};
   memset(root, 0, sizeof(*root));
   bool ok = parse_value(&j, root, 0);
   ws(&j);
   if (ok && j.p != j.end)
      ok = fail(&j, "text after the value");
   SGT_REQUIRE(ok, "%s is not valid JSON: %s at byte %ld", path, j.error,
               (long)(j.p - text));
   free(text);
}

/* ---- the program ------------------------------------------------------------- */

struct debug_fns {
   PFN_vkSetDebugUtilsObjectNameEXT name;
   PFN_vkCmdBeginDebugUtilsLabelEXT cmd_begin;
   PFN_vkCmdEndDebugUtilsLabelEXT cmd_end;
   PFN_vkCmdInsertDebugUtilsLabelEXT cmd_insert;
   PFN_vkQueueBeginDebugUtilsLabelEXT queue_begin;
   PFN_vkQueueEndDebugUtilsLabelEXT queue_end;
};

static void load_debug_fns(struct sgt_cdev *d, struct debug_fns *f)
{
#define LOAD(field, name) f->field = (PFN_##name)vkGetInstanceProcAddr(d->instance, #name); \
   SGT_REQUIRE(f->field, #name " is missing")
   LOAD(name, vkSetDebugUtilsObjectNameEXT);
   LOAD(cmd_begin, vkCmdBeginDebugUtilsLabelEXT);
   LOAD(cmd_end, vkCmdEndDebugUtilsLabelEXT);
   LOAD(cmd_insert, vkCmdInsertDebugUtilsLabelEXT);
   LOAD(queue_begin, vkQueueBeginDebugUtilsLabelEXT);
   LOAD(queue_end, vkQueueEndDebugUtilsLabelEXT);
#undef LOAD
}

static VkDebugUtilsLabelEXT label(const char *text)
{
   return (VkDebugUtilsLabelEXT){.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
                                 .pLabelName = text};
}

static void set_name(struct sgt_cdev *d, const struct debug_fns *f, VkObjectType type,
                     uint64_t handle, const char *name)
{
   VkDebugUtilsObjectNameInfoEXT info = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
      .objectType = type,
      .objectHandle = handle,
      .pObjectName = name};
   SGT_CHECK_VK(f->name(d->device, &info));
}

static VkCommandBuffer record(struct sgt_cdev *d, const struct debug_fns *f,
                              const struct sgt_kernel *k, const struct sgt_buffer *y,
                              const struct sgt_buffer *z)
{
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   VkDebugUtilsLabelEXT pass = label("scale pass"), mark = label("after dispatches");
   f->cmd_begin(cmd, &pass);
   const uint32_t push[3] = {2, 1, N};
   for (uint32_t i = 0; i < LAUNCHES; i++) {
      sgt_kernel_dispatch(cmd, k, push, GROUPS, 1, 1);
      sgt_compute_barrier(cmd);
   }
   f->cmd_insert(cmd, &mark);
   f->cmd_end(cmd);
   vkCmdCopyBuffer(cmd, y->buffer, z->buffer, 1, &(VkBufferCopy){.size = N * 4});
   sgt_host_barrier(cmd);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   return cmd;
}

/* Runs the program; the trace is complete once the device is destroyed. */
static void run_program(void)
{
   struct sgt_cdev d;
   sgt_cdev_create(&d, NULL);
   SGT_REQUIRE(d.is_softgpu, "the trace is softgpu's: run through ctest");
   struct debug_fns f;
   load_debug_fns(&d, &f);
   VkQueue queue = d.queues[0];
   VkSemaphore timeline = sgt_ctimeline(&d, 0);
   set_name(&d, &f, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)queue, "trace queue");
   set_name(&d, &f, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)timeline, "trace timeline");

   struct sgt_buffer x, y, z;
   sgt_cbuffer(&d, N * 4, &x);
   sgt_cbuffer(&d, N * 4, &y);
   sgt_cbuffer(&d, N * 4, &z);
   struct sgt_kernel k;
   sgt_kernel_create(&d, &k, SGT_SHADER("scale"), 2, 12, NULL);
   sgt_kernel_bind(&d, &k, (const struct sgt_buffer *const[]){&x, &y});
   VkCommandBuffer cmd = record(&d, &f, &k, &y, &z);

   uint64_t wait_value = 1, signal_value = 2;
   VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
   VkTimelineSemaphoreSubmitInfo tl = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                       .waitSemaphoreValueCount = 1,
                                       .pWaitSemaphoreValues = &wait_value,
                                       .signalSemaphoreValueCount = 1,
                                       .pSignalSemaphoreValues = &signal_value};
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tl,
                      .waitSemaphoreCount = 1, .pWaitSemaphores = &timeline,
                      .pWaitDstStageMask = &stage, .commandBufferCount = 1,
                      .pCommandBuffers = &cmd, .signalSemaphoreCount = 1,
                      .pSignalSemaphores = &timeline};
   VkDebugUtilsLabelEXT frame = label("frame 1");
   f.queue_begin(queue, &frame);
   SGT_CHECK_VK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
   f.queue_end(queue);
   /* Let the channel park on the wait, then release it from the host.
    * Nothing the API shows says it has parked, so the test waits: 200 ms,
    * not 20, because under CI load (sanitizer builds, two tests at once)
    * 20 ms sometimes passed before the channel's thread had run, and the
    * acquire then found the value already signalled (not parked). */
   nanosleep(&(struct timespec){.tv_nsec = 200 * 1000 * 1000}, NULL);
   VkSemaphoreSignalInfo sig = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                .semaphore = timeline, .value = 1};
   SGT_CHECK_VK(vkSignalSemaphore(d.device, &sig));
   VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                             .semaphoreCount = 1, .pSemaphores = &timeline,
                             .pValues = &signal_value};
   SGT_CHECK_VK(vkWaitSemaphores(d.device, &wi, UINT64_MAX));
   SGT_CHECK_VK(vkQueueWaitIdle(queue));

   /* y = ((0 * 2 + 1) * 2 + 1) * 2 + 1, copied to z: the work really ran. */
   const uint32_t *zy = z.map;
   uint32_t bad = 0;
   for (uint32_t i = 0; i < N; i++)
      bad += zy[i] != 7;
   SGT_CHECK(bad == 0, "%u of %u copied results are not 7", bad, N);

   vkFreeCommandBuffers(d.device, d.pool, 1, &cmd);
   sgt_kernel_destroy(&d, &k);
   sgt_cbuffer_destroy(&d, &x);
   sgt_cbuffer_destroy(&d, &y);
   sgt_cbuffer_destroy(&d, &z);
   vkDestroySemaphore(d.device, timeline, NULL);
   sgt_cdev_destroy(&d);
}

/* ---- checks --------------------------------------------------------------------- */

struct trace {
   struct jv root;
   const struct jv *events;
};

/* The tid of the track named name (thread_name metadata), or -1. */
static double track(const struct trace *t, const char *name)
{
   for (size_t i = 0; i < t->events->n; i++) {
      const struct jv *e = &t->events->items[i];
      if (strcmp(jstr(e, "ph"), "M") == 0 && strcmp(jstr(e, "name"), "thread_name") == 0 &&
          strncmp(jstr(jget(e, "args"), "name"), name, strlen(name)) == 0)
         return jnum(e, "tid");
   }
   return -1;
}

/* The k-th (from 0) event of phase ph and name (NULL: any) on track tid
 * (-1: any), in file order (which is time order); NULL if none. */
static const struct jv *find(const struct trace *t, const char *ph, const char *name, double tid,
                             uint32_t k)
{
   for (size_t i = 0; i < t->events->n; i++) {
      const struct jv *e = &t->events->items[i];
      if (strcmp(jstr(e, "ph"), ph) == 0 && (!name || strcmp(jstr(e, "name"), name) == 0) &&
          (tid < 0 || jnum(e, "tid") == tid) && k-- == 0)
         return e;
   }
   return NULL;
}

static double end_of(const struct jv *e)
{
   return jnum(e, "ts") + jnum(e, "dur");
}

static void check_app_thread(const struct trace *t, double app)
{
   const char *calls[] = {"vkQueueSubmit", "vkSignalSemaphore", "vkWaitSemaphores",
                          "vkQueueWaitIdle"};
   for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
      SGT_CHECK(find(t, "X", calls[i], app, 0), "no %s span on the application thread", calls[i]);
   const struct jv *b = find(t, "B", "frame 1", app, 0);
   const struct jv *sub = find(t, "X", "vkQueueSubmit", app, 0);
   SGT_CHECK(b && sub && jnum(b, "ts") <= jnum(sub, "ts"),
             "the queue label \"frame 1\" does not begin before the submit");
   SGT_CHECK(find(t, "E", NULL, app, 0), "the queue label never ends");
}

static void check_channel(const struct trace *t, double ch)
{
   const struct jv *sub = find(t, "X", "vkQueueSubmit", -1, 0);
   SGT_REQUIRE(sub, "no submission traced");
   for (size_t i = 0; i < t->events->n; i++) {
      const struct jv *e = &t->events->items[i];
      if (jnum(e, "tid") == ch && strcmp(jstr(e, "ph"), "M") != 0)
         SGT_CHECK(jnum(e, "ts") >= jnum(sub, "ts"), "channel event %s at %.3f before the "
                   "submit at %.3f", jstr(e, "name"), jnum(e, "ts"), jnum(sub, "ts"));
   }
   const struct jv *acq = find(t, "X", "SEM_ACQUIRE (parked)", ch, 0);
   SGT_CHECK(acq && jarg(acq, "value") == 1, "no parked acquire of value 1 on the channel");
   SGT_CHECK(find(t, "i", "ring fetch", ch, 0), "no ring fetch on the channel");
   const struct jv *begin = find(t, "B", "scale pass", ch, 0), *end = find(t, "E", NULL, ch, 0);
   const struct jv *mark = find(t, "i", "after dispatches", ch, 0);
   SGT_REQUIRE(begin && end && mark, "the command buffer's labels are not on the channel track");
   for (uint32_t i = 0; i < LAUNCHES; i++) {
      const struct jv *l = find(t, "X", "LAUNCH_EMBEDDED", ch, i);
      SGT_REQUIRE(l, "LAUNCH %u is not on the channel track", i);
      SGT_CHECK(jnum(begin, "ts") <= jnum(l, "ts") && end_of(l) <= jnum(mark, "ts") &&
                jnum(mark, "ts") <= jnum(end, "ts"),
                "LAUNCH %u is not inside the label region \"scale pass\"", i);
   }
   SGT_CHECK(!find(t, "X", "LAUNCH_EMBEDDED", ch, LAUNCHES),
             "more LAUNCH_EMBEDDED packets than dispatches");
}

static void check_ctas(const struct trace *t, double ch)
{
   double first_launch = INFINITY;
   for (uint32_t k = 0; find(t, "X", "CTAs", -1, k); k++)
      first_launch = fmin(first_launch, jarg(find(t, "X", "CTAs", -1, k), "launch"));
   double ctas = 0;
   for (uint32_t k = 0;; k++) {
      const struct jv *c = find(t, "X", "CTAs", -1, k);
      if (!c)
         break;
      ctas += jarg(c, "ctas");
      uint32_t n = (uint32_t)(jarg(c, "launch") - first_launch);
      const struct jv *l = n < LAUNCHES ? find(t, "X", "LAUNCH_EMBEDDED", ch, n) : NULL;
      SGT_CHECK(l && jnum(c, "ts") >= jnum(l, "ts"), "CTAs of launch %u begin before its LAUNCH",
                n);
      SGT_CHECK(jarg(c, "first_cta") + jarg(c, "ctas") <= GROUPS, "CTA range past the grid");
   }
   SGT_CHECK(ctas == LAUNCHES * GROUPS, "CTA spans cover %.0f CTAs, not %u", ctas,
             LAUNCHES * GROUPS);
   const struct jv *counter = NULL;
   for (uint32_t k = 0; find(t, "C", "CTAs", -1, k); k++)
      counter = find(t, "C", "CTAs", -1, k);
   SGT_CHECK(counter && jarg(counter, "value") == LAUNCHES * GROUPS,
             "the CTA counter does not reach %u", LAUNCHES * GROUPS);
}

static void check_semaphore(const struct trace *t, double ch)
{
   const struct jv *one = NULL, *two = NULL;
   for (uint32_t k = 0; find(t, "C", "trace timeline", -1, k); k++) {
      const struct jv *c = find(t, "C", "trace timeline", -1, k);
      if (jarg(c, "value") == 1 && !one)
         one = c;
      if (jarg(c, "value") == 2 && !two)
         two = c;
   }
   SGT_REQUIRE(one && two, "the \"trace timeline\" counter does not show 1 and 2");
   SGT_CHECK(jnum(one, "ts") <= jnum(two, "ts"), "the counter reaches 2 before 1");
   const struct jv *rel = NULL;
   for (uint32_t k = 0; find(t, "X", "SEM_RELEASE", ch, k); k++) {
      const struct jv *r = find(t, "X", "SEM_RELEASE", ch, k);
      if (jarg(r, "value") == 2)
         rel = r;
   }
   SGT_REQUIRE(rel, "no SEM_RELEASE of 2 on the channel");
   SGT_CHECK(jnum(rel, "ts") <= jnum(two, "ts") && jnum(two, "ts") <= end_of(rel) + 0.001,
             "the counter's 2 (%.3f) is outside the release's span [%.3f, %.3f]",
             jnum(two, "ts"), jnum(rel, "ts"), end_of(rel));
}

static void check_full_trace(const struct trace *t)
{
   SGT_CHECK(jnum(jget(&t->root, "otherData"), "dropped_events") == 0, "events dropped");
   double ch = track(t, "trace queue"), app = track(t, "app thread");
   double copies = track(t, "command processor copies");
   SGT_REQUIRE(ch >= 0, "no track named after the queue (\"trace queue\")");
   SGT_REQUIRE(app >= 0, "no application thread track");
   /* No check for an "EU worker" track: the command processor may run
    * every CTA of a launch it hands over before a worker wakes (see
    * docs/architecture.md), and then no worker traces anything.
    * check_ctas counts the CTA spans on whatever tracks they are. */
   SGT_CHECK(copies >= 0, "the copy engine track is missing");
   check_app_thread(t, app);
   check_channel(t, ch);
   check_ctas(t, ch);
   check_semaphore(t, ch);
   const struct jv *copy = find(t, "X", "copy", copies, 0);
   SGT_CHECK(copy && jarg(copy, "bytes") == N * 4, "no copy of %u bytes", N * 4);
}

static void check_dropped(const struct trace *t, uint32_t cap)
{
   uint32_t events = 0;
   for (size_t i = 0; i < t->events->n; i++)
      events += strcmp(jstr(&t->events->items[i], "ph"), "M") != 0;
   SGT_CHECK(events <= cap, "%u events kept with a cap of %u", events, cap);
   SGT_CHECK(jnum(jget(&t->root, "otherData"), "dropped_events") > 0,
             "a cap of %u events dropped none", cap);
   /* Every track that kept events is still named. */
   for (size_t i = 0; i < t->events->n; i++) {
      const struct jv *e = &t->events->items[i];
      if (strchr("MC", jstr(e, "ph")[0]))
         continue;
      bool named = false;
      for (size_t k = 0; k < t->events->n && !named; k++) {
         const struct jv *m = &t->events->items[k];
         named = strcmp(jstr(m, "name"), "thread_name") == 0 && jnum(m, "tid") == jnum(e, "tid");
      }
      SGT_CHECK(named, "event %s on track %.0f, which has no name", jstr(e, "name"),
                jnum(e, "tid"));
   }
}

int main(int argc, char **argv)
{
   bool dropped = argc > 1 && strcmp(argv[1], "dropped") == 0;
   char path[64];
   snprintf(path, sizeof(path), "test_trace%s.%d.json", dropped ? "_dropped" : "", (int)getpid());
   /* Read once, when the first device is created. */
   setenv("SOFTGPU_TRACE", path, 1);
   if (dropped)
      setenv("SOFTGPU_TRACE_EVENTS", "16", 1);
   run_program();

   struct trace t;
   load_trace(path, &t.root);
   t.events = jget(&t.root, "traceEvents");
   SGT_REQUIRE(t.events && t.events->type == J_ARR, "no traceEvents array");
   if (dropped)
      check_dropped(&t, 16);
   else
      check_full_trace(&t);
   jv_free(&t.root);
   /* Kept when a check failed, or with SGT_KEEP_TRACE=1, for a look. */
   if (sgt_failures == 0 && !getenv("SGT_KEEP_TRACE"))
      remove(path);
   else
      fprintf(stderr, "trace kept: %s\n", path);
   return sgt_finish();
}
