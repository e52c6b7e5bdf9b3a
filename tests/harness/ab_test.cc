#include "etbench/harness/ab.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <random>

#include "etbench/compare/baseline_store.h"
#include "etbench/compare/sequential.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::FakeRunner;
using etbench::testing::MakeSuite;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using etbench::testing::WriteModelFile;
using etbench::testing::WriteScript;
using etbench::testing::WriteSuite;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// --- settings -------------------------------------------------------------

TEST(HarnessAbSplitCommandLine, SplitsOnSpacesAndHonoursQuotes) {
  auto words = SplitCommandLine("  run  --model '{model}' \"a b\" x\\y 'it''s' \"q\\\"\" ");
  ASSERT_TRUE(words.ok()) << words.error().message;
  EXPECT_THAT(*words, ElementsAre("run", "--model", "{model}", "a b", "x\\y", "its", "q\""));
  EXPECT_THAT(*SplitCommandLine("''"), ElementsAre(""));
  EXPECT_TRUE(SplitCommandLine("")->empty());
  EXPECT_EQ(SplitCommandLine("run 'abc").error().message, "unterminated ' starting at column 5");
}

class HarnessAbSettingTest : public ::testing::Test {
 protected:
  SuiteConfig CommandSuite() {
    SuiteConfig c = MakeSuite(dir_, {"net", "other"});
    c.runner = RunnerKind::kCommand;
    c.has_command = true;
    c.command.argv = {program_, "--model", "{model}", "{args}"};
    return c;
  }
  std::string Apply(const std::string& setting, SuiteConfig* c) {
    Status s = ApplyAbSetting(setting, c);
    return s.ok() ? "" : s.error().message;
  }

  TempDir dir_;
  std::string program_ = WriteScript(dir_, "runner_main.sh", "exit 0");
};

TEST_F(HarnessAbSettingTest, ProgramReplacesOnlyArgvZero) {
  SuiteConfig c = CommandSuite();
  const std::string other = WriteScript(dir_, "runner_pr.sh", "exit 0");
  EXPECT_EQ(Apply("program=" + other, &c), "");
  EXPECT_THAT(c.command.argv, ElementsAre(other, "--model", "{model}", "{args}"));
  EXPECT_EQ(Apply("program=" + dir_.File("missing"), &c),
            dir_.File("missing") + ": not found or not executable");
  EXPECT_EQ(Apply("program=no-such-program-xyz", &c), "no-such-program-xyz: not found in PATH");
}

TEST_F(HarnessAbSettingTest, CommandReplacesTheTemplateAndIsChecked) {
  SuiteConfig c = CommandSuite();
  EXPECT_EQ(Apply("command=" + program_ + " --fast '{model}' {args}", &c), "");
  EXPECT_THAT(c.command.argv, ElementsAre(program_, "--fast", "{model}", "{args}"));
  EXPECT_THAT(Apply("command=" + program_ + " {modle}", &c), HasSubstr("unknown placeholder"));
  EXPECT_EQ(Apply("command={model} x", &c), "the program (argv[0]) cannot use placeholders");
  EXPECT_EQ(Apply("command=", &c), "the command is empty");
  SuiteConfig builtin = MakeSuite(dir_, {"net"});
  EXPECT_EQ(Apply("command=x", &builtin),
            "command applies to the command runner; this suite uses builtin");
}

TEST_F(HarnessAbSettingTest, ModelPathsByNameOrForTheOnlySelectedModel) {
  SuiteConfig c = CommandSuite();
  const std::string newer = WriteModelFile(dir_, "net_new");
  EXPECT_EQ(Apply("model=" + newer, &c),
            "the suite runs 2 models; name one with model.NAME=PATH or select it with --model NAME");
  EXPECT_EQ(Apply("model.net=" + newer, &c), "");
  EXPECT_EQ(c.models[0].path, newer);
  EXPECT_EQ(Apply("model.nope=" + newer, &c), "the suite has no model 'nope' (models: net, other)");
  EXPECT_EQ(Apply("model.net=" + dir_.File("gone.pte"), &c), dir_.File("gone.pte") + ": no such file");
  c.model_filter = {"other"};
  EXPECT_EQ(Apply("model=" + newer, &c), "");
  EXPECT_EQ(c.models[1].path, newer);
}

