#include "etbench/harness/orchestrator.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "etbench/harness/host_info.h"
#include "etbench/base/sha256.h"
#include "etbench/base/utc_date.h"
#include "etbench/base/utf8.h"
#include "etbench/harness/etdump_processing.h"
#include "etbench/harness/output_dir.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/time_scale.h"
#include "etbench/base/atomic_file.h"
#include "run_staging.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

// Captured output kept in the results of a failed model (the tail, where
// the error usually is).
constexpr std::size_t kKeptOutputBytes = 64 * 1024;

std::string KeepTail(const std::string& text) {
  if (text.size() <= kKeptOutputBytes) return SanitizeUtf8(text);
  const std::size_t cut = text.size() - kKeptOutputBytes;
  return "[... " + std::to_string(cut) + " earlier bytes not kept ...]\n" +
         SanitizeUtf8(std::string_view(text).substr(cut));
}

bool Cancelled(const RunDeps& deps) {
  return deps.cancel != nullptr && deps.cancel->load(std::memory_order_relaxed);
}

std::string RelativeTo(const fs::path& path, const fs::path& dir) {
  if (path.empty()) return "";
  const fs::path rel = path.lexically_relative(dir);
  return rel.empty() ? path.string() : rel.string();
}

// Runs one model: every repetition, then its blocks (or benchmarks).
class ModelRun {
 public:
  ModelRun(const SuiteConfig& config, const RunDeps& deps, Runner& runner, const fs::path& out_dir,
           ProgressState* progress)
      : config_(config), deps_(deps), runner_(runner), out_dir_(out_dir), progress_(progress) {}

  /// Labels the runner reported so far (RepetitionOutput::labels).
  const std::map<std::string, std::string>& labels() const { return labels_; }

  results::ModelResult Run(const ModelSpec& spec, int suite_index) {
    results::ModelResult m;
    m.name = spec.name;
    m.suite_index = suite_index;
    m.model_path = spec.path;
    m.unit = config_.unit;
    const double start = deps_.clock->MonotonicSeconds();
    Execute(spec, &m);
    if (m.status == results::ModelStatus::kOk || !m.blocks.empty()) FinalizeBlockStats(&m.blocks);
    if (auto problem = results::FindInvalidSample(m)) {
      // A sample no results file may hold (NaN, negative): the model
      // failed; the rest of the suite still runs and is written.
      Fail(&m, "invalid measurement: " + *problem);
    }
    m.wall_ms = (deps_.clock->MonotonicSeconds() - start) * 1000;
    return m;
  }

 private:
  void Fail(results::ModelResult* m, std::string error, const RepetitionOutput* output = nullptr) {
    m->status =
        output != nullptr && output->interrupted ? results::ModelStatus::kInterrupted : results::ModelStatus::kFailed;
    m->error = std::move(error);
    if (output != nullptr) {
      m->stdout_text = KeepTail(output->stdout_text);
      m->stderr_text = KeepTail(output->stderr_text);
    }
  }

