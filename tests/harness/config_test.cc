#include "etbench/harness/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::TempDir;
using etbench::testing::WriteModelFile;
using etbench::testing::WriteScript;
using etbench::testing::WriteTextFile;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Parses `yaml` as dir/suite.yaml; model files a, b, c exist in dir/models.
class HarnessConfigTest : public ::testing::Test {
 protected:
  HarnessConfigTest() {
    std::filesystem::create_directories(dir_.File("models"));
    for (const char* name : {"a", "b", "c"}) {
      WriteTextFile(dir_.File(std::string("models/") + name + ".yaml"), "name: x\n");
    }
  }
  Result<SuiteConfig> Parse(const std::string& yaml) {
    return ParseSuiteConfig(yaml, dir_.File("suite.yaml"));
  }
  std::string ErrorOf(const std::string& yaml) {
    auto c = Parse(yaml);
    EXPECT_FALSE(c.ok()) << yaml;
    return c.ok() ? "" : c.error().message;
  }
  std::string Pos(int line, int column) {
    return dir_.File("suite.yaml") + ":" + std::to_string(line) + ":" + std::to_string(column) +
           ": ";
  }
  TempDir dir_;
};

TEST_F(HarnessConfigTest, DefaultSuiteLoadsWithAllBuiltinModels) {
  auto c = LoadSuiteConfig("configs/default.yaml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->suite, "default");
  EXPECT_EQ(c->runner, RunnerKind::kBuiltin);
  ASSERT_EQ(c->models.size(), 4u);
  EXPECT_EQ(c->models[0].name, "toy_cnn");
  EXPECT_EQ(c->models[0].path, "configs/models/toy_cnn.yaml");
  EXPECT_EQ(c->models[3].path, "configs/models/transformer_block.yaml");
  EXPECT_GE(c->iterations, 1);
  EXPECT_EQ(ResolvedOutputDir(*c), "results/default");
}

TEST_F(HarnessConfigTest, ExampleSuitesLoadWithTheirProgramsInPlace) {
  const std::string et_runner = etbench::testing::EtRunnerPath();
  if (et_runner.empty()) GTEST_SKIP() << "et_runner not built";
  std::string text = etbench::testing::ReadTextFile("configs/et_runner_command.yaml");
  const std::string program = "build/tools/et_runner/et_runner";
  ASSERT_NE(text.find(program), std::string::npos);
  text.replace(text.find(program), program.size(), et_runner);
  auto c = ParseSuiteConfig(text, "configs/et_runner_command.yaml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->runner, RunnerKind::kCommand);
  EXPECT_EQ(c->models.size(), 4u);
  EXPECT_EQ(c->command.argv.back(), "{args}");

  const std::string gbench = etbench::testing::FakeGbenchPath();
  if (gbench.empty()) return;
  text = etbench::testing::ReadTextFile("configs/inspector_gbench.yaml");
  const std::string binary = "build/benchmarks/inspector/inspector_bench";
  ASSERT_NE(text.find(binary), std::string::npos);
  text.replace(text.find(binary), binary.size(), gbench);
  c = ParseSuiteConfig(text, "configs/inspector_gbench.yaml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->runner, RunnerKind::kGbench);
  EXPECT_EQ(c->models[0].filter, "BM_VerifyOnly");
}

TEST_F(HarnessConfigTest, EveryKeyIsRead) {
  const std::string threshold = dir_.File("thresholds.yaml");
  WriteTextFile(threshold, "x: 1\n");
  const std::string program = WriteScript(dir_, "prog.sh", "exit 0");
  auto c = Parse(
      "suite: full\n"
      "runner: command\n"
      "time_source: cycles\n"
      "tick_rate_hz: 2.5e9\n"
      "unit: us\n"
      "warmup: 0\n"
      "iterations: 7\n"
      "repetitions: 4\n"
      "cpu_affinity: [0]\n"
      "thresholds: " +
      threshold +
      "\n"
      "output_dir: out/{suite}\n"
      "labels: {device: pixel7, team: perf}\n"
      "quiet: true\n"
      "builtin: {log_allocations: true}\n"
      "command:\n"
      "  argv: [" +
      program +
      ", '{model}', '{etdump}', '{args}']\n"
      "  env: {OMP_NUM_THREADS: '1'}\n"
      "  working_dir: " +
      dir_.path() +
      "\n"
      "  timeout_s: 5\n"
      "  kill_grace_s: 0.5\n"
      "models:\n"
      "  - a\n"
      "  - {name: bee, path: " +
      dir_.File("models/b.yaml") + ", args: [--x, '1']}\n");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->time_source, "cycles");
  EXPECT_EQ(*c->tick_rate_hz, 2.5e9);
  EXPECT_EQ(c->unit, "us");
  EXPECT_EQ(c->warmup, 0);
  EXPECT_EQ(c->iterations, 7);
  EXPECT_EQ(c->repetitions, 4);
  EXPECT_EQ(c->cpu_affinity, std::vector<int>{0});
  EXPECT_EQ(c->thresholds_path, threshold);
  EXPECT_EQ(ResolvedOutputDir(*c), "out/full");
  EXPECT_EQ(c->labels.at("device"), "pixel7");
  EXPECT_TRUE(c->quiet);
  EXPECT_TRUE(c->builtin.log_allocations);
  EXPECT_EQ(c->command.process.env.at("OMP_NUM_THREADS"), "1");
  EXPECT_EQ(c->command.process.timeout_s, 5);
  EXPECT_EQ(c->command.process.kill_grace_s, 0.5);
  ASSERT_EQ(c->models.size(), 2u);
  EXPECT_EQ(c->models[0].path, dir_.File("models/a.yaml"));
  EXPECT_EQ(c->models[1].name, "bee");
  EXPECT_EQ(c->models[1].args, (std::vector<std::string>{"--x", "1"}));
}

TEST_F(HarnessConfigTest, UnknownKeyNamesItsPositionAndTheAcceptedKeys) {
  const std::string e = ErrorOf("suite: s\nmodels: [a]\niterashuns: 3\n");
  EXPECT_THAT(e, StartsWith(Pos(3, 1) + "unknown key 'iterashuns' (accepted: suite,"));
  EXPECT_THAT(e, HasSubstr("iterations"));
  EXPECT_THAT(ErrorOf("suite: s\nmodels:\n  - {name: a, pth: x}\n"),
              StartsWith(Pos(3, 15) + "model: unknown key 'pth'"));
  EXPECT_THAT(ErrorOf("suite: s\nmodels: [a]\ncommand: {argv: [x], timeout: 3}\n"),
              StartsWith(Pos(3, 22) + "command: unknown key 'timeout'"));
}

TEST_F(HarnessConfigTest, ASecondYamlDocumentIsAnError) {
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\n---\nsuite: t\n"),
            Pos(3, 1) + "a second YAML document; a file holds one document");
}

TEST_F(HarnessConfigTest, GarbageThatYamlCppLoopsOnIsAnErrorNotAHang) {
  // yaml-cpp's LoadAll never returns on "," (found by suite_yaml_fuzzer).
  EXPECT_FALSE(ErrorOf(",").empty());
}

TEST_F(HarnessConfigTest, TooDeepNestingIsNotCalledABadFile) {
  const std::string e = ErrorOf("suite: " + std::string(5000, '[') + std::string(5000, ']'));
  EXPECT_THAT(e, HasSubstr("invalid YAML: nested more than"));
  EXPECT_THAT(e, ::testing::Not(HasSubstr("bad file")));
}

TEST_F(HarnessConfigTest, SuiteFileThatIsAFifoIsRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(dir_.File("fifo.yaml").c_str(), 0600), 0);
  auto c = LoadSuiteConfig(dir_.File("fifo.yaml"));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, dir_.File("fifo.yaml") + ": is a FIFO, not a regular file");
}

