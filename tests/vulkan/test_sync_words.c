/*
 * Semaphore words: every fence, semaphore and event owns one 64-bit word
 * of GPU memory, carved from 4 KiB pages (512 words a page).
 *
 * Pins down: with several pages of words in use at once (3000 objects of
 * four kinds: timeline and binary semaphores, fences, events), destroying
 * them in any order (last-in first-out, first-in first-out, even indices
 * then odd, a pseudo-random permutation, a random half while the rest stay
 * alive) and creating them again gives every live object a word of its
 * own: each object's state (a timeline's value, a fence's and an event's
 * status) reads back as set, before and after every object's state is
 * changed from the host. Two objects sharing a word, or a word that is no
 * longer backed, shows up as a wrong value (or a crash: freeing more than a
 * page of words used to write past the end of the free-word stack).
 */
#include "sgt_vk.h"

#define OBJECTS 3000u

enum kind { TIMELINE, FENCE, EVENT, BINARY, KIND_COUNT };

struct obj {
   enum kind kind;
   bool live;
   uint64_t expect;   /* timeline: value; fence, event: 1 signaled / set, 0 not */
   uint64_t handle;   /* VkSemaphore, VkFence or VkEvent */
};

static struct obj objs[OBJECTS];
static uint32_t order[OBJECTS];
static uint32_t rng_state = 12345u;

static uint32_t rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 17;
   rng_state ^= rng_state << 5;
   return rng_state;
}

/* Creates object i in generation gen, with a state of its own. */
static void create(struct sgt_device *d, uint32_t i, uint32_t gen)
{
   struct obj *o = &objs[i];
   o->kind = (enum kind)(i % KIND_COUNT);
   switch (o->kind) {
   case TIMELINE: {
      o->expect = (uint64_t)gen * 1000000u + i + 1u;
      o->handle = (uint64_t)sgt_timeline(d, o->expect);
      break;
   }
   case FENCE:
      o->expect = (i + gen) % 2u;
      o->handle = (uint64_t)sgt_fence(d, o->expect != 0);
      break;
   case EVENT: {
      VkEventCreateInfo ei = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
      VkEvent ev;
      SGT_CHECK_VK(vkCreateEvent(d->device, &ei, NULL, &ev));
      o->expect = (i + gen) % 3u == 0;
      if (o->expect)
         SGT_CHECK_VK(vkSetEvent(d->device, ev));
      o->handle = (uint64_t)ev;
      break;
   }
   case BINARY: {
      VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
      VkSemaphore s;
      SGT_CHECK_VK(vkCreateSemaphore(d->device, &si, NULL, &s));
      o->handle = (uint64_t)s;
      break;
   }
   case KIND_COUNT:
      break;
   }
   o->live = true;
}

static void destroy(struct sgt_device *d, uint32_t i)
{
   struct obj *o = &objs[i];
   switch (o->kind) {
   case TIMELINE:
   case BINARY:
      vkDestroySemaphore(d->device, (VkSemaphore)o->handle, NULL);
      break;
   case FENCE:
      vkDestroyFence(d->device, (VkFence)o->handle, NULL);
      break;
   case EVENT:
      vkDestroyEvent(d->device, (VkEvent)o->handle, NULL);
      break;
   case KIND_COUNT:
      break;
   }
   o->live = false;
}

/* Every live object reads back the state it was given (one report per
 * call, naming the first that did not). */
static void check_all(struct sgt_device *d, const char *when)
{
   uint32_t bad = 0, first = 0;
   uint64_t first_got = 0;
   for (uint32_t i = 0; i < OBJECTS; i++) {
      struct obj *o = &objs[i];
      if (!o->live)
         continue;
      uint64_t got = o->expect;
      VkResult r;
      switch (o->kind) {
      case TIMELINE:
         SGT_CHECK_VK(vkGetSemaphoreCounterValue(d->device, (VkSemaphore)o->handle, &got));
         break;
      case FENCE:
         r = vkGetFenceStatus(d->device, (VkFence)o->handle);
         got = r == VK_SUCCESS;
         SGT_CHECK(r == VK_SUCCESS || r == VK_NOT_READY, "fence %u: %s", i, sgt_result_name(r));
         break;
      case EVENT:
         r = vkGetEventStatus(d->device, (VkEvent)o->handle);
         got = r == VK_EVENT_SET;
         SGT_CHECK(r == VK_EVENT_SET || r == VK_EVENT_RESET, "event %u: %s", i, sgt_result_name(r));
         break;
      case BINARY:
      case KIND_COUNT:
         break;
      }
      if (got != o->expect && bad++ == 0) {
         first = i;
         first_got = got;
      }
   }
   SGT_CHECK(bad == 0, "%s: %u objects read back a state not their own; the first, object %u "
             "(kind %d), reads %llu, set to %llu", when, bad, first, objs[first].kind,
             (unsigned long long)first_got, (unsigned long long)objs[first].expect);
}

