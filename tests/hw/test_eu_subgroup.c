/*
 * test_eu_subgroup: subgroup operations under partial execution masks, at
 * every warp width, per lane against C.
 *
 * Each instruction runs inside IF mask[i] .. ENDIF in CTAs of 100
 * invocations (3 CTAs; the last warp of a CTA is partial at every W), with
 * per-warp mask patterns: random
 * lanes, a single lane, every lane, alternate lanes, the upper half, and no
 * lane at all (the IF skips the instruction). Pins down:
 * - VOTE.all/any/eq and BALLOT (a 64-bit pair) over the active lanes only;
 * - BCAST from a uniform lane index and from a vector one (the first active
 *   lane's value is the index);
 * - SHFL idx/xor/up/down: a lane reads lane `from`'s register whether that
 *   lane is active or not (lanes past the CTA's end read 0: registers
 *   start at zero), and its own value when `from` is outside the warp;
 * - REDUCE and inclusive/exclusive SCAN for all 13 operations (integer and
 *   float, in lane order from the identity, exact), active lanes only; the
 *   64-bit integer ones and binary64 fadd/fmul/fmin/fmax (ISA_SUBGROUP_64)
 *   on register pairs; binary16 fadd/fmul/fmin/fmax (ISA_SUBGROUP_F16),
 *   each step rounded to binary16, with garbage in the inputs' bits 16-31
 *   and zeros in the result's; a NaN loses in min and max of both;
 * - clustered REDUCE and SCAN (.clusterN) at every cluster size 1..64 and
 *   every warp width (a cluster of W lanes or more is the warp): each lane
 *   over the active lanes of its aligned cluster only, on 32-bit integers
 *   and floats, pairs and binary16, into vector and uniform destinations;
 * - ELECT: 1 in the first active lane only;
 * - uniform destinations (REDUCE.iadd, VOTE.any, ELECT into u16);
 * - inactive lanes keep their destination registers (both halves of
 *   BALLOT's pair).
 */
#include "isa_ref.h"

#define CTA 100u
#define GROUPS 3u
#define N (CTA * GROUPS)
#define SENT_LO 0x5a5a5a5au
#define SENT_HI 0xa5a5a5a5u

enum input_kind { IN_INT, IN_BOOL, IN_EQUALISH, IN_FLOAT, IN_DOUBLE, IN_HALF };

struct sg_case {
   const char *op;         /* the instruction, as text with v16 as destination */
   enum input_kind in;
   uint32_t y_mod;         /* y[i] = random % y_mod (0: full random) */
};

static const char *const red_names[ISA_RED_COUNT] = {
   "iadd", "imul", "imin_s", "imin_u", "imax_s", "imax_u", "and", "or", "xor",
   "fadd", "fmul", "fmin", "fmax"};

static uint32_t red_identity(uint32_t op)
{
   switch (op) {
   case ISA_RED_IMUL: return 1;
   case ISA_RED_IMIN_S: return 0x7fffffffu;
   case ISA_RED_IMIN_U: return UINT32_MAX;
   case ISA_RED_IMAX_S: return 0x80000000u;
   case ISA_RED_AND: return UINT32_MAX;
   case ISA_RED_FADD: return eut_u(0.0f);
   case ISA_RED_FMUL: return eut_u(1.0f);
   case ISA_RED_FMIN: return eut_u(INFINITY);
   case ISA_RED_FMAX: return eut_u(-INFINITY);
   default: return 0;
   }
}

static uint32_t red_apply(uint32_t op, uint32_t x, uint32_t y)
{
   switch (op) {
   case ISA_RED_IADD: return x + y;
   case ISA_RED_IMUL: return x * y;
   case ISA_RED_IMIN_S: return (int32_t)x < (int32_t)y ? x : y;
   case ISA_RED_IMIN_U: return x < y ? x : y;
   case ISA_RED_IMAX_S: return (int32_t)x > (int32_t)y ? x : y;
   case ISA_RED_IMAX_U: return x > y ? x : y;
   case ISA_RED_AND: return x & y;
   case ISA_RED_OR: return x | y;
   case ISA_RED_XOR: return x ^ y;
   case ISA_RED_FADD: return eut_u(eut_f(x) + eut_f(y));
   case ISA_RED_FMUL: return eut_u(eut_f(x) * eut_f(y));
   case ISA_RED_FMIN: return eut_u(fminf(eut_f(x), eut_f(y)));
   case ISA_RED_FMAX: return eut_u(fmaxf(eut_f(x), eut_f(y)));
   default: return x;
   }
}

