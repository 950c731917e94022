/*
 * test_eu_faults: faults of the execution units lose the GPU with a report
 * that locates them; the process survives. Each case runs on a fresh GPU
 * (2 workers), in a grid of 3x2 CTAs of 2W+5 invocations, with a host
 * thread asleep in hw_wait (no timeout) on a word nobody releases.
 *
 * Pins down, per fault kind (at W = 8 and 32; the faulting invocation is
 * lane 3 of warp 1 of CTA (2,1,0) where the program can choose it):
 * - hw_wait on the submission's release and the sleeping waiter return
 *   HW_WAIT_LOST (the waiter within 2 s), later waits at once; the GPU
 *   snapshot says lost;
 * - the report names the cause, the launch ("launch #1", its descriptor,
 *   grid, CTA size and W), the CTA, the warp, the lane (where one lane is
 *   to blame), the pc and the instruction as the disassembler writes it;
 * - kinds: a load outside every live allocation (a freed one, and VA 0x10),
 *   a store there, a misaligned load and atomic, an illegal instruction
 *   (opcodes just past the table and far past it: refused when the
 *   program is decoded, the report naming the descriptor, opcode and pc;
 *   an S2R of no special register: at run time), mask stack overflow (IF
 *   and LOOP past a hand-written .stack), a BRK whose target skips the
 *   closer of the IF it is in (hw_isa.h: the target must be the innermost
 *   construct's closer; CONTJOIN then finds the IF's entry and faults),
 *   BAR reached by part of a live
 *   warp, two different barriers in one workgroup, watchdog expiry of an
 *   infinite loop (watchdog_ms 200, lost after 150 ms and within 5 s), in
 *   a launch handed to the workers and in one the command processor runs
 *   itself, and bad launch
 *   descriptors (CTA of 0 or 1025 invocations, too much shared or private
 *   memory, fewer registers than the program uses, grid out of range, a
 *   descriptor or program outside memory, a program with bad magic);
 * - a GPU created after each fault works;
 * - invocations that returned before a barrier count as arrived: a whole
 *   warp returning before two barriers is no fault, the results are
 *   right, and the warning is logged once per program (two launches of
 *   10 CTAs), through the log sink.
 * The fault log on stderr is expected.
 */
#include <pthread.h>
#include <time.h>

#include "eut.h"
#include "sg_log.h"

struct waiter {
   struct hw_gpu *gpu;
   uint64_t va;
   enum hw_wait_result result;
   uint64_t returned_ns;
};

static void *wait_thread(void *arg)
{
   struct waiter *w = arg;
   struct hw_wait_item item = {w->va, 1};
   w->result = hw_wait(w->gpu, &item, 1, true, UINT64_MAX);
   w->returned_ns = hw_now_ns();
   return NULL;
}

static void join_within(pthread_t t, uint64_t ns, const char *what)
{
   struct timespec ts;
   clock_gettime(CLOCK_REALTIME, &ts);
   uint64_t end = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + ns;
   ts.tv_sec = (time_t)(end / 1000000000ull);
   ts.tv_nsec = (long)(end % 1000000000ull);
   HWT_REQUIRE(pthread_timedjoin_np(t, NULL, &ts) == 0, "%s: the waiter did not return", what);
}

/* The pc of the first instruction that assembles like text (a label-free
 * line; a branch target there is ignored), and that instruction as the
 * disassembler writes it (what the report must show). */
static uint32_t find_pc(struct eut *t, uint64_t prog, const char *text, char *dis, size_t size)
{
   struct isa_inst want;
   bool empty;
   char err[128];
   HWT_REQUIRE(isa_assemble_line(text, &want, &empty, err, sizeof(err)) && !empty, "%s: %s",
               text, err);
   const struct isa_program_header *h = eut_ptr(t, prog);
   const struct isa_inst *code = (const struct isa_inst *)(h + 1);
   for (uint32_t pc = 0; pc < h->inst_count; pc++) {
      struct isa_inst in = code[pc];
      if (isa_op_info[in.op].cls == ISA_CLASS_FLOW)
         in.imm = want.imm;
      if (memcmp(&in, &want, sizeof(in)) == 0) {
         isa_disassemble(&code[pc], dis, size);
         return pc;
      }
   }
   HWT_REQUIRE(false, "no instruction \"%s\"", text);
   return 0;
}

/* Submits pb (then a WFI release), expects the GPU lost and every needle in
 * the report. */
