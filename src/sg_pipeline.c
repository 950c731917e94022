/*
 * Compute pipelines: the shader stage is compiled to the ISA (compiler/),
 * or found in the pipeline cache, and the program is uploaded to GPU
 * memory, where launch descriptors point.
 */
#include "sg_pipeline.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw_isa.h"
#include "hw_mem.h"
#include "hw_packets.h"
#include "sc_compiler.h"
#include "sg_alloc.h"
#include "sg_device.h"
#include "sg_hash.h"
#include "sg_log.h"
#include "sg_pipeline_cache.h"
#include "sg_physical_device.h"
#include "sg_pipeline_layout.h"
#include "sg_shader_module.h"

/* ---- what a compilation depends on ---------------------------------------------- */

struct compile_input {
   const struct sg_shader_module *module;
   const char *entry;
   struct sc_spec_value spec[64];
   uint32_t spec_count;
   const struct sg_pipeline_layout *layout;
   uint32_t warp_width;
   bool robust;
   bool validate;
   bool optimize;
   const struct sg_device_spirv *spirv;   /* what the device allows */
};

static uint64_t now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool env_flag(const char *name, bool fallback)
{
   const char *v = getenv(name);
   return v && *v ? strcmp(v, "0") != 0 : fallback;
}

static const void *find_in_chain(const void *chain, VkStructureType type)
{
   for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
      if (s->sType == type)
         return s;
   }
   return NULL;
}

/* Specialization constants as (SpecId, size, value); bools are VkBool32. */
static void read_spec(const VkSpecializationInfo *si, struct compile_input *in)
{
   if (!si)
      return;
   for (uint32_t i = 0; i < si->mapEntryCount && in->spec_count < 64; i++) {
      const VkSpecializationMapEntry *e = &si->pMapEntries[i];
      uint64_t v = 0;
      size_t n = e->size < 8 ? e->size : 8;
      if (e->offset + n <= si->dataSize)
         memcpy(&v, (const uint8_t *)si->pData + e->offset, n);
      in->spec[in->spec_count++] = (struct sc_spec_value){e->constantID, (uint32_t)e->size, v};
   }
}

static void cache_key(const struct compile_input *in, uint64_t key[2])
{
   struct {
      uint64_t module[2];
      uint64_t layout, spirv;
      uint32_t width, robust, validate, optimize, isa, compiler;
   } fixed = {{in->module->hash[0], in->module->hash[1]}, in->layout->hash, in->spirv->hash,
              in->warp_width, in->robust, in->validate, in->optimize, ISA_VERSION,
              SC_COMPILER_VERSION};
   uint64_t h = sg_hash64(&fixed, sizeof(fixed), 0x43414348u);
   h = sg_hash64(in->entry, strlen(in->entry), h);
   h = sg_hash64(in->spec, in->spec_count * sizeof(in->spec[0]), h);
   key[0] = h;
   key[1] = sg_hash64(&fixed, sizeof(fixed), h ^ 0x9e3779b97f4a7c15ull);
}

/* ---- the cached form of a program -------------------------------------------------- */

#define BLOB_MAGIC 0x42504753u   /* "SGPB" */

struct blob_header {
   uint32_t magic, image_size;
   uint32_t local_size[3];
   uint32_t shared_bytes, private_bytes, vreg_count, flags, printf_count, strings_bytes;
};

static void *blob_of(const struct sc_program *p, uint32_t *size)
{
   uint32_t strings = 0;
   for (uint32_t i = 0; i < p->printf_count; i++)
      strings += (uint32_t)strlen(p->printf_formats[i]) + 1;
   struct blob_header h = {BLOB_MAGIC, (uint32_t)p->size, {p->local_size[0], p->local_size[1], p->local_size[2]},
                           p->shared_bytes, p->private_bytes, p->vreg_count,
                           p->uses_barrier ? HW_LAUNCH_USES_BARRIER : 0, p->printf_count, strings};
   *size = (uint32_t)sizeof(h) + h.image_size + strings;
   uint8_t *b = malloc(*size);
   if (!b)
      return NULL;
   memcpy(b, &h, sizeof(h));
   memcpy(b + sizeof(h), p->image, p->size);
   uint8_t *s = b + sizeof(h) + p->size;
   for (uint32_t i = 0; i < p->printf_count; i++) {
      size_t n = strlen(p->printf_formats[i]) + 1;
      memcpy(s, p->printf_formats[i], n);
      s += n;
   }
   return b;
}

