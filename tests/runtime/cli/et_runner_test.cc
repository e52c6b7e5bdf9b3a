// et_runner driven in-process, as the real binary would be.

#include "etbench/runtime/et_runner.h"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etrecord.h"
#include "etbench/inspector/inspector.h"
#include "etbench/runtime/run_metadata.h"
#include "runtime_test_util.h"
#include "support/test_support.h"

namespace etbench::runtime {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

struct Invocation {
  int code = -1;
  std::string out;
  std::string err;
};

Invocation RunTool(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  Invocation result;
  result.code = RunEtRunner(args, out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

TEST(RuntimeEtRunnerTest, HelpListsTheFlags) {
  const Invocation run = RunTool({"--help"});
  EXPECT_EQ(run.code, kEtRunnerOk);
  for (const char* flag :
       {"--model_path", "--num_executions", "--etdump_path",
        "--debug_output_path", "--dump_intermediate_outputs", "--dump_outputs",
        "--time_source", "--seed", "--slowdown", "--etrecord_path"}) {
    EXPECT_THAT(run.out, HasSubstr(flag));
  }
}

TEST(RuntimeEtRunnerTest, RunsAModelAndWritesEtdumpAndMetadata) {
  etbench::testing::TempDir dir;
  const std::string etdump = dir.File("t.etdp");
  const Invocation run =
      RunTool({"--model_path", testing::ShippedModelPath("toy_cnn"),
           "--num_executions", "3", "--etdump_path", etdump, "--seed", "9"});
  ASSERT_EQ(run.code, kEtRunnerOk) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_THAT(run.out, ContainsRegex("Model loaded in [0-9.]+ ms\\."));
  for (int i = 1; i <= 3; ++i) {
    EXPECT_THAT(run.out, ContainsRegex("Iteration " + std::to_string(i) +
                                       " of 3: [0-9.]+ ms"));
  }
  EXPECT_THAT(run.out, HasSubstr("Model executed successfully 3 time(s)"));
  EXPECT_THAT(run.out, HasSubstr("Output 0 (fc3): tensor(sizes=[1, 10]"));

  auto file = EtdumpFile::Open(etdump);
  ASSERT_TRUE(file.ok()) << file.error().message;
  auto blocks = BuildEventBlocks(*file, InspectorOptions{});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 2u);
  EXPECT_EQ((*blocks)[1].run_count, 3u);

  auto metadata = ParseRunMetadata(
      etbench::testing::ReadTextFile(RunMetadataPath(etdump)), "meta");
  ASSERT_TRUE(metadata.ok()) << metadata.error().message;
  EXPECT_EQ(metadata->model, "toy_cnn");
  EXPECT_EQ(metadata->time_source, "ns");
  EXPECT_EQ(metadata->tick_rate_hz, 1e9);
  EXPECT_EQ(metadata->num_executions, 3);
  EXPECT_EQ(metadata->seed, 9u);
  EXPECT_EQ(metadata->model_sha256.size(), 64u);
  EXPECT_FALSE(metadata->debug_output_path.has_value());
}

TEST(RuntimeEtRunnerTest, WritesTheEtrecordWhenAsked) {
  etbench::testing::TempDir dir;
  const std::string etrecord = dir.File("t.etrecord");
  const Invocation run =
      RunTool({"--model_path", testing::ShippedModelPath("transformer_block"),
               "--etdump_path", dir.File("t.etdp"), "--etrecord_path",
               etrecord});
  ASSERT_EQ(run.code, kEtRunnerOk) << run.err;
  EXPECT_THAT(run.out, HasSubstr("ETRecord written to " + etrecord + ".\n"));
  auto loaded = LoadEtrecord(etrecord);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->debug_handle_map.size(), 18u);
  ASSERT_TRUE(loaded->delegate_map.has_value());
  EXPECT_EQ(loaded->delegate_map->at(16).backend_name, "reference");
  // Without the flag, no ETRecord and no mention of one.
  const Invocation plain =
      RunTool({"--model_path", testing::ShippedModelPath("mlp"),
               "--etdump_path", dir.File("m.etdp")});
  ASSERT_EQ(plain.code, kEtRunnerOk) << plain.err;
  EXPECT_THAT(plain.out, Not(HasSubstr("ETRecord")));
}

TEST(RuntimeEtRunnerTest, UnwritableEtrecordPathFails) {
  etbench::testing::TempDir dir;
  const Invocation run =
      RunTool({"--model_path", testing::ShippedModelPath("mlp"),
               "--etdump_path", dir.File("t.etdp"), "--etrecord_path",
               "/nonexistent-dir/t.etrecord"});
  EXPECT_EQ(run.code, kEtRunnerFailed);
  EXPECT_THAT(run.err, HasSubstr("et_runner: error: /nonexistent-dir/t.etrecord"));
}

TEST(RuntimeEtRunnerTest, CyclesRunRecordsTheMeasuredTickRate) {
  if (!CycleCounterAvailable()) GTEST_SKIP() << "no cycle counter";
  etbench::testing::TempDir dir;
  const std::string etdump = dir.File("c.etdp");
  const Invocation run =
      RunTool({"--model_path", testing::ShippedModelPath("mlp"), "--etdump_path",
           etdump, "--time_source", "cycles", "--slowdown", "relu=1.5",
           "--slowdown", "fc1=2", "--dump_outputs",
           "--debug_output_path", dir.File("debug.bin")});
  ASSERT_EQ(run.code, kEtRunnerOk) << run.err;
  EXPECT_THAT(run.out, HasSubstr("Time source: cycles, tick rate "));
  auto metadata = ParseRunMetadata(
      etbench::testing::ReadTextFile(RunMetadataPath(etdump)), "meta");
  ASSERT_TRUE(metadata.ok()) << metadata.error().message;
  EXPECT_EQ(metadata->time_source, "cycles");
  EXPECT_GT(metadata->tick_rate_hz, 1e6);
  ASSERT_EQ(metadata->slowdowns.size(), 2u);
  EXPECT_EQ(metadata->slowdowns[1].target, "fc1");
  EXPECT_EQ(metadata->debug_output_path, dir.File("debug.bin"));
  EXPECT_FALSE(etbench::testing::ReadBinaryFile(dir.File("debug.bin")).empty());
}

TEST(RuntimeEtRunnerTest, BadFlagsFailWithAClearMessage) {
  const std::string model = testing::ShippedModelPath("mlp");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--bogus"}, "unrecognised option '--bogus'"},
      {{}, "--model_path is required"},
      {{"--model_path", model, "--num_executions", "0"},
       "--num_executions must be at least 1"},
      {{"--model_path", model, "--num_executions", "many"},
       "num_executions"},
      {{"--model_path", model, "--time_source", "ms"},
       "unknown time source 'ms' (expected ns or cycles)"},
      {{"--model_path", model, "--slowdown", "relu"}, "expected OP=FACTOR"},
      {{"--model_path", model, "--slowdown", "conv2d=2"},
       "slowdown 'conv2d' matches no node, op or kernel of model 'mlp'"},
      {{"--model_path", "/nonexistent.yaml"},
       "/nonexistent.yaml: cannot open (No such file or directory)"},
  };
  for (const Case& c : cases) {
    const Invocation run = RunTool(c.args);
    EXPECT_EQ(run.code, kEtRunnerUsageError) << c.message;
    EXPECT_THAT(run.err, HasSubstr("et_runner: error: ")) << c.message;
    EXPECT_THAT(run.err, HasSubstr(c.message));
    EXPECT_THAT(run.out, Not(HasSubstr("Iteration")));
  }
}

