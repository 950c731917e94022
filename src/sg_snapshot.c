#include "sg_snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sg_device.h"
#include "sg_hang.h"
#include "sg_log.h"

#define MAX_DEVICES 64u
#define REPORT_BYTES 16384u   /* what one log line holds (util/sg_log.c) */

/* The live devices, and the signal machinery while there are any. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sg_device *devices[MAX_DEVICES];
static uint32_t device_count;
static bool installed;
static struct sigaction previous;
static int pipe_fds[2] = {-1, -1};
static pthread_t monitor;

/* Async-signal-safe: one byte into the pipe; the monitor thread does the rest. */
static void on_sigusr1(int sig)
{
   (void)sig;
   int saved = errno;
   char c = 's';
   ssize_t n = write(pipe_fds[1], &c, 1);
   (void)n;   /* a full pipe already holds a request */
   errno = saved;
}

static void print_all(char *buf)
{
   pthread_mutex_lock(&lock);
   for (uint32_t i = 0; i < device_count; i++) {
      sg_hang_describe_device(devices[i], buf, REPORT_BYTES);
      sg_log_report(SG_AREA_SYNC, "snapshot (SIGUSR1) of device 0x%llx:\n%s",
                    (unsigned long long)(uintptr_t)devices[i], buf);
   }
   pthread_mutex_unlock(&lock);
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
      if (buf)
         print_all(buf);
   }
   free(buf);
   return NULL;
}

/* Lock held. False (nothing installed) if SIGUSR1 is the application's. */
static bool install(void)
{
   const char *env = getenv("SOFTGPU_SIGUSR1");
   if (env && strcmp(env, "0") == 0)
      return false;
   if (sigaction(SIGUSR1, NULL, &previous) != 0 ||
       (previous.sa_flags & SA_SIGINFO) || previous.sa_handler != SIG_DFL)
      return false;
   if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0)
      goto fail;
   /* The reader blocks; only the handler's end must never block. */
   fcntl(pipe_fds[0], F_SETFL, fcntl(pipe_fds[0], F_GETFL) & ~O_NONBLOCK);
   if (pthread_create(&monitor, NULL, monitor_main, NULL) != 0)
      goto fail_pipe;
   pthread_setname_np(monitor, "softgpu-snap");
   struct sigaction sa = {.sa_handler = on_sigusr1, .sa_flags = SA_RESTART};
   sigemptyset(&sa.sa_mask);
   if (sigaction(SIGUSR1, &sa, NULL) != 0) {
      char q = 'q';
      ssize_t n = write(pipe_fds[1], &q, 1);
      (void)n;
      pthread_join(monitor, NULL);
      goto fail_pipe;
   }
   return true;
fail_pipe:
   close(pipe_fds[0]);
   close(pipe_fds[1]);
   pipe_fds[0] = pipe_fds[1] = -1;
fail:
   SG_LOG(SG_LOG_WARN, SG_AREA_API, "SIGUSR1 snapshots unavailable: %s", strerror(errno));
   return false;
}

/* Lock held by the caller, who drops it before joining (print_all takes it). */
static void uninstall_signal(void)
{
   sigaction(SIGUSR1, &previous, NULL);
   char q = 'q';
   ssize_t n = write(pipe_fds[1], &q, 1);
   (void)n;
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
      installed = install();
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
   bool stop = device_count == 0 && installed;
   if (stop) {
      uninstall_signal();
      installed = false;
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
