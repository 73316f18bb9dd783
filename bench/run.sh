#!/usr/bin/env bash
# Builds the benchmarks, runs openacl (bench_runtime) and its peers (bench_pocl: PoCL's CPU
# device; plain memcpy in both) one after the other, then the model API next to OpenCV DNN
# (bench_model), and prints summary tables with ratios. Without arguments it then runs
# bench/models.sh: ResNet-50, MobileNetV2 and a detector against ONNX Runtime and OpenCV DNN.
# Needs what scripts/install-deps.sh installs. Extra arguments go to every benchmark program
# (e.g. --benchmark_filter=Enqueue).
#
#   bench/run.sh                      # build dir: build-bench (override with BUILD_DIR=...)
#
# Results: $BUILD_DIR/bench-results/{bench_runtime,bench_pocl,bench_model}.json and summary.md.
# The numbers only mean something on an otherwise idle machine: the script measures how busy
# the CPUs are before it starts and warns when they are.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-bench}
out="$build/bench-results"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENACL_BUILD_BENCH=ON \
  -DOPENACL_BUILD_TESTS=OFF -DOPENACL_BUILD_EXAMPLES=OFF >/dev/null
targets=(bench_runtime bench_model)
if grep -q '^build bench/bench_pocl:' "$build/build.ninja"; then
  targets+=(bench_pocl)
else
  echo "warning: OpenCL/PoCL not found, PoCL results will be missing (run scripts/install-deps.sh)" >&2
fi
cmake --build "$build" --target "${targets[@]}"
mkdir -p "$out"

# How busy the machine is without us: the cross-thread numbers are meaningless when other
# programs compete for the cores (see docs/PERFORMANCE.md).
cpu_busy_percent() {
  local a b
  read -ra a < /proc/stat
  sleep 2
  read -ra b < /proc/stat
  local idle=$(((b[4] + b[5]) - (a[4] + a[5])))
  local total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  echo $((total > 0 ? 100 * (total - idle) / total : 0))
}
echo "== $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
busy=$(cpu_busy_percent)
echo "== CPUs busy before the run: ${busy}%"
if ((busy > 10)); then
  echo "warning: the machine is busy; expect slower and noisier results" >&2
fi

status=0
echo "== openacl"
"$build/bench/bench_runtime" --benchmark_out="$out/bench_runtime.json" \
  --benchmark_out_format=json "$@" || status=$?
results=("$out/bench_runtime.json")
if [[ " ${targets[*]} " == *" bench_pocl "* ]]; then
  echo "== PoCL"
  if "$build/bench/bench_pocl" --benchmark_out="$out/bench_pocl.json" \
    --benchmark_out_format=json "$@"; then
    results+=("$out/bench_pocl.json")
  else
    status=$?
  fi
fi

models=()
echo "== models: openacl and OpenCV DNN"
if "$build/bench/bench_model" --benchmark_out="$out/bench_model.json" \
  --benchmark_out_format=json "$@"; then
  models=(--models "$out/bench_model.json")
else
  status=$?
fi

echo
OPENACL_BENCH_BUSY="$busy" python3 bench/summarize.py "${results[@]}" "${models[@]}" |
  tee "$out/summary.md"
if (($# == 0)); then
  echo
  echo "== models against ONNX Runtime (bench/models.sh)"
  BUILD_DIR="$build" bench/models.sh || status=$?
fi
exit "$status"
