// The command runner: any program that writes an ETDump (executor_runner,
// et_runner, an adb/ssh wrapper). One fresh process per repetition running
// warm-up + iterations executions; the argv template is expanded without a
// shell.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>

#include "etbench/base/input_file.h"
#include "etbench/base/sha256.h"
#include "etbench/runner_protocol/run_metadata.h"
#include "etbench/harness/runner.h"
#include "etbench/results/benchmark_app_json.h"
#include "run_metadata_reader.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

std::string Absolute(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

bool UsesPlaceholder(const std::vector<std::string>& argv, const std::string& name) {
  const std::string token = "{" + name + "}";
  for (const std::string& element : argv) {
    if (element.find(token) != std::string::npos) return true;
  }
  return false;
}

off_t FileSize(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  return st.st_size;
}

// The program's SHA-256, hashed once per version of the file (device,
// inode, size, modification time): `ab` asks for the runner's identity at
// every run, hundreds a minute, and hashing a 0.5 MB executor_runner each
// time was about a quarter of etbench's own CPU there. Empty when the file
// cannot be read.
std::string ProgramSha256(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "";
  const std::string key = path + '\n' + std::to_string(st.st_dev) + ':' +
                          std::to_string(st.st_ino) + ':' + std::to_string(st.st_size) + ':' +
                          std::to_string(st.st_mtim.tv_sec) + '.' +
                          std::to_string(st.st_mtim.tv_nsec);
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  auto sha = Sha256OfFile(path);
  if (!sha) return "";
  std::lock_guard<std::mutex> lock(mutex);
  return known.emplace(key, *sha).first->second;
}

class CommandRunner : public Runner {
 public:
  CommandRunner(const SuiteConfig& config, const RunnerDeps& deps)
      : options_(config.command),
        time_source_(config.time_source),
        tick_rate_hz_(config.tick_rate_hz),
        cpu_affinity_(config.cpu_affinity),
        deps_(deps),
        counts_iterations_(UsesPlaceholder(config.command.argv, "iterations")) {}

  std::string Name() const override { return "command"; }

  std::string Version() const override {
    if (options_.argv.empty()) return "";
    std::string path_env;
    if (auto it = options_.process.env.find("PATH"); it != options_.process.env.end()) {
      path_env = it->second;
    } else if (const char* p = std::getenv("PATH")) {
      path_env = p;
    }
    const std::string exe = FindExecutable(options_.argv.front(), path_env);
    if (exe.empty()) return options_.argv.front();
    const std::string sha = ProgramSha256(exe);
    return fs::path(exe).filename().string() + " sha256:" + (sha.empty() ? "?" : sha.substr(0, 16));
  }

  RepetitionOutput Run(const ModelSpec& model, const RepetitionPlan& plan) override {
    RepetitionOutput out;
    const int executions = plan.warmup + plan.iterations;
    const std::map<std::string, std::string> values = {
        {"model", Absolute(model.path)},
        {"name", model.name},
        {"etdump", plan.etdump_path},
        {"debug_output", plan.debug_output_path},
        {"workdir", plan.workdir},
        {"iterations", std::to_string(executions)},
        {"warmup", std::to_string(plan.warmup)},
        {"repetition", std::to_string(plan.repetition)},
        {"time_source", time_source_},
    };
    auto argv = ExpandCommandTemplate(options_.argv, values, model.args);
    if (!argv) {
      out.ok = false;
      out.error = argv.error().message;
      return out;
    }
    std::string metadata_path = RunMetadataPath(plan.etdump_path);
    // Stale files from an earlier run must not pass for this one's.
    const std::string app_results_path = results::BenchmarkAppResultsPath(plan.etdump_path);
    for (const std::string& stale :
         {plan.etdump_path, metadata_path, plan.debug_output_path, app_results_path}) {
      std::remove(stale.c_str());
    }

    ProcessSpec spec;
    spec.argv = std::move(argv).value();
    spec.argv[0] = ResolveProgram(spec.argv[0]);
    spec.env = options_.process.env;
    spec.env["ETBENCH_MODEL"] = values.at("model");
    spec.env["ETBENCH_MODEL_NAME"] = model.name;
    spec.env["ETBENCH_ETDUMP"] = plan.etdump_path;
    spec.env["ETBENCH_DEBUG_OUTPUT"] = plan.debug_output_path;
    spec.env["ETBENCH_WORKDIR"] = plan.workdir;
    spec.env["ETBENCH_ITERATIONS"] = values.at("iterations");
    spec.env["ETBENCH_WARMUP"] = values.at("warmup");
    spec.env["ETBENCH_REPETITION"] = values.at("repetition");
    spec.env["ETBENCH_TIME_SOURCE"] = time_source_;
    spec.working_dir = options_.process.working_dir;
    spec.timeout_s = options_.process.timeout_s;
    spec.kill_grace_s = options_.process.kill_grace_s;
    spec.cpu_affinity = cpu_affinity_;

    const ProcessResult result = deps_.process_runner->Run(spec, deps_.cancel);
    out.stdout_text = result.stdout_text;
    out.stderr_text = result.stderr_text;
    out.wall_ms = result.wall_s * 1000;
    const std::string program = fs::path(spec.argv[0]).filename().string();
    if (!result.Succeeded()) {
      out.ok = false;
      out.interrupted = result.interrupted;
      out.error = "'" + program + "' " + DescribeProcessExit(result, spec.timeout_s);
      return out;
    }
    const off_t size = FileSize(plan.etdump_path);
    if (size < 0) {
      out.ok = false;
      out.error = "'" + program + "' exited with status 0 but wrote no ETDump at " +
                  plan.etdump_path +
                  " (pass {etdump} in command.argv, or write to $ETBENCH_ETDUMP)";
      return out;
    }
    if (size == 0) {
      out.ok = false;
      out.error = "'" + program + "' wrote an empty ETDump at " + plan.etdump_path;
      return out;
    }
    if (plan.on_execution) plan.on_execution(executions);

    out.time_source = time_source_;
    if (tick_rate_hz_) {
      out.tick_rate_hz = tick_rate_hz_;
    } else if (time_source_ == "ns") {
      out.tick_rate_hz = 1e9;
    }
    if (FileSize(metadata_path) >= 0) {
      if (Status s = ReadRunMetadataInto(metadata_path, &out); !s) {
        out.ok = false;
        out.error = s.error().message;
        return out;
      }
      out.metadata_path = metadata_path;
    }
    if (FileSize(plan.debug_output_path) >= 0) out.debug_output_path = plan.debug_output_path;
    // The ExecuTorch benchmark app's own results, pulled beside the ETDump
    // (scripts/minibench-runner.sh): its times join the run as end-to-end
    // benchmarks, its device information as labels.
    if (FileSize(app_results_path) >= 0) {
      if (Status s = ReadBenchmarkAppResults(app_results_path, plan.repetition, &out); !s) {
        out.ok = false;
        out.error = s.error().message;
        return out;
      }
    }
    out.warmup_runs = static_cast<std::size_t>(plan.warmup);
    // Without {iterations} the program decides how often it runs; then any
    // count above the warm-up is accepted.
    if (counts_iterations_) out.expected_execute_runs = static_cast<std::size_t>(executions);
    return out;
  }

 private:
  static Status ReadBenchmarkAppResults(const std::string& path, int repetition,
                                        RepetitionOutput* out) {
    auto text = ReadTextFile(path);
    if (!text) return text.error();
    auto app = results::ParseBenchmarkAppResults(*text, path);
    if (!app) return app.error();
    if (app->load_status && *app->load_status != 0) {
      return InputError(path + ": the benchmark app could not load the model (load_status " +
                        std::to_string(*app->load_status) + ")");
    }
    for (results::BenchmarkSample& s : app->times) {
      s.repetition = repetition;
      out->benchmarks.push_back(std::move(s));
    }
    out->labels = std::move(app->labels);
    return Ok{};
  }

  // Relative program paths are relative to etbench's working directory, not
  // to command.working_dir.
  std::string ResolveProgram(const std::string& program) const {
    if (program.find('/') == std::string::npos) return program;
    return Absolute(program);
  }

  CommandOptions options_;
  std::string time_source_;
  std::optional<double> tick_rate_hz_;
  std::vector<int> cpu_affinity_;
  RunnerDeps deps_;
  bool counts_iterations_;
};

}  // namespace

std::unique_ptr<Runner> MakeCommandRunner(const SuiteConfig& config, const RunnerDeps& deps) {
  return std::make_unique<CommandRunner>(config, deps);
}

}  // namespace etbench::harness
