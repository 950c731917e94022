/*
 * test_cc_subgroup: subgroup operations through the compiler. The
 * subgroup is the warp: gl_SubgroupSize must equal the warp width the
 * program was compiled for, and the subgroups of a workgroup are its
 * invocations in groups of W (the last one partial when W does not divide
 * the local size). The shader returns early for invocations >= n, so the
 * last workgroup's last subgroups are partly inactive; operations see the
 * active invocations only. Results the specs leave undefined (a shuffle
 * from an inactive invocation, findLSB of an empty ballot) are skipped.
 */
#include "sct.h"

/* The run the reference describes (set before each sct_map_run). */
static uint32_t cur_w, cur_l, cur_n;
static const uint32_t *cur_in;   /* invocation 0's input */

/* The subgroup of invocation i: its lanes' inputs and activity. */
struct warp {
   uint32_t lane, warp, size;    /* this invocation's lane; lanes that exist */
   bool active[64];
   uint32_t x[64];
};

static void warp_of(uint32_t i, struct warp *w)
{
   uint32_t G = i / cur_l, lid = i % cur_l;
   w->warp = lid / cur_w;
   w->lane = lid % cur_w;
   uint32_t first = w->warp * cur_w;
   w->size = cur_l - first < cur_w ? cur_l - first : cur_w;
   for (uint32_t k = 0; k < 64; k++) {
      uint32_t g = G * cur_l + first + k;
      w->active[k] = k < w->size && g < cur_n;
      w->x[k] = w->active[k] ? cur_in[g] : 0;
   }
}

static struct sct_want lane_value(const struct warp *w, int64_t src)
{
   if (src < 0 || src >= 64 || !w->active[src])
      return sct_skip();
   return sct_u(w->x[src]);
}

/* Reductions over the active lanes in [from, to). */
enum red { R_ADD, R_SMIN, R_UMAX, R_SMAX, R_AND, R_OR, R_XOR, R_UMIN };

static uint32_t reduce(const struct warp *w, enum red op, uint32_t from, uint32_t to,
                       uint32_t and_mask, uint32_t or_mask)
{
   uint32_t acc;
   switch (op) {
   case R_SMIN: acc = (uint32_t)INT32_MAX; break;
   case R_SMAX: acc = (uint32_t)INT32_MIN; break;
   case R_AND: case R_UMIN: acc = UINT32_MAX; break;
   default: acc = 0; break;
   }
   for (uint32_t k = from; k < to; k++) {
      if (!w->active[k])
         continue;
      uint32_t v = (w->x[k] | or_mask) & and_mask;
      switch (op) {
      case R_ADD: acc += v; break;
      case R_SMIN: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
      case R_SMAX: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
      case R_UMAX: acc = v > acc ? v : acc; break;
      case R_UMIN: acc = v < acc ? v : acc; break;
      case R_AND: acc &= v; break;
      case R_OR: acc |= v; break;
      case R_XOR: acc ^= v; break;
      }
   }
   return acc;
}

static uint64_t ballot(const struct warp *w, bool (*pred)(uint32_t))
{
   uint64_t b = 0;
   for (uint32_t k = 0; k < 64; k++) {
      if (w->active[k] && pred(w->x[k]))
         b |= 1ull << k;
   }
   return b;
}

static bool odd(uint32_t x) { return x & 1; }
static bool low3_zero(uint32_t x) { return (x & 7) == 0; }
static bool low2_nonzero(uint32_t x) { return (x & 3) != 0; }
static bool low2_zero(uint32_t x) { return (x & 3) == 0; }

static bool all_active(const struct warp *w, bool (*pred)(uint32_t))
{
   for (uint32_t k = 0; k < 64; k++) {
      if (w->active[k] && !pred(w->x[k]))
         return false;
   }
   return true;
}

static uint32_t popc64(uint64_t v) { return (uint32_t)__builtin_popcountll(v); }

