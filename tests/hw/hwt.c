#include "hwt.h"

#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

_Atomic int hwt_failures;

int hwt_finish(void)
{
   int n = atomic_load(&hwt_failures);
   if (n) {
      fprintf(stderr, "FAIL: %d check(s) failed\n", n);
      return 1;
   }
   fprintf(stderr, "PASS\n");
   return 0;
}

void hwt_config(struct hw_gpu_config *cfg, uint32_t compute, uint32_t dma)
{
   memset(cfg, 0, sizeof(*cfg));
   cfg->compute_channels = compute;
   cfg->dma_channels = dma;
   cfg->memory_bytes = 256ull << 20;
   cfg->engine_spin_ns = 20000;
   cfg->wait_spin_ns = 5000;
}

struct hw_gpu *hwt_gpu_create(const struct hw_gpu_config *cfg)
{
   struct hw_gpu *gpu = NULL;
   HWT_REQUIRE(hw_gpu_create(cfg, &gpu) == 0 && gpu, "hw_gpu_create failed");
   return gpu;
}

struct hw_gpu *hwt_gpu(uint32_t compute, uint32_t dma)
{
   struct hw_gpu_config cfg;
   hwt_config(&cfg, compute, dma);
   return hwt_gpu_create(&cfg);
}

uint64_t hwt_alloc(struct hw_gpu *gpu, uint64_t size)
{
   uint64_t va = 0;
   HWT_REQUIRE(hw_mem_alloc(hw_gpu_memory(gpu), size, &va) == 0, "cannot allocate %llu bytes",
               (unsigned long long)size);
   return va;
}

void *hwt_ptr(struct hw_gpu *gpu, uint64_t va)
{
   return hw_mem_host(hw_gpu_memory(gpu), va);
}

uint64_t hwt_load64(struct hw_gpu *gpu, uint64_t va)
{
   return atomic_load_explicit(hw_sem_word(hw_gpu_memory(gpu), va), memory_order_acquire);
}

void hwt_channel_init(struct hwt_channel *ch, struct hw_gpu *gpu, uint32_t index,
                      uint32_t entries, uint32_t first)
{
   memset(ch, 0, sizeof(*ch));
   ch->gpu = gpu;
   ch->index = index;
   ch->entries = entries;
   ch->ring_va = hwt_alloc(gpu, (uint64_t)entries * sizeof(struct hw_ring_entry));
   ch->control_va = hwt_alloc(gpu, sizeof(struct hw_channel_control));
   ch->ring = hwt_ptr(gpu, ch->ring_va);
   ch->control = hwt_ptr(gpu, ch->control_va);
   atomic_store_explicit(&ch->control->put, first, memory_order_relaxed);
   atomic_store_explicit(&ch->control->get, first, memory_order_relaxed);
   ch->put = first;
   HWT_REQUIRE(hw_channel_bind(gpu, index, ch->ring_va, entries, ch->control_va) == 0,
               "cannot bind channel %u", index);
}

uint32_t hwt_get(const struct hwt_channel *ch)
{
   return atomic_load_explicit(&ch->control->get, memory_order_acquire);
}

void hwt_push(struct hwt_channel *ch, uint64_t va, uint32_t dwords)
{
   uint64_t deadline = 0;
   while (ch->put - hwt_get(ch) >= ch->entries) {
      uint64_t now = hw_now_ns();
      if (!deadline)
         deadline = now + HWT_TIMEOUT_NS;
      HWT_REQUIRE(now < deadline, "channel %u: the ring stays full (PUT=%u GET=%u)\n%s",
                  ch->index, ch->put, hwt_get(ch), hwt_snapshot(ch->gpu));
      HWT_REQUIRE(!hw_gpu_is_lost(ch->gpu), "GPU lost while waiting for ring room:\n%s",
                  hw_gpu_fault_report(ch->gpu));
      sched_yield();
   }
   /* The entry slot is free: GET (acquire) says the GPU copied it out. */
   ch->ring[ch->put & (ch->entries - 1)] =
      (struct hw_ring_entry){.pushbuffer_va = va, .length = dwords, .flags = 0};
   ch->put++;
   atomic_store_explicit(&ch->control->put, ch->put, memory_order_release);
}

