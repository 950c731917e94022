/*
 * Images: softgpu has none yet (no format supports any image usage, see
 * docs/conformance-gaps.md), so no valid VkImageCreateInfo exists for the
 * queries below; they answer "nothing" and say why.
 */
#include <string.h>

#include "sg_entrypoints.h"
#include "sg_log.h"

VKAPI_ATTR void VKAPI_CALL sg_GetDeviceImageMemoryRequirements(VkDevice device,
                                                               const VkDeviceImageMemoryRequirements *pInfo,
                                                               VkMemoryRequirements2 *pReq)
{
   (void)device;
   (void)pInfo;
   SG_LOG(SG_LOG_ERROR, SG_AREA_API, "vkGetDeviceImageMemoryRequirements: softgpu has no images");
   memset(&pReq->memoryRequirements, 0, sizeof(pReq->memoryRequirements));
}

VKAPI_ATTR void VKAPI_CALL sg_GetDeviceImageSparseMemoryRequirements(
   VkDevice device, const VkDeviceImageMemoryRequirements *pInfo, uint32_t *pCount,
   VkSparseImageMemoryRequirements2 *pReqs)
{
   (void)device;
   (void)pInfo;
   (void)pReqs;
   *pCount = 0;   /* no sparse residency */
}
