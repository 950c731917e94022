/*
 * Work spread over several queues of the compute family, ordered only by
 * timeline semaphores (vkQueueSubmit2), checked against C:
 * - chain: 24 dependent stages round-robin over up to 4 queues, ping-pong
 *   between two buffers, stage s waiting for value s+1 and signalling
 *   s+2; every batch is submitted before the host signals the first value,
 *   and later queues are filled first, so waits come before their signals;
 * - fan_out_in: a producer, three consumers of its output on other queues
 *   running at the same time, and a final stage waiting on all three
 *   consumers' semaphores; the host waits on the final value.
 * On a device with a single queue the same graph runs on that queue.
 * Batches are submitted queue by queue in dependency order within each
 * queue (a queue is not required to run its batches out of order).
 */
#include <string.h>

#include "sgt_compute.h"

#define MAX_BATCHES 32

struct batch {
   uint32_t queue;
   VkCommandBuffer cmd;
   uint32_t wait_count;
   VkSemaphoreSubmitInfo waits[3];
   VkSemaphoreSubmitInfo signal;
};

static VkSemaphoreSubmitInfo sem_op(VkSemaphore s, uint64_t value, VkPipelineStageFlags2 stages)
{
   return (VkSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                  .semaphore = s,
                                  .value = value,
                                  .stageMask = stages};
}

static VkCommandBuffer record(struct sgt_cdev *d, const struct sgt_kernel *k, VkDescriptorSet set,
                              const void *push, uint32_t groups)
{
   VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = d->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
   VkCommandBuffer cmd;
   SGT_CHECK_VK(vkAllocateCommandBuffers(d->device, &ai, &cmd));
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   SGT_CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &set, 0, NULL);
   vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, k->push_bytes, push);
   vkCmdDispatch(cmd, groups, 1, 1);
   sgt_host_barrier(cmd);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   return cmd;
}

/* Submits batches (given in dependency order): the highest queue first,
 * each queue's batches in the given order. */
static void submit_all(struct sgt_cdev *d, struct batch *b, uint32_t count, uint32_t queues)
{
   for (uint32_t q = queues; q-- > 0;) {
      for (uint32_t i = 0; i < count; i++) {
         if (b[i].queue != q)
            continue;
         VkCommandBufferSubmitInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                         .commandBuffer = b[i].cmd};
         VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                             .waitSemaphoreInfoCount = b[i].wait_count,
                             .pWaitSemaphoreInfos = b[i].waits,
                             .commandBufferInfoCount = 1,
                             .pCommandBufferInfos = &ci,
                             .signalSemaphoreInfoCount = 1,
                             .pSignalSemaphoreInfos = &b[i].signal};
         SGT_CHECK_VK(vkQueueSubmit2(d->queues[q], 1, &si, VK_NULL_HANDLE));
      }
   }
}

static void wait_value(struct sgt_cdev *d, VkSemaphore s, uint64_t value, const char *what)
{
   VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                             .semaphoreCount = 1,
                             .pSemaphores = &s,
                             .pValues = &value};
   VkResult r = vkWaitSemaphores(d->device, &wi, 20ull * 1000 * 1000 * 1000);
   SGT_REQUIRE(r == VK_SUCCESS, "%s: waiting for value %llu returned %s", what,
               (unsigned long long)value, sgt_result_name(r));
   uint64_t now = 0;
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d->device, s, &now));
   SGT_CHECK(now == value, "%s: the semaphore is at %llu, expected %llu", what,
             (unsigned long long)now, (unsigned long long)value);
}

static void chain(struct sgt_cdev *d)
{
   const uint32_t n = 4096, stages = 24;
   uint32_t queues = d->queue_count < 4 ? d->queue_count : 4;
   fprintf(stderr, "   %u stages over %u queue(s)\n", stages, queues);
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("stage"), 2, 12, NULL);
   struct sgt_buffer buf[2];
   sgt_cbuffer(d, n * 4, &buf[0]);
   sgt_cbuffer(d, n * 4, &buf[1]);
   VkDescriptorSet sets[2] = {k.set, sgt_alloc_set(d, k.pool, k.set_layout)};
   for (uint32_t s = 0; s < 2; s++) {
      sgt_write_buffer(d, sets[s], 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &buf[s], 0, 0);
      sgt_write_buffer(d, sets[s], 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &buf[1 - s], 0, 0);
   }
   uint32_t *want = malloc(n * 4), *v0 = buf[0].map;
   for (uint32_t i = 0; i < n; i++)
      v0[i] = want[i] = i * 2654435761u;
   VkSemaphore t = sgt_ctimeline(d, 0);

   struct batch b[MAX_BATCHES];
   struct { uint32_t mul, add, n; } push[MAX_BATCHES];
   for (uint32_t s = 0; s < stages; s++) {
      push[s].mul = 3, push[s].add = s, push[s].n = n;
      b[s] = (struct batch){.queue = s % queues, .wait_count = 1};
      b[s].cmd = record(d, &k, sets[s % 2], &push[s], (n + 63) / 64);
      b[s].waits[0] = sem_op(t, s + 1, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
      b[s].signal = sem_op(t, s + 2, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
      for (uint32_t i = 0; i < n; i++)
         want[i] = want[i] * 3 + s;
   }
   submit_all(d, b, stages, queues);
   /* Nothing can have started: the first wait is on the host. */
   uint64_t now = 99;
   SGT_CHECK_VK(vkGetSemaphoreCounterValue(d->device, t, &now));
   SGT_CHECK(now == 0, "the timeline moved to %llu before the host signalled it",
             (unsigned long long)now);
   VkSemaphoreSignalInfo sig = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                .semaphore = t,
                                .value = 1};
   SGT_CHECK_VK(vkSignalSemaphore(d->device, &sig));
   wait_value(d, t, stages + 1, "chain");
   sgt_check_words("chain of stages over queues", buf[stages % 2].map, want, n);

   SGT_CHECK_VK(vkDeviceWaitIdle(d->device));
   for (uint32_t s = 0; s < stages; s++)
      vkFreeCommandBuffers(d->device, d->pool, 1, &b[s].cmd);
   vkDestroySemaphore(d->device, t, NULL);
   free(want);
   sgt_cbuffer_destroy(d, &buf[0]);
   sgt_cbuffer_destroy(d, &buf[1]);
   sgt_kernel_destroy(d, &k);
}

