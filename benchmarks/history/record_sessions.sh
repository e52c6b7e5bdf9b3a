#!/usr/bin/env bash
# Records real nights of the default suite for the nightly-gate evaluation (night_replay): a night holds
# SESSIONS fresh `etbench run` processes of each variant (base; conv2d x1.05 and x1.10 with et_runner's
# slowdown injection on toy_cnn and mobilenet), interleaved in a rotating order; only results.json is kept:
# night<NN>/<variant>/results.json is session 1, night<NN>/<variant>.s<K>/results.json session K (K >= 2).
# The conv variants are recorded only on nights SLOW_NIGHTS="A-B".
#   record_sessions.sh OUT HISTORY... NIGHTS CONDITION [CPU]     (env SESSIONS=3 SLOW_NIGHTS=11-20)
# HISTORY may name several histories ("r01 r02 r03"): they are recorded in rotation, night 1 of each,
# then night 2 of each, ..., so that consecutive nights of one history lie minutes apart and an episode
# of interference (a burst of another tenant, seconds long) falls on nights of different histories
# instead of on several consecutive nights of one — nearer what a night a day apart sees.
# CONDITION: quiet | stress60 (stress-ng --cpu 1 --cpu-load 60 on the same CPU)
#            | shiftvm (nights past the middle run beside stress-ng --vm on the other CPU)
set -euo pipefail
out=$1; hist=$2; nights=$3; cond=$4; cpu=${5:-1}
case $cond in
  quiet) ;;
  stress60|shiftvm)  # a stressed history recorded without its stress would pass for one silently
    command -v stress-ng > /dev/null || { echo "record_sessions.sh: $cond needs stress-ng (apt-get install stress-ng)" >&2; exit 2; } ;;
  *) echo "record_sessions.sh: unknown condition '$cond' (quiet | stress60 | shiftvm)" >&2; exit 2 ;;
esac
sessions=${SESSIONS:-3}
slow=${SLOW_NIGHTS:-11-20}; slow_a=${slow%-*}; slow_b=${slow#*-}
etbench=${ETBENCH:-build/tools/etbench}
models=${MODELS:-$(pwd)/configs/models}
read -ra hists <<< "$hist"
source "$(dirname "${BASH_SOURCE[0]}")/default_suite.sh"
source "$(dirname "${BASH_SOURCE[0]}")/record_session.sh"
suite_with() { default_suite "$models" 8 "$1" "$1"; }
for h in "${hists[@]}"; do
  mkdir -p "$out/$h"
  suite_with "" > "$out/$h/base.yaml"
  suite_with "conv2d=1.05" > "$out/$h/conv5.yaml"
  suite_with "conv2d=1.10" > "$out/$h/conv10.yaml"
done
stress_pid=""
cleanup() { [ -n "$stress_pid" ] && kill "$stress_pid" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
if [ "$cond" = stress60 ]; then
  stress-ng --cpu 1 --cpu-load 60 --taskset "$cpu" --quiet & stress_pid=$!
  sleep 2
fi
for n in $(seq 1 "$nights"); do
  nn=$(printf %02d "$n")
  if [ "$cond" = shiftvm ] && [ "$n" -eq $(( nights / 2 + 1 )) ]; then
    stress-ng --vm 1 --vm-bytes 1G --taskset $(( 1 - cpu )) --quiet & stress_pid=$!
    sleep 2
  fi
  variants=(base)
  if [ "$n" -ge "$slow_a" ] && [ "$n" -le "$slow_b" ]; then variants=(base conv5 conv10); fi
  nv=${#variants[@]}
  for h in "${hists[@]}"; do
    dir=$out/$h
    for s in $(seq 1 "$sessions"); do
      for k in $(seq 0 $(( nv - 1 ))); do
        v=${variants[$(( (n + s + k) % nv ))]}
        name=$v; [ "$s" -ge 2 ] && name=$v.s$s
        record_session "$dir" "$h" "$nn" "$name" "$cond" "$cpu" builtin-reference "$dir/$v.yaml"
      done
    done
  done
done
for h in "${hists[@]}"; do echo "$h done $(date -u +%FT%TZ)" >> "$out/$h/conditions.txt"; done
