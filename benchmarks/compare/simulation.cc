// Part 1 of the gate-quality evaluation: simulated comparisons with
// realistic noise, run through the real comparison engine.
//
// Each comparison: 200 operators with medians log-uniform in [50 µs, 5 ms]
// (so a 5% change is at least 2.5 µs, clear of min_delta 1 µs),
// total CV uniform in [2%, 10%] (log-normal body), 1% outliers (×1.3–2, a
// preemption), a per-iteration common-mode factor (CV 0.5–1.5%, frequency
// jitter shared by every operator of an iteration), framework overhead 2%
// of the total; Method::execute = Σ operators + overhead (so its noise and
// outliers are the operators'), framework tax from the same. 50 iterations
// per side.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "etbench/compare/comparison.h"
#include "etbench/reports/row_reason.h"
#include "etbench/stats/rng.h"
#include "gate_quality.h"

namespace etbench::gate_quality {
namespace {

constexpr int kOps = 200;
constexpr int kIterations = 50;

class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed) {}
  double Uniform() { return rng_.Uniform(); }
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform(); }
  double Normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = std::max(Uniform(), 1e-300), u2 = Uniform();
    const double r = std::sqrt(-2 * std::log(u1));
    spare_ = r * std::sin(2 * M_PI * u2);
    has_spare_ = true;
    return r * std::cos(2 * M_PI * u2);
  }

 private:
  internal::Xoshiro256 rng_;
  double spare_ = 0;
  bool has_spare_ = false;
};

struct OpParams {
  double median;
  double sigma;  // of the operator's own log-normal noise
};

struct Model {
  std::vector<OpParams> ops;
  double common_sigma;
  double overhead_median;
  double total_cv_of_op0 = 0;
};

double SigmaOf(double cv) { return std::sqrt(std::log1p(cv * cv)); }

Model MakeModel(Random& rng, double op0_cv_lo, double op0_cv_hi, double others_cv_hi = 0.10) {
  Model m;
  const double common_cv = rng.Uniform(0.005, 0.015);
  m.common_sigma = SigmaOf(common_cv);
  double total = 0;
  for (int i = 0; i < kOps; ++i) {
    OpParams op;
    op.median = std::exp(rng.Uniform(std::log(0.05), std::log(5.0)));  // ms
    const double cv = i == 0 ? rng.Uniform(op0_cv_lo, op0_cv_hi) : rng.Uniform(0.02, others_cv_hi);
    if (i == 0) m.total_cv_of_op0 = cv;
    // The operator's own noise plus the common mode give the total CV.
    const double own = std::sqrt(std::max(1e-6, SigmaOf(cv) * SigmaOf(cv) -
                                                    m.common_sigma * m.common_sigma));
    op.sigma = own;
    total += op.median;
    m.ops.push_back(op);
  }
  m.overhead_median = 0.02 * total;
  return m;
}

// One side's metrics: op_factor scales operator 0 (or every operator when
// all_ops), overhead_factor the overhead.
// Run-to-run effects: `repetitions` > 1 splits the iterations into that
// many repetitions, each with its own factor per operator (log-normal with
// `rep_sigma`, e.g. memory layout) and for the whole model, and records the
// group sizes. 1 = independent samples, as before.
struct Repetitions {
  int count = 1;
  double rep_sigma = 0;
};

