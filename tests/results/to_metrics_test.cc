#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/results/results.h"

namespace etbench::results {
namespace {

using ::testing::ElementsAre;

EventResult Event(std::string name, std::optional<int32_t> instruction, std::vector<double> raw) {
  EventResult e;
  e.name = std::move(name);
  e.instruction_id = instruction;
  e.perf_data = PerfData::FromRaw(std::move(raw));
  return e;
}

const Metric* Find(const MetricSet& set, const std::string& block, MetricKind kind,
                   const std::string& name) {
  for (const Metric& m : set.metrics) {
    if (m.key.block == block && m.key.kind == kind && m.key.name == name) return &m;
  }
  return nullptr;
}

TEST(ResultsToMetricsTest, EventsTaxAllocationsAndBenchmarksBecomeMetrics) {
  RunResults r;
  r.metadata.suite = "s";
  r.metadata.device = "pixel";
  r.metadata.time_source = "ns";
  r.metadata.tick_rate_hz = 1e9;
  r.metadata.git_commit = "abc";
  r.metadata.labels = {{"team", "perf"}};
  ModelResult m;
  m.name = "toy";
  m.unit = "ms";
  m.model_sha256 = "sha";
  BlockResult init;
  init.name = "Default";
  init.events = {Event("Program::load_method", 0, {2.0})};
  BlockResult execute;
  execute.name = "Execute";
  execute.events = {Event("native_call_add.out", 3, {0.1, 0.2}),
                    Event("OPERATOR_CALL", 3, {0.2, 0.3}), Event("DELEGATE_CALL", 4, {1.0, 1.1}),
                    Event("Method::execute", 0, {1.5, 1.6})};
  EventResult delegated = Event("conv", 4, {0.5, 0.6});
  delegated.is_delegated_op = true;
  delegated.delegate_debug_identifier = std::string("conv");
  delegated.delegate_backend_name = "xnn";
  delegated.occurrence = 1;
  delegated.op_types = {"aten.conv"};
  execute.events.push_back(delegated);
  execute.framework_tax = PerfData::FromRaw({10, 12});
  execute.run_count = 2;
  execute.repetition_run_counts = {1, 1};  // two repetitions of one run
  execute.allocations = {AllocatorUsage{"temp_allocator", {64, 128}, {1, 2}}};
  BlockResult again = execute;  // a second block with the same name
  m.blocks = {init, execute, again};
  BenchmarkResult bench;
  bench.name = "BM_X";
  bench.perf_data = PerfData::FromRaw({3, 4, 5});
  m.benchmarks = {bench};
  r.models.push_back(m);
  ModelResult failed;
  failed.name = "broken";
  failed.status = ModelStatus::kFailed;
  failed.blocks = {execute};
  r.models.push_back(failed);

  const MetricSet set = ToMetricSet(r);
  EXPECT_EQ(set.context.at("suite"), "s");
  EXPECT_EQ(set.context.at("device"), "pixel");
  EXPECT_EQ(set.context.at("tick_rate_hz"), "1000000000");
  EXPECT_EQ(set.context.at("git_commit"), "abc");
  EXPECT_EQ(set.context.at("label:team"), "perf");
  EXPECT_EQ(set.context.at("model_sha256:toy"), "sha");
  EXPECT_EQ(set.context.at("model_status:broken"), "failed");
  for (const char* key : {"cpu", "host", "time_source", "branch", "date", "runner"}) {
    EXPECT_EQ(set.context.count(key), 1u) << key;
  }
  for (const Metric& metric : set.metrics) EXPECT_EQ(metric.key.model, "toy");
  // 1 + (5 events + tax + allocation) x 2 blocks + 1 benchmark.
  EXPECT_EQ(set.metrics.size(), 16u);

  const Metric* load = Find(set, "Default", MetricKind::kEvent, "Program::load_method");
  ASSERT_NE(load, nullptr);
  EXPECT_TRUE(load->end_to_end);
  const Metric* add = Find(set, "Execute", MetricKind::kEvent, "native_call_add.out");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->unit, "ms");
  EXPECT_THAT(add->samples, ElementsAre(0.1, 0.2));
  EXPECT_THAT(add->group_sizes, ElementsAre(1, 1));
  EXPECT_TRUE(load->group_sizes.empty());  // its block does not say
  EXPECT_EQ(*add->key.instruction_id, 3);
  EXPECT_TRUE(add->is_kernel_or_delegate_call);
  EXPECT_FALSE(add->end_to_end);
  EXPECT_FALSE(
      Find(set, "Execute", MetricKind::kEvent, "OPERATOR_CALL")->is_kernel_or_delegate_call);
  EXPECT_TRUE(
      Find(set, "Execute", MetricKind::kEvent, "DELEGATE_CALL")->is_kernel_or_delegate_call);
  EXPECT_TRUE(Find(set, "Execute", MetricKind::kEvent, "Method::execute")->end_to_end);
  const Metric* conv = Find(set, "Execute", MetricKind::kEvent, "conv");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->key.delegate_id, "conv");
  EXPECT_EQ(conv->key.occurrence, 1);
  EXPECT_EQ(*conv->delegate_backend_name, "xnn");
  EXPECT_EQ(conv->op_types, std::vector<std::string>{"aten.conv"});
  EXPECT_FALSE(conv->is_kernel_or_delegate_call);
  const Metric* tax = Find(set, "Execute", MetricKind::kFrameworkTax, "framework_tax");
  ASSERT_NE(tax, nullptr);
  EXPECT_EQ(tax->unit, "percent");
  EXPECT_TRUE(tax->end_to_end);
  const Metric* alloc = Find(set, "Execute", MetricKind::kAllocation, "temp_allocator");
  ASSERT_NE(alloc, nullptr);
  EXPECT_EQ(alloc->unit, "bytes");
  EXPECT_THAT(alloc->samples, ElementsAre(64.0, 128.0));
  EXPECT_NE(Find(set, "Execute#1", MetricKind::kEvent, "native_call_add.out"), nullptr);
  const Metric* b = Find(set, "", MetricKind::kBenchmark, "BM_X");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->end_to_end);
  EXPECT_THAT(b->samples, ElementsAre(3.0, 4.0, 5.0));
}

}  // namespace
}  // namespace etbench::results
