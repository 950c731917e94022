/*
 * test_cc_flow: control flow through the compiler. GLSL shaders (nested
 * selections, short-circuit operators with side effects, loops with
 * divergent trip counts, break/continue, switches with fallthrough, early
 * returns) and hand-written SPIR-V for shapes glslc does not produce (phi
 * swaps, separate continue blocks, switches with shared targets, branches
 * straight to a merge, returns inside loops, breaks out of inner loops,
 * OpUnreachable, single-block loops, a switch breaking its loop), and
 * reduced reproducers of bugs found (repro_*). All are map shaders (sct.h)
 * run at every warp width and local size; inputs are random per
 * invocation, so every branch is divergent.
 */
#include "sct.h"

#include <math.h>

#define SENTINEL 0xdeadbeefu

/* ---- flow_if --------------------------------------------------------------------- */

static void flow_if_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1], c = in[2];
   uint32_t r;
   if (a % 3 == 0)
      r = b % 2 == 0 ? 1 : b % 5 == 0 ? 2 : 3;
   else if (a % 3 == 1) {
      r = (c & 1) ? 4 : 5;
      if (c % 7 == 0) {
         r += 10;
         if (b < a)
            r += 100;
      }
   } else {
      r = 6;
   }
   w[0] = sct_u(r);
   /* touch(k, v) writes out[k] = 2v only when evaluated */
   uint32_t flags = 0;
   w[3] = sct_u(SENTINEL);
   w[4] = sct_u(SENTINEL);
   if (a & 1) {
      w[3] = sct_u(a * 2);
      if (a & 4)
         flags |= 1;
   }
   if (b & 1) {
      flags |= 2;
   } else {
      w[4] = sct_u(b * 2);
      if (b & 4)
         flags |= 2;
   }
   w[1] = sct_u(flags);
   float x = (float)(a % 1000) - 500.0f;
   w[2] = sct_u(x > 0 ? (x > 250 ? 1 : 2) : (x < -250 ? 3 : 4));
   uint32_t v = b > c ? a * 3 : a + 7;
   if (v > 1000)
      v -= 1000;
   w[5] = sct_u(v);
   uint32_t d = 0;
   if (c & 1) {
      d += 1;
      if (c & 2) {
         d += 2;
         if (c & 4) {
            d += 4;
            if (c & 8) {
               d += 8;
               if (c & 16) {
                  d += 16;
                  if (c & 32) {
                     d += 32;
                     d += (c & 64) ? 64 : 2000;
                  }
               } else {
                  d += 1000;
               }
            }
         } else {
            d += 500;
         }
      }
   } else if (c & 2) {
      d = 300;
   }
   w[6] = sct_u(d);
   w[7] = sct_u(a > b ? a : b);
}

/* ---- flow_loops ------------------------------------------------------------------ */

static void flow_loops_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1], c = in[2];
   uint32_t n = a % 37, s = 0;
   for (uint32_t j = 0; j < n; j++)
      s += (j * j) ^ b;
   w[0] = sct_u(s);
   uint32_t t = 0;
   for (uint32_t j = 0; j < 64; j++) {
      if ((j & 3) == (b & 3))
         continue;
      if (j * 3 > c % 150)
         break;
      t += j;
   }
   w[1] = sct_u(t);
   uint32_t x = a % 1000 + 1, steps = 0;
   while (x != 1) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      steps++;
   }
   w[2] = sct_u(steps);
   uint32_t y = b % 10, dw = 0;
   do {
      dw = dw * 3 + y;
   } while (y-- > 0);
   w[3] = sct_u(dw);
   uint32_t found = 0;
   for (uint32_t p = 0; p < 8; p++) {
      for (uint32_t j = 0; j < 8; j++) {
         if ((a >> (p + j)) & 1) {
            found += p * 8 + j;
            break;
         }
         found += 1;
      }
   }
   w[4] = sct_u(found);
   float f = 0;
   int32_t it = -1;
   for (int32_t k = 0; k < 100; k++) {
      f += (float)k * 0.5f;
      if (f > (float)(c % 500)) {
         it = k;
         break;
      }
   }
   w[5] = sct_i(it);
   uint32_t acc = 0;
   for (uint32_t j = 0; j < 10; j++) {
      if ((a + j) % 3 == 0)
         acc += j;
      else if ((a + j) % 3 == 1)
         continue;
      else
         acc ^= j << 4;
      acc += 1;
   }
   w[6] = sct_u(acc);
   uint32_t p = a, q = b, r = 0;
   for (;;) {
      if (p == 0)
         break;
      r += p & 1;
      p >>= 1;
      q = q * 5 + 1;
      if (r > 10)
         break;
   }
   w[7] = sct_u(r);
   w[8] = sct_u(q);
   w[9] = sct_u(p);
}

