# ETBENCH_PYTHON: the `etbench` Python package (python/).
#
#   AUTO (default)  built when the system Python's development files and
#                   pybind11 are found, looked for again at every configure
#   ON              required: configuring fails without them
#   OFF             never built
#
# AUTO is decided afresh at every configure, never cached as OFF: the README's
# main job configures build/ before the test command installs python3-dev and
# pybind11-dev, and the test command's configure must then find them
# (issue 33). Within a configure, ETBENCH_PYTHON is then the normal variable
# ON or OFF (it shadows the cache entry), so `if(ETBENCH_PYTHON)` elsewhere
# reads the decision; the cache keeps the request.
#
# The system interpreter is preferred: Debian's python3-numpy, -pandas and
# -pytest belong to /usr/bin/python3, and version managers (pyenv, conda)
# that shadow it on PATH usually lack them. -DPython3_EXECUTABLE=… overrides.

set(_etbench_python_help "Build the etbench Python package (pybind11): AUTO, ON or OFF")
# A build directory configured before AUTO existed holds the old option's
# BOOL, which may be a negative detection of the first configure: detect again.
get_property(_etbench_python_old_help CACHE ETBENCH_PYTHON PROPERTY HELPSTRING)
if(_etbench_python_old_help STREQUAL "Build the etbench Python package (pybind11)")
  set(ETBENCH_PYTHON AUTO CACHE STRING "${_etbench_python_help}" FORCE)
endif()
set(ETBENCH_PYTHON AUTO CACHE STRING "${_etbench_python_help}")
set_property(CACHE ETBENCH_PYTHON PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${ETBENCH_PYTHON}" _etbench_python_request)
if(_etbench_python_request MATCHES "^(1|YES|TRUE|Y)$")
  set(_etbench_python_request ON)
elseif(_etbench_python_request MATCHES "^(0|NO|FALSE|N)$")
  set(_etbench_python_request OFF)
endif()
if(NOT _etbench_python_request MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "ETBENCH_PYTHON is '${ETBENCH_PYTHON}'; expected AUTO, ON or OFF")
endif()
# Sanitizer builds leave it out unless asked for: an instrumented module
# needs the ASan runtime preloaded into the uninstrumented interpreter
# (see .ci/run).
if(_etbench_python_request STREQUAL "AUTO" AND ETBENCH_SANITIZE)
  set(_etbench_python_request OFF)
  set(_etbench_python_why "sanitizer build")
endif()

set(_etbench_python_found FALSE)
if(NOT _etbench_python_request STREQUAL "OFF")
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  # find_package searches again while its results are NOTFOUND (pybind11_DIR,
  # the Python3 artifacts), so packages installed since the last configure
  # are found here.
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(Python3_Interpreter_FOUND AND Python3_Development.Module_FOUND)
    set(PYBIND11_FINDPYTHON ON)   # pybind11 uses the Python3 found above
    find_package(pybind11 2.6 CONFIG QUIET)
    if(pybind11_FOUND)
      set(_etbench_python_found TRUE)
    endif()
  endif()
  set(_etbench_python_why "needs python3-dev and pybind11-dev; bash scripts/install-deps.sh installs them")
endif()
if(_etbench_python_request STREQUAL "ON" AND NOT _etbench_python_found)
  message(FATAL_ERROR "ETBENCH_PYTHON=ON needs Python 3 development files and pybind11 "
                      "(Debian: python3-dev pybind11-dev)")
endif()

if(_etbench_python_found)
  set(ETBENCH_PYTHON ON)
  message(STATUS "etbench Python package: ON (${Python3_EXECUTABLE}, pybind11 ${pybind11_VERSION})")
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
else()
  set(ETBENCH_PYTHON OFF)
  if(_etbench_python_request STREQUAL "OFF" AND NOT _etbench_python_why)
    set(_etbench_python_why "ETBENCH_PYTHON=OFF")
  endif()
  message(STATUS "etbench Python package: OFF (${_etbench_python_why})")
endif()
