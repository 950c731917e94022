#include "sgt_compute.h"

#include <stdarg.h>
#include <string.h>

#include "sgt_sync.h"

/* ---- device -------------------------------------------------------------- */

static bool has_device_extension(VkPhysicalDevice pdev, const char *name)
{
   uint32_t n = 0;
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, NULL));
   VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, props));
   bool found = false;
   for (uint32_t i = 0; i < n; i++)
      found |= strcmp(props[i].extensionName, name) == 0;
   free(props);
   return found;
}

static void query_device(struct sgt_cdev *d)
{
   VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
   VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                           .pNext = &f13};
   VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                           .pNext = &f12};
   VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11};
   vkGetPhysicalDeviceFeatures2(d->pdev, &f);
   d->features = f.features;
   d->features11 = f11;
   d->features12 = f12;
   d->features13 = f13;
   d->features11.pNext = d->features12.pNext = d->features13.pNext = NULL;

   d->has_push_descriptor_ext = has_device_extension(d->pdev, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
   d->has_wmel_ext = has_device_extension(d->pdev, VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME);
   d->wmel = (VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR};
   if (d->has_wmel_ext) {
      VkPhysicalDeviceFeatures2 fw = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                      .pNext = &d->wmel};
      vkGetPhysicalDeviceFeatures2(d->pdev, &fw);
      d->wmel.pNext = NULL;
   }
   d->has_atomic_float_ext = has_device_extension(d->pdev, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
   d->atomic_float = (VkPhysicalDeviceShaderAtomicFloatFeaturesEXT){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
   if (d->has_atomic_float_ext) {
      VkPhysicalDeviceFeatures2 fa = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                      .pNext = &d->atomic_float};
      vkGetPhysicalDeviceFeatures2(d->pdev, &fa);
      d->atomic_float.pNext = NULL;
   }
   VkPhysicalDevicePushDescriptorPropertiesKHR pd = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
   VkPhysicalDeviceVulkan13Properties p13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES,
                                             .pNext = d->has_push_descriptor_ext ? &pd : NULL};
   VkPhysicalDeviceVulkan11Properties p11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES,
                                             .pNext = &p13};
   VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p11};
   vkGetPhysicalDeviceProperties2(d->pdev, &p);
   d->props = p.properties;
   d->props11 = p11;
   d->props13 = p13;
   d->props11.pNext = d->props13.pNext = NULL;
   d->max_push_descriptors = pd.maxPushDescriptors;
}

