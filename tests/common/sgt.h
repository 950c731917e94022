/*
 * softgpu test helpers. Tests reach the driver only through the Vulkan
 * loader, with VK_DRIVER_FILES naming the build-tree manifest (set by
 * CTest), and by default with VK_LAYER_KHRONOS_validation and its
 * synchronization validation enabled: any validation error or warning
 * fails the test unless its message ID is listed in
 * tests/vvl_suppressions.txt.
 */
#ifndef SGT_H
#define SGT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <vulkan/vulkan.h>

extern int sgt_failures;

#define SGT_CHECK(cond, ...)                                                   \
   do {                                                                        \
      if (!(cond)) {                                                           \
         fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
         fprintf(stderr, __VA_ARGS__);                                         \
         fputc('\n', stderr);                                                  \
         sgt_failures++;                                                       \
      }                                                                        \
   } while (0)

/* Like SGT_CHECK, but a failure ends the test at once. */
#define SGT_REQUIRE(cond, ...)                                                 \
   do {                                                                        \
      if (!(cond)) {                                                           \
         fprintf(stderr, "%s:%d: requirement failed: %s: ", __FILE__, __LINE__, #cond); \
         fprintf(stderr, __VA_ARGS__);                                         \
         fputc('\n', stderr);                                                  \
         exit(1);                                                              \
      }                                                                        \
   } while (0)

#define SGT_CHECK_VK(expr)                                                     \
   do {                                                                        \
      VkResult sgt_r_ = (expr);                                                \
      SGT_REQUIRE(sgt_r_ == VK_SUCCESS, "%s returned %s", #expr, sgt_result_name(sgt_r_)); \
   } while (0)

const char *sgt_result_name(VkResult r);

struct sgt_instance_options {
   bool no_validation;             /* skip the validation layer (fault and OOM tests) */
   uint32_t api_version;           /* 0: VK_API_VERSION_1_3 */
   uint32_t extension_count;       /* extra instance extensions */
   const char *const *extensions;
   const VkAllocationCallbacks *allocator;
};

/* Creates an instance. With validation, VK_EXT_debug_utils is enabled and
 * a messenger counts validation messages. */
VkInstance sgt_create_instance(const struct sgt_instance_options *opts);
void sgt_destroy_instance(VkInstance instance);

/* The one physical device (softgpu), checked by name. */
VkPhysicalDevice sgt_physical_device(VkInstance instance);

/* A device with one queue of family 0 and nothing else enabled. */
VkDevice sgt_create_simple_device(VkPhysicalDevice pdev);

/* Message IDs the next validation messages may carry without failing the
 * test (for tests that exercise invalid usage on purpose). NULL ends the
 * list; pass NULL alone to clear. */
void sgt_expect_validation_ids(const char *const *ids);

/* Messages softgpu itself sent through the debug-utils messenger (GENERAL
 * type, "softgpu-*" IDs), most recent last. */
uint32_t sgt_driver_message_count(void);
const char *sgt_driver_message(uint32_t i);
void sgt_clear_driver_messages(void);

/* Runs this test binary again as a child with extra environment entries
 * ("NAME=value", NULL-terminated) and argv[1] = mode; returns its exit
 * status and, in *err (malloc'd, NUL-terminated), its stderr. */
int sgt_run_self(const char *mode, const char *const *env, char **err);

/* stderr goes to a temporary file between sgt_stderr_begin and
 * sgt_stderr_end, which returns what was written (malloc'd) and echoes it
 * to the real stderr. sgt_stderr_wait polls the file until it holds every
 * needle (NULL-terminated), for up to timeout_ms; false if it never did. */
void sgt_stderr_begin(void);
char *sgt_stderr_end(void);
bool sgt_stderr_wait(const char *const *needles, uint32_t timeout_ms);

/* The whole of a file (malloc'd, with a NUL after its `*size` bytes, so
 * text can be read as a string), or NULL if it cannot be read. */
void *sgt_read_file(const char *path, size_t *size);

/* In the slow-host variant of a sync test (SGT_SLOW_HOST=1), sleeps a few
 * hundred microseconds (pseudo-randomly); otherwise does nothing. Tests
 * call it between host steps so the GPU runs ahead of the host. */
void sgt_host_pause(void);

/* Ends the test: reports and returns the process exit code. */
int sgt_finish(void);

#endif
