// `etbench ab`: runs two variants interleaved (ABBA) and merges each side.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "etbench/compare/baseline_store.h"
#include "etbench/compare/ab_sequence.h"
#include "etbench/harness/ab.h"
#include "etbench/harness/time_sizing.h"
#include "etbench/results/results.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

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
  for (const results::ModelResult& m : run.results.models) {
    if (m.status == results::ModelStatus::kOk) continue;
    return InputError(which + ": model '" + m.name + "' failed: " + m.error + " (see " +
                      run.results_path + ")");
  }
  return Ok{};
}

// Leaves the stopped models out of `config`'s selection (an empty
// selection runs every model: the names are then all of the suite's).
Status LeaveOut(const std::map<std::string, ModelStop>& stopped, SuiteConfig* config) {
  if (stopped.empty()) return Ok{};
  config->shard.reset();  // as every ab run (AbRunner::Run)
  auto selected = SelectModels(*config);
  if (!selected) return selected.error();
  std::vector<std::string> keep;
  for (const std::size_t i : *selected) {
    const std::string& name = config->models[i].name;
    if (stopped.count(name) == 0) keep.push_back(name);
  }
  // AbSequence never stops the last model run; keep the selection if a
  // stopped name is no model of this variant's suite.
  if (!keep.empty()) config->model_filter = std::move(keep);
  return Ok{};
}

Result<std::string> SaveSide(const AbPlan& plan, AbVariant v, std::size_t blocks, MetricSet* side) {
  Baseline baseline;
  baseline.name = v == AbVariant::kA ? plan.a_description : plan.b_description;
  side->context["ab_settings"] = baseline.name;
  side->context["ab_seed"] = std::to_string(plan.seed);
  side->context["ab_blocks"] = std::to_string(blocks);
  baseline.metrics = *side;
  const std::string path = (fs::path(plan.output_dir) / (std::string(Lower(v)) + ".json")).string();
  if (Status s = SaveBaseline(path, baseline, /*force=*/true); !s) return s.error();
  return path;
}

// Runs the suites one run at a time, in order, counting and naming them.
class AbRunner {
 public:
  AbRunner(const AbPlan& plan, const RunDeps& deps, AbRunOutput* output)
      : plan_(plan), deps_(deps), output_(output), start_s_(deps.clock->MonotonicSeconds()) {}

  /// The whole job as the progress line shows it (RunAb keeps it current).
  JobProgress& job() { return job_; }
  double Elapsed() const { return deps_.clock->MonotonicSeconds() - start_s_; }

  /// One run of `config` as variant `v`; nullopt when interrupted.
  Result<std::optional<results::RunResults>> Run(SuiteConfig config, AbVariant v, const std::string& dir,
                                        const std::string& which) {
    if (deps_.cancel != nullptr && deps_.cancel->load(std::memory_order_relaxed)) {
      output_->interrupted = true;
      return std::optional<results::RunResults>{};
    }
    // One process per run. Google Benchmark runs all its repetitions in
    // that one process, so a gbench run keeps the suite's repetitions (the
    // run's median over them is its location); other runners start one
    // process per repetition, so a run is one repetition.
    if (config.runner != RunnerKind::kGbench) config.repetitions = 1;
    config.shard.reset();
    config.output_dir = (fs::path(plan_.output_dir) / dir).string();
    config.labels["ab_variant"] = Upper(v);
    RunDeps run_deps = deps_;
    // Commit and branch do not change between the runs: ask git once.
    run_deps.query_git = deps_.query_git && output_->run_paths.empty();
    if (deps_.progress != nullptr) {
      job_.step = which;
      job_.spent_s = Elapsed();
      deps_.progress->SetJob(job_);
    }
    auto run = RunSuite(config, run_deps);
    if (!run) return Error{run.error().code, which + ": " + run.error().message};
    output_->run_paths.push_back(run->results_path);
    if (run->results.interrupted) {
      output_->interrupted = true;
      return std::optional<results::RunResults>{};
    }
    if (Status s = CheckAllModelsRan(*run, which); !s) return s.error();
    return std::optional<results::RunResults>(std::move(run->results));
  }

 private:
  const AbPlan& plan_;
  const RunDeps& deps_;
  AbRunOutput* output_;
  double start_s_;
  JobProgress job_;
};