static void expect_fault(struct eut *t, struct hwt_pb *pb, const char *what,
                         const char *const *needles, uint32_t count)
{
   uint64_t never = eut_alloc(t, 8, 8);
   struct waiter w = {.gpu = t->gpu, .va = never};
   pthread_t th;
   HWT_REQUIRE(pthread_create(&th, NULL, wait_thread, &w) == 0, "thread");
   hwt_sleep_ms(5);
   enum hw_wait_result r = eut_submit(t, pb);
   uint64_t fault_seen = hw_now_ns();
   HWT_CHECK(r == HW_WAIT_LOST, "%s: the submission's wait returned %d, expected LOST", what,
             (int)r);
   join_within(th, 10000 * HWT_MS, what);
   HWT_CHECK(w.result == HW_WAIT_LOST, "%s: the sleeping waiter returned %d", what,
             (int)w.result);
   HWT_CHECK(w.returned_ns < fault_seen + 2000 * HWT_MS, "%s: the waiter returned late", what);
   struct hw_wait_item item = {never, 1};
   HWT_CHECK(hw_wait(t->gpu, &item, 1, true, 0) == HW_WAIT_LOST &&
             hw_wait(t->gpu, &item, 1, false, UINT64_MAX) == HW_WAIT_LOST,
             "%s: later waits are not LOST", what);
   HWT_CHECK(hw_gpu_is_lost(t->gpu), "%s: not lost", what);
   HWT_CHECK(strstr(hwt_snapshot(t->gpu), "(lost)") != NULL, "%s: snapshot not lost", what);
   const char *report = hw_gpu_fault_report(t->gpu);
   HWT_REQUIRE(report, "%s: no report", what);
   for (uint32_t i = 0; i < count; i++)
      HWT_CHECK(strstr(report, needles[i]) != NULL, "%s: the report lacks \"%s\":\n%s", what,
                needles[i], report);
}

/* A fresh GPU after a fault works: one launch, checked. */
static void fresh_gpu_works(void)
{
   struct eut t;
   eut_init(&t, NULL);
   uint64_t out = eut_alloc(&t, 4 * 64, 64);
   struct eut_launch l = {.program = eut_program(&t, ".warp 8\n"
                                                      "ldr.b64 u0 +0\n"
                                                      "s2r.local_index v0\n"
                                                      "shl v1, v0, #2\n"
                                                      "zext64 v2, v1\n"
                                                      "iadd64 v2, v2, u0\n"
                                                      "iadd v4, v0, #100\n"
                                                      "stg.b32 _, v2, v4\n"
                                                      "exit\n"),
                          .size = {64}, .root = eut_root(&t, &out, 1)};
   eut_run(&t, &l, "a GPU after a fault");
   const uint32_t *o = eut_ptr(&t, out);
   for (uint32_t i = 0; i < 64; i++)
      HWT_CHECK(o[i] == i + 100, "after a fault: %u", o[i]);
   eut_fini(&t);
}

/* ---- faults in an invocation --------------------------------------------------------- */

/* Prologue: u0 = root[0] (a buffer), u2 = root[1] (a bad address), v0 =
 * local index, v20 = 1 in the chosen invocation (CTA (2,1,0), local index
 * W + 3). */
static const char *const chooser =
   ".warp %u\n"
   ".stack %u\n"
   ".barrier\n"
   "ldr.b64 u0 +0\n"
   "ldr.b64 u2 +8\n"
   "s2r.local_index v0\n"
   "s2r.group_id_x u4\n"
   "s2r.group_id_y u5\n"
   "icmp.eq u6, u4, #2\n"
   "icmp.eq u7, u5, #1\n"
   "and u6, u6, u7\n"
   "icmp.eq v20, v0, #%u\n"
   "and v20, v20, u6\n";

struct inv_fault {
   const char *name;
   const char *body;         /* after the chooser */
   const char *cause;        /* in the report */
   const char *inst;         /* the faulting instruction's disassembly */
   int lane;                 /* the lane the report names; -1: none */
   uint32_t stack;
   uint64_t bad;             /* root[1]; 0: a freed allocation */
};

