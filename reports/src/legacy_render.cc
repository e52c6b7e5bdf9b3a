// The legacy profiler's tables (see legacy_tables.h): text, JSON and CSV.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/csv.h"
#include "etbench/base/json_writer.h"
#include "etbench/base/terminal_text.h"
#include "etbench/base/utf8.h"
#include "etbench/inspector/format_units.h"
#include "etbench/reports/legacy_render.h"
#include "etbench/reports/text_util.h"

namespace etbench {
namespace {


// A boxed table in the style of PrettyTable (what the reference prints):
// a centred title, then headers and rows; the first column left-aligned,
// the others right-aligned. The title and cells (names from the file) are
// shown by TerminalText (base/terminal_text.h).
std::string BoxTable(const std::string& given_title,
                     const std::vector<std::string>& headers,
                     std::vector<std::vector<std::string>> rows) {
  const std::string title = TerminalText(given_title);
  for (auto& row : rows) {
    for (std::string& cell : row) cell = TerminalText(cell);
  }
  std::vector<std::size_t> widths;
  for (const std::string& h : headers) widths.push_back(Utf8Length(h));
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], Utf8Length(row[c]));
    }
  }
  std::size_t inner = 0;  // width between the outer '|' of a full row
  for (std::size_t w : widths) inner += w + 3;
  inner -= 1;
  const std::size_t title_len = Utf8Length(title);
  if (title_len + 2 > inner) {  // widen the last column to fit the title
    widths.back() += title_len + 2 - inner;
    inner = title_len + 2;
  }
  std::string rule = "+";
  for (std::size_t w : widths) rule += std::string(w + 2, '-') + "+";
  rule += "\n";
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (std::size_t c = 0; c < widths.size(); ++c) {
      const std::string& cell = c < cells.size() ? cells[c] : std::string();
      out += " " +
             (c == 0 ? PadRight(cell, widths[c]) : PadLeft(cell, widths[c])) +
             " |";
    }
    return out + "\n";
  };
  const std::size_t left = (inner - title_len) / 2;
  std::string out = "+" + std::string(inner, '-') + "+\n";
  out += "|" + std::string(left, ' ') + title +
         std::string(inner - title_len - left, ' ') + "|\n";
  out += rule + line(headers) + rule;
  for (const auto& row : rows) out += line(row);
  out += rule;
  return out;
}

// Durations are whole ticks when the file's ticks are already in the
// reported unit (ms or cycles), as the reference's Python ints.
bool WholeTicks(const LegacyTables& tables) {
  return tables.time_scale == TimeScale::kMs ||
         tables.time_scale == TimeScale::kCycles;
}

std::string DurationText(const LegacyTables& tables, double value) {
  if (std::isnan(value)) return "n/a";
  if (WholeTicks(tables) && std::isfinite(value) &&
      std::fabs(value) < 9007199254740992.0) {
    return std::to_string(static_cast<int64_t>(value));
  }
  return PythonFloatRepr(value);
}

std::string UnitName(const LegacyTables& tables) {
  return std::string(TimeScaleName(tables.unit));
}

std::vector<std::string> IterationHeaders(std::string first,
                                          std::size_t iterations) {
  std::vector<std::string> headers{std::move(first)};
  for (std::size_t i = 0; i < iterations; ++i) {
    headers.push_back("Iteration " + std::to_string(i));
  }
  return headers;
}

// A duration: null when missing, a whole number of ticks as an integer.
void WriteDuration(JsonWriter& json, const LegacyTables& tables, double value) {
  if (std::isnan(value)) {
    json.Null();
  } else if (WholeTicks(tables) && std::isfinite(value) &&
             std::fabs(value) < 9007199254740992.0) {
    json.Int(static_cast<int64_t>(value));
  } else {
    json.Double(value);
  }
}

}  // namespace

std::string RenderLegacyTables(const LegacyTables& tables) {
  std::string out;
  auto append = [&out](const std::string& table) {
    if (!out.empty()) out += "\n";
    out += table;
  };
  const std::string unit = UnitName(tables);
  for (const LegacyBlockTables& block : tables.blocks) {
    std::vector<std::string> headers{"Name", "Chain", "Instr"};
    for (std::size_t i = 0; i < block.iterations; ++i) {
      headers.push_back("Iteration " + std::to_string(i));
    }
    std::vector<std::vector<std::string>> rows;
    for (const LegacyEventDurations& e : block.events) {
      std::vector<std::string> row{e.name, std::to_string(e.chain_index),
                                   std::to_string(e.instruction_index)};
      for (double d : e.durations) {
        row.push_back(std::isnan(d) ? "unfinished" : DurationText(tables, d));
      }
      rows.push_back(std::move(row));
    }
    append(
        BoxTable(block.name + " (durations in " + unit + ")", headers, rows));
  }
  for (const LegacyBlockTables& block : tables.blocks) {
    if (!block.framework_tax) continue;
    const LegacyFrameworkTax& tax = *block.framework_tax;
    std::vector<std::vector<std::string>> rows;
    auto add_row = [&](std::string label, const std::vector<double>& values,
                       bool percent) {
      if (values.empty()) return;
      rows.push_back({std::move(label)});
      for (double v : values) {
        rows.back().push_back(percent ? FormatPercentValue(v)
                                      : DurationText(tables, v));
      }
    };
    add_row("Framework tax (%), tick-exact", tax.framework_tax_percent, true);
    add_row("Reference: model execution time (" + unit + ")",
            tax.reference_execution_time, false);
    add_row("Reference: time in kernels and delegates (" + unit + ")",
            tax.reference_kernel_and_delegate_time, false);
    add_row("Reference: framework tax (%), 4-decimal rounding",
            tax.reference_framework_tax_percent, true);
    append(BoxTable(block.name + " framework tax calculations",
                    IterationHeaders("", block.iterations), rows));
  }
  for (const LegacyBlockTables& block : tables.blocks) {
    if (block.memory.empty()) continue;
    std::vector<std::vector<std::string>> rows;
    for (const LegacyMemoryUsage& m : block.memory) {
      rows.push_back({m.allocator_name, std::to_string(m.total_bytes),
                      FormatMemory(static_cast<int64_t>(m.total_bytes))});
    }
    append(BoxTable(
        block.name + " memory allocations",
        {"Allocator name", "Total size of allocations done (bytes)", "Size"},
        rows));
  }
  if (out.empty()) out = "(no profiling blocks)\n";
  return out;
}