static void subgroup_ref(const uint32_t *in, uint32_t i, struct sct_want *want)
{
   struct warp w;
   warp_of(i, &w);
   uint32_t lane = w.lane, x = w.x[lane], W = cur_w;
   uint32_t first_active = 0;
   while (!w.active[first_active])
      first_active++;
   want[0] = sct_u(W);
   want[1] = sct_u(lane);
   want[2] = sct_u(w.warp);
   want[3] = sct_u((cur_l + W - 1) / W);
   want[4] = sct_b(lane == first_active);
   uint64_t b = ballot(&w, odd);
   want[5] = sct_u((uint32_t)b);
   want[6] = sct_u((uint32_t)(b >> 32));
   want[7] = sct_u(0);
   want[8] = lane_value(&w, 0);
   want[9] = lane_value(&w, first_active);
   want[10] = lane_value(&w, (lane + 3) % W);
   want[11] = lane_value(&w, lane ^ 1);
   want[12] = lane_value(&w, (int64_t)lane - 1);
   want[13] = lane + 2 < W ? lane_value(&w, lane + 2) : sct_skip();
   want[14] = sct_u(reduce(&w, R_ADD, 0, 64, UINT32_MAX, 0));
   want[15] = sct_u(reduce(&w, R_SMIN, 0, 64, UINT32_MAX, 0));
   want[16] = sct_u(reduce(&w, R_UMAX, 0, 64, UINT32_MAX, 0));
   want[17] = sct_u(reduce(&w, R_AND, 0, 64, UINT32_MAX, 0x0f0f0f0fu));
   want[18] = sct_u(reduce(&w, R_OR, 0, 64, 0x10101010u, 0));
   want[19] = sct_u(reduce(&w, R_XOR, 0, 64, UINT32_MAX, 0));
   want[20] = sct_u(reduce(&w, R_ADD, 0, lane + 1, UINT32_MAX, 0));
   want[21] = sct_u(reduce(&w, R_ADD, 0, lane, UINT32_MAX, 0));
   bool eq_sign = true, any3 = ballot(&w, low3_zero) != 0;
   for (uint32_t k = 0; k < 64; k++)
      eq_sign &= !w.active[k] || (w.x[k] >> 31) == (x >> 31);
   want[22] = sct_u((uint32_t)all_active(&w, odd) | (uint32_t)any3 << 1 |
                    (uint32_t)eq_sign << 2 | 1u << 3);
   uint64_t le = lane == 63 ? UINT64_MAX : (2ull << lane) - 1, lt = (1ull << lane) - 1;
   want[23] = sct_u(popc64(b));
   want[24] = sct_u(popc64(b & le));
   want[25] = sct_u(popc64(b & lt));
   want[26] = b ? sct_u((uint32_t)__builtin_ctzll(b)) : sct_skip();
   want[27] = b ? sct_u(63u - (uint32_t)__builtin_clzll(b)) : sct_skip();
   want[28] = sct_b((b >> ((lane + 1) % W)) & 1);
   want[29] = sct_b((lane & 1) == 0);
   float fs = 0;
   for (uint32_t k = 0; k < 64; k++)
      fs += w.active[k] ? (float)(w.x[k] & 0xff) : 0.0f;
   want[30] = sct_fx(fs);
   want[31] = sct_u(reduce(&w, R_UMAX, 0, lane + 1, UINT32_MAX, 0));
   uint64_t lanes = W == 64 ? UINT64_MAX : (1ull << W) - 1;
   want[32] = sct_u(lane < 32 ? 1u << lane : 0);
   want[33] = sct_u((uint32_t)lt);
   want[34] = sct_u((uint32_t)(~lt & lanes));
   want[35] = sct_u((uint32_t)(~le & lanes));
   /* inside if/else: the lanes of each side only */
   if (x & 3) {
      uint32_t sum = 0;
      for (uint32_t k = 0; k < 64; k++)
         sum += w.active[k] && low2_nonzero(w.x[k]) ? w.x[k] : 0;
      want[36] = sct_u(sum);
   } else {
      uint32_t o = 0;
      for (uint32_t k = 0; k < 64; k++)
         o |= w.active[k] && low2_zero(w.x[k]) ? w.x[k] : 0;
      want[36] = sct_u(o);
   }
   /* a loop whose trip count differs per lane: iteration j runs in the
    * lanes whose count exceeds j */
   uint32_t mine = (x >> 8) % 5, acc = 0;
   for (uint32_t j = 0; j < mine; j++) {
      uint32_t lanes_in = 0;
      for (uint32_t k = 0; k < 64; k++)
         lanes_in += w.active[k] && (w.x[k] >> 8) % 5 > j;
      acc += (j + 1) * lanes_in;
   }
   want[37] = sct_u(acc);
   want[38] = sct_u(reduce(&w, R_UMIN, 0, lane, UINT32_MAX, 0));
   want[39] = sct_u(reduce(&w, R_SMAX, 0, 64, UINT32_MAX, 0));
   want[40] = sct_u(W == 64 ? (uint32_t)(~lt >> 32) : 0);
   want[41] = sct_u(W == 64 ? (uint32_t)(le >> 32) : 0);
   bool e = true;
   for (uint32_t k = 0; k < lane; k++)
      e = e && (!w.active[k] || (w.x[k] & 1));
   want[42] = sct_b(e != ((x & 2) != 0));
   uint32_t in_w = W >= 32 ? UINT32_MAX : (1u << W) - 1;
   want[43] = sct_u(popc64((x | 0x80000000u) & in_w) + (W == 64 ? 32 : 0));
   want[44] = sct_u(W == 64 ? 63 : 31u - (uint32_t)__builtin_clz((x | 1u) & in_w));
   (void)in;
}

