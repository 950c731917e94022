# Installs softgpu into a scratch prefix and checks that the Vulkan loader
# finds it there through the installed manifest alone: no VK_DRIVER_FILES;
# and that the installed `softgpu run` finds that manifest.
# Usage: cmake -DBUILD=<build dir> -DPREFIX=<scratch> -DEXAMPLE=<device_info> -P install_test.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
file(GLOB manifest "${PREFIX}/share/vulkan/icd.d/softgpu_icd*.json")
if(NOT manifest)
  message(FATAL_ERROR "no manifest under ${PREFIX}/share/vulkan/icd.d")
endif()
file(READ "${manifest}" text)
if(NOT text MATCHES "\"${PREFIX}/lib[^\"]*/libvulkan_softgpu.so\"")
  message(FATAL_ERROR "installed manifest does not name the installed library:\n${text}")
endif()
# The loader searches $XDG_DATA_DIRS/vulkan/icd.d: point it at the prefix only.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=VK_DRIVER_FILES --unset=VK_ICD_FILENAMES
          "XDG_DATA_DIRS=${PREFIX}/share" "XDG_DATA_HOME=${PREFIX}/nonexistent"
          "VK_LOADER_LAYERS_DISABLE=~implicit~" "${EXAMPLE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "softgpu \\(CPU\\)")
  message(FATAL_ERROR "the loader did not find the installed softgpu (${rc}):\n${out}\n${err}")
endif()
# The installed softgpu command finds the installed manifest.
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=VK_DRIVER_FILES --unset=SOFTGPU_BUILD_DIR
          "XDG_DATA_DIRS=${PREFIX}/nonexistent" "VK_LOADER_LAYERS_DISABLE=~implicit~"
          "${PREFIX}/bin/softgpu" run -- "${EXAMPLE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "softgpu \\(CPU\\)")
  message(FATAL_ERROR "the installed softgpu run did not run on softgpu (${rc}):\n${out}\n${err}")
endif()
foreach(tool softgpu-dump softgpu-snapshot)
  if(NOT EXISTS "${PREFIX}/bin/${tool}")
    message(FATAL_ERROR "${tool} is not installed")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
message(STATUS "installed softgpu found by the loader and by the softgpu command")
