/*
 * robustBufferAccess (required of every Vulkan implementation, so enabled
 * and never skipped). One VkDeviceMemory holds, in order: buffer A (a
 * storage descriptor covers 256 of its bytes, from offset 256), buffer A2
 * (a dynamic storage descriptor covers 128 bytes: base 0 + dynamic offset
 * 256), and a sentinel buffer no descriptor names. A uniform buffer has a
 * 64-byte descriptor under a 256-byte block. One submission reads in and
 * out of range, then writes in range; a second one writes and runs atomics
 * out of range only.
 *
 * What Vulkan requires ("Robust Buffer Access" under "Shader Resource
 * Interfaces" / the robustBufferAccess feature): out-of-range reads return
 * zero or values from the memory bound to the same buffer; out-of-range
 * writes and atomics may modify only memory bound to the same buffer. So
 * the sentinel buffer must be untouched, A2 may hold only its own values
 * or A2's out-of-range values, in-range writes must land, and
 * runtime-array lengths come from the descriptor ranges.
 *
 * What softgpu promises beyond that (shared/design.md, "GPU memory": the
 * per-descriptor {VA, range} rules, reads return zero, writes are
 * dropped), checked only when the driver is softgpu: every out-of-range
 * read is 0 and no byte outside a descriptor's range changes, tail of the
 * same buffer included.
 */
#include <string.h>

#include "sgt_compute.h"

#define A_SIZE 1024u
#define S_OFFSET 256u   /* the storage descriptor's range: [256, 512) of A */
#define S_RANGE 256u
#define D_BASE 0u       /* the dynamic descriptor: base 0, dynamic offset 256, 128 bytes */
#define D_DYN 256u
#define D_RANGE 128u
#define U_SIZE 256u
#define U_RANGE 64u

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
   return (v + a - 1) / a * a;
}

static VkBuffer make_buffer(struct sgt_cdev *d, VkDeviceSize size, VkMemoryRequirements *req)
{
   VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = size,
                            .usage = SGT_BUFFER_USAGE_ALL};
   VkBuffer b;
   SGT_CHECK_VK(vkCreateBuffer(d->device, &bi, NULL, &b));
   vkGetBufferMemoryRequirements(d->device, b, req);
   return b;
}

/* Is v zero or a word found in mem[0, words)? */
static bool zero_or_in(uint32_t v, const uint32_t *mem, uint32_t words)
{
   if (v == 0)
      return true;
   for (uint32_t i = 0; i < words; i++) {
      if (mem[i] == v)
         return true;
   }
   return false;
}

/* After reads (mode 0) and in-range writes (mode 2). */
static void check_reads_and_writes(struct sgt_cdev *d, const uint32_t *o, const uint32_t *orig,
                                   const uint32_t *m, const uint32_t *u, uint32_t uwords,
                                   VkDeviceSize off_a, VkDeviceSize off_a2, VkDeviceSize off_s)
{
   const uint32_t s0 = S_OFFSET / 4, d0 = (D_BASE + D_DYN) / 4;
   const uint32_t *oa = orig + off_a / 4, *oa2 = orig + off_a2 / 4;
   const uint32_t a_words = (uint32_t)((off_a2 - off_a) / 4);   /* A's range and padding */
   const uint32_t a2_words = (uint32_t)((off_s - off_a2) / 4);
   /* In-range reads (mode 0 ran before any write). */
   for (uint32_t i = 0; i < 64; i++)
      SGT_CHECK(o[i] == oa[s0 + i], "in-range read s[%u] = 0x%x, expected 0x%x", i, o[i],
                oa[s0 + i]);
   for (uint32_t i = 0; i < 16; i++)
      SGT_CHECK(o[128 + i] == u[i], "in-range uniform read %u = 0x%x, expected 0x%x", i,
                o[128 + i], u[i]);
   for (uint32_t i = 0; i < 32; i++)
      SGT_CHECK(o[192 + i] == oa2[d0 + i], "in-range dynamic read d[%u] = 0x%x, expected 0x%x", i,
                o[192 + i], oa2[d0 + i]);
   SGT_CHECK(o[256] == S_RANGE / 4, "s.length() is %u, expected %u", o[256], S_RANGE / 4);
   SGT_CHECK(o[257] == D_RANGE / 4, "d.length() is %u, expected %u", o[257], D_RANGE / 4);
   /* Out-of-range reads: zero or a value of the same buffer's memory. */
   for (uint32_t i = 64; i < 128; i++)
      SGT_CHECK(zero_or_in(o[i], oa, a_words),
                "out-of-range read s[%u] = 0x%x: neither 0 nor from buffer A", i, o[i]);
   for (uint32_t i = 16; i < 64; i++)
      SGT_CHECK(zero_or_in(o[128 + i], u, uwords),
                "out-of-range uniform read %u = 0x%x: neither 0 nor from the buffer", i,
                o[128 + i]);
   for (uint32_t i = 32; i < 64; i++)
      SGT_CHECK(zero_or_in(o[192 + i], oa2, a2_words),
                "out-of-range dynamic read d[%u] = 0x%x: neither 0 nor from buffer A2", i,
                o[192 + i]);
   /* In-range writes landed, nothing else moved (no write was out of range). */
   uint32_t bad = 0;
   for (uint32_t i = 0; i < (uint32_t)((off_s - off_a) / 4); i++) {
      uint32_t want = orig[off_a / 4 + i];
      uint32_t a_i = i, a2_i = i - (uint32_t)((off_a2 - off_a) / 4);
      if (i < a_words && a_i >= s0 && a_i < s0 + 64)
         want = 0x5000 + (a_i - s0);
      else if (i >= a_words && a2_i >= d0 && a2_i < d0 + 32)
         want = 0x6000 + (a2_i - d0);
      if (m[off_a / 4 + i] != want && bad++ < 5)
         fprintf(stderr, "   after in-range writes: byte %u of the allocation is 0x%x, "
                 "expected 0x%x\n", (uint32_t)(off_a + i * 4), m[off_a / 4 + i], want);
   }
   SGT_CHECK(bad == 0, "%u words wrong after in-range writes", bad);

   if (d->is_softgpu) {
      /* softgpu's own promise: out-of-range reads are zero. */
      for (uint32_t i = 64; i < 128; i++)
         SGT_CHECK(o[i] == 0, "softgpu: out-of-range read s[%u] = 0x%x, not 0", i, o[i]);
      for (uint32_t i = 16; i < 64; i++)
         SGT_CHECK(o[128 + i] == 0, "softgpu: out-of-range uniform read %u = 0x%x", i, o[128 + i]);
      for (uint32_t i = 32; i < 64; i++)
         SGT_CHECK(o[192 + i] == 0, "softgpu: out-of-range read d[%u] = 0x%x", i, o[192 + i]);
   }
}

