// Recorded run traces: reduction, expansion and the CSV file (run_trace.h).

#include "run_trace.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <sstream>

#include "etbench/base/input_file.h"
#include "etbench/compare/metric_set_json.h"

namespace etbench::gate_quality {
namespace {

// Stored units per unit of the metric: ns for ms; 1e-4 percent (one part in
// a million of the execution time) for framework tax.
double ScaleOf(const std::string& unit) { return unit == "percent" ? 1e4 : 1e6; }

// The value in stored units, rounded to half a unit (exact for ns ticks and
// for the mean of two of them).
double ToStored(double value, double scale) { return std::round(value * scale * 2) / 2; }

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

bool HasComma(const MetricKey& k) {
  return (k.model + k.block + k.name + k.delegate_id).find(',') != std::string::npos;
}

std::string Number(double v) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

std::optional<MetricKind> KindFromName(const std::string& name) {
  for (MetricKind k : {MetricKind::kEvent, MetricKind::kFrameworkTax, MetricKind::kAllocation,
                       MetricKind::kBenchmark}) {
    if (name == MetricKindName(k)) return k;
  }
  return std::nullopt;
}

}  // namespace

TraceSamples ReduceSamples(std::vector<double> samples, const std::string& unit,
                           bool median_only) {
  const double scale = ScaleOf(unit);
  std::sort(samples.begin(), samples.end());
  TraceSamples out;
  const std::size_t n = samples.size();
  out.count = n;
  if (median_only && n > 0) {
    const double median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    out.values.push_back(ToStored(median, scale) / scale);
    return out;
  }
  if (n <= kTraceQuantiles) {
    for (double v : samples) out.values.push_back(ToStored(v, scale) / scale);
    return out;
  }
  const std::size_t mid = kTraceQuantiles / 2;
  for (std::size_t i = 0; i < kTraceQuantiles; ++i) {
    double v;
    if (i == mid) {
      v = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    } else {
      v = samples[static_cast<std::size_t>((static_cast<double>(i) + 0.5) *
                                           static_cast<double>(n) / kTraceQuantiles)];
    }
    out.values.push_back(ToStored(v, scale) / scale);
  }
  return out;
}

std::vector<double> ExpandSamples(const TraceSamples& reduced) {
  if (reduced.values.size() == reduced.count) return reduced.values;
  if (reduced.values.size() == 1) return std::vector<double>(reduced.count, reduced.values[0]);
  std::vector<double> samples(reduced.count);
  const double k = static_cast<double>(reduced.values.size());
  const double n = static_cast<double>(reduced.count);
  for (std::size_t j = 0; j < reduced.count; ++j) {
    const auto i = static_cast<std::size_t>((static_cast<double>(j) + 0.5) * k / n);
    samples[j] = reduced.values[std::min(i, reduced.values.size() - 1)];
  }
  return samples;
}

void AppendRun(const MetricSet& run, char variant, double seconds, RunTrace* trace) {
  if (trace->context.empty()) {
    // What the engines read (time source, tick rate, unit, suite, models);
    // not the per-run date, host or labels.
    for (const auto& [key, value] : run.context) {
      if (key == "date" || key == "boot_id" || key == "host" || key == "os" ||
          key.rfind("label:", 0) == 0) {
        continue;
      }
      trace->context[key] = value;
    }
  }
  TraceRun r;
  r.variant = variant;
  r.seconds = seconds;
  for (const Metric& m : run.metrics) {
    if (m.key.kind != MetricKind::kEvent) continue;
    if (m.samples.empty() || HasComma(m.key)) continue;
    std::size_t id = 0;
    while (id < trace->metrics.size() && !(trace->metrics[id].key == m.key)) ++id;
    if (id == trace->metrics.size()) {
      Metric identity = m;
      identity.samples.clear();
      identity.group_sizes.clear();
      identity.session_sizes.clear();
      trace->metrics.push_back(std::move(identity));
    }
    r.samples[id] = ReduceSamples(m.samples, m.unit, m.key.name == "OPERATOR_CALL");
  }
  trace->runs.push_back(std::move(r));
}

MetricSet RunMetrics(const RunTrace& trace, const TraceRun& run) {
  MetricSet set;
  set.context = trace.context;
  for (const auto& [id, reduced] : run.samples) {
    Metric m = trace.metrics[id];
    m.samples = ExpandSamples(reduced);
    m.group_sizes = {static_cast<uint64_t>(m.samples.size())};
    set.metrics.push_back(std::move(m));
  }
  return set;
}

std::string TraceToCsv(const RunTrace& trace) {
  std::ostringstream out;
  out << "# etbench-run-trace 1\n";
  if (!trace.note.empty()) out << "# note: " << trace.note << "\n";
  for (const auto& [key, value] : trace.context) {
    if ((key + value).find_first_of(",\n") != std::string::npos) continue;
    out << "context," << key << "," << value << "\n";
  }
  for (std::size_t i = 0; i < trace.metrics.size(); ++i) {
    const Metric& m = trace.metrics[i];
    out << "metric," << i << "," << m.key.model << "," << m.key.block << ","
        << MetricKindName(m.key.kind) << "," << m.key.name << ","
        << (m.key.instruction_id ? std::to_string(*m.key.instruction_id) : "-") << ","
        << m.key.delegate_id << "," << m.key.occurrence << "," << m.unit << ","
        << (m.end_to_end ? 1 : 0) << "," << (m.is_kernel_or_delegate_call ? 1 : 0) << "\n";
  }
  for (std::size_t r = 0; r < trace.runs.size(); ++r) {
    const TraceRun& run = trace.runs[r];
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", run.seconds);
    out << "run," << r << "," << run.variant << "," << seconds << "\n";
    for (const auto& [id, reduced] : run.samples) {
      const double scale = ScaleOf(trace.metrics[id].unit);
      out << id << "," << reduced.count;
      double previous = 0;
      for (double v : reduced.values) {
        const double stored = ToStored(v, scale);
        out << "," << Number(stored - previous);
        previous = stored;
      }
      out << "\n";
    }
  }
  return out.str();
}

Result<RunTrace> TraceFromCsv(const std::string& text, const std::string& name) try {
  RunTrace trace;
  trace.name = name;
  std::istringstream in(text);
  std::string line;
  std::size_t number = 0;
  const auto bad = [&](const std::string& what) {
    return InputError(name + ":" + std::to_string(number) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (line.rfind("# note: ", 0) == 0) trace.note = line.substr(8);
      continue;
    }
    const std::vector<std::string> f = Split(line);
    if (f[0] == "context" && f.size() == 3) {
      trace.context[f[1]] = f[2];
    } else if (f[0] == "metric" && f.size() == 12) {
      if (std::stoul(f[1]) != trace.metrics.size()) return bad("metric ids out of order");
      Metric m;
      const auto kind = KindFromName(f[4]);
      if (!kind) return bad("unknown kind '" + f[4] + "'");
      m.key = {f[2], f[3], *kind, f[5],
               f[6] == "-" ? std::nullopt : std::optional<int32_t>(std::stoi(f[6])), f[7],
               std::stoi(f[8])};
      m.unit = f[9];
      m.end_to_end = f[10] == "1";
      m.is_kernel_or_delegate_call = f[11] == "1";
      trace.metrics.push_back(std::move(m));
    } else if (f[0] == "run" && f.size() == 4 && !f[2].empty()) {
      TraceRun run;
      run.variant = f[2][0];
      run.seconds = std::strtod(f[3].c_str(), nullptr);
      trace.runs.push_back(std::move(run));
    } else if (std::isdigit(static_cast<unsigned char>(f[0][0])) && f.size() >= 3 &&
               !trace.runs.empty()) {
      const std::size_t id = std::stoul(f[0]);
      if (id >= trace.metrics.size()) return bad("unknown metric " + f[0]);
      const double scale = ScaleOf(trace.metrics[id].unit);
      TraceSamples reduced;
      reduced.count = std::stoul(f[1]);
      double stored = 0;
      for (std::size_t i = 2; i < f.size(); ++i) {
        stored += std::strtod(f[i].c_str(), nullptr);
        reduced.values.push_back(stored / scale);
      }
      const std::size_t k = reduced.values.size();
      if ((k != std::min(reduced.count, kTraceQuantiles) && k != 1) || reduced.count == 0) {
        return bad("expected " + std::to_string(std::min(reduced.count, kTraceQuantiles)) +
                   " values");
      }
      trace.runs.back().samples[id] = std::move(reduced);
    } else {
      return bad("cannot read '" + line.substr(0, 40) + "'");
    }
  }
  if (trace.runs.empty()) return InputError(name + ": no runs");
  return trace;
} catch (const std::exception&) {  // std::stoi/stoul on a malformed number
  return InputError(name + ": malformed number");
}

Result<std::vector<RunTrace>> LoadTraces(const std::string& dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".csv") paths.push_back(entry.path().string());
  }
  if (ec) return IoError(dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  std::vector<RunTrace> traces;
  for (const std::string& path : paths) {
    auto text = ReadTextFile(path);
    if (!text) return text.error();
    auto trace = TraceFromCsv(*text, std::filesystem::path(path).stem().string());
    if (!trace) return trace.error();
    traces.push_back(std::move(*trace));
  }
  if (traces.empty()) return InputError(dir + ": no *.csv traces");
  return traces;
}

}  // namespace etbench::gate_quality
