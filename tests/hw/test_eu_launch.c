/*
 * test_eu_launch: how LAUNCH, LAUNCH_INDIRECT and LAUNCH_EMBEDDED packets
 * become CTAs, and how launches order against each other and against
 * semaphore releases.
 *
 * Pins down:
 * - LAUNCH_EMBEDDED runs the descriptor in its payload, whose root table is
 *   the packet's own data (skipped, not executed): a launch the command
 *   processor runs itself (5x3x2 CTAs of 8) and one handed to the workers
 *   (40 CTAs of 64, base (10,20,30)), every CTA once;
 * - LAUNCH_INDIRECT takes its grid from GPU memory (5x3x2): every CTA runs
 *   exactly once and sees NUM_GROUPS = that grid; an indirect grid written
 *   by an earlier launch, with WAIT_FOR_IDLE between, is the one used
 *   (7x2x3); an indirect grid of zero CTAs runs nothing and is no fault;
 * - base workgroup (10,20,30): GROUP_ID = base + position, NUM_GROUPS the
 *   grid (not base + grid), each position once, directly and indirectly;
 * - big grids across the workers: 150000 CTAs of 64 (1D) and 1000x70x2
 *   CTAs of 8 (3D): every CTA exactly once, every invocation's output;
 * - consecutive launches with no WAIT_FOR_IDLE between them overlap (with
 *   at least two workers): a one-CTA launch spins until a later launch's
 *   first CTA has written; eight independent launches back to back all produce
 *   their own complete outputs;
 * - WAIT_FOR_IDLE orders launches: with every CTA delayed (SOFTGPU_DELAY
 *   eu:200-600 us), a launch reading what the launch before the
 *   WAIT_FOR_IDLE wrote (from other CTAs) always sees all of it (5 rounds);
 * - a SEM_RELEASE with WFI after launches is observed only once all their
 *   results are complete (delayed CTAs, checked as soon as the host sees
 *   the release).
 */
#include "eut.h"

/* Marks its CTA: flags[flat]++ and info[flat] = {group id x,y,z, num groups
 * x,y,z}; root: flags, info, base x y (u4 u5), base z (u6). */
static const char *const mark_program =
   ".warp %u\n"
   "ldr.b64 u0 +0\n"
   "ldr.b64 u2 +8\n"
   "ldr.b64 u4 +16\n"
   "ldr.b32 u6 +24\n"
   "s2r.group_id_x u10\n"
   "s2r.group_id_y u11\n"
   "s2r.group_id_z u12\n"
   "s2r.num_groups_x u13\n"
   "s2r.num_groups_y u14\n"
   "s2r.num_groups_z u15\n"
   "isub u16, u10, u4\n"
   "isub u17, u11, u5\n"
   "isub u18, u12, u6\n"
   "imad u19, u18, u14, u17\n"
   "imad u19, u19, u13, u16       ; flat position in the grid\n"
   "s2r.local_index v0\n"
   "icmp.eq v1, v0, #0\n"
   "if _, v1 @end\n"
   "   shl u20, u19, #2\n"
   "   zext64 u22, u20\n"
   "   iadd64 u22, u22, u0\n"
   "   mov v2, #1\n"
   "   atomg.add _, u22, v2\n"
   "   shl u20, u19, #5\n"
   "   zext64 u22, u20\n"
   "   iadd64 u22, u22, u2\n"
   "   mov v4, u10\n"
   "   mov v5, u11\n"
   "   mov v6, u12\n"
   "   mov v7, u13\n"
   "   mov v8, u14\n"
   "   mov v9, u15\n"
   "   stg.b128 _, u22, v4\n"
   "   stg.b64 _, u22, v8 +16\n"
   "end: endif\n"
   "exit\n";

struct marks {
   uint64_t flags, info, root;
   uint32_t count;
};

