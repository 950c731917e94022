/*
 * debugPrintfEXT: launches of programs that print write records into a
 * buffer their command buffer owns (hw/include/hw_root.h gives the
 * format); the driver prints them, through the log's "shader" area, once
 * it sees the command buffer's execution complete: at fence, semaphore and
 * idle waits, at the next submission, and when the command buffer is reset
 * or freed.
 */
#ifndef SG_PRINTF_H
#define SG_PRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sg_cmd_buffer;
struct sg_device;
struct sg_pipeline;

/* The printf buffer's VA for a launch of pl, and the number of pl's first
 * format in this command buffer (written to the root table). False if
 * memory ran out (the recording then fails). */
bool sg_cmd_printf_prepare(struct sg_cmd_buffer *cmd, const struct sg_pipeline *pl, uint64_t *va,
                           uint32_t *base);

/* Prints what a completed execution left, then forgets the formats (a new
 * recording starts). */
void sg_cmd_printf_reset(struct sg_cmd_buffer *cmd);
/* The same, then frees the buffer (the command buffer is being freed). */
void sg_cmd_printf_release(struct sg_cmd_buffer *cmd);

/* A submission executes cmd (and its secondaries): print after it completes. */
void sg_printf_submitted(struct sg_device *dev, struct sg_cmd_buffer *cmd);
/* Prints the output of every submitted command buffer that has completed. */
void sg_printf_poll(struct sg_device *dev);

/* Formats one record (exposed for tests): a C printf subset plus the
 * vector forms ("%v3f"). */
void sg_printf_format(char *out, size_t size, const char *fmt, const uint32_t *args, uint32_t count);

#endif
