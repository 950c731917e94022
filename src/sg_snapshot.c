#include "sg_snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sg_device.h"
#include "sg_hang.h"
#include "sg_log.h"
#include "sg_thread.h"

#define MAX_DEVICES 64u
#define REPORT_BYTES 16384u   /* what one log line holds (util/sg_log.c) */

#define CONTROL_BYTES 1024u   /* a log spec is short */

/* The signals softgpu answers, each installed only over the default action. */
enum { SIG_SNAPSHOT, SIG_LOG, SIG_COUNT };
static const struct {
   int number;
   const char *env;   /* "0" turns it off */
   char request;      /* the byte the handler writes */
} signals[SIG_COUNT] = {
   [SIG_SNAPSHOT] = {SIGUSR1, "SOFTGPU_SIGUSR1", 's'},
   [SIG_LOG] = {SIGUSR2, "SOFTGPU_SIGUSR2", 'l'},
};

/* The live devices, and the signal machinery while there are any. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sg_device *devices[MAX_DEVICES];
static uint32_t device_count;
static bool thread_running;
static bool installed[SIG_COUNT];
static struct sigaction previous[SIG_COUNT];
static int pipe_fds[2] = {-1, -1};
static pthread_t monitor;

/* Async-signal-safe: one byte into the pipe; the monitor thread does the rest. */
static void on_signal(int sig)
{
   int saved = errno;
   char c = sig == SIGUSR2 ? signals[SIG_LOG].request : signals[SIG_SNAPSHOT].request;
   ssize_t n = write(pipe_fds[1], &c, 1);
   (void)n;   /* a full pipe already holds a request */
   errno = saved;
}

static void print_all(char *buf)
{
   pthread_mutex_lock(&lock);
   for (uint32_t i = 0; i < device_count; i++) {
      sg_hang_describe_device(devices[i], NULL, buf, REPORT_BYTES);
      sg_log_report(SG_AREA_SYNC, "snapshot (SIGUSR1) of device 0x%llx:\n%s",
                    (unsigned long long)(uintptr_t)devices[i], buf);
   }
   pthread_mutex_unlock(&lock);
}

/* ---- run-time log changes (SIGUSR2, `softgpu log PID SPEC`) ------------------ */

/* Reads the control file at path into spec; false (with a reason) unless it
 * is a regular file of this user that no one else may write: whoever can
 * write it controls what this process logs. */
static bool read_control(const char *path, char *spec, size_t size, const char **why)
{
   int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
   if (fd < 0) {
      *why = errno == ELOOP ? "is a symbolic link" : strerror(errno);
      return false;
   }
   struct stat st;
   bool ok = false;
   if (fstat(fd, &st) != 0)
      *why = strerror(errno);
   else if (!S_ISREG(st.st_mode))
      *why = "is not a regular file";
   else if (st.st_uid != geteuid())
      *why = "belongs to another user";
   else if (st.st_mode & (S_IWGRP | S_IWOTH))
      *why = "is writable by other users";
   else
      ok = true;
   ssize_t n = ok ? read(fd, spec, size - 1) : 0;
   close(fd);
   if (ok && n < 0) {
      *why = strerror(errno);
      return false;
   }
   if (!ok)
      return false;
   spec[n] = '\0';
   spec[strcspn(spec, "\r\n")] = '\0';
   return true;
}

/* The control file of this process: $XDG_RUNTIME_DIR first, then /tmp
 * (tools/softgpu looks up the process's XDG_RUNTIME_DIR the same way). */
static bool find_control(char *path, size_t size)
{
   const char *dirs[] = {getenv("XDG_RUNTIME_DIR"), "/tmp"};
   for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
      if (!dirs[i] || !*dirs[i])
         continue;
      snprintf(path, size, "%s/softgpu-%ld.log", dirs[i], (long)getpid());
      if (access(path, F_OK) == 0 || errno != ENOENT)
         return true;
   }
   return false;
}

/* Applies the spec in the control file: a SOFTGPU_LOG spec, or "env" to
 * read SOFTGPU_LOG again. The change is reported whatever the new
 * selection, since the user asked for it. */
