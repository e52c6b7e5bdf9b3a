#include "etbench/compare/attribution.h"

#include <gtest/gtest.h>

#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::EventMetric;

std::vector<double> Constant(double v) { return std::vector<double>(9, v); }

TEST(AttributionTest, SplitsTheExecuteChangeLargestFirst) {
  MetricSet b, c;
  b.metrics = {EventMetric("Method::execute", 0, Constant(2.00), true),
               EventMetric("native_call_convolution.out", 0, Constant(1.00)),
               EventMetric("native_call_convolution.out", 3, Constant(0.50)),
               EventMetric("native_call_relu.out", 1, Constant(0.10)),
               EventMetric("OPERATOR_CALL", 0, Constant(1.01)),
               EventMetric("native_call_mm.out", 5, Constant(0.05))};
  c.metrics = {EventMetric("Method::execute", 0, Constant(2.41), true),
               EventMetric("native_call_convolution.out", 0, Constant(1.02)),
               EventMetric("native_call_convolution.out", 3, Constant(0.83)),
               EventMetric("native_call_relu.out", 1, Constant(0.09)),
               EventMetric("OPERATOR_CALL", 0, Constant(1.50)),
               EventMetric("native_call_bmm.out", 6, Constant(0.04))};
  const auto attributions = ComputeAttribution(b, c);
  ASSERT_EQ(attributions.size(), 1u);
  const Attribution& a = attributions[0];
  EXPECT_NEAR(a.delta, 0.41, 1e-12);
  ASSERT_EQ(a.items.size(), 6u);  // 5 calls + framework overhead; OPERATOR_CALL ignored
  EXPECT_EQ(a.items[0].label, "native_call_convolution.out #3");
  EXPECT_NEAR(a.items[0].delta, 0.33, 1e-12);
  EXPECT_EQ(a.items[1].label, "framework overhead");
  EXPECT_NEAR(a.items[1].delta, 0.41 - 0.33 - 0.02 + 0.01 + 0.05 - 0.04, 1e-12);
  double sum = 0;
  for (const AttributionItem& item : a.items) sum += item.delta;
  EXPECT_NEAR(sum, a.delta, 1e-12);
  // In one unit scaled for people, as a table column (it was "+0.41 ms:
  // +0.33 from …", and "+0.0275 ms" on real histories).
  EXPECT_EQ(AttributionSentence(a, 2),
            "+410.0 us: +330.0 from native_call_convolution.out #3, +80.00 from framework "
            "overhead, …");
  bool added = false, removed = false;
  for (const AttributionItem& item : a.items) {
    added |= item.kind == AttributionItem::Kind::kAdded && item.label == "native_call_bmm.out #6 (added)";
    removed |= item.kind == AttributionItem::Kind::kRemoved && item.delta == -0.05;
  }
  EXPECT_TRUE(added);
  EXPECT_TRUE(removed);
}

TEST(AttributionTest, NeedsMethodExecuteOnBothSides) {
  MetricSet b, c;
  b.metrics = {EventMetric("Method::execute", 0, Constant(2.0), true)};
  c.metrics = {EventMetric("native_call_relu.out", 1, Constant(0.1))};
  EXPECT_TRUE(ComputeAttribution(b, c).empty());
}

}  // namespace
}  // namespace etbench
