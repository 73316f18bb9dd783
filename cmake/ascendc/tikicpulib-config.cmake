# openacl's tikicpulib package: find_package(tikicpulib) for programs of CANN's CPU-debug mode.
#
#     find_package(tikicpulib REQUIRED)      # tikicpulib_DIR or CMAKE_PREFIX_PATH: this folder
#     add_library(kernels SHARED add_custom.cpp)
#     target_link_libraries(kernels PUBLIC tikicpulib::${SOC_VERSION})
#     add_executable(main main.cpp)          # #include "tikicpulib.h", ICPU_RUN_KF(...)
#     target_link_libraries(main PRIVATE kernels)
#
# Each tikicpulib::<chip> is an interface target: openacl's kernel API and tikicpulib.h, the
# definitions CANN's CPU-debug builds have (ASCENDC_CPU_DEBUG, __CCE_KT_TEST__, the chip's
# __NPU_ARCH__ and __CCE_AICORE__), C++20 (the kernel API's standard) and libascendcl, which
# runs ICPU_RUN_KF's blocks. There is one per chip SOC_VERSION may name, spelled as CANN spells
# it and in lower case (tikicpulib::Ascend910B1, tikicpulib::ascend910b1), and one per CANN model
# series (tikicpulib::ascend910, ascend310p, ascend910B1, ascend310B1, ascend950pr_9599). Other
# spellings of a known chip are made by tikicpulib_target(<soc>), which ascendc.cmake calls.
include_guard(GLOBAL)
get_filename_component(_OPENACL_TIKICPULIB_DIR "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
get_filename_component(_OPENACL_TIKICPULIB_DIR "${_OPENACL_TIKICPULIB_DIR}" DIRECTORY)
include("${_OPENACL_TIKICPULIB_DIR}/openacl_ascendc_paths.cmake")
include("${_OPENACL_TIKICPULIB_DIR}/soc_versions.cmake")

if(NOT TARGET ascendcl)
  add_library(ascendcl SHARED IMPORTED GLOBAL)
  set_target_properties(ascendcl PROPERTIES IMPORTED_LOCATION "${OPENACL_ASCENDC_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${OPENACL_ASCENDC_INCLUDE_DIRS}")
endif()

# Makes tikicpulib::<soc> for a chip ascendc.cmake knows (in any case); false in <ok> if unknown.
function(tikicpulib_target soc)
  set(ok_var "")
  if(ARGC GREATER 1)
    set(ok_var "${ARGV1}")
  endif()
  string(TOLOWER "${soc}" lower)
  openacl_ascendc_soc("${lower}" chip)
  if(chip_BUILD_MODE STREQUAL "")
    if(ok_var)
      set(${ok_var} FALSE PARENT_SCOPE)
    endif()
    return()
  endif()
  if(NOT TARGET tikicpulib::${soc})
    add_library(tikicpulib::${soc} INTERFACE IMPORTED GLOBAL)
    set(defs ASCENDC_CPU_DEBUG __CCE_KT_TEST__)
    if(chip_NPU_ARCH)
      list(APPEND defs __NPU_ARCH__=${chip_NPU_ARCH} __CCE_AICORE__=${chip_CCE_AICORE})
    endif()
    set_target_properties(tikicpulib::${soc} PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${OPENACL_ASCENDC_INCLUDE_DIRS}"
      INTERFACE_COMPILE_DEFINITIONS "${defs}"
      INTERFACE_COMPILE_FEATURES cxx_std_20
      INTERFACE_LINK_LIBRARIES ascendcl)
  endif()
  if(ok_var)
    set(${ok_var} TRUE PARENT_SCOPE)
  endif()
endfunction()

set(_OPENACL_TIKICPULIB_CHIPS
    Ascend910B1 Ascend910B2 Ascend910B3 Ascend910B4 Ascend910B2C Ascend910B4-1
    Ascend910_9391 Ascend910_9381 Ascend910_9372 Ascend910_9392 Ascend910_9382 Ascend910_9362
    Ascend310P1 Ascend310P3 Ascend310P5 Ascend310P7 Ascend310B1 Ascend310B2 Ascend310B3
    Ascend310B4 Ascend910 Ascend910A Ascend910ProA Ascend910ProB Ascend910PremiumA
    Ascend950PR_9599 Ascend950PR_9579 Ascend950DT_9591 KirinX90 Kirin9030 MC62)
foreach(_chip IN LISTS _OPENACL_TIKICPULIB_CHIPS)
  string(TOLOWER "${_chip}" _lower)
  tikicpulib_target(${_chip})
  tikicpulib_target(${_lower})
endforeach()
# CANN's model series names.
foreach(_series ascend910 ascend310p ascend910B1 ascend310B1 ascend950pr_9599)
  if(_series STREQUAL "ascend310p")
    tikicpulib_target(Ascend310P1)
    if(NOT TARGET tikicpulib::ascend310p)
      add_library(tikicpulib::ascend310p INTERFACE IMPORTED GLOBAL)
      set_target_properties(tikicpulib::ascend310p PROPERTIES
                            INTERFACE_LINK_LIBRARIES tikicpulib::Ascend310P1)
    endif()
  else()
    tikicpulib_target(${_series})
  endif()
endforeach()
if(DEFINED SOC_VERSION AND NOT "${SOC_VERSION}" STREQUAL "")
  tikicpulib_target("${SOC_VERSION}")
endif()
unset(_chip)
unset(_lower)
unset(_series)
set(tikicpulib_FOUND TRUE)