/* ---- flow_switch ----------------------------------------------------------------- */

static uint32_t classify(uint32_t v)
{
   switch (v % 6) {
   case 0: return 1;
   case 1:
   case 2: return 2;
   case 5:
      if (v & 8)
         return 3;
      break;
   }
   return 4;
}

static void flow_switch_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   uint32_t r = 0;
   switch (a % 10) {
   case 0: r += 1; /* fall through */
   case 1: r += 10; break;
   case 2:
   case 3: r += 100; /* fall through */
   default: r += 1000; /* fall through */
   case 7: r += 10000; break;
   case 8: r = 5; break;
   }
   w[0] = sct_u(r);
   uint32_t acc = 0;
   for (uint32_t j = 0; j < 12; j++) {
      switch ((a + j * b) % 5) {
      case 0: acc += j; break;
      case 1: continue;
      case 2: acc ^= 0x55; /* fall through */
      case 3: acc *= 3; break;
      default: acc += 100;
      }
      acc += 1;
   }
   w[1] = sct_u(acc);
   int32_t si = (int32_t)(b % 7) - 3, v;
   switch (si) {
   case -3: v = 30; break;
   case -1: v = 10; break;
   case 0: v = 0; break;
   case 2: v = -20; break;
   default: v = 99; break;
   }
   w[2] = sct_i(v);
   w[3] = sct_u(7 + (a & 1));
   uint32_t ns = 0;
   switch (a % 3) {
   case 0:
      switch (b % 3) {
      case 0: ns = 1; break;
      case 1: ns = 2; /* fall through */
      default: ns += 3;
      }
      break;
   case 1: ns = 10; break;
   default: ns = 20;
   }
   w[4] = sct_u(ns);
   w[5] = sct_u(classify(a));
}

/* ---- flow_return ----------------------------------------------------------------- */

static void flow_return_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   uint32_t v = a & 0xfff000u, first = 99;
   for (uint32_t j = 0; j < 32; j++) {
      if ((v >> j) & 1) {
         first = j;
         break;
      }
   }
   w[0] = sct_u(first);
   uint32_t d = b >> (b & 31), digits;
   if (d < 10)
      digits = 1;
   else if (d < 100)
      digits = 2;
   else {
      digits = 0;
      while (d > 0) {
         d /= 10;
         digits++;
         if (digits == 7) {
            digits = 77;
            break;
         }
      }
   }
   w[1] = sct_u(digits);
   uint32_t k = a % 25;
   if (k < 20) {
      w[2] = sct_u(k * (k + 1) / 2);
      w[3] = sct_u(1000 + k);
   } else {
      w[2] = sct_u(190);
      w[3] = sct_u(7);
   }
}

/* ---- hand-written SPIR-V --------------------------------------------------------- */

static void divmod_init(uint32_t i, uint32_t *in)
{
   uint32_t x = sct_hash(i * 3 + 1), y = sct_hash(i * 3 + 2);
   int32_t a = (i & 1) ? (int32_t)(x % 2001u) - 1000 : (int32_t)x;
   int32_t b = (i & 2) ? (int32_t)(y % 41u) - 20 : (int32_t)y;
   if (a == INT32_MIN || a == 0)
      a = 77;
   if (b == 0 || b == INT32_MIN)
      b = -9;
   in[0] = (uint32_t)a;
   in[1] = (uint32_t)b;
}

