/*
 * bench_compute: compute throughput and latency, measured through the Vulkan
 * loader on whichever driver the loader sees (VK_DRIVER_FILES names one
 * manifest: softgpu's or lavapipe's). bench/run-compute-bench.py runs it
 * alternately on both and compares; one run of this program measures one
 * driver and prints machine-readable lines on stdout:
 *
 *   info <key> <value...>
 *   metric <phase>.<name> <value> <unit>
 *   fail <phase> <what>           (a wrong result; the exit status is then 2)
 *
 * Phases, in the order they run (each timed --reps times, sgemm
 * --sgemm-reps times, after one untimed warm-up submission, since some
 * drivers compile a pipeline at its first dispatch; the metric is the median,
 * and every submission's result, warm-up included, is checked against C on
 * the host):
 *
 *   init      vkCreateInstance + vkEnumeratePhysicalDevices + vkCreateDevice
 *             (+ vkGetDeviceQueue), each repetition a fresh instance, so the
 *             loader's manifest scan and the driver's dlopen are included.
 *   pipeline  vkCreateShaderModule + vkCreateComputePipelines (no
 *             VkPipelineCache; a different specialization constant every
 *             time) + recording + submit + wait of the first dispatch
 *             (a 64x64 sgemm), each repetition a fresh module and pipeline.
 *             Runs before any other pipeline exists in the process; `first`
 *             is the very first repetition.
 *   dispatch  --dispatches (20000) vkCmdDispatch(1,1,1) in one command
 *             buffer, local size 64, every invocation storing one u32
 *             derived from a push constant (the dispatch's number);
 *   dispatch_barrier  the same with a VkBufferMemoryBarrier (compute write
 *             -> compute read/write) between consecutive dispatches.
 *   saxpy     y = a*x + y over --saxpy-n (16M) floats: GB/s counting 12
 *             bytes per element (x and y read, y written); beside it the
 *             same loop in C on the host, one thread (host_triad) and one
 *             thread per core (host_triad_mt), and the ratios.
 *   sgemm     C = A*B, --sgemm-n (1024) square, 16x16 tiles through shared
 *             memory: GFLOP/s counting 2n^3; a sample of C checked
 *             (the warm-up is a single workgroup: lavapipe takes tens of
 *             seconds for one 1024 sgemm on this project's 2-core machine).
 *             Beside it the host's FMA peak (host_fma): independent chains
 *             of fused multiply-adds in registers, the widest vectors the
 *             build targets, one thread per core, and the ratio.
 *   reduce    the u32 sum (mod 2^32) of --reduce-n (16M) elements, shared
 *             memory then one atomicAdd per workgroup: GB/s counting 4
 *             bytes per element; beside it a host C loop (host_sum).
 *   barrier   bench_eu's barrier loop as a shader: --barrier-groups (512)
 *             workgroups of 256, 64 iterations of { shared store; barrier;
 *             load the neighbour's value and add; barrier }: lane-operations
 *             per second counting 3 per invocation and iteration (the
 *             shared store, the shared load, the add), every result checked
 *             bit for bit against C.
 *   ml_*      kernels of the machine-learning set (tests/vulkan/test_compute_ml.c,
 *             shaders in tests/vulkan/shaders/ml), each result checked against
 *             tests/common/sgt_ml.h's references within its error bounds, at
 *             the device's default subgroup size; each needs
 *             storageBuffer16BitAccess (the quantized ones also
 *             storageBuffer8BitAccess) and subgroup arithmetic, or is
 *             skipped ("info <phase> skipped"):
 *     ml_matvec_f16, ml_matvec_q8, ml_matvec_q4: y = A x, A n x n (n =
 *             --ml-n, 4096) in f16, in 8-bit or 4-bit blocks with f16
 *             scales: GB/s counting the bytes of A (with its scales), x, y;
 *     ml_matmul_f16  C = A B^T in f16, A n/8 x n/8 and B n/32 x n/8 (a batch
 *             of n/32 activations), 64x32 shared-memory tiles: GFLOP/s
 *             counting 2MNK;
 *     ml_softmax     online softmax of n/8 rows of n f16 logits with a mask,
 *             f32 out: GB/s counting 6 bytes per element (logit in, out);
 *     ml_rmsnorm     RMS norm of n/8 rows of n f32 values: GB/s counting 8
 *             bytes per element (in, out).
 *
 * Timing: CLOCK_MONOTONIC from just before vkQueueSubmit to the return of
 * vkWaitSemaphores on a timeline semaphore the submission signals (the
 * command buffers are recorded beforehand, outside the clock). When the
 * queue has timestamps, every timed command buffer also brackets its work
 * with vkCmdWriteTimestamp, reported as <phase>.gpu_* metrics. Each phase
 * also reports cpu_per_wall: the CPU time of every thread of the process
 * (getrusage RUSAGE_SELF) over wall time, both summed over the timed
 * intervals only.
 *
 * The shaders are GLSL in bench/shaders, compiled by glslc at build time
 * and embedded (glslc -mfmt=c). Mesa's on-disk shader cache is disabled
 * (MESA_SHADER_CACHE_DISABLE=true unless set) so that lavapipe compiles
 * every pipeline it is asked for.
 *
 * Usage: bench_compute [--reps N] [--sgemm-reps N] [--only PHASE[,PHASE...]] [--quick]
 *                      [--dispatches N] [--saxpy-n N] [--sgemm-n N] [--reduce-n N]
 *                      [--barrier-groups N] [--ml-n N]
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <vulkan/vulkan.h>

#include "sgt_ml.h"

#if defined(__AVX512F__) || defined(__FMA__)
#include <immintrin.h>
#endif

static const uint32_t dispatch_spv[] =
#include "dispatch.spv.inc"
   ;
static const uint32_t grid_spv[] =
#include "grid.spv.inc"
   ;
static const uint32_t saxpy_spv[] =
#include "saxpy.spv.inc"
   ;
static const uint32_t sgemm_spv[] =
#include "sgemm.spv.inc"
   ;
static const uint32_t reduce_spv[] =
#include "reduce.spv.inc"
   ;
static const uint32_t barrier_spv[] =
#include "barrier.spv.inc"
   ;
static const uint32_t ml_matvec_f16_spv[] =
#include "ml_matvec_f16.spv.inc"
   ;
static const uint32_t ml_matvec_q8_spv[] =
#include "ml_matvec_q8.spv.inc"
   ;
static const uint32_t ml_matvec_q4_spv[] =
#include "ml_matvec_q4.spv.inc"
   ;
static const uint32_t ml_matmul_f16_spv[] =
#include "ml_matmul_f16.spv.inc"
   ;
static const uint32_t ml_softmax_spv[] =
#include "ml_softmax.spv.inc"
   ;
static const uint32_t ml_rmsnorm_spv[] =
#include "ml_rmsnorm.spv.inc"
   ;

#define SAXPY_LOCAL 256u
#define REDUCE_LOCAL 256u
#define BARRIER_LOCAL 256u
#define PER_INVOCATION 16u      /* elements per invocation in saxpy and reduce */
#define TILE 16u
#define PIPELINE_N 64u          /* sgemm size of the pipeline phase's first dispatch */
#define WAIT_TIMEOUT_NS 300000000000ull
#define MAX_REPS 64u

static unsigned reps = 5;
static unsigned sgemm_reps = 3;
static unsigned n_dispatches = 20000;
static uint32_t saxpy_n = 16u << 20;
static uint32_t sgemm_n = 1024;
static uint32_t reduce_n = 16u << 20;
static uint32_t barrier_groups = 512;
static uint32_t barrier_iters = 64;
static uint32_t ml_n = 4096;          /* matvec size; matmul, softmax, rmsnorm scale with it */
static const char *only;
static int failures;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fflush(stdout);
   fputs("bench_compute: ", stderr);
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

/* A wrong result: reported, remembered for the exit status, and the phase's
 * timings are not printed. */
static bool fail(const char *phase, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(const char *phase, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   printf("fail %s ", phase);
   vprintf(fmt, ap);
   putchar('\n');
   va_end(ap);
   fflush(stdout);
   failures++;
   return false;
}

static uint64_t now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t process_cpu_ns(void)
{
   struct rusage ru;
   getrusage(RUSAGE_SELF, &ru);
   return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
          ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

static bool selected(const char *phase)
{
   if (!only)
      return true;
   size_t n = strlen(phase);
   for (const char *p = only; *p;) {
      const char *e = strchr(p, ',');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      if (len == n && !strncmp(p, phase, n))
         return true;
      p += len + (e != NULL);
   }
   return false;
}

static void metric(const char *phase, const char *name, double value, const char *unit)
{
   printf("metric %s.%s %.6g %s\n", phase, name, value, unit);
}

static int cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

static double median(const double *v, unsigned n)
{
   double s[MAX_REPS];
   memcpy(s, v, n * sizeof(*s));
   qsort(s, n, sizeof(*s), cmp_double);
   return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Deterministic test data. */
static uint32_t hash32(uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}

/* ---- the device ------------------------------------------------------------------ */

struct ctx {
   VkInstance instance;
   VkPhysicalDevice pdev;
   uint32_t family;
   VkDevice device;
   VkQueue queue;
   VkCommandPool pool;
   VkDescriptorPool dpool;
   VkSemaphore timeline;
   uint64_t timeline_value;
   uint32_t mem_type;
   /* GPU timestamps, when the queue family has them. */
   VkQueryPool queries;
   double ts_period_ns;
   uint64_t ts_mask;
   /* What the ml_* phases need, enabled when advertised. */
   bool storage16, storage8, subgroup_arith;
   uint32_t subgroup_size;
};

static VkInstance create_instance(void)
{
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "bench_compute",
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                              .pApplicationInfo = &app};
   VkInstance instance;
   CHECK(vkCreateInstance(&ii, NULL, &instance));
   return instance;
}

static VkPhysicalDevice first_physical_device(VkInstance instance)
{
   uint32_t n = 1;
   VkPhysicalDevice pdev = VK_NULL_HANDLE;
   VkResult r = vkEnumeratePhysicalDevices(instance, &n, &pdev);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0)
      die("no physical device (is VK_DRIVER_FILES set to one manifest?)");
   return pdev;
}

static uint32_t compute_family(VkPhysicalDevice pdev, uint32_t *ts_bits)
{
   VkQueueFamilyProperties fam[16];
   uint32_t nf = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &nf, NULL);
   nf = nf < 16 ? nf : 16;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &nf, fam);
   for (uint32_t i = 0; i < nf; i++) {
      if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
         if (ts_bits)
            *ts_bits = fam[i].timestampValidBits;
         return i;
      }
   }
   die("no compute queue family");
}

