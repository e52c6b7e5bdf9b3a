#pragma once
// Results, baselines and comparisons for Python: class _core.MetricSet
// (samples as numpy arrays viewing the C++ vectors, no copies), load
// functions and compare.

#include <pybind11/pybind11.h>

namespace etbench::python {

/// Binds MetricSet, load_metric_set, load_baseline and compare_json.
void BindMetrics(pybind11::module_& m);

}  // namespace etbench::python
