/*
 * softgpu's bundled example, run by the README's first command: it finds
 * softgpu through the Vulkan loader and prints the device, its queues and
 * its compute limits. (It grows into a compute job as softgpu gains
 * command buffers and pipelines.)
 *
 * Run it on softgpu with:
 *   VK_DRIVER_FILES=<build>/softgpu_icd.json ./device_info
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(expr)                                                            \
   do {                                                                        \
      VkResult r_ = (expr);                                                    \
      if (r_ != VK_SUCCESS) {                                                  \
         fprintf(stderr, "%s failed: VkResult %d\n", #expr, r_);               \
         exit(1);                                                              \
      }                                                                        \
   } while (0)

static const char *type_name(VkPhysicalDeviceType t)
{
   switch (t) {
   case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
   case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
   case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
   case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
   default: return "other";
   }
}

static void print_queues(VkPhysicalDevice pdev)
{
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &n, NULL);
   VkQueueFamilyProperties *q = calloc(n, sizeof(*q));
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &n, q);
   for (uint32_t i = 0; i < n; i++) {
      printf("  queue family %u: %2u queues, %s%s%s, %u timestamp bits\n", i, q[i].queueCount,
             q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT ? "graphics " : "",
             q[i].queueFlags & VK_QUEUE_COMPUTE_BIT ? "compute " : "",
             q[i].queueFlags & VK_QUEUE_TRANSFER_BIT ? "transfer" : "", q[i].timestampValidBits);
   }
   free(q);
}

static void print_limits(const VkPhysicalDeviceLimits *l)
{
   printf("  shared memory per workgroup: %u bytes\n", l->maxComputeSharedMemorySize);
   printf("  workgroup size: %u x %u x %u, at most %u invocations\n", l->maxComputeWorkGroupSize[0],
          l->maxComputeWorkGroupSize[1], l->maxComputeWorkGroupSize[2],
          l->maxComputeWorkGroupInvocations);
   printf("  workgroup count: %u x %u x %u\n", l->maxComputeWorkGroupCount[0],
          l->maxComputeWorkGroupCount[1], l->maxComputeWorkGroupCount[2]);
   printf("  push constants: %u bytes; descriptor sets: %u; storage buffers per stage: %u\n",
          l->maxPushConstantsSize, l->maxBoundDescriptorSets, l->maxPerStageDescriptorStorageBuffers);
   printf("  storage buffer range: %u bytes; timestamp period: %.1f ns\n", l->maxStorageBufferRange,
          (double)l->timestampPeriod);
}

int main(void)
{
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "softgpu device_info",
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app};
   VkInstance inst;
   CHECK(vkCreateInstance(&info, NULL, &inst));
   uint32_t n = 0;
   CHECK(vkEnumeratePhysicalDevices(inst, &n, NULL));
   VkPhysicalDevice *pdevs = calloc(n ? n : 1, sizeof(*pdevs));
   CHECK(vkEnumeratePhysicalDevices(inst, &n, pdevs));
   bool found = false;
   for (uint32_t i = 0; i < n; i++) {
      VkPhysicalDeviceVulkan12Properties v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
      VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &v12};
      vkGetPhysicalDeviceProperties2(pdevs[i], &p);
      VkPhysicalDeviceMemoryProperties mem;
      vkGetPhysicalDeviceMemoryProperties(pdevs[i], &mem);
      printf("%s (%s), Vulkan %u.%u.%u, driver %s: %s\n", p.properties.deviceName,
             type_name(p.properties.deviceType), VK_API_VERSION_MAJOR(p.properties.apiVersion),
             VK_API_VERSION_MINOR(p.properties.apiVersion), VK_API_VERSION_PATCH(p.properties.apiVersion),
             v12.driverName, v12.driverInfo);
      print_queues(pdevs[i]);
      printf("  memory: %u heap(s), the first %.1f GiB\n", mem.memoryHeapCount,
             (double)mem.memoryHeaps[0].size / (1 << 30));
      print_limits(&p.properties.limits);
      found |= strcmp(v12.driverName, "softgpu") == 0;
   }
   free(pdevs);
   vkDestroyInstance(inst, NULL);
   if (!found) {
      fprintf(stderr, "softgpu was not found: set VK_DRIVER_FILES to <build>/softgpu_icd.json\n");
      return 1;
   }
   return 0;
}
