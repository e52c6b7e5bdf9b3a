// Part 3 of the gate-quality evaluation: real `etbench ab` runs on this
// machine (subprocesses of the built etbench, time-sized, sequential, as a
// user runs them), quiet or under a controlled load (stress-ng, started and
// stopped here), with three decision rules side by side on the same data:
//   new       the paired sequential engine (`etbench ab`'s own verdict);
//   previous  Compare() on the merged sides (the fixed-baseline engine that
//             `ab` used before), on the same runs;
//   gbench    Google Benchmark compare.py's rule: a Mann–Whitney U test on
//             the pooled samples, p < 0.05, per metric.
// and the previous protocol (3 blocks of 10 iterations, Compare) as a
// fourth column measured on its own runs.

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etbench/compare/baseline_store.h"
#include "etbench/compare/comparison.h"
#include "etbench/harness/process.h"
#include "decision_rules.h"
#include "gate_quality.h"

extern char** environ;

namespace etbench::gate_quality {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct Scenario {
  std::string name;
  std::vector<std::string> b_settings;
  bool end_to_end_target = false;  // all ops +3%: Method::execute must be flagged
  bool null = false;
  std::vector<std::string> a_settings = {};
  std::string target_op = "convolution";
};

// Bytes under `dir` (what one ab left on disk).
double DiskBytes(const std::string& dir) {
  double bytes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec)) bytes += static_cast<double>(it->file_size(ec));
  }
  return bytes;
}

struct Trial {
  Outcome fresh, previous, gbench, old_protocol;
  double seconds = 0;
  std::size_t blocks = 0;
  int exit_code = 0;
  double disk_mb = 0;
};

Result<Comparison> PreviousEngine(const std::string& dir) {
  auto a = LoadBaseline(dir + "/a.json");
  if (!a) return a.error();
  auto b = LoadBaseline(dir + "/b.json");
  if (!b) return b.error();
  return Compare(a->metrics, b->metrics, DefaultThresholds());
}

Result<MetricSet> Side(const std::string& dir, const char* which) {
  auto s = LoadBaseline(dir + "/" + which + ".json");
  if (!s) return s.error();
  return s->metrics;
}

// Starts stress-ng (one CPU worker at `load`%); 0 when it cannot.
pid_t StartLoad(int load) {
  const std::string load_arg = std::to_string(load);
  std::vector<std::string> args{"stress-ng", "--cpu", "1", "--cpu-load", load_arg, "--quiet"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "stress-ng", nullptr, nullptr, argv.data(), environ) != 0) return 0;
  sleep(1);
  return pid;
}

void StopLoad(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
}

}  // namespace

