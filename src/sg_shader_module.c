/* VkShaderModule: SPIR-V kept as given; compiled when a pipeline uses it. */
#include "sg_shader_module.h"

#include <string.h>

#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_hash.h"
#include "sg_log.h"

void sg_spirv_hash(const uint32_t *words, size_t count, uint64_t out[2])
{
   out[0] = sg_hash64(words, count * 4, 0x5350495256ull);
   out[1] = sg_hash64(words, count * 4, 0x9e3779b97f4a7c15ull);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateShaderModule(VkDevice device,
                                                     const VkShaderModuleCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator,
                                                     VkShaderModule *pShaderModule)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   /* "codeSize must be a multiple of 4"; invalid SPIR-V itself is reported
    * when a pipeline compiles it (VK_ERROR_UNKNOWN there, with the reason). */
   size_t count = pCreateInfo->codeSize / 4;
   struct sg_shader_module *m = sg_zalloc(alloc, sizeof(*m), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   uint32_t *words = m ? sg_alloc(alloc, count ? count * 4 : 4, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT)
                       : NULL;
   if (!m || !words) {
      sg_free(alloc, m);
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateShaderModule: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   memcpy(words, pCreateInfo->pCode, count * 4);
   sg_object_init(&m->base, VK_OBJECT_TYPE_SHADER_MODULE, dev, &dev->alloc);
   m->words = words;
   m->word_count = count;
   sg_spirv_hash(words, count, m->hash);
   *pShaderModule = sg_shader_module_to_handle(m);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                                  const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_shader_module *m = sg_shader_module_from_handle(shaderModule);
   if (!m)
      return;
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   sg_free(alloc, m->words);
   sg_object_finish(&m->base);
   sg_free(alloc, m);
}
