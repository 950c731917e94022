/* Small non-cryptographic hashes for identifiers and caches. */
#ifndef SG_HASH_H
#define SG_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64-bit; seed lets one input yield independent words. */
static inline uint64_t sg_hash64(const void *data, size_t size, uint64_t seed)
{
   const uint8_t *p = data;
   uint64_t h = UINT64_C(0xcbf29ce484222325) ^ seed;
   for (size_t i = 0; i < size; i++) {
      h ^= p[i];
      h *= UINT64_C(0x100000001b3);
   }
   return h;
}

#endif