static double dbl(uint64_t x)
{
   double d;
   memcpy(&d, &x, 8);
   return d;
}

static uint64_t bits64(double d)
{
   uint64_t x;
   memcpy(&x, &d, 8);
   return x;
}

static bool half_nan(uint32_t h)
{
   return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
}

/* min or max where a NaN operand loses. */
static double nminmax(double a, double b, bool max)
{
   if (isnan(a))
      return b;
   if (isnan(b))
      return a;
   return (max ? a > b : a < b) ? a : b;
}

static uint64_t red_identity64(uint32_t op)
{
   switch (op) {
   case ISA_RED_IMUL: return 1;
   case ISA_RED_IMIN_S: return 0x7fffffffffffffffull;
   case ISA_RED_IMIN_U: case ISA_RED_AND: return UINT64_MAX;
   case ISA_RED_IMAX_S: return 0x8000000000000000ull;
   case ISA_RED_FMUL: return bits64(1.0);
   case ISA_RED_FMIN: return bits64(INFINITY);
   case ISA_RED_FMAX: return bits64(-INFINITY);
   default: return 0;
   }
}

/* binary16: the step's exact (or innocuously rounded) double result,
 * rounded once to binary16. */
static uint32_t red_identity16(uint32_t op)
{
   switch (op) {
   case ISA_RED_FMUL: return 0x3c00;
   case ISA_RED_FMIN: return 0x7c00;
   case ISA_RED_FMAX: return 0xfc00;
   default: return 0;
   }
}

static uint32_t red_apply16(uint32_t op, uint32_t x, uint32_t y)
{
   double a = isa_ref_h2d(x), b = isa_ref_h2d(y), r;
   switch (op) {
   case ISA_RED_FADD: r = a + b; break;
   case ISA_RED_FMUL: r = a * b; break;
   case ISA_RED_FMIN: r = nminmax(a, b, false); break;
   default: r = nminmax(a, b, true); break;
   }
   return isa_ref_d2h(r, ISA_RND_RTE);
}

static uint64_t red_apply64(uint32_t op, uint64_t x, uint64_t y)
{
   switch (op) {
   case ISA_RED_FADD: return bits64(dbl(x) + dbl(y));
   case ISA_RED_FMUL: return bits64(dbl(x) * dbl(y));
   case ISA_RED_FMIN: return bits64(nminmax(dbl(x), dbl(y), false));
   case ISA_RED_FMAX: return bits64(nminmax(dbl(x), dbl(y), true));
   case ISA_RED_IADD: return x + y;
   case ISA_RED_IMUL: return x * y;
   case ISA_RED_IMIN_S: return (int64_t)x < (int64_t)y ? x : y;
   case ISA_RED_IMIN_U: return x < y ? x : y;
   case ISA_RED_IMAX_S: return (int64_t)x > (int64_t)y ? x : y;
   case ISA_RED_IMAX_U: return x > y ? x : y;
   case ISA_RED_AND: return x & y;
   case ISA_RED_OR: return x | y;
   case ISA_RED_XOR: return x ^ y;
   default: return x;
   }
}

/* The warp's lanes, as the reference sees them. */
struct warp_view {
   uint32_t w, count;          /* width, live lanes */
   uint64_t exec;
   uint32_t x[64], y[64];      /* registers v10, v12 (0 past the live lanes) */
};

static uint32_t first(uint64_t m)
{
   return (uint32_t)__builtin_ctzll(m);
}

