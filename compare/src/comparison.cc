// The comparison engine (see comparison.h and docs/comparison.md).

#include "etbench/compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "etbench/compare/cluster_units.h"
#include "etbench/compare/compare_guards.h"
#include "etbench/compare/interval_verdict.h"
#include "etbench/inspector/perf_data.h"
#include "etbench/stats/fdr.h"
#include "etbench/stats/rank_shift.h"
#include "float_constants.h"
#include "operator_call_wrappers.h"

namespace etbench {
namespace {

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
  ResolvedRule rule;
  double min_delta = 0;  // the rule's min_delta in the metric's unit
  /// Counts for the gate: the rule's `gate` and not an OPERATOR_CALL
  /// wrapper of a kernel that is compared itself.
  bool gated = true;
  bool wrapper = false;
};

// One row's cluster-level inference, kept until the family's level is known.
struct Inference {
  std::size_t row = 0;  // index into Comparison::rows
  ClusterUnits units;
  std::unique_ptr<PairwiseDifferences> differences;
  const RankShiftDistribution* null = nullptr;
  bool in_family = false;
  double floor = 0;  // min_delta on the row's scale
  std::size_t at_most_zero = 0, at_least_zero = 0;  // RankShiftInference's
};

// What the row's units say beyond the verdict (row_note.h): their counts,
// too few to ever establish a change (for an undecided row), and machine
// drift.
void AddUnitsNotes(const Inference& inf, double a_significance, bool inconclusive,
                   std::vector<RowNote>* notes) {
  const ClusterUnits& u = inf.units;
  const std::string level = ClusterLevelName(u.level);
  notes->push_back(UnitCountsNote{level, u.baseline.size(), u.candidate.size()});
  if (inconclusive && 2 * inf.null->Cdf(0) > a_significance) {
    // However far apart, so few units cannot reach the level: say how many would.
    notes->push_back(TooFewUnitsNote{level, a_significance, ClustersPerSideNeeded(a_significance)});
  }
  if (u.drifting) {
    notes->push_back(MachineDriftNote{u.baseline_sessions, u.session_range, u.within_sigma,
                                      u.log_scale, u.nearest_session, u.candidate_outside});
  }
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

ComparisonSettings SettingsFrom(const Thresholds& thresholds) {
  ComparisonSettings settings;
  settings.fdr = thresholds.fdr;
  settings.noise_aware_fdr = false;
  settings.alpha = thresholds.alpha;
  settings.confidence = thresholds.confidence;
  settings.min_samples = thresholds.min_samples;
  settings.power = thresholds.power;
  settings.thresholds_source = thresholds.source;
  return settings;
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
      p.rule = ResolveRule(thresholds, mb);
      std::optional<double> min_delta =
          MinDeltaFor(p.rule.rule.min_delta, mb, mc, overhead(mb.unit));
      if (!min_delta) {
        if (unit_warnings.insert(p.rule.name + "|" + mb.unit).second) {
          const MinDelta& d = p.rule.rule.min_delta;
          out.warnings.push_back(MinDeltaUnitWarning{d.value, d.unit, p.rule.name, mb.unit});
        }
      }
      p.min_delta = min_delta.value_or(0.0);
      prepared.push_back(std::move(p));
      ++i;
      ++j;
    }
  }

