/*
 * How a program reaches its resources: the root table, the descriptors in
 * a descriptor set's memory, and the debugPrintf buffer. Three parties
 * read or write these bytes in GPU memory, and this header is the one
 * definition all three build against:
 *   - compiler/ emits loads at these offsets: from the launch's root table
 *     (its address is ISA_SR_ROOT_LO/HI), from a set's memory, and writes
 *     printf records;
 *   - src/ writes them: root table snapshots (inside LAUNCH_EMBEDDED
 *     packets, or NOP payloads), descriptors into set memory, the printf
 *     buffer's header; it reads the records back;
 *   - hw/ takes the root table's address from the launch descriptor
 *     (struct hw_launch_desc, hw_packets.h) and serves the program's loads
 *     from it; nothing else of these layouts is the hardware's.
 * All little endian. The static assertions below pin every offset, size
 * and alignment to the C structs, so a change to one piece that the others
 * do not follow fails to compile.
 */
#ifndef HW_ROOT_H
#define HW_ROOT_H

/* static_assert (<assert.h>) rather than _Static_assert: the compiler's C++
 * shim (compiler/sc_opt.cpp) includes this header through sc_compiler.h. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>

/* ---- The root table ----------------------------------------------------------
 *   [HW_ROOT_PUSH_OFFSET]      push constants, HW_ROOT_PUSH_BYTES
 *   [HW_ROOT_SETS_OFFSET]      the GPU address of each descriptor set (u64)
 *   [HW_ROOT_DYNAMIC_OFFSET]   dynamic buffer offsets (u32), in the order
 *                              sc_binding::dynamic_index gives
 *   [HW_ROOT_PRINTF_OFFSET]    the GPU address of the debugPrintf buffer
 *                              (u64), then at HW_ROOT_PRINTF_BASE_OFFSET
 *                              the number the driver gives the program's
 *                              first format (u32); for programs that print
 * A program reads only what its layout has, so the driver may upload a
 * prefix; it places the table at a HW_ROOT_ALIGN-aligned address. */
#define HW_ROOT_ALIGN 16u
#define HW_ROOT_PUSH_OFFSET 0u
#define HW_ROOT_PUSH_BYTES 256u
#define HW_ROOT_SETS 8u
#define HW_ROOT_SETS_OFFSET (HW_ROOT_PUSH_OFFSET + HW_ROOT_PUSH_BYTES)
#define HW_ROOT_DYNAMIC_SLOTS 32u
#define HW_ROOT_DYNAMIC_OFFSET (HW_ROOT_SETS_OFFSET + 8u * HW_ROOT_SETS)
#define HW_ROOT_PRINTF_OFFSET (HW_ROOT_DYNAMIC_OFFSET + 4u * HW_ROOT_DYNAMIC_SLOTS)
#define HW_ROOT_PRINTF_BASE_OFFSET (HW_ROOT_PRINTF_OFFSET + 8u)
#define HW_ROOT_BYTES (HW_ROOT_PRINTF_OFFSET + 16u)

struct hw_root_table {
   uint8_t push[HW_ROOT_PUSH_BYTES];        /* vkCmdPushConstants' bytes */
   uint64_t sets[HW_ROOT_SETS];             /* each bound set's memory, or 0 */
   uint32_t dynamic[HW_ROOT_DYNAMIC_SLOTS]; /* dynamic offsets, in bytes */
   uint64_t printf_va;                      /* struct hw_printf_buffer */
   uint32_t printf_base;                    /* format number of the program's first */
   uint32_t reserved;
};

static_assert(offsetof(struct hw_root_table, push) == HW_ROOT_PUSH_OFFSET, "root table layout");
static_assert(offsetof(struct hw_root_table, sets) == HW_ROOT_SETS_OFFSET, "root table layout");
static_assert(offsetof(struct hw_root_table, dynamic) == HW_ROOT_DYNAMIC_OFFSET,
              "root table layout");
static_assert(offsetof(struct hw_root_table, printf_va) == HW_ROOT_PRINTF_OFFSET,
              "root table layout");
