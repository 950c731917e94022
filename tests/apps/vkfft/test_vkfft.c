/*
 * test_vkfft: VkFFT, a real application, on the driver through the Vulkan
 * loader (issue 27). Debian's VkFFT 1.2.26 generates GLSL for each plan and
 * compiles it at plan creation with Debian's glslang; the plans run here
 * against FFTW's double-precision transforms as the reference:
 *
 *   1D complex 256, 4096 (powers of two), 1000 (radices 2 and 5),
 *   1D complex 2^20 (larger than one workgroup's shared memory: VkFFT's
 *   four-step algorithm, with its temporary buffer), 2D complex 512x512,
 *   3D complex 64^3, 2D real 512x256 (real-to-complex forward,
 *   complex-to-real inverse),
 *
 * each forward and inverse, in single precision and, when the device
 * offers shaderFloat64, in double precision (a device without it skips them
 * with one line saying so). Each transform gets its own random input, so
 * the inverse is checked on its own rather than as a round trip that an
 * error common to both directions could cancel.
 *
 * Bluestein sizes (e.g. 4097, a prime factor above 13) are left out: VkFFT
 * 1.2.26 binds a null buffer on that path and fails on every driver.
 *
 * It runs on any Vulkan 1.3 driver, e.g. lavapipe, which checks the test:
 *
 *   VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
 *   VK_LOADER_LAYERS_DISABLE='~implicit~' build/tests/apps/vkfft/test_vkfft
 *
 * Arguments: [plan] [float|double] runs only that plan, that precision.
 */
#include <fftw3.h>
#include <math.h>
#include <string.h>

#include "sgt_compute.h"
#include "sgt_sync.h"
#include "vkfft_plan.h"

/*
 * The error bounds: ||y - y_ref||_2 / ||y_ref||_2 per transform.
 *
 * For a radix-2 FFT of N = 2^t points, Higham (Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., Theorem 24.2) bounds the computed result by
 *   ||y - y_exact|| / ||y_exact|| <= t*eta / (1 - t*eta),
 *   eta = mu + g4*(sqrt(2) + mu), g4 = 4u / (1 - 4u),
 * where u is the unit roundoff and mu the twiddle factors' error. Higher
 * radices (VkFFT uses up to 13) take fewer rounding steps per point, not
 * more; a multi-dimensional transform of N points is the same t = log2(N)
 * levels over its axes; the four-step algorithm's twiddle pass between its
 * two steps, and the real-to-complex post-processing, add one level each.
 * The largest plans here have t + 1 = 21 levels.
 *
 * - single precision: u = 2^-24. VkFFT computes the float twiddles in the
 *   shader with GLSL cos() and sin(); with those within a few ulp (softgpu:
 *   C's cosf and sinf; lavapipe: LLVM's), mu ~ 2u, eta ~ 7.7u and 21 levels
 *   give 160u = 9.6e-6, so the bound is 1e-5. That worst case adds every
 *   rounding error up; the measured errors, about 3e-7, grow like
 *   sqrt(t) * u instead. What bugs produce is far above it: a wrong
 *   element or twiddle (about 1 / sqrt(N) >= 1e-3), half precision
 *   anywhere, or cos and sin at the 2^-11 absolute error that is all Vulkan
 *   requires of them (1e-4 and above; a driver that close to the minimum
 *   would need VkFFT's useLUT for float too).
 * - double precision: u = 2^-53. GLSL has no double cos and sin, so VkFFT
 *   takes the twiddles from a table the host fills with C's cos() and sin()
 *   (mu ~ u) and prints its constants with 17 digits, exact in double:
 *   eta ~ 6.7u and 21 levels give 140u = 1.6e-14. The reference is FFTW in
 *   double, whose own error is of the same kind and size, so the two
 *   together stay under 3.2e-14: the bound is 1e-13 (measured: about
 *   5e-16). It fails a double plan that rounds to float anywhere (1e-7 and
 *   above), and double arithmetic several bits short throughout.
 *
 * The float plans' inputs are floats, exact in double, so FFTW sees what
 * the GPU sees; FFTW's error (about 1e-16) does not count against float.
 */
#define BOUND_FLOAT 1e-5
#define BOUND_DOUBLE 1e-13

struct plan {
   const char *name;
   uint32_t dims;
   uint64_t size[3];   /* VkFFT's order: size[0] varies fastest */
   bool r2c;
   /* 2^20 points take more than one workgroup's shared memory on any
    * device (8 MiB in float): VkFFT must split the axis (four-step). */
   bool four_step;
};