void sgt_cdev_create(struct sgt_cdev *d, const struct sgt_compute_options *opts)
{
   static const struct sgt_compute_options defaults;
   if (!opts)
      opts = &defaults;
   memset(d, 0, sizeof(*d));
   d->instance = sgt_create_instance(NULL);

   uint32_t n = 0;
   SGT_CHECK_VK(vkEnumeratePhysicalDevices(d->instance, &n, NULL));
   SGT_REQUIRE(n >= 1, "no physical device");
   VkPhysicalDevice pdevs[8];
   if (n > 8)
      n = 8;
   VkResult r = vkEnumeratePhysicalDevices(d->instance, &n, pdevs);
   SGT_REQUIRE(r == VK_SUCCESS || r == VK_INCOMPLETE, "vkEnumeratePhysicalDevices: %s",
               sgt_result_name(r));
   d->pdev = pdevs[0];
   for (uint32_t i = 0; i < n; i++) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(pdevs[i], &p);
      if (strcmp(p.deviceName, "softgpu") == 0)
         d->pdev = pdevs[i];
   }
   query_device(d);
   d->is_softgpu = strcmp(d->props.deviceName, "softgpu") == 0;
   SGT_REQUIRE(d->props.apiVersion >= VK_API_VERSION_1_3,
               "%s reports Vulkan %u.%u: these tests need 1.3", d->props.deviceName,
               VK_API_VERSION_MAJOR(d->props.apiVersion), VK_API_VERSION_MINOR(d->props.apiVersion));
   fprintf(stderr, "device: %s (Vulkan %u.%u.%u)\n", d->props.deviceName,
           VK_API_VERSION_MAJOR(d->props.apiVersion), VK_API_VERSION_MINOR(d->props.apiVersion),
           VK_API_VERSION_PATCH(d->props.apiVersion));

   VkQueueFamilyProperties fams[16];
   uint32_t nf = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(d->pdev, &nf, fams);
   d->family = UINT32_MAX;
   for (uint32_t i = 0; i < nf && d->family == UINT32_MAX; i++) {
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         d->family = i;
   }
   SGT_REQUIRE(d->family != UINT32_MAX, "no queue family with VK_QUEUE_COMPUTE_BIT");
   d->queue_count = fams[d->family].queueCount;
   if (d->queue_count > SGT_MAX_QUEUES)
      d->queue_count = SGT_MAX_QUEUES;
   float prio[SGT_MAX_QUEUES];
   for (uint32_t i = 0; i < SGT_MAX_QUEUES; i++)
      prio[i] = 1.0f;
   VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = d->family,
                                 .queueCount = d->queue_count,
                                 .pQueuePriorities = prio};

   /* Timeline semaphores and synchronization2 are required by Vulkan 1.3. */
   SGT_REQUIRE(d->features12.timelineSemaphore, "timelineSemaphore is required by Vulkan 1.2");
   SGT_REQUIRE(d->features13.synchronization2, "synchronization2 is required by Vulkan 1.3");
   VkPhysicalDeviceVulkan13Features want13 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
      .synchronization2 = VK_TRUE,
      .maintenance4 = d->features13.maintenance4,
      .inlineUniformBlock = d->features13.inlineUniformBlock,
      .pipelineCreationCacheControl = d->features13.pipelineCreationCacheControl,
   };
   VkPhysicalDeviceVulkan12Features want12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .pNext = &want13,
      .timelineSemaphore = VK_TRUE,
      .bufferDeviceAddress = opts->buffer_device_address && d->features12.bufferDeviceAddress,
      .runtimeDescriptorArray = opts->descriptor_indexing && d->features12.runtimeDescriptorArray,
      .shaderStorageBufferArrayNonUniformIndexing =
         opts->descriptor_indexing && d->features12.shaderStorageBufferArrayNonUniformIndexing,
      .shaderUniformBufferArrayNonUniformIndexing =
         opts->descriptor_indexing && d->features12.shaderUniformBufferArrayNonUniformIndexing,
      .scalarBlockLayout = opts->block_layouts && d->features12.scalarBlockLayout,
      .uniformBufferStandardLayout = opts->block_layouts && d->features12.uniformBufferStandardLayout,
   };
   VkPhysicalDeviceFeatures2 want = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &want12,
   };
   want.features.shaderStorageBufferArrayDynamicIndexing =
      d->features.shaderStorageBufferArrayDynamicIndexing;
   want.features.shaderUniformBufferArrayDynamicIndexing =
      d->features.shaderUniformBufferArrayDynamicIndexing;
   if (opts->robust_buffer_access) {
      /* Required of every implementation ("Feature Requirements"). */
      if (!d->features.robustBufferAccess)
         SGT_REQUIRED_FEATURE_MISSING("robust buffer access", "robustBufferAccess", "Vulkan");
      want.features.robustBufferAccess = d->features.robustBufferAccess;
   }
   if (opts->float64) {
      want.features.shaderFloat64 = d->features.shaderFloat64;
      want.features.shaderInt64 = d->features.shaderInt64;
   }
   VkPhysicalDeviceVulkan11Features want11;
   if (opts->every_feature) {
      want.features = d->features;
      want11 = d->features11;
      want12 = d->features12;
      want13 = d->features13;
      want.pNext = &want11;
      want11.pNext = &want12;
      want12.pNext = &want13;
      want13.pNext = NULL;
   }
   /* Every feature includes those of VK_KHR_workgroup_memory_explicit_layout,
    * with the extension, when offered. */
   VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR want_wmel = d->wmel;
   VkPhysicalDeviceShaderAtomicFloatFeaturesEXT want_af = d->atomic_float;
   bool wmel = opts->every_feature && d->has_wmel_ext;
   bool af = opts->every_feature && d->has_atomic_float_ext;
   void **tail = &want13.pNext;
   if (wmel) {
      *tail = &want_wmel;
      tail = &want_wmel.pNext;
   }
   if (af)
      *tail = &want_af;
   const char *exts[3];
   uint32_t next = 0;
   if (wmel)
      exts[next++] = VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME;
   if (af)
      exts[next++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
   if (opts->push_descriptor && d->has_push_descriptor_ext)
      exts[next++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;

   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .pNext = &want,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qi,
                              .enabledExtensionCount = next,
                              .ppEnabledExtensionNames = exts};
   SGT_CHECK_VK(vkCreateDevice(d->pdev, &info, NULL, &d->device));
   d->robust_buffer_access = want.features.robustBufferAccess;
   d->buffer_device_address = want12.bufferDeviceAddress;
   d->maintenance4 = want13.maintenance4;
   d->inline_uniform_block = want13.inlineUniformBlock;
   d->pipeline_creation_cache_control = want13.pipelineCreationCacheControl;
   d->storage_array_dynamic_indexing = want.features.shaderStorageBufferArrayDynamicIndexing;
   d->uniform_array_dynamic_indexing = want.features.shaderUniformBufferArrayDynamicIndexing;
   d->runtime_descriptor_array = want12.runtimeDescriptorArray;
   d->storage_array_nonuniform_indexing = want12.shaderStorageBufferArrayNonUniformIndexing;
   d->uniform_array_nonuniform_indexing = want12.shaderUniformBufferArrayNonUniformIndexing;
   d->scalar_block_layout = want12.scalarBlockLayout;
   d->uniform_buffer_standard_layout = want12.uniformBufferStandardLayout;
   d->workgroup_explicit_layout = wmel;
   d->atomic_float_enabled = af;
   d->shader_float64 = want.features.shaderFloat64;
   d->shader_int64 = want.features.shaderInt64;
   if (opts->push_descriptor && d->has_push_descriptor_ext) {
      d->push_descriptor = true;
      d->CmdPushDescriptorSetKHR = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(
         d->device, "vkCmdPushDescriptorSetKHR");
      d->CmdPushDescriptorSetWithTemplateKHR = (PFN_vkCmdPushDescriptorSetWithTemplateKHR)
         vkGetDeviceProcAddr(d->device, "vkCmdPushDescriptorSetWithTemplateKHR");
      SGT_REQUIRE(d->CmdPushDescriptorSetKHR, "vkCmdPushDescriptorSetKHR is missing");
   }

   for (uint32_t i = 0; i < d->queue_count; i++)
      vkGetDeviceQueue(d->device, d->family, i, &d->queues[i]);
   VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                 .queueFamilyIndex = d->family};
   SGT_CHECK_VK(vkCreateCommandPool(d->device, &pi, NULL, &d->pool));

   VkPhysicalDeviceMemoryProperties mem;
   vkGetPhysicalDeviceMemoryProperties(d->pdev, &mem);
   const VkMemoryPropertyFlags want_mem =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   d->host_memory_type = UINT32_MAX;
   for (uint32_t i = 0; i < mem.memoryTypeCount && d->host_memory_type == UINT32_MAX; i++) {
      if ((mem.memoryTypes[i].propertyFlags & want_mem) == want_mem)
         d->host_memory_type = i;
   }
   SGT_REQUIRE(d->host_memory_type != UINT32_MAX, "no HOST_VISIBLE | HOST_COHERENT memory type");
}

