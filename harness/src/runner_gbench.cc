// The gbench runner: a Google Benchmark binary with JSON output and
// --benchmark_repetitions; every benchmark becomes a metric with one sample
// per repetition.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "etbench/base/units.h"
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

namespace {

// The samples of a parsed report. `root` has no source name, so that a
// typed-read error reads "$.benchmarks[0].x: ..." after the caller's prefix.
Result<std::vector<BenchmarkSample>> ReadGbenchSamples(const JsonValue& root,
                                                       const std::string& metric,
                                                       const std::string& source_name) {
  const JsonValue list = root.Get("benchmarks");
  if (!list.is_array()) {
    return InputError(source_name + ": not Google Benchmark JSON (no \"benchmarks\" list)");
  }
  std::vector<BenchmarkSample> samples;
  std::map<std::string, int> seen;
  JsonErrors errors;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonValue b = list[i];
    const std::string where = source_name + ": benchmarks[" + std::to_string(i) + "]";
    if (!b.is_object()) return InputError(where + ": not an object");
    const JsonValue run_type = b.Get("run_type");
    if (run_type.present() && !(run_type.is_string() && *run_type.String() == "iteration")) {
      continue;  // aggregates
    }
    std::string name;
    if (b.Get("run_name").is_string()) {
      name = *b.Get("run_name").String();
    } else if (b.Get("name").is_string()) {
      name = *b.Get("name").String();
    } else {
      return InputError(where + ": no name");
    }
    if (errors.Take(b.Get("error_occurred").BoolOr(false))) {
      return InputError("benchmark " + name + " failed: " +
                        errors.Take(b.Get("error_message").StringOr("(no message)")));
    }
    // "skipped" is a number (newer) or a boolean.
    const JsonValue skipped = b.Get("skipped");
    const bool is_skipped = skipped.is_bool() ? *skipped.Bool()
                                              : skipped.is_number() && *skipped.Number() != 0;
    const JsonValue value = b.Get(metric);
    if (is_skipped && !value.present()) continue;
    if (!value.is_number()) {
      return InputError(where + " (" + name + "): no numeric \"" + metric + "\"");
    }
    BenchmarkSample s;
    s.name = name;
    const auto rep = b.Get("repetition_index").Int(INT32_MIN, INT32_MAX);
    s.repetition = rep.ok() ? static_cast<int>(*rep) : seen[name];
    ++seen[name];
    s.value = *value.Number();
    if (!std::isfinite(s.value) || s.value <= 0) {
      return InputError(where + " (" + name + "): \"" + metric + "\" is " + value.Dump() +
                        ", not a positive time");
    }
    s.time_unit = errors.Take(b.Get("time_unit").StringOr("ns"));
    if (!errors.ok()) break;
    if (!IsTimeUnit(s.time_unit)) {
      return InputError(where + " (" + name + "): unknown time_unit '" + s.time_unit + "'");
    }
    // An iteration count no integer holds is ignored.
    const auto iterations = b.Get("iterations").Int();
    s.iterations = iterations.ok() ? *iterations : 0;
    samples.push_back(std::move(s));
  }
  if (!errors.ok()) {
    return InputError(source_name + ": not Google Benchmark JSON: " + errors.error().message);
  }
  return samples;
}

}  // namespace

Result<std::vector<BenchmarkSample>> ParseGbenchJson(const std::string& json,
                                                     const std::string& metric,
                                                     const std::string& source_name) {
  JsonSyntaxError syntax;
  auto doc = ParseJson(json, "", {}, &syntax);
  if (!doc.ok()) {
    // Syntax, invalid UTF-8, and a time such as 1e999 ("number overflow").
    return InputError(source_name + ": not Google Benchmark JSON: " + syntax.Describe());
  }
  return ReadGbenchSamples(doc->root(), metric, source_name);
}

}  // namespace etbench::harness