bool RunAbReal(const AbRealOptions& options) {
  const std::vector<Scenario> all = {
      {"aa", {}, false, true},
      {"conv10", {"slowdown=conv2d=1.10"}, false, false},
      {"conv5", {"slowdown=conv2d=1.05"}, false, false},
      {"all3",
       {"slowdown=conv2d=1.03", "slowdown=relu=1.03", "slowdown=max_pool2d=1.03",
        "slowdown=linear=1.03"},
       true, false},
      {"et_aa", {"program=" + options.et_pair + "/base_copy/executor_runner"}, false, true,
       {"program=" + options.et_pair + "/base/executor_runner"}, "add"},
      {"et_add", {"program=" + options.et_pair + "/slow_add/executor_runner"}, false, false,
       {"program=" + options.et_pair + "/base/executor_runner"}, "add"}};
  auto runner = harness::MakeSystemProcessRunner();
  const std::string work = options.work_dir;
  fs::create_directories(work);
  std::ofstream csv(work + "/trials.csv", std::ios::app);
  csv << "# scenario,load,trial,seconds,blocks,new_flag,new_pass,new_detect,new_first,"
         "prev_flag,prev_pass,prev_detect,prev_first,gbench_flag,gbench_detect,"
         "oldproto_flag,oldproto_pass,oldproto_detect,exit_code,disk_mb\n";
  bool ok = true;
  const pid_t load = options.load > 0 ? StartLoad(options.load) : 0;
  if (options.load > 0 && load == 0) {
    std::printf("stress-ng could not be started: install it (scripts/install-deps.sh)\n");
    return false;
  }
  const std::string budget = options.budget_s > 0
                                 ? std::to_string(static_cast<int>(options.budget_s)) + " s"
                                 : "60 s per model";
  std::printf("\nPart 3: real etbench ab runs, %s, model %s, budget %s, %s\n",
              options.config.c_str(), options.model.c_str(), budget.c_str(),
              options.load > 0 ? ("stress-ng --cpu 1 --cpu-load " + std::to_string(options.load)).c_str()
                               : "no added load");
  for (const Scenario& s : all) {
    if (std::find(options.scenarios.begin(), options.scenarios.end(), s.name) ==
        options.scenarios.end()) {
      continue;
    }
    const int n = s.null ? options.null_trials : options.trials;
    if (s.name.rfind("et_", 0) == 0 && options.et_pair.empty()) {
      std::printf("  %s: needs --et-pair DIR (benchmarks/compare/build_executorch_pair.sh)\n",
                  s.name.c_str());
      ok = false;
      continue;
    }
    const Target target{s.target_op, s.end_to_end_target};
    std::vector<Trial> trials;
    for (int t = options.first_trial; t < options.first_trial + n; ++t) {
      const std::string dir = work + "/" + s.name + "-" + std::to_string(options.load) + "-" +
                              std::to_string(t);
      fs::remove_all(dir);
      harness::ProcessSpec spec;
      spec.argv = {options.etbench, "ab",       options.config,
                   "--seed",         std::to_string(1000 + t), "--output-dir",
                   dir,              "--report", "json=" + dir + ".json"};
      if (options.budget_s > 0) {
        spec.argv.insert(spec.argv.end(), {"--budget", std::to_string(options.budget_s)});
      }
      for (const std::string& b : s.b_settings) spec.argv.insert(spec.argv.end(), {"--b", b});
      for (const std::string& a : s.a_settings) spec.argv.insert(spec.argv.end(), {"--a", a});
      if (options.model != "all") spec.argv.insert(spec.argv.end(), {"--model", options.model});
      const harness::ProcessResult r = runner->Run(spec, nullptr);
      if (!r.started || (r.exit_code != 0 && r.exit_code != 1)) {
        std::printf("  %s trial %d: etbench ab failed: %s\n%s\n", s.name.c_str(), t,
                    harness::DescribeProcessExit(r).c_str(), r.stderr_text.c_str());
        ok = false;
        continue;
      }
      Trial trial;
      trial.seconds = r.wall_s;
      trial.exit_code = r.exit_code;
      trial.disk_mb = DiskBytes(dir) / 1e6;
      std::ifstream in(dir + ".json");
      const Json j = Json::parse(in, nullptr, false);
      if (j.is_discarded()) continue;
      std::vector<Row> rows;
      for (const Json& m : j["metrics"]) {
        if (!m.value("gated", true)) continue;
        rows.emplace_back(m["name"].get<std::string>(), m["end_to_end"].get<bool>(),
                          m["verdict"] == "regression",
                          m["change"].is_number() ? m["change"].get<double>() : 0.0);
        if (m["blocks"].is_number()) {
          trial.blocks = std::max(trial.blocks, m["blocks"].get<std::size_t>());
        }
      }
      trial.fresh = Judge(rows, target, j["outcome"] == "pass");
      if (auto prev = PreviousEngine(dir); prev) {
        trial.previous = Judge(RowsOf(*prev), target, prev->outcome == GateOutcome::kPass);
      }
      auto a = Side(dir, "a");
      auto b = Side(dir, "b");
      if (a && b) trial.gbench = Judge(GbenchRule(*a, *b), target, false);
      // The previous protocol on its own runs: 3 blocks of 10 iterations.
      if (options.old_protocol) {
        harness::ProcessSpec old = spec;
        old.argv = {options.etbench, "ab", options.config, "--seed",
                    std::to_string(5000 + t), "--output-dir", dir + "-old", "--blocks", "3",
                    "--min-time", "0", "--iterations", "10", "--report",
                    "json=" + dir + "-old.json"};
        for (const std::string& b2 : s.b_settings) old.argv.insert(old.argv.end(), {"--b", b2});
        for (const std::string& a2 : s.a_settings) old.argv.insert(old.argv.end(), {"--a", a2});
        if (options.model != "all") old.argv.insert(old.argv.end(), {"--model", options.model});
        const harness::ProcessResult ro = runner->Run(old, nullptr);
        if (ro.exit_code == 0 || ro.exit_code == 1) {
          if (auto prev = PreviousEngine(dir + "-old"); prev) {
            trial.old_protocol = Judge(RowsOf(*prev), target, prev->outcome == GateOutcome::kPass);
          }
        }
        fs::remove_all(dir + "-old");
      }
      csv << s.name << "," << options.load << "," << t << "," << trial.seconds << ","
          << trial.blocks << "," << trial.fresh.flagged << "," << trial.fresh.passed << ","
          << trial.fresh.detected << "," << trial.fresh.named_first << ","
          << trial.previous.flagged << "," << trial.previous.passed << ","
          << trial.previous.detected << "," << trial.previous.named_first << ","
          << trial.gbench.flagged << "," << trial.gbench.detected << ","
          << trial.old_protocol.flagged << "," << trial.old_protocol.passed << ","
          << trial.old_protocol.detected << "," << trial.exit_code << "," << trial.disk_mb << "\n";
      csv.flush();
      std::printf("  %s #%d: %.0f s, %zu blocks, %.1f MB, new %s%s, previous %s, gbench %s\n",
                  s.name.c_str(), t, trial.seconds, trial.blocks, trial.disk_mb,
                  trial.fresh.flagged ? "REGRESSION" : (trial.fresh.passed ? "pass" : "inconclusive"),
                  trial.fresh.detected ? " (target caught)" : "",
                  trial.previous.flagged ? "regression" : (trial.previous.passed ? "pass" : "inconclusive"),
                  trial.gbench.flagged ? "flagged" : "quiet");
      std::fflush(stdout);
      if (!options.keep_runs) fs::remove_all(dir);
      trials.push_back(trial);
    }
    // Summary.
    const auto count = [&](auto field) {
      std::size_t c = 0;
      for (const Trial& t : trials) c += field(t);
      return c;
    };
    const std::size_t N = trials.size();
    std::vector<double> secs;
    for (const Trial& t : trials) secs.push_back(t.seconds);
    std::sort(secs.begin(), secs.end());
    const double median_s = secs.empty() ? 0 : secs[secs.size() / 2];
    std::printf("\n  %s (N = %zu, median %.0f s per ab):\n", s.name.c_str(), N, median_s);
    if (s.null) {
      std::printf("    new:       false regression %s; ended pass %s\n",
                  Rate(count([](const Trial& t) { return t.fresh.flagged; }), N).c_str(),
                  Rate(count([](const Trial& t) { return t.fresh.passed; }), N).c_str());
      std::printf("    previous:  false regression %s; ended pass %s\n",
                  Rate(count([](const Trial& t) { return t.previous.flagged; }), N).c_str(),
                  Rate(count([](const Trial& t) { return t.previous.passed; }), N).c_str());
      std::printf("    gbench:    false regression %s\n",
                  Rate(count([](const Trial& t) { return t.gbench.flagged; }), N).c_str());
      if (options.old_protocol) {
        std::printf("    previous protocol (3 blocks x 10 it.): false regression %s; ended pass %s\n",
                    Rate(count([](const Trial& t) { return t.old_protocol.flagged; }), N).c_str(),
                    Rate(count([](const Trial& t) { return t.old_protocol.passed; }), N).c_str());
      }
    } else {
      std::printf("    new:       detected %s; named first %s\n",
                  Rate(count([](const Trial& t) { return t.fresh.detected; }), N).c_str(),
                  Rate(count([](const Trial& t) { return t.fresh.named_first; }), N).c_str());
      std::printf("    previous:  detected %s; named first %s\n",
                  Rate(count([](const Trial& t) { return t.previous.detected; }), N).c_str(),
                  Rate(count([](const Trial& t) { return t.previous.named_first; }), N).c_str());
      std::printf("    gbench:    detected %s\n",
                  Rate(count([](const Trial& t) { return t.gbench.detected; }), N).c_str());
      if (options.old_protocol) {
        std::printf("    previous protocol (3 blocks x 10 it.): detected %s\n",
                    Rate(count([](const Trial& t) { return t.old_protocol.detected; }), N).c_str());
      }
    }
  }
  StopLoad(load);
  return ok;
}

}  // namespace etbench::gate_quality
