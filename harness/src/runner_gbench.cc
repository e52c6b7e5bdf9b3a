// The gbench runner: a Google Benchmark binary with JSON output and
// --benchmark_repetitions; every benchmark becomes a metric with one sample
// per repetition.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "etbench/harness/runner.h"
#include "etbench/base/display_units.h"
#include "etbench/base/input_file.h"

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
    try {
      const auto context =
          nlohmann::json::parse(*text).value("context", nlohmann::json::object());
      if (context.contains("library_version") && context["library_version"].is_string()) {
        version_ = "google-benchmark " + context["library_version"].get<std::string>();
      } else if (context.contains("library_build_type") &&
                 context["library_build_type"].is_string()) {
        version_ = "google-benchmark (" + context["library_build_type"].get<std::string>() + ")";
      }
    } catch (const nlohmann::json::exception&) {
      // Already parsed once above; nothing more to learn.
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

// The samples of a parsed report; throws nlohmann::json::exception on
// fields of the wrong type.
Result<std::vector<BenchmarkSample>> ReadGbenchSamples(const nlohmann::json& root,
                                                       const std::string& metric,
                                                       const std::string& source_name);

}  // namespace

std::unique_ptr<Runner> MakeGbenchRunner(const SuiteConfig& config, const RunnerDeps& deps) {
  return std::make_unique<GbenchRunner>(config, deps);
}

Result<std::vector<BenchmarkSample>> ParseGbenchJson(const std::string& json,
                                                     const std::string& metric,
                                                     const std::string& source_name) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range.406 for a time such as 1e999.
    return InputError(source_name + ": not Google Benchmark JSON: " + e.what());
  }
  try {
    return ReadGbenchSamples(root, metric, source_name);
  } catch (const nlohmann::json::exception& e) {
    // A field of an unexpected type (e.g. "error_occurred": "yes").
    return InputError(source_name + ": not Google Benchmark JSON: " + e.what());
  }
}

namespace {

Result<std::vector<BenchmarkSample>> ReadGbenchSamples(const nlohmann::json& root,
                                                       const std::string& metric,
                                                       const std::string& source_name) {
  if (!root.is_object() || !root.contains("benchmarks") || !root["benchmarks"].is_array()) {
    return InputError(source_name + ": not Google Benchmark JSON (no \"benchmarks\" list)");
  }
  std::vector<BenchmarkSample> samples;
  std::map<std::string, int> seen;
  const auto& list = root["benchmarks"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& b = list[i];
    const std::string where = source_name + ": benchmarks[" + std::to_string(i) + "]";
    if (!b.is_object()) return InputError(where + ": not an object");
    const auto run_type = b.find("run_type");
    if (run_type != b.end() && *run_type != "iteration") continue;  // aggregates
    std::string name;
    if (b.contains("run_name") && b["run_name"].is_string()) {
      name = b["run_name"].get<std::string>();
    } else if (b.contains("name") && b["name"].is_string()) {
      name = b["name"].get<std::string>();
    } else {
      return InputError(where + ": no name");
    }
    if (b.value("error_occurred", false)) {
      return InputError("benchmark " + name +
                        " failed: " + b.value("error_message", "(no message)"));
    }
    if (b.value("skipped", 0) != 0 && !b.contains(metric)) continue;
    if (!b.contains(metric) || !b[metric].is_number()) {
      return InputError(where + " (" + name + "): no numeric \"" + metric + "\"");
    }
    BenchmarkSample s;
    s.name = name;
    const auto rep = b.find("repetition_index");
    s.repetition = rep != b.end() && rep->is_number_integer() ? rep->get<int>() : seen[name];
    ++seen[name];
    s.value = b[metric].get<double>();
    if (!std::isfinite(s.value) || s.value <= 0) {
      return InputError(where + " (" + name + "): \"" + metric + "\" is " +
                        b[metric].dump() + ", not a positive time");
    }
    s.time_unit = b.value("time_unit", "ns");
    if (!IsTimeUnit(s.time_unit)) {
      return InputError(where + " (" + name + "): unknown time_unit '" + s.time_unit + "'");
    }
    const auto iters = b.find("iterations");
    s.iterations = iters != b.end() && iters->is_number_integer() ? iters->get<int64_t>() : 0;
    samples.push_back(std::move(s));
  }
  return samples;
}

}  // namespace
}  // namespace etbench::harness
