/*
 * test_packets: the packet contract of hw/include/hw_packets.h, no GPU involved.
 *
 * Pins down:
 * - the header layout (opcode:8 | flags:8 | length:16) and its accessors, for
 *   every opcode value and the edge flags/lengths;
 * - the wire format of every emitter (hw_emit_sem, _simple, _mem_barrier,
 *   _copy, _fill, _inline_write, _timestamp, _branch, _link_slot, _label,
 *   _query_copy, _launch, _launch_indirect, _launch_embedded):
 *   the exact dwords it writes (64-bit fields low dword first), the pointer
 *   it returns (just past the packet) and that it writes nothing beyond;
 * - that each decoder (hw_decode_*) returns what was emitted, for edge
 *   values: 0, all-ones, 64-bit values with the high half set;
 * - that hw_packet_format prints each packet as the exact text given here
 *   and returns its dword count, and that walking a pushbuffer with it finds
 *   every packet boundary;
 * - that hw_packet_format rejects malformed input with 0 and an "INVALID"
 *   text: unknown opcodes (every value the table does not name), payloads
 *   shorter or longer than the opcode allows, packets truncated by the end of
 *   the buffer, and an empty buffer; and that it never writes more than
 *   buf_size bytes;
 * - hw_emit_link_slot: one NOP of padding exactly when the link word would
 *   not be 8-byte aligned, the slot starting OPEN, and the text of an open,
 *   closed and linked slot;
 * - the hw_opcode_info bounds and HW_PKT_*_DWORDS against the layouts.
 */
#include <stddef.h>
#include <string.h>

#include "hwt.h"

#define CANARY 0xdeadbeefu
#define BUF_DWORDS (HW_PKT_MAX_PAYLOAD + 65u)   /* an even count: 8-byte multiple */

static uint32_t *buf;   /* BUF_DWORDS, 8-byte aligned */

static const uint64_t edge64[] = {
   0, 1, 0xffffffffull, 0x100000000ull, 0x8000000000000000ull, 0xfedcba9876543210ull,
   0xffffffff00000001ull, UINT64_MAX,
};
#define N_EDGE64 (sizeof(edge64) / sizeof(edge64[0]))

static const uint32_t edge32[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xa5c30f1eu, UINT32_MAX};
#define N_EDGE32 (sizeof(edge32) / sizeof(edge32[0]))

static void fill_canary(void)
{
   for (uint32_t i = 0; i < BUF_DWORDS; i++)
      buf[i] = CANARY;
}

/* Checks the emitted dwords against want[0..n), the returned end pointer,
 * and that the dwords after the packet are untouched. */
static void check_wire(const char *what, const uint32_t *end, const uint32_t *want, uint32_t n)
{
   HWT_CHECK(end == buf + n, "%s: emitter returned +%td, expected +%u", what, end - buf, n);
   for (uint32_t i = 0; i < n; i++)
      HWT_CHECK(buf[i] == want[i], "%s: dword %u is 0x%08x, expected 0x%08x", what, i, buf[i],
                want[i]);
   for (uint32_t i = n; i < n + 8; i++)
      HWT_CHECK(buf[i] == CANARY, "%s: dword %u past the packet was written", what, i);
}

/* Formats the packet at p, given exactly its dwords and then more room, and
 * checks the return value and the text. */
static void check_format(const char *what, const uint32_t *p, uint32_t dwords, const char *want)
{
   char text[2048];
   for (uint32_t extra = 0; extra <= 4; extra += 4) {
      memset(text, 'x', sizeof(text));
      uint32_t r = hw_packet_format(p, dwords + extra, text, sizeof(text));
      HWT_CHECK(r == dwords, "%s: hw_packet_format returned %u, expected %u", what, r, dwords);
      HWT_CHECK(strcmp(text, want) == 0, "%s: text \"%s\", expected \"%s\"", what, text, want);
   }
}

static void lo_hi(uint32_t *w, uint64_t v)
{
   w[0] = (uint32_t)(v & 0xffffffffu);
   w[1] = (uint32_t)(v >> 32);
}

static const char *flag_suffix(uint32_t flags)
{
   static const char *const s[] = {"", " wfi", " interrupt", " wfi interrupt"};
   return s[flags & 3];
}

/* ---- header -------------------------------------------------------------------- */

static void test_header(void)
{
   static const uint32_t flags[] = {0, 1, 2, 3, 0x80, 0xff};
   static const uint32_t lens[] = {0, 1, 4, 0x7fff, 0xfffe, 0xffff};
   for (uint32_t op = 0; op < 256; op++) {
      for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
         for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
            uint32_t h = HW_PKT_HEADER(op, flags[f], lens[l]);
            HWT_CHECK(h == ((op << 24) | (flags[f] << 16) | lens[l]), "header 0x%08x", h);
            HWT_CHECK(hw_pkt_opcode(h) == op && hw_pkt_flags(h) == flags[f] &&
                         hw_pkt_length(h) == lens[l],
                      "header 0x%08x decodes to %u/%u/%u, expected %u/%u/%u", h, hw_pkt_opcode(h),
                      hw_pkt_flags(h), hw_pkt_length(h), op, flags[f], lens[l]);
         }
      }
   }
   /* The length field is 16 bits: wider lengths are masked, never bleed
    * into the flags. */
   HWT_CHECK(HW_PKT_HEADER(HW_OP_NOP, 0, 0x1ffffu) == 0xffffu, "length masked to 16 bits");
   HWT_CHECK(HW_PKT_MAX_PAYLOAD == 0xffffu, "max payload");
   HWT_CHECK(hw_get_u64((const uint32_t[]){0x89abcdefu, 0x01234567u}) == 0x0123456789abcdefull,
             "hw_get_u64: low dword first");
   uint32_t w[2];
   hw_put_u64(w, 0xfedcba9876543210ull);
   HWT_CHECK(w[0] == 0x76543210u && w[1] == 0xfedcba98u, "hw_put_u64: low dword first");
}

