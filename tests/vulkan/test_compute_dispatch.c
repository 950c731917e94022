/*
 * Ways to launch compute work, each checked against C:
 * - indirect: a dispatch writes the VkDispatchIndirectCommand (at an
 *   offset that is not 16-aligned) that vkCmdDispatchIndirect then reads,
 *   behind a SHADER_WRITE -> INDIRECT_COMMAND_READ barrier; also a zero
 *   group count and host-written arguments;
 * - dispatch_base: vkCmdDispatchBase offsets gl_WorkGroupID and
 *   gl_GlobalInvocationID but not gl_NumWorkGroups (pipeline created with
 *   VK_PIPELINE_CREATE_DISPATCH_BASE_BIT);
 * - resubmit: one command buffer submitted five times (the host changes
 *   its input in between), and a SIMULTANEOUS_USE one three times in one
 *   vkQueueSubmit;
 * - secondary: dispatches in secondary command buffers executed by
 *   vkCmdExecuteCommands; compute state is not inherited, so every
 *   secondary binds its own, and the primary binds again afterwards;
 * - barrier_loop: 1000 one-workgroup dispatches, each reading what the
 *   previous one wrote, a buffer memory barrier between each two;
 * - root_extent: a pipeline whose layout has a set and a push constant,
 *   dispatched right after one whose layout has neither (so its dispatch
 *   snapshots none of the root table), with no binding or push between:
 *   it still sees its set and push constant.
 * Every invocation of ids.comp records its built-in IDs, so the exact set
 * of invocations a dispatch ran is checked, not only a count.
 */
#include <string.h>

#include "sgt_compute.h"

#define LX 4
#define LY 2
#define LZ 2
#define LSIZE (LX * LY * LZ)
#define REC_WORDS 16

/* Checks the records ids.comp wrote for a grid of count[] groups from base[]. */
static void check_ids(const char *what, const uint32_t *out, const uint32_t base[3],
                      const uint32_t count[3])
{
   uint32_t gx = count[0] * LX, gy = count[1] * LY, gz = count[2] * LZ;
   uint32_t total = gx * gy * gz;
   uint32_t n = out[0];
   SGT_CHECK(n == total, "%s: %u invocations ran, expected %u", what, n, total);
   if (n != total)
      return;
   uint8_t *seen = calloc(total ? total : 1, 1);
   uint32_t bad = 0;
   for (uint32_t s = 0; s < n && bad < 5; s++) {
      const uint32_t *r = out + 4 + s * REC_WORDS;
      const uint32_t *wg = r, *lid = r + 4, *gid = r + 8, *nwg = r + 12;
      bool ok = true;
      uint32_t ls[3] = {LX, LY, LZ};
      for (uint32_t c = 0; c < 3; c++) {
         ok &= gid[c] >= base[c] * ls[c] && gid[c] < (base[c] + count[c]) * ls[c];
         ok &= wg[c] == gid[c] / ls[c] && lid[c] == gid[c] % ls[c];
         ok &= nwg[c] == count[c];
      }
      ok &= r[3] == lid[0] + lid[1] * LX + lid[2] * LX * LY;   /* gl_LocalInvocationIndex */
      ok &= r[7] == 0xC0FFEEu;
      if (ok) {
         uint32_t x = gid[0] - base[0] * LX, y = gid[1] - base[1] * LY, z = gid[2] - base[2] * LZ;
         uint32_t flat = (z * gy + y) * gx + x;
         ok = !seen[flat];
         seen[flat] = 1;
      }
      if (!ok) {
         fprintf(stderr,
                 "   %s: record %u: group (%u,%u,%u) local (%u,%u,%u) index %u global (%u,%u,%u) "
                 "groups (%u,%u,%u)\n",
                 what, s, wg[0], wg[1], wg[2], lid[0], lid[1], lid[2], r[3], gid[0], gid[1],
                 gid[2], nwg[0], nwg[1], nwg[2]);
         bad++;
      }
   }
   SGT_CHECK(bad == 0, "%s: wrong or duplicate invocation records (grid base %u,%u,%u count "
             "%u,%u,%u)", what, base[0], base[1], base[2], count[0], count[1], count[2]);
   free(seen);
}

