# How CMake builds with the ASC language (openacl's bisheng driver, tools/bisheng): compile
# rules, link rules, flags per build type, dependency files, and CANN's two variables:
#   CMAKE_ASC_RUN_MODE       npu (default), cpu (defines ASCENDC_CPU_DEBUG: the source's CPU-debug
#                            branch) or sim; every mode builds for the CPU and runs on openacl
#   CMAKE_ASC_ARCHITECTURES  dav-2201 (Atlas A2/A3), dav-2002 (310P), dav-3510 (950): the
#                            __NPU_ARCH__ / __CCE_AICORE__ the sources see (default dav-2201);
#                            an --npu-arch option of the target's own wins
set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC -fPIC)
set(CMAKE_ASC_COMPILE_OPTIONS_PIE -fPIE)
set(CMAKE_ASC_LINK_OPTIONS_PIE -pie)
set(CMAKE_ASC_LINK_OPTIONS_NO_PIE -no-pie)
set(CMAKE_SHARED_LIBRARY_ASC_FLAGS -fPIC)
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS -shared)
set(CMAKE_SHARED_MODULE_ASC_FLAGS -fPIC)
set(CMAKE_SHARED_MODULE_CREATE_ASC_FLAGS -shared)
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG "-Wl,-rpath-link,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_EXECUTABLE_RPATH_LINK_ASC_FLAG "-Wl,-rpath-link,")
set(CMAKE_DEPFILE_FLAGS_ASC "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
set(CMAKE_ASC_DEPFILE_FORMAT gcc)
set(CMAKE_ASC_DEPENDS_USE_COMPILER TRUE)

set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
string(STRIP "${CMAKE_ASC_FLAGS_INIT}" CMAKE_ASC_FLAGS_INIT)
set(CMAKE_ASC_FLAGS "${CMAKE_ASC_FLAGS_INIT}" CACHE STRING "Flags of every ASC compile")
set(CMAKE_ASC_FLAGS_DEBUG "-g" CACHE STRING "ASC flags of Debug builds")
set(CMAKE_ASC_FLAGS_RELEASE "-O3 -DNDEBUG" CACHE STRING "ASC flags of Release builds")
set(CMAKE_ASC_FLAGS_RELWITHDEBINFO "-O2 -g -DNDEBUG" CACHE STRING
    "ASC flags of RelWithDebInfo builds")
set(CMAKE_ASC_FLAGS_MINSIZEREL "-Os -DNDEBUG" CACHE STRING "ASC flags of MinSizeRel builds")

# What every driver call carries: the host compiler, openacl's headers and runtime, and CANN's
# two variables.
set(_openacl_asc_driver "\"--host-compiler=${CMAKE_ASC_HOST_COMPILER}\"")
foreach(dir IN LISTS CMAKE_ASC_OPENACL_INCLUDE_DIRS)
  string(APPEND _openacl_asc_driver " \"--openacl-include=${dir}\"")
endforeach()
string(APPEND _openacl_asc_driver " \"--openacl-library=${CMAKE_ASC_OPENACL_LIBRARY}\"")
if(DEFINED CMAKE_ASC_RUN_MODE AND NOT "${CMAKE_ASC_RUN_MODE}" STREQUAL "")
  string(TOLOWER "${CMAKE_ASC_RUN_MODE}" _openacl_asc_mode)
  if(NOT _openacl_asc_mode MATCHES "^(npu|cpu|sim)$")
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE \"${CMAKE_ASC_RUN_MODE}\" is not one of npu, cpu, "
                        "sim")
  endif()
  string(APPEND _openacl_asc_driver " --run-mode=${_openacl_asc_mode}")
  unset(_openacl_asc_mode)
endif()
if(DEFINED CMAKE_ASC_ARCHITECTURES AND NOT "${CMAKE_ASC_ARCHITECTURES}" STREQUAL "")
  # Each .asc is built once, for the CPU: the first architecture gives the chip's numbers.
  list(GET CMAKE_ASC_ARCHITECTURES 0 _openacl_asc_arch)
  string(APPEND _openacl_asc_driver " --npu-arch=${_openacl_asc_arch}")
  unset(_openacl_asc_arch)
endif()

set(CMAKE_ASC_COMPILE_OBJECT
    "<CMAKE_ASC_COMPILER> ${_openacl_asc_driver} <DEFINES> <INCLUDES> <FLAGS> -o <OBJECT> -c <SOURCE>")
set(CMAKE_ASC_LINK_EXECUTABLE
    "<CMAKE_ASC_COMPILER> ${_openacl_asc_driver} <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_LIBRARY
    "<CMAKE_ASC_COMPILER> ${_openacl_asc_driver} <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_MODULE
    "<CMAKE_ASC_COMPILER> ${_openacl_asc_driver} <CMAKE_SHARED_MODULE_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_MODULE_CREATE_ASC_FLAGS> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_ASC_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
unset(_openacl_asc_driver)
set(CMAKE_ASC_INFORMATION_LOADED 1)
