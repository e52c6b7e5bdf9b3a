#include "etbench/compare/baseline_store.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "etbench/compare/metric_set_json.h"
#include "support/compare_test_util.h"
#include "support/memory_disk.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using etbench::testing::TempDir;

Baseline Sample() {
  Baseline b;
  b.name = "nightly";
  b.created = "2025-01-02T03:04:05Z";
  b.metrics.context = {{"suite", "default"}, {"device", "host"}, {"time_source", "ns"}};
  Metric m = testing::EventMetric("native_call_convolution.out", 3, {0.1, 1.0 / 3, 2e-9});
  m.op_types = {"aten.convolution.default"};
  m.delegate_backend_name = "XnnpackBackend";
  m.group_sizes = {2, 1};
  m.session_sizes = {1, 1};
  b.metrics.metrics.push_back(m);
  Metric tax;
  tax.key = {"toy", "Execute", MetricKind::kFrameworkTax, "framework_tax", {}, "", 0};
  tax.unit = "percent";
  tax.end_to_end = true;
  tax.samples = {0.5, 0.51};
  b.metrics.metrics.push_back(tax);
  return b;
}

TEST(BaselineStoreTest, DefaultPathIsPerDeviceAndSuite) {
  EXPECT_EQ(DefaultBaselinePath("/r", "pixel 8", "default"), "/r/baselines/pixel 8/default.json");
  EXPECT_EQ(DefaultBaselinePath("", "a/b", ""), "./baselines/a_b/default.json");
  EXPECT_EQ(DefaultBaselinePath("/r", "", "s"), "/r/baselines/unknown-device/s.json");
}

TEST(BaselineStoreTest, RoundTripsEverySampleExactly) {
  TempDir dir;
  const std::string path = dir.File("baselines/host/default.json");
  const Baseline original = Sample();
  ASSERT_TRUE(SaveBaseline(path, original, false).ok());
  auto loaded = LoadBaseline(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->name, "nightly");
  EXPECT_EQ(loaded->created, "2025-01-02T03:04:05Z");
  EXPECT_EQ(loaded->metrics.context, original.metrics.context);
  ASSERT_EQ(loaded->metrics.metrics.size(), 2u);
  const Metric& m = loaded->metrics.metrics[0];
  EXPECT_EQ(m.key, original.metrics.metrics[0].key);
  EXPECT_EQ(m.samples, original.metrics.metrics[0].samples);
  EXPECT_EQ(m.op_types, original.metrics.metrics[0].op_types);
  EXPECT_EQ(m.delegate_backend_name, original.metrics.metrics[0].delegate_backend_name);
  EXPECT_EQ(m.group_sizes, (std::vector<uint64_t>{2, 1}));
  EXPECT_EQ(m.session_sizes, (std::vector<uint64_t>{1, 1}));
  EXPECT_TRUE(loaded->metrics.metrics[1].group_sizes.empty());
  EXPECT_TRUE(m.is_kernel_or_delegate_call);
  EXPECT_EQ(loaded->metrics.metrics[1].key.kind, MetricKind::kFrameworkTax);
  EXPECT_FALSE(loaded->metrics.metrics[1].key.instruction_id.has_value());
}

