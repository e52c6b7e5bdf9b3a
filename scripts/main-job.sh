#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the
# main job on the built-in default: every built-in model on the reference
# runtime (configs/default.yaml), gated against this machine's own history.
#
# The baseline is this machine's own history (results/history.db, or
# ETBENCH_HISTORY: an SQLite file or postgresql://…): the first run on a
# fresh machine records it there (5 runs: the run's summary and reports,
# "history too short", exit 0); later runs judge the night
# against the runs of this suite on this device and host since the last
# change point (etbench gate --baseline history, docs/history.md) and are
# added to it. Exit code: the gate's (0 pass, 1 regression, 2 error).
# Reports land in results/default/ (Markdown, JUnit and HTML beside the
# results file).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --main-job
ETBENCH_BUILD_TARGETS=etbench bash scripts/build.sh >&2
build_dir=${BUILD_DIR:-build}
device=${ETBENCH_DEVICE:-builtin-reference}
exec "$build_dir/tools/etbench" gate configs/default.yaml --label "device=$device" \
  --baseline history --history "${ETBENCH_HISTORY:-results/history.db}" \
  --report terminal \
  --report markdown=results/default/gate.md \
  --report junit=results/default/gate.junit.xml \
  --report html=results/default/gate.html
