# `cmake --install` lays out a CANN-like tree so existing build scripts work unchanged:
#   <prefix>/include/acl/...          <prefix>/lib64/libascendcl.so (+ libacl_rt.so, ...)
#   <prefix>/include/aclnn/, <prefix>/include/aclnnop/   the aclnn headers (nnopbase objects and
#   <prefix>/include/hccl/              HCCL (libhccl.so, libhcomm.so: names of libascendcl)
#                                     the operator declarations), where CANN keeps them
#   <prefix>/runtime/include -> ../include, <prefix>/runtime/lib64 -> ../lib64
#   <prefix>/lib64/stub/, <prefix>/devlib/   every library name again: CANN's link-time stub
#                                     folder and the CANN 8.5+ development-library folder
#   <prefix>/include/mstx/, <prefix>/tools/mstx/{include,lib64}   mstx's headers and
#                                     libms_tools_ext.so, also where toolkits keep them
#   <prefix>/tools/hccl_test/bin/     hccl_test's programs (all_reduce_test, ...; tools/hccl_test)
#   <prefix>/set_env.sh, <prefix>/bin/setenv.bash   export ASCEND_TOOLKIT_HOME, NPU_HOST_LIB, ...
# plus a CMake package (find_package(openacl)) and pkg-config files (openacl, ascendcl).
include(CMakePackageConfigHelpers)

set(OPENACL_INSTALL_LIBDIR lib64)
install(TARGETS ascendcl EXPORT openaclTargets
        LIBRARY DESTINATION ${OPENACL_INSTALL_LIBDIR}
        INCLUDES DESTINATION include)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/acl ${PROJECT_SOURCE_DIR}/include/mstx
                  ${PROJECT_SOURCE_DIR}/include/aclnn ${PROJECT_SOURCE_DIR}/include/aclnnop
                  ${PROJECT_SOURCE_DIR}/include/hccl
        DESTINATION include)
if(EXISTS ${PROJECT_SOURCE_DIR}/include/openacl)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/openacl DESTINATION include)
endif()

foreach(alias IN LISTS OPENACL_LIBRARY_ALIASES)
  install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink libascendcl.so
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${OPENACL_INSTALL_LIBDIR}/lib${alias}.so\")")
endforeach()
# Every library name a program may link, in each folder CANN's build files look in.
set(OPENACL_INSTALLED_LIBRARIES ascendcl ${OPENACL_LIBRARY_ALIASES})
if(TARGET c_sec)
  list(APPEND OPENACL_INSTALLED_LIBRARIES c_sec)
