/*
 * Hang reports: a host wait that lasts longer than SOFTGPU_HANG_REPORT_MS
 * prints, once per device, what it waits for and what every queue is
 * doing (parked on which semaphore, how far it got), naming the Vulkan
 * objects behind the semaphore words, then goes on waiting.
 */
#ifndef SG_HANG_H
#define SG_HANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw_gpu.h"

struct sg_device;

/* Reads SOFTGPU_HANG_REPORT_MS (unset: 10 s; 0: no reports) for a new device. */
uint64_t sg_hang_report_ns_from_env(void);

/* hw_wait for the device's host waits; `call` names the Vulkan command in
 * the report. */
enum hw_wait_result sg_hang_wait(struct sg_device *dev, const struct hw_wait_item *items,
                                 uint32_t count, bool all, uint64_t timeout_ns,
                                 const char *call);

/* Writes every used queue's progress and parked acquire, then the GPU's
 * channels, into buf; returns the length. */
size_t sg_hang_describe_device(struct sg_device *dev, char *buf, size_t size);

/* Writes the report (what the items wait for, the queues, the GPU's
 * channels) into buf. */
void sg_hang_describe(struct sg_device *dev, const struct hw_wait_item *items, uint32_t count,
                      bool all, const char *call, uint64_t waited_ns, char *buf, size_t size);

#endif
