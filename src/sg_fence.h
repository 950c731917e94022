#ifndef SG_FENCE_H
#define SG_FENCE_H

#include <stdatomic.h>

#include "sg_object.h"

/* A fence is a timeline underneath: a 64-bit semaphore word in GPU memory
 * and the value that means "signaled" now. A signal operation writes that
 * value; a reset moves the target past the word, so the next signal takes
 * the next value. */
struct sg_fence {
   struct sg_object base;
   uint64_t va;
   _Atomic uint64_t *word;
   _Atomic uint64_t target;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_fence, VkFence)

#endif
