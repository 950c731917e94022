#ifndef SG_PHYSICAL_DEVICE_H
#define SG_PHYSICAL_DEVICE_H

#include "hw_caps.h"
#include "sg_entrypoints.h"
#include "sg_object.h"
#include "sg_struct_tables.h"

struct sg_instance;

/* Queue families: the compute engine's channels and the DMA engine's. */
enum sg_queue_family {
   SG_QUEUE_FAMILY_COMPUTE = 0,
   SG_QUEUE_FAMILY_TRANSFER = 1,
   SG_QUEUE_FAMILY_COUNT
};

struct sg_physical_device {
   struct sg_object base;
   struct sg_instance *instance;
   struct hw_caps caps;
   /* What softgpu supports, per core version, less what
    * SOFTGPU_HIDE_FEATURES hides; every feature struct is answered from
    * these blocks (see sg_struct_tables.h). */
   struct sg_core_features features;
   struct sg_core_properties props;
   VkPhysicalDeviceMemoryProperties memory;
   VkQueueFamilyProperties queue_families[SG_QUEUE_FAMILY_COUNT];
   struct sg_ext_set device_exts;   /* advertised device extensions */
   /* The features SOFTGPU_HIDE_FEATURES took away from the above (VK_TRUE
    * members), so that vkCreateDevice can say why it refuses them. A
    * hidden extension is simply missing from device_exts. */
   struct sg_core_features hidden_features;
};

SG_DEFINE_HANDLE_CASTS(sg_physical_device, VkPhysicalDevice)

VkResult sg_physical_device_create(struct sg_instance *inst, struct sg_physical_device **out);
void sg_physical_device_destroy(struct sg_physical_device *pdev);

/* Walks a VkDeviceCreateInfo chain: checks every requested feature against
 * the supported ones (logging the first unsupported one) and collects the
 * enabled set. Returns VK_ERROR_FEATURE_NOT_PRESENT on an unsupported one. */
VkResult sg_physical_device_enable_features(const struct sg_physical_device *pdev,
                                            const VkDeviceCreateInfo *info,
                                            struct sg_core_features *enabled);

#endif
