/*
 * VkInstance: extension checks, the physical device list and the
 * process-wide list of live instances.
 */
#include "sg_instance.h"

#include <string.h>

#include "sg_alloc.h"
#include "sg_debug_utils.h"
#include "sg_extensions.h"
#include "sg_log.h"
#include "sg_physical_device.h"
#include "sg_version.h"

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sg_instance *live_instances;

void sg_instance_foreach_live(void (*fn)(struct sg_instance *inst, void *user), void *user)
{
   pthread_mutex_lock(&live_lock);
   for (struct sg_instance *i = live_instances; i; i = i->next_live)
      fn(i, user);
   pthread_mutex_unlock(&live_lock);
}

static void live_add(struct sg_instance *inst)
{
   pthread_mutex_lock(&live_lock);
   inst->next_live = live_instances;
   live_instances = inst;
   pthread_mutex_unlock(&live_lock);
}

static void live_remove(struct sg_instance *inst)
{
   pthread_mutex_lock(&live_lock);
   for (struct sg_instance **p = &live_instances; *p; p = &(*p)->next_live) {
      if (*p == inst) {
         *p = inst->next_live;
         break;
      }
   }
   pthread_mutex_unlock(&live_lock);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EnumerateInstanceVersion(uint32_t *pApiVersion)
{
   *pApiVersion = SG_API_VERSION;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EnumerateInstanceExtensionProperties(
   const char *pLayerName, uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
   sg_log_init();
   /* Layers are the loader's business; an ICD implements none. */
   if (pLayerName) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "softgpu implements no layer named %s", pLayerName);
      return VK_ERROR_LAYER_NOT_PRESENT;
   }
   return sg_extensions_enumerate(sg_instance_extensions, sg_instance_extension_count, NULL,
                                  pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EnumerateInstanceLayerProperties(uint32_t *pPropertyCount,
                                                                   VkLayerProperties *pProperties)
{
   (void)pProperties;
   *pPropertyCount = 0;
   return VK_SUCCESS;
}

static VkResult check_create_info(const VkInstanceCreateInfo *info, struct sg_ext_set *exts)
{
   if (info->enabledLayerCount > 0) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "layer %s requested from the driver; layers are "
             "loaded by the Vulkan loader, not by softgpu", info->ppEnabledLayerNames[0]);
      return VK_ERROR_LAYER_NOT_PRESENT;
   }
   return sg_extensions_enable(sg_instance_extensions, sg_instance_extension_count, NULL,
                               info->enabledExtensionCount, info->ppEnabledExtensionNames, exts);
}

/* The Vulkan version the instance works at, from VkApplicationInfo::apiVersion.
 * "Implementations that support Vulkan 1.1 or later must not return
 * VK_ERROR_INCOMPATIBLE_DRIVER for any value of apiVersion" (VkApplicationInfo),
 * so no value is refused: each is read as a version to use.
 * - "If apiVersion is 0 the implementation must ignore it": Vulkan 1.0.
 * - "The patch version number specified in apiVersion is ignored when
 *   creating an instance object": major.minor only.
 * - "The variant version of the instance must match that requested in
 *   apiVersion" binds the application; softgpu is variant 0, so another
 *   variant is invalid usage: logged, and the major.minor used as Vulkan's.
 * - Below 1.0 (a major of 0) is invalid too (VUID-VkApplicationInfo-apiVersion-04010):
 *   Vulkan 1.0.
 * - Above softgpu's own version: softgpu's ("the highest version of Vulkan
 *   that the application is designed to use" may be newer than the driver). */