TEST(HarnessCpuAffinityTest, UnavailableCpusAreAUsageErrorUpFront) {
  EXPECT_TRUE(CheckCpuAffinity({}).ok());
  Status s = CheckCpuAffinity({999});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kUsage);
  EXPECT_THAT(s.error().message, StartsWith("cpu_affinity: CPU 999 is not available (this "
                                            "process may use "));
}

TEST_F(HarnessConfigTest, WrongTypesNameTheirPosition) {
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\niterations: many\n"),
            Pos(3, 13) + "iterations must be an integer");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\nwarmup: -1\n"),
            Pos(3, 9) + "warmup must be between 0 and 1000000, got -1");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\nrepetitions: 0\n"),
            Pos(3, 14) + "repetitions must be between 1 and 1000000, got 0");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: a\n"), Pos(2, 9) + "models must be a non-empty list");
  EXPECT_EQ(ErrorOf("suite: [x]\nmodels: [a]\n"), Pos(1, 8) + "suite must be a string");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\nlabels: [x]\n"),
            Pos(3, 9) + "labels must be a mapping of names to strings");
  EXPECT_THAT(ErrorOf("suite: s\nmodels: [a]\nruntime: builtin\n"), StartsWith(Pos(3, 1)));
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\nrunner: docker\n"),
            Pos(3, 9) + "unknown runner 'docker' (accepted: builtin, command, gbench)");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\ntime_source: us\n"),
            Pos(3, 14) + "time_source must be ns or cycles, not 'us'");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\nunit: cycles\n"),
            Pos(3, 7) + "unit cycles needs time_source cycles");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\nquiet: maybe\n"),
            Pos(3, 8) + "quiet must be true or false");
}

