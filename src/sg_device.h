#ifndef SG_DEVICE_H
#define SG_DEVICE_H

#include "sg_entrypoints.h"
#include "sg_object.h"
#include "sg_struct_tables.h"

struct sg_instance;
struct sg_physical_device;
struct sg_queue;

struct sg_device {
   struct sg_object base;
   VkAllocationCallbacks alloc;        /* the application's, or the instance's */
   struct sg_instance *instance;
   struct sg_physical_device *pdev;
   /* min(application apiVersion, softgpu's): core commands above it are
    * not returned by vkGetDeviceProcAddr ("requested core version"). */
   uint32_t api_version;
   /* Enabled device extensions, plus the instance's enabled instance
    * extensions (which also add device-level commands, e.g. debug utils). */
   struct sg_ext_set enabled_exts;
   struct sg_core_features enabled_features;
   uint32_t queue_count;
   struct sg_queue *queues;            /* one per requested queue */
};

SG_DEFINE_HANDLE_CASTS(sg_device, VkDevice)

#endif
