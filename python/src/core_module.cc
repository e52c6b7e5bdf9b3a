// etbench._core: the C++ side of the `etbench` Python package. Every entry
// point returns Python objects or raises ValueError/OSError with etbench's
// one-line message; other C++ exceptions become Python exceptions through
// pybind11's translators (never a crash of the interpreter).
#include <pybind11/pybind11.h>

#include "history_bindings.h"
#include "inspection.h"
#include "metric_bindings.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "etbench's C++ core (use the `etbench` package, not this module)";
  etbench::python::BindInspection(m);
  etbench::python::BindMetrics(m);
  etbench::python::BindHistory(m);
}
