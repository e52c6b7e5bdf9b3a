// The run, gate and ab workflows as library functions, with a fake runner,
// a manual clock and an empty environment: no runtime, no processes.
#include "etbench/harness/workflows.h"

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "etbench/results/input_files.h"
#include "harness_test_util.h"
#include "support/memory_disk.h"

namespace etbench::harness {
namespace {

using etbench::testing::FakeRunner;
using etbench::testing::ReadTextFile;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using etbench::testing::WriteModelFile;
using etbench::testing::WriteSuite;
using etbench::testing::WriteTextFile;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Every execution takes about 1 ms, alike in every repetition; `factor`
// times as long in runs whose directory contains `marker`.
FakeRunner::Behavior SlowerWhere(std::string marker, uint64_t factor) {
  return [marker, factor](const ModelSpec&, const RepetitionPlan& plan,
                          std::vector<uint64_t>* execute_ns) {
    const bool slow = plan.workdir.find(marker) != std::string::npos;
    for (std::size_t i = 0; i < execute_ns->size(); ++i) {
      (*execute_ns)[i] = (1000000 + (i % 7) * 1000) * (slow ? factor : 1);
    }
    return RepetitionOutput{};
  };
}

class HarnessWorkflowsTest : public ::testing::Test {
 protected:
  HarnessWorkflowsTest() {
    WriteModelFile(dir_, "m");
    suite_ = WriteSuite(dir_, "suite: s\nwarmup: 1\niterations: 20\nrepetitions: 6\nmodels: [" +
                                  dir_.File("m.model") + "]\noutput_dir: " + dir_.File("out") +
                                  "/{suite}\nlabels: {device: fake}\n");
  }

  // Records a baseline of the suite with `runner` (results of a run).
  std::string RecordBaseline(FakeRunner* runner) {
    t_.deps.runner = runner;
    auto run = harness::Run(suite_, ConfigOverrides{}, RunSuiteWith(t_.deps));
    EXPECT_TRUE(run.ok()) << run.error().message;
    const std::string path = dir_.File("baseline.json");
    std::filesystem::copy_file(run->run.results_path, path);
    return path;
  }

  // `count` unchanged nights (runs of the suite, ~1 ms per execution).
  std::vector<MetricSet> RecordNights(int count) {
    std::vector<MetricSet> nights;
    for (int n = 0; n < count; ++n) {
      FakeRunner recorder(SlowerWhere("", 1));
      auto night = results::LoadMetricSetFile(RecordBaseline(&recorder));
      EXPECT_TRUE(night.ok());
      if (night.ok()) nights.push_back(night.value());
      std::filesystem::remove(dir_.File("baseline.json"));
    }
    return nights;
  }

  TempDir dir_;
  TestDeps t_;
  std::string suite_;
};

TEST_F(HarnessWorkflowsTest, RunAppliesOverridesAndWritesResults) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  ConfigOverrides overrides;
  overrides.iterations = 4;
  overrides.repetitions = 2;
  auto run = harness::Run(suite_, overrides, RunSuiteWith(t_.deps));
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->config.iterations, 4);
  EXPECT_EQ(run->run.results_path, dir_.File("out/s/results.json"));
  EXPECT_TRUE(std::filesystem::exists(run->run.results_path));
  ASSERT_EQ(runner.calls().size(), 2u);
  EXPECT_EQ(runner.calls()[1].iterations, 4);
}

