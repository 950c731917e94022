/*
 * Buffer offsets are 64-bit. x[base + i] with base = 2^30 + d / 4 on a
 * 4 KiB buffer X has the byte offset 2^32 + d + 4i: computed modulo 2^32,
 * as softgpu once did, it is d + 4i and lands in another VkDeviceMemory
 * (N, d bytes after X, found through buffer device addresses) with the
 * fence signalled VK_SUCCESS. Pins down:
 * (a) without robustBufferAccess (a child process, without the validation
 *     layer: work pending at a loss is rightly reported by it), the store
 *     goes where the 64-bit offset says, outside every allocation: the GPU
 *     faults, the fence wait returns VK_ERROR_DEVICE_LOST, a fault report
 *     names the invalid address, and N is untouched;
 * (b) with robustBufferAccess, the same stores are dropped (out of the
 *     descriptor's range), N and X are untouched, and the in-range stores
 *     to Y beside them land.
 */
#include <string.h>

#include "sgt_compute.h"

#define X_BYTES 4096u
#define N_BYTES (256u * 1024u)
#define COUNT 4096u              /* 16 KiB of stores */

struct layout {
   struct sgt_buffer x, y, n;
   uint32_t base;
};

/* X, Y and N, and the index base that lands in N modulo 2^32. False (with a
 * failure) when N does not follow X closely enough for that. */
static bool make_layout(struct sgt_cdev *d, struct layout *l)
{
   sgt_cbuffer(d, X_BYTES, &l->x);
   sgt_cbuffer(d, N_BYTES, &l->n);
   sgt_cbuffer(d, COUNT * 4u, &l->y);
   VkDeviceAddress x = sgt_buffer_address(d, &l->x), n = sgt_buffer_address(d, &l->n);
   /* The first store's wrapped offset: the middle of N, 4-byte aligned. */
   uint64_t delta = n + N_BYTES / 4u - x;
   SGT_CHECK(n > x && delta < (1u << 30) && delta % 4 == 0,
             "N (0x%llx) does not follow X (0x%llx) within 1 GiB: the layout this test needs",
             (unsigned long long)n, (unsigned long long)x);
   l->base = (1u << 30) + (uint32_t)(delta / 4u);
   memset(l->n.map, 0x5a, N_BYTES);
   return n > x && delta < (1u << 30);
}

static void destroy_layout(struct sgt_cdev *d, struct layout *l)
{
   sgt_cbuffer_destroy(d, &l->x);
   sgt_cbuffer_destroy(d, &l->y);
   sgt_cbuffer_destroy(d, &l->n);
}

static bool untouched(const uint8_t *p, size_t n, uint8_t value)
{
   for (size_t i = 0; i < n; i++) {
      if (p[i] != value)
         return false;
   }
   return true;
}

/* Records and submits the stores; returns the fence wait's result. */
static VkResult run_stores(struct sgt_cdev *d, struct sgt_kernel *k, const struct layout *l)
{
   const struct sgt_buffer *bufs[2] = {&l->x, &l->y};
   sgt_kernel_bind(d, k, bufs);
   uint32_t push[2] = {l->base, COUNT};
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, k, push, COUNT / 64u, 1, 1);
   sgt_host_barrier(cmd);
   SGT_CHECK_VK(vkEndCommandBuffer(cmd));
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence;
   SGT_CHECK_VK(vkCreateFence(d->device, &fi, NULL, &fence));
   VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                      .pCommandBuffers = &cmd};
   SGT_CHECK_VK(vkQueueSubmit(d->queues[0], 1, &si, fence));
   VkResult r = vkWaitForFences(d->device, 1, &fence, VK_TRUE, 30ull * 1000000000ull);
   vkDestroyFence(d->device, fence, NULL);
   if (r == VK_SUCCESS)
      vkFreeCommandBuffers(d->device, d->pool, 1, &cmd);
   return r;
}

/* (a), in the child. */
static int lost_child(void)
{
   struct sgt_cdev d;
   sgt_cdev_create(&d, &(struct sgt_compute_options){.buffer_device_address = true});
   SGT_REQUIRE(d.buffer_device_address, "softgpu advertises bufferDeviceAddress");
   struct sgt_kernel k;
   sgt_kernel_create(&d, &k, SGT_SHADER("wide_index"), 2, 8, NULL);
   struct layout l;
   if (make_layout(&d, &l)) {
      VkResult r = run_stores(&d, &k, &l);
      SGT_CHECK(r == VK_ERROR_DEVICE_LOST,
                "stores 4 GiB past a 4 KiB buffer: the fence wait returned %d, not "
                "VK_ERROR_DEVICE_LOST", r);
      SGT_CHECK(untouched(l.n.map, N_BYTES, 0x5a),
                "stores 4 GiB past X changed another VkDeviceMemory (offsets wrapped at 2^32)");
   }
   /* The device is lost: only destruction is left (sgt_cdev_destroy would
    * wait for idle first). */
   destroy_layout(&d, &l);
   sgt_kernel_destroy(&d, &k);
   vkDestroyCommandPool(d.device, d.pool, NULL);
   vkDestroyDevice(d.device, NULL);
   sgt_destroy_instance(d.instance);
   return sgt_finish();
}

/* (b). */
static void robust_drops(void)
{
   struct sgt_cdev d;
   sgt_cdev_create(&d, &(struct sgt_compute_options){.robust_buffer_access = true,
                                                     .buffer_device_address = true});
   struct sgt_kernel k;
   sgt_kernel_create(&d, &k, SGT_SHADER("wide_index"), 2, 8, NULL);
   struct layout l;
   if (make_layout(&d, &l)) {
      memset(l.x.map, 0x3c, X_BYTES);
      SGT_CHECK_VK(run_stores(&d, &k, &l));
      SGT_CHECK(untouched(l.n.map, N_BYTES, 0x5a),
                "robust: stores 4 GiB past X changed another VkDeviceMemory");
      SGT_CHECK(untouched(l.x.map, X_BYTES, 0x3c), "robust: out-of-range stores changed X");
      uint32_t want[COUNT];
      for (uint32_t i = 0; i < COUNT; i++)
         want[i] = 0x600D0000u + i;
      sgt_check_words("robust: the in-range stores", l.y.map, want, COUNT);
   }
   destroy_layout(&d, &l);
   sgt_kernel_destroy(&d, &k);
   sgt_cdev_destroy(&d);
}

int main(int argc, char **argv)
{
   if (argc > 1 && strcmp(argv[1], "lost") == 0)
      return lost_child();
   robust_drops();
   const char *env[] = {"SGT_VALIDATION=0", NULL};
   char *err = NULL;
   int status = sgt_run_self("lost", env, &err);
   SGT_CHECK(status == 0, "the child (no robustness) exited with status %d", status);
   SGT_CHECK(err && strstr(err, "invalid address"), "no fault report naming an invalid address");
   if (status != 0)
      fprintf(stderr, "--- child stderr ---\n%s--- end ---\n", err ? err : "");
   free(err);
   return sgt_finish();
}
