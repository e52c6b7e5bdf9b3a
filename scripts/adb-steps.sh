# Shared by the adb bridge scripts (adb-runner.sh, minibench-runner.sh);
# sourced, not run. The sourcing script sets `prog` (its name, for
# messages) first, and `adb` (the program) and `step_timeout` (seconds per
# adb step) before its first adb_step.

# die CODE MESSAGE: one line on stderr, exit CODE.
die() {
  echo "$prog: $2" >&2
  exit "$1"
}

# help_if_asked ARGS...: for -h/--help prints the sourcing script's header
# comment (its usage, environment and exit codes) and exits 0.
help_if_asked() {
  if [[ ${1:-} == -h || ${1:-} == --help ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
  fi
}

# Quotes one word for the device's /system/bin/sh.
quote() {
  printf "'%s'" "${1//\'/\'\\\'\'}"
}

# adb_step WHAT ARGS...: runs adb with the step timeout; on failure exits 3
# with the step and adb's last line of output.
adb_step() {
  local what=$1
  shift
  local out status=0
  out=$(timeout --kill-after=5 "$step_timeout" "$adb" "$@" 2>&1) || status=$?
  if [[ $status -eq 124 || $status -eq 137 ]]; then
    die 3 "$what: adb timed out after ${step_timeout} s"
  elif [[ $status -ne 0 ]]; then
    die 3 "$what failed (adb exit $status): $(tail -n 1 <<<"$out")"
  fi
  printf '%s' "$out"
}