void sgt_cdev_destroy(struct sgt_cdev *d)
{
   SGT_CHECK_VK(vkDeviceWaitIdle(d->device));
   vkDestroyCommandPool(d->device, d->pool, NULL);
   vkDestroyDevice(d->device, NULL);
   sgt_destroy_instance(d->instance);
}

void sgt_skip(const char *what, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "SKIP %s: ", what);
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
}

/* Is `name` in SOFTGPU_HIDE_FEATURES (names separated by commas or spaces,
 * as the driver reads them)? */
static bool hidden_on_purpose(const char *name)
{
   const char *env = getenv("SOFTGPU_HIDE_FEATURES");
   size_t len = strlen(name);
   for (const char *p = env ? env : ""; *p;) {
      size_t n = strcspn(p, ", ");
      if (n == len && strncmp(p, name, len) == 0)
         return true;
      p += n;
      p += strspn(p, ", ");
   }
   return false;
}

void sgt_required_feature_missing(const char *file, int line, const char *what,
                                  const char *feature, const char *required_by)
{
   if (hidden_on_purpose(feature)) {
      sgt_skip(what, "%s is hidden by SOFTGPU_HIDE_FEATURES (%s requires it)", feature,
               required_by);
      return;
   }
   fprintf(stderr, "%s:%d: check failed: %s is not advertised, but %s requires it\n", file, line,
           feature, required_by);
   sgt_failures++;
}

