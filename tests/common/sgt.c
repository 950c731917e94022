#include "sgt.h"

#include <errno.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int sgt_failures;

#define MAX_SUPPRESSIONS 64
#define MAX_DRIVER_MESSAGES 64

static char *suppressed[MAX_SUPPRESSIONS];
static uint32_t suppressed_count;
static const char *const *expected_ids;
static char *driver_messages[MAX_DRIVER_MESSAGES];
static uint32_t driver_message_count;
static VkDebugUtilsMessengerEXT messenger;

const char *sgt_result_name(VkResult r)
{
   switch (r) {
#define R(x) case x: return #x;
   R(VK_SUCCESS) R(VK_NOT_READY) R(VK_TIMEOUT) R(VK_EVENT_SET) R(VK_EVENT_RESET)
   R(VK_INCOMPLETE) R(VK_ERROR_OUT_OF_HOST_MEMORY) R(VK_ERROR_OUT_OF_DEVICE_MEMORY)
   R(VK_ERROR_INITIALIZATION_FAILED) R(VK_ERROR_DEVICE_LOST) R(VK_ERROR_MEMORY_MAP_FAILED)
   R(VK_ERROR_LAYER_NOT_PRESENT) R(VK_ERROR_EXTENSION_NOT_PRESENT)
   R(VK_ERROR_FEATURE_NOT_PRESENT) R(VK_ERROR_INCOMPATIBLE_DRIVER)
   R(VK_ERROR_TOO_MANY_OBJECTS) R(VK_ERROR_FORMAT_NOT_SUPPORTED) R(VK_ERROR_UNKNOWN)
#undef R
   default: return "(other VkResult)";
   }
}

/* tests/vvl_suppressions.txt: one message ID per line, '#' comments. */
static void load_suppressions(void)
{
   static bool loaded;
   if (loaded)
      return;
   loaded = true;
   FILE *f = fopen(SGT_SOURCE_DIR "/tests/vvl_suppressions.txt", "r");
   SGT_REQUIRE(f, "cannot open tests/vvl_suppressions.txt");
   char line[512];
   while (fgets(line, sizeof(line), f) && suppressed_count < MAX_SUPPRESSIONS) {
      char *hash = strchr(line, '#');
      if (hash)
         *hash = '\0';
      char *id = strtok(line, " \t\r\n");
      if (id)
         suppressed[suppressed_count++] = strdup(id);
   }
   fclose(f);
}

static bool id_listed(const char *id)
{
   if (!id)
      return false;
   for (uint32_t i = 0; i < suppressed_count; i++) {
      if (strcmp(suppressed[i], id) == 0)
         return true;
   }
   for (const char *const *e = expected_ids; e && *e; e++) {
      if (strcmp(*e, id) == 0)
         return true;
   }
   return false;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
   (void)user;
   const char *id = data->pMessageIdName ? data->pMessageIdName : "";
   if (strncmp(id, "softgpu-", 8) == 0) {
      if (driver_message_count < MAX_DRIVER_MESSAGES)
         driver_messages[driver_message_count++] = strdup(data->pMessage);
      return VK_FALSE;
   }
   bool serious = severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT);
   bool validation = types & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT);
   if (serious && validation) {
      if (id_listed(id)) {
         fprintf(stderr, "tolerated validation message %s\n", id);
      } else {
         fprintf(stderr, "validation message: %s\n", data->pMessage);
         sgt_failures++;
      }
   } else if (serious && getenv("SGT_VERBOSE")) {
      /* Loader notes: shown on request only, they are not the driver's. */
      fprintf(stderr, "message: %s\n", data->pMessage);
   }
   return VK_FALSE;
}

void sgt_expect_validation_ids(const char *const *ids)
{
   expected_ids = ids;
}

uint32_t sgt_driver_message_count(void)
{
   return driver_message_count;
}

const char *sgt_driver_message(uint32_t i)
{
   return i < driver_message_count ? driver_messages[i] : NULL;
}

void sgt_clear_driver_messages(void)
{
   for (uint32_t i = 0; i < driver_message_count; i++)
      free(driver_messages[i]);
   driver_message_count = 0;
}