TEST_F(HarnessWorkflowsTest, TheSuiteResultsAndBaselineGoThroughTheInjectedDisk) {
  // The suite file is read from, and the results file and the baseline are
  // written to, the run's disk (RunDeps::disk); the runner's artifacts stay
  // on the real one.
  testing::MemoryDisk disk;
  disk.AddFile(suite_, ReadTextFile(suite_));
  std::filesystem::remove(suite_);
  FakeRunner runner;
  t_.deps.runner = &runner;
  t_.deps.disk = &disk;
  auto run = harness::Run(suite_, ConfigOverrides{}, RunSuiteWith(t_.deps), disk);
  ASSERT_TRUE(run.ok()) << run.error().message;
  const std::string results_path = dir_.File("out/s/results.json");
  EXPECT_EQ(run->run.results_path, results_path);
  EXPECT_TRUE(disk.Has(results_path));
  EXPECT_FALSE(std::filesystem::exists(results_path));
  BaselineSaveRequest request;
  request.inputs = {results_path};
  request.root = dir_.path();
  auto saved = SaveBaselineFromResults(request, disk);
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_TRUE(disk.Has(dir_.path() + "/baselines/fake/s.json"));
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/baselines"));
  auto loaded = results::LoadMetricSetFile(saved->path, disk);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_FALSE(loaded->metrics.empty());
}

TEST_F(HarnessWorkflowsTest, RunReportsABadConfigWithoutRunning) {
  bool ran = false;
  auto run = harness::Run(dir_.File("none.yaml"), ConfigOverrides{}, [&ran](const SuiteConfig&) {
    ran = true;
    return Result<SuiteRunOutput>(InputError("unreachable"));
  });
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(run.error().message, HasSubstr("none.yaml"));
  EXPECT_FALSE(ran);
}

TEST_F(HarnessWorkflowsTest, GatePassesAgainstItsOwnBaselineAndFailsOnASlowerRun) {
  FakeRunner recorder(SlowerWhere("", 1));
  const std::string baseline = RecordBaseline(&recorder);

  FakeRunner same(SlowerWhere("", 1));
  t_.deps.runner = &same;
  GateRequest request;
  request.config_path = suite_;
  request.baseline_path = baseline;
  std::vector<ComparisonWarning> warnings;
  const WarningSink warn = [&warnings](const ComparisonWarning& w) { warnings.push_back(w); };
  auto pass = Gate(request, RunSuiteWith(t_.deps), warn);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  EXPECT_EQ(GateExitCode(pass->comparison, false), 0);
  EXPECT_EQ(pass->title, "s: " + baseline + " → " + dir_.File("out/s/results.json"));
  EXPECT_TRUE(pass->config.quiet);  // the comparison is the output
  EXPECT_FALSE(pass->advisory);
  EXPECT_TRUE(warnings.empty());

  FakeRunner slower(SlowerWhere("/out/", 2));
  t_.deps.runner = &slower;
  auto fail = Gate(request, RunSuiteWith(t_.deps), warn);
  ASSERT_TRUE(fail.ok()) << fail.error().message;
  EXPECT_EQ(GateExitCode(fail->comparison, false), 1);
}

TEST_F(HarnessWorkflowsTest, AProvidedBaselineIsAskedForWithTheThresholdsTheGateWillUse) {
  // gate --baseline history finds its stable segment with them.
  FakeRunner recorder;
  const std::string baseline = RecordBaseline(&recorder);
  auto metrics = results::LoadMetricSetFile(baseline);
  ASSERT_TRUE(metrics.ok());
  const std::string thresholds = dir_.File("t.yaml");
  WriteTextFile(thresholds, "version: 1\nend_to_end:\n  relative: 7%\n");
  FakeRunner runner;
  t_.deps.runner = &runner;
  GateRequest request;
  request.config_path = suite_;
  double asked_with = 0;
  request.baseline_source = [&](const MetricSet&, const Thresholds& t)
      -> Result<std::optional<ProvidedBaseline>> {
    asked_with = t.end_to_end.relative;
    return std::optional<ProvidedBaseline>(ProvidedBaseline{metrics.value(), "provided", {}});
  };
  ASSERT_TRUE(Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {}).ok());
  EXPECT_DOUBLE_EQ(asked_with, 0.02);  // the built-in rules
  request.thresholds_path = thresholds;
  auto gate = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  EXPECT_DOUBLE_EQ(asked_with, 0.07);
  EXPECT_EQ(gate->baseline_path, "provided");
}

