/*
 * The VkFFT test's view of VkFFT: a plan over one buffer, recorded into a
 * command buffer. vkfft_plan.c is the only file that includes VkFFT (the
 * build tree's patched copy of Debian's vkFFT.h, see CMakeLists.txt), so the
 * 33,000 lines of its header are compiled once and the test is written
 * against this small interface.
 */
#ifndef VKFFT_PLAN_H
#define VKFFT_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct vkfft_plan_desc {
   uint32_t dims;            /* 1, 2 or 3 */
   uint64_t size[3];         /* VkFFT's order: size[0] varies fastest; 1 past dims */
   /* Real-to-complex forward and complex-to-real inverse, in place: the
    * buffer holds size[0] / 2 + 1 complex values per row, and the real
    * values of a row are the first size[0] of its 2 * (size[0] / 2 + 1). */
   bool r2c;
   bool double_precision;    /* needs shaderFloat64 */
};

/* What VkFFT keeps pointers to for the plan's lifetime. */
struct vkfft_vulkan {
   VkPhysicalDevice pdev;
   VkDevice device;
   VkQueue queue;            /* VkFFT submits its own uploads (twiddle tables) here */
   VkCommandPool pool;       /* ... with command buffers of this pool */
   VkFence fence;            /* ... and waits on this fence, which must be unsignaled */
};

struct vkfft_plan;

/* Initialises glslang for every plan to come, as an application making
 * many plans does (VkFFT's isCompilerInitialized): left to itself, VkFFT
 * initialises and finalises glslang around each plan, and glslang rebuilds
 * its built-in symbol tables each time (about 100 ms a plan in a Release
 * build, seconds under ASan). False if glslang fails. */
bool vkfft_compiler_init(void);
void vkfft_compiler_finish(void);

/* Creates the plan for both directions over `buffer` (`buffer_size`
 * bytes), compiling its shaders with glslang (between vkfft_compiler_init
 * and vkfft_compiler_finish). Returns VkFFT's result code
 * (0: success, and *out is set). */
int vkfft_plan_create(const struct vkfft_plan_desc *desc, const struct vkfft_vulkan *vk,
                      VkBuffer buffer, uint64_t buffer_size, struct vkfft_plan **out);
/* Records the forward or the inverse (unnormalised) transform into cmd. */
int vkfft_plan_record(struct vkfft_plan *plan, VkCommandBuffer cmd, bool inverse);
void vkfft_plan_destroy(struct vkfft_plan *plan);

/* How many passes over memory ("uploads") the forward plan makes along
 * axis 0: 1 when a whole sequence fits in one workgroup's shared memory,
 * 2 or more for VkFFT's four-step algorithm. */
uint32_t vkfft_plan_uploads(const struct vkfft_plan *plan);

/* VkFFT's version as X.XX.XX in decimal (10226 for 1.2.26). */
int vkfft_version(void);

#endif
