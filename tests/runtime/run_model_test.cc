// RunModel's stop request: honoured between executions, not after the run.
#include "etbench/runtime/run_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "runtime_test_util.h"

namespace etbench::runtime {
namespace {

TEST(RuntimeRunModelTest, StopRequestEndsTheRunBetweenExecutions) {
  const Model model = testing::LoadShippedModel(testing::ShippedModelNames().front());
  RunOptions options;
  options.num_executions = 1000;
  int executed = 0;
  options.on_execution = [&executed](int, double) { ++executed; };
  options.should_stop = [&executed] { return executed >= 2; };
  auto run = RunModel(model, options);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().message, "interrupted after 2 of 1000 executions");
  EXPECT_EQ(executed, 2);
}

TEST(RuntimeRunModelTest, NoStopRequestRunsEveryExecution) {
  const Model model = testing::LoadShippedModel(testing::ShippedModelNames().front());
  RunOptions options;
  options.num_executions = 3;
  options.should_stop = [] { return false; };
  auto run = RunModel(model, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->execution_ms.size(), 3u);
}

}  // namespace
}  // namespace etbench::runtime
