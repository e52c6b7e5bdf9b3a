#include "etbench/reports/inspect_output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fancy_grid.h"

#include "etbench/base/csv.h"
#include "etbench/base/units.h"

namespace etbench {
namespace {

using Json = nlohmann::ordered_json;

// Rows the reference hides when printing (EXCLUDED_EVENTS_WHEN_PRINTING,
// matched as a substring like its pandas filter).
bool HiddenWhenPrinting(const Event& event) {
  return event.name.find("OPERATOR_CALL") != std::string::npos;
}

std::string PythonListRepr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += "'" + items[i] + "'";
  }
  return out + "]";
}

std::string HexBytes(const std::vector<uint8_t>& bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string MetadataCell(const Event& event) {
  if (!event.delegate_debug_metadata_parsed.empty()) {
    std::string out;
    for (const auto& [k, v] : event.delegate_debug_metadata_parsed) {
      if (!out.empty()) out += "; ";
      out += k + "=" + v;
    }
    return out;
  }
  std::vector<std::string> hex;
  for (const auto& m : event.delegate_debug_metadatas) hex.push_back(HexBytes(m));
  return event.delegate_debug_metadatas.empty() ? std::string() : PythonListRepr(hex);
}

// The reference's start_time cell: the raw start ticks of each run as a
// Python list ("[12, 34]"); empty (None) for events without profile data.
std::string StartTimeCell(const Event& event) {
  if (!event.perf_data) return "";
  std::string out = "[";
  for (std::size_t i = 0; i < event.start_ticks.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(event.start_ticks[i]);
  }
  return out + "]";
}

struct Columns {
  std::vector<std::string> headers;
  std::vector<Align> align;
};

Columns InspectColumns(const InspectOutputOptions& options, const std::string& unit_name) {
  const std::string units = options.include_units ? " (" + unit_name + ")" : "";
  Columns c;
  c.headers = {"", "event_block_name", "event_name"};
  for (const char* stat : {"p10", "p50", "p90", "avg", "min", "max"}) {
    c.headers.push_back(stat + units);
  }
  c.headers.insert(c.headers.end(),
                   {"op_types", "is_delegated_op", "delegate_backend_name", "start_time"});
  if (options.include_delegate_debug_data) c.headers.push_back("delegate_debug_metadata");
  c.align.assign(c.headers.size(), Align::kLeft);
  c.align[0] = Align::kRight;
  for (std::size_t i = 3; i < 9; ++i) c.align[i] = Align::kRight;
  return c;
}

// One printed row; `number` formats the statistics.
template <typename NumberFormat>
std::vector<std::vector<std::string>> InspectRows(const std::vector<EventBlock>& blocks,
                                                  const InspectOutputOptions& options,
                                                  NumberFormat number) {
  std::vector<std::vector<std::string>> rows;
  for (const EventBlock& block : blocks) {
    for (const Event& event : block.events) {
      if (HiddenWhenPrinting(event)) continue;
      std::vector<std::string> row{std::to_string(rows.size()), block.name, event.name};
      if (const auto& p = event.perf_data) {
        for (double v : {p->p10, p->p50, p->p90, p->avg, p->min, p->max}) row.push_back(number(v));
      } else {
        row.insert(row.end(), 6, "");
      }
      row.push_back(PythonListRepr(event.op_types));
      row.push_back(event.is_delegated_op ? "True" : "False");
      row.push_back(event.delegate_backend_name.value_or(""));
      row.push_back(StartTimeCell(event));
      if (options.include_delegate_debug_data) row.push_back(MetadataCell(event));
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::string Percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", v);
  return buf;
}

std::string FrameworkTaxLine(const EventBlock& block) {
  std::string line = "Framework tax (" + block.name + ", " + std::to_string(block.run_count) +
                     (block.run_count == 1 ? " run" : " runs") + "): ";
  if (!block.framework_tax) return line + "n/a (no Method::execute event)\n";
  const PerfData& t = *block.framework_tax;
  line += "p10 " + Percent(t.p10) + "  p50 " + Percent(t.p50) + "  p90 " + Percent(t.p90) +
          "  avg " + Percent(t.avg) + "  min " + Percent(t.min) + "  max " + Percent(t.max);
  return line + "\n";
}

Json PerfJson(const PerfData& p) {
  Json j;
  j["raw"] = p.raw;
  j["p10"] = p.p10;
  j["p50"] = p.p50;
  j["p90"] = p.p90;
  j["avg"] = p.avg;
  j["min"] = p.min;
  j["max"] = p.max;
  j["stddev"] = p.stddev;
  j["count"] = p.count;
  return j;
}

const char* ValueTypeName(ValueType t) {
  switch (t) {
    case ValueType::kNull: return "Null";
    case ValueType::kInt: return "Int";
    case ValueType::kBool: return "Bool";
    case ValueType::kFloat: return "Float";
    case ValueType::kDouble: return "Double";
    case ValueType::kTensor: return "Tensor";
    case ValueType::kTensorList: return "TensorList";
    case ValueType::kString: return "String";
  }
  return "Unknown";
}

Json TensorJson(const TensorValue& t) {
  Json j;
  j["scalar_type"] = ScalarTypeName(t.scalar_type);
  j["sizes"] = t.sizes;
  if (t.data) {
    std::vector<double> values = TensorElementsAsDouble(t);
    if (values.empty() && !t.data->empty()) {
      j["bytes_hex"] = HexBytes(*t.data);
    } else {
      j["values"] = values;
    }
  } else {
    j["values"] = nullptr;  // no debug buffer given
  }
  return j;
}

Json DebugValueJson(const DebugValue& v) {
  Json j;
  j["type"] = ValueTypeName(v.type);
  switch (v.type) {
    case ValueType::kInt: j["value"] = v.int_value; break;
    case ValueType::kBool: j["value"] = v.bool_value; break;
    case ValueType::kFloat:
    case ValueType::kDouble: j["value"] = v.float_value; break;
    case ValueType::kTensor: j["tensor"] = TensorJson(v.tensors.at(0)); break;
    case ValueType::kTensorList: {
      Json list = Json::array();
      for (const TensorValue& t : v.tensors) list.push_back(TensorJson(t));
      j["tensors"] = std::move(list);
      break;
    }
    default: j["value"] = nullptr; break;
  }
  return j;
}

Json EventJson(const Event& e) {
  Json j;
  j["name"] = e.name;
  j["instruction_id"] = e.instruction_id ? Json(*e.instruction_id) : Json(nullptr);
  j["chain_index"] = e.chain_index;
  if (const auto* i = std::get_if<int32_t>(&e.delegate_debug_identifier)) {
    j["delegate_debug_identifier"] = *i;
  } else if (const auto* s = std::get_if<std::string>(&e.delegate_debug_identifier)) {
    j["delegate_debug_identifier"] = *s;
  } else {
    j["delegate_debug_identifier"] = nullptr;
  }
  j["is_delegated_op"] = e.is_delegated_op;
  j["perf_data"] = e.perf_data ? PerfJson(*e.perf_data) : Json(nullptr);
  Json debug = Json::array();
  for (const DebugValue& v : e.debug_data) debug.push_back(DebugValueJson(v));
  j["debug_data"] = std::move(debug);
  // The reference's start_time: raw start ticks per run, unscaled.
  j["start_time"] = e.perf_data ? Json(e.start_ticks) : Json(nullptr);
  // etbench extensions (after the documented keys).
  j["occurrence"] = e.occurrence;
  j["op_types"] = e.op_types;
  j["delegate_backend_name"] =
      e.delegate_backend_name ? Json(*e.delegate_backend_name) : Json(nullptr);
  j["debug_handles"] = e.debug_handles ? Json(*e.debug_handles) : Json(nullptr);
  j["stack_traces"] = e.stack_traces;
  Json modules = Json::object();
  for (const auto& [node, frames] : e.module_hierarchy) {
    Json list = Json::array();
    for (const ModuleFrame& f : frames) {
      list.push_back(Json{{"key", f.key}, {"path", f.path}, {"type", f.module_type}});
    }
    modules[node] = std::move(list);
  }
  j["module_hierarchy"] = std::move(modules);
  if (!e.delegate_debug_metadatas.empty()) {
    Json md = Json::array();
    for (const auto& m : e.delegate_debug_metadatas) md.push_back(HexBytes(m));
    j["delegate_debug_metadata_hex"] = std::move(md);
  }
  if (!e.delegate_debug_metadata_parsed.empty()) {
    j["delegate_debug_metadata"] = e.delegate_debug_metadata_parsed;
  }
  return j;
}

}  // namespace

namespace {

// The framework tax and allocation lines under the table; bytes by the unit
// rule (IEC) with `people_units`, else as an integer count of bytes.
std::string BlockSummaries(const std::vector<EventBlock>& blocks, bool people_units) {
  std::string out;
  for (const EventBlock& block : blocks) {
    if (block.framework_tax) out += FrameworkTaxLine(block);
    for (const AllocatorUsage& a : block.allocations) {
      uint64_t total = 0;
      for (uint64_t b : a.bytes_per_run) total += b;
      const uint64_t mean = a.bytes_per_run.empty() ? 0 : total / a.bytes_per_run.size();
      out += "Allocations (" + block.name + ", allocator " + a.name + "): " +
             (people_units ? FormatQuantity(static_cast<double>(mean), "bytes")
                           : std::to_string(mean) + " bytes") +
             " per run\n";
    }
  }
  return out;
}

}  // namespace

std::string RenderInspectTable(const std::vector<EventBlock>& blocks,
                               const InspectOutputOptions& options) {
  const std::string target(TimeScaleName(options.target_time_scale));
  if (!options.people_units || options.target_time_scale == TimeScale::kCycles) {
    Columns columns = InspectColumns(options, target);
    TextTable table{columns.headers, columns.align, InspectRows(blocks, options, FormatGeneral)};
    return RenderFancyGrid(table) + BlockSummaries(blocks, false);
  }
  double largest = 0;
  for (const EventBlock& block : blocks) {
    for (const Event& event : block.events) {
      if (!event.perf_data || HiddenWhenPrinting(event)) continue;
      for (double v : {event.perf_data->min, event.perf_data->max}) {
        if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
      }
    }
  }
  const DisplayUnit unit = ColumnDisplayUnit(target, largest);
  Columns columns = InspectColumns(options, unit.name);
  TextTable table{columns.headers, columns.align,
                  InspectRows(blocks, options,
                              [&unit](double v) { return FormatDigits(v * unit.factor); })};
  return RenderFancyGrid(table) + BlockSummaries(blocks, true);
}

std::string RenderInspectDelimited(const std::vector<EventBlock>& blocks,
                                   const InspectOutputOptions& options, char separator) {
  Columns columns = InspectColumns(options, std::string(TimeScaleName(options.target_time_scale)));
  std::ostringstream out;
  auto write_row = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) out << separator;
      out << CsvField(row[i], separator);
    }
    out << '\n';
  };
  write_row(columns.headers);
  for (const auto& row : InspectRows(blocks, options, FormatShortest)) write_row(row);
  return out.str();
}