static void indirect(struct sgt_cdev *d)
{
   struct sgt_kernel make, ids;
   sgt_kernel_create(d, &make, SGT_SHADER("make_indirect"), 2, 4, NULL);
   sgt_kernel_create(d, &ids, SGT_SHADER("ids"), 1, 0, NULL);
   struct sgt_buffer params, args, out;
   sgt_cbuffer(d, 16, &params);
   sgt_cbuffer(d, 64, &args);
   const uint32_t max_groups = 64;
   sgt_cbuffer(d, 16 + (VkDeviceSize)max_groups * LSIZE * REC_WORDS * 4, &out);
   const struct sgt_buffer *mb[] = {&params, &args};
   const struct sgt_buffer *ib[] = {&out};
   sgt_kernel_bind(d, &make, mb);
   sgt_kernel_bind(d, &ids, ib);

   struct { uint32_t n, y, z; const char *what; } cases[] = {
      {100, 2, 3, "indirect dispatch of (7,2,3) written by a dispatch"},
      {0, 5, 5, "indirect dispatch of (0,5,5) written by a dispatch"},
      {16, 1, 1, "indirect dispatch of (1,1,1) written by a dispatch"},
   };
   const uint32_t word_offset = 3;   /* byte offset 12: 4-aligned, not 16 */
   for (uint32_t c = 0; c < 3; c++) {
      uint32_t *p = params.map, *a = args.map;
      p[0] = cases[c].n;
      p[1] = cases[c].y;
      p[2] = cases[c].z;
      /* Stale arguments a driver must not read. */
      for (uint32_t i = 0; i < 16; i++)
         a[i] = 2;
      memset(out.map, 0, out.size);
      VkCommandBuffer cmd = sgt_cmd_begin(d);
      sgt_kernel_dispatch(cmd, &make, &word_offset, 1, 1, 1);
      VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT,
                                  .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .buffer = args.buffer,
                                  .offset = 0,
                                  .size = VK_WHOLE_SIZE};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 0, NULL, 1, &bb, 0, NULL);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids.pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids.layout, 0, 1, &ids.set, 0,
                              NULL);
      vkCmdDispatchIndirect(cmd, args.buffer, word_offset * 4);
      sgt_cmd_submit_wait(d, cmd);
      uint32_t base[3] = {0, 0, 0};
      uint32_t count[3] = {(cases[c].n + 15) / 16, cases[c].y, cases[c].z};
      SGT_CHECK(a[word_offset] == count[0] && a[word_offset + 1] == count[1] &&
                a[word_offset + 2] == count[2], "make_indirect wrote (%u,%u,%u)", a[word_offset],
                a[word_offset + 1], a[word_offset + 2]);
      check_ids(cases[c].what, out.map, base, count);
   }

   /* Arguments written by the host: two commands in one buffer, at offsets
    * 0 and 16. */
   uint32_t *a = args.map;
   a[0] = 3, a[1] = 1, a[2] = 2;
   a[4] = 1, a[5] = 4, a[6] = 1;
   memset(out.map, 0, out.size);
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids.layout, 0, 1, &ids.set, 0, NULL);
   vkCmdDispatchIndirect(cmd, args.buffer, 0);
   sgt_cmd_submit_wait(d, cmd);
   check_ids("indirect dispatch of (3,1,2) written by the host", out.map, (uint32_t[3]){0, 0, 0},
             (uint32_t[3]){3, 1, 2});
   memset(out.map, 0, out.size);
   cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids.layout, 0, 1, &ids.set, 0, NULL);
   vkCmdDispatchIndirect(cmd, args.buffer, 16);
   sgt_cmd_submit_wait(d, cmd);
   check_ids("indirect dispatch of (1,4,1) at offset 16", out.map, (uint32_t[3]){0, 0, 0},
             (uint32_t[3]){1, 4, 1});

   sgt_cbuffer_destroy(d, &params);
   sgt_cbuffer_destroy(d, &args);
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &make);
   sgt_kernel_destroy(d, &ids);
}

