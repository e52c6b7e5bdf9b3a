#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the
# main job on the built-in default: every built-in model on the reference
# runtime (configs/default.yaml), gated against the committed baseline
# baselines/builtin-reference/default.json.
#
# Exit code: the gate's (0 pass, 1 regression, 2 error). Timings belong to a
# machine: on a machine other than the one that recorded the committed
# baseline the verdicts are shown as advice and the job exits 0
# (ETBENCH_OTHER_MACHINE=gate makes them count). Reports land in
# results/default/ (Markdown, JUnit and HTML beside the results file).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh >&2
build_dir=${BUILD_DIR:-build}
device=${ETBENCH_DEVICE:-builtin-reference}
exec "$build_dir/tools/etbench" gate configs/default.yaml --label "device=$device" \
  --other-machine "${ETBENCH_OTHER_MACHINE:-advisory}" \
  --report terminal \
  --report markdown=results/default/gate.md \
  --report junit=results/default/gate.junit.xml \
  --report html=results/default/gate.html
