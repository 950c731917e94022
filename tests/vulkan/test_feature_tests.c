/*
 * Every feature and device extension softgpu advertises has tests that
 * exercise it, listed in tests/vulkan/feature_tests.inc. The test fails
 * when
 *
 * - an advertised feature (a VK_TRUE member of any feature struct the
 *   driver fills, each queried on its own through the loader) or device
 *   extension has no entry;
 * - an entry names a feature or extension that is not advertised (a stale
 *   entry: remove it with the feature);
 * - an FT_CTS entry names a case that tests/cts/ci-caselist.txt does not
 *   list (CI would never run it);
 * - an FT_OWN entry names a test source tests/vulkan/<test>.c that does not
 *   exist or has no subtest of that name.
 *
 * And SOFTGPU_HIDE_FEATURES itself, in a child process: a hidden feature
 * and a hidden extension are no longer advertised (and nothing else is
 * lost), vkCreateDevice refuses them, and a name that is neither is
 * ignored.
 *
 * That the mapped tests really use what they are mapped to is checked by
 * tools/check-feature-tests (test_feature_tests_hidden), which hides each
 * name with SOFTGPU_HIDE_FEATURES and runs its tests.
 */
#include <string.h>

#include "sg_struct_tables.h"
#include "sgt.h"

struct entry {
   const char *name;
   const char *test;       /* FT_OWN: the test binary; FT_CTS: NULL */
   const char *subtest;    /* FT_OWN: the subtest; FT_CTS: the case */
};

static const struct entry entries[] = {
#define FT_OWN(name, test, subtest) {name, test, subtest},
#define FT_CTS(name, cts_case) {name, NULL, cts_case},
#include "feature_tests.inc"
#undef FT_OWN
#undef FT_CTS
};
#define ENTRY_COUNT (sizeof(entries) / sizeof(entries[0]))

#define MAX_NAMES 512

/* What the driver advertises, by name. */
static const char *advertised[MAX_NAMES];
static uint32_t advertised_count;

static void add_advertised(const char *name)
{
   for (uint32_t i = 0; i < advertised_count; i++) {
      if (strcmp(advertised[i], name) == 0)
         return;
   }
   SGT_REQUIRE(advertised_count < MAX_NAMES, "more than %u advertised names", MAX_NAMES);
   advertised[advertised_count++] = strdup(name);
}

static bool is_advertised(const char *name)
{
   for (uint32_t i = 0; i < advertised_count; i++) {
      if (strcmp(advertised[i], name) == 0)
         return true;
   }
   return false;
}

static bool has_entry(const char *name)
{
   for (uint32_t i = 0; i < ENTRY_COUNT; i++) {
      if (strcmp(entries[i].name, name) == 0)
         return true;
   }
   return false;
}

/* Every feature struct the driver knows, queried alone, so that a struct
 * the driver filled differently from the core blocks would show. */
static void collect_features(VkPhysicalDevice pdev)
{
   for (uint32_t i = 0; i < sg_feature_struct_count; i++) {
      const struct sg_struct_info *st = &sg_feature_structs[i];
      _Alignas(8) unsigned char buf[4096];
      memset(buf, 0, sizeof(buf));
      VkBaseOutStructure *s = (VkBaseOutStructure *)buf;
      VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
      if (st->stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
         vkGetPhysicalDeviceFeatures2(pdev, &f2);
         memcpy(buf, &f2, sizeof(f2));
      } else {
         s->sType = st->stype;
         f2.pNext = s;
         vkGetPhysicalDeviceFeatures2(pdev, &f2);
      }
      for (uint32_t k = 0; k < st->member_count; k++) {
         const struct sg_struct_member *m = &st->members[k];
         SGT_REQUIRE(m->offset + m->size <= sizeof(buf), "%s is larger than %zu bytes", st->name,
                     sizeof(buf));
         if (m->size == sizeof(VkBool32) && *(const VkBool32 *)(buf + m->offset) == VK_TRUE)
            add_advertised(m->name);
      }
   }
}

static uint32_t collect_extensions(VkPhysicalDevice pdev)
{
   uint32_t n = 0;
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, NULL));
   VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(pdev, NULL, &n, props));
   for (uint32_t i = 0; i < n; i++)
      add_advertised(props[i].extensionName);
   free(props);
   return n;
}

/* Is `line` a whole line of text? */
static bool has_line(const char *text, const char *line)
{
   size_t len = strlen(line);
   for (const char *p = strstr(text, line); p; p = strstr(p + 1, line)) {
      if ((p == text || p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0'))
         return true;
   }
   return false;
}

/* What the child of check_hiding hides: a feature, an extension, and a
 * name that is neither (ignored), in the separators the driver accepts. */
#define HIDDEN_FEATURE "shaderInt64"
#define HIDDEN_EXTENSION VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME
#define HIDE_SPEC "SOFTGPU_HIDE_FEATURES= " HIDDEN_FEATURE ",noSuchFeature, " HIDDEN_EXTENSION ","

static VkResult create_device(VkPhysicalDevice pdev, const VkPhysicalDeviceFeatures *features,
                              const char *extension)
{
   const float priority = 1.0f;
   VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueCount = 1,
                                .pQueuePriorities = &priority};
   VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &q,
                              .enabledExtensionCount = extension ? 1 : 0,
                              .ppEnabledExtensionNames = &extension,
                              .pEnabledFeatures = features};
   VkDevice dev = VK_NULL_HANDLE;
   VkResult r = vkCreateDevice(pdev, &info, NULL, &dev);
   if (r == VK_SUCCESS)
      vkDestroyDevice(dev, NULL);
   return r;
}

/* The child: run with HIDE_SPEC; SGT_FT_ADVERTISED is how many names the
 * parent saw advertised. */
