/*
 * SPIR-V parsing: one pass over the module records where every id is
 * defined and how it is decorated, checks capabilities, extensions and the
 * entry point. Every id, offset and count is bounds-checked, because even
 * validated input may be truncated or hostile when validation is skipped.
 */
#define SPV_ENABLE_UTILITY_CODE
#include "sc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SPIRV-Headers defines this with C99 "inline"; this is its one definition. */
extern inline void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

#define SC_MAX_BOUND (1u << 22)

_Noreturn void sc_fail(struct sc_error *e, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(e->text, e->size, fmt, ap);
   va_end(ap);
   longjmp(e->jump, 1);
}

/* Names for messages, where the device gave none (compiling without a
 * device): the capabilities this compiler implements and some it is
 * commonly asked for. */
static const char *capability_name(uint32_t c)
{
   switch (c) {
   case SpvCapabilityMatrix: return "Matrix";
   case SpvCapabilityShader: return "Shader";
   case SpvCapabilityInt64: return "Int64";
   case SpvCapabilityInt64Atomics: return "Int64Atomics";
   case SpvCapabilityInputAttachment: return "InputAttachment";
   case SpvCapabilityDerivativeControl: return "DerivativeControl";
   case SpvCapabilityGroupNonUniform: return "GroupNonUniform";
   case SpvCapabilityGroupNonUniformVote: return "GroupNonUniformVote";
   case SpvCapabilityGroupNonUniformArithmetic: return "GroupNonUniformArithmetic";
   case SpvCapabilityGroupNonUniformBallot: return "GroupNonUniformBallot";
   case SpvCapabilityGroupNonUniformShuffle: return "GroupNonUniformShuffle";
   case SpvCapabilityGroupNonUniformShuffleRelative: return "GroupNonUniformShuffleRelative";
   case SpvCapabilityUniformBufferArrayDynamicIndexing: return "UniformBufferArrayDynamicIndexing";
   case SpvCapabilityStorageBufferArrayDynamicIndexing: return "StorageBufferArrayDynamicIndexing";
   case SpvCapabilityShaderNonUniform: return "ShaderNonUniform";
   case SpvCapabilityRuntimeDescriptorArray: return "RuntimeDescriptorArray";
   case SpvCapabilityUniformBufferArrayNonUniformIndexing:
      return "UniformBufferArrayNonUniformIndexing";
   case SpvCapabilityStorageBufferArrayNonUniformIndexing:
      return "StorageBufferArrayNonUniformIndexing";
   case SpvCapabilityDeviceGroup: return "DeviceGroup";
   case SpvCapabilityVulkanMemoryModel: return "VulkanMemoryModel";
   case SpvCapabilityVulkanMemoryModelDeviceScope: return "VulkanMemoryModelDeviceScope";
   case SpvCapabilityPhysicalStorageBufferAddresses: return "PhysicalStorageBufferAddresses";
   case SpvCapabilityFloat64: return "Float64";
   case SpvCapabilityFloat16: return "Float16";
   case SpvCapabilityInt16: return "Int16";
   case SpvCapabilityInt8: return "Int8";
   case SpvCapabilityImageBasic: return "ImageBasic";
   case SpvCapabilitySampled1D: return "Sampled1D";
   case SpvCapabilityStorageImageExtendedFormats: return "StorageImageExtendedFormats";
   case SpvCapabilityVariablePointers: return "VariablePointers";
   case SpvCapabilityVariablePointersStorageBuffer: return "VariablePointersStorageBuffer";
   case SpvCapabilityStorageBuffer16BitAccess: return "StorageBuffer16BitAccess";
   case SpvCapabilityStorageBuffer8BitAccess: return "StorageBuffer8BitAccess";
   case SpvCapabilityGroupNonUniformClustered: return "GroupNonUniformClustered";
   case SpvCapabilityGroupNonUniformQuad: return "GroupNonUniformQuad";
   case SpvCapabilityAtomicFloat32AddEXT: return "AtomicFloat32AddEXT";
   case SpvCapabilityDotProduct: return "DotProduct";
   case SpvCapabilityGeometry: return "Geometry";
   case SpvCapabilityTessellation: return "Tessellation";
   case SpvCapabilityAddresses: return "Addresses";
   case SpvCapabilityKernel: return "Kernel";
   default: return NULL;
   }
}