/* Rebuilds a program from a cached blob; false if it does not hold up. */
static bool program_of(const uint8_t *b, uint32_t size, struct sc_program *p)
{
   struct blob_header h;
   memset(p, 0, sizeof(*p));
   if (size < sizeof(h))
      return false;
   memcpy(&h, b, sizeof(h));
   if (h.magic != BLOB_MAGIC || (uint64_t)sizeof(h) + h.image_size + h.strings_bytes != size ||
       h.printf_count > h.strings_bytes || (h.strings_bytes && b[size - 1] != '\0'))
      return false;
   p->image = malloc(h.image_size ? h.image_size : 1);
   p->printf_formats = calloc(h.printf_count ? h.printf_count : 1, sizeof(char *));
   if (!p->image || !p->printf_formats) {
      sc_program_free(p);
      return false;
   }
   memcpy(p->image, b + sizeof(h), h.image_size);
   p->size = h.image_size;
   memcpy(p->local_size, h.local_size, sizeof(h.local_size));
   p->shared_bytes = h.shared_bytes;
   p->private_bytes = h.private_bytes;
   p->vreg_count = h.vreg_count;
   p->uses_barrier = h.flags & HW_LAUNCH_USES_BARRIER;
   const char *s = (const char *)b + sizeof(h) + h.image_size, *end = (const char *)b + size;
   for (uint32_t i = 0; i < h.printf_count; i++) {
      if (s >= end || !(p->printf_formats[i] = strdup(s))) {
         p->printf_count = i;
         sc_program_free(p);
         return false;
      }
      p->printf_count = i + 1;
      s += strlen(s) + 1;
   }
   return true;
}

/* ---- compilation ---------------------------------------------------------------------- */

/* The compiler's view of the pipeline layout (buffer bindings only). */
static struct sc_set_layout *sc_layout_of(const struct sg_pipeline_layout *l, struct sc_binding **out)
{
   uint32_t total = 0;
   for (uint32_t s = 0; s < l->set_count; s++)
      total += l->sets[s].binding_count;
   struct sc_set_layout *sets = calloc(HW_ROOT_SETS, sizeof(*sets));
   struct sc_binding *b = calloc(total ? total : 1, sizeof(*b));
   if (!sets || !b) {
      free(sets);
      free(b);
      return NULL;
   }
   uint32_t k = 0;
   for (uint32_t s = 0; s < l->set_count; s++) {
      sets[s].bindings = b + k;
      for (uint32_t i = 0; i < l->sets[s].binding_count; i++) {
         const struct sg_set_binding *sb = &l->sets[s].bindings[i];
         enum sc_descriptor_kind kind;
         switch (sb->type) {
         case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: kind = SC_DESC_STORAGE_BUFFER; break;
         case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: kind = SC_DESC_UNIFORM_BUFFER; break;
         case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: kind = SC_DESC_STORAGE_BUFFER_DYNAMIC; break;
         case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC: kind = SC_DESC_UNIFORM_BUFFER_DYNAMIC; break;
         case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK: kind = SC_DESC_INLINE_UNIFORM_BLOCK; break;
         default: continue;   /* not a buffer: a shader using it fails to compile */
         }
         b[k++] = (struct sc_binding){sb->binding, kind, sb->count, sb->offset,
                                      l->sets[s].dynamic_base + sb->dynamic_index};
         sets[s].binding_count++;
      }
   }
   *out = b;
   return sets;
}

static VkResult compile(struct sg_device *dev, const struct compile_input *in, struct sc_program *p)
{
   struct sc_binding *bindings = NULL;
   struct sc_set_layout *sets = sc_layout_of(in->layout, &bindings);
   if (!sets) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_COMPILER, "vkCreateComputePipelines: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   struct sc_options o = {.entry_point = in->entry, .warp_width = in->warp_width,
                          .set_count = in->layout->set_count, .sets = sets,
                          .spec_count = in->spec_count, .spec = in->spec,
                          .robust_buffer_access = in->robust, .validate = in->validate,
                          .optimize = in->optimize, .device = &in->spirv->view,
                          .validator = in->spirv->validator};
   char err[1024];
   bool ok = sc_compile(in->module->words, in->module->word_count, &o, p, err, sizeof(err));
   free(sets);
   free(bindings);
   (void)dev;
   if (!ok) {
      /* The shader is valid for Vulkan but beyond what softgpu compiles, or
       * not valid at all: either way no program, and the reason. */
      SG_LOG(SG_LOG_ERROR, SG_AREA_COMPILER, "vkCreateComputePipelines: cannot compile entry point "
             "\"%s\": %s", in->entry, err);
      return VK_ERROR_UNKNOWN;
   }
   SG_LOG(SG_LOG_DEBUG, SG_AREA_COMPILER, "compiled \"%s\": %u vector registers, %.3f ms",
          in->entry, p->vreg_count,
          p->ms_validate + p->ms_optimize + p->ms_translate + p->ms_regalloc + p->ms_encode);
   return VK_SUCCESS;
}