TEST_F(HarnessAbSettingTest, ArgsEnvSlowdownAndRunner) {
  SuiteConfig c = CommandSuite();
  EXPECT_EQ(Apply("arg=--threads=4", &c), "");
  EXPECT_THAT(c.models[1].args, ElementsAre("--threads=4"));
  EXPECT_EQ(Apply("env.LD_LIBRARY_PATH=/opt/pr/lib", &c), "");
  EXPECT_EQ(c.command.process.env.at("LD_LIBRARY_PATH"), "/opt/pr/lib");
  EXPECT_EQ(Apply("slowdown=conv2d=1.1", &c),
            "slowdown applies to the builtin runner; this suite uses command");
  EXPECT_EQ(Apply("runner=builtin", &c), "");
  EXPECT_EQ(c.runner, RunnerKind::kBuiltin);
  EXPECT_EQ(Apply("slowdown=conv2d=1.1", &c), "");
  EXPECT_THAT(c.models[0].slowdown, ElementsAre("conv2d=1.1"));
  EXPECT_EQ(Apply("slowdown=conv2d=0.5", &c),
            "slowdown 'conv2d=0.5' must be OP=FACTOR with FACTOR >= 1");
  EXPECT_EQ(Apply("arg=x", &c), "arg applies to the command and gbench runners");
  EXPECT_EQ(Apply("runner=gbench", &c),
            "--runner gbench: the suite's models are model files; a suite cannot switch between "
            "gbench and model runners");
  EXPECT_EQ(Apply("colour=red", &c),
            "unknown key 'colour' (keys: " + std::string(kAbSettingKeys) + ")");
  EXPECT_THAT(Apply("program", &c), StartsWith("a setting is KEY=VALUE"));
}

TEST_F(HarnessAbSettingTest, LoadAbVariantReadsConfigFirstThenOverridesThenSettings) {
  const std::string model = WriteModelFile(dir_, "m");
  const std::string other_model = WriteModelFile(dir_, "m2");
  const std::string suite = WriteSuite(dir_, "suite: s\nmodels: [" + model + "]\n");
  const std::string other = dir_.File("other.yaml");
  etbench::testing::WriteTextFile(other, "suite: s2\niterations: 9\nmodels: [" + model + "]\n");
  ConfigOverrides overrides;
  overrides.iterations = 4;
  overrides.labels = {"team=perf"};

  auto a = LoadAbVariant(suite, {}, overrides, "--a");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->suite, "s");
  EXPECT_EQ(a->iterations, 4);

  auto b = LoadAbVariant(suite, {"model=" + other_model, "config=" + other}, overrides, "--b");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->suite, "s2");
  EXPECT_EQ(b->iterations, 4);  // the CLI wins over the variant's file
  EXPECT_EQ(b->labels.at("team"), "perf");
  EXPECT_EQ(b->models[0].path, other_model);

  EXPECT_EQ(LoadAbVariant(suite, {"model=" + dir_.File("x")}, overrides, "--b").error().message,
            "--b model=" + dir_.File("x") + ": " + dir_.File("x") + ": no such file");
  EXPECT_THAT(LoadAbVariant(suite, {"config=" + dir_.File("none.yaml")}, {}, "--a").error().message,
              StartsWith("--a config=" + dir_.File("none.yaml") + ": "));
  EXPECT_THAT(
      LoadAbVariant(suite, {"config=" + other, "config=" + suite}, {}, "--a").error().message,
      HasSubstr("a variant has one config="));
}

// A suite whose program is not in PATH (configs/executorch.yaml without an
// executor_runner there): a variant that names its program runs; one that
// does not says what to set.
TEST_F(HarnessAbSettingTest, TheSuitesProgramNeedNotBeInPathWhenAVariantNamesOne) {
  const std::string model = WriteModelFile(dir_, "m");
  const std::string suite =
      WriteSuite(dir_, "suite: s\nrunner: command\ncommand:\n  argv: [no-such-runner-xyz, "
                       "--model_path, \"{model}\"]\nmodels: [" + model + "]\n");
  EXPECT_THAT(LoadSuiteConfig(suite).error().message,
              HasSubstr("'no-such-runner-xyz' not found in PATH: put its directory first in PATH"));
  auto a = LoadAbVariant(suite, {"program=" + program_}, {}, "--a");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->command.argv.front(), program_);
  EXPECT_EQ(LoadAbVariant(suite, {}, {}, "--b").error().message,
            "--b: no-such-runner-xyz: not found in PATH (the program of " + suite +
                "): point this variant at a build with --b program=PATH, or put its directory "
                "first in PATH");
}

