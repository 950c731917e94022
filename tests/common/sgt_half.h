/*
 * binary16 references for tests (header only: the Vulkan tests and the
 * compiler tests both use it), written from the format's definition
 * (IEEE 754 binary16: 1 sign, 5 exponent bits biased by 15, 10 fraction
 * bits), independently of softgpu's code.
 */
#ifndef SGT_HALF_H
#define SGT_HALF_H

#include <math.h>
#include <stdint.h>

static inline float sgt_half_to_float(uint16_t h)
{
   uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
   float mag;
   if (e == 0x1f)
      mag = m ? NAN : INFINITY;
   else
      mag = e ? ldexpf((float)(m | 0x400u), (int)e - 25) : ldexpf((float)m, -24);
   return (h & 0x8000u) ? -mag : mag;
}

/* Rounded to nearest, ties to even; for finite values below 65520 in
 * magnitude (the tests' values). */
static inline uint16_t sgt_float_to_half(float f)
{
   uint32_t sign = signbit(f) ? 0x8000u : 0;
   float a = fabsf(f);
   if (a == 0)
      return (uint16_t)sign;
   int e;
   (void)frexpf(a, &e);   /* a in [2^(e-1), 2^e) */
   /* the weight of the last bit kept: 11 significant bits, or 2^-24 */
   int unit = e - 11 < -24 ? -24 : e - 11;
   uint32_t bits = (uint32_t)rintf(ldexpf(a, -unit));   /* rintf: ties to even */
   if (unit == -24)
      return (uint16_t)(sign | bits);   /* subnormal, or 0x400 .. 0x7ff: normal */
   if (bits == 0x800u) {   /* rounded up into the next binade */
      bits = 0x400u;
      unit++;
   }
   return (uint16_t)(sign | (uint32_t)(unit + 25) << 10 | (bits & 0x3ffu));
}

#endif