  // OPERATOR_CALL wrappers of compared kernels are shown, not gated.
  std::vector<const Metric*> compared;
  for (const Prepared& p : prepared) compared.push_back(p.baseline);
  const std::vector<bool> wrappers = OperatorCallWrappers(compared);
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    prepared[i].wrapper = wrappers[i];
    prepared[i].gated = prepared[i].rule.rule.gate && !wrappers[i];
  }

  // Per row: the point values, then the cluster-level rank inference
  // (cluster_units.h, rank_shift.h) — the one model behind the row's p,
  // interval and verdict.
  std::map<std::pair<std::size_t, std::size_t>, std::unique_ptr<RankShiftDistribution>> nulls;
  std::vector<Inference> inferences;
  std::vector<double> family_p;
  for (const Prepared& p : prepared) {
    const Metric& mb = *p.baseline;
    const Metric& mc = *p.candidate;
    const GateRule& rule = p.rule.rule;
    const bool tax = mb.key.kind == MetricKind::kFrameworkTax;
    const std::size_t nb = mb.samples.size(), nc = mc.samples.size();
    std::vector<double> sorted_b = mb.samples, sorted_c = mc.samples;
    std::sort(sorted_b.begin(), sorted_b.end());
    std::sort(sorted_c.begin(), sorted_c.end());
    for (Statistic statistic : rule.statistics) {
      MetricComparison row;
      row.key = mb.key;
      row.label = MetricLabel(mb.key);
      row.unit = mb.unit;
      row.end_to_end = mb.end_to_end;
      row.statistic = statistic;
      row.n_baseline = nb;
      row.n_candidate = nc;
      row.rule = p.wrapper ? std::string("operator_call_wrapper") : p.rule.name;
      row.direction = rule.direction;
      row.gated = p.gated;
      row.ci_low = row.ci_high = row.mde = kNaN;
      row.level = mb.end_to_end ? thresholds.alpha : thresholds.fdr;
      const bool too_few = TooFewSamples(nb, nc, min_samples);
      if (too_few) {
        row.verdict = Verdict::kInconclusive;
        row.notes.push_back(TooFewSamplesNote{nb, nc, min_samples});
      }
      if (nb > 0 && nc > 0) {
        row.baseline_value = ComputeStatistic(sorted_b, statistic);
        row.candidate_value = ComputeStatistic(sorted_c, statistic);
        row.delta = row.candidate_value - row.baseline_value;
        const double base = std::fabs(row.baseline_value);
        if (tax) {
          row.scale = ChangeScale::kAbsolute;
          row.threshold = rule.max_increase_pp;
        } else if (base == 0) {
          row.scale = ChangeScale::kAbsolute;
          row.threshold = p.min_delta;
        } else {
          row.scale = ChangeScale::kRelative;
          row.threshold = std::max(rule.relative, p.min_delta / base);
        }
        row.change = row.scale == ChangeScale::kRelative ? row.delta / base : row.delta;
      }
      out.rows.push_back(std::move(row));
      if (too_few) continue;

      MetricComparison& r = out.rows.back();
      const bool relative = r.scale == ChangeScale::kRelative;
      const double drift_floor = relative ? std::log1p(r.threshold) / 2 : r.threshold / 2;
      Inference inf;
      inf.row = out.rows.size() - 1;
      inf.units = BuildClusterUnits(mb, mc, statistic, relative, drift_floor);
      if (relative && !inf.units.log_scale) {
        // A unit value ≤ 0: amounts, with the relative threshold in the unit.
        r.scale = ChangeScale::kAbsolute;
        r.threshold = std::max(rule.relative * std::fabs(r.baseline_value), p.min_delta);
        r.change = r.delta;
      }
      if (!tax) {
        inf.floor = r.scale == ChangeScale::kRelative ? p.min_delta / std::fabs(r.baseline_value)
                                                      : p.min_delta;
      }
      const std::pair<std::size_t, std::size_t> sizes{inf.units.baseline.size(),
                                                      inf.units.candidate.size()};
      auto& null = nulls[sizes];
      if (!null) null = std::make_unique<RankShiftDistribution>(sizes.first, sizes.second);
      inf.null = null.get();
      inf.differences =
          std::make_unique<PairwiseDifferences>(inf.units.baseline, inf.units.candidate);
      const RankShiftInference shift = RankShift(*inf.differences, *inf.null);
      r.p_value = shift.p_value;
      inf.at_most_zero = shift.at_most_zero;
      inf.at_least_zero = shift.at_least_zero;
      r.change = inf.units.log_scale ? std::expm1(shift.estimate) : shift.estimate;
      inf.in_family = !r.end_to_end && r.gated;
      if (inf.in_family) family_p.push_back(r.p_value);
      inferences.push_back(std::move(inf));
    }
  }

  // One Benjamini–Hochberg family over the gated per-operator rows. BH
  // rejects p ≤ q·R/m: the level at which a member's interval is shown,
  // so interval and verdict agree (as for interleaved runs).
  const std::vector<double> adjusted = BenjaminiHochberg(family_p);
  const double m = static_cast<double>(std::max<std::size_t>(1, family_p.size()));
  const double family_level = BenjaminiHochbergLevel(adjusted, thresholds.fdr);
  const double a_equivalence = 1 - thresholds.confidence;
  const double z_power = NormalQuantile(thresholds.power);
  std::size_t f = 0;
  for (Inference& inf : inferences) {
    MetricComparison& row = out.rows[inf.row];
    const auto to_scale = [&](double x) { return inf.units.log_scale ? std::expm1(x) : x; };
    const std::size_t units_b = inf.units.baseline.size(), units_c = inf.units.candidate.size();
    row.test = std::string("rank_") + ClusterLevelName(inf.units.level);
    double a_significance = thresholds.alpha;
    bool significant = row.p_value <= thresholds.alpha;
    if (inf.in_family) {
      row.p_adjusted = adjusted[f++];
      a_significance = family_level;
      significant = *row.p_adjusted <= thresholds.fdr;
    } else if (!row.end_to_end) {
      // Not gated: judged at BH's first step, never flagging more than the family would.
      a_significance = row.level = thresholds.fdr / m;
      significant = row.p_value <= a_significance;
    }
    // The verdict reads the significance interval when p is at its level,
    // else the equivalence interval: only that one is computed.
    const double a_shown = significant ? a_significance : a_equivalence;
    const auto shown = RankShiftInterval(*inf.differences, *inf.null, a_shown);
    const std::pair<double, double> on_scale{to_scale(shown.first), to_scale(shown.second)};
    IntervalVerdictInputs in;
    in.significant = significant;
    in.significance_interval = in.equivalence_interval = on_scale;
    in.change = row.change;
    in.threshold = row.threshold;
    in.floor = inf.floor;
    in.direction = row.direction;
    const IntervalVerdict decision = DecideOnIntervals(in);
    row.verdict = decision.verdict;
    row.ci_alpha = a_shown;
    row.ci_low = on_scale.first;
    row.ci_high = on_scale.second;
    // The share of (baseline, candidate) unit pairs where the candidate is larger.
    const double pairs = static_cast<double>(inf.differences->size());
    const double at_most = static_cast<double>(inf.at_most_zero);
    const double at_least = static_cast<double>(inf.at_least_zero);
    row.prob_superiority = (pairs - at_most + (at_most + at_least - pairs) / 2) / pairs;
    // The MDE from the shown interval's width, as a normal SE.
    const double se = (on_scale.second - on_scale.first) / (2 * NormalQuantile(1 - a_shown / 2));
    row.mde = std::isfinite(se) ? (NormalQuantile(1 - a_significance / 2) + z_power) * se : kNaN;
    // More iterations narrow the interval only when samples are the units.
    if (inf.units.level == ClusterLevel::kSample && row.verdict == Verdict::kInconclusive &&
        std::isfinite(row.mde) && row.mde > row.threshold && row.threshold > 0) {
      const double factor = (row.mde / row.threshold) * (row.mde / row.threshold);
      row.iterations_needed = static_cast<int64_t>(
          std::ceil(static_cast<double>(std::max(units_b, units_c)) * factor));
    }
    row.notes.push_back(IntervalNote{decision.outcome});
    AddUnitsNotes(inf, a_significance, row.verdict == Verdict::kInconclusive, &row.notes);
  }

  CountVerdicts(&out);
  out.attributions = ComputeAttribution(baseline, candidate);
  out.structure_changes = DetectStructureChanges(baseline, candidate);
  out.settings = SettingsFrom(thresholds);
  out.settings.seed = options.seed;
  out.settings.family_size = family_p.size();
  out.settings.threshold_protected = 0;
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
