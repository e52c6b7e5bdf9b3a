#include "etbench/reports/profiler_table.h"

#include <gtest/gtest.h>

#include "support/event_blocks.h"

namespace etbench {
namespace {

using testing::MakeTimedBlock;
using testing::TimedEvent;

// Two runs of ns ticks reported in ms: execute 2 ms / 3 ms, two adds and a
// convolution with a long name.
EventBlock Sample() {
  const std::string conv =
      "native_call_convolution_with_a_rather_long_kernel_name.out";
  return MakeTimedBlock(
      "Execute",
      {
          {"native_call_add.out", 0, {{20000, 520000}, {10000, 260000}}},
          {"OPERATOR_CALL", 0, {{10000, 530000}, {5000, 270000}}},
          {conv, 1, {{600000, 1800000}, {300000, 2700000}}},
          {"OPERATOR_CALL", 1, {{590000, 1810000}, {290000, 2710000}}},
          {"native_call_add.out", 2, {{1850000, 1851234}, {2750000, 2750500}}},
          {"Method::execute", 0, {{0, 2000000}, {0, 3000000}}, {}, -1},
      },
      TimeScale::kMs, 1e6);
}

std::string Render(const ProfileTable& table,
                   const TableOptions& options = {}) {
  Result<std::string> text = RenderProfileTable(table, options);
  EXPECT_TRUE(text.ok()) << text.error().message;
  return text.ok() ? text.value() : std::string();
}

ProfileTable KeyAverages(const EventBlock& block,
                         GroupBy group_by = GroupBy::kName) {
  return ComputeKeyAverages(block, BuildEventTrees({block})[0], group_by);
}

TEST(ProfilerTableTest, KeyAveragesGolden) {
  const std::string expected =
      R"(===========================================================================================================================================
Key averages of block "Execute" (2 runs), grouped by name
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
                                                   Name        Self %          Self       Total %         Total           Avg    # of Calls
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
                                        Method::execute        11.47%     573.266us       100.00%       5.000ms       2.500ms             2
                                          OPERATOR_CALL         1.50%      75.000us        88.50%       4.425ms       1.106ms             4
                                    native_call_add.out        15.03%     751.734us        15.03%     751.734us     187.933us             4
native_call_convolution_with_a_rather_long_kernel_na...        72.00%       3.600ms        72.00%       3.600ms       1.800ms             2
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
Self time total: 5.000ms
)";
  EXPECT_EQ(Render(KeyAverages(Sample())), expected);
}

TEST(ProfilerTableTest, SortedLimitedAndInMicroseconds) {
  TableOptions options;
  options.sort_by = SortBy::kSelf;
  options.row_limit = 2;
  options.time_unit = TimeScale::kUs;
  options.max_name_width = 30;
  const std::string expected =
      R"(==================================================================================================================
Key averages of block "Execute" (2 runs), grouped by name
------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
                          Name        Self %          Self       Total %         Total           Avg    # of Calls
------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
native_call_convolution_wit...        72.00%    3600.000us        72.00%    3600.000us    1800.000us             2
           native_call_add.out        15.03%     751.734us        15.03%     751.734us     187.933us             4
------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
Self time total: 5000.000us
)";
  EXPECT_EQ(Render(KeyAverages(Sample()), options), expected);
}

TEST(ProfilerTableTest, TopLevelOnly) {
  TableOptions options;
  options.top_level_only = true;
  const std::string expected =
      R"(===========================================================================================================================================
Key averages of block "Execute" (2 runs), grouped by name
===========================================================================================================================================
This report only displays top-level events
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
                                                   Name        Self %          Self       Total %         Total           Avg    # of Calls
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
                                        Method::execute        11.47%     573.266us       100.00%       5.000ms       2.500ms             2
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------  ------------
Self time total: 5.000ms
)";
  EXPECT_EQ(Render(KeyAverages(Sample()), options), expected);
}

TEST(ProfilerTableTest, EventsViewGolden) {
  const EventBlock block = Sample();
  TableOptions options;
  options.row_limit = 4;
  const std::string expected =
      R"(=============================================================================================================================
Events of block "Execute" (2 runs)
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------
                                                   Name           Run        Self %          Self       Total %         Total
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------
                                        Method::execute             0         5.18%     258.766us        40.00%       2.000ms
                                          OPERATOR_CALL             0         0.40%      20.000us        10.40%     520.000us
                                    native_call_add.out             0        10.00%     500.000us        10.00%     500.000us
                                          OPERATOR_CALL             0         0.40%      20.000us        24.40%       1.220ms
-------------------------------------------------------  ------------  ------------  ------------  ------------  ------------
Self time total: 5.000ms
)";
  EXPECT_EQ(
      Render(ListEventOccurrences(block, BuildEventTrees({block})[0]), options),
      expected);
}

