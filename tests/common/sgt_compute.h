/*
 * Helpers for the Vulkan compute tests (tests/vulkan/test_compute_*.c).
 *
 * They are written against the Vulkan API only (1.3 core plus
 * VK_KHR_push_descriptor), so every test also runs on another driver: CTest
 * points the loader at softgpu, and by hand they run on lavapipe with
 *
 *   VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
 *   VK_LOADER_LAYERS_DISABLE='~implicit~' build/tests/vulkan/test_compute_kernels
 *
 * Unlike sgt_device_create() (sgt_vk.h), nothing here assumes softgpu's
 * queue families: the device gets every queue of the first family with
 * COMPUTE. The validation layer and synchronization validation are on, as
 * for every sgt test.
 *
 * Shaders are GLSL in tests/vulkan/shaders, compiled to SPIR-V by glslc at
 * build time into the directory the tests receive as SGT_COMPUTE_SHADER_DIR;
 * SGT_SHADER("saxpy") names saxpy.spv there.
 */
#ifndef SGT_COMPUTE_H
#define SGT_COMPUTE_H

#include "sgt_vk.h"

#ifdef SGT_COMPUTE_SHADER_DIR
#define SGT_SHADER(name) SGT_COMPUTE_SHADER_DIR "/" name ".spv"
#endif

#define SGT_MAX_QUEUES 16

struct sgt_compute_options {
   bool robust_buffer_access;   /* enable robustBufferAccess (required by Vulkan) */
   bool buffer_device_address;  /* enable bufferDeviceAddress when supported */
   bool push_descriptor;        /* enable VK_KHR_push_descriptor when supported */
   /* enable runtimeDescriptorArray and non-uniform indexing of storage and
    * uniform buffer arrays, each when supported */
   bool descriptor_indexing;
   /* enable scalarBlockLayout and uniformBufferStandardLayout, each when
    * supported */
   bool block_layouts;
   /* enable shaderFloat64 and shaderInt64, each when supported (the VkFFT
    * test's double-precision plans) */
   bool float64;
   /* enable every feature of VkPhysicalDeviceFeatures and the Vulkan 1.1,
    * 1.2 and 1.3 feature structs that the device advertises (the tests of
    * single features, which skip what is not advertised) */
   bool every_feature;
};

struct sgt_cdev {
   VkInstance instance;
   VkPhysicalDevice pdev;
   VkDevice device;
   bool is_softgpu;
   uint32_t family;                  /* the first family with COMPUTE */
   uint32_t queue_count;             /* every queue of it */
   VkQueue queues[SGT_MAX_QUEUES];
   VkCommandPool pool;               /* resettable command buffers */
   uint32_t host_memory_type;        /* HOST_VISIBLE | HOST_COHERENT */

   /* What the device supports (pNext cleared). */
   VkPhysicalDeviceFeatures features;
   VkPhysicalDeviceVulkan11Features features11;
   VkPhysicalDeviceVulkan12Features features12;
   VkPhysicalDeviceVulkan13Features features13;
   VkPhysicalDeviceProperties props;
   VkPhysicalDeviceVulkan11Properties props11;
   VkPhysicalDeviceVulkan13Properties props13;
   bool has_push_descriptor_ext;
   bool has_wmel_ext;                /* VK_KHR_workgroup_memory_explicit_layout */
   VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR wmel;   /* its features */
   bool has_atomic_float_ext;        /* VK_EXT_shader_atomic_float */
   VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;   /* its features */
   uint32_t max_push_descriptors;

   /* What this device was created with: timelineSemaphore and
    * synchronization2 always; the options above when supported; and
    * maintenance4, inlineUniformBlock, pipelineCreationCacheControl and
    * the buffer-array dynamic indexing features whenever supported. */
   bool robust_buffer_access;
   bool buffer_device_address;
   bool push_descriptor;
   bool workgroup_explicit_layout;   /* the extension and every feature of it offered */
   bool atomic_float_enabled;        /* likewise VK_EXT_shader_atomic_float */
   bool maintenance4;
   bool inline_uniform_block;
   bool pipeline_creation_cache_control;
   bool storage_array_dynamic_indexing;
   bool uniform_array_dynamic_indexing;
   bool runtime_descriptor_array;
   bool storage_array_nonuniform_indexing;
   bool uniform_array_nonuniform_indexing;
   bool scalar_block_layout;
   bool uniform_buffer_standard_layout;
   bool shader_float64;
   bool shader_int64;
   PFN_vkCmdPushDescriptorSetKHR CmdPushDescriptorSetKHR;
   PFN_vkCmdPushDescriptorSetWithTemplateKHR CmdPushDescriptorSetWithTemplateKHR;
};

void sgt_cdev_create(struct sgt_cdev *d, const struct sgt_compute_options *opts);
void sgt_cdev_destroy(struct sgt_cdev *d);

/* Prints "SKIP <what>: <why>" for an optional feature the device does not
 * advertise; the test goes on (and passes if nothing else fails). */
