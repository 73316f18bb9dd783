#!/usr/bin/env bash
# Bounded libFuzzer runs of every fuzz target (what CI runs after the test suite): builds the
# `fuzz` preset (clang, ASan, -fsanitize=fuzzer; OPENACL_FUZZ_PRESET picks another, see below)
# and runs each `*_fuzz` binary it produced for
# OPENACL_FUZZ_SECONDS (default 40) seconds, starting from the committed corpus and
# regressions and with the committed dictionary. A crash, leak, timeout or out-of-memory fails
# the run after every target has had its turn, and the reproducer's path is printed.
#
# Targets are found by name, so new ones need no change here: every executable
# build-<preset>/fuzz/<name>_fuzz is run. Its seeds are the directories fuzz/corpus/<prefix> and
# fuzz/regressions/<prefix>, and its dictionary fuzz/<prefix>.dict, for every <prefix> that is
# <name> or a part of it ending at an underscore (config_fuzz: config; atc_cli_fuzz: atc;
# model_loader_fuzz: model). New inputs go to a scratch corpus in build-<preset>/fuzz-runs, never
# into the committed one.
#
# The random seed is fixed (OPENACL_FUZZ_SEED, default 1), so a CI run explores what the last
# run explored plus what the change under test opened up: a finding then points at the change,
# not at luck. Exploratory runs pick another seed (0: a random one) and run longer.
#
#   scripts/fuzz.sh                          # all targets, 40 s each
#   OPENACL_FUZZ_SECONDS=600 scripts/fuzz.sh config_fuzz   # one target, longer
#   OPENACL_FUZZ_SEED=0 OPENACL_FUZZ_SECONDS=1200 scripts/fuzz.sh model_loader_fuzz  # explore
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
seconds="${OPENACL_FUZZ_SECONDS:-40}"
seed="${OPENACL_FUZZ_SEED:-1}"
# The preset whose build holds the libFuzzer binaries: `fuzz` (ASan, -O2: the fastest runs), or
# `asan` (ASan + UBSan, which builds them too; scripts/test.sh runs those after its suite).
preset="${OPENACL_FUZZ_PRESET:-fuzz}"
build="build-$preset"
if [ "${OPENACL_FUZZ_BUILD:-1}" != 0 ]; then  # 0: run what the build already holds
  cmake --preset "$preset" >/dev/null
  cmake --build "$build"
fi
runs="$PWD/$build/fuzz-runs"
mkdir -p "$runs"

targets=()
if (($#)); then
  targets=("$@")
else
  for binary in "$build"/fuzz/*_fuzz; do
    [ -x "$binary" ] && [ -f "$binary" ] && targets+=("$(basename "$binary")")
  done
fi
if ((${#targets[@]} == 0)); then
  echo "fuzz: no *_fuzz binaries in $build/fuzz" >&2
  exit 1
fi

failed=()
summary=()
for target in "${targets[@]}"; do
  binary="$PWD/$build/fuzz/$target"
  name="${target%_fuzz}"
  seeds=()
  dict=()
  prefix=""
  IFS=_ read -ra parts <<<"$name"
  for part in "${parts[@]}"; do
    prefix="${prefix:+${prefix}_}$part"
    for dir in fuzz/corpus/"$prefix" fuzz/regressions/"$prefix"; do
      [ -d "$dir" ] && seeds+=("$PWD/$dir")
    done
    [ -f fuzz/"$prefix".dict ] && dict=("-dict=$PWD/fuzz/$prefix.dict")
  done
  scratch="$runs/$target/corpus"
  artifacts="$runs/$target/artifacts"
  rm -rf "$artifacts"
  mkdir -p "$scratch" "$artifacts" "$runs/$target/logs"
  echo "== fuzz $target: ${seconds} s, random seed $seed, seeds: ${seeds[*]:-none}," \
    "${dict[*]:-no dictionary}"
  log="$runs/$target/fuzz.log"
  status=0
  # The scratch directory comes first: libFuzzer adds new inputs to the first corpus only.
  (cd "$runs/$target" &&
    ASCEND_GLOBAL_LOG_LEVEL=4 ASCEND_PROCESS_LOG_PATH="$runs/$target/logs" \
    LSAN_OPTIONS="suppressions=$root/tests/lsan.supp ${LSAN_OPTIONS:-}" \
      "$binary" -max_total_time="$seconds" -seed="$seed" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" "${dict[@]}" "$scratch" "${seeds[@]}") >"$log" 2>&1 ||
    status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  summary+=("$target: ${execs:-?} executions in ${seconds} s, exit $status")
  if ((status != 0)); then
    tail -n 60 "$log"
    for artifact in "$artifacts"/*; do
      [ -e "$artifact" ] || continue
      echo "fuzz: $target failed; reproducer: $artifact"
      echo "      replay: $binary $artifact"
    done
    echo "fuzz: full log: $log"
    failed+=("$target")
  fi
done
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
  echo "fuzz: failed: ${failed[*]} (add each reproducer to fuzz/regressions/ once fixed)" >&2
  exit 1
fi
