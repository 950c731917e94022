/*
 * The shader compiler: SPIR-V compute shaders to softgpu ISA programs
 * (hw/include/hw_isa.h). Depends only on the contract headers (hw/include/)
 * and SPIRV-Tools/Headers.
 *
 * How a program reaches its resources (the root table every launch points
 * at, the descriptors in a set's memory, the debugPrintf buffer) is part of
 * the contract with the driver and the hardware: hw/include/hw_root.h.
 * sc_binding::offset and sc_binding::dynamic_index place a binding in
 * those layouts.
 */
#ifndef SC_COMPILER_H
#define SC_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw_root.h"

/* Bumped whenever the compiler's output for a given input may change:
 * pipeline cache entries are keyed by it. */
#define SC_COMPILER_VERSION 1u

enum sc_descriptor_kind {
   SC_DESC_STORAGE_BUFFER,
   SC_DESC_UNIFORM_BUFFER,
   SC_DESC_STORAGE_BUFFER_DYNAMIC,
   SC_DESC_UNIFORM_BUFFER_DYNAMIC,
   SC_DESC_INLINE_UNIFORM_BLOCK,   /* the block's bytes are in the set, at offset */
};

struct sc_binding {
   uint32_t binding;
   enum sc_descriptor_kind kind;
   uint32_t count;            /* array elements (inline uniform blocks: bytes) */
   uint32_t offset;           /* byte offset of its first descriptor in the set */
   uint32_t dynamic_index;    /* dynamic kinds: first index into the dynamic offsets */
};

struct sc_set_layout {
   uint32_t binding_count;
   const struct sc_binding *bindings;
};

struct sc_spec_value {
   uint32_t id;               /* SpecId */
   uint32_t size;             /* 1 (bool), 4 or 8 bytes */
   uint64_t value;
};

/* A SPIR-V capability or extension as one device sees it. The compiler
 * knows nothing of Vulkan: the driver works this out (from vk.xml's
 * <spirvcapabilities> and <spirvextensions> and the device's enabled API
 * version, extensions and features) and hands it over as plain data. */
struct sc_spirv_permit {
   const char *name;          /* "ShaderNonUniform", "SPV_KHR_16bit_storage" */
   uint32_t capability;       /* the SpvCapability value (capabilities only) */
   bool allowed;              /* enabled on the device */
   const char *enabled_by;    /* what would enable it, in words, for messages */
};

struct sc_device_spirv {
   uint32_t capability_count;
   const struct sc_spirv_permit *capabilities;
   uint32_t extension_count;
   const struct sc_spirv_permit *extensions;
};

/* The rules the SPIR-V validator applies: the Vulkan environment and the
 * block layouts the device's features allow (the driver derives them). */
enum sc_vulkan_env {
   SC_VULKAN_DEFAULT = 0,     /* Vulkan 1.3, what softgpu reports */
   SC_VULKAN_1_0,
   SC_VULKAN_1_1,
   SC_VULKAN_1_2,
   SC_VULKAN_1_3,
};

struct sc_validator_options {
   enum sc_vulkan_env env;                /* also bounds the SPIR-V version */
   bool relaxed_block_layout;             /* Vulkan 1.1, VK_KHR_relaxed_block_layout */
   bool uniform_buffer_standard_layout;   /* uniformBufferStandardLayout */
   bool scalar_block_layout;              /* scalarBlockLayout */
   bool workgroup_scalar_block_layout;    /* workgroupMemoryExplicitLayoutScalarBlockLayout */
   bool allow_local_size_id;              /* maintenance4 */
};

struct sc_options {
   const char *entry_point;
   uint32_t warp_width;       /* 8, 16, 32 or 64: the subgroup size */
   uint32_t set_count;        /* layouts for sets 0 .. set_count-1 */
   const struct sc_set_layout *sets;
   uint32_t spec_count;
   const struct sc_spec_value *spec;
   bool robust_buffer_access; /* out-of-range buffer reads return 0, writes dropped */
   bool validate;             /* run the SPIR-V validator (its verdict is cached by hash
                               * and validator options) */
   struct sc_validator_options validator;
   bool optimize;             /* run the SPIRV-Tools optimizer */
   /* What the device allows. A module's OpCapability and OpExtension are
    * accepted when the device allows them and the compiler implements
    * them. NULL (no device: compiler tests, softgpu-cc): whatever the
    * compiler implements. */
   const struct sc_device_spirv *device;
};

/* The compiler's passes, for the work counters of struct sc_program. */
enum sc_pass {
   SC_PASS_CFG,          /* blocks and edges the control-flow graph's construction visited */
   SC_PASS_TRANSLATE,    /* SPIR-V instructions translated, MIR instructions emitted */
   SC_PASS_DIVERGENCE,   /* blocks, instructions and edges the divergence analysis visited */
   SC_PASS_UNROLL,       /* blocks and instructions looked at to find counted loops */
   SC_PASS_MIR_OPT,      /* MIR instructions the clean-up passes (uniform loops too) visited */
   SC_PASS_REGALLOC,     /* instructions, registers and slots register allocation visited */
   SC_PASS_ENCODE,       /* MIR instructions encoded */
   SC_PASS_COUNT
};

extern const char *const sc_pass_names[SC_PASS_COUNT];

struct sc_program {
   void *image;               /* struct isa_program_header, code, line table */
   size_t size;
   uint32_t local_size[3];
   uint32_t shared_bytes;     /* per workgroup */
   uint32_t private_bytes;    /* per invocation */
   uint32_t vreg_count;
   bool uses_barrier;
   /* debugPrintfEXT format strings, indexed by a record's format index */
   uint32_t printf_count;
   char **printf_formats;
   /* Where the time went, in milliseconds. */
   double ms_validate, ms_optimize, ms_translate, ms_regalloc, ms_encode;
   /* The work each pass did, in its own units: deterministic, so that a
    * test can check that every pass grows linearly with its input, where
    * timings would be noise. */
   uint64_t work[SC_PASS_COUNT];
};

/* Compiles one entry point. Returns true and fills out, or false with a
 * message naming the problem (invalid SPIR-V, an unsupported capability or
 * instruction, a resource the layout does not describe, ...). Never crashes
 * on bad input. */
bool sc_compile(const uint32_t *words, size_t word_count, const struct sc_options *opts,
                struct sc_program *out, char *err, size_t err_size);
void sc_program_free(struct sc_program *p);

/* Whether the compiler and the execution units implement a SPIR-V
 * capability (by its SpvCapability value) or extension: the driver must
 * not advertise a feature that enables one they do not. */
bool sc_capability_implemented(uint32_t capability);
bool sc_extension_implemented(const char *name);

#endif