static int32_t smod(int32_t a, int32_t b)
{
   int32_t r = a % b;
   return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static void divmod_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   int32_t a = (int32_t)in[0], b = (int32_t)in[1];
   w[0] = sct_i(a / b);
   w[1] = sct_i(a % b);
   w[2] = sct_i(smod(a, b));
   w[3] = sct_u(in[0] / in[1]);
   w[4] = sct_u(in[0] % in[1]);
   w[5] = sct_u(0u - in[0]);
   w[6] = sct_i(a % -7);
   w[7] = sct_i(smod(a, -7));
   w[8] = sct_i(smod(a, 5));
   w[9] = sct_i(b % a);
}

static const char *const divmod_names[] = {
   "SDiv", "SRem", "SMod", "UDiv", "UMod", "SNegate", "SRem v2 (x,-7)", "SMod v2 (x,-7)",
   "SMod v2 (x,5)", "SRem b,a"};

static void phi_loop_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t x = in[0], y = in[1], s = 0, k = 0, limit = in[0] % 13;
   for (; k < limit; k++) {
      s += x * 3 + y;
      uint32_t nx = y, ny = x + 1;
      x = nx;
      y = ny;
   }
   w[0] = sct_u(x);
   w[1] = sct_u(y);
   w[2] = sct_u(s);
   w[3] = sct_u(k);
}

static void cont_block_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t b = in[1] % 1000, lim = in[0] % 20 + 1, acc = 0, k = 0;
   for (;;) {
      uint32_t acc2 = acc;
      if (!(k & 1)) {
         uint32_t e = acc + k * b;
         if (e > 5000) {
            w[0] = sct_u(e);
            w[1] = sct_u(1);
            break;
         }
         acc2 = e;
      }
      uint32_t c = acc2 ^ (k << 4);
      if (k + 1 >= lim) {
         w[0] = sct_u(c);
         w[1] = sct_u(2);
         break;
      }
      acc = c;
      k++;
   }
   w[2] = sct_u(k);
}

static void switch_shared_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   switch (a % 8) {
   case 0: case 1: w[0] = sct_u(a * 2 + 7); break;
   case 2: case 6: w[0] = sct_u(b + 7); break;
   case 5: w[0] = sct_u(99); break;
   default: w[0] = sct_u(a ^ b); break;
   }
   w[1] = sct_u((b & 3) == 1 || (b & 3) == 3 ? 2 : 1);
}

static void branch_merge_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   uint32_t r1 = a > b ? a : a + 100;
   w[0] = sct_u(r1);
   w[1] = sct_u((b & 1) == 0 ? b * 3 : r1);
}

static void both_merge_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   w[0] = sct_u(a);
   w[1] = sct_u(a ^ b);
   /* do { s += k; } while (++k < a % 7) */
   uint32_t s = 0, k = 0, limit = a % 7;
   do {
      s += k;
   } while (++k < limit);
   w[2] = sct_u(s);
}

static void return_in_loop_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t k = in[0] % 12;
   if (k < 10) {
      w[0] = sct_u(k);
      w[1] = sct_u(k + 1000);
   } else {
      w[0] = sct_u(9);
      w[1] = sct_u(7);
   }
}

static void nested_break_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b7 = in[1] & 7, sum = 0;
   for (uint32_t p = 0; p < 6; p++) {
      uint32_t fj = 8;
      for (uint32_t j = 0; j < 8; j++) {
         if ((a >> (p * 4 + j)) & 1) {
            fj = j;
            break;
         }
         if (j == b7) {
            fj = j + 100;
            break;
         }
      }
      sum += fj * (p + 1);
   }
   w[0] = sct_u(sum);
   w[1] = sct_u(6);
}

static void unreachable_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   switch (a & 3) {
   case 0: w[0] = sct_u(a + 1); break;
   case 1: w[0] = sct_u(a * 2); break;
   case 2: w[0] = sct_u(b); break;
   default: w[0] = sct_u(a ^ b); break;
   }
   w[1] = sct_u(b + 5);
}

/* shaders/switch64.spvasm: the selector's values with a case, and others
 * that share a case's low or high word. */
