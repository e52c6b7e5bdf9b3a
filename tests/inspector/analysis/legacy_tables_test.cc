#include "etbench/inspector/legacy_tables.h"
#include "etbench/reports/legacy_render.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "inspector/analysis/legacy_profile_writer.h"

namespace etbench {
namespace {

using testing::Entry;
using testing::LegacyBlockSpec;
using testing::SampleLegacyBlocks;
using testing::WriteLegacyProfile;

LegacyProfile Sample() { return testing::SampleLegacyProfile(); }

LegacyTables Tables(TimeScale scale) {
  Result<LegacyTables> tables = ComputeLegacyTables(Sample(), scale);
  EXPECT_TRUE(tables.ok()) << tables.error().message;
  return std::move(tables).value();
}

// Expected numbers are the reference tool's (parse_profiler_results.py) on
// the same file, worked out by hand: ns ticks / 1e6, rounded to 4 places.
TEST(LegacyTablesTest, DurationsPerIterationInMilliseconds) {
  const LegacyTables tables = Tables(TimeScale::kNs);
  EXPECT_EQ(tables.unit, TimeScale::kMs);
  ASSERT_EQ(tables.blocks.size(), 2u);
  EXPECT_EQ(tables.blocks[0].name, "default");
  ASSERT_EQ(tables.blocks[0].events.size(), 1u);
  EXPECT_EQ(tables.blocks[0].events[0].durations, (std::vector<double>{0.25}));

  const LegacyBlockTables& execute = tables.blocks[1];
  EXPECT_EQ(execute.iterations, 3u);
  ASSERT_EQ(execute.events.size(), 6u);
  EXPECT_EQ(execute.events[0].name, "Method::execute");
  EXPECT_EQ(execute.events[0].chain_index, -1);
  EXPECT_EQ(execute.events[0].durations,
            (std::vector<double>{1.0, 1.2346, 2.0}));
  EXPECT_EQ(execute.events[1].durations,
            (std::vector<double>{0.31, 0.3433, 1.01}));
  EXPECT_EQ(execute.events[2].durations,
            (std::vector<double>{0.3, 0.3333, 1.0}));
  EXPECT_EQ(execute.events[4].instruction_index, 1u);
  EXPECT_EQ(execute.events[4].durations,
            (std::vector<double>{0.25, 0.2222, 0.5}));
  EXPECT_EQ(execute.events[5].durations,
            (std::vector<double>{0.15, 0.1111, 0.0}));
  EXPECT_EQ(execute.events[0].elapsed_ticks,
            (std::vector<std::optional<uint64_t>>{1000000, 1234567, 2000000}));
  EXPECT_TRUE(tables.warnings.empty());
}

TEST(LegacyTablesTest, ReferenceFrameworkTaxMatchesTheReference) {
  const LegacyTables tables = Tables(TimeScale::kNs);
  EXPECT_FALSE(
      tables.blocks[0].framework_tax.has_value());  // no Method::execute
  ASSERT_TRUE(tables.blocks[1].framework_tax.has_value());
  const LegacyFrameworkTax& tax = *tables.blocks[1].framework_tax;
  EXPECT_EQ(tax.reference_execution_time,
            (std::vector<double>{1.0, 1.2346, 2.0}));
  // 0.3 + 0.25 + 0.15 in double is 0.7000000000000001, as in Python.
  EXPECT_EQ(tax.reference_kernel_and_delegate_time,
            (std::vector<double>{0.3 + 0.25 + 0.15, 0.6666, 1.5}));
  EXPECT_EQ(tax.reference_kernel_and_delegate_time[0], 0.7000000000000001);
  // round((1.2346 − 0.6666) / 1.2346, 4) × 100 = 0.4601 × 100.
  EXPECT_EQ(tax.reference_framework_tax_percent,
            (std::vector<double>{0.3 * 100, 0.4601 * 100, 0.25 * 100}));
}

TEST(LegacyTablesTest, FrameworkTaxIsTickExact) {
  const LegacyTables tables = Tables(TimeScale::kNs);
  const LegacyFrameworkTax& tax = *tables.blocks[1].framework_tax;
  // From the raw ticks: (1234567 − 666666) / 1234567 = 46.00%, where the
  // reference's rounded milliseconds give 46.01%.
  ASSERT_EQ(tax.framework_tax_percent.size(), 3u);
  EXPECT_DOUBLE_EQ(tax.framework_tax_percent[0], 30.0);
  EXPECT_DOUBLE_EQ(tax.framework_tax_percent[1],
                   (1234567.0 - 666666.0) / 1234567.0 * 100);
  EXPECT_NEAR(tax.framework_tax_percent[1], 46.0000, 0.0001);
  EXPECT_DOUBLE_EQ(tax.framework_tax_percent[2], 25.0);
  // The unit of the ticks does not change it.
  EXPECT_EQ(Tables(TimeScale::kCycles).blocks[1].framework_tax->framework_tax_percent,
            tax.framework_tax_percent);
}

TEST(LegacyTablesTest, TickExactTaxCountsANestedDelegateScopeOnce) {
  // DELEGATE_CALL ⊃ delegate_execute in instruction 0: only the outer
  // scope counts; the reference counts delegate_execute and native_call.
  Result<LegacyProfile> profile = ParseLegacyProfile(WriteLegacyProfile(
      {testing::DelegateIteration(0, 1000000, 900000, 50000),
       testing::DelegateIteration(2000000, 2000000, 1800000, 100000)}));
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  Result<LegacyTables> tables = ComputeLegacyTables(profile.value());
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  const LegacyFrameworkTax& tax = *tables->blocks[0].framework_tax;
  // (1000000 − (904000 + 50000)) / 1000000, (2000000 − (1804000 + 100000)) /
  // 2000000.
  EXPECT_DOUBLE_EQ(tax.framework_tax_percent[0], 4.6);
  EXPECT_DOUBLE_EQ(tax.framework_tax_percent[1], 4.8);
  EXPECT_EQ(tax.reference_framework_tax_percent,
            (std::vector<double>{0.05 * 100, 0.05 * 100}));
}

TEST(LegacyTablesTest, UnfinishedScopesAreLeftOutWithAWarning) {
  // Upstream's begin_profiling leaves end_time 0 until the scope ends: a
  // scope around the dump is still open in the last iteration, one that
  // began after 2^32 ns too.
  std::vector<LegacyBlockSpec> blocks = {
      testing::ExecuteIteration(10000000, 1000000, 300000, 250000, 150000),
      testing::ExecuteIteration(20000000, 1234567, 333333, 222222, 111111),
      testing::ExecuteIteration(0x100000000ull, 2000000, 1000000, 500000, 0)};
  for (LegacyBlockSpec& b : blocks) {
    b.entries.insert(b.entries.begin(),
                     Entry("run model", -1, 0, b.entries[0].start_time - 500,
                           b.entries[0].end_time + 500));
    b = testing::WithUpstreamCapacities(std::move(b));
  }
  blocks[2].entries[0].end_time = 0;  // "run model" still open
  blocks[2].entries[1].end_time = 0;  // and Method::execute
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(blocks), "prof_result.bin");
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  Result<LegacyTables> tables = ComputeLegacyTables(profile.value());
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  const LegacyBlockTables& execute = tables->blocks[0];
  EXPECT_EQ(execute.events[0].elapsed_ticks,
            (std::vector<std::optional<uint64_t>>{1001000, 1235567,
                                                  std::nullopt}));
  EXPECT_EQ(execute.events[0].durations[1], 1.2356);
  EXPECT_TRUE(std::isnan(execute.events[0].durations[2]));
  EXPECT_TRUE(std::isnan(execute.events[1].durations[2]));
  EXPECT_EQ(execute.events[3].durations[2], 1.0);  // finished ones stay
  const LegacyFrameworkTax& tax = *execute.framework_tax;
  EXPECT_DOUBLE_EQ(tax.framework_tax_percent[0], 30.0);
  EXPECT_TRUE(std::isnan(tax.framework_tax_percent[2]));  // no execute
  EXPECT_TRUE(std::isnan(tax.reference_framework_tax_percent[2]));
  EXPECT_EQ(tables->warnings,
            (std::vector<std::string>{
                "prof_result.bin: block 'Execute', profile entry 0 'run "
                "model': unfinished in iteration 2 of 3 (end_time 0: the "
                "scope was still open when the profile was dumped); left out "
                "of durations and framework tax",
                "prof_result.bin: block 'Execute', profile entry 1 "
                "'Method::execute': unfinished in iteration 2 of 3 (end_time "
                "0: the scope was still open when the profile was dumped); "
                "left out of durations and framework tax"}));

