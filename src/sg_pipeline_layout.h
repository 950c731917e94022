#ifndef SG_PIPELINE_LAYOUT_H
#define SG_PIPELINE_LAYOUT_H

#include "hw_root.h"
#include "sc_compiler.h"
#include "sg_descriptor_set_layout.h"

/* What a pipeline needs of one set layout, copied: set layouts may be
 * destroyed once the pipeline layout exists. */
struct sg_layout_set {
   uint32_t binding_count;
   struct sg_set_binding *bindings;
   uint32_t size;                     /* bytes of descriptors */
   uint32_t dynamic_count;
   uint32_t dynamic_base;             /* its first slot among the root table's dynamic offsets */
   bool push;                         /* a push descriptor set */
};

/* VkPipelineLayout: the sets, the dynamic offset numbering across them, and
 * the push constant bytes. */
struct sg_pipeline_layout {
   struct sg_object base;
   uint32_t set_count;
   struct sg_layout_set sets[HW_ROOT_SETS];
   uint32_t dynamic_count;
   uint32_t push_bytes;
   uint64_t hash;                     /* of everything a compiled program depends on */
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_pipeline_layout, VkPipelineLayout)

#endif
