/*
 * bench_submit: the cost of a submission, measured through the Vulkan
 * loader on whichever driver the loader sees (VK_DRIVER_FILES names one
 * manifest: softgpu's or lavapipe's). bench/run-submit-bench.py runs it
 * alternately on both and compares; one run of this program measures one
 * driver and prints machine-readable lines on stdout:
 *
 *   info <key> <value...>
 *   metric <phase>.<name> <value> <unit>
 *   thread <phase> <thread-name> <cpu-ns>
 *
 * Phases (each on its own VkDevice, so that a driver's per-device counters,
 * e.g. softgpu's SOFTGPU_STATS=1 line printed at vkDestroyDevice, cover one
 * phase; "phase <name> end" is written to stderr just before the device is
 * destroyed so the runner can attribute that line):
 *
 *   rt_fence  vkQueueSubmit(queue, 0, NULL, fence) + vkWaitForFences +
 *             vkResetFences, per-iteration latency.
 *   rt_cb     the same with one VkSubmitInfo holding one empty command buffer.
 *   pingpong  a timeline semaphore: the queue waits for 2k+1 (submitted
 *             before the host signals it: wait-before-signal) and signals
 *             2k+2; a host thread signals 2k+1 (vkSignalSemaphore) and waits
 *             for 2k+2 (vkWaitSemaphores). Latency = signal call to wait
 *             return. Rounds are submitted PINGPONG_AHEAD rounds ahead.
 *   tput_1    completed submissions per second, one command buffer per
 *             vkQueueSubmit call.
 *   tput_64cb 64 command buffers in one VkSubmitInfo per call.
 *   tput_64si 64 VkSubmitInfo of one command buffer each per call.
 *             Every command buffer holds one vkCmdFillBuffer of 16 bytes and
 *             is recorded once; a fence every 64 command buffers bounds the
 *             backlog (at most TPUT_FENCES fences, so TPUT_FENCES * 64
 *             command buffers, in flight); the clock stops when all of them
 *             have completed. Rates count command buffers.
 *
 * Every phase reports cpu_per_wall, the CPU time of every thread of the
 * process (getrusage RUSAGE_SELF, user + system) over wall time, and
 * "thread" lines with each thread's CPU time (/proc/self/task/<tid>/schedstat).
 * Percentiles are nearest-rank over every timed iteration of the run.
 *
 * Every phase runs for at least --seconds (default 0.25) after WARMUP
 * iterations, and latency phases for at least --iters timed iterations:
 * short phases would make the CPU time figures meaningless, because the
 * kernel updates the CPU time of a thread running on another core only at
 * scheduler ticks.
 *
 * Usage: bench_submit [--iters N] [--seconds S] [--only PHASE[,PHASE...]]
 */
#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <vulkan/vulkan.h>

#define WARMUP 200u
#define PINGPONG_AHEAD 4u
#define TPUT_GROUP 64u      /* command buffers per fence */
#define TPUT_FENCES 4u      /* groups in flight at most */
#define TPUT_CBS (TPUT_GROUP * TPUT_FENCES)
#define FILL_BYTES 16u
#define MAX_THREADS 64u

static unsigned min_iters = 2000;
static double phase_seconds = 0.25;
static const char *only;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fputs("bench_submit: ", stderr);
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
   exit(1);
}