TEST(BaselineStoreTest, SavesAndLoadsThroughTheDiskItIsGiven) {
  // The baseline's directories, its atomic write and the read all go to the
  // injected disk: nothing touches the filesystem.
  testing::MemoryDisk disk;
  const std::string path = "/nowhere/baselines/host/default.json";
  ASSERT_TRUE(SaveBaseline(path, Sample(), /*force=*/false, disk).ok());
  EXPECT_TRUE(disk.HasDirectory("/nowhere/baselines/host"));
  EXPECT_EQ(disk.Files(), std::vector<std::string>{path});
  EXPECT_FALSE(std::filesystem::exists("/nowhere"));
  EXPECT_NE(disk.Text(path).find("\"format\": \"etbench-baseline\""), std::string::npos);
  auto loaded = LoadBaseline(path, disk);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->name, "nightly");
  EXPECT_EQ(loaded->metrics.metrics[0].samples, Sample().metrics.metrics[0].samples);
  // The same refusal as on a real disk, and --force replaces.
  Status again = SaveBaseline(path, Sample(), /*force=*/false, disk);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message,
            path + ": a baseline already exists (use --force to replace it)");
  Baseline other = Sample();
  other.name = "second";
  ASSERT_TRUE(SaveBaseline(path, other, /*force=*/true, disk).ok());
  EXPECT_EQ(LoadBaseline(path, disk)->name, "second");
  auto missing = LoadBaseline("/nowhere/other.json", disk);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "/nowhere/other.json: cannot open (No such file or directory)");
}

TEST(BaselineStoreTest, ADirectoryThatCannotBeMadeNamesTheBaseline) {
  testing::MemoryDisk disk;
  disk.AddFile("/r/baselines", "a file where a directory should be");
  Status s = SaveBaseline("/r/baselines/host/s.json", Sample(), /*force=*/false, disk);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "/r/baselines/host/s.json: cannot create directory: Not a directory");
}

TEST(BaselineStoreTest, RefusesToOverwriteWithoutForce) {
  TempDir dir;
  const std::string path = dir.File("b.json");
  ASSERT_TRUE(SaveBaseline(path, Sample(), false).ok());
  Baseline other = Sample();
  other.name = "second";
  auto s = SaveBaseline(path, other, false);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, path + ": a baseline already exists (use --force to replace it)");
  EXPECT_EQ(LoadBaseline(path)->name, "nightly");
  ASSERT_TRUE(SaveBaseline(path, other, true).ok());
  EXPECT_EQ(LoadBaseline(path)->name, "second");
}

TEST(BaselineStoreTest, RejectsOtherSchemaVersionsAndNonBaselines) {
  TempDir dir;
  const std::string path = dir.File("b.json");
  testing::WriteTextFile(path, R"({"schema_version": 2, "format": "etbench-baseline"})");
  auto b = LoadBaseline(path);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message, path +
                                   ": baseline has schema_version 2; this etbench reads 1 "
                                   "(re-create it with `etbench baseline save`)");
  testing::WriteTextFile(path, R"({"metrics": []})");
  EXPECT_FALSE(LoadBaseline(path).ok());
  testing::WriteTextFile(path, "not json");
  EXPECT_FALSE(LoadBaseline(path).ok());
  EXPECT_EQ(LoadBaseline(dir.File("missing.json")).error().code, ErrorCode::kIo);
  testing::WriteTextFile(
      path, R"({"schema_version": 1, "format": "etbench-baseline", "metrics": [{"model": "m"}]})");
  EXPECT_EQ(LoadBaseline(path).error().message, path + ": metrics[0]: missing 'kind'");
  testing::WriteTextFile(path, R"({"schema_version": 1, "format": "etbench-baseline", "metrics": [
      {"model": "m", "kind": "event", "name": "x", "unit": "ms", "samples": [1, 2, 3],
       "group_sizes": [2, 2]}]})");
  EXPECT_EQ(LoadBaseline(path).error().message,
            path + ": metrics[0]: 'group_sizes' must be positive integers adding up to the "
                   "samples");
}

TEST(BaselineStoreTest, ChecksSuiteAndTimeSourceAndWarnsOnDevice) {
  const Baseline b = Sample();
  std::vector<ComparisonWarning> warnings;
  EXPECT_TRUE(CheckBaselineMatches(b.metrics, {"default", "ns", "host", std::nullopt}, warnings).ok());
  EXPECT_TRUE(warnings.empty());
  auto s = CheckBaselineMatches(b.metrics, {"other", "", "", std::nullopt}, warnings);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "baseline is for suite 'default', not 'other'");
  s = CheckBaselineMatches(b.metrics, {"", "cycles", "", std::nullopt}, warnings);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(CheckBaselineMatches(b.metrics, {"", "", "phone", std::nullopt}, warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  const auto* device = std::get_if<BaselineDeviceWarning>(&warnings[0]);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->baseline_device, "host");
  EXPECT_EQ(device->run_device, "phone");
}

