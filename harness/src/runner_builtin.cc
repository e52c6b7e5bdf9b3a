// The builtin runner: the reference runtime in-process. Each repetition
// loads a fresh method (runtime::RunModel) and runs warm-up + iterations
// executions in it; the warm-up Execute runs are dropped later.
#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <map>

#include "etbench/base/atomic_file.h"
#include "etbench/base/sha256.h"
#include "etbench/harness/runner.h"
#include "etbench/runtime/clock.h"
#include "etbench/runtime/model_etrecord.h"
#include "etbench/runtime/model_loader.h"
#include "etbench/runtime/run_metadata.h"
#include "etbench/runtime/run_model.h"
#include "run_metadata_reader.h"
#include "runner_builtin.h"

namespace etbench::harness {
namespace {

// Pins the calling thread for its lifetime and restores the old mask.
class ScopedThreadAffinity {
 public:
  explicit ScopedThreadAffinity(const std::vector<int>& cpus) {
    if (cpus.empty()) return;
    if (pthread_getaffinity_np(pthread_self(), sizeof previous_, &previous_) != 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : cpus) {
      if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
    }
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0) {
      active_ = true;
    } else {
      error_ = "cannot pin to the configured CPUs (cpu_affinity)";
    }
  }
  ~ScopedThreadAffinity() {
    if (active_) pthread_setaffinity_np(pthread_self(), sizeof previous_, &previous_);
  }
  const std::string& error() const { return error_; }

 private:
  cpu_set_t previous_;
  bool active_ = false;
  std::string error_;
};

class BuiltinRunner : public Runner {
 public:
  explicit BuiltinRunner(const SuiteConfig& config)
      : time_source_(config.time_source),
        log_allocations_(config.builtin.log_allocations),
        cpu_affinity_(config.cpu_affinity) {}

  std::string Name() const override { return "builtin"; }
  std::string Version() const override { return "etbench reference runtime"; }

  // Built-in models describe their own graph: their ETRecord goes beside the
  // ETDumps so every built-in run carries op types and module paths.
  Result<std::string> WriteEtrecord(const ModelSpec& spec, const std::string& workdir) override {
    auto model = runtime::LoadModelFile(spec.path);
    if (!model) return model.error();
    const std::string path = workdir + "/" + spec.name + ".etrecord";
    if (Status s = runtime::WriteModelEtrecord(*model, path); !s) return s.error();
    return path;
  }

  RepetitionOutput Run(const ModelSpec& spec, const RepetitionPlan& plan) override {
    RepetitionOutput out;
    const auto start = std::chrono::steady_clock::now();
    auto fail = [&out](std::string message) {
      out.ok = false;
      out.error = std::move(message);
      return out;
    };
    const LoadedModel* loaded = Load(spec);
    if (!loaded->error.empty()) return fail(loaded->error);

    runtime::RunOptions options;
    options.num_executions = plan.warmup + plan.iterations;
    auto source = runtime::ParseTimeSource(time_source_);
    if (!source) return fail(source.error().message);
    options.time_source = *source;
    options.seed = spec.seed;
    options.log_allocations = log_allocations_;
    options.slowdowns = loaded->slowdowns;
    if (plan.on_execution) {
      options.on_execution = [&plan](int index, double) { plan.on_execution(index + 1); };
    }
    if (plan.cancel != nullptr) {
      options.should_stop = [&plan] { return plan.cancel->load(std::memory_order_relaxed); };
    }
    Result<runtime::RunOutput> run = Error{};
    {
      ScopedThreadAffinity pin(cpu_affinity_);
      if (!pin.error().empty()) return fail(pin.error());
      run = runtime::RunModel(loaded->model, options);
    }
    if (!run) {
      out.interrupted = plan.cancel != nullptr && plan.cancel->load(std::memory_order_relaxed);
      return fail(run.error().message);
    }

    if (Status s = WriteArtifactFile(plan.etdump_path, run->etdump); !s) {
      return fail(s.error().message);
    }
    const runtime::RunMetadata metadata = runtime::MakeRunMetadata(
        loaded->model, *run, loaded->sha256, plan.etdump_path, std::nullopt);
    const std::string json = runtime::RunMetadataToJson(metadata);
    out.metadata_path = runtime::RunMetadataPath(plan.etdump_path);
    if (Status s =
            WriteArtifactFile(out.metadata_path, std::vector<uint8_t>(json.begin(), json.end()));
        !s) {
      return fail(s.error().message);
    }

    ApplyRunMetadata(metadata, &out);
    for (const runtime::DelegateRunInfo& d : run->delegates) {
      if (d.time_source == "cycles" && out.time_source != "cycles") {
        out.delegate_cycles_hz = CyclesHz();
      }
    }
    out.warmup_runs = static_cast<std::size_t>(plan.warmup);
    out.expected_execute_runs = static_cast<std::size_t>(options.num_executions);
    out.etdump = std::move(run->etdump);
    out.wall_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
  }

  Status Prepare(const std::vector<ModelSpec>& models) override {
    for (const ModelSpec& spec : models) {
      const LoadedModel* loaded = Load(spec);
      if (!loaded->error.empty()) return UsageError("model '" + spec.name + "': " + loaded->error);
    }
    return Ok{};
  }

 private:
  struct LoadedModel {
    runtime::Model model;
    std::vector<runtime::Slowdown> slowdowns;
    std::string sha256;
    std::string error;
  };

  // Models are parsed once per suite run; each repetition still gets a
  // fresh method.
  const LoadedModel* Load(const ModelSpec& spec) {
    auto it = models_.find(spec.name);
    if (it != models_.end()) return &it->second;
    LoadedModel& loaded = models_[spec.name];
    auto model = runtime::LoadModelFile(spec.path);
    if (!model) {
      loaded.error = model.error().message;
      return &loaded;
    }
    loaded.model = std::move(model).value();
    for (const std::string& flag : spec.slowdown) {
      auto slowdown = runtime::ParseSlowdownFlag(flag);
      if (!slowdown) {
        loaded.error = spec.position + ": slowdown: " + slowdown.error().message;
        return &loaded;
      }
      loaded.slowdowns.push_back(*slowdown);
    }
    if (Status s = runtime::ValidateSlowdowns(loaded.model, loaded.slowdowns); !s) {
      loaded.error = spec.position + ": slowdown: " + s.error().message;
      return &loaded;
    }
    auto sha = Sha256OfFile(spec.path);
    loaded.sha256 = sha ? *sha : "";
    return &loaded;
  }

  double CyclesHz() {
    if (!cycles_hz_) cycles_hz_ = runtime::MeasureTickRate(runtime::TimeSource::kCycles).hz;
    return *cycles_hz_;
  }

  std::string time_source_;
  bool log_allocations_;
  std::vector<int> cpu_affinity_;
  std::map<std::string, LoadedModel> models_;
  std::optional<double> cycles_hz_;
};

}  // namespace

std::unique_ptr<Runner> MakeReferenceRuntimeRunner(const SuiteConfig& config, const RunnerDeps&) {
  return std::make_unique<BuiltinRunner>(config);
}

}  // namespace etbench::harness