/* A device with timeline semaphores, and 16- and 8-bit storage if asked. */
static VkDevice create_device(VkPhysicalDevice pdev, uint32_t family, bool storage16,
                              bool storage8)
{
   VkPhysicalDeviceVulkan11Features want11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
      .storageBuffer16BitAccess = storage16};
   VkPhysicalDeviceVulkan12Features want12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .pNext = &want11,
      .timelineSemaphore = VK_TRUE,
      .storageBuffer8BitAccess = storage8};
   const float prio = 1.0f;
   VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = family, .queueCount = 1,
                                 .pQueuePriorities = &prio};
   VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &want12,
                            .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi};
   VkDevice device;
   CHECK(vkCreateDevice(pdev, &di, NULL, &device));
   return device;
}

/* Host-visible, coherent memory; preferably device-local and cached too (on
 * a CPU driver all of these are the same RAM). */
static uint32_t pick_memory_type(VkPhysicalDevice pdev)
{
   VkPhysicalDeviceMemoryProperties mp;
   vkGetPhysicalDeviceMemoryProperties(pdev, &mp);
   const VkMemoryPropertyFlags need =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   int best = -1, best_score = -1;
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
      VkMemoryPropertyFlags f = mp.memoryTypes[i].propertyFlags;
      if ((f & need) != need)
         continue;
      int score = !!(f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) * 2 +
                  !!(f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
      if (score > best_score) {
         best = (int)i;
         best_score = score;
      }
   }
   if (best < 0)
      die("no host-visible coherent memory type");
   return (uint32_t)best;
}

static void ctx_create(struct ctx *c)
{
   c->instance = create_instance();
   c->pdev = first_physical_device(c->instance);
   uint32_t ts_bits = 0;
   c->family = compute_family(c->pdev, &ts_bits);

   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(c->pdev, &props);
   printf("info device %s\n", props.deviceName);
   printf("info api_version %u.%u.%u\n", VK_API_VERSION_MAJOR(props.apiVersion),
          VK_API_VERSION_MINOR(props.apiVersion), VK_API_VERSION_PATCH(props.apiVersion));
   printf("info driver_version 0x%x\n", props.driverVersion);
   printf("info queue_family %u timestamp_bits %u\n", c->family, ts_bits);

   VkPhysicalDeviceVulkan12Features have12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceVulkan11Features have11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &have12};
   VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &have11};
   vkGetPhysicalDeviceFeatures2(c->pdev, &have);
   if (!have12.timelineSemaphore)
      die("the device has no timeline semaphores");
   VkPhysicalDeviceVulkan11Properties p11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
   VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                         .pNext = &p11};
   vkGetPhysicalDeviceProperties2(c->pdev, &props2);
   c->storage16 = have11.storageBuffer16BitAccess;
   c->storage8 = have12.storageBuffer8BitAccess;
   c->subgroup_size = p11.subgroupSize;
   c->subgroup_arith = (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                       (p11.subgroupSupportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
   printf("info subgroup_size %u\n", c->subgroup_size);
   const VkPhysicalDeviceLimits *lim = &props.limits;
   if (lim->maxComputeWorkGroupCount[0] < sgemm_n / TILE ||
       lim->maxComputeWorkGroupCount[1] < sgemm_n / TILE)
      die("sgemm grid %u x %u exceeds maxComputeWorkGroupCount", sgemm_n / TILE, sgemm_n / TILE);
   if (lim->maxStorageBufferRange / 4 < saxpy_n || lim->maxStorageBufferRange / 4 < reduce_n)
      die("arrays exceed maxStorageBufferRange (%u bytes)", lim->maxStorageBufferRange);

   c->device = create_device(c->pdev, c->family, c->storage16, c->storage8);
   vkGetDeviceQueue(c->device, c->family, 0, &c->queue);
   /* A driver without compute pipelines yet: say so rather than crash in
    * the loader's trampoline. */
   if (!vkGetDeviceProcAddr(c->device, "vkCreateComputePipelines") ||
       !vkGetDeviceProcAddr(c->device, "vkCmdDispatch"))
      die("the driver exposes no vkCreateComputePipelines / vkCmdDispatch");
   c->mem_type = pick_memory_type(c->pdev);

   VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .queueFamilyIndex = c->family};
   CHECK(vkCreateCommandPool(c->device, &pi, NULL, &c->pool));
   VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 64};
   VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                     .maxSets = 16, .poolSizeCount = 1, .pPoolSizes = &ps};
   CHECK(vkCreateDescriptorPool(c->device, &dpi, NULL, &c->dpool));
   VkSemaphoreTypeCreateInfo sti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                    .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
   VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &sti};
   CHECK(vkCreateSemaphore(c->device, &si, NULL, &c->timeline));
   if (ts_bits) {
      VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                  .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
      CHECK(vkCreateQueryPool(c->device, &qi, NULL, &c->queries));
      c->ts_period_ns = props.limits.timestampPeriod;
      c->ts_mask = ts_bits >= 64 ? UINT64_MAX : (1ull << ts_bits) - 1;
   }
}

static void ctx_destroy(struct ctx *c)
{
   CHECK(vkDeviceWaitIdle(c->device));
   if (c->queries)
      vkDestroyQueryPool(c->device, c->queries, NULL);
   vkDestroySemaphore(c->device, c->timeline, NULL);
   vkDestroyDescriptorPool(c->device, c->dpool, NULL);
   vkDestroyCommandPool(c->device, c->pool, NULL);
   vkDestroyDevice(c->device, NULL);
   vkDestroyInstance(c->instance, NULL);
}

/* ---- buffers, kernels, command buffers --------------------------------------------- */

struct buf {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map;
   VkDeviceSize size;
};

static void buf_create(struct ctx *c, struct buf *b, VkDeviceSize size)
{
   b->size = size;
   VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT};
   CHECK(vkCreateBuffer(c->device, &bi, NULL, &b->buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(c->device, b->buffer, &req);
   if (!(req.memoryTypeBits & (1u << c->mem_type)))
      die("buffer cannot use memory type %u", c->mem_type);
   VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .allocationSize = req.size, .memoryTypeIndex = c->mem_type};
   CHECK(vkAllocateMemory(c->device, &ai, NULL, &b->memory));
   CHECK(vkBindBufferMemory(c->device, b->buffer, b->memory, 0));
   CHECK(vkMapMemory(c->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
}

static void buf_destroy(struct ctx *c, struct buf *b)
{
   vkUnmapMemory(c->device, b->memory);
   vkDestroyBuffer(c->device, b->buffer, NULL);
   vkFreeMemory(c->device, b->memory, NULL);
}

/* A compute kernel: nbuf storage buffers at bindings 0.. of set 0, push
 * constants, one pipeline, one descriptor set. */
struct kernel {
   VkDescriptorSetLayout dsl;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorSet set;
};

static void kernel_layout(struct ctx *c, struct kernel *k, uint32_t nbuf, uint32_t push_bytes)
{
   VkDescriptorSetLayoutBinding b[4];
   for (uint32_t i = 0; i < nbuf; i++)
      b[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            .descriptorCount = 1,
                                            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
   VkDescriptorSetLayoutCreateInfo li = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = nbuf, .pBindings = b};
   CHECK(vkCreateDescriptorSetLayout(c->device, &li, NULL, &k->dsl));
   VkPushConstantRange pr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
   VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1, .pSetLayouts = &k->dsl,
                                     .pushConstantRangeCount = 1, .pPushConstantRanges = &pr};
   CHECK(vkCreatePipelineLayout(c->device, &pli, NULL, &k->layout));
}

static VkShaderModule create_module(struct ctx *c, const uint32_t *spv, size_t bytes)
{
   VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                  .codeSize = bytes, .pCode = spv};
   VkShaderModule m;
   CHECK(vkCreateShaderModule(c->device, &mi, NULL, &m));
   return m;
}

static VkPipeline create_pipeline(struct ctx *c, VkPipelineLayout layout, VkShaderModule m,
                                  const VkSpecializationInfo *spec)
{
   VkComputePipelineCreateInfo ci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = m, .pName = "main",
                .pSpecializationInfo = spec},
      .layout = layout};
   VkPipeline p;
   CHECK(vkCreateComputePipelines(c->device, VK_NULL_HANDLE, 1, &ci, NULL, &p));
   return p;
}

