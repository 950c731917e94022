/* Atomics helpers shared by every layer. */
#ifndef SG_ATOMIC_H
#define SG_ATOMIC_H

#include <stdatomic.h>

#include "sg_sanitize.h"

/*
 * A sequentially consistent fence. ThreadSanitizer does not model
 * atomic_thread_fence (and GCC refuses it under -fsanitize=thread), so in
 * TSan builds the fence is a seq_cst read-modify-write of one shared word:
 * every fence then synchronizes with the previous one, which is at least
 * as strong.
 */
#if SG_TSAN
extern _Atomic unsigned sg_fence_word;
static inline void sg_fence_seq_cst(void)
{
   atomic_fetch_add_explicit(&sg_fence_word, 0, memory_order_seq_cst);
}
#else
static inline void sg_fence_seq_cst(void)
{
   atomic_thread_fence(memory_order_seq_cst);
}
#endif

#endif