TEST(ProfilerTableTest, SortOrders) {
  const ProfileTable table = KeyAverages(Sample());
  auto first_key = [&](SortBy by) {
    TableOptions options;
    options.sort_by = by;
    options.row_limit = 1;
    options.max_name_width = 100;
    const std::string text = Render(table, options);
    // The only row is the line before the last separator.
    const std::size_t footer = text.rfind("\n---");
    const std::size_t begin = text.rfind('\n', footer - 1) + 1;
    std::string row = text.substr(begin, footer - begin);
    return row.substr(row.find_first_not_of(' '),
                      row.find("  ", row.find_first_not_of(' ')) -
                          row.find_first_not_of(' '));
  };
  EXPECT_EQ(first_key(SortBy::kTotal), "Method::execute");
  EXPECT_EQ(first_key(SortBy::kSelf),
            "native_call_convolution_with_a_rather_long_kernel_name.out");
  EXPECT_EQ(first_key(SortBy::kCount), "OPERATOR_CALL");
  EXPECT_EQ(first_key(SortBy::kAvg), "Method::execute");
  EXPECT_EQ(first_key(SortBy::kName), "Method::execute");
}

TEST(ProfilerTableTest, InstructionRowsSortNumericallyByName) {
  std::vector<TimedEvent> events;
  for (int32_t i : {10, 2, 1}) {
    const uint64_t t = static_cast<uint64_t>(i) * 100;
    events.push_back({"native_call_op", i, {{t, t + 10}}});
  }
  const EventBlock block = MakeTimedBlock("Execute", events);
  TableOptions options;
  options.sort_by = SortBy::kName;
  const std::string text =
      Render(KeyAverages(block, GroupBy::kInstruction), options);
  const std::size_t one = text.find("instruction 1:");
  const std::size_t two = text.find("instruction 2:");
  const std::size_t ten = text.find("instruction 10:");
  ASSERT_NE(ten, std::string::npos) << text;
  EXPECT_LT(one, two);
  EXPECT_LT(two, ten);
  EXPECT_NE(text.find("Instruction"), std::string::npos);
}

TEST(ProfilerTableTest, EventTreeGolden) {
  const EventBlock block = Sample();
  TreeRenderOptions options;
  options.table.max_name_width = 30;
  Result<std::string> text =
      RenderEventTree(block, BuildEventTrees({block})[0], options);
  ASSERT_TRUE(text.ok());
  const std::string expected =
      R"(Event tree of block "Execute", run 0 of 2 (run_data[0]), total 2.000ms
       Total          Self    Self %  Event
     2.000ms     258.766us    12.94%  Method::execute
   520.000us      20.000us     1.00%  ├─ OPERATOR_CALL  [instr 0]
   500.000us     500.000us    25.00%  │  └─ native_call_add.out  [instr 0]
     1.220ms      20.000us     1.00%  ├─ OPERATOR_CALL  [instr 1]
     1.200ms       1.200ms    60.00%  │  └─ native_call_convolution_wit...  [instr 1]
     1.234us       1.234us     0.06%  └─ native_call_add.out  [instr 2]
)";
  EXPECT_EQ(text.value(), expected);
}

TEST(ProfilerTableTest, EventTreeSortedLimitedAndTopLevel) {
  const EventBlock block = Sample();
  const BlockEventTrees trees = BuildEventTrees({block})[0];
  TreeRenderOptions options;
  options.run = 1;
  options.table.sort_by = SortBy::kTotal;
  options.table.row_limit = 3;
  options.table.time_unit = TimeScale::kMs;
  Result<std::string> text = RenderEventTree(block, trees, options);
  ASSERT_TRUE(text.ok());
  const std::string expected =
      R"(Event tree of block "Execute", run 1 of 2 (run_data[1]), total 3.000ms
       Total          Self    Self %  Event
     3.000ms       0.314ms    10.48%  Method::execute
     2.420ms       0.020ms     0.67%  ├─ OPERATOR_CALL  [instr 1]
     2.400ms       2.400ms    80.00%  │  └─ native_call_convolution_with_a_rather_long_kernel_na...  [instr 1]
... 3 more events (row limit 3)
)";
  EXPECT_EQ(text.value(), expected);

  options.run.reset();  // every run
  options.table = TableOptions{};
  options.table.top_level_only = true;
  text = RenderEventTree(block, trees, options);
  ASSERT_TRUE(text.ok());
  const std::string roots =
      R"(Event tree of block "Execute", run 0 of 2 (run_data[0]), total 2.000ms
       Total          Self    Self %  Event
     2.000ms     258.766us    12.94%  Method::execute