static void switch64_init(uint32_t i, uint32_t *in)
{
   static const uint64_t picks[] = {0, 5, 1ull << 32, UINT64_MAX, 0x100000005ull,
                                    0xffffffff00000000ull, 0xffffffffull, 0x500000000ull};
   uint64_t v = i % 9 < 8 ? picks[i % 9] : (uint64_t)sct_hash(i) << 32 | sct_hash(i + 1);
   in[0] = (uint32_t)v;
   in[1] = (uint32_t)(v >> 32);
}

static void switch64_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint64_t v = in[0] | (uint64_t)in[1] << 32;
   uint32_t r = 99;
   if (v == 0)
      r = 10;
   else if (v == 5)
      r = 11;
   else if (v == 1ull << 32)
      r = 12;
   else if (v == UINT64_MAX || v == 0xffffffff00000000ull)
      r = 13;
   else if (v == 0x100000005ull)
      r = 14;
   w[0] = sct_u(r);
}

/* shaders/dont_inline.spvasm: a DontInline function, inlined. */
static void dont_inline_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(2 * in[0] + 1);
   w[1] = sct_u(4 * in[0] + 3);
}

/* shaders/unreachable_fn.spvasm: functions with blocks no path reaches. */
static void unreachable_fn_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   w[0] = sct_u(in[0] + 5);
   w[1] = sct_u(3 - (in[0] & 3));
}

/* shaders/switch_wide.comp: a switch of 300 cases. */
static void switch_wide_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0] % 301;
   w[0] = sct_u(a < 300 ? a * 7 + 1 : 5);
}

static void loop_single_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t lim = in[0] % 9 + 1, s = in[1], k = 0;
   do {
      s = s * 3 + k;
      k++;
   } while (k < lim);
   w[0] = sct_u(s);
   w[1] = sct_u(k);
}

static void switch_in_loop_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1], acc = 0, k = 0;
   for (;; k++) {
      uint32_t sel = (a + k * b) % 5;
      if (sel == 2) {
         w[0] = sct_u(acc);
         w[1] = sct_u(1);
         break;
      }
      if (sel == 0)
         acc = acc + k + 100;
      else if (sel != 1)
         acc = acc + 100;
      if (k + 1 >= 10) {
         w[0] = sct_u(acc);
         w[1] = sct_u(2);
         break;
      }
   }
   w[2] = sct_u(k);
}

/* ---- reduced reproducers --------------------------------------------------------- */

static void repro_switch_fallthrough_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t r = 0;
   switch (in[0] % 3) {
   case 0: r = 5; /* fall through */
   case 1: r += 10; break;
   default: r = 1;
   }
   w[0] = sct_u(r);
}

static void repro_return_in_loop_fn_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t v = in[0] & 7;
   w[0] = sct_u(v < 4 ? v * 10 : 99);
}

/* ---- flow_vars: uniform values written by part of the lanes ---------------------- */

static void flow_vars_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   (void)i;
   uint32_t a = in[0], b = in[1];
   w[0] = sct_u((a & 1) ? 7 : 1);
   w[1] = sct_u(b % 3 == 0 ? 10 : b % 3 == 1 ? 20 : 0);
   uint32_t z = 0, q = 0, u = 3;
   for (uint32_t j = 0; j < 8; j++) {
      if ((a >> j) & 1)
         continue;
      z = j;
   }
   w[2] = sct_u(z);
   for (uint32_t j = 0; j < 8; j++) {
      if ((b >> j) & 1)
         break;
      q = 100 + j;
   }
   w[3] = sct_u(q);
   for (uint32_t j = 0; j < 4; j++)
      u = u * 5 + j;
   w[4] = sct_u(u + (a & 1));
   uint32_t c2 = 0, k2 = 0, x = 0;
   for (uint32_t j = 0; j < 6; j++) {
      if (a & 1) {
         if ((b >> j) & 1)
            continue;
         c2 = 50 + j;
      }
      k2 += 2;
   }
   w[5] = sct_u(c2 + k2 * 1000);
   for (uint32_t j = 0; j < 5; j++)
      x += j;
   w[6] = sct_u(x + (a & 3));
}

