#include "run_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace etbench::gate_quality {
namespace {

std::vector<double> Ticks(std::initializer_list<int> ns) {
  std::vector<double> ms;
  for (int t : ns) ms.push_back(t / 1e6);
  return ms;
}

double NumpyMedian(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

TEST(RunTraceTest, ExpandedRunKeepsCountMedianAndRecordedValues) {
  for (std::size_t n : {10u, 11u, 105u, 138u}) {
    std::vector<double> samples;
    for (std::size_t i = 0; i < n; ++i) samples.push_back(((i * 37) % 101 + 400) * 10 / 1e6);
    const TraceSamples reduced = ReduceSamples(samples, "ms");
    ASSERT_EQ(reduced.values.size(), kTraceQuantiles);
    const std::vector<double> expanded = ExpandSamples(reduced);
    ASSERT_EQ(expanded.size(), n);
    EXPECT_DOUBLE_EQ(NumpyMedian(expanded), NumpyMedian(samples)) << n;
    EXPECT_TRUE(std::is_sorted(expanded.begin(), expanded.end()));
    EXPECT_DOUBLE_EQ(expanded.front(), reduced.values.front());
    EXPECT_DOUBLE_EQ(expanded.back(), reduced.values.back());
  }
}

TEST(RunTraceTest, FewSamplesAreStoredWhole) {
  const TraceSamples reduced = ReduceSamples(Ticks({872181}), "ms");
  ASSERT_EQ(reduced.count, 1u);
  EXPECT_EQ(ExpandSamples(reduced), Ticks({872181}));
}

TEST(RunTraceTest, CsvRoundTripsExactly) {
  MetricSet run;
  run.context = {{"time_source", "ns"}, {"date", "today"}};
  Metric conv;
  conv.key = {"toy_cnn", "Execute", MetricKind::kEvent, "native_call_convolution.out", 0, "", 0};
  conv.unit = "ms";
  conv.is_kernel_or_delegate_call = true;
  conv.samples = Ticks({548137, 548207, 548407, 548618, 549159, 550701, 552894, 612092,
                        8586450, 548300, 548301, 560000});
  Metric wrapper = conv;
  wrapper.key.name = "OPERATOR_CALL";
  Metric tax;
  tax.key = {"toy_cnn", "Execute", MetricKind::kFrameworkTax, "framework_tax", std::nullopt, "", 0};
  tax.unit = "percent";
  tax.end_to_end = true;
  tax.samples = {0.0125, 0.08407, 0.0229, 0.0931, 0.0734, 0.0228, 0.0763, 0.0226, 0.078, 0.08};
  Metric execute = conv;
  execute.key.name = "Method::execute";
  execute.is_kernel_or_delegate_call = false;
  execute.end_to_end = true;
  execute.samples = Ticks({1385095, 1389251, 1392666, 1396202, 1404874, 1508588, 9429006, 1390000,
                           1391000, 1392000, 1393000});
  run.metrics = {conv, wrapper, tax, execute};
  RunTrace trace;
  trace.note = "test";
  AppendRun(run, 'B', 0.591, &trace);
  AppendRun(run, 'A', 0.61, &trace);
  ASSERT_EQ(trace.metrics.size(), 3u);  // framework tax is left out
  // The wrapper keeps its median only: n copies of it.
  EXPECT_EQ(RunMetrics(trace, trace.runs[0]).metrics[1].samples,
            std::vector<double>(12, NumpyMedian(conv.samples)));
  EXPECT_EQ(trace.context.count("date"), 0u);
  auto read = TraceFromCsv(TraceToCsv(trace), "t");
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->runs.size(), 2u);
  EXPECT_EQ(read->note, "test");
  EXPECT_EQ(read->runs[0].variant, 'B');
  EXPECT_DOUBLE_EQ(read->runs[1].seconds, 0.61);
  for (std::size_t r = 0; r < 2; ++r) {
    const MetricSet a = RunMetrics(trace, trace.runs[r]);
    const MetricSet b = RunMetrics(*read, read->runs[r]);
    ASSERT_EQ(a.metrics.size(), b.metrics.size());
    for (std::size_t i = 0; i < a.metrics.size(); ++i) {
      EXPECT_EQ(a.metrics[i].key, b.metrics[i].key);
      EXPECT_EQ(a.metrics[i].samples, b.metrics[i].samples);
      EXPECT_EQ(b.metrics[i].group_sizes, std::vector<uint64_t>{b.metrics[i].samples.size()});
    }
  }
  // The recorded ns ticks come back as the same doubles.
  EXPECT_EQ(RunMetrics(*read, read->runs[0]).metrics[0].samples.front(), Ticks({548137})[0]);
}

TEST(RunTraceTest, MalformedLinesNameTheLine) {
  auto read = TraceFromCsv("# etbench-run-trace 1\nrun,0,A,0.5\n3,10,1\n", "t");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().message, "t:3: unknown metric 3");
}

}  // namespace
}  // namespace etbench::gate_quality
