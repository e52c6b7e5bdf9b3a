// The acceptance test, end to end and in-process: et_runner writes
// an ETDump and an ETRecord, and `etbench inspect --etrecord_path` shows op
// types and module paths for the built-in model's events.

#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "etbench/runtime/et_runner.h"
#include "runtime_test_util.h"
#include "support/test_support.h"

namespace etbench::runtime {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Runs et_runner on a shipped model; returns {etdump, etrecord} paths.
std::pair<std::string, std::string> RunBuiltIn(
    const etbench::testing::TempDir& dir, const std::string& model) {
  const std::string etdump = dir.File(model + ".etdp");
  const std::string etrecord = dir.File(model + ".etrecord");
  std::ostringstream out, err;
  const int code = RunEtRunner(
      {"--model_path", testing::ShippedModelPath(model), "--num_executions",
       "3", "--etdump_path", etdump, "--etrecord_path", etrecord},
      out, err);
  EXPECT_EQ(code, kEtRunnerOk) << err.str();
  return {etdump, etrecord};
}

TEST(RuntimeEtRunnerInspectTest, JsonHasOpTypesAndModulesForEveryEvent) {
  etbench::testing::TempDir dir;
  const auto [etdump, etrecord] = RunBuiltIn(dir, "transformer_block");
  const etbench::testing::CliRun run = etbench::testing::RunCli(
      {"inspect", "--etdump_path", etdump, "--etrecord_path", etrecord,
       "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");  // no warnings
  const nlohmann::json json = nlohmann::json::parse(run.out);
  int native_calls = 0;
  int delegated = 0;
  for (const auto& block : json.at("event_blocks")) {
    if (block.at("name") != "Execute") continue;
    for (const auto& event : block.at("events")) {
      const std::string name = event.at("name");
      SCOPED_TRACE(name);
      if (name.rfind("native_call_", 0) == 0) {
        ++native_calls;
        ASSERT_EQ(event.at("op_types").size(), 1u);
        EXPECT_EQ(event.at("op_types")[0].get<std::string>().rfind("aten.", 0),
                  0u);
        EXPECT_EQ(event.at("debug_handles").size(), 1u);
        EXPECT_FALSE(event.at("stack_traces").empty());
      }
      if (event.at("is_delegated_op").get<bool>()) {
        ++delegated;
        EXPECT_FALSE(event.at("op_types").empty());
        EXPECT_EQ(event.at("delegate_backend_name"), "reference");
        EXPECT_FALSE(event.at("module_hierarchy").empty());
      }
    }
  }
  EXPECT_EQ(native_calls, 17);  // 18 instructions, one DELEGATE_CALL
  EXPECT_EQ(delegated, 2);

  // The first q_proj event: its module frames, outermost first.
  bool found = false;
  for (const auto& block : json.at("event_blocks")) {
    for (const auto& event : block.at("events")) {
      if (event.at("instruction_id") != 2 ||
          event.at("name") == "OPERATOR_CALL") {
        continue;
      }
      found = true;
      EXPECT_EQ(event.at("name"), "native_call_addmm.out");
      EXPECT_EQ(event.at("op_types"), nlohmann::json({"aten.addmm.default"}));
      const auto& frames = event.at("module_hierarchy").at("q");
      ASSERT_EQ(frames.size(), 2u);
      EXPECT_EQ(frames[0].at("path"), "attn");
      EXPECT_EQ(frames[0].at("type"), "__main__.SelfAttention");
      EXPECT_EQ(frames[1].at("key"), "L__self___attn_q_proj");
      EXPECT_EQ(frames[1].at("path"), "attn.q_proj");
      EXPECT_EQ(frames[1].at("type"), "torch.nn.modules.linear.Linear");
      EXPECT_THAT(event.at("stack_traces").at("q").get<std::string>(),
                  HasSubstr("transformer_block.yaml\", line 25, in q\n"));
    }
  }
  EXPECT_TRUE(found);
}

TEST(RuntimeEtRunnerInspectTest, ModuleTreeAndModuleTotalsOfABuiltInRun) {
  etbench::testing::TempDir dir;
  const auto [etdump, etrecord] = RunBuiltIn(dir, "toy_cnn");
  const etbench::testing::CliRun tree = etbench::testing::RunCli(
      {"inspect", "--etdump_path", etdump, "--etrecord_path", etrecord,
       "--view", "module_tree"});
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_THAT(tree.err, IsEmpty());
  for (const char* line :
       {"  features  (torch.nn.modules.container.Sequential)",
        "    features.conv1  (torch.nn.modules.conv.Conv2d)",
        "    features.pool2  (torch.nn.modules.pooling.MaxPool2d)",
        "  classifier  (torch.nn.modules.container.Sequential)",
        "    classifier.fc3  (torch.nn.modules.linear.Linear)"}) {
    EXPECT_THAT(tree.out, HasSubstr(line));
  }
  // Every instruction is in a module: nothing left unattributed.
  EXPECT_THAT(tree.out, ::testing::Not(HasSubstr("Without module")));

  const etbench::testing::CliRun total = etbench::testing::RunCli(
      {"inspect", "--etdump_path", etdump, "--etrecord_path", etrecord,
       "--module", "classifier"});
  ASSERT_EQ(total.exit_code, 0) << total.err;
  EXPECT_THAT(total.out, HasSubstr("Total for module classifier: "));

  const etbench::testing::CliRun ops = etbench::testing::RunCli(
      {"inspect", "--etdump_path", etdump, "--etrecord_path", etrecord,
       "--view", "key_averages", "--group-by", "op_type"});
  ASSERT_EQ(ops.exit_code, 0) << ops.err;
  EXPECT_THAT(ops.out, HasSubstr("aten.convolution.default"));
  EXPECT_THAT(ops.out, HasSubstr("aten.permute_copy.default"));
  // An unlinked event would be grouped under its own name.
  EXPECT_THAT(ops.out, ::testing::Not(HasSubstr("native_call_")));
}

}  // namespace
}  // namespace etbench::runtime
