/*
 * VkPhysicalDevice: what the simulated GPU is and what softgpu supports,
 * reported truthfully. Anything not implemented yet reports false or 0 and
 * is listed in docs/conformance-gaps.md when Vulkan requires it; a test
 * keeps the two in step.
 */
#include "sg_physical_device.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw_root.h"
#include "sg_alloc.h"
#include "sg_extensions.h"
#include "sg_instance.h"
#include "sg_log.h"
#include "sg_version.h"
#include "sg_hash.h"

/* No Khronos vendor or driver ID is registered for softgpu. Unregistered
 * driver IDs are allowed ("There may be unregistered driver IDs returned",
 * VkDriverId); an unregistered vendor ID is not, and is listed in
 * docs/conformance-gaps.md until one is registered. Both are chosen
 * outside the ranges in use ('SG'). */
#define SG_VENDOR_ID 0x15347u
#define SG_DEVICE_ID 0x0001u
#define SG_DRIVER_ID ((VkDriverId)0x5347)

/* Push descriptor sets are copied into the command buffer at each launch
 * that needs them: any size works; 256 is generous (32 is the minimum). */
#define SG_MAX_PUSH_DESCRIPTORS 256u

static void init_features(struct sg_core_features *f)
{
   memset(f, 0, sizeof(*f));
   f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
   f->wmel.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR;
   f->clock.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR;
   f->atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
   /* Only what works today; see docs/conformance-gaps.md for the rest. */
   /* Descriptors are {VA, range} in memory launches read when they run:
    * robust accesses check the range (compiler), indexing into arrays of
    * buffers is an address computation, and sets can change after binding
    * as long as the launch that reads them has not run. */
   f->v10.robustBufferAccess = VK_TRUE;
   f->v10.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
   /* 64-bit integers live in register pairs; every operation has an ISA
    * instruction or a short sequence, atomics included. */
   f->v10.shaderInt64 = VK_TRUE;
   /* Doubles live in register pairs too, with binary64 instructions (DADD
    * ... DCMP, the conversions) and the GLSL.std.450 functions defined at
    * 64 bits. */
   f->v10.shaderFloat64 = VK_TRUE;
   f->v12.shaderBufferInt64Atomics = VK_TRUE;
   f->v12.shaderSharedInt64Atomics = VK_TRUE;
   f->v10.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
   f->v12.shaderUniformBufferArrayNonUniformIndexing = VK_TRUE;
   f->v12.shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
   f->v12.descriptorBindingUniformBufferUpdateAfterBind = VK_TRUE;
   f->v12.descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
   f->v12.descriptorBindingUpdateUnusedWhilePending = VK_TRUE;
   f->v12.descriptorBindingPartiallyBound = VK_TRUE;
   f->v12.runtimeDescriptorArray = VK_TRUE;
   /* 8- and 16-bit values in buffers and push constants: the execution
    * units have byte and halfword accesses, and the compiler loads, stores
    * and converts them. */
   f->v11.storageBuffer16BitAccess = VK_TRUE;
   f->v11.uniformAndStorageBuffer16BitAccess = VK_TRUE;
   f->v11.storagePushConstant16 = VK_TRUE;
   f->v12.storageBuffer8BitAccess = VK_TRUE;
   f->v12.uniformAndStorageBuffer8BitAccess = VK_TRUE;
   f->v12.storagePushConstant8 = VK_TRUE;
   /* Their arithmetic: 8- and 16-bit integers in 32-bit registers, extended
    * where an operation reads the upper bits; binary16 with instructions of
    * its own (HADD ... HCMP) or through binary32, rounded once ("Values
    * narrower and wider than 32 bits", docs/architecture.md). */
   f->v10.shaderInt16 = VK_TRUE;
   f->v12.shaderFloat16 = VK_TRUE;
   f->v12.shaderInt8 = VK_TRUE;
   /* Offsets come from the SPIR-V decorations, whatever layout rule made them. */
   f->v12.scalarBlockLayout = VK_TRUE;
   f->v12.uniformBufferStandardLayout = VK_TRUE;
   /* GPU memory is coherent and atomics are sequentially consistent. */
   f->v12.vulkanMemoryModel = VK_TRUE;
   f->v12.vulkanMemoryModelDeviceScope = VK_TRUE;
   f->v12.subgroupBroadcastDynamicId = VK_TRUE;
   /* The extended types (8-, 16- and 64-bit integers, half floats): the
    * subgroup instructions move and reduce 8- and 16-bit values in one
    * register (reductions on binary16 with ISA_SUBGROUP_F16) and 64-bit
    * ones in register pairs. */
   f->v12.shaderSubgroupExtendedTypes = VK_TRUE;
   /* GPU virtual addresses are buffer device addresses. */
   f->v12.bufferDeviceAddress = VK_TRUE;
   f->v12.timelineSemaphore = VK_TRUE;
   f->v12.hostQueryReset = VK_TRUE;
   f->v13.privateData = VK_TRUE;
   f->v13.synchronization2 = VK_TRUE;
   f->v13.pipelineCreationCacheControl = VK_TRUE;
   /* Programs are compiled for any warp width the execution units run. */
   f->v13.subgroupSizeControl = VK_TRUE;
   f->v13.computeFullSubgroups = VK_TRUE;
   /* Programs with initialized workgroup variables get zeroed shared memory. */
   f->v13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
   /* Inline uniform blocks are bytes in the set's memory, read like a
    * uniform buffer at the set's address. */
   f->v13.inlineUniformBlock = VK_TRUE;
   f->v13.descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
   /* Pipeline layouts are copied into what uses them; LocalSizeId is
    * compiled; buffer requirements need no buffer; softgpu has no images,
    * so the image parts have nothing to apply to. */
   f->v13.maintenance4 = VK_TRUE;
   /* OpSDot, OpUDot, OpSUDot and their AccSat forms at every input width
    * (compiler/sc_dot.c). */
   f->v13.shaderIntegerDotProduct = VK_TRUE;
   /* Block-decorated workgroup variables (VK_KHR_workgroup_memory_explicit_
    * layout): laid out by their decorations, any layout rule, aliased, with
    * byte and halfword accesses to shared memory. */
   f->wmel.workgroupMemoryExplicitLayout = VK_TRUE;
   f->wmel.workgroupMemoryExplicitLayoutScalarBlockLayout = VK_TRUE;
   f->wmel.workgroupMemoryExplicitLayout8BitAccess = VK_TRUE;
   f->wmel.workgroupMemoryExplicitLayout16BitAccess = VK_TRUE;
   /* VK_KHR_shader_clock: the GPU's nanosecond clock (S2R CLOCK_LO/HI), one
    * for the whole device, so it serves both scopes. */
   f->clock.shaderSubgroupClock = VK_TRUE;
   f->clock.shaderDeviceClock = VK_TRUE;
   /* VK_EXT_shader_atomic_float: loads, stores and exchanges of floats are
    * the integer atomics on their bits; adds are ATOMG/ATOMS FADD, 32- and
    * 64-bit, in buffers and shared memory (no images). */
   f->atomic_float.shaderBufferFloat32Atomics = VK_TRUE;
   f->atomic_float.shaderBufferFloat32AtomicAdd = VK_TRUE;
   f->atomic_float.shaderBufferFloat64Atomics = VK_TRUE;
   f->atomic_float.shaderBufferFloat64AtomicAdd = VK_TRUE;
   f->atomic_float.shaderSharedFloat32Atomics = VK_TRUE;
   f->atomic_float.shaderSharedFloat32AtomicAdd = VK_TRUE;
   f->atomic_float.shaderSharedFloat64Atomics = VK_TRUE;
   f->atomic_float.shaderSharedFloat64AtomicAdd = VK_TRUE;
}