// gate --baseline history: the nights judge tonight, and a suspect is
// measured again (under <output_dir>/confirm) before the gate fails.
TEST_F(HarnessWorkflowsTest, GateAgainstNightsConfirmsASuspectBeforeFailing) {
  std::vector<MetricSet> nights = RecordNights(5);
  ASSERT_EQ(nights.size(), 5u);
  GateRequest request;
  request.config_path = suite_;
  request.baseline_source = [&](const MetricSet&, const Thresholds&)
      -> Result<std::optional<ProvidedBaseline>> {
    return std::optional<ProvidedBaseline>(ProvidedBaseline{nights.front(), "nights", nights});
  };
  const auto quiet = [](const ComparisonWarning&) {};

  FakeRunner same(SlowerWhere("", 1));
  t_.deps.runner = &same;
  auto pass = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  EXPECT_TRUE(pass->night_model);
  EXPECT_EQ(pass->nights, 5u);
  EXPECT_EQ(pass->recent_nights, 1u);  // tonight alone, against every night
  EXPECT_EQ(pass->look_nights, 5u);
  EXPECT_EQ(pass->comparison.outcome, etbench::GateOutcome::kPass);
  EXPECT_TRUE(pass->confirmation_models.empty());

  // Slow in the first run only (interference): the confirmation run clears it.
  FakeRunner spike([](const ModelSpec& m, const RepetitionPlan& plan, std::vector<uint64_t>* ns) {
    const bool confirming = plan.workdir.find("/confirm") != std::string::npos;
    return SlowerWhere("", confirming ? 1 : 2)(m, plan, ns);
  });
  t_.deps.runner = &spike;
  auto spiked = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(spiked.ok()) << spiked.error().message;
  EXPECT_THAT(spiked->confirmation_models, ElementsAre("m"));
  EXPECT_THAT(spiked->confirmation_path, HasSubstr("/confirm/"));
  EXPECT_NE(spiked->comparison.outcome, etbench::GateOutcome::kRegression);

  // Slow in both: a regression; without confirmation the first run decides.
  FakeRunner slower(SlowerWhere("", 2));
  t_.deps.runner = &slower;
  auto fail = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(fail.ok()) << fail.error().message;
  EXPECT_EQ(GateExitCode(fail->comparison, false), 1);
  t_.deps.runner = &spike;
  request.confirm = false;
  auto unconfirmed = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(unconfirmed.ok());
  EXPECT_TRUE(unconfirmed->confirmation_models.empty());
  EXPECT_EQ(GateExitCode(unconfirmed->comparison, false), 1);

  // Fewer nights than the model needs: nothing judged, the gate passes.
  nights.resize(4);
  t_.deps.runner = &same;
  auto short_history = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(short_history.ok());
  EXPECT_TRUE(short_history->nights_too_short);
  EXPECT_TRUE(short_history->comparison.rows.empty());
}

