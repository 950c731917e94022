/*
 * The extensions softgpu advertises. An extension appears here only when
 * everything it adds works: its commands are implemented (a test checks
 * the entrypoint table) and its features and properties are reported.
 */
#ifndef SG_EXTENSIONS_H
#define SG_EXTENSIONS_H

#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "sg_entrypoints.h"

struct sg_extension {
   enum sg_ext ext;
   uint32_t spec_version;
};

extern const struct sg_extension sg_instance_extensions[];
extern const uint32_t sg_instance_extension_count;
extern const struct sg_extension sg_device_extensions[];
extern const uint32_t sg_device_extension_count;

/* The set of a list, for lookups. */
struct sg_ext_set sg_extension_set(const struct sg_extension *list, uint32_t count);

/* vkEnumerate*ExtensionProperties for the members of one list that are in
 * `offered` (NULL: the whole list). */
VkResult sg_extensions_enumerate(const struct sg_extension *list, uint32_t count,
                                 const struct sg_ext_set *offered, uint32_t *pPropertyCount,
                                 VkExtensionProperties *pProperties);

/* Checks and collects requested extension names; logs and returns
 * VK_ERROR_EXTENSION_NOT_PRESENT for any name not in the list or, when
 * `offered` is given, not in it (SOFTGPU_HIDE_FEATURES hid it). */
VkResult sg_extensions_enable(const struct sg_extension *list, uint32_t count,
                              const struct sg_ext_set *offered, uint32_t name_count,
                              const char *const *names, struct sg_ext_set *enabled);

#endif