  const std::string text = RenderLegacyTables(tables.value());
  EXPECT_NE(text.find("| run model           |    -1 |     0 |       1.001 |"
                      "      1.2356 |  unfinished |"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("4294"), std::string::npos) << text;
  const nlohmann::json json =
      nlohmann::json::parse(LegacyTablesToJson(tables.value()));
  EXPECT_TRUE(json["blocks"][0]["events"][0]["durations"][2].is_null());
  EXPECT_TRUE(json["blocks"][0]["events"][0]["elapsed_ticks"][2].is_null());
  EXPECT_EQ(json["warnings"].size(), 2u);
  EXPECT_NE(LegacyTablesToCsv(tables.value())
                .find("profile,Execute,run model,-1,0,2,,ms\n"),
            std::string::npos);
}

TEST(LegacyTablesTest, MemoryPerAllocator) {
  const LegacyTables tables = Tables(TimeScale::kNs);
  ASSERT_EQ(tables.blocks[0].memory.size(), 2u);
  EXPECT_EQ(tables.blocks[0].memory[0].allocator_name, "planned");
  EXPECT_EQ(tables.blocks[0].memory[0].total_bytes, 1536u);
  EXPECT_EQ(tables.blocks[0].memory[1].allocator_name, "runtime");
  EXPECT_EQ(tables.blocks[0].memory[1].total_bytes, 64u);
  EXPECT_TRUE(tables.blocks[1].memory.empty());
}

TEST(LegacyTablesTest, OtherTimeScales) {
  const LegacyTables us = Tables(TimeScale::kUs);  // ticks / 1e3, rounded
  EXPECT_EQ(us.blocks[1].events[0].durations,
            (std::vector<double>{1000.0, 1234.567, 2000.0}));
  EXPECT_EQ(us.blocks[1].framework_tax->reference_framework_tax_percent,
            (std::vector<double>{0.3 * 100, 0.46 * 100, 0.25 * 100}));
  const LegacyTables cycles = Tables(TimeScale::kCycles);  // ticks as they are
  EXPECT_EQ(cycles.unit, TimeScale::kCycles);
  EXPECT_EQ(cycles.blocks[1].events[0].durations,
            (std::vector<double>{1000000, 1234567, 2000000}));
  EXPECT_EQ(cycles.blocks[1].framework_tax->reference_kernel_and_delegate_time,
            (std::vector<double>{700000, 666666, 1500000}));
  const Result<LegacyTables> seconds =
      ComputeLegacyTables(Sample(), TimeScale::kS);
  ASSERT_FALSE(seconds.ok());
  EXPECT_NE(seconds.error().message.find("ns, us, ms or cycles"),
            std::string::npos);
}

TEST(LegacyTablesTest, FrameworkTaxOfAZeroLengthExecuteIsNotANumber) {
  LegacyBlockSpec block;
  block.name = "Execute";
  block.entries = {Entry("Method::execute", -1, 0, 5, 5),
                   Entry("native_call_x", 0, 0, 5, 5)};
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile({block}));
  ASSERT_TRUE(profile.ok());
  Result<LegacyTables> tables = ComputeLegacyTables(profile.value());
  ASSERT_TRUE(tables.ok());
  EXPECT_TRUE(
      std::isnan(tables->blocks[0].framework_tax->framework_tax_percent[0]));
  EXPECT_TRUE(std::isnan(
      tables->blocks[0].framework_tax->reference_framework_tax_percent[0]));
  const std::string text = RenderLegacyTables(tables.value());
  const std::size_t row = text.find("| Framework tax (%)");
  ASSERT_NE(row, std::string::npos) << text;
  EXPECT_EQ(text.substr(text.find('\n', row) - 5, 5), "n/a |") << text;
  EXPECT_NE(LegacyTablesToJson(tables.value())
                .find("\"framework_tax_percent\": [\n"
                      "          null\n"),
            std::string::npos)
      << LegacyTablesToJson(tables.value());
}

TEST(LegacyTablesTest, BackwardsTimestampsAreAnErrorUnlessA32BitWrap) {
  LegacyBlockSpec block;
  block.name = "Execute";
  block.entries = {Entry("wrapped", 0, 0, 0xFFFFFF00u, 0x100u),
                   Entry("broken", 0, 1, 0x100000000ull, 5)};
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile({block}), "p.bin");
  ASSERT_TRUE(profile.ok());
  Result<LegacyTables> tables =
      ComputeLegacyTables(profile.value(), TimeScale::kCycles);
  ASSERT_FALSE(tables.ok());
  EXPECT_EQ(tables.error().message,
            "p.bin: block 'Execute' iteration 0, profile entry 1 'broken': "
            "ends at 5 before it "
            "starts at 4294967296 (not a 32-bit counter wrap)");
  profile->blocks[0].iterations[0].entries.pop_back();
  tables = ComputeLegacyTables(profile.value(), TimeScale::kCycles);
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  EXPECT_EQ(tables->blocks[0].events[0].durations,
            (std::vector<double>{0x200}));
}

