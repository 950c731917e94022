/*
 * Validation with SPIRV-Tools for the Vulkan 1.3 environment: the optimizer
 * and the translator assume valid input. Verdicts are cached per process by
 * a 128-bit hash of the module, so a module is validated once.
 */
#include "sc_internal.h"

#include <pthread.h>
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_SLOTS 4096u

struct verdict {
   uint64_t h[2];
   bool valid;
   char *message;          /* why not, for invalid modules */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct verdict cache[CACHE_SLOTS];
static spv_context context;

static void hash(const uint32_t *words, size_t count, uint64_t h[2])
{
   h[0] = 0xcbf29ce484222325ull ^ count;
   h[1] = 0x9e3779b97f4a7c15ull ^ (count * 31);
   for (size_t i = 0; i < count; i++) {
      h[0] = (h[0] ^ words[i]) * 0x100000001b3ull;
      h[1] = (h[1] ^ words[i]) * 0xff51afd7ed558ccdull + (h[1] >> 29);
   }
}

static struct verdict *slot(const uint64_t h[2])
{
   return &cache[h[0] % CACHE_SLOTS];
}

void sc_validate(const uint32_t *words, size_t count, struct sc_error *e)
{
   uint64_t h[2];
   hash(words, count, h);
   pthread_mutex_lock(&lock);
   struct verdict *v = slot(h);
   if (v->h[0] == h[0] && v->h[1] == h[1] && (v->valid || v->message)) {
      bool valid = v->valid;
      char why[512];
      snprintf(why, sizeof(why), "%s", valid ? "" : v->message);
      pthread_mutex_unlock(&lock);
      if (!valid)
         sc_fail(e, "invalid SPIR-V: %s", why);
      return;
   }
   if (!context)
      context = spvContextCreate(SPV_ENV_VULKAN_1_3);
   pthread_mutex_unlock(&lock);

   spv_const_binary_t binary = {words, count};
   spv_diagnostic diag = NULL;
   spv_validator_options options = spvValidatorOptionsCreate();
   spv_result_t r = spvValidateWithOptions(context, options, &binary, &diag);
   spvValidatorOptionsDestroy(options);
   char why[512] = "";
   if (r != SPV_SUCCESS)
      snprintf(why, sizeof(why), "%s", diag && diag->error ? diag->error : "rejected");
   spvDiagnosticDestroy(diag);

   pthread_mutex_lock(&lock);
   v = slot(h);
   free(v->message);
   v->h[0] = h[0];
   v->h[1] = h[1];
   v->valid = r == SPV_SUCCESS;
   v->message = v->valid ? NULL : strdup(why);
   pthread_mutex_unlock(&lock);
   if (r != SPV_SUCCESS)
      sc_fail(e, "invalid SPIR-V: %s", why);
}
