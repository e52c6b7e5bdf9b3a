// The gbench runner: a Google Benchmark binary with JSON output and
// --benchmark_repetitions; every benchmark becomes a metric with one sample
// per repetition.
#include <cstdio>
#include <filesystem>

#include "etbench/base/input_file.h"
#include "etbench/base/json_reader.h"
#include "etbench/harness/runner.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

class GbenchRunner : public Runner {
 public:
  GbenchRunner(const SuiteConfig& config, const RunnerDeps& deps)
      : options_(config.gbench), cpu_affinity_(config.cpu_affinity), deps_(deps) {}

  std::string Name() const override { return "gbench"; }
  std::string Version() const override { return version_; }
  bool RunsAllRepetitionsAtOnce() const override { return true; }

  RepetitionOutput Run(const ModelSpec& model, const RepetitionPlan& plan) override {
    RepetitionOutput out;
    out.has_etdump = false;
    const std::string json_path = plan.workdir + "/gbench.json";
    std::remove(json_path.c_str());

    ProcessSpec spec;
    std::error_code ec;
    const fs::path binary = fs::absolute(model.path, ec);
    spec.argv.push_back(ec ? model.path : binary.lexically_normal().string());
    spec.argv.push_back("--benchmark_out=" + json_path);
    spec.argv.push_back("--benchmark_out_format=json");
    spec.argv.push_back("--benchmark_repetitions=" + std::to_string(plan.repetitions));
    if (!model.filter.empty()) spec.argv.push_back("--benchmark_filter=" + model.filter);
    if (options_.min_time_s > 0) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "--benchmark_min_time=%g", options_.min_time_s);
      spec.argv.push_back(buf);
    }
    spec.argv.insert(spec.argv.end(), options_.args.begin(), options_.args.end());
    spec.argv.insert(spec.argv.end(), model.args.begin(), model.args.end());
    spec.env = options_.process.env;
    spec.working_dir = options_.process.working_dir;
    spec.timeout_s = options_.process.timeout_s;
    spec.kill_grace_s = options_.process.kill_grace_s;
    spec.cpu_affinity = cpu_affinity_;

    const ProcessResult result = deps_.process_runner->Run(spec, deps_.cancel);
    out.stdout_text = result.stdout_text;
    out.stderr_text = result.stderr_text;
    out.wall_ms = result.wall_s * 1000;
    const std::string program = fs::path(model.path).filename().string();
    if (!result.Succeeded()) {
      out.ok = false;
      out.interrupted = result.interrupted;
      out.error = "'" + program + "' " + DescribeProcessExit(result, spec.timeout_s);
      return out;
    }
    auto text = ReadTextFile(json_path);
    if (!text.ok()) {
      out.ok = false;
      out.error = "'" + program + "' exited with status 0 but wrote no benchmark JSON at " +
                  json_path + " (is it a Google Benchmark binary?): " + text.error().message;
      return out;
    }
    auto samples = ParseGbenchJson(*text, options_.metric, json_path);
    if (!samples) {
      out.ok = false;
      out.error = samples.error().message;
      return out;
    }
    if (samples->empty()) {
      out.ok = false;
      out.error = "'" + program + "' ran no benchmarks" +
                  (model.filter.empty() ? std::string() : " (filter '" + model.filter + "')");
      return out;
    }
    out.benchmarks = std::move(samples).value();
    out.metadata_path = json_path;
    if (auto doc = ParseJson(*text, json_path); doc.ok()) {
      const JsonValue context = doc->root().Get("context");
      if (context.Get("library_version").is_string()) {
        version_ = "google-benchmark " + *context.Get("library_version").String();
      } else if (context.Get("library_build_type").is_string()) {
        version_ = "google-benchmark (" + *context.Get("library_build_type").String() + ")";
      }
    }
    if (plan.on_execution) plan.on_execution(1);
    return out;
  }

 private:
  GbenchOptions options_;
  std::vector<int> cpu_affinity_;
  RunnerDeps deps_;
  std::string version_;
};

}  // namespace

std::unique_ptr<Runner> MakeGbenchRunner(const SuiteConfig& config, const RunnerDeps& deps) {
  return std::make_unique<GbenchRunner>(config, deps);
}

}  // namespace etbench::harness