static void marks_init(struct eut *t, struct marks *m, uint32_t count, const uint32_t base[3])
{
   m->count = count;
   m->flags = eut_alloc(t, 4ull * count, 64);
   m->info = eut_alloc(t, 32ull * count, 64);
   uint64_t root[4] = {m->flags, m->info, base[0] | (uint64_t)base[1] << 32, base[2]};
   m->root = eut_root(t, root, 4);
}

static void marks_check(struct eut *t, const struct marks *m, const uint32_t grid[3],
                        const uint32_t base[3], const char *what)
{
   const uint32_t *f = eut_ptr(t, m->flags), *info = eut_ptr(t, m->info);
   uint32_t bad = 0;
   for (uint32_t z = 0; z < grid[2]; z++) {
      for (uint32_t y = 0; y < grid[1]; y++) {
         for (uint32_t x = 0; x < grid[0]; x++) {
            uint32_t flat = (z * grid[1] + y) * grid[0] + x;
            const uint32_t *in = info + 8 * flat;
            uint32_t want[6] = {base[0] + x, base[1] + y, base[2] + z, grid[0], grid[1], grid[2]};
            if ((f[flat] != 1 || memcmp(in, want, sizeof(want)) != 0) && bad++ < 5)
               HWT_CHECK(false, "%s: CTA (%u,%u,%u) ran %u times, saw group (%u,%u,%u) of "
                         "(%u,%u,%u); expected once, (%u,%u,%u) of (%u,%u,%u)", what, x, y, z,
                         f[flat], in[0], in[1], in[2], in[3], in[4], in[5], want[0], want[1],
                         want[2], want[3], want[4], want[5]);
         }
      }
   }
}

static void test_indirect(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t prog = eut_programf(&t, mark_program, w);
      const uint32_t zero[3] = {0, 0, 0}, base[3] = {10, 20, 30};

      /* Grid from memory; the descriptor's own grid (1x1x1) is ignored. */
      const uint32_t g1[3] = {5, 3, 2};
      struct marks m1;
      marks_init(&t, &m1, 30, zero);
      uint64_t grid1 = eut_alloc(&t, 16, 16);
      memcpy(eut_ptr(&t, grid1), g1, 12);
      struct eut_launch l1 = {.program = prog, .size = {40}, .root = m1.root};
      /* With a base workgroup too. */
      struct marks m2;
      marks_init(&t, &m2, 30, base);
      struct eut_launch l2 = {.program = prog, .size = {3, 3}, .base = {10, 20, 30},
                              .root = m2.root};
      /* A grid written by an earlier launch (one invocation), WFI between. */
      const uint32_t g3[3] = {7, 2, 3};
      uint64_t grid3 = eut_alloc(&t, 16, 16);
      uint64_t groot = eut_root(&t, &grid3, 1);
      uint64_t writer = eut_programf(&t, ".warp %u\n"
                                         "ldr.b64 u0 +0\n"
                                         "mov v0, #%u\n"
                                         "mov v1, #%u\n"
                                         "mov v2, #%u\n"
                                         "stg.b64 _, u0, v0\n"
                                         "stg.b32 _, u0, v2 +8\n"
                                         "exit\n", w, g3[0], g3[1], g3[2]);
      struct eut_launch lw = {.program = writer, .root = groot};
      struct marks m3;
      marks_init(&t, &m3, 42, zero);
      struct eut_launch l3 = {.program = prog, .size = {w + 1}, .root = m3.root};
      /* Zero CTAs. */
      uint64_t grid0 = eut_alloc(&t, 16, 16);
      struct marks m0;
      marks_init(&t, &m0, 1, zero);
      struct eut_launch l0 = {.program = prog, .size = {64}, .root = m0.root};

      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch_indirect(pb.p, eut_desc(&t, &l1), grid1);
      pb.p = hw_emit_launch_indirect(pb.p, eut_desc(&t, &l2), grid1);
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &lw));
      pb.p = hw_emit_simple(pb.p, HW_OP_WAIT_FOR_IDLE);
      pb.p = hw_emit_launch_indirect(pb.p, eut_desc(&t, &l3), grid3);
      pb.p = hw_emit_launch_indirect(pb.p, eut_desc(&t, &l0), grid0);
      eut_submit_ok(&t, &pb, "indirect launches");
      char what[64];
      snprintf(what, sizeof(what), "indirect W=%u", w);
      marks_check(&t, &m1, g1, zero, what);
      snprintf(what, sizeof(what), "indirect with base W=%u", w);
      marks_check(&t, &m2, g1, base, what);
      snprintf(what, sizeof(what), "indirect grid from a launch W=%u", w);
      marks_check(&t, &m3, g3, zero, what);
      HWT_CHECK(*(uint32_t *)eut_ptr(&t, m0.flags) == 0, "a zero indirect grid ran a CTA");

      /* Base workgroup, direct. */
      const uint32_t g4[3] = {4, 3, 2};
      struct marks m4;
      marks_init(&t, &m4, 24, base);
      struct eut_launch l4 = {.program = prog, .grid = {4, 3, 2}, .base = {10, 20, 30},
                              .size = {2 * w + 3}, .root = m4.root};
      eut_run(&t, &l4, "base workgroup");
      snprintf(what, sizeof(what), "base workgroup W=%u", w);
      marks_check(&t, &m4, g4, base, what);
      eut_fini(&t);
   }
}

