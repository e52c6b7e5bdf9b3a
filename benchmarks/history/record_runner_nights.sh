#!/usr/bin/env bash
# Records real nights of an external-runner suite (configs/executorch.yaml:
# ExecuTorch's executor_runner) for night_replay, as record_sessions.sh does
# for the built-in default suite: a night holds SESSIONS fresh `etbench run`
# processes of each variant, interleaved in a rotating order; variant "base"
# runs the runner in BASE_DIR, and on nights SLOW_NIGHTS="A-B" variant
# "conv10" (night_replay's name for the first-night detection sequence)
# runs the runner in SLOW_DIR (a build with a change, e.g. add ×10).
# Only results.json is kept: night<NN>/<variant>[.s<K>]/results.json.
#   record_runner_nights.sh OUT HISTORY... NIGHTS CONDITION BASE_DIR SLOW_DIR [CPU]
# Several histories ("e01 e02") are recorded in rotation, as record_sessions.sh does.
#   (env SESSIONS=6 SLOW_NIGHTS=21-30 SUITE=configs/executorch.yaml)
# CONDITION: a word for conditions.txt and night_replay's tables (quiet, busy, …).
set -euo pipefail
out=$1; hist=$2; nights=$3; cond=$4; base_dir=$5; slow_dir=$6; cpu=${7:-1}
sessions=${SESSIONS:-6}
slow=${SLOW_NIGHTS:-21-30}; slow_a=${slow%-*}; slow_b=${slow#*-}
suite=${SUITE:-configs/executorch.yaml}
etbench=${ETBENCH:-build/tools/etbench}
read -ra hists <<< "$hist"
source "$(dirname "${BASH_SOURCE[0]}")/record_session.sh"
for n in $(seq 1 "$nights"); do
  nn=$(printf %02d "$n")
  variants=(base)
  if [ "$n" -ge "$slow_a" ] && [ "$n" -le "$slow_b" ]; then variants=(base conv10); fi
  nv=${#variants[@]}
  for h in "${hists[@]}"; do
    mkdir -p "$out/$h"
    for s in $(seq 1 "$sessions"); do
      for k in $(seq 0 $(( nv - 1 ))); do
        v=${variants[$(( (n + s + k) % nv ))]}
        runner_dir=$base_dir; [ "$v" = conv10 ] && runner_dir=$slow_dir
        name=$v; [ "$s" -ge 2 ] && name=$v.s$s
        record_session "$out/$h" "$h" "$nn" "$name" "$cond" "$cpu" executor-runner "$suite" "$runner_dir"
      done
    done
  done
done
for h in "${hists[@]}"; do echo "$h done $(date -u +%FT%TZ)" >> "$out/$h/conditions.txt"; done
