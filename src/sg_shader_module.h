#ifndef SG_SHADER_MODULE_H
#define SG_SHADER_MODULE_H

#include "sg_object.h"

/* VkShaderModule: a private copy of the SPIR-V and its hash (pipeline cache
 * keys are derived from it). Compilation happens at pipeline creation. */
struct sg_shader_module {
   struct sg_object base;
   uint32_t *words;
   size_t word_count;
   uint64_t hash[2];
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_shader_module, VkShaderModule)

/* A 128-bit hash of SPIR-V words. */
void sg_spirv_hash(const uint32_t *words, size_t count, uint64_t out[2]);

#endif