static void dispatch_base(struct sgt_cdev *d)
{
   struct sgt_kernel ids;
   sgt_kernel_create(d, &ids, SGT_SHADER("ids"), 1, 0, NULL);
   VkPipeline base_pipe = sgt_compute_pipeline(d, ids.module, ids.layout, NULL,
                                               VK_PIPELINE_CREATE_DISPATCH_BASE_BIT, VK_NULL_HANDLE);
   struct sgt_buffer out;
   sgt_cbuffer(d, 16 + 64 * LSIZE * REC_WORDS * 4, &out);
   const struct sgt_buffer *ib[] = {&out};
   sgt_kernel_bind(d, &ids, ib);
   struct { uint32_t base[3], count[3]; bool flagged; } cases[] = {
      {{2, 1, 3}, {3, 2, 1}, true},
      {{0, 0, 0}, {2, 2, 2}, true},
      {{7, 0, 0}, {1, 1, 1}, true},
      {{0, 0, 0}, {3, 1, 2}, false},   /* zero base: any pipeline may be used */
   };
   for (uint32_t c = 0; c < 4; c++) {
      memset(out.map, 0, out.size);
      VkCommandBuffer cmd = sgt_cmd_begin(d);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                        cases[c].flagged ? base_pipe : ids.pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids.layout, 0, 1, &ids.set, 0,
                              NULL);
      vkCmdDispatchBase(cmd, cases[c].base[0], cases[c].base[1], cases[c].base[2],
                        cases[c].count[0], cases[c].count[1], cases[c].count[2]);
      sgt_cmd_submit_wait(d, cmd);
      char what[64];
      snprintf(what, sizeof(what), "vkCmdDispatchBase case %u", c);
      check_ids(what, out.map, cases[c].base, cases[c].count);
   }
   vkDestroyPipeline(d->device, base_pipe, NULL);
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &ids);
}

struct accum_push {
   uint32_t mul, k, n;
};

static void submit_fenced(struct sgt_cdev *d, uint32_t batch_count, const VkSubmitInfo *batches)
{
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence;
   SGT_CHECK_VK(vkCreateFence(d->device, &fi, NULL, &fence));
   SGT_CHECK_VK(vkQueueSubmit(d->queues[0], batch_count, batches, fence));
   SGT_CHECK_VK(vkWaitForFences(d->device, 1, &fence, VK_TRUE, UINT64_MAX));
   vkDestroyFence(d->device, fence, NULL);
}

static void resubmit(struct sgt_cdev *d)
{
   const uint32_t n = 1000;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("accumulate"), 2, 12, NULL);
   struct sgt_buffer x, y;
   sgt_cbuffer(d, n * 4, &x);
   sgt_cbuffer(d, n * 4, &y);
   const struct sgt_buffer *bufs[] = {&x, &y};
   sgt_kernel_bind(d, &k, bufs);
   uint32_t *xs = x.map, *ys = y.map;
   uint32_t *want = malloc(n * 4);
   for (uint32_t i = 0; i < n; i++)
      ys[i] = want[i] = i * 7;

   VkCommandBuffer cmd[2];
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = d->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 2};
   SGT_CHECK_VK(vkAllocateCommandBuffers(d->device, &ai, cmd));
   for (uint32_t c = 0; c < 2; c++) {
      VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = c ? VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT : 0};
      SGT_CHECK_VK(vkBeginCommandBuffer(cmd[c], &bi));
      /* Orders this execution after the previous ones (which wrote y). */
      sgt_compute_barrier(cmd[c]);
      struct accum_push push = {c ? 2 : 1, c ? 1 : 3, n};
      sgt_kernel_dispatch(cmd[c], &k, &push, (n + 63) / 64, 1, 1);
      sgt_host_barrier(cmd[c]);
      SGT_CHECK_VK(vkEndCommandBuffer(cmd[c]));
   }

   /* The same command buffer five times; the host changes x in between. */
   for (uint32_t s = 0; s < 5; s++) {
      for (uint32_t i = 0; i < n; i++) {
         xs[i] = i + s * 1000;
         want[i] += 3 * xs[i];
      }
      VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &cmd[0]};
      submit_fenced(d, 1, &si);
      char what[64];
      snprintf(what, sizeof(what), "submission %u of one command buffer", s + 1);
      if (!sgt_check_words(what, ys, want, n))
         break;
   }

   /* SIMULTANEOUS_USE: three times in one vkQueueSubmit, twice in one batch. */
   VkCommandBuffer twice[2] = {cmd[1], cmd[1]};
   VkSubmitInfo si[2] = {
      {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 2, .pCommandBuffers = twice},
      {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd[1]},
   };
   submit_fenced(d, 2, si);
   for (uint32_t i = 0; i < n; i++) {
      for (uint32_t r = 0; r < 3; r++)
         want[i] = want[i] * 2 + xs[i];
   }
   sgt_check_words("a SIMULTANEOUS_USE command buffer submitted three times at once", ys, want, n);

   vkFreeCommandBuffers(d->device, d->pool, 2, cmd);
   free(want);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &y);
   sgt_kernel_destroy(d, &k);
}

