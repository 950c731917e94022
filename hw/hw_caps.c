#include "hw_caps.h"

#include <sched.h>
#include <unistd.h>

/* GPU memory is host memory, as on an integrated GPU. Three quarters of it
 * leaves the host room for the application's own data and the driver. */
#define HW_MEMORY_SHARE_NUM 3
#define HW_MEMORY_SHARE_DEN 4

void hw_caps_query(struct hw_caps *caps)
{
   long pages = sysconf(_SC_PHYS_PAGES);
   long page_size = sysconf(_SC_PAGESIZE);
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   uint64_t host_bytes = (pages > 0 && page_size > 0)
                            ? (uint64_t)pages * (uint64_t)page_size
                            : UINT64_C(1) << 30;
   caps->memory_bytes = host_bytes / HW_MEMORY_SHARE_DEN * HW_MEMORY_SHARE_NUM;
   caps->memory_bytes &= ~(uint64_t)(page_size > 0 ? page_size - 1 : 4095);
   /* The CPUs this process may run on (taskset, cgroups' cpusets), if fewer. */
   cpu_set_t set;
   if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0 &&
       (cores <= 0 || CPU_COUNT(&set) < cores))
      cores = CPU_COUNT(&set);
   caps->host_cores = cores > 0 ? (uint32_t)cores : 1;
}