bool sc_capability_implemented(uint32_t c)
{
   switch (c) {
   case SpvCapabilityShader:
   case SpvCapabilityMatrix:
   case SpvCapabilityInt64:
   case SpvCapabilityInt64Atomics:
   case SpvCapabilityGroupNonUniform:
   case SpvCapabilityGroupNonUniformVote:
   case SpvCapabilityGroupNonUniformArithmetic:
   case SpvCapabilityGroupNonUniformBallot:
   case SpvCapabilityGroupNonUniformShuffle:
   case SpvCapabilityGroupNonUniformShuffleRelative:
   /* Clustered reductions (REDUCE's cluster field) and quad shuffles. */
   case SpvCapabilityGroupNonUniformClustered:
   case SpvCapabilityGroupNonUniformQuad:
   case SpvCapabilityVulkanMemoryModel:
   case SpvCapabilityVulkanMemoryModelDeviceScope:
   case SpvCapabilityPhysicalStorageBufferAddresses:
   /* Arrays of buffers are addresses computed per lane: any index, uniform
    * or not, dynamic or constant, and arrays without a size work alike. The
    * NonUniform decoration (ShaderNonUniform) changes nothing for SIMT
    * lanes that each compute their own descriptor address. */
   case SpvCapabilityUniformBufferArrayDynamicIndexing:
   case SpvCapabilityStorageBufferArrayDynamicIndexing:
   case SpvCapabilityShaderNonUniform:
   case SpvCapabilityRuntimeDescriptorArray:
   case SpvCapabilityUniformBufferArrayNonUniformIndexing:
   case SpvCapabilityStorageBufferArrayNonUniformIndexing:
   /* The DeviceIndex built-in: always 0 (one physical device per group). */
   case SpvCapabilityDeviceGroup:
   /* Only fragment shaders can use what these declare (subpass inputs,
    * fine and coarse derivatives): nothing a GLCompute entry point, the
    * only kind compiled, can reach. */
   case SpvCapabilityInputAttachment:
   case SpvCapabilityDerivativeControl:
   /* 8- and 16-bit values in buffers and push constants: loads, stores
    * and conversions (byte and halfword accesses, H2F/F2H). */
   case SpvCapabilityStorageBuffer16BitAccess:
   case SpvCapabilityUniformAndStorageBuffer16BitAccess:
   case SpvCapabilityStoragePushConstant16:
   case SpvCapabilityStorageBuffer8BitAccess:
   case SpvCapabilityUniformAndStorageBuffer8BitAccess:
   case SpvCapabilityStoragePushConstant8:
   /* And their arithmetic (sc_translate.c's views: extended integers,
    * binary16 instructions or binary32 rounded once). */
   case SpvCapabilityInt16:
   case SpvCapabilityInt8:
   case SpvCapabilityFloat16:
   /* Doubles: register pairs and the binary64 instructions. */
   case SpvCapabilityFloat64:
   /* OpAtomicFAddEXT on 32- and 64-bit floats: ATOMG/ATOMS FADD. */
   case SpvCapabilityAtomicFloat32AddEXT:
   case SpvCapabilityAtomicFloat64AddEXT:
   /* OpReadClockKHR: the GPU's clock (S2R CLOCK_LO/HI). */
   case SpvCapabilityShaderClockKHR:
   /* Block-decorated Workgroup variables: explicit layouts, aliased
    * (sc_translate.c, explicit_workgroup_variable), with byte and
    * halfword accesses. */
   case SpvCapabilityWorkgroupMemoryExplicitLayoutKHR:
   case SpvCapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR:
   case SpvCapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR:
   /* Float controls the execution units always honour (their execution
    * modes, execution_mode below). */
   case SpvCapabilityDenormPreserve:
   case SpvCapabilitySignedZeroInfNanPreserve:
   case SpvCapabilityRoundingModeRTE:
   /* Integer dot products (sc_dot.c): IDP4 and 64-bit sequences. */
   case SpvCapabilityDotProductInputAll:
   case SpvCapabilityDotProductInput4x8Bit:
   case SpvCapabilityDotProductInput4x8BitPacked:
   case SpvCapabilityDotProduct:
      return true;
   default:
      return false;
   }
}

