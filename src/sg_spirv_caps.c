/*
 * The SPIR-V capabilities and extensions a device allows. The SPIR-V
 * environment appendix lists what enables each, and vk.xml carries the
 * same table, which the build turns into sg_spirv_tables.c:
 *
 *   "The application must not use any of these capabilities in SPIR-V
 *   passed to vkCreateShaderModule unless one of the following conditions
 *   is met for the VkDevice specified in the device parameter of
 *   vkCreateShaderModule: The corresponding field in the table is blank.
 *   Any corresponding Vulkan feature is enabled. Any corresponding Vulkan
 *   extension is enabled. Any corresponding Vulkan property is supported.
 *   The corresponding core version is supported (as returned by
 *   VkPhysicalDeviceProperties::apiVersion)."
 */
#include "sg_spirv_caps.h"

#include <string.h>

#include "sg_hash.h"

static bool requirement_met(const struct sg_spirv_requirement *r, uint32_t api_version,
                            const struct sg_ext_set *exts)
{
   if (r->ext == SG_EXT_COUNT)
      return api_version >= r->version;
   return sg_ext_set_has(exts, (enum sg_ext)r->ext);
}

bool sg_spirv_enable_met(const struct sg_spirv_enable *en, uint32_t api_version,
                         const struct sg_ext_set *exts, const struct sg_core_features *features,
                         const struct sg_core_properties *props)
{
   switch (en->by) {
   case SG_SPIRV_BY_VERSION:
      return api_version >= en->version;
   case SG_SPIRV_BY_EXTENSION:
      return en->ext < SG_EXT_COUNT && sg_ext_set_has(exts, (enum sg_ext)en->ext);
   default:
      break;
   }
   /* A struct softgpu has no core counterpart for: none of its features
    * or properties is ever supported. */
   if (en->core_offset < 0)
      return false;
   /* The struct must exist for the device: one of the versions or
    * extensions that define it (vk.xml's requires=). */
   bool exists = en->requirement_count == 0;
   for (uint32_t i = 0; i < en->requirement_count && !exists; i++)
      exists = requirement_met(&en->requirements[i], api_version, exts);
   if (!exists)
      return false;
   uint32_t v;
   const void *base = en->by == SG_SPIRV_BY_FEATURE ? (const void *)features : (const void *)props;
   memcpy(&v, (const char *)base + en->core_offset, sizeof(v));
   return en->by == SG_SPIRV_BY_FEATURE ? v == VK_TRUE : (v & en->value) == en->value;
}

static bool rule_met(const struct sg_spirv_rule *r, uint32_t api_version,
                     const struct sg_ext_set *exts, const struct sg_core_features *features,
                     const struct sg_core_properties *props)
{
   for (uint32_t i = 0; i < r->enable_count; i++) {
      if (sg_spirv_enable_met(&r->enables[i], api_version, exts, features, props))
         return true;
   }
   return false;
}

static uint64_t fill(struct sc_spirv_permit *out, const struct sg_spirv_rule *rules, uint32_t count,
                     uint32_t api_version, const struct sg_ext_set *exts,
                     const struct sg_core_features *features,
                     const struct sg_core_properties *props, uint64_t h)
{
   for (uint32_t i = 0; i < count; i++) {
      const struct sg_spirv_rule *r = &rules[i];
      bool allowed = rule_met(r, api_version, exts, features, props);
      out[i] = (struct sc_spirv_permit){r->name, r->capability, allowed, r->enabled_by};
      h = sg_hash64(&allowed, sizeof(allowed), h ^ i);
   }
   return h;
}

static struct sc_validator_options validator_options(uint32_t api_version,
                                                     const struct sg_ext_set *exts,
                                                     const struct sg_core_features *f)
{
   struct sc_validator_options o = {0};
   /* "A Vulkan 1.3 implementation must support the 1.0, 1.1, 1.2, 1.3,
    * 1.4, 1.5, and 1.6 versions of SPIR-V", and a 1.2 one up to 1.5: the
    * environment of the version the application uses bounds the SPIR-V
    * version and the rules. */
   uint32_t minor = VK_API_VERSION_MINOR(api_version);
   o.env = minor >= 3 ? SC_VULKAN_1_3 : minor == 2 ? SC_VULKAN_1_2 : minor == 1 ? SC_VULKAN_1_1
                                                                                : SC_VULKAN_1_0;
   /* Offset and Stride Assignment: the relaxed layout came with
    * VK_KHR_relaxed_block_layout, core since Vulkan 1.1; the standard
    * uniform and the scalar layouts come with their features. */
   o.relaxed_block_layout =
      minor >= 1 || sg_ext_set_has(exts, SG_EXT_KHR_relaxed_block_layout);
   o.uniform_buffer_standard_layout = f->v12.uniformBufferStandardLayout;
   o.scalar_block_layout = f->v12.scalarBlockLayout;
   /* Scalar layouts of Block-decorated Workgroup variables come with
    * workgroupMemoryExplicitLayoutScalarBlockLayout (and the extension). */
   o.workgroup_scalar_block_layout =
      f->wmel.workgroupMemoryExplicitLayoutScalarBlockLayout &&
      sg_ext_set_has(exts, SG_EXT_KHR_workgroup_memory_explicit_layout);
   /* LocalSizeId needs maintenance4 (the Vulkan 1.3 environment allows
    * it by itself, earlier ones only with this). */
   o.allow_local_size_id = f->v13.maintenance4;
   return o;
}

void sg_device_spirv_init(struct sg_device_spirv *s, uint32_t pdev_api_version,
                          uint32_t api_version, const struct sg_ext_set *exts,
                          const struct sg_core_features *features,
                          const struct sg_core_properties *props)
{
   uint64_t h = fill(s->capabilities, sg_spirv_capabilities, SG_SPIRV_CAPABILITY_COUNT,
                     pdev_api_version, exts, features, props, 0x53504952u);
   h = fill(s->extensions, sg_spirv_extensions, SG_SPIRV_EXTENSION_COUNT, pdev_api_version,
            exts, features, props, h);
   s->validator = validator_options(api_version, exts, features);
   const struct sc_validator_options *v = &s->validator;
   uint8_t rules[6] = {(uint8_t)v->env, v->relaxed_block_layout,
                       v->uniform_buffer_standard_layout, v->scalar_block_layout,
                       v->workgroup_scalar_block_layout, v->allow_local_size_id};
   s->hash = sg_hash64(rules, sizeof(rules), h);
   s->view = (struct sc_device_spirv){SG_SPIRV_CAPABILITY_COUNT, s->capabilities,
                                      SG_SPIRV_EXTENSION_COUNT, s->extensions};
}
