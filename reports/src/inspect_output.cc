#include "etbench/reports/inspect_output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "fancy_grid.h"
#include "text_sink.h"

#include "etbench/base/csv.h"
#include "etbench/base/json_writer.h"
#include "etbench/base/terminal_text.h"
#include "etbench/base/units.h"
#include "etbench/base/utf8.h"

namespace etbench {
namespace {

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
// Appended to `out` (with thousands of runs it is the largest cell).
void AppendStartTimeCell(const Event& event, std::string* out) {
  if (!event.perf_data) return;
  out->push_back('[');
  char buf[24];
  for (std::size_t i = 0; i < event.start_ticks.size(); ++i) {
    if (i > 0) out->append(", ");
    auto res = std::to_chars(buf, buf + sizeof buf, event.start_ticks[i]);
    out->append(buf, res.ptr);
  }
  out->push_back(']');
}

std::string StartTimeCell(const Event& event) {
  std::string out;
  AppendStartTimeCell(event, &out);
  return out;
}

std::size_t DecimalDigits(uint64_t v) {
  std::size_t n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

// Length of StartTimeCell(event) without building it (ASCII: bytes are
// code points).
std::size_t StartTimeCellLength(const Event& event) {
  if (!event.perf_data) return 0;
  const std::size_t n = event.start_ticks.size();
  std::size_t length = 2 + (n > 0 ? 2 * (n - 1) : 0);
  for (uint64_t t : event.start_ticks) length += DecimalDigits(t);
  return length;
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

// Column of the start_time cell (after the index, names, 6 statistics and
// op_types, is_delegated_op, delegate_backend_name).
constexpr std::size_t kStartTimeColumn = 12;

// The cells of one printed row; `number` formats the statistics. The
// start_time cell is left empty unless `with_start_time`: the table streams
// it (AppendStartTimeCell) instead.
template <typename NumberFormat>
std::vector<std::string> RowCells(std::size_t index, const EventBlock& block, const Event& event,
                                  const InspectOutputOptions& options, NumberFormat number,
                                  bool with_start_time) {
  std::vector<std::string> row{std::to_string(index), block.name, event.name};
  row.reserve(14);
  if (const auto& p = event.perf_data) {
    for (double v : {p->p10, p->p50, p->p90, p->avg, p->min, p->max}) row.push_back(number(v));
  } else {
    row.insert(row.end(), 6, "");
  }
  row.push_back(PythonListRepr(event.op_types));
  row.push_back(event.is_delegated_op ? "True" : "False");
  row.push_back(event.delegate_backend_name.value_or(""));
  row.push_back(with_start_time ? StartTimeCell(event) : std::string());
  if (options.include_delegate_debug_data) row.push_back(MetadataCell(event));
  return row;
}

// Calls visit(index, block, event) for each printed row, in order.
template <typename Visit>
void ForEachPrintedRow(const std::vector<EventBlock>& blocks, Visit visit) {
  std::size_t index = 0;
  for (const EventBlock& block : blocks) {
    for (const Event& event : block.events) {
      if (HiddenWhenPrinting(event)) continue;
      visit(index++, block, event);
    }
  }
}

std::string Percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", v);
  return buf;
}

std::string FrameworkTaxLine(const EventBlock& block) {
  std::string line = "Framework tax (" + TerminalText(block.name) + ", " +
                     std::to_string(block.run_count) +
                     (block.run_count == 1 ? " run" : " runs") + "): ";
  if (!block.framework_tax) return line + "n/a (no Method::execute event)\n";
  const PerfData& t = *block.framework_tax;
  line += "p10 " + Percent(t.p10) + "  p50 " + Percent(t.p50) + "  p90 " + Percent(t.p90) +
          "  avg " + Percent(t.avg) + "  min " + Percent(t.min) + "  max " + Percent(t.max);
  return line + "\n";
}

// A PerfData object, or null.
void WritePerf(const std::optional<PerfData>& perf, JsonWriter& json) {
  if (!perf) {
    json.Null();
    return;
  }
  const PerfData& p = *perf;
  json.BeginObject();
  json.Key("raw");
  json.DoubleArray(p.raw);
  for (const auto& [key, value] : {std::pair{"p10", p.p10}, std::pair{"p50", p.p50},
                                   std::pair{"p90", p.p90}, std::pair{"avg", p.avg},
                                   std::pair{"min", p.min}, std::pair{"max", p.max},
                                   std::pair{"stddev", p.stddev}}) {
    json.Key(key);
    json.Double(value);
  }
  json.Key("count");
  json.Uint(p.count);
  json.EndObject();
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

void WriteTensor(const TensorValue& t, JsonWriter& json) {
  json.BeginObject();
  json.Key("scalar_type").String(ScalarTypeName(t.scalar_type));
  json.Key("sizes").IntArray(t.sizes);
  if (t.data) {
    std::vector<double> values = TensorElementsAsDouble(t);
    if (values.empty() && !t.data->empty()) {
      json.Key("bytes_hex").String(HexBytes(*t.data));
    } else {
      json.Key("values").DoubleArray(values);
    }
  } else {
    json.Key("values").Null();  // no debug buffer given
  }
  json.EndObject();
}

void WriteDebugValue(const DebugValue& v, JsonWriter& json) {
  json.BeginObject();
  json.Key("type").String(ValueTypeName(v.type));
  switch (v.type) {
    case ValueType::kInt: json.Key("value").Int(v.int_value); break;
    case ValueType::kBool: json.Key("value").Bool(v.bool_value); break;
    case ValueType::kFloat:
    case ValueType::kDouble: json.Key("value").Double(v.float_value); break;
    case ValueType::kTensor:
      json.Key("tensor");
      WriteTensor(v.tensors.at(0), json);
      break;
    case ValueType::kTensorList:
      json.Key("tensors").BeginArray();
      for (const TensorValue& t : v.tensors) WriteTensor(t, json);
      json.EndArray();
      break;
    default: json.Key("value").Null(); break;
  }
  json.EndObject();
}

void WriteDebugValues(const std::vector<DebugValue>& values, JsonWriter& json) {
  json.BeginArray();
  for (const DebugValue& v : values) WriteDebugValue(v, json);
  json.EndArray();
}

void WriteEventJson(const Event& e, JsonWriter& json) {
  json.BeginObject();
  json.Key("name").String(e.name);
  json.Key("instruction_id").IntOrNull(e.instruction_id);
  json.Key("chain_index").Int(e.chain_index);
  json.Key("delegate_debug_identifier");
  if (const auto* i = std::get_if<int32_t>(&e.delegate_debug_identifier)) {
    json.Int(*i);
  } else if (const auto* s = std::get_if<std::string>(&e.delegate_debug_identifier)) {
    json.String(*s);
  } else {
    json.Null();
  }
  json.Key("is_delegated_op").Bool(e.is_delegated_op);
  json.Key("perf_data");
  WritePerf(e.perf_data, json);
  json.Key("debug_data");
  WriteDebugValues(e.debug_data, json);
  // The reference's start_time: raw start ticks per run, unscaled.
  json.Key("start_time");
  if (e.perf_data) {
    json.UintArray(e.start_ticks);
  } else {
    json.Null();
  }
  // etbench extensions (after the documented keys).
  json.Key("occurrence").Int(e.occurrence);
  json.Key("op_types").StringArray(e.op_types);
  json.Key("delegate_backend_name").StringOrNull(e.delegate_backend_name);
  json.Key("debug_handles");
  if (e.debug_handles) {
    json.IntArray(*e.debug_handles);
  } else {
    json.Null();
  }
  json.Key("stack_traces").StringMap(e.stack_traces);
  json.Key("module_hierarchy").BeginObject();
  for (const auto& [node, frames] : e.module_hierarchy) {
    json.Key(node).BeginArray();
    for (const ModuleFrame& f : frames) {
      json.BeginObject();
      json.Key("key").String(f.key);
      json.Key("path").String(f.path);
      json.Key("type").String(f.module_type);
      json.EndObject();
    }
    json.EndArray();
  }
  json.EndObject();
  if (!e.delegate_debug_metadatas.empty()) {
    json.Key("delegate_debug_metadata_hex").BeginArray();
    for (const auto& m : e.delegate_debug_metadatas) json.String(HexBytes(m));
    json.EndArray();
  }
  if (!e.delegate_debug_metadata_parsed.empty()) {
    json.Key("delegate_debug_metadata").StringMap(e.delegate_debug_metadata_parsed);
  }
  json.EndObject();
}

// A block's allocators by name (one member per name: a crafted dump's
// repeated name keeps its first place and its last totals).
void WriteAllocations(const std::vector<AllocatorUsage>& allocations, JsonWriter& json) {
  std::vector<std::string> names;
  for (const AllocatorUsage& a : allocations) names.push_back(a.name);
  json.BeginObject();
  for (std::size_t i : UniqueKeyMembers(names)) {
    const AllocatorUsage& a = allocations[i];
    json.Key(a.name).BeginObject();
    json.Key("bytes_per_run").UintArray(a.bytes_per_run);
    json.Key("count_per_run").UintArray(a.count_per_run);
    json.EndObject();
  }
  json.EndObject();
}

// The framework tax and allocation lines under the table; bytes by the unit
// rule (IEC) with `people_units`, else as an integer count of bytes.
void WriteBlockSummaries(const std::vector<EventBlock>& blocks, bool people_units, TextSink& sink) {
  for (const EventBlock& block : blocks) {
    if (block.framework_tax) sink.Append(FrameworkTaxLine(block));
    for (const AllocatorUsage& a : block.allocations) {
      uint64_t total = 0;
      for (uint64_t b : a.bytes_per_run) total += b;
      const uint64_t mean = a.bytes_per_run.empty() ? 0 : total / a.bytes_per_run.size();
      sink.Append("Allocations (" + TerminalText(block.name) + ", allocator " +
                  TerminalText(a.name) + "): " +
                  (people_units ? FormatQuantity(static_cast<double>(mean), "bytes")
                                : std::to_string(mean) + " bytes") +
                  " per run\n");
    }
  }
}

// The statistics columns' display unit with `people_units` (and a time
// scale): one unit for the whole column by the unit rule. nullopt: the
// target time scale, printed as the reference prints it.
std::optional<DisplayUnit> PeopleUnit(const std::vector<EventBlock>& blocks,
                                      const InspectOutputOptions& options) {
  const std::string target(TimeScaleName(options.target_time_scale));
  if (!options.people_units || options.target_time_scale == TimeScale::kCycles) {
    return std::nullopt;
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
  return ColumnDisplayUnit(target, largest);
}

// RowCells for the table: names from the ETDump (block, event, op types,
// delegate, metadata) by TerminalText (base/terminal_text.h); CSV and JSON
// keep them as they are.
template <typename NumberFormat>
std::vector<std::string> TableCells(std::size_t index, const EventBlock& block, const Event& event,
                                    const InspectOutputOptions& options, NumberFormat number) {
  std::vector<std::string> row =
      RowCells(index, block, event, options, number, /*with_start_time=*/false);
  for (std::string& cell : row) {
    if (!IsTerminalSafe(cell)) cell = TerminalText(cell);
  }
  return row;
}

template <typename NumberFormat>
void WriteTable(const std::vector<EventBlock>& blocks, const InspectOutputOptions& options,
                const Columns& columns, NumberFormat number, std::ostream& out) {
  // Two passes over the finished blocks: column widths first (the start_time
  // cell measured, not built), then each row built, written and dropped.
  std::vector<std::size_t> widths(columns.headers.size());
  for (std::size_t c = 0; c < widths.size(); ++c) widths[c] = Utf8Length(columns.headers[c]);
  ForEachPrintedRow(blocks, [&](std::size_t index, const EventBlock& block, const Event& event) {
    const std::vector<std::string> row = TableCells(index, block, event, options, number);
    for (std::size_t c = 0; c < widths.size() && c < row.size(); ++c) {
      const std::size_t width =
          c == kStartTimeColumn ? StartTimeCellLength(event) : Utf8Length(row[c]);
      widths[c] = std::max(widths[c], width);
    }
  });

  TextSink sink(out);
  WriteGridRule(widths, GridRule::kTop, sink);
  WriteGridLine(std::vector<std::string_view>(columns.headers.begin(), columns.headers.end()),
                widths, columns.align, sink);
  WriteGridRule(widths, GridRule::kHeader, sink);
  std::string start_time;
  ForEachPrintedRow(blocks, [&](std::size_t index, const EventBlock& block, const Event& event) {
    std::vector<std::string> row = TableCells(index, block, event, options, number);
    start_time.clear();
    AppendStartTimeCell(event, &start_time);
    std::vector<std::string_view> cells(row.begin(), row.end());
    cells[kStartTimeColumn] = start_time;
    if (index > 0) WriteGridRule(widths, GridRule::kBetween, sink);
    WriteGridLine(cells, widths, columns.align, sink);
  });
  WriteGridRule(widths, GridRule::kBottom, sink);
  WriteBlockSummaries(
      blocks, options.people_units && options.target_time_scale != TimeScale::kCycles, sink);
}

}  // namespace

void WriteInspectTable(const std::vector<EventBlock>& blocks, const InspectOutputOptions& options,
                       std::ostream& out) {
  const std::optional<DisplayUnit> unit = PeopleUnit(blocks, options);
  if (!unit) {
    const Columns columns =
        InspectColumns(options, std::string(TimeScaleName(options.target_time_scale)));
    WriteTable(blocks, options, columns, FormatGeneral, out);
    return;
  }
  const double factor = unit->factor;
  WriteTable(blocks, options, InspectColumns(options, unit->name),
             [factor](double v) { return FormatDigits(v * factor); }, out);
}

std::string RenderInspectTable(const std::vector<EventBlock>& blocks,
                               const InspectOutputOptions& options) {
  std::ostringstream out;
  WriteInspectTable(blocks, options, out);
  return out.str();
}

void WriteInspectDelimited(const std::vector<EventBlock>& blocks,
                           const InspectOutputOptions& options, char separator,
                           std::ostream& out) {
  Columns columns = InspectColumns(options, std::string(TimeScaleName(options.target_time_scale)));
  TextSink sink(out);
  auto write_row = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) sink.Append(separator);
      sink.Append(CsvField(row[i], separator));
    }
    sink.Append('\n');
  };
  write_row(columns.headers);
  // One row at a time: built, written and dropped.
  ForEachPrintedRow(blocks, [&](std::size_t index, const EventBlock& block, const Event& event) {
    write_row(RowCells(index, block, event, options, FormatShortest, /*with_start_time=*/true));
  });
}

std::string RenderInspectDelimited(const std::vector<EventBlock>& blocks,
                                   const InspectOutputOptions& options, char separator) {
  std::ostringstream out;
  WriteInspectDelimited(blocks, options, separator, out);
  return out.str();
}

void WriteInspectJson(const std::vector<EventBlock>& blocks, const InspectOutputOptions& options,
                      std::ostream& out) {
  JsonWriter json(out, 2);
  json.BeginObject();
  json.Key("schema_version").Int(1);
  json.Key("source_time_scale").String(TimeScaleName(options.source_time_scale));
  json.Key("target_time_scale").String(TimeScaleName(options.target_time_scale));
  json.Key("event_blocks").BeginArray();
  for (const EventBlock& block : blocks) {
    json.BeginObject();
    json.Key("name").String(block.name);
    json.Key("bundled_input_index").IntOrNull(block.bundled_input_index);
    json.Key("run_count").Uint(block.run_count);
    json.Key("framework_tax");
    WritePerf(block.framework_tax, json);
    json.Key("allocations");
    WriteAllocations(block.allocations, json);
    json.Key("events").BeginArray();
    for (const Event& e : block.events) WriteEventJson(e, json);
    json.EndArray();
    json.Key("run_output");
    WriteDebugValues(block.run_output, json);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  json.Flush();
  out << '\n';
}

std::string RenderInspectJson(const std::vector<EventBlock>& blocks,
                              const InspectOutputOptions& options) {
  std::ostringstream out;
  WriteInspectJson(blocks, options, out);
  return out.str();
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
