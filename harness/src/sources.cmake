# etbench::harness sources of the harness proper (config, runners,
# orchestration, results); included by harness/CMakeLists.txt.
list(APPEND ETBENCH_HARNESS_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ab_run.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ab_variant.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/artifact_file.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/command_template.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/config.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/config_yaml.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etdump_processing.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/host_info.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/interrupt.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/json_text.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/orchestrator.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process_posix.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/progress.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/results_check.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/results_json.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/results_merge.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/run_staging.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/runner.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/runner_builtin.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/runner_command.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/runner_gbench.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/summary.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/system.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/to_metrics.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/yaml_reader.cc
)
