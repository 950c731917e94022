/*
 * VK_EXT_debug_utils: messengers (driver log messages reach the
 * application through them), object names and tags, queue labels.
 */
#ifndef SG_DEBUG_UTILS_H
#define SG_DEBUG_UTILS_H

#include "sg_object.h"

struct sg_instance;

struct sg_messenger {
   struct sg_object base;
   VkDebugUtilsMessageSeverityFlagsEXT severities;
   VkDebugUtilsMessageTypeFlagsEXT types;
   PFN_vkDebugUtilsMessengerCallbackEXT callback;
   void *user_data;
   /* True for messengers chained to VkInstanceCreateInfo: they live as long
    * as the instance and are freed with it. */
   bool from_create_info;
   struct sg_messenger *next;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_messenger, VkDebugUtilsMessengerEXT)

/* Adds the messengers chained to VkInstanceCreateInfo. */
VkResult sg_debug_utils_instance_init(struct sg_instance *inst, const void *pnext);
/* Frees every messenger still attached. */
void sg_debug_utils_instance_finish(struct sg_instance *inst);
/* Installs the log sink that forwards driver messages to messengers. */
void sg_debug_utils_install_log_sink(void);

#endif