static const struct plan plans[] = {
   {.name = "c2c_256", .dims = 1, .size = {256, 1, 1}},
   {.name = "c2c_4096", .dims = 1, .size = {4096, 1, 1}},
   {.name = "c2c_1000", .dims = 1, .size = {1000, 1, 1}},
   {.name = "c2c_1048576", .dims = 1, .size = {1u << 20, 1, 1}, .four_step = true},
   {.name = "c2c_512x512", .dims = 2, .size = {512, 512, 1}},
   {.name = "c2c_64x64x64", .dims = 3, .size = {64, 64, 64}},
   {.name = "r2c_512x256", .dims = 2, .size = {512, 256, 1}, .r2c = true},
};

/* ---- data ---------------------------------------------------------------- */

/* A value in [-1, 1) with 24 significant bits: exact in float and double,
 * so both precisions' plans and FFTW see the same numbers. */
static double rand_value(uint32_t *state)
{
   return (double)(sgt_rand(state) >> 8) * 0x1p-23 - 1.0;
}

/* Rounds to the plan's precision (a float plan's input must be floats
 * for FFTW to see what the GPU sees). */
static double to_precision(double v, bool dbl)
{
   return dbl ? v : (double)(float)v;
}

static void store(void *map, size_t i, double v, bool dbl)
{
   if (dbl)
      ((double *)map)[i] = v;
   else
      ((float *)map)[i] = (float)v;
}

static double load(const void *map, size_t i, bool dbl)
{
   return dbl ? ((const double *)map)[i] : (double)((const float *)map)[i];
}

/* ||got - want|| / ||want|| over n doubles. */
static double relative_error(const double *got, const double *want, size_t n)
{
   double err = 0, ref = 0;
   for (size_t i = 0; i < n; i++) {
      double e = got[i] - want[i];
      err += e * e;
      ref += want[i] * want[i];
   }
   return ref > 0 ? sqrt(err / ref) : sqrt(err);
}

/* FFTW's dimensions: row-major, the last varies fastest. */
static int fftw_dims(const struct plan *pl, int n[3])
{
   for (uint32_t i = 0; i < pl->dims; i++)
      n[i] = (int)pl->size[pl->dims - 1 - i];
   return (int)pl->dims;
}

/* ---- one plan in one precision -------------------------------------------- */

struct run {
   struct sgt_cdev *d;
   const struct plan *pl;
   bool dbl;
   struct vkfft_plan *vkfft;
   struct sgt_buffer buf;
   size_t points;     /* W * H * D */
   size_t rows;       /* H * D */
   size_t row_cplx;   /* complex values per row in the buffer: W, or W/2+1 for R2C */
   double ms_forward, ms_inverse;
};

/* Runs the plan's forward or inverse transform over the buffer. */
static bool execute(struct run *r, bool inverse)
{
   uint64_t t0 = sgt_now_ns();
   VkCommandBuffer cmd = sgt_cmd_begin(r->d);
   int res = vkfft_plan_record(r->vkfft, cmd, inverse);
   SGT_CHECK(res == 0, "%s %s: VkFFTAppend(inverse = %d) returned %d", r->pl->name,
             r->dbl ? "double" : "float", inverse, res);
   sgt_cmd_submit_wait(r->d, cmd);
   *(inverse ? &r->ms_inverse : &r->ms_forward) = (double)(sgt_now_ns() - t0) / 1e6;
   return res == 0;
}

/* Complex to complex, forward on random x and inverse on random X. */
static void check_c2c(struct run *r, uint32_t *seed, double err[2])
{
   const size_t n = r->points;
   fftw_complex *in = fftw_alloc_complex(n), *ref = fftw_alloc_complex(n);
   double *got = malloc(2 * n * sizeof(double));
   SGT_REQUIRE(in && ref && got, "out of memory");
   int dims[3];
   int rank = fftw_dims(r->pl, dims);

   for (int inverse = 0; inverse < 2; inverse++) {
      for (size_t i = 0; i < n; i++) {
         in[i][0] = rand_value(seed);
         in[i][1] = rand_value(seed);
         store(r->buf.map, 2 * i, in[i][0], r->dbl);
         store(r->buf.map, 2 * i + 1, in[i][1], r->dbl);
      }
      /* FFTW_ESTIMATE plans without overwriting `in`. */
      fftw_plan p = fftw_plan_dft(rank, dims, in, ref, inverse ? FFTW_BACKWARD : FFTW_FORWARD,
                                  FFTW_ESTIMATE);
      SGT_REQUIRE(p, "fftw_plan_dft failed");
      fftw_execute(p);
      fftw_destroy_plan(p);
      err[inverse] = INFINITY;
      if (!execute(r, inverse))
         continue;
      for (size_t i = 0; i < 2 * n; i++)
         got[i] = load(r->buf.map, i, r->dbl);
      err[inverse] = relative_error(got, &ref[0][0], 2 * n);
   }
   free(got);
   fftw_free(in);
   fftw_free(ref);
}