TEST(BaselineStoreTest, WarnsOnATickRateBeyondAThousandthOnlyWhenBothSayIt) {
  Baseline b = Sample();
  std::vector<ComparisonWarning> warnings;
  // The baseline does not say its rate: nothing to compare it with.
  EXPECT_TRUE(CheckBaselineMatches(b.metrics, {"", "", "", 2.9e9}, warnings).ok());
  EXPECT_TRUE(warnings.empty());
  b.metrics.context["tick_rate_hz"] = "2900000000";
  EXPECT_TRUE(CheckBaselineMatches(b.metrics, {"", "", "", 2.9e9 * 1.0005}, warnings).ok());
  EXPECT_TRUE(CheckBaselineMatches(b.metrics, {"", "", "", std::nullopt}, warnings).ok());
  EXPECT_TRUE(warnings.empty());
  EXPECT_TRUE(CheckBaselineMatches(b.metrics, {"", "", "", 1e9}, warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  const auto* rate = std::get_if<BaselineTickRateWarning>(&warnings[0]);
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ(rate->baseline_hz, 2.9e9);
  EXPECT_EQ(rate->run_hz, 1e9);
}

TEST(BaselineStoreTest, RefusesEmptyFailedAndInterruptedResults) {
  TempDir dir;
  const std::string path = dir.File("b.json");
  Baseline empty = Sample();
  empty.metrics.metrics.clear();
  empty.metrics.context["model_status:toy"] = "failed";
  auto s = SaveBaseline(path, empty, true);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, path + ": not saved: the results has no metrics: no model "
                                      "finished (toy failed); nothing to compare");
  Baseline partly_failed = Sample();
  partly_failed.metrics.context["model_status:mlp"] = "failed";
  s = SaveBaseline(path, partly_failed, true);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("model 'mlp' failed in these results"), std::string::npos)
      << s.error().message;
  Baseline interrupted = Sample();
  interrupted.metrics.context["interrupted"] = "true";
  s = SaveBaseline(path, interrupted, true);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("interrupted run"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(path));  // nothing written, nothing replaced
}

TEST(BaselineStoreTest, OfConcurrentSavesWithoutForceExactlyOneSucceeds) {
  TempDir dir;
  const std::string path = dir.File("baselines/host/default.json");
  constexpr int kSavers = 4;
  pid_t pids[kSavers];
  for (int i = 0; i < kSavers; ++i) {
    pids[i] = ::fork();
    ASSERT_GE(pids[i], 0);
    if (pids[i] == 0) {
      Baseline b = Sample();
      b.name = "saver" + std::to_string(i);
      ::_exit(SaveBaseline(path, b, false).ok() ? 0 : 1);
    }
  }
  int saved = 0;
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    saved += WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  EXPECT_EQ(saved, 1);
  auto loaded = LoadBaseline(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->name.rfind("saver", 0), 0u);
}

TEST(BaselineStoreTest, OutOfRangeNumbersAreReportedAsSuch) {
  TempDir dir;
  const std::string path = dir.File("b.json");
  testing::WriteTextFile(path, R"({"schema_version": 1, "format": "etbench-baseline", "metrics": [
      {"model": "m", "kind": "event", "name": "x", "unit": "ms", "samples": [1e999]}]})");
  auto b = LoadBaseline(path);
  ASSERT_FALSE(b.ok());
  // Not "not a JSON object": the number is what is wrong.
  EXPECT_NE(b.error().message.find("number overflow parsing '1e999'"), std::string::npos)
      << b.error().message;
}

}  // namespace
}  // namespace etbench
