/*
 * Logging changed while the process runs, and the slow-path warnings.
 *
 * Pins down:
 * - `tools/softgpu log PID debug:sync` (control file + SIGUSR2) makes this
 *   process report the change ("log selection changed from
 *   \"warn;info:shader\" to \"warn;info:shader;debug:sync\"") and log the
 *   GPU's releases at debug level from then on, with a timestamp and thread
 *   id; `softgpu log PID none` stops them; a spec that does not parse
 *   changes nothing and says so; "env" reads SOFTGPU_LOG again.
 * - A control file that others may write is refused, and left alone.
 * - `softgpu log` refuses a process that does not catch SIGUSR2 (which
 *   would kill it), and the process lives on.
 * - SOFTGPU_LOG is read again at vkCreateDevice when it changed.
 * - SOFTGPU_SLOW_US=1 with no spinning: the engine sleeps, so a doorbell
 *   waits more than 1 us for its fetch and warns (area cp); and
 *   SOFTGPU_SLOW_WAIT_MS=1: a 50 ms fence wait warns, naming the call and
 *   the fence; both rate-limited to one message per second.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sgt_sync.h"

#define MS 1000000ull

static void expect(const char *text, const char *want)
{
   SGT_CHECK(strstr(text, want) != NULL, "stderr lacks \"%s\"", want);
}

static int softgpu_log(const char *spec)
{
   char cmd[512];
   snprintf(cmd, sizeof(cmd), "%s/tools/softgpu log %d '%s'", SGT_SOURCE_DIR, (int)getpid(),
            spec);
   return system(cmd);
}

/* Runs `softgpu log` and waits for this process's answer on stderr. */
static char *change_log(const char *spec, const char *answer)
{
   sgt_stderr_begin();
   int rc = softgpu_log(spec);
   const char *const needles[] = {answer, NULL};
   bool answered = sgt_stderr_wait(needles, 5000);
   char *text = sgt_stderr_end();
   SGT_CHECK(rc == 0, "softgpu log %s exited with %d", spec, rc);
   SGT_CHECK(answered, "no \"%s\" within 5 s of softgpu log %s", answer, spec);
   return text;
}

/* One submission that signals the timeline to value, waited for. */
static char *signal_through_queue(struct sgt_device *d, VkSemaphore sem, uint64_t value)
{
   sgt_stderr_begin();
   struct sgt_sem_op signal = {sem, value, 0};
   struct sgt_batch b = {.signal_count = 1, .signals = &signal};
   VkFence fence = sgt_fence(d, false);
   sgt_submit(false, d->queues[0][0], &b, fence);
   SGT_CHECK_VK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, 5000 * MS));
   vkDestroyFence(d->device, fence, NULL);
   return sgt_stderr_end();
}

