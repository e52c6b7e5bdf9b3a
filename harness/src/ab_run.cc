// `etbench ab`: runs two variants interleaved (ABBA) and merges each side.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>

#include <unistd.h>

#include "etbench/base/atomic_file.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/compare/ab_sequence.h"
#include "etbench/harness/ab.h"
#include "etbench/harness/output_dir.h"
#include "etbench/harness/time_sizing.h"
#include "etbench/results/results.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;


// Whether the runs' directories stay (their ETDumps, when kept, are in them).
bool KeepsRuns(const AbPlan& plan) { return plan.keep_runs || plan.keep_etdumps; }

std::string RunDirName(std::size_t index, AbVariant v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02zu-%s", index + 1, VariantFileName(v));
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

Result<std::string> SaveSide(const AbPlan& plan, AbVariant v, std::size_t blocks,
                             const std::string& layout, MetricSet* side, Disk& disk) {
  Baseline baseline;
  baseline.name = v == AbVariant::kA ? plan.a_description : plan.b_description;
  side->context["ab_settings"] = baseline.name;
  side->context["ab_seed"] = std::to_string(plan.seed);
  side->context["ab_blocks"] = std::to_string(blocks);
  if (!layout.empty()) side->context["ab_layout"] = layout;
  baseline.metrics = *side;
  const std::string path = (fs::path(plan.output_dir) / (std::string(VariantFileName(v)) + ".json")).string();
  if (Status s = SaveBaseline(path, baseline, /*force=*/true, disk); !s) return s.error();
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

  /// ETDump bytes per execution of the next runs go here (calibration).
  std::map<std::string, double>* measured = nullptr;
  /// Gives every run its layout (copy and padding), when set.
  AbLayout* layout = nullptr;

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
    config.labels["ab_variant"] = VariantName(v);
    if (layout != nullptr) layout->Apply(v, &config);
    RunDeps run_deps = deps_;
    // Commit and branch do not change between the runs: ask git once.
    run_deps.query_git = deps_.query_git && output_->run_paths.empty();
    if (deps_.progress != nullptr) {
      job_.step = which;
      job_.spent_s = Elapsed();
      deps_.progress->SetJob(job_);
    }
    const double started = deps_.clock->MonotonicSeconds();
    auto run = RunSuite(config, run_deps);
    if (!run) return Error{run.error().code, which + ": " + run.error().message};
    output_->run_paths.push_back(run->results_path);
    std::error_code size_error;
    const auto results_bytes = fs::file_size(run->results_path, size_error);
    output_->run_bytes.push_back(size_error ? 0.0 : static_cast<double>(results_bytes));
    if (run->results.interrupted) {
      output_->interrupted = true;
      return std::optional<results::RunResults>{};
    }
    if (Status s = CheckAllModelsRan(*run, which); !s) {
      if (layout == nullptr || layout->copies(v).empty()) return s.error();
      return InputError(s.error().message +
                        "; the program ran as a copy (layout randomisation): if it needs files "
                        "beside itself, --no-layout-randomization runs it in place");
    }
    if (measured) {
      for (const auto& [model, bytes] : EtdumpBytesPerExecution(
               run->results, fs::path(run->results_path).parent_path().string())) {
        (*measured)[model] = bytes;
      }
    }
    if (!plan_.keep_etdumps) RemoveEtdumps(*run);
    if (!KeepsRuns(plan_)) RemoveRunDirectory(*run);
    if (count_overhead_) CountOverhead(run->results, deps_.clock->MonotonicSeconds() - started);
    return std::optional<results::RunResults>(std::move(run->results));
  }

  /// From now on, runs count towards AbOverhead, with these seconds per
  /// execution of each model (from calibration; absent: counted as process).
  void CountOverheadFrom(std::map<std::string, double> execution_s) {
    execution_s_ = std::move(execution_s);
    count_overhead_ = true;
  }
  /// Seconds spent in the looks (AbSequence::Add) so far.
  void AddLookSeconds(double s) { looks_s_ += s; }
  /// AbOverhead per block over the counted runs.
  void FinishOverhead(std::size_t blocks) {
    AbOverhead& o = output_->overhead;
    const double n = static_cast<double>(std::max<std::size_t>(1, blocks));
    o.execute_s = execute_s_ / n;
    o.process_s = process_s_ / n;
    o.etdump_s = etdump_s_ / n;
    o.results_s = results_s_ / n;
    o.looks_s = looks_s_ / n;
    o.block_s = o.execute_s + o.process_s + o.etdump_s + o.results_s + o.looks_s;
  }

 private:
  // Once a run's numbers are in its results file its ETDumps are not read
  // again; a comparison of a 1 µs model makes hundreds of them.
  void RemoveEtdumps(const SuiteRunOutput& run) {
    const fs::path dir = fs::path(run.results_path).parent_path();
    for (const results::ModelResult& m : run.results.models) {
      for (const results::RepetitionRecord& r : m.repetitions) {
        for (const std::string* rel : {&r.etdump_path, &r.debug_output_path}) {
          if (rel->empty()) continue;
          std::error_code ec;
          const fs::path path = dir / *rel;
          const auto size = fs::file_size(path, ec);
          if (ec || !fs::remove(path, ec) || ec) continue;
          ++output_->etdumps_removed;
          output_->etdump_bytes_removed += static_cast<double>(size);
        }
      }
    }
  }

  // Once its numbers were read back, a run's directory (its results file,
  // the runner's files) is not read again: the merged sides hold every
  // sample (AbPlan::keep_runs).
  static void RemoveRunDirectory(const SuiteRunOutput& run) {
    std::error_code ec;
    fs::remove_all(fs::path(run.results_path).parent_path(), ec);
  }

  // Splits the run's wall time: the models' executions (estimated), the
  // rest of the runner's processes, ETDump processing, and the rest.
  void CountOverhead(const results::RunResults& results, double wall_s) {
    double models_s = 0, processes_s = 0, execute_s = 0;
    for (const results::ModelResult& m : results.models) {
      models_s += m.wall_ms / 1000;
      const auto per = execution_s_.find(m.name);
      for (const results::RepetitionRecord& r : m.repetitions) {
        processes_s += r.wall_ms / 1000;
        if (per != execution_s_.end()) execute_s += per->second * static_cast<double>(r.execute_runs);
      }
    }
    execute_s = std::min(execute_s, processes_s);
    execute_s_ += execute_s;
    process_s_ += processes_s - execute_s;
    etdump_s_ += std::max(0.0, models_s - processes_s);
    results_s_ += std::max(0.0, wall_s - std::max(models_s, processes_s));
  }

  bool count_overhead_ = false;
  std::map<std::string, double> execution_s_;
  double execute_s_ = 0, process_s_ = 0, etdump_s_ = 0, results_s_ = 0, looks_s_ = 0;

  const AbPlan& plan_;
  const RunDeps& deps_;
  AbRunOutput* output_;
  double start_s_;
  JobProgress job_;
};