// A change point tonight's run confirms (request.change_point_models, in
// the CLI `history detect` on the history tonight joined) is judged as a
// first-night alert is: its model is measured again, under
// <output_dir>/confirm-change-points, unless a confirmation run measured it
// already, and every confirmation's metrics come back for the recheck.
TEST_F(HarnessWorkflowsTest, GateMeasuresAgainAModelWhoseChangePointTonightConfirms) {
  std::vector<MetricSet> nights = RecordNights(5);
  GateRequest request;
  request.config_path = suite_;
  request.baseline_source = [&](const MetricSet&, const Thresholds&)
      -> Result<std::optional<ProvidedBaseline>> {
    return std::optional<ProvidedBaseline>(ProvidedBaseline{nights.front(), "nights", nights});
  };
  std::vector<bool> asked_with_confirmation;
  request.change_point_models = [&](const MetricSet&, const MetricSet* confirmation)
      -> Result<std::vector<std::string>> {
    asked_with_confirmation.push_back(confirmation != nullptr);
    return std::vector<std::string>{"m"};
  };
  const auto quiet = [](const ComparisonWarning&) {};
  std::vector<std::string> dirs;
  FakeRunner same([&](const ModelSpec& m, const RepetitionPlan& plan, std::vector<uint64_t>* ns) {
    dirs.push_back(plan.workdir);
    return SlowerWhere("", 1)(m, plan, ns);
  });
  t_.deps.runner = &same;

  auto pass = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  EXPECT_EQ(pass->comparison.outcome, etbench::GateOutcome::kPass);
  EXPECT_TRUE(pass->confirmation_models.empty());  // the night model had no suspect
  EXPECT_THAT(asked_with_confirmation, ElementsAre(false));
  EXPECT_THAT(pass->change_point_models, ElementsAre("m"));
  EXPECT_THAT(pass->change_point_path, HasSubstr("/confirm-change-points/"));
  ASSERT_TRUE(pass->confirmation.has_value());
  EXPECT_FALSE(pass->confirmation->metrics.empty());
  for (const Metric& metric : pass->confirmation->metrics) EXPECT_EQ(metric.key.model, "m");
  EXPECT_TRUE(std::any_of(dirs.begin(), dirs.end(), [](const std::string& d) {
    return d.find("/confirm-change-points") != std::string::npos;
  }));

  // The night model's confirmation run measured m already: no third run.
  FakeRunner spike([](const ModelSpec& m, const RepetitionPlan& plan, std::vector<uint64_t>* ns) {
    const bool confirming = plan.workdir.find("/confirm") != std::string::npos;
    return SlowerWhere("", confirming ? 1 : 2)(m, plan, ns);
  });
  t_.deps.runner = &spike;
  asked_with_confirmation.clear();
  auto spiked = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(spiked.ok()) << spiked.error().message;
  EXPECT_THAT(spiked->confirmation_models, ElementsAre("m"));
  EXPECT_THAT(asked_with_confirmation, ElementsAre(true));
  EXPECT_TRUE(spiked->change_point_models.empty());
  EXPECT_TRUE(spiked->confirmation.has_value());

  // --no-confirm: nothing measured again; a history too short to judge
  // still measures the change point's model again.
  request.confirm = false;
  t_.deps.runner = &same;
  auto unconfirmed = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(unconfirmed.ok());
  EXPECT_TRUE(unconfirmed->change_point_models.empty());
  EXPECT_FALSE(unconfirmed->confirmation.has_value());
  request.confirm = true;
  nights.resize(4);
  auto short_history = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(short_history.ok());
  EXPECT_TRUE(short_history->nights_too_short);
  EXPECT_THAT(short_history->change_point_models, ElementsAre("m"));
}

// --sessions N: the suite runs N times (sessions 2.. under sessions/sK, by
// run_session: in the CLI a fresh process), the history sink gets every
// session's metrics, and a time metric's night value is the lower decile
// of its sessions' values.
TEST_F(HarnessWorkflowsTest, GateAgainstNightsRunsEverySessionAndJudgesTheirLowerDecile) {
  std::vector<MetricSet> nights = RecordNights(5);
  ASSERT_EQ(nights.size(), 5u);
  GateRequest request;
  request.config_path = suite_;
  request.confirm = false;
  request.sessions = 3;
  request.baseline_source = [&](const MetricSet&, const Thresholds&)
      -> Result<std::optional<ProvidedBaseline>> {
    return std::optional<ProvidedBaseline>(ProvidedBaseline{nights.front(), "nights", nights});
  };
  std::vector<std::string> session_dirs;
  request.run_session = [&](const SuiteConfig& config) {
    session_dirs.push_back(ResolvedOutputDir(config));
    return RunSuiteWith(t_.deps)(config);
  };
  std::size_t recorded_sessions = 0;
  request.on_run = [&](const SuiteRunOutput& run, const MetricSet& night) -> Status {
    EXPECT_EQ(run.results_path.find("/sessions/"), std::string::npos) << run.results_path;
    recorded_sessions = night.metrics.front().session_sizes.size();
    return Ok{};
  };
  const auto quiet = [](const ComparisonWarning&) {};

  // Session 2 alone is slow (a disturbed process): the night passes.
  FakeRunner one_slow(SlowerWhere("/sessions/s2", 2));
  t_.deps.runner = &one_slow;
  auto pass = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(pass.ok()) << pass.error().message;
  EXPECT_EQ(session_dirs.size(), 3u);
  EXPECT_THAT(session_dirs[1], HasSubstr("/sessions/s2"));
  EXPECT_THAT(session_dirs[2], HasSubstr("/sessions/s3"));
  EXPECT_EQ(recorded_sessions, 3u);
  EXPECT_EQ(pass->candidate.metrics.front().session_sizes.size(), 3u);
  EXPECT_NE(pass->comparison.outcome, etbench::GateOutcome::kRegression);

  // Every session twice as slow: a regression.
  FakeRunner all_slow(SlowerWhere("", 2));
  t_.deps.runner = &all_slow;
  auto fail = Gate(request, RunSuiteWith(t_.deps), quiet);
  ASSERT_TRUE(fail.ok()) << fail.error().message;
  EXPECT_EQ(GateExitCode(fail->comparison, false), 1);
}

