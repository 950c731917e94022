/*
 * Host memory for Vulkan objects, always through VkAllocationCallbacks:
 * the application's when it gives some, the parent object's otherwise,
 * the system's last.
 */
#ifndef SG_ALLOC_H
#define SG_ALLOC_H

#include <stddef.h>
#include <vulkan/vulkan_core.h>

extern const VkAllocationCallbacks sg_system_allocator;

/* The callbacks a create or destroy call must use. */
static inline const VkAllocationCallbacks *sg_alloc_pick(const VkAllocationCallbacks *given,
                                                         const VkAllocationCallbacks *parent)
{
   return given ? given : parent;
}

void *sg_alloc(const VkAllocationCallbacks *a, size_t size, VkSystemAllocationScope scope);
void *sg_zalloc(const VkAllocationCallbacks *a, size_t size, VkSystemAllocationScope scope);
void sg_free(const VkAllocationCallbacks *a, void *ptr);
char *sg_strdup(const VkAllocationCallbacks *a, const char *s, VkSystemAllocationScope scope);

#endif