std::string LegacyTablesToJson(const LegacyTables& tables) {
  JsonWriter json(2);
  json.BeginObject();
  json.Key("source").String(tables.source_name);
  json.Key("time_scale").String(TimeScaleName(tables.time_scale));
  json.Key("unit").String(UnitName(tables));
  json.Key("warnings").StringArray(tables.warnings);
  json.Key("blocks").BeginArray();
  for (const LegacyBlockTables& block : tables.blocks) {
    json.BeginObject();
    json.Key("name").String(block.name);
    json.Key("iterations").Uint(block.iterations);
    json.Key("events").BeginArray();
    for (const LegacyEventDurations& e : block.events) {
      json.BeginObject();
      json.Key("name").String(e.name);
      json.Key("chain").Int(e.chain_index);
      json.Key("instruction").Uint(e.instruction_index);
      json.Key("durations").BeginArray();
      for (double d : e.durations) WriteDuration(json, tables, d);
      json.EndArray();
      json.Key("elapsed_ticks").BeginArray();
      for (const std::optional<uint64_t>& t : e.elapsed_ticks) {
        if (t) {
          json.Uint(*t);
        } else {
          json.Null();
        }
      }
      json.EndArray();
      json.EndObject();
    }
    json.EndArray();
    json.Key("framework_tax");
    if (block.framework_tax) {
      const LegacyFrameworkTax& tax = *block.framework_tax;
      // Percentages as they are (NaN: null); times as durations.
      auto values = [&](const char* key, const std::vector<double>& v, bool percent) {
        json.Key(key).BeginArray();
        for (double x : v) {
          if (percent) {
            json.Double(x);
          } else {
            WriteDuration(json, tables, x);
          }
        }
        json.EndArray();
      };
      json.BeginObject();
      values("framework_tax_percent", tax.framework_tax_percent, true);
      values("reference_execution_time", tax.reference_execution_time, false);
      values("reference_kernel_and_delegate_time", tax.reference_kernel_and_delegate_time, false);
      values("reference_framework_tax_percent", tax.reference_framework_tax_percent, true);
      json.EndObject();
    } else {
      json.Null();
    }
    json.Key("memory").BeginArray();
    for (const LegacyMemoryUsage& m : block.memory) {
      json.BeginObject();
      json.Key("allocator").String(m.allocator_name);
      json.Key("allocator_id").Uint(m.allocator_id);
      json.Key("total_bytes").Uint(m.total_bytes);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.Take() + "\n";
}

std::string LegacyTablesToCsv(const LegacyTables& tables) {
  const std::string unit = UnitName(tables);
  std::string out = "table,block,name,chain,instruction,iteration,value,unit\n";
  auto row = [&](const char* table, const std::string& block,
                 const std::string& name, const std::string& chain,
                 const std::string& instruction, const std::string& iteration,
                 const std::string& value, const std::string& u) {
    out += std::string(table) + "," + CsvField(block) + "," + CsvField(name) +
           "," + chain + "," + instruction + "," + iteration + "," + value +
           "," + u + "\n";
  };
  for (const LegacyBlockTables& block : tables.blocks) {
    for (const LegacyEventDurations& e : block.events) {
      for (std::size_t i = 0; i < e.durations.size(); ++i) {
        row("profile", block.name, e.name, std::to_string(e.chain_index),
            std::to_string(e.instruction_index), std::to_string(i),
            std::isnan(e.durations[i]) ? std::string()
                                       : DurationText(tables, e.durations[i]),
            unit);
      }
    }
    if (block.framework_tax) {
      const LegacyFrameworkTax& tax = *block.framework_tax;
      auto metric = [&](const char* name, const std::vector<double>& v,
                        bool percent) {
        for (std::size_t i = 0; i < v.size(); ++i) {
          const std::string value =
              std::isnan(v[i]) ? std::string()
              : percent        ? PythonFloatRepr(v[i])
                               : DurationText(tables, v[i]);
          row("framework_tax", block.name, name, "", "", std::to_string(i),
              value, percent ? "%" : unit);
        }
      };
      metric("framework_tax_percent", tax.framework_tax_percent, true);
      metric("reference_execution_time", tax.reference_execution_time, false);
      metric("reference_kernel_and_delegate_time",
             tax.reference_kernel_and_delegate_time, false);
      metric("reference_framework_tax_percent",
             tax.reference_framework_tax_percent, true);
    }
    for (const LegacyMemoryUsage& m : block.memory) {
      row("memory", block.name, m.allocator_name, "", "", "",
          std::to_string(m.total_bytes), "bytes");
    }
  }
  return out;
}

}  // namespace etbench
