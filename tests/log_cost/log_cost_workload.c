/*
 * The workload of the logging cost test (tests/log_cost/test_log_cost.sh):
 * a short, deterministic run of the paths that carry the most log points,
 * built twice, against hw/ and util/ as they are and against the same
 * sources with SOFTGPU_LOG_COMPILED_OUT. Each round submits a pushbuffer of
 * inline writes, a fill and a release to a compute channel and a copy plus
 * a release to a DMA channel and rings both doorbells; every BATCH rounds
 * it waits for both channels' last releases: ring fetches, packet
 * decoding, releases, interrupts, doorbells and host waits.
 *
 * Stable instruction counts need no spinning (a spin's length depends on
 * timing: the budgets are 0 here), no execution-unit workers, and few
 * idle engines: how often an engine finds nothing to do depends on thread
 * scheduling, so the host queues a batch of rounds before it waits.
 * Usage: log_cost_workload [ROUNDS]
 */
#include <stdlib.h>
#include <string.h>

#include "hwt.h"
#include "sg_log.h"

#define BATCH 32u         /* rounds queued before the host waits */
#define SLOTS (2 * BATCH) /* pushbuffers in turn: each is idle when reused */
#define SLOT_DWORDS 256u

static void round_trip(struct hwt_channel *cp, struct hwt_channel *dma, uint64_t pbs,
                       uint64_t data, uint64_t sem, uint64_t n)
{
   struct hwt_pb pb;
   hwt_pb_at(&pb, cp->gpu, pbs + (n % SLOTS) * 2 * SLOT_DWORDS * 4, SLOT_DWORDS);
   for (uint32_t i = 0; i < 8; i++)
      hwt_write32(&pb, data + 4 * i, (uint32_t)n + i);
   pb.p = hw_emit_fill(pb.p, data + 256, 256, (uint32_t)n);
   hwt_release(&pb, sem, n, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, cp);

   hwt_pb_at(&pb, cp->gpu, pbs + ((n % SLOTS) * 2 + 1) * SLOT_DWORDS * 4, SLOT_DWORDS);
   pb.p = hw_emit_copy(pb.p, data, data + 1024, 512);
   hwt_release(&pb, sem + 8, n, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT);
   hwt_pb_submit(&pb, dma);

   if (n % BATCH == 0) {
      hwt_wait_sem(cp->gpu, sem, n, "compute release");
      hwt_wait_sem(cp->gpu, sem + 8, n, "DMA release");
   }
}

int main(int argc, char **argv)
{
   uint64_t rounds = argc > 1 ? strtoull(argv[1], NULL, 10) / BATCH * BATCH : 2048;
   sg_log_init();   /* as the driver does: SOFTGPU_LOG applies */
   struct hw_gpu_config cfg;
   hwt_config(&cfg, 1, 1);
   cfg.engine_spin_ns = 0;
   cfg.wait_spin_ns = 0;
   cfg.slow_us = 5000;   /* the default: the latency check runs in both builds */
   struct hw_gpu *gpu = hwt_gpu_create(&cfg);
   struct hwt_channel cp, dma;
   hwt_channel_init(&cp, gpu, 0, 64, 0);
   hwt_channel_init(&dma, gpu, 1, 64, 0);
   uint64_t pbs = hwt_alloc(gpu, SLOTS * 2 * SLOT_DWORDS * 4);
   uint64_t data = hwt_alloc(gpu, 4096);
   uint64_t sem = hwt_alloc(gpu, 64);
   for (uint64_t n = 1; n <= rounds; n++)
      round_trip(&cp, &dma, pbs, data, sem, n);
   HWT_CHECK(hwt_load64(gpu, sem) == rounds && hwt_load64(gpu, sem + 8) == rounds,
             "the last releases");
   hw_gpu_destroy(gpu);
   return hwt_finish();
}