static uint32_t instance_api_version(const VkApplicationInfo *app)
{
   uint32_t req = app ? app->apiVersion : 0;
   if (req == 0)
      return VK_API_VERSION_1_0;
   if (VK_API_VERSION_VARIANT(req) != 0) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "apiVersion 0x%x names API variant %u; softgpu "
             "implements Vulkan (variant 0) and reads it as Vulkan %u.%u", req,
             VK_API_VERSION_VARIANT(req), VK_API_VERSION_MAJOR(req), VK_API_VERSION_MINOR(req));
   }
   if (VK_API_VERSION_MAJOR(req) == 0)
      return VK_API_VERSION_1_0;
   uint32_t asked = VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(req), VK_API_VERSION_MINOR(req), 0);
   uint32_t own = VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(SG_API_VERSION),
                                      VK_API_VERSION_MINOR(SG_API_VERSION), 0);
   return asked < own ? asked : own;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator,
                                                 VkInstance *pInstance)
{
   sg_log_init();
   sg_debug_utils_install_log_sink();
   struct sg_ext_set exts;
   VkResult result = check_create_info(pCreateInfo, &exts);
   if (result != VK_SUCCESS)
      return result;

   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &sg_system_allocator);
   struct sg_instance *inst = sg_zalloc(alloc, sizeof(*inst), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
   if (!inst)
      goto fail_alloc;
   inst->alloc = *alloc;
   sg_object_init(&inst->base, VK_OBJECT_TYPE_INSTANCE, NULL, &inst->alloc);
   set_loader_magic_value(inst);
   inst->enabled_exts = exts;
   const VkApplicationInfo *app = pCreateInfo->pApplicationInfo;
   inst->app_api_version = app ? app->apiVersion : 0;
   inst->api_version = instance_api_version(app);
   pthread_mutex_init(&inst->messenger_lock, NULL);

   result = sg_debug_utils_instance_init(inst, pCreateInfo->pNext);
   if (result != VK_SUCCESS)
      goto fail_messengers;
   result = sg_physical_device_create(inst, &inst->physical_device);
   if (result != VK_SUCCESS)
      goto fail_physical_device;

   live_add(inst);
   *pInstance = sg_instance_to_handle(inst);
   SG_LOG(SG_LOG_INFO, SG_AREA_API, "instance created (application apiVersion 0x%x: Vulkan %u.%u)",
          inst->app_api_version, VK_API_VERSION_MAJOR(inst->api_version),
          VK_API_VERSION_MINOR(inst->api_version));
   return VK_SUCCESS;

fail_physical_device:
   sg_debug_utils_instance_finish(inst);
fail_messengers:
   pthread_mutex_destroy(&inst->messenger_lock);
   sg_free(alloc, inst);
fail_alloc:
   SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateInstance failed: out of host memory");
   return result == VK_SUCCESS ? VK_ERROR_OUT_OF_HOST_MEMORY : result;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyInstance(VkInstance instance,
                                              const VkAllocationCallbacks *pAllocator)
{
   struct sg_instance *inst = sg_instance_from_handle(instance);
   if (!inst)
      return;
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &inst->alloc);
   live_remove(inst);
   sg_physical_device_destroy(inst->physical_device);
   sg_debug_utils_instance_finish(inst);
   pthread_mutex_destroy(&inst->messenger_lock);
   sg_object_finish(&inst->base);
   sg_free(alloc, inst);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EnumeratePhysicalDevices(VkInstance instance,
                                                           uint32_t *pPhysicalDeviceCount,
                                                           VkPhysicalDevice *pPhysicalDevices)
{
   struct sg_instance *inst = sg_instance_from_handle(instance);
   if (!pPhysicalDevices) {
      *pPhysicalDeviceCount = 1;
      return VK_SUCCESS;
   }
   if (*pPhysicalDeviceCount == 0)
      return VK_INCOMPLETE;
   pPhysicalDevices[0] = sg_physical_device_to_handle(inst->physical_device);
   *pPhysicalDeviceCount = 1;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EnumeratePhysicalDeviceGroups(
   VkInstance instance, uint32_t *pPhysicalDeviceGroupCount,
   VkPhysicalDeviceGroupProperties *pPhysicalDeviceGroupProperties)
{
   struct sg_instance *inst = sg_instance_from_handle(instance);
   if (!pPhysicalDeviceGroupProperties) {
      *pPhysicalDeviceGroupCount = 1;
      return VK_SUCCESS;
   }
   if (*pPhysicalDeviceGroupCount == 0)
      return VK_INCOMPLETE;
   VkPhysicalDeviceGroupProperties *g = &pPhysicalDeviceGroupProperties[0];
   g->physicalDeviceCount = 1;
   memset(g->physicalDevices, 0, sizeof(g->physicalDevices));
   g->physicalDevices[0] = sg_physical_device_to_handle(inst->physical_device);
   /* One device per group: there is nothing to allocate a subset of. */
   g->subsetAllocation = VK_FALSE;
   *pPhysicalDeviceGroupCount = 1;
   return VK_SUCCESS;
}
