// Layout randomisation of `etbench ab` (ab_layout.h): the copies, their
// rotation, the padding, the clean-up and the errors, with a process
// double standing in for the program.
#include "etbench/harness/ab_layout.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <set>

#include "etbench/compare/baseline_store.h"
#include "etbench/compare/sequential.h"
#include "etbench/harness/ab.h"
#include "harness_test_util.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;
using etbench::testing::Exited;
using etbench::testing::FakeProcessRunner;
using etbench::testing::ReadBinaryFile;
using etbench::testing::TempDir;
using etbench::testing::TestDeps;
using etbench::testing::WriteBinaryFile;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// An "executable" that starts like an ELF file: the process double never
// starts it, and the layout copies only what starts so.
std::string WriteElfProgram(const TempDir& dir, const std::string& name) {
  std::vector<uint8_t> bytes = {0x7f, 'E', 'L', 'F'};
  for (int i = 0; i < 5000; ++i) bytes.push_back(static_cast<uint8_t>(i * 7));
  const std::string path = dir.File(name);
  WriteBinaryFile(path, bytes);
  chmod(path.c_str(), 0755);
  return path;
}

SuiteConfig CommandSuite(const TempDir& dir, const std::string& program) {
  SuiteConfig c = etbench::testing::MakeSuite(dir, {"m"}, /*warmup=*/1, /*iterations=*/3,
                                              /*repetitions=*/1);
  c.runner = RunnerKind::kCommand;
  c.has_command = true;
  c.command.argv = {program, "{model}", "{etdump}", "{iterations}"};
  return c;
}

// `path` without the padding link after `dir` ("<dir>/ppp/a3/x" →
// "<dir>/a3/x").
std::string Unpadded(const std::string& path, const std::string& dir) {
  const std::string rest = path.substr(dir.size() + 1);
  if (rest.empty() || rest[0] != 'p') return path;
  return dir + rest.substr(rest.find('/'));
}

ino_t Inode(const std::string& path) {
  struct stat st {};
  stat(path.c_str(), &st);
  return st.st_ino;
}

TEST(HarnessAbLayoutTest, MakesByteCopiesNotLinksAndRemovesThemAtTheEnd) {
  TempDir dir;
  const std::string program = WriteElfProgram(dir, "executor_runner");
  const SuiteConfig suite = CommandSuite(dir, program);
  const std::string layout_dir = dir.File("layout");
  {
    auto layout = AbLayout::Create(suite, suite, AbLayoutOptions{}, 7, layout_dir);
    ASSERT_TRUE(layout.ok()) << layout.error().message;
    std::set<ino_t> inodes = {Inode(program)};
    for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
      ASSERT_EQ((*layout)->copies(v).size(), 8u);
      for (const std::string& copy : (*layout)->copies(v)) {
        EXPECT_THAT(copy, StartsWith(layout_dir + "/"));
        EXPECT_EQ(fs::path(copy).filename(), "executor_runner");
        EXPECT_EQ(ReadBinaryFile(copy), ReadBinaryFile(program));
        EXPECT_EQ(access(copy.c_str(), X_OK), 0) << copy;
        EXPECT_TRUE(inodes.insert(Inode(copy)).second) << copy << " shares an inode";
      }
    }
    EXPECT_EQ((*layout)->Describe(),
              "A: 8 copies of executor_runner; B: 8 copies of executor_runner; "
              "paths +0-256 bytes; ETBENCH_LAYOUT_PAD 0-4095 bytes");
  }
  EXPECT_FALSE(fs::exists(layout_dir));
}

