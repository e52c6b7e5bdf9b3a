// Reading the inputs of a suite run and a comparison: thresholds from a file
// or the built-in rules, the suite with the flags applied. (Metric sets come
// from results::LoadMetricSetFile, the one reader of every input file kind.)
#include "etbench/harness/workflows.h"

namespace etbench::harness {

Result<Thresholds> LoadThresholdsOrDefault(const std::string& path, Disk& disk) {
  if (path.empty()) return DefaultThresholds();
  return LoadThresholdsFile(path, disk);
}

Result<SuiteConfig> LoadSuite(const std::string& config_path, const ConfigOverrides& overrides,
                              Disk& disk) {
  auto config = LoadSuiteConfig(config_path, {}, disk);
  if (!config.ok()) return config.error();
  if (Status s = ApplyOverrides(overrides, &config.value()); !s.ok()) return s.error();
  return config;
}

}  // namespace etbench::harness
