#!/usr/bin/env bash
# Installs openacl into a scratch prefix, checks that every file and library name CANN's build
# files look for is there (stub folders and devlib/ included), and builds applications against
# it in each of the README's styles: CANN-style variables from set_env.sh (and bin/setenv.bash),
# the stub folder, devlib/, libraries linked by path, pkg-config, and find_package(openacl).
set -euo pipefail
build_dir=$1
source_dir=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" > /dev/null

libraries=(ascendcl acl_rt acl_rt_impl acl_mdl acl_dvpp acl_cblas msprofiler profapi
           acl_op_compiler acl_op_executor ms_tools_ext c_sec nnopbase opapi opapi_math opapi_nn
           opapi_transformer opapi_cv hccl hcomm acl_tdt_channel acl_tdt_queue tiling_api register
           platform graph_base unified_dlog)
paths=(include/acl/acl.h include/acl/ops/acl_dvpp.h include/acl/ops/acl_cblas.h include/securec.h
       include/securectype.h include/openacl/acl.hpp runtime/include/acl/acl.h
       include/aclnn/acl_meta.h include/aclnn/aclnn_base.h include/aclnn/opdev/op_errno.h
       include/aclnnop/aclnn_util.h include/aclnnop/aclnn_add.h runtime/include/aclnnop/aclnn_mm.h
       include/hccl/hccl.h include/hccl/hccl_comm.h include/hccl/hccl_types.h include/acl/acl_tdt.h
       runtime/include/securec.h set_env.sh bin/setenv.bash bin/atc lib64/pkgconfig/openacl.pc
       share/cmake/openacl/openaclConfig.cmake include/mstx/ms_tools_ext.h
       include/mstx/ms_tools_ext_mem.h tools/mstx/include/mstx/ms_tools_ext.h
       tools/mstx/lib64/libms_tools_ext.so)
for lib in "${libraries[@]}"; do
  for dir in lib64 lib64/stub runtime/lib64 runtime/lib64/stub devlib; do
    paths+=("$dir/lib$lib.so")
  done
done
for path in "${paths[@]}"; do
  [ -e "$prefix/$path" ] || { echo "missing from the installed tree: $path"; exit 1; }
done

# shellcheck disable=SC1091
source "$prefix/set_env.sh"
for var in ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH DDK_PATH NPU_HOST_LIB INSTALL_DIR; do
  [ -n "${!var:-}" ] || { echo "set_env.sh did not export $var"; exit 1; }
done
# atc is on PATH after set_env.sh, as in CANN.
[ "$(command -v atc)" = "$prefix/bin/atc" ] || { echo "set_env.sh did not put atc on PATH"; exit 1; }
work=$(mktemp -d -p "$prefix")
onnx=/usr/share/libonnx-testdata/data/node/test_relu/model.onnx
atc --model="$onnx" --framework=5 --output="$work/relu" --soc_version=Ascend310P3 > /dev/null
[ -f "$work/relu.om" ] || { echo "the installed atc wrote no .om"; exit 1; }
cc "$source_dir/app.c" -I"$DDK_PATH/include" -L"$NPU_HOST_LIB" -lascendcl -o "$work/app_cann"
"$work/app_cann"
# CANN's samples: the stub folder and every library of the media stack by name.
cc "$source_dir/app_media.c" -I"$ASCEND_TOOLKIT_HOME/runtime/include" \
   -L"$ASCEND_TOOLKIT_HOME/runtime/lib64/stub" -lascendcl -lacl_dvpp -lacl_cblas -lacl_op_compiler \
   -lmsprofiler -lc_sec -o "$work/app_media"
"$work/app_media"
# CANN 8.5+: devlib/, and the split runtime libraries linked by path.
cc "$source_dir/app.c" -I"$ASCEND_HOME_PATH/include" -L"$ASCEND_HOME_PATH/devlib" -lacl_rt \
   -lacl_mdl -o "$work/app_devlib"