static void secondary(struct sgt_cdev *d)
{
   const uint32_t n = 777;
   struct sgt_kernel acc, scale;
   sgt_kernel_create(d, &acc, SGT_SHADER("accumulate"), 2, 12, NULL);
   sgt_kernel_create(d, &scale, SGT_SHADER("scale"), 2, 12, NULL);
   struct sgt_buffer x, y;
   sgt_cbuffer(d, n * 4, &x);
   sgt_cbuffer(d, n * 4, &y);
   const struct sgt_buffer *bufs[] = {&x, &y};
   sgt_kernel_bind(d, &acc, bufs);
   sgt_kernel_bind(d, &scale, bufs);
   uint32_t *xs = x.map, *ys = y.map;
   uint32_t *want = malloc(n * 4);
   for (uint32_t i = 0; i < n; i++) {
      xs[i] = i * 3 + 1;
      ys[i] = i;
   }

   VkCommandBuffer sec[2];
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = d->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                     .commandBufferCount = 2};
   SGT_CHECK_VK(vkAllocateCommandBuffers(d->device, &ai, sec));
   VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT,
                                  .pInheritanceInfo = &inh};
   /* sec[0]: y = y + 3x (executed twice); sec[1]: y = 2y + 1. Each binds
    * all the state it uses. */
   struct accum_push p3 = {1, 3, n}, pscale = {0, 0, n};
   SGT_CHECK_VK(vkBeginCommandBuffer(sec[0], &bi));
   sgt_kernel_dispatch(sec[0], &acc, &p3, (n + 63) / 64, 1, 1);
   SGT_CHECK_VK(vkEndCommandBuffer(sec[0]));
   SGT_CHECK_VK(vkBeginCommandBuffer(sec[1], &bi));
   sgt_kernel_dispatch(sec[1], &scale, &pscale, (n + 31) / 32, 1, 1);
   SGT_CHECK_VK(vkEndCommandBuffer(sec[1]));

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, &scale, &pscale, (n + 31) / 32, 1, 1);   /* y = 2y + 1 */
   sgt_compute_barrier(cmd);
   vkCmdExecuteCommands(cmd, 1, &sec[0]);                            /* y += 3x */
   sgt_compute_barrier(cmd);
   vkCmdExecuteCommands(cmd, 1, &sec[1]);                            /* y = 2y + 1 */
   sgt_compute_barrier(cmd);
   vkCmdExecuteCommands(cmd, 1, &sec[0]);                            /* y += 3x */
   sgt_compute_barrier(cmd);
   /* The primary's compute state is undefined after vkCmdExecuteCommands:
    * bind it all again. */
   struct accum_push ptriple = {3, 0, n};
   sgt_kernel_dispatch(cmd, &acc, &ptriple, (n + 63) / 64, 1, 1);     /* y = 3y */
   sgt_cmd_submit_wait(d, cmd);
   for (uint32_t i = 0; i < n; i++) {
      uint32_t v = i;
      v = 2 * v + 1;
      v += 3 * xs[i];
      v = 2 * v + 1;
      v += 3 * xs[i];
      want[i] = 3 * v;
   }
   sgt_check_words("secondary command buffers", ys, want, n);

   vkFreeCommandBuffers(d->device, d->pool, 2, sec);
   free(want);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &y);
   sgt_kernel_destroy(d, &acc);
   sgt_kernel_destroy(d, &scale);
}

