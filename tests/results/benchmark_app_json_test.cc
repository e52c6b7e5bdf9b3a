// The ExecuTorch benchmark app's benchmark_results.json
// (results/benchmark_app_json.h).
#include "etbench/results/benchmark_app_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace etbench::results {
namespace {

using ::testing::HasSubstr;

// As Gson writes the app's List<BenchmarkMetric> (ModelRunner.kt's metrics
// in its order; MemoryInfo() unqueried, so the memory fields are 0).
const char kAppResults[] =
    R"js([{"benchmarkModel":{"name":"mv3","backend":"xnnpack","quantization":"fp32"},)js"
    R"js("metric":"avg_inference_latency(ms)","actualValue":12.5,"targetValue":0.0,)js"
    R"js("deviceInfo":{"device":"samsung","arch":"SM-S901U1","os":"Android 14","totalMem":0,"availMem":0}},)js"
    R"js({"benchmarkModel":{"name":"mv3","backend":"xnnpack","quantization":"fp32"},)js"
    R"js("metric":"trimmean_inference_latency(ms)","actualValue":12.25,"targetValue":0.0,)js"
    R"js("deviceInfo":{"device":"samsung","arch":"SM-S901U1","os":"Android 14","totalMem":0,"availMem":0}},)js"
    R"js({"benchmarkModel":{"name":"mv3","backend":"xnnpack","quantization":"fp32"},)js"
    R"js("metric":"model_load_time(ms)","actualValue":85.0,"targetValue":0.0,)js"
    R"js("deviceInfo":{"device":"samsung","arch":"SM-S901U1","os":"Android 14","totalMem":0,"availMem":0}},)js"
    R"js({"benchmarkModel":{"name":"mv3","backend":"xnnpack","quantization":"fp32"},)js"
    R"js("metric":"load_status","actualValue":0.0,"targetValue":0.0,)js"
    R"js("deviceInfo":{"device":"samsung","arch":"SM-S901U1","os":"Android 14","totalMem":0,"availMem":0}},)js"
    R"js({"benchmarkModel":{"name":"mv3","backend":"xnnpack","quantization":"fp32"},)js"
    R"js("metric":"ram_pss_usage(mb)","actualValue":40.5,"targetValue":0.0,)js"
    R"js("deviceInfo":{"device":"samsung","arch":"SM-S901U1","os":"Android 14","totalMem":0,"availMem":0}}])js";

TEST(ResultsBenchmarkAppJsonTest, TimesBecomeSamplesAndTheDeviceLabels) {
  auto app = ParseBenchmarkAppResults(kAppResults, "r.json");
  ASSERT_TRUE(app.ok()) << app.error().message;
  ASSERT_EQ(app->times.size(), 3u);  // ram_pss_usage(mb) is not a time
  EXPECT_EQ(app->times[0].name, "avg_inference_latency(ms)");
  EXPECT_EQ(app->times[0].value, 12.5);
  EXPECT_EQ(app->times[0].time_unit, "ms");
  EXPECT_EQ(app->times[2].name, "model_load_time(ms)");
  ASSERT_TRUE(app->load_status.has_value());
  EXPECT_EQ(*app->load_status, 0);
  EXPECT_EQ(app->labels.at("app.device"), "samsung");
  EXPECT_EQ(app->labels.at("app.arch"), "SM-S901U1");
  EXPECT_EQ(app->labels.at("app.os"), "Android 14");
  EXPECT_EQ(app->labels.at("app.total_mem"), "0");
  EXPECT_EQ(BenchmarkAppResultsPath("/o/rep0.etdp"), "/o/rep0.etdp.benchmark_results.json");
}

TEST(ResultsBenchmarkAppJsonTest, AFailedLoadReportsOnlyItsStatus) {
  auto app = ParseBenchmarkAppResults(
      R"js([{"benchmarkModel":{"name":"m","backend":"","quantization":""},"metric":"model_load_time(ms)",)js"
      R"js("actualValue":3.5,"targetValue":0.0,"deviceInfo":{}},)js"
      R"js({"benchmarkModel":{"name":"m","backend":"","quantization":""},"metric":"load_status",)js"
      R"js("actualValue":35.0,"targetValue":0.0,"deviceInfo":{}}])js",
      "r.json");
  ASSERT_TRUE(app.ok()) << app.error().message;
  EXPECT_EQ(*app->load_status, 35);
}

TEST(ResultsBenchmarkAppJsonTest, MalformedResultsAreOneLineErrors) {
  EXPECT_THAT(ParseBenchmarkAppResults("{", "r.json").error().message,
              HasSubstr("r.json: not the benchmark app's results"));
  EXPECT_EQ(ParseBenchmarkAppResults("{}", "r.json").error().message,
            "r.json: not the benchmark app's results (not a JSON list)");
  EXPECT_EQ(ParseBenchmarkAppResults(R"js([{"metric": "x"}])js", "r.json").error().message,
            "r.json: [0]: no string \"metric\" and numeric \"actualValue\"");
  EXPECT_THAT(ParseBenchmarkAppResults(R"js([{"metric": "load_status", "actualValue": 0.5}])js", "r.json")
                  .error()
                  .message,
              HasSubstr("is not an error code"));
}

}  // namespace
}  // namespace etbench::results
