#ifndef SG_PRIVATE_DATA_H
#define SG_PRIVATE_DATA_H

#include "sg_object.h"

/* A private data slot (Vulkan 1.3): its values live in the objects they
 * are set on (sg_object::private_data), keyed by the slot's id. Ids are
 * never reused, so values left behind by a destroyed slot can never be
 * read through a new one. */
struct sg_private_data_slot {
   struct sg_object base;
   uint64_t id;
};

SG_DEFINE_NONDISP_HANDLE_CASTS(sg_private_data_slot, VkPrivateDataSlot)

#endif