/* The result of op in active lane l (lo, and hi for BALLOT). */
static void reference(const char *op, const struct warp_view *v, uint32_t ub, uint32_t l,
                      uint32_t *lo, uint32_t *hi)
{
   /* v->w is at most 64; the bound says so to gcc, whose -Warray-bounds
    * fails ASan builds otherwise. */
   uint32_t w = v->w < 64 ? v->w : 64;
   uint64_t exec = v->exec;
   *hi = SENT_HI;
   if (strncmp(op, "vote.", 5) == 0) {
      uint64_t bits = 0;
      for (uint32_t k = 0; k < w; k++)
         bits |= (uint64_t)(v->x[k] != 0) << k;
      bits &= exec;
      if (strstr(op, "all"))
         *lo = bits == exec;
      else if (strstr(op, "any"))
         *lo = bits != 0;
      else {
         *lo = 1;
         for (uint64_t m = exec; m; m &= m - 1)
            *lo &= v->x[first(m)] == v->x[first(exec)];
      }
   } else if (strncmp(op, "ballot", 6) == 0) {
      uint64_t bits = 0;
      for (uint32_t k = 0; k < w; k++)
         bits |= (uint64_t)(v->x[k] != 0) << k;
      bits &= exec;
      *lo = (uint32_t)bits;
      *hi = (uint32_t)(bits >> 32);
   } else if (strncmp(op, "bcast", 5) == 0) {
      uint32_t idx = strstr(op, "u20") ? ub : v->y[first(exec)];
      *lo = v->x[idx & (w - 1)];
   } else if (strncmp(op, "shfl.", 5) == 0) {
      uint32_t b = v->y[l], from;
      if (strstr(op, "xor"))
         from = l ^ b;
      else if (strstr(op, "up"))
         from = l - b;
      else if (strstr(op, "down"))
         from = l + b;
      else
         from = b;
      *lo = from < w ? v->x[from] : v->x[l];
   } else if (strstr(op, "reduce.") || strstr(op, "scan.")) {
      /* "reduce.NAME[.excl][.64|.mod512][.f16][.clusterN] dst, v10": on
       * the pair v10:v11 = x:y with .64 (ISA_SUBGROUP_64, also written
       * .mod512); in lane order from the identity over the active lanes
       * of l's aligned cluster (the warp without one, or a larger one). */
      bool scan = strstr(op, "scan.") != NULL;
      const char *name = scan ? strstr(op, "scan.") + 5 : strstr(op, "reduce.") + 7;
      char text[64];
      snprintf(text, sizeof(text), "%.*s", (int)strcspn(name, " "), name);
      bool excl = false, wide = false, half = false;
      uint32_t r = UINT32_MAX, cluster = w;
      for (char *save = NULL, *t = strtok_r(text, ".", &save); t; t = strtok_r(NULL, ".", &save)) {
         if (strcmp(t, "excl") == 0)
            excl = true;
         else if (strcmp(t, "64") == 0 || strcmp(t, "mod512") == 0)
            wide = true;
         else if (strcmp(t, "f16") == 0)
            half = true;
         else if (strncmp(t, "cluster", 7) == 0)
            cluster = (uint32_t)strtoul(t + 7, NULL, 10) < w ? (uint32_t)strtoul(t + 7, NULL, 10)
                                                             : w;
         for (uint32_t k = 0; k < ISA_RED_COUNT; k++)
            r = strcmp(t, red_names[k]) == 0 ? k : r;
      }
      HWT_REQUIRE(r < ISA_RED_COUNT, "no operation in %s", op);
      half = half && !wide && r >= ISA_RED_FADD;
      uint64_t acc = wide ? red_identity64(r) : half ? red_identity16(r) : red_identity(r);
      uint64_t res = acc;
      uint32_t base = l / cluster * cluster;
      for (uint32_t k = base; k < base + cluster; k++) {
         if (!((exec >> k) & 1))
            continue;
         uint64_t x = wide ? v->x[k] | (uint64_t)v->y[k] << 32 : v->x[k];
         uint64_t next = wide ? red_apply64(r, acc, x)
                         : half ? red_apply16(r, (uint32_t)acc, (uint32_t)x)
                                : red_apply(r, (uint32_t)acc, (uint32_t)x);
         if (scan && k == l) {
            res = excl ? acc : next;
            break;
         }
         acc = next;
         res = acc;
      }
      *lo = (uint32_t)res;
      if (wide)
         *hi = (uint32_t)(res >> 32);
   } else if (strncmp(op, "elect", 5) == 0) {
      *lo = l == first(exec);
   } else {
      HWT_REQUIRE(false, "no reference for %s", op);
   }
}

