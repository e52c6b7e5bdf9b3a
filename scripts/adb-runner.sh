#!/usr/bin/env bash
# Runs ExecuTorch's executor_runner on an Android device over adb, for
# etbench's `command` runner: pushes the model, runs it on the device, pulls
# the ETDump back. One call = one repetition.
#
# Usage: scripts/adb-runner.sh MODEL EXECUTIONS ETDUMP [EXTRA_RUNNER_ARGS...]
#   MODEL       the .pte / .bpte on this machine
#   EXECUTIONS  --num_executions (etbench's {iterations}: warm-up + measured)
#   ETDUMP      where the pulled ETDump goes on this machine (etbench's {etdump})
#   EXTRA_...   passed to executor_runner after the standard flags
#
# Environment (all optional):
#   ADB                 the adb program (default: adb from PATH)
#   ANDROID_SERIAL      which device, when several are attached (read by adb)
#   ET_DEVICE_DIR       working directory on the device (default /data/local/tmp/etbench)
#   ET_RUNNER           executor_runner on the device (default $ET_DEVICE_DIR/executor_runner)
#   ET_PUSH_RUNNER      a local executor_runner (built for the device) pushed to ET_RUNNER first
#   ET_ADB_TIMEOUT      seconds for each adb step before it is stopped (default 300)
#
# Suite (configs/README.md, `command` runner):
#   command:
#     argv: [scripts/adb-runner.sh, "{model}", "{iterations}", "{etdump}"]
#     timeout_s: 900
#
# Exit codes: 0 ETDump written; 2 usage error; 3 adb or device error (no
# device, push/pull failed, adb step timed out); 4 executor_runner failed on
# the device or wrote no ETDump. Errors are one line on stderr naming the step;
# executor_runner's own output goes to stderr (etbench keeps it on failure).
set -euo pipefail

readonly prog="adb-runner.sh"
# die CODE MESSAGE; quote WORD; adb_step WHAT ARGS...; help_if_asked "$@".
# shellcheck source=adb-steps.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/adb-steps.sh"
help_if_asked "$@"
[[ $# -ge 3 ]] || die 2 "usage: $prog MODEL EXECUTIONS ETDUMP [EXTRA_RUNNER_ARGS...]"
model=$1
executions=$2
etdump=$3
shift 3
[[ -f $model ]] || die 2 "model '$model' not found"
[[ $executions =~ ^[1-9][0-9]*$ ]] || die 2 "EXECUTIONS must be a positive integer, got '$executions'"
[[ -n $etdump ]] || die 2 "ETDUMP must not be empty"
etdump_dir=$(dirname -- "$etdump")
[[ -d $etdump_dir ]] || die 2 "directory of ETDUMP '$etdump_dir' does not exist"

adb=${ADB:-adb}
command -v "$adb" >/dev/null 2>&1 || die 3 "adb not found ('$adb'; set ADB or PATH)"
device_dir=${ET_DEVICE_DIR:-/data/local/tmp/etbench}
runner=${ET_RUNNER:-$device_dir/executor_runner}
step_timeout=${ET_ADB_TIMEOUT:-300}
[[ $step_timeout =~ ^[0-9]+$ ]] || die 2 "ET_ADB_TIMEOUT must be whole seconds, got '$step_timeout'"

# A name unique to this call, so parallel shards on one device do not clash.
tag="$$-$RANDOM"
device_model="$device_dir/model-$tag.${model##*.}"
device_etdump="$device_dir/etdump-$tag.etdp"

cleanup() {
  # Best effort: never let cleanup hide the real error.
  timeout --kill-after=5 "$step_timeout" "$adb" shell \
    "rm -f $(quote "$device_model") $(quote "$device_etdump")" >/dev/null 2>&1 || true
  rm -f -- "$etdump.adb-tmp"
}
trap cleanup EXIT

state=$(adb_step "checking the device" get-state)
state=${state//$'\r'/}
[[ $state == device ]] || die 3 "no usable device (adb get-state: '$state')"

adb_step "creating $device_dir on the device" shell "mkdir -p $(quote "$device_dir")" >/dev/null
if [[ -n ${ET_PUSH_RUNNER:-} ]]; then
  [[ -f $ET_PUSH_RUNNER ]] || die 2 "ET_PUSH_RUNNER '$ET_PUSH_RUNNER' not found"
  adb_step "pushing executor_runner" push "$ET_PUSH_RUNNER" "$runner" >/dev/null
  adb_step "making executor_runner executable" shell "chmod 755 $(quote "$runner")" >/dev/null
fi
adb_step "pushing the model" push "$model" "$device_model" >/dev/null

# `adb shell` does not return the remote exit status on every Android
# version: the command prints it on a marker line instead.
remote="cd $(quote "$device_dir") && $(quote "$runner") --model_path $(quote "$device_model")"
remote+=" --num_executions $executions --etdump_path $(quote "$device_etdump") --print_output none"
for arg in "$@"; do remote+=" $(quote "$arg")"; done
remote+="; echo __ETBENCH_EXIT=\$?; [ -s $(quote "$device_etdump") ] && echo __ETBENCH_ETDUMP=1"
output=$(adb_step "running executor_runner" shell "$remote")
output=${output//$'\r'/}
status_line=$(grep -o '__ETBENCH_EXIT=[0-9]*' <<<"$output" | tail -n 1 || true)
printf '%s\n' "$output" | grep -v '^__ETBENCH_' >&2 || true
[[ -n $status_line ]] || die 4 "executor_runner: no exit status from the device (did it crash the shell?)"
runner_status=${status_line#__ETBENCH_EXIT=}
[[ $runner_status -eq 0 ]] || die 4 "executor_runner exited with status $runner_status on the device"
grep -q '__ETBENCH_ETDUMP=1' <<<"$output" ||
  die 4 "executor_runner wrote no ETDump (was it built with EXECUTORCH_BUILD_DEVTOOLS and the event tracer?)"

adb_step "pulling the ETDump" pull "$device_etdump" "$etdump.adb-tmp" >/dev/null
[[ -s $etdump.adb-tmp ]] || die 3 "pulling the ETDump gave an empty file"
mv -f -- "$etdump.adb-tmp" "$etdump"
