/*
 * Snapshots and log changes on demand, answered by the softgpu-snap thread:
 * - SIGUSR1 prints, for every live device, the host threads blocked in its
 *   waits, each used queue's progress and parked acquire and each GPU
 *   channel's state, to stderr (tools/softgpu snapshot PID);
 * - SIGUSR2 applies the log spec in the control file
 *   $XDG_RUNTIME_DIR/softgpu-<pid>.log (else /tmp/softgpu-<pid>.log),
 *   which must be a regular file of this user that no one else can write,
 *   then removes it (tools/softgpu log PID SPEC).
 * Each handler is installed with the first device, only if the signal
 * still has its default action (the application's own handler wins) and
 * SOFTGPU_SIGUSR1 / SOFTGPU_SIGUSR2 is not 0; they are removed with the
 * last device.
 */
#ifndef SG_SNAPSHOT_H
#define SG_SNAPSHOT_H

struct sg_device;

void sg_snapshot_register(struct sg_device *dev);
void sg_snapshot_unregister(struct sg_device *dev);

#endif
