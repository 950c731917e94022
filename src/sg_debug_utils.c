#include "sg_debug_utils.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hw_gpu.h"
#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_entrypoints.h"
#include "sg_instance.h"
#include "sg_log.h"
#include "sg_event.h"
#include "sg_fence.h"
#include "sg_queue.h"
#include "sg_semaphore.h"
#include "sg_trace.h"

static VkResult messenger_create(struct sg_instance *inst,
                                 const VkDebugUtilsMessengerCreateInfoEXT *info,
                                 const VkAllocationCallbacks *alloc, bool from_create_info,
                                 struct sg_messenger **out)
{
   struct sg_messenger *m = sg_zalloc(alloc, sizeof(*m), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!m) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "out of host memory creating a debug messenger");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&m->base, VK_OBJECT_TYPE_DEBUG_UTILS_MESSENGER_EXT, NULL, &inst->alloc);
   m->severities = info->messageSeverity;
   m->types = info->messageType;
   m->callback = info->pfnUserCallback;
   m->user_data = info->pUserData;
   m->from_create_info = from_create_info;
   pthread_mutex_lock(&inst->messenger_lock);
   m->next = inst->messengers;
   inst->messengers = m;
   pthread_mutex_unlock(&inst->messenger_lock);
   *out = m;
   return VK_SUCCESS;
}

static void messenger_unlink(struct sg_instance *inst, struct sg_messenger *m)
{
   pthread_mutex_lock(&inst->messenger_lock);
   for (struct sg_messenger **p = &inst->messengers; *p; p = &(*p)->next) {
      if (*p == m) {
         *p = m->next;
         break;
      }
   }
   pthread_mutex_unlock(&inst->messenger_lock);
}

VkResult sg_debug_utils_instance_init(struct sg_instance *inst, const void *pnext)
{
   /* "... pNext chain of VkInstanceCreateInfo ... to capture events that
    * occur while creating or destroying an instance" (VK_EXT_debug_utils). */
   for (const VkBaseInStructure *s = pnext; s; s = s->pNext) {
      if (s->sType != VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT)
         continue;
      struct sg_messenger *m;
      VkResult r = messenger_create(inst, (const VkDebugUtilsMessengerCreateInfoEXT *)s,
                                    &inst->alloc, true, &m);
      if (r != VK_SUCCESS) {
         sg_debug_utils_instance_finish(inst);
         return r;
      }
   }
   return VK_SUCCESS;
}

void sg_debug_utils_instance_finish(struct sg_instance *inst)
{
   /* Messengers the application created must have been destroyed before the
    * instance; free them anyway rather than leak. They were allocated with
    * callbacks we may no longer own, so only the instance's are used. */
   struct sg_messenger *m = inst->messengers;
   inst->messengers = NULL;
   while (m) {
      struct sg_messenger *next = m->next;
      if (!m->from_create_info)
         SG_LOG(SG_LOG_WARN, SG_AREA_API, "debug messenger %p still alive at vkDestroyInstance",
                (void *)m);
      sg_object_finish(&m->base);
      sg_free(&inst->alloc, m);
      m = next;
   }
}

static void deliver(struct sg_instance *inst, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                    VkDebugUtilsMessageTypeFlagsEXT types,
                    const VkDebugUtilsMessengerCallbackDataEXT *data)
{
   pthread_mutex_lock(&inst->messenger_lock);
   for (struct sg_messenger *m = inst->messengers; m; m = m->next) {
      if ((m->severities & severity) && (m->types & types))
         m->callback(severity, types, data, m->user_data);
   }
   pthread_mutex_unlock(&inst->messenger_lock);
}

struct log_message {
   VkDebugUtilsMessageSeverityFlagBitsEXT severity;
   const VkDebugUtilsMessengerCallbackDataEXT *data;
};

static void deliver_to_instance(struct sg_instance *inst, void *user)
{
   const struct log_message *msg = user;
   deliver(inst, msg->severity, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, msg->data);
}

/* Driver log messages of warning and error level also reach the
 * application's messengers, as GENERAL messages named "softgpu-<area>". */
static void log_sink(enum sg_log_level level, enum sg_log_area area, const char *message,
                     void *user)
{
   (void)user;
   if (level > SG_LOG_WARN)
      return;
   char id[32];
   snprintf(id, sizeof(id), "softgpu-%s", sg_log_area_names[area]);
   VkDebugUtilsMessengerCallbackDataEXT data = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
      .pMessageIdName = id,
      .pMessage = message,
   };
   struct log_message msg = {
      .severity = level == SG_LOG_ERROR ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                                        : VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
      .data = &data,
   };
   sg_instance_foreach_live(deliver_to_instance, &msg);
}