static void run_inv_fault(const struct inv_fault *f, uint32_t w)
{
   struct eut t;
   eut_init(&t, NULL);
   uint64_t buf = eut_alloc(&t, 4096, 4096);
   uint64_t bad = f->bad;
   if (!bad) {
      bad = hwt_alloc(t.gpu, 8192);
      hw_mem_free(hw_gpu_memory(t.gpu), bad);
   }
   uint64_t root[2] = {buf, bad};
   struct eut_text text = {0};
   eut_text_add(&text, chooser, w, f->stack ? f->stack : 4, w + 3);
   eut_text_add(&text, "%s", f->body);
   uint64_t prog = eut_program(&t, text.s);
   eut_text_free(&text);
   uint32_t size = 2 * w + 5;
   struct eut_launch l = {.program = prog, .grid = {3, 2}, .size = {size},
                          .root = eut_root(&t, root, 2), .shared_bytes = 256};
   uint64_t desc = eut_desc(&t, &l);
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, desc);
   char what[96], where[160], head[160];
   snprintf(what, sizeof(what), "%s (W=%u)", f->name, w);
   char dis[96];
   uint32_t pc = find_pc(&t, prog, f->inst, dis, sizeof(dis));
   if (f->lane >= 0)
      snprintf(where, sizeof(where), "CTA (2,1,0), warp 1, lane %d, pc %u: %s", f->lane, pc,
               dis);
   else
      snprintf(where, sizeof(where), "CTA (2,1,0), warp 1, pc %u: %s", pc, dis);
   snprintf(head, sizeof(head), "launch #1 (descriptor 0x%llx, program 0x%llx id %llu, grid "
            "3x2x1 of %ux1x1, W=%u)", (unsigned long long)desc, (unsigned long long)prog,
            (unsigned long long)prog, size, w);
   const char *needles[3] = {f->cause, head, where};
   expect_fault(&t, &pb, what, needles, 3);
   eut_fini(&t);
   fresh_gpu_works();
}

static void test_invocation_faults(void)
{
   static const struct inv_fault faults[] = {
      {"load from a freed allocation",
       "if _, v20 @e\n"
       "   ldg.b32 v9, u2 +4\n"
       "e: endif\n"
       "exit\n",
       "global load of 4 bytes at", "ldg.b32 v9, u2 +4", 3, 0, 0},
      {"load from VA 0x10",
       "if _, v20 @e\n"
       "   ldg.b32 v9, u2\n"
       "e: endif\n"
       "exit\n",
       "global load of 4 bytes at 0x10: invalid address", "ldg.b32 v9, u2", 3, 0, 0x10},
      {"store outside memory",
       "mov v9, #1\n"
       "if _, v20 @e\n"
       "   stg.b64 _, u2, v9 +8\n"
       "e: endif\n"
       "exit\n",
       "global store of 8 bytes at", "stg.b64 _, u2, v9 +8", 3, 0, 0},
      {"misaligned load",
       "shl v1, v0, #2\n"
       "iadd v1, v1, v20\n"
       "iadd v1, v1, v20          ; +2 bytes in the chosen invocation\n"
       "zext64 v2, v1\n"
       "iadd64 v2, v2, u0\n"
       "ldg.b32 v9, v2\n"
       "exit\n",
       "misaligned", "ldg.b32 v9, v2", 3, 0, 0},
      {"misaligned 64-bit atomic",
       "shl v1, v20, #2           ; 4 bytes off in the chosen invocation\n"
       "zext64 v2, v1\n"
       "iadd64 v2, v2, u0\n"
       "mov v4, #1\n"
       "mov v5, #0\n"
       "atomg.add.64 v6, v2, v4\n"
       "exit\n",
       "global atomic at", "atomg.add.64 v6, v2, v4", 3, 0, 0},
      {"S2R of no special register",
       "if _, v20 @e\n"
       "   s2r.mod77 v9\n"
       "e: endif\n"
       "exit\n",
       "illegal instruction: special register 77", "s2r.mod77 v9", -1, 0, 0},
      {"mask stack overflow (IF)",
       "mov v21, v20\n"
       "if _, v20 @e1\n"
       "   if _, v21 @e2\n"
       "      nop\n"
       "   e2: endif\n"
       "e1: endif\n"
       "exit\n",
       "mask stack overflow (depth 1)", "if _, v21", -1, 1, 0},
      {"mask stack overflow (LOOP)",
       "if _, v20 @e1\n"
       "   loop\n"
       "   h: brk _, v20 @e2\n"
       "   e2: endloop @h\n"
       "e1: endif\n"
       "exit\n",
       "mask stack overflow (depth 1)", "loop", -1, 1, 0},
      {"BRK past the innermost closer (IF entries left on the mask stack)",
       "icmp.eq v21, v20, #0\n"
       "loop\n"
       "h: brk _, v21 @cj              ; all but the chosen lane leave\n"
       "   if _, v20 @e1\n"
       "      brk _, v20 @cj           ; wrong: the closer of the IF is e1\n"
       "   e1: endif\n"
       "cj: contjoin @end\n"
       "end: endloop @h\n"
       "exit\n",
       "CONTJOIN outside a loop", "contjoin", -1, 0, 0},
      {"barrier reached by part of a live warp",
       "s2r.warp_id u8\n"
       "icmp.eq u8, u8, #1\n"
       "and u8, u8, u6\n"
       "and v21, v0, #1\n"
       "icmp.eq v21, v21, #0\n"
       "icmp.eq v22, u8, #0\n"
       "or v21, v21, v22          ; in warp 1 of the chosen CTA, only even lanes\n"
       "if _, v21 @e\n"
       "   bar\n"
       "e: endif\n"
       "exit\n",
       "barrier reached by part of a live warp", "bar", 1, 0, 0},
   };
   for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
      run_inv_fault(&faults[i], 8);
      run_inv_fault(&faults[i], 32);
   }
}

