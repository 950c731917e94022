/*
 * test_eu_workers: where the execution-unit workers run.
 *
 * Pins down (each worker found by its thread name, softgpu-eu<gpu>.<i>, in
 * /proc/self/task, its CPUs read with sched_getaffinity, after launches
 * that wake them: a worker moves to its CPU when it first wakes or finds
 * a launch, not while the device is being created):
 * - one worker per CPU the process may use, pin_workers set: each worker is
 *   allowed exactly one CPU, of the process's, and no two the same one;
 * - pin_workers clear, or one worker more than there are CPUs: every worker
 *   is allowed every CPU the process is;
 * - a process (its creating thread) restricted to one CPU, one worker: that
 *   worker is pinned to that CPU, not to CPU 0;
 * and with the workers pinned, a launch of 4096 CTAs of 64 still runs
 * every invocation once (each adds 1 to its own word: a CTA run twice or
 * never shows), back to back with launches of 3 and 300 CTAs.
 */
#include <dirent.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "eut.h"

#define MAX_WORKERS 64

static void check_launches(struct eut *t, const char *what);

/* The CPU sets of the live workers, by worker index; their count. Waits up
 * to 2 s for `count` of them to have started and, when `pinned`, to have
 * moved to their CPU (each moves when it first wakes or finds a launch: a
 * worker that started late, after the CTAs were all taken, moves at one
 * of the launches run here meanwhile). */
static uint32_t worker_sets(struct eut *t, cpu_set_t *sets, uint32_t count, bool pinned)
{
   for (int tries = 0; tries < 200; tries++) {
      uint32_t found = 0, single = 0;
      DIR *d = opendir("/proc/self/task");
      HWT_REQUIRE(d != NULL, "cannot list /proc/self/task");
      struct dirent *e;
      while ((e = readdir(d)) != NULL) {
         char path[300], name[32] = "";
         snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
         FILE *f = fopen(path, "r");
         if (!f)
            continue;
         bool named = fgets(name, sizeof(name), f) != NULL;
         fclose(f);
         unsigned gpu, index;
         if (!named || sscanf(name, "softgpu-eu%u.%u", &gpu, &index) != 2 ||
             index >= MAX_WORKERS)
            continue;
         HWT_REQUIRE(sched_getaffinity((pid_t)atoi(e->d_name), sizeof(sets[index]),
                                       &sets[index]) == 0,
                     "sched_getaffinity of worker %u", index);
         found++;
         single += CPU_COUNT(&sets[index]) == 1;
      }
      closedir(d);
      if (found == count && (!pinned || single == count))
         return found;
      if (pinned && tries < 20)   /* 1.1 MiB of the arena each */
         check_launches(t, "launches waking the workers");
      usleep(10000);
   }
   return 0;
}

static const char *const counter =
   ".warp 32\n"
   EUT_GLOBAL_WORD
   "ldg.b32 v6, v4\n"
   "iadd v6, v6, #1\n"
   "stg.b32 _, v4, v6\n"
   "exit\n";

/* Launches of `groups` CTAs of 64 adding 1 to every invocation's word. */
static void check_launches(struct eut *t, const char *what)
{
   static const uint32_t groups[3] = {3, 4096, 300};
   uint64_t prog = eut_program(t, counter);
   uint64_t out[3];
   struct hwt_pb pb;
   eut_begin(t, &pb);
   for (int k = 0; k < 3; k++) {
      out[k] = eut_alloc(t, 4ull * groups[k] * 64, 64);
      struct eut_launch l = {.program = prog, .grid = {groups[k]}, .size = {64},
                             .root = eut_root(t, &out[k], 1)};
      pb.p = hw_emit_launch(pb.p, eut_desc(t, &l));
   }
   eut_submit_ok(t, &pb, what);
   for (int k = 0; k < 3; k++) {
      const uint32_t *o = eut_ptr(t, out[k]);
      uint32_t bad = 0;
      for (uint32_t i = 0; i < groups[k] * 64; i++)
         bad += o[i] != 1;
      HWT_CHECK(bad == 0, "%s: %u of the %u invocations of a launch of %u CTAs ran other than "
                "once", what, bad, groups[k] * 64, groups[k]);
   }
}