bool sc_extension_implemented(const char *name)
{
   static const char *const ok[] = {
      "SPV_KHR_storage_buffer_storage_class", "SPV_KHR_physical_storage_buffer",
      "SPV_KHR_vulkan_memory_model", "SPV_KHR_non_semantic_info",
      "SPV_EXT_physical_storage_buffer", "SPV_KHR_shader_draw_parameters",
      /* The SubgroupUniformControlFlowKHR execution mode is a hint. */
      "SPV_KHR_subgroup_uniform_control_flow",
      /* The NonUniform decoration, and capabilities (checked on their own). */
      "SPV_EXT_descriptor_indexing",
      /* DeviceIndex (above); its capability is checked on its own. */
      "SPV_KHR_device_group",
      /* These add capabilities only, each checked on its own, or what
       * only other stages can use (ViewIndex, OpTerminateInvocation,
       * viewport and layer outputs): declaring them alone is harmless,
       * and the translator refuses any instruction it does not know. */
      "SPV_KHR_variable_pointers", "SPV_KHR_8bit_storage", "SPV_KHR_16bit_storage",
      "SPV_KHR_float_controls", "SPV_KHR_multiview", "SPV_KHR_terminate_invocation",
      "SPV_EXT_shader_viewport_index_layer", "SPV_EXT_demote_to_helper_invocation",
      "SPV_KHR_integer_dot_product", "SPV_KHR_workgroup_memory_explicit_layout",
      "SPV_KHR_shader_clock", "SPV_EXT_shader_atomic_float_add",
   };
   for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
      if (strcmp(name, ok[i]) == 0)
         return true;
   }
   return false;
}

static const struct sc_spirv_permit *find_capability(const struct sc_device_spirv *d, uint32_t c)
{
   for (uint32_t i = 0; i < d->capability_count; i++) {
      if (d->capabilities[i].capability == c)
         return &d->capabilities[i];
   }
   return NULL;
}

static const struct sc_spirv_permit *find_extension(const struct sc_device_spirv *d,
                                                    const char *name)
{
   for (uint32_t i = 0; i < d->extension_count; i++) {
      if (strcmp(d->extensions[i].name, name) == 0)
         return &d->extensions[i];
   }
   return NULL;
}

/* "The application must not use any of these capabilities in SPIR-V
 * passed to vkCreateShaderModule unless one of the following conditions is
 * met for the VkDevice ..." (SPIR-V environment, Capabilities; extensions
 * likewise): the device says what is allowed (struct sc_device_spirv),
 * the compiler what it can do; a module needs both. */
static void check_capability(uint32_t c, const struct sc_device_spirv *device, struct sc_error *e)
{
   bool implemented = sc_capability_implemented(c);
   const struct sc_spirv_permit *p = device ? find_capability(device, c) : NULL;
   const char *name = p ? p->name : capability_name(c);
   char label[96];
   if (name)
      snprintf(label, sizeof(label), "%s (%u)", name, c);
   else
      snprintf(label, sizeof(label), "%u", c);
   if (device && !p)
      sc_fail(e, "SPIR-V capability %s is not allowed: Vulkan does not allow it%s", label,
              implemented ? "" : ", and softgpu does not implement it");
   if (device && !p->allowed)
      sc_fail(e, "SPIR-V capability %s is not enabled on the device: it needs %s%s", label,
              p->enabled_by, implemented ? "" : "; softgpu does not implement it either");
   if (!implemented)
      sc_fail(e, "unsupported SPIR-V capability %s: softgpu does not implement it", label);
}