static size_t layout_dwords(size_t end_offset)
{
   return end_offset / 4;
}

/* Opcodes this test knows to be named, filled by test_opcode_table. */
static bool named[256];

static void test_opcode_table(void)
{
   /* The payload sizes are the byte sizes of the layouts without C padding. */
   HWT_CHECK(HW_PKT_SEM_DWORDS == layout_dwords(offsetof(struct hw_pkt_sem, value) + 8), "sem");
   HWT_CHECK(HW_PKT_COPY_DWORDS == layout_dwords(offsetof(struct hw_pkt_copy, size) + 8), "copy");
   HWT_CHECK(HW_PKT_FILL_DWORDS == layout_dwords(offsetof(struct hw_pkt_fill, value) + 4), "fill");
   HWT_CHECK(HW_PKT_VA_DWORDS == layout_dwords(sizeof(struct hw_pkt_va)), "va");
   HWT_CHECK(HW_PKT_BRANCH_DWORDS == layout_dwords(offsetof(struct hw_pkt_branch, length) + 4),
             "branch");
   HWT_CHECK(HW_PKT_LINK_DWORDS == layout_dwords(offsetof(struct hw_pkt_link, length) + 4), "link");
   HWT_CHECK(HW_PKT_QUERY_COPY_DWORDS ==
                layout_dwords(offsetof(struct hw_pkt_query_copy, flags) + 4),
             "query copy");
   HWT_CHECK(sizeof(struct hw_ring_entry) == 16, "ring entry is 16 bytes");
   HWT_CHECK(sizeof(struct hw_query_slot) == 16, "query slot is 16 bytes");
   HWT_CHECK(offsetof(struct hw_channel_control, get) == 64 &&
                offsetof(struct hw_channel_control, park_va) == 128 &&
                sizeof(struct hw_channel_control) == 192,
             "PUT, GET and the status on their own cache lines");

   static const struct {
      enum hw_opcode op;
      const char *name;
      uint16_t min, max;
   } want[] = {
      {HW_OP_NOP, "NOP", 0, 0xffff},
      {HW_OP_SEM_ACQUIRE, "SEM_ACQUIRE", 4, 4},
      {HW_OP_SEM_RELEASE, "SEM_RELEASE", 4, 4},
      {HW_OP_WAIT_FOR_IDLE, "WAIT_FOR_IDLE", 0, 0},
      {HW_OP_MEM_BARRIER, "MEM_BARRIER", 0, 0},
      {HW_OP_DMA_COPY, "DMA_COPY", 6, 6},
      {HW_OP_DMA_FILL, "DMA_FILL", 5, 5},
      {HW_OP_INLINE_WRITE, "INLINE_WRITE", 3, 0xffff},
      {HW_OP_TIMESTAMP, "TIMESTAMP", 2, 2},
      {HW_OP_CALL, "CALL", 3, 3},
      {HW_OP_RETURN, "RETURN", 0, 0},
      {HW_OP_JUMP, "JUMP", 3, 3},
      {HW_OP_LINK_SLOT, "LINK_SLOT", 3, 3},
      {HW_OP_LABEL_PUSH, "LABEL_PUSH", 1, 256},
      {HW_OP_LABEL_POP, "LABEL_POP", 0, 0},
      {HW_OP_LABEL_INSERT, "LABEL_INSERT", 1, 256},
      {HW_OP_QUERY_COPY, "QUERY_COPY", 8, 8},
   };
   for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
      const struct hw_opcode_info *info = &hw_opcode_info[want[i].op];
      named[want[i].op] = true;
      HWT_REQUIRE(info->name, "opcode %u has no name", want[i].op);
      HWT_CHECK(strcmp(info->name, want[i].name) == 0 && info->min_dwords == want[i].min &&
                   info->max_dwords == want[i].max,
                "opcode %u: %s %u..%u, expected %s %u..%u", want[i].op, info->name,
                info->min_dwords, info->max_dwords, want[i].name, want[i].min, want[i].max);
   }
#ifdef HW_PKT_LAUNCH_DWORDS
   /* The execution units' packets, once hw_packets.h defines them. */
   HWT_CHECK(hw_opcode_info[HW_OP_LAUNCH].name &&
                strcmp(hw_opcode_info[HW_OP_LAUNCH].name, "LAUNCH") == 0 &&
                hw_opcode_info[HW_OP_LAUNCH].min_dwords == HW_PKT_LAUNCH_DWORDS &&
                hw_opcode_info[HW_OP_LAUNCH].max_dwords == HW_PKT_LAUNCH_DWORDS,
             "LAUNCH");
   HWT_CHECK(hw_opcode_info[HW_OP_LAUNCH_INDIRECT].name &&
                strcmp(hw_opcode_info[HW_OP_LAUNCH_INDIRECT].name, "LAUNCH_INDIRECT") == 0 &&
                hw_opcode_info[HW_OP_LAUNCH_INDIRECT].min_dwords == HW_PKT_LAUNCH_INDIRECT_DWORDS &&
                hw_opcode_info[HW_OP_LAUNCH_INDIRECT].max_dwords == HW_PKT_LAUNCH_INDIRECT_DWORDS,
             "LAUNCH_INDIRECT");
   HWT_CHECK(hw_opcode_info[HW_OP_LAUNCH_EMBEDDED].name &&
                strcmp(hw_opcode_info[HW_OP_LAUNCH_EMBEDDED].name, "LAUNCH_EMBEDDED") == 0 &&
                hw_opcode_info[HW_OP_LAUNCH_EMBEDDED].min_dwords == HW_LAUNCH_DESC_DWORDS &&
                hw_opcode_info[HW_OP_LAUNCH_EMBEDDED].max_dwords == HW_PKT_MAX_PAYLOAD,
             "LAUNCH_EMBEDDED");
   HWT_CHECK(HW_LAUNCH_DESC_DWORDS == layout_dwords(offsetof(struct hw_launch_desc, root_va) + 8),
             "launch descriptor");
   named[HW_OP_LAUNCH] = named[HW_OP_LAUNCH_INDIRECT] = named[HW_OP_LAUNCH_EMBEDDED] = true;
