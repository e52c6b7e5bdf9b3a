#!/usr/bin/env bash
# Prints the default suite's four models with their repetitions spread over
# the session instead of run back to back: REPETITIONS rounds, each running
# every model once (entries <model>_r<k>, repetitions: 1), so each model's
# repetitions span the whole session. The same work as default_suite with
# REPETITIONS repetitions; placement_spread.sh pools a model's entries.
#   interleave_suite.sh MODELS_DIR REPETITIONS > suite.yaml
set -euo pipefail
models_dir=$1; reps=$2
cat <<YAML
suite: default_interleaved
runner: builtin
time_source: ns
unit: ms
warmup: 3
iterations: 10
repetitions: 1
models:
YAML
for k in $(seq 0 $(( reps - 1 ))); do
  for m in toy_cnn mlp mobilenet_v2_block transformer_block; do
    echo "  - {name: ${m}_r$k, path: $models_dir/$m.yaml}"
  done
done
