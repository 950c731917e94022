/*
 * Compute kernels end to end, each checked word for word against a C
 * reference: saxpy, a 16x16 tiled sgemm with shared memory on sizes that
 * are not multiples of the tile, and a matrix transpose through shared
 * memory. Inputs are chosen so that every float result is exact (small
 * integers and binary fractions), whatever the summation order or
 * contraction into fused multiply-adds.
 */
#include <string.h>

#include "sgt_compute.h"

static void saxpy(struct sgt_cdev *d)
{
   const uint32_t n = 100003;   /* not a multiple of the 64-wide workgroup */
   struct sgt_buffer x, y;
   sgt_cbuffer(d, (n + 64) * 4, &x);
   sgt_cbuffer(d, (n + 64) * 4, &y);
   float *xs = x.map, *ys = y.map;
   float *want = malloc((n + 64) * sizeof(float));
   const float a = 1.5f;
   for (uint32_t i = 0; i < n + 64; i++) {
      xs[i] = (float)(i % 1000) * 0.25f - 100.0f;
      ys[i] = (float)(i % 77) * 0.5f;
      want[i] = i < n ? a * xs[i] + ys[i] : ys[i];   /* past n: untouched */
   }
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("saxpy"), 2, 8, NULL);
   const struct sgt_buffer *bufs[] = {&x, &y};
   sgt_kernel_bind(d, &k, bufs);
   struct { float a; uint32_t n; } push = {a, n};
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   /* One group more than needed: the bounds check must hold. */
   sgt_kernel_dispatch(cmd, &k, &push, (n + 63) / 64 + 1, 1, 1);
   sgt_cmd_submit_wait(d, cmd);
   sgt_check_words("saxpy", y.map, (const uint32_t *)want, n + 64);
   free(want);
   sgt_kernel_destroy(d, &k);
   sgt_cbuffer_destroy(d, &x);
   sgt_cbuffer_destroy(d, &y);
}

static void sgemm_case(struct sgt_cdev *d, struct sgt_kernel *k, uint32_t M, uint32_t N, uint32_t K,
                       uint32_t seed)
{
   struct sgt_buffer a, b, c;
   sgt_cbuffer(d, (VkDeviceSize)M * K * 4, &a);
   sgt_cbuffer(d, (VkDeviceSize)K * N * 4, &b);
   const uint32_t guard = 64;   /* words past C that must stay untouched */
   sgt_cbuffer(d, ((VkDeviceSize)M * N + guard) * 4, &c);
   float *as = a.map, *bs = b.map;
   uint32_t *cs = c.map;
   for (uint32_t i = 0; i < M * K; i++)
      as[i] = (float)((int)(sgt_rand(&seed) % 17) - 8);
   for (uint32_t i = 0; i < K * N; i++)
      bs[i] = (float)((int)(sgt_rand(&seed) % 17) - 8);
   for (uint32_t i = 0; i < M * N + guard; i++)
      cs[i] = 0xdeadbeefu;
   uint32_t *want = malloc(((size_t)M * N + guard) * 4);
   for (uint32_t r = 0; r < M; r++) {
      for (uint32_t col = 0; col < N; col++) {
         float acc = 0.0f;   /* integers below 2^24: exact in any order */
         for (uint32_t i = 0; i < K; i++)
            acc += as[r * K + i] * bs[i * N + col];
         memcpy(&want[r * N + col], &acc, 4);
      }
   }
   for (uint32_t i = M * N; i < M * N + guard; i++)
      want[i] = 0xdeadbeefu;

   const struct sgt_buffer *bufs[] = {&a, &b, &c};
   sgt_kernel_bind(d, k, bufs);
   uint32_t push[3] = {M, N, K};
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, k, push, (N + 15) / 16, (M + 15) / 16, 1);
   sgt_cmd_submit_wait(d, cmd);
   char what[64];
   snprintf(what, sizeof(what), "sgemm %ux%ux%u", M, N, K);
   sgt_check_words(what, cs, want, M * N + guard);
   free(want);
   sgt_cbuffer_destroy(d, &a);
   sgt_cbuffer_destroy(d, &b);
   sgt_cbuffer_destroy(d, &c);
}

static void sgemm(struct sgt_cdev *d)
{
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("sgemm"), 3, 12, NULL);
   sgemm_case(d, &k, 70, 45, 33, 1);   /* no dimension a multiple of 16 */
   sgemm_case(d, &k, 16, 16, 16, 2);   /* exactly one tile */
   sgemm_case(d, &k, 1, 37, 5, 3);     /* a row vector times a matrix */
   sgemm_case(d, &k, 33, 1, 70, 4);    /* a matrix times a column vector */
   sgt_kernel_destroy(d, &k);
}

static void transpose_case(struct sgt_cdev *d, struct sgt_kernel *k, uint32_t w, uint32_t h)
{
   struct sgt_buffer in, out;
   const uint32_t guard = 32;
   sgt_cbuffer(d, (VkDeviceSize)w * h * 4, &in);
   sgt_cbuffer(d, ((VkDeviceSize)w * h + guard) * 4, &out);
   uint32_t *src = in.map, *dst = out.map;
   uint32_t *want = malloc(((size_t)w * h + guard) * 4);
   for (uint32_t y = 0; y < h; y++) {
      for (uint32_t x = 0; x < w; x++) {
         src[y * w + x] = (y << 16) | x;
         want[x * h + y] = (y << 16) | x;
      }
   }
   for (uint32_t i = 0; i < w * h + guard; i++)
      dst[i] = 0xabababab;
   for (uint32_t i = w * h; i < w * h + guard; i++)
      want[i] = 0xabababab;
   const struct sgt_buffer *bufs[] = {&in, &out};
   sgt_kernel_bind(d, k, bufs);
   uint32_t push[2] = {w, h};
   VkCommandBuffer cmd = sgt_cmd_begin(d);
   sgt_kernel_dispatch(cmd, k, push, (w + 15) / 16, (h + 15) / 16, 1);
   sgt_cmd_submit_wait(d, cmd);
   char what[64];
   snprintf(what, sizeof(what), "transpose %ux%u", w, h);
   sgt_check_words(what, dst, want, w * h + guard);
   free(want);
   sgt_cbuffer_destroy(d, &in);
   sgt_cbuffer_destroy(d, &out);
}

static void transpose(struct sgt_cdev *d)
{
   struct sgt_kernel k;
   sgt_kernel_create(d, &k, SGT_SHADER("transpose"), 2, 8, NULL);
   transpose_case(d, &k, 70, 45);
   transpose_case(d, &k, 45, 70);
   transpose_case(d, &k, 1, 33);
   transpose_case(d, &k, 64, 32);
   sgt_kernel_destroy(d, &k);
}

int main(int argc, char **argv)
{
   static const struct sgt_subtest tests[] = {
      {"saxpy", saxpy},
      {"sgemm", sgemm},
      {"transpose", transpose},
   };
   return sgt_compute_main(argc, argv, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