MetricSet Sample(const Model& model, Random& rng, double op0_factor, double all_factor,
                 int iterations = kIterations, Repetitions reps = {}) {
  MetricSet set;
  set.context = {{"time_source", "ns"}};
  std::vector<std::vector<double>> samples(kOps, std::vector<double>(iterations));
  std::vector<double> execute(iterations), tax(iterations);
  std::vector<double> rep_factor(kOps, 1.0);
  const int per_rep = iterations / reps.count;
  for (int t = 0; t < iterations; ++t) {
    if (reps.count > 1 && t % per_rep == 0) {
      for (double& f : rep_factor) f = std::exp(reps.rep_sigma * rng.Normal());
    }
    const double common = std::exp(model.common_sigma * rng.Normal());
    double sum = 0;
    for (int i = 0; i < kOps; ++i) {
      const OpParams& op = model.ops[i];
      double x = op.median * std::exp(op.sigma * rng.Normal()) * common * all_factor *
                 rep_factor[i];
      if (i == 0) x *= op0_factor;
      if (rng.Uniform() < 0.01) x *= rng.Uniform(1.3, 2.0);
      samples[i][t] = x;
      sum += x;
    }
    const double overhead =
        model.overhead_median * std::exp(SigmaOf(0.05) * rng.Normal()) * common * all_factor;
    execute[t] = sum + overhead;
    tax[t] = overhead / execute[t] * 100;
  }
  for (int i = 0; i < kOps; ++i) {
    Metric m;
    m.key = {"sim", "Execute", MetricKind::kEvent, "native_call_op" + std::to_string(i) + ".out",
             i, "", 0};
    m.unit = "ms";
    m.samples = std::move(samples[i]);
    m.is_kernel_or_delegate_call = true;
    set.metrics.push_back(std::move(m));
  }
  Metric e;
  e.key = {"sim", "Execute", MetricKind::kEvent, "Method::execute", 0, "", 0};
  e.unit = "ms";
  e.end_to_end = true;
  e.samples = std::move(execute);
  set.metrics.push_back(std::move(e));
  Metric f;
  f.key = {"sim", "Execute", MetricKind::kFrameworkTax, "framework_tax", std::nullopt, "", 0};
  f.unit = "percent";
  f.end_to_end = true;
  f.samples = std::move(tax);
  set.metrics.push_back(std::move(f));
  if (reps.count > 1) {
    for (Metric& m : set.metrics) m.group_sizes.assign(reps.count, static_cast<uint64_t>(per_rep));
  }
  return set;
}

const MetricComparison* Find(const Comparison& c, const std::string& name) {
  for (const MetricComparison& r : c.rows) {
    if (r.key.name == name) return &r;
  }
  return nullptr;
}

double Cv(std::vector<double> x) {
  double mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  return std::sqrt(ss / static_cast<double>(x.size() - 1)) / mean;
}

}  // namespace

