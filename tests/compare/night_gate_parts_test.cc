// What counts end to end in the nightly gate: a part of Method::execute
// fails the night only when it moves Method::execute by its threshold with
// its whole interval, or moves with it, and not when Method::execute rules
// the move out; a model slow as a whole process (its load path too) is
// listed, not counted.
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/compare/night_gate.h"
#include "etbench/reports/row_reason.h"
#include "night_gate_suite.h"
#include "support/compare_test_util.h"

namespace etbench {
namespace {

using testing::Row;
using testing::Suite;

TEST(NightGateTest, ATinyOperatorsChangeCountsOnlyWhenItMovesMethodExecuteOrWithEveryPart) {
  Suite suite;
  std::vector<MetricSet> nights;
  for (double l : {0.0, 0.1, -0.05, 0.15, 0.02, 0.04}) nights.push_back(suite.Night(l));
  // op5 is 5 us of ~520: +30% moves Method::execute by 0.3%.
  const MetricSet tonight = suite.Night(0.0, "b", 5, 1.30);
  auto gate = CompareNights(nights, tonight, DefaultThresholds());
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  const MetricComparison* op = Row(gate->comparison, "b", "native_call_op5.out");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->verdict, Verdict::kRegression);
  EXPECT_FALSE(op->gated);
  const NotCountedNote* not_counted = FindNote<NotCountedNote>(op->notes);
  ASSERT_NE(not_counted, nullptr) << reports::RowReason(*op);
  EXPECT_LT(not_counted->moves, not_counted->threshold);
  EXPECT_THAT(reports::RowReason(*op), ::testing::HasSubstr("; not counted: moves Method::execute by "));
  EXPECT_NE(gate->comparison.outcome, GateOutcome::kRegression);
  NightGateOptions every;
  every.every_part = true;
  auto each = CompareNights(nights, tonight, DefaultThresholds(), every);
  ASSERT_TRUE(each.ok());
  EXPECT_EQ(each->comparison.outcome, GateOutcome::kRegression);
}

// Multiplies every sample of `model`'s metric `name` by `factor`.
void Scale(MetricSet* set, const std::string& model, const std::string& name, double factor) {
  for (Metric& m : set->metrics) {
    if (m.key.model != model || m.key.name != name) continue;
    for (double& v : m.samples) v *= factor;
  }
}

TEST(NightGateTest, APartCountsByItsMoveOnlyWhereMethodExecuteDidNotRuleItOut) {
  Suite suite;
  std::vector<MetricSet> nights;
  for (double l : {0.0, 0.1, -0.05, 0.15, 0.02, 0.04}) nights.push_back(suite.Night(l));
  // op0 (250 us of ~520) +12% would move Method::execute by ~5.8%, but the
  // time came from op1 (120 us, −25%): Method::execute did not move, as on
  // the recorded nights where a machine episode moved one model's parts
  // unevenly.
  MetricSet tonight = suite.Night(0.0);
  Scale(&tonight, "a", "native_call_op0.out", 1.12);
  Scale(&tonight, "a", "native_call_op1.out", 0.75);
  auto gate = CompareNights(nights, tonight, DefaultThresholds());
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  testing::ExpectConsistentRows(gate->comparison);
  const MetricComparison* execute = Row(gate->comparison, "a", "Method::execute");
  ASSERT_NE(execute, nullptr);
  EXPECT_NE(execute->verdict, Verdict::kRegression) << reports::RowReason(*execute);
  const MetricComparison* op = Row(gate->comparison, "a", "native_call_op0.out");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->verdict, Verdict::kRegression) << reports::RowReason(*op);
  EXPECT_FALSE(op->gated) << reports::RowReason(*op);
  const NotCountedNote* not_counted = FindNote<NotCountedNote>(op->notes);
  ASSERT_NE(not_counted, nullptr) << reports::RowReason(*op);
  EXPECT_GE(not_counted->moves, not_counted->threshold);
  ASSERT_TRUE(not_counted->execute_at_most.has_value());
  EXPECT_LT(*not_counted->execute_at_most, not_counted->moves);
  EXPECT_NEAR(*not_counted->execute_at_most, execute->ci_high, 1e-9);
  EXPECT_THAT(reports::RowReason(*op),
              ::testing::HasSubstr("; not counted: would move Method::execute by +"));
  EXPECT_NE(gate->comparison.outcome, GateOutcome::kRegression);
  // Model a is measured again before the night's verdict stands.
  EXPECT_THAT(ModelsToMeasureAgain(gate->comparison), ::testing::Contains("a"));
  // The same op0 with Method::execute moving with it: counted, and failed.
  MetricSet moved = suite.Night(0.0, "a", 0, 1.12);
  gate = CompareNights(nights, moved, DefaultThresholds());
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  op = Row(gate->comparison, "a", "native_call_op0.out");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->verdict, Verdict::kRegression) << reports::RowReason(*op);
  EXPECT_TRUE(op->gated) << reports::RowReason(*op);
  EXPECT_EQ(gate->comparison.outcome, GateOutcome::kRegression);
}