/* A GPU with `threads` workers, pinned where pin_workers allows it. */
static void start(struct eut *t, uint32_t threads, bool pin)
{
   struct hw_gpu_config cfg;
   eut_config(&cfg);
   cfg.eu_threads = threads;
   cfg.pin_workers = pin;
   eut_init(t, &cfg);
}

static void test_pinned(void)
{
   cpu_set_t mine;
   HWT_REQUIRE(sched_getaffinity(0, sizeof(mine), &mine) == 0, "sched_getaffinity");
   uint32_t cpus = (uint32_t)CPU_COUNT(&mine);
   if (cpus > MAX_WORKERS) {
      fprintf(stderr, "skipped: %u CPUs\n", cpus);
      return;
   }
   struct eut t;
   start(&t, cpus, true);
   check_launches(&t, "pinned workers");
   cpu_set_t sets[MAX_WORKERS], seen;
   HWT_CHECK(worker_sets(&t, sets, cpus, true) == cpus, "%u workers pinned to one CPU each", cpus);
   CPU_ZERO(&seen);
   for (uint32_t i = 0; i < cpus; i++) {
      cpu_set_t both;
      CPU_AND(&both, &sets[i], &mine);
      HWT_CHECK(CPU_COUNT(&sets[i]) == 1 && CPU_EQUAL(&both, &sets[i]),
                "worker %u: allowed %d CPUs, or one the process may not use", i,
                CPU_COUNT(&sets[i]));
      CPU_AND(&both, &sets[i], &seen);
      HWT_CHECK(CPU_COUNT(&both) == 0, "worker %u shares its CPU with an earlier one", i);
      CPU_OR(&seen, &seen, &sets[i]);
   }
   eut_fini(&t);
}

static void expect_unpinned(uint32_t threads, bool pin, const char *what)
{
   cpu_set_t mine;
   HWT_REQUIRE(sched_getaffinity(0, sizeof(mine), &mine) == 0, "sched_getaffinity");
   if (threads > MAX_WORKERS)
      return;
   struct eut t;
   start(&t, threads, pin);
   check_launches(&t, what);
   cpu_set_t sets[MAX_WORKERS];
   HWT_CHECK(worker_sets(&t, sets, threads, false) == threads, "%s: %u workers", what, threads);
   for (uint32_t i = 0; i < threads; i++)
      HWT_CHECK(CPU_EQUAL(&sets[i], &mine), "%s: worker %u allowed %d CPUs, the process %d",
                what, i, CPU_COUNT(&sets[i]), CPU_COUNT(&mine));
   eut_fini(&t);
}

static void test_unpinned(void)
{
   cpu_set_t mine;
   HWT_REQUIRE(sched_getaffinity(0, sizeof(mine), &mine) == 0, "sched_getaffinity");
   uint32_t cpus = (uint32_t)CPU_COUNT(&mine);
   expect_unpinned(cpus, false, "pin_workers clear");
   expect_unpinned(cpus + 1, true, "more workers than CPUs");
}

static void test_one_cpu(void)
{
   cpu_set_t mine, one;
   HWT_REQUIRE(sched_getaffinity(0, sizeof(mine), &mine) == 0, "sched_getaffinity");
   int last = -1;
   for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
      last = CPU_ISSET(cpu, &mine) ? cpu : last;
   CPU_ZERO(&one);
   CPU_SET(last, &one);
   HWT_REQUIRE(sched_setaffinity(0, sizeof(one), &one) == 0, "sched_setaffinity");
   struct eut t;
   start(&t, 1, true);
   /* Back to all CPUs first: the worker must keep to its own. */
   HWT_REQUIRE(sched_setaffinity(0, sizeof(mine), &mine) == 0, "sched_setaffinity");
   check_launches(&t, "one CPU");
   cpu_set_t sets[1];
   HWT_CHECK(worker_sets(&t, sets, 1, true) == 1, "one worker, pinned");
   HWT_CHECK(CPU_EQUAL(&sets[0], &one), "the worker is not on CPU %d, the only one allowed "
             "when it started", last);
   eut_fini(&t);
}

int main(void)
{
   HWT_RUN(test_pinned);
   HWT_RUN(test_unpinned);
   HWT_RUN(test_one_cpu);
   return hwt_finish();
}
