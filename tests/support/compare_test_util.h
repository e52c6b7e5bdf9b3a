#pragma once
// Builders of metrics and deterministic noisy samples for the compare tests.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "etbench/compare/sequential.h"
#include "support/test_support.h"

namespace etbench::testing {

inline Metric EventMetric(const std::string& name, int32_t instruction,
                          std::vector<double> samples, bool end_to_end = false,
                          const std::string& unit = "ms") {
  Metric m;
  m.key.model = "toy";
  m.key.block = "Execute";
  m.key.name = name;
  if (instruction >= 0) m.key.instruction_id = instruction;
  m.unit = unit;
  m.samples = std::move(samples);
  m.end_to_end = end_to_end;
  m.is_kernel_or_delegate_call = !end_to_end && MetricEventRole(m.key) == EventRole::kKernelCall;
  return m;
}

/// Every row of `comparison`, fixed-baseline or interleaved, keeps the
/// one-model contract: its interval excludes 0 exactly when p ≤ its level,
/// and regressions and improvements are significant (CheckRowConsistency).
inline void ExpectConsistentRows(const Comparison& comparison) {
  for (const MetricComparison& row : comparison.rows) {
    EXPECT_EQ(CheckRowConsistency(row), "") << row.label;
  }
}

/// Compare, with every row checked by ExpectConsistentRows.
inline Result<Comparison> CheckedCompare(const MetricSet& baseline, const MetricSet& candidate,
                                         const Thresholds& thresholds) {
  auto c = Compare(baseline, candidate, thresholds);
  if (c.ok()) ExpectConsistentRows(*c);
  return c;
}

}  // namespace etbench::testing