static void kernel_create(struct ctx *c, struct kernel *k, const uint32_t *spv, size_t bytes,
                          uint32_t nbuf, uint32_t push_bytes)
{
   kernel_layout(c, k, nbuf, push_bytes);
   VkShaderModule m = create_module(c, spv, bytes);
   k->pipeline = create_pipeline(c, k->layout, m, NULL);
   vkDestroyShaderModule(c->device, m, NULL);
}

static void kernel_bind(struct ctx *c, struct kernel *k, struct buf *const *bufs, uint32_t nbuf)
{
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = c->dpool, .descriptorSetCount = 1,
                                     .pSetLayouts = &k->dsl};
   CHECK(vkAllocateDescriptorSets(c->device, &ai, &k->set));
   VkDescriptorBufferInfo bi[4];
   VkWriteDescriptorSet w[4];
   for (uint32_t i = 0; i < nbuf; i++) {
      bi[i] = (VkDescriptorBufferInfo){bufs[i]->buffer, 0, VK_WHOLE_SIZE};
      w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                    .dstSet = k->set, .dstBinding = i, .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                    .pBufferInfo = &bi[i]};
   }
   vkUpdateDescriptorSets(c->device, nbuf, w, 0, NULL);
}

static void kernel_destroy(struct ctx *c, struct kernel *k)
{
   if (k->set)
      CHECK(vkFreeDescriptorSets(c->device, c->dpool, 1, &k->set));
   if (k->pipeline)
      vkDestroyPipeline(c->device, k->pipeline, NULL);
   vkDestroyPipelineLayout(c->device, k->layout, NULL);
   vkDestroyDescriptorSetLayout(c->device, k->dsl, NULL);
}

static void bind_kernel(VkCommandBuffer cb, const struct kernel *k, VkPipeline pipeline)
{
   vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0,
                           NULL);
}

static void memory_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage,
                           VkAccessFlags src, VkPipelineStageFlags dst_stage, VkAccessFlags dst)
{
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src,
                         .dstAccessMask = dst};
   vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}

static VkCommandBuffer cb_begin(struct ctx *c)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = c->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
   VkCommandBuffer cb;
   CHECK(vkAllocateCommandBuffers(c->device, &ai, &cb));
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   CHECK(vkBeginCommandBuffer(cb, &bi));
   if (c->queries) {
      vkCmdResetQueryPool(cb, c->queries, 0, 2);
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->queries, 0);
   }
   return cb;
}

/* Ends a timed command buffer: the shaders' writes are made visible to the
 * host, and the closing timestamp written. */
static void cb_end(struct ctx *c, VkCommandBuffer cb)
{
   memory_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
   if (c->queries)
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries, 1);
   CHECK(vkEndCommandBuffer(cb));
}

/* Timing of one phase: submit->wait intervals, GPU timestamps, CPU time. */
struct timing {
   double wall_ns[MAX_REPS], gpu_ns[MAX_REPS];
   unsigned n;
   uint64_t wall_sum, cpu_sum;
};

/* Submits cb, waits for it; records the interval in t. */
static void submit_wait(struct ctx *c, VkCommandBuffer cb, struct timing *t)
{
   uint64_t value = ++c->timeline_value;
   VkTimelineSemaphoreSubmitInfo tsi = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                        .signalSemaphoreValueCount = 1,
                                        .pSignalSemaphoreValues = &value};
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tsi,
                      .commandBufferCount = 1, .pCommandBuffers = &cb,
                      .signalSemaphoreCount = 1, .pSignalSemaphores = &c->timeline};
   VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                             .semaphoreCount = 1, .pSemaphores = &c->timeline,
                             .pValues = &value};
   uint64_t cpu0 = process_cpu_ns();
   uint64_t t0 = now_ns();
   CHECK(vkQueueSubmit(c->queue, 1, &si, VK_NULL_HANDLE));
   VkResult r = vkWaitSemaphores(c->device, &wi, WAIT_TIMEOUT_NS);
   uint64_t t1 = now_ns();
   uint64_t cpu1 = process_cpu_ns();
   if (r != VK_SUCCESS)
      die("vkWaitSemaphores returned %d", (int)r);
   if (!t || t->n >= MAX_REPS)
      return;
   t->wall_ns[t->n] = (double)(t1 - t0);
   t->wall_sum += t1 - t0;
   t->cpu_sum += cpu1 - cpu0;
   t->gpu_ns[t->n] = NAN;
   if (c->queries) {
      uint64_t ts[2];
      CHECK(vkGetQueryPoolResults(c->device, c->queries, 0, 2, sizeof(ts), ts, sizeof(ts[0]),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
      t->gpu_ns[t->n] = (double)((ts[1] - ts[0]) & c->ts_mask) * c->ts_period_ns;
   }
   t->n++;
}

/* Median wall time in ns; also prints <phase>.wall_ms, .gpu_ms, .cpu_per_wall. */
static double report_timing(const char *phase, const struct timing *t, double *gpu_median)
{
   double wall = median(t->wall_ns, t->n);
   metric(phase, "wall_ms", wall / 1e6, "ms");
   metric(phase, "cpu_per_wall", (double)t->cpu_sum / (double)t->wall_sum, "ratio");
   *gpu_median = NAN;
   if (t->n && !isnan(t->gpu_ns[0])) {
      *gpu_median = median(t->gpu_ns, t->n);
      metric(phase, "gpu_ms", *gpu_median / 1e6, "ms");
   }
   return wall;
}

/* ---- init: instance + device creation ------------------------------------------------ */

static void phase_init(void)
{
   double inst[MAX_REPS], dev[MAX_REPS], total[MAX_REPS];
   for (unsigned i = 0; i < reps; i++) {
      uint64_t t0 = now_ns();
      VkInstance instance = create_instance();
      VkPhysicalDevice pdev = first_physical_device(instance);
      uint64_t t1 = now_ns();
      VkDevice device = create_device(pdev, compute_family(pdev, NULL), false, false);
      VkQueue queue;
      vkGetDeviceQueue(device, compute_family(pdev, NULL), 0, &queue);
      uint64_t t2 = now_ns();
      vkDestroyDevice(device, NULL);
      vkDestroyInstance(instance, NULL);
      inst[i] = (double)(t1 - t0);
      dev[i] = (double)(t2 - t1);
      total[i] = (double)(t2 - t0);
   }
   metric("init", "ms", median(total, reps) / 1e6, "ms");
   metric("init", "instance_ms", median(inst, reps) / 1e6, "ms");
   metric("init", "device_ms", median(dev, reps) / 1e6, "ms");
   metric("init", "first_ms", total[0] / 1e6, "ms");
}

/* ---- pipeline: fresh module + pipeline + first dispatch ------------------------------- */

static void fill_matrices(float *a, float *b, uint32_t n)
{
   /* Small integers: every product and sum is exact in float, so the GPU's
    * result must equal the host's bit for bit whatever the order. */
   for (uint32_t i = 0; i < n * n; i++) {
      a[i] = (float)((int)(hash32(i) % 9u) - 4);
      b[i] = (float)((int)(hash32(i + 0x9e3779b9u) % 9u) - 4);
   }
}

static float sgemm_ref(const float *a, const float *b, uint32_t n, uint32_t row, uint32_t col)
{
   float acc = 0;
   for (uint32_t k = 0; k < n; k++)
      acc += a[row * n + k] * b[k * n + col];
   return acc;
}

static void phase_pipeline(struct ctx *c)
{
   const char *ph = "pipeline";
   const uint32_t n = PIPELINE_N;
   struct kernel k = {0};
   kernel_layout(c, &k, 3, 4);
   struct buf a, b, out;
   buf_create(c, &a, n * n * 4);
   buf_create(c, &b, n * n * 4);
   buf_create(c, &out, n * n * 4);
   fill_matrices(a.map, b.map, n);
   struct buf *bufs[] = {&a, &b, &out};
   kernel_bind(c, &k, bufs, 3);
   float *ref = malloc(n * n * sizeof(float));
   for (uint32_t r = 0; r < n; r++)
      for (uint32_t col = 0; col < n; col++)
         ref[r * n + col] = sgemm_ref(a.map, b.map, n, r, col);

   double total[MAX_REPS], create[MAX_REPS], first_dispatch[MAX_REPS];
   bool ok = true;
   for (unsigned i = 0; i < reps && ok; i++) {
      float alpha = (float)(i + 2);
      VkSpecializationMapEntry me = {0, 0, sizeof(float)};
      VkSpecializationInfo spec = {1, &me, sizeof(float), &alpha};
      float *o = out.map;
      for (uint32_t j = 0; j < n * n; j++)
         o[j] = NAN;

      uint64_t t0 = now_ns();
      VkShaderModule m = create_module(c, sgemm_spv, sizeof(sgemm_spv));
      VkPipeline p = create_pipeline(c, k.layout, m, &spec);
      uint64_t t1 = now_ns();
      VkCommandBuffer cb = cb_begin(c);
      bind_kernel(cb, &k, p);
      vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
      vkCmdDispatch(cb, n / TILE, n / TILE, 1);
      cb_end(c, cb);
      submit_wait(c, cb, NULL);
      uint64_t t2 = now_ns();

      vkFreeCommandBuffers(c->device, c->pool, 1, &cb);
      vkDestroyPipeline(c->device, p, NULL);
      vkDestroyShaderModule(c->device, m, NULL);
      total[i] = (double)(t2 - t0);
      create[i] = (double)(t1 - t0);
      first_dispatch[i] = (double)(t2 - t1);
      for (uint32_t j = 0; j < n * n && ok; j++) {
         if (o[j] != alpha * ref[j])
            ok = fail(ph, "rep %u: C[%u][%u] = %g, expected %g", i, j / n, j % n, o[j],
                      alpha * ref[j]);
      }
   }
   if (ok) {
      metric(ph, "ms", median(total, reps) / 1e6, "ms");
      metric(ph, "create_ms", median(create, reps) / 1e6, "ms");
      metric(ph, "dispatch_ms", median(first_dispatch, reps) / 1e6, "ms");
      metric(ph, "first_ms", total[0] / 1e6, "ms");
   }
   free(ref);
   kernel_destroy(c, &k);
   buf_destroy(c, &a);
   buf_destroy(c, &b);
   buf_destroy(c, &out);
}

/* ---- dispatch: many tiny dispatches, with and without barriers ------------------------- */

#define DISPATCH_SALT 0x5bd1e995u

static uint32_t dispatch_value(uint32_t i)
{
   return (i * 2654435761u) ^ DISPATCH_SALT;
}

static void phase_dispatch(struct ctx *c)
{
   const uint32_t words = n_dispatches * 64u;
   struct kernel k = {0};
   kernel_create(c, &k, dispatch_spv, sizeof(dispatch_spv), 1, 8);
   struct buf out;
   buf_create(c, &out, (VkDeviceSize)words * 4);
   struct buf *bufs[] = {&out};
   kernel_bind(c, &k, bufs, 1);

   /* Recorded once each, resubmitted every repetition. */
   VkCommandBuffer cbs[2];
   double record_ms[2];
   for (int barrier = 0; barrier < 2; barrier++) {
      uint64_t t0 = now_ns();
      VkCommandBuffer cb = cb_begin(c);
      bind_kernel(cb, &k, k.pipeline);
      for (uint32_t i = 0; i < n_dispatches; i++) {
         if (barrier && i > 0) {
            VkBufferMemoryBarrier bb = {
               .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
               .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
               .buffer = out.buffer, .offset = 0, .size = VK_WHOLE_SIZE};
            vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 1, &bb, 0,
                                 NULL);
         }
         uint32_t push[2] = {i, DISPATCH_SALT};
         vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
         vkCmdDispatch(cb, 1, 1, 1);
      }
      cb_end(c, cb);
      record_ms[barrier] = (double)(now_ns() - t0) / 1e6;
      cbs[barrier] = cb;
   }

   struct timing t[2] = {0};
   bool ok[2] = {true, true};
   uint32_t *v = out.map;
   for (unsigned r = 0; r <= reps; r++) {   /* r == 0: warm-up, untimed */
      for (int barrier = 0; barrier < 2; barrier++) {
         /* Every slot starts as the complement of what the shader must
          * store, so a missing or stale write shows. */
         for (uint32_t i = 0; i < words; i++)
            v[i] = ~dispatch_value(i);
         submit_wait(c, cbs[barrier], r ? &t[barrier] : NULL);
         for (uint32_t i = 0; i < words && ok[barrier]; i++) {
            if (v[i] != dispatch_value(i))
               ok[barrier] = fail(barrier ? "dispatch_barrier" : "dispatch",
                                  "rep %u: word %u (dispatch %u, invocation %u) = 0x%08x, "
                                  "expected 0x%08x", r, i, i / 64, i % 64, v[i],
                                  dispatch_value(i));
         }
      }
   }
   for (int barrier = 0; barrier < 2; barrier++) {
      const char *ph = barrier ? "dispatch_barrier" : "dispatch";
      if (!ok[barrier])
         continue;
      double gpu, wall = report_timing(ph, &t[barrier], &gpu);
      metric(ph, "rate", n_dispatches / (wall / 1e9), "dispatch/s");
      metric(ph, "us_per_dispatch", wall / 1e3 / n_dispatches, "us");
      if (!isnan(gpu))
         metric(ph, "gpu_rate", n_dispatches / (gpu / 1e9), "dispatch/s");
      metric(ph, "record_ms", record_ms[barrier], "ms");
   }
   vkFreeCommandBuffers(c->device, c->pool, 2, cbs);
   kernel_destroy(c, &k);
   buf_destroy(c, &out);
}