bool RunSimulation(std::size_t comparisons, unsigned long long seed,
                   const SimulationOverrides& overrides) {
  Thresholds thresholds = DefaultThresholds();
  if (overrides.fdr > 0) thresholds.fdr = overrides.fdr;
  if (overrides.alpha > 0) thresholds.alpha = overrides.alpha;
  if (overrides.plain_bh) thresholds.noise_aware_fdr = false;
  thresholds.optimal_fdr_weights = overrides.optimal_weights;
  std::printf("Part 1: simulation (%zu comparisons per scenario, %d operators + Method::execute "
              "+ framework tax, %d iterations per side, seed %llu)\n",
              comparisons, kOps, kIterations, seed);
  std::printf("Thresholds: per-operator %.0f%% (min_delta 1us) with %s BH q=%.3g; end to end "
              "%.0f%% with alpha=%.3g; framework tax +%.1f pp; %d bootstrap resamples\n\n",
              thresholds.per_operator.relative * 100,
              thresholds.noise_aware_fdr ? "noise-aware" : "plain", thresholds.fdr,
              thresholds.end_to_end.relative * 100, thresholds.alpha,
              thresholds.framework_tax.max_increase_pp, thresholds.bootstrap_resamples);
  bool ok = true;

  // A/A.
  {
    Random rng(seed);
    std::size_t gate_fail = 0, op_fail = 0, e2e_fail = 0, inconclusive = 0, false_rows = 0,
                rows = 0;
    std::vector<double> e2e_cv;
    for (std::size_t k = 0; k < comparisons; ++k) {
      const Model model = MakeModel(rng, 0.02, 0.10);
      const MetricSet b = Sample(model, rng, 1, 1);
      const MetricSet c = Sample(model, rng, 1, 1);
      e2e_cv.push_back(Cv(b.metrics[kOps].samples));
      auto cmp = Compare(b, c, thresholds, {k});
      if (!cmp.ok()) return false;
      gate_fail += GateExitCode(*cmp, false) == 1;
      inconclusive += cmp->outcome == GateOutcome::kInconclusive;
      bool any_op = false, any_e2e = false;
      for (const MetricComparison& r : cmp->rows) {
        ++rows;
        if (r.verdict != Verdict::kRegression) continue;
        ++false_rows;
        if (std::getenv("GATE_QUALITY_VERBOSE")) {
          std::printf("  false alarm: %s change %+.2f%% CI [%+.2f%%, %+.2f%%] p %.2g p_adj %.2g "
                      "weight %.3g mde %.2f%%\n",
                      r.label.c_str(), r.change * 100, r.ci_low * 100, r.ci_high * 100,
                      r.p_value, r.p_adjusted.value_or(NAN), r.fdr_weight.value_or(NAN),
                      r.mde * 100);
        }
        (r.end_to_end ? any_e2e : any_op) = true;
      }
      op_fail += any_op;
      e2e_fail += any_e2e;
    }
    std::sort(e2e_cv.begin(), e2e_cv.end());
    const bool pass = gate_fail * 100 <= comparisons;
    ok &= pass;
    std::printf("A/A (no change): gate false alarms %s  [target <= 1%%: %s]\n",
                Rate(gate_fail, comparisons).c_str(), pass ? "met" : "MISSED");
    std::printf("  from per-operator metrics %s, from end-to-end metrics %s\n",
                Rate(op_fail, comparisons).c_str(), Rate(e2e_fail, comparisons).c_str());
    std::printf("  false regressions per metric %s; comparisons with an inconclusive metric "
                "(exit 0 unless --fail-on-inconclusive) %s\n",
                Rate(false_rows, rows).c_str(), Rate(inconclusive, comparisons).c_str());
    std::printf("  Method::execute CV: median %.2f%%, 90th percentile %.2f%%\n\n",
                e2e_cv[e2e_cv.size() / 2] * 100, e2e_cv[e2e_cv.size() * 9 / 10] * 100);
  }

  // One operator 5% slower, its CV in [2%, 5%]; the other operators' CV in
  // [2%, 5%] (the scenario as specified), then in [2%, 10%] (stricter: the
  // noisy operators compete for the false-discovery budget).
  for (const double others_hi : {0.05, 0.10}) {
    Random rng(seed + (others_hi < 0.06 ? 1 : 4));
    std::size_t detected = 0, gate_fail = 0;
    std::size_t bucket_hits[3] = {0, 0, 0}, bucket_n[3] = {0, 0, 0};
    for (std::size_t k = 0; k < comparisons; ++k) {
      const Model model = MakeModel(rng, 0.02, 0.05, others_hi);
      const MetricSet b = Sample(model, rng, 1, 1);
      const MetricSet c = Sample(model, rng, 1.05, 1);
      auto cmp = Compare(b, c, thresholds, {k});
      if (!cmp.ok()) return false;
      const MetricComparison* r = Find(*cmp, "native_call_op0.out");
      const bool hit = r && r->verdict == Verdict::kRegression;
      detected += hit;
      if (!hit && r && std::getenv("GATE_QUALITY_VERBOSE")) {
        std::printf("  missed: CV %.2f%% change %+.2f%% CI [%+.2f%%, %+.2f%%] p %.2g p_adj %.2g "
                    "weight %.3g protected %d family %zu: %s\n",
                    model.total_cv_of_op0 * 100, r->change * 100, r->ci_low * 100,
                    r->ci_high * 100, r->p_value, r->p_adjusted.value_or(NAN),
                    r->fdr_weight.value_or(NAN), r->threshold_protected ? 1 : 0,
                    cmp->settings.family_size, reports::RowReason(*r).c_str());
      }
      gate_fail += GateExitCode(*cmp, false) == 1;
      const int bucket = std::min(2, static_cast<int>((model.total_cv_of_op0 - 0.02) / 0.01));
      bucket_n[bucket]++;
      bucket_hits[bucket] += hit;
    }
    const bool pass = detected * 100 >= 95 * comparisons;
    const bool primary = others_hi < 0.06;
    if (primary) ok &= pass;
    std::printf("One operator +5%%, its CV uniform in 2-5%%, the others' in 2-%.0f%%%s: detected "
                "%s  [target >= 95%%: %s]\n",
                others_hi * 100, primary ? "" : " (stricter variant)",
                Rate(detected, comparisons).c_str(), pass ? "met" : "missed");
    std::printf("  gate failed %s\n", Rate(gate_fail, comparisons).c_str());
    const char* names[] = {"CV 2-3%", "CV 3-4%", "CV 4-5%"};
    for (int i = 0; i < 3; ++i) {
      std::printf("  %s: %s\n", names[i], Rate(bucket_hits[i], bucket_n[i]).c_str());
    }
    std::printf("\n");
  }

  // Exactly CV 5%, the worst case of "CV <= 5%", at 50 and 100 iterations.
  for (const int iterations : {kIterations, 2 * kIterations}) {
    Random rng(seed + 2);
    std::size_t detected = 0;
    for (std::size_t k = 0; k < comparisons; ++k) {
      const Model model = MakeModel(rng, 0.05, 0.05, 0.05);
      const MetricSet b = Sample(model, rng, 1, 1, iterations);
      const MetricSet c = Sample(model, rng, 1.05, 1, iterations);
      auto cmp = Compare(b, c, thresholds, {k});
      if (!cmp.ok()) return false;
      const MetricComparison* r = Find(*cmp, "native_call_op0.out");
      detected += r && r->verdict == Verdict::kRegression;
    }
    std::printf("One operator +5%% at exactly CV 5%% (others 2-5%%; the worst case of CV <= 5%%), "
                "%d iterations: detected %s\n",
                iterations, Rate(detected, comparisons).c_str());
  }

  std::printf("\n");

  // Whole model 3% slower.
  {
    Random rng(seed + 3);
    std::size_t detected = 0, gate_fail = 0;
    for (std::size_t k = 0; k < comparisons; ++k) {
      const Model model = MakeModel(rng, 0.02, 0.10);
      const MetricSet b = Sample(model, rng, 1, 1);
      const MetricSet c = Sample(model, rng, 1, 1.03);
      auto cmp = Compare(b, c, thresholds, {k});
      if (!cmp.ok()) return false;
      const MetricComparison* r = Find(*cmp, "Method::execute");
      detected += r && r->verdict == Verdict::kRegression;
      gate_fail += GateExitCode(*cmp, false) == 1;
    }
    const bool pass = detected * 100 >= 95 * comparisons;
    ok &= pass;
    std::printf("End to end +3%% (every operator and the overhead): Method::execute flagged %s  "
                "[target >= 95%%: %s]\n",
                Rate(detected, comparisons).c_str(), pass ? "met" : "MISSED");
    std::printf("  gate failed %s\n\n", Rate(gate_fail, comparisons).c_str());
  }
  // Run-to-run effects (not in the targets above): 5 repetitions × 10
  // iterations per side, each repetition with its own factor per operator
  // (CV 2%, e.g. memory layout). Judged with the repetitions recorded (the
  // default) and with the samples taken as independent (the ablation).
  {
    Random rng(seed + 5);
    const Repetitions reps{5, SigmaOf(0.02)};
    auto independent = [](MetricSet set) {
      for (Metric& m : set.metrics) m.group_sizes.clear();
      return set;
    };
    std::size_t aa[2] = {0, 0}, hit[2] = {0, 0};
    for (std::size_t k = 0; k < comparisons; ++k) {
      const Model model = MakeModel(rng, 0.02, 0.10);
      const MetricSet b = Sample(model, rng, 1, 1, kIterations, reps);
      const MetricSet c = Sample(model, rng, 1, 1, kIterations, reps);
      const Model slowed = MakeModel(rng, 0.02, 0.05, 0.10);
      const MetricSet sb = Sample(slowed, rng, 1, 1, kIterations, reps);
      const MetricSet sc = Sample(slowed, rng, 1.05, 1, kIterations, reps);
      for (int mode = 0; mode < 2; ++mode) {
        auto a = mode == 0 ? Compare(b, c, thresholds, {k})
                           : Compare(independent(b), independent(c), thresholds, {k});
        auto d = mode == 0 ? Compare(sb, sc, thresholds, {k})
                           : Compare(independent(sb), independent(sc), thresholds, {k});
        if (!a.ok() || !d.ok()) return false;
        aa[mode] += GateExitCode(*a, false) == 1;
        if (mode == 0 && std::getenv("GATE_QUALITY_VERBOSE")) {
          for (const MetricComparison& r : a->rows) {
            if (r.verdict != Verdict::kRegression) continue;
            std::printf("  clustered false alarm: %s %+.2f%% CI [%+.2f%%, %+.2f%%] p %.2g adj %.2g "
                        "%s deff %.2f icc %.2f\n",
                        r.label.c_str(), r.change * 100, r.ci_low * 100, r.ci_high * 100,
                        r.p_value, r.p_adjusted.value_or(NAN), r.test.c_str(), r.design_effect,
                        r.repetition_correlation);
          }
        }
        const MetricComparison* r = Find(*d, "native_call_op0.out");
        hit[mode] += r && r->verdict == Verdict::kRegression;
      }
    }
    std::printf("With run-to-run effects (5 repetitions x 10 iterations, per-operator repetition "
                "factor CV 2%%):\n");
    std::printf("  A/A gate false alarms: by repetition %s; samples taken as independent %s\n",
                Rate(aa[0], comparisons).c_str(), Rate(aa[1], comparisons).c_str());
    std::printf("  one operator +5%% (own CV 2-5%%) detected: by repetition %s; as independent "
                "%s\n\n",
                Rate(hit[0], comparisons).c_str(), Rate(hit[1], comparisons).c_str());
  }
  return ok;
}

}  // namespace etbench::gate_quality
