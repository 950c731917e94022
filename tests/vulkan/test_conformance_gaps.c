/*
 * docs/conformance-gaps.md lists exactly the mandatory Vulkan 1.0-1.3
 * features, limits and formats that softgpu does not meet yet, no more and
 * no fewer.
 *
 * Every requirement in conformance_requirements.inc is evaluated against
 * what the driver reports through the loader (properties, features,
 * extensions, format properties) and gets a stable ID:
 *
 *   feature:v12f.timelineSemaphore
 *   limit:v10p.limits.maxImageDimension1D      (>= or <= a spec value)
 *   bits:v11p.subgroupSupportedOperations      (required bits set)
 *   pow2:v10p.limits.nonCoherentAtomSize       (a power of two)
 *   format:VK_FORMAT_R8_UNORM:optimal          (optimal / linear / buffer)
 *   spirv:ShaderNonUniform                     (a SPIR-V capability or extension
 *                                               the reported API version enables:
 *                                               the compiler must implement it)
 *
 * Several entries may share one ID (a feature required unconditionally
 * and again when an extension is advertised, a format's optimal bits
 * split over several entries); the ID is unmet when any of them is. A
 * conditional entry whose condition is false is not a requirement: met.
 *
 * The test fails when an unmet requirement has no row in the file (and
 * prints the rows to paste), when a row names a requirement that is met
 * (the file would lie: remove the row), when a row names no requirement
 * at all, and when a row is repeated.
 */
#include <string.h>

#include "sc_compiler.h"
#include "sg_spirv_tables.h"
#include "sgt.h"

#define GAP_FILE "docs/conformance-gaps.md"
#define MAX_ID 96
#define MAX_NEED 512
#define MAX_REQS 1024
#define MAX_ROWS 1024

/* What the driver reports; member names are those the .inc expects. */
struct ctx {
   VkPhysicalDevice pdev;
   VkPhysicalDeviceProperties v10p;
   VkPhysicalDeviceVulkan11Properties v11p;
   VkPhysicalDeviceVulkan12Properties v12p;
   VkPhysicalDeviceVulkan13Properties v13p;
   VkPhysicalDeviceFeatures v10f;
   VkPhysicalDeviceVulkan11Features v11f;
   VkPhysicalDeviceVulkan12Features v12f;
   VkPhysicalDeviceVulkan13Features v13f;
   VkExtensionProperties *extensions;
   uint32_t extension_count;
};

/* One requirement ID and whether the driver meets it. */
struct req {
   char id[MAX_ID];
   bool applies;                 /* some entry's condition holds */
   bool met;
   char need[MAX_NEED];          /* unmet entries, e.g. ">= 4096" */
   char have[64];                /* what the driver reports */
   bool is_format;
   VkFormatFeatureFlags need_bits; /* formats: union of required bits */
   VkFormatFeatureFlags have_bits; /* formats: what the driver reports */
};

/* One gap row of the Markdown file. */
struct row {
   char id[MAX_ID];
   unsigned line;
};

static struct req reqs[MAX_REQS];
static unsigned req_count;

/* ------------------------------------------------------------ driver state */

static void query_properties(struct ctx *c)
{
   c->v11p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
   c->v11p.pNext = &c->v12p;
   c->v12p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
   c->v12p.pNext = &c->v13p;
   c->v13p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
   c->v13p.pNext = NULL;
   VkPhysicalDeviceProperties2 props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &c->v11p,
   };
   vkGetPhysicalDeviceProperties2(c->pdev, &props);
   c->v10p = props.properties;
}

static void query_features(struct ctx *c)
{
   c->v11f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   c->v11f.pNext = &c->v12f;
   c->v12f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   c->v12f.pNext = &c->v13f;
   c->v13f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
   c->v13f.pNext = NULL;
   VkPhysicalDeviceFeatures2 features = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &c->v11f,
   };
   vkGetPhysicalDeviceFeatures2(c->pdev, &features);
   c->v10f = features.features;
}