/* ---- grid: dispatch time against grid size ------------------------------------------------ */

/* Grid sizes (workgroups of 64) of the scaling curve: 1 to 16384. */
static const uint32_t grid_sizes[] = {1, 4, 16, 64, 256, 1024, 4096, 16384};
#define GRID_LOCAL 64u
#define GRID_SALT 0x68e31da4u

static uint32_t grid_value(uint32_t i)
{
   return (i * 2654435761u) ^ GRID_SALT;
}

/* One vkCmdDispatch(g, 1, 1) per command buffer, for each g of
 * grid_sizes: the median submit-to-completion time of each, so that a
 * plot shows the fixed cost and the cost per workgroup. */
static void phase_grid(struct ctx *c)
{
   const uint32_t nsizes = sizeof(grid_sizes) / sizeof(grid_sizes[0]);
   const uint32_t words = grid_sizes[nsizes - 1] * GRID_LOCAL;
   struct kernel k = {0};
   kernel_create(c, &k, grid_spv, sizeof(grid_spv), 1, 4);
   struct buf out;
   buf_create(c, &out, (VkDeviceSize)words * 4);
   struct buf *bufs[] = {&out};
   kernel_bind(c, &k, bufs, 1);
   uint32_t *v = out.map;
   for (uint32_t s = 0; s < nsizes; s++) {
      uint32_t g = grid_sizes[s], n = g * GRID_LOCAL, salt = GRID_SALT;
      VkCommandBuffer cb = cb_begin(c);
      bind_kernel(cb, &k, k.pipeline);
      vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(salt), &salt);
      vkCmdDispatch(cb, g, 1, 1);
      cb_end(c, cb);
      struct timing t = {0};
      bool ok = true;
      for (unsigned r = 0; r <= reps && ok; r++) {   /* r == 0: warm-up, untimed */
         for (uint32_t i = 0; i < n; i++)
            v[i] = ~grid_value(i);
         submit_wait(c, cb, r ? &t : NULL);
         for (uint32_t i = 0; i < n && ok; i++) {
            if (v[i] != grid_value(i))
               ok = fail("grid", "grid %u, rep %u: word %u = 0x%08x, expected 0x%08x", g, r, i,
                         v[i], grid_value(i));
         }
      }
      vkFreeCommandBuffers(c->device, c->pool, 1, &cb);
      if (!ok)
         break;
      char name[32];
      snprintf(name, sizeof(name), "g%u_us", g);
      metric("grid", name, median(t.wall_ns, t.n) / 1e3, "us");
      if (c->queries && !isnan(t.gpu_ns[0])) {
         snprintf(name, sizeof(name), "g%u_gpu_us", g);
         metric("grid", name, median(t.gpu_ns, t.n) / 1e3, "us");
      }
   }
   kernel_destroy(c, &k);
   buf_destroy(c, &out);
}

/* ---- saxpy, and the host's triad ----------------------------------------------------------- */

static void triad(float *restrict y, const float *restrict x, float a, size_t n)
{
   for (size_t i = 0; i < n; i++)
      y[i] = a * x[i] + y[i];
}

struct triad_job {
   float *y;
   const float *x;
   size_t n;
};

static void triad_job(void *arg)
{
   struct triad_job *j = arg;
   triad(j->y, j->x, 2.0f, j->n);
}

struct host_thread {
   void (*fn)(void *);
   void *arg;
   pthread_barrier_t *start;
};

static void *host_thread(void *arg)
{
   struct host_thread *h = arg;
   pthread_barrier_wait(h->start);
   h->fn(h->arg);
   return NULL;
}

/* Runs fn(args + i * size) on threads threads (i < threads <= 64), all
 * released together; returns ns from the release to the last join. */
static uint64_t host_threads(void (*fn)(void *), void *args, size_t size, unsigned threads)
{
   pthread_t tid[64];
   struct host_thread h[64];
   pthread_barrier_t start;
   pthread_barrier_init(&start, NULL, threads + 1);
   for (unsigned i = 0; i < threads; i++) {
      h[i] = (struct host_thread){fn, (char *)args + i * size, &start};
      if (pthread_create(&tid[i], NULL, host_thread, &h[i]))
         die("pthread_create failed");
   }
   /* The clock starts before the release: a worker may finish before this
    * thread returns from the barrier. */
   uint64_t t0 = now_ns();
   pthread_barrier_wait(&start);
   for (unsigned i = 0; i < threads; i++)
      pthread_join(tid[i], NULL);
   uint64_t t = now_ns() - t0;
   pthread_barrier_destroy(&start);
   return t;
}

/* One thread per online core, at most 64. */
static unsigned host_cores(void)
{
   long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
   return ncpu < 1 ? 1 : ncpu > 64 ? 64 : (unsigned)ncpu;
}

/* The host triad over n floats on `threads` threads; returns ns. */
static uint64_t host_triad(float *y, const float *x, size_t n, unsigned threads)
{
   if (threads <= 1) {
      uint64_t t0 = now_ns();
      triad(y, x, 2.0f, n);
      return now_ns() - t0;
   }
   struct triad_job jobs[64];
   size_t chunk = (n / threads + 15) & ~(size_t)15;
   for (unsigned i = 0; i < threads; i++) {
      size_t lo = i * chunk < n ? i * chunk : n, hi = lo + chunk < n ? lo + chunk : n;
      jobs[i] = (struct triad_job){y + lo, x + lo, hi - lo};
   }
   return host_threads(triad_job, jobs, sizeof(jobs[0]), threads);
}

