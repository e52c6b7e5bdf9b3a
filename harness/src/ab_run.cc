// `etbench ab`: runs two variants interleaved (ABBA) and merges each side.

#include <cstdio>
#include <filesystem>
#include <optional>

#include "etbench/compare/baseline_store.h"
#include "etbench/harness/ab.h"
#include "etbench/harness/results.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

// Prefixes the model name of every progress update with the run's place
// in the schedule ("ab 3/12 B · toy_cnn").
class ScheduleProgress : public Progress {
 public:
  ScheduleProgress(Progress* inner, std::string prefix)
      : inner_(inner), prefix_(std::move(prefix)) {}
  void Update(const ProgressState& state) override {
    ProgressState s = state;
    s.model = prefix_ + s.model;
    inner_->Update(s);
  }
  void Message(std::string_view line) override { inner_->Message(line); }
  void Finish() override { inner_->Finish(); }

 private:
  Progress* inner_;
  std::string prefix_;
};

std::size_t Index(AbVariant v) { return v == AbVariant::kA ? 0 : 1; }
const char* Upper(AbVariant v) { return v == AbVariant::kA ? "A" : "B"; }
const char* Lower(AbVariant v) { return v == AbVariant::kA ? "a" : "b"; }

std::string RunDirName(std::size_t index, AbVariant v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02zu-%s", index + 1, Lower(v));
  return buf;
}

// The first failed model of a run, as an error naming the results file.
Status CheckAllModelsRan(const SuiteRunOutput& run, const std::string& which) {
  for (const ModelResult& m : run.results.models) {
    if (m.status == ModelStatus::kOk) continue;
    return InputError(which + ": model '" + m.name + "' failed: " + m.error + " (see " +
                      run.results_path + ")");
  }
  return Ok{};
}

Result<std::string> SaveSide(const AbPlan& plan, AbVariant v, MetricSet* side) {
  Baseline baseline;
  baseline.name = v == AbVariant::kA ? plan.a_description : plan.b_description;
  side->context["ab_settings"] = baseline.name;
  side->context["ab_seed"] = std::to_string(plan.seed);
  side->context["ab_blocks"] = std::to_string(plan.blocks);
  baseline.metrics = *side;
  const std::string path = (fs::path(plan.output_dir) / (std::string(Lower(v)) + ".json")).string();
  if (Status s = SaveBaseline(path, baseline, /*force=*/true); !s) return s.error();
  return path;
}

}  // namespace

Result<AbRunOutput> RunAb(const SuiteConfig& a, const SuiteConfig& b, const AbPlan& plan,
                          const RunDeps& deps) {
  if (plan.blocks < 1) return UsageError("--blocks must be at least 1");
  if (plan.output_dir.empty()) return UsageError("the ab output directory is empty");
  AbRunOutput output;
  output.order = AbbaSchedule(plan.blocks, plan.seed);
  std::vector<MetricSet> sides[2];
  const std::size_t total = output.order.size();
  for (std::size_t i = 0; i < total; ++i) {
    if (deps.cancel != nullptr && deps.cancel->load(std::memory_order_relaxed)) {
      output.interrupted = true;
      return output;
    }
    const AbVariant v = output.order[i];
    SuiteConfig config = v == AbVariant::kA ? a : b;
    config.repetitions = 1;
    config.shard.reset();
    config.output_dir = (fs::path(plan.output_dir) / RunDirName(i, v)).string();
    config.labels["ab_variant"] = Upper(v);

    const std::string which = "ab run " + std::to_string(i + 1) + "/" + std::to_string(total) +
                              " (" + Upper(v) + ")";
    RunDeps run_deps = deps;
    std::optional<ScheduleProgress> progress;
    if (deps.progress != nullptr) {
      progress.emplace(deps.progress, which + " · ");
      run_deps.progress = &*progress;
    }
    auto run = RunSuite(config, run_deps);
    if (!run) return Error{run.error().code, which + ": " + run.error().message};
    output.run_paths.push_back(run->results_path);
    if (run->results.interrupted) {
      output.interrupted = true;
      return output;
    }
    if (Status s = CheckAllModelsRan(*run, which); !s) return s.error();
    sides[Index(v)].push_back(ToMetricSet(run->results));
  }

  MetricSet* merged_sides[2] = {&output.a, &output.b};
  std::string* paths[2] = {&output.a_path, &output.b_path};
  for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
    auto merged = MergeMetricSets(sides[Index(v)]);
    if (!merged) return merged.error();
    *merged_sides[Index(v)] = std::move(merged).value();
    auto path = SaveSide(plan, v, merged_sides[Index(v)]);
    if (!path) return path.error();
    *paths[Index(v)] = *path;
  }
  return output;
}

}  // namespace etbench::harness