/* ---- big grids -------------------------------------------------------------------------- */

static void test_big_grids(void)
{
   struct eut t;
   eut_init(&t, NULL);
   const uint32_t zero[3] = {0, 0, 0};
   /* 1D: 150000 CTAs of 64 at W=32; each invocation also writes its index. */
   const uint32_t g1[3] = {150000, 1, 1};
   struct marks m1;
   marks_init(&t, &m1, g1[0], zero);
   uint64_t out = eut_alloc(&t, 4ull * g1[0] * 64, 64);
   struct eut_text text = {0};
   char *mark = NULL;
   HWT_REQUIRE(asprintf(&mark, mark_program, 32) > 0, "oom");
   /* The mark program, then each invocation stores its global index. */
   *strstr(mark, "exit\n") = '\0';
   eut_text_add(&text, "%s"
                       "ldr.b64 u24 +32\n"
                       "s2r.group_size_x u9\n"
                       "imad v10, u19, u9, v0\n"
                       "shl v11, v10, #2\n"
                       "zext64 v12, v11\n"
                       "iadd64 v12, v12, u24\n"
                       "stg.b32 _, v12, v10\n"
                       "exit\n", mark);
   free(mark);
   uint64_t *root = eut_ptr(&t, m1.root);
   uint64_t root5[5] = {root[0], root[1], root[2], root[3], out};
   struct eut_launch l1 = {.program = eut_program(&t, text.s), .grid = {g1[0]}, .size = {64},
                           .root = eut_root(&t, root5, 5)};
   eut_text_free(&text);
   uint64_t start = hw_now_ns();
   eut_run(&t, &l1, "150000 CTAs");
   fprintf(stderr, "   150000 CTAs of 64 on %u workers: %.1f ms\n", eut_threads(),
           (double)(hw_now_ns() - start) / 1e6);
   marks_check(&t, &m1, g1, zero, "150000 CTAs");
   const uint32_t *o = eut_ptr(&t, out);
   for (uint32_t i = 0; i < g1[0] * 64; i++) {
      if (o[i] != i) {
         HWT_CHECK(false, "150000 CTAs: invocation %u wrote %u", i, o[i]);
         break;
      }
   }
   /* 3D: 1000 x 70 x 2 CTAs of 8 at W=8. */
   const uint32_t g2[3] = {1000, 70, 2};
   struct marks m2;
   marks_init(&t, &m2, g2[0] * g2[1] * g2[2], zero);
   struct eut_launch l2 = {.program = eut_programf(&t, mark_program, 8),
                           .grid = {g2[0], g2[1], g2[2]}, .size = {2, 2, 2}, .root = m2.root};
   eut_run(&t, &l2, "1000x70x2 CTAs");
   marks_check(&t, &m2, g2, zero, "1000x70x2 CTAs");
   eut_fini(&t);
}

