#!/usr/bin/env bash
# Proves that a change leaves etbench's outputs as they were: runs the same
# commands with two builds on the repository's own inputs and compares every
# output byte for byte.
#
#   bash scripts/check-cli-outputs.sh --ref REF_BUILD_DIR --new NEW_BUILD_DIR [--keep DIR]
#
# REF_BUILD_DIR is a build of the reference commit (e.g. main), NEW_BUILD_DIR
# one of the change (each holds tools/etbench). What is run:
#   inspect  tests/fixtures' ETDump (+ ETRecord): every format and view, its
#            options, -o FILE, and bad input (exit 2 lines)
#   export   Chrome trace and collapsed stacks of the same ETDump
#   run      a `command` suite whose program copies the fixture ETDump (one
#            model with a cycles sidecar), so the numbers are the fixture's:
#            summary table/json/none and every --report format
#   compare  the committed baseline against itself, against a copy with
#            scaled samples (regressions, improvements) and against the run's
#            results (models added/removed); every report format
#   gate     the command suite against a baseline (pass, regression, advisory)
#   ab       the command suite as A and B, seeded
#   report   tests/reports/golden/comparison.json, the run's results and the
#            compare output, every format
#   baseline show, and the help and version texts
# Each case records stdout, stderr, the exit code and the files it wrote.
# Both builds run in the same directory (one after the other), so paths
# match. Masked, because they vary between any two runs: dates
# (YYYY-MM-DDTHH:MM:SSZ wherever printed, and a JSON "date" line, which
# ab's merged sides keep only when all their runs started in the same
# second; a context table marks the date row bold when the two sides' dates
# differ) and wall times (results' "wall_ms", an A/B look's "seconds",
# JUnit <testcase time="…">); nothing else.
# Prints "check-cli-outputs: N outputs compared, N identical" and exits 0
# when all are identical, 1 otherwise (listing the differing files), 2 on
# bad usage.
set -euo pipefail

usage() { echo "usage: $0 --ref BUILD_DIR --new BUILD_DIR [--keep DIR]" >&2; exit 2; }
ref= new= keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) ref=${2:-}; shift 2 ;;
    --new) new=${2:-}; shift 2 ;;
    --keep) keep=${2:-}; shift 2 ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) usage ;;
  esac
done
[ -n "$ref" ] && [ -n "$new" ] || usage
repo=$(cd "$(dirname "$0")/.." && pwd)
for b in "$ref" "$new"; do
  [ -x "$b/tools/etbench" ] || { echo "check-cli-outputs: $b/tools/etbench: not built" >&2; exit 2; }
done
ref=$(cd "$ref" && pwd)
new=$(cd "$new" && pwd)

top=$(mktemp -d "${TMPDIR:-/tmp}/etbench-check.XXXXXX")
trap '[ -n "$keep" ] || rm -rf "$top"' EXIT
inputs=$top/inputs
work=$top/work
mkdir -p "$inputs"

