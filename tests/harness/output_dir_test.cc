#include "etbench/harness/output_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "etbench/harness/orchestrator.h"
#include "harness_test_util.h"
#include "support/test_support.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

using etbench::testing::FakeRunner;
using etbench::testing::MakeSuite;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using ::testing::HasSubstr;

void Write(const std::string& path, const std::string& text = "x") {
  fs::create_directories(fs::path(path).parent_path());
  etbench::testing::WriteTextFile(path, text);
}

std::string Refusal(const std::string& dir, const std::string& file) {
  return dir + ": holds source code (" + file +
         "), not a run's outputs; refusing to write a run there (set the suite's output_dir or "
         "--output-dir to another directory)";
}

TEST(HarnessOutputDirTest, NewEmptyAndOutputOnlyDirectoriesAreFine) {
  TempDir dir;
  EXPECT_TRUE(CheckOutputDir(dir.File("not/yet")).ok());
  EXPECT_TRUE(CheckOutputDir(dir.path()).ok());
  // What runs, gates and ab write there.
  for (const char* file : {"results.json", "results-shard-1-of-2.json", "toy/rep0.etdp",
                           "toy/rep0.etdp.meta.json", "toy/etrecord.bin", "report.md",
                           "junit.xml", "report.html", "confirm/results.json",
                           "sessions/s2/results.json", "ab/a.json", "ab/01-a/toy/rep0.etdp",
                           ".etbench-run-12/toy/rep0.etdp"}) {
    Write(dir.File(file));
  }
  EXPECT_TRUE(CheckOutputDir(dir.path()).ok());
}

TEST(HarnessOutputDirTest, ACMakeListsOrSourceFileIsRefusedWithOneLine) {
  TempDir dir;
  Write(dir.File("src/CMakeLists.txt"));
  Status s = CheckOutputDir(dir.File("src"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(s.error().message, Refusal(dir.File("src"), dir.File("src/CMakeLists.txt")));
  // Headers a few directories down (results/include/etbench/results/*.h).
  Write(dir.File("include/etbench/results/results.h"));
  s = CheckOutputDir(dir.File("include"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            Refusal(dir.File("include"), dir.File("include/etbench/results/results.h")));
  for (const char* name : {"a.c", "a.cc", "a.cpp", "a.cxx", "a.h", "a.hh", "a.hpp"}) {
    TempDir one;
    Write(one.File(std::string("m/") + name));
    EXPECT_FALSE(CheckOutputDir(one.path()).ok()) << name;
  }
}

TEST(HarnessOutputDirTest, LinksAreNotFollowedAndTheLookIsBounded) {
  TempDir dir;
  Write(dir.File("tree/src/a.cc"));
  fs::create_directories(dir.File("out"));
  fs::create_directory_symlink(dir.File("tree/src"), dir.File("out/linked"));
  fs::create_symlink(dir.File("tree/src/a.cc"), dir.File("out/a.cc"));
  EXPECT_TRUE(CheckOutputDir(dir.File("out")).ok());
  // Five directories down is not looked at.
  Write(dir.File("deep/1/2/3/4/5/a.cc"));
  EXPECT_TRUE(CheckOutputDir(dir.File("deep")).ok());
  Write(dir.File("deep/1/2/3/4/a.cc"));
  EXPECT_FALSE(CheckOutputDir(dir.File("deep")).ok());
}

TEST(HarnessOutputDirTest, TheResultsLibrarysOwnFoldersAreRefused) {
  // The default output_dir results/{suite} of a suite named "src" or
  // "include" is one of these.
  for (const char* folder : {"results/src", "results/include", "results"}) {
    const Status s = CheckOutputDir(etbench::testing::SourcePath(folder));
    EXPECT_FALSE(s.ok()) << folder;
  }
}

TEST(HarnessOutputDirTest, RunSuiteWritesNothingIntoASourceTree) {
  TempDir dir;
  Write(dir.File("results/src/CMakeLists.txt"), "add_library(x x.cc)\n");
  Write(dir.File("results/src/x.cc"), "int x;\n");
  FakeRunner runner;
  TestDeps t;
  t.deps.runner = &runner;
  SuiteConfig config = MakeSuite(dir, {"a"});
  config.suite = "src";
  config.output_dir = dir.File("results/{suite}");
  auto run = RunSuite(config, t.deps);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().code, ErrorCode::kInvalidInput);
  EXPECT_THAT(run.error().message, HasSubstr(dir.File("results/src") + ": holds source code ("));
  EXPECT_TRUE(runner.calls().empty());
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(dir.File("results/src"))) {
    (void)entry;
    ++entries;
  }
  EXPECT_EQ(entries, 2u);  // nothing staged, written or replaced
}

}  // namespace
}  // namespace etbench::harness
