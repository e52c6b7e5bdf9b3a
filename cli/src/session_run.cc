#include "session_run.h"

#include <filesystem>

#include "etbench/harness/orchestrator.h"
#include "etbench/harness/process.h"
#include "etbench/results/results.h"

namespace etbench {
namespace {

// This executable (so the session runs the same build).
std::string SelfPath() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("etbench") : self.string();
}

std::string LastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

}  // namespace

harness::SuiteRunFn SessionRunFn(const CliDeps& deps, const std::string& config_path,
                                 const harness::ConfigOverrides& overrides) {
  // Only the etbench executable understands `run`: a program embedding the
  // CLI (its tests, the Python package) runs its sessions in-process.
  if (std::filesystem::path(SelfPath()).filename() != "etbench") return {};
  return [&deps, config_path, overrides](
             const harness::SuiteConfig& config) -> Result<harness::SuiteRunOutput> {
    const std::string dir = harness::ResolvedOutputDir(config);
    harness::ProcessSpec spec;
    spec.argv = {SelfPath(), "run", config_path, "--quiet", "--summary", "none", "--output_dir", dir};
    const auto flag = [&](const char* name, const auto& value) {
      if (value) spec.argv.insert(spec.argv.end(), {name, std::to_string(*value)});
    };
    flag("--iterations", overrides.iterations);
    flag("--warmup", overrides.warmup);
    flag("--repetitions", overrides.repetitions);
    if (overrides.runner) spec.argv.insert(spec.argv.end(), {"--runner", *overrides.runner});
    if (overrides.time_source) {
      spec.argv.insert(spec.argv.end(), {"--time_source", *overrides.time_source});
    }
    for (const std::string& m : config.model_filter) spec.argv.insert(spec.argv.end(), {"--model", m});
    for (const std::string& l : overrides.labels) spec.argv.insert(spec.argv.end(), {"--label", l});
    // Ctrl-C or SIGTERM stops the session too (its process group gets
    // SIGTERM, then SIGKILL): no session outlives the gate. The session
    // writes what it finished, marked interrupted, and the night stops.
    const std::shared_ptr<const std::atomic<bool>> cancel =
        deps.catch_interrupts ? deps.catch_interrupts() : nullptr;
    const harness::ProcessResult done = deps.process_runner->Run(spec, cancel.get());
    const std::string results_path = (std::filesystem::path(dir) / harness::ResultsFileName(config)).string();
    if (done.interrupted) {
      // (A results file there may be an earlier night's: not read.)
      harness::SuiteRunOutput stopped;
      stopped.results.interrupted = true;
      stopped.results_path = dir;
      return stopped;
    }
    if (!done.started || !deps.disk->Stat(results_path).exists) {
      return InputError("a session (" + spec.argv[0] + " run " + config_path + ") " +
                        harness::DescribeProcessExit(done) + ": " + LastLine(done.stderr_text));
    }
    auto results = results::ReadResultsFile(results_path, *deps.disk);
    if (!results.ok()) return results.error();
    harness::SuiteRunOutput out;
    out.results = std::move(results).value();
    out.results_path = results_path;
    return out;
  };
}

}  // namespace etbench
