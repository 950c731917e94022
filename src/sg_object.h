/*
 * The base every softgpu Vulkan object begins with, so generic code (debug
 * names, private data, logging) can handle any handle.
 */
#ifndef SG_OBJECT_H
#define SG_OBJECT_H

#include <stdint.h>
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

struct sg_device;

struct sg_private_entry {
   uint64_t slot_id;   /* sg_private_data_slot::id, never reused */
   uint64_t value;
};

struct sg_object {
   /* Dispatchable handles point here: the loader stores its dispatch table
    * pointer in this word, so it must come first. Non-dispatchable objects
    * leave it zero. */
   VK_LOADER_DATA loader_data;
   VkObjectType type;
   /* The device this object belongs to; NULL for instance-level objects. */
   struct sg_device *device;
   /* Allocator for the metadata below: the device's for device-level
    * objects, the instance's above. */
   const VkAllocationCallbacks *meta_alloc;
   /* Name given through vkSetDebugUtilsObjectNameEXT, or NULL. Used by
    * logs, traces and post-mortem reports. Guarded by sg_object_meta_lock. */
   char *name;
   /* Private data (Vulkan 1.3), a short list: objects rarely carry more
    * than a few slots. Guarded by sg_object_meta_lock. */
   struct sg_private_entry *private_data;
   uint32_t private_count;
   uint32_t private_capacity;
};

void sg_object_init(struct sg_object *obj, VkObjectType type, struct sg_device *device,
                    const VkAllocationCallbacks *meta_alloc);
/* Frees the name and private data; the object's own memory is the caller's. */
void sg_object_finish(struct sg_object *obj);

static inline struct sg_object *sg_object_from_u64(uint64_t handle)
{
   return (struct sg_object *)(uintptr_t)handle;
}

/* Handle casts. Dispatchable handles are pointers; non-dispatchable ones are
 * 64-bit integers holding a pointer. */
#define SG_DEFINE_HANDLE_CASTS(sg_type, vk_type)                              \
   static inline struct sg_type *sg_type##_from_handle(vk_type h)             \
   {                                                                          \
      return (struct sg_type *)h;                                             \
   }                                                                          \
   static inline vk_type sg_type##_to_handle(struct sg_type *o)               \
   {                                                                          \
      return (vk_type)o;                                                      \
   }

#define SG_DEFINE_NONDISP_HANDLE_CASTS(sg_type, vk_type)                      \
   static inline struct sg_type *sg_type##_from_handle(vk_type h)             \
   {                                                                          \
      return (struct sg_type *)(uintptr_t)h;                                  \
   }                                                                          \
   static inline vk_type sg_type##_to_handle(struct sg_type *o)               \
   {                                                                          \
      return (vk_type)(uintptr_t)o;                                           \
   }

/* Metadata lock: names and private data are set rarely, from any thread. */
void sg_object_meta_lock(void);
void sg_object_meta_unlock(void);

/* Copies the object's name into buf ("" if it has none), under the lock. */
void sg_object_copy_name(struct sg_object *obj, char *buf, size_t size);

/* Replaces the object's name (NULL clears it). */
VkResult sg_object_set_name(struct sg_object *obj, const char *name);

#endif
