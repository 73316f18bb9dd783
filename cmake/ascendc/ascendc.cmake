# openacl's ascendc.cmake: CANN's Gen-2 kernel build functions, building Ascend C kernels for
# the CPU.
#
#     set(SOC_VERSION Ascend910B1)
#     include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
#     ascendc_library(kernels STATIC add_custom.cpp)
#     target_link_libraries(main PRIVATE kernels)    # main includes "aclrtlaunch_add_custom.h"
#
# ascendc_library compiles the kernel sources with the host C++ compiler against openacl's
# kernel API (kernel_operator.h) and generates, at build time, the launch headers CANN generates
# (aclrtlaunch_<kernel>.h, aclrtlaunch_triple_chevrons_func.h) with their stubs, which launch the
# kernels asynchronously on openacl's streams; k<<<n, hold, stream>>>(args) in a kernel source is
# lowered to those stubs. Every RUN_MODE (npu, sim, cpu) builds this same form.
include_guard(GLOBAL)
cmake_minimum_required(VERSION 3.16)

# The folder this file really lives in (the install tree links other folders to it).
get_filename_component(_OPENACL_ASCENDC_DIR "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
get_filename_component(_OPENACL_ASCENDC_DIR "${_OPENACL_ASCENDC_DIR}" DIRECTORY)
# Where openacl is: OPENACL_ASCENDC_ROOT, _INCLUDE_DIRS, _LIBRARY, _GEN_TOOL.
include("${_OPENACL_ASCENDC_DIR}/openacl_ascendc_paths.cmake")
include("${_OPENACL_ASCENDC_DIR}/soc_versions.cmake")

# ---- Inputs checked when the file is included
if(NOT DEFINED SOC_VERSION OR "${SOC_VERSION}" STREQUAL "")
  message(FATAL_ERROR "ascendc.cmake: SOC_VERSION is not set. Set it to the chip the kernels "
                      "are built for before including ascendc.cmake, e.g. "
                      "-DSOC_VERSION=Ascend910B1. Known chips: ${OPENACL_ASCENDC_KNOWN_SOCS}")
endif()
string(TOLOWER "${SOC_VERSION}" _OPENACL_ASCENDC_SOC)
openacl_ascendc_soc("${_OPENACL_ASCENDC_SOC}" _OPENACL_ASCENDC)
if(_OPENACL_ASCENDC_BUILD_MODE STREQUAL "")
  message(FATAL_ERROR "ascendc.cmake: SOC_VERSION \"${SOC_VERSION}\" is not a chip ascendc.cmake "
                      "knows. Known chips (case does not matter): ${OPENACL_ASCENDC_KNOWN_SOCS}")
endif()
set(BUILD_MODE ${_OPENACL_ASCENDC_BUILD_MODE})
if(BUILD_MODE MATCHES "^c(220|310)$")
  set(DYNAMIC_MODE ON)
endif()

if(NOT DEFINED RUN_MODE OR "${RUN_MODE}" STREQUAL "")
  set(RUN_MODE npu)
endif()
string(TOLOWER "${RUN_MODE}" _OPENACL_ASCENDC_RUN_MODE)
if(NOT _OPENACL_ASCENDC_RUN_MODE MATCHES "^(npu|sim|cpu)$")
  message(FATAL_ERROR "ascendc.cmake: RUN_MODE \"${RUN_MODE}\" is not one of npu, sim, cpu")
endif()

if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR "${ASCEND_CANN_PACKAGE_PATH}" STREQUAL "")
  set(ASCEND_CANN_PACKAGE_PATH "${OPENACL_ASCENDC_ROOT}")
elseif(NOT IS_DIRECTORY "${ASCEND_CANN_PACKAGE_PATH}")
  message(FATAL_ERROR "ascendc.cmake: ASCEND_CANN_PACKAGE_PATH ${ASCEND_CANN_PACKAGE_PATH} is not "
                      "a folder (openacl's is ${OPENACL_ASCENDC_ROOT})")
endif()

if(NOT ASCEND_PYTHON_EXECUTABLE)
  find_program(ASCEND_PYTHON_EXECUTABLE NAMES python3 python)
  if(NOT ASCEND_PYTHON_EXECUTABLE)
    message(FATAL_ERROR "ascendc.cmake: python3 is needed to generate the launch stubs (set "
                        "ASCEND_PYTHON_EXECUTABLE)")
  endif()
endif()

