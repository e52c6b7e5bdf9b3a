// How well change points are found in nightly histories with known truth,
// by etbench's method and by three other rules on the same series:
//   - 5% night-over-night: a run more than 5% off the previous one
//     (ExecuTorch's benchmark dashboard);
//   - rolling z-score: |x − mean| > 5·sd of the previous 30 runs (Conbench);
//   - E-Divisive means + its permutation test (MongoDB's defaults, per series);
//   - etbench: E-Divisive means + trimmed t-test, BH across metrics
//     (history::DetectChangePoints, default options).
// Every scenario is also run with a machine shift: every series of the
// scenario 5–15% slower (each its own size) from a third to two thirds of
// the history, as a VM neighbour or a frequency state would; flags at its
// edges are false positives unless a true step is there. etbench runs with
// and without the machine level removed.
// A flag within ±2 runs of a true step detects it; every other flag is a
// false positive (slow drifts are reported apart: flagging a creep is the
// point, but it is not a step). Detection delay: runs after the step until the rule
// first flags it when the history is replayed night by night.
//   build/benchmarks/history/change_point_quality [--seed N] [--metrics N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <random>

#include "etbench/history/change_points.h"
#include "etbench/history/detect.h"
#include "synthetic_history.h"

namespace etbench::bench {
namespace {

constexpr std::size_t kTolerance = 2;

using Flags = std::vector<std::size_t>;  // flagged run indices of one series

Flags NightOverNight(const std::vector<double>& v) {
  Flags f;
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (std::fabs(v[i] / v[i - 1] - 1) > 0.05) f.push_back(i);
  }
  return f;
}

Flags RollingZ(const std::vector<double>& v) {
  Flags f;
  const std::size_t window = 30;
  for (std::size_t i = 5; i < v.size(); ++i) {
    const std::size_t lo = i > window ? i - window : 0;
    const double n = static_cast<double>(i - lo);
    const double mean = std::accumulate(v.begin() + lo, v.begin() + i, 0.0) / n;
    double ss = 0;
    for (std::size_t k = lo; k < i; ++k) ss += (v[k] - mean) * (v[k] - mean);
    const double sd = std::sqrt(ss / (n - 1));
    if (sd > 0 && std::fabs(v[i] - mean) > 5 * sd) f.push_back(i);
  }
  return f;
}

// E-Divisive means with its permutation test, as Otava first did and
// MongoDB's signal-processing-algorithms does by default (`e_divisive(series,
// pvalue=0.05, permutations=100)`): the split maximising the energy
// statistic (BestSplit, the same location as etbench's), significant when at
// most 5% of 100 random permutations of the segment reach its energy (p =
// (1 + reached) / 101); binary segmentation per series, no control across
// metrics. Seeded by the series' length, so runs repeat.
Flags EDivisivePermutation(const std::vector<double>& v) {
  constexpr int kPermutations = 100;
  std::mt19937_64 rng(v.size());
  Flags f;
  std::vector<std::pair<std::size_t, std::size_t>> pending{{0, v.size()}};
  while (!pending.empty()) {
    const auto [begin, end] = pending.back();
    pending.pop_back();
    const history::SplitTest split = history::BestSplit(v, begin, end, 3);
    if (split.index == 0) continue;  // too short to split
    std::vector<double> shuffled(v.begin() + static_cast<std::ptrdiff_t>(begin),
                                 v.begin() + static_cast<std::ptrdiff_t>(end));
    int reached = 0;
    for (int k = 0; k < kPermutations; ++k) {
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      reached += history::BestSplit(shuffled, 0, shuffled.size(), 3).energy >= split.energy;
    }
    if ((1.0 + reached) / (kPermutations + 1) > 0.05) continue;
    f.push_back(split.index);
    pending.push_back({begin, split.index});
    pending.push_back({split.index, end});
  }
  std::sort(f.begin(), f.end());
  return f;
}

// etbench on every series of a scenario at once (BH needs them together),
// with or without the machine level removed (DetectOptions::machine_level).
std::vector<Flags> Etbench(const std::vector<std::vector<double>>& series, bool machine_level) {
  const history::HistoryWindow window = MakeWindow(series);
  history::DetectOptions options;
  options.machine_level = machine_level;
  const history::Detection d = history::DetectChangePoints(window, options, {});
  std::map<std::string, std::size_t> index;
  for (std::size_t m = 0; m < window.metrics.size(); ++m) index[window.metrics[m].label] = m;
  std::vector<Flags> flags(series.size());
  for (const history::ChangePoint& c : d.change_points) flags[index[c.label]].push_back(c.index);
  return flags;
}

bool Near(std::size_t a, std::size_t b) { return (a > b ? a - b : b - a) <= kTolerance; }

struct Score {
  double true_flags = 0, flags = 0, detected = 0, truths = 0;
  double delay_sum = 0, delays = 0;
  double drifts = 0, drifts_flagged = 0;  // slow creeps: reported apart
  void Print(const char* name) const {
    const double precision = flags ? true_flags / flags : 1;
    const double recall = truths ? detected / truths : 1;
    const double f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0;
    std::printf("| %s | %.3f | %.3f | %.3f | %s | %.0f | %.0f | %.0f%% |\n", name, precision,
                recall, f1, delays ? (std::to_string(delay_sum / delays).substr(0, 4)).c_str() : "–",
                flags, flags - true_flags, drifts ? 100 * drifts_flagged / drifts : 0.0);
  }
};

void Tally(const Flags& flags, const std::optional<std::size_t>& truth, bool drift, Score* s) {
  if (drift) {  // neither a true step nor a false alarm: a creep worth seeing
    s->drifts += 1;
    s->drifts_flagged += !flags.empty();
    return;
  }
  s->flags += static_cast<double>(flags.size());
  bool hit = false;
  for (std::size_t f : flags) {
    if (truth && Near(f, *truth)) {
      s->true_flags += 1;
      hit = true;
    }
  }
  if (truth) {
    s->truths += 1;
    s->detected += hit;
  }
}

// Runs after the step until a flag near it appears on the replayed prefix
// (searched up to 30 runs after; undetected steps add no delay).
template <typename Rule>
void Delay(const std::vector<std::vector<double>>& series,
           const std::vector<std::optional<std::size_t>>& truth, Rule rule, Score* s) {
  std::vector<bool> done(series.size(), false);
  std::size_t first = series.front().size();
  for (const auto& t : truth) {
    if (t) first = std::min(first, *t);
  }
  for (std::size_t end = first + 1; end <= series.front().size(); ++end) {
    std::vector<std::vector<double>> prefix;
    for (const auto& v : series) prefix.emplace_back(v.begin(), v.begin() + end);
    const std::vector<Flags> flags = rule(prefix);
    for (std::size_t m = 0; m < series.size(); ++m) {
      if (done[m] || !truth[m] || end <= *truth[m] || end > *truth[m] + 30) continue;
      for (std::size_t f : flags[m]) {
        if (Near(f, *truth[m])) {
          done[m] = true;
          s->delay_sum += static_cast<double>(end - *truth[m]);
          s->delays += 1;
          break;
        }
      }
    }
  }
}

template <typename PerSeries>
std::vector<Flags> Each(const std::vector<std::vector<double>>& series, PerSeries rule) {
  std::vector<Flags> out;
  for (const auto& v : series) out.push_back(rule(v));
  return out;
}

}  // namespace
}  // namespace etbench::bench