/* Limits of the hardware model (hw/include/hw_caps.h) and of what softgpu's
 * descriptors can hold. Graphics and image limits are 0: softgpu has no
 * graphics queue and no images yet. */
static void init_limits(VkPhysicalDeviceLimits *l, const struct hw_caps *caps)
{
   memset(l, 0, sizeof(*l));
   l->maxUniformBufferRange = 65536;
   /* Buffer descriptors are {VA, range}: any 32-bit range is addressable. */
   l->maxStorageBufferRange = UINT32_MAX;
   l->maxPushConstantsSize = HW_ROOT_PUSH_BYTES;
   l->maxMemoryAllocationCount = 1u << 20;
   l->bufferImageGranularity = 1;
   l->maxBoundDescriptorSets = HW_ROOT_SETS;
   l->maxPerStageDescriptorUniformBuffers = 65536;
   l->maxPerStageDescriptorStorageBuffers = 65536;
   l->maxPerStageResources = 131072;
   l->maxDescriptorSetUniformBuffers = 65536;
   /* The root table's dynamic offsets (hw_root.h), half for each kind. */
   l->maxDescriptorSetUniformBuffersDynamic = HW_ROOT_DYNAMIC_SLOTS / 2;
   l->maxDescriptorSetStorageBuffers = 65536;
   l->maxDescriptorSetStorageBuffersDynamic = HW_ROOT_DYNAMIC_SLOTS / 2;
   l->maxComputeSharedMemorySize = HW_SHARED_MEMORY_PER_CTA;
   l->maxComputeWorkGroupCount[0] = HW_MAX_GRID_X;
   l->maxComputeWorkGroupCount[1] = HW_MAX_GRID_Y;
   l->maxComputeWorkGroupCount[2] = HW_MAX_GRID_Z;
   l->maxComputeWorkGroupInvocations = HW_MAX_CTA_INVOCATIONS;
   l->maxComputeWorkGroupSize[0] = HW_MAX_CTA_SIZE_X;
   l->maxComputeWorkGroupSize[1] = HW_MAX_CTA_SIZE_Y;
   l->maxComputeWorkGroupSize[2] = HW_MAX_CTA_SIZE_Z;
   l->maxSamplerAnisotropy = 1.0f;
   /* Mapped pointers are page aligned; 64 is what Vulkan asks one to promise. */
   l->minMemoryMapAlignment = 64;
   l->minTexelBufferOffsetAlignment = 16;
   l->minUniformBufferOffsetAlignment = 16;
   /* Shader loads need 4-byte alignment at most. */
   l->minStorageBufferOffsetAlignment = 4;
   l->timestampComputeAndGraphics = VK_TRUE;
   l->timestampPeriod = 1.0f;   /* HW timestamps count nanoseconds */
   l->discreteQueuePriorities = 2;
   l->optimalBufferCopyOffsetAlignment = 1;
   l->optimalBufferCopyRowPitchAlignment = 1;
   l->nonCoherentAtomSize = 64;
   (void)caps;
}

