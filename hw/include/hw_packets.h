/*
 * The contract between the driver (src/, the encoder) and the simulated GPU
 * (hw/, the decoder): the ring entry, the channel control page, the packet
 * header and every packet layout. Both sides include this one header;
 * tests/hw/test_packets.c pins it down with a round trip, and
 * tools/softgpu-dump prints any ring or pushbuffer from it.
 *
 * A pushbuffer is an array of 32-bit dwords in GPU memory: packets, each a
 * header dword followed by its payload dwords. 64-bit fields are two
 * dwords, low first, and are only 4-byte aligned.
 */
#ifndef HW_PACKETS_H
#define HW_PACKETS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- Ring entries and the control page ---------------------------------- */

/* One ring entry: a pushbuffer range to execute. */
struct hw_ring_entry {
   uint64_t pushbuffer_va;
   uint32_t length;        /* dwords */
   uint32_t flags;         /* reserved, 0 */
};

/* The channel's control page, in GPU memory. PUT and GET are free-running
 * entry counters (index = counter % ring size): the ring is empty when they
 * are equal and full when PUT - GET == ring size. They sit on their own
 * cache lines because two agents write them. */
struct hw_channel_control {
   _Atomic uint32_t put;   /* written by the driver, after the entries */
   uint8_t pad0[60];
   _Atomic uint32_t get;   /* written by the GPU, after fetching an entry */
   uint8_t pad1[60];
   /* Status, written by the GPU for diagnostics (hang reports): whether the
    * channel is parked on an acquire, and on what. park_va and park_value
    * are written before parked is set. */
   _Atomic uint64_t park_va;
   _Atomic uint64_t park_value;
   _Atomic uint32_t parked;
   uint8_t pad2[44];
};

/* ---- Packet header -------------------------------------------------------- */

/* header = opcode:8 | flags:8 | payload length in dwords:16 */
#define HW_PKT_HEADER(op, flags, len) \
   (((uint32_t)(op) << 24) | (((uint32_t)(flags) & 0xffu) << 16) | ((uint32_t)(len) & 0xffffu))
#define HW_PKT_MAX_PAYLOAD 0xffffu

static inline uint32_t hw_pkt_opcode(uint32_t header) { return header >> 24; }
static inline uint32_t hw_pkt_flags(uint32_t header) { return (header >> 16) & 0xffu; }
static inline uint32_t hw_pkt_length(uint32_t header) { return header & 0xffffu; }

enum hw_opcode {
   HW_OP_NOP = 0,           /* payload ignored */
   HW_OP_SEM_ACQUIRE = 1,   /* {va, value}: wait until the 64-bit word at va >= value */
   HW_OP_SEM_RELEASE = 2,   /* {va, value}: write value; flags WFI, INTERRUPT */
   HW_OP_WAIT_FOR_IDLE = 3, /* wait until all prior work of the channel is done */
   HW_OP_MEM_BARRIER = 4,   /* make prior writes visible to later reads; flags WFI */
   HW_OP_DMA_COPY = 5,      /* {src, dst, size} */
   HW_OP_DMA_FILL = 6,      /* {dst, size, value}: size a multiple of 4 */
   HW_OP_INLINE_WRITE = 7,  /* {dst} then the data dwords */
   HW_OP_TIMESTAMP = 8,     /* {va}: write the GPU time in ns; flags WFI */
   HW_OP_CALL = 9,          /* {va, length}: run a pushbuffer, then come back */
   HW_OP_RETURN = 10,       /* end the current pushbuffer early */
   HW_OP_JUMP = 11,         /* {va, length}: continue in another pushbuffer */
   HW_OP_LINK_SLOT = 12,    /* {link word, length}: see below */
   HW_OP_LABEL_PUSH = 13,   /* NUL-terminated label text, padded to dwords */
   HW_OP_LABEL_POP = 14,
   HW_OP_LABEL_INSERT = 15, /* NUL-terminated label text, padded to dwords */
   HW_OP_QUERY_COPY = 16,   /* {src, dst, stride, count, flags}: timestamp query results */
   HW_OP_LAUNCH = 32,       /* {desc}: run the grid a launch descriptor describes */
   HW_OP_LAUNCH_INDIRECT = 33, /* {desc, grid}: the same, grid size read from GPU memory */
   HW_OP_LAUNCH_EMBEDDED = 34, /* {descriptor} then data: LAUNCH with the descriptor in the packet */
   HW_OP_COUNT = 35
};