int main(int argc, char** argv) {
  using namespace etbench::bench;  // NOLINT: a program's main
  uint64_t seed = 1;
  std::size_t metrics = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--metrics") == 0) metrics = std::strtoull(argv[i + 1], nullptr, 10);
  }
  std::mt19937_64 rng(seed);
  std::mt19937_64 shift_rng(seed + 1);  // apart, so the scenarios stay as before
  const std::vector<std::size_t> lengths = {30, 100, 500};
  const std::vector<double> cvs = {0.01, 0.02, 0.05, 0.10};
  const std::vector<double> steps = {0.01, 0.02, 0.05, 0.10, 0.20};
  constexpr int kRules = 5;
  const char* names[kRules] = {"5% night-over-night", "rolling z-score (30 runs, 5 sd)",
                               "E-Divisive + permutation test (100, p ≤ 0.05 per series)",
                               "etbench, raw statistics", "etbench, machine level removed"};
  Score all[kRules], shifted[kRules];
  std::map<double, std::array<Score, kRules>> by_cv;
  for (std::size_t length : lengths) {
    for (double cv : cvs) {
      // One scenario: `metrics` series; half with a step, the rest split
      // between outliers only, a variance change and a slow drift.
      std::vector<std::vector<double>> series;
      std::vector<std::optional<std::size_t>> truth;
      for (std::size_t m = 0; m < metrics; ++m) {
        SeriesSpec spec;
        spec.length = length;
        spec.cv = cv;
        spec.outlier_rate = 0.03;
        std::uniform_int_distribution<std::size_t> where(length / 5, length - 6);
        switch (m % 6) {
          case 0: case 1: case 2:
            spec.step_at = where(rng);
            spec.step = steps[(m / 6 + m) % steps.size()] * (m % 2 ? -1 : 1);
            break;
          case 3: spec.variance_at = where(rng); break;
          case 4: spec.drift_per_run = 0.002 * 30.0 / static_cast<double>(length); break;
          default: break;
        }
        series.push_back(MakeSeries(spec, rng));
        truth.push_back(spec.step_at);
      }
      const std::vector<Flags> flags[kRules] = {
          Each(series, NightOverNight), Each(series, RollingZ),
          Each(series, EDivisivePermutation), Etbench(series, false), Etbench(series, true)};
      // The same scenario with a machine shift over the middle third.
      std::vector<std::vector<double>> moved = series;
      std::uniform_real_distribution<double> shift_size(0.05, 0.15);
      for (auto& v : moved) {
        const double f = 1 + shift_size(shift_rng);
        for (std::size_t i = length / 3; i < 2 * length / 3; ++i) v[i] *= f;
      }
      const std::vector<Flags> moved_flags[kRules] = {
          Each(moved, NightOverNight), Each(moved, RollingZ), Each(moved, EDivisivePermutation),
          Etbench(moved, false), Etbench(moved, true)};
      if (std::getenv("ETBENCH_QUALITY_DEBUG")) {
        for (std::size_t m = 0; m < series.size(); ++m) {
          for (std::size_t f : flags[4][m]) {
            if (!truth[m] || !Near(f, *truth[m])) {
              std::fprintf(stderr, "false: len %zu cv %.2f kind %zu flag %zu truth %zd\n", length, cv,
                           m % 6, f, truth[m] ? static_cast<ssize_t>(*truth[m]) : -1);
            }
          }
        }
      }
      for (int r = 0; r < kRules; ++r) {
        for (std::size_t m = 0; m < series.size(); ++m) {
          Tally(flags[r][m], truth[m], m % 6 == 4, &all[r]);
          Tally(flags[r][m], truth[m], m % 6 == 4, &by_cv[cv][static_cast<std::size_t>(r)]);
          Tally(moved_flags[r][m], truth[m], m % 6 == 4, &shifted[r]);
        }
      }
      if (length <= 100) {  // replaying 500-run histories night by night takes minutes
        Delay(series, truth, [](const auto& s) { return Each(s, NightOverNight); }, &all[0]);
        Delay(series, truth, [](const auto& s) { return Each(s, RollingZ); }, &all[1]);
        Delay(series, truth, [](const auto& s) { return Each(s, EDivisivePermutation); },
              &all[2]);
        Delay(series, truth, [](const auto& s) { return Etbench(s, false); }, &all[3]);
        Delay(series, truth, [](const auto& s) { return Etbench(s, true); }, &all[4]);
      }
    }
  }
  std::printf("seed %llu, %zu metrics per scenario, lengths 30/100/500, CV 1/2/5/10%%, steps "
              "±1–20%% in half the metrics, 3%% of runs +30–80%% (load), variance doublings, "
              "drifts (+6%% over the history; counted apart)\n\n| rule | precision | recall | F1 | "
              "delay (runs, ≤100-run histories) | flags | false | drifts flagged |\n"
              "|---|--:|--:|--:|--:|--:|--:|--:|\n",
              static_cast<unsigned long long>(seed), metrics);
  for (int r = 0; r < kRules; ++r) all[r].Print(names[r]);
  std::printf("\nThe same scenarios with a machine shift (every series 5–15%% slower over the "
              "middle third)\n\n| rule | precision | recall | F1 | delay | flags | false | drifts "
              "flagged |\n|---|--:|--:|--:|--:|--:|--:|--:|\n");
  for (int r = 0; r < kRules; ++r) shifted[r].Print(names[r]);
  for (const auto& [cv, scores] : by_cv) {
    std::printf("\nCV %.0f%%\n\n| rule | precision | recall | F1 | delay | flags | false | "
                "drifts flagged |\n|---|--:|--:|--:|--:|--:|--:|--:|\n", 100 * cv);
    for (int r = 0; r < kRules; ++r) scores[static_cast<std::size_t>(r)].Print(names[r]);
  }
  return 0;
}
