#include "etbench/harness/orchestrator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include "etbench/harness/progress.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::FakeRunner;
using etbench::testing::MakeSuite;
using etbench::testing::RecordingTerminal;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Names(const results::RunResults& r) {
  std::vector<std::string> names;
  for (const results::ModelResult& m : r.models) names.push_back(m.name);
  return names;
}

const results::EventResult* Find(const results::ModelResult& m, const std::string& block, const std::string& name) {
  for (const results::BlockResult& b : m.blocks) {
    if (b.name != block) continue;
    for (const results::EventResult& e : b.events) {
      if (e.name == name) return &e;
    }
  }
  return nullptr;
}

class HarnessOrchestratorTest : public ::testing::Test {
 protected:
  TempDir dir_;
  TestDeps t_;
};

TEST_F(HarnessOrchestratorTest, RepetitionsConcatenateWithoutWarmupAndResultsAreWritten) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  const SuiteConfig config = MakeSuite(dir_, {"a"}, /*warmup=*/2, /*iterations=*/3, /*reps=*/2);
  auto run = RunSuite(config, t_.deps);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->results_path, dir_.File("out") + "/results.json");
  EXPECT_TRUE(std::filesystem::exists(run->results_path));
  const results::ModelResult& m = run->results.models.at(0);
  ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error;
  const results::EventResult* execute = Find(m, "Execute", "Method::execute");
  ASSERT_NE(execute, nullptr);
  // (rep + 1) ms + iteration µs; iterations 0 and 1 are warm-up.
  EXPECT_THAT(execute->perf_data.raw, ElementsAre(1.002, 1.003, 1.004, 2.002, 2.003, 2.004));
  EXPECT_EQ(execute->perf_data.count, 6u);
  ASSERT_EQ(m.repetitions.size(), 2u);
  EXPECT_EQ(m.repetitions[1].etdump_path, "a/rep1.etdp");
  EXPECT_TRUE(std::filesystem::exists(dir_.File("out/a/rep1.etdp")));
  EXPECT_EQ(m.repetitions[0].warmup_runs_dropped, 2u);
  for (const results::BlockResult& block : m.blocks) {
    if (block.name == "Execute") {
      EXPECT_THAT(block.repetition_run_counts, ElementsAre(3, 3));
    }
  }
  EXPECT_EQ(runner.calls().size(), 2u);
  EXPECT_EQ(run->results.metadata.runner, "fake");
  EXPECT_EQ(run->results.metadata.runner_version, "fake 1");
  EXPECT_EQ(run->results.metadata.date, "2023-11-14T22:13:20Z");
  EXPECT_EQ(run->results.metadata.config_hash, ConfigHash(config));
  EXPECT_EQ(m.model_sha256.size(), 64u);
}

TEST_F(HarnessOrchestratorTest, AFailingModelIsRecordedAndTheRestStillRuns) {
  FakeRunner runner([](const ModelSpec& model, const RepetitionPlan& plan, std::vector<uint64_t>*) {
    RepetitionOutput out;
    if (model.name == "b" && plan.repetition == 1) {
      out.ok = false;
      out.error = "device disconnected";
      out.stderr_text = "adb: error: closed\n";
    }
    return out;
  });
  t_.deps.runner = &runner;
  RecordingTerminal terminal(false);
  auto progress = MakeProgress(&terminal, &t_.clock, true);
  t_.deps.progress = progress.get();
  auto run = RunSuite(MakeSuite(dir_, {"a", "b", "c"}), t_.deps);
  ASSERT_TRUE(run.ok());
  const results::RunResults& r = run->results;
  EXPECT_THAT(Names(r), ElementsAre("a", "b", "c"));
  EXPECT_EQ(r.models[1].status, results::ModelStatus::kFailed);
  EXPECT_EQ(r.models[1].error, "repetition 2/2: device disconnected");
  EXPECT_EQ(r.models[1].stderr_text, "adb: error: closed\n");
  EXPECT_EQ(r.models[2].status, results::ModelStatus::kOk);
  EXPECT_EQ(r.CountWithStatus(results::ModelStatus::kFailed), 1u);
  // Not a terminal: no bar, but the failure is said.
  EXPECT_EQ(terminal.text(), "etbench run: b: failed: repetition 2/2: device disconnected\n");
}