#define CHECK(call)                                                               \
   do {                                                                          \
      VkResult r_ = (call);                                                      \
      if (r_ != VK_SUCCESS)                                                      \
         die("%s:%d: %s returned %d", __FILE__, __LINE__, #call, (int)r_);      \
   } while (0)

static uint64_t now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* User + system CPU time of every thread of the process. */
static uint64_t process_cpu_ns(void)
{
   struct rusage ru;
   getrusage(RUSAGE_SELF, &ru);
   return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
          ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

/* ---- per-thread CPU time (/proc/self/task) ----------------------------------- */

struct thread_cpu {
   long tid;
   char name[32];
   uint64_t ns;
};

struct thread_set {
   unsigned count;
   struct thread_cpu t[MAX_THREADS];
};

static void read_threads(struct thread_set *s)
{
   s->count = 0;
   DIR *d = opendir("/proc/self/task");
   if (!d)
      return;
   struct dirent *e;
   while ((e = readdir(d)) && s->count < MAX_THREADS) {
      if (!isdigit((unsigned char)e->d_name[0]))
         continue;
      struct thread_cpu *t = &s->t[s->count];
      char path[128];
      t->tid = strtol(e->d_name, NULL, 10);
      snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", t->tid);
      FILE *f = fopen(path, "r");
      unsigned long long ns = 0;
      if (!f)
         continue;
      int got = fscanf(f, "%llu", &ns);
      fclose(f);
      if (got != 1)
         continue;
      t->ns = ns;
      snprintf(path, sizeof(path), "/proc/self/task/%ld/comm", t->tid);
      f = fopen(path, "r");
      strcpy(t->name, "?");
      if (f) {
         if (fgets(t->name, sizeof(t->name), f))
            t->name[strcspn(t->name, "\n")] = '\0';
         fclose(f);
      }
      for (char *c = t->name; *c; c++) {
         if (isspace((unsigned char)*c))
            *c = '_';
      }
      s->count++;
   }
   closedir(d);
}

/* Prints each thread's CPU time between two snapshots (threads that
 * appeared in between count from zero). */
static void print_threads(const char *phase, const struct thread_set *before,
                          const struct thread_set *after)
{
   for (unsigned i = 0; i < after->count; i++) {
      uint64_t base = 0;
      for (unsigned j = 0; j < before->count; j++) {
         if (before->t[j].tid == after->t[i].tid)
            base = before->t[j].ns;
      }
      printf("thread %s %s %llu\n", phase, after->t[i].name,
             (unsigned long long)(after->t[i].ns - base));
   }
}

/* ---- results -------------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted values. */
static uint64_t percentile(const uint64_t *sorted, unsigned n, double p)
{
   unsigned rank = (unsigned)(p / 100.0 * n + 0.999999);
   if (rank < 1)
      rank = 1;
   if (rank > n)
      rank = n;
   return sorted[rank - 1];
}

static void metric(const char *phase, const char *name, double value, const char *unit)
{
   printf("metric %s.%s %.6g %s\n", phase, name, value, unit);
}

static void report_latency(const char *phase, uint64_t *lat, unsigned n)
{
   qsort(lat, n, sizeof(*lat), cmp_u64);
   uint64_t sum = 0;
   for (unsigned i = 0; i < n; i++)
      sum += lat[i];
   metric(phase, "p50", percentile(lat, n, 50) / 1000.0, "us");
   metric(phase, "p99", percentile(lat, n, 99) / 1000.0, "us");
   metric(phase, "mean", (double)sum / n / 1000.0, "us");
   metric(phase, "max", lat[n - 1] / 1000.0, "us");
   metric(phase, "iterations", n, "count");
}

/* ---- the device of one phase ----------------------------------------------------- */

struct ctx {
   VkInstance instance;
   VkPhysicalDevice pdev;
   uint32_t family;
   VkDevice device;
   VkQueue queue;
   VkCommandPool pool;
   VkBuffer buffer;
   VkDeviceMemory memory;
};

static void create_instance(struct ctx *c)
{
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "bench_submit",
                            .apiVersion = VK_API_VERSION_1_2};
   VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                              .pApplicationInfo = &app};
   CHECK(vkCreateInstance(&ii, NULL, &c->instance));
   uint32_t n = 1;
   VkResult r = vkEnumeratePhysicalDevices(c->instance, &n, &c->pdev);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0)
      die("no physical device (is VK_DRIVER_FILES set to one manifest?)");

   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(c->pdev, &props);
   printf("info device %s\n", props.deviceName);
   printf("info api_version %u.%u.%u\n", VK_API_VERSION_MAJOR(props.apiVersion),
          VK_API_VERSION_MINOR(props.apiVersion), VK_API_VERSION_PATCH(props.apiVersion));
   printf("info driver_version 0x%x\n", props.driverVersion);

   uint32_t layers = 0;
   vkEnumerateInstanceLayerProperties(&layers, NULL);
   printf("info instance_layers_available %u\n", layers);

   VkQueueFamilyProperties fam[8];
   uint32_t nf = 8;
   vkGetPhysicalDeviceQueueFamilyProperties(c->pdev, &nf, fam);
   c->family = UINT32_MAX;
   for (uint32_t i = 0; i < nf && c->family == UINT32_MAX; i++) {
      if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         c->family = i;
   }
   if (c->family == UINT32_MAX)
      die("no compute queue family");
   printf("info queue_family %u flags 0x%x\n", c->family, fam[c->family].queueFlags);
}

