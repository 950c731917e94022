#include "sg_object.h"

#include <pthread.h>
#include <string.h>

#include "sg_alloc.h"
#include "sg_log.h"

static pthread_mutex_t meta_lock = PTHREAD_MUTEX_INITIALIZER;

void sg_object_meta_lock(void)
{
   pthread_mutex_lock(&meta_lock);
}

void sg_object_meta_unlock(void)
{
   pthread_mutex_unlock(&meta_lock);
}

void sg_object_init(struct sg_object *obj, VkObjectType type, struct sg_device *device,
                    const VkAllocationCallbacks *meta_alloc)
{
   memset(obj, 0, sizeof(*obj));
   obj->type = type;
   obj->device = device;
   obj->meta_alloc = meta_alloc;
}

void sg_object_finish(struct sg_object *obj)
{
   sg_free(obj->meta_alloc, obj->name);
   sg_free(obj->meta_alloc, obj->private_data);
   obj->name = NULL;
   obj->private_data = NULL;
   obj->private_count = obj->private_capacity = 0;
}

VkResult sg_object_set_name(struct sg_object *obj, const char *name)
{
   char *copy = NULL;
   if (name && name[0]) {
      copy = sg_strdup(obj->meta_alloc, name, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!copy) {
         SG_LOG(SG_LOG_ERROR, SG_AREA_API, "out of host memory storing an object name");
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   sg_object_meta_lock();
   char *old = obj->name;
   obj->name = copy;
   sg_object_meta_unlock();
   sg_free(obj->meta_alloc, old);
   return VK_SUCCESS;
}
