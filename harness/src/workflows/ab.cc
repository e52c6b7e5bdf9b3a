// The `ab` workflow: two variants of a suite, run interleaved (ABBA) and
// compared, B against A.
#include <algorithm>
#include <filesystem>

#include "etbench/harness/output_dir.h"
#include "etbench/harness/workflows.h"

namespace etbench::harness {

std::string DescribeAbVariant(const char* letter, const std::vector<std::string>& settings) {
  std::string text = letter;
  if (settings.empty()) return text + ": the suite as it is";
  for (std::size_t i = 0; i < settings.size(); ++i) text += (i == 0 ? ": " : ", ") + settings[i];
  return text;
}

double DefaultAbBudget(const SuiteConfig& config) {
  auto selected = SelectModels(config);
  const std::size_t models = selected ? selected->size() : config.models.size();
  return kAbDefaultBudgetPerModelS * static_cast<double>(std::max<std::size_t>(1, models));
}

Result<AbOutcome> Ab(const AbRequest& request, const RunDeps& deps, const AbStartSink& on_start) {
  auto a = LoadAbVariant(request.config_path, request.a_settings, request.overrides, "--a",
                         DiskOf(deps));
  if (!a) return a.error();
  auto b = LoadAbVariant(request.config_path, request.b_settings, request.overrides, "--b",
                         DiskOf(deps));
  if (!b) return b.error();
  auto thresholds = LoadThresholdsOrDefault(
      request.thresholds_path.empty() ? a->thresholds_path : request.thresholds_path,
      DiskOf(deps));
  if (!thresholds) return thresholds.error();

  AbOutcome outcome;
  AbPlan& plan = outcome.plan;
  plan.blocks = request.blocks;
  plan.budget_s = request.budget_s.value_or(a->budget_s.value_or(DefaultAbBudget(*a)));
  plan.min_time_s = request.iterations_only
                        ? 0
                        : request.min_time_s.value_or(a->min_time_s.value_or(kAbDefaultMinTimeS));
  plan.warmup_time_s =
      request.iterations_only
          ? 0
          : request.warmup_time_s.value_or(a->warmup_time_s.value_or(kAbDefaultWarmupTimeS));
  if (plan.blocks < 0) return UsageError("--blocks must be at least 1");
  if (plan.budget_s <= 0 || plan.min_time_s < 0 || plan.warmup_time_s < 0) {
    return UsageError("--budget must be positive, --min-time and --warmup-time >= 0");
  }
  plan.thresholds = &thresholds.value();
  plan.seed = request.seed;
  plan.keep_etdumps = request.keep_etdumps;
  plan.keep_runs = request.keep_runs;
  plan.layout.enabled = request.layout_randomization;
  plan.output_dir = request.output_dir.empty()
                        ? (std::filesystem::path(ResolvedOutputDir(*a)) / "ab").string()
                        : request.output_dir;
  // Refused before the start is announced (RunAb checks it again).
  if (Status s = CheckOutputDir(plan.output_dir); !s.ok()) return s.error();
  plan.a_description = DescribeAbVariant("A", request.a_settings);
  plan.b_description = DescribeAbVariant("B", request.b_settings);
  if (on_start) {
    on_start(plan, plan.blocks > 0 ? AbbaSchedule(plan.blocks, plan.seed) : std::vector<AbVariant>{});
  }

  auto run = RunAb(*a, *b, plan, deps);
  if (!run) return run.error();
  outcome.run = std::move(run).value();
  plan.thresholds = nullptr;  // points into this function
  outcome.title = a->suite + ": " + plan.a_description + " → " + plan.b_description;
  outcome.a_config = std::move(a).value();
  if (outcome.run.interrupted) return outcome;
  outcome.comparison = std::move(outcome.run.comparison);
  if (!outcome.comparison) return Error{ErrorCode::kInternal, "ab: the runs were not compared"};
  if (request.advisory) {
    outcome.comparison->advisory = true;
    outcome.comparison->advisory_reason = "--advisory";
  }
  return outcome;
}

}  // namespace etbench::harness
