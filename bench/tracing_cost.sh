#!/usr/bin/env bash
# What tracing costs on the enqueue benchmarks (BM_TracingCostOnEnqueue in bench_runtime), over
# several processes. One process alternates tracing off and on and reports its own extra cost;
# on a VM that figure moves from process to process far more than within one (a 2-vCPU host
# gave -12% to +46% for the same build), so one process says little. This runs PROCESSES of
# them one after the other and prints, per enqueue, the median of their extra costs and the
# range.
#
#   bench/tracing_cost.sh              # PROCESSES=9, build dir build-bench (BUILD_DIR=...)
#
# Needs what scripts/install-deps.sh installs; about 25 s per process.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-bench}
processes=${PROCESSES:-9}
out="$build/bench-results/tracing_cost"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENACL_BUILD_BENCH=ON \
  -DOPENACL_BUILD_TESTS=OFF -DOPENACL_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target bench_runtime
rm -rf "$out"
mkdir -p "$out"
for ((i = 1; i <= processes; ++i)); do
  "$build/bench/bench_runtime" --benchmark_filter=TracingCost --benchmark_repetitions=1 \
    --benchmark_format=json --benchmark_out="$out/process$i.json" >/dev/null
done

"${PYTHON:-/usr/bin/python3}" - "$out"/process*.json <<'EOF' | tee "$out/summary.md"
import json, statistics, sys

names = {
    "0": "aclrtLaunchHostFunc, worker draining (the enqueue benchmark)",
    "1": "aclrtRecordEvent, worker draining",
    "2": "aclrtLaunchHostFunc, parked stream (the calling thread's own cost)",
}
runs = {}  # call -> one (extra %, off µs, on µs) per process: the medians of its repetitions
for path in sys.argv[1:]:
    mine = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        call = b["name"].split("call:")[1].split("/")[0]
        mine.setdefault(call, []).append((b["extra_percent"], b["off_us"], b["on_us"]))
    for call, reps in mine.items():
        runs.setdefault(call, []).append(tuple(statistics.median(r[k] for r in reps) for k in range(3)))
print(f"{len(sys.argv) - 1} processes; per process: the median of its rounds.\n")
print("| Enqueue | off µs (median) | on µs (median) | extra, median of processes | range |")
print("|---|---|---|---|---|")
for call in sorted(runs):
    extra = [r[0] for r in runs[call]]
    off = statistics.median(r[1] for r in runs[call])
    on = statistics.median(r[2] for r in runs[call])
    print(f"| {names.get(call, call)} | {off:.3f} | {on:.3f} | {statistics.median(extra):+.0f}% "
          f"| {min(extra):+.0f} – {max(extra):+.0f}% |")
EOF