static void init_uuids(struct sg_core_properties *p)
{
   uint8_t id[64];
   size_t n = sg_build_id(id, sizeof(id));
   /* deviceUUID names the (simulated) device model; driverUUID and the
    * pipeline cache UUID name this exact build of the driver. */
   static const char model[] = "softgpu simulated GPU model 1";
   uint64_t dev[2] = {sg_hash64(model, sizeof(model), 1), sg_hash64(model, sizeof(model), 2)};
   uint64_t drv[2] = {sg_hash64(id, n, 3), sg_hash64(SG_VERSION_STRING, sizeof(SG_VERSION_STRING), 4)};
   uint64_t cache[2] = {sg_hash64(id, n, 5), sg_hash64(id, n, 6)};
   memcpy(p->v11.deviceUUID, dev, VK_UUID_SIZE);
   memcpy(p->v11.driverUUID, drv, VK_UUID_SIZE);
   memcpy(p->v10.pipelineCacheUUID, cache, VK_UUID_SIZE);
}

static void init_properties(struct sg_core_properties *p, const struct hw_caps *caps)
{
   memset(p, 0, sizeof(*p));
   p->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
   p->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
   p->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;

   VkPhysicalDeviceProperties *v10 = &p->v10;
   v10->apiVersion = SG_API_VERSION;
   v10->driverVersion = SG_DRIVER_VERSION;
   v10->vendorID = SG_VENDOR_ID;
   v10->deviceID = SG_DEVICE_ID;
   /* The work runs on the host's CPU cores. */
   v10->deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
   snprintf(v10->deviceName, sizeof(v10->deviceName), "softgpu");
   init_limits(&v10->limits, caps);
   init_uuids(p);

   VkPhysicalDeviceVulkan11Properties *v11 = &p->v11;
   v11->subgroupSize = HW_WARP_WIDTH_DEFAULT;
   v11->subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
   /* What the ISA's subgroup instructions cover: clustered reductions are
    * REDUCE's cluster field, quad operations shuffles within four lanes. */
   v11->subgroupSupportedOperations =
      VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
      VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
      VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
      VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;
   v11->pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
   v11->maxPerSetDescriptors = 131072;
   v11->maxMemoryAllocationSize = caps->memory_bytes;

   VkPhysicalDeviceVulkan12Properties *v12 = &p->v12;
   v12->driverID = SG_DRIVER_ID;
   snprintf(v12->driverName, sizeof(v12->driverName), "softgpu");
   snprintf(v12->driverInfo, sizeof(v12->driverInfo), "softgpu %s (%s)", SG_VERSION_STRING,
            SG_GIT_REVISION);
   /* Not a conformant implementation: "0.0.0.0" (VkConformanceVersion). */
   memset(&v12->conformanceVersion, 0, sizeof(v12->conformanceVersion));
   /* Float controls (VK_KHR_shader_float_controls): what the execution
    * units always do, at every width, so every mode that says so is
    * honoured and independent of the others: binary16, binary32 and
    * binary64 arithmetic keeps denormals (nothing sets flush-to-zero on the
    * host), rounds to nearest even, and keeps infinities, NaNs and the
    * sign of zero (the compiler's only float rewrites are constant folding
    * in IEEE arithmetic, ordered/unordered comparison inversion and
    * multiply-add contraction). Flushing denormals and rounding towards
    * zero are not offered: the execution modes that ask for them fail the
    * compile. */
   v12->denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
   v12->roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
   v12->shaderSignedZeroInfNanPreserveFloat16 = VK_TRUE;
   v12->shaderSignedZeroInfNanPreserveFloat32 = VK_TRUE;
   v12->shaderSignedZeroInfNanPreserveFloat64 = VK_TRUE;
   v12->shaderDenormPreserveFloat16 = VK_TRUE;
   v12->shaderDenormPreserveFloat32 = VK_TRUE;
   v12->shaderDenormPreserveFloat64 = VK_TRUE;
   v12->shaderRoundingModeRTEFloat16 = VK_TRUE;
   v12->shaderRoundingModeRTEFloat32 = VK_TRUE;
   v12->shaderRoundingModeRTEFloat64 = VK_TRUE;
   /* Semaphore words compare full 64-bit values: any difference works. */
   v12->maxTimelineSemaphoreValueDifference = UINT64_MAX;
   /* Update-after-bind sets are ordinary sets (see init_features). */
   const VkPhysicalDeviceLimits *l = &p->v10.limits;
   v12->maxUpdateAfterBindDescriptorsInAllPools = 1u << 20;
   v12->robustBufferAccessUpdateAfterBind = VK_TRUE;
   v12->maxPerStageDescriptorUpdateAfterBindUniformBuffers = l->maxPerStageDescriptorUniformBuffers;
   v12->maxPerStageDescriptorUpdateAfterBindStorageBuffers = l->maxPerStageDescriptorStorageBuffers;
   v12->maxPerStageUpdateAfterBindResources = l->maxPerStageResources;
   v12->maxDescriptorSetUpdateAfterBindUniformBuffers = l->maxDescriptorSetUniformBuffers;
   v12->maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = l->maxDescriptorSetUniformBuffersDynamic;
   v12->maxDescriptorSetUpdateAfterBindStorageBuffers = l->maxDescriptorSetStorageBuffers;
   v12->maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = l->maxDescriptorSetStorageBuffersDynamic;

   VkPhysicalDeviceVulkan13Properties *v13 = &p->v13;
   v13->minSubgroupSize = HW_WARP_WIDTH_MIN;
   v13->maxSubgroupSize = HW_WARP_WIDTH_MAX;
   v13->maxComputeWorkgroupSubgroups = HW_MAX_CTA_INVOCATIONS / HW_WARP_WIDTH_MIN;
   v13->requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
   /* Inline uniform blocks live in set memory: the limits are about
    * reasonable set sizes, not hardware. */
   v13->maxInlineUniformBlockSize = 65536;
   v13->maxPerStageDescriptorInlineUniformBlocks = 64;
   v13->maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 64;
   v13->maxDescriptorSetInlineUniformBlocks = 64;
   v13->maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 64;
   v13->maxInlineUniformTotalSize = 1u << 20;
   v13->storageTexelBufferOffsetAlignmentBytes = 16;
   v13->uniformTexelBufferOffsetAlignmentBytes = 16;
   v13->maxBufferSize = caps->memory_bytes;
   /* Integer dot products: four 8-bit integers packed in a word, into a
    * 32-bit result, are one instruction (IDP4, with or without the
    * saturating accumulation); every other form is a sequence of 64-bit
    * multiplies and adds, no faster than the shader's own arithmetic, so
    * not "accelerated". */
   v13->integerDotProduct4x8BitPackedUnsignedAccelerated = VK_TRUE;
   v13->integerDotProduct4x8BitPackedSignedAccelerated = VK_TRUE;
   v13->integerDotProduct4x8BitPackedMixedSignednessAccelerated = VK_TRUE;
   v13->integerDotProductAccumulatingSaturating4x8BitPackedUnsignedAccelerated = VK_TRUE;
   v13->integerDotProductAccumulatingSaturating4x8BitPackedSignedAccelerated = VK_TRUE;
   v13->integerDotProductAccumulatingSaturating4x8BitPackedMixedSignednessAccelerated = VK_TRUE;
}