TEST(HarnessAbLayoutTest, EveryCopyRunsOncePerRoundInASeededOrderWithVaryingPadding) {
  TempDir dir;
  const SuiteConfig suite = CommandSuite(dir, WriteElfProgram(dir, "runner"));
  std::set<std::size_t> path_pads;
  auto picks = [&](uint64_t seed, std::vector<std::size_t>* pads) {
    auto layout = AbLayout::Create(suite, suite, AbLayoutOptions{}, seed, dir.File("l"));
    EXPECT_TRUE(layout.ok()) << layout.error().message;
    std::vector<int> copies;
    for (int run = 0; run < 24; ++run) {
      SuiteConfig config = suite;
      const LayoutChoice choice = (*layout)->Apply(AbVariant::kB, &config);
      copies.push_back(choice.copy);
      const std::string& program = config.command.argv.front();
      const std::string& copy =
          (*layout)->copies(AbVariant::kB)[static_cast<std::size_t>(choice.copy)];
      EXPECT_EQ(Unpadded(program, dir.File("l")), copy);
      EXPECT_EQ(program.size() - copy.size(), choice.path_pad_bytes);
      EXPECT_EQ(fs::canonical(program), fs::canonical(copy));  // the link leads to the copy
      EXPECT_EQ(config.labels.at("layout_path_pad_bytes"), std::to_string(choice.path_pad_bytes));
      path_pads.insert(choice.path_pad_bytes);
      EXPECT_EQ(config.command.argv[1], "{model}");  // only the program changes
      const std::string& pad = config.command.process.env.at(kLayoutPadVariable);
      EXPECT_EQ(pad.size(), choice.pad_bytes);
      EXPECT_LE(choice.pad_bytes, 4095u);
      EXPECT_EQ(config.labels.at("layout_copy"), std::to_string(choice.copy));
      EXPECT_EQ(config.labels.at("layout_pad_bytes"), std::to_string(choice.pad_bytes));
      if (pads) pads->push_back(choice.pad_bytes);
    }
    return copies;
  };
  std::vector<std::size_t> pads;
  const std::vector<int> first = picks(3, &pads);
  for (int round = 0; round < 3; ++round) {
    std::set<int> seen(first.begin() + round * 8, first.begin() + round * 8 + 8);
    EXPECT_EQ(seen.size(), 8u) << "round " << round;
  }
  EXPECT_EQ(picks(3, nullptr), first);  // reproducible with the seed
  EXPECT_NE(picks(4, nullptr), first);
  EXPECT_GE(std::set<std::size_t>(pads.begin(), pads.end()).size(), 20u);
  EXPECT_GE(path_pads.size(), 20u);
}

TEST(HarnessAbLayoutTest, AScriptRunsInPlaceWithPaddingAndTheBuiltinRunnerIsLeftAlone) {
  TempDir dir;
  const std::string script = etbench::testing::WriteScript(dir, "adb-runner.sh", "exit 0");
  const SuiteConfig command = CommandSuite(dir, script);
  const SuiteConfig builtin = etbench::testing::MakeSuite(dir, {"m"});
  auto layout = AbLayout::Create(command, builtin, AbLayoutOptions{}, 1, dir.File("l"));
  ASSERT_TRUE(layout.ok()) << layout.error().message;
  EXPECT_TRUE((*layout)->copies(AbVariant::kA).empty());
  EXPECT_EQ((*layout)->Describe(),
            "A: adb-runner.sh run in place (not an ELF executable (a script may look for files "
            "beside it)); paths +0-256 bytes; ETBENCH_LAYOUT_PAD 0-4095 bytes");
  SuiteConfig a = command;
  EXPECT_EQ((*layout)->Apply(AbVariant::kA, &a).copy, -1);
  // Through a link to its own directory: the script still finds its siblings.
  const std::string& program = a.command.argv.front();
  EXPECT_THAT(program, StartsWith(dir.File("l") + "/"));
  EXPECT_EQ(fs::path(program).filename(), "adb-runner.sh");
  EXPECT_EQ(fs::canonical(fs::path(program).parent_path()),
            fs::canonical(fs::path(script).parent_path()));
  EXPECT_EQ(a.command.process.env.count(kLayoutPadVariable), 1u);
  EXPECT_EQ(a.labels.at("layout_copy"), "none");
  SuiteConfig b = builtin;
  (*layout)->Apply(AbVariant::kB, &b);
  EXPECT_TRUE(b.labels.empty());
}