TEST_F(HarnessOrchestratorTest, InterruptStopsCleanlyAndKeepsWhatFinished) {
  std::atomic<bool> cancel{false};
  FakeRunner runner(
      [&cancel](const ModelSpec& model, const RepetitionPlan&, std::vector<uint64_t>*) {
        if (model.name == "b") cancel = true;  // Ctrl-C while b runs
        return RepetitionOutput{};
      });
  t_.deps.runner = &runner;
  t_.deps.cancel = &cancel;
  auto run = RunSuite(MakeSuite(dir_, {"a", "b", "c"}), t_.deps);
  ASSERT_TRUE(run.ok());
  const results::RunResults& r = run->results;
  EXPECT_TRUE(r.interrupted);
  EXPECT_THAT(Names(r), ElementsAre("a", "b"));
  EXPECT_EQ(r.models[0].status, results::ModelStatus::kOk);
  EXPECT_EQ(r.models[1].status, results::ModelStatus::kInterrupted);
  EXPECT_EQ(r.models[1].error, "interrupted before repetition 2");
  EXPECT_EQ(runner.calls().size(), 3u);  // a x2, b x1; c never started
  auto written = results::ReadResultsFile(run->results_path);
  ASSERT_TRUE(written.ok());
  EXPECT_TRUE(written->interrupted);
}

TEST_F(HarnessOrchestratorTest, AKilledRunLeavesThePreviousResultsAndArtifactsConsistent) {
  const SuiteConfig config = MakeSuite(dir_, {"a", "b"}, 0, 2, 1);
  {
    FakeRunner runner;
    t_.deps.runner = &runner;
    ASSERT_TRUE(RunSuite(config, t_.deps).ok());
  }
  const std::string results_before = etbench::testing::ReadTextFile(dir_.File("out/results.json"));
  const std::string etdump_before = etbench::testing::ReadTextFile(dir_.File("out/a/rep0.etdp"));
  // A second run killed (SIGKILL: no cleanup at all) while running model b,
  // after model a's new ETDump was written.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    FakeRunner runner([](const ModelSpec& model, const RepetitionPlan&, std::vector<uint64_t>* ns) {
      if (model.name == "b") ::raise(SIGKILL);
      for (uint64_t& v : *ns) v *= 7;  // different numbers than the first run
      return RepetitionOutput{};
    });
    t_.deps.runner = &runner;
    (void)RunSuite(config, t_.deps);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(etbench::testing::ReadTextFile(dir_.File("out/results.json")), results_before);
  EXPECT_EQ(etbench::testing::ReadTextFile(dir_.File("out/a/rep0.etdp")), etdump_before);
  const std::string leftover = dir_.File("out/.etbench-run-" + std::to_string(child));
  EXPECT_TRUE(std::filesystem::exists(leftover));
  // The next run removes what the killed one left behind.
  FakeRunner runner;
  t_.deps.runner = &runner;
  ASSERT_TRUE(RunSuite(config, t_.deps).ok());
  EXPECT_FALSE(std::filesystem::exists(leftover));
  for (const auto& entry : std::filesystem::directory_iterator(dir_.File("out"))) {
    EXPECT_EQ(entry.path().filename().string().find(".etbench-run-"), std::string::npos);
  }
}

TEST_F(HarnessOrchestratorTest, StaleTemporaryFilesOfDeadProcessesAreRemoved) {
  std::filesystem::create_directories(dir_.File("out"));
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(dead, nullptr, 0), dead);
  const std::string stale = dir_.File("out/results.json.tmp." + std::to_string(dead));
  const std::string live = dir_.File("out/results.json.tmp.1");  // init: alive
  etbench::testing::WriteTextFile(stale, "{");
  etbench::testing::WriteTextFile(live, "{");
  FakeRunner runner;
  t_.deps.runner = &runner;
  ASSERT_TRUE(RunSuite(MakeSuite(dir_, {"a"}, 0, 1, 1), t_.deps).ok());
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(live));
}

TEST_F(HarnessOrchestratorTest, AnInvalidSampleFailsItsModelNotTheSuite) {
  FakeRunner runner([](const ModelSpec& model, const RepetitionPlan&, std::vector<uint64_t>* ns) {
    // Timestamps running backwards give negative durations.
    if (model.name == "a") (*ns)[0] = static_cast<uint64_t>(-1000);
    return RepetitionOutput{};
  });
  t_.deps.runner = &runner;
  auto run = RunSuite(MakeSuite(dir_, {"a", "b"}, 0, 2, 1), t_.deps);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->results.models.size(), 2u);
  EXPECT_EQ(run->results.models[1].status, results::ModelStatus::kOk);
  EXPECT_TRUE(results::ReadResultsFile(run->results_path).ok());
}