/* Real to complex forward on random real x; complex to real inverse on
 * the spectrum of another random real array (a Hermitian-symmetric X,
 * which is what a C2R transform takes). The buffer holds row_cplx complex
 * values per row; the real values of a row are the first W of its
 * 2 * row_cplx. */
static void check_r2c(struct run *r, uint32_t *seed, double err[2])
{
   const size_t w = (size_t)r->pl->size[0], rc = r->row_cplx, rows = r->rows;
   double *real = fftw_alloc_real(r->points), *real_ref = fftw_alloc_real(r->points);
   fftw_complex *spec = fftw_alloc_complex(rows * rc), *spec_ref = fftw_alloc_complex(rows * rc);
   double *got = malloc(2 * rows * rc * sizeof(double));
   SGT_REQUIRE(real && real_ref && spec && spec_ref && got, "out of memory");
   int dims[3];
   int rank = fftw_dims(r->pl, dims);

   /* Forward: x -> X. */
   for (size_t row = 0; row < rows; row++) {
      for (size_t x = 0; x < w; x++) {
         real[row * w + x] = rand_value(seed);
         store(r->buf.map, row * 2 * rc + x, real[row * w + x], r->dbl);
      }
   }
   fftw_plan p = fftw_plan_dft_r2c(rank, dims, real, spec_ref, FFTW_ESTIMATE);
   SGT_REQUIRE(p, "fftw_plan_dft_r2c failed");
   fftw_execute(p);
   fftw_destroy_plan(p);
   err[0] = INFINITY;
   if (execute(r, false)) {
      for (size_t i = 0; i < 2 * rows * rc; i++)
         got[i] = load(r->buf.map, i, r->dbl);
      err[0] = relative_error(got, &spec_ref[0][0], 2 * rows * rc);
   }

   /* Inverse: X (the spectrum of random reals, in the plan's precision) -> x. */
   for (size_t i = 0; i < r->points; i++)
      real[i] = rand_value(seed);
   p = fftw_plan_dft_r2c(rank, dims, real, spec, FFTW_ESTIMATE);
   SGT_REQUIRE(p, "fftw_plan_dft_r2c failed");
   fftw_execute(p);
   fftw_destroy_plan(p);
   for (size_t i = 0; i < rows * rc; i++) {
      for (int c = 0; c < 2; c++) {
         spec[i][c] = to_precision(spec[i][c], r->dbl);
         store(r->buf.map, 2 * i + (size_t)c, spec[i][c], r->dbl);
      }
   }
   /* FFTW's C2R overwrites its input, and FFTW_ESTIMATE planning does not. */
   p = fftw_plan_dft_c2r(rank, dims, spec, real_ref, FFTW_ESTIMATE);
   SGT_REQUIRE(p, "fftw_plan_dft_c2r failed");
   fftw_execute(p);
   fftw_destroy_plan(p);
   err[1] = INFINITY;
   if (execute(r, true)) {
      for (size_t row = 0; row < rows; row++) {
         for (size_t x = 0; x < w; x++)
            got[row * w + x] = load(r->buf.map, row * 2 * rc + x, r->dbl);
      }
      err[1] = relative_error(got, real_ref, r->points);
   }
   free(got);
   fftw_free(real);
   fftw_free(real_ref);
   fftw_free(spec);
   fftw_free(spec_ref);
}

