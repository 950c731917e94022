#include "sg_extensions.h"

#include <string.h>

#include "sg_log.h"

const struct sg_extension sg_instance_extensions[] = {
   {SG_EXT_EXT_debug_utils, VK_EXT_DEBUG_UTILS_SPEC_VERSION},
   {SG_EXT_KHR_device_group_creation, VK_KHR_DEVICE_GROUP_CREATION_SPEC_VERSION},
   {SG_EXT_KHR_external_fence_capabilities, VK_KHR_EXTERNAL_FENCE_CAPABILITIES_SPEC_VERSION},
   {SG_EXT_KHR_external_memory_capabilities, VK_KHR_EXTERNAL_MEMORY_CAPABILITIES_SPEC_VERSION},
   {SG_EXT_KHR_external_semaphore_capabilities,
    VK_KHR_EXTERNAL_SEMAPHORE_CAPABILITIES_SPEC_VERSION},
   {SG_EXT_KHR_get_physical_device_properties2,
    VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_SPEC_VERSION},
};
const uint32_t sg_instance_extension_count =
   sizeof(sg_instance_extensions) / sizeof(sg_instance_extensions[0]);

const struct sg_extension sg_device_extensions[] = {
   {SG_EXT_EXT_host_query_reset, VK_EXT_HOST_QUERY_RESET_SPEC_VERSION},
   {SG_EXT_EXT_inline_uniform_block, VK_EXT_INLINE_UNIFORM_BLOCK_SPEC_VERSION},
   {SG_EXT_EXT_pipeline_creation_cache_control, VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_SPEC_VERSION},
   {SG_EXT_EXT_pipeline_creation_feedback, VK_EXT_PIPELINE_CREATION_FEEDBACK_SPEC_VERSION},
   {SG_EXT_EXT_private_data, VK_EXT_PRIVATE_DATA_SPEC_VERSION},
   {SG_EXT_EXT_scalar_block_layout, VK_EXT_SCALAR_BLOCK_LAYOUT_SPEC_VERSION},
   {SG_EXT_EXT_shader_atomic_float, VK_EXT_SHADER_ATOMIC_FLOAT_SPEC_VERSION},
   {SG_EXT_EXT_subgroup_size_control, VK_EXT_SUBGROUP_SIZE_CONTROL_SPEC_VERSION},
   {SG_EXT_EXT_tooling_info, VK_EXT_TOOLING_INFO_SPEC_VERSION},
   {SG_EXT_KHR_16bit_storage, VK_KHR_16BIT_STORAGE_SPEC_VERSION},
   {SG_EXT_KHR_8bit_storage, VK_KHR_8BIT_STORAGE_SPEC_VERSION},
   {SG_EXT_KHR_buffer_device_address, VK_KHR_BUFFER_DEVICE_ADDRESS_SPEC_VERSION},
   {SG_EXT_KHR_descriptor_update_template, VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_SPEC_VERSION},
   {SG_EXT_KHR_driver_properties, VK_KHR_DRIVER_PROPERTIES_SPEC_VERSION},
   {SG_EXT_KHR_maintenance4, VK_KHR_MAINTENANCE_4_SPEC_VERSION},
   {SG_EXT_KHR_push_descriptor, VK_KHR_PUSH_DESCRIPTOR_SPEC_VERSION},
   {SG_EXT_KHR_shader_clock, VK_KHR_SHADER_CLOCK_SPEC_VERSION},
   {SG_EXT_KHR_shader_float16_int8, VK_KHR_SHADER_FLOAT16_INT8_SPEC_VERSION},
   {SG_EXT_KHR_shader_float_controls, VK_KHR_SHADER_FLOAT_CONTROLS_SPEC_VERSION},
   {SG_EXT_KHR_shader_integer_dot_product, VK_KHR_SHADER_INTEGER_DOT_PRODUCT_SPEC_VERSION},
   {SG_EXT_KHR_shader_non_semantic_info, VK_KHR_SHADER_NON_SEMANTIC_INFO_SPEC_VERSION},
   {SG_EXT_KHR_shader_subgroup_extended_types, VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_SPEC_VERSION},
   {SG_EXT_KHR_storage_buffer_storage_class, VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_SPEC_VERSION},
   {SG_EXT_KHR_synchronization2, VK_KHR_SYNCHRONIZATION_2_SPEC_VERSION},
   {SG_EXT_KHR_timeline_semaphore, VK_KHR_TIMELINE_SEMAPHORE_SPEC_VERSION},
   {SG_EXT_KHR_uniform_buffer_standard_layout, VK_KHR_UNIFORM_BUFFER_STANDARD_LAYOUT_SPEC_VERSION},
   {SG_EXT_KHR_vulkan_memory_model, VK_KHR_VULKAN_MEMORY_MODEL_SPEC_VERSION},
   {SG_EXT_KHR_workgroup_memory_explicit_layout, VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_SPEC_VERSION},
   {SG_EXT_KHR_zero_initialize_workgroup_memory, VK_KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_SPEC_VERSION},
};
const uint32_t sg_device_extension_count =
   sizeof(sg_device_extensions) / sizeof(sg_device_extensions[0]);