static void create_device(struct ctx *c)
{
   VkPhysicalDeviceVulkan12Features have12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &have12};
   vkGetPhysicalDeviceFeatures2(c->pdev, &have);
   if (!have12.timelineSemaphore)
      die("the device has no timeline semaphores");
   VkPhysicalDeviceVulkan12Features want12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .timelineSemaphore = VK_TRUE};
   const float prio = 1.0f;
   VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = c->family, .queueCount = 1,
                                 .pQueuePriorities = &prio};
   VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &want12,
                            .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi};
   CHECK(vkCreateDevice(c->pdev, &di, NULL, &c->device));
   vkGetDeviceQueue(c->device, c->family, 0, &c->queue);
   VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .queueFamilyIndex = c->family};
   CHECK(vkCreateCommandPool(c->device, &pi, NULL, &c->pool));

   VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = TPUT_CBS * FILL_BYTES,
                            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
   CHECK(vkCreateBuffer(c->device, &bi, NULL, &c->buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(c->device, c->buffer, &req);
   uint32_t type = 0;
   while (type < 32 && !(req.memoryTypeBits & (1u << type)))
      type++;
   VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .allocationSize = req.size, .memoryTypeIndex = type};
   CHECK(vkAllocateMemory(c->device, &ai, NULL, &c->memory));
   CHECK(vkBindBufferMemory(c->device, c->buffer, c->memory, 0));
}

static void destroy_device(struct ctx *c, const char *phase)
{
   CHECK(vkDeviceWaitIdle(c->device));
   fflush(stdout);
   fprintf(stderr, "phase %s end\n", phase);
   fflush(stderr);
   vkDestroyBuffer(c->device, c->buffer, NULL);
   vkFreeMemory(c->device, c->memory, NULL);
   vkDestroyCommandPool(c->device, c->pool, NULL);
   vkDestroyDevice(c->device, NULL);
   c->device = VK_NULL_HANDLE;
}

/* count command buffers; fill != 0: each holds one 16-byte fill of its own
 * slice of the buffer. Recorded once, no simultaneous use. */
static void record(struct ctx *c, VkCommandBuffer *cbs, uint32_t count, bool fill)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = c->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = count};
   CHECK(vkAllocateCommandBuffers(c->device, &ai, cbs));
   for (uint32_t i = 0; i < count; i++) {
      VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      CHECK(vkBeginCommandBuffer(cbs[i], &bi));
      if (fill)
         vkCmdFillBuffer(cbs[i], c->buffer, (VkDeviceSize)i * FILL_BYTES, FILL_BYTES, i);
      CHECK(vkEndCommandBuffer(cbs[i]));
   }
}

static VkFence create_fence(struct ctx *c)
{
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence f;
   CHECK(vkCreateFence(c->device, &fi, NULL, &f));
   return f;
}

/* Timing frame of a phase: wall, process CPU, threads. */
struct frame {
   uint64_t wall0, cpu0, wall1, cpu1;
   struct thread_set threads0, threads1;
};

static void frame_begin(struct frame *f)
{
   read_threads(&f->threads0);
   f->cpu0 = process_cpu_ns();
   f->wall0 = now_ns();
}

/* Called by the last thread still working, before it exits. */
static void frame_capture(struct frame *f)
{
   f->wall1 = now_ns();
   f->cpu1 = process_cpu_ns();
   read_threads(&f->threads1);
}

static void frame_print(const struct frame *f, const char *phase)
{
   uint64_t wall = f->wall1 - f->wall0, cpu = f->cpu1 - f->cpu0;
   metric(phase, "wall", wall / 1e6, "ms");
   metric(phase, "cpu", cpu / 1e6, "ms");
   metric(phase, "cpu_per_wall", (double)cpu / (double)wall, "ratio");
   print_threads(phase, &f->threads0, &f->threads1);
}

static void frame_end(struct frame *f, const char *phase)
{
   frame_capture(f);
   frame_print(f, phase);
}

/* Latencies of one phase, grown as needed. */
struct samples {
   uint64_t *v;
   unsigned n, cap;
};

static void add_sample(struct samples *s, uint64_t ns)
{
   if (s->n == s->cap) {
      s->cap = s->cap ? s->cap * 2 : 16384;
      s->v = realloc(s->v, s->cap * sizeof(*s->v));
      if (!s->v)
         die("out of memory");
   }
   s->v[s->n++] = ns;
}

/* A latency phase ends once it has min_iters samples and has run for
 * phase_seconds: long enough that the kernel's CPU accounting of threads
 * running on other cores (updated at scheduler ticks) is accurate. */
