#ifndef SG_EVENT_H
#define SG_EVENT_H

#include <stdatomic.h>

#include "sg_object.h"

/* VkEvent: a semaphore word in GPU memory, 1 when set and 0 when reset. */
struct sg_event {
   struct sg_object base;
   uint64_t va;
   _Atomic uint64_t *word;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_event, VkEvent)

#endif
