#include "sg_version.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

struct build_id_search {
   const void *addr_in_object;
   uint8_t *out;
   size_t max;
   size_t len;
};

static size_t note_build_id(const ElfW(Nhdr) *note, const char *end, uint8_t *out, size_t max)
{
   while ((const char *)(note + 1) <= end) {
      const char *name = (const char *)(note + 1);
      const uint8_t *desc = (const uint8_t *)name + ((note->n_namesz + 3) & ~3u);
      if ((const char *)desc + note->n_descsz > end)
         return 0;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
         size_t n = note->n_descsz < max ? note->n_descsz : max;
         memcpy(out, desc, n);
         return n;
      }
      note = (const ElfW(Nhdr) *)(desc + ((note->n_descsz + 3) & ~3u));
   }
   return 0;
}

static int visit_object(struct dl_phdr_info *info, size_t size, void *data)
{
   (void)size;
   struct build_id_search *s = data;
   uintptr_t addr = (uintptr_t)s->addr_in_object;
   int contains = 0;
   for (int i = 0; i < info->dlpi_phnum; i++) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_LOAD && addr >= start && addr < start + ph->p_memsz)
         contains = 1;
   }
   if (!contains)
      return 0;
   for (int i = 0; i < info->dlpi_phnum && !s->len; i++) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
         continue;
      const char *start = (const char *)(info->dlpi_addr + ph->p_vaddr);
      s->len = note_build_id((const ElfW(Nhdr) *)start, start + ph->p_memsz, s->out, s->max);
   }
   return 1;
}

size_t sg_build_id(uint8_t *out, size_t max)
{
   struct build_id_search s = {.addr_in_object = (const void *)sg_build_id, .out = out, .max = max};
   dl_iterate_phdr(visit_object, &s);
   return s.len;
}
