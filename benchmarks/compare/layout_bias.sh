#!/usr/bin/env bash
# Does the A/A bias between two copies of one executable follow the copy?
# (issue #27: base vs base_copy differed by 0.5-1.5% in Method::execute.)
# Runs fixed-length `etbench ab` A/A trials of one runner binary against:
#   same      the same file at the same path
#   hlink     a hard link at a 7-byte longer path (same page-cache pages,
#             argv[0] and AT_EXECFN longer: the stack start moves)
#   envpad    the same file with a 1000-byte environment variable (stack)
#   copy      one byte copy at a path of the same length, made once
#   fresh     a new byte copy for every trial (new page-cache pages)
#   pair      RUNNER itself against OTHER (OTHER=PATH in the environment,
#             e.g. the copy issue #27's A/A trials used; skipped without)
# A condition written COND:off runs with --no-layout-randomization (an
# etbench that has it; by default every run then gets its own layout).
# interleaved trial by trial, each under `taskset -c 1`, and writes one CSV
# row per trial: the per-block log ratio of Method::execute's run medians
# (B over A, mean over the block's two runs each), its median and mean over
# blocks with the mean's standard error, and the load average.
# Usage: [CONDITIONS="same copy …"] [OTHER=PATH] \
#          layout_bias.sh ETBENCH RUNNER OUT.csv TRIALS BLOCKS [AB-ARGS...]
# e.g.   layout_bias.sh build/tools/etbench /tmp/et-ab/pair/base/executor_runner \
#            out.csv 6 150 --no-layout-randomization
set -euo pipefail
etbench=$1 runner=$2 out=$3 trials=$4 blocks=$5
shift 5
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/layout-bias.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/orig" "$work/hlink_x" "$work/copy"
cp "$runner" "$work/orig/executor_runner"
ln "$work/orig/executor_runner" "$work/hlink_x/executor_runner"
cp "$runner" "$work/copy/executor_runner"
pad=$(head -c 1000 /dev/zero | tr '\0' x)
[ -s "$out" ] || echo "condition,trial,seed,load1,blocks_used,median_pct,mean_pct,se_pct,b_slower_blocks" > "$out"
for ((t = 0; t < trials; t++)); do
  for label in ${CONDITIONS:-same hlink envpad copy fresh pair}; do
    cond=${label%:off}
    off=()
    [ "$cond" != "$label" ] && off=(--no-layout-randomization)
    [ "$cond" = pair ] && [ -z "${OTHER:-}" ] && continue
    seed=$((1000 + t))
    a=(--a "program=$work/orig/executor_runner")
    b=(--b "program=$work/orig/executor_runner")
    case $cond in
      hlink) b=(--b "program=$work/hlink_x/executor_runner") ;;
      envpad) b+=(--b "env.ETBENCH_BIAS_PAD=$pad") ;;
      copy) b=(--b "program=$work/copy/executor_runner") ;;
      pair) a=(--a "program=$runner"); b=(--b "program=$OTHER") ;;
      fresh)
        # A new file each trial, the older ones kept: a removed copy's
        # pages would be free for the next copy to land on.
        f=$(printf 'f%03d' "$t")
        mkdir -p "$work/$f" && cp "$runner" "$work/$f/executor_runner"
        b=(--b "program=$work/$f/executor_runner") ;;
    esac
    load=$(cut -d' ' -f1 /proc/loadavg)
    rm -rf "$work/ab"
    taskset -c 1 "$etbench" ab "$here/configs/executorch.yaml" --model bundled_program \
      "${a[@]}" "${b[@]}" --blocks "$blocks" --seed "$seed" \
      --output-dir "$work/ab" --color never "${off[@]}" "$@" > /dev/null 2> "$work/err.txt" || true
    python3 - "$work/ab" "$label" "$t" "$seed" "$load" >> "$out" <<'PY'
import json, math, os, statistics, sys
ab, cond, trial, seed, load = sys.argv[1:]
runs = sorted((d for d in os.listdir(ab) if d[:2].isdigit()), key=lambda d: int(d.split("-")[0]))
def location(d):
    j = json.load(open(os.path.join(ab, d, "results.json")))
    for b in j["models"][0]["blocks"]:
        for e in b["events"]:
            if e["name"] == "Method::execute":
                return math.log(e["perf_data"]["p50"])
ratios = []
for k in range(0, len(runs) - 3, 4):
    block = runs[k:k + 4]
    la = [location(d) for d in block if d.endswith("-a")]
    lb = [location(d) for d in block if d.endswith("-b")]
    if len(la) == 2 and len(lb) == 2:
        ratios.append(100 * (sum(lb) / 2 - sum(la) / 2))
n = len(ratios)
mean = statistics.fmean(ratios)
se = statistics.stdev(ratios) / math.sqrt(n)
slower = sum(r > 0 for r in ratios)
print(f"{cond},{trial},{seed},{load},{n},{statistics.median(ratios):.3f},{mean:.3f},{se:.3f},{slower}")
PY
    tail -1 "$out"
  done
done