static void init_memory(VkPhysicalDeviceMemoryProperties *m, const struct hw_caps *caps)
{
   memset(m, 0, sizeof(*m));
   /* Unified memory, as on an integrated GPU: one heap, one type that is
    * everything at once. */
   m->memoryHeapCount = 1;
   m->memoryHeaps[0].size = caps->memory_bytes;
   m->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
   m->memoryTypeCount = 1;
   m->memoryTypes[0].heapIndex = 0;
   m->memoryTypes[0].propertyFlags =
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
}

static void init_queue_families(VkQueueFamilyProperties *q)
{
   /* Vulkan requires TRANSFER to be implied by COMPUTE; reporting it too is
    * allowed and saves applications a special case. */
   q[SG_QUEUE_FAMILY_COMPUTE] = (VkQueueFamilyProperties){
      .queueFlags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT,
      .queueCount = HW_COMPUTE_CHANNELS,
      .timestampValidBits = HW_TIMESTAMP_BITS,
      .minImageTransferGranularity = {1, 1, 1},
   };
   q[SG_QUEUE_FAMILY_TRANSFER] = (VkQueueFamilyProperties){
      .queueFlags = VK_QUEUE_TRANSFER_BIT,
      .queueCount = HW_DMA_CHANNELS,
      .timestampValidBits = HW_TIMESTAMP_BITS,
      .minImageTransferGranularity = {1, 1, 1},
   };
}

