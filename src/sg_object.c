#include "sg_object.h"

#include <pthread.h>
#include <stdio.h>
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
   /* Reports may read the name from other threads (sg_object_copy_name). */
   sg_object_meta_lock();
   char *name = obj->name;
   obj->name = NULL;
   sg_object_meta_unlock();
   sg_free(obj->meta_alloc, name);
   sg_free(obj->meta_alloc, obj->private_data);
   obj->private_data = NULL;
   obj->private_count = obj->private_capacity = 0;
}

void sg_object_copy_name(struct sg_object *obj, char *buf, size_t size)
{
   sg_object_meta_lock();
   snprintf(buf, size, "%s", obj->name ? obj->name : "");
   sg_object_meta_unlock();
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
