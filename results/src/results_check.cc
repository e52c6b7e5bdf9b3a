// Which sample values a results file may hold (shared by the writer, the
// reader and the orchestrator, so that what is written can be read back).
#include <cmath>
#include <cstdio>

#include "etbench/results/results.h"

namespace etbench::results {
namespace {

std::string Number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

std::optional<std::string> FirstInvalid(const std::vector<double>& samples, SampleKind kind) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (auto problem = CheckSample(samples[i], kind)) {
      return "sample " + std::to_string(i) + ": " + *problem;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CheckSample(double value, SampleKind kind) {
  if (std::isnan(value)) return std::string("null/NaN is not a sample");
  if (!std::isfinite(value)) return "non-finite sample " + Number(value);
  switch (kind) {
    case SampleKind::kDuration:
      if (value < 0) return "negative duration " + Number(value);
      break;
    case SampleKind::kBenchmarkTime:
      if (value <= 0) return "benchmark time " + Number(value) + " is not positive";
      break;
    case SampleKind::kPercent:
      break;
  }
  return std::nullopt;
}

std::optional<std::string> FindInvalidSample(const ModelResult& model) {
  if (model.status != ModelStatus::kOk) return std::nullopt;
  const std::string where = "model '" + model.name + "'";
  for (const BlockResult& block : model.blocks) {
    const std::string in_block = where + ", block '" + block.name + "'";
    for (std::size_t i = 0; i < block.repetition_run_counts.size(); ++i) {
      if (block.repetition_run_counts[i] == 0) {
        return in_block + ": repetition " + std::to_string(i) + " has 0 runs";
      }
    }
    for (const EventResult& event : block.events) {
      if (auto p = FirstInvalid(event.perf_data.raw, SampleKind::kDuration)) {
        return in_block + ", event '" + event.name + "', " + *p;
      }
    }
    if (block.framework_tax) {
      if (auto p = FirstInvalid(block.framework_tax->raw, SampleKind::kPercent)) {
        return in_block + ", framework tax, " + *p;
      }
    }
  }
  for (const BenchmarkResult& benchmark : model.benchmarks) {
    if (auto p = FirstInvalid(benchmark.perf_data.raw, SampleKind::kBenchmarkTime)) {
      return where + ", benchmark '" + benchmark.name + "', " + *p;
    }
  }
  return std::nullopt;
}

}  // namespace etbench::results
