# Statistics, comparison, thresholds, baselines and the gate
# (harness/src/compare). Appended to the etbench_harness library.
list(APPEND ETBENCH_HARNESS_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/ab_schedule.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/attribution.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/baseline_store.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/bootstrap.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/compare_guards.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/comparison.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/comparison_json.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/comparison_text.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/design_effect.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/fdr.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/mann_whitney.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/metric_set_json.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/metrics.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/paired_blocks.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/sequential.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/stats.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/structure_changes.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/thresholds.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/thresholds_yaml.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/compare/verdict.cc
)