#endif
   /* Nothing else is named. */
   for (uint32_t op = 0; op < HW_OP_COUNT; op++)
      HWT_CHECK(named[op] == (hw_opcode_info[op].name != NULL), "opcode %u: named %s", op,
                hw_opcode_info[op].name ? hw_opcode_info[op].name : "(null)");
}

/* ---- emitters: wire format, decoders, text ---------------------------------- */

static void test_sem(void)
{
   static const enum hw_opcode ops[] = {HW_OP_SEM_ACQUIRE, HW_OP_SEM_RELEASE};
   static const uint32_t flags[] = {0, HW_PKT_FLAG_WFI, HW_PKT_FLAG_INTERRUPT,
                                    HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT, 0xff};
   for (size_t o = 0; o < 2; o++)
      for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
         for (size_t a = 0; a < N_EDGE64; a++)
            for (size_t b = 0; b < N_EDGE64; b++) {
               uint64_t va = edge64[a], value = edge64[N_EDGE64 - 1 - b];
               fill_canary();
               uint32_t *end = hw_emit_sem(buf, ops[o], flags[f], va, value);
               uint32_t want[5] = {((uint32_t)ops[o] << 24) | (flags[f] << 16) | 4};
               lo_hi(want + 1, va);
               lo_hi(want + 3, value);
               check_wire("sem", end, want, 5);
               struct hw_pkt_sem s = hw_decode_sem(buf + 1);
               HWT_CHECK(s.va == va && s.value == value, "hw_decode_sem");
               char text[256];
               snprintf(text, sizeof(text), "%s va=0x%llx value=%llu%s",
                        ops[o] == HW_OP_SEM_ACQUIRE ? "SEM_ACQUIRE" : "SEM_RELEASE",
                        (unsigned long long)va, (unsigned long long)value,
                        flag_suffix(flags[f]));
               check_format("sem", buf, 5, text);
            }
   /* One literal, to pin the text independently of the format strings. */
   hw_emit_sem(buf, HW_OP_SEM_RELEASE, HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT,
               0xffffffff00001000ull, 18446744073709551615ull);
   check_format("sem literal", buf, 5,
                "SEM_RELEASE va=0xffffffff00001000 value=18446744073709551615 wfi interrupt");
   hw_emit_sem(buf, HW_OP_SEM_ACQUIRE, 0, 0x2000, 0);
   check_format("acquire literal", buf, 5, "SEM_ACQUIRE va=0x2000 value=0");
}

static void test_simple(void)
{
   static const struct {
      enum hw_opcode op;
      const char *text;
   } simple[] = {
      {HW_OP_NOP, "NOP"},
      {HW_OP_WAIT_FOR_IDLE, "WAIT_FOR_IDLE"},
      {HW_OP_MEM_BARRIER, "MEM_BARRIER"},
      {HW_OP_RETURN, "RETURN"},
      {HW_OP_LABEL_POP, "LABEL_POP"},
   };
   for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++) {
      fill_canary();
      uint32_t *end = hw_emit_simple(buf, simple[i].op);
      uint32_t want[1] = {(uint32_t)simple[i].op << 24};
      check_wire(simple[i].text, end, want, 1);
      check_format(simple[i].text, buf, 1, simple[i].text);
   }
   /* MEM_BARRIER takes the WFI flag (and prints any). */
   for (uint32_t flags = 0; flags < 4; flags++) {
      fill_canary();
      uint32_t *end = hw_emit_mem_barrier(buf, flags);
      uint32_t want[1] = {HW_OP_MEM_BARRIER << 24 | flags << 16};
      check_wire("mem barrier", end, want, 1);
      char text[64];
      snprintf(text, sizeof(text), "MEM_BARRIER%s", flag_suffix(flags));
      check_format("mem barrier", buf, 1, text);
   }
   /* NOP may carry any payload, which is skipped. */
   static const uint32_t nop_lens[] = {1, 7, 0xffff};
   for (size_t i = 0; i < 3; i++) {
      fill_canary();
      buf[0] = HW_PKT_HEADER(HW_OP_NOP, 0, nop_lens[i]);
      check_format("NOP with payload", buf, 1 + nop_lens[i], "NOP (payload ignored)");
   }
}