// --- running --------------------------------------------------------------

class HarnessAbRunTest : public ::testing::Test {
 protected:
  AbPlan Plan(int blocks) {
    AbPlan plan;
    plan.blocks = blocks;
    plan.seed = 7;
    plan.output_dir = dir_.File("ab");
    plan.b_description = "B: slowdown=x=2";
    return plan;
  }

  TempDir dir_;
  TestDeps t_;
};

// B runs take twice as long; the variant is told by the run's directory.
harness::RepetitionOutput SlowerB(const ModelSpec&, const RepetitionPlan& plan,
                                  std::vector<uint64_t>* execute_ns) {
  if (plan.workdir.find("-b/") != std::string::npos) {
    for (uint64_t& ns : *execute_ns) ns *= 2;
  }
  return {};
}

const Metric* FindMetric(const MetricSet& set, const std::string& name) {
  for (const Metric& m : set.metrics) {
    if (m.key.name == name && m.key.block == "Execute") return &m;
  }
  return nullptr;
}

TEST_F(HarnessAbRunTest, RunsTheAbbaOrderOneRepetitionEachAndMergesEachSide) {
  FakeRunner runner(SlowerB);
  t_.deps.runner = &runner;
  const SuiteConfig suite = MakeSuite(dir_, {"m"}, /*warmup=*/1, /*iterations=*/3, /*reps=*/5);
  auto out = RunAb(suite, suite, Plan(2), t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->order, AbbaSchedule(2, 7));
  ASSERT_EQ(out->run_paths.size(), 8u);
  ASSERT_EQ(runner.calls().size(), 8u);
  for (const auto& call : runner.calls()) EXPECT_EQ(call.repetition, 0);  // one per run
  for (std::size_t i = 0; i < 8; ++i) {
    const char letter = out->order[i] == AbVariant::kA ? 'a' : 'b';
    EXPECT_EQ(out->run_paths[i],
              dir_.File("ab") + "/0" + std::to_string(i + 1) + "-" + letter + "/results.json");
    // Read back and merged: the run's directory is gone, its size recorded.
    EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out->run_paths[i]).parent_path()));
    EXPECT_GT(out->run_bytes.at(i), 0);
  }
  const Metric* a = FindMetric(out->a, "Method::execute");
  const Metric* b = FindMetric(out->b, "Method::execute");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  // 4 runs × 3 measured executions; B took twice as long.
  EXPECT_THAT(a->samples, ElementsAre(1.001, 1.002, 1.003, 1.001, 1.002, 1.003, 1.001, 1.002,
                                      1.003, 1.001, 1.002, 1.003));
  ASSERT_EQ(b->samples.size(), 12u);
  EXPECT_DOUBLE_EQ(b->samples[0], 2.002);

  // The merged sides are baseline files that compare like any other.
  auto saved = LoadBaseline(out->b_path);
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_EQ(saved->name, "B: slowdown=x=2");
  EXPECT_EQ(saved->metrics.context.at("ab_seed"), "7");
  EXPECT_EQ(saved->metrics.context.at("label:ab_variant"), "B");
  EXPECT_EQ(out->a_path, dir_.File("ab") + "/a.json");
}