endif()
# CANN's runtime/ subtree (the same headers and libraries), its link-time stub folder
# (lib64/stub, so runtime/lib64/stub too) and devlib/: links to the real libraries, so a program
# linked against any of them runs with the one runtime.
install(CODE "
  set(root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  file(MAKE_DIRECTORY \"\${root}/runtime\" \"\${root}/lib64/stub\" \"\${root}/devlib\")
  execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink ../include \"\${root}/runtime/include\")
  execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink ../lib64 \"\${root}/runtime/lib64\")
  foreach(name ${OPENACL_INSTALLED_LIBRARIES})
    execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink ../lib\${name}.so
                    \"\${root}/lib64/stub/lib\${name}.so\")
    execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink ../lib64/lib\${name}.so
                    \"\${root}/devlib/lib\${name}.so\")
  endforeach()
  # mstx where CANN toolkits also have it (tools/mstx), which build files search.
  file(MAKE_DIRECTORY \"\${root}/tools/mstx/include\" \"\${root}/tools/mstx/lib64\")
  execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink ../../../include/mstx
                  \"\${root}/tools/mstx/include/mstx\")
  execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink ../../../lib64/libms_tools_ext.so
                  \"\${root}/tools/mstx/lib64/libms_tools_ext.so\")
")

configure_file(${PROJECT_SOURCE_DIR}/cmake/set_env.sh.in ${PROJECT_BINARY_DIR}/set_env.sh @ONLY)
install(PROGRAMS ${PROJECT_BINARY_DIR}/set_env.sh DESTINATION .)
# CANN's toolkit also has bin/setenv.bash, which CANN's example run scripts source first.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/cmake/setenv.bash DESTINATION bin)

# share/cmake is on CMake's search path everywhere (lib64/cmake is not, on Debian).
install(EXPORT openaclTargets NAMESPACE openacl:: DESTINATION share/cmake/openacl)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/openaclConfig.cmake.in
  ${PROJECT_BINARY_DIR}/openaclConfig.cmake INSTALL_DESTINATION share/cmake/openacl
  PATH_VARS CMAKE_INSTALL_DATADIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/openaclConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/openaclConfig.cmake
              ${PROJECT_BINARY_DIR}/openaclConfigVersion.cmake
        DESTINATION share/cmake/openacl)

foreach(pc openacl ascendcl)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/openacl.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION lib64/pkgconfig)
endforeach()

# openacl_add_kernel_binary() for users' projects: the function, its generator, the headers.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/openaclKernel.cmake DESTINATION share/cmake/openacl)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/gen_kernel_table.py DESTINATION share/openacl/tools)
if(OPENACL_WITH_CUDA)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/openaclCudaKernel.cmake DESTINATION share/cmake/openacl)
endif()

# ascendc.cmake (CANN's Gen-2 kernel build, cmake/ascendc/) where CANN's build files look for it:
# the real folder is compiler/tikcpp/ascendc_kernel_cmake (set_env.sh exports it as
# ASCENDC_CMAKE_DIR); tools/tikcpp/, <arch>-linux/tikcpp/ and ascendc_devkit/tikcpp/samples/cmake
# link to it. The Ascend C kernel API (src/ascendc/include, with tikicpulib.h) goes to
# compiler/tikcpp/tikcfw.
set(OPENACL_ASCENDC_CMAKE_INSTALL_DIR compiler/tikcpp/ascendc_kernel_cmake)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/ascendc/ascendc.cmake
              ${PROJECT_SOURCE_DIR}/cmake/ascendc/soc_versions.cmake
              ${PROJECT_SOURCE_DIR}/cmake/ascendc/tikicpulib-config.cmake
        DESTINATION ${OPENACL_ASCENDC_CMAKE_INSTALL_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/ascendc/paths_installed.cmake
        DESTINATION ${OPENACL_ASCENDC_CMAKE_INSTALL_DIR} RENAME openacl_ascendc_paths.cmake)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/ascendc_gen.py ${PROJECT_SOURCE_DIR}/tools/bisheng
        DESTINATION ${OPENACL_ASCENDC_CMAKE_INSTALL_DIR})
# find_package(ASC) and the ASC language (CANN's Gen-3 .asc build, cmake/asc/): the config file
# where CMAKE_PREFIX_PATH=<prefix> or <prefix>/bin on PATH finds it, the language's modules
# beside ascendc.cmake; the bisheng driver also in bin/ and <arch>-linux/ccec_compiler/bin/.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeDetermineASCCompiler.cmake
              ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeASCCompiler.cmake.in
              ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeASCInformation.cmake
              ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeTestASCCompiler.cmake
        DESTINATION ${OPENACL_ASCENDC_CMAKE_INSTALL_DIR})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/asc/asc-config.cmake DESTINATION share/cmake/asc)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/ascendc/include/ DESTINATION compiler/tikcpp/tikcfw)
if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(OPENACL_HOST_ARCH_DIR aarch64-linux)
else()
  set(OPENACL_HOST_ARCH_DIR x86_64-linux)
endif()
install(CODE "
  set(root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  # tools/tikicpulib/lib/cmake: where CANN's CPU-debug samples point CMAKE_PREFIX_PATH for
  # find_package(tikicpulib) (its config file is in the kernel-cmake folder).
  foreach(link tools/tikcpp/ascendc_kernel_cmake ${OPENACL_HOST_ARCH_DIR}/tikcpp/ascendc_kernel_cmake
               ascendc_devkit/tikcpp/samples/cmake tools/tikicpulib/lib/cmake)
    get_filename_component(parent \"\${root}/\${link}\" DIRECTORY)
    file(MAKE_DIRECTORY \"\${parent}\")
    file(RELATIVE_PATH target \"\${parent}\" \"\${root}/${OPENACL_ASCENDC_CMAKE_INSTALL_DIR}\")
    execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink \"\${target}\" \"\${root}/\${link}\")
  endforeach()
  foreach(link bin/bisheng ${OPENACL_HOST_ARCH_DIR}/ccec_compiler/bin/bisheng)
    get_filename_component(parent \"\${root}/\${link}\" DIRECTORY)
    file(MAKE_DIRECTORY \"\${parent}\")
    file(RELATIVE_PATH target \"\${parent}\" \"\${root}/${OPENACL_ASCENDC_CMAKE_INSTALL_DIR}/bisheng\")
    execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink \"\${target}\" \"\${root}/\${link}\")
  endforeach()
")
