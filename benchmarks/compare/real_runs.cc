// Part 2 of the gate-quality evaluation: real runs of toy_cnn on the
// reference runtime, turned into metric sets straight from the inspector's
// EventBlocks (as the harness does), compared with the default thresholds.

#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/comparison.h"
#include "etbench/reports/comparison_text.h"
#include "gate_quality.h"

#ifdef ETBENCH_HAVE_RUNTIME
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"
#include "etbench/runtime/model_loader.h"
#include "etbench/runtime/run_model.h"
#endif

namespace etbench::gate_quality {

#ifdef ETBENCH_HAVE_RUNTIME
namespace {

constexpr int kRepetitions = 6;  // RunModel calls per side (6 loads: 3 ABBA blocks)

Result<MetricSet> ToMetrics(const runtime::Model& model, const runtime::RunOutput& output) {
  auto file = EtdumpFile::FromBytes(output.etdump, model.name + ".etdp");
  if (!file.ok()) return file.error();
  InspectorOptions options;
  options.source_time_scale = TimeScale::kNs;
  options.target_time_scale = TimeScale::kMs;
  auto blocks = BuildEventBlocks(*file, options);
  if (!blocks.ok()) return blocks.error();
  MetricSet set;
  set.context = {{"time_source", "ns"}, {"suite", "gate_quality"}, {"device", "host"}};
  for (const EventBlock& block : *blocks) {
    for (const Event& event : block.events) {
      if (!event.perf_data) continue;
      Metric m;
      m.key = {model.name, block.name, MetricKind::kEvent, event.name, event.instruction_id,
               DelegateDebugIdToString(event.delegate_debug_identifier), event.occurrence};
      m.unit = "ms";
      m.samples = event.perf_data->raw;
      m.group_sizes = {m.samples.size()};  // one repetition
      m.end_to_end = IsEndToEnd(event.role);
      m.is_kernel_or_delegate_call = IsKernelOrDelegateCall(event.role);
      set.metrics.push_back(std::move(m));
    }
    if (block.framework_tax) {
      Metric m;
      m.key = {model.name, block.name, MetricKind::kFrameworkTax, "framework_tax", std::nullopt,
               "", 0};
      m.unit = "percent";
      m.samples = block.framework_tax->raw;
      m.group_sizes = {m.samples.size()};
      m.end_to_end = true;
      set.metrics.push_back(std::move(m));
    }
  }
  return set;
}

Result<MetricSet> RunOnce(const runtime::Model& model, int executions,
                          const std::vector<runtime::Slowdown>& slowdowns) {
  runtime::RunOptions options;
  options.num_executions = executions;
  options.slowdowns = slowdowns;
  auto output = runtime::RunModel(model, options);
  if (!output.ok()) return output.error();
  return ToMetrics(model, *output);
}

// One side: kRepetitions runs back to back.
Result<MetricSet> RunSide(const runtime::Model& model, int iterations,
                          const std::vector<runtime::Slowdown>& slowdowns) {
  std::vector<MetricSet> parts;
  for (int r = 0; r < kRepetitions; ++r) {
    auto set = RunOnce(model, iterations / kRepetitions, slowdowns);
    if (!set.ok()) return set.error();
    parts.push_back(std::move(*set));
  }
  return MergeMetricSets(parts);
}

// Both sides interleaved in ABBA blocks (the `etbench ab` protocol), so that
// slow drifts of a busy machine hit both alike.
Result<std::pair<MetricSet, MetricSet>> RunInterleaved(
    const runtime::Model& model, int iterations, const std::vector<runtime::Slowdown>& b_slowdowns,
    uint64_t seed) {
  std::vector<MetricSet> a_parts, b_parts;
  const int blocks = kRepetitions;  // 2·kRepetitions shorter runs per side
  for (AbVariant v : AbbaSchedule(blocks, seed)) {
    const bool is_a = v == AbVariant::kA;
    auto set = RunOnce(model, iterations / (2 * blocks), is_a ? std::vector<runtime::Slowdown>{}
                                                              : b_slowdowns);
    if (!set.ok()) return set.error();
    (is_a ? a_parts : b_parts).push_back(std::move(*set));
  }
  auto a = MergeMetricSets(a_parts);
  if (!a.ok()) return a.error();
  auto b = MergeMetricSets(b_parts);
  if (!b.ok()) return b.error();
  return std::make_pair(std::move(*a), std::move(*b));
}

std::string LoadAverage() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return "unknown";
  char buffer[64] = {0};
  const bool read = std::fgets(buffer, sizeof(buffer), f) != nullptr;
  std::fclose(f);
  std::string text = read ? buffer : "unknown";
  return text.substr(0, text.find(' '));
}

// For the ablation: the samples as if independent.
void ForgetRepetitions(MetricSet* set) {
  for (Metric& m : set->metrics) m.group_sizes.clear();
}

}  // namespace

