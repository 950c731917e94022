#ifndef SG_DESCRIPTOR_UPDATE_TEMPLATE_H
#define SG_DESCRIPTOR_UPDATE_TEMPLATE_H

#include "sg_descriptor_set_layout.h"

/* VkDescriptorUpdateTemplate: the entries, kept to replay against a set's
 * (or a push descriptor set's) memory. */
struct sg_descriptor_update_template {
   struct sg_object base;
   VkDescriptorUpdateTemplateType type;
   VkPipelineBindPoint bind_point;
   uint32_t set;                      /* push descriptors: the set number */
   uint32_t entry_count;
   VkDescriptorUpdateTemplateEntry *entries;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_descriptor_update_template, VkDescriptorUpdateTemplate)

/* Applies the template's entries, reading from data, to descriptors in
 * `host` laid out by `layout`. */
void sg_template_apply(const struct sg_descriptor_update_template *t,
                       const struct sg_descriptor_set_layout *layout, uint8_t *host,
                       const void *data);

#endif
