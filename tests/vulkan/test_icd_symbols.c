/*
 * libvulkan_softgpu.so exports exactly the loader interface (the three
 * vk_icd* functions) and nothing else, and the build-tree manifest names
 * that library by absolute path with the API version softgpu reports.
 */
#include <elf.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "sgt.h"

static const char *const expected[] = {
   "vk_icdGetInstanceProcAddr",
   "vk_icdGetPhysicalDeviceProcAddr",
   "vk_icdNegotiateLoaderICDInterfaceVersion",
};
#define EXPECTED_COUNT (sizeof(expected) / sizeof(expected[0]))

static bool is_expected(const char *name)
{
   for (size_t i = 0; i < EXPECTED_COUNT; i++) {
      if (strcmp(name, expected[i]) == 0)
         return true;
   }
   return false;
}

/* Counts the defined, globally visible symbols of .dynsym; each one must be
 * expected. */
static size_t check_dynsym(const uint8_t *file, size_t size)
{
   const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
   SGT_REQUIRE(size > sizeof(*eh) && memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
               eh->e_ident[EI_CLASS] == ELFCLASS64, "not a 64-bit ELF file");
   SGT_REQUIRE(eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) <= size, "bad sections");
   const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
   size_t exported = 0;
   for (int i = 0; i < eh->e_shnum; i++) {
      if (sh[i].sh_type != SHT_DYNSYM)
         continue;
      const Elf64_Shdr *strtab = &sh[sh[i].sh_link];
      const Elf64_Sym *syms = (const Elf64_Sym *)(file + sh[i].sh_offset);
      size_t count = sh[i].sh_size / sizeof(Elf64_Sym);
      for (size_t k = 0; k < count; k++) {
         const Elf64_Sym *s = &syms[k];
         int bind = ELF64_ST_BIND(s->st_info);
         if (s->st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK))
            continue;
         const char *name = (const char *)file + strtab->sh_offset + s->st_name;
         SGT_CHECK(is_expected(name), "unexpected exported symbol %s", name);
         exported++;
      }
   }
   return exported;
}

static void check_manifest(const char *manifest, const char *library)
{
   FILE *f = fopen(manifest, "r");
   SGT_REQUIRE(f, "cannot open %s", manifest);
   char text[4096];
   size_t n = fread(text, 1, sizeof(text) - 1, f);
   text[n] = '\0';
   fclose(f);
   char want[1024];
   snprintf(want, sizeof(want), "\"library_path\": \"%s\"", library);
   SGT_CHECK(library[0] == '/' && strstr(text, want), "manifest does not name %s:\n%s", library,
             text);
   snprintf(want, sizeof(want), "\"api_version\": \"1.3.%d\"", VK_HEADER_VERSION);
   SGT_CHECK(strstr(text, want), "manifest api_version is not 1.3.%d:\n%s", VK_HEADER_VERSION,
             text);
}

int main(int argc, char **argv)
{
   SGT_REQUIRE(argc == 3, "usage: test_icd_symbols <library> <manifest>");
   int fd = open(argv[1], O_RDONLY);
   SGT_REQUIRE(fd >= 0, "cannot open %s", argv[1]);
   struct stat st;
   fstat(fd, &st);
   const uint8_t *file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
   SGT_REQUIRE(file != MAP_FAILED, "mmap");
   size_t exported = check_dynsym(file, (size_t)st.st_size);
   SGT_CHECK(exported == EXPECTED_COUNT, "%zu symbols exported, expected %zu", exported,
             EXPECTED_COUNT);
   munmap((void *)file, (size_t)st.st_size);
   close(fd);
   check_manifest(argv[2], argv[1]);
   return sgt_finish();
}
