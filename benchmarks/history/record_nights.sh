#!/usr/bin/env bash
# Records real "nights" of the default suite for the nightly-gate evaluation,
# one session (one fresh `etbench run` process) per variant and night: base,
# conv2d x1.05 and conv2d x1.10 (et_runner's slowdown injection on toy_cnn and
# mobilenet) on every night, in a rotating order. Only results.json of each
# run is kept. It is record_sessions.sh with SESSIONS=1 (the single-session
# histories q*, s*, v* in nights/ were recorded this way).
#   record_nights.sh OUT HISTORY NIGHTS CONDITION [CPU]
# CONDITION: quiet | stress60 | shiftvm (see record_sessions.sh)
set -euo pipefail
SESSIONS=1 SLOW_NIGHTS=${SLOW_NIGHTS:-1-9999} \
  exec bash "$(dirname "${BASH_SOURCE[0]}")/record_sessions.sh" "$@"
