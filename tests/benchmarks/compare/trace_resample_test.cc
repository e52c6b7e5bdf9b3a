#include "trace_resample.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace etbench::gate_quality {
namespace {

// A trace of `blocks` blocks of toy_cnn-like runs: two convolutions, a
// relu and Method::execute, every run different.
RunTrace MakeTrace(std::size_t blocks) {
  RunTrace trace;
  trace.name = "toy_quiet_1";
  trace.context = {{"time_source", "ns"}};
  const auto metric = [&](const char* name, MetricKind kind, bool kernel, const char* unit) {
    Metric m;
    m.key = {"toy_cnn", "Execute", kind, name, 0, "", 0};
    m.key.instruction_id = static_cast<int32_t>(trace.metrics.size());
    m.unit = unit;
    m.is_kernel_or_delegate_call = kernel;
    m.end_to_end = !kernel;
    trace.metrics.push_back(m);
  };
  metric("native_call_convolution.out", MetricKind::kEvent, true, "ms");
  metric("native_call_convolution.out", MetricKind::kEvent, true, "ms");
  metric("native_call_relu.out", MetricKind::kEvent, true, "ms");
  metric("Method::execute", MetricKind::kEvent, false, "ms");
  metric("OPERATOR_CALL", MetricKind::kEvent, false, "ms");  // wraps convolution #0
  trace.metrics.back().key.instruction_id = 0;
  trace.metrics.back().end_to_end = false;
  for (std::size_t r = 0; r < 4 * blocks; ++r) {
    TraceRun run;
    run.seconds = 0.5 + 0.01 * static_cast<double>(r);
    const double x = static_cast<double>(r % 7);
    for (std::size_t id = 0; id < trace.metrics.size(); ++id) {
      std::vector<double> samples;
      for (int i = 0; i < 120; ++i) {
        const double base = id == 3 ? 1.4 : id == 4 ? 0.502 : 0.5 / (1 + static_cast<double>(id));
        samples.push_back(base * (1 + 0.001 * x + 0.0001 * (i % 13)));
      }
      run.samples[id] = ReduceSamples(samples, trace.metrics[id].unit, id == 4);
    }
    trace.runs.push_back(run);
  }
  return trace;
}

TEST(TraceResampleTest, DeterministicForASeed) {
  const std::vector<RunTrace> traces = {MakeTrace(10), MakeTrace(7)};
  const Injection conv{"conv10", 1.10, "convolution"};
  const SyntheticAb x = Resample(traces, 25, conv, 42);
  const SyntheticAb y = Resample(traces, 25, conv, 42);
  ASSERT_EQ(x.runs.size(), 100u);
  ASSERT_EQ(y.runs.size(), 100u);
  EXPECT_EQ(x.source, y.source);
  for (std::size_t i = 0; i < x.runs.size(); ++i) {
    EXPECT_EQ(x.runs[i].variant, y.runs[i].variant);
    EXPECT_EQ(x.runs[i].trace, y.runs[i].trace);
    for (const auto& [id, s] : x.runs[i].run.samples) {
      EXPECT_EQ(s.values, y.runs[i].run.samples.at(id).values);
    }
  }
  // Another seed draws another comparison.
  const SyntheticAb z = Resample(traces, 25, conv, 43);
  bool differs = z.source != x.source;
  for (std::size_t i = 0; i < x.runs.size(); ++i) differs |= x.runs[i].variant != z.runs[i].variant;
  EXPECT_TRUE(differs);
}

TEST(TraceResampleTest, BlocksAreRecordedBlocksInOrderWithAbbaOrBaab) {
  const std::vector<RunTrace> traces = {MakeTrace(6)};
  const SyntheticAb ab = Resample(traces, 9, Injection{}, 7);
  ASSERT_EQ(ab.runs.size(), 36u);
  for (std::size_t k = 0; k < 9; ++k) {
    const auto* first = &ab.runs[4 * k];
    EXPECT_EQ(first[0].variant, first[3].variant);
    EXPECT_EQ(first[1].variant, first[2].variant);
    EXPECT_NE(first[0].variant, first[1].variant);
  }
  // Circular and in recorded order: run i + 4 of the synthetic comparison
  // is recorded run (j + 4) mod 24 when run i is recorded run j.
  const auto index_of = [&](const TraceRun& run) {
    for (std::size_t j = 0; j < traces[0].runs.size(); ++j) {
      if (traces[0].runs[j].seconds == run.seconds) return j;
    }
    return traces[0].runs.size();
  };
  for (std::size_t i = 0; i + 4 < ab.runs.size(); ++i) {
    EXPECT_EQ(index_of(ab.runs[i + 4].run), (index_of(ab.runs[i].run) + 4) % 24);
  }
}

TEST(TraceResampleTest, InjectsTheChangeExactlyIntoBOnly) {
  const std::vector<RunTrace> traces = {MakeTrace(8)};
  const Injection conv{"conv10", 1.10, "convolution"};
  const SyntheticAb aa = Resample(traces, 8, Injection{}, 5);
  const SyntheticAb ab = Resample(traces, 8, conv, 5);  // the same draw
  ASSERT_EQ(aa.runs.size(), ab.runs.size());
  for (std::size_t i = 0; i < ab.runs.size(); ++i) {
    const TraceRun& before = aa.runs[i].run;
    const TraceRun& after = ab.runs[i].run;
    ASSERT_EQ(aa.runs[i].variant, ab.runs[i].variant);
    const bool b = ab.runs[i].variant == AbVariant::kB;
    const std::size_t mid = kTraceQuantiles / 2;  // the stored median
    const double conv_added =
        (1.10 - 1) * before.samples.at(0).values[mid] + (1.10 - 1) * before.samples.at(1).values[mid];
    const double execute_factor = 1 + conv_added / before.samples.at(3).values[mid];
    for (std::size_t q = 0; q < kTraceQuantiles; ++q) {
      for (std::size_t id : {0u, 1u}) {
        EXPECT_EQ(after.samples.at(id).values[q],
                  before.samples.at(id).values[q] * (b ? 1.10 : 1));
      }
      EXPECT_EQ(after.samples.at(2).values[q], before.samples.at(2).values[q]);  // relu
      EXPECT_EQ(after.samples.at(3).values[q],
                before.samples.at(3).values[q] * (b ? execute_factor : 1));
    }
  }
  // The wrapper of convolution #0 gets its added time.
  for (std::size_t i = 0; i < ab.runs.size(); ++i) {
    const bool b = ab.runs[i].variant == AbVariant::kB;
    const double added = (1.10 - 1) * aa.runs[i].run.samples.at(0).values[kTraceQuantiles / 2];
    EXPECT_EQ(ab.runs[i].run.samples.at(4).values,
              std::vector<double>{aa.runs[i].run.samples.at(4).values[0] + (b ? added : 0)});
  }
  // Every kernel: relu too.
  const SyntheticAb all = Resample(traces, 8, Injection{"all3", 1.03, ""}, 5);
  for (std::size_t i = 0; i < all.runs.size(); ++i) {
    if (all.runs[i].variant != AbVariant::kB) continue;
    EXPECT_EQ(all.runs[i].run.samples.at(2).values[0], aa.runs[i].run.samples.at(2).values[0] * 1.03);
  }
}

TEST(TraceResampleTest, AaRunsAreTheRecordedRuns) {
  const std::vector<RunTrace> traces = {MakeTrace(5)};
  const SyntheticAb aa = Resample(traces, 5, Injection{}, 11);
  for (const SyntheticRun& run : aa.runs) {
    bool found = false;
    for (const TraceRun& recorded : traces[0].runs) {
      found |= recorded.seconds == run.run.seconds &&
               recorded.samples.at(3).values == run.run.samples.at(3).values;
    }
    EXPECT_TRUE(found);
  }
}

TEST(TraceResampleTest, LogNormalFitKeepsScalesAndIsDeterministic) {
  const RunTrace trace = MakeTrace(10);
  const RunTrace x = FitLogNormal(trace, 3), y = FitLogNormal(trace, 3);
  ASSERT_EQ(x.runs.size(), trace.runs.size());
  for (std::size_t r = 0; r < x.runs.size(); ++r) {
    EXPECT_EQ(x.runs[r].samples.at(3).values, y.runs[r].samples.at(3).values);
    EXPECT_EQ(x.runs[r].samples.at(3).count, 120u);
    EXPECT_NEAR(x.runs[r].samples.at(3).values[kTraceQuantiles / 2], 1.4, 0.02);
  }
}

}  // namespace
}  // namespace etbench::gate_quality
