#pragma once
// Builders shared by the history tests: results files of a small model with
// a convolution, a relu and Method::execute, as `etbench run` writes them.

#include <cstdint>
#include <functional>
#include <string>

#include "etbench/results/history_view.h"
#include "etbench/results/results.h"

namespace etbench::testing {

struct SyntheticRun {
  int index = 0;              // run number: commit "c<index>", time index minutes apart
  double conv_factor = 1.0;   // the convolution's slowdown
  double relu_factor = 1.0;   // the relu's (16% of Method::execute)
  double load_factor = 1.0;   // every sample of the run (background load, or a whole-model change)
  double cv = 0.01;           // noise of every sample
  int extra_operators = 0;    // more operators (≈ 0.1 ms each), so the run has a machine level
  std::string device = "dev1";
  uint64_t seed = 1;
};

/// Results of one run: model "net", block Execute, 3 repetitions × 10 runs;
/// conv ≈ 1.0 ms × conv_factor, relu ≈ 0.2 ms, Method::execute their sum
/// plus 0.05 ms overhead; framework tax; git commit and time from index.
/// With extra_operators, "native_call_op<k>.out" (instruction 2 + k) too,
/// in Method::execute as well.
results::RunResults MakeSyntheticResults(const SyntheticRun& run);

/// A window of `runs` runs without metrics: run r has id r + 1, run id
/// "run<r>" and commit "c<r>".
history::HistoryWindow EmptyWindow(std::size_t runs);

/// The first `runs` runs of a real history fixture in tests/fixtures
/// (benchmarks/history/real_history_fixture.py: per metric the per-run
/// lower deciles): run r has id r + 1 and run id and commit "run<NN>"
/// (1-based, two digits). Fails the calling test when it cannot be read.
history::HistoryWindow RealHistoryFixture(const std::string& fixture, std::size_t runs);

/// Runs fn(0) … fn(n - 1) on n threads released together, as n CI jobs
/// starting at once would (each thread opens its own connection).
void RunTogether(int n, const std::function<void(int)>& fn);

}  // namespace etbench::testing
