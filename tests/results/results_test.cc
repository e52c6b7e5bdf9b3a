#include "etbench/results/results.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/memory_disk.h"
#include "support/test_support.h"

namespace etbench::results {
namespace {

using etbench::testing::TempDir;
using ::testing::HasSubstr;

PerfData Perf(std::vector<double> raw) { return PerfData::FromRaw(std::move(raw)); }

RunResults Sample() {
  RunResults r;
  ResultsMetadata& m = r.metadata;
  m.suite = "s";
  m.config_path = "configs/s.yaml";
  m.config_hash = std::string(64, 'a');
  m.runner = "command";
  m.runner_version = "et_runner sha256:0123";
  m.tool_version = "0.1.0";
  m.time_source = "cycles";
  m.tick_rate_hz = 2.9e9 + 0.123;
  m.unit = "us";
  m.warmup = 3;
  m.iterations = 30;
  m.repetitions = 2;
  m.cpu_affinity = {0, 3};
  m.host = "host";
  m.cpu = "Xeon \"quoted\"";
  m.os = "Linux";
  m.boot_id = "4f1c2d3e-0000-4000-8000-000000000001";
  m.device = "pixel";
  m.branch = "main";
  m.git_commit = "deadbeef";
  m.date = "2024-01-01T00:00:00Z";
  m.labels = {{"team", "perf"}, {"ünïcode", "✓"}};
  m.thresholds_path = "configs/thresholds.yaml";
  m.shard_index = 2;
  m.shard_count = 3;
  m.merged_from = {"a.json"};
  r.interrupted = true;

  ModelResult ok;
  ok.name = "toy_cnn";
  ok.suite_index = 4;
  ok.model_path = "configs/models/toy_cnn.yaml";
  ok.model_sha256 = std::string(64, 'b');
  ok.unit = "us";
  ok.wall_ms = 12.5;
  ok.warnings = {"No delegate mapping"};
  RepetitionRecord rep;
  rep.index = 1;
  rep.etdump_path = "toy_cnn/rep1.etdp";
  rep.metadata_path = "toy_cnn/rep1.etdp.meta.json";
  rep.time_source = "cycles";
  rep.tick_rate_hz = 2.9e9;
  rep.execute_runs = 33;
  rep.warmup_runs_dropped = 3;
  rep.wall_ms = 0.1 + 0.2;
  ok.repetitions = {rep};
  BlockResult block;
  block.name = "Execute";
  block.run_count = 3;
  EventResult e;
  e.name = "native_call_convolution.out";
  e.instruction_id = 0;
  e.perf_data = Perf({0.1, 1e-300, 123456789.123456789});
  e.op_types = {"aten.convolution.default"};
  e.module_paths = {"conv1"};
  block.events.push_back(e);
  EventResult d;
  d.name = "q+k";
  d.delegate_debug_identifier = std::string("q+k");
  d.is_delegated_op = true;
  d.occurrence = 1;
  d.delegate_backend_name = "XnnpackBackend";
  d.perf_data = Perf({1, 2, 3});
  block.events.push_back(d);
  EventResult i;
  i.name = "7";
  i.delegate_debug_identifier = int32_t{7};
  i.perf_data = Perf({4, 5, 6});
  block.events.push_back(i);
  block.framework_tax = Perf({-0.5, 1.25, 3});
  block.allocations = {AllocatorUsage{"temp", {100, 200, 18446744073709551615ull}, {1, 2, 3}}};
  ok.blocks = {block};
  BenchmarkResult b;
  b.name = "BM_X/8";
  b.metric = "cpu_time";
  b.iterations = {10, 20};
  b.perf_data = Perf({1.5, 2.5});
  ok.benchmarks = {b};
  r.models.push_back(ok);

  ModelResult failed;
  failed.name = "mlp";
  failed.status = ModelStatus::kFailed;
  failed.error = "repetition 1/2: 'x' exited with status 3";
  failed.stdout_text = "line\n\ttab \x01 control";
  failed.stderr_text = "err";
  r.models.push_back(failed);
  return r;
}

void ExpectPerfEq(const PerfData& a, const PerfData& b) {
  EXPECT_EQ(a.raw, b.raw);
  EXPECT_EQ(a.p10, b.p10);
  EXPECT_EQ(a.p50, b.p50);
  EXPECT_EQ(a.p90, b.p90);
  EXPECT_EQ(a.avg, b.avg);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.stddev, b.stddev);
  EXPECT_EQ(a.count, b.count);
}

TEST(ResultsTest, RoundTripsExactly) {
  const RunResults a = Sample();
  const std::string json = ResultsToJson(a);
  auto parsed = ParseResultsJson(json, "r.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  const RunResults& b = *parsed;
  EXPECT_EQ(b.interrupted, a.interrupted);
  const ResultsMetadata& x = a.metadata;
  const ResultsMetadata& y = b.metadata;
  EXPECT_EQ(y.suite, x.suite);
  EXPECT_EQ(y.config_hash, x.config_hash);
  EXPECT_EQ(y.runner_version, x.runner_version);
  EXPECT_EQ(y.tick_rate_hz, x.tick_rate_hz);
  EXPECT_EQ(y.cpu, x.cpu);
  EXPECT_EQ(y.boot_id, x.boot_id);
  EXPECT_EQ(y.cpu_affinity, x.cpu_affinity);
  EXPECT_EQ(y.labels, x.labels);
  EXPECT_EQ(y.shard_index, x.shard_index);
  EXPECT_EQ(y.shard_count, x.shard_count);
  EXPECT_EQ(y.merged_from, x.merged_from);
  EXPECT_EQ(y.thresholds_path, x.thresholds_path);
  ASSERT_EQ(b.models.size(), 2u);
  const ModelResult& m = b.models[0];
  EXPECT_EQ(m.suite_index, 4);
  EXPECT_EQ(m.warnings, a.models[0].warnings);
  ASSERT_EQ(m.repetitions.size(), 1u);
  EXPECT_EQ(m.repetitions[0].etdump_path, "toy_cnn/rep1.etdp");
  EXPECT_EQ(m.repetitions[0].debug_output_path, "");
  EXPECT_EQ(m.repetitions[0].wall_ms, 0.1 + 0.2);
  EXPECT_EQ(m.repetitions[0].execute_runs, 33u);
  ASSERT_EQ(m.blocks.size(), 1u);
  const BlockResult& block = m.blocks[0];
  EXPECT_EQ(block.run_count, 3u);
  ASSERT_EQ(block.events.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    const EventResult& e = block.events[k];
    const EventResult& f = a.models[0].blocks[0].events[k];
    EXPECT_EQ(e.name, f.name);
    EXPECT_EQ(e.instruction_id, f.instruction_id);
    EXPECT_EQ(e.delegate_debug_identifier, f.delegate_debug_identifier);
    EXPECT_EQ(e.is_delegated_op, f.is_delegated_op);
    EXPECT_EQ(e.occurrence, f.occurrence);
    EXPECT_EQ(e.op_types, f.op_types);
    EXPECT_EQ(e.module_paths, f.module_paths);
    EXPECT_EQ(e.delegate_backend_name, f.delegate_backend_name);
    ExpectPerfEq(e.perf_data, f.perf_data);
  }
  ExpectPerfEq(*block.framework_tax, *a.models[0].blocks[0].framework_tax);
  EXPECT_EQ(block.allocations[0].bytes_per_run, a.models[0].blocks[0].allocations[0].bytes_per_run);
  EXPECT_EQ(m.benchmarks[0].iterations, a.models[0].benchmarks[0].iterations);
  ExpectPerfEq(m.benchmarks[0].perf_data, a.models[0].benchmarks[0].perf_data);
  EXPECT_EQ(b.models[1].status, ModelStatus::kFailed);
  EXPECT_EQ(b.models[1].error, a.models[1].error);
  EXPECT_EQ(b.models[1].stdout_text, a.models[1].stdout_text);
  // Writing what was read gives the same bytes.
  EXPECT_EQ(ResultsToJson(b), json);
}

// The bytes of a results file are its format (docs/results.md): compared
// with files committed before the writer changed hands, so that no byte
// moves. ETBENCH_UPDATE_GOLDEN=1 rewrites them (only for an intended
// change of the format).
void ExpectSameBytesAsGolden(const std::string& actual, const std::string& name) {
  const std::string path = testing::SourcePath("tests/results/golden/" + name);
  const char* update = std::getenv("ETBENCH_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    testing::WriteTextFile(path, actual);
    return;
  }
  EXPECT_EQ(actual, testing::ReadTextFile(path)) << name;
}

TEST(ResultsTest, FileBytesMatchTheGolden) {
  RunResults r = Sample();
  // Every spelling the file has: control characters, DEL, quotes, broken
  // and valid UTF-8, doubles whole and fractional, tiny, huge and not
  // finite (statistics print NaN as null), extreme integers, empty lists.
  ModelResult odd;
  odd.name = "odd \"name\" \\ \x7f\b\f\x1f";
  odd.suite_index = -1;
  odd.status = ModelStatus::kInterrupted;
  odd.error = "broken \xff\xfe and cut \xe2\x82 and fine \xc2\xb5s \xe2\x9c\x93";
  odd.unit = "cycles";
  odd.wall_ms = 1e21;
  odd.warnings = {"", "tab\there", "nl\nthere\r"};
  BlockResult block;
  block.name = "Default";
  block.run_count = 0;
  EventResult e;
  e.name = "Method::execute";
  e.instruction_id = -2147483647 - 1;
  e.occurrence = 2147483647;
  e.perf_data = Perf({0, 1, 2.5, 1e-5, 1e16, 1.7976931348623157e308, 5e-324, 123456789012345680000.0});
  e.perf_data.stddev = std::nan("");
  e.perf_data.p90 = -0.0;
  block.events.push_back(e);
  odd.blocks = {block, BlockResult{}};
  BenchmarkResult b;
  b.name = "BM_Y";
  b.metric = "real_time";
  b.iterations = {INT64_MAX, INT64_MIN, 0};
  b.perf_data = Perf({3});
  odd.benchmarks = {b};
  RepetitionRecord rep;
  rep.tick_rate_hz = 0;
  rep.wall_ms = 1.0 / 3;
  odd.repetitions = {rep};
  r.models.push_back(odd);
  ExpectSameBytesAsGolden(ResultsToJson(r), "results.json");

  RunResults empty;
  ExpectSameBytesAsGolden(ResultsToJson(empty), "results_empty.json");
}

TEST(ResultsTest, InvalidUtf8OutputStillGivesValidJson) {
  RunResults r = Sample();
  r.models[1].stderr_text = "bad \xff\xfe bytes \xc3";
  const std::string json = ResultsToJson(r);
  EXPECT_TRUE(nlohmann::json::accept(json));
  auto parsed = ParseResultsJson(json, "r.json");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->models[1].stderr_text, "bad \xef\xbf\xbd\xef\xbf\xbd bytes \xef\xbf\xbd");
}

TEST(ResultsTest, OtherSchemaVersionsAreRejected) {
  std::string json = ResultsToJson(Sample());
  json.replace(json.find("\"schema_version\": 1"), 19, "\"schema_version\": 2");
  auto parsed = ParseResultsJson(json, "r.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message,
            "r.json: unsupported results schema_version 2 (this etbench reads 1)");
  EXPECT_EQ(ParseResultsJson("{\"a\": 1}", "r.json").error().message,
            "r.json: not an etbench results file (no schema_version)");
  EXPECT_THAT(ParseResultsJson("{", "r.json").error().message, HasSubstr("r.json: not valid JSON"));
}

TEST(ResultsTest, MalformedFieldsNameTheirPath) {
  nlohmann::json j = nlohmann::json::parse(ResultsToJson(Sample()));
  j["models"][0].erase("unit");
  EXPECT_EQ(ParseResultsJson(j.dump(), "r.json").error().message,
            "r.json: $.models[0]: missing key \"unit\"");
  j = nlohmann::json::parse(ResultsToJson(Sample()));
  j["models"][0]["blocks"][0]["events"][1]["perf_data"]["count"] = 9;
  EXPECT_EQ(ParseResultsJson(j.dump(), "r.json").error().message,
            "r.json: $.models[0].blocks[0].events[1].perf_data.count: does not match the number "
            "of raw samples");
  j = nlohmann::json::parse(ResultsToJson(Sample()));
  j["models"][1]["status"] = "great";
  EXPECT_EQ(ParseResultsJson(j.dump(), "r.json").error().message,
            "r.json: $.models[1].status: unknown status 'great' (ok, failed, interrupted)");
}

TEST(ResultsTest, FilesAreWrittenAtomicallyIntoNewDirectories) {
  TempDir dir;
  const std::string path = dir.File("a/b/results.json");
  ASSERT_TRUE(WriteResultsFile(path, Sample()).ok());
  auto read = ReadResultsFile(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->models.size(), 2u);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.File("a/b"))) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);  // no temporary left behind
  EXPECT_EQ(ReadResultsFile(dir.File("none.json")).error().message,
            dir.File("none.json") + ": cannot open (No such file or directory)");
}

