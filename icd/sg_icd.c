/*
 * The loader interface: the only symbols libvulkan_softgpu.so exports, and
 * the vkGet*ProcAddr lookups over the generated entrypoint table.
 */
#include <string.h>
#include <vulkan/vk_icd.h>

#include "sg_device.h"
#include "sg_entrypoints.h"
#include "sg_extensions.h"
#include "sg_instance.h"
#include "sg_log.h"
#include "sg_physical_device.h"

#define SG_EXPORT __attribute__((visibility("default")))

/* Interface 5 lets the loader check apiVersion for us; 7 lets it query the
 * vk_icd* functions through vk_icdGetInstanceProcAddr. */
#define SG_ICD_INTERFACE_MIN 5u
#define SG_ICD_INTERFACE_MAX 7u

SG_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pVersion)
{
   sg_log_init();
   if (*pVersion < SG_ICD_INTERFACE_MIN) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_ICD, "the Vulkan loader offers ICD interface version %u; "
             "softgpu needs %u or later", *pVersion, SG_ICD_INTERFACE_MIN);
      return VK_ERROR_INCOMPATIBLE_DRIVER;
   }
   if (*pVersion > SG_ICD_INTERFACE_MAX)
      *pVersion = SG_ICD_INTERFACE_MAX;
   SG_LOG(SG_LOG_DEBUG, SG_AREA_ICD, "loader interface version %u", *pVersion);
   return VK_SUCCESS;
}

/* True if an extension that provides a command is usable: an owner and its
 * extra dependency, if any, are both in the set. */
static bool owned_by(const struct sg_entrypoint *e, const struct sg_ext_set *exts)
{
   for (uint32_t i = 0; i < e->owner_count; i++) {
      if (sg_ext_set_has(exts, e->owners[i].ext) &&
          (e->owners[i].dep == SG_EXT_COUNT || sg_ext_set_has(exts, e->owners[i].dep)))
         return true;
   }
   return false;
}

static PFN_vkVoidFunction entry_func(const struct sg_entrypoint *e)
{
   return e->impl ? e->impl : e->stub;
}

/* The extensions an instance can reach commands of: its enabled instance
 * extensions, and every device extension softgpu offers ("available device
 * extension ... commands", vkGetInstanceProcAddr). */
static struct sg_ext_set instance_reachable(const struct sg_instance *inst)
{
   struct sg_ext_set set = inst->enabled_exts;
   struct sg_ext_set dev = sg_extension_set(sg_device_extensions, sg_device_extension_count);
   for (uint32_t w = 0; w < SG_EXT_WORDS; w++)
      set.bits[w] |= dev.bits[w];
   return set;
}

static PFN_vkVoidFunction icd_function(const char *name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL sg_GetInstanceProcAddr(VkInstance instance,
                                                                const char *pName)
{
   if (!pName)
      return NULL;
   PFN_vkVoidFunction icd = icd_function(pName);
   if (icd)
      return icd;
   const struct sg_entrypoint *e = sg_entrypoint_find(pName);
   if (!e)
      return NULL;
   /* vkGetInstanceProcAddr: with a NULL instance, only the global commands
    * and vkGetInstanceProcAddr itself. */
   if (!instance) {
      bool global = e->level == SG_CMD_GLOBAL || strcmp(pName, "vkGetInstanceProcAddr") == 0;
      return global ? entry_func(e) : NULL;
   }
   if (e->core_minor != SG_CMD_NOT_CORE)
      return entry_func(e);
   struct sg_ext_set reach = instance_reachable(sg_instance_from_handle(instance));
   return owned_by(e, &reach) ? e->impl : NULL;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL sg_GetDeviceProcAddr(VkDevice device, const char *pName)
{
   if (!pName)
      return NULL;
   const struct sg_entrypoint *e = sg_entrypoint_find(pName);
   if (!e || e->level != SG_CMD_DEVICE)
      return NULL;
   struct sg_device *dev = sg_device_from_handle(device);
   /* "requested core version device-level dispatchable command" (the
    * vkGetDeviceProcAddr table): versions above the application's
    * apiVersion are not requested. */
   if (e->core_minor != SG_CMD_NOT_CORE && e->core_minor <= VK_API_VERSION_MINOR(dev->api_version))
      return entry_func(e);
   return owned_by(e, &dev->enabled_exts) ? e->impl : NULL;
}

SG_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetPhysicalDeviceProcAddr(VkInstance instance,
                                                                                   const char *pName)
{
   if (!pName)
      return NULL;
   const struct sg_entrypoint *e = sg_entrypoint_find(pName);
   if (!e || e->level != SG_CMD_PHYSICAL_DEVICE)
      return NULL;
   return sg_GetInstanceProcAddr(instance, pName);
}

SG_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance instance,
                                                                             const char *pName)
{
   return sg_GetInstanceProcAddr(instance, pName);
}

/* Interface version 7: the vk_icd* functions are also found by name. */
static PFN_vkVoidFunction icd_function(const char *name)
{
   if (strcmp(name, "vk_icdNegotiateLoaderICDInterfaceVersion") == 0)
      return (PFN_vkVoidFunction)vk_icdNegotiateLoaderICDInterfaceVersion;
   if (strcmp(name, "vk_icdGetPhysicalDeviceProcAddr") == 0)
      return (PFN_vkVoidFunction)vk_icdGetPhysicalDeviceProcAddr;
   if (strcmp(name, "vk_icdGetInstanceProcAddr") == 0)
      return (PFN_vkVoidFunction)vk_icdGetInstanceProcAddr;
   return NULL;
}