/* The part-of-a-warp barrier names the first live lane that is missing:
 * lane 1 of warp 1. Checked apart because the generic case names no lane. */
static void test_partial_barrier_lane(void)
{
   static const struct inv_fault f = {
      "barrier lane", "s2r.warp_id u8\n"
                      "icmp.eq u8, u8, #1\n"
                      "and u8, u8, u6\n"
                      "and v21, v0, #1\n"
                      "icmp.eq v21, v21, #0\n"
                      "icmp.eq v22, u8, #0\n"
                      "or v21, v21, v22\n"
                      "if _, v21 @e\n"
                      "   bar\n"
                      "e: endif\n"
                      "exit\n",
      "barrier reached by part of a live warp", "bar", 1, 0, 0};
   struct eut t;
   eut_init(&t, NULL);
   uint64_t buf = eut_alloc(&t, 4096, 4096);
   uint64_t root[2] = {buf, 0x10};
   struct eut_text text = {0};
   eut_text_add(&text, chooser, 16u, 4u, 19u);
   eut_text_add(&text, "%s", f.body);
   uint64_t prog = eut_program(&t, text.s);
   eut_text_free(&text);
   struct eut_launch l = {.program = prog, .grid = {3, 2}, .size = {37},
                          .root = eut_root(&t, root, 2)};
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
   char where[96], dis[32];
   uint32_t pc = find_pc(&t, prog, "bar", dis, sizeof(dis));
   snprintf(where, sizeof(where), "CTA (2,1,0), warp 1, lane 1, pc %u: %s", pc, dis);
   const char *needles[2] = {"(exec 0x5555, live 0xffff)", where};
   expect_fault(&t, &pb, "barrier lane (W=16)", needles, 2);
   eut_fini(&t);
}

static void test_two_barriers(void)
{
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      struct eut t;
      eut_init(&t, NULL);
      uint64_t prog = eut_programf(&t, ".warp %u\n"
                                       ".barrier\n"
                                       "s2r.warp_id u0\n"
                                       "bra_u _, u0 @other\n"
                                       "bar\n"
                                       "jmp @end\n"
                                       "other: bar\n"
                                       "end: exit\n", w);
      struct eut_launch l = {.program = prog, .grid = {1}, .size = {2 * w}};
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
      char cause[96], what[64];
      snprintf(cause, sizeof(cause), "two different barriers (pc 2 and pc 4) reached by one "
               "workgroup");
      snprintf(what, sizeof(what), "two barriers (W=%u)", w);
      const char *needles[3] = {cause, "launch #1 (", "CTA (0,0,0), warp 1, pc 4: bar"};
      expect_fault(&t, &pb, what, needles, 3);
      eut_fini(&t);
   }
}

static void test_watchdog(void)
{
   /* 4 CTAs of 100 go to the workers; 1 of 64 runs on the command processor. */
   static const uint32_t shapes[2][2] = {{4, 100}, {1, 64}};
   for (int k = 0; k < 4; k++) {
      uint32_t w = eut_widths[(k & 1) * 2];
      const uint32_t *shape = shapes[k / 2];
      struct hw_gpu_config cfg;
      eut_config(&cfg);
      cfg.watchdog_ms = 200;
      struct eut t;
      eut_init(&t, &cfg);
      uint64_t prog = eut_programf(&t, ".warp %u\n"
                                       "mov v0, #0\n"
                                       "spin: iadd v0, v0, #1\n"
                                       "jmp @spin\n", w);
      struct eut_launch l = {.program = prog, .grid = {shape[0]}, .size = {shape[1]}};
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
      uint64_t start = hw_now_ns();
      char what[64];
      snprintf(what, sizeof(what), "watchdog (W=%u, %u CTAs of %u)", w, shape[0], shape[1]);
      const char *needles[3] = {"watchdog: the launch has run for more than 200 ms",
                                "launch #1 (", ", pc "};
      expect_fault(&t, &pb, what, needles, 3);
      uint64_t ms = (hw_now_ns() - start) / HWT_MS;
      HWT_CHECK(ms >= 150 && ms < 5000, "%s: lost after %llu ms", what, (unsigned long long)ms);
      eut_fini(&t);
   }
}