static void phase_saxpy(struct ctx *c)
{
   const char *ph = "saxpy";
   const uint32_t n = saxpy_n;
   const float a = 2.0f;
   struct kernel k = {0};
   kernel_create(c, &k, saxpy_spv, sizeof(saxpy_spv), 2, 8);
   struct buf x, y;
   buf_create(c, &x, (VkDeviceSize)n * 4);
   buf_create(c, &y, (VkDeviceSize)n * 4);
   struct buf *bufs[] = {&x, &y};
   kernel_bind(c, &k, bufs, 2);
   float *xs = x.map, *ys = y.map;
   /* Small integers again: a*x + y is exact, with or without an FMA. */
   for (uint32_t i = 0; i < n; i++)
      xs[i] = (float)(int)(hash32(i) % 2001u) - 1000.0f;

   uint32_t groups = (n + SAXPY_LOCAL * PER_INVOCATION - 1) / (SAXPY_LOCAL * PER_INVOCATION);
   VkCommandBuffer cb = cb_begin(c);
   bind_kernel(cb, &k, k.pipeline);
   struct {
      float a;
      uint32_t n;
   } push = {a, n};
   vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
   vkCmdDispatch(cb, groups, 1, 1);
   cb_end(c, cb);

   struct timing t = {0};
   bool ok = true;
   for (unsigned r = 0; r <= reps && ok; r++) {   /* r == 0: warm-up, untimed */
      for (uint32_t i = 0; i < n; i++)
         ys[i] = (float)(int)(hash32(i ^ 0xabcdefu) % 1001u) - 500.0f;
      submit_wait(c, cb, r ? &t : NULL);
      for (uint32_t i = 0; i < n && ok; i++) {
         float want = a * xs[i] + ((float)(int)(hash32(i ^ 0xabcdefu) % 1001u) - 500.0f);
         if (ys[i] != want)
            ok = fail(ph, "rep %u: y[%u] = %g, expected %g", r, i, ys[i], want);
      }
   }
   vkFreeCommandBuffers(c->device, c->pool, 1, &cb);
   kernel_destroy(c, &k);
   buf_destroy(c, &x);
   buf_destroy(c, &y);
   if (!ok)
      return;

   /* The host's triad on its own arrays of the same size, same process. */
   float *hx = malloc((size_t)n * 4), *hy = malloc((size_t)n * 4);
   if (!hx || !hy)
      die("out of memory");
   for (uint32_t i = 0; i < n; i++) {
      hx[i] = (float)(i & 1023);
      hy[i] = 1.0f;
   }
   unsigned threads = host_cores();
   double h1[MAX_REPS], hmt[MAX_REPS];
   triad(hy, hx, 2.0f, n);   /* warm-up: page faults, caches */
   for (unsigned r = 0; r < reps; r++) {
      h1[r] = (double)host_triad(hy, hx, n, 1);
      hmt[r] = (double)host_triad(hy, hx, n, threads);
   }
   volatile float sink = hy[n / 2];
   (void)sink;
   free(hx);
   free(hy);

   const double bytes = 12.0 * n;
   double gpu, wall = report_timing(ph, &t, &gpu);
   double gbps = bytes / wall, host1 = bytes / median(h1, reps), hostmt = bytes / median(hmt, reps);
   metric(ph, "gbps", gbps, "GB/s");
   if (!isnan(gpu))
      metric(ph, "gpu_gbps", bytes / gpu, "GB/s");
   metric("host_triad", "gbps", host1, "GB/s");
   metric("host_triad_mt", "gbps", hostmt, "GB/s");
   metric("host_triad_mt", "threads", threads, "count");
   metric(ph, "vs_host", gbps / host1, "ratio");
   metric(ph, "vs_host_mt", gbps / hostmt, "ratio");
}

/* ---- sgemm, and the host's FMA peak ----------------------------------------------------- */

/* FMA_CHAINS independent chains of fused multiply-adds on vectors of
 * FMA_LANES floats, kept in registers: enough chains to cover an FMA's
 * latency (4 cycles) on each of two FMA ports, as on current x86 cores.
 * The widest vectors the build targets (-march=native): AVX-512, AVX2's
 * FMA, or fmaf. */
#define FMA_CHAINS 12
#if defined(__AVX512F__)
#define FMA_LANES 16
typedef __m512 fma_vec;
#define FMA_SET1(x) _mm512_set1_ps(x)
#define FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define FMA_SUM(v) _mm512_reduce_add_ps(v)
#elif defined(__FMA__)
#define FMA_LANES 8
typedef __m256 fma_vec;
#define FMA_SET1(x) _mm256_set1_ps(x)
#define FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
static float fma_sum(__m256 v)
{
   float f[8], s = 0;
   _mm256_storeu_ps(f, v);
   for (int i = 0; i < 8; i++)
      s += f[i];
   return s;
}
#define FMA_SUM(v) fma_sum(v)
#else
#define FMA_LANES 1
typedef float fma_vec;
#define FMA_SET1(x) (x)
#define FMA(a, b, c) fmaf(a, b, c)
#define FMA_SUM(v) (v)
#endif

struct fma_job {
   uint64_t iters;
   float sum;   /* kept, so the chains are not optimized away */
};

static void fma_job(void *arg)
{
   struct fma_job *j = arg;
   fma_vec acc[FMA_CHAINS];
   const fma_vec m = FMA_SET1(0.999999f), a = FMA_SET1(1e-6f);
   for (int k = 0; k < FMA_CHAINS; k++)
      acc[k] = FMA_SET1((float)k);
   for (uint64_t i = 0; i < j->iters; i++) {
      for (int k = 0; k < FMA_CHAINS; k++)
         acc[k] = FMA(acc[k], m, a);
   }
   float s = 0;
   for (int k = 0; k < FMA_CHAINS; k++)
      s += FMA_SUM(acc[k]);
   j->sum = s;
}

/* The host's FMA peak on one thread per core, in GFLOP/s (an FMA counts
 * 2 flops per lane): the best of reps runs of about 50 ms. */
static double host_fma_peak(unsigned threads)
{
   struct fma_job jobs[64];
   const uint64_t iters = 4u << 20;
   double best = 0;
   for (unsigned r = 0; r <= reps; r++) {   /* r == 0: warm-up (clock, threads) */
      for (unsigned i = 0; i < threads; i++)
         jobs[i] = (struct fma_job){iters, 0};
      uint64_t ns = host_threads(fma_job, jobs, sizeof(jobs[0]), threads);
      double gflops = 2.0 * FMA_LANES * FMA_CHAINS * iters * threads / (double)ns;
      if (r && gflops > best)
         best = gflops;
      if (!isfinite(jobs[0].sum))
         die("host FMA peak: the chains overflowed");
   }
   return best;
}

