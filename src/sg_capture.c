#include "sg_capture.h"
#include "sg_capture_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw_packets.h"
#include "sg_device.h"
#include "sg_log.h"
#include "sg_queue.h"

/* Enough for any real submission; a pushbuffer that branches in a loop
 * (which the GPU would fault on) must not make the capture endless. */
#define MAX_RECORDS 4096u
#define MAX_DEPTH 8u   /* CALLs nest no deeper than the GPU allows (it faults sooner) */

struct walk {
   struct sg_queue *queue;
   uint64_t submission;
   uint32_t records;
};

/* Opens the queue's capture file on its first submission, if asked. */
static FILE *capture_file(struct sg_queue *q)
{
   if (q->capture_checked)
      return q->capture;
   q->capture_checked = true;
   const char *dir = getenv("SOFTGPU_CAPTURE");
   if (!dir || !*dir)
      return NULL;
   char path[4096];
   snprintf(path, sizeof(path), "%s/softgpu-%ld-%llx-ch%u.sgcap", dir, (long)getpid(),
            (unsigned long long)(uintptr_t)q->device, q->channel);
   q->capture = fopen(path, "wbe");
   if (!q->capture)
      SG_LOG(SG_LOG_WARN, SG_AREA_RING, "SOFTGPU_CAPTURE: cannot create %s: %s", path,
             strerror(errno));
   else
      SG_LOG(SG_LOG_INFO, SG_AREA_RING, "queue %u.%u: capturing submissions to %s", q->family,
             q->index_in_family, path);
   return q->capture;
}

static void stop(struct sg_queue *q)
{
   SG_LOG(SG_LOG_WARN, SG_AREA_RING, "SOFTGPU_CAPTURE: writing queue %u.%u's capture failed "
          "(%s); capture stopped", q->family, q->index_in_family, strerror(errno));
   fclose(q->capture);
   q->capture = NULL;
}

/* Writes one pushbuffer, then every pushbuffer it CALLs or JUMPs to. */
static void write_pushbuffer(struct walk *w, enum sg_capture_kind kind, uint64_t va,
                             uint32_t dwords, uint32_t depth)
{
   struct sg_queue *q = w->queue;
   const uint32_t *p = hw_mem_check(hw_gpu_memory(q->device->gpu), va, (uint64_t)dwords * 4);
   if (!q->capture || !p || w->records == MAX_RECORDS)
      return;
   w->records++;
   struct sg_capture_record r = {.magic = SG_CAPTURE_MAGIC, .kind = kind, .va = va,
                                 .submission = w->submission, .channel = q->channel,
                                 .dwords = dwords};
   if (fwrite(&r, sizeof(r), 1, q->capture) != 1 ||
       fwrite(p, 4, dwords, q->capture) != dwords) {
      stop(q);
      return;
   }
   for (uint32_t pos = 0; pos < dwords && depth < MAX_DEPTH;) {
      uint32_t op = hw_pkt_opcode(p[pos]), len = hw_pkt_length(p[pos]);
      if (pos + 1 + len > dwords)
         break;
      if ((op == HW_OP_CALL || op == HW_OP_JUMP) && len >= HW_PKT_BRANCH_DWORDS) {
         struct hw_pkt_branch b = hw_decode_branch(p + pos + 1);
         write_pushbuffer(w, SG_CAPTURE_BRANCH, b.va, b.length, depth + 1);
      }
      pos += 1 + len;
   }
}

void sg_capture_submission(struct sg_queue *q, uint32_t first_put, uint64_t linked_va,
                           uint32_t linked_dwords)
{
   if (!capture_file(q))
      return;
   struct walk w = {.queue = q, .submission = q->submitted};
   for (uint32_t put = first_put; put != q->put; put++) {
      const struct hw_ring_entry *e = &q->ring[put & (SG_RING_ENTRIES - 1)];
      write_pushbuffer(&w, SG_CAPTURE_RING_ENTRY, e->pushbuffer_va, e->length, 0);
   }
   if (first_put == q->put && linked_dwords)
      write_pushbuffer(&w, SG_CAPTURE_LINKED, linked_va, linked_dwords, 0);
   /* Whole submissions reach the file: a crash afterwards loses nothing. */
   if (q->capture && fflush(q->capture) != 0)
      stop(q);
}

void sg_capture_finish(struct sg_queue *q)
{
   if (q->capture)
      fclose(q->capture);
   q->capture = NULL;
}