# --- inputs (shared by both builds) -------------------------------------
etdump=$inputs/tutorial.etdp
etrecord=$inputs/tutorial_etrecord.bin
cp "$repo/tests/fixtures/executorch_tutorial.etdp" "$etdump"
cp "$repo/tests/fixtures/executorch_sample_etrecord.bin" "$etrecord"
cp "$repo/tests/reports/golden/comparison.json" "$inputs/golden_comparison.json"
cp "$repo/configs/thresholds.yaml" "$inputs/thresholds.yaml"
baseline=$inputs/baseline.json
cp "$repo/baselines/builtin-reference/default.json" "$baseline"
# The baseline with toy_cnn's convolutions 25% slower and mlp 20% faster.
awk '
  /^ *"model": "/ { m = $0; sub(/^ *"model": "/, "", m); sub(/".*/, "", m) }
  /^ *"name": "/ { n = $0; sub(/^ *"name": "/, "", n); sub(/".*/, "", n) }
  /"samples": \[/ { s = 1; print; next }
  s && /^ *\]/ { s = 0 }
  s && /^ *[-0-9.e+]+,?$/ {
    f = (m == "toy_cnn" && n ~ /conv/) ? 1.25 : (m == "mlp" ? 0.8 : 1)
    if (f != 1) {
      match($0, /^ */); indent = substr($0, 1, RLENGTH)
      v = substr($0, RLENGTH + 1); comma = ""
      if (v ~ /,$/) { comma = ","; sub(/,$/, "", v) }
      printf "%s%.6f%s\n", indent, v * f, comma
      next
    }
  }
  { print }' "$baseline" > "$inputs/shifted.json"
# The command runner's program: copies the model file (an ETDump) to
# {etdump}; for the model named "cycles" also writes a sidecar saying the
# ticks are cycles at 2 GHz.
cat > "$inputs/copy_etdump.sh" <<'EOF'
#!/bin/sh
cp "$1" "$2"
if [ "$3" = cycles ]; then
  printf '{"schema_version": 1, "model": "cycles", "time_source": "cycles", "tick_rate_hz": 2e9}\n' > "$2.meta.json"
fi
EOF
chmod +x "$inputs/copy_etdump.sh"
cat > "$inputs/suite.yaml" <<EOF
suite: fixture
runner: command
warmup: 0
iterations: 1
repetitions: 3
command:
  argv: [$inputs/copy_etdump.sh, "{model}", "{etdump}", "{name}"]
  timeout_s: 60
models:
  - {name: plain, path: $etdump}
  - {name: cycles, path: $etdump}
output_dir: out/{suite}
EOF

# --- the cases -----------------------------------------------------------
# case NAME ARGS...: runs etbench ARGS in $work/NAME/ and keeps its stdout,
# stderr and exit code there (with the files it wrote, whose paths are
# relative to that directory).
case_() {
  local name=$1; shift
  mkdir -p "$work/$name"
  ( cd "$work/$name" && set +e
    COLUMNS=100 NO_COLOR=1 "$etbench" "$@" > stdout 2> stderr < /dev/null
    echo $? > exit_code )
}

# Flags keep their snake_case spellings here (still accepted) so that a
# reference build from before the kebab-case rename runs the same commands.
run_cases() {
  local f v g s
  case_ help --help
  case_ version --version
  for c in inspect run compare gate ab report baseline export; do case_ "help-$c" "$c" --help; done

  case_ inspect-table inspect --etdump_path "$etdump"
  for f in csv tsv json; do case_ "inspect-$f" inspect --etdump_path "$etdump" --format "$f"; done
  case_ inspect-no-units inspect --etdump_path "$etdump" --format csv --include_units false
  case_ inspect-delegate inspect --etdump_path "$etdump" --include_delegate_debug_data
  case_ inspect-us inspect --etdump_path "$etdump" --target_time_scale us
  case_ inspect-cycles inspect --etdump_path "$etdump" --source_time_scale cycles --format json
  case_ inspect-output inspect --etdump_path "$etdump" --format json -o inspect.json
  case_ inspect-etrecord inspect --etdump_path "$etdump" --etrecord_path "$etrecord"
  case_ inspect-graph inspect --etdump_path "$etdump" --etrecord_path "$etrecord" --show_graph
  case_ inspect-module inspect --etdump_path "$etdump" --etrecord_path "$etrecord" --module conv
  for v in events tree key_averages module_tree; do
    case_ "inspect-view-$v" inspect --etdump_path "$etdump" --view "$v"
    case_ "inspect-view-$v-etrecord" inspect --etdump_path "$etdump" --etrecord_path "$etrecord" --view "$v"
  done
  for g in name op_type module instruction; do
    case_ "inspect-group-$g" inspect --etdump_path "$etdump" --view key_averages --group_by "$g"
    case_ "inspect-group-$g-etrecord" inspect --etdump_path "$etdump" --etrecord_path "$etrecord" \
      --view key_averages --group_by "$g"
  done
  for s in total self avg count name; do
    case_ "inspect-sort-$s" inspect --etdump_path "$etdump" --view key_averages --sort_by "$s" \
      --row_limit 5 --time_unit us
  done
  case_ inspect-top inspect --etdump_path "$etdump" --view events --top_level_only --max_name_width 20
  case_ inspect-tree-all inspect --etdump_path "$etdump" --view tree --run all --row_limit 8
  case_ inspect-bad-format inspect --etdump_path "$etdump" --format xml
  case_ inspect-missing inspect --etdump_path "$inputs/none.etdp"
  case_ inspect-bad-etrecord inspect --etdump_path "$etdump" --etrecord_path "$etdump"
  case_ inspect-legacy-not-profile inspect --legacy_profile "$etdump"
  case_ export-trace export --chrome-trace "$etdump" -o trace.json
  case_ export-stacks export --stacks "$etdump"

  case_ run-table run "$inputs/suite.yaml" --label device=check --label branch=b --label commit=c
  case_ run-json run "$inputs/suite.yaml" --summary json --label device=check --label branch=b \
    --label commit=c
  case_ run-quiet run "$inputs/suite.yaml" --quiet --model cycles --label device=check \
    --label branch=b --label commit=c
  case_ run-reports run "$inputs/suite.yaml" --summary none --label device=check --label branch=b \
    --label commit=c --report markdown=r.md --report junit=r.xml --report json=r.json \
    --report csv=r.csv --report tsv=r.tsv --report html=r.html --report terminal=r.txt
  case_ run-shard run "$inputs/suite.yaml" --shard 2/2 --label device=check --label branch=b \
    --label commit=c
  case_ run-bad-config run "$inputs/none.yaml"
  local results=$work/run-table/out/fixture/results.json
  # The run's results at half the time, measured on another host.
  awk '{
    gsub(/"host": "[^"]*"/, "\"host\": \"elsewhere\"")
    out = ""; line = $0
    while (match(line, /"raw": \[[^]]*\]/)) {
      n = split(substr(line, RSTART + 8, RLENGTH - 9), xs, /, /); values = ""
      for (i = 1; i <= n; i++) values = values (i > 1 ? ", " : "") sprintf("%.6f", xs[i] / 2)
      out = out substr(line, 1, RSTART - 1) "\"raw\": [" values "]"
      line = substr(line, RSTART + RLENGTH)
    }
    print out line
  }' "$results" > "$work/faster-elsewhere.json"

  case_ compare-same compare "$baseline" "$baseline" --color never
  case_ compare-shifted compare "$baseline" "$inputs/shifted.json" --color never \
    --thresholds "$inputs/thresholds.yaml" --report markdown=c.md --report junit=c.xml \
    --report json=c.json --report csv=c.csv --report tsv=c.tsv --report html=c.html
  case_ compare-improved compare "$inputs/shifted.json" "$baseline" --color always
  case_ compare-results compare "$baseline" "$results" --color never
  case_ compare-self-results compare "$results" "$results" --color never --fail-on-inconclusive
  case_ compare-missing compare "$baseline" "$inputs/none.json"

  case_ gate-pass gate "$inputs/suite.yaml" --baseline "$results" --label device=check \
    --label branch=b --label commit=c --color never --report junit=g.xml
  case_ gate-other gate "$inputs/suite.yaml" --baseline "$work/faster-elsewhere.json" \
    --label device=check --label branch=b --label commit=c --color never
  case_ gate-advisory gate "$inputs/suite.yaml" --baseline "$work/faster-elsewhere.json" \
    --label device=check --label branch=b --label commit=c --color never --other-machine advisory \
    --report markdown=g.md
  case_ gate-other-suite gate "$inputs/suite.yaml" --baseline "$baseline" --label device=check
  case_ gate-no-baseline gate "$inputs/suite.yaml" --root "$inputs" --label device=check
  case_ ab-seeded ab "$inputs/suite.yaml" --model plain --blocks 1 --seed 7 --color never \
    --output_dir ab --label device=check --label branch=b --label commit=c --report json=ab.json

  for f in terminal markdown junit json csv tsv html; do
    case_ "report-golden-$f" report "$inputs/golden_comparison.json" --format "$f" --color never
    case_ "report-results-$f" report "$results" --format "$f" --color never
  done
  case_ report-compared-html report "$work/compare-shifted/c.json" --format html \
    --baseline "$baseline" --candidate "$inputs/shifted.json" -o r.html
  case_ report-unchanged report "$work/compare-shifted/c.json" --show_unchanged --width 80 \
    --max_rows 5 --color never
  case_ baseline-show baseline show "$baseline"
}

