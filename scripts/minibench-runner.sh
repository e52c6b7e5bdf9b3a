#!/usr/bin/env bash
# Runs a model in ExecuTorch's Android benchmark app ("minibench",
# extension/benchmark/android/benchmark upstream) over adb, for etbench's
# `command` runner: pushes the model into its own directory on the device,
# starts the app's BenchmarkActivity with its intent extras (model_dir,
# num_iter, num_warm_up_iter), waits for files/benchmark_results.json, and
# pulls the app's ETDump (Module.etdump(): /data/local/tmp/result.etdump,
# written when the app's AAR was built with EXECUTORCH_ANDROID_PROFILING) to
# etbench's {etdump}, and the app's results beside it as
# ETDUMP.benchmark_results.json. One call = one repetition (one app start).
#
# Usage: scripts/minibench-runner.sh MODEL WARMUP EXECUTIONS ETDUMP
#   MODEL       the .pte on this machine
#   WARMUP      num_warm_up_iter (etbench's {warmup})
#   EXECUTIONS  warm-up + measured forwards (etbench's {iterations});
#               num_iter = EXECUTIONS - WARMUP. The ETDump holds all of them;
#               etbench drops the first WARMUP Execute runs.
#   ETDUMP      where the pulled ETDump goes on this machine (etbench's {etdump})
#
# Environment (all optional):
#   ADB             the adb program (default: adb from PATH)
#   ANDROID_SERIAL  which device, when several are attached (read by adb)
#   MB_DEVICE_DIR   where model directories go on the device (default /data/local/tmp/minibench)
#   MB_ETDUMP       the app's ETDump on the device (default /data/local/tmp/result.etdump)
#   MB_PACKAGE      the app's package (default org.pytorch.minibench)
#   MB_TIMEOUT      seconds to wait for the app's results (default 600)
#   ET_ADB_TIMEOUT  seconds for each adb step before it is stopped (default 300)
#
# Suite (configs/README.md, `command` runner):
#   command:
#     argv: [scripts/minibench-runner.sh, "{model}", "{warmup}", "{iterations}", "{etdump}"]
#     timeout_s: 900
#
# Exit codes: 0 ETDump and results pulled; 2 usage error; 3 adb or device
# error (no device, push/pull failed, adb step timed out); 4 the app failed:
# no results in MB_TIMEOUT seconds, a load_status other than 0 (the model did
# not load; the status is ExecuTorch's error code), or no ETDump. Errors are
# one line on stderr naming the step.
set -euo pipefail