// Adds each model's load path (Program::load_method enclosing Method::init),
// `factor` slower for `slow_model`.
MetricSet WithLoadPath(Suite& suite, MetricSet set, const std::string& slow_model = "",
                       double factor = 1) {
  for (const std::string model : {"a", "b", "c"}) {
    const double f = model == slow_model ? factor : 1.0;
    for (const auto& [name, us] : {std::pair<const char*, double>{"Program::load_method", 900},
                                   {"Method::init", 700}}) {
      Metric m = testing::EventMetric(name, -1, suite.Samples(us * f), true, "us");
      m.key.model = model;
      m.key.block = "Default";
      m.group_sizes = {5, 5, 5, 5};
      set.metrics.push_back(std::move(m));
    }
  }
  return set;
}

// A model slow as a whole process tonight (a neighbour's episode that
// slows it more than the others): every operator, Method::execute and the
// load path, where no kernel runs, +20%. One night cannot tell that from its
// code: listed, not counted, and not a pass.
TEST(NightGateTest, AModelSlowAsAWholeProcessIsListedNotCounted) {
  Suite suite;
  std::vector<MetricSet> nights;
  for (double l : {0.0, 0.01, -0.005, 0.015, 0.002, 0.007, -0.003}) {
    nights.push_back(WithLoadPath(suite, suite.Night(l)));
  }
  MetricSet tonight = suite.Night(0.004);
  for (Metric& m : tonight.metrics) {
    if (m.key.model == "a") {
      for (double& v : m.samples) v *= 1.2;
    }
  }
  tonight = WithLoadPath(suite, std::move(tonight), "a", 1.25);
  auto gate = CompareNights(nights, tonight, DefaultThresholds());
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  testing::ExpectConsistentRows(gate->comparison);
  EXPECT_EQ(gate->disturbed_models, std::vector<std::string>{"a"});
  EXPECT_EQ(gate->comparison.outcome, GateOutcome::kInconclusive);
  EXPECT_EQ(gate->comparison.counts.regressions, 0u);
  const MetricComparison* execute = Row(gate->comparison, "a", "Method::execute");
  ASSERT_NE(execute, nullptr);
  EXPECT_EQ(execute->verdict, Verdict::kRegression);  // what the interval says
  EXPECT_FALSE(execute->gated);
  const DisturbedModelNote* note = FindNote<DisturbedModelNote>(execute->notes);
  ASSERT_NE(note, nullptr);
  EXPECT_NEAR(note->execute_change, 0.2, 0.03);
  EXPECT_NEAR(note->load_change, 0.25, 0.03);
  EXPECT_THAT(reports::RowReason(*execute),
              ::testing::HasSubstr("not counted: the whole model was slower tonight (load path +"));

  // Without the control the same night fails.
  NightGateOptions off;
  off.load_path_control = false;
  auto counted = CompareNights(nights, tonight, DefaultThresholds(), off);
  ASSERT_TRUE(counted.ok()) << counted.error().message;
  EXPECT_EQ(counted->comparison.outcome, GateOutcome::kRegression);
  EXPECT_TRUE(counted->disturbed_models.empty());
}

