/*
 * Query pools of the types softgpu cannot execute.
 *
 * Pins down: an occlusion query pool needs no feature, so vkCreateQueryPool
 * makes one (its only failures are out of host or device memory); a
 * compute-only device can never begin an occlusion query
 * (VUID-vkCmdBeginQuery-queryType-00803 asks for a graphics command pool),
 * so after a host reset (vkResetQueryPool) or a command-buffer reset
 * (vkCmdResetQueryPool) its queries stay unavailable, and reading them
 * follows the spec for unavailable queries: vkGetQueryPoolResults returns
 * VK_NOT_READY and, without PARTIAL, writes no value (the bytes stay as
 * they were), only the availability word (0) with WITH_AVAILABILITY, in
 * 32 and 64 bits; with PARTIAL it writes a value between zero and the
 * final result (zero: nothing was counted); vkCmdCopyQueryPoolResults on a
 * compute queue does the same in a buffer. softgpu does not advertise
 * pipelineStatisticsQuery (or occlusionQueryPrecise, inheritedQueries),
 * none of which it implements.
 */
#include <string.h>

#include "sgt_sync.h"

#define QUERIES 4u
#define POISON 0xA5u

static VkQueryPool occlusion_pool(struct sgt_device *d)
{
   VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                               .queryType = VK_QUERY_TYPE_OCCLUSION, .queryCount = QUERIES};
   VkQueryPool pool = VK_NULL_HANDLE;
   VkResult r = vkCreateQueryPool(d->device, &qi, NULL, &pool);
   SGT_REQUIRE(r == VK_SUCCESS, "vkCreateQueryPool(OCCLUSION) returned %s", sgt_result_name(r));
   return pool;
}

static bool all_poison(const uint8_t *p, size_t n)
{
   for (size_t i = 0; i < n; i++) {
      if (p[i] != POISON)
         return false;
   }
   return true;
}

/* Reads query i's slot (stride bytes) as the flags lay it out: the value,
 * then the availability if asked. */
static void check_unavailable(const uint8_t *slot, VkQueryResultFlags flags, const char *how,
                              uint32_t query)
{
   size_t word = flags & VK_QUERY_RESULT_64_BIT ? 8 : 4;
   uint64_t value = 0, avail = 0;
   memcpy(&value, slot, word);
   memcpy(&avail, slot + word, word);
   if (flags & VK_QUERY_RESULT_PARTIAL_BIT)
      SGT_CHECK(value == 0, "%s: query %u: partial value %llu of a query that counted nothing",
                how, query, (unsigned long long)value);
   else
      SGT_CHECK(all_poison(slot, word), "%s: query %u: a value was written for an unavailable "
                "query", how, query);
   if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)
      SGT_CHECK(avail == 0, "%s: query %u: availability %llu", how, query,
                (unsigned long long)avail);
   else
      SGT_CHECK(all_poison(slot + word, word), "%s: query %u: wrote past the value", how, query);
}

static const VkQueryResultFlags flag_sets[] = {
   0,
   VK_QUERY_RESULT_64_BIT,
   VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
   VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_64_BIT,
   VK_QUERY_RESULT_PARTIAL_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
   VK_QUERY_RESULT_PARTIAL_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_64_BIT,
};
#define FLAG_SETS (sizeof(flag_sets) / sizeof(flag_sets[0]))
#define STRIDE 32u   /* room for value and availability in 64 bits, and a poisoned gap */

static void test_host_reset_and_read(struct sgt_device *d)
{
   VkQueryPool pool = occlusion_pool(d);
   vkResetQueryPool(d->device, pool, 0, QUERIES);
   for (size_t f = 0; f < FLAG_SETS; f++) {
      uint8_t data[QUERIES * STRIDE];
      memset(data, POISON, sizeof(data));
      VkResult r = vkGetQueryPoolResults(d->device, pool, 0, QUERIES, sizeof(data), data, STRIDE,
                                         flag_sets[f]);
      SGT_CHECK(r == VK_NOT_READY, "vkGetQueryPoolResults(flags 0x%x) returned %s",
                flag_sets[f], sgt_result_name(r));
      char how[64];
      snprintf(how, sizeof(how), "vkGetQueryPoolResults(flags 0x%x)", flag_sets[f]);
      for (uint32_t q = 0; q < QUERIES; q++)
         check_unavailable(data + q * STRIDE, flag_sets[f], how, q);
   }
   vkDestroyQueryPool(d->device, pool, NULL);
}