static bool have_layer(const char *name)
{
   uint32_t n = 0;
   vkEnumerateInstanceLayerProperties(&n, NULL);
   VkLayerProperties *props = calloc(n ? n : 1, sizeof(*props));
   vkEnumerateInstanceLayerProperties(&n, props);
   bool found = false;
   for (uint32_t i = 0; i < n; i++)
      found |= strcmp(props[i].layerName, name) == 0;
   free(props);
   return found;
}

VkInstance sgt_create_instance(const struct sgt_instance_options *opts)
{
   static const struct sgt_instance_options defaults;
   if (!opts)
      opts = &defaults;
   SGT_REQUIRE(getenv("VK_DRIVER_FILES"), "VK_DRIVER_FILES must name softgpu's manifest "
               "(CTest sets it; run the test through ctest)");
   load_suppressions();
   /* SGT_VALIDATION=0: the TSan build (see the top CMakeLists.txt). */
   const char *env = getenv("SGT_VALIDATION");
   bool validate = !opts->no_validation && !(env && strcmp(env, "0") == 0);
   if (validate)
      SGT_REQUIRE(have_layer("VK_LAYER_KHRONOS_validation"),
                  "VK_LAYER_KHRONOS_validation is not installed (apt install "
                  "vulkan-validationlayers)");

   const char *exts[16];
   uint32_t n = 0;
   exts[n++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
   if (validate)
      exts[n++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
   for (uint32_t i = 0; i < opts->extension_count && n < 16; i++)
      exts[n++] = opts->extensions[i];

   static const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
   };
   VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = on_message,
   };
   VkValidationFeaturesEXT features = {
      .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
      .pNext = &messenger_info,
      .enabledValidationFeatureCount = 1,
      .pEnabledValidationFeatures = enables,
   };
   const char *layer = "VK_LAYER_KHRONOS_validation";
   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "softgpu test",
      .apiVersion = opts->api_version ? opts->api_version : VK_API_VERSION_1_3,
   };
   VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pNext = validate ? (const void *)&features : (const void *)&messenger_info,
      .pApplicationInfo = &app,
      .enabledLayerCount = validate ? 1 : 0,
      .ppEnabledLayerNames = &layer,
      .enabledExtensionCount = n,
      .ppEnabledExtensionNames = exts,
   };
   VkInstance instance;
   SGT_CHECK_VK(vkCreateInstance(&info, opts->allocator, &instance));
   PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
   SGT_REQUIRE(create, "vkCreateDebugUtilsMessengerEXT missing");
   SGT_CHECK_VK(create(instance, &messenger_info, NULL, &messenger));
   return instance;
}

void sgt_destroy_instance(VkInstance instance)
{
   PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
   destroy(instance, messenger, NULL);
   messenger = VK_NULL_HANDLE;
   vkDestroyInstance(instance, NULL);
}

VkPhysicalDevice sgt_physical_device(VkInstance instance)
{
   uint32_t n = 0;
   SGT_CHECK_VK(vkEnumeratePhysicalDevices(instance, &n, NULL));
   SGT_REQUIRE(n == 1, "expected exactly softgpu, found %u physical devices", n);
   VkPhysicalDevice pdev;
   SGT_CHECK_VK(vkEnumeratePhysicalDevices(instance, &n, &pdev));
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(pdev, &props);
   SGT_REQUIRE(strcmp(props.deviceName, "softgpu") == 0, "the device is %s, not softgpu",
               props.deviceName);
   return pdev;
}

VkDevice sgt_create_simple_device(VkPhysicalDevice pdev)
{
   float priority = 1.0f;
   VkDeviceQueueCreateInfo q = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = 0,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &q,
   };
   VkDevice dev;
   SGT_CHECK_VK(vkCreateDevice(pdev, &info, NULL, &dev));
   return dev;
}