static bool phase_done(const struct samples *s, uint64_t wall0)
{
   return s->n >= min_iters && now_ns() - wall0 >= (uint64_t)(phase_seconds * 1e9);
}

/* ---- (a) round trip ------------------------------------------------------------- */

static void phase_round_trip(struct ctx *c, const char *phase, bool with_cb)
{
   create_device(c);
   VkCommandBuffer cb;
   record(c, &cb, 1, false);
   VkFence fence = create_fence(c);
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                      .commandBufferCount = 1, .pCommandBuffers = &cb};
   struct samples lat = {0};
   struct frame fr;
   for (unsigned i = 0;; i++) {
      if (i == WARMUP)
         frame_begin(&fr);
      uint64_t t0 = now_ns();
      CHECK(vkQueueSubmit(c->queue, with_cb ? 1 : 0, with_cb ? &si : NULL, fence));
      CHECK(vkWaitForFences(c->device, 1, &fence, VK_TRUE, UINT64_MAX));
      CHECK(vkResetFences(c->device, 1, &fence));
      uint64_t t1 = now_ns();
      if (i >= WARMUP) {
         add_sample(&lat, t1 - t0);
         if (phase_done(&lat, fr.wall0))
            break;
      }
   }
   frame_end(&fr, phase);
   report_latency(phase, lat.v, lat.n);
   free(lat.v);
   vkDestroyFence(c->device, fence, NULL);
   destroy_device(c, phase);
}

/* ---- (b) timeline ping-pong with a host thread ------------------------------------ */

struct pingpong {
   struct ctx *c;
   VkSemaphore sem;
   uint64_t submitted;     /* rounds submitted so far */
   struct samples lat;
   struct frame frame;
};

/* Round k: the queue waits for 2k+1 and signals 2k+2. */
static void submit_round(struct pingpong *pp)
{
   uint64_t k = pp->submitted++;
   uint64_t wait = 2 * k + 1, signal = 2 * k + 2;
   VkTimelineSemaphoreSubmitInfo ti = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                       .waitSemaphoreValueCount = 1,
                                       .pWaitSemaphoreValues = &wait,
                                       .signalSemaphoreValueCount = 1,
                                       .pSignalSemaphoreValues = &signal};
   const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ti,
                      .waitSemaphoreCount = 1, .pWaitSemaphores = &pp->sem,
                      .pWaitDstStageMask = &stage,
                      .signalSemaphoreCount = 1, .pSignalSemaphores = &pp->sem};
   CHECK(vkQueueSubmit(pp->c->queue, 1, &si, VK_NULL_HANDLE));
}

/* The host side: signals 2k+1, waits for 2k+2, and keeps PINGPONG_AHEAD
 * rounds submitted ahead of its signal until the phase is over; then it
 * plays out the rounds already submitted (they are measured too). */
static void *pingpong_host(void *arg)
{
   struct pingpong *pp = arg;
   struct ctx *c = pp->c;
   bool more = true;
   for (uint64_t k = 0; k < pp->submitted; k++) {
      if (k == WARMUP)
         frame_begin(&pp->frame);
      uint64_t odd = 2 * k + 1, even = 2 * k + 2;
      VkSemaphoreSignalInfo sig = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                   .semaphore = pp->sem, .value = odd};
      VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                .semaphoreCount = 1, .pSemaphores = &pp->sem,
                                .pValues = &even};
      uint64_t t0 = now_ns();
      CHECK(vkSignalSemaphore(c->device, &sig));
      CHECK(vkWaitSemaphores(c->device, &wi, UINT64_MAX));
      uint64_t t1 = now_ns();
      if (k >= WARMUP) {
         add_sample(&pp->lat, t1 - t0);
         more = more && !phase_done(&pp->lat, pp->frame.wall0);
      }
      if (more)
         submit_round(pp);
   }
   frame_capture(&pp->frame);   /* while this thread is still listed */
   return NULL;
}

static void phase_pingpong(struct ctx *c, const char *phase)
{
   create_device(c);
   VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                   .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
   VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
   struct pingpong pp = {.c = c};
   CHECK(vkCreateSemaphore(c->device, &si, NULL, &pp.sem));
   for (unsigned k = 0; k < PINGPONG_AHEAD; k++)
      submit_round(&pp);
   pthread_t host;
   if (pthread_create(&host, NULL, pingpong_host, &pp) != 0)
      die("cannot start the host thread");
   pthread_setname_np(host, "bench-host");
   pthread_join(host, NULL);
   frame_print(&pp.frame, phase);
   report_latency(phase, pp.lat.v, pp.lat.n);
   free(pp.lat.v);
   vkDestroySemaphore(c->device, pp.sem, NULL);
   destroy_device(c, phase);
}