static uint32_t mask_bit(uint32_t pattern, uint32_t l, uint32_t w, uint64_t *rng)
{
   switch (pattern % 6) {
   case 0: return (uint32_t)(eut_rand(rng) & 1);
   case 1: return l == (pattern / 6 * 5 + 3) % w;   /* one lane */
   case 2: return 1;
   case 3: return l & 1;
   case 4: return l >= w / 2;
   default: return 0;
   }
}

static uint32_t gen_x(enum input_kind k, uint64_t *rng, uint32_t warp_value)
{
   uint64_t r = eut_rand(rng);
   switch (k) {
   case IN_BOOL: return r % 3 == 0 ? 0 : (uint32_t)(r >> 32) | 1;
   case IN_EQUALISH: return r % 8 == 0 ? (uint32_t)(r >> 32) : warp_value;
   case IN_FLOAT: return eut_u((float)((int64_t)(r >> 40) % 2001 - 1000) / 64.0f);
   case IN_HALF:   /* odd multiples of 1/64 (no zeros), a NaN now and then; garbage above */
      if (r % 16 == 0)
         return (uint32_t)(r >> 16) | 0x7e01u;
      return (uint32_t)(r >> 48) << 16 |
             isa_ref_d2h((double)(2 * ((int64_t)(r >> 40) % 201) + 1) / 64.0, ISA_RND_RTE);
   default:
      return r % 4 == 0 ? (uint32_t)((int32_t)(r >> 32) % 10) : (uint32_t)(r >> 32);
   }
}

