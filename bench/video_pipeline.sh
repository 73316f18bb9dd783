#!/usr/bin/env bash
# The video pipeline's targets (issue: async/sync >= 1.8 on a 2-core machine, async >= 90% of
# the slowest-stage bound): runs examples/video_pipeline several times per channel count and
# prints the median of each number. Needs the default build (cmake --preset default).
#
#   bench/video_pipeline.sh [RUNS] [extra video_pipeline options...]
#
# Only meaningful on an otherwise idle machine: it warns when the CPUs are busy before it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
program=${BUILD_DIR:-build}/examples/video_pipeline/video_pipeline
cmake --build "${BUILD_DIR:-build}" --target video_pipeline >/dev/null

busy() {
  local a b
  read -ra a </proc/stat
  sleep 2
  read -ra b </proc/stat
  local idle=$(((b[4] + b[5]) - (a[4] + a[5]))) total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
  echo $((total > 0 ? 100 * (total - idle) / total : 0))
}
echo "== $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
b=$(busy)
echo "== CPUs busy before the run: ${b}%"
((b > 10)) && echo "warning: the machine is busy; expect slower and noisier results" >&2

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

printf '\n| channels | sync fps | async fps | speed-up | bound fps | async / bound |\n'
printf '|---|---|---|---|---|---|\n'
for channels in 1 2 4; do
  : >/tmp/vp_bench.$$
  for ((i = 0; i < runs; i++)); do
    out=$("$program" --channels "$channels" "$@")
    sync=$(sed -n 's/^  sync : .* \([0-9.]*\) fps$/\1/p' <<<"$out")
    async=$(sed -n 's/^  async: .* \([0-9.]*\) fps  (.*/\1/p' <<<"$out")
    bound=$(sed -n 's/^bound set by the slowest stage: \([0-9.]*\) fps.*/\1/p' <<<"$out")
    grep -q "equal sync detections, frame by frame: yes" <<<"$out" || { echo "$out"; exit 1; }
    echo "$sync $async $bound" >>/tmp/vp_bench.$$
  done
  s=$(cut -d' ' -f1 /tmp/vp_bench.$$ | median)
  a=$(cut -d' ' -f2 /tmp/vp_bench.$$ | median)
  bd=$(cut -d' ' -f3 /tmp/vp_bench.$$ | median)
  r=$(awk -v a="$a" -v s="$s" 'BEGIN {printf "%.2f", a / s}')
  f=$(awk -v a="$a" -v b="$bd" 'BEGIN {printf "%.0f%%", 100 * a / b}')
  printf '| %d | %s | %s | %sx | %s | %s |\n' "$channels" "$s" "$a" "$r" "$bd" "$f"
done
rm -f /tmp/vp_bench.$$