/* SEM_RELEASE, TIMESTAMP and MEM_BARRIER flags. */
#define HW_PKT_FLAG_WFI 0x01u        /* first wait until the channel is idle */
#define HW_PKT_FLAG_INTERRUPT 0x02u  /* then raise the completion interrupt */
/* Semaphore words change only through SEM_RELEASE (and host signals):
 * those are what wake parked acquires and host waiters. Other writes to a
 * semaphore word (a copy, an inline write) change it silently. */

/*
 * LINK_SLOT: the last packet of each submission's release segment, and the
 * way a full ring never blocks the submitter. Its 64-bit link word starts
 * OPEN. The driver, finding the ring full, writes the length and then CASes
 * OPEN -> the VA of a new pushbuffer: the GPU continues there when it gets
 * to the slot. The GPU, reaching the slot, CASes OPEN -> CLOSED and moves
 * on: a driver whose CAS then fails knows the GPU has drained everything
 * up to here, so the ring has room again.
 */
#define HW_LINK_OPEN 0ull
#define HW_LINK_CLOSED 1ull

/* QUERY_COPY flags: VkQueryResultFlagBits values, which they mirror. */
#define HW_QUERY_64 0x1u
#define HW_QUERY_WAIT 0x2u
#define HW_QUERY_WITH_AVAILABILITY 0x4u
#define HW_QUERY_PARTIAL 0x8u

/* ---- Payload layouts ------------------------------------------------------ */

struct hw_pkt_sem {          /* SEM_ACQUIRE, SEM_RELEASE */
   uint64_t va, value;
};
struct hw_pkt_copy {         /* DMA_COPY */
   uint64_t src, dst, size;
};
struct hw_pkt_fill {         /* DMA_FILL */
   uint64_t dst, size;
   uint32_t value;
};
struct hw_pkt_va {           /* TIMESTAMP, and the head of INLINE_WRITE */
   uint64_t va;
};
struct hw_pkt_branch {       /* CALL, JUMP */
   uint64_t va;
   uint32_t length;          /* dwords */
};
struct hw_pkt_link {         /* LINK_SLOT: the link word is atomically updated */
   uint64_t link;            /* HW_LINK_OPEN, HW_LINK_CLOSED or a pushbuffer VA */
   uint32_t length;          /* dwords at that VA */
};
/* A timestamp query slot in GPU memory: the value, then its availability. */
struct hw_query_slot {
   uint64_t value;
   uint64_t available;       /* 0 or 1; released after the value */
};
/*
 * The launch descriptor (the CTA/grid descriptor), in GPU memory. A LAUNCH
 * runs grid[0] x grid[1] x grid[2] CTAs (workgroups) of size[0] x size[1] x
 * size[2] invocations; workgroup ids start at base. Launches with no
 * WAIT_FOR_IDLE between them may run concurrently.
 */
struct hw_launch_desc {
   uint64_t program_va;      /* struct isa_program_header, then the code */
   uint64_t program_id;      /* the driver's name for that program: decoded
                              * programs are cached by (VA, id) */
   uint32_t grid[3];
   uint32_t base[3];
   uint32_t size[3];
   uint32_t shared_bytes;    /* per CTA */
   uint32_t private_bytes;   /* per invocation */
   uint32_t register_count;  /* vector registers; at least the program's */
   uint32_t flags;           /* HW_LAUNCH_* */
   uint32_t reserved;
   uint64_t root_va;         /* the root table (hw_root.h): push constants, set
                              * addresses; the driver aligns it to HW_ROOT_ALIGN */
};
#define HW_LAUNCH_USES_BARRIER 0x1u
#define HW_LAUNCH_DESC_DWORDS 20u
_Static_assert(sizeof(struct hw_launch_desc) == 4 * HW_LAUNCH_DESC_DWORDS,
               "the launch descriptor has no C padding");

