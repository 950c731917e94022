/*
 * Instance-level behaviour through the loader: version 1.3, the instance
 * extensions softgpu lists (exactly the implemented ones), rejection of
 * unknown extensions, one physical device in one group, and the instance
 * commands that must resolve.
 */
#include <string.h>

#include "sgt.h"

/* What softgpu implements, plus what the loader itself adds. */
static const char *const expected_extensions[] = {
   "VK_EXT_debug_utils",
   "VK_KHR_device_group_creation",
   "VK_KHR_external_fence_capabilities",
   "VK_KHR_external_memory_capabilities",
   "VK_KHR_external_semaphore_capabilities",
   "VK_KHR_get_physical_device_properties2",
   "VK_EXT_debug_report",               /* the loader's */
   "VK_KHR_portability_enumeration",    /* the loader's */
};
#define EXPECTED_COUNT (sizeof(expected_extensions) / sizeof(expected_extensions[0]))

static void test_version(void)
{
   uint32_t version = 0;
   SGT_CHECK_VK(vkEnumerateInstanceVersion(&version));
   SGT_CHECK(VK_API_VERSION_MAJOR(version) == 1 && VK_API_VERSION_MINOR(version) >= 3,
             "instance version %u.%u", VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version));
}

static void test_extension_list(void)
{
   uint32_t n = 0;
   SGT_CHECK_VK(vkEnumerateInstanceExtensionProperties(NULL, &n, NULL));
   VkExtensionProperties props[64];
   SGT_REQUIRE(n <= 64, "%u extensions", n);
   SGT_CHECK_VK(vkEnumerateInstanceExtensionProperties(NULL, &n, props));
   SGT_CHECK(n == EXPECTED_COUNT, "%u instance extensions listed, expected %zu", n,
             (size_t)EXPECTED_COUNT);
   for (uint32_t i = 0; i < n; i++) {
      bool known = false;
      for (size_t k = 0; k < EXPECTED_COUNT; k++)
         known |= strcmp(props[i].extensionName, expected_extensions[k]) == 0;
      SGT_CHECK(known, "unexpected instance extension %s", props[i].extensionName);
   }
   /* A short array gets VK_INCOMPLETE and no more than it holds. */
   uint32_t two = 2;
   VkResult r = vkEnumerateInstanceExtensionProperties(NULL, &two, props);
   SGT_CHECK(r == VK_INCOMPLETE && two == 2, "short enumeration gave %s, %u",
             sgt_result_name(r), two);
}

static void test_unknown_extension(void)
{
   const char *bogus = "VK_SOFTGPU_no_such_extension";
   VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .enabledExtensionCount = 1,
      .ppEnabledExtensionNames = &bogus,
   };
   VkInstance inst = VK_NULL_HANDLE;
   VkResult r = vkCreateInstance(&info, NULL, &inst);
   SGT_CHECK(r == VK_ERROR_EXTENSION_NOT_PRESENT, "got %s", sgt_result_name(r));
   /* VK_KHR_surface is real but not softgpu's: refused too. */
   const char *surface = "VK_KHR_surface";
   info.ppEnabledExtensionNames = &surface;
   r = vkCreateInstance(&info, NULL, &inst);
   SGT_CHECK(r == VK_ERROR_EXTENSION_NOT_PRESENT, "VK_KHR_surface: got %s", sgt_result_name(r));
}

/* Any apiVersion of the Vulkan variant is accepted (Vulkan 1.1 and later). */
static void test_api_versions(void)
{
   static const uint32_t versions[] = {VK_API_VERSION_1_0, VK_API_VERSION_1_1,
                                       VK_API_VERSION_1_2, VK_API_VERSION_1_3,
                                       VK_MAKE_API_VERSION(0, 1, 9, 0)};
   for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
      struct sgt_instance_options opts = {.api_version = versions[i]};
      VkInstance inst = sgt_create_instance(&opts);
      sgt_physical_device(inst);
      sgt_destroy_instance(inst);
   }
}

/* "Implementations that support Vulkan 1.1 or later must not return
 * VK_ERROR_INCOMPATIBLE_DRIVER for any value of apiVersion" (VkApplicationInfo).
 * The versions dEQP-VK.api.device_init.create_instance_invalid_api_version
 * tries (from the loader's own version: variant 7 and major 127, major 127,
 * minor 1023) create an instance, and its device works at softgpu's
 * version, 1.3: a 1.3 command resolves. Vulkan 1.1 asked with a foreign
 * variant still means 1.1: a 1.3 command does not resolve. Without the
 * validation layer: a foreign variant is invalid usage it may report, and
 * it answers vkGetDeviceProcAddr itself (see test_entrypoints.c). */
