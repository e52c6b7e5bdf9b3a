// Reading the inputs of a comparison: metric sets from results or baseline
// files, thresholds from a file or the built-in rules.
#include "etbench/compare/baseline_store.h"
#include "etbench/harness/workflows.h"
#include "etbench/results/results.h"

namespace etbench::harness {

Result<MetricSet> LoadMetricSetFile(const std::string& path) {
  return LoadMetricSet(path, [](const std::string& results_path) -> Result<MetricSet> {
    auto results = results::ReadResultsFile(results_path);
    if (!results.ok()) return results.error();
    return results::ToMetricSet(results.value());
  });
}

Result<Thresholds> LoadThresholdsOrDefault(const std::string& path) {
  if (path.empty()) return DefaultThresholds();
  return LoadThresholdsFile(path);
}

Result<SuiteConfig> LoadSuite(const std::string& config_path, const ConfigOverrides& overrides) {
  auto config = LoadSuiteConfig(config_path);
  if (!config.ok()) return config.error();
  if (Status s = ApplyOverrides(overrides, &config.value()); !s.ok()) return s.error();
  return config;
}

}  // namespace etbench::harness
