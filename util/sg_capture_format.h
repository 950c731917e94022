/*
 * The file format of SOFTGPU_CAPTURE (written by src/sg_capture.c, read by
 * tools/softgpu_dump.c): one file per queue, a sequence of records, each a
 * struct sg_capture_record followed by `dwords` pushbuffer dwords, all
 * little endian. A submission writes one record per pushbuffer it put in
 * the ring (or linked to the previous submission when the ring was full),
 * then one per pushbuffer those CALL or JUMP to, in the order found.
 */
#ifndef SG_CAPTURE_FORMAT_H
#define SG_CAPTURE_FORMAT_H

#include <stdint.h>

#define SG_CAPTURE_MAGIC 0x50414353u   /* "SCAP" */

enum sg_capture_kind {
   SG_CAPTURE_RING_ENTRY = 1,   /* a ring entry's pushbuffer */
   SG_CAPTURE_LINKED = 2,       /* a pushbuffer linked into the previous submission's link slot */
   SG_CAPTURE_BRANCH = 3,       /* the target of a CALL or JUMP in a pushbuffer above */
};

struct sg_capture_record {
   uint32_t magic;        /* SG_CAPTURE_MAGIC */
   uint32_t kind;         /* enum sg_capture_kind */
   uint64_t va;           /* the pushbuffer's GPU virtual address */
   uint64_t submission;   /* the queue's submission number (1, 2, ...) */
   uint32_t channel;      /* the GPU channel the queue drives */
   uint32_t dwords;       /* pushbuffer length that follows */
};
_Static_assert(sizeof(struct sg_capture_record) == 32, "the record header is 32 bytes");

#endif