static void check_extension(const char *name, const struct sc_device_spirv *device,
                            struct sc_error *e)
{
   bool implemented = sc_extension_implemented(name);
   const struct sc_spirv_permit *p = device ? find_extension(device, name) : NULL;
   if (device && !p)
      sc_fail(e, "SPIR-V extension %s is not allowed: Vulkan does not allow it%s", name,
              implemented ? "" : ", and softgpu does not implement it");
   if (device && !p->allowed)
      sc_fail(e, "SPIR-V extension %s is not enabled on the device: it needs %s%s", name,
              p->enabled_by, implemented ? "" : "; softgpu does not implement it either");
   if (!implemented)
      sc_fail(e, "unsupported SPIR-V extension %s: softgpu does not implement it", name);
}

void sc_check_capabilities(const uint32_t *words, size_t count,
                           const struct sc_device_spirv *device, struct sc_error *e)
{
   for (size_t at = 5; at < count;) {
      uint32_t len = words[at] >> 16;
      if (len == 0 || len > count - at)
         sc_fail(e, "invalid SPIR-V: instruction at word %zu runs past the end", at);
      switch (words[at] & 0xffff) {
      case SpvOpCapability:
         if (len < 2)
            sc_fail(e, "invalid SPIR-V: truncated OpCapability");
         check_capability(words[at + 1], device, e);
         break;
      case SpvOpExtension: {
         const char *name = (const char *)&words[at + 1];
         if (len < 2 || !memchr(name, '\0', (size_t)(len - 1) * 4))
            sc_fail(e, "invalid SPIR-V: extension name not terminated");
         check_extension(name, device, e);
         break;
      }
      default:
         break;
      }
      at += len;
   }
}

/* A literal string operand starting at word w of an instruction ending at
 * end; NULL if it is not NUL-terminated inside the instruction. */
static const char *literal_string(const struct sc_module *m, uint32_t w, uint32_t end)
{
   if (w >= end)
      return NULL;
   const char *s = (const char *)&m->words[w];
   size_t max = (size_t)(end - w) * 4;
   return memchr(s, '\0', max) ? s : NULL;
}

static struct sc_id *id_at(struct sc_module *m, uint32_t id, struct sc_error *e)
{
   if (id == 0 || id >= m->bound)
      sc_fail(e, "invalid SPIR-V: id %u is out of range (bound %u)", id, m->bound);
   return &m->ids[id];
}

/* Records decoration `deco` (its first literal: value) on id. */
static void apply_decoration(struct sc_id *id, uint32_t deco, uint32_t value)
{
   switch (deco) {
   case SpvDecorationBuiltIn: id->builtin = value + 1; break;
   case SpvDecorationDescriptorSet: id->set = value, id->has_set = true; break;
   case SpvDecorationBinding: id->binding = value, id->has_binding = true; break;
   case SpvDecorationBlock: id->block = true; break;
   case SpvDecorationBufferBlock: id->buffer_block = true; break;
   case SpvDecorationArrayStride: id->array_stride = value; break;
   case SpvDecorationSpecId: id->spec_id = value + 1; break;
   case SpvDecorationNonWritable: id->non_writable = true; break;
   case SpvDecorationNoContraction: id->no_contraction = true; break;
   case SpvDecorationFPRoundingMode: id->rounding = (uint8_t)(value + 1); break;
   default: break;
   }
}

/* Records decoration `deco` on member `member` of struct type id. */
static void apply_member_decoration(struct sc_id *id, uint32_t member, uint32_t deco,
                                    uint32_t value, struct sc_error *e)
{
   if (member >= 16384)
      sc_fail(e, "invalid SPIR-V: member %u decorated", member);
   if (member >= id->member_count) {
      uint32_t n = member + 1;
      struct sc_member_deco *d = realloc(id->members, n * sizeof(*d));
      if (!d)
         sc_fail(e, "out of memory");
      memset(d + id->member_count, 0, (n - id->member_count) * sizeof(*d));
      id->members = d;
      id->member_count = n;
   }
   struct sc_member_deco *d = &id->members[member];
   switch (deco) {
   case SpvDecorationOffset: d->offset = value; break;
   case SpvDecorationMatrixStride: d->matrix_stride = value; break;
   case SpvDecorationRowMajor: d->row_major = true; break;
   case SpvDecorationColMajor: d->row_major = false; break;
   case SpvDecorationBuiltIn: d->builtin = value + 1; break;
   default: break;
   }
}

