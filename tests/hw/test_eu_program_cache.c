/*
 * test_eu_program_cache: the GPU's cache of decoded programs, keyed by
 * (program VA, program id) as hw_packets.h says.
 *
 * Pins down:
 * - 300 distinct programs (more than the cache holds, 256), launched one
 *   after the other, each run its own code (each writes its own number),
 *   and the first ones, evicted since, run right again when launched anew;
 * - 300 distinct programs launched from one pushbuffer (many queued at
 *   once, several CTAs each so they go to the workers) all run their own
 *   code;
 * - rewriting the program bytes at a VA and launching with a new id runs
 *   the new code; with the old id, the cached decoding of the old code (the
 *   driver's contract: a new program gets a new id).
 * Before the fix of hw_eu.c get_program (the reference taken before
 * trim_cache), the 257th program was freed by the trim that followed its
 * own decoding and the launch ran freed memory.
 */
#include "eut.h"

static uint64_t numbered_program(struct eut *t, uint32_t k)
{
   return eut_programf(t, ".warp 8\n"
                          "ldr.b64 u0 +0\n"
                          "s2r.group_id_x u2\n"
                          "shl u2, u2, #2\n"
                          "zext64 u4, u2\n"
                          "iadd64 u4, u4, u0\n"
                          "mov v0, #%u\n"
                          "s2r.local_index v1\n"
                          "icmp.eq v2, v1, #0\n"
                          "if _, v2 @e\n"
                          "   stg.b32 _, u4, v0\n"
                          "e: endif\n"
                          "exit\n", k);
}

static void test_one_by_one(void)
{
   struct eut t;
   eut_init(&t, NULL);
   uint64_t out = eut_alloc(&t, 4096, 64), root = eut_root(&t, &out, 1);
   uint64_t progs[300];
   uint32_t *o = eut_ptr(&t, out);
   for (uint32_t k = 0; k < 300; k++) {
      progs[k] = numbered_program(&t, k);
      struct eut_launch l = {.program = progs[k], .size = {8}, .root = root};
      eut_run(&t, &l, "distinct program");
      HWT_CHECK(o[0] == k, "program %u wrote %u", k, o[0]);
   }
   for (uint32_t k = 0; k < 20; k++) {
      struct eut_launch l = {.program = progs[k], .size = {8}, .root = root};
      eut_run(&t, &l, "evicted program again");
      HWT_CHECK(o[0] == k, "program %u, launched again, wrote %u", k, o[0]);
   }
   eut_fini(&t);
}

static void test_queued(void)
{
   struct eut t;
   eut_init(&t, NULL);
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   uint64_t outs[300];
   for (uint32_t k = 0; k < 300; k++) {
      outs[k] = eut_alloc(&t, 4 * 64, 64);
      struct eut_launch l = {.program = numbered_program(&t, k), .grid = {64}, .size = {8},
                             .root = eut_root(&t, &outs[k], 1)};
      pb.p = hw_emit_launch(pb.p, eut_desc(&t, &l));
   }
   eut_submit_ok(&t, &pb, "300 queued programs");
   for (uint32_t k = 0; k < 300; k++) {
      const uint32_t *o = eut_ptr(&t, outs[k]);
      for (uint32_t g = 0; g < 64; g++) {
         if (o[g] != k) {
            HWT_CHECK(false, "queued program %u, CTA %u wrote %u", k, g, o[g]);
            break;
         }
      }
   }
   eut_fini(&t);
}

static void test_same_va(void)
{
   struct eut t;
   eut_init(&t, NULL);
   uint64_t out = eut_alloc(&t, 4096, 64), root = eut_root(&t, &out, 1);
   uint64_t va = numbered_program(&t, 1);
   char err[128];
   size_t size;
   const char *two = ".line 1\n.warp 8\nldr.b64 u0 +0\nmov v0, #2\nstg.b32 _, u0, v0\nexit\n";
   void *image = isa_assemble_program(two, &size, err, sizeof(err));
   HWT_REQUIRE(image, "%s", err);
   uint32_t *o = eut_ptr(&t, out);
   struct hw_launch_desc d = {.program_va = va, .program_id = 1, .grid = {1, 1, 1},
                              .size = {8, 1, 1}, .register_count = 64, .root_va = root};
   uint64_t desc = eut_alloc(&t, sizeof(d), 64);
   memcpy(eut_ptr(&t, desc), &d, sizeof(d));
   struct hwt_pb pb;
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, desc);
   eut_submit_ok(&t, &pb, "program 1");
   HWT_CHECK(o[0] == 1, "program 1 wrote %u", o[0]);
   memcpy(eut_ptr(&t, va), image, size);   /* new code at the same VA */
   free(image);
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, desc);     /* same id: the cached decoding */
   eut_submit_ok(&t, &pb, "same id");
   HWT_CHECK(o[0] == 1, "same VA and id after a rewrite: wrote %u, expected the cached 1", o[0]);
   d.program_id = 2;
   uint64_t desc2 = eut_alloc(&t, sizeof(d), 64);
   memcpy(eut_ptr(&t, desc2), &d, sizeof(d));
   eut_begin(&t, &pb);
   pb.p = hw_emit_launch(pb.p, desc2);
   eut_submit_ok(&t, &pb, "new id");
   HWT_CHECK(o[0] == 2, "same VA, new id: wrote %u, expected 2", o[0]);
   eut_fini(&t);
}

int main(void)
{
   HWT_RUN(test_same_va);
   HWT_RUN(test_one_by_one);
   HWT_RUN(test_queued);
   return hwt_finish();
}