  void Execute(const ModelSpec& spec, results::ModelResult* m) {
    auto sha = Sha256OfFile(spec.path);
    DiskOf(deps_).NoteRead(spec.path);  // hashed: an input of the run
    if (!sha) return Fail(m, sha.error().message);
    m->model_sha256 = *sha;

    const fs::path workdir = out_dir_ / spec.name;
    std::error_code ec;
    fs::remove_all(workdir, ec);  // stale artifacts of an earlier run
    fs::create_directories(workdir, ec);
    if (ec) return Fail(m, workdir.string() + ": cannot create directory: " + ec.message());

    std::optional<Etrecord> etrecord;
    std::string etrecord_path = spec.etrecord_path;
    if (etrecord_path.empty()) {
      // Runners that know the model's graph (the built-in runtime) write
      // its ETRecord, so their runs carry op types and module paths.
      auto written = runner_.WriteEtrecord(spec, workdir.string());
      if (!written) return Fail(m, written.error().message);
      etrecord_path = std::move(written).value();
    }
    if (!etrecord_path.empty()) {
      auto loaded = LoadEtrecord(etrecord_path);
      DiskOf(deps_).NoteRead(etrecord_path);  // libzip opens it itself
      if (!loaded) return Fail(m, loaded.error().message);
      etrecord = std::move(loaded).value();
      m->warnings = etrecord->warnings;
    }

    const bool all_at_once = runner_.RunsAllRepetitionsAtOnce();
    const int calls = all_at_once ? 1 : config_.repetitions;
    // Time-sized runs (ab, gate --base) size each model on its own.
    const int warmup = spec.warmup.value_or(config_.warmup);
    const int iterations = spec.iterations.value_or(config_.iterations);
    const int executions = all_at_once ? 0 : warmup + iterations;
    progress_->executions = executions;
    progress_->repetitions = calls;
    std::map<std::string, std::size_t> benchmark_index;
    for (int r = 0; r < calls; ++r) {
      if (Cancelled(deps_)) {
        m->status = results::ModelStatus::kInterrupted;
        m->error = "interrupted before repetition " + std::to_string(r + 1);
        return;
      }
      RepetitionPlan plan;
      plan.repetition = r;
      plan.repetitions = config_.repetitions;
      plan.warmup = warmup;
      plan.iterations = iterations;
      plan.workdir = workdir.string();
      plan.etdump_path = (workdir / ("rep" + std::to_string(r) + ".etdp")).string();
      plan.debug_output_path = (workdir / ("rep" + std::to_string(r) + ".debug.bin")).string();
      plan.cancel = deps_.cancel;
      progress_->repetition = r;
      progress_->execution = 0;
      const std::size_t done_before = progress_->done_total;
      if (deps_.progress != nullptr) {
        deps_.progress->Update(*progress_);
        plan.on_execution = [this, done_before](int done) {
          progress_->execution = done;
          progress_->done_total = done_before + static_cast<std::size_t>(done);
          deps_.progress->Update(*progress_);
        };
      }

      RepetitionOutput out = runner_.Run(spec, plan);
      progress_->done_total = done_before + static_cast<std::size_t>(all_at_once ? 1 : executions);
      const std::string which =
          all_at_once ? std::string()
                      : "repetition " + std::to_string(r + 1) + "/" + std::to_string(calls) + ": ";
      if (!out.ok) return Fail(m, which + out.error, &out);

      results::RepetitionRecord record;
      record.index = r;
      record.wall_ms = out.wall_ms;
      record.metadata_path = RelativeTo(out.metadata_path, out_dir_);
      record.debug_output_path = RelativeTo(out.debug_output_path, out_dir_);
      record.time_source = out.time_source;
      if (out.has_etdump) {
        record.etdump_path = RelativeTo(plan.etdump_path, out_dir_);
        std::vector<uint8_t> bytes;
        if (out.etdump) {
          bytes = std::move(*out.etdump);
        } else {
          auto read = ReadFileBytes(plan.etdump_path);
          if (!read) return Fail(m, which + read.error().message, &out);
          bytes = std::move(read).value();
        }
        EtdumpProcessOptions options;
        options.unit = config_.unit;
        options.time_source = out.time_source;
        if (out.tick_rate_hz) {
          options.tick_rate_hz = *out.tick_rate_hz;
        } else if (out.time_source == "cycles") {
          if (config_.unit != "cycles") {
            return Fail(m,
                        which +
                            "the run counted cycles but no tick rate is known (set "
                            "tick_rate_hz in the suite, or write a metadata sidecar)",
                        &out);
          }
          options.tick_rate_hz = 0;
        }
        record.tick_rate_hz = options.tick_rate_hz;
        options.delegate_time_sources = out.delegate_time_sources;
        options.delegate_cycles_hz = out.delegate_cycles_hz;
        options.warmup_runs = out.warmup_runs;
        options.expected_execute_runs = out.expected_execute_runs;
        options.etrecord = etrecord ? &*etrecord : nullptr;
        auto processed = ProcessEtdump(std::move(bytes), plan.etdump_path, options);
        if (!processed) return Fail(m, which + processed.error().message, &out);
        record.execute_runs = processed->execute_runs;
        record.warmup_runs_dropped = processed->warmup_runs_dropped;
        for (std::string& w : processed->warnings) {
          if (std::find(m->warnings.begin(), m->warnings.end(), w) == m->warnings.end()) {
            m->warnings.push_back(std::move(w));
          }
        }
        AppendRepetitionBlocks(&m->blocks, std::move(processed->blocks));
      } else {
        record.tick_rate_hz = 0;
      }
      // gbench's samples, or the end-to-end times a program reported beside
      // its ETDump (the ExecuTorch benchmark app).
      if (Status s = AddBenchmarks(out, &benchmark_index, m); !s) {
        return Fail(m, which + s.error().message, &out);
      }
      for (const auto& [key, value] : out.labels) labels_.emplace(key, value);
      m->repetitions.push_back(std::move(record));
    }
    for (results::BenchmarkResult& b : m->benchmarks)
      b.perf_data = PerfData::FromRaw(std::move(b.perf_data.raw));
  }

