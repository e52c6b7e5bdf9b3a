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
