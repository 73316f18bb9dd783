#!/usr/bin/env bash
# Builds the benchmarks, runs openacl (bench_runtime) and its peers (bench_pocl: PoCL's CPU
# device; plain memcpy in both) one after the other, and prints a summary table with ratios.
# Needs what scripts/install-deps.sh installs. Extra arguments go to both benchmark programs
# (e.g. --benchmark_filter=Enqueue).
#
#   bench/run.sh                      # build dir: build-bench (override with BUILD_DIR=...)
#
# Results: $BUILD_DIR/bench-results/{bench_runtime,bench_pocl}.json and summary.md.
# The numbers only mean something on an otherwise idle machine: the script prints the load
# average before it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-bench}
out="$build/bench-results"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENACL_BUILD_BENCH=ON \
  -DOPENACL_BUILD_TESTS=OFF -DOPENACL_BUILD_EXAMPLES=OFF >/dev/null
targets=(bench_runtime)
if grep -q '^build bench/bench_pocl:' "$build/build.ninja"; then
  targets+=(bench_pocl)
else
  echo "warning: OpenCL/PoCL not found, PoCL results will be missing (run scripts/install-deps.sh)" >&2
fi
cmake --build "$build" --target "${targets[@]}"
mkdir -p "$out"

echo "== $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg) (should be well below 1)"

status=0
echo "== openacl"
"$build/bench/bench_runtime" --benchmark_out="$out/bench_runtime.json" \
  --benchmark_out_format=json "$@" || status=$?
pocl_json=""
if [[ " ${targets[*]} " == *" bench_pocl "* ]]; then
  echo "== PoCL"
  if "$build/bench/bench_pocl" --benchmark_out="$out/bench_pocl.json" \
    --benchmark_out_format=json "$@"; then
    pocl_json="$out/bench_pocl.json"
  else
    status=$?
  fi
fi

echo
python3 bench/summarize.py "$out/bench_runtime.json" $pocl_json | tee "$out/summary.md"
exit "$status"