/* Changes every live object's state from the host: timelines move on,
 * fences and events flip. */
static void change_all(struct sgt_device *d)
{
   for (uint32_t i = 0; i < OBJECTS; i++) {
      struct obj *o = &objs[i];
      if (!o->live)
         continue;
      switch (o->kind) {
      case TIMELINE: {
         o->expect += 2u * OBJECTS + i;
         VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
                                     .semaphore = (VkSemaphore)o->handle, .value = o->expect};
         SGT_CHECK_VK(vkSignalSemaphore(d->device, &si));
         break;
      }
      case FENCE:
         /* A fence can only be reset from the host; an unsignaled one stays. */
         if (o->expect) {
            VkFence f = (VkFence)o->handle;
            SGT_CHECK_VK(vkResetFences(d->device, 1, &f));
            o->expect = 0;
         }
         break;
      case EVENT:
         if (o->expect)
            SGT_CHECK_VK(vkResetEvent(d->device, (VkEvent)o->handle));
         else
            SGT_CHECK_VK(vkSetEvent(d->device, (VkEvent)o->handle));
         o->expect = !o->expect;
         break;
      case BINARY:
      case KIND_COUNT:
         break;
      }
   }
}

static void create_all(struct sgt_device *d, uint32_t gen, const char *when)
{
   for (uint32_t i = 0; i < OBJECTS; i++) {
      if (!objs[i].live)
         create(d, i, gen);
   }
   check_all(d, when);
   change_all(d);
   check_all(d, when);
}

enum order { LIFO, FIFO, STRIDED, RANDOM, ORDER_COUNT };
static const char *const order_names[] = {"last-in first-out", "first-in first-out",
                                          "even then odd", "random"};

static void make_order(enum order how)
{
   for (uint32_t i = 0; i < OBJECTS; i++) {
      switch (how) {
      case LIFO:
         order[i] = OBJECTS - 1u - i;
         break;
      case FIFO:
         order[i] = i;
         break;
      case STRIDED:
         order[i] = i < (OBJECTS + 1u) / 2u ? 2u * i : 2u * (i - (OBJECTS + 1u) / 2u) + 1u;
         break;
      case RANDOM:
      case ORDER_COUNT:
         order[i] = i;
         break;
      }
   }
   if (how == RANDOM) {
      for (uint32_t i = OBJECTS - 1u; i > 0; i--) {
         uint32_t j = rng() % (i + 1u);
         uint32_t t = order[i];
         order[i] = order[j];
         order[j] = t;
      }
   }
}

int main(void)
{
   struct sgt_device d;
   sgt_device_create(&d, NULL);
   uint32_t gen = 0;
   create_all(&d, gen++, "first creation");

   /* Everything destroyed in each order, then created again. */
   for (enum order how = 0; how < ORDER_COUNT; how++) {
      make_order(how);
      for (uint32_t i = 0; i < OBJECTS; i++)
         destroy(&d, order[i]);
      create_all(&d, gen++, order_names[how]);
   }

   /* Churn: a random half goes, the rest stay alive and must keep their
    * words while the freed ones are handed out again. */
   for (uint32_t round = 0; round < 4; round++) {
      make_order(RANDOM);
      for (uint32_t i = 0; i < OBJECTS / 2u; i++)
         destroy(&d, order[i]);
      check_all(&d, "survivors of a random half");
      create_all(&d, gen++, "churn");
   }

   for (uint32_t i = 0; i < OBJECTS; i++)
      destroy(&d, i);
   sgt_device_destroy(&d);
   return sgt_finish();
}
