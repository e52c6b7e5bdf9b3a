// Names and paths from outside on the file system: model and suite names
// that would collide with etbench's own files, shards whose artifacts are
// gone, and very long, unicode and newline-containing file names for file
// arguments and output directories. Each gives a clear one-line error
// (exit 2) or the right result; never a crash or a half-written file.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "etbench/base/terminal_text.h"
#include "etbench/results/results.h"
#include "support/test_support.h"

namespace etbench {
namespace {

namespace fs = std::filesystem;
using testing::LineCount;
using testing::RunCli;
using testing::TempDir;
using testing::WriteTextFile;

const std::string kFixture = testing::FixturePath("executorch_tutorial.etdp");

// The entries of `dir` (names only).
std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename());
  return names;
}

// A suite of the built-in runner whose models are `models` (YAML flow
// entries), writing to <dir>/out.
std::string Suite(const TempDir& dir, const std::string& suite, const std::string& models) {
  const std::string path = dir.File("suite.yaml");
  WriteTextFile(path, "suite: " + suite + "\nrunner: builtin\nwarmup: 0\niterations: 1\n" +
                          "repetitions: 1\nmodels: [" + models + "]\noutput_dir: " +
                          dir.File("out") + "\n");
  return path;
}

std::string Model(const std::string& name) {
  return "{name: '" + name + "', path: " + testing::SourcePath("configs/models/mlp.yaml") + "}";
}

TEST(FileNamesTest, ModelNamesThatCollideWithEtbenchsOwnEntriesAreRefusedAtLoad) {
  TempDir dir;
  const std::vector<std::string> names{
      "results.json", "RESULTS.Json",      "results-shard-1-of-2.json", ".",       "..",
      "a/b",          ".hidden",           ".etbench-run-4242",         "mlp.tmp.4242",
      "sessions",     "Confirm",           "ab",                        "x\ny",
      std::string(129, 'm')};
  for (const std::string& name : names) {
    const std::string suite = Suite(dir, "s", Model(name));
    const auto r = RunCli({"run", suite, "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_EQ(LineCount(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("etbench run: " + suite + ":", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("model name"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.File("out"))) << name << ": ran before refusing";
  }
}

TEST(FileNamesTest, SuiteNamesFollowTheSameRule) {
  TempDir dir;
  for (const std::string name : {".hidden", "s.tmp.77", "results.json"}) {
    const std::string suite = Suite(dir, "'" + name + "'", Model("mlp"));
    const auto r = RunCli({"run", suite, "--quiet"});
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_NE(r.err.find("suite name"), std::string::npos) << r.err;
  }
}

TEST(FileNamesTest, ModelsDifferingOnlyInCaseOrRepeatedAreRefused) {
  TempDir dir;
  auto r = RunCli({"run", Suite(dir, "s", Model("Net") + ", " + Model("net")), "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("model name 'net' differs from 'Net' only in case"), std::string::npos)
      << r.err;
  r = RunCli({"run", Suite(dir, "s", Model("net") + ", " + Model("net")), "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("duplicate model name 'net'"), std::string::npos) << r.err;
}

TEST(FileNamesTest, AShardsOwnFilesSurviveTheOtherShardAndMergeNeedsEveryEtdump) {
  TempDir dir;
  const std::string suite = Suite(dir, "s", Model("one") + ", " + Model("two"));
  for (const char* shard : {"1/2", "2/2"}) {
    const auto r = RunCli({"run", suite, "--shard", shard, "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // Each shard's results and ETDumps are still there after the other ran.
  for (const char* file : {"out/results-shard-1-of-2.json", "out/results-shard-2-of-2.json",
                           "out/one/rep0.etdp", "out/two/rep0.etdp"}) {
    EXPECT_TRUE(fs::is_regular_file(dir.File(file))) << file;
  }
  const std::vector<std::string> shards{dir.File("out/results-shard-1-of-2.json"),
                                        dir.File("out/results-shard-2-of-2.json")};
  auto r = RunCli({"merge", shards[0], shards[1], "--output", dir.File("merged.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  fs::remove(dir.File("out/two/rep0.etdp"));
  r = RunCli({"merge", shards[0], shards[1], "--output", dir.File("again.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(LineCount(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("model 'two' repetition 0: ETDump '" + dir.File("out/two/rep0.etdp") +
                       "' is missing"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir.File("again.json")));
}

TEST(FileNamesTest, TooLongFileNamesAndPathsAreOneLineErrors) {
  TempDir dir;
  const std::string long_component = dir.File(std::string(300, 'n') + ".etdp");  // > NAME_MAX
  std::string long_path = dir.path();
  while (long_path.size() < 5000) long_path += "/dddddddddddddddddddd";  // > PATH_MAX
  const std::vector<std::vector<std::string>> cases{
      {"inspect", "--etdump_path", long_component},
      {"inspect", "--etdump_path", long_path + "/x.etdp"},
      {"inspect", "--etdump_path", kFixture, "-o", dir.File(std::string(300, 'o'))},
      // The name fits NAME_MAX, its temporary file (NAME.tmp.PID) does not.
      {"inspect", "--etdump_path", kFixture, "-o", dir.File(std::string(250, 'o'))},
      {"inspect", "--etdump_path", kFixture, "-o", long_path + "/out.txt"},
      {"run", Suite(dir, "s", Model("mlp")), "--quiet", "--output-dir",
       dir.File(std::string(300, 'r'))},
      {"run", Suite(dir, "s", Model("mlp")), "--quiet", "--output-dir", long_path},
      {"compare", long_component, long_component},
      {"history", "list", "--history", dir.File(std::string(300, 'h') + ".db")},
  };
  for (const auto& args : cases) {
    const auto r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args.back().size() << ": " << r.err;
    EXPECT_EQ(LineCount(r.err), 1u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // Nothing half-written next to the refused outputs.
  for (const std::string& entry : Entries(dir.path())) {
    EXPECT_EQ(entry.find(".tmp."), std::string::npos) << entry;
    EXPECT_NE(entry.substr(0, 3), "ooo") << "a refused output exists";
  }
}

TEST(FileNamesTest, UnicodeAndNewlineFileNamesWorkAsInputsAndOutputs) {
  TempDir dir;
  const std::string input = dir.File("模型\nüber.etdp");
  fs::copy_file(kFixture, input);
  const auto direct = RunCli({"inspect", "--etdump_path", kFixture});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;

  const auto r = RunCli({"inspect", "--etdump_path", input, "-o", dir.File("出力\n.txt")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::ReadTextFile(dir.File("出力\n.txt")), direct.out);

  // A run writes its results and ETDumps under such a directory and merges.
  const std::string out = dir.File("結果\nout");
  auto run = RunCli({"run", Suite(dir, "s", Model("mlp")), "--quiet", "--output-dir", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_regular_file(out + "/mlp/rep0.etdp"));
  const auto merged =
      RunCli({"merge", out + "/results.json", "--output", dir.File("マージ.json")});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  // The message names the file by the terminal rule: one line.
  EXPECT_EQ(LineCount(merged.err), 1u) << merged.err;
  EXPECT_NE(merged.err.find(TerminalText(dir.File("マージ.json"))), std::string::npos);
  auto results = results::ReadResultsFile(dir.File("マージ.json"));
  ASSERT_TRUE(results.ok()) << results.error().message;
  EXPECT_EQ(results->models.at(0).repetitions.at(0).etdump_path, "結果\nout/mlp/rep0.etdp");
}

}  // namespace
}  // namespace etbench
