/*
 * Timing and fault injection, for tests that must see the GPU slower than
 * the host, or fault, without invalid API usage.
 *
 * SOFTGPU_DELAY=<unit>:<min>[-<max>][,...][,seed:<n>]   (microseconds)
 *   cp   each packet the command processor decodes sleeps min..max us
 *   dma  each packet the DMA engine decodes, and each 256 KiB copy slice on
 *        any engine, sleeps min..max us
 *   eu   reserved for the execution units
 *   seed seeds the generators (default 1): the same seed, the same delays
 * SOFTGPU_FAULT=channel:<c>,packet:<k>[,device:<d>][,kind:malformed|address]
 *   the GPU created d-th in the process (default 0) faults when channel c
 *   reaches its k-th packet (1-based): kind malformed (the default) treats
 *   the packet as malformed; kind address makes a DMA copy or fill at or
 *   after that packet use an unmapped address (VA 0x10), the way a bad
 *   pointer would
 */
#include "hw_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sg_log.h"

static bool parse_range(const char *v, struct hw_delay *d)
{
   char *end;
   unsigned long lo = strtoul(v, &end, 10), hi = lo;
   if (*end == '-')
      hi = strtoul(end + 1, &end, 10);
   if (end == v || (*end && *end != ',') || hi < lo || hi > 10000000ul)
      return false;
   d->min_us = (uint32_t)lo;
   d->max_us = (uint32_t)hi;
   return true;
}

static bool parse_u64(const char *v, uint64_t *out)
{
   char *end;
   unsigned long long n = strtoull(v, &end, 10);
   if (end == v || (*end && *end != ','))
      return false;
   *out = n;
   return true;
}

/* Calls fn(key, value) for each "key:value" of a comma-separated spec. */
static bool each_item(const char *spec, bool (*fn)(const char *key, size_t key_len,
                                                    const char *value, void *user),
                      void *user)
{
   const char *p = spec;
   while (*p) {
      const char *colon = strchr(p, ':');
      const char *comma = strchr(p, ',');
      if (!colon || (comma && comma < colon) || !fn(p, (size_t)(colon - p), colon + 1, user))
         return false;
      if (!comma)
         break;
      p = comma + 1;
   }
   return true;
}

static bool key_is(const char *key, size_t len, const char *want)
{
   return strlen(want) == len && strncmp(key, want, len) == 0;
}

static bool delay_item(const char *key, size_t len, const char *value, void *user)
{
   struct hw_inject *inj = user;
   if (key_is(key, len, "cp"))
      return parse_range(value, &inj->cp);
   if (key_is(key, len, "dma"))
      return parse_range(value, &inj->dma);
   if (key_is(key, len, "eu"))
      return parse_range(value, &inj->eu);
   if (key_is(key, len, "seed"))
      return parse_u64(value, &inj->seed);
   return false;
}

struct fault_parse {
   uint64_t channel, packet, device;
   bool have_channel, have_packet, address;
};

static bool fault_item(const char *key, size_t len, const char *value, void *user)
{
   struct fault_parse *f = user;
   if (key_is(key, len, "channel"))
      return (f->have_channel = parse_u64(value, &f->channel));
   if (key_is(key, len, "packet"))
      return (f->have_packet = parse_u64(value, &f->packet));
   if (key_is(key, len, "device"))
      return parse_u64(value, &f->device);
   if (key_is(key, len, "kind")) {
      size_t n = strcspn(value, ",");
      f->address = n == 7 && strncmp(value, "address", 7) == 0;
      return f->address || (n == 9 && strncmp(value, "malformed", 9) == 0);
   }
   return false;
}

void hw_inject_parse(struct hw_inject *inj, const char *delay_spec, const char *fault_spec,
                     uint32_t gpu_index)
{
   memset(inj, 0, sizeof(*inj));
   inj->seed = 1;
   if (delay_spec && *delay_spec && !each_item(delay_spec, delay_item, inj)) {
      SG_LOG(SG_LOG_WARN, SG_AREA_CP, "SOFTGPU_DELAY=\"%s\" does not parse; expected "
             "cp:<us>[-<us>],dma:...,seed:<n>: no delay", delay_spec);
      memset(inj, 0, sizeof(*inj));
      inj->seed = 1;
   }
   struct fault_parse f = {0};
   if (fault_spec && *fault_spec) {
      if (!each_item(fault_spec, fault_item, &f) || !f.have_channel || !f.have_packet ||
          f.packet == 0) {
         SG_LOG(SG_LOG_WARN, SG_AREA_FAULT, "SOFTGPU_FAULT=\"%s\" does not parse; expected "
                "channel:<c>,packet:<k>[,device:<d>][,kind:malformed|address]", fault_spec);
      } else if (f.device == gpu_index) {
         inj->fault_armed = true;
         inj->fault_channel = (uint32_t)f.channel;
         inj->fault_packet = f.packet;
         inj->fault_address = f.address;
         SG_LOG(SG_LOG_INFO, SG_AREA_FAULT, "GPU %u will fault at packet %llu of channel %u",
                gpu_index, (unsigned long long)f.packet, (unsigned)f.channel);
      }
   }
}

/* xorshift64*: small, seedable, good enough for delays. */
static uint64_t next_random(uint64_t *state)
{
   uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
   x ^= x >> 12;
   x ^= x << 25;
   x ^= x >> 27;
   *state = x;
   return x * 0x2545f4914f6cdd1dull;
}

void hw_inject_delay(const struct hw_delay *d, uint64_t *rng)
{
   if (d->max_us == 0)
      return;
   uint32_t span = d->max_us - d->min_us;
   uint64_t us = d->min_us + (span ? next_random(rng) % (span + 1) : 0);
   if (us == 0)
      return;
   struct timespec ts = {.tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000};
   nanosleep(&ts, NULL);
}
