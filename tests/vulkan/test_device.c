/*
 * Device creation and the device-level surface of this stage: a device
 * with every advertised extension and feature enabled at once (as the CTS
 * creates its default device), refusal of unsupported features with
 * VK_ERROR_FEATURE_NOT_PRESENT and a message saying which one, every queue
 * of both families, private data, object names and queue labels.
 */
#include <string.h>

#include "sgt.h"

struct all_features {
   VkPhysicalDeviceFeatures2 f2;
   VkPhysicalDeviceVulkan11Features v11;
   VkPhysicalDeviceVulkan12Features v12;
   VkPhysicalDeviceVulkan13Features v13;
};

static void query_all_features(VkPhysicalDevice pdev, struct all_features *f)
{
   memset(f, 0, sizeof(*f));
   f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
   f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f->v12.pNext = &f->v13;
   f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   f->v11.pNext = &f->v12;
   f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
   f->f2.pNext = &f->v11;
   vkGetPhysicalDeviceFeatures2(pdev, &f->f2);
}

/* Every queue of both families, every advertised extension and feature. */
static VkDevice create_full_device(VkPhysicalDevice pdev, uint32_t *queue_counts)
{
   struct all_features f;
   query_all_features(pdev, &f);
   uint32_t n = 0;
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, NULL));
   VkExtensionProperties props[64];
   SGT_REQUIRE(n <= 64, "%u device extensions", n);
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, props));
   const char *names[64];
   for (uint32_t i = 0; i < n; i++)
      names[i] = props[i].extensionName;

   VkQueueFamilyProperties fam[2];
   uint32_t fam_count = 2;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &fam_count, fam);
   static float priorities[64];
   for (uint32_t i = 0; i < 64; i++)
      priorities[i] = (float)(i % 2);
   VkDeviceQueueCreateInfo queues[2];
   for (uint32_t i = 0; i < 2; i++) {
      queue_counts[i] = fam[i].queueCount;
      queues[i] = (VkDeviceQueueCreateInfo){
         .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
         .queueFamilyIndex = i,
         .queueCount = fam[i].queueCount,
         .pQueuePriorities = priorities,
      };
   }
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = &f.f2,
      .queueCreateInfoCount = 2,
      .pQueueCreateInfos = queues,
      .enabledExtensionCount = n,
      .ppEnabledExtensionNames = names,
   };
   VkDevice dev;
   SGT_CHECK_VK(vkCreateDevice(pdev, &info, NULL, &dev));
   return dev;
}

static void test_queues(VkDevice dev, const uint32_t *queue_counts)
{
   VkQueue seen[64];
   uint32_t total = 0;
   for (uint32_t fam = 0; fam < 2; fam++) {
      for (uint32_t i = 0; i < queue_counts[fam]; i++) {
         VkQueue q = VK_NULL_HANDLE, q2 = VK_NULL_HANDLE;
         vkGetDeviceQueue(dev, fam, i, &q);
         VkDeviceQueueInfo2 info = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2,
                                    .queueFamilyIndex = fam, .queueIndex = i};
         vkGetDeviceQueue2(dev, &info, &q2);
         SGT_CHECK(q != VK_NULL_HANDLE && q == q2, "queue %u of family %u", i, fam);
         for (uint32_t k = 0; k < total; k++)
            SGT_CHECK(seen[k] != q, "queue handle repeated");
         seen[total++] = q;
      }
   }
   SGT_CHECK(total == queue_counts[0] + queue_counts[1], "%u queues", total);
}

/* Requests one unsupported feature through a promoted struct and expects
 * VK_ERROR_FEATURE_NOT_PRESENT plus a driver message naming it. */
static void test_unsupported_feature(VkPhysicalDevice pdev)
{
   struct all_features f;
   query_all_features(pdev, &f);
   SGT_REQUIRE(!f.f2.features.geometryShader, "softgpu has no geometry shaders");
   float priority = 1.0f;
   VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueCount = 1, .pQueuePriorities = &priority};
   VkPhysicalDeviceFeatures want = {.geometryShader = VK_TRUE};
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &q,
      .pEnabledFeatures = &want,
   };
   static const char *const tolerated[] = {"VUID-VkDeviceCreateInfo-pEnabledFeatures-parameter",
                                           NULL};
   sgt_expect_validation_ids(tolerated);
   sgt_clear_driver_messages();
   VkDevice dev = VK_NULL_HANDLE;
   VkResult r = vkCreateDevice(pdev, &info, NULL, &dev);
   SGT_CHECK(r == VK_ERROR_FEATURE_NOT_PRESENT, "geometryShader: %s", sgt_result_name(r));
   bool named = false;
   for (uint32_t i = 0; i < sgt_driver_message_count(); i++)
      named |= strstr(sgt_driver_message(i), "geometryShader") != NULL;
   SGT_CHECK(named, "no driver message names geometryShader");

   VkPhysicalDeviceTimelineSemaphoreFeatures timeline = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
      .timelineSemaphore = VK_TRUE,
   };
   if (!f.v12.timelineSemaphore) {
      info.pEnabledFeatures = NULL;
      info.pNext = &timeline;
      r = vkCreateDevice(pdev, &info, NULL, &dev);
      SGT_CHECK(r == VK_ERROR_FEATURE_NOT_PRESENT, "timelineSemaphore: %s", sgt_result_name(r));
   }
   sgt_expect_validation_ids(NULL);
}

