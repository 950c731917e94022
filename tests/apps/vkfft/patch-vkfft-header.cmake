# Writes a copy of Debian's vkFFT.h (VkFFT 1.2.26) into the build tree that
# compiles as C against Debian's glslang 12, for the VkFFT test
# (tests/apps/vkfft): its glslang resource limits taken from glslang itself,
# and three empty scalar initialisers made C. Run at build time:
#
#   cmake -DIN=/usr/include/vkFFT.h -DOUT=<build>/vkfft_patched.h -P patch-vkfft-header.cmake
#
# First, the resource limits. vkFFT.h initialises its `glslang_resource_t
# default_resource` (twice: the compile paths of plan creation and of the
# Bluestein kernels) by position, against the layout of an older glslang.
# glslang 12 inserted nine max_*_ext members for mesh shaders before
# max_dual_source_draw_buffers_ext and `limits`, so in C the old list runs
# one value into the new members, the braces of `limits` land on an int
# (only warnings: "braces around scalar initializer", "excess elements")
# and everything after, `limits` included, is zero: glslang then rejects
# every VkFFT shader ("'limitations' : Non-constant-index-expression"). In
# C++ those braces are an error. The values VkFFT lists are glslang's own
# defaults (DefaultTBuiltInResource), so the fix takes them from
# glslang_default_resource() (libglslang-default-resource-limits), which
# has the right layout by construction.
#
# The system header is never modified, and no VkFFT code is kept in
# softgpu's tree: only the patterns below.
cmake_minimum_required(VERSION 3.13)
if(NOT DEFINED IN OR NOT DEFINED OUT)
  message(FATAL_ERROR "usage: cmake -DIN=<vkFFT.h> -DOUT=<patched header> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
file(READ "${IN}" text)

# Replaces every match of `regex` in `text` by `replacement`, which ends in
# a comment with `marker`: the markers count the replacements (the matches
# themselves may hold `;`, which would split them in a CMake list). A count
# other than `expected` means another VkFFT than 1.2.26, which these fixes
# were not written for, so the build stops rather than guess.
function(replace_exactly expected regex replacement marker)
  string(FIND "${text}" "${marker}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${IN} is already patched ('${marker}'): give the system header")
  endif()
  string(REGEX REPLACE "${regex}" "${replacement} /* softgpu: ${marker} */" text "${text}")
  string(REGEX MATCHALL "${marker}" found "${text}")
  list(LENGTH found count)
  if(NOT count EQUAL expected)
    message(FATAL_ERROR "${IN}: ${count} matches of '${regex}' where VkFFT 1.2.26 has ${expected}; "
                        "tests/apps/vkfft/patch-vkfft-header.cmake is written for that version")
  endif()
  set(text "${text}" PARENT_SCOPE)
endfunction()

# The initialiser: `{`, the members (no `}` among them), the `}` that ends
# the nested `limits` list, then the `};` of the struct.
replace_exactly(2 "const glslang_resource_t default_resource = {[^}]*}[ \t\r\n]*};"
                "const glslang_resource_t default_resource = *glslang_default_resource();"
                "resource limits from glslang")

# Second, C: three `VkCommandBuffer commandBuffer = {};` (in the Bluestein
# kernels' set-up, which this test does not run, but compiled all the same)
# are empty scalar initialisers, which C (gcc 12, clang 14) rejects and C++
# accepts. VK_NULL_HANDLE is what C++ makes of them. (Braces are literal in
# CMake's regular expressions.)
replace_exactly(3 "VkCommandBuffer commandBuffer = {};"
                "VkCommandBuffer commandBuffer = VK_NULL_HANDLE;" "was an empty initialiser")

# glslang_default_resource() is declared by glslang's C resource-limits header.
set(interface "#include <glslang/Include/glslang_c_interface.h>")
string(FIND "${text}" "${interface}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${IN}: no '${interface}' line to add glslang's resource-limits header after")
endif()
string(REPLACE "${interface}" "${interface}\n#include <glslang/Public/resource_limits_c.h>" text "${text}")

file(WRITE "${OUT}.tmp" "/* Generated from ${IN} by tests/apps/vkfft/patch-vkfft-header.cmake: do not edit. */\n${text}")
file(RENAME "${OUT}.tmp" "${OUT}")