/* ---- overlap and ordering ----------------------------------------------------------------- */

/* Invocation i of a grid writes out[i] = i * mul + add (root: out, mul, add). */
static const char *const write_program =
   ".warp 32\n"
   "ldr.b64 u0 +0\n"
   "ldr.b32 u2 +8\n"
   "ldr.b32 u3 +16\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u8\n"
   "s2r.group_size_x u9\n"
   "imad v1, u8, u9, v0\n"
   "imad v2, v1, u2, u3\n"
   "shl v3, v1, #2\n"
   "zext64 v4, v3\n"
   "iadd64 v4, v4, u0\n"
   "stg.b32 _, v4, v2\n"
   "exit\n";

static void test_overlap(void)
{
   struct eut t;
   eut_init(&t, NULL);
   /* A: one CTA of 512 (so it is not run inline on the command processor)
    * spinning until B's first output is nonzero, at most 2^24 times; it
    * records whether it saw it. B: 16 CTAs of 128. */
   uint64_t bout = eut_alloc(&t, 4 * 2048, 64), seen = eut_alloc(&t, 4 * 512, 64);
   uint64_t ra[2] = {bout, seen};
   struct eut_launch la = {
      .program = eut_program(&t, ".warp 32\n"
                                 "ldr.b64 u0 +0\n"
                                 "ldr.b64 u2 +8\n"
                                 "mov v10, #0\n"
                                 "loop\n"
                                 "h: ldg.b32 v11, u0\n"
                                 "   brk _, v11 @e\n"
                                 "   iadd v10, v10, #1\n"
                                 "   icmp.ge_u v12, v10, #0x1000000\n"
                                 "   brk _, v12 @e\n"
                                 "e: endloop @h\n"
                                 "s2r.local_index v0\n"
                                 "shl v1, v0, #2\n"
                                 "zext64 v2, v1\n"
                                 "iadd64 v2, v2, u2\n"
                                 "stg.b32 _, v2, v11\n"
                                 "exit\n"),
      .size = {512}, .root = eut_root(&t, ra, 2)};
   uint64_t rb[3] = {bout, 3, 1};
   uint64_t bprog = eut_program(&t, write_program);
   struct eut_launch lb = {.program = bprog, .grid = {16}, .size = {128},
                           .root = eut_root(&t, rb, 3)};
   /* Eight independent launches, each to its own output. */
   uint64_t outs[8];
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &la));
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &lb));
   for (int k = 0; k < 8; k++) {
      outs[k] = eut_alloc(&t, 4 * 4096, 64);
      uint64_t r[3] = {outs[k], (uint64_t)k + 2, (uint64_t)k * 1000};
      struct eut_launch l = {.program = bprog, .grid = {32}, .size = {128},
                             .root = eut_root(&t, r, 3)};
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
   }
   eut_submit_ok(&t, &pb, "overlapping launches");
   const uint32_t *s = eut_ptr(&t, seen), *b = eut_ptr(&t, bout);
   uint32_t saw = 0;
   for (int i = 0; i < 512; i++)
      saw += s[i] != 0;
   if (eut_threads() >= 2)
      HWT_CHECK(saw == 512, "with %u workers, a spinning launch never saw a later launch's "
                "flag (%u of 512 invocations did): launches did not overlap", eut_threads(), saw);
   fprintf(stderr, "   overlap: %u of 512 invocations saw the later launch's flag\n", saw);
   for (uint32_t i = 0; i < 2048; i++) {
      if (b[i] != i * 3 + 1) {
         HWT_CHECK(false, "launch B invocation %u wrote %u", i, b[i]);
         break;
      }
   }
   for (int k = 0; k < 8; k++) {
      const uint32_t *o = eut_ptr(&t, outs[k]);
      for (uint32_t i = 0; i < 4096; i++) {
         if (o[i] != i * (uint32_t)(k + 2) + (uint32_t)k * 1000) {
            HWT_CHECK(false, "independent launch %d invocation %u wrote %u", k, i, o[i]);
            break;
         }
      }
   }
   eut_fini(&t);
}

