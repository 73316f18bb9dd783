# openacl_add_cuda_kernel_binary(<name> SOURCES <file>... [FORMAT fatbin|cubin|ptx]
#                                [ARCHS <arch>...] [OPTIONS <nvcc option>...])
#
# Builds kernel sources written in the Ascend C entry style (include "openacl/kernel.h"; see
# README.md, "Kernels on the CUDA backend") with nvcc into a CUDA kernel binary that
# aclrtBinaryLoadFromFile loads and aclrtLaunchKernel runs on the CUDA backend:
#
#   ${CMAKE_CURRENT_BINARY_DIR}/<name>.fatbin|.cubin|.ptx
#
# .cpp sources are compiled as CUDA (-x cu), so the file that openacl_add_kernel_binary builds
# for the CPU serves here unchanged; .cu sources are CUDA already; a single .ptx source is
# assembled as it is. Several sources are compiled as one translation unit (each #included in
# turn), so they must not define the same internal names.
#
# FORMAT  fatbin (default): SASS for every ARCHS entry plus PTX of the newest, so GPUs newer
#                 than the newest entry still run it (the driver compiles the PTX at load).
#         cubin:  SASS for exactly one architecture (give one ARCHS entry).
#         ptx:    PTX for the oldest ARCHS entry, compiled by the driver at load time.
# ARCHS   GPU architectures, as 90 or sm_90 (default: 80 90, i.e. A100 and H100/H200).
# OPTIONS extra nvcc options (e.g. -lineinfo, -DNAME=1).
#
# The fatbin is built uncompressed (nvcc compresses the PTX in fatbins by default) so that the
# runtime can read each kernel's __launch_bounds__ and parameter size from it.
#
# The target <name> is a custom target that builds the file; the file's path is the target
# property OPENACL_BINARY_FILE and the variable <name>_FILE in the caller's scope:
#   $<TARGET_PROPERTY:<name>,OPENACL_BINARY_FILE>   or   ${<name>_FILE}
#
# Needs nvcc: CUDAToolkit_NVCC_EXECUTABLE (find_package(CUDAToolkit) sets it), else
# OPENACL_NVCC, else nvcc on PATH; and OPENACL_KERNEL_INCLUDE_DIR (the directory holding
# openacl/kernel.h; find_package(openacl) sets it).
include_guard(GLOBAL)

