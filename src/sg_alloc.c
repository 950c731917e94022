#include "sg_alloc.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

/* Every allocation is aligned for any C object; Vulkan objects need no more. */
#define SG_ALLOC_ALIGN alignof(max_align_t)

static void *VKAPI_PTR system_alloc(void *user, size_t size, size_t align,
                                    VkSystemAllocationScope scope)
{
   (void)user;
   (void)scope;
   if (align < sizeof(void *))
      align = sizeof(void *);
   void *p = NULL;
   return posix_memalign(&p, align, size) == 0 ? p : NULL;
}

static void *VKAPI_PTR system_realloc(void *user, void *orig, size_t size, size_t align,
                                      VkSystemAllocationScope scope)
{
   (void)user;
   (void)scope;
   /* realloc keeps malloc's alignment only; larger ones are never asked for. */
   if (align > SG_ALLOC_ALIGN)
      return NULL;
   return realloc(orig, size);
}

static void VKAPI_PTR system_free(void *user, void *ptr)
{
   (void)user;
   free(ptr);
}

const VkAllocationCallbacks sg_system_allocator = {
   .pfnAllocation = system_alloc,
   .pfnReallocation = system_realloc,
   .pfnFree = system_free,
};

void *sg_alloc(const VkAllocationCallbacks *a, size_t size, VkSystemAllocationScope scope)
{
   return a->pfnAllocation(a->pUserData, size, SG_ALLOC_ALIGN, scope);
}

void *sg_zalloc(const VkAllocationCallbacks *a, size_t size, VkSystemAllocationScope scope)
{
   void *p = sg_alloc(a, size, scope);
   if (p)
      memset(p, 0, size);
   return p;
}

void sg_free(const VkAllocationCallbacks *a, void *ptr)
{
   /* Vulkan allows pfnFree(NULL), but some applications' callbacks do not
    * expect it. */
   if (ptr)
      a->pfnFree(a->pUserData, ptr);
}

char *sg_strdup(const VkAllocationCallbacks *a, const char *s, VkSystemAllocationScope scope)
{
   size_t n = strlen(s) + 1;
   char *d = sg_alloc(a, n, scope);
   if (d)
      memcpy(d, s, n);
   return d;
}
