// The fast look (compare/sequential_fast_look.h) on adversarial nulls:
// simulated first looks as AbSequence takes them — ABBA/BAAB blocks (orders
// drawn as AbbaSchedule draws them, after a calibration run of A then B)
// until at least kFastLookBlocks with each order twice, or none by
// kLastFastBlocks (the first rank look comes at 9 blocks or later) — runs on
// the log scale with effects that break a plain t-test on the block
// differences — a run's position in its block, a run after a switch, heavy
// tails, a step, a neighbour switching on and off — and the rate at which
// the look rejects at nominal levels. Deterministic for a seed (xoshiro,
// no <random> distributions). The plain t-test on the same blocks is shown
// beside it, to show that each null bites.
//
//   gate_quality --fast-look-nulls [--comparisons N] [--seed S]

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "etbench/compare/sequential_fast_look.h"
#include "etbench/stats/rng.h"
#include "etbench/stats/stats.h"
#include "gate_quality.h"

namespace etbench::gate_quality {
namespace {

constexpr double kPi = 3.14159265358979323846;
// The nominal levels checked: the fast look tests at a·w, a ∈ {alpha 1%,
// BH levels up to fdr 2%, 1 − confidence 5%}, w = 1/J with J ≥ 2 looks,
// so every level it uses lies between 0.05% and 2.5%.
constexpr double kLevels[] = {0.05, 0.01, 0.001};
constexpr std::size_t kLastFastBlocks = 8;

struct Rng {
  internal::Xoshiro256 gen;
  double Uniform() { return gen.Uniform(); }
  double Open() { return (static_cast<double>(gen.Next() >> 11) + 0.5) * 0x1.0p-53; }
  double Normal() { return std::sqrt(-2 * std::log(Open())) * std::cos(2 * kPi * Open()); }
  // Student t with 2 df: Z / sqrt(χ²₂/2), χ²₂ = −2 log U.
  double T2() { return Normal() / std::sqrt(-std::log(Open())); }
  bool Coin() { return (gen.Next() >> 63) == 0; }
};

// One run as a scenario sees it.
struct RunSlot {
  std::size_t index;     // 0-based over the comparison's runs
  std::size_t position;  // 0..3 within its block
  bool is_b;
  bool after_switch;     // the previous run was of the other variant
};

// A scenario: a fresh state per comparison, then each run's log value.
struct Scenario {
  std::string name;
  double effect;  // the true log change of B (0: a null)
  std::function<std::function<double(const RunSlot&, Rng&)>(Rng&, std::size_t runs)> make;
};

double Log1p(double percent) { return std::log1p(percent / 100); }

std::vector<Scenario> Scenarios() {
  using Run = std::function<double(const RunSlot&, Rng&)>;
  const auto normal = [](double sigma) {
    return [sigma](Rng&, std::size_t) -> Run {
      return [sigma](const RunSlot&, Rng& r) { return sigma * r.Normal(); };
    };
  };
  const auto with = [](double sigma, std::function<double(const RunSlot&)> effect) {
    return [sigma, effect](Rng&, std::size_t) -> Run {
      return [sigma, effect](const RunSlot& s, Rng& r) { return sigma * r.Normal() + effect(s); };
    };
  };
  std::vector<Scenario> out;
  out.push_back({"independent normal runs, sigma 1%", 0, normal(0.01)});
  out.push_back({"first run of a block +5%, sigma 0.5%", 0,
                 with(0.005, [](const RunSlot& s) { return s.position == 0 ? Log1p(5) : 0; })});
  out.push_back({"a run after a switch +3%, sigma 0.5%", 0,
                 with(0.005, [](const RunSlot& s) { return s.after_switch ? Log1p(3) : 0; })});
  out.push_back({"first and last run of a block +5%, sigma 0.5%", 0,
                 with(0.005, [](const RunSlot& s) {
                   return s.position == 0 || s.position == 3 ? Log1p(5) : 0;
                 })});
  out.push_back({"neighbour busy in each block's middle runs +10%, sigma 0.5%", 0,
                 with(0.005, [](const RunSlot& s) {
                   return s.position == 1 || s.position == 2 ? Log1p(10) : 0;
                 })});
  out.push_back({"heavy tails: Student t, 2 df, scale 1%", 0, [](Rng&, std::size_t) -> Run {
                   return [](const RunSlot&, Rng& r) { return 0.01 * r.T2(); };
                 }});
  out.push_back({"5% of runs +50%, sigma 0.5%", 0, [](Rng&, std::size_t) -> Run {
                   return [](const RunSlot&, Rng& r) {
                     const double x = 0.005 * r.Normal();
                     return r.Uniform() < 0.05 ? x + Log1p(50) : x;
                   };
                 }});
  out.push_back({"step drift: +10% from a random run on, sigma 0.5%", 0,
                 [](Rng& r, std::size_t runs) -> Run {
                   const std::size_t at = r.gen.Below(static_cast<uint32_t>(runs));
                   return [at](const RunSlot& s, Rng& rr) {
                     return 0.005 * rr.Normal() + (s.index >= at ? Log1p(10) : 0);
                   };
                 }});
  out.push_back({"linear drift +1% per run, sigma 0.5%", 0,
                 with(0.005, [](const RunSlot& s) { return 0.01 * static_cast<double>(s.index); })});
  out.push_back({"neighbour on/off: +20% while on, switches after a run w.p. 0.3, sigma 0.5%", 0,
                 [](Rng& r, std::size_t) -> Run {
                   auto on = std::make_shared<bool>(r.Coin());
                   return [on](const RunSlot&, Rng& rr) {
                     const double x = 0.005 * rr.Normal() + (*on ? Log1p(20) : 0);
                     if (rr.Uniform() < 0.3) *on = !*on;
                     return x;
                   };
                 }});
  out.push_back({"all at once: first +5%, switch +3%, t2 noise 1%, step +10%, neighbour on/off +20%",
                 0, [](Rng& r, std::size_t runs) -> Run {
                   const std::size_t at = r.gen.Below(static_cast<uint32_t>(runs));
                   auto on = std::make_shared<bool>(r.Coin());
                   return [at, on](const RunSlot& s, Rng& rr) {
                     double x = 0.01 * rr.T2() + (s.position == 0 ? Log1p(5) : 0) +
                                (s.after_switch ? Log1p(3) : 0) + (s.index >= at ? Log1p(10) : 0) +
                                (*on ? Log1p(20) : 0);
                     if (rr.Uniform() < 0.3) *on = !*on;
                     return x;
                   };
                 }});
  // Power: real changes of B (not nulls; the rate is the fast lane's).
  out.push_back({"POWER B +10%, sigma 1%", Log1p(10), normal(0.01)});
  out.push_back({"POWER B +30%, sigma 2%", Log1p(30), normal(0.02)});
  out.push_back({"POWER B +30%, first +5%, switch +3%, sigma 2%", Log1p(30),
                 with(0.02, [](const RunSlot& s) {
                   return (s.position == 0 ? Log1p(5) : 0) + (s.after_switch ? Log1p(3) : 0);
                 })});
  out.push_back({"POWER B +5%, sigma 1%", Log1p(5), normal(0.01)});
  return out;
}

// One simulated comparison's first blocks: the fast look's p (1 when the
// orders never balanced) and a plain t-test's on the first kFastLookBlocks
// blocks whatever their orders (the naive fast lane).
std::pair<double, double> OneLook(const Scenario& scenario, Rng& r) {
  auto run = scenario.make(r, 4 * kLastFastBlocks);
  std::vector<BlockContrast> contrasts;
  std::vector<double> d;
  std::vector<bool> orders;
  bool prev_b = true;  // the calibration ran A, then B
  std::size_t fast_blocks = 0;
  for (std::size_t k = 0; k < kLastFastBlocks; ++k) {
    if (fast_blocks == 0 && k >= kFastLookBlocks && FastLookOrdersBalanced(orders)) fast_blocks = k;
    const bool a_first = r.Coin();
    double a[2], b[2];
    int na = 0, nb = 0;
    for (std::size_t pos = 0; pos < 4; ++pos) {
      const bool is_b = (pos == 0 || pos == 3) != a_first;
      const RunSlot slot{4 * k + pos, pos, is_b, is_b != prev_b};
      double x = run(slot, r);
      if (is_b) {
        x += scenario.effect;
        b[nb++] = x;
      } else {
        a[na++] = x;
      }
      prev_b = is_b;
    }
    BlockContrast c;
    c.difference = 0.5 * (b[0] + b[1]) - 0.5 * (a[0] + a[1]);
    c.within_a = a[0] - a[1];
    c.within_b = b[0] - b[1];
    c.a_first = a_first;
    contrasts.push_back(c);
    d.push_back(c.difference);
    orders.push_back(a_first);
  }
  if (fast_blocks == 0 && FastLookOrdersBalanced(orders)) fast_blocks = kLastFastBlocks;
  const std::size_t blocks = kFastLookBlocks;
  d.resize(blocks);
  contrasts.resize(fast_blocks);
  const StudentizedLook look = OrderBalancedT(contrasts);
  double mean = 0, var = 0;
  for (double x : d) mean += x / static_cast<double>(blocks);
  for (double x : d) var += (x - mean) * (x - mean) / static_cast<double>(blocks - 1);
  const double plain =
      var > 0 ? StudentTwoSidedP(mean / std::sqrt(var / static_cast<double>(blocks)),
                                 static_cast<double>(blocks - 1))
              : (mean != 0 ? 0.0 : 1.0);
  return {look.p_value, plain};
}

}  // namespace

bool RunFastLookNulls(std::size_t comparisons, unsigned long long seed) {
  std::printf("The fast look on adversarial nulls: %zu simulated comparisons per scenario (the "
              "fast look at the first %zu-%zu blocks with each order twice), seed %llu.\n"
              "Per nominal level l: the fast look's rejections (p <= l) with the 95%% Wilson upper "
              "bound, and the plain t-test's on the same blocks.\n\n",
              comparisons, kFastLookBlocks, kLastFastBlocks, seed);
  std::printf("| scenario | l | fast look | 95%% upper | <= l | plain t-test |\n|---|---|---|---|---|---|\n");
  bool ok = true;
  std::size_t index = 0;
  for (const Scenario& scenario : Scenarios()) {
    Rng r{internal::Xoshiro256(seed + 1000003ull * ++index)};
    std::vector<std::size_t> fast(std::size(kLevels)), plain(std::size(kLevels));
    for (std::size_t i = 0; i < comparisons; ++i) {
      const auto [p_fast, p_plain] = OneLook(scenario, r);
      for (std::size_t l = 0; l < std::size(kLevels); ++l) {
        fast[l] += p_fast <= kLevels[l];
        plain[l] += p_plain <= kLevels[l];
      }
    }
    const bool null = scenario.effect == 0;
    for (std::size_t l = 0; l < std::size(kLevels); ++l) {
      const double upper = WilsonInterval(fast[l], comparisons).second;
      const bool within = upper <= kLevels[l];
      if (null) ok = ok && within;
      std::printf("| %s | %g%% | %.4f%% | %.4f%% | %s | %.4f%% |\n", scenario.name.c_str(),
                  100 * kLevels[l], 100.0 * static_cast<double>(fast[l]) / static_cast<double>(comparisons),
                  100 * upper, null ? (within ? "yes" : "NO") : "(power)",
                  100.0 * static_cast<double>(plain[l]) / static_cast<double>(comparisons));
    }
  }
  std::printf("\n%s\n", ok ? "Every null within its nominal levels (95% upper bound)."
                           : "Some null EXCEEDS a nominal level.");
  return ok;
}

}  // namespace etbench::gate_quality
