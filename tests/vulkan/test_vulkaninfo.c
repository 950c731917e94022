/*
 * Debian's vulkaninfo runs to completion on softgpu: the summary names the
 * device and its API version, and the full report (every query vulkaninfo
 * knows, including long pNext chains and every format) produces no
 * validation message with the Khronos validation layer and its
 * synchronization validation on.
 */
#include <string.h>

#include "sgt.h"

static char *run(const char *command, int *status)
{
   FILE *p = popen(command, "r");
   SGT_REQUIRE(p, "popen %s", command);
   size_t cap = 1 << 16, used = 0;
   char *out = malloc(cap);
   size_t got;
   while ((got = fread(out + used, 1, cap - used - 1, p)) > 0) {
      used += got;
      if (cap - used < 4096)
         out = realloc(out, cap *= 2);
   }
   out[used] = '\0';
   *status = pclose(p);
   return out;
}

int main(void)
{
   SGT_REQUIRE(getenv("VK_DRIVER_FILES"), "run through ctest");
   int status;
   char *summary = run(SGT_VULKANINFO " --summary 2>&1", &status);
   SGT_CHECK(status == 0, "vulkaninfo --summary failed (%d):\n%s", status, summary);
   SGT_CHECK(strstr(summary, "deviceName         = softgpu") != NULL, "device name:\n%s", summary);
   char want[64];
   snprintf(want, sizeof(want), "apiVersion         = 1.3.%d", VK_HEADER_VERSION);
   SGT_CHECK(strstr(summary, want) != NULL, "no \"%s\" in:\n%s", want, summary);
   SGT_CHECK(strstr(summary, "PHYSICAL_DEVICE_TYPE_CPU") != NULL, "device type:\n%s", summary);
   free(summary);

   char *full = run("VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "
                    "VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT "
                    SGT_VULKANINFO " 2>&1", &status);
   SGT_CHECK(status == 0, "vulkaninfo failed (%d)", status);
   SGT_CHECK(strstr(full, "VkPhysicalDeviceVulkan13Properties") != NULL, "report incomplete");
   static const char *const bad[] = {"Validation Error", "Validation Warning", "VUID-",
                                     "UNASSIGNED-", "SYNC-"};
   for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      const char *hit = strstr(full, bad[i]);
      SGT_CHECK(!hit, "validation message in vulkaninfo output: %.300s", hit);
   }
   free(full);
   return sgt_finish();
}