  Status AddBenchmarks(const RepetitionOutput& out, std::map<std::string, std::size_t>* index,
                       results::ModelResult* m) {
    if (out.benchmarks.empty()) return Ok{};
    auto unit = ParseTimeScale(config_.unit);
    if (!unit || *unit == TimeScale::kCycles) {
      return UsageError("unit '" + config_.unit + "' does not apply to Google Benchmark times");
    }
    for (const BenchmarkSample& s : out.benchmarks) {
      auto from = ParseTimeScale(s.time_unit);
      if (!from) return from.error();
      auto [it, added] = index->emplace(s.name, m->benchmarks.size());
      if (added) {
        results::BenchmarkResult b;
        b.name = s.name;
        // gbench: the time read; a program beside its ETDump: its own figures.
        b.metric = out.has_etdump ? "reported" : config_.gbench.metric;
        m->benchmarks.push_back(std::move(b));
      }
      results::BenchmarkResult& b = m->benchmarks[it->second];
      b.perf_data.raw.push_back(s.value * UnitsPerSecond(*unit) / UnitsPerSecond(*from));
      b.iterations.push_back(s.iterations);
    }
    return Ok{};
  }

  const SuiteConfig& config_;
  const RunDeps& deps_;
  Runner& runner_;
  std::map<std::string, std::string> labels_;
  fs::path out_dir_;
  ProgressState* progress_;
};

}  // namespace

std::string ResultsFileName(const SuiteConfig& config) {
  if (!config.shard) return "results.json";
  return "results-shard-" + std::to_string(config.shard->index) + "-of-" +
         std::to_string(config.shard->count) + ".json";
}

Disk& DiskOf(const RunDeps& deps) { return deps.disk != nullptr ? *deps.disk : DefaultDisk(); }