std::string RenderInspectJson(const std::vector<EventBlock>& blocks,
                              const InspectOutputOptions& options) {
  Json root;
  root["schema_version"] = 1;
  root["source_time_scale"] = std::string(TimeScaleName(options.source_time_scale));
  root["target_time_scale"] = std::string(TimeScaleName(options.target_time_scale));
  Json list = Json::array();
  for (const EventBlock& block : blocks) {
    Json b;
    b["name"] = block.name;
    b["bundled_input_index"] =
        block.bundled_input_index ? Json(*block.bundled_input_index) : Json(nullptr);
    b["run_count"] = block.run_count;
    b["framework_tax"] = block.framework_tax ? PerfJson(*block.framework_tax) : Json(nullptr);
    Json allocations = Json::object();
    for (const AllocatorUsage& a : block.allocations) {
      allocations[a.name] = Json{{"bytes_per_run", a.bytes_per_run},
                                 {"count_per_run", a.count_per_run}};
    }
    b["allocations"] = std::move(allocations);
    Json events = Json::array();
    for (const Event& e : block.events) events.push_back(EventJson(e));
    b["events"] = std::move(events);
    Json outputs = Json::array();
    for (const DebugValue& v : block.run_output) outputs.push_back(DebugValueJson(v));
    b["run_output"] = std::move(outputs);
    list.push_back(std::move(b));
  }
  root["event_blocks"] = std::move(list);
  // Event names come from the device: bytes that are not UTF-8 become U+FFFD
  // instead of aborting the dump (type_error.316).
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string FormatGeneral(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

std::string FormatShortest(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, res.ptr);
}

}  // namespace etbench