// Google Benchmark runs every repetition in one process: an ab run of a
// gbench suite keeps the suite's repetitions instead of one sample per run.
TEST_F(HarnessAbRunTest, GbenchRunsKeepTheSuitesRepetitions) {
  const std::string json = dir_.File("canned.json");
  std::string benchmarks;
  for (int r = 0; r < 5; ++r) {
    benchmarks += std::string(r ? "," : "") +
                  R"({"name": "BM_A", "run_type": "iteration", "repetition_index": )" +
                  std::to_string(r) + R"(, "iterations": 100, "real_time": )" +
                  std::to_string(1000 + r) + R"(, "time_unit": "ns"})";
  }
  etbench::testing::WriteTextFile(json, "{\"benchmarks\": [" + benchmarks + "]}");
  const std::string args = dir_.File("args");
  const std::string fake = etbench::testing::WriteScript(
      dir_, "bench.sh",
      "printf '%s\\n' \"$@\" >> " + args +
          "\nfor a in \"$@\"; do case $a in --benchmark_out=*) cp " + json +
          " \"${a#--benchmark_out=}\";; esac; done");
  SuiteConfig suite;
  suite.suite = "g";
  suite.runner = RunnerKind::kGbench;
  suite.repetitions = 5;
  suite.unit = "ns";
  suite.gbench.process.timeout_s = 60;
  suite.output_dir = dir_.File("out");
  ModelSpec m;
  m.name = "bench";
  m.path = fake;
  suite.models.push_back(m);
  auto out = RunAb(suite, suite, Plan(1), t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  const std::string passed = etbench::testing::ReadTextFile(args);
  std::size_t runs = 0;
  for (std::size_t at = passed.find("--benchmark_repetitions=5\n"); at != std::string::npos;
       at = passed.find("--benchmark_repetitions=5\n", at + 1)) {
    ++runs;
  }
  EXPECT_EQ(runs, 4u);  // one ABBA block, every run with 5 repetitions
  ASSERT_EQ(out->a.metrics.size(), 1u);
  EXPECT_EQ(out->a.metrics[0].samples.size(), 10u);  // 2 runs × 5 repetitions
}

TEST_F(HarnessAbRunTest, AFailedModelStopsWithTheRunNamed) {
  FakeRunner runner([](const ModelSpec&, const RepetitionPlan& plan, std::vector<uint64_t>*) {
    RepetitionOutput out;
    if (plan.workdir.find("-b/") != std::string::npos) {
      out.ok = false;
      out.error = "segfault";
    }
    return out;
  });
  t_.deps.runner = &runner;
  const SuiteConfig suite = MakeSuite(dir_, {"m"});
  auto out = RunAb(suite, suite, Plan(1), t_.deps);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.error().message, StartsWith("ab run "));
  EXPECT_THAT(out.error().message, HasSubstr("(B): model 'm' failed: "));
  EXPECT_THAT(out.error().message, HasSubstr("segfault (see " + dir_.File("ab")));
}

// Ctrl-C: the interrupted run is not used. With the runs' directories
// removed once read (the default), what ran before it is kept as the sides
// merged so far; Ctrl-C during the first run leaves nothing to merge.
TEST_F(HarnessAbRunTest, InterruptStopsBetweenRunsAndKeepsWhatRan) {
  for (const int interrupted_run : {1, 3}) {
    TempDir dir;
    std::atomic<bool> cancel{false};
    int calls = 0;
    FakeRunner runner([&](const ModelSpec&, const RepetitionPlan&, std::vector<uint64_t>*) {
      if (++calls == interrupted_run) cancel = true;  // Ctrl-C during this run
      return RepetitionOutput{};
    });
    t_.deps.runner = &runner;
    t_.deps.cancel = &cancel;
    const SuiteConfig suite = MakeSuite(dir, {"m"});
    AbPlan plan = Plan(2);
    plan.output_dir = dir.File("ab");
    auto out = RunAb(suite, suite, plan, t_.deps);
    ASSERT_TRUE(out.ok()) << out.error().message;
    EXPECT_TRUE(out->interrupted);
    EXPECT_EQ(out->run_paths.size(), static_cast<std::size_t>(interrupted_run));
    if (interrupted_run == 1) {
      EXPECT_FALSE(std::filesystem::exists(dir.File("ab/a.json")));
      EXPECT_FALSE(std::filesystem::exists(dir.File("ab/b.json")));
      continue;
    }
    ASSERT_EQ(out->order.size(), 2u);  // the first block's first A and B (ABBA or BAAB)
    EXPECT_EQ(out->a_path, dir.File("ab/a.json"));
    EXPECT_EQ(out->b_path, dir.File("ab/b.json"));
    for (const std::string& path : {out->a_path, out->b_path}) {
      auto side = LoadBaseline(path);
      ASSERT_TRUE(side.ok()) << side.error().message;
      EXPECT_FALSE(side->metrics.metrics.empty());
    }
  }
}