/* Hides one feature: every feature struct member of that name (they all
 * map onto one member of the core blocks). False if no struct has it. */
static bool hide_feature(struct sg_physical_device *pdev, const char *name, bool *was_advertised)
{
   bool found = false;
   *was_advertised = false;
   for (uint32_t i = 0; i < sg_feature_struct_count; i++) {
      const struct sg_struct_info *st = &sg_feature_structs[i];
      for (uint32_t k = 0; k < st->member_count; k++) {
         const struct sg_struct_member *m = &st->members[k];
         if (m->size != sizeof(VkBool32) || strcmp(m->name, name) != 0)
            continue;
         VkBool32 *have = (VkBool32 *)((char *)&pdev->features + m->core_offset);
         *was_advertised |= *have == VK_TRUE;
         *have = VK_FALSE;
         *(VkBool32 *)((char *)&pdev->hidden_features + m->core_offset) = VK_TRUE;
         found = true;
      }
   }
   return found;
}

/*
 * SOFTGPU_HIDE_FEATURES=name,...: features (members of the feature structs,
 * e.g. shaderInt64) and device extensions (VK_KHR_push_descriptor) the
 * physical device does not advertise, for testing what applications and
 * tests do without them (tools/check-feature-tests). Read at every
 * physical device creation; what it hides and any name it does not know
 * are logged once per process, since every instance creates a physical
 * device. A name it does not know hides nothing.
 */
