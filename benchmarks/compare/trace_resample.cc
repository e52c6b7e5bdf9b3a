// Synthetic interleaved comparisons from recorded runs (trace_resample.h).

#include "trace_resample.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "etbench/stats/rng.h"
#include "etbench/stats/stats.h"

namespace etbench::gate_quality {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The stored median of a reduced metric (the middle stored value, or the
// median of all samples when every one is stored).
double RunMedian(const TraceSamples& s) {
  if (s.values.size() == s.count) return Median(s.values);
  return s.values[s.values.size() / 2];  // the middle order statistic, or the median alone
}

double Normal(internal::Xoshiro256& rng) {
  const double u1 = std::max(rng.Uniform(), 1e-300), u2 = rng.Uniform();
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

}  // namespace

TraceRun Inject(const RunTrace& trace, const TraceRun& run, const Injection& change) {
  TraceRun out = run;
  if (change.factor == 1) return out;
  double added = 0;  // the target kernels' added time (medians)
  // The added time of each slowed kernel's place, for its OPERATOR_CALL.
  std::map<std::tuple<std::string, std::string, std::optional<int32_t>, int32_t>, double> places;
  for (auto& [id, samples] : out.samples) {
    const Metric& m = trace.metrics[id];
    if (!m.is_kernel_or_delegate_call) continue;
    if (!change.op.empty() && m.key.name.find(change.op) == std::string::npos) continue;
    const double kernel_added = (change.factor - 1) * RunMedian(samples);
    added += kernel_added;
    places[{m.key.model, m.key.block, m.key.instruction_id, m.key.occurrence}] = kernel_added;
    for (double& v : samples.values) v *= change.factor;
  }
  for (auto& [id, samples] : out.samples) {
    const Metric& m = trace.metrics[id];
    if (m.key.kind != MetricKind::kEvent) continue;
    if (m.key.name == "OPERATOR_CALL") {
      auto place = places.find({m.key.model, m.key.block, m.key.instruction_id, m.key.occurrence});
      if (place != places.end()) {
        for (double& v : samples.values) v += place->second;
      }
    } else if (m.key.name == "Method::execute") {
      const double execute = RunMedian(run.samples.at(id));
      const double factor = execute > 0 ? 1 + added / execute : 1;
      for (double& v : samples.values) v *= factor;
    }
  }
  return out;
}

SyntheticAb Resample(const std::vector<RunTrace>& traces, std::size_t blocks,
                     const Injection& change, uint64_t seed) {
  internal::Xoshiro256 rng(seed);
  const RunTrace& trace = traces[rng.Below(static_cast<uint32_t>(traces.size()))];
  const std::size_t recorded = trace.runs.size() / 4;
  const std::size_t start = rng.Below(static_cast<uint32_t>(recorded));
  SyntheticAb ab;
  ab.source = trace.name + " from block " + std::to_string(start);
  ab.calibration_seconds = trace.runs[0].seconds + trace.runs[1].seconds;
  for (std::size_t k = 0; k < blocks; ++k) {
    const std::size_t block = (start + k) % recorded;
    const bool abba = (rng.Next() >> 63) == 0;
    for (std::size_t r = 0; r < 4; ++r) {
      const bool a = (r == 0 || r == 3) == abba;
      SyntheticRun run;
      run.variant = a ? AbVariant::kA : AbVariant::kB;
      run.trace = &trace;
      const TraceRun& recorded_run = trace.runs[4 * block + r];
      run.run = a ? recorded_run : Inject(trace, recorded_run, change);
      ab.runs.push_back(std::move(run));
    }
  }
  return ab;
}

RunTrace FitLogNormal(const RunTrace& trace, uint64_t seed) {
  internal::Xoshiro256 rng(seed);
  RunTrace fit;
  fit.name = trace.name + " (log-normal fit)";
  fit.context = trace.context;
  fit.metrics = trace.metrics;
  // The body of a run's samples: the spread between its lowest stored
  // order statistic (probability ½/K) and its median. Not the upper ones:
  // on a busy machine a third of the executions can be time-sliced (5-10x
  // the median), a second mode that no log-normal has.
  const double z_low = -NormalQuantile(0.5 / kTraceQuantiles);
  struct Params {
    double log_median = 0, between = 0, within = 0;
  };
  std::vector<Params> params(trace.metrics.size());
  for (std::size_t id = 0; id < trace.metrics.size(); ++id) {
    std::vector<double> logs, spreads;
    for (const TraceRun& run : trace.runs) {
      auto it = run.samples.find(id);
      if (it == run.samples.end() || RunMedian(it->second) <= 0) continue;
      logs.push_back(std::log(RunMedian(it->second)));
      const TraceSamples& s = it->second;
      if (s.values.size() == kTraceQuantiles && s.count > kTraceQuantiles && s.values[0] > 0) {
        spreads.push_back((std::log(RunMedian(s)) - std::log(s.values[0])) / z_low);
      }
    }
    if (logs.empty()) continue;
    Params& p = params[id];
    p.log_median = Median(logs);
    std::vector<double> deviations;
    for (double l : logs) deviations.push_back(std::abs(l - p.log_median));
    p.between = 1.4826 * Median(deviations);
    p.within = spreads.empty() ? 0 : Median(spreads);
  }
  for (const TraceRun& run : trace.runs) {
    TraceRun out;
    out.variant = run.variant;
    out.seconds = run.seconds;
    for (const auto& [id, s] : run.samples) {
      const Params& p = params[id];
      const double run_log = p.log_median + p.between * Normal(rng);
      std::vector<double> samples(s.count);
      for (double& v : samples) v = std::exp(run_log + p.within * Normal(rng));
      out.samples[id] = ReduceSamples(std::move(samples), fit.metrics[id].unit,
                                      s.values.size() == 1 && s.count > 1);
    }
    fit.runs.push_back(std::move(out));
  }
  return fit;
}

}  // namespace etbench::gate_quality