static void test_private_data(VkDevice dev, VkQueue queue)
{
   VkPrivateDataSlotCreateInfo info = {.sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
   VkPrivateDataSlot a, b;
   SGT_CHECK_VK(vkCreatePrivateDataSlot(dev, &info, NULL, &a));
   SGT_CHECK_VK(vkCreatePrivateDataSlot(dev, &info, NULL, &b));
   uint64_t v = 1;
   vkGetPrivateData(dev, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)dev, a, &v);
   SGT_CHECK(v == 0, "unset private data reads %llu", (unsigned long long)v);
   /* Enough values on one object to make its list grow. */
   for (uint64_t i = 0; i < 8; i++) {
      VkPrivateDataSlot s;
      SGT_CHECK_VK(vkCreatePrivateDataSlot(dev, &info, NULL, &s));
      SGT_CHECK_VK(vkSetPrivateData(dev, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)queue, s, 100 + i));
      vkGetPrivateData(dev, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)queue, s, &v);
      SGT_CHECK(v == 100 + i, "slot %llu reads %llu", (unsigned long long)i, (unsigned long long)v);
      vkDestroyPrivateDataSlot(dev, s, NULL);
   }
   SGT_CHECK_VK(vkSetPrivateData(dev, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)dev, a, 42));
   SGT_CHECK_VK(vkSetPrivateData(dev, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)dev, b, 7));
   SGT_CHECK_VK(vkSetPrivateData(dev, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT, (uint64_t)a, b, 9));
   SGT_CHECK_VK(vkSetPrivateData(dev, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)dev, a, 43));
   vkGetPrivateData(dev, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)dev, a, &v);
   SGT_CHECK(v == 43, "slot a on device reads %llu", (unsigned long long)v);
   vkGetPrivateData(dev, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)dev, b, &v);
   SGT_CHECK(v == 7, "slot b on device reads %llu", (unsigned long long)v);
   vkGetPrivateData(dev, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT, (uint64_t)a, b, &v);
   SGT_CHECK(v == 9, "slot b on slot a reads %llu", (unsigned long long)v);
   vkDestroyPrivateDataSlot(dev, a, NULL);
   /* A new slot never sees a destroyed slot's values. */
   VkPrivateDataSlot c;
   SGT_CHECK_VK(vkCreatePrivateDataSlot(dev, &info, NULL, &c));
   vkGetPrivateData(dev, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)dev, c, &v);
   SGT_CHECK(v == 0, "new slot reads %llu", (unsigned long long)v);
   vkDestroyPrivateDataSlot(dev, b, NULL);
   vkDestroyPrivateDataSlot(dev, c, NULL);
}

static void test_names_and_labels(VkInstance inst, VkDevice dev, VkQueue queue)
{
   PFN_vkSetDebugUtilsObjectNameEXT set_name =
      (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(inst, "vkSetDebugUtilsObjectNameEXT");
   PFN_vkQueueBeginDebugUtilsLabelEXT begin =
      (PFN_vkQueueBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(inst, "vkQueueBeginDebugUtilsLabelEXT");
   PFN_vkQueueEndDebugUtilsLabelEXT end =
      (PFN_vkQueueEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(inst, "vkQueueEndDebugUtilsLabelEXT");
   PFN_vkQueueInsertDebugUtilsLabelEXT insert =
      (PFN_vkQueueInsertDebugUtilsLabelEXT)vkGetInstanceProcAddr(inst, "vkQueueInsertDebugUtilsLabelEXT");
   SGT_REQUIRE(set_name && begin && end && insert, "debug utils commands missing");
   VkDebugUtilsObjectNameInfoEXT name = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
      .objectType = VK_OBJECT_TYPE_QUEUE,
      .objectHandle = (uint64_t)(uintptr_t)queue,
      .pObjectName = "compute queue 0",
   };
   SGT_CHECK_VK(set_name(dev, &name));
   name.pObjectName = "renamed";
   SGT_CHECK_VK(set_name(dev, &name));
   name.objectType = VK_OBJECT_TYPE_DEVICE;
   name.objectHandle = (uint64_t)(uintptr_t)dev;
   SGT_CHECK_VK(set_name(dev, &name));
   name.pObjectName = NULL;
   SGT_CHECK_VK(set_name(dev, &name));
   VkDebugUtilsLabelEXT label = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "frame"};
   begin(queue, &label);
   insert(queue, &label);
   begin(queue, &label);
   end(queue);
   end(queue);
}

int main(void)
{
   VkInstance inst = sgt_create_instance(NULL);
   VkPhysicalDevice pdev = sgt_physical_device(inst);
   uint32_t queue_counts[2];
   VkDevice dev = create_full_device(pdev, queue_counts);
   test_queues(dev, queue_counts);
   VkQueue queue;
   vkGetDeviceQueue(dev, 0, 0, &queue);
   test_private_data(dev, queue);
   test_names_and_labels(inst, dev, queue);
   vkDestroyDevice(dev, NULL);
   test_unsupported_feature(pdev);
   sgt_destroy_instance(inst);
   return sgt_finish();
}