"$work/app_devlib"
cc "$source_dir/app.c" -I"$ASCEND_HOME_PATH/include" "$ASCEND_HOME_PATH/lib64/libacl_rt.so" \
   "$ASCEND_HOME_PATH/lib64/libacl_rt_impl.so" "$ASCEND_HOME_PATH/lib64/libprofapi.so" \
   -o "$work/app_by_path"
"$work/app_by_path"
# mstx: its header and libms_tools_ext.so where CANN 8.5+ has them, and where older toolkits did
# (tools/mstx); under OPENACL_TRACE the annotations reach the trace.
cc "$source_dir/app_mstx.c" -I"$ASCEND_HOME_PATH/include" -L"$ASCEND_HOME_PATH/lib64" \
   -lms_tools_ext -lascendcl -o "$work/app_mstx"
"$work/app_mstx" > /dev/null
cc "$source_dir/app_mstx.c" -I"$ASCEND_HOME_PATH/include" -I"$ASCEND_HOME_PATH/tools/mstx/include" \
   -L"$ASCEND_HOME_PATH/lib64" -L"$ASCEND_HOME_PATH/tools/mstx/lib64" -lascendcl -lms_tools_ext \
   -o "$work/app_mstx_tools"
OPENACL_TRACE="$work/mstx.json" "$work/app_mstx_tools" > /dev/null
for name in '"installed mark"' '"installed range"' '"user,install_check"'; do
  grep -q "$name" "$work/mstx.json" || { echo "the mstx application's trace lacks $name"; exit 1; }
done
# aclnn: an operator program linked as CANN's runtime examples link one (the split runtime,
# nnopbase and opapi), and one that finds the per-repository operator library by path.
c++ -std=c++17 "$source_dir/../../examples/aclnn_add.cpp" -I"$ASCEND_HOME_PATH/include" \
    -L"$ASCEND_HOME_PATH/lib64" -lacl_rt -lnnopbase -lopapi -o "$work/app_aclnn"
"$work/app_aclnn" | grep -q "aclnnAdd OK" || { echo "the aclnn program fails"; exit 1; }
c++ -std=c++17 "$source_dir/../../examples/aclnn_add.cpp" -I"$ASCEND_HOME_PATH/include" \
    -I"$ASCEND_HOME_PATH/include/aclnn" "$ASCEND_HOME_PATH/lib64/libascendcl.so" \
    "$ASCEND_HOME_PATH/lib64/libnnopbase.so" "$ASCEND_HOME_PATH/lib64/libopapi_math.so" \
    -o "$work/app_aclnn_math"
"$work/app_aclnn_math" | grep -q "aclnnAdd OK" || { echo "the aclnn program (opapi_math) fails"; exit 1; }
# HCCL: a data-parallel program linked as HCCL's examples link (-lhccl -lascendcl), with the
# operators beside, on two virtual devices.
c++ -std=c++17 "$source_dir/../../examples/hccl_data_parallel.cpp" -I"$ASCEND_HOME_PATH/include" \
    -L"$ASCEND_HOME_PATH/lib64" -lhccl -lascendcl -lnnopbase -lopapi -pthread -o "$work/app_hccl"
OPENACL_DEVICE_COUNT=2 "$work/app_hccl" | grep -q "data-parallel training OK" ||
  { echo "the HCCL program fails"; exit 1; }
