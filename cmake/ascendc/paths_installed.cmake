# Where an installed openacl is, seen from its ascendc.cmake folder
# (<prefix>/compiler/tikcpp/ascendc_kernel_cmake). Installed as openacl_ascendc_paths.cmake.
get_filename_component(OPENACL_ASCENDC_ROOT "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(OPENACL_ASCENDC_INCLUDE_DIRS "${OPENACL_ASCENDC_ROOT}/include"
    "${OPENACL_ASCENDC_ROOT}/compiler/tikcpp/tikcfw")
set(OPENACL_ASCENDC_LIBRARY "${OPENACL_ASCENDC_ROOT}/lib64/libascendcl.so")
set(OPENACL_ASCENDC_GEN_TOOL "${CMAKE_CURRENT_LIST_DIR}/ascendc_gen.py")