TEST(ResultsTest, FilesGoThroughTheDiskTheyAreGiven) {
  testing::MemoryDisk disk;
  const std::string path = "/mem/a/b/results.json";
  ASSERT_TRUE(WriteResultsFile(path, Sample(), disk).ok());
  EXPECT_TRUE(disk.HasDirectory("/mem/a/b"));
  EXPECT_EQ(disk.Text(path), ResultsToJson(Sample()));
  auto read = ReadResultsFile(path, disk);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->models.size(), 2u);
  EXPECT_FALSE(std::filesystem::exists("/mem"));
  disk.AddFile("/mem/x", "a file");
  Status blocked = WriteResultsFile("/mem/x/results.json", Sample(), disk);
  ASSERT_FALSE(blocked.ok());
  EXPECT_EQ(blocked.error().message, "/mem/x: cannot create directory: Not a directory");
}

TEST(ResultsTest, InvalidSamplesAreRejectedWithTheirPath) {
  const auto with = [](const char* field, nlohmann::json value) {
    nlohmann::json j = nlohmann::json::parse(ResultsToJson(Sample()));
    nlohmann::json::json_pointer pointer(field);
    j[pointer] = std::move(value);
    return ParseResultsJson(j.dump(), "r.json");
  };
  // A null sample would make the comparison spin (NaN has no rank).
  EXPECT_EQ(with("/models/0/blocks/0/events/0/perf_data/raw/1", nullptr).error().message,
            "r.json: $.models[0].blocks[0].events[0].perf_data.raw[1]: null/NaN is not a sample");
  EXPECT_EQ(with("/models/0/blocks/0/events/0/perf_data/raw/0", -3).error().message,
            "r.json: $.models[0].blocks[0].events[0].perf_data.raw[0]: negative duration -3");
  EXPECT_EQ(with("/models/0/benchmarks/0/perf_data/raw/0", 0).error().message,
            "r.json: $.models[0].benchmarks[0].perf_data.raw[0]: benchmark time 0 is not positive");
  // Framework tax may be negative (noise), and a duration may be 0 (below
  // the timer's resolution).
  EXPECT_TRUE(with("/models/0/blocks/0/framework_tax/raw/0", -2).ok());
  EXPECT_TRUE(with("/models/0/blocks/0/events/0/perf_data/raw/0", 0).ok());
}

