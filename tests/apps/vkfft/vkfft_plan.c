/*
 * VkFFT behind the interface of vkfft_plan.h. VKFFT_BACKEND 0 is VkFFT's
 * Vulkan backend, which compiles its generated GLSL with glslang's C
 * interface. "vkfft_patched.h" is Debian's vkFFT.h fixed to compile as C
 * against glslang 12, written into the build tree at build time by
 * patch-vkfft-header.cmake (which says what and why).
 */
#include "vkfft_plan.h"

#include <stdlib.h>

#define VKFFT_BACKEND 0
#include "vkfft_patched.h"

struct vkfft_plan {
   /* VkFFT keeps pointers to these, so they live beside the application. */
   struct vkfft_vulkan vk;
   VkBuffer buffer;
   uint64_t buffer_size;
   VkFFTApplication app;
};

bool vkfft_compiler_init(void)
{
   return glslang_initialize_process() != 0;
}

void vkfft_compiler_finish(void)
{
   glslang_finalize_process();
}

int vkfft_plan_create(const struct vkfft_plan_desc *desc, const struct vkfft_vulkan *vk,
                      VkBuffer buffer, uint64_t buffer_size, struct vkfft_plan **out)
{
   struct vkfft_plan *p = calloc(1, sizeof(*p));
   if (!p)
      return VKFFT_ERROR_MALLOC_FAILED;
   p->vk = *vk;
   p->buffer = buffer;
   p->buffer_size = buffer_size;

   /* Everything not set here keeps VkFFT's default, chosen by VkFFT from
    * the device's properties, as an application that sets no tuning gets. */
   VkFFTConfiguration c = {0};
   c.isCompilerInitialized = 1;   /* vkfft_compiler_init() */
   c.FFTdim = desc->dims;
   for (uint32_t i = 0; i < 3; i++)
      c.size[i] = i < desc->dims ? desc->size[i] : 1;
   c.physicalDevice = &p->vk.pdev;
   c.device = &p->vk.device;
   c.queue = &p->vk.queue;
   c.commandPool = &p->vk.pool;
   c.fence = &p->vk.fence;
   c.buffer = &p->buffer;
   c.bufferSize = &p->buffer_size;
   c.performR2C = desc->r2c;
   c.doublePrecision = desc->double_precision;

   VkFFTResult r = initializeVkFFT(&p->app, c);
   if (r != VKFFT_SUCCESS) {
      /* initializeVkFFT has already released what it made (deleteVkFFT). */
      free(p);
      return (int)r;
   }
   *out = p;
   return VKFFT_SUCCESS;
}

int vkfft_plan_record(struct vkfft_plan *p, VkCommandBuffer cmd, bool inverse)
{
   VkFFTLaunchParams lp = {0};
   lp.commandBuffer = &cmd;
   return (int)VkFFTAppend(&p->app, inverse ? 1 : 0, &lp);
}

void vkfft_plan_destroy(struct vkfft_plan *p)
{
   if (!p)
      return;
   deleteVkFFT(&p->app);
   free(p);
}

uint32_t vkfft_plan_uploads(const struct vkfft_plan *p)
{
   return (uint32_t)p->app.localFFTPlan->numAxisUploads[0];
}

int vkfft_version(void)
{
   return VkFFTGetVersion();
}