static void run_case(const struct sg_case *c)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t xva = eut_alloc(&t, 4 * N, 64), yva = eut_alloc(&t, 4 * N, 64),
               mva = eut_alloc(&t, 4 * N, 64), out = eut_alloc(&t, 8 * N, 64);
      uint32_t *x = eut_ptr(&t, xva), *y = eut_ptr(&t, yva), *m = eut_ptr(&t, mva);
      uint64_t rng = w * 1000003ull + (uint64_t)strlen(c->op) * 77 + (uint8_t)c->op[0] +
                     ((uint64_t)(uint8_t)c->op[6] << 8);
      uint32_t warps = (CTA + w - 1) / w;
      for (uint32_t g = 0; g < GROUPS; g++) {
         for (uint32_t wp = 0; wp < warps; wp++) {
            uint32_t warp_value = (uint32_t)eut_rand(&rng) | 1;
            for (uint32_t l = 0; l < w && wp * w + l < CTA; l++) {
               uint32_t i = g * CTA + wp * w + l;
               x[i] = gen_x(c->in, &rng, warp_value);
               y[i] = c->y_mod ? (uint32_t)(eut_rand(&rng) % c->y_mod) : (uint32_t)eut_rand(&rng);
               if (c->in == IN_DOUBLE) {   /* x:y, odd multiples of 1/128, NaN now and then */
                  uint64_t r = eut_rand(&rng);
                  double d = r % 16 ? (double)(2 * ((int64_t)(r >> 40) % 2001) + 1) / 128.0
                                    : NAN;
                  x[i] = (uint32_t)bits64(d);
                  y[i] = (uint32_t)(bits64(d) >> 32);
               }
               m[i] = mask_bit(g * warps + wp, l, w, &rng) ? (uint32_t)eut_rand(&rng) | 4u : 0;
            }
         }
      }
      uint32_t ub = (uint32_t)(eut_rand(&rng) % w);
      uint64_t root[5] = {xva, yva, mva, out, ub};
      uint64_t prog = eut_programf(&t,
                                   ".warp %u\n"
                                   "ldr.b64 u0 +0\n"
                                   "ldr.b64 u2 +8\n"
                                   "ldr.b64 u4 +16\n"
                                   "ldr.b64 u6 +24\n"
                                   "ldr.b32 u20 +32\n"
                                   "s2r.local_index v0\n"
                                   "s2r.group_id_x u8\n"
                                   "s2r.group_size_x u9\n"
                                   "imad v1, u8, u9, v0\n"
                                   "shl v2, v1, #2\n"
                                   "zext64 v4, v2\n"
                                   "iadd64 v6, v4, u0\n"
                                   "ldg.b32 v10, v6\n"
                                   "iadd64 v6, v4, u2\n"
                                   "ldg.b32 v12, v6\n"
                                   "iadd64 v6, v4, u4\n"
                                   "ldg.b32 v18, v6\n"
                                   "mov v16, #%u\n"
                                   "mov v17, #%u\n"
                                   "if _, v18 @skip\n"
                                   "%s\n"
                                   "skip: endif\n"
                                   "shl v2, v1, #3\n"
                                   "zext64 v4, v2\n"
                                   "iadd64 v6, v4, u6\n"
                                   "stg.b64 _, v6, v16\n"
                                   "exit\n",
                                   w, SENT_LO, SENT_HI, c->op);
      struct eut_launch l = {.program = prog, .grid = {GROUPS}, .size = {CTA},
                             .root = eut_root(&t, root, 5)};
      eut_run(&t, &l, c->op);
      const uint32_t *o = eut_ptr(&t, out);
      uint32_t bad = 0;
      for (uint32_t g = 0; g < GROUPS; g++) {
         for (uint32_t wp = 0; wp < warps; wp++) {
            struct warp_view v = {.w = w};
            for (uint32_t k = 0; k < w; k++) {
               uint32_t li = wp * w + k, i = g * CTA + li;
               bool live = li < CTA;
               v.count += live;
               v.x[k] = live ? x[i] : 0;
               v.y[k] = live ? y[i] : 0;
               if (live && m[i])
                  v.exec |= 1ull << k;
            }
            for (uint32_t k = 0; k < v.count; k++) {
               uint32_t i = g * CTA + wp * w + k;
               uint32_t lo = SENT_LO, hi = SENT_HI;
               /* A uniform destination takes the first active lane's result. */
               if ((v.exec >> k) & 1)
                  reference(c->op, &v, ub, strstr(c->op, " u16") ? first(v.exec) : k, &lo, &hi);
               uint32_t glo = o[2 * i], ghi = o[2 * i + 1];
               bool ok = glo == lo && ghi == hi;
               /* fminf/fmaxf may give either zero for (-0, +0). */
               if (!ok && ghi == hi && (strstr(c->op, "fmin") || strstr(c->op, "fmax")) &&
                   eut_f(lo) == 0.0f && eut_f(glo) == 0.0f)
                  ok = true;
               /* Any NaN for a NaN: a binary16 one (bits 16-31 zero) or a
                * binary64 one. */
               bool f16 = strstr(c->op, ".f16") != NULL, f64 = strstr(c->op, ".64") != NULL &&
                                                             strstr(c->op, ".f");
               if (!ok && f16 && glo <= 0xffffu && half_nan(lo) && half_nan(glo))
                  ok = true;
               if (!ok && f64 && isnan(dbl(lo | (uint64_t)hi << 32)) &&
                   isnan(dbl(glo | (uint64_t)ghi << 32)))
                  ok = true;
               if (!ok && bad++ < 4)
                  HWT_CHECK(false, "%s W=%u CTA %u warp %u lane %u (exec 0x%llx): got "
                            "0x%08x:0x%08x, expected 0x%08x:0x%08x", c->op, w, g, wp, k,
                            (unsigned long long)v.exec, ghi, glo, hi, lo);
            }
         }
      }
      eut_fini(&t);
   }
}