int sgt_compute_main(int argc, char **argv, const struct sgt_compute_options *opts,
                     const struct sgt_subtest *tests, uint32_t count)
{
   const char *only = argc > 1 ? argv[1] : NULL;
   bool found = !only;
   for (uint32_t i = 0; i < count && only; i++)
      found |= strcmp(tests[i].name, only) == 0;
   if (!found) {
      fprintf(stderr, "no subtest named %s; subtests:", only);
      for (uint32_t i = 0; i < count; i++)
         fprintf(stderr, " %s", tests[i].name);
      fputc('\n', stderr);
      return 2;
   }
   struct sgt_cdev d;
   sgt_cdev_create(&d, opts);
   for (uint32_t i = 0; i < count; i++) {
      if (only && strcmp(tests[i].name, only) != 0)
         continue;
      int before = sgt_failures;
      /* sgt_now_ns() also links tests/common/sgt_sync.c, whose sanitizer
       * hooks every test that loads the validation layer needs. */
      uint64_t t0 = sgt_now_ns();
      fprintf(stderr, "== %s\n", tests[i].name);
      tests[i].run(&d);
      double ms = (double)(sgt_now_ns() - t0) / 1e6;
      fprintf(stderr, "   %s: %s (%.0f ms)\n", tests[i].name,
              sgt_failures == before ? "ok" : "FAILED", ms);
   }
   sgt_cdev_destroy(&d);
   return sgt_finish();
}

/* ---- buffers ------------------------------------------------------------- */

void sgt_cbuffer(struct sgt_cdev *d, VkDeviceSize size, struct sgt_buffer *b)
{
   memset(b, 0, sizeof(*b));
   b->size = size;
   VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = size,
                            .usage = SGT_BUFFER_USAGE_ALL};
   if (d->buffer_device_address)
      bi.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
   SGT_CHECK_VK(vkCreateBuffer(d->device, &bi, NULL, &b->buffer));
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(d->device, b->buffer, &req);
   SGT_REQUIRE(req.memoryTypeBits & (1u << d->host_memory_type),
               "buffer cannot live in the host-visible memory type");
   VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
   VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .pNext = d->buffer_device_address ? &flags : NULL,
                              .allocationSize = req.size,
                              .memoryTypeIndex = d->host_memory_type};
   SGT_CHECK_VK(vkAllocateMemory(d->device, &ai, NULL, &b->memory));
   SGT_CHECK_VK(vkBindBufferMemory(d->device, b->buffer, b->memory, 0));
   SGT_CHECK_VK(vkMapMemory(d->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
   memset(b->map, 0, size);
}

void sgt_cbuffer_destroy(struct sgt_cdev *d, struct sgt_buffer *b)
{
   vkDestroyBuffer(d->device, b->buffer, NULL);
   vkFreeMemory(d->device, b->memory, NULL);
   memset(b, 0, sizeof(*b));
}

VkDeviceAddress sgt_buffer_address(struct sgt_cdev *d, const struct sgt_buffer *b)
{
   VkBufferDeviceAddressInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                     .buffer = b->buffer};
   return vkGetBufferDeviceAddress(d->device, &info);
}

/* ---- shaders, layouts, pipelines ----------------------------------------- */

VkShaderModule sgt_shader_module(struct sgt_cdev *d, const char *path)
{
   size_t size;
   uint32_t *code = sgt_read_file(path, &size);
   SGT_REQUIRE(code, "cannot read %s (built by glslc with the tests)", path);
   SGT_REQUIRE(size > 0 && size % 4 == 0, "%s: %zu bytes is not SPIR-V", path, size);
   VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = size,
                                    .pCode = code};
   VkShaderModule m;
   SGT_CHECK_VK(vkCreateShaderModule(d->device, &info, NULL, &m));
   free(code);
   return m;
}

