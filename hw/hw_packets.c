#include "hw_packets.h"

#include <stdio.h>

const struct hw_opcode_info hw_opcode_info[HW_OP_COUNT] = {
   [HW_OP_NOP] = {"NOP", 0, HW_PKT_MAX_PAYLOAD},
   [HW_OP_SEM_ACQUIRE] = {"SEM_ACQUIRE", HW_PKT_SEM_DWORDS, HW_PKT_SEM_DWORDS},
   [HW_OP_SEM_RELEASE] = {"SEM_RELEASE", HW_PKT_SEM_DWORDS, HW_PKT_SEM_DWORDS},
   [HW_OP_WAIT_FOR_IDLE] = {"WAIT_FOR_IDLE", 0, 0},
   [HW_OP_MEM_BARRIER] = {"MEM_BARRIER", 0, 0},
   [HW_OP_DMA_COPY] = {"DMA_COPY", HW_PKT_COPY_DWORDS, HW_PKT_COPY_DWORDS},
   [HW_OP_DMA_FILL] = {"DMA_FILL", HW_PKT_FILL_DWORDS, HW_PKT_FILL_DWORDS},
   [HW_OP_INLINE_WRITE] = {"INLINE_WRITE", HW_PKT_VA_DWORDS + 1, HW_PKT_MAX_PAYLOAD},
   [HW_OP_TIMESTAMP] = {"TIMESTAMP", HW_PKT_VA_DWORDS, HW_PKT_VA_DWORDS},
   [HW_OP_CALL] = {"CALL", HW_PKT_BRANCH_DWORDS, HW_PKT_BRANCH_DWORDS},
   [HW_OP_RETURN] = {"RETURN", 0, 0},
   [HW_OP_JUMP] = {"JUMP", HW_PKT_BRANCH_DWORDS, HW_PKT_BRANCH_DWORDS},
   [HW_OP_LINK_SLOT] = {"LINK_SLOT", HW_PKT_LINK_DWORDS, HW_PKT_LINK_DWORDS},
   [HW_OP_LABEL_PUSH] = {"LABEL_PUSH", 1, 256},
   [HW_OP_LABEL_POP] = {"LABEL_POP", 0, 0},
   [HW_OP_LABEL_INSERT] = {"LABEL_INSERT", 1, 256},
   [HW_OP_QUERY_COPY] = {"QUERY_COPY", HW_PKT_QUERY_COPY_DWORDS, HW_PKT_QUERY_COPY_DWORDS},
   [HW_OP_LAUNCH] = {"LAUNCH", HW_PKT_LAUNCH_DWORDS, HW_PKT_LAUNCH_DWORDS},
   [HW_OP_LAUNCH_INDIRECT] = {"LAUNCH_INDIRECT", HW_PKT_LAUNCH_INDIRECT_DWORDS,
                              HW_PKT_LAUNCH_INDIRECT_DWORDS},
   [HW_OP_LAUNCH_EMBEDDED] = {"LAUNCH_EMBEDDED", HW_LAUNCH_DESC_DWORDS, HW_PKT_MAX_PAYLOAD},
};

static const char *flag_text(uint32_t flags)
{
   switch (flags & (HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT)) {
   case HW_PKT_FLAG_WFI: return " wfi";
   case HW_PKT_FLAG_INTERRUPT: return " interrupt";
   case HW_PKT_FLAG_WFI | HW_PKT_FLAG_INTERRUPT: return " wfi interrupt";
   default: return "";
   }
}

static void format_label(const uint32_t *payload, uint32_t len, char *text, size_t size)
{
   size_t max = (size_t)len * 4;
   size_t n = strnlen((const char *)payload, max);
   if (n >= size)
      n = size - 1;
   memcpy(text, payload, n);
   text[n] = '\0';
}