/*
 * LAUNCH_EMBEDDED: the payload's first HW_LAUNCH_DESC_DWORDS dwords are the
 * launch descriptor itself (its VA, in reports, is the payload's); the
 * dwords after it are data the command processor skips, which the
 * descriptor may point at: the launch's root table, usually. A dispatch is
 * then one packet, where LAUNCH needs NOP packets around its descriptor and
 * root table: a command buffer of many small dispatches is read once, cold,
 * and every packet costs a header decode.
 */

/* LAUNCH_INDIRECT reads VkDispatchIndirectCommand's layout: three uint32. */
struct hw_pkt_launch {       /* LAUNCH, LAUNCH_INDIRECT */
   uint64_t desc;
   uint64_t grid;            /* LAUNCH_INDIRECT only */
};
#define HW_PKT_LAUNCH_DWORDS 2u
#define HW_PKT_LAUNCH_INDIRECT_DWORDS 4u

struct hw_pkt_query_copy {   /* QUERY_COPY */
   uint64_t src;             /* first struct hw_query_slot */
   uint64_t dst;
   uint64_t stride;
   uint32_t count;
   uint32_t flags;           /* HW_QUERY_* */
};

/* Payload sizes in dwords of the fixed-size packets (the byte size of the
 * layout, without C padding). */
#define HW_PKT_SEM_DWORDS 4u
#define HW_PKT_COPY_DWORDS 6u
#define HW_PKT_FILL_DWORDS 5u
#define HW_PKT_VA_DWORDS 2u
#define HW_PKT_BRANCH_DWORDS 3u
#define HW_PKT_LINK_DWORDS 3u
#define HW_PKT_QUERY_COPY_DWORDS 8u

/* Payload length bounds per opcode, for the decoder's checks and the dump
 * tool. An opcode with max 0 and min 0 takes no payload. */
struct hw_opcode_info {
   const char *name;
   uint16_t min_dwords, max_dwords;
};
extern const struct hw_opcode_info hw_opcode_info[HW_OP_COUNT];

/* ---- Encoding and decoding -------------------------------------------------- */

static inline void hw_put_u64(uint32_t *p, uint64_t v)
{
   p[0] = (uint32_t)v;
   p[1] = (uint32_t)(v >> 32);
}

static inline uint64_t hw_get_u64(const uint32_t *p)
{
   return (uint64_t)p[0] | ((uint64_t)p[1] << 32);
}

/* Each emitter writes one packet at p and returns the dword after it. */
static inline uint32_t *hw_emit_sem(uint32_t *p, enum hw_opcode op, uint32_t flags,
                                    uint64_t va, uint64_t value)
{
   p[0] = HW_PKT_HEADER(op, flags, HW_PKT_SEM_DWORDS);
   hw_put_u64(p + 1, va);
   hw_put_u64(p + 3, value);
   return p + 1 + HW_PKT_SEM_DWORDS;
}

static inline uint32_t *hw_emit_simple(uint32_t *p, enum hw_opcode op)
{
   p[0] = HW_PKT_HEADER(op, 0, 0);
   return p + 1;
}

/* MEM_BARRIER; with HW_PKT_FLAG_WFI it first waits until the channel is
 * idle, as a WAIT_FOR_IDLE before it would. */
static inline uint32_t *hw_emit_mem_barrier(uint32_t *p, uint32_t flags)
{
   p[0] = HW_PKT_HEADER(HW_OP_MEM_BARRIER, flags, 0);
   return p + 1;
}

static inline uint32_t *hw_emit_copy(uint32_t *p, uint64_t src, uint64_t dst, uint64_t size)
{
   p[0] = HW_PKT_HEADER(HW_OP_DMA_COPY, 0, HW_PKT_COPY_DWORDS);
   hw_put_u64(p + 1, src);
   hw_put_u64(p + 3, dst);
   hw_put_u64(p + 5, size);
   return p + 1 + HW_PKT_COPY_DWORDS;
}

