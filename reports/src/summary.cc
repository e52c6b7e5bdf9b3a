#include "etbench/reports/summary.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "etbench/base/terminal_text.h"
#include "etbench/base/units.h"
#include "etbench/base/utf8.h"
#include "etbench/base/json_writer.h"
#include "report_text.h"

namespace etbench::reports {

using results::BenchmarkResult;
using results::BlockResult;
using results::EventResult;
using results::ModelResult;
using results::ModelStatus;
using results::ModelStatusName;
using results::ResultsMetadata;
using results::RunResults;

namespace {

constexpr std::size_t kSlowestOps = 3;

struct Op {
  std::string name;
  std::optional<int32_t> instruction_id;
  double p50 = 0;
};

struct Row {
  const ModelResult* model = nullptr;
  std::size_t runs = 0;
  const PerfData* execute = nullptr;
  const PerfData* tax = nullptr;
  std::vector<Op> slowest;
};

Row Summarize(const ModelResult& m) {
  Row row;
  row.model = &m;
  for (const BlockResult& block : m.blocks) {
    if (block.name != "Execute") continue;
    for (const EventResult& e : block.events) {
      if (e.Role() == EventRole::kMethodExecute && row.execute == nullptr) {
        row.execute = &e.perf_data;
        row.runs = block.run_count;
        row.tax = block.framework_tax ? &*block.framework_tax : nullptr;
      }
    }
    for (const EventResult* e : internal::SlowestOperators(block, kSlowestOps)) {
      // A kernel call by its kernel's name (native_call_ left off).
      std::string name = e->Role() == EventRole::kKernelCall
                             ? e->name.substr(std::string_view("native_call_").size())
                             : e->name;
      row.slowest.push_back(Op{name, e->instruction_id, e->perf_data.p50});
    }
  }
  for (const BenchmarkResult& b : m.benchmarks) {
    row.slowest.push_back(Op{b.name, std::nullopt, b.perf_data.p50});
    row.runs = std::max(row.runs, b.perf_data.count);
  }
  std::stable_sort(row.slowest.begin(), row.slowest.end(),
                   [](const Op& a, const Op& b) { return a.p50 > b.p50; });
  if (row.slowest.size() > kSlowestOps) row.slowest.resize(kSlowestOps);
  return row;
}

std::string OpLabel(const Op& op) {
  return op.instruction_id ? op.name + "#" + std::to_string(*op.instruction_id) : op.name;
}

std::string Pad(const std::string& s, std::size_t width, bool right) {
  return right ? PadLeft(s, width) : PadRight(s, width);
}

}  // namespace

std::string RenderSummaryTable(const RunResults& results, const std::string& results_path) {
  const ResultsMetadata& meta = results.metadata;
  // Names from outside (suite, models, operators, errors, the path) are
  // shown by TerminalText (base/terminal_text.h).
  std::string text = "suite " + TerminalText(meta.suite) + ": " +
                     std::to_string(results.models.size()) + " model(s), runner " +
                     TerminalText(meta.runner);
  if (meta.runner != "gbench") {
    text += ", " + std::to_string(meta.warmup) + " warm-up + " + std::to_string(meta.iterations) +
            " iterations x " + std::to_string(meta.repetitions) + " repetition(s)";
  } else {
    text += ", " + std::to_string(meta.repetitions) + " repetition(s)";
  }
  text += "\n\n";

  std::vector<std::vector<std::string>> rows;
  rows.push_back(
      {"model", "status", "runs", "execute p50", "execute p90", "tax p50", "slowest (p50)"});
  for (const ModelResult& m : results.models) {
    const Row r = Summarize(m);
    // For people: each time in the unit that fits it (the JSON summary and
    // the results file keep the suite's unit).
    const std::string& unit = m.unit.empty() ? meta.unit : m.unit;
    auto time = [&unit](double v) { return FormatQuantity(v, unit); };
    std::string slowest;
    for (const Op& op : r.slowest) {
      if (!slowest.empty()) slowest += ", ";
      slowest += OpLabel(op) + " " + time(op.p50);
    }
    rows.push_back({m.name, ModelStatusName(m.status), std::to_string(r.runs),
                    r.execute ? time(r.execute->p50) : "-", r.execute ? time(r.execute->p90) : "-",
                    r.tax ? FormatQuantity(r.tax->p50, "percent") : "-", slowest});
  }
  for (auto& row : rows) {
    for (std::string& cell : row) cell = TerminalText(cell);
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], Utf8Length(row[c]));
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool last = c + 1 == row.size();
      const bool right = c >= 2 && c <= 5;
      line += last ? row[c] : Pad(row[c], widths[c], right) + "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line + "\n";
  }
  for (const ModelResult& m : results.models) {
    if (m.status != ModelStatus::kOk) {
      text += "\n" + TerminalText(m.name) + " " + ModelStatusName(m.status) + ": " +
              TerminalText(m.error) + "\n";
    }
  }
  if (results.interrupted) text += "\ninterrupted: models not started are not in the results\n";
  if (!results_path.empty()) text += "\nresults: " + TerminalText(results_path) + "\n";
  return text;
}

std::string RenderSummaryJson(const RunResults& results, const std::string& results_path) {
  // One line for the run and one for each model, spelled as the results
  // file is (JsonSpelling::kShortest).
  JsonWriter json(2, JsonSpelling::kShortest);
  json.BeginObject(JsonLayout::kOneLine);
  json.Key("suite").String(results.metadata.suite);
  json.Key("results_path").String(results_path);
  json.Key("interrupted").Bool(results.interrupted);
  json.Key("models").BeginArray(JsonLayout::kLines);
  for (const ModelResult& m : results.models) {
    const Row r = Summarize(m);
    json.BeginObject(JsonLayout::kOneLine);
    json.Key("name").String(m.name);
    json.Key("status").String(ModelStatusName(m.status));
    json.Key("error").StringOrNull(m.error.empty() ? std::nullopt
                                                   : std::optional<std::string>(m.error));
    json.Key("unit").String(m.unit);
    json.Key("execute_p50").DoubleOrNull(r.execute ? std::optional(r.execute->p50) : std::nullopt);
    json.Key("execute_p90").DoubleOrNull(r.execute ? std::optional(r.execute->p90) : std::nullopt);
    json.Key("framework_tax_p50").DoubleOrNull(r.tax ? std::optional(r.tax->p50) : std::nullopt);
    json.Key("slowest_ops").BeginArray();
    for (const Op& op : r.slowest) {
      if (!op.instruction_id && !m.benchmarks.empty()) continue;
      json.BeginObject();
      json.Key("name").String(op.name);
      json.Key("instruction_id").IntOrNull(op.instruction_id);
      json.Key("p50").Double(op.p50);
      json.EndObject();
    }
    json.EndArray();
    json.Key("benchmarks").BeginArray();
    for (const results::BenchmarkResult& b : m.benchmarks) {
      json.BeginObject().Key("name").String(b.name);
      json.Key("p50").Double(b.perf_data.p50).EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  std::string text = json.Take();
  text += '\n';
  return text;
}

}  // namespace etbench::reports