// What follows the final look, in looks at the same runs (AbSequence::
// SetFinishLooks): copying and saving both merged sides (the final look's
// merge and comparison are reused). Measured 1.2–1.6 looks (executor_runner
// A/A, 126–153 blocks, busy machine); before the reuse, merging and
// comparing again made it 2.3–2.9.
constexpr double kFinishLooks = 2;

// Time sizing: one calibration run of each variant (also warms the
// machine up), then both variants get the same executions per model.
Status Calibrate(const AbPlan& plan, AbRunner& runner, SuiteConfig* a, SuiteConfig* b,
                 AbRunOutput* output) {
  std::vector<results::RunResults> calibration;
  std::map<std::string, double> bytes_per_execution;
  runner.measured = &bytes_per_execution;
  for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
    auto run = runner.Run(v == AbVariant::kA ? *a : *b, v,
                          std::string("calibration-") + VariantFileName(v),
                          std::string("ab calibration (") + VariantName(v) + ")");
    if (!run) return run.error();
    if (!*run) return Ok{};
    calibration.push_back(std::move(**run));
  }
  runner.measured = nullptr;
  TimeSizing sizing;
  sizing.min_time_s = plan.min_time_s;
  sizing.warmup_time_s = plan.warmup_time_s;
  const auto sizes = SizeByTime(calibration, *a, sizing, bytes_per_execution);
  ApplyTimeSizes(sizes, plan.min_time_s, a);
  ApplyTimeSizes(sizes, plan.min_time_s, b);
  std::map<std::string, double> execution_s;
  for (const auto& [name, size] : sizes) {
    output->iterations[name] = size.iterations;
    output->warmup[name] = size.warmup;
    execution_s[name] = size.execution_s;
    if (!size.capped_by.empty()) {
      output->capped_by[name] = size.capped_by;
      output->time_iterations[name] = size.time_iterations;
    }
  }
  runner.CountOverheadFrom(std::move(execution_s));
  return Ok{};
}

