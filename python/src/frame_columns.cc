// The reference Inspector's DataFrame, built column-wise in C++.
//
// The reference builds one single-row DataFrame per Event and concatenates
// them, so each column's dtype is what pandas.concat makes of the per-row
// dtypes: float64 statistics unless some event has no perf_data (then the
// rows hold None and the column is object), int64 delegate ids only when
// every event has an int id, bool is_delegated_op, object everything else.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "debug_values.h"
#include "inspection.h"

namespace etbench::python {

namespace py = pybind11;

namespace {

// A numpy object array of n Nones, filled by Set (steals the reference).
class ObjectColumn {
 public:
  explicit ObjectColumn(std::size_t n)
      : array_(py::module_::import("numpy").attr("empty")(n, py::arg("dtype") = "object")) {
    data_ = static_cast<PyObject**>(py::array(array_).mutable_data());
    for (std::size_t i = 0; i < n; ++i) {
      Py_INCREF(Py_None);
      data_[i] = Py_None;
    }
  }
  void Set(std::size_t i, py::object value) {
    PyObject* old = data_[i];
    data_[i] = value.release().ptr();
    Py_XDECREF(old);
  }
  py::object array() const { return array_; }

 private:
  py::object array_;
  PyObject** data_ = nullptr;
};

py::object DelegateIdToPython(const DelegateDebugId& id) {
  if (const auto* i = std::get_if<int32_t>(&id)) return py::int_(*i);
  if (const auto* s = std::get_if<std::string>(&id)) return py::str(*s);
  return py::none();
}

// The reference shows op_types with five or more entries truncated.
py::object OpTypesToPython(const std::vector<std::string>& op_types) {
  if (op_types.size() < 5) return py::cast(op_types);
  return py::str("['" + op_types[0] + "', '" + op_types[1] + "' ... '" + op_types.back() +
                 "'] (" + std::to_string(op_types.size()) + " total)");
}

py::list FloatList(const std::vector<double>& values) {
  py::list list(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    PyList_SET_ITEM(list.ptr(), static_cast<py::ssize_t>(i), PyFloat_FromDouble(values[i]));
  }
  return list;
}

py::list IntList(const std::vector<uint64_t>& values) {
  py::list list(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    PyList_SET_ITEM(list.ptr(), static_cast<py::ssize_t>(i),
                    PyLong_FromUnsignedLongLong(values[i]));
  }
  return list;
}

}  // namespace

py::dict ModuleHierarchyToPython(const Event& event) {
  py::dict out;
  for (const auto& [node, frames] : event.module_hierarchy) {
    py::dict stack;
    for (const ModuleFrame& f : frames) stack[py::str(f.key)] = py::make_tuple(f.path, f.module_type);
    out[py::str(node)] = stack;
  }
  return out;
}

py::dict FrameColumns(const Inspection& inspection, bool include_units) {
  std::size_t n = 0;
  bool all_perf = true;
  bool all_int_ids = true;
  for (const EventBlock& b : inspection.blocks) {
    n += b.events.size();
    for (const Event& e : b.events) {
      all_perf &= e.perf_data.has_value();
      all_int_ids &= std::holds_alternative<int32_t>(e.delegate_debug_identifier);
    }
  }
  ObjectColumn block_name(n), event_name(n), raw(n), op_types(n), stack_traces(n),
      module_hierarchy(n), backend(n), debug_data(n), start_time(n), ids(n);
  py::array_t<bool> delegated(static_cast<py::ssize_t>(n));
  py::array_t<int64_t> int_ids(static_cast<py::ssize_t>(all_int_ids ? n : 0));
  constexpr int kStats = 6;
  std::vector<py::array_t<double>> stat_floats;
  std::vector<ObjectColumn> stat_objects;
  for (int s = 0; s < kStats; ++s) {
    if (all_perf) {
      stat_floats.emplace_back(static_cast<py::ssize_t>(n));
    } else {
      stat_objects.emplace_back(n);
    }
  }
  auto delegated_out = delegated.mutable_unchecked<1>();
  std::size_t row = 0;
  for (const EventBlock& b : inspection.blocks) {
    py::str name(b.name);
    for (const Event& e : b.events) {
      block_name.Set(row, name);
      event_name.Set(row, py::str(e.name));
      if (e.perf_data) {
        const PerfData& p = *e.perf_data;
        raw.Set(row, FloatList(p.raw));
        const double stats[kStats] = {p.p10, p.p50, p.p90, p.avg, p.min, p.max};
        for (int s = 0; s < kStats; ++s) {
          if (all_perf) {
            stat_floats[s].mutable_data()[row] = stats[s];
          } else {
            stat_objects[s].Set(row, py::float_(stats[s]));
          }
        }
        start_time.Set(row, IntList(e.start_ticks));
      }
      op_types.Set(row, OpTypesToPython(e.op_types));
      if (all_int_ids) {
        int_ids.mutable_data()[row] = std::get<int32_t>(e.delegate_debug_identifier);
      } else {
        ids.Set(row, DelegateIdToPython(e.delegate_debug_identifier));
      }
      stack_traces.Set(row, py::cast(e.stack_traces));
      module_hierarchy.Set(row, ModuleHierarchyToPython(e));
      delegated_out(row) = e.is_delegated_op;
      if (e.delegate_backend_name) backend.Set(row, py::str(*e.delegate_backend_name));
      debug_data.Set(row, DebugValuesToPython(e.debug_data));
      ++row;
    }
  }
  const std::string units =
      include_units ? " (" + std::string(TimeScaleName(inspection.target_time_scale)) + ")" : "";
  const char* stat_names[kStats] = {"p10", "p50", "p90", "avg", "min", "max"};
  py::dict columns;
  columns["event_block_name"] = block_name.array();
  columns["event_name"] = event_name.array();
  columns["raw"] = raw.array();
  for (int s = 0; s < kStats; ++s) {
    columns[py::str(stat_names[s] + units)] =
        all_perf ? py::object(stat_floats[s]) : stat_objects[s].array();
  }
  columns["op_types"] = op_types.array();
  columns["delegate_debug_identifier"] = all_int_ids ? py::object(int_ids) : ids.array();
  columns["stack_traces"] = stack_traces.array();
  columns["module_hierarchy"] = module_hierarchy.array();
  columns["is_delegated_op"] = delegated;
  columns["delegate_backend_name"] = backend.array();
  columns["debug_data"] = debug_data.array();
  columns["start_time"] = start_time.array();
  return columns;
}

py::list EventDicts(const EventBlock& block) {
  py::list events;
  for (const Event& e : block.events) {
    py::dict d;
    d["name"] = e.name;
    d["raw"] = e.perf_data ? py::object(FloatList(e.perf_data->raw)) : py::none();
    d["start_ticks"] = e.perf_data ? py::object(IntList(e.start_ticks)) : py::none();
    d["end_ticks"] = e.perf_data ? py::object(IntList(e.end_ticks)) : py::none();
    d["op_types"] = e.op_types;
    d["delegate_debug_identifier"] = DelegateIdToPython(e.delegate_debug_identifier);
    d["debug_handles"] = e.debug_handles ? py::cast(*e.debug_handles) : py::none();
    d["stack_traces"] = e.stack_traces;
    d["module_hierarchy"] = ModuleHierarchyToPython(e);
    d["is_delegated_op"] = e.is_delegated_op;
    d["delegate_backend_name"] =
        e.delegate_backend_name ? py::object(py::str(*e.delegate_backend_name)) : py::none();
    py::list metadatas;
    for (const std::vector<uint8_t>& m : e.delegate_debug_metadatas) {
      // The reference stores "" for runs without metadata.
      if (m.empty()) {
        metadatas.append(py::str(""));
      } else {
        metadatas.append(py::bytes(reinterpret_cast<const char*>(m.data()), m.size()));
      }
    }
    d["delegate_debug_metadatas"] = metadatas;
    d["debug_data"] = DebugValuesToPython(e.debug_data);
    d["instruction_id"] = e.instruction_id ? py::object(py::int_(*e.instruction_id)) : py::none();
    d["occurrence"] = e.occurrence;
    events.append(d);
  }
  return events;
}

}  // namespace etbench::python