/* After out-of-range writes and atomics only (mode 1); `before` is the
 * allocation as it was before them. */
static void check_escapes(struct sgt_cdev *d, const uint32_t *before, const uint32_t *m,
                          uint32_t words, VkDeviceSize off_a2, VkDeviceSize off_s,
                          VkDeviceSize sentinel_size)
{
   /* The sentinel is untouched; A2 holds only its own values. */
   uint32_t bad = 0;
   for (uint32_t i = (uint32_t)(off_s / 4); i < (uint32_t)((off_s + sentinel_size) / 4); i++)
      bad += m[i] != before[i];
   SGT_CHECK(bad == 0, "%u words of the sentinel buffer changed: an out-of-range write escaped "
             "its buffer", bad);
   bad = 0;
   for (uint32_t i = (uint32_t)(off_a2 / 4); i < (uint32_t)(off_s / 4); i++)
      bad += m[i] != before[i] && (m[i] >> 16) != 0xBAD2;
   SGT_CHECK(bad == 0, "%u words of buffer A2 hold values written out of range of A", bad);

   if (d->is_softgpu) {
      /* softgpu's own promise: out-of-range writes are dropped, even those
       * that would land inside the same buffer or another range. */
      bad = 0;
      for (uint32_t i = 0; i < words; i++) {
         if (m[i] != before[i] && bad++ < 5)
            fprintf(stderr, "   softgpu: byte %u of the allocation is 0x%x, was 0x%x\n", i * 4,
                    m[i], before[i]);
      }
      SGT_CHECK(bad == 0, "softgpu: %u words changed by out-of-range writes", bad);
   }
}

