/*
 * The SPIR-V a device allows: which capabilities and extensions its
 * enabled API version, device extensions and features (and the physical
 * device's properties) enable, by vk.xml's <spirvcapabilities> and
 * <spirvextensions> (the generated sg_spirv_tables.h). Worked out once at
 * vkCreateDevice and handed to the compiler as plain data.
 */
#ifndef SG_SPIRV_CAPS_H
#define SG_SPIRV_CAPS_H

#include "sc_compiler.h"
#include "sg_spirv_tables.h"

struct sg_physical_device;

struct sg_device_spirv {
   /* One entry per rule of the table, in its order; the compiler reads
    * them through `view`, which points here. */
   struct sc_spirv_permit capabilities[SG_SPIRV_CAPABILITY_COUNT];
   struct sc_spirv_permit extensions[SG_SPIRV_EXTENSION_COUNT];
   struct sc_device_spirv view;
   /* The rules the SPIR-V validator applies on this device: the API
    * version's environment and the block layouts its features allow. */
   struct sc_validator_options validator;
   /* A hash of which ones are allowed and of the validator's rules:
    * pipeline cache keys include it, since the same module may compile on
    * one device and not another. */
   uint64_t hash;
};

/* Whether one <enable> is met by an API version, a set of enabled
 * extensions, features and the physical device's properties. */
bool sg_spirv_enable_met(const struct sg_spirv_enable *en, uint32_t api_version,
                         const struct sg_ext_set *exts, const struct sg_core_features *features,
                         const struct sg_core_properties *props);

/* Fills s for a device; s must not move afterwards (view points into it).
 * pdev_api_version is the physical device's (which decides what the core
 * version allows, see sg_spirv_caps.c), api_version the device's (the
 * application's, at most softgpu's: the validator's environment). */
void sg_device_spirv_init(struct sg_device_spirv *s, uint32_t pdev_api_version,
                          uint32_t api_version, const struct sg_ext_set *exts,
                          const struct sg_core_features *features,
                          const struct sg_core_properties *props);

#endif
