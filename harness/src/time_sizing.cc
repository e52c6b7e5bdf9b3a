// Time-sized runs (see time_sizing.h).

#include "etbench/harness/time_sizing.h"

#include <algorithm>
#include <cmath>

#include "etbench/compare/thresholds.h"
#include "etbench/inspector/perf_data.h"

namespace etbench::harness {
namespace {

constexpr int kMaxIterations = 1000000;

// Seconds per execution of `model` in one calibration run; 0 when unknown.
double ExecutionSeconds(const results::RunResults& results, const MetricSet& metrics,
                        const std::string& model) {
  for (const Metric& m : metrics.metrics) {
    if (m.key.model != model || m.key.name != "Method::execute" || m.samples.empty()) continue;
    const std::optional<double> per_second = MinDeltaIn({1.0, "s"}, m.unit);
    if (!per_second || *per_second <= 0) break;
    std::vector<double> sorted = m.samples;
    std::sort(sorted.begin(), sorted.end());
    return Percentile(sorted, 50) / *per_second;
  }
  for (const results::ModelResult& m : results.models) {
    if (m.name != model || m.status != results::ModelStatus::kOk) continue;
    const int executions = results.metadata.warmup + results.metadata.iterations;
    if (executions > 0 && m.wall_ms > 0) return m.wall_ms / 1000 / executions;
  }
  return 0;
}

int Executions(double seconds, double per_execution, int at_least) {
  if (seconds <= 0) return at_least;
  const double n = std::ceil(seconds / per_execution);
  return std::max(at_least, static_cast<int>(std::min<double>(n, kMaxIterations)));
}

}  // namespace

std::map<std::string, TimeSize> SizeByTime(const std::vector<results::RunResults>& calibration,
                                           const SuiteConfig& config, double min_time_s,
                                           double warmup_time_s) {
  std::map<std::string, double> sum;
  std::map<std::string, int> count;
  for (const results::RunResults& results : calibration) {
    const MetricSet metrics = results::ToMetricSet(results);
    for (const ModelSpec& spec : config.models) {
      const double t = ExecutionSeconds(results, metrics, spec.name);
      if (t <= 0) continue;
      sum[spec.name] += t;
      ++count[spec.name];
    }
  }
  std::map<std::string, TimeSize> sizes;
  for (const auto& [name, total] : sum) {
    const double t = total / count[name];
    TimeSize size;
    size.execution_s = t;
    size.iterations = Executions(min_time_s, t, config.iterations);
    size.warmup = Executions(warmup_time_s, t, config.warmup);
    sizes[name] = size;
  }
  return sizes;
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
