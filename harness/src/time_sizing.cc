// Time-sized runs (see time_sizing.h).

#include "etbench/harness/time_sizing.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "etbench/compare/thresholds.h"
#include "etbench/inspector/perf_data.h"
#include "etbench/stats/stats.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxIterations = 1000000;

// One calibration run's view of a model: seconds per execution (0 when
// unknown) and the robust spread of its log execution times (0 unknown).
struct Measured {
  double seconds = 0;
  double log_spread = 0;
};

Measured MeasureModel(const results::RunResults& results, const MetricSet& metrics,
                      const std::string& model) {
  for (const Metric& m : metrics.metrics) {
    if (m.key.model != model || MetricEventRole(m.key) != EventRole::kMethodExecute ||
        m.samples.empty()) {
      continue;
    }
    const std::optional<double> per_second = MinDeltaIn({1.0, "s"}, m.unit);
    if (!per_second || *per_second <= 0) break;
    std::vector<double> sorted = m.samples;
    std::sort(sorted.begin(), sorted.end());
    Measured out;
    out.seconds = Percentile(sorted, 50) / *per_second;
    if (sorted.front() > 0) {
      std::vector<double> logs;
      for (double x : sorted) logs.push_back(std::log(x));
      out.log_spread = RobustSigma(logs);
    }
    return out;
  }
  for (const results::ModelResult& m : results.models) {
    if (m.name != model || m.status != results::ModelStatus::kOk) continue;
    const int executions = results.metadata.warmup + results.metadata.iterations;
    if (executions > 0 && m.wall_ms > 0) return {m.wall_ms / 1000 / executions, 0};
  }
  return {};
}

int Executions(double seconds, double per_execution, int at_least) {
  if (seconds <= 0) return at_least;
  const double n = std::ceil(seconds / per_execution);
  return std::max(at_least, static_cast<int>(std::min<double>(n, kMaxIterations)));
}

// Executions that make the run median's relative standard error
// (≈ 1.2533·σ/√n for a log spread σ) reach `precision`, within the bounds.
int StableSamples(double log_spread, const TimeSizing& sizing) {
  const int lo = std::max(1, sizing.min_samples);
  const int hi = std::max(lo, sizing.max_samples);
  if (log_spread <= 0 || sizing.median_precision <= 0) return hi;
  const double n = std::ceil(std::pow(1.2533 * log_spread / sizing.median_precision, 2));
  return static_cast<int>(std::clamp(n, static_cast<double>(lo), static_cast<double>(hi)));
}

TimeSize Size(const Measured& m, const SuiteConfig& config, const TimeSizing& sizing,
              double bytes_per_execution) {
  TimeSize size;
  size.execution_s = m.seconds;
  size.etdump_bytes_per_execution = bytes_per_execution;
  const int by_time = Executions(sizing.min_time_s, m.seconds, 0);
  const int warmup_by_time = Executions(sizing.warmup_time_s, m.seconds, 0);
  size.time_iterations = std::max(config.iterations, by_time);
  int n = by_time;
  const int stable = StableSamples(m.log_spread, sizing);
  if (stable < n) {
    n = stable;
    size.capped_by = "samples";
  }
  // Warm-up shrinks with the measured part (a run that measures a hundredth
  // of min_time needs no more than a hundredth of its warm-up), then both
  // must fit the ETDump cap together.
  const double scale = by_time > 0 ? static_cast<double>(n) / by_time : 1;
  int warmup = static_cast<int>(std::ceil(warmup_by_time * scale));
  if (sizing.max_etdump_bytes > 0 && bytes_per_execution > 0) {
    const double fit = std::floor(sizing.max_etdump_bytes / bytes_per_execution);
    if (n + warmup > fit) {
      const double share = fit / (n + warmup);
      n = static_cast<int>(std::floor(n * share));
      warmup = static_cast<int>(std::floor(warmup * share));
      size.capped_by = "etdump";
    }
  }
  size.iterations = std::max(config.iterations, n);
  size.warmup = std::max(config.warmup, warmup);
  if (size.iterations >= size.time_iterations) size.capped_by.clear();
  return size;
}

}  // namespace

std::map<std::string, TimeSize> SizeByTime(
    const std::vector<results::RunResults>& calibration, const SuiteConfig& config,
    const TimeSizing& sizing, const std::map<std::string, double>& etdump_bytes_per_execution) {
  std::map<std::string, Measured> sum;
  std::map<std::string, int> count;
  for (const results::RunResults& results : calibration) {
    const MetricSet metrics = results::ToMetricSet(results);
    for (const ModelSpec& spec : config.models) {
      const Measured m = MeasureModel(results, metrics, spec.name);
      if (m.seconds <= 0) continue;
      sum[spec.name].seconds += m.seconds;
      sum[spec.name].log_spread = std::max(sum[spec.name].log_spread, m.log_spread);
      ++count[spec.name];
    }
  }
  std::map<std::string, TimeSize> sizes;
  for (const auto& [name, total] : sum) {
    Measured mean = total;
    mean.seconds /= count[name];
    const auto bytes = etdump_bytes_per_execution.find(name);
    sizes[name] = Size(mean, config, sizing,
                       bytes == etdump_bytes_per_execution.end() ? 0 : bytes->second);
  }
  return sizes;
}

std::map<std::string, double> EtdumpBytesPerExecution(const results::RunResults& run,
                                                      const std::string& results_dir) {
  std::map<std::string, double> out;
  for (const results::ModelResult& m : run.models) {
    double bytes = 0, executions = 0;
    for (const results::RepetitionRecord& r : m.repetitions) {
      if (r.etdump_path.empty()) continue;
      std::error_code ec;
      const auto size = fs::file_size(fs::path(results_dir) / r.etdump_path, ec);
      if (ec) continue;
      bytes += static_cast<double>(size);
      executions += static_cast<double>(r.execute_runs);
    }
    if (bytes > 0 && executions > 0) out[m.name] = bytes / executions;
  }
  return out;
}

bool CanSizeByTime(const SuiteConfig& config) {
  switch (config.runner) {
    case RunnerKind::kBuiltin: return true;
    case RunnerKind::kGbench: return false;
    case RunnerKind::kCommand:
      for (const std::string& arg : config.command.argv) {
        if (arg.find("{iterations}") != std::string::npos) return true;
      }
      return false;
  }
  return false;
}

void ApplyTimeSizes(const std::map<std::string, TimeSize>& sizes, double min_time_s,
                    SuiteConfig* config) {
  if (config->runner == RunnerKind::kGbench) {
    if (config->gbench.min_time_s <= 0) config->gbench.min_time_s = min_time_s;
    return;
  }
  for (ModelSpec& spec : config->models) {
    auto it = sizes.find(spec.name);
    if (it == sizes.end()) continue;
    spec.iterations = it->second.iterations;
    spec.warmup = it->second.warmup;
  }
}

}  // namespace etbench::harness