# A run script that begins as CANN's examples do, in a clean environment.
env -i HOME="$HOME" PATH=/usr/bin:/bin bash -c "source '$prefix/bin/setenv.bash' &&
  [ \"\$ASCEND_HOME_PATH\" = '$prefix' ] && [ \"\$(command -v atc)\" = '$prefix/bin/atc' ] &&
  '$work/app_by_path'" > /dev/null ||
  { echo "bin/setenv.bash did not set up the environment as set_env.sh does"; exit 1; }
cc "$source_dir/app.c" -o "$work/app_runtime" -I"$ASCEND_TOOLKIT_HOME/runtime/include" \
   -L"$ASCEND_TOOLKIT_HOME/runtime/lib64" -lacl_rt
"$work/app_runtime"
# The C++ layer is a header of the tree, usable with nothing else.
c++ -std=c++17 -Wall -Wextra -Werror "$source_dir/app_cpp.cpp" -I"$DDK_PATH/include" \
    -L"$NPU_HOST_LIB" -lascendcl -pthread -o "$work/app_cpp"
"$work/app_cpp"
# shellcheck disable=SC2046
cc "$source_dir/app.c" $(pkg-config --cflags --libs openacl) -o "$work/app_pc"
"$work/app_pc"
cmake -S "$source_dir" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/cmake" > /dev/null
"$work/cmake/app"
[ -f "$work/cmake/user_kernels.so" ] || { echo "openacl_add_kernel_binary built nothing"; exit 1; }
# An Ascend C kernel project (tests/ascendc_build/project) built with the installed ascendc.cmake,
# found through ASCENDC_CMAKE_DIR as CANN's kernel examples do, and through the other folders
# CANN's build files probe.
[ "$ASCENDC_CMAKE_DIR" = "$prefix/compiler/tikcpp/ascendc_kernel_cmake" ] ||
  { echo "set_env.sh did not export ASCENDC_CMAKE_DIR"; exit 1; }
for dir in compiler/tikcpp/ascendc_kernel_cmake tools/tikcpp/ascendc_kernel_cmake \
           "$(uname -m)-linux/tikcpp/ascendc_kernel_cmake" ascendc_devkit/tikcpp/samples/cmake; do
  [ -f "$prefix/$dir/ascendc.cmake" ] || { echo "missing from the installed tree: $dir/ascendc.cmake"; exit 1; }
done
ascendc_project="$source_dir/../ascendc_build/project"
cmake -S "$ascendc_project" -B "$work/ascendc" -G Ninja -DSOC_VERSION=ascend910b1 > /dev/null
cmake --build "$work/ascendc" > /dev/null
"$work/ascendc/main" > /dev/null || { echo "the Ascend C project built on the install tree fails"; exit 1; }
cmake -S "$ascendc_project" -B "$work/ascendc_devkit" -G Ninja -DSOC_VERSION=Ascend310P3 \
      -DASCENDC_CMAKE_DIR="$prefix/ascendc_devkit/tikcpp/samples/cmake" > /dev/null
cmake --build "$work/ascendc_devkit" > /dev/null
"$work/ascendc_devkit/main" --gtest_filter='*ChevronWrapper*' > /dev/null ||
  { echo "the Ascend C project built through ascendc_devkit/tikcpp/samples/cmake fails"; exit 1; }
"$work/ascendc/vec_add_main" > /dev/null || { echo "the sample host program's AscendCL branch fails"; exit 1; }
# ascendc_fatbin_library: the kernel object loads and launches, and installs to fatbin/<name>/.
"$work/ascendc/fatbin_main" > /dev/null || { echo "the ascendc_fatbin_library object fails"; exit 1; }
cmake --install "$work/ascendc" --prefix "$work/ascendc_installed" > /dev/null
[ -f "$work/ascendc_installed/fatbin/fatbin_kernels/fatbin_kernels.o" ] ||
  { echo "ascendc_fatbin_library installed no fatbin/fatbin_kernels/fatbin_kernels.o"; exit 1; }
# CANN's CPU-debug mode: tikicpulib.h with the kernel API, find_package(tikicpulib) where CANN's
# samples point CMAKE_PREFIX_PATH, and the sample host program's ICPU_RUN_KF branch built with
# RUN_MODE cpu and with tikicpulib::<chip>.
[ -f "$prefix/compiler/tikcpp/tikcfw/tikicpulib.h" ] || { echo "tikicpulib.h is not installed"; exit 1; }
[ -f "$prefix/tools/tikicpulib/lib/cmake/tikicpulib-config.cmake" ] ||
  { echo "missing from the installed tree: tools/tikicpulib/lib/cmake/tikicpulib-config.cmake"; exit 1; }
cmake -S "$source_dir/../ascendc_build/project_cpu" -B "$work/ascendc_cpu" -G Ninja \
      -DCMAKE_PREFIX_PATH="$prefix/tools/tikicpulib/lib/cmake" > /dev/null
cmake --build "$work/ascendc_cpu" > /dev/null
"$work/ascendc_cpu/vec_add_main" > /dev/null || { echo "the sample's CPU-debug branch fails (RUN_MODE cpu)"; exit 1; }
"$work/ascendc_cpu/vec_add_plain_main" > /dev/null ||
  { echo "the sample's CPU-debug branch fails (find_package(tikicpulib))"; exit 1; }
# pyACL: set_env.sh puts the acl module on PYTHONPATH, as CANN's does (when it was built).
if [ -d "$prefix/python/site-packages" ]; then
  [ "$(cd /tmp && /usr/bin/python3 -c 'import acl; print(acl.rt.get_run_mode())')" = "(1, 0)" ] ||
    { echo "the installed acl module does not import or answer"; exit 1; }
  /usr/bin/python3 - "$work/relu.om" <<'PY' || { echo "the installed acl module cannot run a model"; exit 1; }
import sys
import acl
assert acl.init() == 0 and acl.rt.set_device(0) == 0
model_id, ret = acl.mdl.load_from_file(sys.argv[1])
assert ret == 0, acl.get_recent_err_msg()
assert acl.mdl.unload(model_id) == 0 and acl.rt.reset_device(0) == 0 and acl.finalize() == 0
PY
fi
# CANN's Gen-3 build (tests/ascendc_build/project_asc): find_package(ASC) found as set_env.sh
# leaves it (CMAKE_PREFIX_PATH, and bin/ on PATH alone), the ASC language, .asc programs; and
# bisheng from PATH, compiling and linking one program in one command.
for path in share/cmake/asc/asc-config.cmake bin/bisheng "$(uname -m)-linux/ccec_compiler/bin/bisheng" \
            compiler/tikcpp/ascendc_kernel_cmake/CMakeASCInformation.cmake \
            compiler/tikcpp/tikcfw/cpu_debug_launch.h; do
  [ -e "$prefix/$path" ] || { echo "missing from the installed tree: $path"; exit 1; }
done
asc_project="$source_dir/../ascendc_build/project_asc"
cmake -S "$asc_project" -B "$work/asc" -G Ninja > /dev/null
cmake --build "$work/asc" > /dev/null
for program in add_asc kernels_asc cpu_debug_asc cxx_main_static cxx_main_shared; do
  "$work/asc/$program" > /dev/null || { echo "the .asc program $program built on the install tree fails"; exit 1; }
done
# Gen 2's ascendc.cmake turning the ASC language on (ENABLE_ASC): its find_package(ASC) finds the
# installed tree's own asc-config.cmake.
cmake -S "$source_dir/../ascendc_build/project_enable_asc" -B "$work/enable_asc" -G Ninja > /dev/null
cmake --build "$work/enable_asc" > /dev/null
for program in aclrt_launch_main negate_asc; do
  "$work/enable_asc/$program" > /dev/null ||
    { echo "the ENABLE_ASC program $program built on the install tree fails"; exit 1; }
done
env -u CMAKE_PREFIX_PATH cmake -S "$asc_project" -B "$work/asc_path" -G Ninja > /dev/null ||
  { echo "find_package(ASC) is not found through bin/ on PATH"; exit 1; }
[ "$(command -v bisheng)" = "$prefix/bin/bisheng" ] || { echo "set_env.sh did not put bisheng on PATH"; exit 1; }
(cd "$work" && bisheng "$asc_project/add.asc" -o add_cli --npu-arch=dav-2201) > /dev/null
"$work/add_cli" > /dev/null || { echo "a program built by bisheng on the command line fails"; exit 1; }
echo "install tree OK"