static_assert(offsetof(struct hw_root_table, printf_base) == HW_ROOT_PRINTF_BASE_OFFSET,
              "root table layout");
static_assert(sizeof(struct hw_root_table) == HW_ROOT_BYTES, "the root table has no C padding");
/* The 64-bit entries are naturally aligned in GPU memory when the table
 * is: programs load them as register pairs with one 8-byte access. */
static_assert(HW_ROOT_ALIGN % 8u == 0 && HW_ROOT_SETS_OFFSET % 8u == 0 &&
              HW_ROOT_PRINTF_OFFSET % 8u == 0, "root table alignment");
/* VkPushConstantRange: "size must be a multiple of 4"
 * (VUID-VkPushConstantRange-size-00297); programs load them as dwords. */
static_assert(HW_ROOT_PUSH_BYTES % 4u == 0, "push constants are dwords");
/* A whole table, like its HW_ROOT_ALIGN-rounded prefixes, ends where the
 * next aligned one may start. */
static_assert(HW_ROOT_BYTES % HW_ROOT_ALIGN == 0, "root table size");
/* The spec's "Required Limits" table: maxPushConstantsSize at least 128,
 * maxBoundDescriptorSets at least 4; softgpu reports these two. */
static_assert(HW_ROOT_PUSH_BYTES >= 128u && HW_ROOT_SETS >= 4u,
              "the root table holds Vulkan's minimum limits");

/* ---- Descriptors in a set's memory -----------------------------------------
 * Every descriptor takes HW_DESCRIPTOR_BYTES; a binding's array elements
 * follow each other. A buffer descriptor is {VA, range}; other types leave
 * the slot unused. An inline uniform block's bytes are in the set itself,
 * HW_DESCRIPTOR_ALIGN-aligned and rounded up to it. */
#define HW_DESCRIPTOR_BYTES 16u
#define HW_DESCRIPTOR_ALIGN 16u
#define HW_DESCRIPTOR_VA_OFFSET 0u
#define HW_DESCRIPTOR_RANGE_OFFSET 8u

struct hw_buffer_descriptor {
   uint64_t va;      /* the buffer's address plus the descriptor's offset */
   uint64_t range;   /* bytes from va that robust accesses may touch */
};

static_assert(sizeof(struct hw_buffer_descriptor) == HW_DESCRIPTOR_BYTES, "descriptor size");
static_assert(offsetof(struct hw_buffer_descriptor, va) == HW_DESCRIPTOR_VA_OFFSET,
              "descriptor layout");
static_assert(offsetof(struct hw_buffer_descriptor, range) == HW_DESCRIPTOR_RANGE_OFFSET,
              "descriptor layout");
/* Whole descriptors from the set's start keep each 8-byte field aligned. */
static_assert(HW_DESCRIPTOR_ALIGN % HW_DESCRIPTOR_BYTES == 0 && HW_DESCRIPTOR_BYTES % 8u == 0,
              "descriptor alignment");

/* ---- The debugPrintf buffer ---------------------------------------------------
 * struct hw_printf_buffer, then records. Each invocation that prints adds
 * its record's size to `used` atomically and writes the record if it fits
 * in `capacity`: u32 word count (the record's own included), u32 format
 * number (the root table's printf_base plus the index into
 * sc_program::printf_formats), then the arguments' 32-bit words in order
 * (vectors component by component, 64-bit values low word first).
 * used > capacity means output was lost. */
struct hw_printf_buffer {
   uint32_t used;             /* bytes of records claimed (may exceed capacity) */
   uint32_t capacity;         /* bytes available for records after this header */
   uint32_t reserved[2];
};

#define HW_PRINTF_USED_OFFSET 0u
#define HW_PRINTF_CAPACITY_OFFSET 4u
static_assert(offsetof(struct hw_printf_buffer, used) == HW_PRINTF_USED_OFFSET,
              "printf buffer layout");
static_assert(offsetof(struct hw_printf_buffer, capacity) == HW_PRINTF_CAPACITY_OFFSET,
              "printf buffer layout");
/* Records start 16-byte aligned after the header. */
static_assert(sizeof(struct hw_printf_buffer) == 16u, "printf buffer header");

#endif
