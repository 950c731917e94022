/*
 * VkAllocationCallbacks are honoured by every create and destroy: with an
 * allocator that fails its Nth allocation, for every N, each call either
 * succeeds or returns VK_ERROR_OUT_OF_HOST_MEMORY, nothing crashes, and once
 * everything is destroyed no allocation is left. The same allocator shows
 * that object names are stored (and freed) with the device's callbacks.
 *
 * Runs without the validation layer: the layer allocates through the same
 * callbacks and is not written to survive allocation failures, which would
 * test the layer rather than softgpu.
 */
#include <dlfcn.h>
#include <string.h>

#include "sgt.h"

struct counter {
   uint64_t calls;     /* allocation calls so far */
   uint64_t fail_at;   /* the call that fails; 0: none */
   int64_t live;       /* allocations not yet freed */
   bool failed_in_driver;  /* the failed call came from softgpu, not the loader */
};

static bool called_from_driver(const void *return_address)
{
   Dl_info info;
   return dladdr(return_address, &info) && info.dli_fname &&
          strstr(info.dli_fname, "libvulkan_softgpu") != NULL;
}

/* The loader allocates through the same callbacks and carries on when some
 * of its own allocations fail; softgpu must fail the call instead. */
static bool fail_now(struct counter *c, const void *return_address)
{
   if (++c->calls != c->fail_at)
      return false;
   c->failed_in_driver = called_from_driver(return_address);
   return true;
}

static void *VKAPI_PTR count_alloc(void *user, size_t size, size_t align,
                                   VkSystemAllocationScope scope)
{
   (void)scope;
   struct counter *c = user;
   if (fail_now(c, __builtin_return_address(0)))
      return NULL;
   void *p = NULL;
   if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1))
      return NULL;
   c->live++;
   return p;
}

static void *VKAPI_PTR count_realloc(void *user, void *orig, size_t size, size_t align,
                                     VkSystemAllocationScope scope)
{
   struct counter *c = user;
   if (!orig)
      return count_alloc(user, size, align, scope);
   if (size == 0) {
      free(orig);
      c->live--;
      return NULL;
   }
   if (fail_now(c, __builtin_return_address(0)))
      return NULL;
   return realloc(orig, size);
}

static void VKAPI_PTR count_free(void *user, void *p)
{
   struct counter *c = user;
   if (p) {
      free(p);
      c->live--;
   }
}

static VKAPI_ATTR VkBool32 VKAPI_CALL ignore_message(VkDebugUtilsMessageSeverityFlagBitsEXT s,
                                                     VkDebugUtilsMessageTypeFlagsEXT t,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *d,
                                                     void *u)
{
   (void)s, (void)t, (void)d, (void)u;
   return VK_FALSE;
}

struct objects {
   VkInstance instance;
   VkDevice device;
   VkPrivateDataSlot slots[6];
   VkDebugUtilsMessengerEXT messenger;
};

#define STEP(expr)                                                             \
   do {                                                                        \
      VkResult r_ = (expr);                                                    \
      if (r_ != VK_SUCCESS)                                                    \
         return r_;                                                            \
   } while (0)

static VkResult create_instance_and_device(const VkAllocationCallbacks *a, struct objects *o)
{
   const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                              .pApplicationInfo = &app, .enabledExtensionCount = 1,
                              .ppEnabledExtensionNames = &ext};
   STEP(vkCreateInstance(&ii, a, &o->instance));
   uint32_t n = 1;
   VkPhysicalDevice pdev;
   STEP(vkEnumeratePhysicalDevices(o->instance, &n, &pdev));
   static const float prio[16] = {0};
   VkDeviceQueueCreateInfo q[2] = {
      {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0,
       .queueCount = 16, .pQueuePriorities = prio},
      {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 1,
       .queueCount = 1, .pQueuePriorities = prio},
   };
   VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .queueCreateInfoCount = 2, .pQueueCreateInfos = q};
   return vkCreateDevice(pdev, &di, a, &o->device);
}

/* Everything this stage can create, each with the counting allocator. */
static VkResult create_all(const VkAllocationCallbacks *a, struct objects *o)
{
   STEP(create_instance_and_device(a, o));
   VkPrivateDataSlotCreateInfo si = {.sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO};
   for (int i = 0; i < 6; i++) {
      STEP(vkCreatePrivateDataSlot(o->device, &si, a, &o->slots[i]));
      STEP(vkSetPrivateData(o->device, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)o->device,
                            o->slots[i], (uint64_t)i));
   }
   PFN_vkSetDebugUtilsObjectNameEXT set_name = (PFN_vkSetDebugUtilsObjectNameEXT)
      vkGetDeviceProcAddr(o->device, "vkSetDebugUtilsObjectNameEXT");
   VkDebugUtilsObjectNameInfoEXT name = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                         .objectType = VK_OBJECT_TYPE_DEVICE,
                                         .objectHandle = (uint64_t)(uintptr_t)o->device,
                                         .pObjectName = "device under test"};
   STEP(set_name(o->device, &name));
   PFN_vkCreateDebugUtilsMessengerEXT create_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)
      vkGetInstanceProcAddr(o->instance, "vkCreateDebugUtilsMessengerEXT");
   VkDebugUtilsMessengerCreateInfoEXT mi = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
      .pfnUserCallback = ignore_message};
   return create_messenger(o->instance, &mi, a, &o->messenger);
}

