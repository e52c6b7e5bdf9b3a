#include "etbench/compare/metrics.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(MetricKeyTest, OrdersByEveryFieldAndLabelsForPeople) {
  MetricKey a{"toy", "Execute", MetricKind::kEvent, "native_call_convolution.out", 3, "", 0};
  MetricKey b = a;
  b.occurrence = 1;
  EXPECT_TRUE(a < b);
  EXPECT_FALSE(b < a);
  MetricKey c = a;
  c.instruction_id.reset();
  EXPECT_TRUE(c < a);
  EXPECT_EQ(MetricLabel(a), "toy/Execute/native_call_convolution.out#3");
  EXPECT_EQ(MetricLabel(b), "toy/Execute/native_call_convolution.out#3 (occurrence 1)");
  MetricKey alloc{"toy", "Execute", MetricKind::kAllocation, "temp_allocator", {}, "", 0};
  EXPECT_EQ(MetricLabel(alloc), "toy/Execute/allocator:temp_allocator");
  MetricKey bench{"bin", "", MetricKind::kBenchmark, "BM_Foo/8", {}, "", 0};
  EXPECT_EQ(MetricLabel(bench), "bin/BM_Foo/8");
}

}  // namespace
}  // namespace etbench
