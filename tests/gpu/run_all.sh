#!/usr/bin/env bash
# Builds openacl with its CUDA backend and runs, in one go on a GPU machine, everything that
# checks it: the GPU tests (ctest -L gpu; they must PASS here, a skip is a failure), the
# benchmarks against the plain CUDA runtime (with the ratios against the targets of
# docs/PERFORMANCE.md), and then, in the time left, the rest of the test suite with
# OPENACL_BACKEND=cuda (pass/fail lists recorded, never aborting).
#
# Usage, from the repository root:  tests/gpu/run_all.sh [--check]
#   --check   only print the machine and check the prerequisites
# Everything lands in $OUT (default ./gpu-results): summary.txt, the logs, bench_cuda.json,
# bench_table.md, the pass/fail lists. Sized for ~9 minutes on 16 cores
# (OPENACL_GPU_BUDGET_S=540 to change it); the exit status is 0 only if the GPU tests all
# passed and the benchmarks ran.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
# Absolute, as later steps run in the build directory.
OUT=$(mkdir -p "${OUT:-$ROOT/gpu-results}" && cd "${OUT:-$ROOT/gpu-results}" && pwd) || exit 2
cd "$ROOT" || exit 2
BUILD=${OPENACL_GPU_BUILD_DIR:-$ROOT/build-gpu}
BUDGET=${OPENACL_GPU_BUDGET_S:-540}
JOBS=$(nproc 2>/dev/null || echo 4)
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
START=$SECONDS
status=0

say() { echo "[run_all +$((SECONDS - START))s] $*" | tee -a "$SUMMARY"; }
left() { echo $((BUDGET - (SECONDS - START))); }
# A timeout for the next step: what is left minus a reserve, within [lo, hi].
timebox() {
  local t=$(($(left) - $1))
  ((t > $3)) && t=$3
  ((t < $2)) && t=$2
  echo "$t"
}

# ---- 1. the machine ----
say "openacl GPU run: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(hostname), $JOBS cores"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi -L 2>&1 | tee -a "$SUMMARY"
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv 2>&1 |
    tee -a "$SUMMARY"
else
  say "nvidia-smi not found (the driver's tools are not installed?)"
fi

# ---- 2. prerequisites: tools, the CUDA toolkit, the -dev packages scripts/install-deps.sh installs ----
missing=()
need_cmd() { command -v "$1" >/dev/null || missing+=("$1 (Debian: $2)"); }
need_file() { [ -e "$1" ] || missing+=("$1 (Debian: $2)"); }
need_pc() { pkg-config --exists "$1" 2>/dev/null || missing+=("pkg-config module $1 (Debian: $2)"); }

need_cmd cmake cmake
need_cmd ninja ninja-build
need_cmd g++ g++
need_cmd pkg-config pkg-config
need_cmd python3 python3
need_cmd nm binutils
if command -v cmake >/dev/null; then
  cmake_version=$(cmake --version | awk 'NR == 1 {print $3}')
  if [ "$(printf '%s\n' 3.25 "$cmake_version" | sort -V | head -1)" != 3.25 ]; then
    missing+=("cmake >= 3.25 (found $cmake_version)")
  fi
fi
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ]; then
  CUDA_ROOT=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
  say "nvcc: $NVCC ($("$NVCC" --version | grep -o 'release [0-9.]*'))"
  need_file "$CUDA_ROOT/include/cuda_runtime_api.h" "the CUDA toolkit"
  # libcudart.so or libcudart_static.a under lib64 or a targets/ lib dir.
  if ! find "$CUDA_ROOT/" -name 'libcudart*' -print -quit 2>/dev/null | grep -q .; then
    missing+=("libcudart in $CUDA_ROOT (the CUDA toolkit)")
  fi
else
  missing+=("nvcc (the CUDA toolkit: put it on PATH, or NVCC=/path/to/nvcc)")
  CUDA_ROOT=""
fi
if command -v pkg-config >/dev/null; then
  need_pc libturbojpeg libturbojpeg0-dev
  need_pc libavcodec libavcodec-dev
  need_pc libavutil libavutil-dev
  need_pc libswscale libswscale-dev
  need_pc protobuf libprotobuf-dev