static void query_extensions(struct ctx *c)
{
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(c->pdev, NULL, &c->extension_count, NULL));
   c->extensions = calloc(c->extension_count + 1, sizeof(*c->extensions));
   SGT_REQUIRE(c->extensions, "out of memory");
   SGT_CHECK_VK(vkEnumerateDeviceExtensionProperties(c->pdev, NULL, &c->extension_count,
                                                     c->extensions));
}

static bool has_extension(const struct ctx *c, const char *name)
{
   for (uint32_t i = 0; i < c->extension_count; i++) {
      if (strcmp(c->extensions[i].extensionName, name) == 0)
         return true;
   }
   return false;
}

/* ------------------------------------------------------- requirement table */

static struct req *find_req(const char *id)
{
   for (unsigned i = 0; i < req_count; i++) {
      if (strcmp(reqs[i].id, id) == 0)
         return &reqs[i];
   }
   return NULL;
}

/* The requirement with this ID, created met on first use. */
static struct req *get_req(const char *id)
{
   struct req *r = find_req(id);
   if (r)
      return r;
   SGT_REQUIRE(req_count < MAX_REQS, "more than %d requirement IDs", MAX_REQS);
   SGT_REQUIRE(strlen(id) < MAX_ID, "requirement ID too long: %s", id);
   r = &reqs[req_count++];
   snprintf(r->id, sizeof(r->id), "%s", id);
   r->met = true;
   return r;
}

static void append_need(struct req *r, const char *need)
{
   size_t used = strlen(r->need);
   snprintf(r->need + used, sizeof(r->need) - used, "%s%s", used ? "; " : "", need);
}

/* Records one entry's verdict for an ID: unmet if any entry is unmet. A
 * false condition means the entry does not apply (met). */
static void require(const char *id, bool cond, const char *cond_text, bool ok, const char *need,
                    const char *have)
{
   struct req *r = get_req(id);
   r->applies |= cond;
   if (!cond || ok)
      return;
   char text[MAX_NEED];
   if (cond_text)
      snprintf(text, sizeof(text), "%s (since %s)", need, cond_text);
   else
      snprintf(text, sizeof(text), "%s", need);
   r->met = false;
   append_need(r, text);
   snprintf(r->have, sizeof(r->have), "%s", have);
}

static void show_int(char *buf, size_t n, long long v)
{
   snprintf(buf, n, "%lld", v);
}

static void show_uint(char *buf, size_t n, unsigned long long v)
{
   snprintf(buf, n, "%llu", v);
}

static void show_float(char *buf, size_t n, double v)
{
   snprintf(buf, n, "%g", v);
}

/* Prints any limit value in its own type. */
#define SHOW(buf, x)                                                           \
   _Generic((x), float: show_float, double: show_float, int: show_int,         \
            long: show_int, long long: show_int, default: show_uint)(buf, sizeof(buf), (x))

static void require_feature(const char *path, VkBool32 value, bool cond, const char *cond_text)
{
   char id[MAX_ID];
   snprintf(id, sizeof(id), "feature:%s", path);
   require(id, cond, cond_text, value == VK_TRUE, "must be VK_TRUE", "VK_FALSE");
}

static void require_bits(const char *id, bool cond, const char *cond_text, uint64_t have,
                         uint64_t bits, const char *bits_text)
{
   char need[MAX_NEED], reported[32];
   snprintf(need, sizeof(need), "bits %s", bits_text);
   snprintf(reported, sizeof(reported), "0x%llx", (unsigned long long)have);
   require(id, cond, cond_text, (have & bits) == bits, need, reported);
}

static void require_pow2(const char *id, uint64_t have)
{
   char reported[32];
   snprintf(reported, sizeof(reported), "%llu", (unsigned long long)have);
   require(id, true, NULL, have != 0 && (have & (have - 1)) == 0, "power of two", reported);
}

/* ----------------------------------------------------------------- formats */

