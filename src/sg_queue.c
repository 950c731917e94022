#include "sg_queue.h"

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_log.h"

void sg_queue_init(struct sg_queue *queue, struct sg_device *device, uint32_t family,
                   uint32_t index, VkDeviceQueueCreateFlags flags, float priority)
{
   sg_object_init(&queue->base, VK_OBJECT_TYPE_QUEUE, device, &device->alloc);
   set_loader_magic_value(queue);
   queue->family = family;
   queue->index_in_family = index;
   queue->flags = flags;
   queue->priority = priority;
   queue->label_depth = 0;
   queue->last_inserted_label = NULL;
}

void sg_queue_finish(struct sg_queue *queue)
{
   while (queue->label_depth > 0)
      sg_queue_label_pop(queue);
   sg_free(queue->base.meta_alloc, queue->last_inserted_label);
   sg_object_finish(&queue->base);
}

static char *copy_label(struct sg_queue *queue, const char *name)
{
   char *copy = sg_strdup(queue->base.meta_alloc, name ? name : "",
                          VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   /* A label is a debugging aid: losing one to memory pressure must not
    * fail the application, and these commands return nothing. */
   if (!copy)
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "out of host memory: queue label \"%s\" not kept", name);
   return copy;
}

void sg_queue_label_push(struct sg_queue *queue, const char *name)
{
   if (queue->label_depth < SG_QUEUE_MAX_LABEL_DEPTH)
      queue->labels[queue->label_depth] = copy_label(queue, name);
   queue->label_depth++;
}

void sg_queue_label_pop(struct sg_queue *queue)
{
   if (queue->label_depth == 0) {
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "vkQueueEndDebugUtilsLabelEXT without a matching begin");
      return;
   }
   queue->label_depth--;
   if (queue->label_depth < SG_QUEUE_MAX_LABEL_DEPTH) {
      sg_free(queue->base.meta_alloc, queue->labels[queue->label_depth]);
      queue->labels[queue->label_depth] = NULL;
   }
}

void sg_queue_label_insert(struct sg_queue *queue, const char *name)
{
   char *copy = copy_label(queue, name);
   sg_free(queue->base.meta_alloc, queue->last_inserted_label);
   queue->last_inserted_label = copy;
}
