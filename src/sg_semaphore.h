#ifndef SG_SEMAPHORE_H
#define SG_SEMAPHORE_H

#include <stdatomic.h>
#include <stdbool.h>

#include "sg_object.h"

/* Binary and timeline semaphores alike are a 64-bit semaphore word in GPU
 * memory. A timeline's word is its value. A binary semaphore's signal
 * operations each take the next value (assigned in submission order), and
 * a wait waits for the value of the last signal submitted before it. */
struct sg_semaphore {
   struct sg_object base;
   bool timeline;
   uint64_t va;
   _Atomic uint64_t *word;
   _Atomic uint64_t last_signal;   /* binary: the last value handed to a signal */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_semaphore, VkSemaphore)

/* Values for binary semaphore operations, at submission. */
static inline uint64_t sg_semaphore_next_signal(struct sg_semaphore *s)
{
   return atomic_fetch_add_explicit(&s->last_signal, 1, memory_order_relaxed) + 1;
}
static inline uint64_t sg_semaphore_wait_value(struct sg_semaphore *s)
{
   return atomic_load_explicit(&s->last_signal, memory_order_relaxed);
}

#endif
