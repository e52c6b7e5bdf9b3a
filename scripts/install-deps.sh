#!/usr/bin/env bash
# Installs etbench's build and test dependencies from Debian packages.
# Idempotent: does nothing (and needs no network) when all are present.
#
#   bash scripts/install-deps.sh             # everything: build, tests, Python package
#   bash scripts/install-deps.sh --main-job  # what the main job needs (no Python package)
set -euo pipefail
main_job=false
if [ "${1:-}" = "--main-job" ]; then main_job=true; fi

packages=(
  g++ cmake ninja-build pkg-config
  flatbuffers-compiler libflatbuffers-dev   # ETDump schema + reader/writer
  libyaml-cpp-dev                           # suites, models, thresholds
  libboost-program-options-dev              # command line
  nlohmann-json3-dev                        # results, ETRecord JSON, reports
  libzip-dev                                # ETRecord archives
  libgtest-dev libgmock-dev                 # tests
  libbenchmark-dev                          # benchmarks/ and the gbench runner
  libsqlite3-dev                            # history: the default database
  libpq-dev postgresql                      # history: PostgreSQL client; a real server for its tests
  chromium fonts-dejavu-core                # HTML report test: headless render, screenshot, DOM
)
# The Python package (python/, ETBENCH_PYTHON) and its pytest tests; the
# main job builds only the etbench program and does without them.
python_packages=(
  pybind11-dev python3-dev                  # the extension module etbench._core
  python3-numpy python3-pandas              # arrays and DataFrames of the API
  python3-pytest                            # its tests (run by ctest)
)
if [ "$main_job" = false ]; then packages+=("${python_packages[@]}"); fi

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