/* ---- (c) completed submissions per second ------------------------------------------ */

enum tput_mode { TPUT_SINGLE, TPUT_64CB, TPUT_64SI };

static void submit_group(struct ctx *c, enum tput_mode mode, const VkCommandBuffer *cbs,
                         VkFence fence)
{
   VkSubmitInfo si[TPUT_GROUP];
   for (uint32_t i = 0; i < TPUT_GROUP; i++)
      si[i] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                             .pCommandBuffers = &cbs[i]};
   switch (mode) {
   case TPUT_SINGLE:
      for (uint32_t i = 0; i < TPUT_GROUP; i++)
         CHECK(vkQueueSubmit(c->queue, 1, &si[i], i + 1 == TPUT_GROUP ? fence : VK_NULL_HANDLE));
      break;
   case TPUT_64CB:
      si[0].commandBufferCount = TPUT_GROUP;
      si[0].pCommandBuffers = cbs;
      CHECK(vkQueueSubmit(c->queue, 1, &si[0], fence));
      break;
   case TPUT_64SI:
      CHECK(vkQueueSubmit(c->queue, TPUT_GROUP, si, fence));
      break;
   }
}

static void phase_throughput(struct ctx *c, const char *phase, enum tput_mode mode)
{
   create_device(c);
   VkCommandBuffer cbs[TPUT_CBS];
   record(c, cbs, TPUT_CBS, true);
   VkFence fences[TPUT_FENCES];
   for (uint32_t i = 0; i < TPUT_FENCES; i++)
      fences[i] = create_fence(c);

   /* Warm-up: every command buffer once. */
   for (uint32_t g = 0; g < TPUT_FENCES; g++)
      submit_group(c, mode, cbs + g * TPUT_GROUP, fences[g]);
   CHECK(vkWaitForFences(c->device, TPUT_FENCES, fences, VK_TRUE, UINT64_MAX));
   CHECK(vkResetFences(c->device, TPUT_FENCES, fences));

   struct frame fr;
   frame_begin(&fr);
   uint64_t limit = fr.wall0 + (uint64_t)(phase_seconds * 1e9);
   uint64_t groups = 0;
   uint64_t host_waits = 0;   /* times the backlog bound made the host wait */
   do {
      uint32_t slot = groups % TPUT_FENCES;
      if (groups >= TPUT_FENCES) {
         if (vkGetFenceStatus(c->device, fences[slot]) != VK_SUCCESS)
            host_waits++;
         CHECK(vkWaitForFences(c->device, 1, &fences[slot], VK_TRUE, UINT64_MAX));
         CHECK(vkResetFences(c->device, 1, &fences[slot]));
      }
      submit_group(c, mode, cbs + slot * TPUT_GROUP, fences[slot]);
      groups++;
   } while (now_ns() < limit);
   uint64_t submitted_ns = now_ns() - fr.wall0;
   uint32_t pending = groups < TPUT_FENCES ? (uint32_t)groups : TPUT_FENCES;
   CHECK(vkWaitForFences(c->device, pending, fences, VK_TRUE, UINT64_MAX));
   uint64_t wall = now_ns() - fr.wall0;
   frame_end(&fr, phase);

   uint64_t cbs_done = groups * TPUT_GROUP;
   uint64_t calls = mode == TPUT_SINGLE ? cbs_done : groups;
   metric(phase, "rate", cbs_done / (wall / 1e9), "cb/s");
   metric(phase, "calls_per_s", calls / (wall / 1e9), "calls/s");
   metric(phase, "command_buffers", (double)cbs_done, "count");
   metric(phase, "submit_side_rate", cbs_done / (submitted_ns / 1e9), "cb/s");
   metric(phase, "backlog_waits", (double)host_waits, "count");
   metric(phase, "groups", (double)groups, "count");
   for (uint32_t i = 0; i < TPUT_FENCES; i++)
      vkDestroyFence(c->device, fences[i], NULL);
   destroy_device(c, phase);
}

/* ---- (d) submit cost against command-buffer count --------------------------------- */

