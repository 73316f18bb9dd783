#!/usr/bin/env bash
# Ascend C kernels against their peers (bench/ascendc/: an element-wise add against plain C++
# threads and the device copy, the Matmul API against oneDNN's sgemm, the launch cost per
# block). Builds the kernel project with the default build's ascendc.cmake (optimised), runs it.
# Only meaningful on an otherwise idle machine.
#
#   bench/ascendc.sh [add] [matmul] [launch] [vector]   # all by default; needs the default build (cmake --preset default && cmake --build build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
out="$build/bench-ascendc"
cmake --build "$build" --target ascendcl >/dev/null
cmake -S bench/ascendc -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DASCENDC_CMAKE_DIR="$PWD/$build/compiler/tikcpp/ascendc_kernel_cmake" >/dev/null
cmake --build "$out" >/dev/null
ASCEND_PROCESS_LOG_PATH="$out/logs" "$out/bench_ascendc" "$@"