static const struct {
   VkFormatFeatureFlags bit;
   const char *name;
} format_bits[] = {
   {VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, "SAMPLED_IMAGE"},
   {VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT, "STORAGE_IMAGE"},
   {VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT, "STORAGE_IMAGE_ATOMIC"},
   {VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT, "UNIFORM_TEXEL_BUFFER"},
   {VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT, "STORAGE_TEXEL_BUFFER"},
   {VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT, "STORAGE_TEXEL_BUFFER_ATOMIC"},
   {VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT, "VERTEX_BUFFER"},
   {VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT, "COLOR_ATTACHMENT"},
   {VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT, "COLOR_ATTACHMENT_BLEND"},
   {VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT, "DEPTH_STENCIL_ATTACHMENT"},
   {VK_FORMAT_FEATURE_BLIT_SRC_BIT, "BLIT_SRC"},
   {VK_FORMAT_FEATURE_BLIT_DST_BIT, "BLIT_DST"},
   {VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT, "SAMPLED_IMAGE_FILTER_LINEAR"},
   {VK_FORMAT_FEATURE_TRANSFER_SRC_BIT, "TRANSFER_SRC"},
   {VK_FORMAT_FEATURE_TRANSFER_DST_BIT, "TRANSFER_DST"},
   {VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT, "SAMPLED_IMAGE_FILTER_MINMAX"},
   {VK_FORMAT_FEATURE_COSITED_CHROMA_SAMPLES_BIT, "COSITED_CHROMA_SAMPLES"},
};

/* "SAMPLED_IMAGE|TRANSFER_SRC|..." in the table's order, unknown bits in hex. */
static void format_bit_names(char *buf, size_t n, VkFormatFeatureFlags bits)
{
   buf[0] = '\0';
   for (size_t i = 0; i < sizeof(format_bits) / sizeof(format_bits[0]); i++) {
      if (!(bits & format_bits[i].bit))
         continue;
      size_t used = strlen(buf);
      snprintf(buf + used, n - used, "%s%s", used ? "|" : "", format_bits[i].name);
      bits &= ~format_bits[i].bit;
   }
   if (bits) {
      size_t used = strlen(buf);
      snprintf(buf + used, n - used, "%s0x%x", used ? "|" : "", bits);
   }
}

static void add_format_field(const char *name, const char *field, bool cond,
                             VkFormatFeatureFlags need, VkFormatFeatureFlags have)
{
   if (!need)
      return;
   char id[MAX_ID];
   snprintf(id, sizeof(id), "format:%s:%s", name, field);
   struct req *r = get_req(id);
   r->is_format = true;
   r->have_bits = have;
   r->applies |= cond;
   if (cond)
      r->need_bits |= need;
}

static void require_format(const struct ctx *c, VkFormat format, const char *name, bool cond,
                           VkFormatFeatureFlags linear, VkFormatFeatureFlags optimal,
                           VkFormatFeatureFlags buffer)
{
   VkFormatProperties props;
   vkGetPhysicalDeviceFormatProperties(c->pdev, format, &props);
   add_format_field(name, "linear", cond, linear, props.linearTilingFeatures);
   add_format_field(name, "optimal", cond, optimal, props.optimalTilingFeatures);
   add_format_field(name, "buffer", cond, buffer, props.bufferFeatures);
}

/* Once every entry is in: a format ID is unmet when a required bit is missing. */
static void settle_formats(void)
{
   for (unsigned i = 0; i < req_count; i++) {
      struct req *r = &reqs[i];
      if (!r->is_format || (r->have_bits & r->need_bits) == r->need_bits)
         continue;
      char names[MAX_NEED - 8];
      format_bit_names(names, sizeof(names), r->need_bits);
      r->met = false;
      snprintf(r->need, sizeof(r->need), "bits %s", names);
      snprintf(r->have, sizeof(r->have), "0x%x", r->have_bits);
   }
}

/* ------------------------------------------------- the .inc, as statements */