/* n command buffers (each one 16-byte fill) in one VkSubmitInfo with a
 * fence, then the wait, for n = 1, 2, 4 ... 256: the median round trip of
 * each, so that a plot shows the fixed cost and the cost per command
 * buffer. */
static void phase_scale_cb(struct ctx *c, const char *phase)
{
   create_device(c);
   VkCommandBuffer cbs[TPUT_CBS];
   record(c, cbs, TPUT_CBS, true);
   VkFence fence = create_fence(c);
   struct frame fr;
   frame_begin(&fr);
   for (uint32_t n = 1; n <= TPUT_CBS; n *= 2) {
      VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = n,
                         .pCommandBuffers = cbs};
      struct samples lat = {0};
      uint64_t t_start = 0;
      for (unsigned i = 0;; i++) {
         uint64_t t0 = now_ns();
         CHECK(vkQueueSubmit(c->queue, 1, &si, fence));
         CHECK(vkWaitForFences(c->device, 1, &fence, VK_TRUE, UINT64_MAX));
         CHECK(vkResetFences(c->device, 1, &fence));
         uint64_t t1 = now_ns();
         if (i == WARMUP / 10)
            t_start = t1;
         if (i >= WARMUP / 10) {
            add_sample(&lat, t1 - t0);
            if (lat.n >= min_iters / 10 && t1 - t_start >= (uint64_t)(phase_seconds * 1e8))
               break;
         }
      }
      qsort(lat.v, lat.n, sizeof(*lat.v), cmp_u64);
      char name[32];
      snprintf(name, sizeof(name), "n%u_us", n);
      metric(phase, name, percentile(lat.v, lat.n, 50) / 1e3, "us");
      free(lat.v);
   }
   frame_end(&fr, phase);
   vkDestroyFence(c->device, fence, NULL);
   destroy_device(c, phase);
}

/* ---- main ------------------------------------------------------------------------ */

static bool selected(const char *phase)
{
   if (!only)
      return true;
   size_t n = strlen(phase);
   for (const char *p = only; *p;) {
      size_t k = strcspn(p, ",");
      if (k == n && strncmp(p, phase, n) == 0)
         return true;
      p += k + (p[k] == ',');
   }
   return false;
}

static void print_env(const char *name)
{
   const char *v = getenv(name);
   printf("info env %s %s\n", name, v && *v ? v : "(unset)");
}

int main(int argc, char **argv)
{
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--iters") && i + 1 < argc)
         min_iters = (unsigned)strtoul(argv[++i], NULL, 10);
      else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
         phase_seconds = strtod(argv[++i], NULL);
      else if (!strcmp(argv[i], "--only") && i + 1 < argc)
         only = argv[++i];
      else
         die("usage: %s [--iters N] [--seconds S] [--only PHASE,...]\n"
             "phases: rt_fence rt_cb pingpong tput_1 tput_64cb tput_64si scale_cb", argv[0]);
   }
   if (min_iters < 100)
      die("--iters must be at least 100");
   setvbuf(stdout, NULL, _IOLBF, 0);
   print_env("VK_DRIVER_FILES");
   print_env("VK_LOADER_LAYERS_DISABLE");
   print_env("VK_INSTANCE_LAYERS");
   print_env("SOFTGPU_SPIN_NS");
   print_env("SOFTGPU_WAIT_SPIN_NS");
   printf("info min_iters %u\ninfo warmup %u\ninfo phase_seconds %g\ninfo tput_group %u\n"
          "info tput_fences %u\n", min_iters, WARMUP, phase_seconds, TPUT_GROUP, TPUT_FENCES);

   struct ctx c = {0};
   create_instance(&c);
   if (selected("rt_fence"))
      phase_round_trip(&c, "rt_fence", false);
   if (selected("rt_cb"))
      phase_round_trip(&c, "rt_cb", true);
   if (selected("pingpong"))
      phase_pingpong(&c, "pingpong");
   if (selected("tput_1"))
      phase_throughput(&c, "tput_1", TPUT_SINGLE);
   if (selected("tput_64cb"))
      phase_throughput(&c, "tput_64cb", TPUT_64CB);
   if (selected("tput_64si"))
      phase_throughput(&c, "tput_64si", TPUT_64SI);
   if (only && selected("scale_cb"))   /* not in the default set: the scaling runner asks */
      phase_scale_cb(&c, "scale_cb");
   vkDestroyInstance(c.instance, NULL);
   printf("info done 1\n");
   return 0;
}