/* ---- faults of the program or the descriptor ---------------------------------------------- */

static void test_illegal_opcodes(void)
{
   /* The first opcodes past the ISA's, and far past it. */
   static const uint16_t ops[] = {ISA_OP_COUNT, ISA_OP_COUNT + 1, 1000, 0xffff};
   for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
      struct eut t;
      eut_init(&t, NULL);
      char err[128];
      size_t size;
      void *image = isa_assemble_program(".line 1\n.warp 32\nmov v0, #1\nnop\nnop\nexit\n",
                                         &size, err, sizeof(err));
      HWT_REQUIRE(image, "%s", err);
      struct isa_inst *code = (struct isa_inst *)((struct isa_program_header *)image + 1);
      code[2].op = ops[i];   /* the unknown opcode at pc 2 */
      uint64_t prog = eut_image(&t, image, size);
      free(image);
      struct eut_launch l = {.program = prog, .grid = {2}, .size = {64}};
      uint64_t desc = eut_desc(&t, &l);
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch(pb.p, desc);
      char what[64], cause[160];
      snprintf(what, sizeof(what), "illegal opcode %u", ops[i]);
      snprintf(cause, sizeof(cause), "cannot run the program of launch descriptor 0x%llx: "
               "illegal instruction (opcode %u) at pc 2", (unsigned long long)desc, ops[i]);
      const char *needles[1] = {cause};
      expect_fault(&t, &pb, what, needles, 1);
      eut_fini(&t);
      fresh_gpu_works();
   }
}

static void test_bad_descriptors(void)
{
   struct bad {
      const char *name, *cause;
      struct eut_launch l;
      int special;   /* 1: descriptor outside memory; 2: program outside memory; 3: bad magic;
                      * 4: CTA height 0 */
   };
   const struct bad cases[] = {
      {"CTA of 0 invocations", "bad launch descriptor: CTA size out of range", {.size = {64}}, 4},
      {"CTA of 1025 invocations", "bad launch descriptor: CTA size out of range",
       {.size = {1025}}, 0},
      {"CTA of 2x1x65", "bad launch descriptor: CTA size out of range", {.size = {2, 1, 65}}, 0},
      {"too much shared memory", "bad launch descriptor: too much shared memory",
       {.size = {64}, .shared_bytes = 64 * 1024 + 4}, 0},
      {"too much private memory", "bad launch descriptor: too much private memory",
       {.size = {64}, .private_bytes = 64 * 1024 + 4}, 0},
      {"fewer registers", "bad launch descriptor: fewer registers than the program uses",
       {.size = {64}, .register_count = 3}, 0},
      {"grid y out of range", "bad launch descriptor: grid out of range",
       {.size = {64}, .grid = {1, 0x10000}}, 0},
      {"descriptor outside memory", "is not in GPU memory", {.size = {64}}, 1},
      {"program outside memory", "is not in GPU memory", {.size = {64}}, 2},
      {"program with a bad magic", "not a softgpu program (bad magic or version)",
       {.size = {64}}, 3},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      struct eut t;
      eut_init(&t, NULL);
      struct eut_launch l = cases[i].l;
      l.program = eut_program(&t, ".warp 32\n"
                                  "mov v5, #1\n"
                                  "exit\n");
      uint64_t desc = eut_desc(&t, &l);
      struct hw_launch_desc *d = eut_ptr(&t, desc);
      if (cases[i].special == 4)
         d->size[1] = 0;
      if (cases[i].special == 1)
         desc = 0x10000000ull * 15;
      if (cases[i].special == 2)
         d->program_va = 0x10;
      if (cases[i].special == 3)
         ((struct isa_program_header *)eut_ptr(&t, l.program))->magic ^= 1;
      struct hwt_pb pb;
      eut_begin(&t, &pb);
      pb.p = hw_emit_launch(pb.p, desc);
      const char *needles[1] = {cases[i].cause};
      expect_fault(&t, &pb, cases[i].name, needles, 1);
      eut_fini(&t);
   }
   fresh_gpu_works();
}