Result<SuiteRunOutput> RunSuite(const SuiteConfig& config, const RunDeps& deps) {
  if (deps.process_runner == nullptr || deps.clock == nullptr || deps.env == nullptr) {
    return Error{ErrorCode::kInternal,
                 "RunSuite needs a process runner, a clock and an environment"};
  }
  auto selection = SelectModels(config);
  if (!selection) return selection.error();

  const std::string out_dir_text = ResolvedOutputDir(config);
  if (Status s = CheckOutputDir(out_dir_text); !s.ok()) return s.error();
  std::error_code ec;
  fs::create_directories(out_dir_text, ec);
  if (ec) return IoError(out_dir_text + ": cannot create output directory: " + ec.message());
  fs::path out_dir = fs::absolute(out_dir_text, ec).lexically_normal();
  if (ec) out_dir = fs::path(out_dir_text);
  RemoveStaleRunFiles(out_dir);
  // Artifacts go to a private directory first, replacing the previous run's
  // only once this run finished (see RunStaging).
  auto staging = RunStaging::Create(out_dir);
  if (!staging) return staging.error();

  std::unique_ptr<Runner> owned_runner;
  Runner* runner = deps.runner;
  if (runner == nullptr) {
    auto made = MakeRunner(config, RunnerDeps{deps.process_runner, deps.cancel});
    if (!made) return made.error();
    owned_runner = std::move(made).value();
    runner = owned_runner.get();
  }

  if (Status s = CheckCpuAffinity(config.cpu_affinity); !s) return s.error();
  std::vector<ModelSpec> selected;
  for (std::size_t index : *selection) selected.push_back(config.models[index]);
  if (Status s = runner->Prepare(selected); !s) return s.error();

  SuiteRunOutput output;
  results::RunResults& results = output.results;
  results::ResultsMetadata& meta = results.metadata;
  meta.suite = config.suite;
  meta.config_path = config.source_path;
  meta.config_hash = ConfigHash(config);
  meta.runner = runner->Name();
  meta.tool_version = deps.tool_version;
  meta.time_source = config.time_source;
  meta.tick_rate_hz = config.tick_rate_hz.value_or(config.time_source == "ns" ? 1e9 : 0);
  meta.unit = config.unit;
  meta.warmup = config.warmup;
  meta.iterations = config.iterations;
  meta.repetitions = config.repetitions;
  meta.cpu_affinity = config.cpu_affinity;
  const HostInfo host = CollectHostInfo();
  meta.host = host.host;
  meta.cpu = host.cpu;
  meta.os = host.os;
  meta.boot_id = host.boot_id;
  const SourceInfo source = CollectSourceInfo(
      config.labels, *deps.env, deps.query_git ? deps.process_runner : nullptr, host.host);
  meta.device = source.device;
  meta.branch = source.branch;
  meta.git_commit = source.git_commit;
  meta.date = FormatUtcDate(deps.clock->UnixSeconds());
  meta.labels = config.labels;
  meta.thresholds_path = config.thresholds_path;
  if (config.shard) {
    meta.shard_index = config.shard->index;
    meta.shard_count = config.shard->count;
  }

  ProgressState progress;
  progress.model_count = static_cast<int>(selection->size());
  const bool all_at_once = runner->RunsAllRepetitionsAtOnce();
  // Executions planned per model: time-sized runs (ab) size each model on
  // its own, so the suite's warm-up and iterations are only the default.
  std::vector<std::size_t> planned_before{0};  // planned for the models before k
  for (const std::size_t index : *selection) {
    const ModelSpec& spec = config.models[index];
    const std::size_t per_model =
        all_at_once ? 1
                    : static_cast<std::size_t>(config.repetitions) *
                          static_cast<std::size_t>(spec.warmup.value_or(config.warmup) +
                                                   spec.iterations.value_or(config.iterations));
    planned_before.push_back(planned_before.back() + per_model);
  }
  progress.expected_total = planned_before.back();
  ModelRun model_run(config, deps, *runner, staging->dir(), &progress);
  bool have_tick_rate = false;
  for (std::size_t k = 0; k < selection->size(); ++k) {
    if (Cancelled(deps)) break;
    const std::size_t index = (*selection)[k];
    const ModelSpec& spec = config.models[index];
    progress.model = spec.name;
    progress.model_index = static_cast<int>(k);
    progress.done_total = planned_before[k];
    results::ModelResult model = model_run.Run(spec, static_cast<int>(index));
    if (!have_tick_rate && !model.repetitions.empty() &&
        model.repetitions.front().tick_rate_hz > 0) {
      meta.time_source = model.repetitions.front().time_source;
      meta.tick_rate_hz = model.repetitions.front().tick_rate_hz;
      have_tick_rate = true;
    }
    if (deps.progress != nullptr && model.status == results::ModelStatus::kFailed) {
      deps.progress->Message("etbench run: " + model.name + ": failed: " + model.error);
    }
    const bool interrupted = model.status == results::ModelStatus::kInterrupted;
    results.models.push_back(std::move(model));
    if (interrupted) break;
  }
  // The suite's own labels win over what a runner reported.
  for (const auto& [key, value] : model_run.labels()) meta.labels.emplace(key, value);
  results.interrupted = Cancelled(deps);
  meta.runner_version = runner->Version();
  if (deps.progress != nullptr) deps.progress->Finish();

  output.results_path = (fs::path(out_dir_text) / ResultsFileName(config)).string();
  std::vector<std::string> model_names;
  for (const results::ModelResult& m : results.models) model_names.push_back(m.name);
  if (Status s = staging->Commit(model_names); !s) return s.error();
  if (Status s = results::WriteResultsFile(output.results_path, results, DiskOf(deps)); !s) {
    return s.error();
  }
  return output;
}

}  // namespace etbench::harness
