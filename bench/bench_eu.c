/*
 * bench_eu: the execution units' speed against the host's own C loops, per
 * warp width, with hw/ driven directly (rings and launches as in the hw
 * tests; no Vulkan).
 *
 *   arith    an arithmetic loop that stays in registers: 4 independent
 *            chains, 8 FFMA per iteration (a uniform BRA_U loop), 256
 *            iterations, 65536 invocations; lane-ops = FFMAs.
 *   stream   y = a * x + y over 16M floats, one element per invocation
 *            (LDG, LDG, FFMA, STG; 65536 CTAs of 256); lane-ops = elements.
 *   stream4  the same work grid-stride: 256 CTAs of 256, each invocation
 *            64 iterations of LDG.b128 x2, 4 FFMA, STG.b128.
 *   barrier  CTAs of 256: 64 times { shared[i] = x; BAR; x += shared[i+1];
 *            BAR }; lane-ops = STS + LDS + FADD (3 per iteration).
 *
 * Each is timed against the same work done by C loops (this file compiled a
 * second time with -DBENCH_EU_REF_PART, -O3 -march=native: see
 * bench/CMakeLists.txt) on as many threads as the GPU has execution-unit
 * workers (SOFTGPU_THREADS, default: every online core); the results of
 * both must agree bit for bit. Best of --reps runs (default 3).
 *
 * Wall time and process CPU time (every thread, user + system) are both
 * measured: on a loaded machine only the CPU-time ratio is meaningful.
 *
 * Output, one line per measurement on stdout:
 *   info <key> <value>
 *   result <bench> <W> <lane_ops> <gpu_ns> <c_ns> <agree 0|1> <gpu_cpu_ns> <c_cpu_ns>
 * and a readable table on stderr. bench/run-eu-bench.py runs it.
 *
 * Usage: bench_eu [--quick] [--reps N] [--only BENCH[,BENCH]] [--widths 8,16,32,64]
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef BENCH_EU_REF_PART

/* ---- the C reference loops (built -O3 -march=native) ------------------------------- */

#define BLOCK 64u

void ref_arith(float *out, uint32_t begin, uint32_t end, uint32_t iters, float a, float b);
void ref_saxpy(float *restrict y, const float *restrict x, float a, size_t begin, size_t end);
void ref_barrier(float *out, uint32_t cta_begin, uint32_t cta_end, uint32_t size,
                 uint32_t iters);

void ref_arith(float *out, uint32_t begin, uint32_t end, uint32_t iters, float a, float b)
{
   for (uint32_t base = begin; base < end; base += BLOCK) {
      uint32_t n = end - base < BLOCK ? end - base : BLOCK;
      float x0[BLOCK], x1[BLOCK], x2[BLOCK], x3[BLOCK];
      for (uint32_t j = 0; j < BLOCK; j++) {
         x0[j] = (float)(base + j);
         x1[j] = x0[j] + 1.0f;
         x2[j] = x0[j] + 2.0f;
         x3[j] = x0[j] + 3.0f;
      }
      for (uint32_t k = 0; k < iters; k++) {
         for (uint32_t j = 0; j < BLOCK; j++) {
            x0[j] = fmaf(x0[j], a, b);
            x1[j] = fmaf(x1[j], a, b);
            x2[j] = fmaf(x2[j], a, b);
            x3[j] = fmaf(x3[j], a, b);
            x0[j] = fmaf(x0[j], a, b);
            x1[j] = fmaf(x1[j], a, b);
            x2[j] = fmaf(x2[j], a, b);
            x3[j] = fmaf(x3[j], a, b);
         }
      }
      for (uint32_t j = 0; j < n; j++)
         out[base + j] = (x0[j] + x1[j]) + (x2[j] + x3[j]);
   }
}

void ref_saxpy(float *restrict y, const float *restrict x, float a, size_t begin, size_t end)
{
   for (size_t i = begin; i < end; i++)
      y[i] = fmaf(a, x[i], y[i]);
}