/* ---- licm: loop-invariant values --------------------------------------------------- */

static void licm_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   (void)i;
   uint32_t a = in[0], b = in[1] % 5, acc = 0, last = 0, sum = 0;
   for (uint32_t j = 0; j < a % 9; j++) {
      uint32_t inv = a * 3 + 7;
      if (b != 0)
         acc += a / b + inv;
      last = inv ^ j;
   }
   w[0] = sct_u(acc);
   w[1] = sct_u(last);
   for (uint32_t r = 0; r < 5; r++) {
      for (uint32_t k = 0; k < 4; k++)
         sum += (r * 11 + b) * (k + 1) + (a >> 3);
   }
   w[2] = sct_u(sum);
   float f = 0;
   for (uint32_t r = 0; r < b + 2; r++)
      f += (float)(a & 255) * 0.5f + (float)r;
   w[3] = sct_fx(f);
   uint32_t q = 0;
   for (uint32_t r = 0; r < a % 7; r++)
      q += r;
   w[4] = sct_u(q);
}

/* ---- temporal: values carried out of loops with divergent exits ------------------- */

static void temporal_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   (void)i;
   uint32_t a = in[0], b = in[1];
   uint32_t lim = a % 23, k = 0, last = 0, acc = 0;
   for (;;) {
      uint32_t u = k * 7 + 3;
      acc += u ^ b;
      last = u;
      if (k >= lim)
         break;
      k++;
   }
   w[0] = sct_u(acc);
   w[1] = sct_u(last);
   w[2] = sct_u(k);
   uint32_t m = 0;
   for (uint32_t j = 0; j < 40; j++) {
      uint32_t x = j * j + 5;
      if (x > b % 1600) {
         m = x;
         break;
      }
   }
   w[3] = sct_u(m);
   uint32_t total = 0;
   for (uint32_t r = 0; r < 4; r++) {
      uint32_t inner = 0;
      while (inner * (r + 1) < (a >> (r * 4)) % 13)
         inner++;
      total += inner * (r + 2) + r;
   }
   w[4] = sct_u(total);
   float flim = (a & 3) == 0 ? NAN : (float)(a % 7), f = 0;
   uint32_t n1 = 0, n2 = 0;
   while (f < flim) {
      f += 1;
      n1++;
   }
   w[5] = sct_u(n1);
   f = 0;
   while (!(f >= flim) && n2 < 20) {
      f += 1;
      n2++;
   }
   w[6] = sct_u(n2);
}

/* ---- uniform_loops ---------------------------------------------------------------- */

static void uniform_loops_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   uint32_t a = in[0], b = in[1];
   uint32_t s = 0;
   for (uint32_t j = 0; j < 20; j++) {
      if ((a >> j) & 1)
         s += j * b;
      else
         s ^= j;
   }
   w[0] = sct_u(s);
   uint32_t found = 0;
   for (uint32_t p = 0; p < 17; p++) {
      for (uint32_t j = 0; j < 9; j++) {
         if (((b >> ((p + j) & 31)) & 3) == 3)
            break;
         found += p + j;
      }
      found *= 3;
   }
   w[1] = sct_u(found);
   uint32_t t = 0;
   for (uint32_t p = 0; p < 18; p++) {
      for (uint32_t k = 0; k < 17; k++)
         t = t * 7 + ((a >> ((p * 5 + k) & 31)) & 1);
   }
   w[2] = sct_u(t);
   uint32_t d = a, n = 0;
   do {
      d = d * 1664525u + 1013904223u;
      n++;
   } while (n < 19);
   w[3] = sct_u(d);
   w[4] = sct_u(a * 3 + i);
   uint32_t q = 0;
   for (uint32_t k = 0; k < a % 13; k++)
      q += k ^ b;
   w[5] = sct_u(q);
   uint32_t r = 0;
   for (uint32_t k = 0; k < 100; k++) {
      if (k * k > 50)
         break;
      r += k * (b & 15);
   }
   w[6] = sct_u(r);
}