// Sequential mode: blocks are added until every gated metric is decided.
// The fake runner's runs are identical, so A/A differences are exactly 0
// and a doubled B is +100% in every block.
TEST_F(HarnessAbRunTest, SequentialStopsAtTheFirstLookThatDecidesEverything) {
  const Thresholds thresholds = DefaultThresholds();
  for (const bool slower : {false, true}) {
    FakeRunner runner(slower ? FakeRunner::Behavior(SlowerB) : FakeRunner::Behavior(nullptr));
    t_.deps.runner = &runner;
    const SuiteConfig suite = MakeSuite(dir_, {"m"}, /*warmup=*/1, /*iterations=*/3, /*reps=*/5);
    AbPlan plan = Plan(0);
    plan.thresholds = &thresholds;
    plan.max_blocks = 40;  // looks at 6, 9, 14, 21, 32 blocks
    auto out = RunAb(suite, suite, plan, t_.deps);
    ASSERT_TRUE(out.ok()) << out.error().message;
    ASSERT_TRUE(out->comparison.has_value());
    const Comparison& c = *out->comparison;
    EXPECT_TRUE(AllDecided(c));
    EXPECT_FALSE(out->budget_spent);
    // A/A: a threshold-sized change is ruled out at the second look (the
    // first, 6 blocks, cannot reach 1 − 5%/5); B ×2: the exact test reaches
    // the family's level at 14 blocks.
    EXPECT_EQ(out->blocks, slower ? 14u : 9u);
    EXPECT_EQ(out->run_paths.size(), out->blocks * 4);
    EXPECT_EQ(c.outcome, slower ? GateOutcome::kRegression : GateOutcome::kPass);
    for (const MetricComparison& row : c.rows) {
      EXPECT_EQ(CheckRowConsistency(row), "") << row.label;
      EXPECT_EQ(row.test, "paired_signed_rank") << row.label;
    }
  }
}

// Two models: "quiet" runs identically every time (decided at the second
// look), "noisy" moves by up to ±20% from run to run (never decided within
// 40 blocks). Once "quiet" is decided, the runs leave it out.
TEST_F(HarnessAbRunTest, SequentialStopsRunningAModelOnceItIsDecided) {
  const Thresholds thresholds = DefaultThresholds();
  std::mt19937 rng(5);
  FakeRunner runner([&rng](const ModelSpec& model, const RepetitionPlan&,
                           std::vector<uint64_t>* execute_ns) {
    if (model.name == "noisy") {
      const uint64_t percent = std::uniform_int_distribution<uint64_t>(80, 120)(rng);
      for (uint64_t& ns : *execute_ns) ns = ns * percent / 100;
    }
    return RepetitionOutput{};
  });
  t_.deps.runner = &runner;
  const SuiteConfig suite = MakeSuite(dir_, {"quiet", "noisy"}, /*warmup=*/1, /*iterations=*/3);
  AbPlan plan = Plan(0);
  plan.thresholds = &thresholds;
  plan.max_blocks = 40;
  auto out = RunAb(suite, suite, plan, t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->blocks, 40u);
  ASSERT_EQ(out->stopped_models.size(), 1u);
  EXPECT_EQ(out->stopped_models.at("quiet").blocks, 9u);
  std::map<std::string, std::size_t> runs;
  for (const auto& call : runner.calls()) ++runs[call.model];
  EXPECT_EQ(runs["quiet"], 9u * 4);
  EXPECT_EQ(runs["noisy"], 40u * 4);
  ASSERT_TRUE(out->comparison.has_value());
  for (const MetricComparison& row : out->comparison->rows) {
    EXPECT_EQ(CheckRowConsistency(row), "") << row.label;
    if (row.key.model == "quiet" && row.gated) {
      EXPECT_TRUE(row.decided) << row.label;
      EXPECT_EQ(row.blocks, 9u) << row.label;
    }
  }
}

TEST_F(HarnessAbRunTest, RejectsAnEmptyPlan) {
  const SuiteConfig suite = MakeSuite(dir_, {"m"});
  EXPECT_EQ(RunAb(suite, suite, Plan(0), t_.deps).error().message,
            "a sequential ab needs thresholds");
  EXPECT_EQ(RunAb(suite, suite, Plan(-1), t_.deps).error().message, "--blocks must be at least 1");
}

}  // namespace
}  // namespace etbench::harness

namespace etbench::harness {
namespace {

std::size_t CountFiles(const std::string& dir, const std::string& extension) {
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == extension) ++n;
  }
  return n;
}

