# ETBENCH_PYTHON: the `etbench` Python package (python/), ON when the
# system Python's development files and pybind11 are found.
#
# The system interpreter is preferred: Debian's python3-numpy, -pandas and
# -pytest belong to /usr/bin/python3, and version managers (pyenv, conda)
# that shadow it on PATH usually lack them. -DPython3_EXECUTABLE=… overrides.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
set(_etbench_python_default OFF)
if(Python3_Interpreter_FOUND AND Python3_Development.Module_FOUND)
  set(PYBIND11_FINDPYTHON ON)   # pybind11 uses the Python3 found above
  find_package(pybind11 2.6 CONFIG QUIET)
  if(pybind11_FOUND)
    set(_etbench_python_default ON)
  endif()
endif()
# Sanitizer builds leave it out: an instrumented module needs the ASan
# runtime preloaded into the uninstrumented interpreter (see .ci/run).
if(ETBENCH_SANITIZE)
  set(_etbench_python_default OFF)
endif()
option(ETBENCH_PYTHON "Build the etbench Python package (pybind11)" ${_etbench_python_default})
if(ETBENCH_PYTHON AND NOT (Python3_Development.Module_FOUND AND pybind11_FOUND))
  message(FATAL_ERROR "ETBENCH_PYTHON needs Python 3 development files and pybind11 "
                      "(Debian: python3-dev pybind11-dev)")
endif()
if(ETBENCH_PYTHON)
  message(STATUS "etbench Python package: ON (${Python3_EXECUTABLE}, pybind11 ${pybind11_VERSION})")
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
elseif(ETBENCH_SANITIZE)
  message(STATUS "etbench Python package: OFF (sanitizer build)")
else()
  message(STATUS "etbench Python package: OFF (needs python3-dev and pybind11-dev; "
                 "bash scripts/install-deps.sh installs them)")
endif()