TEST_F(HarnessWorkflowsTest, GateFindsTheBaselineUnderRootByDeviceAndSuite) {
  FakeRunner recorder;
  const std::string recorded = RecordBaseline(&recorder);
  std::filesystem::create_directories(dir_.File("root/baselines/fake"));
  std::filesystem::copy_file(recorded, dir_.File("root/baselines/fake/s.json"));
  FakeRunner runner;
  t_.deps.runner = &runner;
  GateRequest request;
  request.config_path = suite_;
  request.root = dir_.File("root");
  auto gate = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  EXPECT_EQ(gate->baseline_path, dir_.File("root") + "/baselines/fake/s.json");

  request.root = dir_.File("elsewhere");
  auto missing = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("elsewhere/baselines/fake/s.json"));
}

TEST_F(HarnessWorkflowsTest, GateReadsANamedBaselineFileBeforeAnyModelRuns) {
  FakeRunner recorder;
  const std::string recorded = RecordBaseline(&recorder);
  const std::string results = dir_.File("out/s/results.json");
  const std::string last_night = ReadTextFile(results);
  WriteTextFile(dir_.File("notes.md"), "# notes\n");
  FakeRunner runner;
  t_.deps.runner = &runner;
  GateRequest request;
  request.config_path = suite_;
  bool before_run = false;
  request.before_run = [&before_run] {
    before_run = true;
    return Status(Ok{});
  };
  for (const std::string& bad : {dir_.File("none.json"), dir_.File("notes.md"), suite_}) {
    request.baseline_path = bad;
    auto gate = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
    ASSERT_FALSE(gate.ok()) << bad;
    // The loader's own message, as the comparison gave it after the run.
    EXPECT_EQ(gate.error().message, results::LoadMetricSetFile(bad).error().message);
    EXPECT_TRUE(runner.calls().empty()) << bad;
    EXPECT_FALSE(before_run) << bad;
    EXPECT_EQ(ReadTextFile(results), last_night) << bad;
  }
  // A good file: `before_run` first, then the suite; its error stops both.
  request.baseline_path = recorded;
  request.before_run = [] { return Status(InputError("history: unusable")); };
  auto refused = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "history: unusable");
  EXPECT_TRUE(runner.calls().empty());
  request.before_run = nullptr;
  auto gate = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  EXPECT_FALSE(runner.calls().empty());
  EXPECT_EQ(gate->baseline_path, recorded);
}