TEST(RuntimeEtRunnerTest, BadModelFileNamesTheNode) {
  etbench::testing::TempDir dir;
  etbench::testing::WriteTextFile(
      dir.File("bad.yaml"),
      "name: bad\n"
      "inputs: [{name: x, shape: [1, 8]}]\n"
      "nodes:\n"
      "  - {name: fc, op: linear, inputs: [x], out_features: 4}\n"
      "  - {name: oops, op: matmul, inputs: [fc, x]}\n");
  const Invocation run = RunTool({"--model_path", dir.File("bad.yaml"),
                              "--etdump_path", dir.File("t.etdp")});
  EXPECT_EQ(run.code, kEtRunnerUsageError);
  EXPECT_THAT(run.err, HasSubstr(dir.File("bad.yaml") + ":5:"));
  EXPECT_THAT(run.err, HasSubstr("node 'oops' (matmul)"));
}

TEST(RuntimeEtRunnerTest, UnwritableEtdumpPathFails) {
  const Invocation run =
      RunTool({"--model_path", testing::ShippedModelPath("mlp"), "--etdump_path",
           "/nonexistent-dir/t.etdp"});
  EXPECT_EQ(run.code, kEtRunnerFailed);
  EXPECT_THAT(run.err, HasSubstr("et_runner: error: "));
}

}  // namespace
}  // namespace etbench::runtime