static void test_runtime_changes(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   VkSemaphore sem = sgt_timeline(&d, 0);

   char *text = signal_through_queue(&d, sem, 1);
   SGT_CHECK(!strstr(text, "softgpu: debug:"), "debug lines before any change");
   free(text);

   text = change_log("debug:sync", "log selection changed from \"warn;info:shader\" to "
                                   "\"warn;info:shader;debug:sync\"");
   free(text);
   text = signal_through_queue(&d, sem, 2);
   expect(text, "softgpu: debug: sync: channel 0: released 0x");
   expect(text, " = 2 at ");
   expect(text, "softgpu: debug: sync: queue 0.0: submission 2 signals word 0x");
   expect(text, "softgpu: debug: sync: vkWaitForFences: waited ");
   SGT_CHECK(text[0] == '[', "a debug line starts with its timestamp: %.60s", text);
   SGT_CHECK(!strstr(text, "softgpu: debug: ring:"), "debug:sync selected the ring area too");
   free(text);

   /* Not a spec: reported, nothing changes. */
   text = change_log("loud", "does not parse");
   expect(text, "the log selection stays \"warn;info:shader;debug:sync\"");
   free(text);

   text = change_log("none", "to \"none\"");
   free(text);
   text = signal_through_queue(&d, sem, 3);
   SGT_CHECK(!strstr(text, "softgpu:"), "lines logged with the selection \"none\"");
   free(text);

   /* "env": SOFTGPU_LOG again (the application changed it meanwhile). */
   setenv("SOFTGPU_LOG", "error;debug:ring", 1);
   text = change_log("env", "to \"error;debug:ring\"");
   free(text);

   /* A control file someone else could have written is not obeyed. */
   char path[128];
   snprintf(path, sizeof(path), "/tmp/softgpu-%d.log", (int)getpid());
   FILE *f = fopen(path, "w");
   SGT_REQUIRE(f, "creating %s", path);
   fputs("debug\n", f);
   fclose(f);
   SGT_REQUIRE(chmod(path, 0622) == 0, "chmod");
   sgt_stderr_begin();
   SGT_REQUIRE(raise(SIGUSR2) == 0, "raise");
   const char *const refused[] = {"is writable by other users: ignored", NULL};
   bool answered = sgt_stderr_wait(refused, 5000);
   text = sgt_stderr_end();
   SGT_CHECK(answered, "a group-writable control file was not refused");
   SGT_CHECK(access(path, F_OK) == 0, "a refused control file was removed");
   unlink(path);
   free(text);

   /* vkCreateDevice reads SOFTGPU_LOG again (on the same instance: the
    * loader may unload the driver with the last instance). */
   setenv("SOFTGPU_LOG", "info", 1);
   struct sgt_device second;
   sgt_stderr_begin();
   sgt_device_create_on(&second, d.instance, sgt_physical_device(d.instance));
   text = sgt_stderr_end();
   expect(text, "SOFTGPU_LOG changed: the log selection is now \"info\"");
   free(text);
   sgt_device_destroy_on(&second);
   setenv("SOFTGPU_LOG", "warn", 1);

   vkDestroySemaphore(d.device, sem, NULL);
   sgt_device_destroy(&d);
}

static void test_refuses_other_processes(void)
{
   /* A process without softgpu's handler: SIGUSR2 would end it. */
   char cmd[512];
   snprintf(cmd, sizeof(cmd), "sleep 30 & pid=$!; %s/tools/softgpu log $pid debug 2>/dev/null; "
            "rc=$?; kill -0 $pid && kill $pid && exit $rc; exit 99", SGT_SOURCE_DIR);
   int status = system(cmd);
   SGT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2,
             "softgpu log on a process that does not catch SIGUSR2: status %d (want exit 2, the "
             "process alive)", status);
}

/* Child: submissions to a sleeping engine (a doorbell that races with the
 * engine's last look at the ring is no sample), then a 50 ms wait on a
 * fence nothing signals. */
static int child_slow(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   VkSemaphore sem = sgt_timeline(&d, 0);
   for (uint64_t i = 1; i <= 5; i++) {
      sgt_sleep_ms(20);
      free(signal_through_queue(&d, sem, i));
   }
   VkFence never = sgt_fence(&d, false);
   VkResult r = vkWaitForFences(d.device, 1, &never, VK_TRUE, 50 * MS);
   vkDestroyFence(d.device, never, NULL);
   vkDestroySemaphore(d.device, sem, NULL);
   sgt_device_destroy(&d);
   return r == VK_TIMEOUT && sgt_finish() == 0 ? 0 : 1;
}

static void test_slow_paths(void)
{
   const char *const env[] = {"SOFTGPU_SLOW_US=1", "SOFTGPU_SLOW_WAIT_MS=1", "SOFTGPU_SPIN_NS=0",
                              "SOFTGPU_LOG=warn", NULL};
   char *err;
   int status = sgt_run_self("slow", env, &err);
   SGT_CHECK(status == 0, "child exited %d:\n%s", status, err);
   expect(err, "softgpu: warn: cp: channel 0: work waited ");
   expect(err, " us between its doorbell and its fetch by the command processor");
   expect(err, "(SOFTGPU_SLOW_US=1)");
   expect(err, "softgpu: warn: sync: vkWaitForFences blocked host thread ");
   expect(err, " on fence 0x");
   expect(err, "(SOFTGPU_SLOW_WAIT_MS=1)");
   free(err);
}

int main(int argc, char **argv)
{
   if (argc > 1 && strcmp(argv[1], "slow") == 0)
      return child_slow();
   /* The control file goes to /tmp, whatever the environment says. */
   unsetenv("XDG_RUNTIME_DIR");
   unsetenv("SOFTGPU_LOG");
   test_runtime_changes();
   test_refuses_other_processes();
   test_slow_paths();
   return sgt_finish();
}
