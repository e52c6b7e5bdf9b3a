// Property test of `history detect` on recorded real histories: plain steps
// planted at random places and sizes (seeded, deterministic) are found
// within 3 runs of where they were planted, and the unplanted parts stay
// quiet. The histories are the runs of the committed real fixtures before
// their injected slowdown (run 25): 24 runs of the default suite on the
// shared VM, one recorded under load, one quiet; per metric the per-run
// lower deciles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "etbench/history/detect.h"
#include "history_test_util.h"

namespace etbench::history {
namespace {

constexpr std::size_t kRuns = 24;  // runs before the fixtures' injected slowdown

HistoryWindow FixtureWindow(const std::string& fixture) {
  return testing::RealHistoryFixture(fixture, kRuns);
}

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double MedianP10(const MetricHistory& h) {
  std::vector<double> v;
  for (const SeriesPoint& p : h.points) v.push_back(p.p10);
  return MedianOf(v);
}

// A uniform draw in [lo, hi) from the engine's raw bits (std's
// distributions differ between standard libraries; the engine does not).
double Uniform(std::mt19937_64& engine, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

std::size_t UniformIndex(std::mt19937_64& engine, std::size_t n) {
  return static_cast<std::size_t>(engine() % n);
}

// A code change of one operator of one model: its kernel call and the
// OPERATOR_CALL around it slower by `op_change` from window position `at`
// on, and the model's Method::execute by the same time.
struct Plant {
  std::string model;
  int32_t instruction = 0;
  std::size_t at = 0;
  double execute_change = 0;  // relative change of Method::execute
  double op_change = 0;
};

bool IsExecute(const MetricKey& k) {
  return k.kind == MetricKind::kEvent && k.name == "Method::execute";
}

bool IsPlantedOp(const MetricKey& k, const Plant& plant) {
  return k.model == plant.model && k.kind == MetricKind::kEvent && k.block == "Execute" &&
         k.instruction_id && *k.instruction_id == plant.instruction &&
         (k.name == "OPERATOR_CALL" || k.name.rfind("native_call_", 0) == 0);
}

// What the planted change moves: the operator, Method::execute and the
// framework tax (a percentage of Method::execute) of its model.
bool MovedByThePlant(const MetricKey& k, const Plant& plant) {
  if (k.model != plant.model) return false;
  return IsPlantedOp(k, plant) || IsExecute(k) || k.kind == MetricKind::kFrameworkTax;
}

// The window positions of the runs a model ran as usual: its
// Method::execute under 1.15 × its median. The others were slowed as a whole
// by background load (on the loaded fixture mlp ran +40% in 10 of its 24
// runs), and detect leaves such runs out (DetectOptions::load_cutoff): they
// carry no information about the step, so "k runs long" and "within 3 runs"
// count the usual runs. The test's own rule, on Method::execute alone; detect
// decides on the median of the model's metrics, so a run partly slowed can
// be kept by one and not the other (and a partly slowed run next to the
// plant can move the change point onto it).
std::vector<std::size_t> UsualRuns(const HistoryWindow& w, const std::string& model) {
  std::vector<std::size_t> usual;
  for (const MetricHistory& h : w.metrics) {
    if (h.metric.key.model != model || !IsExecute(h.metric.key)) continue;
    const double median = MedianP10(h);
    for (const SeriesPoint& p : h.points) {
      if (p.p10 < 1.15 * median) usual.push_back(static_cast<std::size_t>(p.run - 1));
    }
  }
  return usual;
}

// Draws a plant: a model, one of its kernel calls worth at least 5% of its
// Method::execute, an end-to-end change in [min_execute, max_execute) and a
// place with at least `min_runs` usual runs of the model on each side.
Plant DrawPlant(const HistoryWindow& w, std::mt19937_64& engine, double min_execute,
                double max_execute, std::size_t min_runs) {
  std::vector<std::pair<const MetricHistory*, double>> candidates;  // op, its share
  for (const MetricHistory& h : w.metrics) {
    const MetricKey& k = h.metric.key;
    const bool kernel_call = k.kind == MetricKind::kEvent && k.name.rfind("native_call_", 0) == 0;
    if (k.block != "Execute" || !kernel_call) {
      continue;
    }
    for (const MetricHistory& e : w.metrics) {
      if (e.metric.key.model == k.model && IsExecute(e.metric.key)) {
        const double share = MedianP10(h) / MedianP10(e);
        if (share >= 0.05) candidates.push_back({&h, share});
      }
    }
  }
  const auto& [op, share] = candidates.at(UniformIndex(engine, candidates.size()));
  Plant plant;
  plant.model = op->metric.key.model;
  plant.instruction = *op->metric.key.instruction_id;
  plant.execute_change = Uniform(engine, min_execute, max_execute);
  plant.op_change = plant.execute_change / share;
  const std::vector<std::size_t> usual = UsualRuns(w, plant.model);
  // Starts of a new segment with min_runs usual runs before and after.
  std::vector<std::size_t> places;
  for (std::size_t at = 1; at < kRuns; ++at) {
    const std::size_t before = static_cast<std::size_t>(
        std::count_if(usual.begin(), usual.end(), [at](std::size_t r) { return r < at; }));
    if (before >= min_runs && usual.size() - before >= min_runs) {
      places.push_back(at);
    }
  }
  plant.at = places.at(UniformIndex(engine, places.size()));
  return plant;
}

HistoryWindow Planted(HistoryWindow w, const Plant& plant) {
  for (MetricHistory& h : w.metrics) {
    const bool op = IsPlantedOp(h.metric.key, plant);
    const bool execute = h.metric.key.model == plant.model && IsExecute(h.metric.key);
    if (!op && !execute) continue;
    const double factor = 1 + (op ? plant.op_change : plant.execute_change);
    for (SeriesPoint& p : h.points) {
      if (static_cast<std::size_t>(p.run - 1) >= plant.at) p.p10 = p.p50 = p.p10 * factor;
    }
  }
  return w;
}

struct Tally {
  std::size_t trials = 0, found = 0, false_flags = 0;
  std::string missed;
};

Tally PlantSteps(const std::string& fixture, uint64_t seed, std::size_t trials, double min_execute,
                 double max_execute, std::size_t min_runs) {
  const HistoryWindow base = FixtureWindow(fixture);
  std::mt19937_64 engine(seed);
  Tally tally;
  for (std::size_t t = 0; t < trials; ++t) {
    const Plant plant = DrawPlant(base, engine, min_execute, max_execute, min_runs);
    const Detection d = DetectChangePoints(Planted(base, plant), {}, {});
    // Within 3 usual runs: from the 3rd usual run before the plant to the 3rd
    // after its first usual run (DrawPlant leaves at least 5 each side).
    const std::vector<std::size_t> usual = UsualRuns(base, plant.model);
    const auto first = std::lower_bound(usual.begin(), usual.end(), plant.at);
    const std::size_t earliest = *(first - 3), latest = *(first + 3);
    bool found = false;
    for (const ChangePoint& c : d.change_points) {
      if (!MovedByThePlant(c.key, plant)) {
        ++tally.false_flags;
        continue;
      }
      const bool planted = IsExecute(c.key) || IsPlantedOp(c.key, plant);
      found = found || (planted && c.regression && c.index >= earliest && c.index <= latest);
    }
    ++tally.trials;
    tally.found += found ? 1 : 0;
    if (!found) {
      tally.missed += " " + plant.model + "#" + std::to_string(plant.instruction) + "@" +
                      std::to_string(plant.at + 1) + "(" +
                      std::to_string(static_cast<int>(std::lround(1000 * plant.execute_change))) +
                      "‰)";
    }
  }
  return tally;
}

// The fixtures' own first 24 runs hold no change point: every one counted
// in a planted history is the plant's or a false flag.
TEST(HistoryPlantedStepsTest, TheUnplantedHistoriesHaveNoChangePoint) {
  for (const char* fixture :
       {"real_history_conv_slowdown.json", "real_history_quiet_conv_slowdown.json"}) {
    const Detection d = DetectChangePoints(FixtureWindow(fixture), {}, {});
    EXPECT_TRUE(d.change_points.empty()) << fixture;
  }
}

// A step of Method::execute of 2% (the built-in rule's amount) to 12%, from
// one operator, lasting at least 5 usual runs and preceded by at least 5,
// 100 per history. On the quiet history every one is found within 3 runs of
// where it was planted. On the loaded one 93 are (at least 90 asserted):
// the 7 missed are all mlp's, which background load slowed as a whole in
// 10 of the 24 runs, mostly on its permute_copy operators (11% of
// Method::execute, memory-bound, the noisiest series of the suite: a +32%
// plant measured +21% at p = 0.01 before the correction for 112 metrics).
// At most one false flag (a change point of a metric the plant does not
// move) per 20 planted histories on either; 0 measured.
TEST(HistoryPlantedStepsTest, PlainStepsAreFoundWhereTheyWerePlanted) {
  constexpr std::size_t kTrials = 100;
  const std::pair<const char*, std::size_t> histories[] = {
      {"real_history_quiet_conv_slowdown.json", kTrials}, {"real_history_conv_slowdown.json", 90}};
  for (const auto& [fixture, at_least] : histories) {
    const Tally tally = PlantSteps(fixture, 26, kTrials, 0.02, 0.12, 5);
    EXPECT_EQ(tally.trials, kTrials);
    EXPECT_GE(tally.found, at_least) << fixture << " missed:" << tally.missed;
    EXPECT_LE(20 * tally.false_flags, tally.trials) << fixture;
  }
}

}  // namespace
}  // namespace etbench::history