// Time sizing: one calibration run of each variant (also warms the
// machine up), then both variants get the same executions per model.
Status Calibrate(const AbPlan& plan, AbRunner& runner, SuiteConfig* a, SuiteConfig* b,
                 AbRunOutput* output) {
  std::vector<results::RunResults> calibration;
  for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
    auto run = runner.Run(v == AbVariant::kA ? *a : *b, v,
                          std::string("calibration-") + Lower(v),
                          std::string("ab calibration (") + Upper(v) + ")");
    if (!run) return run.error();
    if (!*run) return Ok{};
    calibration.push_back(std::move(**run));
  }
  const auto sizes = SizeByTime(calibration, *a, plan.min_time_s, plan.warmup_time_s);
  ApplyTimeSizes(sizes, plan.min_time_s, a);
  ApplyTimeSizes(sizes, plan.min_time_s, b);
  for (const auto& [name, size] : sizes) {
    output->iterations[name] = size.iterations;
    output->warmup[name] = size.warmup;
  }
  return Ok{};
}

}  // namespace

Result<AbRunOutput> RunAb(const SuiteConfig& a_in, const SuiteConfig& b_in, const AbPlan& plan,
                          const RunDeps& deps) {
  if (plan.blocks < 0) return UsageError("--blocks must be at least 1");
  const bool sequential = plan.blocks == 0;
  if (sequential && plan.thresholds == nullptr) {
    return UsageError("a sequential ab needs thresholds");
  }
  if (plan.output_dir.empty()) return UsageError("the ab output directory is empty");
  const double start = deps.clock->MonotonicSeconds();
  const auto elapsed = [&] { return deps.clock->MonotonicSeconds() - start; };
  AbRunOutput output;
  AbRunner runner(plan, deps, &output);
  SuiteConfig a = a_in, b = b_in;
  // Progress: the job's budget (sequential) and its runs, blocks and models.
  JobProgress& job = runner.job();
  job.open_ended = sequential;
  job.budget_s = sequential ? plan.budget_s : 0;
  job.calibration = true;
  if ((plan.min_time_s > 0 || plan.warmup_time_s > 0) && CanSizeByTime(a) && CanSizeByTime(b)) {
    if (Status s = Calibrate(plan, runner, &a, &b, &output); !s) return s.error();
    if (output.interrupted) return output;
  } else if (plan.min_time_s > 0) {
    ApplyTimeSizes({}, plan.min_time_s, &a);  // gbench sizes itself
    ApplyTimeSizes({}, plan.min_time_s, &b);
  }

  const int max_blocks = sequential ? std::max(1, plan.max_blocks) : plan.blocks;
  const std::vector<AbVariant> order = AbbaSchedule(max_blocks, plan.seed);
  const std::size_t total = static_cast<std::size_t>(max_blocks) * 4;
  AbSequence sequence(static_cast<std::size_t>(max_blocks), sequential, plan.budget_s,
                      plan.thresholds, elapsed());
  job.calibration = false;
  job.schedule_start_s = runner.Elapsed();
  job.runs_total = total;
  for (std::size_t i = 0; i < total; ++i) {
    const AbVariant v = order[i];
    const std::string which = "ab run " + std::to_string(i + 1) +
                              (sequential ? "" : "/" + std::to_string(total)) + " (" + Upper(v) +
                              ")";
    // A model decided at an earlier look is not run again.
    SuiteConfig config = v == AbVariant::kA ? a : b;
    if (Status s = LeaveOut(sequence.stopped(), &config); !s) return s.error();
    job.runs_done = i;
    job.models_decided = sequence.stopped().size();
    auto run = runner.Run(std::move(config), v, RunDirName(i, v), which);
    if (!run) return run.error();
    if (!*run) return output;
    job.models_total = std::max(job.models_total, (**run).models.size());
    output.order.push_back(v);
    auto stop = sequence.Add(results::ToMetricSet(**run), v, elapsed());
    if (!stop) return stop.error();
    output.blocks = sequence.blocks();
    if (*stop) break;
  }

  sequence.Finish();
  output.budget_spent = sequence.budget_spent();
  MetricSet* merged_sides[2] = {&output.a, &output.b};
  std::string* paths[2] = {&output.a_path, &output.b_path};
  for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
    auto merged = sequence.Side(v);
    if (!merged) return merged.error();
    *merged_sides[Index(v)] = std::move(merged).value();
    auto path = SaveSide(plan, v, output.blocks, merged_sides[Index(v)]);
    if (!path) return path.error();
    *paths[Index(v)] = *path;
  }
  output.dropped_blocks = sequence.dropped_blocks();
  for (const auto& [model, stop] : sequence.stopped()) {
    output.stopped_models[model] = Decision{stop.blocks, stop.seconds};
  }
  output.seconds = elapsed();
  if (plan.thresholds != nullptr) {
    auto compared = sequence.Compare(output.a, output.b, output.seconds);
    if (!compared) return compared.error();
    output.comparison = std::move(compared).value();
  }
  return output;
}

}  // namespace etbench::harness
