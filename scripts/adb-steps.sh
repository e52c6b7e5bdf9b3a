# Shared by the adb bridge scripts (adb-runner.sh, minibench-runner.sh);
# sourced, not run. The sourcing script defines die CODE MESSAGE and sets
# `adb` (the program) and `step_timeout` (seconds per adb step).

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