struct sg_ext_set sg_extension_set(const struct sg_extension *list, uint32_t count)
{
   struct sg_ext_set set = {{0}};
   for (uint32_t i = 0; i < count; i++)
      sg_ext_set_add(&set, list[i].ext);
   return set;
}

VkResult sg_extensions_enumerate(const struct sg_extension *list, uint32_t count,
                                 const struct sg_ext_set *offered, uint32_t *pPropertyCount,
                                 VkExtensionProperties *pProperties)
{
   uint32_t total = 0;
   for (uint32_t i = 0; i < count; i++)
      total += !offered || sg_ext_set_has(offered, list[i].ext);
   if (!pProperties) {
      *pPropertyCount = total;
      return VK_SUCCESS;
   }
   uint32_t n = 0;
   for (uint32_t i = 0; i < count && n < *pPropertyCount; i++) {
      if (offered && !sg_ext_set_has(offered, list[i].ext))
         continue;
      memset(&pProperties[n], 0, sizeof(pProperties[n]));
      strncpy(pProperties[n].extensionName, sg_ext_names[list[i].ext],
              VK_MAX_EXTENSION_NAME_SIZE - 1);
      pProperties[n].specVersion = list[i].spec_version;
      n++;
   }
   *pPropertyCount = n;
   return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult sg_extensions_enable(const struct sg_extension *list, uint32_t count,
                              const struct sg_ext_set *offered, uint32_t name_count,
                              const char *const *names, struct sg_ext_set *enabled)
{
   struct sg_ext_set supported = sg_extension_set(list, count);
   memset(enabled, 0, sizeof(*enabled));
   for (uint32_t i = 0; i < name_count; i++) {
      enum sg_ext e = names[i] ? sg_ext_from_name(names[i]) : SG_EXT_COUNT;
      if (e == SG_EXT_COUNT || !sg_ext_set_has(&supported, e)) {
         SG_LOG(SG_LOG_ERROR, SG_AREA_API,
                "extension %s is not supported by softgpu: VK_ERROR_EXTENSION_NOT_PRESENT",
                names[i] ? names[i] : "(null)");
         return VK_ERROR_EXTENSION_NOT_PRESENT;
      }
      if (offered && !sg_ext_set_has(offered, e)) {
         SG_LOG(SG_LOG_ERROR, SG_AREA_API, "extension %s is hidden by SOFTGPU_HIDE_FEATURES: "
                "VK_ERROR_EXTENSION_NOT_PRESENT", names[i]);
         return VK_ERROR_EXTENSION_NOT_PRESENT;
      }
      sg_ext_set_add(enabled, e);
   }
   return VK_SUCCESS;
}
