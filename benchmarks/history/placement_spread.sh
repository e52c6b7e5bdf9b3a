#!/usr/bin/env bash
# Measures how much one model's Method::execute lower decile (p10 of a
# session's samples) moves from one fresh `etbench run` process to the next,
# per arena placement of the built-in runtime, alternating the placements
# process by process (rotated order each round) so load drift hits all alike.
#   placement_spread.sh OUT ROUNDS PLACEMENT... (env MODEL=mobilenet_v2_block
#                       CPU=1 REPETITIONS=8 ETBENCH=build/tools/etbench
#                       PRIORITY="nice -n -5")
# PRIORITY prefixes each process, e.g. "chrt -f 1" (real-time FIFO: niced
# compilers on the same CPU then never preempt it).
# A placement is heap | pool:K | fresh | offset, passed to the runtime as
# ETBENCH_EXP_PLACEMENT / ETBENCH_EXP_POOL_SLOTS. Only a build of commit
# 6576999 (the experiment, reverted after it: docs/comparison.md) reads them;
# any other build runs its one placement under every label, an A/A (e.g.
# labels heap-a heap-b heap-c heap-d) that shows how far identical runtimes
# differ by chance.
# A condition LABEL=SUITE.yaml runs that suite instead (the placement the
# build has); MODEL's entries in it are pooled (a suite may list the model
# several times, e.g. interleave_suite.sh's), so suites that order the same
# work differently can be compared.
# Writes OUT (TSV: round, placement, UTC time, load average, p10, median,
# repetition medians) and prints the summary of placement_spread.py.
set -euo pipefail
out=$1; rounds=$2; shift 2
placements=("$@")
model=${MODEL:-mobilenet_v2_block}
cpu=${CPU:-1}
etbench=${ETBENCH:-build/tools/etbench}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/suite.yaml" <<YAML
suite: placement
runner: builtin
time_source: ns
unit: ms
warmup: 3
iterations: 10
repetitions: ${REPETITIONS:-8}
models:
  - {name: $model, path: $(pwd)/configs/models/$model.yaml}
YAML
tmp_out=$out.tmp
printf 'round\tplacement\ttime\tload1\tp10\tp50\trep_medians\tload_method_p50\n' > "$tmp_out"
n=${#placements[@]}
for r in $(seq 1 "$rounds"); do
  for k in $(seq 0 $(( n - 1 ))); do
    p=${placements[$(( (r + k) % n ))]}
    suite=$work/suite.yaml
    case $p in *=*) suite=${p#*=}; p=${p%%=*} ;; esac
    rm -rf "$work/out"
    load=$(cut -d' ' -f1 /proc/loadavg)
    ETBENCH_EXP_PLACEMENT=${p%%:*} ETBENCH_EXP_POOL_SLOTS=${p#*:} \
      ${PRIORITY:-nice -n -5} taskset -c "$cpu" "$etbench" run "$suite" --quiet --summary none \
      --output-dir "$work/out" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
    line=$(python3 "$here/placement_spread.py" --extract "$work/out/results.json" "$model")
    printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$p" "$(date -u +%T)" "$load" "$line" >> "$tmp_out"
  done
done
mv "$tmp_out" "$out"
python3 "$here/placement_spread.py" "$out"
