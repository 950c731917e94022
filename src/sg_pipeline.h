#ifndef SG_PIPELINE_H
#define SG_PIPELINE_H

#include "sg_object.h"

/* VkPipeline (compute): the compiled program in GPU memory and what a launch
 * descriptor needs besides the grid. */
struct sg_pipeline {
   struct sg_object base;
   VkPipelineBindPoint bind_point;
   uint64_t program_va;
   uint64_t program_id;               /* unique per upload: the GPU caches decoded programs by (VA, id) */
   uint32_t local_size[3];
   uint32_t shared_bytes;             /* per workgroup */
   uint32_t private_bytes;            /* per invocation */
   uint32_t register_count;
   uint32_t launch_flags;             /* HW_LAUNCH_* */
   uint32_t printf_count;             /* debugPrintfEXT formats */
   uint32_t root_bytes;               /* how much of the root table the program can read */
   char **printf_formats;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_pipeline, VkPipeline)

#endif