static void hide_features(struct sg_physical_device *pdev)
{
   const char *env = getenv("SOFTGPU_HIDE_FEATURES");
   if (!env || !*env)
      return;
   static atomic_bool logged;
   bool log = !atomic_exchange(&logged, true);
   char hidden[1024] = "";
   size_t used = 0;
   for (const char *p = env; *p;) {
      size_t len = strcspn(p, ", ");
      char name[VK_MAX_EXTENSION_NAME_SIZE];
      bool fits = len > 0 && len < sizeof(name);
      if (fits) {
         memcpy(name, p, len);
         name[len] = '\0';
      }
      p += len;
      p += strspn(p, ", ");
      if (len == 0)
         continue;
      if (!fits) {
         if (log)
            SG_LOG(SG_LOG_ERROR, SG_AREA_API, "SOFTGPU_HIDE_FEATURES: a %zu-character name is "
                   "no feature or extension; ignored", len);
         continue;
      }
      bool known, advertised;
      if (strncmp(name, "VK_", 3) == 0) {
         enum sg_ext e = sg_ext_from_name(name);
         advertised = e != SG_EXT_COUNT && sg_ext_set_has(&pdev->device_exts, e);
         known = advertised;
         if (advertised)
            pdev->device_exts.bits[e / 64] &= ~(1ull << (e % 64));
      } else {
         known = hide_feature(pdev, name, &advertised);
      }
      if (!known) {
         if (log)
            SG_LOG(SG_LOG_ERROR, SG_AREA_API, "SOFTGPU_HIDE_FEATURES: %s is neither a feature "
                   "(a VkBool32 member of a feature struct, e.g. shaderInt64) nor a device "
                   "extension softgpu advertises; ignored", name);
         continue;
      }
      if (log && used < sizeof(hidden))
         used += (size_t)snprintf(hidden + used, sizeof(hidden) - used, "%s%s%s",
                                  used ? ", " : "", name, advertised ? "" : " (not advertised anyway)");
   }
   if (log && used)
      SG_LOG(SG_LOG_WARN, SG_AREA_API, "SOFTGPU_HIDE_FEATURES: the physical device does not "
             "advertise %s", hidden);
}

