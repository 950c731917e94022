#ifndef SG_INSTANCE_H
#define SG_INSTANCE_H

#include <pthread.h>

#include "sg_entrypoints.h"
#include "sg_object.h"

struct sg_messenger;
struct sg_physical_device;

struct sg_instance {
   struct sg_object base;
   VkAllocationCallbacks alloc;          /* the application's, or the system's */
   /* VkApplicationInfo::apiVersion as given (0 when absent), for logs. */
   uint32_t app_api_version;
   /* The version the instance works at: the application's major.minor,
    * within 1.0 and softgpu's own version, variant 0, patch 0 (see
    * instance_api_version). Device-level core commands beyond it are not
    * returned by vkGetDeviceProcAddr. */
   uint32_t api_version;
   struct sg_ext_set enabled_exts;
   /* softgpu exposes one GPU per instance. */
   struct sg_physical_device *physical_device;

   /* VK_EXT_debug_utils messengers, including those chained to
    * VkInstanceCreateInfo. Guarded by messenger_lock. */
   pthread_mutex_t messenger_lock;
   struct sg_messenger *messengers;

   /* Link in the process-wide list the log sink walks. */
   struct sg_instance *next_live;
};

SG_DEFINE_HANDLE_CASTS(sg_instance, VkInstance)

/* Runs fn for every live instance, under the process-wide list lock. */
void sg_instance_foreach_live(void (*fn)(struct sg_instance *inst, void *user), void *user);

#endif