static void decorate(struct sc_module *m, uint32_t at, uint32_t len, struct sc_error *e)
{
   if (len < 3)
      sc_fail(e, "invalid SPIR-V: truncated OpDecorate");
   apply_decoration(id_at(m, m->words[at + 1], e), m->words[at + 2], len > 3 ? m->words[at + 3] : 0);
}

static void member_decorate(struct sc_module *m, uint32_t at, uint32_t len, struct sc_error *e)
{
   if (len < 4)
      sc_fail(e, "invalid SPIR-V: truncated OpMemberDecorate");
   apply_member_decoration(id_at(m, m->words[at + 1], e), m->words[at + 2], m->words[at + 3],
                           len > 4 ? m->words[at + 4] : 0, e);
}

/* OpGroupDecorate and OpGroupMemberDecorate: "Add a group of decorations
 * to another <id>" / "to members of structure types" (SPIR-V 3.42.5,
 * Annotation Instructions). OpDecorationGroup: "All such decoration
 * instructions targeting this OpDecorationGroup instruction must precede
 * it", so the group's decorations are the OpDecorate and OpDecorateId
 * before `at` whose target is the group. Members: each target is an
 * (<id>, member) pair. */
static void group_decorate(struct sc_module *m, uint32_t at, uint32_t len, bool members,
                           struct sc_error *e)
{
   if (len < 2)
      sc_fail(e, "invalid SPIR-V: truncated OpGroupDecorate");
   uint32_t group = m->words[at + 1], step = members ? 2 : 1;
   for (uint32_t d = 5; d < at; d += sc_len(m, d)) {
      uint16_t op = sc_op(m, d);
      uint32_t dlen = sc_len(m, d);
      if ((op != SpvOpDecorate && op != SpvOpDecorateId) || dlen < 3 || m->words[d + 1] != group)
         continue;
      uint32_t deco = m->words[d + 2], value = dlen > 3 ? m->words[d + 3] : 0;
      for (uint32_t k = 2; k + step - 1 < len; k += step) {
         struct sc_id *target = id_at(m, m->words[at + k], e);
         if (members)
            apply_member_decoration(target, m->words[at + k + 1], deco, value, e);
         else
            apply_decoration(target, deco, value);
      }
   }
}

static void header(struct sc_module *m, struct sc_error *e)
{
   if (m->count < 5)
      sc_fail(e, "invalid SPIR-V: %u words is too short for a module header", m->count);
   if (m->words[0] != SpvMagicNumber)
      sc_fail(e, "invalid SPIR-V: wrong magic number 0x%08x", m->words[0]);
   m->bound = m->words[3];
   if (m->bound == 0 || m->bound > SC_MAX_BOUND)
      sc_fail(e, "invalid SPIR-V: id bound %u", m->bound);
   m->ids = calloc(m->bound, sizeof(*m->ids));
   if (!m->ids)
      sc_fail(e, "out of memory for %u ids", m->bound);
}

static void entry_point(struct sc_module *m, uint32_t at, uint32_t len, const char *entry,
                        struct sc_error *e)
{
   if (len < 4)
      sc_fail(e, "invalid SPIR-V: truncated OpEntryPoint");
   const char *name = literal_string(m, at + 3, at + len);
   if (!name)
      sc_fail(e, "invalid SPIR-V: entry point name not terminated");
   if (m->words[at + 1] == SpvExecutionModelGLCompute && strcmp(name, entry) == 0)
      m->entry_function = m->words[at + 2];
}

