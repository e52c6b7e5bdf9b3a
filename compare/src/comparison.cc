// The comparison engine (see comparison.h and docs/comparison.md).

#include "etbench/compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "etbench/compare/compare_guards.h"
#include "etbench/compare/design_effect.h"
#include "etbench/compare/fdr.h"
#include "etbench/compare/mann_whitney.h"
#include "etbench/compare/rng.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/perf_data.h"

namespace etbench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Seed of one metric and statistic: a stable hash of the key, so results
// do not depend on the order or the set of other metrics.
uint64_t MetricSeed(const MetricKey& key, Statistic statistic, uint64_t seed) {
  std::string text = key.model;
  text += '\x1f' + key.block + '\x1f' + std::to_string(static_cast<int>(key.kind)) + '\x1f' +
          key.name + '\x1f' + (key.instruction_id ? std::to_string(*key.instruction_id) : "-") +
          '\x1f' + key.delegate_id + '\x1f' + std::to_string(key.occurrence) + '\x1f' +
          StatisticName(statistic);
  uint64_t state = internal::Fnv1a64(text) ^ seed;
  return internal::SplitMix64(state);
}

// Indices of `set`'s metrics sorted by key; error on a duplicate key.
Result<std::vector<std::size_t>> SortedIndex(const MetricSet& set, const char* side) {
  std::vector<std::size_t> index(set.metrics.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  std::sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) {
    return set.metrics[a].key < set.metrics[b].key;
  });
  for (std::size_t i = 1; i < index.size(); ++i) {
    if (set.metrics[index[i - 1]].key == set.metrics[index[i]].key) {
      return InputError(std::string("duplicate metric in the ") + side + ": " +
                        MetricLabel(set.metrics[index[i]].key));
    }
  }
  return index;
}

struct Prepared {
  const Metric* baseline = nullptr;
  const Metric* candidate = nullptr;
  std::vector<double> sorted_b, sorted_c;
  MannWhitneyResult mw;
  ResolvedRule rule;
  double min_delta = 0;  // the rule's min_delta in the metric's unit
  bool in_family = false;
  /// Per-operator, but so quiet that noise cannot fake a threshold-sized
  /// change: tested at the raw level q, outside the BH family.
  bool threshold_protected = false;
  /// Counts for the gate: the rule's `gate` and not an OPERATOR_CALL
  /// wrapper of a kernel that is compared itself.
  bool gated = true;
  bool wrapper = false;
  double p_adjusted = kNaN;
  double weight = 1;
  DesignEffect design;
  bool clustered_test = false;  // p from the cluster-level t test
};

// The practical threshold in standard errors of the change of the median,
// from the pooled samples (so, under the null, independent of the ranks
// that the Mann–Whitney test uses).
double ThresholdInStandardErrors(const Prepared& p) {
  std::vector<double> pooled(p.sorted_b.size() + p.sorted_c.size());
  std::merge(p.sorted_b.begin(), p.sorted_b.end(), p.sorted_c.begin(), p.sorted_c.end(),
             pooled.begin());
  const double median = Percentile(pooled, 50);
  const double sigma = RobustSigma(pooled);
  const double nb = static_cast<double>(p.sorted_b.size());
  const double nc = static_cast<double>(p.sorted_c.size());
  // Asymptotic SE of a sample median: sqrt(π/2)·σ/√n (times the square
  // root of the design effect for clustered samples).
  const double se = 1.2533 * sigma * std::sqrt(1 / nb + 1 / nc);
  const GateRule& rule = p.rule.rule;
  const double threshold = p.baseline->key.kind == MetricKind::kFrameworkTax
                               ? rule.max_increase_pp
                               : std::max(rule.relative * std::fabs(median), p.min_delta);
  if (se <= 0) return INFINITY;
  return threshold / (se * std::sqrt(p.design.factor));
}

}  // namespace

const char* GateOutcomeName(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::kPass: return "pass";
    case GateOutcome::kRegression: return "regression";
    case GateOutcome::kInconclusive: return "inconclusive";
  }
  return "?";
}