TEST(LegacyTablesTest, RendersTheThreeTables) {
  // Durations print as the reference prints them (Python floats), the
  // framework tax with two decimals (tick-exact first, the reference's
  // figures labelled), memory in bytes and B/KB/MB/GB.
  const std::string expected = R"(+--------------------------------------------+
|         default (durations in ms)          |
+--------------+-------+-------+-------------+
| Name         | Chain | Instr | Iteration 0 |
+--------------+-------+-------+-------------+
| Method::init |    -1 |     0 |        0.25 |
+--------------+-------+-------+-------------+

+-------------------------------------------------------------------------------+
|                           Execute (durations in ms)                           |
+---------------------+-------+-------+-------------+-------------+-------------+
| Name                | Chain | Instr | Iteration 0 | Iteration 1 | Iteration 2 |
+---------------------+-------+-------+-------------+-------------+-------------+
| Method::execute     |    -1 |     0 |         1.0 |      1.2346 |         2.0 |
| OPERATOR_CALL       |     0 |     0 |        0.31 |      0.3433 |        1.01 |
| native_call_add.out |     0 |     0 |         0.3 |      0.3333 |         1.0 |
| OPERATOR_CALL       |     0 |     1 |        0.26 |      0.2322 |        0.51 |
| native_call_mul.out |     0 |     1 |        0.25 |      0.2222 |         0.5 |
| delegate_execute    |     0 |     2 |        0.15 |      0.1111 |         0.0 |
+---------------------+-------+-------+-------------+-------------+-------------+

+---------------------------------------------------------------------------------------------------+
|                                Execute framework tax calculations                                 |
+--------------------------------------------------+--------------------+-------------+-------------+
|                                                  |        Iteration 0 | Iteration 1 | Iteration 2 |
+--------------------------------------------------+--------------------+-------------+-------------+
| Framework tax (%), tick-exact                    |             30.00% |      46.00% |      25.00% |
| Reference: model execution time (ms)             |                1.0 |      1.2346 |         2.0 |
| Reference: time in kernels and delegates (ms)    | 0.7000000000000001 |      0.6666 |         1.5 |
| Reference: framework tax (%), 4-decimal rounding |             30.00% |      46.01% |      25.00% |
+--------------------------------------------------+--------------------+-------------+-------------+

+-------------------------------------------------------------------+
|                    default memory allocations                     |
+----------------+----------------------------------------+---------+
| Allocator name | Total size of allocations done (bytes) |    Size |
+----------------+----------------------------------------+---------+
| planned        |                                   1536 | 1.50 KB |
| runtime        |                                     64 |    64 B |
+----------------+----------------------------------------+---------+
)";
  const std::string text = RenderLegacyTables(Tables(TimeScale::kNs));
  EXPECT_EQ(text, expected);
}

