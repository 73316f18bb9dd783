# project(... LANGUAGES ASC): the ASC language's compiler is openacl's bisheng driver, which
# builds a .asc file's kernels and host code for the CPU with a host C++ compiler
# (CMAKE_ASC_HOST_COMPILER: the project's CMAKE_CXX_COMPILER when given, else $CXX, else c++).
include("${CMAKE_CURRENT_LIST_DIR}/openacl_ascendc_paths.cmake")
get_filename_component(_openacl_asc_tools "${OPENACL_ASCENDC_GEN_TOOL}" DIRECTORY)
if(NOT CMAKE_ASC_COMPILER)
  set(CMAKE_ASC_COMPILER "${_openacl_asc_tools}/bisheng" CACHE FILEPATH
      "The ASC (Ascend C single-source) compiler: openacl's bisheng driver")
endif()
if(NOT CMAKE_ASC_HOST_COMPILER)
  if(CMAKE_CXX_COMPILER)
    set(_openacl_asc_host "${CMAKE_CXX_COMPILER}")
  elseif(DEFINED ENV{CXX} AND NOT "$ENV{CXX}" STREQUAL "")
    set(_openacl_asc_host "$ENV{CXX}")
  else()
    find_program(_openacl_asc_host NAMES c++ g++ clang++)
  endif()
  if(NOT _openacl_asc_host)
    message(FATAL_ERROR "ASC (openacl): no host C++ compiler found for the .asc sources; set "
                        "CMAKE_ASC_HOST_COMPILER or CXX")
  endif()
  set(CMAKE_ASC_HOST_COMPILER "${_openacl_asc_host}" CACHE FILEPATH
      "The host C++ compiler openacl's bisheng hands .asc sources to")
  unset(_openacl_asc_host CACHE)
  unset(_openacl_asc_host)
endif()
# Static libraries of .asc objects are archived with the host's tools.
if(NOT CMAKE_AR)
  find_program(CMAKE_AR NAMES ar)
endif()
if(NOT CMAKE_RANLIB)
  find_program(CMAKE_RANLIB NAMES ranlib)
endif()
set(CMAKE_ASC_OPENACL_INCLUDE_DIRS "${OPENACL_ASCENDC_INCLUDE_DIRS}")
set(CMAKE_ASC_OPENACL_LIBRARY "${OPENACL_ASCENDC_LIBRARY}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
unset(_openacl_asc_tools)
