#ifndef SG_QUEUE_H
#define SG_QUEUE_H

#include "sg_object.h"

struct sg_device;

#define SG_QUEUE_MAX_LABEL_DEPTH 64

struct sg_queue {
   struct sg_object base;
   uint32_t family;
   uint32_t index_in_family;
   VkDeviceQueueCreateFlags flags;
   float priority;
   /* VK_EXT_debug_utils queue labels, innermost last. Labels nested deeper
    * than SG_QUEUE_MAX_LABEL_DEPTH are counted but not kept. Host access
    * to a queue is externally synchronized, so no lock is needed. */
   char *labels[SG_QUEUE_MAX_LABEL_DEPTH];
   uint32_t label_depth;
   char *last_inserted_label;
};

SG_DEFINE_HANDLE_CASTS(sg_queue, VkQueue)

void sg_queue_init(struct sg_queue *queue, struct sg_device *device, uint32_t family,
                   uint32_t index, VkDeviceQueueCreateFlags flags, float priority);
void sg_queue_finish(struct sg_queue *queue);

void sg_queue_label_push(struct sg_queue *queue, const char *name);
void sg_queue_label_pop(struct sg_queue *queue);
void sg_queue_label_insert(struct sg_queue *queue, const char *name);

#endif