static int hidden_child(void)
{
   VkInstance instance = sgt_create_instance(NULL);
   VkPhysicalDevice pdev = sgt_physical_device(instance);
   collect_features(pdev);
   collect_extensions(pdev);
   const char *parent = getenv("SGT_FT_ADVERTISED");
   SGT_REQUIRE(parent, "run only by test_feature_tests itself");
   SGT_CHECK(!is_advertised(HIDDEN_FEATURE), "hidden %s is advertised", HIDDEN_FEATURE);
   SGT_CHECK(!is_advertised(HIDDEN_EXTENSION), "hidden %s is advertised", HIDDEN_EXTENSION);
   SGT_CHECK(advertised_count + 2 == strtoul(parent, NULL, 10),
             "%u names advertised with two hidden, %s without", advertised_count, parent);

   /* A hidden feature is refused like an unsupported one, with a message
    * that says why. */
   static const char *const tolerated[] = {"VUID-VkDeviceCreateInfo-pEnabledFeatures-parameter",
                                           NULL};
   sgt_expect_validation_ids(tolerated);
   sgt_clear_driver_messages();
   VkPhysicalDeviceFeatures want = {.shaderInt64 = VK_TRUE};
   VkResult r = create_device(pdev, &want, NULL);
   SGT_CHECK(r == VK_ERROR_FEATURE_NOT_PRESENT, "hidden %s: %s", HIDDEN_FEATURE,
             sgt_result_name(r));
   bool named = false;
   for (uint32_t i = 0; i < sgt_driver_message_count(); i++)
      named |= strstr(sgt_driver_message(i), "hidden by SOFTGPU_HIDE_FEATURES") != NULL;
   SGT_CHECK(named, "no driver message says %s is hidden", HIDDEN_FEATURE);
   r = create_device(pdev, NULL, HIDDEN_EXTENSION);
   SGT_CHECK(r == VK_ERROR_EXTENSION_NOT_PRESENT, "hidden %s: %s", HIDDEN_EXTENSION,
             sgt_result_name(r));
   sgt_expect_validation_ids(NULL);
   SGT_CHECK_VK(create_device(pdev, NULL, NULL));
   for (uint32_t i = 0; i < advertised_count; i++)
      free((void *)advertised[i]);
   sgt_destroy_instance(instance);
   return sgt_finish();
}

static void check_hiding(void)
{
   SGT_REQUIRE(is_advertised(HIDDEN_FEATURE) && is_advertised(HIDDEN_EXTENSION),
               "pick another feature and extension to hide: %s or %s is not advertised",
               HIDDEN_FEATURE, HIDDEN_EXTENSION);
   char count[64];
   snprintf(count, sizeof(count), "SGT_FT_ADVERTISED=%u", advertised_count);
   const char *const env[] = {HIDE_SPEC, count, NULL};
   char *err;
   int status = sgt_run_self("hidden", env, &err);
   SGT_CHECK(status == 0, "with %s, the child exited %d:\n%s", HIDE_SPEC, status, err);
   SGT_CHECK(strstr(err, "noSuchFeature is neither"), "no message says noSuchFeature is ignored:"
             "\n%s", err);
   free(err);
}

int main(int argc, char **argv)
{
   if (argc > 1 && strcmp(argv[1], "hidden") == 0)
      return hidden_child();
   VkInstance instance = sgt_create_instance(NULL);
   VkPhysicalDevice pdev = sgt_physical_device(instance);
   collect_features(pdev);
   uint32_t features = advertised_count;
   uint32_t extensions = collect_extensions(pdev);
   fprintf(stderr, "%u features and %u device extensions advertised; %zu table entries\n",
           features, extensions, ENTRY_COUNT);

   uint32_t missing = 0;
   for (uint32_t i = 0; i < advertised_count; i++) {
      if (!has_entry(advertised[i])) {
         fprintf(stderr, "   %s is advertised but has no entry; add its tests, e.g.\n"
                 "      FT_OWN(\"%s\", \"test_...\", \"subtest\")\n"
                 "      FT_CTS(\"%s\", \"dEQP-VK....\")\n", advertised[i], advertised[i],
                 advertised[i]);
         missing++;
      }
   }
   SGT_CHECK(missing == 0, "%u advertised features or extensions have no entry in "
             "tests/vulkan/feature_tests.inc", missing);

   size_t size;
   char *caselist = sgt_read_file(SGT_SOURCE_DIR "/tests/cts/ci-caselist.txt", &size);
   SGT_REQUIRE(caselist, "cannot read tests/cts/ci-caselist.txt");
   for (uint32_t i = 0; i < ENTRY_COUNT; i++) {
      const struct entry *e = &entries[i];
      SGT_CHECK(is_advertised(e->name), "feature_tests.inc maps %s, which softgpu does not "
                "advertise: remove the stale entry", e->name);
      if (!e->test) {
         SGT_CHECK(has_line(caselist, e->subtest), "%s: CTS case %s is not in "
                   "tests/cts/ci-caselist.txt, so CI never runs it", e->name, e->subtest);
         continue;
      }
      char path[512], needle[256];
      snprintf(path, sizeof(path), SGT_SOURCE_DIR "/tests/vulkan/%s.c", e->test);
      snprintf(needle, sizeof(needle), "{\"%s\", ", e->subtest);
      char *src = sgt_read_file(path, &size);
      SGT_CHECK(src, "%s: no test source %s", e->name, path);
      if (src)
         SGT_CHECK(strstr(src, needle), "%s: %s has no subtest \"%s\"", e->name, path, e->subtest);
      free(src);
   }
   free(caselist);
   check_hiding();
   for (uint32_t i = 0; i < advertised_count; i++)
      free((void *)advertised[i]);
   sgt_destroy_instance(instance);
   return sgt_finish();
}