static void test_copy_fill(void)
{
   for (size_t a = 0; a < N_EDGE64; a++)
      for (size_t b = 0; b < N_EDGE64; b++) {
         uint64_t src = edge64[a], dst = edge64[b], size = edge64[(a + b) % N_EDGE64];
         fill_canary();
         uint32_t *end = hw_emit_copy(buf, src, dst, size);
         uint32_t want[7] = {0x05000006u};
         lo_hi(want + 1, src);
         lo_hi(want + 3, dst);
         lo_hi(want + 5, size);
         check_wire("copy", end, want, 7);
         struct hw_pkt_copy c = hw_decode_copy(buf + 1);
         HWT_CHECK(c.src == src && c.dst == dst && c.size == size, "hw_decode_copy");
         char text[256];
         snprintf(text, sizeof(text), "DMA_COPY src=0x%llx dst=0x%llx size=%llu",
                  (unsigned long long)src, (unsigned long long)dst, (unsigned long long)size);
         check_format("copy", buf, 7, text);

         for (size_t v = 0; v < N_EDGE32; v++) {
            fill_canary();
            end = hw_emit_fill(buf, dst, size, edge32[v]);
            uint32_t wf[6] = {0x06000005u};
            lo_hi(wf + 1, dst);
            lo_hi(wf + 3, size);
            wf[5] = edge32[v];
            check_wire("fill", end, wf, 6);
            struct hw_pkt_fill f = hw_decode_fill(buf + 1);
            HWT_CHECK(f.dst == dst && f.size == size && f.value == edge32[v], "hw_decode_fill");
            snprintf(text, sizeof(text), "DMA_FILL dst=0x%llx size=%llu value=0x%08x",
                     (unsigned long long)dst, (unsigned long long)size, edge32[v]);
            check_format("fill", buf, 6, text);
         }
      }
   hw_emit_fill(buf, 0x10000, 4096, 0xff);
   check_format("fill literal", buf, 6, "DMA_FILL dst=0x10000 size=4096 value=0x000000ff");
   hw_emit_copy(buf, 0x1000, 0xfedcba9876543210ull, 0);
   check_format("copy literal", buf, 7, "DMA_COPY src=0x1000 dst=0xfedcba9876543210 size=0");
}

static void test_inline_write(void)
{
   static uint8_t data[HW_INLINE_WRITE_MAX_BYTES];
   for (uint32_t i = 0; i < sizeof(data); i++)
      data[i] = (uint8_t)(i * 131u + 7u);
   static const uint32_t sizes[] = {4, 8, 12, 1024, HW_INLINE_WRITE_MAX_BYTES};
   HWT_CHECK(HW_INLINE_WRITE_MAX_BYTES == 4u * 0xfffdu, "max inline write");
   for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
      for (size_t a = 0; a < N_EDGE64; a++) {
         uint32_t size = sizes[s], n = size / 4;
         fill_canary();
         uint32_t *end = hw_emit_inline_write(buf, edge64[a], data, size);
         HWT_CHECK(end == buf + 3 + n, "inline write of %u bytes: %td dwords", size, end - buf);
         HWT_CHECK(buf[0] == (0x07000000u | (2 + n)), "inline header 0x%08x", buf[0]);
         HWT_CHECK(hw_decode_va(buf + 1).va == edge64[a], "inline dst");
         HWT_CHECK(memcmp(buf + 3, data, size) == 0, "inline data of %u bytes", size);
         for (uint32_t i = 3 + n; i < 3 + n + 8; i++)
            HWT_CHECK(buf[i] == CANARY, "inline write of %u bytes overran at %u", size, i);
         char text[128];
         snprintf(text, sizeof(text), "INLINE_WRITE dst=0x%llx bytes=%u",
                  (unsigned long long)edge64[a], size);
         check_format("inline", buf, 3 + n, text);
      }
   /* Zero bytes is not a valid INLINE_WRITE: the payload is at least the
    * VA and one data dword. The emitter produces it; the format rejects it. */
   fill_canary();
   uint32_t *end = hw_emit_inline_write(buf, 0x1000, data, 0);
   HWT_CHECK(end == buf + 3, "empty inline write is the header and the VA");
   char text[256];
   HWT_CHECK(hw_packet_format(buf, 3, text, sizeof(text)) == 0 &&
                strcmp(text, "INVALID INLINE_WRITE header=0x07000002: payload of 2 dwords, "
                             "expected 3..65535") == 0,
             "empty inline write: \"%s\"", text);
}

static void test_timestamp_branch(void)
{
   for (size_t a = 0; a < N_EDGE64; a++) {
      for (uint32_t flags = 0; flags < 4; flags++) {
         fill_canary();
         uint32_t *end = hw_emit_timestamp(buf, flags, edge64[a]);
         uint32_t want[3] = {0x08000002u | (flags << 16)};
         lo_hi(want + 1, edge64[a]);
         check_wire("timestamp", end, want, 3);
         HWT_CHECK(hw_decode_va(buf + 1).va == edge64[a], "hw_decode_va");
         char text[128];
         snprintf(text, sizeof(text), "TIMESTAMP va=0x%llx%s", (unsigned long long)edge64[a],
                  flag_suffix(flags));
         check_format("timestamp", buf, 3, text);
      }
      for (size_t l = 0; l < N_EDGE32; l++)
         for (int j = 0; j < 2; j++) {
            enum hw_opcode op = j ? HW_OP_JUMP : HW_OP_CALL;
            fill_canary();
            uint32_t *end = hw_emit_branch(buf, op, edge64[a], edge32[l]);
            uint32_t want[4] = {((uint32_t)op << 24) | 3u};
            lo_hi(want + 1, edge64[a]);
            want[3] = edge32[l];
            check_wire("branch", end, want, 4);
            struct hw_pkt_branch b = hw_decode_branch(buf + 1);
            HWT_CHECK(b.va == edge64[a] && b.length == edge32[l], "hw_decode_branch");
            char text[128];
            snprintf(text, sizeof(text), "%s va=0x%llx dwords=%u", j ? "JUMP" : "CALL",
                     (unsigned long long)edge64[a], edge32[l]);
            check_format("branch", buf, 4, text);
         }
   }
   hw_emit_timestamp(buf, HW_PKT_FLAG_WFI, 0x3008);
   check_format("timestamp literal", buf, 3, "TIMESTAMP va=0x3008 wfi");
   hw_emit_branch(buf, HW_OP_CALL, 0x4000, 12);
   check_format("call literal", buf, 4, "CALL va=0x4000 dwords=12");
}