static void phase_sgemm(struct ctx *c)
{
   const char *ph = "sgemm";
   const uint32_t n = sgemm_n;
   struct kernel k = {0};
   kernel_create(c, &k, sgemm_spv, sizeof(sgemm_spv), 3, 4);
   struct buf a, b, out;
   buf_create(c, &a, (VkDeviceSize)n * n * 4);
   buf_create(c, &b, (VkDeviceSize)n * n * 4);
   buf_create(c, &out, (VkDeviceSize)n * n * 4);
   struct buf *bufs[] = {&a, &b, &out};
   kernel_bind(c, &k, bufs, 3);
   fill_matrices(a.map, b.map, n);

   VkCommandBuffer cb = cb_begin(c);
   bind_kernel(cb, &k, k.pipeline);
   vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
   vkCmdDispatch(cb, n / TILE, n / TILE, 1);
   cb_end(c, cb);
   /* Warm-up (some drivers compile at the first dispatch): one tile. */
   VkCommandBuffer warm = cb_begin(c);
   bind_kernel(warm, &k, k.pipeline);
   vkCmdPushConstants(warm, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
   vkCmdDispatch(warm, 1, 1, 1);
   cb_end(c, warm);
   submit_wait(c, warm, NULL);
   vkFreeCommandBuffers(c->device, c->pool, 1, &warm);

   /* The sample: the four corners, one full row and column, and 2048
    * scattered elements (about 3n + 2048 dot products of length n). */
   enum { SCATTER = 2048 };
   uint32_t sample_n = 4 + 2 * n + SCATTER;
   uint32_t *sample = malloc(sample_n * sizeof(uint32_t));
   float *want = malloc(sample_n * sizeof(float));
   uint32_t s = 0;
   sample[s++] = 0;
   sample[s++] = n - 1;
   sample[s++] = (n - 1) * n;
   sample[s++] = n * n - 1;
   for (uint32_t i = 0; i < n; i++) {
      sample[s++] = (n / 3) * n + i;      /* row n/3 */
      sample[s++] = i * n + (2 * n / 3);  /* column 2n/3 */
   }
   for (uint32_t i = 0; i < SCATTER; i++)
      sample[s++] = hash32(i * 7919u + 1) % (n * n);
   for (uint32_t i = 0; i < sample_n; i++)
      want[i] = sgemm_ref(a.map, b.map, n, sample[i] / n, sample[i] % n);

   struct timing t = {0};
   bool ok = true;
   float *o = out.map;
   for (unsigned r = 0; r < sgemm_reps && ok; r++) {
      for (uint32_t i = 0; i < n * n; i++)
         o[i] = NAN;
      submit_wait(c, cb, &t);
      for (uint32_t i = 0; i < sample_n && ok; i++) {
         if (o[sample[i]] != want[i])
            ok = fail(ph, "rep %u: C[%u][%u] = %g, expected %g", r, sample[i] / n,
                      sample[i] % n, o[sample[i]], want[i]);
      }
   }
   free(sample);
   free(want);
   vkFreeCommandBuffers(c->device, c->pool, 1, &cb);
   kernel_destroy(c, &k);
   buf_destroy(c, &a);
   buf_destroy(c, &b);
   buf_destroy(c, &out);
   if (!ok)
      return;
   const double flops = 2.0 * n * n * n;
   double gpu, wall = report_timing(ph, &t, &gpu);
   metric(ph, "gflops", flops / wall, "GFLOP/s");
   if (!isnan(gpu))
      metric(ph, "gpu_gflops", flops / gpu, "GFLOP/s");
   unsigned threads = host_cores();
   double peak = host_fma_peak(threads);
   metric("host_fma", "gflops", peak, "GFLOP/s");
   metric("host_fma", "threads", threads, "count");
   metric("host_fma", "lanes", FMA_LANES, "count");
   metric(ph, "vs_fma_peak", flops / wall / peak, "ratio");
}

/* ---- reduce ------------------------------------------------------------------------------ */

static void phase_reduce(struct ctx *c)
{
   const char *ph = "reduce";
   const uint32_t n = reduce_n;
   struct kernel k = {0};
   kernel_create(c, &k, reduce_spv, sizeof(reduce_spv), 2, 4);
   struct buf in, out;
   buf_create(c, &in, (VkDeviceSize)n * 4);
   buf_create(c, &out, 256);
   struct buf *bufs[] = {&in, &out};
   kernel_bind(c, &k, bufs, 2);
   uint32_t *v = in.map;
   for (uint32_t i = 0; i < n; i++)
      v[i] = hash32(i);

   uint32_t groups = (n + REDUCE_LOCAL * PER_INVOCATION - 1) / (REDUCE_LOCAL * PER_INVOCATION);
   VkCommandBuffer cb = cb_begin(c);
   vkCmdFillBuffer(cb, out.buffer, 0, 4, 0);
   memory_barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
   bind_kernel(cb, &k, k.pipeline);
   vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
   vkCmdDispatch(cb, groups, 1, 1);
   cb_end(c, cb);

   /* The host's sum, which is also the reference (host_sum). */
   double host[MAX_REPS];
   uint32_t want = 0;
   for (unsigned r = 0; r < reps; r++) {
      uint64_t t0 = now_ns();
      uint32_t sum = 0;
      for (uint32_t i = 0; i < n; i++)
         sum += v[i];
      host[r] = (double)(now_ns() - t0);
      want = sum;
   }

   struct timing t = {0};
   bool ok = true;
   volatile uint32_t *total = out.map;
   for (unsigned r = 0; r <= reps && ok; r++) {   /* r == 0: warm-up, untimed */
      *total = ~want;
      submit_wait(c, cb, r ? &t : NULL);
      if (*total != want)
         ok = fail(ph, "rep %u: sum = 0x%08x, expected 0x%08x", r, *total, want);
   }
   vkFreeCommandBuffers(c->device, c->pool, 1, &cb);
   kernel_destroy(c, &k);
   buf_destroy(c, &in);
   buf_destroy(c, &out);
   if (!ok)
      return;
   const double bytes = 4.0 * n;
   double gpu, wall = report_timing(ph, &t, &gpu);
   metric(ph, "gbps", bytes / wall, "GB/s");
   if (!isnan(gpu))
      metric(ph, "gpu_gbps", bytes / gpu, "GB/s");
   metric("host_sum", "gbps", bytes / median(host, reps), "GB/s");
}

/* ---- barrier ---------------------------------------------------------------------------- */

/* The workgroup's values after the loop, as barrier.comp computes them: in
 * each iteration every invocation adds its right neighbour's value (the
 * last one wraps to the first) as it was before the iteration. */
static void barrier_reference(float *x, uint32_t iters)
{
   float sh[BARRIER_LOCAL];
   for (uint32_t i = 0; i < BARRIER_LOCAL; i++)
      x[i] = (float)i;
   for (uint32_t k = 0; k < iters; k++) {
      memcpy(sh, x, sizeof(sh));
      for (uint32_t i = 0; i < BARRIER_LOCAL; i++)
         x[i] = x[i] + sh[(i + 1) % BARRIER_LOCAL];
   }
}

static void phase_barrier(struct ctx *c)
{
   const char *ph = "barrier";
   const uint32_t groups = barrier_groups, n = groups * BARRIER_LOCAL;
   struct kernel k = {0};
   kernel_create(c, &k, barrier_spv, sizeof(barrier_spv), 1, 4);
   struct buf out;
   buf_create(c, &out, (VkDeviceSize)n * 4);
   struct buf *bufs[] = {&out};
   kernel_bind(c, &k, bufs, 1);

   VkCommandBuffer cb = cb_begin(c);
   bind_kernel(cb, &k, k.pipeline);
   vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &barrier_iters);
   vkCmdDispatch(cb, groups, 1, 1);
   cb_end(c, cb);

   float want[BARRIER_LOCAL];
   barrier_reference(want, barrier_iters);
   struct timing t = {0};
   bool ok = true;
   float *got = out.map;
   for (unsigned r = 0; r <= reps && ok; r++) {   /* r == 0: warm-up, untimed */
      memset(got, 0xff, (size_t)n * 4);   /* NaN everywhere: nothing left over passes */
      submit_wait(c, cb, r ? &t : NULL);
      for (uint32_t i = 0; i < n && ok; i++) {
         if (memcmp(&got[i], &want[i % BARRIER_LOCAL], 4) != 0)
            ok = fail(ph, "rep %u: result[%u] = %.9g, expected %.9g", r, i, (double)got[i],
                      (double)want[i % BARRIER_LOCAL]);
      }
   }
   vkFreeCommandBuffers(c->device, c->pool, 1, &cb);
   kernel_destroy(c, &k);
   buf_destroy(c, &out);
   if (!ok)
      return;
   const double ops = 3.0 * n * barrier_iters;
   double gpu, wall = report_timing(ph, &t, &gpu);
   metric(ph, "mops", ops / wall * 1e3, "Mop/s");
   if (!isnan(gpu))
      metric(ph, "gpu_mops", ops / gpu * 1e3, "Mop/s");
}

/* ---- ml_*: the machine-learning kernels ---------------------------------------------------- */

/* What an ML phase's output must be: n values, each want[i] within bound[i]. */
struct ml_expect {
   uint32_t n;
   double *want, *bound;
};

static void ml_expect_alloc(struct ml_expect *e, uint32_t n)
{
   e->n = n;
   e->want = malloc((size_t)n * sizeof(double));
   e->bound = malloc((size_t)n * sizeof(double));
   if (!e->want || !e->bound)
      die("out of memory");
}

static void ml_expect_free(struct ml_expect *e)
{
   free(e->want);
   free(e->bound);
}

/* kernel_create with uint32 specialization constants 0..nspec-1 (0: the
 * workgroup size). */
static void ml_kernel_create(struct ctx *c, struct kernel *k, const uint32_t *spv, size_t bytes,
                             uint32_t nbuf, uint32_t push_bytes, const uint32_t *spec,
                             uint32_t nspec)
{
   VkSpecializationMapEntry me[8];
   for (uint32_t i = 0; i < nspec && i < 8; i++)
      me[i] = (VkSpecializationMapEntry){i, 4 * i, 4};
   VkSpecializationInfo si = {nspec, me, 4 * nspec, spec};
   kernel_layout(c, k, nbuf, push_bytes);
   VkShaderModule m = create_module(c, spv, bytes);
   k->pipeline = create_pipeline(c, k->layout, m, &si);
   vkDestroyShaderModule(c->device, m, NULL);
}

/* Whether the device can run an ML phase; says why not on stdout. */
static bool ml_supported(struct ctx *c, const char *ph, bool storage8)
{
   if (c->storage16 && (c->storage8 || !storage8) && c->subgroup_arith)
      return true;
   printf("info %s skipped: needs storageBuffer16BitAccess%s and subgroup arithmetic\n", ph,
          storage8 ? ", storageBuffer8BitAccess" : "");
   return false;
}

/* The rest of an ML phase: binds bufs (the last one the output, e->n
 * floats) to k, dispatches k once per submission, reps times after an
 * untimed warm-up, the output filled with NaN before each and checked
 * after each; frees k, bufs and e; reports `amount` (bytes, flops) per
 * second as <phase>.<name> (and by GPU timestamps, .gpu_<name>). */
