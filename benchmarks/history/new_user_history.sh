#!/usr/bin/env bash
# The history of issue #26's "new user": the default suite as shipped
# (configs/default.yaml: 8 repetitions), BASE runs added with
# `etbench history add --date` one day apart, then SLOW runs with toy_cnn's
# conv2d FACTOR slower (a suite model entry `slowdown: [conv2d=FACTOR]`),
# then GATES runs of `etbench gate SLOW.yaml --baseline history` (still
# slow; each gated run joins the history). Then `history detect` (default,
# --every-part, --no-machine-level) into OUT. PAUSE seconds pass between the
# base runs and the slow ones (the user edits the suite; the machine's state
# moves on). Usage:
#   bash benchmarks/history/new_user_history.sh [OUT=/tmp/etbench-new-user] [BASE=8] [SLOW=7] [GATES=4] [FACTOR=1.15] [PAUSE=0]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-/tmp/etbench-new-user}")
base=${2:-8}
slow=${3:-7}
gates=${4:-4}
factor=${5:-1.15}
pause=${6:-0}
etbench=$(realpath "${ETBENCH:-build/tools/etbench}")
mkdir -p "$out"
rm -rf "$out/history.db" "$out/runs"
models="$(pwd)/configs/models"
source "$(dirname "${BASH_SOURCE[0]}")/default_suite.sh"
suite_with() { default_suite "$models" 8 "$1"; }  # $1 = toy_cnn's slowdown list
suite_with "" > "$out/base.yaml"
suite_with "conv2d=$factor" > "$out/slow.yaml"
: > "$out/conditions.txt"
day=0
for i in $(seq 1 $((base + slow))); do
  suite=$out/base.yaml
  if [ "$i" -gt "$base" ]; then suite=$out/slow.yaml; fi
  if [ "$i" -eq $((base + 1)) ]; then sleep "$pause"; fi
  n=$(printf %02d "$i")
  day=$((day + 1))
  echo "run $n $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) $(basename "$suite")" >> "$out/conditions.txt"
  "$etbench" run "$suite" --quiet --output_dir "$out/runs/$n" > /dev/null
  "$etbench" history add "$out/runs/$n/results.json" --history "$out/history.db" \
    --commit "run$n" --date "$(printf '2026-10-%02dT02:00:00Z' "$day")" 2> /dev/null
done
for i in $(seq 1 "$gates"); do
  n=$(printf %02d $((base + slow + i)))
  echo "gate $n $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) slow.yaml" >> "$out/conditions.txt"
  set +e
  # gate writes results/<suite>/ in the current directory.
  (cd "$out" && "$etbench" gate slow.yaml --baseline history --history history.db > /dev/null 2>&1)
  echo "gate $n exit $?" >> "$out/conditions.txt"
  set -e
done
set +e
for variant in default every-part no-machine-level; do
  flags=()
  [ "$variant" = every-part ] && flags=(--every-part)
  [ "$variant" = no-machine-level ] && flags=(--no-machine-level)
  "$etbench" history detect --history "$out/history.db" "${flags[@]}" \
    --report "json=$out/detect-$variant.json" --report terminal > "$out/detect-$variant.txt"
  echo "detect $variant exit $?" >> "$out/conditions.txt"
done
