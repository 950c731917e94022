# Run by CTest (test_contract_headers): builds each probe target of
# tests/contract/CMakeLists.txt and checks that private headers of hw/ are
# not found from src/ and compiler/, while a contract header is.
#   cmake -DBUILD_DIR=<build tree> -DOK_TARGETS=a,b -DFAIL_TARGETS=c,d -P check_probes.cmake
cmake_minimum_required(VERSION 3.22)   # script mode: the project's policies
string(REPLACE "," ";" OK_TARGETS "${OK_TARGETS}")
string(REPLACE "," ";" FAIL_TARGETS "${FAIL_TARGETS}")
foreach(t ${OK_TARGETS} ${FAIL_TARGETS})
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${t}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(t IN_LIST OK_TARGETS)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${t}: a contract header did not compile:\n${out}")
    endif()
    message(STATUS "${t}: the contract header compiles")
  else()
    # gcc: "hw_eu.h: No such file or directory"; clang: "'hw_eu.h' file not found".
    # Any other failure (a syntax error, a missing target) is not the check.
    if(rc EQUAL 0)
      message(FATAL_ERROR "${t}: a private header of hw/ was reachable")
    endif()
    if(NOT out MATCHES "hw_[a-z_]+\\.h[':]+ (No such file or directory|file not found)")
      message(FATAL_ERROR "${t}: failed, but not for want of the header:\n${out}")
    endif()
    message(STATUS "${t}: the private header is out of reach, as it must be")
  endif()
endforeach()
