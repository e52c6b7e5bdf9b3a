// The baseline workflows: results files stored as a suite's baseline.
#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/workflows.h"
#include "etbench/results/input_files.h"

namespace etbench::harness {
namespace {

// The metric sets of `inputs` merged: samples and their repetition groups
// concatenated in order. All must be of one suite, time source and unit.
Result<MetricSet> LoadAndMerge(const std::vector<std::string>& inputs, Disk& disk) {
  std::vector<MetricSet> sets;
  for (const std::string& input : inputs) {
    auto metrics = results::LoadMetricSetFile(input, disk);
    if (!metrics.ok()) return metrics.error();
    for (const char* key : {"suite", "time_source", "unit"}) {
      if (!sets.empty() && ContextValue(*metrics, key) != ContextValue(sets.front(), key)) {
        return InputError(input + ": " + key + " '" + ContextValue(*metrics, key) + "' differs from '" +
                          ContextValue(sets.front(), key) + "' in " + inputs.front());
      }
    }
    sets.push_back(std::move(metrics).value());
  }
  if (sets.size() == 1) return std::move(sets.front());
  return MergeMetricSets(sets);
}

}  // namespace

Result<SavedBaseline> SaveBaselineFromResults(const BaselineSaveRequest& request, Disk& disk) {
  auto metrics = LoadAndMerge(request.inputs, disk);
  if (!metrics.ok()) return metrics.error();
  Baseline baseline;
  baseline.metrics = std::move(metrics).value();
  baseline.name = request.name.empty() ? ContextValue(baseline.metrics, "suite") : request.name;
  SavedBaseline saved;
  saved.path = request.path;
  if (saved.path.empty()) {
    saved.path = DefaultBaselinePath(request.root, ContextValue(baseline.metrics, "device"),
                                     ContextValue(baseline.metrics, "suite"));
  }
  if (Status s = SaveBaseline(saved.path, baseline, request.force, disk); !s.ok()) {
    return s.error();
  }
  saved.metric_count = baseline.metrics.metrics.size();
  saved.inputs = request.inputs;
  return saved;
}

Result<SavedBaseline> UpdateBaseline(const std::string& config_path,
                                     const BaselineSaveRequest& request, Disk& disk) {
  auto config = LoadSuiteConfig(config_path, {}, disk);
  if (!config.ok()) return config.error();
  BaselineSaveRequest update = request;
  update.inputs = {ResolvedOutputDir(config.value()) + "/" + ResultsFileName(config.value())};
  update.force = true;
  return SaveBaselineFromResults(update, disk);
}

}  // namespace etbench::harness
