#include "history_bindings.h"

#include <pybind11/stl.h>

#include <memory>

#include "etbench/history/history_store.h"
#include "etbench/history/run_record.h"
#include "py_errors.h"

namespace etbench::python {

namespace py = pybind11;

namespace {

using Store = std::shared_ptr<history::HistoryStore>;

history::RunFilter Filter(const std::string& suite, const std::string& device,
                          const std::string& host, const std::string& since, std::size_t last) {
  history::RunFilter f;
  f.suite = suite;
  f.device = device;
  f.host = host;
  // A since that is no date compared as text and selected some runs or
  // none, silently: a typo read as "no runs since".
  if (!since.empty() && !history::IsIsoTime(since)) {
    throw py::value_error("since: '" + since +
                          "' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, UTC)");
  }
  f.since = since;
  f.last = last;
  return f;
}

Store Open(const std::string& spec) {
  const std::string checked = CheckedPath(spec, "spec");
  Result<std::unique_ptr<history::HistoryStore>> opened = [&] {
    py::gil_scoped_release release;
    return history::OpenHistory(checked);
  }();
  return Store(Unwrap(std::move(opened)));
}

py::dict RunDict(const history::RunSummary& r) {
  py::dict d;
  d["id"] = r.id;
  d["run_id"] = r.run_id;
  d["suite"] = r.suite;
  d["device"] = r.device;
  d["host"] = r.host;
  d["git_commit"] = r.git_commit;
  d["branch"] = r.branch;
  d["time"] = r.time;
  d["status"] = r.status;
  d["source"] = r.source;
  d["labels"] = r.labels;
  d["context"] = r.context;
  d["metric_count"] = r.metric_count;
  return d;
}

}  // namespace

void BindHistory(py::module_& m) {
  py::class_<history::HistoryStore, Store>(m, "History")
      .def(py::init(&Open), py::arg("spec"))
      .def_property_readonly("dialect", [](const history::HistoryStore& s) { return s.Dialect(); })
      .def(
          "runs",
          [](history::HistoryStore& s, const std::string& suite, const std::string& device,
             const std::string& host, const std::string& since, std::size_t last) {
            auto runs = Unwrap(s.ListRuns(Filter(suite, device, host, since, last)));
            py::list out;
            for (const history::RunSummary& r : runs) out.append(RunDict(r));
            return out;
          },
          py::arg("suite") = "", py::arg("device") = "", py::arg("host") = "",
          py::arg("since") = "", py::arg("last") = 0)
      .def(
          "series",
          [](history::HistoryStore& s, const std::string& metric_glob, const std::string& suite,
             const std::string& device, const std::string& host, const std::string& since,
             std::size_t last) {
            auto window = Unwrap(s.Load(Filter(suite, device, host, since, last), metric_glob,
                                        /*with_samples=*/false));
            py::list out;
            for (const history::MetricHistory& h : window.metrics) {
              for (const history::SeriesPoint& p : h.points) {
                py::dict d;
                d["label"] = h.label;
                d["unit"] = h.metric.unit;
                d["run"] = p.run;
                d["p50"] = p.p50;
                d["p10"] = p.p10;
                d["n"] = p.n;
                out.append(d);
              }
            }
            return out;
          },
          py::arg("metric_glob") = "*", py::arg("suite") = "", py::arg("device") = "",
          py::arg("host") = "", py::arg("since") = "", py::arg("last") = 0);
}

}  // namespace etbench::python
