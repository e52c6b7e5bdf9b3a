#include "harness_test_util.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include "etbench/inspector/etdump_writer.h"

namespace etbench::testing {

std::vector<uint8_t> MakeExecuteEtdump(const std::vector<uint64_t>& execute_ns, int instructions) {
  EtdumpBuilder builder;
  uint64_t t = 1000000;
  builder.BeginRun("Default");
  builder.AddProfileEvent("Method::init", -1, 0, t + 10, t + 500);
  builder.AddProfileEvent("Program::load_method", -1, 0, t, t + 1000);
  builder.EndRun();
  t += 2000;
  for (uint64_t duration : execute_ns) {
    builder.BeginRun("Execute");
    const uint64_t start = t;
    const uint64_t per_op = duration / 2 / static_cast<uint64_t>(std::max(instructions, 1));
    uint64_t op_start = start + duration / 4;
    for (int i = 0; i < instructions; ++i) {
      builder.AddProfileEvent("native_call_op" + std::to_string(i) + ".out", 0, i, op_start,
                              op_start + per_op);
      builder.AddProfileEvent("OPERATOR_CALL", 0, i, op_start, op_start + per_op + 1);
      op_start += per_op + 2;
    }
    builder.AddProfileEvent("Method::execute", -1, 0, start, start + duration);
    builder.EndRun();
    t += duration + 100;
  }
  return builder.Finish();
}

std::string WriteScript(const TempDir& dir, const std::string& name, const std::string& body) {
  const std::string path = dir.File(name);
  WriteTextFile(path, "#!/bin/bash\n" + body + "\n");
  chmod(path.c_str(), 0755);
  return path;
}

std::string WriteSuite(const TempDir& dir, const std::string& yaml) {
  const std::string path = dir.File("suite.yaml");
  WriteTextFile(path, yaml);
  return path;
}

std::string WriteModelFile(const TempDir& dir, const std::string& name) {
  const std::string path = dir.File(name + ".model");
  WriteTextFile(path, "fake model " + name + "\n");
  return path;
}

harness::RepetitionOutput FakeRunner::Run(const harness::ModelSpec& model,
                                          const harness::RepetitionPlan& plan) {
  calls_.push_back({model.name, plan.repetition, plan.warmup, plan.iterations});
  // Durations encode repetition and iteration: (rep + 1) ms + iteration µs.
  std::vector<uint64_t> execute_ns;
  for (int i = 0; i < plan.warmup + plan.iterations; ++i) {
    execute_ns.push_back(static_cast<uint64_t>(plan.repetition + 1) * 1000000 +
                         static_cast<uint64_t>(i) * 1000);
  }
  harness::RepetitionOutput out;
  if (behavior_) {
    out = behavior_(model, plan, &execute_ns);
    if (!out.ok) return out;
  }
  for (int i = 0; i < plan.warmup + plan.iterations; ++i) {
    if (plan.on_execution) plan.on_execution(i + 1);
  }
  std::vector<uint8_t> bytes = MakeExecuteEtdump(execute_ns);
  WriteBinaryFile(plan.etdump_path, bytes);
  out.etdump = std::move(bytes);
  out.time_source = "ns";
  out.tick_rate_hz = 1e9;
  out.warmup_runs = static_cast<std::size_t>(plan.warmup);
  out.expected_execute_runs = static_cast<std::size_t>(plan.warmup + plan.iterations);
  return out;
}

harness::ProcessResult Exited(int exit_code, std::string out, std::string err) {
  harness::ProcessResult r;
  r.started = true;
  r.exit_code = exit_code;
  r.stdout_text = std::move(out);
  r.stderr_text = std::move(err);
  return r;
}

harness::SuiteConfig MakeSuite(const TempDir& dir, const std::vector<std::string>& models,
                               int warmup, int iterations, int repetitions) {
  harness::SuiteConfig c = MakeRepoSuite(dir, models, warmup, iterations, repetitions);
  for (harness::ModelSpec& m : c.models) m.path = WriteModelFile(dir, m.name);
  return c;
}

harness::SuiteConfig MakeRepoSuite(const TempDir& dir, const std::vector<std::string>& models,
                                   int warmup, int iterations, int repetitions) {
  harness::SuiteConfig c;
  c.suite = "test";
  c.warmup = warmup;
  c.iterations = iterations;
  c.repetitions = repetitions;
  c.output_dir = dir.File("out");
  for (const std::string& name : models) {
    harness::ModelSpec m;
    m.name = name;
    m.path = "configs/models/" + name + ".yaml";
    c.models.push_back(m);
  }
  return c;
}

TestDeps::TestDeps() : processes(harness::MakeSystemProcessRunner()) {
  deps.process_runner = processes.get();
  deps.clock = &clock;
  deps.env = &env;
  deps.tool_version = "test";
  deps.query_git = false;
}

std::string EtRunnerPath() {
#ifdef ETBENCH_ET_RUNNER_PATH
  return ETBENCH_ET_RUNNER_PATH;
#else
  return "";
#endif
}

std::string FakeGbenchPath() {
#ifdef ETBENCH_FAKE_GBENCH_PATH
  return ETBENCH_FAKE_GBENCH_PATH;
#else
  return "";
#endif
}

}  // namespace etbench::testing
