#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the
# main job on the built-in default.
#
# Today the main job runs every built-in model on the reference runtime
# (et_runner) and inspects its ETDump; once `etbench gate` lands it becomes
# `etbench gate configs/default.yaml` against the committed baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >&2
build_dir=${BUILD_DIR:-build}
etbench="$build_dir/tools/etbench"
runner="$build_dir/tools/et_runner/et_runner"
out_dir=${ETBENCH_OUT:-out/main-job}
mkdir -p "$out_dir"

if [ -x "$runner" ] && compgen -G "configs/models/*.yaml" >/dev/null; then
  for model in configs/models/*.yaml; do
    name=$(basename "$model" .yaml)
    echo "== $name" >&2
    "$runner" --model_path "$model" --num_executions "${ETBENCH_EXECUTIONS:-20}" \
      --etdump_path "$out_dir/$name.etdp" >&2
    "$etbench" inspect --etdump_path "$out_dir/$name.etdp" --target_time_scale us
  done
else
  echo "== reference runtime not built; inspecting the tutorial ETDump" >&2
  "$etbench" inspect --etdump_path tests/fixtures/executorch_tutorial.etdp
fi
