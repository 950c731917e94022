#include "sg_private_data.h"

#include <stdatomic.h>

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_log.h"

static _Atomic uint64_t next_slot_id = 1;

VKAPI_ATTR VkResult VKAPI_CALL sg_CreatePrivateDataSlot(VkDevice device,
                                                        const VkPrivateDataSlotCreateInfo *pCreateInfo,
                                                        const VkAllocationCallbacks *pAllocator,
                                                        VkPrivateDataSlot *pPrivateDataSlot)
{
   (void)pCreateInfo;
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_private_data_slot *slot =
      sg_zalloc(alloc, sizeof(*slot), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!slot) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreatePrivateDataSlot: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&slot->base, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT, dev, &dev->alloc);
   slot->id = atomic_fetch_add_explicit(&next_slot_id, 1, memory_order_relaxed);
   *pPrivateDataSlot = sg_private_data_slot_to_handle(slot);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyPrivateDataSlot(VkDevice device, VkPrivateDataSlot privateDataSlot,
                                                     const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_private_data_slot *slot = sg_private_data_slot_from_handle(privateDataSlot);
   if (!slot)
      return;
   sg_object_finish(&slot->base);
   sg_free(sg_alloc_pick(pAllocator, &dev->alloc), slot);
}

static struct sg_private_entry *find_entry(struct sg_object *obj, uint64_t id)
{
   for (uint32_t i = 0; i < obj->private_count; i++) {
      if (obj->private_data[i].slot_id == id)
         return &obj->private_data[i];
   }
   return NULL;
}

/* Makes room for one more entry; called with the metadata lock held. */
static bool grow(struct sg_object *obj)
{
   if (obj->private_count < obj->private_capacity)
      return true;
   uint32_t cap = obj->private_capacity ? obj->private_capacity * 2 : 4;
   struct sg_private_entry *p =
      sg_alloc(obj->meta_alloc, cap * sizeof(*p), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return false;
   for (uint32_t i = 0; i < obj->private_count; i++)
      p[i] = obj->private_data[i];
   sg_free(obj->meta_alloc, obj->private_data);
   obj->private_data = p;
   obj->private_capacity = cap;
   return true;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_SetPrivateData(VkDevice device, VkObjectType objectType,
                                                 uint64_t objectHandle, VkPrivateDataSlot privateDataSlot,
                                                 uint64_t data)
{
   (void)device;
   (void)objectType;
   struct sg_object *obj = sg_object_from_u64(objectHandle);
   uint64_t id = sg_private_data_slot_from_handle(privateDataSlot)->id;
   VkResult result = VK_SUCCESS;
   sg_object_meta_lock();
   struct sg_private_entry *e = find_entry(obj, id);
   if (e) {
      e->value = data;
   } else if (grow(obj)) {
      obj->private_data[obj->private_count++] = (struct sg_private_entry){id, data};
   } else {
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_meta_unlock();
   if (result != VK_SUCCESS)
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkSetPrivateData: out of host memory");
   return result;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPrivateData(VkDevice device, VkObjectType objectType,
                                             uint64_t objectHandle, VkPrivateDataSlot privateDataSlot,
                                             uint64_t *pData)
{
   (void)device;
   (void)objectType;
   struct sg_object *obj = sg_object_from_u64(objectHandle);
   uint64_t id = sg_private_data_slot_from_handle(privateDataSlot)->id;
   sg_object_meta_lock();
   struct sg_private_entry *e = find_entry(obj, id);
   /* "If ... not previously set ... 0" (vkGetPrivateData). */
   *pData = e ? e->value : 0;
   sg_object_meta_unlock();
}