function(openacl_add_cuda_kernel_binary name)
  cmake_parse_arguments(ARG "" "FORMAT" "SOURCES;ARCHS;OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "openacl_add_cuda_kernel_binary(${name}): unknown arguments "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "openacl_add_cuda_kernel_binary(${name}): give SOURCES")
  endif()
  if(NOT OPENACL_KERNEL_INCLUDE_DIR)
    message(FATAL_ERROR "openacl_add_cuda_kernel_binary: OPENACL_KERNEL_INCLUDE_DIR must be set "
                        "(find_package(openacl) does)")
  endif()
  if(NOT ARG_FORMAT)
    set(ARG_FORMAT fatbin)
  endif()
  if(NOT ARG_FORMAT MATCHES "^(fatbin|cubin|ptx)$")
    message(FATAL_ERROR "openacl_add_cuda_kernel_binary(${name}): FORMAT is fatbin, cubin or ptx, "
                        "not ${ARG_FORMAT}")
  endif()
  if(NOT ARG_ARCHS)
    set(ARG_ARCHS 80 90)
  endif()

  # nvcc: the toolkit's, a given one, or the one on PATH.
  if(CUDAToolkit_NVCC_EXECUTABLE)
    set(nvcc "${CUDAToolkit_NVCC_EXECUTABLE}")
  elseif(OPENACL_NVCC)
    set(nvcc "${OPENACL_NVCC}")
  else()
    find_program(OPENACL_NVCC nvcc HINTS /usr/local/cuda/bin)
    if(NOT OPENACL_NVCC)
      message(FATAL_ERROR "openacl_add_cuda_kernel_binary: nvcc not found "
                          "(find_package(CUDAToolkit) first, or set OPENACL_NVCC)")
    endif()
    set(nvcc "${OPENACL_NVCC}")
  endif()

  # Architectures as numbers, oldest first: "sm_90" and "90" both give 90.
  set(archs "")
  foreach(arch IN LISTS ARG_ARCHS)
    string(REGEX REPLACE "^(sm_|compute_)" "" arch "${arch}")
    if(NOT arch MATCHES "^[0-9]+[a-z]?$")
      message(FATAL_ERROR "openacl_add_cuda_kernel_binary(${name}): bad architecture ${arch}")
    endif()
    list(APPEND archs ${arch})
  endforeach()
  list(REMOVE_DUPLICATES archs)
  list(SORT archs COMPARE NATURAL)
  list(GET archs 0 oldest)
  list(GET archs -1 newest)

  set(output "${CMAKE_CURRENT_BINARY_DIR}/${name}.${ARG_FORMAT}")
  if(ARG_FORMAT STREQUAL "fatbin")
    set(target_flags -fatbin -Xfatbin=--compress=false)
    foreach(arch IN LISTS archs)
      list(APPEND target_flags "-gencode=arch=compute_${arch},code=sm_${arch}")
    endforeach()
    list(APPEND target_flags "-gencode=arch=compute_${newest},code=compute_${newest}")
  elseif(ARG_FORMAT STREQUAL "cubin")
    list(LENGTH archs count)
    if(NOT count EQUAL 1)
      message(FATAL_ERROR "openacl_add_cuda_kernel_binary(${name}): a cubin is for one "
                          "architecture; give one ARCHS entry (or FORMAT fatbin)")
    endif()
    set(target_flags -cubin -arch=sm_${oldest})
  else()
    set(target_flags -ptx -arch=compute_${oldest})
  endif()

  set(sources "")
  foreach(source IN LISTS ARG_SOURCES)
    get_filename_component(absolute "${source}" ABSOLUTE)
    list(APPEND sources "${absolute}")
  endforeach()
  list(LENGTH sources source_count)
  if(source_count EQUAL 1 AND sources MATCHES "\\.ptx$")
    if(ARG_FORMAT STREQUAL "ptx")
      message(FATAL_ERROR "openacl_add_cuda_kernel_binary(${name}): the source is PTX already")
    endif()
    set(input "${sources}")
    set(language "")
    set(depfile "")
  else()
    # One translation unit including every source, compiled as CUDA whatever the extension.
    set(input "${CMAKE_CURRENT_BINARY_DIR}/${name}_cuda_sources.cu")
    set(content "// Generated by openacl_add_cuda_kernel_binary(${name}): do not edit.\n")
    foreach(source IN LISTS sources)
      string(APPEND content "#include \"${source}\"\n")
    endforeach()
    file(CONFIGURE OUTPUT "${input}" CONTENT "${content}" @ONLY)  # rewritten only on change
    # nvcc writes the headers each build read, so editing one rebuilds the binary.
    set(language -x cu -std=c++17 "-I${OPENACL_KERNEL_INCLUDE_DIR}" -MD -MF "${output}.d")
    set(depfile DEPFILE "${output}.d")
  endif()

  add_custom_command(OUTPUT "${output}"
    COMMAND "${nvcc}" ${language} ${target_flags} ${ARG_OPTIONS} -o "${output}" "${input}"
    DEPENDS ${sources} "${input}" ${depfile}
    COMMENT "Building CUDA kernel binary ${name}.${ARG_FORMAT} (${ARG_FORMAT}, sm ${archs})"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${name} ALL DEPENDS "${output}")
  set_target_properties(${name} PROPERTIES OPENACL_BINARY_FILE "${output}")
  set(${name}_FILE "${output}" PARENT_SCOPE)
endfunction()