static const char *const subgroup_names[] = {
   "gl_SubgroupSize", "gl_SubgroupInvocationID", "gl_SubgroupID", "gl_NumSubgroups", "elect",
   "ballot.x", "ballot.y", "ballot.zw", "broadcast(0)", "broadcastFirst", "shuffle(+3)",
   "shuffleXor(1)", "shuffleUp(1)", "shuffleDown(2)", "add", "min(int)", "max", "and", "or",
   "xor", "inclusiveAdd", "exclusiveAdd", "all/any/allEqual", "ballotBitCount",
   "ballotInclusiveBitCount", "ballotExclusiveBitCount", "ballotFindLSB", "ballotFindMSB",
   "ballotBitExtract", "inverseBallot", "add(float)", "inclusiveMax", "EqMask.x", "LtMask.x",
   "GeMask.x", "GtMask.x", "add/or in if/else", "add in divergent loop", "exclusiveMin",
   "max(int)", "GeMask.y", "LeMask.y", "exclusiveAnd(bool)", "ballotBitCount(past W)",
   "ballotFindMSB(past W)"};

/* feat_clustered: subgroupClusteredAdd(x, 4) and subgroupQuadSwapHorizontal(x). */
static void clustered_ref(const uint32_t *in, uint32_t i, struct sct_want *want)
{
   struct warp w;
   warp_of(i, &w);
   uint32_t c = w.lane & ~3u;
   want[0] = sct_u(reduce(&w, R_ADD, c, c + 4, UINT32_MAX, 0));
   want[1] = lane_value(&w, w.lane ^ 1);
   (void)in;
}

/* Inputs: random, with runs of equal sign bits so allEqual is sometimes
 * true, and low bits varied for the predicates. */
static void subgroup_init(uint32_t i, uint32_t *in)
{
   uint32_t h = sct_hash(i * 7919u + 17u);
   in[0] = (i / 16) % 3 == 0 ? h & 0x7fffffffu : h;
}

/* Runs m over the matrix (a reduced one under sanitizers), the reference
 * reading every input through cur_in. */
static void run_matrix(struct sct *s, const struct sct_map *m)
{
   uint32_t runs = 0, failed = 0;
   for (uint32_t wi = 0; wi < 4; wi++) {
      for (uint32_t li = 0; li < 4; li++) {
         cur_w = sct_widths[wi];
         cur_l = sct_locals[li];
         if (!sct_matrix_pair(cur_w, cur_l))
            continue;
         cur_n = sct_map_count(cur_l);
         /* the reference needs every input: make them here too */
         uint32_t *all = malloc(4ull * cur_n);
         HWT_REQUIRE(all, "out of memory");
         for (uint32_t i = 0; i < cur_n; i++)
            m->init(i, all + i);
         cur_in = all;
         runs++;
         failed += !sct_map_run(s, m, cur_w, cur_l, false);
         runs++;
         failed += !sct_map_run(s, m, cur_w, cur_l, true);
         free(all);
      }
   }
   fprintf(stderr, "  %-24s %u runs, %u failed\n", m->shader, runs, failed);
}

/* Clustered and quad operations: run if supported, else refused by name. */
static void probe_clustered(struct sct *s)
{
   static const struct sct_map m =
      SCT_MAP("feat_clustered", 1, 2, subgroup_init, clustered_ref, NULL);
   size_t count;
   uint32_t *w = sct_spirv(m.shader, &count);
   struct sct_opts so;
   sct_options(&so, 32, 33, &sct_map_layout, 1);
   struct sc_program p;
   char err[512] = "";
   bool ok = sc_compile(w, count, &so.o, &p, err, sizeof(err));
   free(w);
   if (ok) {
      sc_program_free(&p);
      run_matrix(s, &m);
      return;
   }
   HWT_CHECK(strstr(err, "Clustered") || strstr(err, "Quad"),
             "feat_clustered: the refusal does not name the capability: \"%s\"", err);
   fprintf(stderr, "  MISSING clustered/quad subgroup operations: %s\n", err);
}

int main(int argc, char **argv)
{
   (void)argc;
   (void)argv;
   static const struct sct_map m =
      SCT_MAP("subgroup", 1, 45, subgroup_init, subgroup_ref, subgroup_names);
   struct sct s;
   sct_init(&s);
   run_matrix(&s, &m);
   probe_clustered(&s);
   sct_fini(&s);
   return hwt_finish();
}
