#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "etbench/harness/orchestrator.h"
#include "etbench/runner_protocol/run_metadata.h"
#include "etbench/harness/runner.h"
#include "harness_test_util.h"

#if ETBENCH_HAVE_RUNTIME
#include "etbench/runtime/clock.h"
#endif

namespace etbench::harness {
namespace {

using etbench::testing::ReadTextFile;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using etbench::testing::WriteBinaryFile;
using etbench::testing::WriteScript;
using ::testing::HasSubstr;

// A command suite over `models` (model files of the repo) running `argv`.
SuiteConfig CommandSuite(const TempDir& dir, std::vector<std::string> argv,
                         std::vector<std::string> models = {"mlp"}) {
  SuiteConfig c = etbench::testing::MakeRepoSuite(dir, models);
  c.suite = "command_test";
  c.runner = RunnerKind::kCommand;
  c.has_command = true;
  c.command.argv = std::move(argv);
  c.command.process.timeout_s = 30;
  return c;
}

// Writes a valid ETDump with `runs` Execute runs wherever $ETBENCH_ETDUMP
// says: the fake programs copy it.
std::string PrepareEtdump(const TempDir& dir, int runs) {
  std::vector<uint64_t> durations;
  for (int i = 0; i < runs; ++i) durations.push_back(1000000 + static_cast<uint64_t>(i) * 1000);
  const std::string path = dir.File("canned.etdp");
  WriteBinaryFile(path, etbench::testing::MakeExecuteEtdump(durations));
  return path;
}

std::vector<std::string> EventNames(const results::ModelResult& m) {
  std::vector<std::string> names;
  for (const results::BlockResult& b : m.blocks) {
    for (const results::EventResult& e : b.events) {
      names.push_back(b.name + "/" + e.name + "#" +
                      (e.instruction_id ? std::to_string(*e.instruction_id) : "-"));
    }
  }
  return names;
}

class HarnessCommandRunnerTest : public ::testing::Test {
 protected:
  results::ModelResult RunOne(const SuiteConfig& config) {
    auto run = RunSuite(config, t_.deps);
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    if (!run.ok() || run->results.models.empty()) return {};
    results_path_ = run->results_path;
    return run->results.models.front();
  }
  TempDir dir_;
  TestDeps t_;
  std::string results_path_;
};

TEST_F(HarnessCommandRunnerTest, EtRunnerGivesTheSameStructureAsTheBuiltinRunner) {
  const std::string et_runner = etbench::testing::EtRunnerPath();
  if (et_runner.empty()) GTEST_SKIP() << "et_runner not built";
  const std::vector<std::string> models = {"toy_cnn", "mobilenet_v2_block", "transformer_block"};
  SuiteConfig command =
      CommandSuite(dir_,
                   {et_runner, "--model_path", "{model}", "--num_executions", "{iterations}",
                    "--etdump_path", "{etdump}", "--time_source", "{time_source}", "{args}"},
                   models);
  auto via_command = RunSuite(command, t_.deps);
  ASSERT_TRUE(via_command.ok()) << via_command.error().message;

  SuiteConfig builtin = command;
  builtin.runner = RunnerKind::kBuiltin;
  builtin.output_dir = dir_.File("builtin");
  auto via_builtin = RunSuite(builtin, t_.deps);
  ASSERT_TRUE(via_builtin.ok()) << via_builtin.error().message;

  ASSERT_EQ(via_command->results.models.size(), models.size());
  for (std::size_t i = 0; i < models.size(); ++i) {
    const results::ModelResult& c = via_command->results.models[i];
    const results::ModelResult& b = via_builtin->results.models[i];
    ASSERT_EQ(c.status, results::ModelStatus::kOk) << c.error << "\n" << c.stderr_text;
    ASSERT_EQ(b.status, results::ModelStatus::kOk) << b.error;
    EXPECT_EQ(EventNames(c), EventNames(b)) << models[i];
    ASSERT_EQ(c.blocks.size(), b.blocks.size());
    for (std::size_t k = 0; k < c.blocks.size(); ++k) {
      EXPECT_EQ(c.blocks[k].run_count, b.blocks[k].run_count);
      EXPECT_EQ(c.blocks[k].framework_tax.has_value(), b.blocks[k].framework_tax.has_value());
    }
    ASSERT_EQ(c.repetitions.size(), 2u);
    EXPECT_FALSE(c.repetitions[0].metadata_path.empty());  // et_runner's sidecar
    EXPECT_EQ(c.repetitions[0].execute_runs, 4u);
    EXPECT_EQ(c.model_sha256, b.model_sha256);
  }
}

TEST_F(HarnessCommandRunnerTest, SidecarTickRateConvertsCycles) {
#if ETBENCH_HAVE_RUNTIME
  const std::string et_runner = etbench::testing::EtRunnerPath();
  if (et_runner.empty()) GTEST_SKIP() << "et_runner not built";
  if (!runtime::CycleCounterAvailable()) GTEST_SKIP() << "no cycle counter";
  SuiteConfig config =
      CommandSuite(dir_, {et_runner, "--model_path", "{model}", "--num_executions", "{iterations}",
                          "--etdump_path", "{etdump}", "--time_source", "{time_source}"});
  config.time_source = "cycles";
  config.repetitions = 1;
  const results::ModelResult m = RunOne(config);
  ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error;
  EXPECT_EQ(m.repetitions[0].time_source, "cycles");
  EXPECT_NE(m.repetitions[0].tick_rate_hz, 1e9);
  for (const results::BlockResult& b : m.blocks) {
    for (const results::EventResult& e : b.events) {
      if (e.name != "Method::execute") continue;
      // Milliseconds, not cycles: a sub-millisecond model stays far below 1000.
      EXPECT_GT(e.perf_data.p50, 0.001);
      EXPECT_LT(e.perf_data.p50, 1000.0);
    }
  }
#else
  GTEST_SKIP() << "built without the runtime";
#endif
}

TEST_F(HarnessCommandRunnerTest, EachRepetitionIsAFreshProcessWithItsPlaceholders) {
  const std::string canned = PrepareEtdump(dir_, 4);
  const std::string log = dir_.File("log");
  const std::string script = WriteScript(
      dir_, "fake.sh",
      "echo \"pid=$$ rep=$1 iters=$2 warm=$3 name=$4 env=$ETBENCH_REPETITION x=$5 y=$6\" >> " +
          log + "\ncp " + canned + " \"$ETBENCH_ETDUMP\"");
  SuiteConfig config =
      CommandSuite(dir_, {script, "{repetition}", "{iterations}", "{warmup}", "{name}", "{args}"});
  config.repetitions = 3;
  config.models[0].args = {"--flag", "a b"};
  const results::ModelResult m = RunOne(config);
  ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error << m.stderr_text;
  std::istringstream lines(ReadTextFile(log));
  std::string line;
  std::set<std::string> pids;
  int rep = 0;
  while (std::getline(lines, line)) {
    pids.insert(line.substr(0, line.find(' ')));
    EXPECT_THAT(line, HasSubstr("rep=" + std::to_string(rep) + " iters=4 warm=1 name=mlp env=" +
                                std::to_string(rep) + " x=--flag y=a b"));
    ++rep;
  }
  EXPECT_EQ(rep, 3);
  EXPECT_EQ(pids.size(), 3u);
  EXPECT_EQ(m.repetitions.size(), 3u);
  EXPECT_EQ(m.repetitions[1].etdump_path, "mlp/rep1.etdp");
  for (const results::BlockResult& b : m.blocks) {
    if (b.name == "Execute") {
      EXPECT_EQ(b.run_count, 9u);  // 3 measured x 3
    }
  }
}

TEST_F(HarnessCommandRunnerTest, ModelPathsWithShellCharactersArePassedVerbatim) {
  const std::string canned = PrepareEtdump(dir_, 4);
  const std::string odd = dir_.File("we ird $(touch pwned); `x`.yaml");
  etbench::testing::WriteTextFile(odd, "model\n");
  const std::string seen = dir_.File("seen");
  const std::string script =
      WriteScript(dir_, "fake.sh", "printf '%s' \"$1\" > " + seen + "; cp " + canned + " \"$2\"");
  SuiteConfig config = CommandSuite(dir_, {script, "{model}", "{etdump}"});
  config.models[0].path = odd;
  config.repetitions = 1;
  const results::ModelResult m = RunOne(config);
  ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error;
  EXPECT_EQ(ReadTextFile(seen), odd);
  EXPECT_FALSE(std::filesystem::exists("pwned"));
  EXPECT_FALSE(std::filesystem::exists(dir_.File("pwned")));
}

TEST_F(HarnessCommandRunnerTest, CrashIsRecordedWithItsOutputAndTheSuiteContinues) {
  const std::string canned = PrepareEtdump(dir_, 4);
  const std::string script =
      WriteScript(dir_, "fake.sh",
                  "if [ \"$1\" = mlp ]; then echo 'about to crash' >&2; kill -SEGV $$; fi\n"
                  "cp " +
                      canned + " \"$2\"");
  SuiteConfig config = CommandSuite(dir_, {script, "{name}", "{etdump}"}, {"mlp", "toy_cnn"});
  auto run = RunSuite(config, t_.deps);
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->results.models.size(), 2u);
  const results::ModelResult& crashed = run->results.models[0];
  EXPECT_EQ(crashed.status, results::ModelStatus::kFailed);
  EXPECT_EQ(crashed.error, "repetition 1/2: 'fake.sh' killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(crashed.stderr_text, "about to crash\n");
  EXPECT_EQ(run->results.models[1].status, results::ModelStatus::kOk);
  EXPECT_FALSE(run->results.interrupted);
}

TEST_F(HarnessCommandRunnerTest, NonZeroExitKeepsStdoutAndStderr) {
  const std::string script =
      WriteScript(dir_, "fake.sh", "echo 'loading model'; echo 'bad input' >&2; exit 3");
  const results::ModelResult m = RunOne(CommandSuite(dir_, {script}));
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_EQ(m.error, "repetition 1/2: 'fake.sh' exited with status 3");
  EXPECT_EQ(m.stdout_text, "loading model\n");
  EXPECT_EQ(m.stderr_text, "bad input\n");
}

TEST_F(HarnessCommandRunnerTest, HangIsStoppedByTheTimeout) {
  const std::string script = WriteScript(dir_, "fake.sh", "echo waiting; sleep 30");
  SuiteConfig config = CommandSuite(dir_, {script});
  config.command.process.timeout_s = 0.5;
  const results::ModelResult m = RunOne(config);
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_EQ(m.error, "repetition 1/2: 'fake.sh' timed out after 0.5 s (stopped with SIGTERM)");
  EXPECT_EQ(m.stdout_text, "waiting\n");
  EXPECT_LT(m.wall_ms, 10000);
}

TEST_F(HarnessCommandRunnerTest, MissingEmptyOrGarbageEtdumpsAreClearErrors) {
  results::ModelResult m = RunOne(CommandSuite(dir_, {WriteScript(dir_, "none.sh", "exit 0")}));
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_THAT(m.error, HasSubstr("'none.sh' exited with status 0 but wrote no ETDump at "));
  EXPECT_THAT(m.error, HasSubstr("pass {etdump} in command.argv, or write to $ETBENCH_ETDUMP"));

  m = RunOne(CommandSuite(dir_, {WriteScript(dir_, "empty.sh", ": > \"$1\""), "{etdump}"}));
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_THAT(m.error, HasSubstr("'empty.sh' wrote an empty ETDump at "));

  m = RunOne(CommandSuite(
      dir_, {WriteScript(dir_, "garbage.sh", "head -c 4096 /dev/urandom > \"$1\""), "{etdump}"}));
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_THAT(m.error, HasSubstr("repetition 1/2: invalid ETDump: "));

  // A program that ignores {iterations}' count is caught.
  const std::string canned = PrepareEtdump(dir_, 2);
  m = RunOne(CommandSuite(dir_, {WriteScript(dir_, "short.sh", "cp " + canned + " \"$1\""),
                                 "{etdump}", "{iterations}"}));
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_THAT(m.error,
              HasSubstr("the ETDump has 2 Execute runs, expected 4 (1 warm-up + 3 iterations)"));
}

TEST_F(HarnessCommandRunnerTest, InvalidSidecarIsAnError) {
  const std::string canned = PrepareEtdump(dir_, 4);
  const std::string script =
      WriteScript(dir_, "fake.sh",
                  "cp " + canned + " \"$1\"; echo '{\"schema_version\": 9}' > \"$1.meta.json\"");
  const results::ModelResult m = RunOne(CommandSuite(dir_, {script, "{etdump}"}));
  EXPECT_EQ(m.status, results::ModelStatus::kFailed);
  EXPECT_THAT(m.error, HasSubstr("invalid run metadata: "));
}

// The sidecar protocol is the harness's: any program may write one, and it
// is read whether or not etbench has the reference runtime.
TEST_F(HarnessCommandRunnerTest, AnyProgramsSidecarSetsTheTickUnitAndRate) {
  const std::string canned = PrepareEtdump(dir_, 4);
  RunMetadata sidecar;
  sidecar.model = "mlp";
  sidecar.time_source = "cycles";
  sidecar.tick_rate_hz = 2e9;
  sidecar.delegates = {{"npu", 1, "ns"}};
  const std::string json = dir_.File("sidecar.json");
  etbench::testing::WriteTextFile(json, RunMetadataToJson(sidecar));
  const std::string script = WriteScript(
      dir_, "fake.sh", "cp " + canned + " \"$1\"; cp " + json + " \"$1.meta.json\"");
  const results::ModelResult m = RunOne(CommandSuite(dir_, {script, "{etdump}"}));
  ASSERT_EQ(m.status, results::ModelStatus::kOk) << m.error;
  EXPECT_EQ(m.repetitions[0].time_source, "cycles");
  EXPECT_EQ(m.repetitions[0].tick_rate_hz, 2e9);
  EXPECT_THAT(m.repetitions[0].metadata_path, HasSubstr(".meta.json"));
}

TEST(HarnessCommandTemplateTest, ExpandsPlaceholdersBracesAndArgs) {
  auto argv =
      ExpandCommandTemplate({"prog", "--model={model}", "{{literal}}", "{args}", "x{iterations}y"},
                            {{"model", "/m.pte"}, {"iterations", "7"}}, {"-a", "b c"});
  ASSERT_TRUE(argv.ok());
  EXPECT_EQ(*argv,
            (std::vector<std::string>{"prog", "--model=/m.pte", "{literal}", "-a", "b c", "x7y"}));
  EXPECT_TRUE(ExpandCommandTemplate({"{args}"}, {}, {})->empty());
  EXPECT_FALSE(CheckCommandTemplate({"a}"}).ok());
  EXPECT_FALSE(CheckCommandTemplate({"{nope}"}).ok());
  EXPECT_TRUE(CheckCommandTemplate({"{model}{etdump}", "}}{{"}).ok());
}


// The program's identity (Version: its name and SHA-256) is hashed once per
// version of the file, and a rebuilt program is a new version.
TEST(HarnessCommandRunnerVersionTest, TheProgramsHashFollowsItsFile) {
  TempDir dir;
  const std::string program = WriteScript(dir, "runner.sh", "exit 0\n");
  SuiteConfig config = CommandSuite(dir, {program, "{etdump}"});
  auto runner = MakeCommandRunner(config, RunnerDeps{});
  const std::string first = runner->Version();
  EXPECT_THAT(first, ::testing::StartsWith("runner.sh sha256:"));
  EXPECT_EQ(runner->Version(), first);  // the same file: the same identity
  // A rebuild: new content (and size, and modification time).
  etbench::testing::WriteTextFile(program, "#!/bin/sh\necho rebuilt\nexit 0\n");
  const std::string second = runner->Version();
  EXPECT_THAT(second, ::testing::StartsWith("runner.sh sha256:"));
  EXPECT_NE(second, first);
}

}  // namespace
}  // namespace etbench::harness
