/*
 * compute_saxpy: a complete Vulkan compute job, from creating an instance to
 * reading the result back, computing y = a * x + y over a million floats.
 *
 * It is plain Vulkan 1.3 and runs on any driver; to run it on softgpu:
 *
 *   VK_DRIVER_FILES=<build>/softgpu_icd.json <build>/examples/compute_saxpy
 *
 * The steps, in order: instance -> physical device and a compute queue
 * family -> device and queue -> buffers -> descriptor set layout, pipeline
 * layout and pipeline -> descriptor set -> command buffer -> submit, wait ->
 * check on the host. It prints the check and the time the job took, and exits
 * non-zero when any element is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vulkan/vulkan.h>

/* The shader (examples/shaders/saxpy.comp), compiled by glslc at build time
 * into a C initializer of 32-bit SPIR-V words. */
static const uint32_t saxpy_spv[] =
#include "saxpy.spv.inc"
   ;

#define N (1u << 20)     /* elements */
#define LOCAL_SIZE 256u  /* must match local_size_x in the shader */

/* The shader's push constants, laid out as in the shader. */
struct params {
   float a;
   uint32_t n;
};

/* Every Vulkan call that can fail returns a VkResult; this example simply
 * stops at the first failure. */
#define CHECK(expr)                                                            \
   do {                                                                        \
      VkResult r_ = (expr);                                                    \
      if (r_ != VK_SUCCESS) {                                                  \
         fprintf(stderr, "%s failed: VkResult %d\n", #expr, r_);               \
         exit(1);                                                              \
      }                                                                        \
   } while (0)

static double now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The first physical device with a queue family that can run compute work. */
static VkPhysicalDevice pick_device(VkInstance instance, uint32_t *family)
{
   VkPhysicalDevice devices[16];
   uint32_t count = 16;
   VkResult r = vkEnumeratePhysicalDevices(instance, &count, devices);
   if (r != VK_SUCCESS && r != VK_INCOMPLETE)
      CHECK(r);
   for (uint32_t d = 0; d < count; d++) {
      VkQueueFamilyProperties families[16];
      uint32_t nf = 0;
      vkGetPhysicalDeviceQueueFamilyProperties(devices[d], &nf, NULL);
      nf = nf < 16 ? nf : 16;
      vkGetPhysicalDeviceQueueFamilyProperties(devices[d], &nf, families);
      for (uint32_t f = 0; f < nf; f++) {
         if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            *family = f;
            return devices[d];
         }
      }
   }
   fprintf(stderr, "no Vulkan device with a compute queue\n");
   exit(1);
}

/* A buffer the shader reads and writes and the host maps. */
struct buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   float *data; /* host mapping */
};

static struct buffer create_buffer(VkPhysicalDevice pdev, VkDevice device, VkDeviceSize size)
{
   struct buffer b;
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   CHECK(vkCreateBuffer(device, &info, NULL, &b.buffer));

   /* Memory the host can map and that needs no explicit flushes
    * (HOST_COHERENT). On a CPU or integrated GPU this is also the device's
    * fastest memory; a discrete GPU would rather copy through a staging
    * buffer into DEVICE_LOCAL memory. */
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(device, b.buffer, &req);
   VkPhysicalDeviceMemoryProperties props;
   vkGetPhysicalDeviceMemoryProperties(pdev, &props);
   const VkMemoryPropertyFlags want =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   uint32_t type = 0;
   while (type < props.memoryTypeCount &&
          !((req.memoryTypeBits & (1u << type)) &&
            (props.memoryTypes[type].propertyFlags & want) == want))
      type++;
   if (type == props.memoryTypeCount) {
      fprintf(stderr, "no host-visible, coherent memory type\n");
      exit(1);
   }
   VkMemoryAllocateInfo alloc = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.size,
      .memoryTypeIndex = type,
   };
   CHECK(vkAllocateMemory(device, &alloc, NULL, &b.memory));
   CHECK(vkBindBufferMemory(device, b.buffer, b.memory, 0));
   void *mapped;
   CHECK(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
   b.data = mapped;
   return b;
}

static void destroy_buffer(VkDevice device, struct buffer *b)
{
   vkUnmapMemory(device, b->memory);
   vkDestroyBuffer(device, b->buffer, NULL);
   vkFreeMemory(device, b->memory, NULL);
}

