/*
 * The logging module: SOFTGPU_LOG selects levels and areas without a
 * rebuild; by default errors and warnings reach stderr, so every refused
 * call says why; a core command softgpu does not implement yet logs once
 * and returns the nearest legal VkResult.
 *
 * Each case runs this binary again as a child (the driver reads SOFTGPU_LOG
 * once per process) without the validation layer, so that stderr holds only
 * what softgpu wrote.
 */
#include <string.h>

#include "sgt.h"

static VkInstance quiet_instance(void)
{
   struct sgt_instance_options opts = {.no_validation = true};
   return sgt_create_instance(&opts);
}

/* Child: asks for a feature softgpu does not have. */
static int child_unsupported(void)
{
   VkInstance inst = quiet_instance();
   VkPhysicalDevice pdev = sgt_physical_device(inst);
   float priority = 1.0f;
   VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueCount = 1, .pQueuePriorities = &priority};
   VkPhysicalDeviceFeatures want = {.geometryShader = VK_TRUE};
   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &q,
                              .pEnabledFeatures = &want};
   VkDevice dev;
   VkResult r = vkCreateDevice(pdev, &info, NULL, &dev);
   sgt_destroy_instance(inst);
   return r == VK_ERROR_FEATURE_NOT_PRESENT ? 0 : 1;
}

/* Child: calls a core command softgpu does not implement, twice. */
static int child_stub(void)
{
   VkInstance inst = quiet_instance();
   VkDevice dev = sgt_create_simple_device(sgt_physical_device(inst));
   VkSubpassDescription subpass = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS};
   VkRenderPassCreateInfo info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                  .subpassCount = 1, .pSubpasses = &subpass};
   int bad = 0;
   for (int i = 0; i < 2; i++) {
      VkRenderPass rp = VK_NULL_HANDLE;
      VkResult r = vkCreateRenderPass(dev, &info, NULL, &rp);
      bad |= r != VK_ERROR_OUT_OF_HOST_MEMORY || rp != VK_NULL_HANDLE;
   }
   vkDestroyDevice(dev, NULL);
   sgt_destroy_instance(inst);
   return bad;
}

static char *run(const char *mode, const char *log_spec)
{
   char env[256];
   snprintf(env, sizeof(env), "SOFTGPU_LOG=%s", log_spec);
   const char *const envs[] = {env, NULL};
   char *err;
   int status = sgt_run_self(mode, envs, &err);
   SGT_CHECK(status == 0, "child %s with %s exited %d:\n%s", mode, env, status, err);
   return err;
}

static size_t count(const char *text, const char *needle)
{
   size_t n = 0;
   for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
      n++;
   return n;
}

#define AT_LEAST_ONCE ((size_t)-1)

static void expect(const char *mode, const char *spec, const char *needle, size_t times)
{
   char *err = run(mode, spec);
   size_t n = count(err, needle);
   SGT_CHECK(times == AT_LEAST_ONCE ? n >= 1 : n == times, "SOFTGPU_LOG=\"%s\": \"%s\" appears %zu times, expected %zu; stderr:\n%s",
             spec, needle, n, times, err);
   free(err);
}

int main(int argc, char **argv)
{
   if (argc > 1 && strcmp(argv[1], "unsupported") == 0)
      return child_unsupported();
   if (argc > 1 && strcmp(argv[1], "stub") == 0)
      return child_stub();

   const char *why = "softgpu: error: api: vkCreateDevice: feature pEnabledFeatures.geometryShader "
                     "is not supported by softgpu: VK_ERROR_FEATURE_NOT_PRESENT";
   /* Default (and an empty spec): errors and warnings. */
   expect("unsupported", "", why, 1);
   expect("unsupported", "", "softgpu: info:", 0);
   expect("unsupported", "warn", why, 1);
   expect("unsupported", "none", "softgpu:", 0);
   expect("unsupported", "debug", why, 1);
   expect("unsupported", "debug", "softgpu: info: api: instance created", 1);
   /* The loader may load the driver more than once per process. */
   expect("unsupported", "debug", "softgpu: debug: icd: loader interface version", AT_LEAST_ONCE);
   /* Per-area selection: only icd at debug, everything else silent. */
   expect("unsupported", "none;debug:icd", "softgpu: debug: icd:", AT_LEAST_ONCE);
   expect("unsupported", "none;debug:icd", "api:", 0);
   expect("unsupported", "no-such-level", "does not parse", 1);
   /* A command not implemented yet: logged once, nearest legal result. */
   expect("stub", "", "vkCreateRenderPass is not supported by softgpu yet; returning "
                      "VK_ERROR_OUT_OF_HOST_MEMORY", 1);
   return sgt_finish();
}
