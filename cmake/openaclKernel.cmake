# openacl_add_kernel_binary(<name> SOURCES <file>...)
#
# Builds kernel sources written in the Ascend C entry style (include "openacl/kernel.h";
# extern "C" __global__ __aicore__ void kernel(GM_ADDR ...)) into <name>.so, a kernel binary
# that aclrtBinaryLoadFromFile loads and aclrtLaunchKernel runs on the CPU backend. The target
# <name> is a CMake MODULE library; its file is $<TARGET_FILE:<name>>.
include_guard(GLOBAL)
set(_OPENACL_KERNEL_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(openacl_add_kernel_binary name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "openacl_add_kernel_binary(${name}): give SOURCES")
  endif()
  if(NOT OPENACL_KERNEL_TABLE_TOOL OR NOT OPENACL_KERNEL_INCLUDE_DIR)
    message(FATAL_ERROR "openacl_add_kernel_binary: OPENACL_KERNEL_TABLE_TOOL and "
                        "OPENACL_KERNEL_INCLUDE_DIR must be set (find_package(openacl) does)")
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(sources "")
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(absolute "${source}" ABSOLUTE)
    list(APPEND sources "${absolute}")
  endforeach()
  set(table "${CMAKE_CURRENT_BINARY_DIR}/${name}_kernel_table.cpp")
  add_custom_command(OUTPUT "${table}"
    COMMAND ${Python3_EXECUTABLE} "${OPENACL_KERNEL_TABLE_TOOL}" --output "${table}" ${sources}
    DEPENDS ${sources} "${OPENACL_KERNEL_TABLE_TOOL}"
    COMMENT "Generating the launch table of kernel binary ${name}")
  add_library(${name} MODULE ${sources} "${table}")
  target_include_directories(${name} PRIVATE "${OPENACL_KERNEL_INCLUDE_DIR}")
  target_compile_features(${name} PRIVATE cxx_std_17)
  set_target_properties(${name} PROPERTIES PREFIX "" SUFFIX ".so" CXX_VISIBILITY_PRESET hidden
                        POSITION_INDEPENDENT_CODE ON)
endfunction()