readonly prog="minibench-runner.sh"
# die CODE MESSAGE; quote WORD; adb_step WHAT ARGS...; help_if_asked "$@".
# shellcheck source=adb-steps.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/adb-steps.sh"
help_if_asked "$@"
[[ $# -eq 4 ]] || die 2 "usage: $prog MODEL WARMUP EXECUTIONS ETDUMP"
model=$1
warmup=$2
executions=$3
etdump=$4
[[ -f $model ]] || die 2 "model '$model' not found"
[[ $model == *.pte ]] || die 2 "model '$model' is not a .pte (the app loads the first *.pte of model_dir)"
[[ $warmup =~ ^[0-9]+$ ]] || die 2 "WARMUP must be a whole number, got '$warmup'"
[[ $executions =~ ^[1-9][0-9]*$ ]] || die 2 "EXECUTIONS must be a positive integer, got '$executions'"
((executions > warmup)) || die 2 "EXECUTIONS ($executions) must exceed WARMUP ($warmup)"
[[ -n $etdump ]] || die 2 "ETDUMP must not be empty"
etdump_dir=$(dirname -- "$etdump")
[[ -d $etdump_dir ]] || die 2 "directory of ETDUMP '$etdump_dir' does not exist"
num_iter=$((executions - warmup))

adb=${ADB:-adb}
command -v "$adb" >/dev/null 2>&1 || die 3 "adb not found ('$adb'; set ADB or PATH)"
device_dir=${MB_DEVICE_DIR:-/data/local/tmp/minibench}
device_etdump=${MB_ETDUMP:-/data/local/tmp/result.etdump}
package=${MB_PACKAGE:-org.pytorch.minibench}
wait_s=${MB_TIMEOUT:-600}
step_timeout=${ET_ADB_TIMEOUT:-300}
[[ $wait_s =~ ^[0-9]+$ ]] || die 2 "MB_TIMEOUT must be whole seconds, got '$wait_s'"
[[ $step_timeout =~ ^[0-9]+$ ]] || die 2 "ET_ADB_TIMEOUT must be whole seconds, got '$step_timeout'"

# The app loads the first *.pte of model_dir: a directory of its own per call.
model_dir="$device_dir/etbench-$$-$RANDOM"
results_file="files/benchmark_results.json"  # in the app's data directory (run-as)

cleanup() {
  timeout --kill-after=5 "$step_timeout" "$adb" shell "rm -rf $(quote "$model_dir")" >/dev/null 2>&1 || true
  rm -f -- "$etdump.adb-tmp" "$etdump.results-tmp"
}
trap cleanup EXIT

state=$(adb_step "checking the device" get-state)
state=${state//$'\r'/}
[[ $state == device ]] || die 3 "no usable device (adb get-state: '$state')"

adb_step "creating $model_dir on the device" shell "mkdir -p $(quote "$model_dir")" >/dev/null
adb_step "pushing the model" push "$model" "$model_dir/$(basename -- "$model")" >/dev/null
# Results and ETDump of an earlier run must not pass for this one's.
adb_step "removing old results" shell "run-as $package rm -f $results_file; rm -f $(quote "$device_etdump")" >/dev/null

# -S stops a running instance first; -W waits until the activity started
# (not until it finished: the results file says that).
adb_step "starting the benchmark app" shell "am start -W -S -n $package/$package.BenchmarkActivity" \
  "--es model_dir $(quote "$model_dir") --ei num_iter $num_iter --ei num_warm_up_iter $warmup" >/dev/null

# The app writes its results when done (the whole list at once, Gson), then
# finishes: wait for a JSON list.
results=""
for ((waited = 0; waited <= wait_s; waited++)); do
  results=$(adb_step "reading the app's results" shell "run-as $package cat $results_file 2>/dev/null")
  results=${results//$'\r'/}
  [[ $results == \[* ]] && break
  results=""
  ((waited < wait_s)) && sleep 1
done
[[ -n $results ]] || die 4 "the app wrote no $results_file in ${wait_s} s (did it crash? see adb logcat)"
printf '%s\n' "$results" >"$etdump.results-tmp"

# load_status is ExecuTorch's error code of Module.loadMethod (0 = loaded).
status=$(grep -o '"metric":"load_status","actualValue":[-0-9.eE+]*' <<<"$results" | head -n 1 || true)
status=${status##*:}
if [[ -n $status && $status != 0 && $status != 0.0 ]]; then
  mv -f -- "$etdump.results-tmp" "$etdump.benchmark_results.json"
  die 4 "the model did not load on the device (load_status $status)"
fi

# `adb shell` does not pass the remote status back on every Android version:
# the test prints a marker instead.
has_etdump=$(adb_step "looking for the ETDump" shell "[ -s $(quote "$device_etdump") ] && echo __ETBENCH_ETDUMP=1")
grep -q '__ETBENCH_ETDUMP=1' <<<"$has_etdump" ||
  die 4 "the app wrote no ETDump at $device_etdump (built without EXECUTORCH_ANDROID_PROFILING?)"
adb_step "pulling the ETDump" pull "$device_etdump" "$etdump.adb-tmp" >/dev/null
[[ -s $etdump.adb-tmp ]] || die 3 "pulling the ETDump gave an empty file"
mv -f -- "$etdump.results-tmp" "$etdump.benchmark_results.json"
mv -f -- "$etdump.adb-tmp" "$etdump"