static void test_labels(void)
{
   static char long_text[2001];
   for (int i = 0; i < 2000; i++)
      long_text[i] = (char)('a' + i % 26);
   long_text[2000] = '\0';
   static const struct {
      const char *text;
      uint32_t dwords;   /* payload */
   } cases[] = {
      {NULL, 1}, {"", 1}, {"a", 1}, {"abc", 1}, {"abcd", 2}, {"dispatch: blur 3x3", 5},
   };
   for (int op = 0; op < 2; op++) {
      enum hw_opcode o = op ? HW_OP_LABEL_INSERT : HW_OP_LABEL_PUSH;
      const char *name = op ? "LABEL_INSERT" : "LABEL_PUSH";
      for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
         fill_canary();
         uint32_t *end = hw_emit_label(buf, o, cases[i].text);
         uint32_t n = cases[i].dwords;
         HWT_CHECK(end == buf + 1 + n, "label \"%s\": %td dwords", cases[i].text ? cases[i].text : "(null)",
                   end - buf);
         HWT_CHECK(buf[0] == (((uint32_t)o << 24) | n), "label header 0x%08x", buf[0]);
         const char *t = cases[i].text ? cases[i].text : "";
         /* The text, then NULs to the end of the payload. */
         const char *payload = (const char *)(buf + 1);
         HWT_CHECK(memcmp(payload, t, strlen(t)) == 0, "label text");
         for (size_t k = strlen(t); k < 4 * n; k++)
            HWT_CHECK(payload[k] == 0, "label padding byte %zu", k);
         HWT_CHECK(buf[1 + n] == CANARY, "label overran");
         char want[128];
         snprintf(want, sizeof(want), "%s \"%s\"", name, t);
         check_format("label", buf, 1 + n, want);
      }
      /* Longest: 1020 characters and a NUL dword, 256 payload dwords; longer
       * text is cut there. The format prints at most 255 characters. */
      for (int len = 1019; len <= 2000; len += 981) {
         char saved = long_text[len];
         long_text[len] = '\0';
         fill_canary();
         uint32_t *end = hw_emit_label(buf, o, long_text);
         uint32_t n = len >= 1020 ? 256 : (uint32_t)len / 4 + 1;
         HWT_CHECK(end == buf + 1 + n && hw_pkt_length(buf[0]) == n, "long label: %u dwords",
                   hw_pkt_length(buf[0]));
         uint32_t stored = len < 1020 ? (uint32_t)len : 1020;
         HWT_CHECK(strnlen((const char *)(buf + 1), 4 * n) == stored &&
                      memcmp(buf + 1, long_text, stored) == 0,
                   "long label stored text");
         char want[512];
         snprintf(want, sizeof(want), "%s \"%.255s\"", name, long_text);
         check_format("long label", buf, 1 + n, want);
         long_text[len] = saved;
      }
   }
   HWT_CHECK(HW_LABEL_MAX_DWORDS == 257, "label max");
}

static void test_query_copy(void)
{
   for (size_t a = 0; a < N_EDGE64; a++)
      for (size_t l = 0; l < N_EDGE32; l++) {
         struct hw_pkt_query_copy q = {
            .src = edge64[a],
            .dst = edge64[N_EDGE64 - 1 - a],
            .stride = edge64[(a + l) % N_EDGE64],
            .count = edge32[l],
            .flags = edge32[(l + 1) % N_EDGE32],
         };
         fill_canary();
         uint32_t *end = hw_emit_query_copy(buf, &q);
         uint32_t want[9] = {0x10000008u};
         lo_hi(want + 1, q.src);
         lo_hi(want + 3, q.dst);
         lo_hi(want + 5, q.stride);
         want[7] = q.count;
         want[8] = q.flags;
         check_wire("query copy", end, want, 9);
         struct hw_pkt_query_copy d = hw_decode_query_copy(buf + 1);
         HWT_CHECK(d.src == q.src && d.dst == q.dst && d.stride == q.stride &&
                      d.count == q.count && d.flags == q.flags,
                   "hw_decode_query_copy");
         char text[256];
         snprintf(text, sizeof(text), "QUERY_COPY src=0x%llx dst=0x%llx count=%u stride=%llu flags=0x%x",
                  (unsigned long long)q.src, (unsigned long long)q.dst, q.count,
                  (unsigned long long)q.stride, q.flags);
         check_format("query copy", buf, 9, text);
      }
   hw_emit_query_copy(buf, &(struct hw_pkt_query_copy){0x1000, 0x2000, 16, 3,
                                                      HW_QUERY_64 | HW_QUERY_WITH_AVAILABILITY});
   check_format("query literal", buf, 9,
                "QUERY_COPY src=0x1000 dst=0x2000 count=3 stride=16 flags=0x5");
}