static void barrier_loop(struct sgt_cdev *d)
{
   const uint32_t steps = 1000;
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("chain"), 1, 4, NULL);
   struct sgt_buffer buf;
   sgt_cbuffer(d, (VkDeviceSize)(steps + 1) * 32 * 4, &buf);
   const struct sgt_buffer *bufs[] = {&buf};
   sgt_kernel_bind(d, &k, bufs);
   uint32_t *v = buf.map;
   uint32_t *want = malloc((size_t)(steps + 1) * 32 * 4);
   for (uint32_t t = 0; t < 32; t++)
      v[t] = want[t] = t * 0x01010101u;
   for (uint32_t i = 1; i <= steps; i++) {
      for (uint32_t t = 0; t < 32; t++)
         want[i * 32 + t] = want[(i - 1) * 32 + (t + i) % 32] * 3 + i + t;
   }

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, NULL);
   for (uint32_t i = 1; i <= steps; i++) {
      vkCmdPushConstants(cmd, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &i);
      vkCmdDispatch(cmd, 1, 1, 1);
      VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
                                                   VK_ACCESS_SHADER_WRITE_BIT,
                                  .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .buffer = buf.buffer,
                                  .offset = 0,
                                  .size = VK_WHOLE_SIZE};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 1, &bb, 0, NULL);
   }
   sgt_cmd_submit_wait(d, cmd);
   /* Report the first step that went wrong, not just a word index. */
   for (uint32_t i = 0; i <= steps; i++) {
      if (memcmp(&v[i * 32], &want[i * 32], 32 * 4) != 0) {
         SGT_CHECK(false, "barrier loop: row %u (of %u dispatches) differs first", i, steps);
         sgt_check_words("barrier loop row", &v[i * 32], &want[i * 32], 32);
         break;
      }
   }
   free(want);
   sgt_cbuffer_destroy(d, &buf);
   sgt_kernel_destroy(d, &k);
}

/* A dispatch snapshots only the part of the root table its pipeline can
 * read; a later dispatch of a pipeline that reads more must not reuse that
 * snapshot, even with no binding or push in between. */
static void root_extent(struct sgt_cdev *d)
{
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("chain"), 1, 4, NULL);
   struct sgt_buffer buf;
   sgt_cbuffer(d, 2 * 32 * 4, &buf);
   const struct sgt_buffer *bufs[] = {&buf};
   sgt_kernel_bind(d, &k, bufs);
   VkShaderModule m = sgt_shader_module(d, SGT_SHADER("empty"));
   VkPipelineLayout none = sgt_pipeline_layout(d, 0, NULL, 0);
   VkPipeline empty = sgt_compute_pipeline(d, m, none, NULL, 0, VK_NULL_HANDLE);
   uint32_t *v = buf.map;
   for (uint32_t t = 0; t < 32; t++)
      v[t] = t;

   VkCommandBuffer cmd = sgt_cmd_begin(d);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, NULL);
   uint32_t i = 1;
   vkCmdPushConstants(cmd, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &i);
   /* "... binding a pipeline with a layout that is not compatible with the
    * push constant layout does not disturb the push constant values", nor
    * does it disturb bound descriptor sets: chain's set and push constant
    * are still there for its dispatch after the empty one. */
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, empty);
   vkCmdDispatch(cmd, 1, 1, 1);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
   vkCmdDispatch(cmd, 1, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   uint32_t want[32];
   for (uint32_t t = 0; t < 32; t++)
      want[t] = ((t + 1) % 32) * 3 + 1 + t;
   sgt_check_words("chain after a pipeline that reads no root table", &v[32], want, 32);
   sgt_cbuffer_destroy(d, &buf);
   vkDestroyPipeline(d->device, empty, NULL);
   vkDestroyPipelineLayout(d->device, none, NULL);
   vkDestroyShaderModule(d->device, m, NULL);
   sgt_kernel_destroy(d, &k);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      /* First: its command buffer gets fresh (zeroed) pushbuffer memory,
       * so a too short root table snapshot reads a set address of 0 and
       * faults, instead of stale words that earlier subtests left. */
      {"root_extent", root_extent},
      {"indirect", indirect},
      {"dispatch_base", dispatch_base},
      {"resubmit", resubmit},
      {"secondary", secondary},
      {"barrier_loop", barrier_loop},
   };
   return sgt_compute_main(argc, argv, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