#define REQ_FEATURE(block, member)                                             \
   require_feature(#block "." #member, c->block.member, true, NULL);
#define REQ_FEATURE_IF(cblock, cmember, block, member)                         \
   require_feature(#block "." #member, c->block.member, c->cblock.cmember,     \
                   #cblock "." #cmember " is VK_TRUE");
#define REQ_FEATURE_IF_EXT(ext, block, member)                                 \
   require_feature(#block "." #member, c->block.member, has_extension(c, ext), \
                   ext " is advertised");

/* path op value, e.g. v10p.limits.maxImageDimension1D >= 4096u */
#define REQ_COMPARE_(cond, cond_text, path, op, value)                         \
   do {                                                                        \
      char want_[32], have_[32], need_[64];                                    \
      SHOW(want_, value);                                                      \
      SHOW(have_, c->path);                                                    \
      snprintf(need_, sizeof(need_), "%s %s", #op, want_);                     \
      require("limit:" #path, cond, cond_text, c->path op(value), need_, have_); \
   } while (0);
#define REQ_AT_LEAST(path, value) REQ_COMPARE_(true, NULL, path, >=, value)
#define REQ_AT_MOST(path, value) REQ_COMPARE_(true, NULL, path, <=, value)
#define REQ_AT_LEAST_IF(cblock, cmember, path, value)                          \
   REQ_COMPARE_(c->cblock.cmember, #cblock "." #cmember " is VK_TRUE", path, >=, value)
#define REQ_AT_MOST_IF(cblock, cmember, path, value)                           \
   REQ_COMPARE_(c->cblock.cmember, #cblock "." #cmember " is VK_TRUE", path, <=, value)

#define REQ_HAS_BITS(path, bits)                                               \
   require_bits("bits:" #path, true, NULL, c->path, bits, #bits);
#define REQ_HAS_BITS_IF(cblock, cmember, path, bits)                           \
   require_bits("bits:" #path, c->cblock.cmember, #cblock "." #cmember " is VK_TRUE", \
                c->path, bits, #bits);
#define REQ_POW2(path) require_pow2("pow2:" #path, c->path);

#define REQ_FORMAT(format, linear, optimal, buffer)                            \
   require_format(c, format, #format, true, linear, optimal, buffer);
#define REQ_FORMAT_IF(cblock, cmember, format, linear, optimal, buffer)        \
   require_format(c, format, #format, c->cblock.cmember, linear, optimal, buffer);

/* "A SPIR-V module ... may declare the capabilities listed below if the
 * corresponding ... core version is supported" (SPIR-V Environment,
 * Capabilities): what a version enables by itself, every implementation of
 * that version must compile. vk.xml lists it (sg_spirv_tables.c). */
static void require_spirv(const struct ctx *c, const struct sg_spirv_rule *rules, uint32_t count,
                          bool capabilities)
{
   for (uint32_t i = 0; i < count; i++) {
      const struct sg_spirv_rule *r = &rules[i];
      for (uint32_t k = 0; k < r->enable_count; k++) {
         const struct sg_spirv_enable *en = &r->enables[k];
         if (en->by != SG_SPIRV_BY_VERSION || c->v10p.apiVersion < en->version)
            continue;
         char id[MAX_ID], need[128];
         snprintf(id, sizeof(id), "spirv:%s", r->name);
         snprintf(need, sizeof(need), "Vulkan %u.%u allows SPIR-V %s %s: the compiler must "
                  "implement it", VK_API_VERSION_MAJOR(en->version),
                  VK_API_VERSION_MINOR(en->version), capabilities ? "capability" : "extension",
                  r->name);
         bool ok = capabilities ? sc_capability_implemented(r->capability)
                                : sc_extension_implemented(r->name);
         require(id, true, NULL, ok, need, "not implemented");
      }
   }
}

static void evaluate_requirements(const struct ctx *c)
{
#include "conformance_requirements.inc"
   settle_formats();
   require_spirv(c, sg_spirv_capabilities, SG_SPIRV_CAPABILITY_COUNT, true);
   require_spirv(c, sg_spirv_extensions, SG_SPIRV_EXTENSION_COUNT, false);
}

/* ------------------------------------------------------------ the gap file */

/* The backquoted ID of a gap row ("| `id` | ... |"), or false for prose,
 * table headers and separators. */
static bool row_id(const char *line, char *id, size_t n)
{
   line += strspn(line, " \t");
   if (*line != '|')
      return false;
   line++;
   line += strspn(line, " \t");
   if (*line != '`')
      return false;
   const char *end = strchr(line + 1, '`');
   if (!end)
      return false;
   size_t len = (size_t)(end - line - 1);
   SGT_REQUIRE(len < n, "ID too long in " GAP_FILE ": %.*s", (int)len, line + 1);
   memcpy(id, line + 1, len);
   id[len] = '\0';
   return true;
}

static unsigned read_rows(struct row *rows)
{
   FILE *f = fopen(SGT_SOURCE_DIR "/" GAP_FILE, "r");
   SGT_REQUIRE(f, "cannot open %s/%s", SGT_SOURCE_DIR, GAP_FILE);
   char line[4096];
   unsigned count = 0, number = 0;
   while (fgets(line, sizeof(line), f)) {
      number++;
      char id[MAX_ID];
      if (!row_id(line, id, sizeof(id)))
         continue;
      SGT_REQUIRE(count < MAX_ROWS, "more than %d rows in " GAP_FILE, MAX_ROWS);
      snprintf(rows[count].id, sizeof(rows[count].id), "%s", id);
      rows[count].line = number;
      count++;
   }
   fclose(f);
   return count;
}

static const struct row *find_row(const struct row *rows, unsigned count, const char *id)
{
   for (unsigned i = 0; i < count; i++) {
      if (strcmp(rows[i].id, id) == 0)
         return &rows[i];
   }
   return NULL;
}

/* A Markdown table cell: '|' escaped. */
static void print_cell(const char *text)
{
   for (; *text; text++) {
      if (*text == '|')
         fputc('\\', stderr);
      fputc(*text, stderr);
   }
}

static void print_row(const struct req *r)
{
   fprintf(stderr, "| `%s` | ", r->id);
   print_cell(r->need);
   fprintf(stderr, " | TODO: what will close it (driver reports %s) |\n", r->have);
}

/* Every unmet requirement has a row; the missing ones are printed as rows. */
static void check_unmet_are_listed(const struct row *rows, unsigned count)
{
   unsigned missing = 0;
   for (unsigned i = 0; i < req_count; i++) {
      if (reqs[i].met || find_row(rows, count, reqs[i].id))
         continue;
      if (!missing++)
         fprintf(stderr, "Unmet requirements with no row in " GAP_FILE " (paste, then say "
                         "what will close each):\n");
      print_row(&reqs[i]);
   }
   SGT_CHECK(missing == 0, "%u unmet requirement(s) missing from " GAP_FILE, missing);
}

/* Every row is unique and names a requirement the driver does not meet. */
static void check_rows_are_gaps(const struct row *rows, unsigned count)
{
   for (unsigned i = 0; i < count; i++) {
      const struct row *first = find_row(rows, count, rows[i].id);
      SGT_CHECK(first == &rows[i], GAP_FILE ":%u: `%s` repeats the row of line %u",
                rows[i].line, rows[i].id, first->line);
      const struct req *r = find_req(rows[i].id);
      SGT_CHECK(r, GAP_FILE ":%u: `%s` names no requirement of "
                "tests/vulkan/conformance_requirements.inc or vk.xml's SPIR-V tables",
                rows[i].line, rows[i].id);
      SGT_CHECK(!r || !r->met, GAP_FILE ":%u: `%s` is %s: remove the row", rows[i].line,
                rows[i].id, r && r->applies ? "met by the driver now"
                                            : "not required (its condition is not supported)");
   }
}

static unsigned unmet_count(void)
{
   unsigned n = 0;
   for (unsigned i = 0; i < req_count; i++)
      n += !reqs[i].met;
   return n;
}

int main(void)
{
   VkInstance instance = sgt_create_instance(NULL);
   static struct ctx c;
   c.pdev = sgt_physical_device(instance);
   query_properties(&c);
   query_features(&c);
   query_extensions(&c);
   evaluate_requirements(&c);
   SGT_CHECK(req_count > 100, "only %u requirement IDs evaluated", req_count);

   static struct row rows[MAX_ROWS];
   unsigned row_count = read_rows(rows);
   check_unmet_are_listed(rows, row_count);
   check_rows_are_gaps(rows, row_count);
   fprintf(stderr, "%u requirement IDs, %u unmet, %u rows in " GAP_FILE "\n", req_count,
           unmet_count(), row_count);

   free(c.extensions);
   sgt_destroy_instance(instance);
   return sgt_finish();
}