static void execution_mode(struct sc_module *m, uint32_t at, uint32_t len, bool with_ids,
                           struct sc_error *e)
{
   if (len < 3)
      sc_fail(e, "invalid SPIR-V: truncated OpExecutionMode");
   if (m->words[at + 1] != m->entry_function)
      return;
   switch (m->words[at + 2]) {
   case SpvExecutionModeLocalSize:
   case SpvExecutionModeLocalSizeId:
      if (len < 6)
         sc_fail(e, "invalid SPIR-V: truncated LocalSize");
      for (int i = 0; i < 3; i++) {
         if (with_ids)
            m->local_size_id[i] = m->words[at + 3 + i];
         else
            m->local_size[i] = m->words[at + 3 + i];
      }
      break;
   case SpvExecutionModeLocalSizeHint:
   case SpvExecutionModeSubgroupUniformControlFlowKHR:
      break;
   /* Float controls: what the execution units always do (see
    * shaderDenormPreserveFloat* and the others in sg_physical_device.c). */
   case SpvExecutionModeDenormPreserve:
   case SpvExecutionModeSignedZeroInfNanPreserve:
   case SpvExecutionModeRoundingModeRTE:
      break;
   case SpvExecutionModeDenormFlushToZero:
      sc_fail(e, "execution mode DenormFlushToZero is not supported: softgpu keeps denormals "
                 "(shaderDenormFlushToZeroFloat* are false)");
   case SpvExecutionModeRoundingModeRTZ:
      sc_fail(e, "execution mode RoundingModeRTZ is not supported: softgpu rounds to nearest "
                 "even (shaderRoundingModeRTZFloat* are false)");
   default:
      sc_fail(e, "unsupported execution mode %u", m->words[at + 2]);
   }
}

/* Module-level instructions: capabilities, imports, the entry point. */
static void module_instruction(struct sc_module *m, uint32_t at, uint32_t len, const char *entry,
                               struct sc_error *e)
{
   uint16_t op = sc_op(m, at);
   switch (op) {
   /* OpCapability and OpExtension: sc_check_capabilities, on the module as
    * the application gave it. */
   case SpvOpExtInstImport: {
      const char *name = literal_string(m, at + 2, at + len);
      if (!name || len < 3)
         sc_fail(e, "invalid SPIR-V: bad OpExtInstImport");
      uint32_t id = m->words[at + 1];
      if (strcmp(name, "GLSL.std.450") == 0)
         m->glsl_std_450 = id;
      else if (strcmp(name, "NonSemantic.DebugPrintf") == 0)
         m->debug_printf = id;
      else if (strcmp(name, "NonSemantic.Shader.DebugInfo.100") == 0)
         m->debug_info = id;
      else if (strncmp(name, "NonSemantic.", 12) != 0)
         sc_fail(e, "unsupported extended instruction set %s", name);
      break;
   }
   case SpvOpMemoryModel:
      if (len < 3)
         sc_fail(e, "invalid SPIR-V: truncated OpMemoryModel");
      if (m->words[at + 1] == SpvAddressingModelPhysicalStorageBuffer64)
         m->addressing_physical64 = true;
      else if (m->words[at + 1] != SpvAddressingModelLogical)
         sc_fail(e, "unsupported addressing model %u", m->words[at + 1]);
      break;
   case SpvOpEntryPoint: entry_point(m, at, len, entry, e); break;
   case SpvOpExecutionMode: execution_mode(m, at, len, false, e); break;
   case SpvOpExecutionModeId: execution_mode(m, at, len, true, e); break;
   case SpvOpDecorate:
   case SpvOpDecorateId: decorate(m, at, len, e); break;
   case SpvOpMemberDecorate: member_decorate(m, at, len, e); break;
   case SpvOpGroupDecorate: group_decorate(m, at, len, false, e); break;
   case SpvOpGroupMemberDecorate: group_decorate(m, at, len, true, e); break;
   default: break;
   }
}

/* Records the result id of an instruction. */
static void define(struct sc_module *m, uint32_t at, uint32_t len, uint32_t line,
                   struct sc_error *e)
{
   bool has_result, has_type;
   SpvHasResultAndType((SpvOp)sc_op(m, at), &has_result, &has_type);
   uint32_t need = 1 + has_result + has_type;
   if (!has_result)
      return;
   if (len < need)
      sc_fail(e, "invalid SPIR-V: opcode %u with %u words", sc_op(m, at), len);
   uint32_t rid = m->words[at + (has_type ? 2 : 1)];
   struct sc_id *id = id_at(m, rid, e);
   if (id->def)
      sc_fail(e, "invalid SPIR-V: id %u defined twice", rid);
   id->def = at;
   id->opcode = sc_op(m, at);
   id->line = line;
   if (has_type) {
      id->type = m->words[at + 1];
      id_at(m, id->type, e);
   }
}

