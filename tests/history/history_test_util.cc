#include "history_test_util.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "support/real_history_fixture.h"
#include "support/test_support.h"

namespace etbench::testing {

results::RunResults MakeSyntheticResults(const SyntheticRun& run) {
  constexpr std::size_t kRepetitions = 3, kRunsPerRepetition = 10;
  constexpr std::size_t kN = kRepetitions * kRunsPerRepetition;
  const uint64_t seed = run.seed * 1000003u + static_cast<uint64_t>(run.index);
  const std::vector<double> conv = LogNormalSamples(kN, run.load_factor * run.conv_factor, run.cv, seed);
  const std::vector<double> relu = LogNormalSamples(kN, 0.2 * run.load_factor * run.relu_factor, run.cv, seed + 7);
  const std::vector<double> overhead = LogNormalSamples(kN, 0.05 * run.load_factor, run.cv, seed + 13);
  std::vector<std::vector<double>> extra;
  for (int k = 0; k < run.extra_operators; ++k) {
    extra.push_back(LogNormalSamples(kN, 0.1 * run.load_factor, run.cv,
                                     seed + 101 + static_cast<uint64_t>(k)));
  }
  std::vector<double> execute(kN), tax(kN);
  for (std::size_t i = 0; i < kN; ++i) {
    execute[i] = conv[i] + relu[i] + overhead[i];
    for (const std::vector<double>& op : extra) execute[i] += op[i];
    tax[i] = 100.0 * overhead[i] / execute[i];
  }
  results::RunResults results;
  results::ResultsMetadata& meta = results.metadata;
  meta.suite = "default";
  meta.runner = "builtin";
  meta.unit = "ms";
  meta.iterations = kRunsPerRepetition;
  meta.repetitions = kRepetitions;
  meta.host = "host-a";
  meta.boot_id = "boot-1";
  meta.device = run.device;
  meta.branch = "main";
  meta.git_commit = "c" + std::to_string(run.index);
  char date[32];
  std::snprintf(date, sizeof date, "2026-01-%02dT%02d:%02d:00Z", 1 + run.index / 1440,
                (run.index / 60) % 24, run.index % 60);
  meta.date = date;
  meta.labels["seed"] = std::to_string(run.seed);

  results::ModelResult model;
  model.name = "net";
  model.unit = "ms";
  model.model_sha256 = "feed";
  results::BlockResult block;
  block.name = "Execute";
  block.run_count = kN;
  block.repetition_run_counts.assign(kRepetitions, kRunsPerRepetition);
  auto event = [](const std::string& name, std::optional<int32_t> instruction,
                  const std::vector<double>& samples) {
    results::EventResult e;
    e.name = name;
    e.instruction_id = instruction;
    e.perf_data = PerfData::FromRaw(samples);
    return e;
  };
  block.events.push_back(event("native_call_convolution.out", 0, conv));
  block.events.push_back(event("native_call_relu.out", 1, relu));
  for (std::size_t k = 0; k < extra.size(); ++k) {
    block.events.push_back(event("native_call_op" + std::to_string(k) + ".out",
                                 static_cast<int32_t>(2 + k), extra[k]));
  }
  block.events.push_back(event("Method::execute", std::nullopt, execute));
  block.framework_tax = PerfData::FromRaw(tax);
  model.blocks.push_back(std::move(block));
  results.models.push_back(std::move(model));
  return results;
}

history::HistoryWindow EmptyWindow(std::size_t runs) {
  history::HistoryWindow w;
  for (std::size_t r = 0; r < runs; ++r) {
    history::RunSummary run;
    run.id = static_cast<int64_t>(r + 1);
    run.run_id = "run" + std::to_string(r);
    run.git_commit = "c" + std::to_string(r);
    w.runs.push_back(run);
  }
  return w;
}

history::HistoryWindow RealHistoryFixture(const std::string& fixture, std::size_t runs) {
  std::optional<history::HistoryWindow> window = ReadRealHistoryFixture(FixturePath(fixture), runs);
  EXPECT_TRUE(window.has_value()) << fixture;
  return window.value_or(history::HistoryWindow{});
}

void RunTogether(int n, const std::function<void(int)>& fn) {
  std::mutex mutex;
  std::condition_variable released;
  int waiting = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (++waiting == n) released.notify_all();
        released.wait(lock, [&] { return waiting == n; });
      }
      fn(i);
    });
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace etbench::testing