/* The program: from the cache, or compiled (and then cached). */
static VkResult get_program(struct sg_device *dev, struct sg_pipeline_cache *cache,
                            const struct compile_input *in, VkPipelineCreateFlags flags,
                            struct sc_program *p, bool *hit)
{
   uint64_t key[2];
   cache_key(in, key);
   *hit = false;
   if (cache) {
      uint32_t size = 0;
      void *blob = sg_pipeline_cache_find(cache, key, &size, &dev->alloc);
      if (blob) {
         *hit = program_of(blob, size, p);
         sg_free(&dev->alloc, blob);
         if (*hit)
            return VK_SUCCESS;
      }
   }
   /* "VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT specifies
    * that pipeline creation will fail if a compile is required". */
   if (flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT)
      return VK_PIPELINE_COMPILE_REQUIRED;
   VkResult r = compile(dev, in, p);
   if (r != VK_SUCCESS || !cache)
      return r;
   uint32_t size;
   void *blob = blob_of(p, &size);
   if (blob)
      sg_pipeline_cache_insert(cache, key, blob, size);
   free(blob);
   return VK_SUCCESS;
}

/* ---- the pipeline object ---------------------------------------------------------------- */

static _Atomic uint64_t program_ids = 1;

static void destroy(struct sg_device *dev, struct sg_pipeline *pl, const VkAllocationCallbacks *alloc)
{
   if (pl->program_va)
      hw_mem_free(hw_gpu_memory(dev->gpu), pl->program_va);
   for (uint32_t i = 0; i < pl->printf_count; i++)
      sg_free(alloc, pl->printf_formats[i]);
   sg_free(alloc, pl->printf_formats);
   sg_object_finish(&pl->base);
   sg_free(alloc, pl);
}