void sc_parse(struct sc_module *m, const uint32_t *words, size_t count, const char *entry,
              struct sc_error *e)
{
   memset(m, 0, sizeof(*m));
   m->words = words;
   m->count = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
   header(m, e);
   uint32_t line = 0;
   bool in_entry = false;
   for (uint32_t at = 5; at < m->count;) {
      uint32_t len = sc_len(m, at);
      if (len == 0 || at + len > m->count)
         sc_fail(e, "invalid SPIR-V: instruction at word %u runs past the end", at);
      uint16_t op = sc_op(m, at);
      if (op == SpvOpLine && len >= 4)
         line = m->words[at + 2];
      else if (op == SpvOpNoLine)
         line = 0;
      module_instruction(m, at, len, entry, e);
      define(m, at, len, line, e);
      if (op == SpvOpFunction && !m->globals_end)
         m->globals_end = at;
      if (op == SpvOpFunction && len >= 3 && m->words[at + 2] == m->entry_function &&
          m->entry_function) {
         in_entry = true;
         m->function_start = at;
      } else if (op == SpvOpFunctionEnd && in_entry) {
         in_entry = false;
         m->function_end = at;
      }
      at += len;
   }
   if (!m->entry_function)
      sc_fail(e, "no GLCompute entry point named \"%s\"", entry);
   if (!m->function_end)
      sc_fail(e, "invalid SPIR-V: the entry point's function has no body");
   for (uint32_t id = 1; id < m->bound; id++) {
      if (m->ids[id].builtin == SpvBuiltInWorkgroupSize + 1 && m->ids[id].def &&
          (m->ids[id].opcode == SpvOpConstantComposite ||
           m->ids[id].opcode == SpvOpSpecConstantComposite))
         m->workgroup_size_id = id;
   }
}

void sc_module_free(struct sc_module *m)
{
   if (m->ids) {
      for (uint32_t i = 0; i < m->bound; i++)
         free(m->ids[i].members);
   }
   free(m->ids);
   memset(m, 0, sizeof(*m));
}

/* ---- specialization without the optimizer --------------------------------------------- */

/* The value given for the constant `id`: `decorated` holds the SpecId
 * decorations (id, SpecId) in pairs. */
static const struct sc_spec_value *spec_for(const uint32_t *decorated, uint32_t n, uint32_t id,
                                            const struct sc_spec_value *spec, uint32_t spec_count)
{
   for (uint32_t k = 0; k < n; k++) {
      if (decorated[2 * k] != id)
         continue;
      for (uint32_t i = 0; i < spec_count; i++) {
         if (spec[i].id == decorated[2 * k + 1])
            return &spec[i];
      }
      return NULL;
   }
   return NULL;
}

/* Freezes one specialization constant at `at` with its value, if given. */
static void freeze(uint32_t *w, uint32_t at, const struct sc_spec_value *v)
{
   uint32_t len = w[at] >> 16, op = w[at] & 0xffff;
   switch (op) {
   case SpvOpSpecConstantTrue:
   case SpvOpSpecConstantFalse: {
      bool value = v ? v->value != 0 : op == SpvOpSpecConstantTrue;
      w[at] = (len << 16) | (value ? SpvOpConstantTrue : SpvOpConstantFalse);
      return;
   }
   case SpvOpSpecConstant:
      if (v && len >= 4)
         w[at + 3] = (uint32_t)v->value;
      if (v && len >= 5)
         w[at + 4] = (uint32_t)(v->value >> 32);
      w[at] = (len << 16) | SpvOpConstant;
      return;
   case SpvOpSpecConstantComposite:
      w[at] = (len << 16) | SpvOpConstantComposite;
      return;
   default:
      return;
   }
}