void sgt_skip(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A feature that `required_by` (e.g. "Vulkan 1.3") requires is not
 * advertised: a failed check at file:line, unless SOFTGPU_HIDE_FEATURES
 * hid it on purpose (tools/check-feature-tests hides each feature to show
 * that the subtests mapped to it use it), which makes it a SKIP of `what`.
 * Either way the caller leaves out what needs the feature. */
#define SGT_REQUIRED_FEATURE_MISSING(what, feature, required_by)                           \
   sgt_required_feature_missing(__FILE__, __LINE__, what, feature, required_by)
void sgt_required_feature_missing(const char *file, int line, const char *what,
                                  const char *feature, const char *required_by);

/* A subtest: a name (argv[1] of the test selects one) and a function. */
struct sgt_subtest {
   const char *name;
   void (*run)(struct sgt_cdev *d);
};

/* Creates the device, runs every subtest (or the one named by argv[1]),
 * destroys the device and returns sgt_finish(). */
int sgt_compute_main(int argc, char **argv, const struct sgt_compute_options *opts,
                     const struct sgt_subtest *tests, uint32_t count);

/* ---- buffers ------------------------------------------------------------ */

#define SGT_BUFFER_USAGE_ALL                                                               \
   (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |                  \
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |              \
    VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT)

/* A host-visible, coherent, mapped buffer of its own memory, zero-filled,
 * usable as storage, uniform, indirect and transfer buffer (and for device
 * addresses when the device has them). */
void sgt_cbuffer(struct sgt_cdev *d, VkDeviceSize size, struct sgt_buffer *b);
void sgt_cbuffer_destroy(struct sgt_cdev *d, struct sgt_buffer *b);
VkDeviceAddress sgt_buffer_address(struct sgt_cdev *d, const struct sgt_buffer *b);

/* ---- shaders, layouts, pipelines ---------------------------------------- */

/* A shader module from a SPIR-V file (SGT_SHADER(name)). */
VkShaderModule sgt_shader_module(struct sgt_cdev *d, const char *path);

/* A set layout of `count` bindings 0..count-1, one descriptor each, of the
 * given types, for the compute stage. */
VkDescriptorSetLayout sgt_set_layout(struct sgt_cdev *d, uint32_t count,
                                     const VkDescriptorType *types,
                                     VkDescriptorSetLayoutCreateFlags flags);
/* A layout of `count` storage buffers. */
VkDescriptorSetLayout sgt_storage_layout(struct sgt_cdev *d, uint32_t count);

VkPipelineLayout sgt_pipeline_layout(struct sgt_cdev *d, uint32_t set_count,
                                     const VkDescriptorSetLayout *sets, uint32_t push_bytes);

/* A compute pipeline with entry point "main". */
VkPipeline sgt_compute_pipeline(struct sgt_cdev *d, VkShaderModule module, VkPipelineLayout layout,
                                const VkSpecializationInfo *spec, VkPipelineCreateFlags flags,
                                VkPipelineCache cache);
/* The same with shader stage flags and a pNext chain for the stage (a
 * required subgroup size), no cache. */
VkPipeline sgt_compute_pipeline_stage(struct sgt_cdev *d, VkShaderModule module,
                                      VkPipelineLayout layout, const VkSpecializationInfo *spec,
                                      VkPipelineShaderStageCreateFlags stage_flags,
                                      const void *stage_next);

/* A pool for `max_sets` sets of up to 16 descriptors of each buffer type. */
VkDescriptorPool sgt_descriptor_pool(struct sgt_cdev *d, uint32_t max_sets,
                                     VkDescriptorPoolCreateFlags flags);
VkDescriptorSet sgt_alloc_set(struct sgt_cdev *d, VkDescriptorPool pool,
                              VkDescriptorSetLayout layout);
/* Writes one buffer descriptor (range VK_WHOLE_SIZE when range is 0). */
void sgt_write_buffer(struct sgt_cdev *d, VkDescriptorSet set, uint32_t binding, uint32_t element,
                      VkDescriptorType type, const struct sgt_buffer *b, VkDeviceSize offset,
                      VkDeviceSize range);

/* The common case: one pipeline over one set of storage buffers (binding i
 * is buffer i) and push constants. */
struct sgt_kernel {
   VkShaderModule module;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet set;              /* the pool has room for 7 more */
   uint32_t bindings;
   uint32_t push_bytes;
};

void sgt_kernel_create(struct sgt_cdev *d, struct sgt_kernel *k, const char *spv_path,
                       uint32_t storage_bindings, uint32_t push_bytes,
                       const VkSpecializationInfo *spec);
/* Points binding i at the whole of buffers[i]. */
void sgt_kernel_bind(struct sgt_cdev *d, struct sgt_kernel *k, const struct sgt_buffer *const *buffers);
/* Binds pipeline and set, pushes `push` (k->push_bytes) and dispatches. */
void sgt_kernel_dispatch(VkCommandBuffer cmd, const struct sgt_kernel *k, const void *push,
                         uint32_t x, uint32_t y, uint32_t z);
void sgt_kernel_destroy(struct sgt_cdev *d, struct sgt_kernel *k);

/* ---- command buffers and barriers --------------------------------------- */

VkCommandBuffer sgt_cmd_begin(struct sgt_cdev *d);
/* Adds a shader/transfer-write -> host-read barrier, ends, submits to
 * queue 0 with a fence, waits and frees cmd. */
void sgt_cmd_submit_wait(struct sgt_cdev *d, VkCommandBuffer cmd);
/* A timeline semaphore starting at `initial`. */
VkSemaphore sgt_ctimeline(struct sgt_cdev *d, uint64_t initial);
/* Compute and transfer writes -> compute and transfer reads and writes. */
void sgt_compute_barrier(VkCommandBuffer cmd);
/* Compute and transfer writes -> host reads (before the host looks). */
void sgt_host_barrier(VkCommandBuffer cmd);

/* ---- data ---------------------------------------------------------------- */

/* A small deterministic generator (xorshift32); state must not be 0. */
static inline uint32_t sgt_rand(uint32_t *state)
{
   uint32_t x = *state;
   x ^= x << 13;
   x ^= x >> 17;
   x ^= x << 5;
   return *state = x;
}

/* Compares n words; reports the first few mismatches under `what`.
 * Returns true when all match. */
bool sgt_check_words(const char *what, const uint32_t *got, const uint32_t *want, uint32_t n);

#endif