bool RunRealRuns(const std::string& source_dir, int gates, int iterations, bool interleaved,
                 bool use_repetitions) {
  auto model = runtime::LoadModelFile(source_dir + "/configs/models/toy_cnn.yaml");
  if (!model.ok()) {
    std::printf("Part 2: cannot load toy_cnn: %s\n", model.error().message.c_str());
    return false;
  }
  const Thresholds thresholds = DefaultThresholds();
  std::printf("Part 2: real runs of toy_cnn on the reference runtime (%d iterations per side in "
              "%d runs; %s; %s; load average %s on %u CPUs)\n",
              iterations, interleaved ? 2 * kRepetitions : kRepetitions,
              interleaved ? "baseline and candidate interleaved in ABBA blocks for every gate"
                          : "one baseline, then each candidate gated against it",
              use_repetitions ? "samples clustered by run" : "samples taken as independent",
              LoadAverage().c_str(), std::thread::hardware_concurrency());
  auto baseline = RunSide(*model, iterations, {});
  if (!baseline.ok()) {
    std::printf("  error: %s\n", baseline.error().message.c_str());
    return false;
  }
  bool ok = true;
  uint64_t gate_seed = 0;
  if (!use_repetitions) ForgetRepetitions(&*baseline);
  auto gate = [&](const std::vector<runtime::Slowdown>& slowdowns) -> Result<Comparison> {
    if (interleaved) {
      auto sides = RunInterleaved(*model, iterations, slowdowns, ++gate_seed);
      if (!sides.ok()) return sides.error();
      if (!use_repetitions) {
        ForgetRepetitions(&sides->first);
        ForgetRepetitions(&sides->second);
      }
      return Compare(sides->first, sides->second, thresholds);
    }
    auto candidate = RunSide(*model, iterations, slowdowns);
    if (!candidate.ok()) return candidate.error();
    if (!use_repetitions) ForgetRepetitions(&*candidate);
    return Compare(*baseline, *candidate, thresholds);
  };

  std::size_t passed = 0, inconclusive = 0;
  std::string first_failure;
  for (int g = 0; g < gates; ++g) {
    auto c = gate({});
    if (!c.ok()) {
      std::printf("  error: %s\n", c.error().message.c_str());
      return false;
    }
    passed += GateExitCode(*c, false) == 0;
    inconclusive += c->outcome == GateOutcome::kInconclusive;
    if (GateExitCode(*c, false) != 0) {
      for (const MetricComparison& r : c->rows) {
        if (r.verdict != Verdict::kRegression) continue;
        char line[256];
        std::snprintf(line, sizeof(line), "    false alarm: %s %+.1f%% CI [%+.1f%%, %+.1f%%] p %.2g\n",
                      r.label.c_str(), r.change * 100, r.ci_low * 100, r.ci_high * 100,
                      r.p_adjusted.value_or(r.p_value));
        first_failure += line;
      }
    }
  }
  const bool aa_ok = passed == static_cast<std::size_t>(gates);
  ok &= aa_ok;
  std::printf("  A/A gates passed: %zu/%d (%zu of them with an inconclusive metric)  [target: "
              "all: %s]\n",
              passed, gates, inconclusive, aa_ok ? "met" : "MISSED");
  if (!first_failure.empty()) std::printf("%s", first_failure.c_str());

  const int slow_gates = 5;
  std::size_t conv_failed = 0, conv_first = 0;
  std::string example;
  for (int g = 0; g < slow_gates; ++g) {
    auto c = gate({{"conv2d", 1.10}});
    if (!c.ok()) return false;
    conv_failed += GateExitCode(*c, false) == 1;
    if (!c->attributions.empty() && !c->attributions[0].items.empty() &&
        c->attributions[0].items[0].label.find("convolution") != std::string::npos) {
      ++conv_first;
    }
    if (g == 0) {
      for (const Attribution& a : c->attributions) {
        if (a.block == "Execute") example = AttributionSentence(a, 3);
      }
    }
  }
  const bool conv_ok = conv_failed == slow_gates && conv_first == slow_gates;
  ok &= conv_ok;
  std::printf("  conv2d +10%%: gate failed %zu/%d, convolution first in the attribution %zu/%d  "
              "[target: all: %s]\n    e.g. %s\n",
              conv_failed, slow_gates, conv_first, slow_gates, conv_ok ? "met" : "MISSED",
              example.c_str());

  std::size_t e2e_caught = 0;
  double change_sum = 0;
  for (int g = 0; g < slow_gates; ++g) {
    auto c = gate({{"conv2d", 1.03}, {"relu", 1.03}, {"max_pool2d", 1.03}, {"linear", 1.03}});
    if (!c.ok()) return false;
    for (const MetricComparison& r : c->rows) {
      if (r.key.name == "Method::execute" && r.key.block == "Execute") {
        e2e_caught += r.verdict == Verdict::kRegression;
        change_sum += r.change;
      }
    }
  }
  const bool e2e_ok = e2e_caught == slow_gates;
  ok &= e2e_ok;
  std::printf("  every op +3%% (Method::execute %+.1f%% on average): Method::execute flagged "
              "%zu/%d  [target: all: %s]\n",
              change_sum / slow_gates * 100, e2e_caught, slow_gates, e2e_ok ? "met" : "MISSED");
  return ok;
}

#else

bool RunRealRuns(const std::string&, int, int, bool, bool) {
  std::printf("Part 2: skipped (built without the reference runtime)\n");
  return true;
}

#endif

}  // namespace etbench::gate_quality