VkDescriptorSetLayout sgt_set_layout(struct sgt_cdev *d, uint32_t count,
                                     const VkDescriptorType *types,
                                     VkDescriptorSetLayoutCreateFlags flags)
{
   VkDescriptorSetLayoutBinding b[32];
   SGT_REQUIRE(count <= 32, "too many bindings");
   for (uint32_t i = 0; i < count; i++)
      b[i] = (VkDescriptorSetLayoutBinding){.binding = i,
                                            .descriptorType = types[i],
                                            .descriptorCount = 1,
                                            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
   VkDescriptorSetLayoutCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .flags = flags,
                                           .bindingCount = count,
                                           .pBindings = b};
   VkDescriptorSetLayout l;
   SGT_CHECK_VK(vkCreateDescriptorSetLayout(d->device, &info, NULL, &l));
   return l;
}

VkDescriptorSetLayout sgt_storage_layout(struct sgt_cdev *d, uint32_t count)
{
   VkDescriptorType types[32];
   for (uint32_t i = 0; i < count && i < 32; i++)
      types[i] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   return sgt_set_layout(d, count, types, 0);
}

VkPipelineLayout sgt_pipeline_layout(struct sgt_cdev *d, uint32_t set_count,
                                     const VkDescriptorSetLayout *sets, uint32_t push_bytes)
{
   VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = push_bytes};
   VkPipelineLayoutCreateInfo info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = set_count,
                                      .pSetLayouts = sets,
                                      .pushConstantRangeCount = push_bytes ? 1 : 0,
                                      .pPushConstantRanges = &range};
   VkPipelineLayout l;
   SGT_CHECK_VK(vkCreatePipelineLayout(d->device, &info, NULL, &l));
   return l;
}

static VkPipeline create_pipeline(struct sgt_cdev *d, VkShaderModule module, VkPipelineLayout layout,
                                  const VkSpecializationInfo *spec, VkPipelineCreateFlags flags,
                                  VkPipelineCache cache, VkPipelineShaderStageCreateFlags stage_flags,
                                  const void *stage_next)
{
   VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .flags = flags,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .pNext = stage_next,
                .flags = stage_flags,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main",
                .pSpecializationInfo = spec},
      .layout = layout,
      .basePipelineIndex = -1,
   };
   VkPipeline p;
   SGT_CHECK_VK(vkCreateComputePipelines(d->device, cache, 1, &info, NULL, &p));
   return p;
}

VkPipeline sgt_compute_pipeline(struct sgt_cdev *d, VkShaderModule module, VkPipelineLayout layout,
                                const VkSpecializationInfo *spec, VkPipelineCreateFlags flags,
                                VkPipelineCache cache)
{
   return create_pipeline(d, module, layout, spec, flags, cache, 0, NULL);
}

VkPipeline sgt_compute_pipeline_stage(struct sgt_cdev *d, VkShaderModule module,
                                      VkPipelineLayout layout, const VkSpecializationInfo *spec,
                                      VkPipelineShaderStageCreateFlags stage_flags,
                                      const void *stage_next)
{
   return create_pipeline(d, module, layout, spec, 0, VK_NULL_HANDLE, stage_flags, stage_next);
}

VkDescriptorPool sgt_descriptor_pool(struct sgt_cdev *d, uint32_t max_sets,
                                     VkDescriptorPoolCreateFlags flags)
{
   VkDescriptorPoolSize sizes[] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16 * max_sets},
      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 16 * max_sets},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 16 * max_sets},
      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 16 * max_sets},
   };
   VkDescriptorPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = flags,
                                      .maxSets = max_sets,
                                      .poolSizeCount = 4,
                                      .pPoolSizes = sizes};
   VkDescriptorPool p;
   SGT_CHECK_VK(vkCreateDescriptorPool(d->device, &info, NULL, &p));
   return p;
}

VkDescriptorSet sgt_alloc_set(struct sgt_cdev *d, VkDescriptorPool pool, VkDescriptorSetLayout layout)
{
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &layout};
   VkDescriptorSet s;
   SGT_CHECK_VK(vkAllocateDescriptorSets(d->device, &ai, &s));
   return s;
}

void sgt_write_buffer(struct sgt_cdev *d, VkDescriptorSet set, uint32_t binding, uint32_t element,
                      VkDescriptorType type, const struct sgt_buffer *b, VkDeviceSize offset,
                      VkDeviceSize range)
{
   VkDescriptorBufferInfo bi = {.buffer = b->buffer,
                                .offset = offset,
                                .range = range ? range : VK_WHOLE_SIZE};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .dstSet = set,
                             .dstBinding = binding,
                             .dstArrayElement = element,
                             .descriptorCount = 1,
                             .descriptorType = type,
                             .pBufferInfo = &bi};
   vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
}