Result<Comparison> Compare(const MetricSet& baseline, const MetricSet& candidate,
                           const Thresholds& thresholds, const CompareOptions& options) {
  Comparison out;
  if (Status s = CheckComparable(baseline, candidate, out.warnings); !s.ok()) return s.error();
  auto index_b = SortedIndex(baseline, "baseline");
  if (!index_b.ok()) return index_b.error();
  auto index_c = SortedIndex(candidate, "candidate");
  if (!index_c.ok()) return index_c.error();

  const std::size_t min_samples = static_cast<std::size_t>(thresholds.min_samples);
  std::map<std::string, double> overheads;  // EventOverhead of the baseline, by unit
  const auto overhead = [&](const std::string& unit) {
    auto it = overheads.find(unit);
    if (it == overheads.end()) it = overheads.emplace(unit, EventOverhead(baseline, unit)).first;
    return it->second;
  };
  std::set<std::string> unit_warnings;
  // Merge-join on the sorted keys.
  std::vector<Prepared> prepared;
  for (std::size_t i = 0, j = 0; i < index_b->size() && j < index_c->size();) {
    const Metric& mb = baseline.metrics[(*index_b)[i]];
    const Metric& mc = candidate.metrics[(*index_c)[j]];
    if (mb.key < mc.key) {
      ++i;
    } else if (mc.key < mb.key) {
      ++j;
    } else {
      Prepared p;
      p.baseline = &mb;
      p.candidate = &mc;
      p.sorted_b = mb.samples;
      p.sorted_c = mc.samples;
      std::sort(p.sorted_b.begin(), p.sorted_b.end());
      std::sort(p.sorted_c.begin(), p.sorted_c.end());
      p.mw = MannWhitneyU(p.sorted_b, p.sorted_c);
      p.design = EstimateDesignEffect(mb, mc);
      p.rule = ResolveRule(thresholds, mb);
      std::optional<double> min_delta =
          MinDeltaFor(p.rule.rule.min_delta, mb, mc, overhead(mb.unit));
      if (!min_delta) {
        if (unit_warnings.insert(p.rule.name + "|" + mb.unit).second) {
          const MinDelta& d = p.rule.rule.min_delta;
          out.warnings.push_back("min_delta " + std::to_string(d.value) + d.unit + " of " +
                                 p.rule.name + " does not apply to metrics in " + mb.unit +
                                 " (set a rule with a min_delta in that unit)");
        }
      }
      p.min_delta = min_delta.value_or(0.0);
      p.in_family = !mb.end_to_end && p.sorted_b.size() >= min_samples &&
                    p.sorted_c.size() >= min_samples;
      prepared.push_back(std::move(p));
      ++i;
      ++j;
    }
  }

  // Samples of one repetition (and of one session) move together. With
  // repetitions recorded, the change is tested at the level of the clusters
  // (a rank test saturates when the sides separate, however far apart they
  // are); the interval and the MDE are widened below. A handful of
  // repetitions estimates one metric's clustering poorly, and among many
  // metrics the ones whose clustering was underestimated would be the false
  // alarms: per-operator metrics borrow strength from each other — none is
  // taken as less clustered than the family's median (design_effect.h).
  std::vector<double> iccs;
  for (const Prepared& p : prepared) {
    if (!p.baseline->end_to_end && p.design.usable) iccs.push_back(p.design.icc);
  }
  std::sort(iccs.begin(), iccs.end());
  const double median_icc = iccs.empty() ? 0.0 : Percentile(iccs, 50);
  for (Prepared& p : prepared) {
    if (!p.baseline->end_to_end && p.design.usable) p.design = WithIccFloor(p.design, median_icc);
    // End-to-end metrics are few and tested one by one (no selection among
    // hundreds): with mild clustering the rank test, widened, keeps their
    // power.
    const bool mild = p.baseline->end_to_end && p.design.factor < kClusteredDesignEffect;
    if (p.design.usable && !mild) {
      p.mw.p_value = p.design.p_value;
      p.clustered_test = true;
    } else {
      p.mw.p_value = InflateTwoSidedP(p.mw.p_value, p.design.factor);
    }
  }

  // OPERATOR_CALL wraps native_call_<op> of the same instruction: the same
  // time plus dispatch, already judged (and attributed) as the kernel.
  // Gating both would count one regression twice and double the family.
  std::set<std::tuple<std::string, std::string, int32_t, int32_t>> kernels;
  for (const Prepared& p : prepared) {
    const MetricKey& k = p.baseline->key;
    if (p.baseline->is_kernel_or_delegate_call && k.instruction_id &&
        EventRoleOf(k.name, !k.delegate_id.empty()) == EventRole::kKernelCall) {
      kernels.insert({k.model, k.block, *k.instruction_id, k.occurrence});
    }
  }
  for (Prepared& p : prepared) {
    const MetricKey& k = p.baseline->key;
    p.wrapper = EventRoleOf(k.name, !k.delegate_id.empty()) == EventRole::kOperatorCall &&
                !p.baseline->end_to_end && k.instruction_id &&
                kernels.count({k.model, k.block, *k.instruction_id, k.occurrence}) > 0;
    p.gated = p.rule.rule.gate && !p.wrapper;
    // Metrics that cannot fail the gate do not spend its error budget.
    p.in_family = p.in_family && p.gated;
  }

  // Noise-aware family: a per-operator metric whose threshold lies so many
  // standard errors away that the null could pass the practical test with
  // probability below a tenth of BH's first-step level is protected by its
  // threshold and leaves the family (independent filtering: d comes from
  // the pooled samples). The rest get Roeder–Wasserman optimal weights.
  std::vector<double> family_p, family_d;
  if (thresholds.noise_aware_fdr) {
    std::size_t candidates = 0;
    for (const Prepared& p : prepared) candidates += p.in_family;
    const double z_conf = NormalQuantile((1 + thresholds.confidence) / 2);
    const double negligible =
        0.1 * thresholds.fdr / (2.0 * static_cast<double>(std::max<std::size_t>(1, candidates)));
    for (Prepared& p : prepared) {
      if (!p.in_family) continue;
      const double d = ThresholdInStandardErrors(p);
      const bool median_only = p.rule.rule.statistics == std::vector<Statistic>{Statistic::kP50};
      if (median_only && NormalSf(d - z_conf) < negligible) {
        p.in_family = false;
        p.threshold_protected = true;
        continue;
      }
      family_d.push_back(d);
    }
  }
  for (const Prepared& p : prepared) {
    if (p.in_family) family_p.push_back(p.mw.p_value);
  }
  const std::size_t family_size = family_p.size();
  // Optimal weights are off by default: d comes from the pooled samples,
  // and a large real change inflates their spread, so the clearest changes
  // got the smallest weights (docs/comparison.md). Equal weights: plain BH.
  const std::vector<double> weights = thresholds.noise_aware_fdr && thresholds.optimal_fdr_weights
                                          ? OptimalWeights(family_d, thresholds.fdr)
                                          : std::vector<double>(family_size, 1.0);
  const std::vector<double> adjusted = WeightedBenjaminiHochberg(family_p, weights);
  for (std::size_t i = 0, f = 0; i < prepared.size(); ++i) {
    if (!prepared[i].in_family) continue;
    prepared[i].weight = weights[f];
    prepared[i].p_adjusted = adjusted[f++];
  }
  // The MDE uses the level a lone per-operator regression must reach
  // (BH's first step, q·w/m) or alpha for end-to-end metrics.
  const double z_power = NormalQuantile(thresholds.power);
  const double m = static_cast<double>(std::max<std::size_t>(1, family_size));
  const double z_alpha = NormalQuantile(1 - thresholds.alpha / 2);

  BootstrapCache cache;
  const BootstrapSettings bootstrap{thresholds.bootstrap_resamples, thresholds.confidence};

  for (const Prepared& p : prepared) {
    const Metric& mb = *p.baseline;
    const GateRule& rule = p.rule.rule;
    const bool tax = mb.key.kind == MetricKind::kFrameworkTax;
    const std::size_t nb = p.sorted_b.size(), nc = p.sorted_c.size();
    const double min_delta = p.min_delta;
    for (Statistic statistic : rule.statistics) {
      MetricComparison row;
      row.key = mb.key;
      row.label = MetricLabel(mb.key);
      row.unit = mb.unit;
      row.end_to_end = mb.end_to_end;
      row.statistic = statistic;
      row.n_baseline = nb;
      row.n_candidate = nc;
      row.p_value = p.mw.p_value;
      if (p.in_family) {
        row.p_adjusted = p.p_adjusted;
        row.fdr_weight = p.weight;
      }
      row.prob_superiority = p.mw.prob_superiority;
      row.design_effect = p.design.factor;
      row.repetition_correlation = p.design.icc;
      row.session_correlation = p.design.session_share;
      row.test = p.clustered_test ? "clustered_t" : "mann_whitney";
      // Ungated per-operator metrics are judged at BH's first step q/m, so
      // that they never show more than the family would have flagged.
      const bool ungated_operator = !mb.end_to_end && !p.gated;
      row.level = mb.end_to_end     ? thresholds.alpha
                  : ungated_operator ? thresholds.fdr / m
                                     : thresholds.fdr;
      row.threshold_protected = p.threshold_protected;
      row.rule = p.wrapper ? std::string("operator_call_wrapper") : p.rule.name;
      row.direction = rule.direction;
      row.gated = p.gated;
      row.ci_low = row.ci_high = row.mde = kNaN;

      const bool enough = nb >= min_samples && nc >= min_samples;
      if (nb > 0 && nc > 0) {
        row.baseline_value = ComputeStatistic(p.sorted_b, statistic);
        row.candidate_value = ComputeStatistic(p.sorted_c, statistic);
        row.delta = row.candidate_value - row.baseline_value;
        const double base = std::fabs(row.baseline_value);
        if (tax) {
          row.scale = ChangeScale::kAbsolute;
          row.threshold = rule.max_increase_pp;
        } else if (base == 0) {
          row.scale = ChangeScale::kAbsolute;
          row.threshold = min_delta;
        } else {
          row.scale = ChangeScale::kRelative;
          row.threshold = std::max(rule.relative, min_delta / base);
        }
        row.change = row.scale == ChangeScale::kRelative ? row.delta / base : row.delta;
        if (enough) {
          const ChangeInterval ci =
              BootstrapChangeInterval(p.sorted_b, p.sorted_c, statistic, row.scale, bootstrap,
                                      MetricSeed(mb.key, statistic, options.seed), cache);
          const double widen = std::sqrt(p.design.factor);
          row.ci_low = row.change - (row.change - ci.low) * widen;
          row.ci_high = row.change + (ci.high - row.change) * widen;
          const double standard_error = ci.standard_error * widen;
          const double z_level =
              p.in_family             ? NormalQuantile(1 - std::min(0.5, thresholds.fdr * p.weight / (2 * m)))
              : p.threshold_protected ? NormalQuantile(1 - thresholds.fdr / 2)
              : ungated_operator      ? NormalQuantile(1 - thresholds.fdr / (2 * m))
                                      : z_alpha;
          row.mde = (z_level + z_power) * standard_error;
          // With clustered samples more iterations barely help (more
          // repetitions or interleaving do): no iteration count is offered.
          if (row.mde > row.threshold && row.threshold > 0 && std::isfinite(row.mde) &&
              p.design.factor < kClusteredDesignEffect) {
            const double factor = (row.mde / row.threshold) * (row.mde / row.threshold);
            row.iterations_needed = static_cast<int64_t>(
                std::ceil(static_cast<double>(std::max(nb, nc)) * factor));
          }
        }
      }
      VerdictInputs in;
      in.n_baseline = nb;
      in.n_candidate = nc;
      in.min_samples = min_samples;
      in.change = row.change;
      in.ci_low = row.ci_low;
      in.ci_high = row.ci_high;
      in.threshold = row.threshold;
      if (!tax && row.n_baseline > 0 && row.n_candidate > 0) {
        in.floor = row.scale == ChangeScale::kRelative ? min_delta / std::fabs(row.baseline_value)
                                                       : min_delta;
      }
      in.mde = row.mde;
      in.p = row.p_adjusted.value_or(row.p_value);
      in.level = row.level;
      in.direction = rule.direction;
      const VerdictDecision decision = DecideVerdict(in);
      row.verdict = decision.verdict;
      row.reason = decision.reason;
      out.rows.push_back(std::move(row));
    }
  }

  CountVerdicts(&out);
  out.attributions = ComputeAttribution(baseline, candidate);
  out.structure_changes = DetectStructureChanges(baseline, candidate);
  out.settings.fdr = thresholds.fdr;
  out.settings.noise_aware_fdr = thresholds.noise_aware_fdr;
  out.settings.alpha = thresholds.alpha;
  out.settings.confidence = thresholds.confidence;
  out.settings.bootstrap_resamples = thresholds.bootstrap_resamples;
  out.settings.min_samples = thresholds.min_samples;
  out.settings.power = thresholds.power;
  out.settings.seed = options.seed;
  out.settings.family_size = family_size;
  for (const Prepared& p : prepared) out.settings.threshold_protected += p.threshold_protected;
  out.settings.thresholds_source = thresholds.source;
  out.baseline_context = baseline.context;
  out.candidate_context = candidate.context;
  return out;
}

void CountVerdicts(Comparison* comparison) {
  comparison->counts = {};
  ComparisonCounts& counts = comparison->counts;
  for (const MetricComparison& row : comparison->rows) {
    if (!row.gated) continue;
    switch (row.verdict) {
      case Verdict::kRegression: ++counts.regressions; break;
      case Verdict::kImprovement: ++counts.improvements; break;
      case Verdict::kUnchanged: ++counts.unchanged; break;
      case Verdict::kInconclusive: ++counts.inconclusive; break;
    }
  }
  comparison->outcome = counts.regressions > 0    ? GateOutcome::kRegression
                        : counts.inconclusive > 0 ? GateOutcome::kInconclusive
                                                  : GateOutcome::kPass;
}

int GateExitCode(const Comparison& comparison, bool fail_on_inconclusive) {
  if (comparison.advisory) return 0;
  switch (comparison.outcome) {
    case GateOutcome::kRegression: return 1;
    case GateOutcome::kInconclusive: return fail_on_inconclusive ? 3 : 0;
    case GateOutcome::kPass: return 0;
  }
  return 2;
}

}  // namespace etbench
