// Regression injection moves the chosen op's time by the factor, and
// Method::execute with it, and leaves the other ops alone. Timing tests use
// a low percentile of many executions and generous bounds.

#include <map>
#include <vector>

#include <gtest/gtest.h>

#include "exec/method.h"
#include "exec/program.h"
#include "runtime_test_util.h"

namespace etbench::runtime {
namespace {

using testing::DecodeOrFail;
using testing::LoadShippedModel;
using testing::PercentileOf;
using testing::ProfileEvents;
using testing::RunOrFail;

// Per Execute run: summed duration of events by name (delegate events by
// "delegate:<int id>").
std::map<std::string, std::vector<double>> DurationsByName(
    const EtdumpRecord& record) {
  std::map<std::string, std::vector<double>> durations;
  for (const RunDataRecord& run : record.run_data) {
    if (run.name != "Execute") continue;
    std::map<std::string, double> totals;
    for (const ProfileEventRecord& event : ProfileEvents(run)) {
      const std::string key =
          event.name.empty()
              ? "delegate:" + std::to_string(event.delegate_debug_id_int)
              : event.name;
      totals[key] += static_cast<double>(event.end_time - event.start_time);
    }
    for (const auto& [name, total] : totals) durations[name].push_back(total);
  }
  return durations;
}

// The percentile each event's durations are summarised by. A busy machine
// only ever adds time (preemption, a neighbour on the sibling hyperthread),
// and it adds more to a slowed op than to its plain run: the slowed op is
// exposed twice as long, and ExtendOpDuration spins for (factor - 1) times
// the kernel's measured time, disturbance included. So the median ratio of
// a doubled conv drifts above 2 as the load grows (2.08-2.44 over 15 runs
// under stress-ng --cpu 1 at load 8-9; 2.81 once in a fresh-clone check,
// issue 33), while the 10th percentile, the executions nothing disturbed,
// stays at the factor (1.99-2.10 in the same runs).
constexpr double kUndisturbedPercentile = 10;

struct Lows {
  std::map<std::string, double> base;
  std::map<std::string, double> slow;
};

// Runs the model without and with `slowdowns`, executions interleaved (one
// of each in turn) so that machine noise and frequency drift hit both
// alike; returns each event's kUndisturbedPercentile duration per run.
Lows InterleavedLows(const Model& model,
                           const std::vector<Slowdown>& slowdowns,
                           int executions) {
  const Program base_program = LowerModel(model, {});
  const Program slow_program = LowerModel(model, slowdowns);
  Tracer base_tracer(TimeSource::kNs);
  Tracer slow_tracer(TimeSource::kNs);
  auto base = Method::Load(base_program, MethodOptions{}, base_tracer, nullptr);
  auto slow = Method::Load(slow_program, MethodOptions{}, slow_tracer, nullptr);
  for (int i = 0; i < 5; ++i) {  // warm-up, not recorded
    base->Execute(base_tracer);
    slow->Execute(slow_tracer);
  }
  base_tracer.Clear();
  slow_tracer.Clear();
  for (int i = 0; i < executions; ++i) {
    base->Execute(base_tracer);
    slow->Execute(slow_tracer);
  }
  Lows lows;
  for (const auto& [name, samples] :
       DurationsByName(DecodeOrFail(base_tracer.ToEtdump()))) {
    lows.base[name] = PercentileOf(samples, kUndisturbedPercentile);
  }
  for (const auto& [name, samples] :
       DurationsByName(DecodeOrFail(slow_tracer.ToEtdump()))) {
    lows.slow[name] = PercentileOf(samples, kUndisturbedPercentile);
  }
  return lows;
}

double Ratio(const Lows& m, const std::string& name) {
  return m.slow.at(name) / m.base.at(name);
}

TEST(RuntimeSlowdownTest, DoublingConvDoublesConvAndNothingElse) {
  const Lows m =
      InterleavedLows(LoadShippedModel("toy_cnn"), {{"conv2d", 2.0}}, 101);
  const std::string conv = "native_call_convolution.out";
  EXPECT_GT(Ratio(m, conv), 1.5);
  EXPECT_LT(Ratio(m, conv), 2.7);
  // Method::execute grows by about the convs' extra time.
  const double extra = m.slow.at(conv) - m.base.at(conv);
  EXPECT_GT(m.slow.at("Method::execute") - m.base.at("Method::execute"),
            0.5 * extra);
  // The other kernels, together, do not take the slowdown.
  double base_others = 0;
  double slow_others = 0;
  for (const auto& [name, low] : m.base) {
    if (name.rfind("native_call_", 0) == 0 && name != conv) {
      base_others += low;
      slow_others += m.slow.at(name);
    }
  }
  EXPECT_LT(slow_others / base_others, 1.3);
}

TEST(RuntimeSlowdownTest, DelegatedOpSlowsItsDelegateEventAndTheCall) {
  const Lows m = InterleavedLows(LoadShippedModel("mobilenet_v2_block"),
                                       {{"depthwise", 2.0}}, 101);
  EXPECT_GT(Ratio(m, "delegate:0"), 1.5);
  EXPECT_LT(Ratio(m, "delegate:0"), 2.7);
  EXPECT_GT(m.slow.at("DELEGATE_CALL") - m.base.at("DELEGATE_CALL"),
            0.5 * (m.slow.at("delegate:0") - m.base.at("delegate:0")));
  EXPECT_LT(Ratio(m, "delegate:1"), 1.3);
  EXPECT_LT(Ratio(m, "native_call_convolution.out"), 1.3);
}

// The example: a 10% conv slowdown. A 10% effect is close to what
// a loaded shared machine can blur for a moment, so the measurement is
// repeated (up to 3 times) until one lands in the generous bounds; a broken
// slowdown (ratio ~1.0, or far off) fails every attempt.
TEST(RuntimeSlowdownTest, TenPercentConvSlowdownShowsInTheConvNumbers) {
  std::vector<double> ratios;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const Lows m =
        InterleavedLows(LoadShippedModel("toy_cnn"), {{"conv2d", 1.10}}, 151);
    const double ratio = Ratio(m, "native_call_convolution.out");
    ratios.push_back(ratio);
    if (ratio > 1.03 && ratio < 1.25) return;
  }
  ADD_FAILURE() << "conv slowdown ratios " << ratios[0] << ", " << ratios[1] << ", "
                << ratios[2] << " all outside (1.03, 1.25)";
}

TEST(RuntimeSlowdownTest, RunModelAppliesOptionSlowdowns) {
  // Through the public entry point: the slowdown is reported and in effect.
  RunOptions options;
  options.num_executions = 3;
  options.slowdowns = {{"fc1", 1.5}};
  const RunOutput run = RunOrFail(LoadShippedModel("toy_cnn"), options);
  ASSERT_EQ(run.slowdowns.size(), 1u);
  EXPECT_EQ(run.slowdowns[0].target, "fc1");
  EXPECT_EQ(DecodeOrFail(run.etdump).run_data.size(), 4u);
}

}  // namespace
}  // namespace etbench::runtime