uint32_t *sc_specialize(const uint32_t *words, size_t count, const struct sc_spec_value *spec,
                        uint32_t spec_count, bool *needs_optimizer, struct sc_error *e)
{
   *needs_optimizer = false;
   if (count > UINT32_MAX)
      sc_fail(e, "invalid SPIR-V: module too large");
   uint32_t functions = 0;
   for (uint32_t at = 5; at < count;) {
      uint32_t len = words[at] >> 16, op = words[at] & 0xffff;
      if (len == 0 || at + len > count)
         sc_fail(e, "invalid SPIR-V: instruction at word %u runs past the end", at);
      functions += op == SpvOpFunction;
      if (op == SpvOpSpecConstantOp || functions > 1) {
         *needs_optimizer = true;
         return NULL;
      }
      at += len;
   }
   uint32_t *w = malloc(count * sizeof(*w));
   uint32_t *decorated = malloc(count * sizeof(*decorated));   /* at most count/2 pairs */
   if (!w || !decorated) {
      free(w);
      free(decorated);
      sc_fail(e, "out of memory");
   }
   memcpy(w, words, count * sizeof(*w));
   uint32_t n = 0;
   for (uint32_t at = 5; at < count; at += w[at] >> 16) {
      uint32_t len = w[at] >> 16;
      if ((w[at] & 0xffff) == SpvOpDecorate && len >= 4 && w[at + 2] == SpvDecorationSpecId) {
         decorated[2 * n] = w[at + 1];
         decorated[2 * n + 1] = w[at + 3];
         n++;
      }
   }
   for (uint32_t at = 5; at < count; at += w[at] >> 16) {
      uint32_t op = w[at] & 0xffff;
      if (op >= SpvOpSpecConstantTrue && op <= SpvOpSpecConstantComposite && (w[at] >> 16) >= 3)
         freeze(w, at, spec_for(decorated, n, w[at + 2], spec, spec_count));
   }
   free(decorated);
   return w;
}

/* ---- OpSpecConstantOp as instructions ------------------------------------------------- */

bool sc_spec_operation(uint16_t op)
{
   /* OpSpecConstantOp: "Opcode must be one of the following opcodes" with
    * the Shader capability (SPIR-V 3.42.7, Constant-Creation Instructions). */
   switch (op) {
   case SpvOpSConvert: case SpvOpUConvert: case SpvOpFConvert: case SpvOpSNegate: case SpvOpNot:
   case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod:
   case SpvOpSRem: case SpvOpSMod: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
   case SpvOpShiftLeftLogical: case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpBitwiseAnd:
   case SpvOpVectorShuffle: case SpvOpCompositeExtract: case SpvOpCompositeInsert:
   case SpvOpLogicalOr: case SpvOpLogicalAnd: case SpvOpLogicalNot: case SpvOpLogicalEqual:
   case SpvOpLogicalNotEqual: case SpvOpSelect: case SpvOpIEqual: case SpvOpINotEqual:
   case SpvOpULessThan: case SpvOpSLessThan: case SpvOpUGreaterThan: case SpvOpSGreaterThan:
   case SpvOpULessThanEqual: case SpvOpSLessThanEqual: case SpvOpUGreaterThanEqual:
   case SpvOpSGreaterThanEqual: case SpvOpQuantizeToF16:
      return true;
   default:
      return false;
   }
}

void sc_lower_spec_ops(uint32_t *w, size_t count)
{
   /* OpSpecConstantOp: "Declare a new specialization constant that results
    * from doing an operation" (SPIR-V 3.42.7). The constants it reads are
    * frozen by now, so it is that operation on constants: the same words
    * without the opcode operand, padded with an OpNop. */
   for (size_t at = 5; at < count && (w[at] >> 16) != 0; at += w[at] >> 16) {
      uint32_t len = w[at] >> 16;
      if ((w[at] & 0xffff) != SpvOpSpecConstantOp || len < 4 || at + len > count ||
          w[at + 3] > 0xffff || !sc_spec_operation((uint16_t)w[at + 3]))
         continue;
      uint32_t op = w[at + 3];
      memmove(&w[at + 3], &w[at + 4], (len - 4) * sizeof(*w));
      w[at] = ((len - 1) << 16) | op;
      w[at + len - 1] = (1u << 16) | SpvOpNop;
   }
}
