#pragma once
// Fixed inputs for the report tests: a hand-built comparison (so goldens do
// not move when the engine's statistics are refined), metric sets with
// deterministic samples (for the engine-driven and HTML tests), results of
// a run, and ETDumps with nesting and delegates.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "etbench/inspector/etdump_record.h"
#include "etbench/results/results.h"

namespace etbench::testing {

/// Two models (toy_cnn with a regression, an improvement, an inconclusive
/// and unchanged rows; mobilenet_tiny unchanged), attribution, framework
/// tax, structure changes, a warning.
Comparison SampleComparison();

/// Baseline and candidate metric sets of a toy model: Method::execute, a
/// slower convolution (#3), a faster permute (#6), others unchanged, and
/// framework tax per run; `n` samples per metric.
struct MetricSetPair {
  MetricSet baseline;
  MetricSet candidate;
};
MetricSetPair SampleMetricSets(std::size_t n = 40);

/// SampleMetricSets() with every metric's 40 samples repeated up to
/// `executions` samples: the sets of a long run (a 60 s ab measures about
/// 500,000 executions per side).
MetricSetPair LongRunMetricSets(std::size_t executions);

/// Results of a run: toy_cnn ok (5 runs, Default and Execute blocks),
/// broken failed.
results::RunResults SampleResults();

/// An ETDump with two Execute runs: Method::execute › OPERATOR_CALL ›
/// native_call_*, and a DELEGATE_CALL whose delegate events count cycles
/// (placed by instruction); plus a Default run.
EtdumpRecord DelegateEtdump();

/// Compares `actual` with the golden file tests/reports/golden/<name>.
/// Golden lines may contain {{ANY}} (any text within the line). With
/// ETBENCH_UPDATE_GOLDEN=1 in the environment the golden is rewritten
/// from `actual` instead (placeholders must then be restored by hand).
void ExpectMatchesGolden(const std::string& actual, const std::string& name);

}  // namespace etbench::testing
