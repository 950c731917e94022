/*
 * Snapshots on demand: SIGUSR1 prints, for every live device, each used
 * queue's progress and parked acquire and each GPU channel's state, to
 * stderr. The handler is installed with the first device, only if
 * SIGUSR1 still has its default action (the application's own handler
 * wins) and SOFTGPU_SIGUSR1 is not 0; it is removed with the last device.
 */
#ifndef SG_SNAPSHOT_H
#define SG_SNAPSHOT_H

struct sg_device;

void sg_snapshot_register(struct sg_device *dev);
void sg_snapshot_unregister(struct sg_device *dev);

#endif
