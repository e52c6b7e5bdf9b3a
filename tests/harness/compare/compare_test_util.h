#pragma once
// Builders of metrics and deterministic noisy samples for the compare tests.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "etbench/harness/metrics.h"

namespace etbench::testing {

/// Deterministic log-normal samples: median · exp(σ·Z), σ from the CV.
inline std::vector<double> LogNormalSamples(std::size_t n, double median, double cv,
                                            uint64_t seed) {
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  const double sigma = std::sqrt(std::log1p(cv * cv));
  std::vector<double> out;
  while (out.size() < n) {
    const double u1 = std::max(next(), 1e-300), u2 = next();
    const double r = std::sqrt(-2 * std::log(u1));
    out.push_back(median * std::exp(sigma * r * std::cos(2 * M_PI * u2)));
    if (out.size() < n) out.push_back(median * std::exp(sigma * r * std::sin(2 * M_PI * u2)));
  }
  return out;
}

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