void ref_barrier(float *out, uint32_t cta_begin, uint32_t cta_end, uint32_t size,
                 uint32_t iters)
{
   float x[1024], sh[1024];
   for (uint32_t g = cta_begin; g < cta_end; g++) {
      for (uint32_t i = 0; i < size; i++)
         x[i] = (float)i;
      for (uint32_t k = 0; k < iters; k++) {
         for (uint32_t i = 0; i < size; i++)
            sh[i] = x[i];
         for (uint32_t i = 0; i + 1 < size; i++)
            x[i] = x[i] + sh[i + 1];
         x[size - 1] = x[size - 1] + sh[0];
      }
      for (uint32_t i = 0; i < size; i++)
         out[(size_t)g * size + i] = x[i];
   }
}

#else /* the driver */

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eut.h"
#include "sg_log.h"

void ref_arith(float *out, uint32_t begin, uint32_t end, uint32_t iters, float a, float b);
void ref_saxpy(float *restrict y, const float *restrict x, float a, size_t begin, size_t end);
void ref_barrier(float *out, uint32_t cta_begin, uint32_t cta_end, uint32_t size,
                 uint32_t iters);

static const float arith_a = 0.999f, arith_b = 0.001f, saxpy_a = 0.5f;

struct options {
   bool quick;
   int reps;
   char only[128];
   uint32_t widths[4], width_count;
   uint32_t threads;
};

static struct options opt;

static bool wanted(const char *bench)
{
   if (!opt.only[0])
      return true;
   char list[130];
   snprintf(list, sizeof(list), ",%s,", opt.only);
   char key[64];
   snprintf(key, sizeof(key), ",%s,", bench);
   return strstr(list, key) != NULL;
}

/* ---- C references on opt.threads threads ------------------------------------------ */

enum ref_kind { REF_ARITH, REF_SAXPY, REF_BARRIER };

struct ref_job {
   enum ref_kind kind;
   float *out;
   const float *in;
   uint64_t begin, end;
   uint32_t iters, size;
};

static void *ref_thread(void *arg)
{
   struct ref_job *j = arg;
   switch (j->kind) {
   case REF_ARITH:
      ref_arith(j->out, (uint32_t)j->begin, (uint32_t)j->end, j->iters, arith_a, arith_b);
      break;
   case REF_SAXPY:
      ref_saxpy(j->out, j->in, saxpy_a, j->begin, j->end);
      break;
   case REF_BARRIER:
      ref_barrier(j->out, (uint32_t)j->begin, (uint32_t)j->end, j->size, j->iters);
      break;
   }
   return NULL;
}

/* Runs [0, n) split over the threads; returns the wall time in ns. */
/* The process CPU time (user + system, every thread) of the last run_ref or
 * time_launch: robust against other load on the machine, where wall time
 * is not. */
static uint64_t last_cpu_ns;

static uint64_t run_ref(enum ref_kind kind, float *out, const float *in, uint64_t n,
                        uint32_t iters, uint32_t size, uint64_t align)
{
   pthread_t th[64];
   struct ref_job jobs[64];
   uint32_t t = opt.threads;
   uint64_t per = (n + t - 1) / t;
   per = (per + align - 1) / align * align;
   uint64_t cpu = hwt_cpu_ns();
   uint64_t start = hw_now_ns();
   for (uint32_t k = 0; k < t; k++) {
      uint64_t b = k * per < n ? k * per : n, e = b + per < n ? b + per : n;
      jobs[k] = (struct ref_job){kind, out, in, b, e, iters, size};
      if (pthread_create(&th[k], NULL, ref_thread, &jobs[k]) != 0) {
         fprintf(stderr, "cannot start a thread\n");
         exit(1);
      }
   }
   for (uint32_t k = 0; k < t; k++)
      pthread_join(th[k], NULL);
   uint64_t ns = hw_now_ns() - start;
   last_cpu_ns = hwt_cpu_ns() - cpu;
   return ns;
}

