# Profiler analysis views (event tree, key averages) and the legacy
# prof_result.bin format (their renderers are in reports/). Included by
# inspector/CMakeLists.txt.
list(APPEND ETBENCH_INSPECTOR_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/src/analysis/event_tree.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/analysis/format_units.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/analysis/key_averages.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/analysis/legacy_convert.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/analysis/legacy_profile.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/analysis/legacy_tables.cc
)