static void apply_log_control(void)
{
   char path[4096], spec[CONTROL_BYTES], before[256], after[256];
   const char *why = NULL;
   if (!find_control(path, sizeof(path))) {
      sg_log_report(SG_AREA_API, "SIGUSR2: no log control file softgpu-%ld.log in "
                    "$XDG_RUNTIME_DIR or /tmp; the log selection is unchanged", (long)getpid());
      return;
   }
   if (!read_control(path, spec, sizeof(spec), &why)) {
      sg_log_report(SG_AREA_API, "SIGUSR2: %s %s: ignored", path, why);
      return;
   }
   unlink(path);   /* consumed: the next request writes a new one */
   sg_log_describe(before, sizeof(before));
   const char *apply = strcmp(spec, "env") == 0 ? getenv("SOFTGPU_LOG") : spec;
   if (!sg_log_set(apply)) {
      sg_log_report(SG_AREA_API, "SIGUSR2: log spec \"%s\" from %s does not parse; expected "
                    "<level>[:<area>,...][;...] with level error|warn|info|debug|none, or env; "
                    "the log selection stays \"%s\"", spec, path, before);
      return;
   }
   sg_log_describe(after, sizeof(after));
   sg_log_report(SG_AREA_API, "log selection changed from \"%s\" to \"%s\" (SIGUSR2, %s)",
                 before, after, path);
}

static void *monitor_main(void *arg)
{
   (void)arg;
   char *buf = malloc(REPORT_BYTES);
   char c;
   for (;;) {
      ssize_t n = read(pipe_fds[0], &c, 1);
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0 || c == 'q')
         break;
      if (c == signals[SIG_LOG].request)
         apply_log_control();
      else if (buf)
         print_all(buf);
   }
   free(buf);
   return NULL;
}

/* Lock held. Installs the handler of signal k unless turned off or the
 * application's own. */
static bool install_signal(int k)
{
   const char *env = getenv(signals[k].env);
   if (env && strcmp(env, "0") == 0)
      return false;
   if (sigaction(signals[k].number, NULL, &previous[k]) != 0 ||
       (previous[k].sa_flags & SA_SIGINFO) || previous[k].sa_handler != SIG_DFL)
      return false;
   struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
   sigemptyset(&sa.sa_mask);
   return sigaction(signals[k].number, &sa, NULL) == 0;
}

static void stop_thread(void)
{
   char q = 'q';
   ssize_t n = write(pipe_fds[1], &q, 1);
   (void)n;
}

static void warn_unavailable(void)
{
   SG_LOG(SG_LOG_WARN, SG_AREA_API, "SIGUSR1 snapshots and SIGUSR2 log changes unavailable: %s",
          strerror(errno));
}

/* Lock held. Starts the softgpu-snap thread and installs the handlers;
 * false (nothing installed) if neither signal is softgpu's to take. */
static bool install(void)
{
   if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
      warn_unavailable();
      return false;
   }
   /* The reader blocks; only the handler's end must never block. */
   fcntl(pipe_fds[0], F_SETFL, fcntl(pipe_fds[0], F_GETFL) & ~O_NONBLOCK);
   if (sg_thread_create(&monitor, monitor_main, NULL) != 0) {
      warn_unavailable();
      goto close_pipe;
   }
   pthread_setname_np(monitor, "softgpu-snap");
   bool any = false;
   for (int k = 0; k < SIG_COUNT; k++) {
      installed[k] = install_signal(k);
      any |= installed[k];
   }
   if (any)
      return true;
   stop_thread();
   pthread_join(monitor, NULL);
close_pipe:
   close(pipe_fds[0]);
   close(pipe_fds[1]);
   pipe_fds[0] = pipe_fds[1] = -1;
   return false;
}

/* Lock held by the caller, who drops it before joining (print_all takes it). */
static void uninstall_signals(void)
{
   for (int k = 0; k < SIG_COUNT; k++) {
      if (installed[k])
         sigaction(signals[k].number, &previous[k], NULL);
      installed[k] = false;
   }
   stop_thread();
}

void sg_snapshot_register(struct sg_device *dev)
{
   pthread_mutex_lock(&lock);
   if (device_count == MAX_DEVICES) {
      pthread_mutex_unlock(&lock);
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "more than %u devices: SIGUSR1 snapshots leave out the "
             "newer ones", MAX_DEVICES);
      return;
   }
   devices[device_count++] = dev;
   if (device_count == 1)
      thread_running = install();
   pthread_mutex_unlock(&lock);
}

void sg_snapshot_unregister(struct sg_device *dev)
{
   pthread_mutex_lock(&lock);
   uint32_t i = 0;
   while (i < device_count && devices[i] != dev)
      i++;
   if (i == device_count) {
      pthread_mutex_unlock(&lock);
      return;
   }
   devices[i] = devices[--device_count];
   bool stop = device_count == 0 && thread_running;
   if (stop) {
      uninstall_signals();
      thread_running = false;
   }
   pthread_mutex_unlock(&lock);
   if (stop) {
      /* The monitor must be gone before the library can be unloaded. */
      pthread_join(monitor, NULL);
      close(pipe_fds[0]);
      close(pipe_fds[1]);
      pipe_fds[0] = pipe_fds[1] = -1;
   }
}