static void test_wfi_ordering(void)
{
   struct hw_gpu_config cfg;
   eut_config(&cfg);
   cfg.delay_spec = "eu:200-600,seed:3";
   struct eut t;
   eut_init(&t, &cfg);
   const uint32_t cta = 128, groups = 64, n = cta * groups;
   uint64_t wprog = eut_program(&t, write_program);
   /* B: out_b[i] = a[n - 1 - i] + 1 (root: a, out_b). */
   uint64_t rprog = eut_program(&t, ".warp 32\n"
                                    "ldr.b64 u0 +0\n"
                                    "ldr.b64 u2 +8\n"
                                    "s2r.local_index v0\n"
                                    "s2r.group_id_x u8\n"
                                    "s2r.group_size_x u9\n"
                                    "s2r.num_groups_x u10\n"
                                    "imul u11, u9, u10\n"
                                    "imad v1, u8, u9, v0\n"
                                    "isub v2, u11, v1\n"
                                    "isub v2, v2, #1\n"
                                    "shl v3, v2, #2\n"
                                    "zext64 v4, v3\n"
                                    "iadd64 v4, v4, u0\n"
                                    "ldg.b32 v6, v4\n"
                                    "iadd v6, v6, #1\n"
                                    "shl v3, v1, #2\n"
                                    "zext64 v4, v3\n"
                                    "iadd64 v4, v4, u2\n"
                                    "stg.b32 _, v4, v6\n"
                                    "exit\n");
   for (uint32_t round = 0; round < 5; round++) {
      uint64_t a = eut_alloc(&t, 4ull * n, 64), bo = eut_alloc(&t, 4ull * n, 64);
      uint64_t ra[3] = {a, 7 + round, round};
      uint64_t rb[2] = {a, bo};
      struct eut_launch la = {.program = wprog, .grid = {groups}, .size = {cta},
                              .root = eut_root(&t, ra, 3)};
      struct eut_launch lb = {.program = rprog, .grid = {groups}, .size = {cta},
                              .root = eut_root(&t, rb, 2)};
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &la));
      pb.p = hw_emit_simple(pb.p, HW_OP_WAIT_FOR_IDLE);
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &lb));
      eut_submit_ok(&t, &pb, "WFI ordering");
      const uint32_t *o = eut_ptr(&t, bo);
      for (uint32_t i = 0; i < n; i++) {
         uint32_t want = (n - 1 - i) * (7 + round) + round + 1;
         if (o[i] != want) {
            HWT_CHECK(false, "round %u: the launch after WAIT_FOR_IDLE read %u at %u, expected "
                      "%u", round, o[i], i, want);
            break;
         }
      }
   }
   eut_fini(&t);
}

