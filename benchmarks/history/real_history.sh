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
suite_with() {  # $1 = slowdown list for the conv models ("" = none)
  cat <<YAML
suite: default
runner: builtin
time_source: ns
unit: ms
warmup: 3
iterations: 10
repetitions: $repetitions
models:
  - {name: toy_cnn, path: $models/toy_cnn.yaml, slowdown: [$1]}
  - {name: mlp, path: $models/mlp.yaml}
  - {name: mobilenet_v2_block, path: $models/mobilenet_v2_block.yaml, slowdown: [$1]}
  - {name: transformer_block, path: $models/transformer_block.yaml}
YAML
}
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
