#include "sgt_vk.h"

#include <string.h>

void sgt_device_create(struct sgt_device *d, const struct sgt_instance_options *opts)
{
   memset(d, 0, sizeof(*d));
   d->instance = sgt_create_instance(opts);
   d->pdev = sgt_physical_device(d->instance);
   VkQueueFamilyProperties fam[2];
   uint32_t n = 2;
   vkGetPhysicalDeviceQueueFamilyProperties(d->pdev, &n, fam);
   SGT_REQUIRE(n == 2, "%u queue families", n);
   static const float prio[16] = {1.0f};
   VkDeviceQueueCreateInfo q[2];
   for (uint32_t i = 0; i < 2; i++) {
      d->family_queue_count[i] = fam[i].queueCount;
      q[i] = (VkDeviceQueueCreateInfo){.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                       .queueFamilyIndex = i, .queueCount = fam[i].queueCount,
                                       .pQueuePriorities = prio};
   }
   VkPhysicalDeviceVulkan13Features have13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
   VkPhysicalDeviceVulkan12Features have12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                              .pNext = &have13};
   VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &have12};
   vkGetPhysicalDeviceFeatures2(d->pdev, &have);
   VkPhysicalDeviceVulkan13Features want13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                              .synchronization2 = have13.synchronization2};
   VkPhysicalDeviceVulkan12Features want12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                              .pNext = &want13,
                                              .timelineSemaphore = have12.timelineSemaphore,
                                              .hostQueryReset = have12.hostQueryReset};
   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &want12,
                              .queueCreateInfoCount = 2, .pQueueCreateInfos = q};
   SGT_CHECK_VK(vkCreateDevice(d->pdev, &info, NULL, &d->device));
   for (uint32_t f = 0; f < 2; f++) {
      for (uint32_t i = 0; i < d->family_queue_count[f]; i++)
         vkGetDeviceQueue(d->device, f, i, &d->queues[f][i]);
      VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = f};
      SGT_CHECK_VK(vkCreateCommandPool(d->device, &pi, NULL, &d->pools[f]));
   }
}

void sgt_device_destroy(struct sgt_device *d)
{
   for (uint32_t f = 0; f < 2; f++)
      vkDestroyCommandPool(d->device, d->pools[f], NULL);
   vkDestroyDevice(d->device, NULL);
   sgt_destroy_instance(d->instance);
}

void sgt_buffer_create(struct sgt_device *d, VkDeviceSize size, struct sgt_buffer *b)
{
   b->size = size;
   VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                            .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
   SGT_CHECK_VK(vkCreateBuffer(d->device, &bi, NULL, &b->buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(d->device, b->buffer, &req);
   VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .allocationSize = req.size, .memoryTypeIndex = 0};
   SGT_CHECK_VK(vkAllocateMemory(d->device, &ai, NULL, &b->memory));
   SGT_CHECK_VK(vkBindBufferMemory(d->device, b->buffer, b->memory, 0));
   SGT_CHECK_VK(vkMapMemory(d->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
}

void sgt_buffer_destroy(struct sgt_device *d, struct sgt_buffer *b)
{
   vkDestroyBuffer(d->device, b->buffer, NULL);
   vkFreeMemory(d->device, b->memory, NULL);
}

VkCommandBuffer sgt_begin(struct sgt_device *d, uint32_t family, bool one_time)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = d->pools[family],
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
   VkCommandBuffer cmd;
   SGT_CHECK_VK(vkAllocateCommandBuffers(d->device, &ai, &cmd));
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = one_time ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT : 0};
   SGT_CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
   return cmd;
}

void sgt_end_submit_wait(struct sgt_device *d, VkQueue queue, uint32_t family, VkCommandBuffer cmd)
{
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   VkFence fence = sgt_fence(d, false);
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                      .pCommandBuffers = &cmd};
   SGT_CHECK_VK(vkQueueSubmit(queue, 1, &si, fence));
   SGT_CHECK_VK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, UINT64_MAX));
   vkDestroyFence(d->device, fence, NULL);
   vkFreeCommandBuffers(d->device, d->pools[family], 1, &cmd);
}

VkSemaphore sgt_timeline(struct sgt_device *d, uint64_t initial)
{
   VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                   .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
                                   .initialValue = initial};
   VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
   VkSemaphore s;
   SGT_CHECK_VK(vkCreateSemaphore(d->device, &si, NULL, &s));
   return s;
}

VkFence sgt_fence(struct sgt_device *d, bool signaled)
{
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                           .flags = signaled ? VK_FENCE_CREATE_SIGNALED_BIT : 0};
   VkFence f;
   SGT_CHECK_VK(vkCreateFence(d->device, &fi, NULL, &f));
   return f;
}

void sgt_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
}
