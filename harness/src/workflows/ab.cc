// The `ab` workflow: two variants of a suite, run interleaved (ABBA) and
// compared, B against A.
#include <filesystem>

#include "etbench/harness/workflows.h"

namespace etbench::harness {

std::string DescribeAbVariant(const char* letter, const std::vector<std::string>& settings) {
  std::string text = letter;
  if (settings.empty()) return text + ": the suite as it is";
  for (std::size_t i = 0; i < settings.size(); ++i) text += (i == 0 ? ": " : ", ") + settings[i];
  return text;
}

Result<AbOutcome> Ab(const AbRequest& request, const RunDeps& deps, const AbStartSink& on_start) {
  auto a = LoadAbVariant(request.config_path, request.a_settings, request.overrides, "--a");
  if (!a) return a.error();
  auto b = LoadAbVariant(request.config_path, request.b_settings, request.overrides, "--b");
  if (!b) return b.error();
  auto thresholds = LoadThresholdsOrDefault(
      request.thresholds_path.empty() ? a->thresholds_path : request.thresholds_path);
  if (!thresholds) return thresholds.error();

  AbOutcome outcome;
  AbPlan& plan = outcome.plan;
  plan.blocks = request.blocks;
  plan.seed = request.seed;
  plan.output_dir = request.output_dir.empty()
                        ? (std::filesystem::path(ResolvedOutputDir(*a)) / "ab").string()
                        : request.output_dir;
  plan.a_description = DescribeAbVariant("A", request.a_settings);
  plan.b_description = DescribeAbVariant("B", request.b_settings);
  if (on_start) on_start(plan, AbbaSchedule(plan.blocks, plan.seed));

  auto run = RunAb(*a, *b, plan, deps);
  if (!run) return run.error();
  outcome.run = std::move(run).value();
  outcome.title = a->suite + ": " + plan.a_description + " → " + plan.b_description;
  outcome.a_config = std::move(a).value();
  if (outcome.run.interrupted) return outcome;
  auto comparison = Compare(outcome.run.a, outcome.run.b, *thresholds);
  if (!comparison) return comparison.error();
  outcome.comparison = std::move(comparison).value();
  return outcome;
}

}  // namespace etbench::harness