constexpr int kFewestBlocks = 20, kMostBlocks = 1000;

// Blocks whose runs fit the disk budget, for runs whose results files hold
// `run_bytes` each: per block 4 runs, each one's samples in a merged side
// and, when the runs are kept, its results file and 2 directories too.
int BlocksWithinDisk(const AbPlan& plan, double run_bytes) {
  constexpr double kDirectoryBytes = 2 * 4096;
  const double per_run = KeepsRuns(plan) ? 2 * run_bytes + kDirectoryBytes : run_bytes;
  const double per_block = 4 * std::max(per_run, 1.0);
  return static_cast<int>(std::clamp(std::floor(plan.disk_budget_bytes / per_block),
                                     static_cast<double>(kFewestBlocks),
                                     static_cast<double>(kMostBlocks)));
}

// The mean of `output.run_bytes[first, first + n)`; 0 when any is unknown.
double MeanRunBytes(const AbRunOutput& output, std::size_t first, std::size_t n) {
  if (output.run_bytes.size() < first + n) return 0;
  double sum = 0;
  for (std::size_t i = first; i < first + n; ++i) {
    if (output.run_bytes[i] <= 0) return 0;
    sum += output.run_bytes[i];
  }
  return sum / static_cast<double>(n);
}

// The block limit before the first block, from the calibration runs'
// results files (the first two runs). They hold fewer executions than the
// sized runs, so this is an upper limit: the first block lowers it
// (FirstBlockLimit).
int MaxBlocks(const AbPlan& plan, const AbRunOutput& output) {
  if (plan.max_blocks > 0) return plan.max_blocks;
  constexpr int kWithoutCalibration = 100;
  if (output.iterations.empty()) return kWithoutCalibration;
  const double bytes = MeanRunBytes(output, 0, 2);
  return bytes > 0 ? BlocksWithinDisk(plan, bytes) : kWithoutCalibration;
}

// The block limit from the first block's 4 runs (`first`: the index of its
// first run), sized as every later run; never above `limit`.
int FirstBlockLimit(const AbPlan& plan, const AbRunOutput& output, std::size_t first,
                    int limit) {
  if (plan.max_blocks > 0) return limit;
  const double bytes = MeanRunBytes(output, first, 4);
  return bytes > 0 ? std::min(limit, BlocksWithinDisk(plan, bytes)) : limit;
}

// Ctrl-C between runs, when the runs' directories were removed once read:
// what ran is kept as each side's merged runs so far (a side without a
// run is left out; a side that cannot be saved is left out too, the
// interruption is what the command reports).
void SaveInterruptedSides(const AbPlan& plan, const AbSequence& sequence, AbRunOutput* output,
                          Disk& disk) {
  for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
    if (std::find(output->order.begin(), output->order.end(), v) == output->order.end()) continue;
    auto merged = sequence.Side(v);
    if (!merged) continue;
    auto path = SaveSide(plan, v, sequence.blocks(), output->layout, &merged.value(), disk);
    if (path) (v == AbVariant::kA ? output->a_path : output->b_path) = *path;
  }
}

