#!/usr/bin/env bash
# Two builds of ExecuTorch's own executor_runner that differ in one kernel,
# for `etbench ab` measurements (docs/comparison.md, "Two builds of
# ExecuTorch's executor_runner"):
#   $OUT/base/executor_runner       upstream, as ../shared/executorch/bin
#   $OUT/base_copy/executor_runner  the same file under another path (A/A of
#                                   "two builds" as a user would run it)
#   $OUT/slow_add/executor_runner   aten::add.out computes its output
#                                   $REPEATS times (same values, real work)
# Both come from one source tree and one build directory (the shared recipe,
# ../shared/executorch/build/build.sh, with TOP=$TOP): the slow build is the
# base build with op_add.cpp patched and executor_runner relinked, so the two
# binaries differ only in that kernel. Upstream code and binaries are never
# committed; the patch below is the whole difference.
#
# Usage: MIRRORS=/work/.mirror bash benchmarks/compare/build_executorch_pair.sh
#   env: TOP (default /tmp/et-ab), OUT (default $TOP/pair), REPEATS (default 10),
#        JOBS (default 2), ET_BUILD_SH (default ../shared/executorch/build/build.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
TOP=${TOP:-/tmp/et-ab}
OUT=${OUT:-$TOP/pair}
REPEATS=${REPEATS:-10}
ET_BUILD_SH=${ET_BUILD_SH:-$repo/../shared/executorch/build/build.sh}
export TOP JOBS=${JOBS:-2}
: "${MIRRORS:?set MIRRORS to the folder that holds the fetched mirrors (see ../shared/executorch/README.md)}"
export MIRRORS
# A compiler cache, when present, makes the second build (and re-runs) cheap.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi

src=$TOP/src/executorch/kernels/portable/cpu/op_add.cpp
marker="etbench: known slowdown"

restore() {  # the upstream op_add.cpp, so that build.sh builds the base
  if [ -f "$src" ] && grep -q "$marker" "$src"; then cp "$src.orig" "$src"; fi
}
restore
nice -n 19 bash "$ET_BUILD_SH"
mkdir -p "$OUT/base" "$OUT/base_copy" "$OUT/slow_add"
cp -f "$TOP/bin/executor_runner" "$OUT/base/executor_runner"
cp -f "$TOP/bin/executor_runner" "$OUT/base_copy/executor_runner"

# The patch: add.out's elementwise loop runs REPEATS times (the output is
# written with the same values each time; skipped when the output aliases
# an input, where a repeat would change it).
cp "$src" "$src.orig"
python3 - "$src" "$REPEATS" "$marker" <<'PY'
import sys
path, repeats, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(path).read()
call = "      utils::apply_bitensor_elementwise_fn<\n"
assert text.count(call) == 1, "op_add.cpp changed upstream: patch needs updating"
loop = (f"      // {marker} (etbench benchmarks/compare/build_executorch_pair.sh)\n"
        "      const bool etbench_aliased = out.const_data_ptr() == a.const_data_ptr() ||\n"
        "                                   out.const_data_ptr() == b.const_data_ptr();\n"
        f"      for (int etbench_rep = 0; etbench_rep < (etbench_aliased ? 1 : {repeats}); ++etbench_rep)\n")
open(path, "w").write(text.replace(call, loop + call))
PY
nice -n 19 cmake --build "$TOP/build" -j"$JOBS" --target executor_runner
cp -f "$TOP/build/executor_runner" "$OUT/slow_add/executor_runner"
restore
echo "built $OUT/base/executor_runner and $OUT/slow_add/executor_runner (add.out x$REPEATS)"