TEST(HarnessAbLayoutTest, AProgramThatLoadsLibrariesBesideItselfRunsInPlace) {
  TempDir dir;
  const std::string program = WriteElfProgram(dir, "runner");
  std::vector<uint8_t> bytes = ReadBinaryFile(program);
  for (char c : std::string("$ORIGIN/../lib")) bytes.push_back(static_cast<uint8_t>(c));
  WriteBinaryFile(program, bytes);
  const SuiteConfig suite = CommandSuite(dir, program);
  auto layout = AbLayout::Create(suite, suite, AbLayoutOptions{}, 1, dir.File("l"));
  ASSERT_TRUE(layout.ok()) << layout.error().message;
  EXPECT_TRUE((*layout)->copies(AbVariant::kB).empty());
  EXPECT_THAT((*layout)->Describe(), HasSubstr("($ORIGIN)"));
}

TEST(HarnessAbLayoutTest, ADirectoryUnderAFileFailsWithOneLineAndLeavesNothing) {
  TempDir dir;
  const SuiteConfig suite = CommandSuite(dir, WriteElfProgram(dir, "runner"));
  etbench::testing::WriteTextFile(dir.File("file"), "not a directory");
  auto layout = AbLayout::Create(suite, suite, AbLayoutOptions{}, 1, dir.File("file/l"));
  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.error().message, StartsWith(dir.File("file/l") + ": cannot create"));
  EXPECT_THAT(layout.error().message, Not(HasSubstr("\n")));
  EXPECT_EQ(layout.error().code, ErrorCode::kIo);
}

TEST(HarnessAbLayoutTest, AnUnreadableProgramFailsWithOneLineAndRemovesTheDirectory) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads every file";
  TempDir dir;
  const std::string program = WriteElfProgram(dir, "runner");
  chmod(program.c_str(), 0111);  // executable, not readable
  const SuiteConfig suite = CommandSuite(dir, program);
  auto layout = AbLayout::Create(suite, suite, AbLayoutOptions{}, 1, dir.File("l"));
  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.error().message, StartsWith("layout copies: " + program));
  EXPECT_THAT(layout.error().message, Not(HasSubstr("\n")));
  EXPECT_FALSE(fs::exists(dir.File("l")));
}

TEST(HarnessAbLayoutTest, AnUnwritableCopyFailsWithOneLineAndRemovesTheDirectory) {
  TempDir dir;
  const SuiteConfig suite = CommandSuite(dir, WriteElfProgram(dir, "runner"));
  // Files may not grow past 1000 bytes (the program has 5004): writing the
  // first copy fails with EFBIG, also for root.
  rlimit saved{};
  getrlimit(RLIMIT_FSIZE, &saved);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 1000;
  setrlimit(RLIMIT_FSIZE, &small);
  auto layout = AbLayout::Create(suite, suite, AbLayoutOptions{}, 1, dir.File("l"));
  setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.error().message, StartsWith("layout copies: " + dir.File("l") + "/a0/runner"));
  EXPECT_THAT(layout.error().message, Not(HasSubstr("\n")));
  EXPECT_FALSE(fs::exists(dir.File("l")));
}

TEST(HarnessAbLayoutTest, AnExistingOrUncreatableDirectoryIsRefusedWithOneLine) {
  TempDir dir;
  const SuiteConfig suite = CommandSuite(dir, WriteElfProgram(dir, "runner"));
  // The copies go to a directory that exists already: refused, untouched.
  fs::create_directories(dir.File("l"));
  auto exists = AbLayout::Create(suite, suite, AbLayoutOptions{}, 1, dir.File("l"));
  ASSERT_FALSE(exists.ok());
  EXPECT_EQ(exists.error().message, dir.File("l") + ": exists already (layout copies)");
  EXPECT_TRUE(fs::exists(dir.File("l")));
  // /proc takes no new files, whoever asks (root included).
  auto unwritable = AbLayout::Create(suite, suite, AbLayoutOptions{}, 1, "/proc/etbench-layout");
  ASSERT_FALSE(unwritable.ok());
  EXPECT_THAT(unwritable.error().message, StartsWith("/proc/etbench-layout: cannot create"));
  EXPECT_THAT(unwritable.error().message, Not(HasSubstr("\n")));
}