static inline uint32_t *hw_emit_fill(uint32_t *p, uint64_t dst, uint64_t size, uint32_t value)
{
   p[0] = HW_PKT_HEADER(HW_OP_DMA_FILL, 0, HW_PKT_FILL_DWORDS);
   hw_put_u64(p + 1, dst);
   hw_put_u64(p + 3, size);
   p[5] = value;
   return p + 1 + HW_PKT_FILL_DWORDS;
}

/* INLINE_WRITE of size bytes: a nonzero multiple of 4, at most
 * HW_INLINE_WRITE_MAX_BYTES. */
static inline uint32_t *hw_emit_inline_write(uint32_t *p, uint64_t dst, const void *data,
                                             uint32_t size)
{
   uint32_t n = size / 4;
   p[0] = HW_PKT_HEADER(HW_OP_INLINE_WRITE, 0, HW_PKT_VA_DWORDS + n);
   hw_put_u64(p + 1, dst);
   memcpy(p + 3, data, size);
   return p + 3 + n;
}
#define HW_INLINE_WRITE_MAX_BYTES (4u * (HW_PKT_MAX_PAYLOAD - HW_PKT_VA_DWORDS))

static inline uint32_t *hw_emit_timestamp(uint32_t *p, uint32_t flags, uint64_t va)
{
   p[0] = HW_PKT_HEADER(HW_OP_TIMESTAMP, flags, HW_PKT_VA_DWORDS);
   hw_put_u64(p + 1, va);
   return p + 1 + HW_PKT_VA_DWORDS;
}

static inline uint32_t *hw_emit_branch(uint32_t *p, enum hw_opcode op, uint64_t va,
                                       uint32_t length)
{
   p[0] = HW_PKT_HEADER(op, 0, HW_PKT_BRANCH_DWORDS);
   hw_put_u64(p + 1, va);
   p[3] = length;
   return p + 1 + HW_PKT_BRANCH_DWORDS;
}

/* An OPEN link slot. The link word must be 8-byte aligned in GPU memory,
 * for its atomic updates: the emitter pads with a NOP when needed, so p
 * must be 8-byte aligned relative to the slot's final address (pushbuffers
 * are). */
static inline uint32_t *hw_emit_link_slot(uint32_t *p)
{
   if (((uintptr_t)(p + 1) & 7u) != 0)
      *p++ = HW_PKT_HEADER(HW_OP_NOP, 0, 0);
   p[0] = HW_PKT_HEADER(HW_OP_LINK_SLOT, 0, HW_PKT_LINK_DWORDS);
   hw_put_u64(p + 1, HW_LINK_OPEN);
   p[3] = 0;
   return p + 1 + HW_PKT_LINK_DWORDS;
}
#define HW_LINK_SLOT_MAX_DWORDS (2u + HW_PKT_LINK_DWORDS)

/* The link word of a slot whose header is at slot_header: the dword
 * HW_PKT_LINK_DWORDS + 1 before what hw_emit_link_slot returned (which may
 * differ from the pointer passed to it, when it inserted a padding NOP). */
static inline _Atomic uint64_t *hw_link_word(uint32_t *slot_header)
{
   return (_Atomic uint64_t *)(void *)(slot_header + 1);
}

static inline uint32_t *hw_emit_label(uint32_t *p, enum hw_opcode op, const char *text)
{
   size_t len = text ? strlen(text) : 0;
   if (len > 4 * 255)
      len = 4 * 255;
   uint32_t n = (uint32_t)(len / 4 + 1);   /* room for the NUL */
   p[0] = HW_PKT_HEADER(op, 0, n);
   memset(p + 1, 0, 4 * n);
   if (len)
      memcpy(p + 1, text, len);
   return p + 1 + n;
}
#define HW_LABEL_MAX_DWORDS (1u + 256u)

static inline uint32_t *hw_emit_query_copy(uint32_t *p, const struct hw_pkt_query_copy *q)
{
   p[0] = HW_PKT_HEADER(HW_OP_QUERY_COPY, 0, HW_PKT_QUERY_COPY_DWORDS);
   hw_put_u64(p + 1, q->src);
   hw_put_u64(p + 3, q->dst);
   hw_put_u64(p + 5, q->stride);
   p[7] = q->count;
   p[8] = q->flags;
   return p + 1 + HW_PKT_QUERY_COPY_DWORDS;
}

