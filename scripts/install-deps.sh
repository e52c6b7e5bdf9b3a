#!/usr/bin/env bash
# Installs etbench's build and test dependencies from Debian packages.
# Idempotent: does nothing (and needs no network) when all are present.
#
#   bash scripts/install-deps.sh             # everything: build, tests, Python package
#   bash scripts/install-deps.sh --main-job  # what the main job needs: building etbench
#                                            # and gating into SQLite (no test-only
#                                            # packages, no Python package)
#
# Exit codes: 0 everything present (or installed), 2 usage error; apt-get's
# own code when an install fails.
set -euo pipefail
main_job=false
case "${1:-}" in
  "") ;;
  --main-job) main_job=true ;;
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "install-deps: unknown argument '$1' (expected --main-job or --help)" >&2; exit 2 ;;
esac
if [ $# -gt 1 ]; then echo "install-deps: one argument at most, got $#" >&2; exit 2; fi

# Configuring build/ and building etbench (the main job builds only that
# target, but CMake configures the tests and benchmarks too, so their
# libraries are needed).
packages=(
  g++ cmake ninja-build pkg-config
  flatbuffers-compiler libflatbuffers-dev   # ETDump schema + reader/writer
  libyaml-cpp-dev                           # suites, models, thresholds
  libboost-program-options-dev              # command line
  nlohmann-json3-dev                        # results, ETRecord JSON, reports
  libzip-dev                                # ETRecord archives
  libgtest-dev libgmock-dev                 # tests (configured with the build)
  libbenchmark-dev                          # benchmarks/ (configured with the build)
  libsqlite3-dev                            # history: the default database
  libpq-dev                                 # history: PostgreSQL client
)
# What only the tests use: the main job runs none of it.
test_packages=(
  postgresql                                # a real server for the history's PostgreSQL tests
  chromium fonts-dejavu-core                # HTML report test: headless render, screenshot, DOM
  zsh groff-base                            # completion and man page tests: zsh -n, groff -man -ww
)
# The Python package (python/, ETBENCH_PYTHON) and its pytest tests; the
# main job builds only the etbench program and does without them. A build
# directory configured before they were installed finds them at its next
# configure (cmake/EtbenchPythonDetect.cmake).
python_packages=(
  pybind11-dev python3-dev                  # the extension module etbench._core
  python3-numpy python3-pandas              # arrays and DataFrames of the API
  python3-pytest                            # its tests (run by ctest)
)
if [ "$main_job" = false ]; then packages+=("${test_packages[@]}" "${python_packages[@]}"); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
