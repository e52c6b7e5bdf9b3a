// Lasting changes below the threshold in `etbench ab`'s sequential loop:
// how often each change size ends "regression" with the verdict rule of
// the fixed-sample engine (estimate at least half the threshold) and with
// the sequential rule (half the threshold ruled out, estimate at least the
// threshold; sequential.h, SequentialDesign::estimate_at_threshold). Synthetic runs of one
// Method::execute through AbSequence, the loop RunAb drives: 20 executions
// a run at 0.5% noise, each run's level log-normal with σ_run (6%: the
// spread of one executor_runner run on bundled_program under stress-ng on
// this VM, 27 Nov 2026), B shifted by the change, blocks until decided or
// `max_blocks` (365: the disk limit of those runs). Deterministic for a
// seed.
//
//   gate_quality --sub-threshold [--comparisons N] [--seed S]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "etbench/compare/ab_sequence.h"
#include "etbench/compare/thresholds.h"
#include "etbench/stats/rng.h"
#include "gate_quality.h"

namespace etbench::gate_quality {
namespace {

constexpr double kPi = 3.14159265358979323846;

double Normal(internal::Xoshiro256& r) {
  const double u1 = (static_cast<double>(r.Next() >> 11) + 0.5) * 0x1.0p-53;
  const double u2 = r.Uniform();
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * kPi * u2);
}

MetricSet Run(internal::Xoshiro256& r, double log_change, double sigma_run) {
  const double level = 1.2 * std::exp(log_change + sigma_run * Normal(r));
  Metric m;
  m.key.model = "bundled_program";
  m.key.block = "Execute";
  m.key.name = "Method::execute";
  m.unit = "us";
  m.end_to_end = true;
  for (int s = 0; s < 20; ++s) m.samples.push_back(level * std::exp(0.005 * Normal(r)));
  MetricSet set;
  set.context = {{"time_source", "ns"}, {"unit", "us"}};
  set.metrics.push_back(std::move(m));
  return set;
}

enum class End { kRegression, kUnchanged, kOther };

End OneComparison(internal::Xoshiro256& r, double log_change, bool at_threshold,
                  std::size_t max_blocks, std::size_t* blocks) {
  const Thresholds thresholds = DefaultThresholds();
  AbSequence sequence(max_blocks, /*sequential=*/true, 1e12, &thresholds, 0);
  sequence.SetEstimateAtThreshold(at_threshold);
  const std::vector<AbVariant> order =
      AbbaSchedule(static_cast<int>(max_blocks), r.Next());
  double now = 0;
  for (AbVariant v : order) {
    auto stop = sequence.Add(Run(r, v == AbVariant::kB ? log_change : 0, 0.06), v, now += 0.1);
    if (!stop.ok() || *stop) break;
  }
  sequence.Finish();
  *blocks = sequence.kept_blocks();
  auto c = sequence.Compare(*sequence.Side(AbVariant::kA), *sequence.Side(AbVariant::kB), now);
  if (!c.ok()) return End::kOther;
  if (c->outcome == GateOutcome::kRegression) return End::kRegression;
  return c->outcome == GateOutcome::kPass ? End::kUnchanged : End::kOther;
}

}  // namespace

// False when a no-change row's regression rate is above alpha (1%) beyond
// its 95% interval.
bool RunSubThreshold(std::size_t comparisons, unsigned long long seed) {
  const double threshold = 0.02;  // the default end-to-end threshold
  std::printf("Lasting changes of Method::execute through AbSequence (threshold %.0f%%, alpha 1%%, "
              "sigma_run 6%%, up to 365 blocks, no time limit), %zu comparisons per row, seed %llu.\n\n",
              100 * threshold, comparisons, seed);
  std::printf("| change | rule | regression | pass | neither (blocks ran out) | median blocks |\n"
              "|---|---|---|---|---|---|\n");
  bool ok = true;
  for (double fraction : {0.0, 0.5, 0.7, 0.9, 1.5, 2.0, 3.0}) {
    for (bool at_threshold : {false, true}) {
      internal::Xoshiro256 r(seed + static_cast<unsigned long long>(1000 * fraction));
      std::size_t regression = 0, pass = 0;
      std::vector<std::size_t> blocks;
      for (std::size_t i = 0; i < comparisons; ++i) {
        std::size_t b = 0;
        const End end = OneComparison(r, std::log1p(fraction * threshold), at_threshold, 365, &b);
        regression += end == End::kRegression;
        pass += end == End::kUnchanged;
        blocks.push_back(b);
      }
      std::sort(blocks.begin(), blocks.end());
      if (fraction == 0) ok = ok && WilsonInterval(regression, comparisons).first <= 0.01;
      std::printf("| %+.1f%% (%.1f x threshold) | %s | %s | %s | %s | %zu |\n",
                  100 * fraction * threshold, fraction,
                  at_threshold ? "now: half ruled out, estimate >= threshold" : "before: estimate >= threshold/2",
                  Rate(regression, comparisons).c_str(), Rate(pass, comparisons).c_str(),
                  Rate(comparisons - regression - pass, comparisons).c_str(), blocks[blocks.size() / 2]);
    }
  }
  return ok;
}

}  // namespace etbench::gate_quality