static inline uint32_t *hw_emit_launch(uint32_t *p, uint64_t desc)
{
   p[0] = HW_PKT_HEADER(HW_OP_LAUNCH, 0, HW_PKT_LAUNCH_DWORDS);
   hw_put_u64(p + 1, desc);
   return p + 1 + HW_PKT_LAUNCH_DWORDS;
}

static inline uint32_t *hw_emit_launch_indirect(uint32_t *p, uint64_t desc, uint64_t grid)
{
   p[0] = HW_PKT_HEADER(HW_OP_LAUNCH_INDIRECT, 0, HW_PKT_LAUNCH_INDIRECT_DWORDS);
   hw_put_u64(p + 1, desc);
   hw_put_u64(p + 3, grid);
   return p + 1 + HW_PKT_LAUNCH_INDIRECT_DWORDS;
}

/* A LAUNCH_EMBEDDED of descriptor d followed by data_dwords of data: returns
 * where the data goes (the packet ends data_dwords after it). */
static inline uint32_t *hw_emit_launch_embedded(uint32_t *p, const struct hw_launch_desc *d,
                                              uint32_t data_dwords)
{
   p[0] = HW_PKT_HEADER(HW_OP_LAUNCH_EMBEDDED, 0, HW_LAUNCH_DESC_DWORDS + data_dwords);
   memcpy(p + 1, d, sizeof(*d));
   return p + 1 + HW_LAUNCH_DESC_DWORDS;
}
#define HW_LAUNCH_EMBEDDED_MAX_DATA (HW_PKT_MAX_PAYLOAD - HW_LAUNCH_DESC_DWORDS)

/* Decoders: read the payload that follows a header. */
static inline struct hw_pkt_sem hw_decode_sem(const uint32_t *payload)
{
   return (struct hw_pkt_sem){hw_get_u64(payload), hw_get_u64(payload + 2)};
}
static inline struct hw_pkt_copy hw_decode_copy(const uint32_t *payload)
{
   return (struct hw_pkt_copy){hw_get_u64(payload), hw_get_u64(payload + 2),
                               hw_get_u64(payload + 4)};
}
static inline struct hw_pkt_fill hw_decode_fill(const uint32_t *payload)
{
   return (struct hw_pkt_fill){hw_get_u64(payload), hw_get_u64(payload + 2), payload[4]};
}
static inline struct hw_pkt_va hw_decode_va(const uint32_t *payload)
{
   return (struct hw_pkt_va){hw_get_u64(payload)};
}
static inline struct hw_pkt_branch hw_decode_branch(const uint32_t *payload)
{
   return (struct hw_pkt_branch){hw_get_u64(payload), payload[2]};
}
static inline struct hw_pkt_launch hw_decode_launch(const uint32_t *payload, uint32_t len)
{
   return (struct hw_pkt_launch){hw_get_u64(payload),
                                 len >= HW_PKT_LAUNCH_INDIRECT_DWORDS ? hw_get_u64(payload + 2) : 0};
}

static inline struct hw_launch_desc hw_decode_launch_embedded(const uint32_t *payload)
{
   struct hw_launch_desc d;
   memcpy(&d, payload, sizeof(d));
   return d;
}

static inline struct hw_pkt_query_copy hw_decode_query_copy(const uint32_t *payload)
{
   return (struct hw_pkt_query_copy){hw_get_u64(payload), hw_get_u64(payload + 2),
                                     hw_get_u64(payload + 4), payload[6], payload[7]};
}

/* Prints one packet (header at p, n dwords available) as text into buf.
 * Returns the packet's total dwords, or 0 if it is malformed (truncated,
 * unknown opcode, bad length). Used by the dump tool and fault reports. */
uint32_t hw_packet_format(const uint32_t *p, uint32_t n, char *buf, size_t buf_size);

#endif
