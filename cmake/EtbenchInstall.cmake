# Installation: `cmake --install BUILD [--prefix P]` puts the executables,
# the libraries with their public headers, the data (suites, model YAMLs,
# thresholds) and a CMake package into the prefix:
#   find_package(etbench) → etbench::inspector, etbench::harness, …
# CPack (cmake/EtbenchPackage.cmake) turns the same rules into a .deb.
#
# Adding a library is one line: its target in ETBENCH_INSTALL_LIBRARIES
# (etbench_NAME, exported as etbench::NAME). Its public include
# directories are installed as they are (every header under them).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# In dependency order; targets that a configuration does not build (the
# runtime with ETBENCH_BUILD_RUNTIME=OFF) are skipped.
set(ETBENCH_INSTALL_LIBRARIES
  etbench_base
  etbench_inspector
  etbench_stats
  etbench_compare
  etbench_results
  etbench_runner_protocol
  etbench_runtime
  etbench_harness
  etbench_history
  etbench_reports
  etbench_cli
)
set(ETBENCH_INSTALL_PROGRAMS etbench et_runner)

set(ETBENCH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/etbench)
set(ETBENCH_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/etbench)

# Libraries link etbench_warnings privately; a static library still names it
# in its link interface, so it is exported too (it carries no usage
# requirements a consumer sees).
set(_etbench_export_targets etbench_warnings)
foreach(target IN LISTS ETBENCH_INSTALL_LIBRARIES)
  if(NOT TARGET ${target})
    continue()
  endif()
  list(APPEND _etbench_export_targets ${target})
  string(REGEX REPLACE "^etbench_" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  # Public include directories: installed as they are, and seen by
  # consumers under <prefix>/include.
  get_target_property(include_dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  set(interface_dirs)
  foreach(dir IN LISTS include_dirs)
    if(dir MATCHES "^\\$<")  # already build/install specific
      list(APPEND interface_dirs "${dir}")
      continue()
    endif()
    install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
      COMPONENT development FILES_MATCHING PATTERN "*.h")
    list(APPEND interface_dirs "$<BUILD_INTERFACE:${dir}>")
  endforeach()
  list(APPEND interface_dirs "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${interface_dirs}")
endforeach()
set_target_properties(etbench_warnings PROPERTIES EXPORT_NAME warnings)

install(TARGETS ${_etbench_export_targets} EXPORT etbenchTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(program IN LISTS ETBENCH_INSTALL_PROGRAMS)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
  endif()
endforeach()

# Data: the suites, thresholds and the models (built-in YAML models and
# ExecuTorch's .pte / .bpte programs the executorch suite runs).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${ETBENCH_INSTALL_DATADIR}/configs
  COMPONENT runtime FILES_MATCHING PATTERN "*.yaml" PATTERN "*.md" PATTERN "*.pte"
  PATTERN "*.bpte")

# Installed suites run from the installed prefix: paths that the checked-in
# suites give relative to the repository root (the build tree's et_runner,
# the models under configs/) become the installed files' absolute paths in
# the installed copies. The prefix is the one the install runs with
# (`cmake --install --prefix P`; /usr for the .deb, whose staging directory
# is DESTDIR and so never written into a file).
set(_etbench_suite_paths
  "et_runner_command.yaml|build/tools/et_runner/et_runner|${CMAKE_INSTALL_BINDIR}/et_runner"
  "executorch.yaml|configs/models/executorch/|${ETBENCH_INSTALL_DATADIR}/configs/models/executorch/")
install(CODE "
  foreach(rule IN ITEMS ${_etbench_suite_paths})
    string(REPLACE \"|\" \";\" rule \"\${rule}\")
    list(GET rule 0 file)
    list(GET rule 1 from)
    list(GET rule 2 to)
    set(prefix \"\${CMAKE_INSTALL_PREFIX}\")
    if(NOT IS_ABSOLUTE \"\${to}\")
      set(to \"\${prefix}/\${to}\")
    endif()
    set(path \"\$ENV{DESTDIR}\${prefix}/${ETBENCH_INSTALL_DATADIR}/configs/\${file}\")
    file(READ \"\${path}\" text)
    string(REPLACE \"\${from}\" \"\${to}\" text \"\${text}\")
    file(WRITE \"\${path}\" \"\${text}\")
  endforeach()
" COMPONENT runtime)

install(EXPORT etbenchTargets NAMESPACE etbench:: DESTINATION ${ETBENCH_INSTALL_CMAKEDIR}
  COMPONENT development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/etbenchConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/etbenchConfig.cmake
  INSTALL_DESTINATION ${ETBENCH_INSTALL_CMAKEDIR}
  PATH_VARS ETBENCH_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/etbenchConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/etbenchConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/etbenchConfigVersion.cmake
  DESTINATION ${ETBENCH_INSTALL_CMAKEDIR} COMPONENT development)

# Man pages and shell completion (cli): generated at build time by the built
# etbench from its own option tables, so every command and flag is in them
# (`etbench man`, `etbench completion`); installed into share/man/man1,
# bash-completion's and zsh's vendor directories (and so into the .deb).
if(TARGET etbench AND NOT CMAKE_CROSSCOMPILING)
  set(_etbench_docs_dir ${PROJECT_BINARY_DIR}/shell-docs)
  add_custom_command(
    OUTPUT ${_etbench_docs_dir}/man1/etbench.1 ${_etbench_docs_dir}/etbench.bash
           ${_etbench_docs_dir}/_etbench
    COMMAND etbench man --output-dir ${_etbench_docs_dir}/man1
    COMMAND etbench completion bash --output ${_etbench_docs_dir}/etbench.bash
    COMMAND etbench completion zsh --output ${_etbench_docs_dir}/_etbench
    DEPENDS etbench
    COMMENT "Generating etbench's man pages and shell completion"
    VERBATIM)
  add_custom_target(etbench_shell_docs ALL
    DEPENDS ${_etbench_docs_dir}/man1/etbench.1 ${_etbench_docs_dir}/etbench.bash
            ${_etbench_docs_dir}/_etbench)
  # OPTIONAL: a build of only some targets (the main job's) has none.
  install(DIRECTORY ${_etbench_docs_dir}/man1 DESTINATION ${CMAKE_INSTALL_MANDIR}
    COMPONENT runtime OPTIONAL)
  install(FILES ${_etbench_docs_dir}/etbench.bash
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME etbench
    COMPONENT runtime OPTIONAL)
  install(FILES ${_etbench_docs_dir}/_etbench
    DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions COMPONENT runtime OPTIONAL)
endif()