int main(void)
{
   /* 1. The instance: the application's connection to the Vulkan loader. */
   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "compute_saxpy",
      .apiVersion = VK_API_VERSION_1_3,
   };
   VkInstanceCreateInfo instance_info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pApplicationInfo = &app,
   };
   VkInstance instance;
   CHECK(vkCreateInstance(&instance_info, NULL, &instance));

   /* 2. A device with a compute queue family. */
   uint32_t family;
   VkPhysicalDevice pdev = pick_device(instance, &family);
   VkPhysicalDeviceProperties dev_props;
   vkGetPhysicalDeviceProperties(pdev, &dev_props);
   printf("device: %s\n", dev_props.deviceName);

   /* 3. The logical device, with one queue of that family. */
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo queue_info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo device_info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &queue_info,
   };
   VkDevice device;
   CHECK(vkCreateDevice(pdev, &device_info, NULL, &device));
   VkQueue queue;
   vkGetDeviceQueue(device, family, 0, &queue);

   /* 4. The two arrays, filled by the host. Small integers keep a * x + y
    * exact in float, so the check below can demand equality. */
   const struct params params = {.a = 2.0f, .n = N};
   struct buffer x = create_buffer(pdev, device, N * sizeof(float));
   struct buffer y = create_buffer(pdev, device, N * sizeof(float));
   for (uint32_t i = 0; i < N; i++) {
      x.data[i] = (float)(i % 1000);
      y.data[i] = (float)(i % 7) - 3.0f;
   }

   /* 5. The pipeline's interface: two storage buffers in set 0 and the
    * push constants; then the pipeline itself, built from the shader. */
   VkDescriptorSetLayoutBinding bindings[2];
   for (uint32_t i = 0; i < 2; i++) {
      bindings[i] = (VkDescriptorSetLayoutBinding){
         .binding = i,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      };
   }
   VkDescriptorSetLayoutCreateInfo set_layout_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = 2,
      .pBindings = bindings,
   };
   VkDescriptorSetLayout set_layout;
   CHECK(vkCreateDescriptorSetLayout(device, &set_layout_info, NULL, &set_layout));
   VkPushConstantRange push_range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(struct params)};
   VkPipelineLayoutCreateInfo layout_info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &push_range,
   };
   VkPipelineLayout layout;
   CHECK(vkCreatePipelineLayout(device, &layout_info, NULL, &layout));

   VkShaderModuleCreateInfo module_info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = sizeof(saxpy_spv),
      .pCode = saxpy_spv,
   };
   VkShaderModule module;
   CHECK(vkCreateShaderModule(device, &module_info, NULL, &module));
   VkComputePipelineCreateInfo pipeline_info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_COMPUTE_BIT,
         .module = module,
         .pName = "main",
      },
      .layout = layout,
   };
   VkPipeline pipeline;
   CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline));
   vkDestroyShaderModule(device, module, NULL); /* the pipeline keeps what it needs */

   /* 6. A descriptor set that points the shader's bindings at the buffers. */
   VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
   VkDescriptorPoolCreateInfo pool_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 1,
      .poolSizeCount = 1,
      .pPoolSizes = &pool_size,
   };
   VkDescriptorPool descriptor_pool;
   CHECK(vkCreateDescriptorPool(device, &pool_info, NULL, &descriptor_pool));
   VkDescriptorSetAllocateInfo set_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = descriptor_pool,
      .descriptorSetCount = 1,
      .pSetLayouts = &set_layout,
   };
   VkDescriptorSet set;
   CHECK(vkAllocateDescriptorSets(device, &set_info, &set));
   VkDescriptorBufferInfo buffer_infos[2] = {
      {x.buffer, 0, VK_WHOLE_SIZE},
      {y.buffer, 0, VK_WHOLE_SIZE},
   };
   VkWriteDescriptorSet writes[2];
   for (uint32_t i = 0; i < 2; i++) {
      writes[i] = (VkWriteDescriptorSet){
         .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = set,
         .dstBinding = i,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &buffer_infos[i],
      };
   }
   vkUpdateDescriptorSets(device, 2, writes, 0, NULL);

   /* 7. The command buffer: bind, set the parameters, launch enough
    * workgroups to cover N, then make the shader's writes visible to host
    * reads (the host's own writes before vkQueueSubmit need no barrier). */
   VkCommandPoolCreateInfo cmd_pool_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = family,
   };
   VkCommandPool cmd_pool;
   CHECK(vkCreateCommandPool(device, &cmd_pool_info, NULL, &cmd_pool));
   VkCommandBufferAllocateInfo cb_info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = cmd_pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkCommandBuffer cb;
   CHECK(vkAllocateCommandBuffers(device, &cb_info, &cb));
   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   CHECK(vkBeginCommandBuffer(cb, &begin));
   vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params), &params);
   const uint32_t groups = (N + LOCAL_SIZE - 1) / LOCAL_SIZE;
   vkCmdDispatch(cb, groups, 1, 1);
   VkMemoryBarrier to_host = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                        1, &to_host, 0, NULL, 0, NULL);
   CHECK(vkEndCommandBuffer(cb));

   /* 8. Submit, and wait on a fence that the queue signals when done. */
   VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence;
   CHECK(vkCreateFence(device, &fence_info, NULL, &fence));
   VkSubmitInfo submit = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &cb,
   };
   double t0 = now_ms();
   CHECK(vkQueueSubmit(queue, 1, &submit, fence));
   CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
   double ms = now_ms() - t0;

   /* 9. Check every element on the host. */
   printf("saxpy: y = %g * x + y over %u floats, %u workgroups of %u\n", params.a, N, groups,
          LOCAL_SIZE);
   uint32_t wrong = 0;
   for (uint32_t i = 0; i < N; i++) {
      float want = params.a * (float)(i % 1000) + ((float)(i % 7) - 3.0f);
      if (y.data[i] != want) {
         if (wrong++ < 5)
            printf("  y[%u] = %g, expected %g\n", i, y.data[i], want);
      }
   }
   if (wrong)
      printf("result: WRONG (%u of %u elements)\n", wrong, N);
   else
      printf("result: correct (all %u elements)\n", N);
   printf("time: %.3f ms from submit to fence (%.2f GB/s: 12 bytes per element)\n", ms,
          12.0 * N / (ms * 1e6));

   /* 10. Clean up, children before parents. */
   vkDestroyFence(device, fence, NULL);
   vkDestroyCommandPool(device, cmd_pool, NULL); /* frees cb too */
   vkDestroyDescriptorPool(device, descriptor_pool, NULL); /* frees set too */
   vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyPipelineLayout(device, layout, NULL);
   vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   destroy_buffer(device, &x);
   destroy_buffer(device, &y);
   vkDestroyDevice(device, NULL);
   vkDestroyInstance(instance, NULL);
   return wrong ? 1 : 0;
}
