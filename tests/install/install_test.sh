#!/usr/bin/env bash
# install_test.sh BUILD_DIR CONSUMER_DIR ETDUMP: `cmake --install` into a
# temporary prefix, checks what is there, and builds and runs the consumer
# project against find_package(etbench).
set -euo pipefail
build=$1 consumer=$2 etdump=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/etbench-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log"
fail() { echo "install_test: $*" >&2; exit 1; }
for f in bin/etbench include/etbench/inspector/inspector.h include/etbench/harness/workflows.h include/etbench/runner_protocol/run_metadata.h \
         include/etbench/results/results.h include/etbench/base/environment.h \
         include/etbench/cli/etbench_cli.h include/etbench/inspector/etdump_generated.h \
         lib/cmake/etbench/etbenchConfig.cmake lib/cmake/etbench/etbenchTargets.cmake \
         share/etbench/configs/default.yaml share/etbench/configs/models/toy_cnn.yaml; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
if [ -e "$build/tools/et_runner/et_runner" ]; then
  [ -x "$prefix/bin/et_runner" ] || fail "bin/et_runner was not installed"
fi
"$prefix/bin/etbench" --version | grep -q '^etbench ' || fail "installed etbench --version failed"

# Installed suites run from the installed prefix, from any directory: the
# command suite calls the installed et_runner, the executorch suite names
# the installed models.
suites=$prefix/share/etbench/configs
grep -q "argv: \[$prefix/bin/et_runner," "$suites/et_runner_command.yaml" ||
  fail "installed et_runner_command.yaml does not call $prefix/bin/et_runner"
for model in add.pte bundled_program.bpte; do
  grep -q -- "- $suites/models/executorch/$model" "$suites/executorch.yaml" ||
    fail "installed executorch.yaml does not name $suites/models/executorch/$model"
  [ -e "$suites/models/executorch/$model" ] || fail "models/executorch/$model was not installed"
done
if [ -x "$prefix/bin/et_runner" ]; then
  mkdir "$tmp/elsewhere"
  # Its output_dir, results/{suite}, is relative to where etbench runs.
  (cd "$tmp/elsewhere" && "$prefix/bin/etbench" run "$suites/et_runner_command.yaml" \
     --model toy_cnn --warmup 1 --iterations 2 --repetitions 1 --quiet) > "$tmp/run.log" 2>&1 ||
    { cat "$tmp/run.log"; fail "installed et_runner_command.yaml did not run"; }
  [ -s "$tmp/elsewhere/results/et_runner_command/results.json" ] ||
    fail "the installed suite wrote no results.json"
fi

generator=()
if command -v ninja > /dev/null 2>&1; then generator=(-G Ninja); fi
cmake -S "$consumer" -B "$tmp/consumer" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure failed"; }
cmake --build "$tmp/consumer" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build failed"; }
out=$("$tmp/consumer/consumer" "$etdump")
echo "$out"
echo "$out" | grep -q '^blocks: [1-9]' || fail "consumer output: $out"
echo "$out" | grep -q "^data: $prefix/share/etbench" || fail "consumer output: $out"
echo "$out" | grep -q '^cli: etbench ' || fail "consumer output: $out"
echo "$out" | grep -q '^results schema: 1$' || fail "consumer output: $out"