TEST_F(HarnessOrchestratorTest, ShardsMergeIntoTheUnshardedModelSet) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  SuiteConfig config = MakeSuite(dir_, {"m1", "m2", "m3", "m4", "m5"}, 0, 2, 1);
  config.output_dir = dir_.File("full");
  auto full = RunSuite(config, t_.deps);
  ASSERT_TRUE(full.ok());

  std::vector<std::string> shard_files;
  for (int i = 1; i <= 3; ++i) {
    SuiteConfig shard = config;
    shard.output_dir = dir_.File("shard" + std::to_string(i));
    shard.shard = Shard{i, 3};
    auto run = RunSuite(shard, t_.deps);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->results_path,
              shard.output_dir + "/results-shard-" + std::to_string(i) + "-of-3.json");
    shard_files.push_back(run->results_path);
  }
  const std::string merged_path = dir_.File("merged/results.json");
  // Merge in any order; the result follows the suite's order.
  auto merged = results::MergeResults({shard_files[2], shard_files[0], shard_files[1]}, merged_path);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(Names(*merged), Names(full->results));
  EXPECT_FALSE(merged->metadata.shard_index.has_value());
  EXPECT_EQ(merged->metadata.merged_from.size(), 3u);
  // Artifact paths now point from the merged file's directory.
  EXPECT_EQ(merged->models[0].repetitions[0].etdump_path, "../shard1/m1/rep0.etdp");
  ASSERT_TRUE(results::WriteResultsFile(merged_path, *merged).ok());
  EXPECT_TRUE(std::filesystem::exists(dir_.File("merged/../shard1/m1/rep0.etdp")));

  auto incomplete = results::MergeResults({shard_files[0], shard_files[2]}, merged_path);
  ASSERT_FALSE(incomplete.ok());
  EXPECT_EQ(incomplete.error().message, "incomplete shard set: shard(s) 2 of 3 missing");
  auto twice = results::MergeResults({shard_files[0], shard_files[0]}, merged_path);
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.error().message, HasSubstr("shard 1 is given twice"));
}

TEST_F(HarnessOrchestratorTest, MergeRejectsResultsOfDifferentRuns) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  SuiteConfig a = MakeSuite(dir_, {"m1", "m2"}, 0, 2, 1);
  a.output_dir = dir_.File("a");
  a.model_filter = {"m1"};
  SuiteConfig b = a;
  b.output_dir = dir_.File("b");
  b.model_filter = {"m2"};
  b.iterations = 5;
  ASSERT_TRUE(RunSuite(a, t_.deps).ok());
  ASSERT_TRUE(RunSuite(b, t_.deps).ok());
  auto merged =
      results::MergeResults({dir_.File("a/results.json"), dir_.File("b/results.json")}, dir_.File("m.json"));
  ASSERT_FALSE(merged.ok());
  EXPECT_THAT(merged.error().message, HasSubstr("config_hash"));
  auto same =
      results::MergeResults({dir_.File("a/results.json"), dir_.File("a/results.json")}, dir_.File("m.json"));
  ASSERT_FALSE(same.ok());
  EXPECT_THAT(same.error().message, HasSubstr("model 'm1' is also in an earlier file"));
}

// Every update, for checks on the totals the orchestrator reports.
class RecordingProgress : public Progress {
 public:
  void Update(const ProgressState& state) override { states.push_back(state); }
  void Message(std::string_view) override {}
  void Finish() override {}
  std::vector<ProgressState> states;
};

TEST_F(HarnessOrchestratorTest, ProgressCountsEachModelsOwnExecutions) {
  // Time-sized runs (ab) give each model its own warm-up and iterations;
  // the suite's are then only a default (here much smaller).
  FakeRunner runner;
  t_.deps.runner = &runner;
  RecordingProgress progress;
  t_.deps.progress = &progress;
  SuiteConfig config = MakeSuite(dir_, {"small", "big"}, 1, 2, 2);
  config.models[1].warmup = 3;
  config.models[1].iterations = 20;
  ASSERT_TRUE(RunSuite(config, t_.deps).ok());
  ASSERT_FALSE(progress.states.empty());
  const std::size_t planned = 2 * (1 + 2) + 2 * (3 + 20);
  for (const ProgressState& s : progress.states) {
    EXPECT_EQ(s.expected_total, planned);
    EXPECT_LE(s.done_total, planned);
  }
  EXPECT_EQ(progress.states.back().done_total, planned);
  EXPECT_EQ(progress.states.back().executions, 23);
}

