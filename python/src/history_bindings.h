#pragma once
// class _core.History: a results history (SQLite file or PostgreSQL URI)
// read from Python: its runs and the per-run statistics of its metrics.

#include <pybind11/pybind11.h>

namespace etbench::python {

/// Binds History (open, runs, series).
void BindHistory(pybind11::module_& m);

}  // namespace etbench::python
