/*
 * Physical-device queries: properties, limits, queue families, memory and
 * formats as softgpu's hardware model defines them, and *2 queries that
 * fill every struct they know in a long pNext chain, agree across the
 * promoted and the Vulkan 1.x forms of a struct, and leave unknown structs
 * untouched.
 */
#include <string.h>
#include <sys/sysinfo.h>

#include "sgt.h"

/* Structs of extensions softgpu does not have (mesh shaders: graphics,
 * never planned) stand for "unknown" ones: valid in a chain, so the
 * validation layer accepts them, but the driver must leave them alone.
 * Their bodies are poisoned and must come back as they went. */
static void poison(void *s, size_t size)
{
   VkBaseOutStructure *b = s;
   VkStructureType stype = b->sType;
   void *next = b->pNext;
   memset(s, 0xA5, size);
   b->sType = stype;
   b->pNext = next;
}

static void check_untouched(const void *s, size_t size)
{
   const uint8_t *p = (const uint8_t *)s + sizeof(VkBaseOutStructure);
   for (size_t i = 0; i < size - sizeof(VkBaseOutStructure); i++)
      SGT_CHECK(p[i] == 0xA5, "unknown struct written at byte %zu", i);
}

static void test_properties(VkPhysicalDevice pdev)
{
   VkPhysicalDeviceProperties p;
   vkGetPhysicalDeviceProperties(pdev, &p);
   SGT_CHECK(VK_API_VERSION_MAJOR(p.apiVersion) == 1 && VK_API_VERSION_MINOR(p.apiVersion) == 3,
             "apiVersion %u.%u", VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion));
   SGT_CHECK(p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU, "deviceType %d: the work runs on the CPU",
             p.deviceType);
   const VkPhysicalDeviceLimits *l = &p.limits;
   SGT_CHECK(l->maxComputeSharedMemorySize == 65536, "shared memory %u", l->maxComputeSharedMemorySize);
   SGT_CHECK(l->maxPerStageDescriptorStorageBuffers >= 16, "%u storage buffers",
             l->maxPerStageDescriptorStorageBuffers);
   SGT_CHECK(l->maxDescriptorSetStorageBuffers >= 12, "%u storage buffers per set",
             l->maxDescriptorSetStorageBuffers);
   SGT_CHECK(l->maxPushConstantsSize >= 256, "push constants %u", l->maxPushConstantsSize);
   SGT_CHECK(l->maxStorageBufferRange == 0xFFFFFFFFu, "storage range %u", l->maxStorageBufferRange);
   SGT_CHECK(l->maxComputeWorkGroupInvocations >= 1024, "invocations %u",
             l->maxComputeWorkGroupInvocations);
   SGT_CHECK(l->timestampPeriod == 1.0f, "timestamp period %f", (double)l->timestampPeriod);
}

static void test_properties2_chain(VkPhysicalDevice pdev)
{
   VkPhysicalDeviceProperties base;
   vkGetPhysicalDeviceProperties(pdev, &base);

   VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
   VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, .pNext = &driver};
   VkPhysicalDeviceMeshShaderPropertiesEXT unknown = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT, .pNext = &id};
   poison(&unknown, sizeof(unknown));
   VkPhysicalDeviceSubgroupProperties subgroup = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, .pNext = &unknown};
   VkPhysicalDeviceMaintenance4Properties m4 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES, .pNext = &subgroup};
   VkPhysicalDeviceVulkan13Properties v13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES, .pNext = &m4};
   VkPhysicalDeviceVulkan12Properties v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, .pNext = &v13};
   VkPhysicalDeviceVulkan11Properties v11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, .pNext = &v12};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &v11};
   vkGetPhysicalDeviceProperties2(pdev, &p2);

   SGT_CHECK(memcmp(&p2.properties, &base, sizeof(base)) == 0, "Properties2 differs from Properties");
   SGT_CHECK(strcmp(v12.driverName, "softgpu") == 0, "driverName %s", v12.driverName);
   SGT_CHECK(strcmp(driver.driverName, "softgpu") == 0, "VkPhysicalDeviceDriverProperties.driverName %s",
             driver.driverName);
   SGT_CHECK(driver.driverID == v12.driverID, "driverID differs");
   SGT_CHECK(driver.conformanceVersion.major == 0 && driver.conformanceVersion.minor == 0 &&
             driver.conformanceVersion.subminor == 0 && driver.conformanceVersion.patch == 0,
             "softgpu is not conformant: conformanceVersion must be 0.0.0.0");
   SGT_CHECK(strstr(driver.driverInfo, "softgpu") != NULL, "driverInfo %s", driver.driverInfo);
   SGT_CHECK(memcmp(id.deviceUUID, v11.deviceUUID, VK_UUID_SIZE) == 0, "deviceUUID differs");
   SGT_CHECK(memcmp(id.driverUUID, v11.driverUUID, VK_UUID_SIZE) == 0, "driverUUID differs");
   SGT_CHECK(subgroup.subgroupSize == v11.subgroupSize && subgroup.subgroupSize >= 1,
             "subgroup size %u vs %u", subgroup.subgroupSize, v11.subgroupSize);
   SGT_CHECK(subgroup.supportedOperations == v11.subgroupSupportedOperations, "subgroup ops differ");
   SGT_CHECK(m4.maxBufferSize == v13.maxBufferSize && m4.maxBufferSize >= (1ull << 30),
             "maxBufferSize %llu", (unsigned long long)m4.maxBufferSize);
   SGT_CHECK(unknown.pNext == &id, "unknown struct's pNext changed");
   check_untouched(&unknown, sizeof(unknown));
}