int sgt_run_self(const char *mode, const char *const *env, char **err)
{
   size_t base = 0, extra = 0;
   while (environ[base])
      base++;
   while (env && env[extra])
      extra++;
   char **envp = calloc(base + extra + 1, sizeof(char *));
   size_t k = 0;
   for (size_t i = 0; i < extra; i++)
      envp[k++] = (char *)env[i];
   for (size_t i = 0; i < base; i++) {
      /* An extra entry replaces the inherited one of the same name. */
      const char *eq = strchr(environ[i], '=');
      size_t len = eq ? (size_t)(eq - environ[i]) + 1 : strlen(environ[i]);
      bool replaced = false;
      for (size_t j = 0; j < extra; j++)
         replaced |= strncmp(env[j], environ[i], len) == 0;
      if (!replaced)
         envp[k++] = environ[i];
   }
   int fds[2];
   SGT_REQUIRE(pipe(fds) == 0, "pipe: %s", strerror(errno));
   posix_spawn_file_actions_t actions;
   posix_spawn_file_actions_init(&actions);
   posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
   posix_spawn_file_actions_addclose(&actions, fds[0]);
   char self[4096];
   ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
   SGT_REQUIRE(len > 0, "readlink /proc/self/exe");
   self[len] = '\0';
   char *argv[] = {self, (char *)mode, NULL};
   pid_t pid;
   int rc = posix_spawn(&pid, self, &actions, NULL, argv, envp);
   SGT_REQUIRE(rc == 0, "posix_spawn: %s", strerror(rc));
   close(fds[1]);
   size_t cap = 4096, used = 0;
   char *buf = malloc(cap);
   ssize_t got;
   while ((got = read(fds[0], buf + used, cap - used - 1)) > 0) {
      used += (size_t)got;
      if (cap - used < 1024)
         buf = realloc(buf, cap *= 2);
   }
   buf[used] = '\0';
   close(fds[0]);
   int status;
   waitpid(pid, &status, 0);
   posix_spawn_file_actions_destroy(&actions);
   free(envp);
   *err = buf;
   return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void sgt_host_pause(void)
{
   static _Thread_local uint32_t state = 12345;
   const char *v = getenv("SGT_SLOW_HOST");
   if (!v || !*v || strcmp(v, "0") == 0)
      return;
   state = state * 1103515245u + 12345u;
   usleep(100 + (state >> 16) % 400);
}

int sgt_finish(void)
{
   sgt_clear_driver_messages();
   if (sgt_failures) {
      fprintf(stderr, "FAIL: %d check(s) failed\n", sgt_failures);
      return 1;
   }
   fprintf(stderr, "PASS\n");
   return 0;
}

/* ---- stderr capture -------------------------------------------------------------- */

static int capture_saved_fd = -1;
static char capture_path[64];

void sgt_stderr_begin(void)
{
   fflush(stderr);
   snprintf(capture_path, sizeof(capture_path), "/tmp/softgpu-sgt-XXXXXX");
   int fd = mkstemp(capture_path);
   SGT_REQUIRE(fd >= 0, "mkstemp: %s", strerror(errno));
   capture_saved_fd = dup(2);
   SGT_REQUIRE(capture_saved_fd >= 0 && dup2(fd, 2) == 2, "redirecting stderr");
   close(fd);
}

void *sgt_read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
   char *buf = n >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
   size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
   fclose(f);
   if (!buf || got != (size_t)n) {
      free(buf);
      return NULL;
   }
   buf[got] = '\0';
   *size = got;
   return buf;
}

static char *capture_read(void)
{
   enum { CAPTURE_BYTES = 1 << 20 };
   char *text = calloc(1, CAPTURE_BYTES);
   SGT_REQUIRE(text, "out of memory");
   FILE *f = fopen(capture_path, "r");
   if (f) {
      size_t n = fread(text, 1, CAPTURE_BYTES - 1, f);
      text[n] = '\0';
      fclose(f);
   }
   return text;
}

bool sgt_stderr_wait(const char *const *needles, uint32_t timeout_ms)
{
   for (uint32_t waited = 0;; waited += 20) {
      fflush(stderr);
      char *text = capture_read();
      bool all = true;
      for (const char *const *n = needles; *n && all; n++)
         all = strstr(text, *n) != NULL;
      free(text);
      if (all)
         return true;
      if (waited >= timeout_ms)
         return false;
      usleep(20000);
   }
}

char *sgt_stderr_end(void)
{
   fflush(stderr);
   SGT_REQUIRE(dup2(capture_saved_fd, 2) == 2, "restoring stderr");
   close(capture_saved_fd);
   char *text = capture_read();
   unlink(capture_path);
   fputs(text, stderr);
   return text;
}