TEST_F(HarnessOrchestratorTest, ProgressBarOnlyOnAnInteractiveTerminal) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  RecordingTerminal terminal(true);
  auto progress = MakeProgress(&terminal, &t_.clock, true, /*min_interval_s=*/0);
  t_.deps.progress = progress.get();
  ASSERT_TRUE(RunSuite(MakeSuite(dir_, {"alpha"}, 1, 2, 2), t_.deps).ok());
  EXPECT_THAT(terminal.text(), HasSubstr("[1/1] alpha  rep 2/2  iter 3/3"));
  EXPECT_EQ(terminal.text().substr(terminal.text().size() - 4), "\r\x1b[K");  // cleared

  RecordingTerminal pipe(false);
  auto quiet = MakeProgress(&pipe, &t_.clock, true, 0);
  t_.deps.progress = quiet.get();
  ASSERT_TRUE(RunSuite(MakeSuite(dir_, {"alpha"}, 1, 2, 2), t_.deps).ok());
  EXPECT_EQ(pipe.text(), "");
}

TEST_F(HarnessOrchestratorTest, MetadataComesFromLabelsThenTheEnvironment) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  t_.env.Set("ETBENCH_DEVICE", "pixel-7");
  t_.env.Set("GITHUB_SHA", "abc123");
  t_.env.Set("GITHUB_REF_NAME", "feature");
  SuiteConfig config = MakeSuite(dir_, {"a"}, 0, 1, 1);
  config.labels = {{"branch", "release"}, {"team", "perf"}};
  auto run = RunSuite(config, t_.deps);
  ASSERT_TRUE(run.ok());
  const results::ResultsMetadata& m = run->results.metadata;
  EXPECT_EQ(m.device, "pixel-7");
  EXPECT_EQ(m.git_commit, "abc123");
  EXPECT_EQ(m.branch, "release");
  EXPECT_EQ(m.labels.at("team"), "perf");
  EXPECT_FALSE(m.host.empty());
  EXPECT_FALSE(m.cpu.empty());
  EXPECT_EQ(m.tool_version, "test");
  EXPECT_EQ(m.tick_rate_hz, 1e9);
}

TEST_F(HarnessOrchestratorTest, SetupErrorsAreErrors) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  SuiteConfig config = MakeSuite(dir_, {"a"});
  etbench::testing::WriteTextFile(dir_.File("file"), "x");
  config.output_dir = dir_.File("file") + "/sub";
  auto run = RunSuite(config, t_.deps);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.error().message, HasSubstr("cannot create output directory"));
  config = MakeSuite(dir_, {"a"});
  config.model_filter = {"zzz"};
  EXPECT_FALSE(RunSuite(config, t_.deps).ok());
}

TEST_F(HarnessOrchestratorTest, DefaultSuiteRunsEveryBuiltinModel) {
#if ETBENCH_HAVE_RUNTIME
  auto config = LoadSuiteConfig("configs/default.yaml");
  ASSERT_TRUE(config.ok()) << config.error().message;
  ConfigOverrides small;
  small.iterations = 2;
  small.warmup = 1;
  small.repetitions = 1;
  small.output_dir = dir_.File("default");
  ASSERT_TRUE(ApplyOverrides(small, &config.value()).ok());
  auto run = RunSuite(*config, t_.deps);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_THAT(Names(run->results),
              ElementsAre("toy_cnn", "mlp", "mobilenet_v2_block", "transformer_block"));
  for (const results::ModelResult& m : run->results.models) {
    EXPECT_EQ(m.status, results::ModelStatus::kOk) << m.name << ": " << m.error;
    const results::EventResult* execute = Find(m, "Execute", "Method::execute");
    ASSERT_NE(execute, nullptr) << m.name;
    EXPECT_EQ(execute->perf_data.count, 2u);
  }
  EXPECT_EQ(run->results.metadata.runner, "builtin");
#else
  GTEST_SKIP() << "built without the runtime";
#endif
}

}  // namespace
}  // namespace etbench::harness