TEST_F(HarnessWorkflowsTest, GateOnAnotherMachineIsAdviceOnlyWhenAskedAndWarnsOfAnotherDevice) {
  FakeRunner recorder;
  const std::string baseline = RecordBaseline(&recorder);
  // The same numbers, recorded on another host and device.
  nlohmann::json json = nlohmann::json::parse(ReadTextFile(baseline));
  json["metadata"]["host"] = "other-host";
  json["metadata"]["device"] = "other-device";
  WriteTextFile(baseline, json.dump());

  FakeRunner runner;
  t_.deps.runner = &runner;
  GateRequest request;
  request.config_path = suite_;
  request.baseline_path = baseline;
  std::vector<ComparisonWarning> warnings;
  const WarningSink warn = [&warnings](const ComparisonWarning& w) { warnings.push_back(w); };
  auto strict = Gate(request, RunSuiteWith(t_.deps), warn);
  ASSERT_TRUE(strict.ok()) << strict.error().message;
  EXPECT_FALSE(strict->advisory);
  EXPECT_THAT(strict->baseline_machine, StartsWith("host 'other-host'"));
  ASSERT_EQ(warnings.size(), 1u);
  const auto* device = std::get_if<BaselineDeviceWarning>(&warnings[0]);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->baseline_device, "other-device");

  request.advisory_on_other_machine = true;
  auto advice = Gate(request, RunSuiteWith(t_.deps), warn);
  ASSERT_TRUE(advice.ok()) << advice.error().message;
  EXPECT_TRUE(advice->advisory);
}

TEST_F(HarnessWorkflowsTest, GateCannotJudgeFailedOrInterruptedModels) {
  FakeRunner recorder;
  const std::string baseline = RecordBaseline(&recorder);
  FakeRunner failing([](const ModelSpec&, const RepetitionPlan&, std::vector<uint64_t>*) {
    RepetitionOutput out;
    out.ok = false;
    out.error = "no device";
    return out;
  });
  t_.deps.runner = &failing;
  GateRequest request;
  request.config_path = suite_;
  request.baseline_path = baseline;
  auto failed = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message, "some models did not run (see " +
                                        dir_.File("out/s/results.json") +
                                        "); the gate cannot judge them");

  std::atomic<bool> cancel{false};
  FakeRunner interrupted([&cancel](const ModelSpec&, const RepetitionPlan&, std::vector<uint64_t>*) {
    cancel = true;
    return RepetitionOutput{};
  });
  t_.deps.runner = &interrupted;
  t_.deps.cancel = &cancel;
  // Ctrl-C is not an error: the outcome says so and carries no verdict.
  auto stopped = Gate(request, RunSuiteWith(t_.deps), [](const ComparisonWarning&) {});
  ASSERT_TRUE(stopped.ok()) << stopped.error().message;
  EXPECT_TRUE(stopped->interrupted);
  EXPECT_EQ(stopped->results_path, dir_.File("out/s/results.json"));
}

TEST_F(HarnessWorkflowsTest, AbAnnouncesThePlanRunsBothVariantsAndComparesBWithA) {
  FakeRunner runner(SlowerWhere("-b/", 2));
  t_.deps.runner = &runner;
  AbRequest request;
  request.config_path = suite_;
  request.b_settings = {"slowdown=conv2d=1.5"};
  // The paired test needs several blocks to decide; counts, not time sizing.
  request.blocks = 8;
  request.min_time_s = 0;
  request.warmup_time_s = 0;
  request.seed = 3;
  request.output_dir = dir_.File("ab");
  std::vector<std::string> announced;
  auto ab = Ab(request, t_.deps, [&announced](const AbPlan& plan, const std::vector<AbVariant>& order) {
    announced = {plan.a_description, plan.b_description, std::to_string(order.size())};
  });
  ASSERT_TRUE(ab.ok()) << ab.error().message;
  EXPECT_THAT(announced, ElementsAre("A: the suite as it is", "B: slowdown=conv2d=1.5", "32"));
  EXPECT_EQ(runner.calls().size(), 32u);
  ASSERT_TRUE(ab->comparison.has_value());
  EXPECT_EQ(GateExitCode(*ab->comparison, false), 1);
  EXPECT_EQ(ab->title, "s: A: the suite as it is → B: slowdown=conv2d=1.5");
  EXPECT_EQ(ab->run.b_path, dir_.File("ab") + "/b.json");
}