static void run_plan(struct sgt_cdev *d, const struct plan *pl, bool dbl, const struct vkfft_vulkan *vk)
{
   struct run r = {.d = d, .pl = pl, .dbl = dbl};
   const char *prec = dbl ? "double" : "float";
   const double bound = dbl ? BOUND_DOUBLE : BOUND_FLOAT;
   r.points = (size_t)(pl->size[0] * pl->size[1] * pl->size[2]);
   r.rows = (size_t)(pl->size[1] * pl->size[2]);
   r.row_cplx = pl->r2c ? (size_t)pl->size[0] / 2 + 1 : (size_t)pl->size[0];
   uint64_t bytes = (uint64_t)r.rows * r.row_cplx * 2 * (dbl ? sizeof(double) : sizeof(float));
   sgt_cbuffer(d, bytes, &r.buf);

   struct vkfft_plan_desc desc = {.dims = pl->dims, .r2c = pl->r2c, .double_precision = dbl};
   memcpy(desc.size, pl->size, sizeof(desc.size));
   uint64_t t0 = sgt_now_ns();
   int res = vkfft_plan_create(&desc, vk, r.buf.buffer, bytes, &r.vkfft);
   double ms_create = (double)(sgt_now_ns() - t0) / 1e6;
   SGT_CHECK(res == 0, "%s %s: initializeVkFFT returned %d", pl->name, prec, res);
   if (res == 0) {
      /* A seed per plan and precision: each run stands alone. */
      uint32_t seed = 0x9e3779b9u ^ (uint32_t)(pl - plans) * 2654435761u ^ (dbl ? 0x5bd1e995u : 0);
      double err[2];
      if (pl->r2c)
         check_r2c(&r, &seed, err);
      else
         check_c2c(&r, &seed, err);
      uint32_t uploads = vkfft_plan_uploads(r.vkfft);
      fprintf(stderr,
              "   %-13s %-6s forward %s %.2e, inverse %s %.2e (bound %.0e); axis 0 in %u "
              "upload%s; plan %.0f ms, forward %.0f ms, inverse %.0f ms\n",
              pl->name, prec, pl->r2c ? "R2C" : "C2C", err[0], pl->r2c ? "C2R" : "C2C", err[1],
              bound, uploads, uploads == 1 ? "" : "s", ms_create, r.ms_forward, r.ms_inverse);
      SGT_CHECK(!pl->four_step || uploads > 1,
                "%s %s: VkFFT made %u upload of axis 0, not the four-step algorithm", pl->name,
                prec, uploads);
      SGT_CHECK(err[0] <= bound, "%s %s forward: relative error %.3e above %.0e", pl->name, prec,
                err[0], bound);
      SGT_CHECK(err[1] <= bound, "%s %s inverse: relative error %.3e above %.0e", pl->name, prec,
                err[1], bound);
      vkfft_plan_destroy(r.vkfft);
   }
   sgt_cbuffer_destroy(d, &r.buf);
}

static bool is_plan(const char *name)
{
   for (size_t i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
      if (strcmp(plans[i].name, name) == 0)
         return true;
   }
   return false;
}

int main(int argc, char **argv)
{
   /* Arguments, in any order: a plan's name, "float" or "double". */
   const char *only = NULL, *only_prec = NULL;
   bool usage = argc > 3;
   for (int i = 1; i < argc && !usage; i++) {
      if (strcmp(argv[i], "float") == 0 || strcmp(argv[i], "double") == 0) {
         usage |= only_prec != NULL;
         only_prec = argv[i];
      } else {
         usage |= only != NULL || !is_plan(argv[i]);
         only = argv[i];
      }
   }
   if (usage) {
      fprintf(stderr, "usage: %s [plan] [float|double]; plans:", argv[0]);
      for (size_t i = 0; i < sizeof(plans) / sizeof(plans[0]); i++)
         fprintf(stderr, " %s", plans[i].name);
      fputc('\n', stderr);
      return 2;
   }

   uint64_t t_start = sgt_now_ns();
   struct sgt_cdev d;
   sgt_cdev_create(&d, &(struct sgt_compute_options){.float64 = true});
   fprintf(stderr, "VkFFT %d.%d.%d\n", vkfft_version() / 10000, vkfft_version() / 100 % 100,
           vkfft_version() % 100);
   bool run_double = d.shader_float64;
   if (!run_double && (!only_prec || strcmp(only_prec, "double") == 0))
      sgt_skip("double-precision plans",
               "%s does not offer shaderFloat64, which VkFFT's double-precision shaders need",
               d.props.deviceName);

   SGT_REQUIRE(vkfft_compiler_init(), "glslang_initialize_process failed");
   /* VkFFT uploads its twiddle tables itself, on this queue and fence. */
   VkFence fence;
   VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   SGT_CHECK_VK(vkCreateFence(d.device, &fi, NULL, &fence));
   struct vkfft_vulkan vk = {.pdev = d.pdev, .device = d.device, .queue = d.queues[0],
                             .pool = d.pool, .fence = fence};

   for (size_t i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
      if (only && strcmp(plans[i].name, only) != 0)
         continue;
      if (!only_prec || strcmp(only_prec, "float") == 0)
         run_plan(&d, &plans[i], false, &vk);
      if (run_double && (!only_prec || strcmp(only_prec, "double") == 0))
         run_plan(&d, &plans[i], true, &vk);
   }

   vkDestroyFence(d.device, fence, NULL);
   vkfft_compiler_finish();
   sgt_cdev_destroy(&d);
   fprintf(stderr, "total %.1f s\n", (double)(sgt_now_ns() - t_start) / 1e9);
   return sgt_finish();
}