TEST_F(HarnessConfigTest, MissingFilesAreErrorsAtTheirPosition) {
  EXPECT_EQ(ErrorOf("suite: s\nmodels:\n  - a\n  - nope\n"),
            Pos(4, 5) + "model file '" + dir_.File("models/nope.yaml") + "' not found");
  EXPECT_EQ(ErrorOf("suite: s\nmodels:\n  - {name: x, path: /no/such.yaml}\n"),
            Pos(3, 21) + "model file '/no/such.yaml' not found");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a]\nthresholds: /no/t.yaml\n"),
            Pos(3, 13) + "thresholds file '/no/t.yaml' not found");
  EXPECT_THAT(ErrorOf("suite: s\nrunner: command\nmodels: [a]\ncommand: {argv: [/no/prog]}\n"),
              StartsWith(Pos(4, 18) + "command.argv[0] '/no/prog' not found or not executable"));
  EXPECT_EQ(ErrorOf("suite: s\nrunner: command\nmodels: [a]\ncommand: {argv: [no-such-prog-x]}\n"),
            Pos(4, 18) + "command.argv[0] 'no-such-prog-x' not found in PATH: put its directory first in PATH");
  EXPECT_EQ(ErrorOf("suite: s\nrunner: gbench\nmodels: [/no/bench]\n"),
            Pos(3, 10) + "benchmark binary '/no/bench' not found or not executable");
  EXPECT_EQ(LoadSuiteConfig(dir_.File("absent.yaml")).error().message,
            dir_.File("absent.yaml") + ": cannot open (No such file or directory)");
}

TEST_F(HarnessConfigTest, StructuralErrors) {
  EXPECT_EQ(ErrorOf("models: [a]\n"),
            Pos(1, 1) + "missing required key 'suite' (the suite's name)");
  EXPECT_EQ(ErrorOf("suite: s\n"), Pos(1, 1) + "missing required key 'models'");
  EXPECT_EQ(ErrorOf("suite: s\nmodels: [a, a]\n"), Pos(2, 13) + "duplicate model name 'a'");
  EXPECT_EQ(ErrorOf("suite: s\nsuite: t\nmodels: [a]\n"), Pos(2, 1) + "duplicate key 'suite'");
  EXPECT_THAT(ErrorOf("suite: s\nmodels: [a\n"), StartsWith(dir_.File("suite.yaml") + ":"));
  EXPECT_THAT(ErrorOf("suite: s\nmodels: [a\n"), HasSubstr("invalid YAML"));
  EXPECT_EQ(ErrorOf(""), dir_.File("suite.yaml") +
                             ":1:1: a suite file must be a mapping (suite:, models:, ...)");
  EXPECT_EQ(ErrorOf("suite: s\nrunner: command\nmodels: [a]\n"),
            Pos(2, 9) + "runner 'command' needs a 'command:' section with argv");
  EXPECT_EQ(ErrorOf("suite: 'a b'\nmodels: [a]\n"),
            Pos(1, 8) + "suite name 'a b' may only use letters, digits, '_', '-', '.', '+'");
  EXPECT_EQ(
      ErrorOf("suite: s\nmodels:\n  - {name: 'x;rm', path: " + dir_.File("models/a.yaml") + "}\n"),
      Pos(3, 5) + "model name 'x;rm' may only use letters, digits, '_', '-', '.', '+'");
  EXPECT_EQ(ErrorOf("suite: s\nmodels:\n  - {name: a, filter: x}\n"),
            Pos(3, 23) + "filter applies to gbench models only");
  EXPECT_EQ(ErrorOf("suite: s\nmodels:\n  - {name: a, slowdown: conv2d}\n"),
            Pos(3, 25) + "slowdown 'conv2d' must be OP=FACTOR with FACTOR >= 1");
}

TEST_F(HarnessConfigTest, CommandTemplatesAreChecked) {
  const std::string program = WriteScript(dir_, "prog.sh", "exit 0");
  EXPECT_EQ(ErrorOf("suite: s\nrunner: command\nmodels: [a]\ncommand: {argv: [" + program +
                    ", '{modle}']}\n"),
            Pos(4, 17) +
                "command element '{modle}': unknown placeholder {modle} (known: {model}, {name}, "
                "{etdump}, {debug_output}, {workdir}, {iterations}, {warmup}, {repetition}, "
                "{time_source}, {args})");
  EXPECT_EQ(ErrorOf("suite: s\nrunner: command\nmodels: [a]\ncommand: {argv: [" + program +
                    ", '--x={args}']}\n"),
            Pos(4, 17) + "command element '--x={args}': {args} must be a whole argv element");
  EXPECT_EQ(ErrorOf("suite: s\nrunner: command\nmodels: [a]\ncommand: {argv: [" + program +
                    ", 'a{b']}\n"),
            Pos(4, 17) + "command element 'a{b': '{' without '}' (write '{{' for a brace)");
}

