#pragma once
// Synthetic nightly histories with known truth, for the history benchmarks.

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "etbench/history/history_store.h"
#include "etbench/results/results.h"

namespace etbench::bench {

/// What happens in one synthetic series.
struct SeriesSpec {
  std::size_t length = 100;
  double cv = 0.02;                       // log-normal noise of the per-run statistic
  std::optional<std::size_t> step_at;     // first run of the new level
  double step = 0;                        // relative size of the step (+0.05 = 5% slower)
  double outlier_rate = 0;                // runs hit by background load
  std::optional<std::size_t> variance_at; // the noise doubles from here (no true change)
  double drift_per_run = 0;               // slow relative drift per run (no true change)
};

/// The series' values (positive), deterministic in `rng`.
std::vector<double> MakeSeries(const SeriesSpec& spec, std::mt19937_64& rng);

/// A history window of `series` (one metric each, runs 1..length, commits
/// "c<i>"), as the store would load it.
history::HistoryWindow MakeWindow(const std::vector<std::vector<double>>& series);

/// Results of a suite shaped like the default one: `models` models of
/// `events` events each (and Method::execute), 6 repetitions × 10 runs.
results::RunResults MakeSuiteResults(int models, int events, uint64_t seed);

}  // namespace etbench::bench
