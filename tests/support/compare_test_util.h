#pragma once
// Builders of metrics and deterministic noisy samples for the compare tests.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "etbench/compare/metrics.h"
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
  m.is_kernel_or_delegate_call = !end_to_end && name.rfind("native_call_", 0) == 0;
  return m;
}

}  // namespace etbench::testing
