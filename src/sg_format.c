/*
 * Format and image capability queries. softgpu has no texel buffers and no
 * images yet, so no format has any feature: every query says so exactly,
 * and docs/conformance-gaps.md lists the formats Vulkan requires.
 */
#include <string.h>

#include "sg_entrypoints.h"
#include "sg_log.h"
#include "sg_physical_device.h"

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceFormatProperties(VkPhysicalDevice physicalDevice,
                                                                VkFormat format,
                                                                VkFormatProperties *pFormatProperties)
{
   (void)physicalDevice;
   (void)format;
   memset(pFormatProperties, 0, sizeof(*pFormatProperties));
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice,
                                                                 VkFormat format,
                                                                 VkFormatProperties2 *pFormatProperties)
{
   sg_GetPhysicalDeviceFormatProperties(physicalDevice, format,
                                        &pFormatProperties->formatProperties);
   for (VkBaseOutStructure *s = pFormatProperties->pNext; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
         VkFormatProperties3 *p3 = (VkFormatProperties3 *)s;
         p3->linearTilingFeatures = 0;
         p3->optimalTilingFeatures = 0;
         p3->bufferFeatures = 0;
      }
   }
}

VKAPI_ATTR VkResult VKAPI_CALL sg_GetPhysicalDeviceImageFormatProperties(
   VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling,
   VkImageUsageFlags usage, VkImageCreateFlags flags, VkImageFormatProperties *pImageFormatProperties)
{
   (void)physicalDevice;
   (void)type;
   (void)tiling;
   (void)usage;
   (void)flags;
   /* "... the format is not supported ... VK_ERROR_FORMAT_NOT_SUPPORTED" with
    * the output zeroed, as vkGetPhysicalDeviceImageFormatProperties asks. A
    * query, not a failure: logged at debug level. */
   memset(pImageFormatProperties, 0, sizeof(*pImageFormatProperties));
   SG_LOG(SG_LOG_DEBUG, SG_AREA_API, "image format %d: softgpu has no images yet", format);
   return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

VKAPI_ATTR VkResult VKAPI_CALL sg_GetPhysicalDeviceImageFormatProperties2(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
   VkImageFormatProperties2 *pImageFormatProperties)
{
   return sg_GetPhysicalDeviceImageFormatProperties(
      physicalDevice, pImageFormatInfo->format, pImageFormatInfo->type, pImageFormatInfo->tiling,
      pImageFormatInfo->usage, pImageFormatInfo->flags,
      &pImageFormatProperties->imageFormatProperties);
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceSparseImageFormatProperties(
   VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
   VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageTiling tiling,
   uint32_t *pPropertyCount, VkSparseImageFormatProperties *pProperties)
{
   (void)physicalDevice;
   (void)format;
   (void)type;
   (void)samples;
   (void)usage;
   (void)tiling;
   (void)pProperties;
   /* No sparse residency: no format has sparse properties. */
   *pPropertyCount = 0;
}

VKAPI_ATTR void VKAPI_CALL sg_GetPhysicalDeviceSparseImageFormatProperties2(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
   uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
   (void)physicalDevice;
   (void)pFormatInfo;
   (void)pProperties;
   *pPropertyCount = 0;
}
