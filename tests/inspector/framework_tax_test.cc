#include <gtest/gtest.h>

#include "etbench/inspector/inspector.h"
#include "etdump_test_util.h"

namespace etbench {
namespace {

using testing::Blocks;
using testing::Profile;

RunDataRecord ExecuteRun(uint64_t execute, uint64_t kernel, uint64_t delegate) {
  RunDataRecord r;
  r.name = "Execute";
  r.events.push_back(Profile("native_call_conv.out", 0, 0, 10, 10 + kernel));
  r.events.push_back(Profile("OPERATOR_CALL", 0, 0, 5, 20 + kernel));
  r.events.push_back(Profile("DELEGATE_CALL", 0, 1, 100, 100 + delegate));
  r.events.push_back(Profile("Method::execute", -1, 0, 0, execute));
  return r;
}

TEST(FrameworkTaxTest, PerRunPercentOfExecuteNotSpentInKernelsOrDelegates) {
  EtdumpRecord d;
  d.run_data = {ExecuteRun(1000, 600, 300), ExecuteRun(2000, 1500, 300)};
  auto blocks = Blocks(d);
  ASSERT_EQ(blocks.size(), 1u);
  ASSERT_TRUE(blocks[0].framework_tax.has_value());
  // (1000 - 900) / 1000 = 10 %, (2000 - 1800) / 2000 = 10 %
  EXPECT_EQ(blocks[0].framework_tax->raw, (std::vector<double>{10.0, 10.0}));
}

TEST(FrameworkTaxTest, LegacyDelegateExecuteCounts) {
  EtdumpRecord d;
  RunDataRecord r;
  r.name = "Execute";
  r.events.push_back(Profile("delegate_execute", 0, 0, 0, 750));
  r.events.push_back(Profile("Method::execute", -1, 0, 0, 1000));
  d.run_data = {r};
  EXPECT_DOUBLE_EQ(Blocks(d)[0].framework_tax->p50, 25.0);
}

// The framework tax of one Execute run of 1000 ticks holding `events`.
double TaxOfOneRun(std::vector<ProfileEventRecord> events) {
  EtdumpRecord d;
  RunDataRecord r;
  r.name = "Execute";
  for (ProfileEventRecord& e : events) r.events.push_back(std::move(e));
  r.events.push_back(Profile("Method::execute", -1, 0, 0, 1000));
  d.run_data = {r};
  return Blocks(d)[0].framework_tax->p50;
}

TEST(FrameworkTaxTest, OnlyTheOutermostKernelOrDelegateScopePerInstructionCounts) {
  // A DELEGATE_CALL around its delegate_execute (a legacy profile after
  // `etbench convert`) is delegate time once, not twice:
  // (1000 − 700 − 50) / 1000.
  EXPECT_DOUBLE_EQ(TaxOfOneRun({Profile("delegate_execute", 0, 0, 110, 790),
                                Profile("DELEGATE_CALL", 0, 0, 100, 800),
                                Profile("native_call_add.out", 0, 1, 850, 900),
                                Profile("OPERATOR_CALL", 0, 1, 840, 910)}),
                   25.0);
}

TEST(FrameworkTaxTest, ScopesOfOtherInstructionsAndIdenticalOnesCountOnce) {
  // Two kernels of one instruction with the same interval (a coarse clock):
  // one counts. A kernel of instruction 2 inside instruction 1's interval
  // is not nested in it: both count. (1000 − 100 − 100 − 300) / 1000.
  EXPECT_DOUBLE_EQ(TaxOfOneRun({Profile("native_call_a.out", 0, 0, 0, 100),
                                Profile("delegate_execute", 0, 0, 0, 100),
                                Profile("native_call_b.out", 0, 2, 300, 400),
                                Profile("DELEGATE_CALL", 0, 1, 200, 500)}),
                   50.0);
}

TEST(FrameworkTaxTest, RunsWithoutMethodExecuteHaveNone) {
  EtdumpRecord d;
  RunDataRecord r;
  r.name = "Default";
  r.events.push_back(Profile("Method::init", -1, 0, 0, 10));
  d.run_data = {r};
  EXPECT_FALSE(Blocks(d)[0].framework_tax.has_value());
}

}  // namespace
}  // namespace etbench
