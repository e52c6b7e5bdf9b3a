# etbench::compare sources: the input model (MetricSet) and its JSON,
# statistics, thresholds, verdicts, attribution, structure changes, guards,
# baseline files and the comparison JSON (written and read back).
set(ETBENCH_COMPARE_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ab_schedule.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/attribution.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/baseline_store.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/cluster_units.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare_guards.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/comparison.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/comparison_json.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/comparison_json_reader.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/design_effect.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/interval_verdict.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/machine_level.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metric_set_json.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/night_gate.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/night_values.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/operator_call_wrappers.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/run_context.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ab_sequence.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sequential.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/sequential_fast_look.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/structure_changes.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/thresholds.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/thresholds_yaml.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/verdict.cc
)