TEST(ResultsTest, ZeroSizeRepetitionGroupsAreRejected) {
  nlohmann::json j = nlohmann::json::parse(ResultsToJson(Sample()));
  j["models"][0]["blocks"][0]["repetition_run_counts"] = {3, 0};
  EXPECT_EQ(ParseResultsJson(j.dump(), "r.json").error().message,
            "r.json: $.models[0].blocks[0].repetition_run_counts[1]: a repetition with 0 runs");
}

TEST(ResultsTest, NumbersOutOfRangeAreAnErrorNotACrash) {
  std::string json = ResultsToJson(Sample());
  json.replace(json.find("\"wall_ms\": 12.5"), 16, "\"wall_ms\": 1e999");
  auto parsed = ParseResultsJson(json, "r.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.error().message, HasSubstr("r.json: not valid JSON: "));
  EXPECT_THAT(parsed.error().message, HasSubstr("number overflow"));
}

TEST(ResultsTest, NonFiniteSamplesAreNeverWritten) {
  TempDir dir;
  RunResults r = Sample();
  r.models[0].blocks[0].events[0].perf_data.raw[1] = std::nan("");
  Status written = WriteResultsFile(dir.File("results.json"), r);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().message,
            dir.File("results.json") +
                ": model 'toy_cnn', block 'Execute', event 'native_call_convolution.out', sample "
                "1: null/NaN is not a sample");
  EXPECT_FALSE(std::filesystem::exists(dir.File("results.json")));
}

TEST(ResultsTest, InvalidUtf8IsAnErrorNotACrash) {
  auto parsed = ParseResultsJson("{\"schema_version\": \"\xff\"}", "r.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.error().message, HasSubstr("r.json: not valid JSON: "));
  EXPECT_THAT(parsed.error().message, HasSubstr("ill-formed UTF-8"));
}

}  // namespace
}  // namespace etbench::results
