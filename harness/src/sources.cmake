# etbench::harness sources of the harness proper (config, runners,
# orchestration, workflows); included by harness/CMakeLists.txt.
list(APPEND ETBENCH_HARNESS_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ab_layout.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ab_run.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/ab_variant.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/command_template.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/config.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/config_yaml.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etdump_processing.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/host_info.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/interrupt.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/orchestrator.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/output_dir.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/process_posix.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/progress.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/run_metadata_reader.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/run_staging.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/runner.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/runner_command.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/runner_gbench.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/suite_names.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/system.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/time_sizing.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/workflows/ab.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/workflows/baseline.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/workflows/gate.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/workflows/metric_files.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/workflows/run.cc
)
# The built-in runner exists only with the reference runtime.
if(TARGET etbench::runtime)
  list(APPEND ETBENCH_HARNESS_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/runner_builtin.cc)
endif()
