#!/usr/bin/env bash
# Configures and builds etbench into ${BUILD_DIR:-build}.
# Under CI=true, warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
werror=OFF
build_type=${ETBENCH_BUILD_TYPE:-RelWithDebInfo}
# RelWithDebInfo with line tables only (-g1): perf and backtraces still name
# functions and lines, and the compiler spends a third less time than with
# full debug information (-g); the machine code is the same. For a
# debugger's view of locals, configure the build directory yourself:
#   cmake -S . -B build -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g -DNDEBUG"
type_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
if [ "${CI:-}" = "true" ]; then
  werror=ON
  # CI compiles everything once on 2 cores: -O1 without debug info halves
  # the compile time; the tests do not need more (benchmarks are measured
  # from a normal build).
  build_type=${ETBENCH_BUILD_TYPE:-Release}
  type_flags=(-DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG")
fi
launcher=()
# A compiler cache, when the machine has one, makes rebuilds (and CI on a
# machine that built before) much faster; nothing depends on it.
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE="$build_type" \
    "${type_flags[@]}" "${launcher[@]}" -DETBENCH_WERROR=$werror ${ETBENCH_CMAKE_ARGS:-}
else
  cmake -S . -B "$build_dir" -DETBENCH_WERROR=$werror >/dev/null
fi
# ETBENCH_BUILD_TARGETS: only these targets (the main job needs only etbench).
cmake --build "$build_dir" -j "$(nproc)" ${ETBENCH_BUILD_TARGETS:+--target $ETBENCH_BUILD_TARGETS}