static void test_features2_chain(VkPhysicalDevice pdev)
{
   VkPhysicalDevicePrivateDataFeatures priv = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES};
   VkPhysicalDeviceTimelineSemaphoreFeatures timeline = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, .pNext = &priv};
   VkPhysicalDeviceMeshShaderFeaturesEXT unknown = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT, .pNext = &timeline};
   poison(&unknown, sizeof(unknown));
   VkPhysicalDeviceShaderDrawParametersFeatures draw = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES, .pNext = &unknown};
   VkPhysicalDeviceVulkan13Features v13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &draw};
   VkPhysicalDeviceVulkan12Features v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &v13};
   VkPhysicalDeviceVulkan11Features v11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &v12};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v11};
   /* Poison the outputs so that a struct left unfilled shows. */
   priv.privateData = 0x55;
   timeline.timelineSemaphore = 0x55;
   draw.shaderDrawParameters = 0x55;
   vkGetPhysicalDeviceFeatures2(pdev, &f2);

   VkPhysicalDeviceFeatures base;
   vkGetPhysicalDeviceFeatures(pdev, &base);
   SGT_CHECK(memcmp(&base, &f2.features, sizeof(base)) == 0, "Features2 differs from Features");
   SGT_CHECK(v13.privateData == VK_TRUE, "private data is implemented");
   SGT_CHECK(priv.privateData == v13.privateData, "PrivateDataFeatures %u vs %u", priv.privateData,
             v13.privateData);
   SGT_CHECK(timeline.timelineSemaphore == v12.timelineSemaphore, "timeline %u vs %u",
             timeline.timelineSemaphore, v12.timelineSemaphore);
   SGT_CHECK(draw.shaderDrawParameters == v11.shaderDrawParameters, "draw parameters %u vs %u",
             draw.shaderDrawParameters, v11.shaderDrawParameters);
   /* No sparse queue, so no sparse binding. */
   SGT_CHECK(!base.sparseBinding, "sparseBinding must stay false");
   check_untouched(&unknown, sizeof(unknown));
}

static void test_queue_families(VkPhysicalDevice pdev)
{
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pdev, &n, NULL);
   SGT_REQUIRE(n == 2, "%u queue families", n);
   VkQueueFamilyProperties2 q[2] = {{.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2},
                                    {.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2}};
   vkGetPhysicalDeviceQueueFamilyProperties2(pdev, &n, q);
   const VkQueueFamilyProperties *compute = &q[0].queueFamilyProperties;
   const VkQueueFamilyProperties *transfer = &q[1].queueFamilyProperties;
   SGT_CHECK(compute->queueFlags == (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT),
             "family 0 flags 0x%x", compute->queueFlags);
   SGT_CHECK(compute->queueCount == 16, "family 0 has %u queues", compute->queueCount);
   SGT_CHECK(compute->timestampValidBits == 64, "family 0 timestamp bits %u", compute->timestampValidBits);
   SGT_CHECK(transfer->queueFlags == VK_QUEUE_TRANSFER_BIT, "family 1 flags 0x%x", transfer->queueFlags);
   SGT_CHECK(transfer->queueCount >= 1, "family 1 has no queue");
}

