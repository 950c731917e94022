/*
 * Bit sets as arrays of 64-bit words (register sets of a program, jump
 * targets), shared by the decoder (hw_eu.c) and the native tier
 * (hw_jit.c).
 */
#ifndef HW_BITS_H
#define HW_BITS_H

#include <stdbool.h>
#include <stdint.h>

static inline void hw_bit_set(uint64_t *bits, uint32_t i)
{
   bits[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline bool hw_bit_test(const uint64_t *bits, uint32_t i)
{
   return (bits[i / 64] >> (i % 64)) & 1;
}

#endif