static void fan_out_in(struct sgt_cdev *d)
{
   const uint32_t n = 10000;
   uint32_t queues = d->queue_count < 4 ? d->queue_count : 4;
   struct sgt_kernel stage, sum;
   sgt_kernel_create(d, &stage, SGT_SHADER("stage"), 2, 12, NULL);
   sgt_kernel_create(d, &sum, SGT_SHADER("sum3"), 4, 4, NULL);
   struct sgt_buffer x, p, r[3], out;
   sgt_cbuffer(d, n * 4, &x);
   sgt_cbuffer(d, n * 4, &p);
   sgt_cbuffer(d, n * 4, &out);
   for (uint32_t c = 0; c < 3; c++)
      sgt_cbuffer(d, n * 4, &r[c]);
   uint32_t *xs = x.map;
   for (uint32_t i = 0; i < n; i++)
      xs[i] = i ^ 0x5555;
   /* Sets: producer x -> p, consumer c p -> r[c]. */
   VkDescriptorSet sets[4] = {stage.set};
   for (uint32_t c = 1; c < 4; c++)
      sets[c] = sgt_alloc_set(d, stage.pool, stage.set_layout);
   sgt_write_buffer(d, sets[0], 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &x, 0, 0);
   sgt_write_buffer(d, sets[0], 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &p, 0, 0);
   for (uint32_t c = 0; c < 3; c++) {
      sgt_write_buffer(d, sets[1 + c], 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &p, 0, 0);
      sgt_write_buffer(d, sets[1 + c], 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &r[c], 0, 0);
   }
   const struct sgt_buffer *sb[] = {&r[0], &r[1], &r[2], &out};
   sgt_kernel_bind(d, &sum, sb);

   VkSemaphore go = sgt_ctimeline(d, 0), cs[3] = {sgt_ctimeline(d, 0), sgt_ctimeline(d, 0),
                                                  sgt_ctimeline(d, 0)};
   struct { uint32_t mul, add, n; } pp = {5, 1, n}, pc[3] = {{2, 0, n}, {3, 1, n}, {4, 2, n}};
   struct batch b[5];
   /* Dependency order: producer, consumers, final. */
   b[0] = (struct batch){.queue = 0, .wait_count = 1};
   b[0].cmd = record(d, &stage, sets[0], &pp, (n + 63) / 64);
   b[0].waits[0] = sem_op(go, 1, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
   b[0].signal = sem_op(go, 2, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
   for (uint32_t c = 0; c < 3; c++) {
      b[1 + c] = (struct batch){.queue = (1 + c) % queues, .wait_count = 1};
      b[1 + c].cmd = record(d, &stage, sets[1 + c], &pc[c], (n + 63) / 64);
      b[1 + c].waits[0] = sem_op(go, 2, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
      b[1 + c].signal = sem_op(cs[c], 1, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
   }
   b[4] = (struct batch){.queue = 1 % queues, .wait_count = 3};
   b[4].cmd = record(d, &sum, sum.set, &n, (n + 63) / 64);
   for (uint32_t c = 0; c < 3; c++)
      b[4].waits[c] = sem_op(cs[c], 1, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
   b[4].signal = sem_op(go, 3, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
   submit_all(d, b, 5, queues);
   sgt_host_pause();
   VkSemaphoreSignalInfo sig = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                .semaphore = go,
                                .value = 1};
   SGT_CHECK_VK(vkSignalSemaphore(d->device, &sig));
   wait_value(d, go, 3, "fan-out/fan-in");

   uint32_t *want = malloc(n * 4);
   for (uint32_t i = 0; i < n; i++) {
      uint32_t pv = xs[i] * 5 + 1;
      want[i] = (pv * 2 + 0) + (pv * 3 + 1) + (pv * 4 + 2);
   }
   sgt_check_words("fan-out/fan-in over queues", out.map, want, n);
   free(want);

   SGT_CHECK_VK(vkDeviceWaitIdle(d->device));
   for (uint32_t i = 0; i < 5; i++)
      vkFreeCommandBuffers(d->device, d->pool, 1, &b[i].cmd);
   vkDestroySemaphore(d->device, go, NULL);
   for (uint32_t c = 0; c < 3; c++) {
      vkDestroySemaphore(d->device, cs[c], NULL);
      sgt_cbuffer_destroy(d, &r[c]);
   }
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &p);
   sgt_cbuffer_destroy(d, &out);
   sgt_kernel_destroy(d, &stage);
   sgt_kernel_destroy(d, &sum);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"chain", chain},
      {"fan_out_in", fan_out_in},
   };
   return sgt_compute_main(argc, argv, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
