#pragma once
// How the gate-quality evaluation judges one comparison, shared by the real
// `etbench ab` runs (ab_real.cc) and the trace-driven simulation
// (trace_replay.cc): the rows of a rule, and whether they flagged anything,
// caught the slowed target and named it first.

#include <string>
#include <tuple>
#include <vector>

#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"

namespace etbench::gate_quality {

/// One rule's verdict on one trial.
struct Outcome {
  bool flagged = false;      // the gate failed (any gated regression)
  bool passed = false;       // the outcome was "pass"
  bool detected = false;     // the slowed target was flagged
  bool named_first = false;  // the largest per-operator regression is the target
};

/// (name, end_to_end, regression, change) of a gated row.
using Row = std::tuple<std::string, bool, bool, double>;

/// The target of a scenario: a per-operator metric whose name contains
/// `target_op` (e.g. "convolution"), or Method::execute when end to end.
struct Target {
  std::string op = "convolution";
  bool end_to_end = false;
};

Outcome Judge(const std::vector<Row>& rows, const Target& target, bool pass);

/// The gated rows of a comparison.
std::vector<Row> RowsOf(const Comparison& comparison);

/// Google Benchmark compare.py's rule: a Mann–Whitney U test on the pooled
/// samples of each kernel and of Method::execute, p < 0.05 and slower
/// (median of B above median of A).
std::vector<Row> GbenchRule(const MetricSet& a, const MetricSet& b);

}  // namespace etbench::gate_quality