static void destroy_all(const VkAllocationCallbacks *a, struct objects *o)
{
   if (o->messenger) {
      PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(o->instance, "vkDestroyDebugUtilsMessengerEXT");
      destroy(o->instance, o->messenger, a);
   }
   for (int i = 0; i < 6; i++) {
      if (o->slots[i])
         vkDestroyPrivateDataSlot(o->device, o->slots[i], a);
   }
   if (o->device)
      vkDestroyDevice(o->device, a);
   if (o->instance)
      vkDestroyInstance(o->instance, a);
   memset(o, 0, sizeof(*o));
}

static void test_every_failure_point(void)
{
   struct counter c = {0};
   VkAllocationCallbacks a = {.pUserData = &c, .pfnAllocation = count_alloc,
                              .pfnReallocation = count_realloc, .pfnFree = count_free};
   struct objects o = {0};
   SGT_CHECK_VK(create_all(&a, &o));
   destroy_all(&a, &o);
   uint64_t total = c.calls;
   SGT_CHECK(c.live == 0, "%lld allocations leaked on the success path", (long long)c.live);
   SGT_CHECK(total > 10, "only %llu allocations: the callbacks are not used",
             (unsigned long long)total);

   uint64_t in_driver = 0;
   for (uint64_t n = 1; n <= total; n++) {
      c = (struct counter){.fail_at = n};
      VkResult r = create_all(&a, &o);
      if (c.failed_in_driver) {
         in_driver++;
         SGT_CHECK(r == VK_ERROR_OUT_OF_HOST_MEMORY, "softgpu's allocation %llu failing: %s",
                   (unsigned long long)n, sgt_result_name(r));
      } else {
         SGT_CHECK(r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_SUCCESS,
                   "loader's allocation %llu failing: %s", (unsigned long long)n, sgt_result_name(r));
      }
      destroy_all(&a, &o);
      SGT_CHECK(c.live == 0, "allocation %llu failing: %lld allocations leaked",
                (unsigned long long)n, (long long)c.live);
   }
   SGT_CHECK(in_driver >= 10, "only %llu of softgpu's allocations were failed",
             (unsigned long long)in_driver);
   fprintf(stderr, "checked %llu allocation failure points, %llu of them softgpu's\n",
           (unsigned long long)total, (unsigned long long)in_driver);
}

/* Names live in memory from the device's callbacks: setting one takes an
 * allocation, clearing it gives it back. */
static void test_name_storage(void)
{
   struct counter c = {0};
   VkAllocationCallbacks a = {.pUserData = &c, .pfnAllocation = count_alloc,
                              .pfnReallocation = count_realloc, .pfnFree = count_free};
   struct objects o = {0};
   SGT_CHECK_VK(create_instance_and_device(&a, &o));
   VkQueue queue;
   vkGetDeviceQueue(o.device, 0, 3, &queue);
   PFN_vkSetDebugUtilsObjectNameEXT set_name = (PFN_vkSetDebugUtilsObjectNameEXT)
      vkGetDeviceProcAddr(o.device, "vkSetDebugUtilsObjectNameEXT");
   VkDebugUtilsObjectNameInfoEXT name = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                         .objectType = VK_OBJECT_TYPE_QUEUE,
                                         .objectHandle = (uint64_t)(uintptr_t)queue,
                                         .pObjectName = "queue three"};
   int64_t before = c.live;
   SGT_CHECK_VK(set_name(o.device, &name));
   SGT_CHECK(c.live == before + 1, "naming took %lld allocations", (long long)(c.live - before));
   name.pObjectName = "queue 3";
   SGT_CHECK_VK(set_name(o.device, &name));
   SGT_CHECK(c.live == before + 1, "renaming leaked");
   name.pObjectName = NULL;
   SGT_CHECK_VK(set_name(o.device, &name));
   SGT_CHECK(c.live == before, "clearing the name did not free it");
   name.pObjectName = "named at destruction";
   SGT_CHECK_VK(set_name(o.device, &name));
   destroy_all(&a, &o);
   SGT_CHECK(c.live == 0, "%lld allocations leaked", (long long)c.live);
}

int main(void)
{
   SGT_REQUIRE(getenv("VK_DRIVER_FILES"), "run through ctest");
   test_every_failure_point();
   test_name_storage();
   return sgt_finish();
}