// The control leaves a kernel's change alone: the load path did not move.
TEST(NightGateTest, AKernelChangeWithAQuietLoadPathStillFails) {
  Suite suite;
  std::vector<MetricSet> nights;
  for (double l : {0.0, 0.01, -0.005, 0.015, 0.002, 0.007, -0.003}) {
    nights.push_back(WithLoadPath(suite, suite.Night(l)));
  }
  auto gate = CompareNights(nights, WithLoadPath(suite, suite.Night(0.004, "a", 0, 1.3)),
                            DefaultThresholds());
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  EXPECT_TRUE(gate->disturbed_models.empty());
  EXPECT_EQ(gate->comparison.outcome, GateOutcome::kRegression);
  const MetricComparison* op = Row(gate->comparison, "a", "native_call_op0.out");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->verdict, Verdict::kRegression);
  EXPECT_TRUE(op->gated);
}

TEST(NightGateTest, APartCountsOnlyWhenItsWholeIntervalMovesMethodExecuteByTheThreshold) {
  // op1 (120 us of ~520) varies ±2% from night to night and Method::execute
  // ±2% (as mlp's addmm and Method::execute did on the recorded idle nights
  // minutes apart). Tonight op1 is +14%: by its estimate it moves
  // Method::execute by ~3%, beyond the 2% threshold, but by its interval's
  // lower bound by less; Method::execute itself neither moved significantly
  // nor rules the move out. One such night is no regression: what fails the
  // gate clears the threshold with its whole interval.
  Suite suite;
  std::vector<MetricSet> nights;
  const double op1[] = {1.02, 0.98, 1.0, 1.015, 0.985, 1.01, 0.99, 1.005};
  const double execute[] = {1.02, 0.98, 1.01, 0.99, 1.02, 0.98, 1.0, 1.01};
  for (int n = 0; n < 8; ++n) {
    MetricSet night = suite.Night(0.0);
    Scale(&night, "a", "native_call_op1.out", op1[n]);
    Scale(&night, "a", "Method::execute", execute[n]);
    nights.push_back(std::move(night));
  }
  MetricSet tonight = suite.Night(0.0);
  Scale(&tonight, "a", "native_call_op1.out", 1.14);
  Scale(&tonight, "a", "Method::execute", 1.03);
  auto gate = CompareNights(nights, tonight, DefaultThresholds());
  ASSERT_TRUE(gate.ok()) << gate.error().message;
  testing::ExpectConsistentRows(gate->comparison);
  const MetricComparison* execute_row = Row(gate->comparison, "a", "Method::execute");
  ASSERT_NE(execute_row, nullptr);
  EXPECT_NE(execute_row->verdict, Verdict::kRegression) << reports::RowReason(*execute_row);
  const MetricComparison* op = Row(gate->comparison, "a", "native_call_op1.out");
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(op->verdict, Verdict::kRegression) << reports::RowReason(*op);
  EXPECT_FALSE(op->gated) << reports::RowReason(*op);
  const NotCountedNote* not_counted = FindNote<NotCountedNote>(op->notes);
  ASSERT_NE(not_counted, nullptr) << reports::RowReason(*op);
  EXPECT_GE(not_counted->moves, not_counted->threshold) << reports::RowReason(*op);
  ASSERT_TRUE(not_counted->at_least.has_value()) << reports::RowReason(*op);
  EXPECT_LT(*not_counted->at_least, not_counted->threshold);
  EXPECT_NEAR(*not_counted->at_least, not_counted->moves * op->ci_low / op->change, 1e-9);
  EXPECT_THAT(reports::RowReason(*op), ::testing::HasSubstr(", with its whole interval by +"));
  EXPECT_NE(gate->comparison.outcome, GateOutcome::kRegression);
  // Without the minimum-effect rule the estimate decides, and it counts.
  NightGateOptions estimate;
  estimate.minimum_effect = false;
  auto by_estimate = CompareNights(nights, tonight, DefaultThresholds(), estimate);
  ASSERT_TRUE(by_estimate.ok()) << by_estimate.error().message;
  const MetricComparison* counted = Row(by_estimate->comparison, "a", "native_call_op1.out");
  ASSERT_NE(counted, nullptr);
  EXPECT_TRUE(counted->gated) << reports::RowReason(*counted);
  EXPECT_EQ(by_estimate->comparison.outcome, GateOutcome::kRegression);
}

}  // namespace
}  // namespace etbench
