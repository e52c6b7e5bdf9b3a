#include "etbench/reports/collapsed_stacks.h"

#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "report_test_data.h"
#include "support/test_support.h"

namespace etbench::reports {
namespace {

TraceSource Load(const EtdumpRecord& record, const std::string& name) {
  auto file = EtdumpFile::FromBytes(WriteEtdump(record), name);
  EXPECT_TRUE(file.ok());
  InspectorOptions options;
  options.target_time_scale = TimeScale::kNs;
  auto blocks = BuildEventBlocks(file.value(), options);
  EXPECT_TRUE(blocks.ok());
  TraceSource source;
  source.name = name;
  source.blocks = std::move(blocks).value();
  return source;
}

TEST(CollapsedStacksTest, TutorialMatchesGolden) {
  auto source = LoadEtdumpTraceSource(testing::FixturePath("executorch_tutorial.etdp"), {});
  ASSERT_TRUE(source.ok());
  testing::ExpectMatchesGolden(RenderCollapsedStacks({source.value()}), "tutorial.folded");
}

TEST(CollapsedStacksTest, SelfTimesAreSummedOverRunsAndTotalTheRoots) {
  const TraceSource source = Load(testing::DelegateEtdump(), "d");
  const std::string stacks = RenderCollapsedStacks({source});
  // Method::execute self = execute − OPERATOR_CALL − DELEGATE_CALL, per run:
  // (3000 − 520 − 2000) + (3100 − 520 − 2000) = 480 + 580.
  EXPECT_NE(stacks.find("Method::execute 1060\n"), std::string::npos) << stacks;
  EXPECT_NE(stacks.find("Method::execute;OPERATOR_CALL;native_call_add.out 1000\n"), std::string::npos);
  EXPECT_NE(stacks.find("Method::execute;DELEGATE_CALL;7 1800\n"), std::string::npos) << stacks;
  long long total = 0;
  for (std::size_t at = 0; (at = stacks.find(' ', at)) != std::string::npos;) {
    const std::size_t end = stacks.find('\n', at);
    total += std::stoll(stacks.substr(at + 1, end - at - 1));
    at = end;
  }
  // Σ self = Σ root totals: load_method 400 + 2 × execute (3000, 3100).
  EXPECT_EQ(total, 400 + 3000 + 3100);
}

TEST(CollapsedStacksTest, OneRunAndPrefixes) {
  const TraceSource source = Load(testing::DelegateEtdump(), "d;x");
  CollapsedStacksOptions options;
  options.run = 1;
  options.prefix_source = true;
  options.prefix_block = true;
  const std::string stacks = RenderCollapsedStacks({source}, options);
  EXPECT_NE(stacks.find("d:x;Execute;Method::execute 580\n"), std::string::npos) << stacks;
  EXPECT_EQ(stacks.find("Default"), std::string::npos);  // Default has no run 1
}

TEST(CollapsedStacksTest, LinesAreSortedAndWellFormed) {
  const std::string stacks = RenderCollapsedStacks({Load(testing::DelegateEtdump(), "d")});
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = stacks.find('\n', at)) != std::string::npos; at = end + 1) {
    lines.push_back(stacks.substr(at, end - at));
  }
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end()));
  for (const std::string& line : lines) {
    const std::size_t space = line.rfind(' ');
    ASSERT_NE(space, std::string::npos);
    EXPECT_GT(std::stoll(line.substr(space + 1)), 0) << line;
  }
}

}  // namespace
}  // namespace etbench::reports
