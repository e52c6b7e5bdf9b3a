#!/usr/bin/env bash
# Records real A/A run traces of toy_cnn on this machine for the
# trace-driven simulation (gate_quality --traces; docs/comparison.md,
# "Trace-driven simulation"): SESSIONS fixed-length A/A `etbench ab`
# sessions of BLOCKS ABBA blocks each (both sides the same build, so every
# run is a draw of "no change"), pinned to CPU 1, optionally under one
# stress-ng worker at LOAD% on that core. Each session is then reduced to
# one compact trace file (gate_quality --record-trace).
#
#   bash benchmarks/compare/record_traces.sh OUT_DIR [SESSIONS] [BLOCKS] [LOAD] [TAG]
#
# The runs' results files stay in build/trace_sessions/ (not committed);
# their ETDumps are deleted after each session to keep the disk small.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: record_traces.sh OUT_DIR [SESSIONS] [BLOCKS] [LOAD] [TAG]}
sessions=${2:-8}
blocks=${3:-32}
load=${4:-0}
tag=${5:-shared}
etbench=$root/build/tools/etbench
work=$root/build/trace_sessions
mkdir -p "$out" "$work"

stress_pid=""
if [[ $load -gt 0 ]]; then
  taskset -c 1 stress-ng --cpu 1 --cpu-load "$load" --quiet &
  stress_pid=$!
  sleep 1
fi
stop_load() {
  if [[ -n $stress_pid ]]; then kill "$stress_pid" 2>/dev/null || true; wait "$stress_pid" 2>/dev/null || true; fi
}
trap stop_load EXIT

dirs=()
for s in $(seq 1 "$sessions"); do
  name=toy_cnn_${tag}_$(date -u +%Y%m%dT%H%M%S)
  dir=$work/$name
  rm -rf "$dir"
  start=$(date +%s)
  (cd "$root" && taskset -c 1 "$etbench" ab configs/default.yaml --model toy_cnn \
     --blocks "$blocks" --seed "$s" --output-dir "$dir" >"$dir.log" 2>&1) || true
  end=$(date +%s)
  find "$dir" \( -name '*.etdp' -o -name '*.etrecord' \) -delete
  echo "etbench ab configs/default.yaml --model toy_cnn --blocks $blocks --seed $s;" \
       "taskset -c 1; stress-ng load ${load}% on CPU 1; started $(date -u -d @"$start" +%Y-%m-%dT%H:%M:%SZ);" \
       "$((end - start)) s; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
       "$(nproc --all) CPUs; load average at end $(cut -d' ' -f1-3 /proc/loadavg)" >"$dir/note.txt"
  dirs+=("$dir")
done
stop_load
stress_pid=""

for dir in "${dirs[@]}"; do
  "$root/build/benchmarks/compare/gate_quality" --record-trace "$dir" \
    --out "$out/$(basename "$dir").csv" || echo "convert later: $dir"
done
