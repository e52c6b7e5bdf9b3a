# ETRecord: reader, writer, symbolication, module tree.
# Included by inspector/CMakeLists.txt.
list(APPEND ETBENCH_INSPECTOR_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/etrecord_reader.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/etrecord_writer.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/graph_metadata.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/json_access.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/libzip_loader.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/module_tree.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/operator_graph.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/symbolicate.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/src/etrecord/zip_archive.cc
)
