#include "etbench/reports/json_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report_test_data.h"

namespace etbench::reports {
namespace {

// Every perf-data object of the results JSON (events and framework tax).
std::vector<nlohmann::json> PerfObjects(const nlohmann::json& root) {
  std::vector<nlohmann::json> out;
  for (const auto& model : root.at("models")) {
    if (!model.contains("blocks")) continue;
    for (const auto& block : model.at("blocks")) {
      for (const auto& event : block.at("events")) out.push_back(event.at("perf_data"));
      if (!block.at("framework_tax").is_null()) out.push_back(block.at("framework_tax"));
    }
  }
  return out;
}

TEST(JsonReportTest, ResultsKeepTheSummariesAndLeaveTheRawSamplesOut) {
  const results::RunResults results = testing::SampleResults();
  const auto summary = nlohmann::json::parse(RenderJsonResults(results));
  const std::vector<nlohmann::json> perf = PerfObjects(summary);
  ASSERT_FALSE(perf.empty());
  for (const auto& p : perf) {
    EXPECT_TRUE(p.at("raw").empty()) << p.dump();
    EXPECT_GT(p.at("count").get<int>(), 0) << p.dump();
    EXPECT_TRUE(p.contains("p50")) << p.dump();
  }
}

TEST(JsonReportTest, RawSamplesOnRequest) {
  const results::RunResults results = testing::SampleResults();
  const std::string full = RenderJsonResults(results, /*raw_samples=*/true);
  for (const auto& p : PerfObjects(nlohmann::json::parse(full))) {
    EXPECT_EQ(p.at("raw").size(), p.at("count").get<std::size_t>()) << p.dump();
  }
  std::string expected = results::ResultsToJson(results);
  if (expected.back() != '\n') expected += '\n';
  EXPECT_EQ(full, expected) << "with the samples: the results file's own JSON";
}

}  // namespace
}  // namespace etbench::reports
