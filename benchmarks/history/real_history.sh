#!/usr/bin/env bash
# A real history with known truth: RUNS runs of the default suite on this
# machine (built-in reference runtime), with every conv2d made FACTOR slower
# (et_runner's slowdown injection) from run FROM on; each run is added to a
# fresh SQLite history, then `etbench history detect` reports its change
# points (JSON and terminal) into OUT. Usage:
#   bash benchmarks/history/real_history.sh [OUT=/tmp/etbench-real-history] [RUNS=40] [FROM=25] [FACTOR=1.05] [REPETITIONS=6]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-/tmp/etbench-real-history}")
runs=${2:-40}
from=${3:-25}
factor=${4:-1.05}
repetitions=${5:-6}
etbench=${ETBENCH:-build/tools/etbench}
mkdir -p "$out"
rm -f "$out/history.db"
models="$(pwd)/configs/models"
source "$(dirname "${BASH_SOURCE[0]}")/default_suite.sh"
suite_with() { default_suite "$models" "$repetitions" "$1" "$1"; }  # $1 = the conv models' slowdown list
suite_with "" > "$out/base.yaml"
suite_with "conv2d=$factor" > "$out/slow.yaml"
: > "$out/conditions.txt"
for i in $(seq 1 "$runs"); do
  suite=$out/base.yaml
  if [ "$i" -ge "$from" ]; then suite=$out/slow.yaml; fi
  n=$(printf %02d "$i")
  echo "run $n $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) $(basename "$suite")" >> "$out/conditions.txt"
  "$etbench" run "$suite" --quiet --label device=builtin-reference --label "commit=run$n" \
    --output-dir "$out/runs/$n" --history "$out/history.db"
done
set +e
"$etbench" history detect --history "$out/history.db" --report "json=$out/detect.json" \
  --report terminal > "$out/detect.txt"
echo "detect exit $?" >> "$out/conditions.txt"
