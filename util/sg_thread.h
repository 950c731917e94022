/*
 * Threads softgpu starts (GPU engines, execution-unit workers, the
 * snapshot monitor) with asynchronous signals blocked.
 */
#ifndef SG_THREAD_H
#define SG_THREAD_H

#include <pthread.h>

/* pthread_create, with every asynchronous signal blocked in the new
 * thread: a process-directed signal (the application's own, or softgpu's
 * SIGUSR1/SIGUSR2) then goes to an application thread, never to a driver
 * thread sleeping in a raw futex system call, where a sanitizer runtime
 * defers the handler until the thread wakes (possibly never). Faults
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS) stay
 * unblocked. Returns pthread_create's result. */
int sg_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
