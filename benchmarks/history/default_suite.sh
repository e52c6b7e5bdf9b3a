# Sourced by the history recorders (real_history.sh, new_user_history.sh,
# record_nights.sh, record_sessions.sh): the default suite's four models
# (configs/default.yaml) as a suite file with slowdowns injected, so every
# recording runs the same suite.
#   default_suite MODELS_DIR REPETITIONS TOY_CNN_SLOWDOWN [MOBILENET_SLOWDOWN]
# A slowdown is et_runner's list syntax ("conv2d=1.05"; "" = none).
default_suite() {
  cat <<YAML
suite: default
runner: builtin
time_source: ns
unit: ms
warmup: 3
iterations: 10
repetitions: $2
models:
  - {name: toy_cnn, path: $1/toy_cnn.yaml, slowdown: [$3]}
  - {name: mlp, path: $1/mlp.yaml}
  - {name: mobilenet_v2_block, path: $1/mobilenet_v2_block.yaml, slowdown: [${4:-}]}
  - {name: transformer_block, path: $1/transformer_block.yaml}
YAML
}