/* The validation layer of Debian 12 (1.3.239) reports a copy of queries
 * that were reset and never ended with neither WITH_AVAILABILITY nor
 * PARTIAL (UNASSIGNED-CoreValidation-DrawState-InvalidQuery, "query may
 * return no data"), though the spec defines it (no value is written): those
 * flag sets are read through the host only. */
static bool gpu_copied(VkQueryResultFlags flags)
{
   return flags & (VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_PARTIAL_BIT);
}

static void test_gpu_reset_and_copy(struct sgt_device *d)
{
   VkQueryPool pool = occlusion_pool(d);
   struct sgt_buffer res;
   sgt_buffer_create(d, FLAG_SETS * QUERIES * STRIDE, &res);
   memset(res.map, POISON, FLAG_SETS * QUERIES * STRIDE);
   VkCommandBuffer cmd = sgt_begin(d, 0, true);
   /* "vkCmdCopyQueryPoolResults is guaranteed to see the effect of previous
    * uses of vkCmdResetQueryPool in the same queue, without any additional
    * synchronization." */
   vkCmdResetQueryPool(cmd, pool, 0, QUERIES);
   for (size_t f = 0; f < FLAG_SETS; f++) {
      if (!gpu_copied(flag_sets[f]))
         continue;
      vkCmdCopyQueryPoolResults(cmd, pool, 0, QUERIES, res.buffer, f * QUERIES * STRIDE, STRIDE,
                                flag_sets[f]);
   }
   sgt_barrier_to_host(cmd);
   sgt_end_submit_wait(d, d->queues[0][0], 0, cmd);
   for (size_t f = 0; f < FLAG_SETS; f++) {
      if (!gpu_copied(flag_sets[f]))
         continue;
      char how[64];
      snprintf(how, sizeof(how), "vkCmdCopyQueryPoolResults(flags 0x%x)", flag_sets[f]);
      for (uint32_t q = 0; q < QUERIES; q++)
         check_unavailable((const uint8_t *)res.map + (f * QUERIES + q) * STRIDE, flag_sets[f],
                           how, q);
   }
   /* The host sees the same after the GPU's reset. */
   uint32_t avail[QUERIES * 2];
   VkResult r = vkGetQueryPoolResults(d->device, pool, 0, QUERIES, sizeof(avail), avail,
                                      2 * sizeof(uint32_t), VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
   SGT_CHECK(r == VK_NOT_READY, "after vkCmdResetQueryPool: %s", sgt_result_name(r));
   sgt_buffer_destroy(d, &res);
   vkDestroyQueryPool(d->device, pool, NULL);
}

/* Many pools, created and destroyed out of order, each of its own memory. */
static void test_many_pools(struct sgt_device *d)
{
   VkQueryPool pools[64];
   for (uint32_t i = 0; i < 64; i++)
      pools[i] = occlusion_pool(d);
   for (uint32_t i = 0; i < 64; i += 2)
      vkDestroyQueryPool(d->device, pools[i], NULL);
   for (uint32_t i = 1; i < 64; i += 2)
      vkDestroyQueryPool(d->device, pools[i], NULL);
}

static void test_features(struct sgt_device *d)
{
   VkPhysicalDeviceFeatures f;
   vkGetPhysicalDeviceFeatures(d->pdev, &f);
   SGT_CHECK(!f.pipelineStatisticsQuery, "pipelineStatisticsQuery advertised, not implemented");
   SGT_CHECK(!f.occlusionQueryPrecise, "occlusionQueryPrecise advertised: no occlusion queries");
   SGT_CHECK(!f.inheritedQueries, "inheritedQueries advertised: no queries to inherit");
}

int main(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   test_features(&d);
   test_host_reset_and_read(&d);
   test_gpu_reset_and_copy(&d);
   test_many_pools(&d);
   sgt_device_destroy(&d);
   return sgt_finish();
}
