/*
 * test_spirv_capabilities: what softgpu advertises is true of its
 * compiler, and what a device does not enable is refused.
 *
 * - advertised: for every device extension softgpu advertises, every
 *   feature it reports VK_TRUE and every property value it reports, each
 *   SPIR-V capability and extension that vk.xml's <spirvcapabilities> and
 *   <spirvextensions> say it enables is implemented by the compiler. So
 *   advertising a feature whose capability the compiler rejects fails
 *   here. What the API version alone enables is mandatory for every
 *   implementation of that version: test_conformance_gaps tracks it
 *   (`spirv:` rows of docs/conformance-gaps.md).
 * - refused: a device that does not enable shaderInt64 refuses a shader
 *   that declares Int64, with a message that names the capability, says
 *   it is not enabled on the device and what would enable it.
 * - allowed: a device that enables shaderInt64 compiles it.
 */
#include <string.h>

#include "sc_compiler.h"
#include "sg_spirv_caps.h"
#include "sgt_compute.h"

struct advertised {
   uint32_t api_version;
   struct sg_ext_set exts;
   struct sg_core_features features;
   struct sg_core_properties props;
};

static void query(VkPhysicalDevice pdev, struct advertised *a)
{
   memset(a, 0, sizeof(*a));
   struct sg_core_features *f = &a->features;
   f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   f->v11.pNext = &f->v12;
   f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f->v12.pNext = &f->v13;
   f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f->v11};
   vkGetPhysicalDeviceFeatures2(pdev, &f2);
   f->v10 = f2.features;

   struct sg_core_properties *p = &a->props;
   p->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
   p->v11.pNext = &p->v12;
   p->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
   p->v12.pNext = &p->v13;
   p->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &p->v11};
   vkGetPhysicalDeviceProperties2(pdev, &p2);
   p->v10 = p2.properties;
   a->api_version = p->v10.apiVersion;

   uint32_t n = 0;
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, NULL));
   VkExtensionProperties *list = calloc(n + 1, sizeof(*list));
   SGT_REQUIRE(list, "out of memory");
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, list));
   for (uint32_t i = 0; i < n; i++) {
      enum sg_ext e = sg_ext_from_name(list[i].extensionName);
      SGT_CHECK(e != SG_EXT_COUNT, "advertised extension %s is not in vk.xml",
                list[i].extensionName);
      if (e != SG_EXT_COUNT)
         sg_ext_set_add(&a->exts, e);
   }
   free(list);
}

static void describe(const struct sg_spirv_enable *en, char *buf, size_t n)
{
   switch (en->by) {
   case SG_SPIRV_BY_EXTENSION:
      snprintf(buf, n, "extension %s", sg_ext_names[en->ext]);
      break;
   case SG_SPIRV_BY_FEATURE:
      snprintf(buf, n, "feature %s.%s", en->struct_name, en->member);
      break;
   default:
      snprintf(buf, n, "property %s.%s (0x%x)", en->struct_name, en->member, en->value);
      break;
   }
}

/* Every rule enabled by something advertised (the version aside) must be
 * implemented; returns how many enables were advertised. */
static uint32_t check_rules(const struct advertised *a, const struct sg_spirv_rule *rules,
                            uint32_t count, bool capabilities)
{
   uint32_t advertised = 0;
   for (uint32_t i = 0; i < count; i++) {
      const struct sg_spirv_rule *r = &rules[i];
      bool implemented = capabilities ? sc_capability_implemented(r->capability)
                                      : sc_extension_implemented(r->name);
      for (uint32_t k = 0; k < r->enable_count; k++) {
         const struct sg_spirv_enable *en = &r->enables[k];
         if (en->by == SG_SPIRV_BY_VERSION ||
             !sg_spirv_enable_met(en, a->api_version, &a->exts, &a->features, &a->props))
            continue;
         advertised++;
         char what[160];
         describe(en, what, sizeof(what));
         SGT_CHECK(implemented, "softgpu advertises %s, which enables SPIR-V %s %s, but the "
                   "compiler does not implement it: implement it or stop advertising %s",
                   what, capabilities ? "capability" : "extension", r->name, what);
      }
   }
   return advertised;
}

