/*
 * Entrypoint resolution through the loader, checked against the registry
 * (the same table the driver is generated from):
 * - every Vulkan 1.0-1.3 core command resolves through vkGetInstanceProcAddr;
 * - on a device with every advertised extension enabled, every device-level
 *   command of core 1.0-1.3 and of each enabled extension resolves through
 *   vkGetDeviceProcAddr: an advertised extension is fully implemented;
 * - device-level commands of extensions that are not enabled, and core
 *   commands above the application's apiVersion, do not resolve.
 *
 * The device-level checks run without the validation layer: the layer
 * answers vkGetDeviceProcAddr itself for every command an enabled
 * extension names (vkCmdWriteBufferMarker2AMD with synchronization2 alone,
 * for instance), which would hide the driver's own answers.
 */
#include <string.h>

#include "sg_entrypoints.h"
#include "sgt.h"

struct ext_list {
   uint32_t count;
   VkExtensionProperties props[64];
   const char *names[64];
   struct sg_ext_set set;
};

static void device_extensions(VkPhysicalDevice pdev, struct ext_list *l)
{
   memset(l, 0, sizeof(*l));
   l->count = 64;
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &l->count, l->props));
   for (uint32_t i = 0; i < l->count; i++) {
      l->names[i] = l->props[i].extensionName;
      enum sg_ext e = sg_ext_from_name(l->names[i]);
      SGT_CHECK(e != SG_EXT_COUNT, "extension %s is not in the registry", l->names[i]);
      if (e != SG_EXT_COUNT)
         sg_ext_set_add(&l->set, e);
   }
}

static VkDevice create_device(VkPhysicalDevice pdev, const struct ext_list *exts)
{
   float priority = 1.0f;
   VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueCount = 1, .pQueuePriorities = &priority};
   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &q,
                              .enabledExtensionCount = exts ? exts->count : 0,
                              .ppEnabledExtensionNames = exts ? exts->names : NULL};
   VkDevice dev;
   SGT_CHECK_VK(vkCreateDevice(pdev, &info, NULL, &dev));
   return dev;
}

static bool enabled_owner(const struct sg_entrypoint *e, const struct sg_ext_set *set)
{
   for (uint32_t i = 0; i < e->owner_count; i++) {
      if (sg_ext_set_has(set, e->owners[i].ext) &&
          (e->owners[i].dep == SG_EXT_COUNT || sg_ext_set_has(set, e->owners[i].dep)))
         return true;
   }
   return false;
}

static void test_core_instance(VkInstance inst)
{
   for (uint32_t i = 0; i < sg_entrypoint_count; i++) {
      const struct sg_entrypoint *e = &sg_entrypoints[i];
      if (e->core_minor == SG_CMD_NOT_CORE)
         continue;
      /* Global commands resolve with a NULL instance (vkGetInstanceProcAddr). */
      VkInstance from = e->level == SG_CMD_GLOBAL ? VK_NULL_HANDLE : inst;
      SGT_CHECK(vkGetInstanceProcAddr(from, e->name) != NULL, "%s does not resolve", e->name);
   }
}

static void test_device_commands(VkDevice dev, const struct sg_ext_set *enabled)
{
   uint32_t resolved = 0;
   for (uint32_t i = 0; i < sg_entrypoint_count; i++) {
      const struct sg_entrypoint *e = &sg_entrypoints[i];
      if (e->level != SG_CMD_DEVICE)
         continue;
      bool expected = e->core_minor != SG_CMD_NOT_CORE || enabled_owner(e, enabled);
      bool got = vkGetDeviceProcAddr(dev, e->name) != NULL;
      SGT_CHECK(got == expected, "vkGetDeviceProcAddr(%s): %s, expected %s", e->name,
                got ? "resolved" : "NULL", expected ? "a pointer" : "NULL");
      resolved += got;
   }
   SGT_CHECK(resolved > 100, "only %u device commands resolved", resolved);
}

/* With apiVersion 1.0, device commands of 1.1 and later are not requested. */
static void test_requested_version(void)
{
   struct sgt_instance_options opts = {.api_version = VK_API_VERSION_1_0};
   VkInstance inst = sgt_create_instance(&opts);
   VkDevice dev = create_device(sgt_physical_device(inst), NULL);
   SGT_CHECK(vkGetDeviceProcAddr(dev, "vkCmdDispatch") != NULL, "1.0 command missing");
   /* (The loader answers vkGetDeviceQueue2 itself, so a 1.2 command shows the
    * driver's answer.) */
   SGT_CHECK(vkGetDeviceProcAddr(dev, "vkWaitSemaphores") == NULL, "1.2 command resolved");
   SGT_CHECK(vkGetDeviceProcAddr(dev, "vkCmdPipelineBarrier2") == NULL, "1.3 command resolved");
   vkDestroyDevice(dev, NULL);
   sgt_destroy_instance(inst);
}

int main(void)
{
   VkInstance validated = sgt_create_instance(NULL);
   test_core_instance(validated);
   sgt_destroy_instance(validated);

   struct sgt_instance_options plain = {.no_validation = true};
   VkInstance inst = sgt_create_instance(&plain);
   VkPhysicalDevice pdev = sgt_physical_device(inst);
   struct ext_list exts;
   device_extensions(pdev, &exts);
   /* The instance enables VK_EXT_debug_utils, whose device commands count. */
   sg_ext_set_add(&exts.set, SG_EXT_EXT_debug_utils);
   VkDevice dev = create_device(pdev, &exts);
   test_device_commands(dev, &exts.set);
   vkDestroyDevice(dev, NULL);
   sgt_destroy_instance(inst);
   test_requested_version();
   return sgt_finish();
}
