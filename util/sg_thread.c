#include "sg_thread.h"

#include <signal.h>

int sg_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
   static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
   sigset_t block, old;
   sigfillset(&block);
   for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
      sigdelset(&block, faults[i]);
   /* the new thread inherits the creator's mask, which is then restored */
   pthread_sigmask(SIG_BLOCK, &block, &old);
   int r = pthread_create(thread, NULL, fn, arg);
   pthread_sigmask(SIG_SETMASK, &old, NULL);
   return r;
}