get_property(_OPENACL_ASCENDC_TOLD GLOBAL PROPERTY OPENACL_ASCENDC_TOLD)
if(NOT _OPENACL_ASCENDC_TOLD)
  set_property(GLOBAL PROPERTY OPENACL_ASCENDC_TOLD ON)
  set(_arch "")
  if(_OPENACL_ASCENDC_NPU_ARCH)
    set(_arch ", __NPU_ARCH__ ${_OPENACL_ASCENDC_NPU_ARCH}")
  endif()
  set(_cpu "")
  if(_OPENACL_ASCENDC_RUN_MODE STREQUAL "cpu")
    string(CONCAT _cpu "; kernel libraries define ASCENDC_CPU_DEBUG for their programs "
                       "(CANN's CPU-debug host path, ICPU_RUN_KF)")
  endif()
  message(STATUS "ascendc.cmake (openacl): SOC_VERSION ${SOC_VERSION} (${BUILD_MODE}${_arch}), "
                 "RUN_MODE ${_OPENACL_ASCENDC_RUN_MODE}: openacl builds kernels for the CPU in "
                 "every run mode, and its runtime runs them${_cpu}")
  unset(_cpu)
  unset(_arch)
endif()

# The runtime every kernel library links: openacl's own target when this file is used inside
# openacl's build, else its installed (or built) library.
if(NOT TARGET ascendcl)
  add_library(ascendcl SHARED IMPORTED GLOBAL)
  set_target_properties(ascendcl PROPERTIES IMPORTED_LOCATION "${OPENACL_ASCENDC_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${OPENACL_ASCENDC_INCLUDE_DIRS}")
endif()

# find_package(tikicpulib) finds openacl's (CANN's CPU-debug package) next to this file.
if(NOT tikicpulib_DIR)
  set(tikicpulib_DIR "${_OPENACL_ASCENDC_DIR}" CACHE PATH "openacl's tikicpulib package")
endif()
# RUN_MODE cpu: kernel libraries carry CANN's CPU-debug definitions (ASCENDC_CPU_DEBUG, ...) to
# the programs linking them, through tikicpulib::<SOC_VERSION>, as CANN's build does.
if(_OPENACL_ASCENDC_RUN_MODE STREQUAL "cpu")
  include("${_OPENACL_ASCENDC_DIR}/tikicpulib-config.cmake")
  tikicpulib_target("${SOC_VERSION}")
endif()

# ENABLE_ASC (CANN 9): the single-source language beside these functions, on the chips of the
# 910B and 310P families. ascendc_library's kernels keep their launch headers
# (ENABLE_ACLRT_LAUNCH, on by default; openacl generates them whatever its value), and the
# project may add .asc programs, built for this chip and run mode unless CMAKE_ASC_ARCHITECTURES
# or CMAKE_ASC_RUN_MODE say otherwise. Include this file at the top of the project: CMake
# enables languages only there.
if(ENABLE_ASC)
  if(BUILD_MODE MATCHES "^(c220|m200)$")
    option(ENABLE_ACLRT_LAUNCH "Keep ACLRT_LAUNCH_KERNEL for ascendc_library's kernels" ON)
    if(NOT DEFINED CMAKE_ASC_ARCHITECTURES)
      set(CMAKE_ASC_ARCHITECTURES "dav-${_OPENACL_ASCENDC_NPU_ARCH}")
    endif()
    if(NOT DEFINED CMAKE_ASC_RUN_MODE)
      set(CMAKE_ASC_RUN_MODE "${_OPENACL_ASCENDC_RUN_MODE}")
    endif()
    find_package(ASC REQUIRED CONFIG PATHS "${OPENACL_ASCENDC_ROOT}/share/cmake/asc"
                 NO_DEFAULT_PATH)
    enable_language(ASC)
  else()
    message(STATUS "ascendc.cmake (openacl): ENABLE_ASC is for the Ascend910B and Ascend310P "
                   "chips; SOC_VERSION ${SOC_VERSION} builds its kernels with ascendc_library "
                   "alone")
  endif()
endif()

# ---- ascendc_library(<name> STATIC|SHARED|OBJECT <sources>...)
function(ascendc_library name type)
  if(NOT type MATCHES "^(STATIC|SHARED|OBJECT)$")
    message(FATAL_ERROR "ascendc_library(${name} ${type} ...): the second argument is the kind "
                        "of library: STATIC, SHARED or OBJECT")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${name} ${type}): give the kernel sources")
  endif()
  _openacl_ascendc_build(${name} ${type} "" ${ARGN})
endfunction()