#ifdef HW_PKT_LAUNCH_DWORDS
static void test_launch(void)
{
   for (size_t a = 0; a < N_EDGE64; a++) {
      uint64_t desc = edge64[a], grid = edge64[N_EDGE64 - 1 - a];
      fill_canary();
      uint32_t *end = hw_emit_launch(buf, desc);
      uint32_t want[5] = {0x20000002u};
      lo_hi(want + 1, desc);
      check_wire("launch", end, want, 3);
      HWT_CHECK(hw_decode_launch(buf + 1, 2).desc == desc, "hw_decode_launch");
      char text[128];
      snprintf(text, sizeof(text), "LAUNCH desc=0x%llx", (unsigned long long)desc);
      check_format("launch", buf, 3, text);
      fill_canary();
      end = hw_emit_launch_indirect(buf, desc, grid);
      want[0] = 0x21000004u;
      lo_hi(want + 3, grid);
      check_wire("launch indirect", end, want, 5);
      struct hw_pkt_launch l = hw_decode_launch(buf + 1, 4);
      HWT_CHECK(l.desc == desc && l.grid == grid, "hw_decode_launch indirect");
      snprintf(text, sizeof(text), "LAUNCH_INDIRECT desc=0x%llx grid=0x%llx",
               (unsigned long long)desc, (unsigned long long)grid);
      check_format("launch indirect", buf, 5, text);
   }
}

/* LAUNCH_EMBEDDED: the descriptor's bytes as the payload, then the data,
 * which the emitter leaves to the caller. */
static void test_launch_embedded(void)
{
   static const uint32_t data[] = {0, 1, 116, HW_LAUNCH_EMBEDDED_MAX_DATA};
   for (size_t a = 0; a < N_EDGE64; a++) {
      for (size_t k = 0; k < sizeof(data) / sizeof(data[0]); k++) {
         uint32_t e = edge32[a % N_EDGE32];
         struct hw_launch_desc d = {
            .program_va = edge64[a], .program_id = edge64[N_EDGE64 - 1 - a],
            .grid = {e, 2, 3}, .base = {4, e, 6}, .size = {7, 8, e},
            .shared_bytes = e ^ 1, .private_bytes = e ^ 2, .register_count = e ^ 3,
            .flags = e ^ 4, .root_va = edge64[(a + 3) % N_EDGE64]};
         fill_canary();
         uint32_t *at = hw_emit_launch_embedded(buf, &d, data[k]);
         HWT_CHECK(at == buf + 1 + HW_LAUNCH_DESC_DWORDS, "data starts after the descriptor");
         HWT_CHECK(buf[0] == (0x22000000u | (HW_LAUNCH_DESC_DWORDS + data[k])), "header 0x%08x",
                   buf[0]);
         uint32_t want[HW_LAUNCH_DESC_DWORDS];
         lo_hi(want, d.program_va);
         lo_hi(want + 2, d.program_id);
         memcpy(want + 4, d.grid, 12);
         memcpy(want + 7, d.base, 12);
         memcpy(want + 10, d.size, 12);
         want[13] = d.shared_bytes, want[14] = d.private_bytes, want[15] = d.register_count;
         want[16] = d.flags, want[17] = 0;
         lo_hi(want + 18, d.root_va);
         HWT_CHECK(memcmp(buf + 1, want, sizeof(want)) == 0, "descriptor dwords");
         HWT_CHECK(buf[1 + HW_LAUNCH_DESC_DWORDS] == CANARY, "the data is the caller's");
         struct hw_launch_desc back = hw_decode_launch_embedded(buf + 1);
         HWT_CHECK(memcmp(&back, &d, sizeof(d)) == 0, "hw_decode_launch_embedded");
         char text[512];
         snprintf(text, sizeof(text), "LAUNCH_EMBEDDED program=0x%llx id=%llu grid=%ux2x3 "
                  "base=4,%u,6 cta=7x8x%u shared=%u private=%u registers=%u flags=0x%x "
                  "root=0x%llx data=%u", (unsigned long long)d.program_va,
                  (unsigned long long)d.program_id, e, e, e, e ^ 1, e ^ 2, e ^ 3, e ^ 4,
                  (unsigned long long)d.root_va, data[k]);
         check_format("launch embedded", buf, 1 + HW_LAUNCH_DESC_DWORDS + data[k], text);
      }
   }
   /* A payload shorter than a descriptor is malformed. */
   buf[0] = HW_PKT_HEADER(HW_OP_LAUNCH_EMBEDDED, 0, HW_LAUNCH_DESC_DWORDS - 1);
   char text[256];
   HWT_CHECK(hw_packet_format(buf, BUF_DWORDS, text, sizeof(text)) == 0 &&
                strncmp(text, "INVALID LAUNCH_EMBEDDED", 23) == 0,
             "short LAUNCH_EMBEDDED: \"%s\"", text);
}
#endif

/* ---- link slots ------------------------------------------------------------------ */

