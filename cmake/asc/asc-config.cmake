# find_package(ASC): CANN's Gen-3 (single-source .asc) build, on openacl. After it,
#
#     project(add LANGUAGES ASC CXX)
#     add_executable(add add.asc)
#     target_compile_options(add PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=dav-2201>)
#
# compiles add.asc with openacl's bisheng driver (tools/bisheng): kernels and host code of the
# file built for the CPU, k<<<n, dynUBuf, stream>>>(args) launching on openacl's streams, and the
# program linked with libascendcl. CMAKE_ASC_RUN_MODE (npu, cpu, sim) and CMAKE_ASC_ARCHITECTURES
# (dav-2201, dav-2002, dav-3510, ...) are read when the language is enabled.
#
# This file lives in <root>/share/cmake/asc (found through CMAKE_PREFIX_PATH=<root>, or through
# <root>/bin on PATH, as set_env.sh sets both); the language's modules live in <root>/compiler/
# tikcpp/ascendc_kernel_cmake, where CANN keeps them, or in CUSTOM_ASC_CMAKE_PATH. openacl's
# build tree has the same layout.
get_filename_component(_openacl_asc_root "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(DEFINED CUSTOM_ASC_CMAKE_PATH AND NOT "${CUSTOM_ASC_CMAKE_PATH}" STREQUAL "")
  set(_openacl_asc_modules "${CUSTOM_ASC_CMAKE_PATH}")
else()
  set(_openacl_asc_modules "${_openacl_asc_root}/compiler/tikcpp/ascendc_kernel_cmake")
endif()
if(NOT EXISTS "${_openacl_asc_modules}/CMakeDetermineASCCompiler.cmake")
  set(ASC_FOUND FALSE)
  set(ASC_NOT_FOUND_MESSAGE "openacl's ASC language modules are not in ${_openacl_asc_modules}")
  return()
endif()
list(FIND CMAKE_MODULE_PATH "${_openacl_asc_modules}" _openacl_asc_index)
if(_openacl_asc_index EQUAL -1)
  list(APPEND CMAKE_MODULE_PATH "${_openacl_asc_modules}")
endif()
set(ASC_FOUND TRUE)
set(ASC_DIR "${CMAKE_CURRENT_LIST_DIR}")
unset(_openacl_asc_index)
unset(_openacl_asc_modules)
unset(_openacl_asc_root)
