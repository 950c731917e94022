/*
 * SOFTGPU_CAPTURE=<dir>: every submission's pushbuffers, as the GPU will
 * read them, appended to <dir>/softgpu-<pid>-<device>-ch<channel>.sgcap
 * (format: util/sg_capture_format.h), for `softgpu dump`. Off unless set;
 * a write error logs once and stops that queue's capture.
 */
#ifndef SG_CAPTURE_H
#define SG_CAPTURE_H

#include <stdint.h>

struct sg_queue;

/* Writes the pushbuffers of the submission just written: the ring entries
 * [first_put, queue->put) or, if it went to no ring entry, the linked
 * pushbuffer at linked_va; then what they CALL or JUMP to. */
void sg_capture_submission(struct sg_queue *queue, uint32_t first_put, uint64_t linked_va,
                           uint32_t linked_dwords);

/* Closes the queue's capture file, if any. */
void sg_capture_finish(struct sg_queue *queue);

#endif