// The layout copies go to <output_dir>/.etbench-run-PID/: the name of a
// run's staging directory, so that one left by a killed etbench is removed
// by the next ab in the same directory (RemoveStaleRunFiles).
Result<std::unique_ptr<AbLayout>> MakeLayout(const AbPlan& plan, const SuiteConfig& a,
                                             const SuiteConfig& b) {
  std::error_code ec;
  fs::create_directories(plan.output_dir, ec);
  if (ec) return IoError(plan.output_dir + ": cannot create: " + ec.message());
  RemoveStaleRunFiles(plan.output_dir);
  const std::string dir =
      (fs::path(plan.output_dir) / (kRunStagingPrefix + std::to_string(getpid()))).string();
  return AbLayout::Create(a, b, plan.layout, plan.seed, dir);
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
  if (Status s = CheckOutputDir(plan.output_dir); !s.ok()) return s.error();
  const double start = deps.clock->MonotonicSeconds();
  const auto elapsed = [&] { return deps.clock->MonotonicSeconds() - start; };
  AbRunOutput output;
  AbRunner runner(plan, deps, &output);
  SuiteConfig a = a_in, b = b_in;
  // Made before the first run, removed when RunAb returns (also on errors).
  std::unique_ptr<AbLayout> layout;
  if (plan.layout.enabled) {
    auto made = MakeLayout(plan, a, b);
    if (!made) return made.error();
    layout = std::move(made).value();
    output.layout = layout->Describe();
    runner.layout = layout.get();
  }
  // Progress: the job's budget (sequential) and its runs, blocks and models.
  JobProgress& job = runner.job();
  job.open_ended = sequential;
  job.budget_s = sequential ? plan.budget_s : 0;
  job.calibration = true;
  if ((plan.min_time_s > 0 || plan.warmup_time_s > 0) && CanSizeByTime(a) && CanSizeByTime(b)) {
    if (Status s = Calibrate(plan, runner, &a, &b, &output); !s) return s.error();
    if (output.interrupted) return output;
  } else {
    if (plan.min_time_s > 0) {
      ApplyTimeSizes({}, plan.min_time_s, &a);  // gbench sizes itself
      ApplyTimeSizes({}, plan.min_time_s, &b);
    }
    runner.CountOverheadFrom({});
  }

  int max_blocks = sequential ? MaxBlocks(plan, output) : plan.blocks;
  const std::size_t first_block_run = output.run_bytes.size();
  const std::vector<AbVariant> order = AbbaSchedule(max_blocks, plan.seed);
  const std::size_t total = static_cast<std::size_t>(max_blocks) * 4;
  AbSequence sequence(static_cast<std::size_t>(max_blocks), sequential, plan.budget_s,
                      plan.thresholds, elapsed());
  sequence.SetFinishLooks(kFinishLooks);
  job.calibration = false;
  job.schedule_start_s = runner.Elapsed();
  job.runs_total = total;
  for (std::size_t i = 0; i < total; ++i) {
    const AbVariant v = order[i];
    const std::string which = "ab run " + std::to_string(i + 1) +
                              (sequential ? "" : "/" + std::to_string(total)) + " (" + VariantName(v) +
                              ")";
    // A model decided at an earlier look is not run again.
    SuiteConfig config = v == AbVariant::kA ? a : b;
    if (Status s = LeaveOut(sequence.stopped(), &config); !s) return s.error();
    job.runs_done = i;
    job.models_decided = sequence.stopped().size();
    auto run = runner.Run(std::move(config), v, RunDirName(i, v), which);
    if (!run) return run.error();
    if (!*run) {
      if (!KeepsRuns(plan)) SaveInterruptedSides(plan, sequence, &output, DiskOf(deps));
      return output;
    }
    job.models_total = std::max(job.models_total, (**run).models.size());
    output.order.push_back(v);
    if (sequential && i == 3) {
      // The first block is complete: its results files set the disk's
      // block limit before the looks are planned from it.
      max_blocks = FirstBlockLimit(plan, output, first_block_run, max_blocks);
      sequence.LowerBlockLimit(static_cast<std::size_t>(max_blocks));
      job.runs_total = static_cast<std::size_t>(max_blocks) * 4;
    }
    const double look_start = elapsed();
    MetricSet metrics = results::ToMetricSet(**run);
    auto stop = sequence.Add(std::move(metrics), v, elapsed());
    if (!stop) return stop.error();
    const double look_s = elapsed() - look_start;
    runner.AddLookSeconds(look_s);
    sequence.AddTook(look_s);
    output.blocks = sequence.blocks();
    if (*stop) break;
  }
  runner.FinishOverhead(output.blocks);

  sequence.Finish();
  output.budget_spent = sequence.budget_spent();
  output.block_limit = sequence.block_limit_reached();
  output.max_blocks = max_blocks;
  MetricSet* merged_sides[2] = {&output.a, &output.b};
  std::string* paths[2] = {&output.a_path, &output.b_path};
  for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
    auto merged = sequence.Side(v);
    if (!merged) return merged.error();
    *merged_sides[VariantIndex(v)] = std::move(merged).value();
    auto path = SaveSide(plan, v, output.blocks, output.layout, merged_sides[VariantIndex(v)],
                         DiskOf(deps));
    if (!path) return path.error();
    *paths[VariantIndex(v)] = *path;
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