static void test_release_after_launches(void)
{
   struct hw_gpu_config cfg;
   eut_config(&cfg);
   cfg.delay_spec = "eu:100-400,seed:5";
   struct eut t;
   eut_init(&t, &cfg);
   uint64_t prog = eut_program(&t, write_program);
   const uint32_t cta = 64, groups = 48, n = cta * groups;
   uint64_t early = eut_alloc(&t, 64, 64), outs[4];
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   for (int k = 0; k < 4; k++) {
      outs[k] = eut_alloc(&t, 4ull * n, 64);
      uint64_t r[3] = {outs[k], 5, (uint64_t)k + 1};
      struct eut_launch l = {.program = prog, .grid = {groups}, .size = {cta},
                             .root = eut_root(&t, r, 3)};
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
   }
   /* A release without WFI first (not ordered after the launches), then
    * eut_submit's release with WFI. */
   hwt_release(&pb, early, 1, HW_PKT_FLAG_INTERRUPT);
   t.sem_value++;
   hwt_release(&pb, t.sem, t.sem_value, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, &t.ch);
   hwt_wait_sem(t.gpu, early, 1, "release without WFI");
   /* The launches may still be writing: read as the GPU writes, atomically. */
   uint32_t done_early = 0;
   for (int k = 0; k < 4; k++) {
      _Atomic uint32_t *o = eut_ptr(&t, outs[k]);
      for (uint32_t i = 0; i < n; i++) {
         uint32_t v = atomic_load_explicit(&o[i], memory_order_relaxed);
         done_early += v == i * 5 + (uint32_t)k + 1;
      }
   }
   hwt_wait_sem(t.gpu, t.sem, t.sem_value, "release with WFI");
   /* Checked at once: nothing may still be in flight. */
   for (int k = 0; k < 4; k++) {
      const uint32_t *o = eut_ptr(&t, outs[k]);
      for (uint32_t i = 0; i < n; i++) {
         if (o[i] != i * 5 + (uint32_t)k + 1) {
            HWT_CHECK(false, "after the WFI release, launch %d invocation %u holds %u", k, i,
                      o[i]);
            break;
         }
      }
   }
   fprintf(stderr, "   when the release without WFI landed, %u of %u results were written\n",
           done_early, 4 * n);
   eut_fini(&t);
}

/* ---- LAUNCH_EMBEDDED ---------------------------------------------------------------------- */

/* Appends a LAUNCH_EMBEDDED of l whose root table is the packet's own data:
 * words, in place of l's root. */
static void emit_embedded(struct eut *t, struct hwt_pb *pb, const struct eut_launch *l,
                          const uint64_t *words, uint32_t n)
{
   struct hw_launch_desc d;
   memcpy(&d, eut_ptr(t, eut_desc(t, l)), sizeof(d));
   d.root_va = hwt_pb_here(pb) + 4 * (1 + HW_LAUNCH_DESC_DWORDS);
   uint32_t *data = hw_emit_launch_embedded(pb->p, &d, 2 * n);
   memcpy(data, words, 8ull * n);
   pb->p = data + 2 * n;
}

static void test_embedded(void)
{
   /* 5x3x2 CTAs of 8 (240 invocations) run on the command processor; 40
    * CTAs of 64 go to the workers, which read the root table in the
    * pushbuffer while the command processor moves on. */
   static const struct {
      uint32_t grid[3], size, base[3];
   } shapes[2] = {{{5, 3, 2}, 8, {0, 0, 0}}, {{40, 1, 1}, 64, {10, 20, 30}}};
   for (int wi = 0; wi < 4; wi++) {
      struct eut t;
      eut_init(&t, NULL);
      uint64_t prog = eut_programf(&t, mark_program, eut_widths[wi]);
      struct marks m[2];
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      for (int k = 0; k < 2; k++) {
         const uint32_t *g = shapes[k].grid, *b = shapes[k].base;
         marks_init(&t, &m[k], g[0] * g[1] * g[2], b);
         struct eut_launch l = {.program = prog, .grid = {g[0], g[1], g[2]},
                                .size = {shapes[k].size}, .base = {b[0], b[1], b[2]}};
         /* The packet carries a copy of the root table marks_init wrote. */
         emit_embedded(&t, &pb, &l, eut_ptr(&t, m[k].root), 4);
      }
      eut_submit_ok(&t, &pb, "embedded launches");
      for (int k = 0; k < 2; k++) {
         char what[64];
         snprintf(what, sizeof(what), "embedded launch %d, W=%u", k, eut_widths[wi]);
         marks_check(&t, &m[k], shapes[k].grid, shapes[k].base, what);
      }
      eut_fini(&t);
   }
}

int main(void)
{
   HWT_RUN(test_indirect);
   HWT_RUN(test_embedded);
   HWT_RUN(test_big_grids);
   HWT_RUN(test_overlap);
   HWT_RUN(test_wfi_ordering);
   HWT_RUN(test_release_after_launches);
   return hwt_finish();
}
