/*
 * Hang reports: a host wait that lasts longer than SOFTGPU_HANG_REPORT_MS
 * prints, once per device, what it waits for, what every other host thread
 * blocked in one of the device's waits waits for, and what every queue is
 * doing (parked on which semaphore, how far it got), naming the Vulkan
 * objects behind the semaphore words, then goes on waiting.
 *
 * Every blocking host wait of a device goes through sg_hang_wait, which
 * lists it in the device's registry of waiting threads for its duration
 * (so reports and snapshots show all of them), and warns (rate-limited)
 * when it took longer than SOFTGPU_SLOW_WAIT_MS.
 */
#ifndef SG_HANG_H
#define SG_HANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw_gpu.h"

struct sg_device;

/* A host thread blocked in one of the device's waits, listed in
 * dev->waiters (under dev->waiters_lock) for the wait's duration; the
 * items are the waiting thread's, valid while it is listed. */
struct sg_hang_waiter {
   struct sg_hang_waiter *next;
   long tid;
   const char *call;                   /* the Vulkan command */
   const struct hw_wait_item *items;
   uint32_t count;
   bool all;
   uint64_t since_ns;                  /* hw_now_ns() when the wait began */
};

/* Reads SOFTGPU_HANG_REPORT_MS (unset: 10 s; 0: no reports) and
 * SOFTGPU_SLOW_WAIT_MS for a new device; sets up its waiter registry. */
void sg_hang_device_init(struct sg_device *dev);
void sg_hang_device_finish(struct sg_device *dev);

/* hw_wait for the device's host waits; `call` names the Vulkan command in
 * the report. */
enum hw_wait_result sg_hang_wait(struct sg_device *dev, const struct hw_wait_item *items,
                                 uint32_t count, bool all, uint64_t timeout_ns,
                                 const char *call);

/* Writes every host thread waiting on the device (but `self`, which may be
 * NULL), every used queue's progress and parked acquire, then the GPU's
 * channels, into buf; returns the length. */
size_t sg_hang_describe_device(struct sg_device *dev, const struct sg_hang_waiter *self,
                               char *buf, size_t size);

/* Writes the report (what the waiter waits for, the other waiting host
 * threads, the queues, the GPU's channels) into buf. */
void sg_hang_describe(struct sg_device *dev, const struct sg_hang_waiter *w, uint64_t now_ns,
                      char *buf, size_t size);

#endif
