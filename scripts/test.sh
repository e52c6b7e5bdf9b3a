#!/usr/bin/env bash
# The README's test command: install dependencies, build, run every test.
#
# Every part whose dependencies install-deps.sh installed must be built and
# tested: when the build has no Python suites (PythonTest.*) although the
# Python package was not turned off (-DETBENCH_PYTHON=OFF, or a sanitizer
# build), it stops with one line before running anything, rather than pass
# without them.
#
# Tests that measure real time (an injected slowdown must be found) are
# marked RUN_SERIAL in their CMakeLists.txt: ctest -j runs them alone.
#
# Exit codes: 0 every test passed; 2 a part that should be tested is
# missing; otherwise the failing step's code (ctest: 8 when a test failed).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
bash scripts/install-deps.sh
bash scripts/build.sh

# The request as configured (AUTO, ON or OFF) and whether it is a sanitizer build.
cache_value() {
  sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"
}
python_request=$(cache_value ETBENCH_PYTHON)
sanitize=$(cache_value ETBENCH_SANITIZE)
if [[ ! ${python_request^^} =~ ^(OFF|0|NO|FALSE|N)$ && ! ${sanitize^^} =~ ^(ON|1|YES|TRUE|Y)$ ]]; then
  # Listed first, then searched: grep -q would close the pipe early and,
  # under pipefail, ctest's SIGPIPE would read as "missing".
  python_tests=$(ctest --test-dir "$build_dir" -N -R '^PythonTest\.')
  if ! grep -q 'PythonTest\.' <<< "$python_tests"; then
    echo "test.sh: $build_dir has no Python suites (PythonTest.*): the etbench Python package" \
      "was not built although its dependencies were installed (see 'etbench Python package'" \
      "in: cmake -S . -B $build_dir)" >&2
    exit 2
  fi
fi
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" --timeout 300
