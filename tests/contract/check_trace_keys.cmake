# Run by CTest (test_contract_trace): the trace recorder's keyed calls
# (names, tracks and counters filed under a host address) belong to hw/,
# which keys by its own mapping of GPU memory; the driver names GPU objects
# through hw_gpu_trace_name, by GPU address (docs/architecture.md,
# "Timeline traces"). A driver source that calls one fails the test.
#   cmake -DSRC_DIR=<src/> -P check_trace_keys.cmake
cmake_minimum_required(VERSION 3.22)   # script mode: the project's policies
file(GLOB sources ${SRC_DIR}/*.c ${SRC_DIR}/*.h)
set(bad "")
foreach(f ${sources})
  file(STRINGS ${f} hits REGEX "sg_trace_(name|track|counter_at)[ \t]*\\(")
  if(hits)
    string(APPEND bad "${f}: ${hits}\n")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "src/ calls the trace recorder's keyed functions:\n${bad}")
endif()
list(LENGTH sources n)
message(STATUS "${n} files of src/: no keyed trace call")