void sg_debug_utils_install_log_sink(void)
{
   sg_log_set_sink(log_sink, NULL);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateDebugUtilsMessengerEXT(
   VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT *pCreateInfo,
   const VkAllocationCallbacks *pAllocator, VkDebugUtilsMessengerEXT *pMessenger)
{
   struct sg_instance *inst = sg_instance_from_handle(instance);
   struct sg_messenger *m;
   VkResult r = messenger_create(inst, pCreateInfo, sg_alloc_pick(pAllocator, &inst->alloc),
                                 false, &m);
   if (r == VK_SUCCESS)
      *pMessenger = sg_messenger_to_handle(m);
   return r;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyDebugUtilsMessengerEXT(VkInstance instance,
                                                            VkDebugUtilsMessengerEXT messenger,
                                                            const VkAllocationCallbacks *pAllocator)
{
   struct sg_instance *inst = sg_instance_from_handle(instance);
   struct sg_messenger *m = sg_messenger_from_handle(messenger);
   if (!m)
      return;
   messenger_unlink(inst, m);
   sg_object_finish(&m->base);
   sg_free(sg_alloc_pick(pAllocator, &inst->alloc), m);
}

VKAPI_ATTR void VKAPI_CALL sg_SubmitDebugUtilsMessageEXT(
   VkInstance instance, VkDebugUtilsMessageSeverityFlagBitsEXT messageSeverity,
   VkDebugUtilsMessageTypeFlagsEXT messageTypes,
   const VkDebugUtilsMessengerCallbackDataEXT *pCallbackData)
{
   deliver(sg_instance_from_handle(instance), messageSeverity, messageTypes, pCallbackData);
}

/* Names in the GPU's trace, given by GPU address (hw_gpu_trace_name): a
 * queue names its channel's track (by the channel's control page); a
 * semaphore, fence or event names the counter of its word. Other objects'
 * names are not on the trace. */
static void trace_object_name(VkObjectType type, uint64_t h, const char *name)
{
   struct sg_object *obj = sg_object_from_u64(h);
   uint64_t va;
   switch (type) {
   case VK_OBJECT_TYPE_QUEUE: va = sg_queue_from_handle((VkQueue)(uintptr_t)h)->control_va; break;
   case VK_OBJECT_TYPE_SEMAPHORE:
      va = sg_semaphore_from_handle((VkSemaphore)(uintptr_t)h)->va;
      break;
   case VK_OBJECT_TYPE_FENCE: va = sg_fence_from_handle((VkFence)(uintptr_t)h)->va; break;
   case VK_OBJECT_TYPE_EVENT: va = sg_event_from_handle((VkEvent)(uintptr_t)h)->va; break;
   default: return;
   }
   if (name && name[0] && obj->device)
      hw_gpu_trace_name(obj->device->gpu, va, name);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_SetDebugUtilsObjectNameEXT(
   VkDevice device, const VkDebugUtilsObjectNameInfoEXT *pNameInfo)
{
   (void)device;
   struct sg_object *obj = sg_object_from_u64(pNameInfo->objectHandle);
   if (!obj) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkSetDebugUtilsObjectNameEXT: null object handle");
      return VK_SUCCESS;
   }
   VkResult r = sg_object_set_name(obj, pNameInfo->pObjectName);
   if (r == VK_SUCCESS)
      trace_object_name(pNameInfo->objectType, pNameInfo->objectHandle,
                        pNameInfo->pObjectName);
   return r;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_SetDebugUtilsObjectTagEXT(
   VkDevice device, const VkDebugUtilsObjectTagInfoEXT *pTagInfo)
{
   (void)device;
   /* Tags are opaque data for tools that know the driver; softgpu's tools
    * use names and labels, so a tag is accepted and not kept. */
   SG_LOG(SG_LOG_DEBUG, SG_AREA_API, "object tag 0x%llx (%zu bytes) on object 0x%llx ignored",
          (unsigned long long)pTagInfo->tagName, pTagInfo->tagSize,
          (unsigned long long)pTagInfo->objectHandle);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_QueueBeginDebugUtilsLabelEXT(VkQueue queue,
                                                           const VkDebugUtilsLabelEXT *pLabelInfo)
{
   sg_queue_label_push(sg_queue_from_handle(queue), pLabelInfo->pLabelName);
   /* Queue labels are host-side regions: on the calling thread's track. */
   if (sg_trace_on())
      sg_trace_begin(sg_trace_thread_track(), pLabelInfo->pLabelName, sg_trace_now());
}

VKAPI_ATTR void VKAPI_CALL sg_QueueEndDebugUtilsLabelEXT(VkQueue queue)
{
   sg_queue_label_pop(sg_queue_from_handle(queue));
   if (sg_trace_on())
      sg_trace_end(sg_trace_thread_track(), sg_trace_now());
}

VKAPI_ATTR void VKAPI_CALL sg_QueueInsertDebugUtilsLabelEXT(VkQueue queue,
                                                            const VkDebugUtilsLabelEXT *pLabelInfo)
{
   sg_queue_label_insert(sg_queue_from_handle(queue), pLabelInfo->pLabelName);
   if (sg_trace_on())
      sg_trace_mark(sg_trace_thread_track(), pLabelInfo->pLabelName, sg_trace_now());
}
