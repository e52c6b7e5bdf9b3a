#include "etbench/compare/structure_changes.h"

#include <gtest/gtest.h>

#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::EventMetric;

TEST(StructureChangesTest, ListsAddedRemovedAndRenamedOperators) {
  MetricSet b, c;
  b.metrics = {EventMetric("native_call_convolution.out", 0, {1}),
               EventMetric("native_call_relu.out", 1, {1}),
               EventMetric("native_call_addmm.out", 2, {1}),
               EventMetric("native_call_mm.out", 7, {1})};
  c.metrics = {EventMetric("native_call_convolution.out", 0, {1}),
               EventMetric("native_call_hardtanh.out", 1, {1}),  // renamed (same instruction)
               EventMetric("native_call_addmm.out", 2, {1}),
               EventMetric("native_call_gelu.out", 9, {1})};      // added
  Metric other_model = EventMetric("native_call_relu.out", 1, {1});
  other_model.key.model = "mlp";
  c.metrics.push_back(other_model);
  const auto changes = DetectStructureChanges(b, c);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(changes[0].kind, StructureChange::Kind::kAdded);
  EXPECT_EQ(changes[0].model, "mlp");
  EXPECT_EQ(changes[1].kind, StructureChange::Kind::kAdded);
  EXPECT_EQ(changes[1].candidate_key->name, "native_call_gelu.out");
  EXPECT_EQ(changes[2].kind, StructureChange::Kind::kRemoved);
  EXPECT_EQ(changes[2].baseline_key->name, "native_call_mm.out");
  EXPECT_EQ(changes[3].kind, StructureChange::Kind::kRenamed);
  EXPECT_EQ(changes[3].baseline_key->name, "native_call_relu.out");
  EXPECT_EQ(changes[3].candidate_key->name, "native_call_hardtanh.out");
}

TEST(StructureChangesTest, IdenticalSetsHaveNoChanges) {
  MetricSet b;
  b.metrics = {EventMetric("native_call_relu.out", 1, {1})};
  EXPECT_TRUE(DetectStructureChanges(b, b).empty());
}

}  // namespace
}  // namespace etbench