static void robust(struct sgt_cdev *d)
{
   if (!d->robust_buffer_access)
      return;   /* reported at device creation: a failure, or a skip when hidden */
   SGT_REQUIRE(d->props.limits.minStorageBufferOffsetAlignment <= 256,
               "minStorageBufferOffsetAlignment above 256");

   /* One allocation: A, A2, sentinel, each at its required alignment. */
   VkMemoryRequirements ra, ra2, rs, ru;
   VkBuffer a = make_buffer(d, A_SIZE, &ra);
   VkBuffer a2 = make_buffer(d, A_SIZE, &ra2);
   VkBuffer sen = make_buffer(d, A_SIZE, &rs);
   VkBuffer ub = make_buffer(d, U_SIZE, &ru);
   VkDeviceSize off_a = 0;
   VkDeviceSize off_a2 = align_up(off_a + ra.size, ra2.alignment);
   VkDeviceSize off_s = align_up(off_a2 + ra2.size, rs.alignment);
   VkDeviceSize total = off_s + rs.size;
   uint32_t bits = ra.memoryTypeBits & ra2.memoryTypeBits & rs.memoryTypeBits & ru.memoryTypeBits;
   SGT_REQUIRE(bits & (1u << d->host_memory_type), "no host-visible memory for the buffers");
   VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .allocationSize = total,
                              .memoryTypeIndex = d->host_memory_type};
   VkDeviceMemory mem, umem;
   SGT_CHECK_VK(vkAllocateMemory(d->device, &ai, NULL, &mem));
   ai.allocationSize = ru.size;
   SGT_CHECK_VK(vkAllocateMemory(d->device, &ai, NULL, &umem));
   SGT_CHECK_VK(vkBindBufferMemory(d->device, a, mem, off_a));
   SGT_CHECK_VK(vkBindBufferMemory(d->device, a2, mem, off_a2));
   SGT_CHECK_VK(vkBindBufferMemory(d->device, sen, mem, off_s));
   SGT_CHECK_VK(vkBindBufferMemory(d->device, ub, umem, 0));
   void *map, *umap;
   SGT_CHECK_VK(vkMapMemory(d->device, mem, 0, VK_WHOLE_SIZE, 0, &map));
   SGT_CHECK_VK(vkMapMemory(d->device, umem, 0, VK_WHOLE_SIZE, 0, &umap));

   /* Every word of the allocation gets a value of its own. */
   uint32_t *m = map, words = (uint32_t)(total / 4);
   for (uint32_t i = 0; i < words; i++)
      m[i] = 0x70000000u + i;
   uint32_t *u = umap, uwords = (uint32_t)(ru.size / 4);
   for (uint32_t i = 0; i < uwords; i++)
      u[i] = 0x30000000u + i;
   uint32_t *orig = malloc(total);
   memcpy(orig, m, total);

   struct sgt_buffer out;
   sgt_cbuffer(d, 4096, &out);

   VkDescriptorSetLayoutBinding b[4] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
      {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
      {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
      {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                         .bindingCount = 4,
                                         .pBindings = b};
   VkDescriptorSetLayout sl;
   SGT_CHECK_VK(vkCreateDescriptorSetLayout(d->device, &li, NULL, &sl));
   VkPipelineLayout layout = sgt_pipeline_layout(d, 1, &sl, 4);
   VkShaderModule sm = sgt_shader_module(d, SGT_SHADER("robust"));
   VkPipeline pipe = sgt_compute_pipeline(d, sm, layout, NULL, 0, VK_NULL_HANDLE);
   VkDescriptorPool pool = sgt_descriptor_pool(d, 1, 0);
   VkDescriptorSet set = sgt_alloc_set(d, pool, sl);
   VkDescriptorBufferInfo infos[4] = {
      {a, S_OFFSET, S_RANGE},
      {ub, 0, U_RANGE},
      {a2, D_BASE, D_RANGE},
      {out.buffer, 0, VK_WHOLE_SIZE},
   };
   for (uint32_t i = 0; i < 4; i++) {
      VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                .dstSet = set,
                                .dstBinding = i,
                                .descriptorCount = 1,
                                .descriptorType = b[i].descriptorType,
                                .pBufferInfo = &infos[i]};
      vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
   }

   /* Submission 1: reads (mode 0), then in-range writes (mode 2);
    * submission 2: out-of-range writes and atomics (mode 1), so that what
    * they may and may not change is seen on its own. */
   uint32_t dyn = D_DYN;
   for (uint32_t sub = 0; sub < 2; sub++) {
      VkCommandBuffer cmd = sgt_cmd_begin(d);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 1, &dyn);
      static const uint32_t modes[2][2] = {{0, 2}, {1, UINT32_MAX}};
      for (uint32_t k = 0; k < 2 && modes[sub][k] != UINT32_MAX; k++) {
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &modes[sub][k]);
         vkCmdDispatch(cmd, 2, 1, 1);
         sgt_compute_barrier(cmd);
      }
      sgt_cmd_submit_wait(d, cmd);
      if (sub == 0)
         check_reads_and_writes(d, out.map, orig, m, u, uwords, off_a, off_a2, off_s);
      else
         check_escapes(d, orig, m, words, off_a2, off_s, rs.size);
      memcpy(orig, m, total);   /* what the next submission starts from */
   }

   free(orig);
   vkDestroyPipeline(d->device, pipe, NULL);
   vkDestroyShaderModule(d->device, sm, NULL);
   vkDestroyPipelineLayout(d->device, layout, NULL);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   vkDestroyDescriptorSetLayout(d->device, sl, NULL);
   sgt_cbuffer_destroy(d, &out);
   vkDestroyBuffer(d->device, a, NULL);
   vkDestroyBuffer(d->device, a2, NULL);
   vkDestroyBuffer(d->device, sen, NULL);
   vkDestroyBuffer(d->device, ub, NULL);
   vkFreeMemory(d->device, mem, NULL);
   vkFreeMemory(d->device, umem, NULL);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"robust", robust},
   };
   const struct sgt_compute_options opts = {.robust_buffer_access = true};
   return sgt_compute_main(argc, argv, &opts, tests, sizeof(tests) / sizeof(tests[0]));
}