static void test_link_slot(void)
{
   HWT_REQUIRE(((uintptr_t)buf & 7) == 0, "buffer alignment");
   for (uint32_t start = 0; start < 4; start++) {
      fill_canary();
      uint32_t *p = buf + start;
      uint32_t *end = hw_emit_link_slot(p);
      /* The link word (header + 1) must be 8-byte aligned: the header on an
       * odd dword, with one NOP before it when p is on an even one. */
      bool pad = ((start + 1) & 1) != 0;
      uint32_t *hdr = end - 1 - HW_PKT_LINK_DWORDS;
      HWT_CHECK(hdr == p + (pad ? 1 : 0), "start %u: slot header at +%td", start, hdr - p);
      HWT_CHECK(end - p == (pad ? 5 : 4) && (uint32_t)(end - p) <= HW_LINK_SLOT_MAX_DWORDS,
                "start %u: %td dwords", start, end - p);
      if (pad) {
         HWT_CHECK(p[0] == HW_PKT_HEADER(HW_OP_NOP, 0, 0), "padding NOP");
         check_format("padding", p, 1, "NOP");
      }
      HWT_CHECK(hdr[0] == 0x0c000003u && hdr[1] == 0 && hdr[2] == 0 && hdr[3] == 0,
                "slot dwords %08x %08x %08x %08x", hdr[0], hdr[1], hdr[2], hdr[3]);
      _Atomic uint64_t *word = hw_link_word(hdr);
      HWT_CHECK((void *)word == (void *)(hdr + 1) && ((uintptr_t)word & 7) == 0,
                "link word aligned after the header");
      HWT_CHECK(atomic_load(word) == HW_LINK_OPEN, "slot starts open");
      HWT_CHECK(end[0] == CANARY && (start == 0 || p[-1] == CANARY), "link slot overran");
      check_format("open slot", hdr, 4, "LINK_SLOT open");
      /* Walking from p finds the same packets. */
      char text[128];
      uint32_t n = hw_packet_format(p, (uint32_t)(end - p), text, sizeof(text));
      HWT_CHECK(n == (pad ? 1u : 4u), "walk from p: %u", n);

      atomic_store(word, HW_LINK_CLOSED);
      check_format("closed slot", hdr, 4, "LINK_SLOT closed");
      hdr[3] = 77;
      atomic_store(word, 0xffffffff00001000ull);
      check_format("linked slot", hdr, 4, "LINK_SLOT va=0xffffffff00001000 dwords=77");
      struct hw_pkt_branch b = hw_decode_branch(hdr + 1);   /* same layout as hw_pkt_link */
      HWT_CHECK(b.va == 0xffffffff00001000ull && b.length == 77, "link decodes as branch layout");
   }
}

/* ---- malformed input -------------------------------------------------------------- */

static void test_malformed(void)
{
   char text[512], want[512];
   /* Unknown opcodes: everything the table does not name. */
   uint32_t unknown = 0, want_unknown = 0;
   for (uint32_t op = 0; op < 256; op++) {
      want_unknown += !named[op];
      bool known = op < HW_OP_COUNT && hw_opcode_info[op].name;
      if (known)
         continue;
      unknown++;
      fill_canary();
      buf[0] = HW_PKT_HEADER(op, 0, 0);
      uint32_t r = hw_packet_format(buf, 8, text, sizeof(text));
      snprintf(want, sizeof(want), "INVALID header=0x%08x (unknown opcode %u)", buf[0], op);
      HWT_CHECK(r == 0 && strcmp(text, want) == 0, "opcode %u: %u \"%s\"", op, r, text);
   }
   HWT_CHECK(unknown == want_unknown && unknown >= 256 - 20, "%u unknown opcodes, expected %u",
             unknown, want_unknown);
   buf[0] = 0xc8000000u;
   hw_packet_format(buf, 1, text, sizeof(text));
   HWT_CHECK(strcmp(text, "INVALID header=0xc8000000 (unknown opcode 200)") == 0, "\"%s\"", text);

   /* Payload lengths outside the opcode's bounds, and truncation. */
   for (uint32_t op = 0; op < HW_OP_COUNT; op++) {
      const struct hw_opcode_info *info = &hw_opcode_info[op];
      if (!info->name)
         continue;
      uint32_t bad[2] = {info->min_dwords - 1u, info->max_dwords + 1u};
      for (int k = 0; k < 2; k++) {
         if ((k == 0 && info->min_dwords == 0) || (k == 1 && info->max_dwords == 0xffff))
            continue;
         fill_canary();
         buf[0] = HW_PKT_HEADER(op, 0, bad[k]);
         uint32_t r = hw_packet_format(buf, BUF_DWORDS, text, sizeof(text));
         snprintf(want, sizeof(want), "INVALID %s header=0x%08x: payload of %u dwords, expected %u..%u",
                  info->name, buf[0], bad[k], info->min_dwords, info->max_dwords);
         HWT_CHECK(r == 0 && strcmp(text, want) == 0, "%s len %u: %u \"%s\"", info->name, bad[k],
                   r, text);
      }
      if (info->min_dwords > 0) {
         fill_canary();
         buf[0] = HW_PKT_HEADER(op, 0, info->min_dwords);
         for (uint32_t avail = 1; avail <= info->min_dwords; avail++) {
            uint32_t r = hw_packet_format(buf, avail, text, sizeof(text));
            snprintf(want, sizeof(want), "INVALID %s header=0x%08x: %u payload dwords, %u left",
                     info->name, buf[0], info->min_dwords, avail - 1);
            HWT_CHECK(r == 0 && strcmp(text, want) == 0, "%s truncated to %u: %u \"%s\"",
                      info->name, avail, r, text);
         }
         HWT_CHECK(hw_packet_format(buf, info->min_dwords + 1, text, sizeof(text)) ==
                      info->min_dwords + 1u,
                   "%s complete", info->name);
      }
   }
   /* A big NOP truncated by the end of the buffer. */
   buf[0] = HW_PKT_HEADER(HW_OP_NOP, 0, 0xffff);
   HWT_CHECK(hw_packet_format(buf, 0xffff, text, sizeof(text)) == 0, "truncated NOP");
   /* Emitters used with the wrong opcode make malformed packets. */
   hw_emit_simple(buf, HW_OP_SEM_ACQUIRE);
   hw_packet_format(buf, 8, text, sizeof(text));
   HWT_CHECK(strcmp(text, "INVALID SEM_ACQUIRE header=0x01000000: payload of 0 dwords, expected 4..4") == 0,
             "\"%s\"", text);
   /* Nothing to format. */
   HWT_CHECK(hw_packet_format(buf, 0, text, sizeof(text)) == 0 &&
                strcmp(text, "(end of pushbuffer)") == 0,
             "empty: \"%s\"", text);
}

