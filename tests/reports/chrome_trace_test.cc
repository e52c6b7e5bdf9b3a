#include "etbench/reports/chrome_trace.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "report_test_data.h"
#include "support/test_support.h"
#include "trace_check.h"

namespace etbench::reports {
namespace {

using Json = nlohmann::json;

TraceSource Tutorial() {
  auto source = LoadEtdumpTraceSource(testing::FixturePath("executorch_tutorial.etdp"), {});
  EXPECT_TRUE(source.ok()) << source.error().message;
  return std::move(source).value();
}

TraceSource FromRecord(const EtdumpRecord& record, const std::string& name,
                       TimeScale scale = TimeScale::kNs) {
  auto file = EtdumpFile::FromBytes(WriteEtdump(record), name);
  EXPECT_TRUE(file.ok());
  InspectorOptions options;
  options.source_time_scale = scale;
  options.target_time_scale = scale == TimeScale::kCycles ? TimeScale::kCycles : TimeScale::kNs;
  auto blocks = BuildEventBlocks(file.value(), options);
  EXPECT_TRUE(blocks.ok()) << blocks.error().message;
  TraceSource source;
  source.name = name;
  source.blocks = std::move(blocks).value();
  source.source_time_scale = scale;
  return source;
}

std::vector<Json> CompleteEvents(const std::string& trace) {
  std::vector<Json> out;
  const Json root = Json::parse(trace);
  for (const Json& e : root["traceEvents"]) {
    if (e["ph"] == "X") out.push_back(e);
  }
  return out;
}

TEST(ChromeTraceTest, TutorialEtdumpIsAValidNestedTrace) {
  const std::string trace = RenderChromeTrace({Tutorial()});
  EXPECT_EQ(testing::ChromeTraceError(trace), "");
  const std::vector<Json> events = CompleteEvents(trace);
  // Default: load_method › init; Execute: Method::execute › 14 × (OPERATOR_CALL › kernel).
  ASSERT_EQ(events.size(), 2u + 1u + 28u);
  EXPECT_EQ(events[0]["name"], "Program::load_method");
  EXPECT_EQ(events[0]["ts"], 0.0);  // time starts at the file's first event
  EXPECT_EQ(events[2]["name"], "Method::execute");
  EXPECT_EQ(events[2]["dur"], 1898.821);  // microseconds, exact from ns ticks
  EXPECT_EQ(events[4]["name"], "native_call_convolution.out");
  EXPECT_EQ(events[4]["cat"], "kernel");
  EXPECT_EQ(events[4]["args"]["instruction_id"], 0);
  EXPECT_EQ(events[4]["args"]["unit"], "ns");
  EXPECT_EQ(events[2]["tid"], 2);  // Execute run 0 is the second track
}

TEST(ChromeTraceTest, TutorialTraceMatchesGolden) {
  testing::ExpectMatchesGolden(RenderChromeTrace({Tutorial()}), "tutorial_trace.json");
}

TEST(ChromeTraceTest, NamesProcessesAndThreadsPerRun) {
  const std::string trace = RenderChromeTrace({FromRecord(testing::DelegateEtdump(), "d.etdp")});
  std::vector<std::string> threads;
  std::string process;
  const Json root = Json::parse(trace);
  for (const Json& e : root["traceEvents"]) {
    if (e["name"] == "thread_name") threads.push_back(e["args"]["name"]);
    if (e["name"] == "process_name") process = e["args"]["name"];
  }
  EXPECT_EQ(process, "d.etdp");
  EXPECT_EQ(threads, (std::vector<std::string>{"Default run 0", "Execute run 0", "Execute run 1"}));
}

TEST(ChromeTraceTest, DelegateEventsOnTheirOwnClockNestInsideTheirCall) {
  const std::string trace = RenderChromeTrace({FromRecord(testing::DelegateEtdump(), "d.etdp")});
  EXPECT_EQ(testing::ChromeTraceError(trace), "");
  double call_ts = -1, call_end = -1;
  std::vector<Json> delegated;
  for (const Json& e : CompleteEvents(trace)) {
    if (e["tid"] != 2) continue;
    if (e["name"] == "DELEGATE_CALL") {
      call_ts = e["ts"];
      call_end = call_ts + e["dur"].get<double>();
      EXPECT_EQ(e["cat"], "delegate");
    }
    if (e["cat"] == "delegate_event") delegated.push_back(e);
  }
  ASSERT_EQ(delegated.size(), 2u);
  // Laid out one after another from the call's start, durations kept.
  EXPECT_EQ(delegated[0]["ts"], call_ts);
  EXPECT_DOUBLE_EQ(delegated[0]["dur"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(delegated[1]["ts"].get<double>(), call_ts + 0.9);
  EXPECT_LE(delegated[1]["ts"].get<double>() + delegated[1]["dur"].get<double>(), call_end);
  EXPECT_EQ(delegated[0]["args"]["placed_by_instruction"], true);
  EXPECT_EQ(delegated[0]["name"], "7");  // delegated events are named by their id
}

TEST(ChromeTraceTest, RunSelectionAndAlignment) {
  const TraceSource source = FromRecord(testing::DelegateEtdump(), "d.etdp");
  ChromeTraceOptions only_second;
  only_second.run = 1;
  const std::vector<Json> second = CompleteEvents(RenderChromeTrace({source}, only_second));
  // Run 1 of Execute (Default has no run 1).
  ASSERT_FALSE(second.empty());
  for (const Json& e : second) EXPECT_EQ(e["args"]["run"], 1);
  EXPECT_DOUBLE_EQ(second[0]["ts"].get<double>(), 10.95);  // real offset from the first event (50 ns)

  ChromeTraceOptions aligned = only_second;
  aligned.align_runs = true;
  const std::vector<Json> events = CompleteEvents(RenderChromeTrace({source}, aligned));
  EXPECT_EQ(events[0]["name"], "Method::execute");
  EXPECT_EQ(events[0]["ts"], 0.0);
}

TEST(ChromeTraceTest, CycleCountersUseTheTickRate) {
  TraceSource source = FromRecord(testing::DelegateEtdump(), "d.etdp", TimeScale::kCycles);
  source.tick_rate_hz = 2e9;  // 2 cycles per ns
  const std::vector<Json> events = CompleteEvents(RenderChromeTrace({source}));
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0]["name"], "Program::load_method");
  EXPECT_DOUBLE_EQ(events[0]["dur"].get<double>(), 0.2);  // 400 cycles at 2 GHz
  EXPECT_EQ(events[0]["args"]["unit"], "cycles");
}

TEST(ChromeTraceTest, SeveralSourcesAreSeveralProcesses) {
  const std::string trace = RenderChromeTrace({Tutorial(), FromRecord(testing::DelegateEtdump(), "d")});
  EXPECT_EQ(testing::ChromeTraceError(trace), "");
  std::set<int> pids;
  for (const Json& e : CompleteEvents(trace)) pids.insert(e["pid"].get<int>());
  EXPECT_EQ(pids, (std::set<int>{1, 2}));
  EXPECT_EQ(Json::parse(trace)["otherData"]["sources"], Json::array({"executorch_tutorial.etdp", "d"}));
}

TEST(ChromeTraceTest, MissingFileIsAnErrorNamingIt) {
  auto source = LoadEtdumpTraceSource("/nonexistent/x.etdp", {});
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.error().message.find("/nonexistent/x.etdp"), std::string::npos);
}

TEST(ChromeTraceTest, ValidatorCatchesMisnesting) {
  const std::string bad =
      R"({"traceEvents": [{"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1},
                          {"name": "b", "ph": "X", "ts": 5, "dur": 10, "pid": 1, "tid": 1}]})";
  EXPECT_NE(testing::ChromeTraceError(bad).find("misnested"), std::string::npos);
}

}  // namespace
}  // namespace etbench::reports