TEST_F(HarnessWorkflowsTest, AbDefaultBudgetIsPerModelRun) {
  // A block runs every model: four models get four times one model's budget.
  WriteModelFile(dir_, "n");
  WriteModelFile(dir_, "o");
  WriteModelFile(dir_, "p");
  std::string models;
  for (const char* name : {"m", "n", "o", "p"}) {
    models += (models.empty() ? "" : ", ") + dir_.File(std::string(name) + ".model");
  }
  auto config = LoadSuiteConfig(WriteSuite(dir_, "suite: s\nmodels: [" + models + "]\n"));
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_DOUBLE_EQ(DefaultAbBudget(*config), 4 * kAbDefaultBudgetPerModelS);
  config->model_filter = {"n"};
  EXPECT_DOUBLE_EQ(DefaultAbBudget(*config), kAbDefaultBudgetPerModelS);
}

TEST_F(HarnessWorkflowsTest, AbStopsBeforeRunningOnBadSettingsAndSkipsTheComparisonWhenInterrupted) {
  FakeRunner runner;
  t_.deps.runner = &runner;
  AbRequest request;
  request.config_path = suite_;
  request.b_settings = {"modle=x"};
  bool announced = false;
  auto bad = Ab(request, t_.deps, [&announced](const AbPlan&, const std::vector<AbVariant>&) {
    announced = true;
  });
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, StartsWith("--b modle=x: "));
  EXPECT_FALSE(announced);
  EXPECT_TRUE(runner.calls().empty());

  std::atomic<bool> cancel{false};
  FakeRunner interrupting([&cancel](const ModelSpec&, const RepetitionPlan&, std::vector<uint64_t>*) {
    cancel = true;
    return RepetitionOutput{};
  });
  t_.deps.runner = &interrupting;
  t_.deps.cancel = &cancel;
  request.b_settings.clear();
  request.output_dir = dir_.File("ab");
  request.min_time_s = 0;
  request.warmup_time_s = 0;
  auto stopped = Ab(request, t_.deps, nullptr);
  ASSERT_TRUE(stopped.ok()) << stopped.error().message;
  EXPECT_TRUE(stopped->run.interrupted);
  EXPECT_FALSE(stopped->comparison.has_value());
}

TEST_F(HarnessWorkflowsTest, BaselineSaveMergesRunsRefusesToOverwriteAndUpdateTakesTheLatest) {
  FakeRunner runner(SlowerWhere("", 1));
  const std::string first = RecordBaseline(&runner);  // a copy of out/s/results.json
  BaselineSaveRequest request;
  request.inputs = {first, dir_.File("out/s/results.json")};
  request.root = dir_.path();
  auto saved = SaveBaselineFromResults(request);
  ASSERT_TRUE(saved.ok()) << saved.error().message;
  EXPECT_EQ(saved->path, dir_.path() + "/baselines/fake/s.json");
  EXPECT_EQ(saved->inputs, request.inputs);
  auto merged = results::LoadMetricSetFile(saved->path);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  ASSERT_FALSE(merged->metrics.empty());
  auto one = results::LoadMetricSetFile(first);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(merged->metrics[0].samples.size(), 2 * one->metrics[0].samples.size());

  auto again = SaveBaselineFromResults(request);
  ASSERT_FALSE(again.ok());  // exists, no force

  auto updated = UpdateBaseline(suite_, BaselineSaveRequest{{}, "", "", dir_.path(), false});
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  EXPECT_EQ(updated->inputs, std::vector<std::string>{dir_.File("out/s/results.json")});
  EXPECT_EQ(results::LoadMetricSetFile(updated->path)->metrics[0].samples.size(),
            one->metrics[0].samples.size());
}

}  // namespace
}  // namespace etbench::harness
