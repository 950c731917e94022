/*
 * Timestamps measure GPU work.
 *
 * Pins down: two timestamps written around a 256 MiB DMA copy (TOP_OF_PIPE
 * before, TRANSFER after, i.e. once the copy is done) differ by at least a
 * tenth of the time the host needs for the same memcpy, measured in this
 * process (between the same mapped buffers); the results agree through
 * vkGetQueryPoolResults (WAIT, 64-bit, WITH_AVAILABILITY) and
 * vkCmdCopyQueryPoolResults (same flags), with availability 1; the
 * timestamps lie between the host's clock readings before the submit and
 * after the fence (GPU time is CLOCK_MONOTONIC in nanoseconds:
 * timestampPeriod is 1 and every family has 64 valid bits); and every byte
 * of the copy arrives. Run on a compute queue and (except under TSan) on a
 * transfer queue (which resets and reads queries only through the host).
 */
#include <string.h>

#include "sgt_sync.h"
#include "sg_sanitize.h"

#define COPY_BYTES (256ull << 20)

/* A host memcpy of COPY_BYTES between the same two mapped buffers the GPU
 * copies (both already touched, so no page faults are timed). */
static uint64_t host_memcpy_ns(struct sgt_buffer *src, struct sgt_buffer *dst)
{
   /* Through a volatile pointer: the compiler may not elide the copy. */
   void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;
   memset(dst->map, 0, COPY_BYTES);
   uint64_t t0 = sgt_now_ns();
   copy_fn(dst->map, src->map, COPY_BYTES);
   uint64_t dt = sgt_now_ns() - t0;
   SGT_REQUIRE(memcmp(dst->map, src->map, 4096) == 0, "the host memcpy did not copy");
   return dt;
}

struct result {
   uint64_t value, available;
};

static void run(struct sgt_device *d, uint32_t family, uint32_t index, struct sgt_buffer *src,
                struct sgt_buffer *dst, uint64_t host_ns)
{
   memset(dst->map, 0, COPY_BYTES);
   VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                               .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2};
   VkQueryPool pool;
   SGT_CHECK_VK(vkCreateQueryPool(d->device, &qi, NULL, &pool));
   struct sgt_buffer res;
   sgt_buffer_create(d, 4 * sizeof(struct result), &res);
   memset(res.map, 0xff, 4 * sizeof(struct result));
   const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
                                    VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;

   bool gpu_copy = family == 0;   /* transfer-only queues cannot reset or copy queries */
   if (!gpu_copy)
      vkResetQueryPool(d->device, pool, 0, 2);
   VkCommandBuffer cmd = sgt_begin(d, family, true);
   if (gpu_copy)
      vkCmdResetQueryPool(cmd, pool, 0, 2);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
   VkBufferCopy region = {.size = COPY_BYTES};
   vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
   vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, pool, 1);
   if (gpu_copy)
      vkCmdCopyQueryPoolResults(cmd, pool, 0, 2, res.buffer, 0, sizeof(struct result), flags);
   sgt_barrier_to_host(cmd);
   uint64_t before = sgt_now_ns();
   sgt_end_submit_wait(d, d->queues[family][index], family, cmd);
   uint64_t after = sgt_now_ns();

   struct result host[2];
   SGT_CHECK_VK(vkGetQueryPoolResults(d->device, pool, 0, 2, sizeof(host), host, sizeof(host[0]),
                                      flags));
   const struct result *gpu = res.map;
   for (uint32_t i = 0; i < 2; i++) {
      SGT_CHECK(host[i].available == 1, "queue %u.%u: query %u availability %llu", family, index,
                i, (unsigned long long)host[i].available);
      if (gpu_copy)
         SGT_CHECK(gpu[i].value == host[i].value && gpu[i].available == host[i].available,
                   "queue %u.%u: query %u: vkCmdCopyQueryPoolResults gave %llu/%llu, "
                   "vkGetQueryPoolResults %llu/%llu", family, index, i,
                   (unsigned long long)gpu[i].value, (unsigned long long)gpu[i].available,
                   (unsigned long long)host[i].value, (unsigned long long)host[i].available);
   }
   uint64_t t0 = host[0].value, t1 = host[1].value;
   SGT_CHECK(t0 >= before && t1 <= after, "queue %u.%u: timestamps %llu, %llu outside the host's "
             "[%llu, %llu]", family, index, (unsigned long long)t0, (unsigned long long)t1,
             (unsigned long long)before, (unsigned long long)after);
   SGT_CHECK(t1 > t0 && t1 - t0 >= host_ns / 10,
             "queue %u.%u: the copy took %llu ns by its timestamps; the host's memcpy takes "
             "%llu ns", family, index, (unsigned long long)(t1 - t0),
             (unsigned long long)host_ns);
   fprintf(stderr, "queue %u.%u: 256 MiB DMA copy %.1f ms by timestamps, host memcpy %.1f ms\n",
           family, index, (double)(t1 - t0) / 1e6, (double)host_ns / 1e6);
   sgt_expect_bytes(dst->map, src->map, COPY_BYTES, "queue %u.%u: the 256 MiB copy", family, index);
   sgt_buffer_destroy(d, &res);
   vkDestroyQueryPool(d->device, pool, NULL);
}

int main(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(d.pdev, &props);
   SGT_CHECK(props.limits.timestampPeriod == 1.0f, "timestampPeriod is %f, expected 1 ns",
             (double)props.limits.timestampPeriod);
   SGT_CHECK(props.limits.timestampComputeAndGraphics, "timestampComputeAndGraphics is false");
   VkQueueFamilyProperties fam[2];
   uint32_t n = 2;
   vkGetPhysicalDeviceQueueFamilyProperties(d.pdev, &n, fam);
   for (uint32_t f = 0; f < n; f++)
      SGT_CHECK(fam[f].timestampValidBits == 64, "family %u: %u valid timestamp bits", f,
                fam[f].timestampValidBits);

   struct sgt_buffer src, dst;
   sgt_buffer_create(&d, COPY_BYTES, &src);
   sgt_buffer_create(&d, COPY_BYTES, &dst);
   sgt_pattern_fill(src.map, COPY_BYTES, 99, 0);
   uint64_t host_ns = host_memcpy_ns(&src, &dst);
   run(&d, 0, 3, &src, &dst, host_ns);
#if !SG_TSAN
   /* (Not under TSan, whose checks of every byte copied, set and compared
    * make each 256 MiB run cost seconds: the compute queue's run stays.) */
   run(&d, 1, 0, &src, &dst, host_ns);
#endif
   sgt_buffer_destroy(&d, &src);
   sgt_buffer_destroy(&d, &dst);
   sgt_device_destroy(&d);
   return sgt_finish();
}
