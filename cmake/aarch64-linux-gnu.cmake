# Cross build for 64-bit Arm (Debian 12): tools/cross-aarch64 makes the
# sysroot and uses this file:
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DSOFTGPU_SYSROOT=<sysroot>
#
# The compilers are Debian's gcc-aarch64-linux-gnu and g++-aarch64-linux-gnu.
# They bring the C and C++ development side themselves (libc6-dev-arm64-cross,
# libstdc++-12-dev-arm64-cross under /usr/aarch64-linux-gnu, searched before
# the sysroot), so the sysroot holds only what they lack: Debian's arm64
# libvulkan-dev and spirv-tools (static libraries, headers, .pc), vk.xml and
# the SPIR-V grammar, and the runtime the tests load under the emulator
# (libc6, libstdc++6, libgcc-s1, libvulkan1), unpacked with dpkg-deb -x.
#
# Tests run under qemu-aarch64 (qemu-user-static: a static binary, so the
# host's LD_LIBRARY_PATH and libraries never matter to it) through
# CMAKE_CROSSCOMPILING_EMULATOR, which CTest puts before every test whose
# command is a target; no binfmt_misc registration is needed. -L makes the
# guest's absolute paths look in the sysroot first (the dynamic linker, the
# libraries), then on the host: the guest's ld.so then finds the arm64
# libraries in the sysroot's multiarch directories by itself (the host's
# /etc/ld.so.cache it also sees lists only x86-64 entries, which it skips),
# so no -E LD_LIBRARY_PATH is needed. /usr/share/vulkan/... lookups may see
# the host's manifests and layers: the tests name softgpu's build-tree
# manifest with VK_DRIVER_FILES, disable implicit layers, and run without
# the validation layer (SGT_VALIDATION=0, set by the top CMakeLists.txt when
# cross-compiling), whose manifest the loader would find on the host and
# whose x86-64 library it could not load.
#
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(SOFTGPU_SYSROOT "" CACHE PATH "Root of the unpacked Debian arm64 packages")
if(NOT SOFTGPU_SYSROOT)
  message(FATAL_ERROR "aarch64-linux-gnu.cmake: set SOFTGPU_SYSROOT to the arm64 sysroot "
                      "(tools/cross-aarch64 makes one)")
endif()
# try_compile projects read this file again: hand them the sysroot.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SOFTGPU_SYSROOT)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_SYSROOT ${SOFTGPU_SYSROOT})

# Libraries, headers and data files (vk.xml, the SPIR-V grammar) from the
# sysroot only; programs (glslc, spirv-as, python3, pkg-config, vulkaninfo)
# from the host, since they run at build time.
set(CMAKE_FIND_ROOT_PATH ${SOFTGPU_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The host's pkg-config reads the sysroot's arm64 .pc files only, and puts
# the sysroot before the paths they name.
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_LIBDIR}
    "${SOFTGPU_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${SOFTGPU_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${SOFTGPU_SYSROOT})

# GPU address space: hw/hw_mem.c reserves 4 times a GPU's memory budget of
# address space (MAP_NORESERVE), at least 16 GiB: a hw/ test's GPU takes
# 16 GiB, a VkDevice 3 times the host's RAM (its budget is 3/4 of it):
# 72 GiB on a 24 GiB machine. Without -R, qemu-aarch64 7.2 (Debian 12) gives
# the guest the host's whole address space and places each new mapping
# above the last, never back in a range that was unmapped, and its per-page
# flags for every range ever mapped stay allocated: about 27 bytes of qemu
# heap per 4 KiB guest page, so 115 MB for each hw/ GPU and 500 MB for each
# VkDevice created, never given back. A test that creates GPUs one after
# the other (tests/hw/test_eu_subgroup: dozens) grew past 20 GB and was
# OOM-killed. -R reserves a fixed guest address space instead, in which
# qemu reuses freed ranges (it searches down from the last mapping and
# wraps around), so its page flags cost at most R / 4 KiB * 27 bytes. R is
# the device's reservation plus 16 GiB for everything else (the program,
# its libraries and heaps, a hw/ GPU): smaller, and hw_mem halves the
# reservation with a warning on stderr.
cmake_host_system_information(RESULT _softgpu_ram_mib QUERY TOTAL_PHYSICAL_MEMORY)
math(EXPR _softgpu_guest_va_gib "(3 * ${_softgpu_ram_mib} + 1023) / 1024 + 16")
find_program(SOFTGPU_QEMU_AARCH64 qemu-aarch64-static REQUIRED
             DOC "qemu-user-static's aarch64 emulator, for the tests")
set(CMAKE_CROSSCOMPILING_EMULATOR ${SOFTGPU_QEMU_AARCH64} -R ${_softgpu_guest_va_gib}G
    -L ${SOFTGPU_SYSROOT})