/* Formats the payload of a packet whose length is known to be valid. */
static void format_payload(enum hw_opcode op, uint32_t flags, const uint32_t *pl, uint32_t len,
                           char *buf, size_t size)
{
   const char *name = hw_opcode_info[op].name;
   char text[256];
   switch (op) {
   case HW_OP_SEM_ACQUIRE:
   case HW_OP_SEM_RELEASE: {
      struct hw_pkt_sem s = hw_decode_sem(pl);
      snprintf(buf, size, "%s va=0x%llx value=%llu%s", name, (unsigned long long)s.va,
               (unsigned long long)s.value, flag_text(flags));
      break;
   }
   case HW_OP_DMA_COPY: {
      struct hw_pkt_copy c = hw_decode_copy(pl);
      snprintf(buf, size, "%s src=0x%llx dst=0x%llx size=%llu", name, (unsigned long long)c.src,
               (unsigned long long)c.dst, (unsigned long long)c.size);
      break;
   }
   case HW_OP_DMA_FILL: {
      struct hw_pkt_fill f = hw_decode_fill(pl);
      snprintf(buf, size, "%s dst=0x%llx size=%llu value=0x%08x", name, (unsigned long long)f.dst,
               (unsigned long long)f.size, f.value);
      break;
   }
   case HW_OP_INLINE_WRITE:
      snprintf(buf, size, "%s dst=0x%llx bytes=%u", name, (unsigned long long)hw_decode_va(pl).va,
               4 * (len - HW_PKT_VA_DWORDS));
      break;
   case HW_OP_TIMESTAMP:
      snprintf(buf, size, "%s va=0x%llx%s", name, (unsigned long long)hw_decode_va(pl).va,
               flag_text(flags));
      break;
   case HW_OP_CALL:
   case HW_OP_JUMP:
   case HW_OP_LINK_SLOT: {
      struct hw_pkt_branch b = hw_decode_branch(pl);
      if (op == HW_OP_LINK_SLOT && b.va <= HW_LINK_CLOSED)
         snprintf(buf, size, "%s %s", name, b.va == HW_LINK_OPEN ? "open" : "closed");
      else
         snprintf(buf, size, "%s va=0x%llx dwords=%u", name, (unsigned long long)b.va, b.length);
      break;
   }
   case HW_OP_LABEL_PUSH:
   case HW_OP_LABEL_INSERT:
      format_label(pl, len, text, sizeof(text));
      snprintf(buf, size, "%s \"%s\"", name, text);
      break;
   case HW_OP_LAUNCH:
   case HW_OP_LAUNCH_INDIRECT: {
      struct hw_pkt_launch l = hw_decode_launch(pl, len);
      if (op == HW_OP_LAUNCH)
         snprintf(buf, size, "%s desc=0x%llx", name, (unsigned long long)l.desc);
      else
         snprintf(buf, size, "%s desc=0x%llx grid=0x%llx", name, (unsigned long long)l.desc,
                  (unsigned long long)l.grid);
      break;
   }
   case HW_OP_LAUNCH_EMBEDDED: {
      struct hw_launch_desc d = hw_decode_launch_embedded(pl);
      snprintf(buf, size, "%s program=0x%llx id=%llu grid=%ux%ux%u base=%u,%u,%u cta=%ux%ux%u "
               "shared=%u private=%u registers=%u flags=0x%x root=0x%llx data=%u", name,
               (unsigned long long)d.program_va, (unsigned long long)d.program_id, d.grid[0],
               d.grid[1], d.grid[2], d.base[0], d.base[1], d.base[2], d.size[0], d.size[1],
               d.size[2], d.shared_bytes, d.private_bytes, d.register_count, d.flags,
               (unsigned long long)d.root_va, len - HW_LAUNCH_DESC_DWORDS);
      break;
   }
   case HW_OP_MEM_BARRIER:
      snprintf(buf, size, "%s%s", name, flag_text(flags));
      break;
   case HW_OP_QUERY_COPY: {
      struct hw_pkt_query_copy q = hw_decode_query_copy(pl);
      snprintf(buf, size, "%s src=0x%llx dst=0x%llx count=%u stride=%llu flags=0x%x", name,
               (unsigned long long)q.src, (unsigned long long)q.dst, q.count,
               (unsigned long long)q.stride, q.flags);
      break;
   }
   default:
      snprintf(buf, size, "%s%s", name, len ? " (payload ignored)" : "");
      break;
   }
}

uint32_t hw_packet_format(const uint32_t *p, uint32_t n, char *buf, size_t buf_size)
{
   if (n == 0) {
      snprintf(buf, buf_size, "(end of pushbuffer)");
      return 0;
   }
   uint32_t op = hw_pkt_opcode(p[0]), len = hw_pkt_length(p[0]);
   if (op >= HW_OP_COUNT || !hw_opcode_info[op].name) {
      snprintf(buf, buf_size, "INVALID header=0x%08x (unknown opcode %u)", p[0], op);
      return 0;
   }
   const struct hw_opcode_info *info = &hw_opcode_info[op];
   if (len < info->min_dwords || len > info->max_dwords) {
      snprintf(buf, buf_size, "INVALID %s header=0x%08x: payload of %u dwords, expected %u..%u",
               info->name, p[0], len, info->min_dwords, info->max_dwords);
      return 0;
   }
   if (1 + len > n) {
      snprintf(buf, buf_size, "INVALID %s header=0x%08x: %u payload dwords, %u left", info->name,
               p[0], len, n - 1);
      return 0;
   }
   format_payload((enum hw_opcode)op, hw_pkt_flags(p[0]), p + 1, len, buf, buf_size);
   return 1 + len;
}
