#!/usr/bin/env bash
# Configures and builds etbench into ${BUILD_DIR:-build}.
# Under CI=true, warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
werror=OFF
if [ "${CI:-}" = "true" ]; then werror=ON; fi
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DETBENCH_WERROR=$werror ${ETBENCH_CMAKE_ARGS:-}
else
  cmake -S . -B "$build_dir" -DETBENCH_WERROR=$werror >/dev/null
fi
cmake --build "$build_dir" -j "$(nproc)"