fi
need_file /usr/include/nlohmann/json.hpp nlohmann-json3-dev
need_file /usr/include/gloo/config.h libgloo-dev
need_file /usr/include/gtest/gtest.h libgtest-dev
need_file /usr/include/gmock/gmock.h libgmock-dev
need_file /usr/include/benchmark/benchmark.h libbenchmark-dev
need_file /usr/include/libyuv.h libyuv-dev
need_file /usr/include/onnx/onnx_pb.h libonnx-dev
need_file /usr/include/oneapi/dnnl/dnnl.hpp libdnnl-dev
for module in dnn imgcodecs imgproc videoio; do
  need_file "/usr/include/opencv4/opencv2/$module.hpp" "libopencv-$module-dev"
done
# Wanted by some API tests (not the GPU tests): their absence fails those tests only.
[ -d /usr/share/libonnx-testdata/data ] ||
  say "note: /usr/share/libonnx-testdata/data missing (Debian: libonnx-testdata): model tests of the rest of the suite will fail"

if ((${#missing[@]})); then
  say "MISSING prerequisites (nothing was built):"
  for m in "${missing[@]}"; do say "  - $m"; done
  exit 3
fi
say "prerequisites: all found"
[ "${1:-}" = "--check" ] && exit 0

# ---- 3. configure and build what the GPU checks need first ----
say "configure $BUILD (${OPENACL_GPU_BUILD_TYPE:-Release}, OPENACL_WITH_CUDA=ON)"
if ! timeout "$(timebox 400 30 150)" cmake -S "$ROOT" -B "$BUILD" -G Ninja \
  -DCMAKE_BUILD_TYPE="${OPENACL_GPU_BUILD_TYPE:-Release}" -DOPENACL_WITH_CUDA=ON -DCUDAToolkit_ROOT="$CUDA_ROOT" \
  -DOPENACL_BUILD_PYTHON=OFF -DOPENACL_BUILD_EXAMPLES=ON -DOPENACL_BUILD_BENCH=ON \
  -DOPENACL_BUILD_TESTS=ON >"$OUT/configure.log" 2>&1; then
  say "configure FAILED; what CMake could not find:"
  grep -E "Could NOT find|not found|Could not find|CMake Error" "$OUT/configure.log" | head -20 |
    tee -a "$SUMMARY"
  exit 4
fi
say "build openacl_gpu_tests bench_cuda ($JOBS jobs)"
if ! timeout "$(timebox 200 60 300)" cmake --build "$BUILD" -j "$JOBS" \
  --target openacl_gpu_tests bench_cuda >"$OUT/build-gpu-targets.log" 2>&1; then
  say "build of the GPU targets FAILED (last lines of build-gpu-targets.log):"
  grep -E "error|FAILED" "$OUT/build-gpu-targets.log" | head -20 | tee -a "$SUMMARY"
  exit 5
fi

# ---- 4. the GPU tests: they must pass, not skip ----
# Per-test result lines of ctest logs: count_results PATTERN LOG...
count_results() {
  local pattern=$1
  shift
  cat "$@" 2>/dev/null | grep -cE "Test +#[0-9]+: .*($pattern)"
}
FAILED='\*\*\*Failed|\*\*\*Timeout|\*\*\*Exception|Not Run'
# The memory-info tests compare free memory at two moments: they run alone, after the others
# (which run 8 at a time).
say "ctest -L gpu"
(cd "$BUILD" && timeout "$(timebox 300 60 150)" ctest -L gpu -E '^GpuDevice\.' -j 8 \
  --timeout 90 --output-on-failure) >"$OUT/ctest-gpu.log" 2>&1
gpu_failed=$(count_results "$FAILED" "$OUT/ctest-gpu.log")
if ((gpu_failed > 0)); then
  # One serial rerun tells a real failure from one caused by running 8 tests at once; both
  # results are kept.
  say "$gpu_failed GPU test(s) failed; rerunning the failed ones one at a time"
  (cd "$BUILD" && timeout "$(timebox 240 30 120)" ctest -L gpu --rerun-failed --timeout 90 \
    --output-on-failure) >"$OUT/ctest-gpu-rerun.log" 2>&1
  gpu_failed=$(count_results "$FAILED" "$OUT/ctest-gpu-rerun.log")
  say "after the serial rerun: $gpu_failed still failing (ctest-gpu-rerun.log)"
fi
(cd "$BUILD" && timeout "$(timebox 280 30 60)" ctest -L gpu -R '^GpuDevice\.' --timeout 90 \
  --output-on-failure) >"$OUT/ctest-gpu-serial.log" 2>&1
gpu_failed=$((gpu_failed + $(count_results "$FAILED" "$OUT/ctest-gpu-serial.log")))
gpu_logs=("$OUT/ctest-gpu.log" "$OUT/ctest-gpu-serial.log")
gpu_passed=$(count_results " Passed" "${gpu_logs[@]}")
gpu_skipped=$(count_results "\*\*\*Skipped" "${gpu_logs[@]}")
cat "${gpu_logs[@]}" | grep -E "Test +#[0-9]+: .*(\*\*\*|Not Run)" |
  sed -E 's/.*Test +#[0-9]+: //' >"$OUT/gpu-not-passed.txt"
say "GPU tests: $gpu_passed passed at the first run, $gpu_failed failing, $gpu_skipped skipped"
if ((gpu_failed > 0 || gpu_skipped > 0 || gpu_passed == 0)); then
  say "GPU tests NOT all passed (a skip counts as a failure here): see gpu-not-passed.txt, ctest-gpu*.log"
  status=1
fi

# ---- 5. the benchmarks next to the CUDA runtime ----
say "bench_cuda"
timeout "$(timebox 200 60 150)" "$BUILD/bench/bench_cuda" \
  --benchmark_out="$OUT/bench_cuda.json" --benchmark_out_format=json >"$OUT/bench_cuda.txt" 2>&1
bench_rc=$?
((bench_rc == 0)) || {
  say "bench_cuda exited with $bench_rc (see bench_cuda.txt)"
  status=1
}
if [ -s "$OUT/bench_cuda.json" ]; then
  python3 - "$OUT/bench_cuda.json" >"$OUT/bench_table.md" <<'PY'
import json, sys
runs = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("run_type", "iteration") != "iteration":
        continue
    name = b["name"].split("/")[0]
    if b.get("error_occurred"):
        runs[name] = ("error", b.get("error_message", "?"))
        continue
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    runs[name] = ("ok", b["real_time"] * scale)

def ns(name):
    kind, value = runs.get(name, ("error", "not run"))
    return value if kind == "ok" else None

def show(t):
    if t is None: return "-"
    return f"{t / 1e3:.2f} us" if t < 1e6 else f"{t / 1e6:.2f} ms"

# (what, openacl, CUDA, how the ratio is formed, target)
rows = [
    ("launch, empty kernel", "BM_Acl_LaunchEmpty", "BM_Cuda_LaunchEmpty", "time", 1.10),
    ("launch + synchronize", "BM_Acl_LaunchSync", "BM_Cuda_LaunchSync", "time", 1.10),
    ("callback round trip", "BM_Acl_CallbackRoundTrip", "BM_Cuda_HostFuncRoundTrip", "time", 1.10),
    ("host func round trip (info)", "BM_Acl_HostFuncRoundTrip", "BM_Cuda_HostFuncRoundTrip", "time", None),
    ("memcpy H2D 256 MiB, pinned", "BM_Acl_MemcpyH2D_256MiB", "BM_Cuda_MemcpyH2D_256MiB", "speed", 0.95),
    ("memcpy D2H 256 MiB, pinned", "BM_Acl_MemcpyD2H_256MiB", "BM_Cuda_MemcpyD2H_256MiB", "speed", 0.95),
    ("memcpy D2D 256 MiB", "BM_Acl_MemcpyD2D_256MiB", "BM_Cuda_MemcpyD2D_256MiB", "speed", 0.90),
    ("malloc + free 64 MiB", "BM_Acl_MallocFree64MiB", "BM_Cuda_MallocFree64MiB", "speed", 10.0),
    ("malloc + free 64 MiB vs cudaMallocAsync (info)", "BM_Acl_MallocFree64MiB", "BM_Cuda_MallocFreeAsync64MiB", "speed", None),
]
print("| what | openacl | CUDA | ratio | target | |")
print("|---|---|---|---|---|---|")
missed = 0
for what, acl, cuda, how, target in rows:
    a, c = ns(acl), ns(cuda)
    if a is None or c is None:
        why = runs.get(acl if a is None else cuda, ("error", "not run"))[1]
        print(f"| {what} | {show(a)} | {show(c)} | - | - | error: {why} |")
        missed += target is not None
        continue
    if how == "time":   # openacl time / CUDA time: lower is better
        ratio, text = a / c, f"{a / c:.2f}x time"
        ok = target is None or ratio <= target
        goal = f"<= {target:.2f}x" if target else "info"
    else:               # CUDA time / openacl time: openacl's speed as a multiple of CUDA's
        ratio, text = c / a, f"{c / a:.2f}x speed"
        ok = target is None or ratio >= target
        goal = f">= {target:.2f}x" if target else "info"
    missed += not ok
    print(f"| {what} | {show(a)} | {show(c)} | {text} | {goal} | {'ok' if ok else 'MISSED'} |")
print()
print(f"{missed} target(s) missed")
errors = [n for n, (kind, _) in runs.items() if kind == "error"]
if errors:
    print(f"{len(errors)} benchmark(s) failed: {', '.join(errors)}")
sys.exit(1 if errors else 0)
PY
  bench_errors=$?
  tee -a "$SUMMARY" <"$OUT/bench_table.md"
  ((bench_errors == 0)) || status=1
else
  say "no bench_cuda.json: no ratios"
  status=1
fi

# ---- 6. the rest of the suite on the CUDA backend, in the time left ----
if (($(left) < 90)); then
  say "no time left for the rest of the suite ($(left)s): skipped"
else
  say "build everything else ($(timebox 120 30 400)s at most)"
  if ! timeout "$(timebox 120 30 400)" cmake --build "$BUILD" -j "$JOBS" >"$OUT/build-all.log" 2>&1; then
    say "full build incomplete (timed out or failed; see build-all.log): running what was built"
  fi
  if (($(left) < 40)); then
    say "no time left to run the rest of the suite"
  else
    budget=$(timebox 20 20 400)
    say "ctest (all but gpu|conformance|fuzz|soak) with OPENACL_BACKEND=cuda, ${budget}s at most"
    # --stop-time ends the run cleanly (tests not started count as not reached); the timeout
    # is only the backstop.
    (cd "$BUILD" && OPENACL_BACKEND=cuda timeout $((budget + 15)) ctest -j "$JOBS" \
      -LE 'gpu|conformance|fuzz|soak' --timeout 60 --output-junit "$OUT/ctest-rest.xml" \
      --stop-time "$(date -d "+${budget} seconds" +%H:%M:%S)") >"$OUT/ctest-rest.log" 2>&1
    (cd "$BUILD" && ctest -N -LE 'gpu|conformance|fuzz|soak') >"$OUT/ctest-rest-list.log" 2>&1
    python3 - "$OUT" <<'PY' | tee -a "$SUMMARY"
import re, sys, xml.etree.ElementTree as ET
out = sys.argv[1]
listed = [n.strip() for n in re.findall(r"^ *Test +#\d+: (.+)$", open(f"{out}/ctest-rest-list.log").read(), re.M)]
results = {}
try:
    for case in ET.parse(f"{out}/ctest-rest.xml").getroot().iter("testcase"):
        status = case.get("status", "run")
        failed = case.find("failure") is not None or case.find("error") is not None
        skipped = case.find("skipped") is not None
        results[case.get("name")] = ("failed" if failed or status == "fail" else
                                     "not run" if skipped or status in ("notrun", "disabled") else
                                     "passed")
except (OSError, ET.ParseError) as e:
    print(f"no readable JUnit report ({e}): every test counts as not reached")
lists = {"passed": [], "failed": [], "not run": [], "not reached": []}
for name in listed:
    lists[results.get(name, "not reached")].append(name)
for kind, names in lists.items():
    with open(f"{out}/rest-{kind.replace(' ', '-')}.txt", "w") as f:
        f.write("".join(n + "\n" for n in names))
print("rest of the suite on CUDA: " +
      ", ".join(f"{len(v)} {k}" for k, v in lists.items()) +
      " (rest-passed.txt, rest-failed.txt, rest-not-run.txt, rest-not-reached.txt)")
PY
  fi
fi

say "done in $((SECONDS - START))s; exit status $status; results in $OUT"
exit "$status"