static void test_nonstandard_api_versions(void)
{
   uint32_t loader = VK_API_VERSION_1_0;
   SGT_CHECK_VK(vkEnumerateInstanceVersion(&loader));
   uint32_t minor = VK_API_VERSION_MINOR(loader), patch = VK_API_VERSION_PATCH(loader);
   static const uint32_t variant_7 = 7, major_127 = 127, minor_1023 = 1023;
   const struct {
      uint32_t version;
      bool has_1_3;
   } cases[] = {
      {VK_MAKE_API_VERSION(variant_7, major_127, minor, patch), true},
      {VK_MAKE_API_VERSION(0, major_127, minor, patch), true},
      {VK_MAKE_API_VERSION(0, 1, minor_1023, patch), true},
      {VK_MAKE_API_VERSION(variant_7, 1, 1, 0), false},
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                               .apiVersion = cases[i].version};
      VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                   .pApplicationInfo = &app};
      VkInstance inst = VK_NULL_HANDLE;
      VkResult r = vkCreateInstance(&info, NULL, &inst);
      SGT_CHECK(r == VK_SUCCESS, "apiVersion 0x%x: %s", cases[i].version, sgt_result_name(r));
      if (r != VK_SUCCESS)
         continue;
      VkDevice dev = sgt_create_simple_device(sgt_physical_device(inst));
      bool has_1_3 = vkGetDeviceProcAddr(dev, "vkCmdPipelineBarrier2") != NULL;
      SGT_CHECK(has_1_3 == cases[i].has_1_3, "apiVersion 0x%x: vkCmdPipelineBarrier2 %s",
                cases[i].version, has_1_3 ? "resolves" : "does not resolve");
      vkDestroyDevice(dev, NULL);
      vkDestroyInstance(inst, NULL);
   }
}

static void test_physical_devices(VkInstance inst)
{
   VkPhysicalDevice pdev = sgt_physical_device(inst);
   uint32_t n = 0;
   VkPhysicalDevice none;
   VkResult r = vkEnumeratePhysicalDevices(inst, &n, &none);
   SGT_CHECK(r == VK_INCOMPLETE && n == 0, "count 0 gave %s, %u", sgt_result_name(r), n);

   uint32_t groups = 0;
   SGT_CHECK_VK(vkEnumeratePhysicalDeviceGroups(inst, &groups, NULL));
   SGT_CHECK(groups == 1, "%u device groups", groups);
   VkPhysicalDeviceGroupProperties g = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES};
   groups = 1;
   SGT_CHECK_VK(vkEnumeratePhysicalDeviceGroups(inst, &groups, &g));
   SGT_CHECK(g.physicalDeviceCount == 1 && g.physicalDevices[0] == pdev,
             "group holds %u devices", g.physicalDeviceCount);
   SGT_CHECK(!g.subsetAllocation, "subsetAllocation with a single device");
}

static void test_proc_addrs(VkInstance inst)
{
   static const char *const names[] = {
      "vkGetPhysicalDeviceFeatures2", "vkGetPhysicalDeviceProperties2",
      "vkGetPhysicalDeviceToolProperties", "vkGetPhysicalDeviceExternalBufferProperties",
      "vkCreateDebugUtilsMessengerEXT", "vkSetDebugUtilsObjectNameEXT",
      "vkCreateDevice", "vkCreatePrivateDataSlot",
   };
   for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
      SGT_CHECK(vkGetInstanceProcAddr(inst, names[i]) != NULL, "%s not resolved", names[i]);
   SGT_CHECK(vkGetInstanceProcAddr(inst, "vkNoSuchCommandSOFTGPU") == NULL, "bogus name resolved");
   /* An alias exists only with the extension that introduced it enabled. */
   SGT_CHECK(vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceFeatures2KHR") == NULL,
             "vkGetPhysicalDeviceFeatures2KHR resolved without its extension");
}

int main(void)
{
   test_version();
   test_extension_list();
   test_unknown_extension();
   test_api_versions();
   test_nonstandard_api_versions();
   VkInstance inst = sgt_create_instance(NULL);
   test_physical_devices(inst);
   test_proc_addrs(inst);
   sgt_destroy_instance(inst);
   return sgt_finish();
}
