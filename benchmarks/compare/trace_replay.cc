// Part 4 of the gate-quality evaluation, the trace-driven simulation
// (gate_quality --traces DIR): synthetic A/A and A/B comparisons resampled
// from recorded real runs (trace_resample.h), each judged three ways on the
// same data, as ab_real.cc judges real runs:
//   new       the paired sequential engine, replayed as `etbench ab` runs it
//             (AbSequence, which RunAb drives too: interference judged per
//             block, looks planned from the first block's time, alpha
//             spending, stop when every gated row is decided or the budget
//             is spent), with the recorded run times as the clock;
//   previous  Compare() on the merged sides of the same runs;
//   gbench    Google Benchmark compare.py's rule on their pooled samples;
// and beside them the same, on a log-normal model fitted to each trace.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "decision_rules.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/ab_sequence.h"
#include "etbench/reports/row_reason.h"
#include "gate_quality.h"
#include "run_trace.h"
#include "trace_resample.h"

namespace etbench::gate_quality {
namespace {

struct Replayed {
  Outcome fresh, previous, gbench;
  std::string regressions;  // the new engine's regression rows, for the report
  std::size_t blocks = 0;
  double seconds = 0;
};

// `etbench ab`'s sequential measurement (AbSequence, as RunAb drives it)
// over synthetic runs; the clock advances by each recorded run's time.
Result<Replayed> Replay(const SyntheticAb& ab, const Target& target, const Thresholds& thresholds,
                        double budget_s, std::size_t max_blocks) {
  const std::size_t total = std::min(ab.runs.size(), 4 * max_blocks);
  double elapsed = ab.calibration_seconds;
  AbSequence sequence(total / 4, /*sequential=*/true, budget_s, &thresholds, elapsed);
  for (std::size_t i = 0; i < total; ++i) {
    const SyntheticRun& run = ab.runs[i];
    elapsed += run.run.seconds;
    auto stop = sequence.Add(RunMetrics(*run.trace, run.run), run.variant, elapsed);
    if (!stop) return stop.error();
    if (*stop) break;
  }
  sequence.Finish();
  auto a = sequence.Side(AbVariant::kA);
  auto b = sequence.Side(AbVariant::kB);
  if (!a) return a.error();
  if (!b) return b.error();
  auto fresh = sequence.Compare(*a, *b, elapsed);
  if (!fresh) return fresh.error();
  auto previous = Compare(*a, *b, thresholds);
  if (!previous) return previous.error();
  if (std::getenv("GATE_QUALITY_VERBOSE")) {
    std::printf("    %s: %zu blocks (%zu kept), %.0f s, %s\n", ab.source.c_str(), sequence.blocks(),
                sequence.kept_blocks(), elapsed, GateOutcomeName(fresh->outcome));
    for (const MetricComparison& row : fresh->rows) {
      if (!row.gated || (row.decided && row.verdict != Verdict::kRegression)) continue;
      std::printf("      %s %+.2f%% [%+.2f%%, %+.2f%%] p %.3g: %s\n", row.label.c_str(),
                  row.change * 100, row.ci_low * 100, row.ci_high * 100, row.p_value,
                  reports::RowReason(row).c_str());
    }
  }
  Replayed r;
  for (const MetricComparison& row : fresh->rows) {
    if (!row.gated || row.verdict != Verdict::kRegression) continue;
    char line[256];
    std::snprintf(line, sizeof line, " %s %+.1f%% [%+.1f%%, %+.1f%%] p %.2g (%zu blocks);",
                  row.label.c_str(), row.change * 100, row.ci_low * 100, row.ci_high * 100,
                  row.p_value, sequence.kept_blocks());
    r.regressions += line;
  }
  r.fresh = Judge(RowsOf(*fresh), target, fresh->outcome == GateOutcome::kPass);
  r.previous = Judge(RowsOf(*previous), target, previous->outcome == GateOutcome::kPass);
  r.gbench = Judge(GbenchRule(*a, *b), target, false);
  r.blocks = sequence.blocks();
  r.seconds = elapsed;
  return r;
}

struct Scenario {
  Injection change;
  Target target;
  bool null = false;
};

// The condition of a trace: its name without the trailing _<date> part
// ("toy_cnn_quiet_20261125T1527" → "toy_cnn_quiet").
std::string ConditionOf(const std::string& name) {
  const std::size_t last = name.rfind('_');
  return last == std::string::npos ? name : name.substr(0, last);
}

}  // namespace

bool RunTraceSimulation(const TraceOptions& options) {
  auto loaded = LoadTraces(options.dir);
  if (!loaded) {
    std::printf("traces: %s\n", loaded.error().message.c_str());
    return false;
  }
  std::map<std::string, std::vector<RunTrace>> by_condition;
  std::size_t total_runs = 0;
  for (RunTrace& t : *loaded) {
    if (t.runs.size() < 8) continue;
    t.runs.resize(t.runs.size() / 4 * 4);
    total_runs += t.runs.size();
    by_condition[ConditionOf(t.name)].push_back(std::move(t));
  }
  const std::vector<Scenario> all = {
      {{"aa", 1, ""}, {"convolution", false}, true},
      {{"conv10", 1.10, "convolution"}, {"convolution", false}, false},
      {{"conv5", 1.05, "convolution"}, {"convolution", false}, false},
      {{"all3", 1.03, ""}, {"", true}, false}};
  const Thresholds thresholds = DefaultThresholds();
  std::printf("\nPart 4: trace-driven simulation: %zu recorded runs in %s; %zu comparisons per "
              "scenario and source, budget %.0f s, seed %llu\n",
              total_runs, options.dir.c_str(), options.comparisons, options.budget_s,
              options.seed);
  bool ok = true;
  for (const auto& [condition, traces] : by_condition) {
    std::vector<RunTrace> fitted;
    for (std::size_t i = 0; i < traces.size(); ++i) {
      fitted.push_back(FitLogNormal(traces[i], options.seed + 7919 * (i + 1)));
    }
    std::size_t runs = 0;
    for (const RunTrace& t : traces) runs += t.runs.size();
    for (int source = 0; source < 2; ++source) {
      if (source == 0 ? !options.recorded : !options.lognormal) continue;
      const std::vector<RunTrace>& data = source == 0 ? traces : fitted;
      std::printf("\n  %s, %s (%zu sessions, %zu runs):\n", condition.c_str(),
                  source == 0 ? "recorded runs resampled" : "log-normal model fitted to them",
                  traces.size(), runs);
      for (const Scenario& s : all) {
        if (std::find(options.scenarios.begin(), options.scenarios.end(), s.change.name) ==
            options.scenarios.end()) {
          continue;
        }
        std::vector<Replayed> trials;
        for (std::size_t k = 0; k < options.comparisons; ++k) {
          // The same draw in every scenario: the comparisons differ only
          // by the injected change.
          const SyntheticAb ab =
              Resample(data, options.max_blocks, s.change, options.seed * 1000003 + k);
          auto r = Replay(ab, s.target, thresholds, options.budget_s, options.max_blocks);
          if (!r) {
            std::printf("    %s: %s\n", ab.source.c_str(), r.error().message.c_str());
            ok = false;
            continue;
          }
          if (s.null && r->fresh.flagged) {
            std::printf("    false regression (%s):%s\n", ab.source.c_str(), r->regressions.c_str());
          }
          trials.push_back(*r);
        }
        const std::size_t n = trials.size();
        const auto count = [&](auto field) {
          std::size_t c = 0;
          for (const Replayed& t : trials) c += field(t);
          return c;
        };
        std::vector<double> secs, blocks;
        for (const Replayed& t : trials) {
          secs.push_back(t.seconds);
          blocks.push_back(static_cast<double>(t.blocks));
        }
        std::sort(secs.begin(), secs.end());
        std::sort(blocks.begin(), blocks.end());
        std::printf("    %s (N = %zu; median %.0f s, %.0f blocks):\n", s.change.name.c_str(), n,
                    secs.empty() ? 0 : secs[n / 2], blocks.empty() ? 0 : blocks[n / 2]);
        if (s.null) {
          std::printf("      new:       false regression %s; ended pass %s\n",
                      Rate(count([](const Replayed& t) { return t.fresh.flagged; }), n).c_str(),
                      Rate(count([](const Replayed& t) { return t.fresh.passed; }), n).c_str());
          std::printf("      previous:  false regression %s; ended pass %s\n",
                      Rate(count([](const Replayed& t) { return t.previous.flagged; }), n).c_str(),
                      Rate(count([](const Replayed& t) { return t.previous.passed; }), n).c_str());
          std::printf("      gbench:    false regression %s\n",
                      Rate(count([](const Replayed& t) { return t.gbench.flagged; }), n).c_str());
        } else {
          // all3 has no operator to name: its target is Method::execute.
          const bool named = !s.target.end_to_end;
          const auto line = [&](const char* rule, std::size_t detected, std::size_t first) {
            std::printf("      %-10s detected %s%s%s\n", rule, Rate(detected, n).c_str(),
                        named ? "; named first " : "", named ? Rate(first, n).c_str() : "");
          };
          line("new:", count([](const Replayed& t) { return t.fresh.detected; }),
               count([](const Replayed& t) { return t.fresh.named_first; }));
          line("previous:", count([](const Replayed& t) { return t.previous.detected; }),
               count([](const Replayed& t) { return t.previous.named_first; }));
          line("gbench:", count([](const Replayed& t) { return t.gbench.detected; }),
               count([](const Replayed& t) { return t.gbench.named_first; }));
        }
        std::fflush(stdout);
      }
    }
  }
  return ok;
}

}  // namespace etbench::gate_quality