// RunAb with a process double: every run's program is a copy of its own
// side, with padding; the choices are in the runs' results files; the
// copies are gone afterwards; --no-layout-randomization runs in place.
class HarnessAbLayoutRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    etdump_ = etbench::testing::MakeExecuteEtdump({1000000, 1000000, 1000000, 1000000});
    t_.deps.process_runner = &processes_;
  }
  AbPlan Plan(bool layout) {
    AbPlan plan;
    plan.blocks = 3;
    plan.seed = 5;
    plan.output_dir = dir_.File("ab");
    plan.thresholds = &thresholds_;
    plan.layout.enabled = layout;
    plan.keep_runs = true;  // the tests read each run's labels back
    return plan;
  }

  TempDir dir_;
  std::vector<uint8_t> etdump_;
  FakeProcessRunner processes_{[this](const ProcessSpec& spec) {
    WriteBinaryFile(spec.env.at("ETBENCH_ETDUMP"), etdump_);
    return Exited(0);
  }};
  TestDeps t_;
  Thresholds thresholds_;
};

TEST_F(HarnessAbLayoutRunTest, EveryRunStartsACopyOfItsSideWithPaddingAndTheCopiesAreRemoved) {
  const SuiteConfig suite = CommandSuite(dir_, WriteElfProgram(dir_, "executor_runner"));
  auto out = RunAb(suite, suite, Plan(true), t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_EQ(processes_.specs().size(), 12u);
  const std::string copies = dir_.File("ab") + "/.etbench-run-" + std::to_string(getpid()) + "/";
  std::set<std::string> programs, pads;
  for (std::size_t i = 0; i < 12; ++i) {
    const ProcessSpec& spec = processes_.specs()[i];
    const char side = out->order[i] == AbVariant::kA ? 'a' : 'b';
    const std::string copy = Unpadded(spec.argv[0], copies.substr(0, copies.size() - 1));
    EXPECT_THAT(copy, StartsWith(copies + side)) << "run " << i;
    EXPECT_EQ(fs::path(copy).filename(), "executor_runner");
    programs.insert(copy);
    pads.insert(spec.env.at(kLayoutPadVariable));
    const std::string results = etbench::testing::ReadTextFile(out->run_paths[i]);
    EXPECT_THAT(results, HasSubstr("\"layout_copy\""));
    EXPECT_THAT(results, HasSubstr("\"layout_pad_bytes\": \"" +
                                       std::to_string(spec.env.at(kLayoutPadVariable).size())));
  }
  EXPECT_EQ(programs.size(), 12u);  // 6 runs a side, 8 copies each: no copy twice
  EXPECT_GE(pads.size(), 10u);
  EXPECT_FALSE(fs::exists(copies));
  EXPECT_THAT(out->layout, StartsWith("A: 8 copies of executor_runner"));
  auto side = LoadBaseline(out->b_path);
  ASSERT_TRUE(side.ok()) << side.error().message;
  EXPECT_EQ(side->metrics.context.at("ab_layout"), out->layout);
}

TEST_F(HarnessAbLayoutRunTest, TurnedOffEveryRunStartsTheProgramItselfWithoutPadding) {
  const std::string program = WriteElfProgram(dir_, "executor_runner");
  auto out = RunAb(CommandSuite(dir_, program), CommandSuite(dir_, program), Plan(false), t_.deps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  for (const ProcessSpec& spec : processes_.specs()) {
    EXPECT_EQ(spec.argv[0], program);
    EXPECT_EQ(spec.env.count(kLayoutPadVariable), 0u);
  }
  EXPECT_TRUE(out->layout.empty());
}

TEST_F(HarnessAbLayoutRunTest, AFailedRunOfACopySaysHowToRunInPlaceAndTheCopiesAreRemoved) {
  const SuiteConfig suite = CommandSuite(dir_, WriteElfProgram(dir_, "executor_runner"));
  FakeProcessRunner failing([](const ProcessSpec&) { return Exited(1, "", "lib not found"); });
  t_.deps.process_runner = &failing;
  auto out = RunAb(suite, suite, Plan(true), t_.deps);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.error().message, HasSubstr("--no-layout-randomization runs it in place"));
  EXPECT_THAT(out.error().message, Not(HasSubstr("\n")));
  EXPECT_FALSE(fs::exists(dir_.File("ab") + "/.etbench-run-" + std::to_string(getpid())));
}

}  // namespace
}  // namespace etbench::harness