static void test_small_buffers(void)
{
   char text[64];
   hw_emit_sem(buf, HW_OP_SEM_RELEASE, 3, UINT64_MAX, UINT64_MAX);
   for (size_t size = 1; size < 40; size++) {
      memset(text, '#', sizeof(text));
      uint32_t r = hw_packet_format(buf, 5, text, size);
      HWT_CHECK(r == 5, "buffer of %zu: returned %u", size, r);
      HWT_CHECK(strlen(text) == size - 1, "buffer of %zu: text of %zu", size, strlen(text));
      for (size_t i = size; i < sizeof(text); i++)
         HWT_CHECK(text[i] == '#', "buffer of %zu: byte %zu written", size, i);
   }
   /* A zero-sized buffer is never written. */
   memset(text, '#', sizeof(text));
   HWT_CHECK(hw_packet_format(buf, 5, text, 0) == 5 && text[0] == '#', "zero-sized buffer");
   buf[0] = 0xff000000u;
   memset(text, '#', sizeof(text));
   HWT_CHECK(hw_packet_format(buf, 1, text, 5) == 0 && strcmp(text, "INVA") == 0 &&
                text[5] == '#',
             "malformed into a small buffer");
}

/* ---- a whole pushbuffer ------------------------------------------------------------ */

static void test_walk(void)
{
   fill_canary();
   uint32_t *p = buf;
   const char *want[32];
   int n = 0;
   p = hw_emit_label(p, HW_OP_LABEL_PUSH, "cmd 1");
   want[n++] = "LABEL_PUSH \"cmd 1\"";
   p = hw_emit_sem(p, HW_OP_SEM_ACQUIRE, 0, 0x1000, 5);
   want[n++] = "SEM_ACQUIRE va=0x1000 value=5";
   p = hw_emit_copy(p, 0x2000, 0x3000, 64);
   want[n++] = "DMA_COPY src=0x2000 dst=0x3000 size=64";
   p = hw_emit_fill(p, 0x3000, 64, 0xabcdef01u);
   want[n++] = "DMA_FILL dst=0x3000 size=64 value=0xabcdef01";
   uint32_t data[3] = {1, 2, 3};
   p = hw_emit_inline_write(p, 0x4000, data, sizeof(data));
   want[n++] = "INLINE_WRITE dst=0x4000 bytes=12";
   p = hw_emit_simple(p, HW_OP_WAIT_FOR_IDLE);
   want[n++] = "WAIT_FOR_IDLE";
   p = hw_emit_timestamp(p, HW_PKT_FLAG_WFI, 0x5000);
   want[n++] = "TIMESTAMP va=0x5000 wfi";
   p = hw_emit_branch(p, HW_OP_CALL, 0x6000, 10);
   want[n++] = "CALL va=0x6000 dwords=10";
   p = hw_emit_simple(p, HW_OP_MEM_BARRIER);
   want[n++] = "MEM_BARRIER";
   p = hw_emit_query_copy(p, &(struct hw_pkt_query_copy){0x7000, 0x8000, 8, 2, HW_QUERY_WAIT});
   want[n++] = "QUERY_COPY src=0x7000 dst=0x8000 count=2 stride=8 flags=0x2";
   p = hw_emit_simple(p, HW_OP_LABEL_POP);
   want[n++] = "LABEL_POP";
   p = hw_emit_sem(p, HW_OP_SEM_RELEASE, HW_PKT_FLAG_INTERRUPT, 0x1008, 6);
   want[n++] = "SEM_RELEASE va=0x1008 value=6 interrupt";
   bool pad = (((uintptr_t)(p + 1)) & 7) != 0;
   if (pad)
      want[n++] = "NOP";
   p = hw_emit_link_slot(p);
   want[n++] = "LINK_SLOT open";
   p = hw_emit_simple(p, HW_OP_RETURN);
   want[n++] = "RETURN";
   p = hw_emit_branch(p, HW_OP_JUMP, 0x9000, 4);
   want[n++] = "JUMP va=0x9000 dwords=4";

   uint32_t total = (uint32_t)(p - buf), pos = 0;
   int k = 0;
   char text[256];
   while (pos < total) {
      uint32_t len = hw_packet_format(buf + pos, total - pos, text, sizeof(text));
      HWT_REQUIRE(len > 0, "walk: malformed at dword %u: %s", pos, text);
      HWT_REQUIRE(k < n, "walk: more packets than emitted");
      HWT_CHECK(strcmp(text, want[k]) == 0, "walk packet %d: \"%s\", expected \"%s\"", k, text,
                want[k]);
      pos += len;
      k++;
   }
   HWT_CHECK(k == n && pos == total, "walk found %d packets over %u dwords, expected %d over %u",
             k, pos, n, total);
}

int main(void)
{
   buf = aligned_alloc(8, BUF_DWORDS * 4u);
   HWT_REQUIRE(buf, "out of memory");
   HWT_RUN(test_header);
   HWT_RUN(test_opcode_table);
   HWT_RUN(test_sem);
   HWT_RUN(test_simple);
   HWT_RUN(test_copy_fill);
   HWT_RUN(test_inline_write);
   HWT_RUN(test_timestamp_branch);
   HWT_RUN(test_labels);
   HWT_RUN(test_query_copy);
#ifdef HW_PKT_LAUNCH_DWORDS
   HWT_RUN(test_launch);
   HWT_RUN(test_launch_embedded);
#endif
   HWT_RUN(test_link_slot);
   HWT_RUN(test_malformed);
   HWT_RUN(test_small_buffers);
   HWT_RUN(test_walk);
   free(buf);
   return hwt_finish();
}