# --- run with each build in the same place ------------------------------
for side in ref new; do
  if [ $side = ref ]; then etbench=$ref/tools/etbench; else etbench=$new/tools/etbench; fi
  rm -rf "$work"
  mkdir -p "$work"
  run_cases
  mv "$work" "$top/$side"
done

# Masks the values that vary between any two runs.
mask() {
  sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/<date>/g' \
         -e '/^ *"date": "<date>",$/d' -e 's/ ?<date>//g' \
         -e 's/^\| `date` \| \*\*``\*\* \| \*\*``\*\* \|$/| `date` | `` | `` |/' \
         -e 's/"wall_ms": [0-9.e+-]+/"wall_ms": <masked>/g' \
         -e 's/"seconds": [0-9.e+-]+/"seconds": <masked>/g' \
         -e 's/(<testcase [^>]* time=")[0-9.]+"/\1<masked>"/g' "$1"
}

compared=0 identical=0
differ=()
while IFS= read -r rel; do
  compared=$((compared + 1))
  if [ -f "$top/new/$rel" ] && cmp -s <(mask "$top/ref/$rel") <(mask "$top/new/$rel"); then
    identical=$((identical + 1))
  else
    differ+=("$rel")
  fi
done < <(cd "$top/ref" && find . -type f | sort)
# Files only the new build wrote are differences too.
while IFS= read -r rel; do
  if [ ! -f "$top/ref/$rel" ]; then compared=$((compared + 1)); differ+=("$rel (new only)"); fi
done < <(cd "$top/new" && find . -type f | sort)

for d in "${differ[@]}"; do
  echo "differs: $d"
  [ -f "$top/new/$d" ] && diff <(mask "$top/ref/$d") <(mask "$top/new/$d") | head -5 || true
done
[ -n "$keep" ] && { rm -rf "$keep"; mv "$top" "$keep"; echo "outputs kept in $keep" >&2; }
echo "check-cli-outputs: $compared outputs compared, $identical identical"
[ "$identical" -eq "$compared" ]