static void test_advertised(VkPhysicalDevice pdev)
{
   static struct advertised a;
   query(pdev, &a);
   uint32_t caps = check_rules(&a, sg_spirv_capabilities, SG_SPIRV_CAPABILITY_COUNT, true);
   uint32_t exts = check_rules(&a, sg_spirv_extensions, SG_SPIRV_EXTENSION_COUNT, false);
   /* softgpu advertises int64, subgroups, descriptor indexing, the memory
    * model, device addresses...: far more than a handful. */
   SGT_CHECK(caps >= 15, "only %u capability enables advertised: is the table empty?", caps);
   SGT_CHECK(exts >= 3, "only %u extension enables advertised", exts);
   fprintf(stderr, "advertised: %u capability and %u extension enables, all implemented\n",
           caps, exts);
}

static bool driver_said(const char *const *needles)
{
   for (uint32_t i = 0; i < sgt_driver_message_count(); i++) {
      const char *m = sgt_driver_message(i);
      bool all = true;
      for (const char *const *n = needles; *n && all; n++)
         all = strstr(m, *n) != NULL;
      if (all)
         return true;
   }
   return false;
}

/* A device with or without shaderInt64, and a pipeline of int64_add. */
static void test_int64(VkInstance instance, VkPhysicalDevice pdev, bool enable)
{
   float prio = 1.0f;
   VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueCount = 1, .pQueuePriorities = &prio};
   VkPhysicalDeviceFeatures features = {.shaderInt64 = enable};
   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi,
                              .pEnabledFeatures = &features};
   VkDevice device;
   SGT_CHECK_VK(vkCreateDevice(pdev, &info, NULL, &device));

   FILE *f = fopen(SGT_SHADER("int64_add"), "rb");
   SGT_REQUIRE(f, "cannot open %s", SGT_SHADER("int64_add"));
   static uint32_t words[4096];
   size_t size = fread(words, 1, sizeof(words), f);
   fclose(f);
   /* The validation layer sees what the driver does ("If pCode declares
    * any of the capabilities listed in the SPIR-V Environment appendix, one
    * of the corresponding requirements must be satisfied"; the VUID was
    * renumbered 08740 in later layers). */
   static const char *const tolerated[] = {"VUID-VkShaderModuleCreateInfo-pCode-01091",
                                           "VUID-VkShaderModuleCreateInfo-pCode-08740", NULL};
   if (!enable)
      sgt_expect_validation_ids(tolerated);
   VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                  .codeSize = size, .pCode = words};
   VkShaderModule module;
   SGT_CHECK_VK(vkCreateShaderModule(device, &mi, NULL, &module));
   VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                     VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                         .bindingCount = 1, .pBindings = &b};
   VkDescriptorSetLayout set_layout;
   SGT_CHECK_VK(vkCreateDescriptorSetLayout(device, &li, NULL, &set_layout));
   VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1, .pSetLayouts = &set_layout};
   VkPipelineLayout layout;
   SGT_CHECK_VK(vkCreatePipelineLayout(device, &pli, NULL, &layout));
   VkComputePipelineCreateInfo ci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = module, .pName = "main"},
      .layout = layout};
   sgt_clear_driver_messages();
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkResult r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, NULL, &pipeline);
   if (enable) {
      SGT_CHECK(r == VK_SUCCESS, "Int64 with shaderInt64 enabled: %s", sgt_result_name(r));
   } else {
      SGT_CHECK(r != VK_SUCCESS && pipeline == VK_NULL_HANDLE,
                "Int64 without shaderInt64 compiled (%s)", sgt_result_name(r));
      static const char *const why[] = {"capability Int64", "not enabled on the device",
                                        "VkPhysicalDeviceFeatures.shaderInt64", NULL};
      SGT_CHECK(driver_said(why), "the refusal does not say which capability, why and what "
                "enables it (%u driver messages; last: %s)", sgt_driver_message_count(),
                sgt_driver_message_count()
                   ? sgt_driver_message(sgt_driver_message_count() - 1) : "none");
   }
   vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyPipelineLayout(device, layout, NULL);
   vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   vkDestroyShaderModule(device, module, NULL);
   sgt_expect_validation_ids(NULL);
   vkDestroyDevice(device, NULL);
   (void)instance;
}

int main(void)
{
   VkInstance instance = sgt_create_instance(NULL);
   VkPhysicalDevice pdev = sgt_physical_device(instance);
   test_advertised(pdev);
   test_int64(instance, pdev, false);
   test_int64(instance, pdev, true);
   sgt_destroy_instance(instance);
   return sgt_finish();
}