VkResult sg_physical_device_create(struct sg_instance *inst, struct sg_physical_device **out)
{
   struct sg_physical_device *pdev =
      sg_zalloc(&inst->alloc, sizeof(*pdev), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
   if (!pdev)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   sg_object_init(&pdev->base, VK_OBJECT_TYPE_PHYSICAL_DEVICE, NULL, &inst->alloc);
   set_loader_magic_value(pdev);
   pdev->instance = inst;
   hw_caps_query(&pdev->caps);
   init_features(&pdev->features);
   init_properties(&pdev->props, &pdev->caps);
   init_memory(&pdev->memory, &pdev->caps);
   init_queue_families(pdev->queue_families);
   pdev->device_exts = sg_extension_set(sg_device_extensions, sg_device_extension_count);
   hide_features(pdev);
   *out = pdev;
   return VK_SUCCESS;
}

void sg_physical_device_destroy(struct sg_physical_device *pdev)
{
   const VkAllocationCallbacks *alloc = &pdev->instance->alloc;
   sg_object_finish(&pdev->base);
   sg_free(alloc, pdev);
}

/* Copies core values into every struct of a chain that the table knows;
 * "... structures it does not recognize are ignored" applies to the rest. */
static void fill_chain(const struct sg_struct_info *table, uint32_t count, const void *core,
                       void *chain)
{
   for (VkBaseOutStructure *s = chain; s; s = s->pNext) {
      const struct sg_struct_info *info = sg_struct_info_find(table, count, s->sType);
      if (!info)
         continue;
      for (uint32_t i = 0; i < info->member_count; i++) {
         const struct sg_struct_member *m = &info->members[i];
         memcpy((char *)s + m->offset, (const char *)core + m->core_offset, m->size);
      }
   }
}

VkResult sg_physical_device_enable_features(const struct sg_physical_device *pdev,
                                            const VkDeviceCreateInfo *info,
                                            struct sg_core_features *enabled)
{
   memset(enabled, 0, sizeof(*enabled));
   /* pEnabledFeatures is a bare VkPhysicalDeviceFeatures: view it as the
    * body of a VkPhysicalDeviceFeatures2 so one loop handles both. */
   VkPhysicalDeviceFeatures2 legacy = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = (void *)info->pNext,
   };
   if (info->pEnabledFeatures)
      legacy.features = *info->pEnabledFeatures;
   for (const VkBaseInStructure *s = (const void *)&legacy; s; s = s->pNext) {
      const struct sg_struct_info *st =
         sg_struct_info_find(sg_feature_structs, sg_feature_struct_count, s->sType);
      if (!st)
         continue;
      for (uint32_t i = 0; i < st->member_count; i++) {
         const struct sg_struct_member *m = &st->members[i];
         VkBool32 want = *(const VkBool32 *)((const char *)s + m->offset);
         VkBool32 have = *(const VkBool32 *)((const char *)&pdev->features + m->core_offset);
         if (want && !have) {
            bool hidden = *(const VkBool32 *)((const char *)&pdev->hidden_features + m->core_offset);
            SG_LOG(SG_LOG_ERROR, SG_AREA_API,
                   "vkCreateDevice: feature %s.%s is %s: VK_ERROR_FEATURE_NOT_PRESENT",
                   s == (const void *)&legacy && info->pEnabledFeatures ? "pEnabledFeatures"
                                                                        : st->name,
                   m->name, hidden ? "hidden by SOFTGPU_HIDE_FEATURES" : "not supported by softgpu");
            return VK_ERROR_FEATURE_NOT_PRESENT;
         }
         if (want)
            *(VkBool32 *)((char *)enabled + m->core_offset) = VK_TRUE;
      }
   }
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                                                        VkPhysicalDeviceFeatures *pFeatures)
{
   *pFeatures = sg_physical_device_from_handle(physicalDevice)->features.v10;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                         VkPhysicalDeviceFeatures2 *pFeatures)
{
   struct sg_physical_device *pdev = sg_physical_device_from_handle(physicalDevice);
   fill_chain(sg_feature_structs, sg_feature_struct_count, &pdev->features, pFeatures);
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                                          VkPhysicalDeviceProperties *pProperties)
{
   *pProperties = sg_physical_device_from_handle(physicalDevice)->props.v10;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                           VkPhysicalDeviceProperties2 *pProperties)
{
   struct sg_physical_device *pdev = sg_physical_device_from_handle(physicalDevice);
   fill_chain(sg_property_structs, sg_property_struct_count, &pdev->props, pProperties);
   /* Extension properties with no core counterpart. */
   for (VkBaseOutStructure *s = (void *)pProperties; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR)
         ((VkPhysicalDevicePushDescriptorPropertiesKHR *)s)->maxPushDescriptors = SG_MAX_PUSH_DESCRIPTORS;
   }
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceQueueFamilyProperties(
   VkPhysicalDevice physicalDevice, uint32_t *pCount, VkQueueFamilyProperties *pProps)
{
   struct sg_physical_device *pdev = sg_physical_device_from_handle(physicalDevice);
   if (!pProps) {
      *pCount = SG_QUEUE_FAMILY_COUNT;
      return;
   }
   uint32_t n = *pCount < SG_QUEUE_FAMILY_COUNT ? *pCount : SG_QUEUE_FAMILY_COUNT;
   memcpy(pProps, pdev->queue_families, n * sizeof(*pProps));
   *pCount = n;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceQueueFamilyProperties2(
   VkPhysicalDevice physicalDevice, uint32_t *pCount, VkQueueFamilyProperties2 *pProps)
{
   struct sg_physical_device *pdev = sg_physical_device_from_handle(physicalDevice);
   if (!pProps) {
      *pCount = SG_QUEUE_FAMILY_COUNT;
      return;
   }
   uint32_t n = *pCount < SG_QUEUE_FAMILY_COUNT ? *pCount : SG_QUEUE_FAMILY_COUNT;
   /* No extension struct for queue families is supported: chains are left
    * as they are. */
   for (uint32_t i = 0; i < n; i++)
      pProps[i].queueFamilyProperties = pdev->queue_families[i];
   *pCount = n;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceMemoryProperties(
   VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties *pMemoryProperties)
{
   *pMemoryProperties = sg_physical_device_from_handle(physicalDevice)->memory;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceMemoryProperties2(
   VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties2 *pMemoryProperties)
{
   pMemoryProperties->memoryProperties = sg_physical_device_from_handle(physicalDevice)->memory;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EnumerateDeviceExtensionProperties(
   VkPhysicalDevice physicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
   VkExtensionProperties *pProperties)
{
   struct sg_physical_device *pdev = sg_physical_device_from_handle(physicalDevice);
   if (pLayerName) {
      SG_LOG(SG_LOG_ERROR, SG_AREA_API, "softgpu implements no layer named %s", pLayerName);
      return VK_ERROR_LAYER_NOT_PRESENT;
   }
   return sg_extensions_enumerate(sg_device_extensions, sg_device_extension_count,
                                  &pdev->device_exts, pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL sg_EnumerateDeviceLayerProperties(VkPhysicalDevice physicalDevice,
                                                                 uint32_t *pPropertyCount,
                                                                 VkLayerProperties *pProperties)
{
   (void)physicalDevice;
   (void)pProperties;
   *pPropertyCount = 0;
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_GetPhysicalDeviceToolProperties(
   VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
   VkPhysicalDeviceToolProperties *pToolProperties)
{
   (void)physicalDevice;
   (void)pToolProperties;
   /* The driver itself adds no tool; layers above it add theirs. */
   *pToolCount = 0;
   return VK_SUCCESS;
}

/* External handles: softgpu shares no memory, fence or semaphore with other
 * APIs or processes. Each query answers that no handle type is supported,
 * which the specification allows for every handle type. */
VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceExternalBufferProperties(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalBufferInfo *pExternalBufferInfo,
   VkExternalBufferProperties *pExternalBufferProperties)
{
   (void)physicalDevice;
   (void)pExternalBufferInfo;
   memset(&pExternalBufferProperties->externalMemoryProperties, 0,
          sizeof(pExternalBufferProperties->externalMemoryProperties));
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceExternalFenceProperties(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalFenceInfo *pExternalFenceInfo,
   VkExternalFenceProperties *pExternalFenceProperties)
{
   (void)physicalDevice;
   (void)pExternalFenceInfo;
   pExternalFenceProperties->exportFromImportedHandleTypes = 0;
   pExternalFenceProperties->compatibleHandleTypes = 0;
   pExternalFenceProperties->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceExternalSemaphoreProperties(
   VkPhysicalDevice physicalDevice,
   const VkPhysicalDeviceExternalSemaphoreInfo *pExternalSemaphoreInfo,
   VkExternalSemaphoreProperties *pExternalSemaphoreProperties)
{
   (void)physicalDevice;
   (void)pExternalSemaphoreInfo;
   pExternalSemaphoreProperties->exportFromImportedHandleTypes = 0;
   pExternalSemaphoreProperties->compatibleHandleTypes = 0;
   pExternalSemaphoreProperties->externalSemaphoreFeatures = 0;
}