/* ---- the GPU side ---------------------------------------------------------------------- */

static char interp_variant[32] = "?";

static void sink(enum sg_log_level level, enum sg_log_area area, const char *message, void *user)
{
   const char *s = strstr(message, "workers, ");
   if (area == SG_AREA_EU && s)
      sscanf(s + 9, "%31s", interp_variant);
}

static void gpu_init(struct eut *t)
{
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 1, 0);
   /* The environment as the driver reads it (SOFTGPU_JIT, SOFTGPU_PIN_WORKERS,
    * SOFTGPU_PERF_MAP, ...); the memory and the threads are the bench's. */
   hw_gpu_config_from_env(&cfg);
   cfg.memory_bytes = 1ull << 30;
   cfg.eu_threads = opt.threads;
   eut_init(t, &cfg);
}

/* A GPU that logs (to the sink) which interpreter it picked. */
static void probe_interpreter(void)
{
   sg_log_set_sink(sink, NULL);
   sg_log_configure("warn;info:eu");
   struct eut t;
   int err = dup(2), null = open("/dev/null", O_WRONLY);
   if (err >= 0 && null >= 0)
      dup2(null, 2);   /* the sink has it: keep it off stderr */
   gpu_init(&t);
   if (err >= 0) {
      dup2(err, 2);
      close(err);
   }
   if (null >= 0)
      close(null);
   eut_fini(&t);
   sg_log_configure("warn");
   sg_log_set_sink(NULL, NULL);
}

static uint64_t time_launch(struct eut *t, const struct eut_launch *l)
{
   uint64_t desc = eut_desc(t, l);
   struct hwt_pb pb;
   eut_begin(t, &pb);
   pb.p = hw_emit_launch(pb.p, desc);
   uint64_t cpu = hwt_cpu_ns();
   uint64_t start = hw_now_ns();
   eut_submit_ok(t, &pb, "benchmark launch");
   uint64_t ns = hw_now_ns() - start;
   last_cpu_ns = hwt_cpu_ns() - cpu;
   return ns;
}

/* Best wall time and best CPU time over the reps. */
struct best {
   uint64_t wall, cpu;
};

static void best_add(struct best *b, uint64_t wall)
{
   if (!b->wall || wall < b->wall)
      b->wall = wall;
   if (!b->cpu || last_cpu_ns < b->cpu)
      b->cpu = last_cpu_ns;
}

static struct best best_launch(struct eut *t, const struct eut_launch *l)
{
   struct best b = {0, 0};
   for (int r = 0; r < opt.reps; r++)
      best_add(&b, time_launch(t, l));
   return b;
}

static struct best best_ref(enum ref_kind kind, float *out, const float *in, uint64_t n,
                            uint32_t iters, uint32_t size, uint64_t align)
{
   struct best b = {0, 0};
   for (int r = 0; r < opt.reps; r++)
      best_add(&b, run_ref(kind, out, in, n, iters, size, align));
   return b;
}

static void report(const char *bench, uint32_t w, double ops, struct best gpu, struct best c,
                   bool agree, const char *unit)
{
   printf("result %s %u %.0f %llu %llu %d %llu %llu\n", bench, w, ops,
          (unsigned long long)gpu.wall, (unsigned long long)c.wall, agree,
          (unsigned long long)gpu.cpu, (unsigned long long)c.cpu);
   fflush(stdout);
   double g = ops / (gpu.wall * 1e-9), cw = ops / (c.wall * 1e-9);
   fprintf(stderr,
           "%-8s W=%-2u  GPU %9.1f M%s/s  C %9.1f M%s/s  wall ratio %6.1f%%  CPU-time ratio "
           "%6.1f%%  (%.1f / %.1f ms)%s\n",
           bench, w, g / 1e6, unit, cw / 1e6, unit, 100.0 * g / cw,
           100.0 * (double)c.cpu / (double)gpu.cpu, gpu.wall / 1e6, c.wall / 1e6,
           agree ? "" : "  RESULTS DIFFER");
}