# ---- ascendc_fatbin_library(<name> <sources>...): a kernel object for aclrtBinaryLoadFromFile,
# ${CMAKE_BINARY_DIR}/fatbin/<name>/<name>.o, installed as ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/
# <name>.o. On openacl it is a shared object holding the kernels and openacl's kernel table
# (every extern "C" or C++ kernel of the sources, by name; template kernels are not in it).
function(ascendc_fatbin_library name)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_fatbin_library(${name}): give the kernel sources")
  endif()
  _openacl_ascendc_build(${name} MODULE "${CMAKE_BINARY_DIR}/auto_gen/${name}/fatbin_table.cpp"
                         ${ARGN})
  set_target_properties(${name} PROPERTIES PREFIX "" SUFFIX ".o" CXX_VISIBILITY_PRESET hidden
                        LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fatbin/${name}")
  install(TARGETS ${name} LIBRARY DESTINATION fatbin/${name})
endfunction()

# What both build: the kernels compiled for the CPU with their generated launch code. `table`:
# for a fatbin, the generated source of the kernel table the object exports.
function(_openacl_ascendc_build name type table)
  set(include_dir "${CMAKE_BINARY_DIR}/include/${name}")
  set(auto_gen "${CMAKE_BINARY_DIR}/auto_gen/${name}")
  file(MAKE_DIRECTORY "${include_dir}" "${auto_gen}")

  # What the kernels are compiled with, read when the build is generated (so that
  # ascendc_compile_options and friends called later count), for the -E pass too.
  set(tgt "${name}")
  set(incs "$<TARGET_PROPERTY:${tgt},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${tgt},COMPILE_DEFINITIONS>")
  get_directory_property(dir_defs COMPILE_DEFINITIONS)
  # C++20 at least: openacl's kernel API (kernel_operator.h) is written in it.
  set(std "$<IF:$<VERSION_GREATER:$<TARGET_PROPERTY:${tgt},CXX_STANDARD>,20>,$<TARGET_PROPERTY:${tgt},CXX_STANDARD>,20>")
  separate_arguments(cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}")
  set(dir_def_flags "")
  foreach(def IN LISTS dir_defs)
    list(APPEND dir_def_flags "-D${def}")
  endforeach()

  set(generated "")
  set(gen_args "")
  set(preprocessed "")
  set(keys "")
  foreach(source IN LISTS ARGN)
    get_filename_component(source "${source}" ABSOLUTE)
    get_filename_component(key "${source}" NAME_WE)
    # Two sources with one base name get distinct outputs.
    set(unique "${key}")
    set(n 2)
    while(unique IN_LIST keys)
      set(unique "${key}_${n}")
      math(EXPR n "${n} + 1")
    endwhile()
    list(APPEND keys "${unique}")
    set(pp "${auto_gen}/${unique}.i")
    set(depfile_args "")
    set(pp_dep_flags "")
    if(CMAKE_GENERATOR MATCHES "Ninja" OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
      set(depfile_args DEPFILE "${pp}.d")
      set(pp_dep_flags -MD -MF "${pp}.d" -MT "${pp}")
    endif()
    # openacl/kernel.h stays out of this pass (its include guard is set), so __global__,
    # __aicore__ and __gm__ reach the signature reader.
    add_custom_command(OUTPUT "${pp}"
      COMMAND "${CMAKE_CXX_COMPILER}" ${cxx_flags} "-std=c++${std}"
              "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>" ${dir_def_flags}
              "$<TARGET_PROPERTY:${tgt},COMPILE_OPTIONS>"
              -DOPENACL_KERNEL_H_ -E -x c++ ${pp_dep_flags} "${source}" -o "${pp}"
      DEPENDS "${source}" ${depfile_args}
      COMMENT "Preprocessing Ascend C kernel source ${unique} (${name})"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND preprocessed "${pp}")
    list(APPEND gen_args --source "${source}" "${pp}" "${unique}")
    list(APPEND generated "${auto_gen}/${unique}.cpp")
    get_filename_component(source_dir "${source}" DIRECTORY)
    # The rewritten copy lives in auto_gen/: "..." includes still find the user's folder.
    set_source_files_properties("${auto_gen}/${unique}.cpp" PROPERTIES
                                COMPILE_OPTIONS "-iquote;${source_dir}")
  endforeach()
  set(chevrons "${include_dir}/aclrtlaunch_triple_chevrons_func.h")
  set(table_args "")
  if(table)
    set(table_args --fatbin-table "${table}")
  endif()
  add_custom_command(OUTPUT ${generated} "${chevrons}" "${auto_gen}/kernels.txt" ${table}
    COMMAND "${ASCEND_PYTHON_EXECUTABLE}" "${OPENACL_ASCENDC_GEN_TOOL}"
            --include-dir "${include_dir}" --auto-gen-dir "${auto_gen}"
            --stamp "${auto_gen}/kernels.txt" ${table_args} ${gen_args}
    DEPENDS ${preprocessed} ${ARGN} "${OPENACL_ASCENDC_GEN_TOOL}"
    COMMENT "Generating the launch headers and stubs of Ascend C library ${name}"
    VERBATIM)

  add_library(${name} ${type} ${generated} ${table})
  # The hidden target CANN's helper functions record into (kept for projects that name it).
  if(NOT TARGET ${name}_interface)
    add_library(${name}_interface INTERFACE)
  endif()
  target_compile_features(${name} PRIVATE cxx_std_20)
  # The chip's numbers, as the device compiler defines them. ASCENDC_CPU_DEBUG stays undefined
  # unless RUN_MODE is cpu: host code takes the path it takes with a real NPU.
  if(_OPENACL_ASCENDC_NPU_ARCH)
    target_compile_definitions(${name} PRIVATE __NPU_ARCH__=${_OPENACL_ASCENDC_NPU_ARCH}
                               __CCE_AICORE__=${_OPENACL_ASCENDC_CCE_AICORE})
  endif()
  # Applications link only <name>: the launch headers, the kernel API and the runtime come along.
  target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${include_dir}>"
                             ${OPENACL_ASCENDC_INCLUDE_DIRS})
  target_link_libraries(${name} PUBLIC ascendcl)
  if(_OPENACL_ASCENDC_RUN_MODE STREQUAL "cpu" AND NOT type STREQUAL "MODULE")
    target_link_libraries(${name} PUBLIC tikicpulib::${SOC_VERSION})
  endif()
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
                        ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
                        LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
  set_property(TARGET ${name} PROPERTY OPENACL_ASCENDC_INCLUDE_DIR "${include_dir}")
endfunction()

# Splits the arguments of the helper functions into the scope keyword and the values.
macro(_openacl_ascendc_scope fn name)
  if(NOT TARGET ${name})
    message(FATAL_ERROR "${fn}(${name} ...): ${name} is not a target of ascendc_library (call "
                        "ascendc_library first)")
  endif()
  set(_scope PRIVATE)
  set(_values ${ARGN})
  list(GET _values 0 _first)
  if(_first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    set(_scope ${_first})
    list(REMOVE_AT _values 0)
  endif()
endmacro()

# ascendc_compile_options(<name> PRIVATE <device options>... [-forward-options-to-host-compiler
# <host options>...]): both apply to the one (host) compile, except the device compiler's own
# options, which mean nothing to the host compiler and are dropped with a note.
function(ascendc_compile_options name)
  if(NOT ARGN)
    return()
  endif()
  _openacl_ascendc_scope(ascendc_compile_options ${name} ${ARGN})
  set(kept "")
  set(dropped "")
  set(host OFF)
  set(skip_next OFF)
  foreach(opt IN LISTS _values)
    if(skip_next)
      list(APPEND dropped "${opt}")
      set(skip_next OFF)
    elseif(opt STREQUAL "-forward-options-to-host-compiler")
      set(host ON)
    elseif(NOT host AND opt STREQUAL "-mllvm")
      list(APPEND dropped "${opt}")
      set(skip_next ON)
    elseif(NOT host AND (opt MATCHES "^--?cce-" OR opt MATCHES "^--?(npu-arch|run-mode)"
                         OR opt MATCHES "^-X(aicore|host)-" OR opt MATCHES "^-mllvm"
                         OR opt MATCHES "^--(enable-simt|sanitizer)"))
      list(APPEND dropped "${opt}")
    else()
      list(APPEND kept "${opt}")
    endif()
  endforeach()
  if(dropped)
    list(JOIN dropped " " dropped_text)
    message(STATUS "ascendc_compile_options(${name}): ${dropped_text}: device compiler options, "
                   "which the host compiler building the kernels for the CPU does not take; "
                   "dropped")
  endif()
  if(kept)
    target_compile_options(${name} ${_scope} ${kept})
  endif()
endfunction()

# ascendc_compile_definitions(<name> PRIVATE <definitions>...)
function(ascendc_compile_definitions name)
  if(NOT ARGN)
    return()
  endif()
  _openacl_ascendc_scope(ascendc_compile_definitions ${name} ${ARGN})
  target_compile_definitions(${name} ${_scope} ${_values})
endfunction()

# ascendc_include_directories(<name> PRIVATE <folders>...): relative folders are taken from the
# calling CMakeLists.txt's folder.
function(ascendc_include_directories name)
  if(NOT ARGN)
    return()
  endif()
  _openacl_ascendc_scope(ascendc_include_directories ${name} ${ARGN})
  set(dirs "")
  foreach(dir IN LISTS _values)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND dirs "${dir}")
  endforeach()
  target_include_directories(${name} ${_scope} ${dirs})
endfunction()