// A run's ETDumps are removed once its numbers are in its results file
// (unless kept); the runs after calibration use the capped sizes.
TEST_F(HarnessAbRunTest, RunsKeepTheirNumbersNotTheirEtdumpsUnlessAsked) {
  for (const bool keep : {false, true}) {
    FakeRunner runner;
    t_.deps.runner = &runner;
    const SuiteConfig suite = MakeSuite(dir_, {"m"}, /*warmup=*/1, /*iterations=*/20);
    AbPlan plan = Plan(1);
    plan.output_dir = dir_.File(keep ? "kept" : "removed");
    plan.min_time_s = 10;  // a 1 ms model: capped at a stable median
    plan.keep_etdumps = keep;
    auto out = RunAb(suite, suite, plan, t_.deps);
    ASSERT_TRUE(out.ok()) << out.error().message;
    ASSERT_EQ(out->run_paths.size(), 6u);  // calibration A, B and one block
    EXPECT_EQ(CountFiles(plan.output_dir, ".etdp"), keep ? 6u : 0u);
    EXPECT_EQ(out->etdumps_removed, keep ? 0u : 6u);
    EXPECT_EQ(out->etdump_bytes_removed > 0, !keep);
    EXPECT_EQ(out->capped_by.at("m"), "samples");
    EXPECT_GT(out->time_iterations.at("m"), 9000);
    const int sized = out->iterations.at("m");
    EXPECT_EQ(runner.calls().back().iterations, sized);
    // The numbers stay: the merged sides hold every measured execution.
    const Metric* a = FindMetric(out->a, "Method::execute");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->samples.size(), 2u * static_cast<std::size_t>(sized));
  }
}

}  // namespace
}  // namespace etbench::harness

namespace etbench::harness {
namespace {

// Without max_blocks, the block limit is what fits the disk budget (from
// the first block's results files: each run's samples in a merged side),
// at least 20 blocks.
TEST_F(HarnessAbRunTest, TheBlockLimitFollowsTheDiskBudget) {
  const Thresholds thresholds = DefaultThresholds();
  std::mt19937 rng(9);
  FakeRunner runner([&rng](const ModelSpec&, const RepetitionPlan&, std::vector<uint64_t>* execute_ns) {
    const uint64_t percent = std::uniform_int_distribution<uint64_t>(80, 120)(rng);
    for (uint64_t& ns : *execute_ns) ns = ns * percent / 100;  // never decided
    return RepetitionOutput{};
  });
  t_.deps.runner = &runner;
  const SuiteConfig suite = MakeSuite(dir_, {"m"}, /*warmup=*/1, /*iterations=*/3);
  AbPlan plan = Plan(0);
  plan.thresholds = &thresholds;
  plan.min_time_s = 0.001;
  plan.budget_s = 1e9;  // the manual clock never spends it
  plan.output_dir = dir_.File("small");
  plan.disk_budget_bytes = 1;
  auto out = RunAb(suite, suite, plan, t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->blocks, 20u);  // the floor
  // 30 blocks' worth of the first block's runs (runs 3–6: after the 2
  // calibration runs, which hold fewer executions and smaller files).
  ASSERT_GE(out->run_bytes.size(), 6u);
  const double calibration = out->run_bytes[0];
  const double results =
      (out->run_bytes[2] + out->run_bytes[3] + out->run_bytes[4] + out->run_bytes[5]) / 4;
  ASSERT_GT(results, calibration);
  plan.output_dir = dir_.File("large");
  plan.disk_budget_bytes = 30 * 4 * results;
  out = RunAb(suite, suite, plan, t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_NEAR(static_cast<double>(out->blocks), 30, 1);
  // The block limit, not the time, ended it: it says so.
  EXPECT_TRUE(out->block_limit);
  EXPECT_FALSE(out->budget_spent);
  EXPECT_EQ(static_cast<std::size_t>(out->max_blocks), out->blocks);
  ASSERT_TRUE(out->comparison.has_value());
  bool named = false;
  for (const MetricComparison& row : out->comparison->rows) {
    if (row.gated && !row.decided) {
      const SequentialStateNote* state = FindNote<SequentialStateNote>(row.notes);
      ASSERT_NE(state, nullptr) << row.label;
      EXPECT_EQ(state->state, SequentialState::kBlockLimit) << row.label;
      named = true;
    }
  }
  EXPECT_TRUE(named);
  // Kept runs count twice (their results file and the merged side) and
  // their directories: the same budget fits fewer blocks.
  plan.output_dir = dir_.File("kept");
  plan.keep_runs = true;
  out = RunAb(suite, suite, plan, t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->blocks, 20u);  // 30 · r / (2r + 8 KiB) < 20: the floor
  EXPECT_TRUE(std::filesystem::exists(out->run_paths.back()));
}

}  // namespace
}  // namespace etbench::harness