/* ---- returned invocations at a barrier ------------------------------------------------------ */

static _Atomic int barrier_warnings, other_messages;

static void sink(enum sg_log_level level, enum sg_log_area area, const char *message, void *user)
{
   if (area == SG_AREA_EU && strstr(message, "count as arrived at the barrier"))
      atomic_fetch_add(&barrier_warnings, 1);
   else if (level <= SG_LOG_WARN)
      atomic_fetch_add(&other_messages, 1);
}

static void test_returned_count_as_arrived(void)
{
   sg_log_set_sink(sink, NULL);
   for (int wi = 0; wi < 4; wi++) {
      uint32_t w = eut_widths[wi];
      atomic_store(&barrier_warnings, 0);
      atomic_store(&other_messages, 0);
      struct eut t;
      eut_init(&t, NULL);
      /* Warp 1 (of 3) returns at once; lanes 0..1 of warp 0 return too;
       * the others pass two barriers with shared memory between them:
       * out[i] = shared[(i + 1) % size] written by the live invocations. */
      uint32_t size = 3 * w;
      uint64_t out = eut_alloc(&t, 4ull * size * 10, 64);
      uint64_t prog = eut_programf(&t,
                                   ".warp %u\n"
                                   ".barrier\n"
                                   "ldr.b64 u0 +0\n"
                                   "s2r.local_index v0\n"
                                   "s2r.warp_id u2\n"
                                   "s2r.group_id_x u3\n"
                                   "s2r.group_size_x u4\n"
                                   "icmp.eq v1, u2, #1\n"
                                   "icmp.lt_u v2, v0, #2\n"
                                   "or v1, v1, v2\n"
                                   "ret _, v1 @go\n"
                                   "go: shl v3, v0, #2\n"
                                   "iadd v4, v0, #1000\n"
                                   "sts.b32 _, v3, v4\n"
                                   "bar\n"
                                   "iadd v5, v0, #1\n"
                                   "irem_u v5, v5, u4\n"
                                   "shl v5, v5, #2\n"
                                   "lds.b32 v6, v5\n"
                                   "bar\n"
                                   "imad v7, u3, u4, v0\n"
                                   "shl v7, v7, #2\n"
                                   "zext64 v8, v7\n"
                                   "iadd64 v8, v8, u0\n"
                                   "stg.b32 _, v8, v6\n"
                                   "exit\n", w);
      for (int launch = 0; launch < 2; launch++) {
         uint32_t *o = eut_ptr(&t, out);
         for (uint32_t i = 0; i < size * 10; i++)
            o[i] = 0xdeadbeef;
         struct eut_launch l = {.program = prog, .grid = {10}, .size = {size},
                                .shared_bytes = 4 * size, .root = eut_root(&t, &out, 1)};
         eut_run(&t, &l, "returned invocations at barriers");
         for (uint32_t g = 0; g < 10; g++) {
            for (uint32_t i = 0; i < size; i++) {
               bool gone = i / w == 1 || i < 2;
               uint32_t from = (i + 1) % size;
               bool from_gone = from / w == 1 || from < 2;
               uint32_t got = o[g * size + i];
               if (gone)
                  HWT_CHECK(got == 0xdeadbeef, "W=%u: returned invocation %u wrote", w, i);
               else if (!from_gone)
                  HWT_CHECK(got == from + 1000, "W=%u CTA %u invocation %u read %u, expected %u",
                            w, g, i, got, from + 1000);
            }
         }
      }
      HWT_CHECK(!hw_gpu_is_lost(t.gpu), "W=%u: lost", w);
      HWT_CHECK(atomic_load(&barrier_warnings) == 1, "W=%u: %d barrier warnings, expected one",
                w, atomic_load(&barrier_warnings));
      HWT_CHECK(atomic_load(&other_messages) == 0, "W=%u: %d other warnings", w,
                atomic_load(&other_messages));
      eut_fini(&t);
   }
   sg_log_set_sink(NULL, NULL);
}

int main(void)
{
   HWT_RUN(test_returned_count_as_arrived);
   HWT_RUN(test_invocation_faults);
   HWT_RUN(test_partial_barrier_lane);
   HWT_RUN(test_two_barriers);
   HWT_RUN(test_watchdog);
   HWT_RUN(test_illegal_opcodes);
   HWT_RUN(test_bad_descriptors);
   return hwt_finish();
}
