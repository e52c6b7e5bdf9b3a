# Sourced by record_sessions.sh and record_runner_nights.sh: one session (a
# fresh `etbench run` process) of one night, pinned to a CPU, kept as
# night_replay reads it — DIR/night<NN>/<NAME>/results.json, its stderr
# beside it, and a line in DIR/conditions.txt with the time, the load and
# the condition (a failed run says FAILED there).
#   record_session DIR HISTORY NN NAME CONDITION CPU DEVICE SUITE_FILE [PATH_DIR]
# PATH_DIR goes first on PATH (the runner build of a command suite).
# The caller sets `etbench` (the etbench binary).
record_session() {
  local dir=$1 hist=$2 nn=$3 name=$4 cond=$5 cpu=$6 device=$7 suite=$8 path_dir=${9:-}
  local d=$dir/night$nn/$name
  local search=$PATH
  [ -n "$path_dir" ] && search=$path_dir:$PATH
  mkdir -p "$d"
  echo "$hist night $nn $name $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg) cond $cond" >> "$dir/conditions.txt"
  PATH="$search" nice -n -5 taskset -c "$cpu" "$etbench" run "$suite" --quiet --label "device=$device" \
    --label "commit=night$nn" --output-dir "$d/out" --summary none >/dev/null 2>"$d/stderr.txt" \
    || echo "FAILED $hist $nn $name" >> "$dir/conditions.txt"
  if [ -f "$d/out/results.json" ]; then mv "$d/out/results.json" "$d/results.json"; fi
  rm -rf "$d/out"
}
