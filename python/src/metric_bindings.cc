#include "metric_bindings.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>

#include "etbench/compare/baseline_store.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/comparison_json.h"
#include "etbench/compare/metric_set_json.h"
#include "etbench/harness/workflows.h"
#include "etbench/reports/row_reason.h"
#include "etbench/reports/warning_text.h"
#include "etbench/results/input_files.h"
#include "py_errors.h"

namespace etbench::python {

namespace py = pybind11;

namespace {

using MetricSetPtr = std::shared_ptr<MetricSet>;

// A read-only float64 array over `values`, kept alive by `owner`.
py::array SamplesView(const std::vector<double>& values, const py::object& owner) {
  py::array_t<double> array({static_cast<py::ssize_t>(values.size())}, {sizeof(double)},
                            values.data(), owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(array);
}

py::list MetricDicts(const py::object& self) {
  const MetricSet& set = *self.cast<MetricSetPtr>();
  py::list out;
  for (const Metric& metric : set.metrics) {
    py::dict d;
    d["model"] = metric.key.model;
    d["block"] = metric.key.block;
    d["kind"] = MetricKindName(metric.key.kind);
    d["name"] = metric.key.name;
    d["instruction_id"] =
        metric.key.instruction_id ? py::object(py::int_(*metric.key.instruction_id)) : py::none();
    d["delegate_id"] = metric.key.delegate_id;
    d["occurrence"] = metric.key.occurrence;
    d["label"] = MetricLabel(metric.key);
    d["unit"] = metric.unit;
    d["samples"] = SamplesView(metric.samples, self);
    d["group_sizes"] = metric.group_sizes;
    d["session_sizes"] = metric.session_sizes;
    d["end_to_end"] = metric.end_to_end;
    d["op_types"] = metric.op_types;
    d["module_paths"] = metric.module_paths;
    d["delegate_backend_name"] = metric.delegate_backend_name
                                     ? py::object(py::str(*metric.delegate_backend_name))
                                     : py::none();
    out.append(d);
  }
  return out;
}

MetricSetPtr LoadMetricSet(const std::string& path) {
  const std::string checked = CheckedPath(path, "path");
  Result<MetricSet> loaded = [&] {
    py::gil_scoped_release release;
    return results::LoadMetricSetFile(checked);
  }();
  return std::make_shared<MetricSet>(Unwrap(std::move(loaded)));
}

py::tuple LoadBaselineFile(const std::string& path) {
  const std::string checked = CheckedPath(path, "path");
  Result<Baseline> loaded = [&] {
    py::gil_scoped_release release;
    return LoadBaseline(checked);
  }();
  Baseline baseline = Unwrap(std::move(loaded));
  return py::make_tuple(baseline.name, baseline.created,
                        std::make_shared<MetricSet>(std::move(baseline.metrics)));
}

// (the comparison's JSON document, MetricLabel of each of its rows).
py::tuple CompareJson(const MetricSetPtr& baseline, const MetricSetPtr& candidate,
                      const std::string& thresholds_path, uint64_t seed) {
  const std::string thresholds_file = CheckedPath(thresholds_path, "thresholds");
  std::vector<std::string> labels;
  Result<std::string> json = [&]() -> Result<std::string> {
    py::gil_scoped_release release;
    auto thresholds = harness::LoadThresholdsOrDefault(thresholds_file);
    if (!thresholds.ok()) return thresholds.error();
    CompareOptions options;
    options.seed = seed;
    auto comparison = Compare(*baseline, *candidate, thresholds.value(), options);
    if (!comparison.ok()) return comparison.error();
    for (const MetricComparison& row : comparison->rows) labels.push_back(row.label);
    return ComparisonToJson(comparison.value(), reports::RowReason, reports::WarningText, -1);
  }();
  std::string text = Unwrap(std::move(json));
  return py::make_tuple(text, labels);
}

}  // namespace

void BindMetrics(py::module_& m) {
  py::class_<MetricSet, MetricSetPtr>(m, "MetricSet")
      .def_property_readonly("context", [](const MetricSet& s) { return s.context; })
      .def("metrics", [](const py::object& self) { return MetricDicts(self); })
      .def("__len__", [](const MetricSet& s) { return s.metrics.size(); });
  m.def("load_metric_set", &LoadMetricSet, py::arg("path"),
        "A results or baseline file as a MetricSet.");
  m.def("load_baseline", &LoadBaselineFile, py::arg("path"),
        "A baseline file: (name, created, MetricSet).");
  m.def("compare_json", &CompareJson, py::arg("baseline"), py::arg("candidate"),
        py::arg("thresholds_path") = "", py::arg("seed") = 0,
        "etbench compare's comparison: (JSON document (docs/comparison.md), row labels).");
}

}  // namespace etbench::python