/* ---- unroll ------------------------------------------------------------------------- */

static void unroll_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   (void)i;
   uint32_t a = in[0], b = in[1];
   uint32_t s = 0;
   for (uint32_t k = 0; k < 16; k++)
      s = s * 3 + ((a >> k) & 1);
   w[0] = sct_u(s);
   int32_t d = 0;
   for (int32_t k = 5; k >= -3; k -= 2)
      d = (int32_t)((uint32_t)d * 5u + (uint32_t)(k * (int32_t)(b & 7)));
   w[1] = sct_i(d);
   uint32_t h = 0;
   for (uint32_t k = 128; k > 0; k >>= 1) {
      if (a & k)
         h += k * 3;
      else
         h ^= b;
   }
   w[2] = sct_u(h);
   uint32_t n = 0;
   for (uint32_t p = 0; p != 12; p += 3) {
      for (uint32_t j = 1; j <= 3; j++)
         n = n * 7 + ((a + p) % (j + 1));
   }
   w[3] = sct_u(n);
   uint32_t arr[4], x = 0;
   for (uint32_t k = 0; k < 4; k++)
      arr[k] = a ^ (k * b);
   for (uint32_t k = 0; k < 4; k++)
      x += arr[3 - k] << k;
   w[4] = sct_u(x);
   uint32_t r = 0;
   for (uint32_t k = 0; k < 8; k++) {
      if (((a >> k) & 3) == 3)
         break;
      r += k;
   }
   w[5] = sct_u(r);
   uint32_t m = 0;
   for (uint32_t k = 0; k < 17; k++)
      m += (b >> k) & 1;
   w[6] = sct_u(m);
   uint32_t v = 0;
   for (uint32_t k = 0; k < 10; k++) {
      v += k;
      k += b & 1;
   }
   w[7] = sct_u(v);
}

/* ---- s2r_branch ------------------------------------------------------------------ */

/* Runs of 128 invocations with the same parity: whole warps skip the
 * branch, whatever W and L. */
static void s2r_branch_init(uint32_t i, uint32_t *in)
{
   in[0] = (i / 128u) & 1u;
}

static void s2r_branch_ref(const uint32_t *in, uint32_t i, struct sct_want *w)
{
   (void)i;
   w[0] = sct_u((in[0] & 1u) ? 5u : 7u);   /* a 1-D grid: the y index is 0 */
   w[1] = sct_u(3u);
}

static const struct sct_map maps[] = {
   SCT_MAP("flow_if", 3, 8, NULL, flow_if_ref, NULL),
   SCT_MAP("flow_loops", 3, 10, NULL, flow_loops_ref, NULL),
   SCT_MAP("flow_switch", 2, 6, NULL, flow_switch_ref, NULL),
   SCT_MAP("flow_return", 2, 4, NULL, flow_return_ref, NULL),
   SCT_MAP("divmod", 2, 10, divmod_init, divmod_ref, divmod_names),
   SCT_MAP("phi_loop", 2, 4, NULL, phi_loop_ref, NULL),
   SCT_MAP("cont_block", 2, 3, NULL, cont_block_ref, NULL),
   SCT_MAP("switch_shared", 2, 2, NULL, switch_shared_ref, NULL),
   SCT_MAP("branch_merge", 2, 2, NULL, branch_merge_ref, NULL),
   SCT_MAP("both_merge", 2, 3, NULL, both_merge_ref, NULL),
   SCT_MAP("return_in_loop", 2, 2, NULL, return_in_loop_ref, NULL),
   SCT_MAP("nested_break", 2, 2, NULL, nested_break_ref, NULL),
   SCT_MAP("unreachable", 2, 2, NULL, unreachable_ref, NULL),
   SCT_MAP("loop_single", 2, 2, NULL, loop_single_ref, NULL),
   SCT_MAP("switch64", 2, 1, switch64_init, switch64_ref, NULL),
   SCT_MAP("dont_inline", 1, 2, NULL, dont_inline_ref, NULL),
   SCT_MAP("unreachable_fn", 1, 2, NULL, unreachable_fn_ref, NULL),
   SCT_MAP("switch_wide", 1, 1, NULL, switch_wide_ref, NULL),
   SCT_MAP("switch_in_loop", 2, 3, NULL, switch_in_loop_ref, NULL),
   SCT_MAP("temporal", 2, 7, NULL, temporal_ref, NULL),
   SCT_MAP("flow_vars", 2, 7, NULL, flow_vars_ref, NULL),
   SCT_MAP("licm", 2, 5, NULL, licm_ref, NULL),
   SCT_MAP("uniform_loops", 2, 7, NULL, uniform_loops_ref, NULL),
   SCT_MAP("unroll", 2, 8, NULL, unroll_ref, NULL),
   SCT_MAP("repro_switch_fallthrough", 1, 1, NULL, repro_switch_fallthrough_ref, NULL),
   SCT_MAP("repro_return_in_loop_fn", 1, 1, NULL, repro_return_in_loop_fn_ref, NULL),
   SCT_MAP("s2r_branch", 1, 2, s2r_branch_init, s2r_branch_ref, NULL),
};