TEST_F(HarnessConfigTest, OverridesReplaceFileValuesAndNameTheFlagOnError) {
  auto c = Parse("suite: s\nmodels: [a, b, c]\n");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ConfigOverrides o;
  o.iterations = 5;
  o.warmup = 0;
  o.repetitions = 3;
  o.time_source = "cycles";
  o.output_dir = "elsewhere";
  o.shard = "2/3";
  o.models = {"a", "c"};
  o.labels = {"device=pixel", "commit=abc=def"};
  o.quiet = true;
  ASSERT_TRUE(ApplyOverrides(o, &c.value()).ok());
  EXPECT_EQ(c->iterations, 5);
  EXPECT_EQ(c->warmup, 0);
  EXPECT_EQ(c->repetitions, 3);
  EXPECT_EQ(c->time_source, "cycles");
  EXPECT_EQ(c->output_dir, "elsewhere");
  EXPECT_EQ(c->shard->index, 2);
  EXPECT_EQ(c->shard->count, 3);
  EXPECT_EQ(c->labels.at("commit"), "abc=def");
  EXPECT_TRUE(c->quiet);

  auto error = [&](ConfigOverrides bad) {
    SuiteConfig copy = *c;
    Status s = ApplyOverrides(bad, &copy);
    EXPECT_FALSE(s.ok());
    return s.ok() ? "" : s.error().message;
  };
  ConfigOverrides bad;
  bad.shard = "3/2";
  EXPECT_EQ(error(bad), "--shard: shard must be I/N with 1 <= I <= N (e.g. 1/3), got '3/2'");
  bad = {};
  bad.models = {"zzz"};
  EXPECT_EQ(error(bad), "--model 'zzz': the suite has no such model (models: a, b, c)");
  bad = {};
  bad.labels = {"novalue"};
  EXPECT_EQ(error(bad), "--label must be KEY=VALUE, got 'novalue'");
  bad = {};
  bad.iterations = 0;
  EXPECT_EQ(error(bad), "--iterations must be at least 1");
  bad = {};
  bad.runner = "command";
  EXPECT_EQ(error(bad), "--runner command: the suite has no 'command:' section");
  bad = {};
  bad.runner = "gbench";
  EXPECT_THAT(error(bad), HasSubstr("cannot switch between gbench and model runners"));
  bad = {};
  bad.time_source = "ms";
  EXPECT_EQ(error(bad), "--time-source must be ns or cycles, not 'ms'");
}

TEST_F(HarnessConfigTest, ShardsSplitTheFilteredModelsRoundRobin) {
  auto c = Parse("suite: s\nmodels: [a, b, c, {name: d, path: " + dir_.File("models/a.yaml") +
                 "}, {name: e, path: " + dir_.File("models/b.yaml") + "}]\n");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(*SelectModels(*c), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  c->shard = Shard{1, 2};
  EXPECT_EQ(*SelectModels(*c), (std::vector<std::size_t>{0, 2, 4}));
  c->shard = Shard{2, 2};
  EXPECT_EQ(*SelectModels(*c), (std::vector<std::size_t>{1, 3}));
  c->model_filter = {"b", "c", "e"};
  EXPECT_EQ(*SelectModels(*c), (std::vector<std::size_t>{2}));
  c->shard = Shard{3, 3};
  EXPECT_EQ(*SelectModels(*c), (std::vector<std::size_t>{4}));
}

TEST_F(HarnessConfigTest, ConfigHashCoversMeasurementsButNotSelection) {
  auto c = Parse("suite: s\nmodels: [a, b]\n");
  ASSERT_TRUE(c.ok());
  const std::string base = ConfigHash(*c);
  EXPECT_EQ(base.size(), 64u);
  SuiteConfig other = *c;
  other.shard = Shard{1, 2};
  other.model_filter = {"a"};
  other.output_dir = "x";
  other.labels["device"] = "d";
  other.quiet = true;
  EXPECT_EQ(ConfigHash(other), base);
  other.iterations += 1;
  EXPECT_NE(ConfigHash(other), base);
  other = *c;
  other.models.pop_back();
  EXPECT_NE(ConfigHash(other), base);
}

}  // namespace
}  // namespace etbench::harness
