// PyTorch OSS benchmark database v3 records (reports/pytorch_v3.h), checked
// field by field against the records upstream ExecuTorch's
// .github/scripts/extract_benchmark_results.py `transform` builds (pytorch/
// executorch at cff6f4dd32e630945b7188512c1f2b4f102b05ad): the same keys
// in every object, with the same JSON types.
#include "etbench/reports/pytorch_v3.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report_test_data.h"

namespace etbench::reports {
namespace {

using Json = nlohmann::json;

// What upstream's transform("android", results, {}, "Samsung Galaxy S22")
// returns for one benchmark_results.json entry of the app (printed by
// running that function at the pinned commit).
const char kUpstreamRecord[] = R"json({
  "benchmark": {"name": "ExecuTorch", "mode": "inference",
                "extra_info": {"app_type": "android", "benchmark_config": "{}",
                               "job_conclusion": "SUCCESS", "job_arn": "", "instance_arn": ""}},
  "model": {"name": "mv3", "type": "OSS model", "backend": "xnnpack"},
  "metric": {"name": "avg_inference_latency(ms)", "benchmark_values": [12.5],
             "target_value": 0.0, "extra_info": {"method": ""}},
  "runners": [{"name": "Samsung Galaxy S22", "type": "Android 14",
               "avail_mem_in_gb": 0, "total_mem_in_gb": 0}]
})json";

// Every key of `upstream` is in `ours` with the same JSON type, recursively;
// `ours` has no other keys except inside the "extra_info" objects (free-form
// in the schema, where etbench adds its own).
void ExpectSameShape(const Json& upstream, const Json& ours, const std::string& path) {
  ASSERT_EQ(upstream.type_name(), std::string(ours.type_name())) << path;
  if (upstream.is_object()) {
    for (const auto& [key, value] : upstream.items()) {
      ASSERT_TRUE(ours.contains(key)) << path << "." << key << " missing";
      ExpectSameShape(value, ours.at(key), path + "." + key);
    }
    if (path.size() < 11 || path.compare(path.size() - 11, 11, ".extra_info") != 0) {
      for (const auto& [key, value] : ours.items()) {
        EXPECT_TRUE(upstream.contains(key)) << path << "." << key << " is not in upstream's record";
      }
    }
  } else if (upstream.is_array() && !upstream.empty()) {
    ASSERT_EQ(ours.size(), upstream.size()) << path;
    for (std::size_t i = 0; i < upstream.size(); ++i) {
      ExpectSameShape(upstream[i], ours[i], path + "[" + std::to_string(i) + "]");
    }
  }
}

// nlohmann reads 0.0 as a float and 0 as an integer; the schema has numbers.
Json NumbersAsFloats(Json j) {
  if (j.is_number()) return Json(j.get<double>());
  if (j.is_structured()) {
    for (auto& v : j) v = NumbersAsFloats(v);
  }
  return j;
}

TEST(PytorchV3Test, RunRecordsHaveUpstreamsFieldsAndTypes) {
  const Json upstream = NumbersAsFloats(Json::parse(kUpstreamRecord));
  const Json records = NumbersAsFloats(Json::parse(RunToPytorchV3(testing::SampleResults())));
  ASSERT_TRUE(records.is_array());
  ASSERT_FALSE(records.empty());
  for (const Json& record : records) ExpectSameShape(upstream, record, "$");
  // The app's names for the method-level events, in ms, beside etbench's.
  bool found_execute = false;
  for (const Json& record : records) {
    if (record["metric"]["name"] == "avg_inference_latency(ms)") {
      found_execute = true;
      EXPECT_EQ(record["metric"]["extra_info"]["kind"], "end_to_end");
      EXPECT_GT(record["metric"]["benchmark_values"][0].get<double>(), 0);
    }
  }
  EXPECT_TRUE(found_execute);
  const Json& extra = records[0]["benchmark"]["extra_info"];
  EXPECT_EQ(extra["git_commit"], testing::SampleResults().metadata.git_commit);
  EXPECT_EQ(extra["branch"], testing::SampleResults().metadata.branch);
  EXPECT_EQ(records[0]["runners"][0]["name"], testing::SampleResults().metadata.device);
  // The benchmark app's memory figures (labels of its runs) as upstream's numbers.
  results::RunResults with_app = testing::SampleResults();
  with_app.metadata.labels["app.total_mem"] = "7823466496";
  const Json app = Json::parse(RunToPytorchV3(with_app));
  EXPECT_EQ(app[0]["runners"][0]["total_mem_in_gb"], 7823466496LL);
  EXPECT_EQ(app[0]["runners"][0]["avail_mem_in_gb"], 0);
  // benchmark_config is a JSON document in a string, as upstream's json.dumps.
  EXPECT_EQ(Json::parse(extra["benchmark_config"].get<std::string>())["suite"],
            testing::SampleResults().metadata.suite);
}

TEST(PytorchV3Test, NamesThatAreNotUtf8BecomeReplacementCharacters) {
  // Device and commit come from a device's labels and the command line:
  // the records stay valid JSON with U+FFFD for the bad bytes.
  results::RunResults run = testing::SampleResults();
  run.metadata.device = "phone\xff";
  run.metadata.git_commit = "\xc3";
  const Json records = Json::parse(RunToPytorchV3(run));
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records[0]["runners"][0]["name"], "phone\xef\xbf\xbd");
  EXPECT_EQ(records[0]["benchmark"]["extra_info"]["git_commit"], "\xef\xbf\xbd");
}

TEST(PytorchV3Test, ComparisonRecordsCarryTheVerdictAndTheBaselineAsTarget) {
  const Comparison comparison = testing::SampleComparison();
  const Json upstream = NumbersAsFloats(Json::parse(kUpstreamRecord));
  const Json records = NumbersAsFloats(Json::parse(ComparisonToPytorchV3(comparison)));
  ASSERT_EQ(records.size(), comparison.rows.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    ExpectSameShape(upstream, records[i], "$");
    const MetricComparison& row = comparison.rows[i];
    const Json& metric = records[i]["metric"];
    EXPECT_EQ(metric["extra_info"]["verdict"], VerdictName(row.verdict));
    EXPECT_EQ(metric["extra_info"]["n_candidate"].get<double>(), row.n_candidate);
    if (row.unit == "ms") {
      EXPECT_DOUBLE_EQ(metric["benchmark_values"][0].get<double>(), row.candidate_value);
      EXPECT_DOUBLE_EQ(metric["target_value"].get<double>(), row.baseline_value);
    }
  }
}

TEST(PytorchV3Test, NamesFollowTheAppForMethodLevelEvents) {
  MetricKey execute{"m", "Execute", MetricKind::kEvent, "Method::execute", std::nullopt, "", 0};
  EXPECT_EQ(PytorchV3MetricName(execute, "avg", "ms"), "avg_inference_latency(ms)");
  MetricKey load{"m", "Default", MetricKind::kEvent, "Program::load_method", std::nullopt, "", 0};
  EXPECT_EQ(PytorchV3MetricName(load, "avg", "ms"), "model_load_time(ms)");
  EXPECT_EQ(PytorchV3MetricName(load, "p50", "ms"), "p50_model_load_time(ms)");
  MetricKey op{"m", "Execute", MetricKind::kEvent, "native_call_add.out", 3, "", 0};
  EXPECT_THAT(PytorchV3MetricName(op, "p50", "ms"),
              ::testing::StartsWith("Execute/native_call_add.out"));
  EXPECT_THAT(PytorchV3MetricName(op, "p50", "ms"), ::testing::EndsWith(" p50(ms)"));
}

}  // namespace
}  // namespace etbench::reports