TEST(LegacyTablesTest, ExportsJson) {
  const nlohmann::json json =
      nlohmann::json::parse(LegacyTablesToJson(Tables(TimeScale::kNs)));
  EXPECT_EQ(json["source"], "prof_result.bin");
  EXPECT_EQ(json["time_scale"], "ns");
  EXPECT_EQ(json["unit"], "ms");
  ASSERT_EQ(json["blocks"].size(), 2u);
  const nlohmann::json& execute = json["blocks"][1];
  EXPECT_EQ(execute["name"], "Execute");
  EXPECT_EQ(execute["iterations"], 3);
  EXPECT_EQ(execute["events"][4]["name"], "native_call_mul.out");
  EXPECT_EQ(execute["events"][4]["instruction"], 1);
  EXPECT_EQ(execute["events"][4]["durations"],
            nlohmann::json::parse("[0.25, 0.2222, 0.5]"));
  EXPECT_EQ(execute["events"][4]["elapsed_ticks"],
            nlohmann::json::parse("[250000, 222222, 500000]"));
  EXPECT_EQ(execute["framework_tax"]["reference_kernel_and_delegate_time"][0]
                .get<double>(),
            0.7000000000000001);
  EXPECT_EQ(execute["framework_tax"]["reference_framework_tax_percent"][1]
                .get<double>(),
            0.4601 * 100);
  EXPECT_NEAR(execute["framework_tax"]["framework_tax_percent"][1].get<double>(),
              46.0, 0.0001);
  EXPECT_TRUE(json["warnings"].empty());
  EXPECT_TRUE(json["blocks"][0]["framework_tax"].is_null());
  EXPECT_EQ(json["blocks"][0]["memory"][0]["allocator"], "planned");
  EXPECT_EQ(json["blocks"][0]["memory"][0]["total_bytes"], 1536);
  // Ticks already in the reported unit stay integers, as in the reference.
  const nlohmann::json cycles =
      nlohmann::json::parse(LegacyTablesToJson(Tables(TimeScale::kCycles)));
  EXPECT_TRUE(
      cycles["blocks"][1]["events"][0]["durations"][1].is_number_integer());
  EXPECT_EQ(cycles["blocks"][1]["events"][0]["durations"][1], 1234567);
}