static void ml_finish(struct ctx *c, const char *ph, struct kernel *k, struct buf *const *bufs,
                      uint32_t nbuf, const void *push, uint32_t push_bytes, uint32_t gx,
                      uint32_t gy, struct ml_expect *e, double amount, const char *name,
                      const char *unit)
{
   kernel_bind(c, k, bufs, nbuf);
   VkCommandBuffer cb = cb_begin(c);
   bind_kernel(cb, k, k->pipeline);
   vkCmdPushConstants(cb, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
   vkCmdDispatch(cb, gx, gy, 1);
   cb_end(c, cb);
   struct timing t = {0};
   bool ok = true;
   float *got = bufs[nbuf - 1]->map;
   for (unsigned r = 0; r <= reps && ok; r++) {
      memset(got, 0xff, (size_t)e->n * 4);
      submit_wait(c, cb, r ? &t : NULL);
      for (uint32_t i = 0; i < e->n && ok; i++) {
         if (!(fabs(got[i] - e->want[i]) <= e->bound[i]))
            ok = fail(ph, "rep %u: result %u = %.9g, expected %.9g within %.3g", r, i,
                      (double)got[i], e->want[i], e->bound[i]);
      }
   }
   vkFreeCommandBuffers(c->device, c->pool, 1, &cb);
   ml_expect_free(e);
   kernel_destroy(c, k);
   for (uint32_t i = 0; i < nbuf; i++)
      buf_destroy(c, bufs[i]);
   if (!ok)
      return;
   double gpu, wall = report_timing(ph, &t, &gpu);
   metric(ph, name, amount / wall, unit);
   if (!isnan(gpu)) {
      char gname[64];
      snprintf(gname, sizeof(gname), "gpu_%s", name);
      metric(ph, gname, amount / gpu, unit);
   }
}

/* Every binary16 value as a float, for the references' inner loops. */
static float *half_table(void)
{
   float *t = malloc(65536 * sizeof(float));
   if (!t)
      die("out of memory");
   for (uint32_t h = 0; h < 65536; h++)
      t[h] = sgt_half_to_float((uint16_t)h);
   return t;
}

/* A random f16 in (-1, 1), at least 2^-6 in magnitude, from bits (cheaper
 * than rounding a random double: the matrices have millions). */
static uint16_t random_half(uint32_t *state)
{
   uint32_t r = sgt_ml_rand(state);
   return (uint16_t)((r & 0x8000u) | (9u + (r >> 16) % 6u) << 10 | (r & 0x3ffu));
}

enum ml_format { ML_F16, ML_Q8, ML_Q4 };

/* y = A x: A ml_n x ml_n in `format`, x f16 (f16) or f32 (q8, q4). */
static void phase_ml_matvec(struct ctx *c, const char *ph, enum ml_format format)
{
   if (!ml_supported(c, ph, format != ML_F16))
      return;
   const uint32_t M = ml_n, K = ml_n, wg = 128, rows = format == ML_F16 ? 2 : 4;
   const size_t n = (size_t)M * K;
   struct kernel k = {0};
   const uint32_t spec[2] = {wg, rows};
   if (format == ML_F16)
      ml_kernel_create(c, &k, ml_matvec_f16_spv, sizeof(ml_matvec_f16_spv), 3, 8, spec, 2);
   else if (format == ML_Q8)
      ml_kernel_create(c, &k, ml_matvec_q8_spv, sizeof(ml_matvec_q8_spv), 4, 8, spec, 2);
   else
      ml_kernel_create(c, &k, ml_matvec_q4_spv, sizeof(ml_matvec_q4_spv), 4, 8, spec, 2);
   size_t qbytes = format == ML_F16 ? 2 * n : format == ML_Q8 ? n : n / 2;
   size_t xbytes = (size_t)K * (format == ML_F16 ? 2 : 4);
   struct buf a, d, x, y;
   buf_create(c, &a, qbytes);
   buf_create(c, &d, 2 * n / SGT_ML_BLOCK);
   buf_create(c, &x, xbytes);
   buf_create(c, &y, (VkDeviceSize)M * 4);
   uint32_t s = 7 + format;
   float *half = half_table();
   double *xv = malloc(K * sizeof(double)), *row = malloc(K * sizeof(double));
   if (format == ML_F16) {
      uint16_t *h = a.map, *hx = x.map;
      for (size_t i = 0; i < n; i++)
         h[i] = random_half(&s);
      for (uint32_t i = 0; i < K; i++)
         xv[i] = half[hx[i] = random_half(&s)];
   } else {
      if (format == ML_Q8)
         sgt_ml_fill_q8(a.map, d.map, M, K, &s);
      else
         sgt_ml_fill_q4(a.map, d.map, M, K, &s);
      float *fx = x.map;
      for (uint32_t i = 0; i < K; i++)
         xv[i] = fx[i] = half[random_half(&s)];
   }
   struct ml_expect e;
   ml_expect_alloc(&e, M);
   double rel = sgt_ml_matvec_bound(K, format == ML_Q4 ? 8 : 4, wg, c->subgroup_size);
   for (uint32_t m = 0; m < M; m++) {
      const uint16_t *ds = (const uint16_t *)d.map + (size_t)m * (K / SGT_ML_BLOCK);
      for (uint32_t i = 0; i < K; i++) {
         if (format == ML_F16)
            row[i] = half[((const uint16_t *)a.map)[(size_t)m * K + i]];
         else if (format == ML_Q8)
            row[i] = (double)half[ds[i / SGT_ML_BLOCK]] * ((const int8_t *)a.map)[(size_t)m * K + i];
         else
            row[i] = (double)half[ds[i / SGT_ML_BLOCK]] *
                     ((int)sgt_ml_q4_nibble(a.map, K, m, i) - 8);
      }
      struct sgt_ml_sum sum = {0, 0};
      for (uint32_t i = 0; i < K; i++)
         sgt_ml_add(&sum, row[i] * xv[i]);
      e.want[m] = sum.value;
      e.bound[m] = rel * sum.abs;
   }
   free(half);
   free(xv);
   free(row);
   double bytes = (double)qbytes + (format == ML_F16 ? 0 : 2.0 * n / SGT_ML_BLOCK) +
                  (double)xbytes + 4.0 * M;
   const uint32_t push[2] = {M, K};
   struct buf *f16_bufs[] = {&a, &x, &y}, *q_bufs[] = {&a, &d, &x, &y};
   if (format == ML_F16)
      buf_destroy(c, &d);   /* the f16 kernel has no scales */
   ml_finish(c, ph, &k, format == ML_F16 ? f16_bufs : q_bufs, format == ML_F16 ? 3 : 4, push,
             sizeof(push), (M + rows - 1) / rows, 1, &e, bytes, "gbps", "GB/s");
}

/* C = A B^T: A M x K, B N x K, f16; M = K = ml_n / 8, N = ml_n / 32 (on
 * this project's 2-core machine both drivers manage a few hundred MFLOP/s
 * here, so larger sizes would cost seconds per repetition). */
static void phase_ml_matmul(struct ctx *c)
{
   const char *ph = "ml_matmul_f16";
   if (!ml_supported(c, ph, false))
      return;
   const uint32_t M = ml_n / 8, K = ml_n / 8, N = ml_n / 32;
   const uint32_t spec[6] = {128, 64, 32, 32, 4, 4};   /* matmul.comp's tile shape */
   struct kernel k = {0};
   ml_kernel_create(c, &k, ml_matmul_f16_spv, sizeof(ml_matmul_f16_spv), 3, 12, spec, 6);
   struct buf a, b, out;
   buf_create(c, &a, (VkDeviceSize)M * K * 2);
   buf_create(c, &b, (VkDeviceSize)N * K * 2);
   buf_create(c, &out, (VkDeviceSize)N * M * 4);
   uint32_t s = 17;
   uint16_t *ha = a.map, *hb = b.map;
   for (size_t i = 0; i < (size_t)M * K; i++)
      ha[i] = random_half(&s);
   for (size_t i = 0; i < (size_t)N * K; i++)
      hb[i] = random_half(&s);
   float *half = half_table();
   double *arow = malloc(K * sizeof(double)), *bt = malloc((size_t)N * K * sizeof(double));
   for (size_t i = 0; i < (size_t)N * K; i++)
      bt[i] = half[hb[i]];
   struct ml_expect e;
   ml_expect_alloc(&e, N * M);
   double slack, rel = sgt_ml_matmul_bound(K, 0, &slack);
   for (uint32_t m = 0; m < M; m++) {
      for (uint32_t i = 0; i < K; i++)
         arow[i] = half[ha[(size_t)m * K + i]];
      for (uint32_t n = 0; n < N; n++) {
         struct sgt_ml_sum sum = {0, 0};
         for (uint32_t i = 0; i < K; i++)
            sgt_ml_add(&sum, arow[i] * bt[(size_t)n * K + i]);
         e.want[(size_t)n * M + m] = sum.value;
         e.bound[(size_t)n * M + m] = rel * sum.abs + slack;
      }
   }
   free(half);
   free(arow);
   free(bt);
   struct buf *bufs[] = {&a, &b, &out};
   const uint32_t push[3] = {M, N, K};
   ml_finish(c, ph, &k, bufs, 3, push, sizeof(push), (M + spec[1] - 1) / spec[1],
             (N + spec[2] - 1) / spec[2], &e, 2.0 * M * N * K, "gflops", "GFLOP/s");
}

/* Softmax of ml_n / 8 rows of ml_n logits (f16) with a mask of 8 rows. */
static void phase_ml_softmax(struct ctx *c)
{
   const char *ph = "ml_softmax";
   if (!ml_supported(c, ph, false))
      return;
   const uint32_t rows = ml_n / 8, N = ml_n, MR = 8, wg = 128;
   const float scale = 0.5f, masked = -30000.0f;
   struct kernel k = {0};
   const uint32_t spec[1] = {wg};
   ml_kernel_create(c, &k, ml_softmax_spv, sizeof(ml_softmax_spv), 3, 12, spec, 1);
   struct buf x, mask, y;
   buf_create(c, &x, (VkDeviceSize)rows * N * 2);
   buf_create(c, &mask, (VkDeviceSize)MR * N * 2);
   buf_create(c, &y, (VkDeviceSize)rows * N * 4);
   uint32_t s = 27;
   uint16_t *hx = x.map, *hm = mask.map;
   for (size_t i = 0; i < (size_t)rows * N; i++)
      hx[i] = sgt_ml_half(&s, -6.0, 6.0);
   /* Mask row q: a causal mask's shape, past N/2 + q N/16. */
   for (uint32_t q = 0; q < MR; q++)
      for (uint32_t i = 0; i < N; i++)
         hm[q * N + i] = sgt_float_to_half(i > N / 2 + q * N / 16 ? masked : 0.0f);
   struct ml_expect e;
   ml_expect_alloc(&e, rows * N);
   double *v = malloc(N * sizeof(double));
   for (uint32_t r = 0; r < rows; r++) {
      double top = -INFINITY, sum = 0, L = 0;
      for (uint32_t i = 0; i < N; i++) {
         float mv = sgt_half_to_float(hm[(r % MR) * N + i]);
         v[i] = (double)scale * sgt_half_to_float(hx[(size_t)r * N + i]) + mv;
         top = fmax(top, v[i]);
         if (mv != masked)
            L = fmax(L, fabs(v[i]));
      }
      for (uint32_t i = 0; i < N; i++)
         sum += exp(v[i] - top);
      double rel = sgt_ml_softmax_bound(N, wg, c->subgroup_size, L, 0);
      for (uint32_t i = 0; i < N; i++) {
         double want = exp(v[i] - top) / sum;
         e.want[(size_t)r * N + i] = want;
         e.bound[(size_t)r * N + i] = rel * want + 1e-30;
      }
   }
   free(v);
   struct buf *bufs[] = {&x, &mask, &y};
   struct {
      uint32_t N, MR;
      float scale;
   } push = {N, MR, scale};
   ml_finish(c, ph, &k, bufs, 3, &push, sizeof(push), rows, 1, &e, 6.0 * rows * N, "gbps",
             "GB/s");
}

/* RMS norm of ml_n / 8 rows of ml_n f32 values, f16 weights. */
static void phase_ml_rmsnorm(struct ctx *c)
{
   const char *ph = "ml_rmsnorm";
   if (!ml_supported(c, ph, false))
      return;
   const uint32_t rows = ml_n / 8, N = ml_n, wg = 128;
   const float eps = 1e-5f;
   struct kernel k = {0};
   const uint32_t spec[1] = {wg};
   ml_kernel_create(c, &k, ml_rmsnorm_spv, sizeof(ml_rmsnorm_spv), 3, 8, spec, 1);
   struct buf x, g, y;
   buf_create(c, &x, (VkDeviceSize)rows * N * 4);
   buf_create(c, &g, (VkDeviceSize)N * 2);
   buf_create(c, &y, (VkDeviceSize)rows * N * 4);
   uint32_t s = 37;
   float *fx = x.map;
   uint16_t *hg = g.map;
   for (size_t i = 0; i < (size_t)rows * N; i++)
      fx[i] = (float)sgt_ml_uniform(&s, -2.0, 2.0);
   for (uint32_t i = 0; i < N; i++)
      hg[i] = sgt_ml_half(&s, 0.5, 1.5);
   struct ml_expect e;
   ml_expect_alloc(&e, rows * N);
   double rel = sgt_ml_rmsnorm_bound(N, wg, c->subgroup_size);
   for (uint32_t r = 0; r < rows; r++) {
      const float *xr = fx + (size_t)r * N;
      double ss = 0;
      for (uint32_t i = 0; i < N; i++)
         ss += (double)xr[i] * xr[i];
      double sc = 1 / sqrt(ss / N + eps);
      for (uint32_t i = 0; i < N; i++) {
         double want = xr[i] * sc * sgt_half_to_float(hg[i]);
         e.want[(size_t)r * N + i] = want;
         e.bound[(size_t)r * N + i] = rel * fabs(want);
      }
   }
   struct buf *bufs[] = {&x, &g, &y};
   struct {
      uint32_t N;
      float eps;
   } push = {N, eps};
   ml_finish(c, ph, &k, bufs, 3, &push, sizeof(push), rows, 1, &e, 8.0 * rows * N, "gbps",
             "GB/s");
}

/* ---- main ------------------------------------------------------------------------------- */

static void print_env(const char *name)
{
   const char *v = getenv(name);
   printf("info env %s %s\n", name, v ? v : "(unset)");
}

static uint32_t parse_u32(const char *s, const char *opt)
{
   char *end;
   unsigned long v = strtoul(s, &end, 0);
   if (*end || v == 0 || v > UINT32_MAX)
      die("bad value for %s: %s", opt, s);
   return (uint32_t)v;
}

int main(int argc, char **argv)
{
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--reps") && i + 1 < argc)
         reps = parse_u32(argv[++i], "--reps");
      else if (!strcmp(argv[i], "--sgemm-reps") && i + 1 < argc)
         sgemm_reps = parse_u32(argv[++i], "--sgemm-reps");
      else if (!strcmp(argv[i], "--only") && i + 1 < argc)
         only = argv[++i];
      else if (!strcmp(argv[i], "--dispatches") && i + 1 < argc)
         n_dispatches = parse_u32(argv[++i], "--dispatches");
      else if (!strcmp(argv[i], "--saxpy-n") && i + 1 < argc)
         saxpy_n = parse_u32(argv[++i], "--saxpy-n");
      else if (!strcmp(argv[i], "--sgemm-n") && i + 1 < argc)
         sgemm_n = parse_u32(argv[++i], "--sgemm-n");
      else if (!strcmp(argv[i], "--reduce-n") && i + 1 < argc)
         reduce_n = parse_u32(argv[++i], "--reduce-n");
      else if (!strcmp(argv[i], "--barrier-groups") && i + 1 < argc)
         barrier_groups = parse_u32(argv[++i], "--barrier-groups");
      else if (!strcmp(argv[i], "--ml-n") && i + 1 < argc)
         ml_n = parse_u32(argv[++i], "--ml-n");
      else if (!strcmp(argv[i], "--quick")) {
         n_dispatches = 2000;
         saxpy_n = reduce_n = 1u << 20;
         sgemm_n = 256;
         barrier_groups = 64;
         ml_n = 1024;
         reps = 3;
         sgemm_reps = 1;
      } else
         die("usage: %s [--reps N] [--sgemm-reps N] [--only PHASE,...] [--quick] "
             "[--dispatches N] [--saxpy-n N] [--sgemm-n N] [--reduce-n N] [--barrier-groups N] "
             "[--ml-n N]\n"
             "phases: init pipeline dispatch (also dispatch_barrier) grid saxpy sgemm reduce "
             "barrier ml_matvec_f16 ml_matvec_q8 ml_matvec_q4 ml_matmul_f16 ml_softmax ml_rmsnorm",
             argv[0]);
   }
   if (reps > MAX_REPS || sgemm_reps > MAX_REPS)
      die("--reps and --sgemm-reps are at most %u", MAX_REPS);
   if (sgemm_n % TILE)
      die("--sgemm-n must be a multiple of %u", TILE);
   if (barrier_groups > UINT32_MAX / BARRIER_LOCAL)
      die("--barrier-groups too large");
   if (n_dispatches > UINT32_MAX / 64)
      die("--dispatches too large");
   /* matmul takes ml_n / 32 rows of B, and tiles of 32 along K. */
   if (ml_n % 512 || ml_n > 32768)
      die("--ml-n must be a multiple of 512, at most 32768");
   setvbuf(stdout, NULL, _IOLBF, 0);
   /* Mesa (lavapipe) would otherwise serve repeated pipelines from its
    * on-disk cache; softgpu ignores the variable. */
   setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
   print_env("VK_DRIVER_FILES");
   print_env("VK_LOADER_LAYERS_DISABLE");
   print_env("VK_INSTANCE_LAYERS");
   print_env("MESA_SHADER_CACHE_DISABLE");
   print_env("SOFTGPU_THREADS");
   printf("info sgemm_reps %u\n", sgemm_reps);
   printf("info reps %u\ninfo dispatches %u\ninfo saxpy_n %u\ninfo sgemm_n %u\n"
          "info reduce_n %u\ninfo barrier_groups %u\ninfo ml_n %u\n", reps, n_dispatches, saxpy_n,
          sgemm_n, reduce_n, barrier_groups, ml_n);

   if (selected("init"))
      phase_init();
   struct ctx c = {0};
   ctx_create(&c);
   if (selected("pipeline"))
      phase_pipeline(&c);
   if (selected("dispatch") || selected("dispatch_barrier"))
      phase_dispatch(&c);
   if (selected("grid"))
      phase_grid(&c);
   if (selected("saxpy"))
      phase_saxpy(&c);
   if (selected("sgemm"))
      phase_sgemm(&c);
   if (selected("reduce"))
      phase_reduce(&c);
   if (selected("barrier"))
      phase_barrier(&c);
   if (selected("ml_matvec_f16"))
      phase_ml_matvec(&c, "ml_matvec_f16", ML_F16);
   if (selected("ml_matvec_q8"))
      phase_ml_matvec(&c, "ml_matvec_q8", ML_Q8);
   if (selected("ml_matvec_q4"))
      phase_ml_matvec(&c, "ml_matvec_q4", ML_Q4);
   if (selected("ml_matmul_f16"))
      phase_ml_matmul(&c);
   if (selected("ml_softmax"))
      phase_ml_softmax(&c);
   if (selected("ml_rmsnorm"))
      phase_ml_rmsnorm(&c);
   ctx_destroy(&c);
   if (failures) {
      printf("info failures %d\n", failures);
      return 2;
   }
   printf("info done 1\n");
   return 0;
}