static void test_memory(VkPhysicalDevice pdev)
{
   VkPhysicalDeviceMemoryProperties2 m2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
   vkGetPhysicalDeviceMemoryProperties2(pdev, &m2);
   const VkPhysicalDeviceMemoryProperties *m = &m2.memoryProperties;
   SGT_CHECK(m->memoryHeapCount == 1 && m->memoryTypeCount == 1, "%u heaps, %u types",
             m->memoryHeapCount, m->memoryTypeCount);
   struct sysinfo si;
   sysinfo(&si);
   uint64_t ram = (uint64_t)si.totalram * si.mem_unit;
   SGT_CHECK(m->memoryHeaps[0].size > 0 && m->memoryHeaps[0].size <= ram,
             "heap of %llu bytes on a host with %llu", (unsigned long long)m->memoryHeaps[0].size,
             (unsigned long long)ram);
   SGT_CHECK(m->memoryHeaps[0].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, "heap not device local");
   VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
   SGT_CHECK(m->memoryTypes[0].propertyFlags == want, "type flags 0x%x", m->memoryTypes[0].propertyFlags);
}

/* No format has any feature yet (no images, no texel buffers): every query
 * must say so exactly. */
static void test_formats(VkPhysicalDevice pdev)
{
   for (VkFormat f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; f++) {
      VkFormatProperties3 p3 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
      p3.bufferFeatures = ~0ull;
      VkFormatProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &p3};
      vkGetPhysicalDeviceFormatProperties2(pdev, f, &p2);
      SGT_CHECK(!p2.formatProperties.bufferFeatures && !p2.formatProperties.optimalTilingFeatures &&
                !p2.formatProperties.linearTilingFeatures, "format %d reports features", f);
      SGT_CHECK(!p3.bufferFeatures && !p3.optimalTilingFeatures && !p3.linearTilingFeatures,
                "format %d reports features2", f);
   }
   VkImageFormatProperties ip;
   VkResult r = vkGetPhysicalDeviceImageFormatProperties(pdev, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
                                                         VK_IMAGE_TILING_OPTIMAL,
                                                         VK_IMAGE_USAGE_SAMPLED_BIT, 0, &ip);
   SGT_CHECK(r == VK_ERROR_FORMAT_NOT_SUPPORTED, "image format query gave %s", sgt_result_name(r));
}

static void test_external_and_tools(VkPhysicalDevice pdev)
{
   VkPhysicalDeviceExternalBufferInfo bi = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkExternalBufferProperties bp = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
   memset(&bp.externalMemoryProperties, 0xff, sizeof(bp.externalMemoryProperties));
   vkGetPhysicalDeviceExternalBufferProperties(pdev, &bi, &bp);
   SGT_CHECK(!bp.externalMemoryProperties.externalMemoryFeatures &&
             !bp.externalMemoryProperties.compatibleHandleTypes, "external memory claimed");

   VkPhysicalDeviceExternalSemaphoreInfo si = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO,
      .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkExternalSemaphoreProperties sp = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES,
                                       .externalSemaphoreFeatures = ~0u};
   vkGetPhysicalDeviceExternalSemaphoreProperties(pdev, &si, &sp);
   SGT_CHECK(!sp.externalSemaphoreFeatures && !sp.compatibleHandleTypes, "external semaphores claimed");

   VkPhysicalDeviceExternalFenceInfo fi = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO,
      .handleType = VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   VkExternalFenceProperties fp = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES,
                                   .externalFenceFeatures = ~0u};
   vkGetPhysicalDeviceExternalFenceProperties(pdev, &fi, &fp);
   SGT_CHECK(!fp.externalFenceFeatures && !fp.compatibleHandleTypes, "external fences claimed");

   /* softgpu adds no tool of its own; the validation layer adds itself. */
   uint32_t n = 0;
   SGT_CHECK_VK(vkGetPhysicalDeviceToolProperties(pdev, &n, NULL));
   VkPhysicalDeviceToolProperties tools[8];
   for (uint32_t i = 0; i < 8; i++)
      tools[i] = (VkPhysicalDeviceToolProperties){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES};
   n = n > 8 ? 8 : n;
   SGT_CHECK_VK(vkGetPhysicalDeviceToolProperties(pdev, &n, tools));
   for (uint32_t i = 0; i < n; i++)
      SGT_CHECK(strstr(tools[i].name, "softgpu") == NULL, "unexpected tool %s", tools[i].name);
}

int main(void)
{
   VkInstance inst = sgt_create_instance(NULL);
   VkPhysicalDevice pdev = sgt_physical_device(inst);
   test_properties(pdev);
   test_properties2_chain(pdev);
   test_features2_chain(pdev);
   test_queue_families(pdev);
   test_memory(pdev);
   test_formats(pdev);
   test_external_and_tools(pdev);
   sgt_destroy_instance(inst);
   return sgt_finish();
}
