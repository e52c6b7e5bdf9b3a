#!/usr/bin/env bash
# Usage: bash scripts/check-fresh-clone.sh [--dir DIR] [--keep] [--stress]
#
# What a new user does, checked: clones this repository (its committed HEAD)
# into a new directory and runs the README's two commands there, in the
# README's order, exactly as the README's "Set-up: two commands" block
# states them (read from README.md, so the check follows the README):
#
#   bash scripts/main-job.sh
#   bash scripts/test.sh
#
# It passes when both exit 0 and the Python suites (PythonTest.*) were among
# the tests the test command ran. It prints one line on stdout:
#
#   check-fresh-clone: pass: main job exit 0 (1m52s), test command exit 0 (21m03s), 890 tests run, 10 PythonTest.*, stress none, load 2.1 -> 3.4
#
# The commands run with the environment stripped of BUILD_DIR, CI and
# ETBENCH_* (a new user sets none of them); what is installed, and the
# compiler cache (ccache, when the machine has one), are the machine's.
#
#   --dir DIR   work in DIR (created; must not exist or be empty) instead of a
#               new temporary directory; the clone is DIR/etbench, the logs
#               DIR/main-job.log and DIR/test.log
#   --keep      keep the directory after a pass (it is always kept after a
#               failure, and its path printed)
#   --stress    run `stress-ng --cpu 1` (one busy core; Debian stress-ng)
#               for the whole check, as a busy neighbour would
#
# Exit codes: 0 pass; 1 a check failed (the line says which, the logs are
# kept); 2 usage error (bad flag, DIR not empty, no stress-ng, README
# without its two commands).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
me=check-fresh-clone

usage_error() {
  echo "$me: $1" >&2
  exit 2
}

dir=""
keep=false
stress=false
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || usage_error "--dir needs a directory"; dir=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    --stress) stress=true; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) usage_error "unknown argument '$1' (see --help)" ;;
  esac
done

# The README's two commands: the non-comment lines of the first ```sh block
# after the "## Set-up: two commands" heading, comments stripped.
mapfile -t commands < <(awk '
  /^## Set-up: two commands/ { section = 1; next }
  section && /^## / { exit }
  section && /^```sh/ { block = 1; next }
  block && /^```/ { exit }
  block { sub(/[[:space:]]*#.*/, ""); if ($0 != "") print }
' "$repo/README.md")
if [ ${#commands[@]} -ne 2 ]; then
  usage_error "$repo/README.md: the \"Set-up: two commands\" block has ${#commands[@]} commands, expected 2"
fi

if $stress && ! command -v stress-ng >/dev/null 2>&1; then
  usage_error "--stress needs stress-ng (Debian: stress-ng)"
fi
if [ -n "$dir" ]; then
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
    usage_error "--dir $dir: exists and is not empty"
  fi
  mkdir -p "$dir" || usage_error "--dir $dir: cannot create it"
  dir=$(cd "$dir" && pwd)
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/etbench-fresh.XXXXXX")
fi

if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "$me: note: $repo has uncommitted changes; the clone has only its HEAD" >&2
fi

stress_pid=""
stop_stress() {
  if [ -n "$stress_pid" ]; then
    kill "$stress_pid" 2>/dev/null || true
    wait "$stress_pid" 2>/dev/null || true
    stress_pid=""
  fi
}
trap stop_stress EXIT
trap 'stop_stress; echo "$me: interrupted; kept $dir" >&2; exit 130' INT TERM

load() { cut -d' ' -f1 /proc/loadavg; }
elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

load_before=$(load)
git clone --quiet "$repo" "$dir/etbench"
commit=$(git -C "$dir/etbench" rev-parse --short HEAD)
if $stress; then
  stress-ng --cpu 1 --quiet >"$dir/stress-ng.log" 2>&1 &
  stress_pid=$!
fi

# Runs README command $1 in the clone; its output goes to log $2; sets
# `code` and `seconds`.
run_readme_command() {
  local start=$SECONDS
  echo "$me: $1 (in $dir/etbench, log $2)" >&2
  set +e
  (cd "$dir/etbench" &&
    env -u BUILD_DIR -u CI $(env | sed -n 's/^\(ETBENCH_[A-Za-z0-9_]*\)=.*/-u \1/p') \
      bash -c "$1") >"$2" 2>&1
  code=$?
  set -e
  seconds=$((SECONDS - start))
}

run_readme_command "${commands[0]}" "$dir/main-job.log"
main_code=$code
main_time=$(elapsed "$seconds")
test_code=""
test_time="not run"
if [ "$main_code" -eq 0 ]; then
  run_readme_command "${commands[1]}" "$dir/test.log"
  test_code=$code
  test_time=$(elapsed "$seconds")
fi
stop_stress

# The tests ctest ran: its "N/M Test #K: NAME ..." lines.
tests_run=0
python_run=0
if [ -f "$dir/test.log" ]; then
  tests_run=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$dir/test.log" || true)
  python_run=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: PythonTest\.' "$dir/test.log" || true)
fi

stress_text=none
if $stress; then stress_text="stress-ng --cpu 1"; fi
summary="main job exit $main_code ($main_time), test command exit ${test_code:-none} ($test_time),"
summary+=" $tests_run tests run, $python_run PythonTest.*, commit $commit, stress $stress_text,"
summary+=" load $load_before -> $(load)"

failure=""
if [ "$main_code" -ne 0 ]; then
  failure="the main job failed (see $dir/main-job.log)"
elif [ "$test_code" -ne 0 ]; then
  failure="the test command failed (see $dir/test.log)"
elif [ "$python_run" -eq 0 ]; then
  failure="no Python suite (PythonTest.*) among the tests run (see $dir/test.log)"
fi
if [ -n "$failure" ]; then
  echo "$me: FAIL: $failure: $summary"
  exit 1
fi
echo "$me: pass: $summary"
if $keep; then
  echo "$me: kept $dir" >&2
else
  rm -rf "$dir"
fi