static void test_subgroup(void)
{
   static const struct sg_case fixed[] = {
      {"vote.all v16, v10", IN_BOOL, 0},
      {"vote.any v16, v10", IN_BOOL, 0},
      {"vote.eq v16, v10", IN_EQUALISH, 0},
      {"vote.any u16, v10\nmov v16, u16", IN_BOOL, 0},
      {"ballot v16, v10", IN_BOOL, 0},
      {"bcast v16, v10, u20", IN_INT, 0},
      {"bcast v16, v10, v12", IN_INT, 64},
      {"shfl.idx v16, v10, v12", IN_INT, 80},
      {"shfl.xor v16, v10, v12", IN_INT, 80},
      {"shfl.up v16, v10, v12", IN_INT, 70},
      {"shfl.down v16, v10, v12", IN_INT, 70},
      {"elect v16", IN_INT, 0},
      {"elect u16\nmov v16, u16", IN_INT, 0},
      {"reduce.iadd u16, v10\nmov v16, u16", IN_INT, 0},
   };
   for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
      run_case(&fixed[i]);
   /* 64-bit integer REDUCE/SCAN (ISA_SUBGROUP_64, written .mod512) on v10:v11. */
   static char texts64[3 * ISA_RED_FADD][64];
   for (uint32_t r = 0; r < ISA_RED_FADD; r++) {
      snprintf(texts64[3 * r], 64, "mov v11, v12\nreduce.%s.mod512 v16, v10", red_names[r]);
      snprintf(texts64[3 * r + 1], 64, "mov v11, v12\nscan.%s.mod512 v16, v10", red_names[r]);
      snprintf(texts64[3 * r + 2], 64, "mov v11, v12\nscan.%s.excl.mod512 v16, v10",
               red_names[r]);
      for (int j = 0; j < 3; j++) {
         struct sg_case c = {texts64[3 * r + j], IN_INT, 0};
         run_case(&c);
      }
   }
   /* binary64 (.64) and binary16 (.f16) fadd, fmul, fmin, fmax. */
   static char textsf[2 * 3 * 4][80];
   for (uint32_t f = 0; f < 4; f++) {
      const char *name = red_names[ISA_RED_FADD + f];
      for (int j = 0; j < 3; j++) {
         const char *form = j == 0 ? "reduce" : "scan", *excl = j == 2 ? ".excl" : "";
         char *t64 = textsf[6 * f + j], *t16 = textsf[6 * f + 3 + j];
         snprintf(t64, 80, "mov v11, v12\n%s.%s%s.64 v16, v10", form, name, excl);
         snprintf(t16, 80, "%s.%s%s.f16 v16, v10", form, name, excl);
         struct sg_case c64 = {t64, IN_DOUBLE, 0}, c16 = {t16, IN_HALF, 0};
         run_case(&c64);
         run_case(&c16);
      }
   }
   /* Clustered: every size, several kinds, vector and uniform results. */
   static char textsc[7 * 8][96];
   for (uint32_t k = 0; k < 7; k++) {
      uint32_t n = 1u << k;
      const struct { const char *fmt; enum input_kind in; } forms[8] = {
         {"reduce.iadd.cluster%u v16, v10", IN_INT},
         {"reduce.imax_s.cluster%u v16, v10", IN_INT},
         {"reduce.fadd.cluster%u v16, v10", IN_FLOAT},
         {"mov v11, v12\nreduce.fmax.64.cluster%u v16, v10", IN_DOUBLE},
         {"reduce.fadd.f16.cluster%u v16, v10", IN_HALF},
         {"scan.iadd.cluster%u v16, v10", IN_INT},
         {"scan.fmul.excl.f16.cluster%u v16, v10", IN_HALF},
         {"reduce.xor.cluster%u u16, v10\nmov v16, u16", IN_INT},
      };
      for (uint32_t j = 0; j < 8; j++) {
         snprintf(textsc[8 * k + j], 96, forms[j].fmt, n);
         struct sg_case c = {textsc[8 * k + j], forms[j].in, 0};
         run_case(&c);
      }
   }
   static char texts[3 * ISA_RED_COUNT][48];
   for (uint32_t r = 0; r < ISA_RED_COUNT; r++) {
      enum input_kind k = r >= ISA_RED_FADD ? IN_FLOAT : IN_INT;
      snprintf(texts[3 * r], 48, "reduce.%s v16, v10", red_names[r]);
      snprintf(texts[3 * r + 1], 48, "scan.%s v16, v10", red_names[r]);
      snprintf(texts[3 * r + 2], 48, "scan.%s.excl v16, v10", red_names[r]);
      for (int j = 0; j < 3; j++) {
         struct sg_case c = {texts[3 * r + j], k, 0};
         run_case(&c);
      }
   }
}

int main(void)
{
   HWT_RUN(test_subgroup);
   return hwt_finish();
}