void sgt_kernel_create(struct sgt_cdev *d, struct sgt_kernel *k, const char *spv_path,
                       uint32_t storage_bindings, uint32_t push_bytes,
                       const VkSpecializationInfo *spec)
{
   memset(k, 0, sizeof(*k));
   k->bindings = storage_bindings;
   k->push_bytes = push_bytes;
   k->module = sgt_shader_module(d, spv_path);
   k->set_layout = sgt_storage_layout(d, storage_bindings);
   k->layout = sgt_pipeline_layout(d, 1, &k->set_layout, push_bytes);
   k->pipeline = sgt_compute_pipeline(d, k->module, k->layout, spec, 0, VK_NULL_HANDLE);
   k->pool = sgt_descriptor_pool(d, 8, 0);   /* room for a few more sets */
   k->set = sgt_alloc_set(d, k->pool, k->set_layout);
}

void sgt_kernel_bind(struct sgt_cdev *d, struct sgt_kernel *k, const struct sgt_buffer *const *buffers)
{
   for (uint32_t i = 0; i < k->bindings; i++)
      sgt_write_buffer(d, k->set, i, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffers[i], 0, 0);
}

void sgt_kernel_dispatch(VkCommandBuffer cmd, const struct sgt_kernel *k, const void *push,
                         uint32_t x, uint32_t y, uint32_t z)
{
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0, NULL);
   if (k->push_bytes)
      vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, k->push_bytes, push);
   vkCmdDispatch(cmd, x, y, z);
}

void sgt_kernel_destroy(struct sgt_cdev *d, struct sgt_kernel *k)
{
   vkDestroyPipeline(d->device, k->pipeline, NULL);
   vkDestroyPipelineLayout(d->device, k->layout, NULL);
   vkDestroyDescriptorPool(d->device, k->pool, NULL);
   vkDestroyDescriptorSetLayout(d->device, k->set_layout, NULL);
   vkDestroyShaderModule(d->device, k->module, NULL);
   memset(k, 0, sizeof(*k));
}

/* ---- command buffers and barriers ---------------------------------------- */

VkCommandBuffer sgt_cmd_begin(struct sgt_cdev *d)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = d->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
   VkCommandBuffer cmd;
   SGT_CHECK_VK(vkAllocateCommandBuffers(d->device, &ai, &cmd));
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   SGT_CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
   return cmd;
}

void sgt_cmd_submit_wait(struct sgt_cdev *d, VkCommandBuffer cmd)
{
   sgt_host_barrier(cmd);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence;
   SGT_CHECK_VK(vkCreateFence(d->device, &fi, NULL, &fence));
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                      .commandBufferCount = 1,
                      .pCommandBuffers = &cmd};
   SGT_CHECK_VK(vkQueueSubmit(d->queues[0], 1, &si, fence));
   SGT_CHECK_VK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, UINT64_MAX));
   vkDestroyFence(d->device, fence, NULL);
   vkFreeCommandBuffers(d->device, d->pool, 1, &cmd);
}

VkSemaphore sgt_ctimeline(struct sgt_cdev *d, uint64_t initial)
{
   VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                   .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
                                   .initialValue = initial};
   VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
   VkSemaphore s;
   SGT_CHECK_VK(vkCreateSemaphore(d->device, &si, NULL, &s));
   return s;
}

void sgt_compute_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
   const VkPipelineStageFlags stages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
   vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &mb, 0, NULL, 0, NULL);
}

void sgt_host_barrier(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* ---- data ---------------------------------------------------------------- */

bool sgt_check_words(const char *what, const uint32_t *got, const uint32_t *want, uint32_t n)
{
   uint32_t bad = 0;
   for (uint32_t i = 0; i < n; i++) {
      if (got[i] != want[i]) {
         if (bad < 5)
            fprintf(stderr, "   %s: word %u is 0x%08x, expected 0x%08x\n", what, i, got[i], want[i]);
         bad++;
      }
   }
   SGT_CHECK(bad == 0, "%s: %u of %u words differ", what, bad, n);
   return bad == 0;
}