/* Uploads the program and fills the pipeline from it. */
static VkResult upload(struct sg_device *dev, struct sg_pipeline *pl, const struct sc_program *p,
                       const VkAllocationCallbacks *alloc)
{
   struct hw_mem *mem = hw_gpu_memory(dev->gpu);
   if (hw_mem_alloc(mem, p->size, &pl->program_va) != 0) {
      pl->program_va = 0;
      SG_LOG(SG_LOG_ERROR, SG_AREA_MEMORY, "vkCreateComputePipelines: out of GPU memory for a "
             "%zu-byte program", p->size);
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   memcpy(hw_mem_host(mem, pl->program_va), p->image, p->size);
   pl->program_id = atomic_fetch_add(&program_ids, 1);
   memcpy(pl->local_size, p->local_size, sizeof(pl->local_size));
   pl->shared_bytes = p->shared_bytes;
   pl->private_bytes = p->private_bytes;
   pl->register_count = p->vreg_count;
   pl->launch_flags = p->uses_barrier ? HW_LAUNCH_USES_BARRIER : 0;
   if (p->printf_count) {
      pl->printf_formats = sg_zalloc(alloc, p->printf_count * sizeof(char *), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!pl->printf_formats)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      for (uint32_t i = 0; i < p->printf_count; i++) {
         pl->printf_formats[i] = sg_strdup(alloc, p->printf_formats[i], VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
         if (!pl->printf_formats[i])
            return VK_ERROR_OUT_OF_HOST_MEMORY;
         pl->printf_count = i + 1;
      }
   }
   return VK_SUCCESS;
}

/*
 * How much of the root table (hw/include/hw_root.h) a program can read,
 * so that dispatches snapshot only that. "If a push constant block is
 * declared in a shader, the block must be contained inside the push
 * constant range in layout that matches the stage", and "If a resource
 * variable is declared in a shader, the corresponding descriptor set in
 * layout must match the shader stage" (VkComputePipelineCreateInfo):
 * nothing past the layout's last push constant byte, set address or
 * dynamic offset is read, and the printf entries, past all of them, only
 * by programs that print. At least 16 bytes, so that a root table is never
 * empty.
 */
static uint32_t root_extent(const struct sg_pipeline_layout *l, uint32_t printf_count)
{
   uint32_t n = l->push_bytes;
   if (printf_count)
      n = HW_ROOT_BYTES;
   else if (l->dynamic_count)
      n = HW_ROOT_DYNAMIC_OFFSET + 4 * l->dynamic_count;
   else if (l->set_count)
      n = HW_ROOT_SETS_OFFSET + 8 * l->set_count;
   n = (n + 15) & ~15u;
   return n < 16 ? 16 : n > HW_ROOT_BYTES ? HW_ROOT_BYTES : n;
}

/* The subgroup size a stage is compiled for: the one it requires
 * (VK_EXT_subgroup_size_control), else the advertised subgroupSize. */
static uint32_t warp_width_of(const struct sg_device *dev, const VkPipelineShaderStageCreateInfo *stage)
{
   const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *req = find_in_chain(
      stage->pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
   if (req && dev->enabled_features.v13.subgroupSizeControl)
      return req->requiredSubgroupSize;
   return dev->pdev->props.v11.subgroupSize;
}

static void feedback(const VkComputePipelineCreateInfo *info, bool hit, uint64_t ns)
{
   const VkPipelineCreationFeedbackCreateInfo *fb =
      find_in_chain(info->pNext, VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
   if (!fb)
      return;
   VkPipelineCreationFeedback f = {
      .flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
               (hit ? VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT : 0),
      .duration = ns};
   if (fb->pPipelineCreationFeedback)
      *fb->pPipelineCreationFeedback = f;
   for (uint32_t i = 0; i < fb->pipelineStageCreationFeedbackCount; i++)
      fb->pPipelineStageCreationFeedbacks[i] = f;
}

static VkResult create_one(struct sg_device *dev, struct sg_pipeline_cache *cache,
                           const VkComputePipelineCreateInfo *info,
                           const VkAllocationCallbacks *alloc, VkPipeline *out)
{
   uint64_t start = now_ns();
   *out = VK_NULL_HANDLE;
   const VkPipelineShaderStageCreateInfo *stage = &info->stage;
   struct compile_input in = {
      .module = sg_shader_module_from_handle(stage->module), .entry = stage->pName,
      .layout = sg_pipeline_layout_from_handle(info->layout),
      .warp_width = warp_width_of(dev, stage),
      .robust = dev->enabled_features.v10.robustBufferAccess,
      .spirv = &dev->spirv,
      /* SOFTGPU_VALIDATE_SPIRV=0 trusts the input; SOFTGPU_SPIRV_OPT=1 runs
       * the SPIRV-Tools performance passes before translation. */
      .validate = env_flag("SOFTGPU_VALIDATE_SPIRV", true),
      .optimize = env_flag("SOFTGPU_SPIRV_OPT", false)};
   if (!in.module) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateComputePipelines: the stage has no shader module");
      return VK_ERROR_UNKNOWN;
   }
   read_spec(stage->pSpecializationInfo, &in);
   struct sc_program p;
   bool hit;
   VkResult r = get_program(dev, cache, &in, info->flags, &p, &hit);
   if (r != VK_SUCCESS)
      return r;
   struct sg_pipeline *pl = sg_zalloc(alloc, sizeof(*pl), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pl) {
      sc_program_free(&p);
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkCreateComputePipelines: out of host memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   sg_object_init(&pl->base, VK_OBJECT_TYPE_PIPELINE, dev, &dev->alloc);
   pl->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
   r = upload(dev, pl, &p, alloc);
   sc_program_free(&p);
   if (r != VK_SUCCESS) {
      destroy(dev, pl, alloc);
      return r;
   }
   pl->root_bytes = root_extent(in.layout, pl->printf_count);
   feedback(info, hit, now_ns() - start);
   *out = sg_pipeline_to_handle(pl);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_CreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                         uint32_t count,
                                                         const VkComputePipelineCreateInfo *pCreateInfos,
                                                         const VkAllocationCallbacks *pAllocator,
                                                         VkPipeline *pPipelines)
{
   struct sg_device *dev = sg_device_from_handle(device);
   const VkAllocationCallbacks *alloc = sg_alloc_pick(pAllocator, &dev->alloc);
   struct sg_pipeline_cache *cache = sg_pipeline_cache_from_handle(pipelineCache);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < count; i++)
      pPipelines[i] = VK_NULL_HANDLE;
   /* Derivatives (basePipelineHandle/Index) are hints: each pipeline is
    * compiled on its own. "... the implementation must attempt to create
    * all pipelines, and only return VK_NULL_HANDLE values for those that
    * actually failed", unless EARLY_RETURN_ON_FAILURE says otherwise. */
   for (uint32_t i = 0; i < count; i++) {
      VkResult r = create_one(dev, cache, &pCreateInfos[i], alloc, &pPipelines[i]);
      if (r == VK_SUCCESS)
         continue;
      if (result == VK_SUCCESS || result == VK_PIPELINE_COMPILE_REQUIRED)
         result = r;
      if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)
         break;
   }
   return result;
}

VKAPI_ATTR void VKAPI_CALL sg_DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                              const VkAllocationCallbacks *pAllocator)
{
   struct sg_device *dev = sg_device_from_handle(device);
   struct sg_pipeline *pl = sg_pipeline_from_handle(pipeline);
   if (pl)
      destroy(dev, pl, sg_alloc_pick(pAllocator, &dev->alloc));
}
