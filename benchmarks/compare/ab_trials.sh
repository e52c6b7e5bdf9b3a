#!/usr/bin/env bash
# Real `etbench ab` trials, one CSV row each: exit code, outcome, the first
# kernel the attribution names, wall time, disk used by the ab directory,
# blocks, the load average at the start. Usage:
#   ab_trials.sh ETBENCH OUT.csv LABEL N SEED0 [--stress] -- AB-ARGS...
# Every trial runs under `taskset -c 1`; --stress adds `stress-ng --cpu 1
# --cpu-load 60 --taskset 1` for the trial's length. Each trial's ab
# directory is removed after it was measured; its stderr is appended to
# OUT.log.
set -euo pipefail
etbench=$1 out=$2 label=$3 n=$4 seed0=$5
shift 5
stress=0
if [ "${1:-}" = "--stress" ]; then stress=1; shift; fi
[ "${1:-}" = "--" ] && shift
work=$(mktemp -d /tmp/ab-trials.XXXXXX)
[ -s "$out" ] || echo "label,trial,seed,load1,stress,exit_code,outcome,wall_s,disk_mb,blocks,first_kernel,execute_change_pct,execute_verdict" > "$out"
for ((t = 0; t < n; t++)); do
  seed=$((seed0 + t))
  load=$(cut -d' ' -f1 /proc/loadavg)
  spid=
  if [ $stress = 1 ]; then stress-ng --cpu 1 --cpu-load 60 --taskset 1 -q & spid=$!; sleep 1; fi
  start=$(date +%s.%N)
  set +e
  taskset -c 1 "$etbench" ab "$@" --seed "$seed" --output-dir "$work/ab" --color never \
    --report "json=$work/cmp.json" > "$work/out.txt" 2> "$work/err.txt"
  rc=$?
  set -e
  end=$(date +%s.%N)
  [ -n "$spid" ] && { kill "$spid"; wait "$spid" 2>/dev/null || true; }
  disk=$(du -sm "$work/ab" | cut -f1)
  blocks=$(grep -o '[0-9][0-9]* blocks' "$work/err.txt" | head -1 | cut -d' ' -f1)
  row=$(python3 - "$work/cmp.json" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception:
    print("error,,,"); sys.exit()
first = ""
for group in j.get("attribution", []):
    for item in group.get("items", []):
        if item.get("kind") == "kernel" and item.get("delta", 0) > 0:
            first = item["label"]; break
    if first: break
chg, verdict = "", ""
for r in j.get("metrics", []):
    if r["name"] == "Method::execute":
        chg = "%.2f" % (100 * r["change"]); verdict = r["verdict"]; break
print("%s,%s,%s,%s" % (j.get("outcome", ""), first.replace(",", ";"), chg, verdict))
PY
)
  outcome=${row%%,*}; rest=${row#*,}
  wall=$(python3 -c "print('%.2f' % ($end - $start))")
  echo "$label,$t,$seed,$load,$stress,$rc,$outcome,$wall,$disk,$blocks,$rest" | tee -a "$out"
  { echo "=== $label trial $t seed $seed load $load stress $stress exit $rc wall $wall"; cat "$work/err.txt"; } >> "${out%.csv}.log"
  rm -rf "$work/ab" "$work/cmp.json"
done
rm -rf "$work"