Event tree of block "Execute", run 1 of 2 (run_data[1]), total 3.000ms
       Total          Self    Self %  Event
     3.000ms     314.500us    10.48%  Method::execute
)";
  EXPECT_EQ(text.value(), roots);
}

TEST(ProfilerTableTest, DeepTreesRenderInLinearSpace) {
  // 5000 events each inside the previous one (hostile input).
  std::vector<TimedEvent> events;
  for (uint64_t i = 0; i < 5000; ++i)
    events.push_back({"e", std::nullopt, {{i, 20000 - i}}});
  const EventBlock block = MakeTimedBlock("Execute", events);
  Result<std::string> text =
      RenderEventTree(block, BuildEventTrees({block})[0], {});
  ASSERT_TRUE(text.ok());
  EXPECT_LT(text->size(), 5000u * 200u);
  EXPECT_NE(text->find("[depth 4999] e"), std::string::npos);
}

TEST(ProfilerTableTest, AnalysisViewRendersEveryBlock) {
  EventBlock init =
      MakeTimedBlock("Default", {{"Method::init", 0, {{0, 5000}}, {}, -1}},
                TimeScale::kMs, 1e6);
  AnalysisViewOptions options;
  Result<std::string> text = RenderAnalysisView({init, Sample()}, options);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_NE(
      text->find("Key averages of block \"Default\" (1 run), grouped by name"),
      std::string::npos);
  EXPECT_NE(
      text->find("Key averages of block \"Execute\" (2 runs), grouped by name"),
      std::string::npos);

  options.view = AnalysisView::kTree;
  options.tree_run = 1;
  text = RenderAnalysisView({init, Sample()}, options);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_NE(text->find("Block \"Default\" has no run 1 (1 run)"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("Event tree of block \"Execute\", run 1 of 2"),
            std::string::npos);

  options.view = AnalysisView::kEvents;
  text = RenderAnalysisView({Sample()}, options);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("Events of block \"Execute\" (2 runs)"),
            std::string::npos);
}

TEST(ProfilerTableTest, AnalysisViewRejectsWhatItCannotShow) {
  AnalysisViewOptions options;
  options.group_by = GroupBy::kOpType;
  Result<std::string> text = RenderAnalysisView({Sample()}, options);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().code, ErrorCode::kUsage);
  EXPECT_NE(text.error().message.find("needs an ETRecord"), std::string::npos);

  options.group_by = GroupBy::kModule;
  EXPECT_FALSE(RenderAnalysisView({Sample()}, options).ok());

  options = AnalysisViewOptions{};
  options.table.time_unit = TimeScale::kCycles;
  EXPECT_FALSE(RenderAnalysisView({Sample()}, options).ok());

  options = AnalysisViewOptions{};
  options.view = AnalysisView::kTree;
  options.tree_run = 2;
  text = RenderAnalysisView({Sample()}, options);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message,
            "run 2 does not exist: the largest block has 2 runs");
}

TEST(ProfilerTableTest, CyclesBlocksPrintCycles) {
  const EventBlock block =
      MakeTimedBlock("Execute", {{"op", 0, {{0, 1500}}}}, TimeScale::kCycles);
  const std::string text = Render(KeyAverages(block));
  EXPECT_NE(text.find("1500 cycles"), std::string::npos) << text;
  EXPECT_NE(text.find("Self time total: 1500 cycles"), std::string::npos)
      << text;
}

TEST(ProfilerTableTest, ParsesOptionNames) {
  EXPECT_EQ(ParseSortBy("avg").value(), SortBy::kAvg);
  EXPECT_FALSE(ParseSortBy("cpu_time_total").ok());
  EXPECT_EQ(ParseAnalysisView("key_averages").value(),
            AnalysisView::kKeyAverages);
  EXPECT_EQ(AnalysisViewName(AnalysisView::kTree), "tree");
  EXPECT_EQ(ParseAnalysisView("flame").error().message,
            "unknown --view 'flame' (expected events, tree or key_averages)");
}

}  // namespace
}  // namespace etbench