static bool same_floats(const float *a, const float *b, uint64_t n, const char *what)
{
   for (uint64_t i = 0; i < n; i++) {
      if (memcmp(&a[i], &b[i], 4) != 0) {
         fprintf(stderr, "%s: element %llu: GPU %.9g, C %.9g\n", what, (unsigned long long)i,
                 (double)a[i], (double)b[i]);
         return false;
      }
   }
   return true;
}

/* ---- arith ---------------------------------------------------------------------------------- */

static void bench_arith(uint32_t w)
{
   const uint32_t cta = 256, groups = 256, n = cta * groups, iters = opt.quick ? 32 : 256;
   struct eut t;
   gpu_init(&t);
   uint64_t out = eut_alloc(&t, 4ull * n, 4096);
   uint64_t root[2] = {out, iters};
   uint64_t prog = eut_programf(&t,
                                ".warp %u\n"
                                "ldr.b64 u0 +0\n"
                                "ldr.b32 u2 +8\n"
                                "s2r.local_index v0\n"
                                "s2r.group_id_x u8\n"
                                "s2r.group_size_x u9\n"
                                "imad v1, u8, u9, v0\n"
                                "i2f_u v10, v1\n"
                                "fadd v11, v10, #0x3f800000\n"
                                "fadd v12, v10, #0x40000000\n"
                                "fadd v13, v10, #0x40400000\n"
                                "mov v20, #0x%08x\n"
                                "mov v21, #0x%08x\n"
                                "mov u3, #0\n"
                                "h: ffma v10, v10, v20, v21\n"
                                "   ffma v11, v11, v20, v21\n"
                                "   ffma v12, v12, v20, v21\n"
                                "   ffma v13, v13, v20, v21\n"
                                "   ffma v10, v10, v20, v21\n"
                                "   ffma v11, v11, v20, v21\n"
                                "   ffma v12, v12, v20, v21\n"
                                "   ffma v13, v13, v20, v21\n"
                                "   iadd u3, u3, #1\n"
                                "   icmp.lt_u u4, u3, u2\n"
                                "   bra_u _, u4 @h\n"
                                "fadd v10, v10, v11\n"
                                "fadd v12, v12, v13\n"
                                "fadd v10, v10, v12\n"
                                "shl v2, v1, #2\n"
                                "zext64 v4, v2\n"
                                "iadd64 v4, v4, u0\n"
                                "stg.b32 _, v4, v10\n"
                                "exit\n",
                                w, eut_u(arith_a), eut_u(arith_b));
   struct eut_launch l = {.program = prog, .grid = {groups}, .size = {cta},
                          .root = eut_root(&t, root, 2)};
   struct best gpu = best_launch(&t, &l);
   float *ref = malloc(4ull * n);
   struct best c = best_ref(REF_ARITH, ref, NULL, n, iters, 0, 64);
   bool agree = same_floats(eut_ptr(&t, out), ref, n, "arith");
   report("arith", w, (double)n * iters * 8, gpu, c, agree, "op");
   free(ref);
   eut_fini(&t);
}

/* ---- stream --------------------------------------------------------------------------------- */