/*
 * The code's shape (the map runs above check the results):
 * - uniform_loops: of its nine loops, the six that every lane leaves
 *   together run on uniform branches (JMP back); the three others keep
 *   their mask stack entry (LOOP): a divergent exit, a break under an if,
 *   and the inner loop with a divergent break. None of those continues,
 *   so none keeps a CONTJOIN. Of its five ifs only one has an else side
 *   to run (ELSE).
 * - flow_loops: of its loops on the mask stack, the two with a continue
 *   keep their CONTJOIN.
 * - unroll: its first five loops (six with the inner one) are unrolled,
 *   no loop code is left of them; 17 iterations make a uniform loop, and
 *   a break under an if and a counter the body writes (with a per-lane
 *   value) keep LOOP.
 */
static void check_shapes(void)
{
   static const struct {
      const char *shader;
      uint16_t op;
      uint32_t want;
   } shapes[] = {
      {"uniform_loops", ISA_OP_LOOP, 3}, {"uniform_loops", ISA_OP_JMP, 6},
      {"uniform_loops", ISA_OP_CONTJOIN, 0}, {"uniform_loops", ISA_OP_IF, 5},
      {"uniform_loops", ISA_OP_ELSE, 1},  {"flow_loops", ISA_OP_CONTJOIN, 2},
      {"unroll", ISA_OP_LOOP, 2},        {"unroll", ISA_OP_JMP, 1},
   };
   for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
      struct sc_program p;
      if (!sct_compile_shape(shapes[i].shader, &p))
         continue;
      uint32_t n = sct_count_op(&p, shapes[i].op, -1);
      HWT_CHECK(n == shapes[i].want, "%s: %u %s, expected %u", shapes[i].shader, n,
                isa_op_info[shapes[i].op].name, shapes[i].want);
      sc_program_free(&p);
   }
   /* s2r_branch: every special-register read is shared from the
    * program's start, before any control flow */
   struct sc_program p;
   if (sct_compile_shape("s2r_branch", &p)) {
      const struct isa_program_header *h = p.image;
      const struct isa_inst *code = (const void *)(h + 1);
      bool flow = false, late = false;
      for (uint32_t i = 0; i < h->inst_count; i++) {
         flow |= isa_op_info[code[i].op].cls == ISA_CLASS_FLOW;
         late |= flow && code[i].op == ISA_OP_S2R;
      }
      HWT_CHECK(!late, "s2r_branch: a special register is read after control flow began");
      sc_program_free(&p);
   }
   fprintf(stderr, "  %-24s %s\n", "code shapes", "checked");
}

int main(int argc, char **argv)
{
   struct sct s;
   sct_init(&s);
   for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
      if (argc > 1 && strcmp(argv[1], maps[i].shader) != 0)
         continue;
      sct_map_matrix(&s, &maps[i]);
   }
   if (argc == 1 || strcmp(argv[1], "shapes") == 0)
      check_shapes();
   sct_fini(&s);
   return hwt_finish();
}
