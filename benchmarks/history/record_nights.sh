#!/usr/bin/env bash
# Records real "nights" of the default suite for the nightly-gate evaluation.
# A night slot = three fresh `etbench run` processes of configs/default.yaml's
# models, one after another, in a rotating order: base, conv2d x1.05 and
# conv2d x1.10 (et_runner's slowdown injection on toy_cnn and mobilenet).
# Only results.json of each run is kept.
#   record_nights.sh OUT HISTORY NIGHTS CONDITION [CPU]
# CONDITION: quiet | stress60 (stress-ng --cpu 1 --cpu-load 60 on the same CPU)
#            | shiftvm (nights past the middle run beside stress-ng --vm on the other CPU)
set -euo pipefail
out=$1; hist=$2; nights=$3; cond=$4; cpu=${5:-1}
etbench=${ETBENCH:-/work/nights/bin/etbench}
models=${MODELS:-/work/nights/models}
dir=$out/$hist
mkdir -p "$dir"
source "$(dirname "${BASH_SOURCE[0]}")/default_suite.sh"
suite_with() { default_suite "$models" 8 "$1" "$1"; }
suite_with "" > "$dir/base.yaml"
suite_with "conv2d=1.05" > "$dir/conv5.yaml"
suite_with "conv2d=1.10" > "$dir/conv10.yaml"
stress_pid=""
cleanup() { [ -n "$stress_pid" ] && kill "$stress_pid" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
if [ "$cond" = stress60 ]; then
  stress-ng --cpu 1 --cpu-load 60 --taskset "$cpu" --quiet & stress_pid=$!
  sleep 2
fi
variants=(base conv5 conv10)
# SLOW_NIGHTS="A-B": record the conv variants only on nights A..B (base on every night).
slow_a=1; slow_b=9999
if [ -n "${SLOW_NIGHTS:-}" ]; then slow_a=${SLOW_NIGHTS%-*}; slow_b=${SLOW_NIGHTS#*-}; fi
for n in $(seq 1 "$nights"); do
  nn=$(printf %02d "$n")
  if [ "$cond" = shiftvm ] && [ "$n" -eq $(( nights / 2 + 1 )) ]; then
    other=$(( 1 - cpu ))
    stress-ng --vm 1 --vm-bytes 1G --taskset "$other" --quiet & stress_pid=$!
    sleep 2
  fi
  r=$(( (n - 1) % 3 ))
  for k in 0 1 2; do
    v=${variants[$(( (r + k) % 3 ))]}
    if [ "$v" != base ] && { [ "$n" -lt "$slow_a" ] || [ "$n" -gt "$slow_b" ]; }; then continue; fi
    d=$dir/night$nn/$v
    mkdir -p "$d"
    echo "$hist night $nn $v $(date -u +%FT%TZ) order $k load $(cut -d' ' -f1-3 /proc/loadavg) cond $cond" >> "$dir/conditions.txt"
    nice -n -5 taskset -c "$cpu" "$etbench" run "$dir/$v.yaml" --quiet --label device=builtin-reference \
      --label "commit=night$nn" --output_dir "$d/out" --summary none >/dev/null 2>"$d/stderr.txt" || echo "FAILED $hist $nn $v" >> "$dir/conditions.txt"
    if [ -f "$d/out/results.json" ]; then mv "$d/out/results.json" "$d/results.json"; fi
    rm -rf "$d/out"
  done
done
echo "$hist done $(date -u +%FT%TZ)" >> "$dir/conditions.txt"