static void bench_stream(uint32_t w, bool wide)
{
   const uint64_t n = opt.quick ? (1u << 20) : (16u << 20);
   struct eut t;
   gpu_init(&t);
   uint64_t x = eut_alloc(&t, 4 * n, 4096), y = eut_alloc(&t, 4 * n, 4096);
   float *gx = eut_ptr(&t, x), *gy = eut_ptr(&t, y);
   float *cx = malloc(4 * n), *cy = malloc(4 * n), *y0 = malloc(4 * n);
   if (!cx || !cy || !y0) {
      fprintf(stderr, "out of memory\n");
      exit(1);
   }
   for (uint64_t i = 0; i < n; i++) {
      gx[i] = cx[i] = (float)(i % 1000) * 0.25f;
      gy[i] = cy[i] = y0[i] = (float)(i % 333);
   }
   uint32_t cta = 256, groups, iters = 0;
   uint64_t prog;
   if (!wide) {
      groups = (uint32_t)(n / cta);
      prog = eut_programf(&t, ".warp %u\n"
                              "ldr.b64 u0 +0\n"
                              "ldr.b64 u2 +8\n"
                              "ldr.b32 u4 +16\n"
                              "s2r.local_index v0\n"
                              "s2r.group_id_x u8\n"
                              "s2r.group_size_x u9\n"
                              "imad v1, u8, u9, v0\n"
                              "shl v2, v1, #2\n"
                              "zext64 v4, v2\n"
                              "iadd64 v6, v4, u0\n"
                              "ldg.b32 v10, v6\n"
                              "iadd64 v8, v4, u2\n"
                              "ldg.b32 v11, v8\n"
                              "ffma v11, u4, v10, v11\n"
                              "stg.b32 _, v8, v11\n"
                              "exit\n", w);
   } else {
      groups = 256;
      iters = (uint32_t)(n / 4 / ((uint64_t)groups * cta));
      prog = eut_programf(&t, ".warp %u\n"
                              "ldr.b64 u0 +0\n"
                              "ldr.b64 u2 +8\n"
                              "ldr.b32 u4 +16\n"
                              "ldr.b32 u5 +24\n"
                              "ldr.b64 u6 +32\n"
                              "s2r.local_index v0\n"
                              "s2r.group_id_x u8\n"
                              "s2r.group_size_x u9\n"
                              "imad v1, u8, u9, v0\n"
                              "shl v2, v1, #4\n"
                              "zext64 v4, v2\n"
                              "iadd64 v6, v4, u0\n"
                              "iadd64 v8, v4, u2\n"
                              "mov u10, #0\n"
                              "h: ldg.b128 v10, v6\n"
                              "   ldg.b128 v14, v8\n"
                              "   ffma v14, u4, v10, v14\n"
                              "   ffma v15, u4, v11, v15\n"
                              "   ffma v16, u4, v12, v16\n"
                              "   ffma v17, u4, v13, v17\n"
                              "   stg.b128 _, v8, v14\n"
                              "   iadd64 v6, v6, u6\n"
                              "   iadd64 v8, v8, u6\n"
                              "   iadd u10, u10, #1\n"
                              "   icmp.lt_u u11, u10, u5\n"
                              "   bra_u _, u11 @h\n"
                              "exit\n", w);
   }
   uint64_t root[5] = {x, y, eut_u(saxpy_a), iters, 16ull * groups * cta};
   struct eut_launch l = {.program = prog, .grid = {groups}, .size = {cta},
                          .root = eut_root(&t, root, 5)};
   /* One checked pass, then the timed ones. */
   time_launch(&t, &l);
   run_ref(REF_SAXPY, cy, cx, n, 0, 0, 1024);
   bool agree = same_floats(gy, cy, n, wide ? "stream4" : "stream");
   struct best gpu = best_launch(&t, &l);
   struct best c = best_ref(REF_SAXPY, cy, cx, n, 0, 0, 1024);
   report(wide ? "stream4" : "stream", w, (double)n, gpu, c, agree, "el");
   fprintf(stderr, "         (GPU %.2f GB/s, C %.2f GB/s at 12 bytes per element)\n",
           12.0 * n / gpu.wall, 12.0 * n / c.wall);
   free(cx);
   free(cy);
   free(y0);
   eut_fini(&t);
}

/* ---- barrier --------------------------------------------------------------------------------- */

