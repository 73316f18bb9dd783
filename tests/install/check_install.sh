#!/usr/bin/env bash
# Installs openacl into a scratch prefix and builds an application against it three ways:
# CANN-style variables from set_env.sh, pkg-config, and find_package(openacl).
set -euo pipefail
build_dir=$1
source_dir=$(cd "$(dirname "$0")" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" > /dev/null

for path in include/acl/acl.h include/acl/ops/acl_dvpp.h include/openacl/acl.hpp \
            lib64/libascendcl.so lib64/libacl_rt.so \
            lib64/libmsprofiler.so runtime/include/acl/acl.h runtime/lib64/libascendcl.so \
            lib64/stub/libascendcl.so set_env.sh lib64/pkgconfig/openacl.pc \
            share/cmake/openacl/openaclConfig.cmake bin/atc; do
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
echo "install tree OK"