void hwt_submit(struct hwt_channel *ch, uint64_t va, uint32_t dwords)
{
   hwt_push(ch, va, dwords);
   hw_doorbell(ch->gpu, ch->index);
}

void hwt_pb_at(struct hwt_pb *pb, struct hw_gpu *gpu, uint64_t va, uint32_t cap)
{
   HWT_REQUIRE((va & 7) == 0, "pushbuffers are 8-byte aligned");
   pb->gpu = gpu;
   pb->va = va;
   pb->base = pb->p = hwt_ptr(gpu, va);
   pb->cap = cap;
}

void hwt_pb_init(struct hwt_pb *pb, struct hw_gpu *gpu, uint32_t cap)
{
   hwt_pb_at(pb, gpu, hwt_alloc(gpu, (uint64_t)cap * 4), cap);
}

uint32_t hwt_pb_dwords(const struct hwt_pb *pb)
{
   HWT_REQUIRE(pb->p >= pb->base && pb->p <= pb->base + pb->cap,
               "pushbuffer overflow: %td of %u dwords", pb->p - pb->base, pb->cap);
   return (uint32_t)(pb->p - pb->base);
}

uint64_t hwt_pb_here(const struct hwt_pb *pb)
{
   return pb->va + 4ull * hwt_pb_dwords(pb);
}

void hwt_pb_submit(struct hwt_pb *pb, struct hwt_channel *ch)
{
   hwt_submit(ch, pb->va, hwt_pb_dwords(pb));
}

void hwt_release(struct hwt_pb *pb, uint64_t va, uint64_t value, uint32_t flags)
{
   pb->p = hw_emit_sem(pb->p, HW_OP_SEM_RELEASE, flags, va, value);
   hwt_pb_dwords(pb);
}

void hwt_acquire(struct hwt_pb *pb, uint64_t va, uint64_t value)
{
   pb->p = hw_emit_sem(pb->p, HW_OP_SEM_ACQUIRE, 0, va, value);
   hwt_pb_dwords(pb);
}

void hwt_write32(struct hwt_pb *pb, uint64_t va, uint32_t value)
{
   pb->p = hw_emit_inline_write(pb->p, va, &value, 4);
   hwt_pb_dwords(pb);
}

void hwt_wait_sem(struct hw_gpu *gpu, uint64_t va, uint64_t value, const char *what)
{
   struct hw_wait_item item = {va, value};
   enum hw_wait_result r = hw_wait(gpu, &item, 1, true, HWT_TIMEOUT_NS);
   HWT_REQUIRE(r == HW_WAIT_SATISFIED, "%s: waiting for 0x%llx >= %llu returned %d (now %llu)\n%s%s",
               what, (unsigned long long)va, (unsigned long long)value, (int)r,
               (unsigned long long)hwt_load64(gpu, va), hwt_snapshot(gpu),
               hw_gpu_fault_report(gpu) ? hw_gpu_fault_report(gpu) : "");
}

void hwt_sleep_ms(uint32_t ms)
{
   struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
   while (nanosleep(&ts, &ts) != 0) {
   }
}

const char *hwt_snapshot(struct hw_gpu *gpu)
{
   static _Thread_local char buf[16384];
   hw_gpu_snapshot(gpu, buf, sizeof(buf));
   return buf;
}

bool hwt_channel_line(const char *text, uint32_t c, char *line, size_t size)
{
   char key[32];
   snprintf(key, sizeof(key), "  channel %u ", c);
   const char *s = strstr(text, key);
   if (!s)
      return false;
   const char *e = strchr(s, '\n');
   size_t n = e ? (size_t)(e - s) : strlen(s);
   if (n >= size)
      n = size - 1;
   memcpy(line, s, n);
   line[n] = '\0';
   return true;
}

uint32_t hwt_gpu_index(struct hw_gpu *gpu)
{
   unsigned idx = 0;
   HWT_REQUIRE(sscanf(hwt_snapshot(gpu), "GPU %u", &idx) == 1, "snapshot has no GPU index");
   return idx;
}

uint64_t hwt_cpu_ns(void)
{
   struct rusage ru;
   getrusage(RUSAGE_SELF, &ru);
   return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
          ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}