static void bench_barrier(uint32_t w)
{
   const uint32_t cta = 256, groups = opt.quick ? 64 : 512, iters = 64;
   struct eut t;
   gpu_init(&t);
   uint64_t out = eut_alloc(&t, 4ull * cta * groups, 4096);
   uint64_t root[2] = {out, iters};
   uint64_t prog = eut_programf(&t, ".warp %u\n"
                                    ".barrier\n"
                                    "ldr.b64 u0 +0\n"
                                    "ldr.b32 u2 +8\n"
                                    "s2r.local_index v0\n"
                                    "s2r.group_id_x u8\n"
                                    "s2r.group_size_x u9\n"
                                    "shl v1, v0, #2\n"
                                    "iadd v2, v0, #1\n"
                                    "irem_u v2, v2, u9\n"
                                    "shl v2, v2, #2\n"
                                    "i2f_u v10, v0\n"
                                    "mov u3, #0\n"
                                    "h: sts.b32 _, v1, v10\n"
                                    "   bar\n"
                                    "   lds.b32 v11, v2\n"
                                    "   fadd v10, v10, v11\n"
                                    "   bar\n"
                                    "   iadd u3, u3, #1\n"
                                    "   icmp.lt_u u4, u3, u2\n"
                                    "   bra_u _, u4 @h\n"
                                    "imad v3, u8, u9, v0\n"
                                    "shl v3, v3, #2\n"
                                    "zext64 v4, v3\n"
                                    "iadd64 v4, v4, u0\n"
                                    "stg.b32 _, v4, v10\n"
                                    "exit\n", w);
   struct eut_launch l = {.program = prog, .grid = {groups}, .size = {cta},
                          .shared_bytes = 4 * cta, .root = eut_root(&t, root, 2),
                          .flags = HW_LAUNCH_USES_BARRIER};
   struct best gpu = best_launch(&t, &l);
   float *ref = malloc(4ull * cta * groups);
   struct best c = best_ref(REF_BARRIER, ref, NULL, groups, iters, cta, 1);
   bool agree = same_floats(eut_ptr(&t, out), ref, (uint64_t)cta * groups, "barrier");
   report("barrier", w, 3.0 * cta * groups * iters, gpu, c, agree, "op");
   free(ref);
   eut_fini(&t);
}

/* ---- main ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
   opt.reps = 3;
   const uint32_t all[4] = {8, 16, 32, 64};
   memcpy(opt.widths, all, sizeof(all));
   opt.width_count = 4;
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--quick") == 0) {
         opt.quick = true;
      } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
         opt.reps = atoi(argv[++i]);
      } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
         snprintf(opt.only, sizeof(opt.only), "%s", argv[++i]);
      } else if (strcmp(argv[i], "--widths") == 0 && i + 1 < argc) {
         opt.width_count = 0;
         for (char *s = strtok(argv[++i], ","); s && opt.width_count < 4; s = strtok(NULL, ","))
            opt.widths[opt.width_count++] = (uint32_t)atoi(s);
      } else {
         fprintf(stderr, "usage: %s [--quick] [--reps N] [--only arith,stream,stream4,barrier] "
                 "[--widths 8,16,32,64]\n", argv[0]);
         return 2;
      }
   }
   if (opt.reps < 1)
      opt.reps = 1;
   const char *env = getenv("SOFTGPU_THREADS");
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   opt.threads = env && *env ? (uint32_t)atoi(env) : (uint32_t)(cores > 0 ? cores : 1);
   if (opt.threads < 1)
      opt.threads = 1;
   if (opt.threads > 64)
      opt.threads = 64;
   probe_interpreter();
   printf("info threads %u\ninfo cores %ld\ninfo interpreter %s\ninfo quick %d\ninfo reps %d\n",
          opt.threads, cores, interp_variant, opt.quick, opt.reps);
   fprintf(stderr, "bench_eu: %u execution-unit workers and %u C threads (%ld cores), %s "
           "interpreter, best of %d\n", opt.threads, opt.threads, cores, interp_variant, opt.reps);
   for (uint32_t k = 0; k < opt.width_count; k++) {
      uint32_t w = opt.widths[k];
      if (wanted("arith"))
         bench_arith(w);
      if (wanted("stream"))
         bench_stream(w, false);
      if (wanted("stream4"))
         bench_stream(w, true);
      if (wanted("barrier"))
         bench_barrier(w);
   }
   return hwt_finish();
}

#endif