TEST(LegacyTablesTest, ExportsCsvInLongFormat) {
  const std::string csv = LegacyTablesToCsv(Tables(TimeScale::kNs));
  const std::string head =
      "table,block,name,chain,instruction,iteration,value,unit\n"
      "profile,default,Method::init,-1,0,0,0.25,ms\n"
      "memory,default,planned,,,,1536,bytes\n"
      "memory,default,runtime,,,,64,bytes\n"
      "profile,Execute,Method::execute,-1,0,0,1.0,ms\n"
      "profile,Execute,Method::execute,-1,0,1,1.2346,ms\n";
  EXPECT_EQ(csv.substr(0, head.size()), head);
  EXPECT_NE(
      csv.find("framework_tax,Execute,framework_tax_percent,,,0,30.0,%\n"
               "framework_tax,Execute,framework_tax_percent,,,1,"
               "46.00001458001064,%\n"),
      std::string::npos)
      << csv;
  EXPECT_NE(
      csv.find("framework_tax,Execute,reference_kernel_and_delegate_time,,,0,"
               "0.7000000000000001,ms\n"),
      std::string::npos)
      << csv;
  EXPECT_NE(csv.find("framework_tax,Execute,reference_framework_tax_percent,,,"
                     "1,46.01,%\n"),
            std::string::npos)
      << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 1 + 2 + 18 + 12);
}

TEST(LegacyTablesTest, CsvQuotesNamesWithCommas) {
  LegacyBlockSpec block;
  block.name = "Exec,ute";
  block.entries = {Entry("say \"hi\"", 0, 0, 0, 2000000)};
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile({block}));
  ASSERT_TRUE(profile.ok());
  const std::string csv =
      LegacyTablesToCsv(ComputeLegacyTables(profile.value()).value());
  EXPECT_NE(csv.find("profile,\"Exec,ute\",\"say \"\"hi\"\"\",0,0,0,2.0,ms\n"),
            std::string::npos)
      << csv;
}

}  // namespace
}  // namespace etbench
