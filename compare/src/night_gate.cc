// The nightly gate: tonight against earlier nights (see night_gate.h).

#include "etbench/compare/night_gate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "etbench/compare/compare_guards.h"
#include "etbench/compare/machine_level.h"
#include "etbench/stats/fdr.h"
#include "float_constants.h"
#include "night_values.h"
#include "operator_call_wrappers.h"

namespace etbench {
namespace {

using internal::IndexOf;
using internal::IsTime;
using internal::MetricIndex;
using internal::ModelLevels;
using internal::NightValue;
using internal::TonightValue;

// One row before its level is known.
struct NightRow {
  std::size_t row = 0;        // index into Comparison::rows
  const Metric* metric = nullptr;
  bool log = true;            // relative rows work on logs
  double d = 0;               // tonight − the nights' median (machine level removed)
  double s2 = 0;              // the nights' sample variance
  double df = 0;              // k − 1
  double k = 0;               // nights
  double limit = 0;           // the threshold on the working scale
  double level_excess = 0;    // the judged night's level beyond the baseline nights' (LevelBeyondNote)
  std::string prior_group;    // metrics sharing a variance prior
  VariancePrior prior;
  double se = 0, t_df = 0;    // prediction SE for one new night, its df
  double se_nights = 0;       // the same without the widening of LevelBeyondNote
  double p = 1;               // one-sided (regression side; two-sided for `both`)
  double upper = 0;           // one-sided (1 − confidence) upper bound on the regression side
  double level = 0;
  bool significant = false;
};

// The load path as a negative control (NightGateOptions::load_path_control):
// a model whose Method::execute and load path are both significantly slower
// tonight, the load path by at least half as much (relative changes), has
// its gated regressions listed but not counted, and a warning says so.
// `slower[i]`: row i is significant on the regression side. Returns the
// models excused.
std::vector<std::string> ExcuseDisturbedModels(Comparison* out, const std::vector<bool>& slower) {
  std::map<std::string, double> execute_change, load_change;
  for (std::size_t i = 0; i < out->rows.size(); ++i) {
    const MetricComparison& row = out->rows[i];
    if (!slower[i] || row.scale != ChangeScale::kRelative || !(row.change > 0)) continue;
    const EventRole role = MetricEventRole(row.key);
    std::map<std::string, double>* into = nullptr;
    if (role == EventRole::kMethodExecute) into = &execute_change;
    if (role == EventRole::kLoadMethod || role == EventRole::kMethodInit) into = &load_change;
    if (into == nullptr) continue;
    double& change = (*into)[row.key.model];
    change = std::max(change, row.change);
  }
  std::vector<std::string> disturbed;
  for (const auto& [model, execute] : execute_change) {
    auto load = load_change.find(model);
    if (load == load_change.end() || load->second < execute / 2) continue;
    disturbed.push_back(model);
    out->warnings.push_back(DisturbedModelWarning{model, load->second, execute});
    for (MetricComparison& row : out->rows) {
      if (row.key.model != model || !row.gated || row.verdict != Verdict::kRegression) continue;
      row.gated = false;
      row.notes.push_back(DisturbedModelNote{load->second, execute});
    }
  }
  return disturbed;
}

// Each model's attribution of its Method::execute change from the values
// its rows print (a metric's first row: the baseline nights' median and the
// candidate night's value, each a NightValue), so that the attribution under
// the table adds up the numbers beside it; the medians of the nights'
// pooled samples would be other numbers (a p50 where the rows read p10).
std::vector<Attribution> AttributionOfRows(const Comparison& comparison,
                                           const std::vector<NightRow>& rows) {
  MetricSet before, after;
  std::set<MetricKey> seen;
  // The statistic of each block's Method::execute row (a p50 rule reads the night's p10).
  std::map<std::pair<std::string, std::string>, Statistic> statistic;
  for (const NightRow& r : rows) {
    const MetricComparison& row = comparison.rows[r.row];
    if (!seen.insert(row.key).second) continue;
    if (MetricEventRole(row.key) == EventRole::kMethodExecute) {
      statistic.emplace(std::make_pair(row.key.model, row.key.block), row.statistic);
    }
    // What ComputeAttribution reads, with the rows' values as the samples.
    Metric m;
    m.key = r.metric->key;
    m.unit = r.metric->unit;
    m.end_to_end = r.metric->end_to_end;
    m.is_kernel_or_delegate_call = r.metric->is_kernel_or_delegate_call;
    m.samples = {row.baseline_value};
    before.metrics.push_back(m);
    m.samples = {row.candidate_value};
    after.metrics.push_back(std::move(m));
  }
  std::vector<Attribution> attributions = ComputeAttribution(before, after);
  for (Attribution& a : attributions) {
    auto it = statistic.find({a.model, a.block});
    if (it != statistic.end()) a.statistic = it->second;
  }
  return attributions;
}

// Holm's step-down levels: the j-th smallest p is tested at alpha/(m − j);
// rows past the first failure keep the level it failed at (they cannot pass
// it either), so interval and verdict agree.
void HolmLevels(std::vector<NightRow*> rows, double alpha) {
  std::sort(rows.begin(), rows.end(), [](const NightRow* a, const NightRow* b) { return a->p < b->p; });
  const std::size_t m = rows.size();
  bool stopped = false;
  double stop_level = 0;
  for (std::size_t j = 0; j < m; ++j) {
    if (!stopped) {
      const double level = alpha / static_cast<double>(m - j);
      if (rows[j]->p > level) {
        stopped = true;
        stop_level = level;
      } else {
        rows[j]->level = level;
        rows[j]->significant = true;
        continue;
      }
    }
    rows[j]->level = stop_level;
  }
}

}  // namespace

std::vector<std::string> SuspectModels(const Comparison& comparison) {
  std::set<std::string> models;
  for (const MetricComparison& row : comparison.rows) {
    if (row.gated && row.verdict == Verdict::kRegression) models.insert(row.key.model);
  }
  return {models.begin(), models.end()};
}

std::vector<std::string> ModelsToMeasureAgain(const Comparison& comparison) {
  std::set<std::string> models;
  for (const MetricComparison& row : comparison.rows) {
    // A part slower tonight while its Method::execute ruled out the move
    // (not counted, NotCountedNote::execute_at_most) is what a machine
    // episode moving one model's parts unevenly looks like, and a code
    // change measured during one too: measuring again tells them apart
    // (on the recorded idle nights a conv2d +10% night in such an episode
    // passed without it: the models measured again were judged with a
    // machine level from the others' first, slow run).
    const bool slower = row.direction == Direction::kDecrease ? row.change < 0 : row.change > 0;
    const bool suspect =
        row.verdict == Verdict::kRegression || (row.verdict == Verdict::kInconclusive && slower);
    if (!suspect) continue;
    const NotCountedNote* not_counted = FindNote<NotCountedNote>(row.notes);
    const bool ruled_out = not_counted && not_counted->execute_at_most;
    // A model slow as a whole process (DisturbedModelNote): measured again,
    // it is judged on its faster run.
    const bool disturbed = FindNote<DisturbedModelNote>(row.notes) != nullptr;
    if (row.gated || ruled_out || disturbed) models.insert(row.key.model);
  }
  return {models.begin(), models.end()};
}

std::optional<std::vector<MetricSet>> SplitSessions(const MetricSet& merged) {
  std::size_t sessions = 0;
  for (const Metric& m : merged.metrics) {
    if (m.group_sizes.empty() || m.session_sizes.empty()) return std::nullopt;
    if (sessions == 0) sessions = m.session_sizes.size();
    if (m.session_sizes.size() != sessions) return std::nullopt;
  }
  if (sessions < 2) return std::nullopt;
  std::vector<MetricSet> out(sessions);
  for (MetricSet& s : out) s.context = merged.context;
  for (const Metric& m : merged.metrics) {
    std::size_t group = 0, sample = 0;
    for (std::size_t s = 0; s < sessions; ++s) {
      Metric part = m;
      part.samples.clear();
      part.group_sizes.clear();
      part.session_sizes.clear();
      for (uint64_t r = 0; r < m.session_sizes[s]; ++r, ++group) {
        if (group >= m.group_sizes.size()) return std::nullopt;
        const uint64_t g = m.group_sizes[group];
        if (sample + g > m.samples.size()) return std::nullopt;
        part.samples.insert(part.samples.end(),
                            m.samples.begin() + static_cast<std::ptrdiff_t>(sample),
                            m.samples.begin() + static_cast<std::ptrdiff_t>(sample + g));
        part.group_sizes.push_back(g);
        sample += g;
      }
      out[s].metrics.push_back(std::move(part));
    }
  }
  return out;
}

namespace {

// One look of the nightly model. `recent` = 1: tonight against `nights`.
// `recent` = j ≥ 2 (a sustained-step look, NightGateOptions::
// sustained_nights): the last j − 1 of `nights` and tonight are the recent
// nights, judged against the nights before them (so a slower night that
// began the step does not sit in its own baseline), and a row's deviation
// is the recent night with the least evidence of a regression (the
// smallest deviation on the regression side): every one of them must be
// slow. Its p is the one-night prediction p of that night, which bounds
// P(every recent night that far out) whatever their correlation.
Result<NightGate> CompareLook(const std::vector<MetricSet>& nights, const MetricSet& candidate,
                              const Thresholds& thresholds, const NightGateOptions& options,
                              const MetricSet* confirmation, std::size_t recent) {
  NightGate gate;
  gate.recent_nights = recent;
  // Baseline nights: [0, base_count); recent ones: [base_count, nights.size()).
  const std::size_t base_count = nights.size() + 1 >= recent ? nights.size() + 1 - recent : 0;
  gate.nights = base_count;
  if (base_count < std::max<std::size_t>(options.min_nights, 2)) {
    gate.too_short = true;
    return gate;
  }
  Comparison& out = gate.comparison;
  const MetricSet& newest = nights.back();
  if (Status s = CheckComparable(newest, candidate, out.warnings); !s.ok()) return s.error();
  std::vector<MetricIndex> night_index;
  for (std::size_t n = 0; n < nights.size(); ++n) {
    auto index = IndexOf(nights[n], "baseline night " + std::to_string(n + 1));
    if (!index.ok()) return index.error();
    night_index.push_back(std::move(index).value());
  }
  auto tonight = IndexOf(candidate, "the candidate");
  if (!tonight.ok()) return tonight.error();
  std::unique_ptr<MetricIndex> confirmation_index;
  if (confirmation) {
    auto index = IndexOf(*confirmation, "the confirmation run");
    if (!index.ok()) return index.error();
    confirmation_index = std::make_unique<MetricIndex>(std::move(index).value());
    gate.confirmed = true;
  }
  std::map<std::string, std::vector<double>> levels;
  if (options.machine_level) {
    levels = ModelLevels(night_index, tonight.value(), confirmation_index.get());
    if (confirmation_index) {
      // A model the confirmation run did not measure again is judged as
      // the first run judged it: its level comes from the first run only,
      // or the faster second values of the models measured again would
      // lower its level and lift it (on the recorded nights that turned
      // unchanged models into false alarms).
      std::set<std::string> measured_again;
      for (const auto& [key, m] : *confirmation_index) measured_again.insert(key.model);
      const auto first = ModelLevels(night_index, tonight.value(), nullptr);
      for (auto& [model, level] : levels) {
        if (!measured_again.count(model)) level = first.at(model);
      }
    }
  }
  // Per model: tonight's level is within the baseline nights' level noise.
  std::map<std::string, bool> calm;
  for (const auto& [model, level] : levels) {
    calm[model] = options.level_noise_sigmas > 0 &&
                  WithinLevelNoise(level, base_count, nights.size(), options.level_noise_sigmas);
  }

  // Metrics of the candidate that the newest night knows too (its rule and
  // overhead decide the row's threshold), OPERATOR_CALL wrappers shown only.
  std::vector<const Metric*> compared;
  for (const auto& [key, m] : tonight.value()) {
    if (night_index.back().count(key)) compared.push_back(m);
  }
  const std::vector<bool> wrappers = OperatorCallWrappers(compared);
  std::map<std::string, double> overheads;
  const double a_eq = 1 - thresholds.confidence;
  std::vector<NightRow> rows;
  for (std::size_t c = 0; c < compared.size(); ++c) {
    const Metric& mc = *compared[c];
    const Metric& newest_m = *night_index.back().at(mc.key);
    const ResolvedRule rule = ResolveRule(thresholds, newest_m);
    auto overhead = overheads.find(mc.unit);
    if (overhead == overheads.end()) {
      overhead = overheads.emplace(mc.unit, EventOverhead(newest, mc.unit)).first;
    }
    const double min_delta =
        MinDeltaFor(rule.rule.min_delta, newest_m, mc, overhead->second).value_or(0.0);
    const bool tax = mc.key.kind == MetricKind::kFrameworkTax;
    for (Statistic statistic : rule.rule.statistics) {
      MetricComparison row;
      row.key = mc.key;
      row.label = MetricLabel(mc.key);
      row.unit = mc.unit;
      row.end_to_end = mc.end_to_end;
      // What the night's value is (NightValue): a p50 rule on a time metric
      // reads the run's lower decile, and the row says so.
      row.statistic = IsTime(mc) && statistic == Statistic::kP50 ? Statistic::kP10 : statistic;
      row.rule = wrappers[c] ? std::string("operator_call_wrapper") : rule.name;
      row.direction = rule.rule.direction;
      row.gated = rule.rule.gate && !wrappers[c];
      row.test = "night_t";
      row.n_candidate = 1;
      row.ci_low = row.ci_high = row.mde = kNaN;
      row.level = mc.end_to_end ? thresholds.alpha : thresholds.fdr;
      // Raw night values, then the working scale (logs unless a value is not positive).
      // Baseline nights (`raw`, at night `at`), then the recent nights
      // of a sustained-step look with tonight last (`recent_raw`).
      std::vector<double> raw, recent_raw;
      std::vector<std::size_t> at, recent_at;
      for (std::size_t n = 0; n < night_index.size(); ++n) {
        auto it = night_index[n].find(mc.key);
        if (it == night_index[n].end()) continue;
        if (auto v = NightValue(*it->second, statistic)) {
          (n < base_count ? raw : recent_raw).push_back(*v);
          (n < base_count ? at : recent_at).push_back(n);
        }
      }
      const std::optional<double> raw_tonight = TonightValue(mc, confirmation_index.get(), statistic);
      row.n_baseline = raw.size();
      if (raw.size() < 2 || !raw_tonight) {
        row.verdict = Verdict::kInconclusive;
        row.notes.push_back(TooFewNightsNote{raw.size(), base_count, 2});
        out.rows.push_back(std::move(row));
        continue;
      }
      if (recent_raw.size() + 1 < recent) {  // a recent night did not record it
        row.verdict = Verdict::kInconclusive;
        row.notes.push_back(TooFewNightsNote{recent_raw.size() + 1, recent, recent, true});
        out.rows.push_back(std::move(row));
        continue;
      }
      recent_raw.push_back(*raw_tonight);
      recent_at.push_back(nights.size());
      row.baseline_value = MedianOf(raw);
      NightRow nr;
      nr.metric = &mc;
      const auto positive = [](double v) { return v > 0; };
      nr.log = !tax && std::all_of(recent_raw.begin(), recent_raw.end(), positive) &&
               std::all_of(raw.begin(), raw.end(), positive);
      const auto level_at = [&](std::size_t night) {
        if (!nr.log || !IsTime(mc) || levels.empty()) return 0.0;
        return levels.at(mc.key.model)[night];
      };
      // The nights' values on the working scale with the machine's level
      // removed (`remove`) or not: the baseline's (`y`) and the recent
      // nights' (`yr`, tonight last; tonight alone when recent = 1).
      const auto series = [&](bool remove, std::vector<double>* y, std::vector<double>* yr) {
        const auto scaled = [&](double v, std::size_t night) {
          return (nr.log ? std::log(v) : v) - (remove ? level_at(night) : 0.0);
        };
        y->clear();
        yr->clear();
        for (std::size_t i = 0; i < raw.size(); ++i) y->push_back(scaled(raw[i], at[i]));
        for (std::size_t i = 0; i < recent_raw.size(); ++i) {
          yr->push_back(scaled(recent_raw[i], recent_at[i]));
        }
      };
      // Robust centre and spread: a night hit by interference (a neighbour
      // slowing one model's run by 15–50%) must not widen every later
      // verdict; the median and 1.4826·MAD with their k − 1 degrees of
      // freedom stand in for the mean and the sample variance.
      const auto robust = [](const std::vector<double>& v, double* center) {
        *center = MedianOf(v);
        std::vector<double> deviation;
        for (double x : v) deviation.push_back(std::fabs(x - *center));
        return 1.4826 * MedianOf(deviation);
      };
      std::vector<double> y, yr;
      double center = 0;
      series(true, &y, &yr);
      double mad = robust(y, &center);
      // Where tonight's level is no shift (within the baseline nights' own
      // level noise) and removing the level makes this metric's nights
      // vary more, not less, the level is noise from the other models
      // (machine_level.h): the metric is judged on its raw values.
      if (nr.log && IsTime(mc) && !levels.empty() && calm.at(mc.key.model)) {
        std::vector<double> y_raw, yr_raw;
        double center_raw = 0;
        series(false, &y_raw, &yr_raw);
        const double mad_raw = robust(y_raw, &center_raw);
        if (mad_raw < mad) {
          y = std::move(y_raw);
          yr = std::move(yr_raw);
          center = center_raw;
          mad = mad_raw;
        }
      }
      // The recent night with the least evidence of a regression (tonight
      // when recent = 1): the smallest deviation on the regression side;
      // for `direction: both` the smallest in size.
      const double side = rule.rule.direction == Direction::kDecrease ? -1 : 1;
      const bool both_ways = rule.rule.direction == Direction::kBoth;
      const auto evidence = [&](std::size_t i) {
        return both_ways ? std::fabs(yr[i] - center) : side * (yr[i] - center);
      };
      std::size_t least = yr.size() - 1;
      for (std::size_t i = 0; i < yr.size(); ++i) {
        if (evidence(i) < evidence(least)) least = i;
      }
      row.candidate_value = recent_raw[least];
      row.delta = row.candidate_value - row.baseline_value;
      if (nr.log && IsTime(mc) && !levels.empty()) {
        // How far the judged night's level lies beyond the baseline nights'
        // level noise: the robust spread above describes the nights within
        // it, not the rare episode nights it discounts (LevelBeyondNote).
        nr.level_excess =
            LevelBeyondNoise(levels.at(mc.key.model), base_count, recent_at[least]).value_or(0);
      }
      nr.s2 = mad * mad;
      nr.d = yr[least] - center;
      nr.k = static_cast<double>(y.size());
      nr.df = nr.k - 1;
      const double base = std::fabs(row.baseline_value);
      if (tax) {
        row.scale = ChangeScale::kAbsolute;
        row.threshold = rule.rule.max_increase_pp;
        nr.limit = row.threshold;
      } else if (nr.log) {
        row.scale = ChangeScale::kRelative;
        row.threshold = std::max(rule.rule.relative, base > 0 ? min_delta / base : 0.0);
        nr.limit = std::log1p(row.threshold);
      } else {
        row.scale = ChangeScale::kAbsolute;
        row.threshold = std::max(rule.rule.relative * base, min_delta);
        nr.limit = row.threshold;
      }
      row.change = nr.log ? std::expm1(nr.d) : nr.d;
      nr.prior_group = std::string(mc.end_to_end ? "e2e/" : "part/") +
                       std::to_string(static_cast<int>(mc.key.kind)) + "/" +
                       StatisticName(statistic) + (nr.log ? "/log" : "/raw");
      nr.row = out.rows.size();
      out.rows.push_back(std::move(row));
      rows.push_back(nr);
    }
  }

  // Moderated variances per kind, then the prediction SE and p.
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> by_group;
  for (const NightRow& r : rows) {
    by_group[r.prior_group].first.push_back(r.s2);
    by_group[r.prior_group].second.push_back(r.df);
  }
  std::map<std::string, VariancePrior> priors;
  for (const auto& [group, v] : by_group) priors[group] = FitVariancePrior(v.first, v.second);
  for (NightRow& r : rows) {
    r.prior = priors[r.prior_group];
    const double s2 = ModeratedVariance(r.prior, r.s2, r.df);
    r.t_df = std::isinf(r.prior.d0) ? kInf : r.prior.d0 + r.df;
    const double loading = options.level_loading_spread * r.level_excess;
    r.se_nights = std::sqrt(s2 * (1 + 1 / r.k));
    r.se = std::hypot(r.se_nights, loading);
    const MetricComparison& row = out.rows[r.row];
    const double sign = row.direction == Direction::kDecrease ? -1 : 1;
    const double t = r.se > 0 ? sign * r.d / r.se : (r.d == 0 ? 0 : sign * std::copysign(kInf, r.d));
    if (row.direction == Direction::kBoth) {
      r.p = std::min(1.0, 2 * StudentUpperP(std::fabs(t), r.t_df));
    } else {
      r.p = StudentUpperP(t, r.t_df);
    }
  }

  // Levels: Holm over the gated end-to-end rows, one Benjamini–Hochberg
  // family over the gated per-operator rows (rejecting p ≤ q·R/m: the
  // level its interval is shown at), BH's first step for the rest.
  std::vector<NightRow*> holm;
  std::vector<NightRow*> family;
  std::vector<double> family_p;
  for (NightRow& r : rows) {
    const MetricComparison& row = out.rows[r.row];
    if (row.gated && row.end_to_end) holm.push_back(&r);
    if (row.gated && !row.end_to_end) {
      family.push_back(&r);
      family_p.push_back(r.p);
    }
  }
  HolmLevels(holm, thresholds.alpha);
  const std::vector<double> adjusted = BenjaminiHochberg(family_p);
  const double m = static_cast<double>(std::max<std::size_t>(1, family_p.size()));
  const double family_level = BenjaminiHochbergLevel(adjusted, thresholds.fdr);
  for (std::size_t i = 0; i < family.size(); ++i) {
    out.rows[family[i]->row].p_adjusted = adjusted[i];
    family[i]->level = family_level;
    family[i]->significant = adjusted[i] <= thresholds.fdr;
  }
  for (NightRow& r : rows) {
    const MetricComparison& row = out.rows[r.row];
    if (row.gated) continue;
    r.level = thresholds.fdr / m;
    r.significant = r.p <= r.level;
  }

  // Verdicts from the one model. The test is one-sided at the row's level
  // a (two-sided for `direction: both`); rows show the two-sided p and the
  // interval d ± t(a)·SE at 1 − 2a (1 − a for `both`) with level 2a, so the
  // interval excludes 0 exactly when the shown p is within its level
  // (CheckRowConsistency), and its upper bound is the one-sided bound the
  // test reads. Not significant: the interval at 1 − confidence one-sided,
  // whose upper bound "pass" reads.
  const double z_power = NormalQuantile(thresholds.power);
  for (NightRow& r : rows) {
    MetricComparison& row = out.rows[r.row];
    const bool two_sided = row.direction == Direction::kBoth;
    const double f = two_sided ? 1 : 2;  // shown level per tested level
    row.p_value = two_sided ? r.p : std::min(1.0, 2 * std::min(r.p, 1 - r.p));
    if (row.p_adjusted) row.p_adjusted = std::min(1.0, f * *row.p_adjusted);
    row.level = f * r.level;
    const auto to_scale = [&](double x) { return r.log ? std::expm1(x) : x; };
    const double a_shown = r.significant ? r.level : a_eq;
    const double q = StudentUpperQuantile(f * a_shown / 2, r.t_df);
    row.ci_alpha = f * a_shown;
    row.ci_low = to_scale(r.d - q * r.se);
    row.ci_high = to_scale(r.d + q * r.se);
    const double q_level = StudentUpperQuantile(f * r.level / 2, r.t_df);
    const double mde_limit = (q_level + z_power) * r.se;  // the MDE on the working scale
    // The nights' own resolution: the MDE without tonight's widening beyond
    // the level noise. "Unchanged at the nights' resolution" reads it, so a
    // night far beyond the level noise (an episode: +30% on a recorded
    // idle night, MDEs of 60-120%) cannot pass at the resolution its own
    // episode made.
    const double mde_nights = (q_level + z_power) * r.se_nights;
    row.mde = to_scale(mde_limit);
    const double sign = row.direction == Direction::kDecrease ? -1 : 1;
    const double bad = sign * r.d;  // > 0: the regression side
    const double q_eq = StudentUpperQuantile(a_eq, r.t_df);
    const bool both = two_sided;
    const double upper_eq = (both ? std::fabs(r.d) : bad) + q_eq * r.se;
    r.upper = upper_eq;
    const double good_p = both ? 1 : StudentUpperP(r.se > 0 ? -bad / r.se : -bad * kInf, r.t_df);
    NightNote note;
    note.nights = static_cast<std::size_t>(r.k);
    note.difference = r.d;
    note.log_scale = r.log;
    if (recent >= 2) note.sustained_nights = recent;
    // Beyond the threshold: its lower bound at the row's level
    // (minimum_effect), else its estimate.
    const double estimate = both ? std::fabs(r.d) : bad;
    const bool beyond = options.minimum_effect ? estimate - q_level * r.se >= r.limit
                                               : estimate >= r.limit;
    if (r.significant && beyond) {
      row.verdict = Verdict::kRegression;
      note.outcome = NightOutcome::kAlert;
      note.whole_interval = options.minimum_effect;
    } else if (!r.significant && !both && good_p <= r.level && -bad >= r.limit) {
      row.verdict = Verdict::kImprovement;
      note.outcome = NightOutcome::kBetter;
      // The family's adjusted p belongs to the regression side; the
      // improvement is decided on its own p at the row's level, which the
      // row shows (CheckRowConsistency).
      row.p_adjusted.reset();
    } else if (upper_eq < r.limit) {
      row.verdict = Verdict::kUnchanged;
      note.outcome = r.significant ? NightOutcome::kBelowThreshold : NightOutcome::kRuledOut;
    } else if (options.pass_at_resolution && r.log && !r.significant && mde_nights > r.limit &&
               upper_eq < mde_nights) {
      // The threshold is finer than these nights resolve: what the gate
      // could have caught on them (their MDE) is ruled out. The row shows
      // that MDE as its threshold, so its interval and verdict agree.
      row.verdict = Verdict::kUnchanged;
      note.outcome = NightOutcome::kRuledOutAtResolution;
      row.mde = to_scale(mde_nights);
      note.mde = row.mde;
      note.configured_threshold = row.threshold;
      row.threshold = row.mde;
    } else {
      row.verdict = Verdict::kInconclusive;
      note.outcome = NightOutcome::kNotDetected;
      note.significant = r.significant;
      if (row.scale == ChangeScale::kRelative) note.mde = row.mde;
      if (options.pass_at_resolution && r.log && !r.significant && r.se > r.se_nights &&
          mde_nights > r.limit) {
        note.mde_nights = to_scale(mde_nights);
      }
    }
    row.notes.push_back(note);
    if (r.prior.d0 > 0) row.notes.push_back(VariancePriorNote{r.prior.d0});
    if (options.level_loading_spread > 0 && r.level_excess > 0) {
      row.notes.push_back(LevelBeyondNote{r.level_excess, options.level_loading_spread});
    }
  }

  // What counts end to end: a part of Method::execute fails the gate only
  // when it moves its model's Method::execute by that row's threshold, or
  // both are significantly slower tonight.
  std::vector<bool> slower(out.rows.size(), false);  // significant on the regression side
  // Per row, the one-sided (1 − confidence) upper bound of its change on
  // the regression side, as a fraction (relative rows; +inf otherwise).
  std::vector<double> at_most(out.rows.size(), kInf);
  for (const NightRow& r : rows) {
    const MetricComparison& row = out.rows[r.row];
    slower[r.row] = r.significant && (row.direction == Direction::kDecrease ? r.d < 0 : r.d > 0);
    if (r.log && row.direction == Direction::kIncrease) {
      at_most[r.row] = std::expm1(r.upper);  // bad = d on this side
    }
  }
  if (!options.every_part) {
    // Parts are measured against Method::execute's configured threshold,
    // not the MDE a row unchanged at the nights' resolution shows.
    std::vector<double> configured(out.rows.size(), 0.0);
    for (const NightRow& r : rows) configured[r.row] = r.log ? std::expm1(r.limit) : r.limit;
    std::map<std::tuple<std::string, std::string, Statistic>, std::size_t> execute;
    for (std::size_t i = 0; i < out.rows.size(); ++i) {
      const MetricComparison& row = out.rows[i];
      if (MetricEventRole(row.key) == EventRole::kMethodExecute) {
        execute[{row.key.model, row.key.block, row.statistic}] = i;
      }
    }
    for (MetricComparison& row : out.rows) {
      const bool part = !row.end_to_end && (row.key.kind == MetricKind::kEvent ||
                                            row.key.kind == MetricKind::kFrameworkTax);
      if (!part || !row.gated) continue;
      auto it = execute.find({row.key.model, row.key.block, row.statistic});
      if (it == execute.end()) continue;
      const MetricComparison& e = out.rows[it->second];
      const bool together = row.verdict == Verdict::kRegression && slower[it->second];
      // What a change of the part (a fraction on relative rows, else in the
      // row's unit or percentage points) moves Method::execute by, as a fraction.
      const auto moved = [&](double change) {
        if (row.key.kind == MetricKind::kFrameworkTax) return change / 100;
        if (row.unit != e.unit || !(e.baseline_value > 0)) return 0.0;
        const double amount =
            row.scale == ChangeScale::kRelative ? change * row.baseline_value : change;
        return amount / e.baseline_value;
      };
      const double moves = moved(row.change);  // of Method::execute, as a fraction
      // A regression fails the gate with its whole interval beyond the
      // threshold (minimum_effect): a part's, with its interval's lower
      // bound moving Method::execute by the threshold.
      const bool whole_interval = row.verdict == Verdict::kRegression && options.minimum_effect;
      const double moves_at_least = whole_interval ? moved(row.ci_low) : moves;
      const double e_threshold = configured[it->second];
      // A part's change moves Method::execute only if Method::execute
      // moved: where Method::execute's own one-sided upper bound rules out
      // the move the part's estimate implies, the time went from one part
      // to another and the part does not count. On the recorded idle
      // nights, seconds-long machine episodes moved the parts of one model
      // unevenly (transformer_block's ff1+ff_gelu +8.5%, its ff2 −12.9%,
      // its Method::execute −1.6% [−3.5%, +0.3%]) and failed unchanged
      // nights by the part alone.
      const bool ruled_out = at_most[it->second] < moves;
      if (together || (moves_at_least >= e_threshold && !ruled_out)) continue;
      row.gated = false;
      NotCountedNote note{moves, e_threshold, std::nullopt, std::nullopt};
      if (moves >= e_threshold) {
        // Beyond the threshold by its estimate: Method::execute ruled the
        // move out, or the part's whole interval does not reach it.
        if (ruled_out) {
          note.execute_at_most = at_most[it->second];
        } else {
          note.at_least = moves_at_least;
        }
      }
      row.notes.push_back(note);
    }
  }

  if (options.load_path_control && recent == 1) {
    gate.disturbed_models = ExcuseDisturbedModels(&out, slower);
  }
  CountVerdicts(&out);
  if (out.outcome == GateOutcome::kPass && !gate.disturbed_models.empty()) {
    // Not a pass: a model's regressions were not counted, not ruled out.
    out.outcome = GateOutcome::kInconclusive;
  }
  out.attributions = AttributionOfRows(out, rows);
  out.structure_changes = DetectStructureChanges(newest, candidate);
  double tonight_level = 0;
  if (!levels.empty()) {
    std::vector<double> per_model;
    for (const auto& [model, level] : levels) {
      std::vector<double> before(level.begin(), level.begin() + static_cast<std::ptrdiff_t>(base_count));
      per_model.push_back(level.back() - MedianOf(before));
    }
    tonight_level = std::expm1(MedianOf(per_model));
  }
  gate.machine_level = tonight_level;
  out.settings = SettingsFrom(thresholds);
  out.settings.family_size = family_p.size();
  out.baseline_context = newest.context;
  out.candidate_context = candidate.context;
  return gate;
}

}  // namespace

Result<NightGate> CompareNights(const std::vector<MetricSet>& nights, const MetricSet& candidate,
                                const Thresholds& thresholds, const NightGateOptions& options,
                                const MetricSet* confirmation) {
  auto single = CompareLook(nights, candidate, thresholds, options, confirmation, 1);
  if (!single.ok() || single->too_short || options.sustained_nights < 2 ||
      single->comparison.outcome == GateOutcome::kRegression) {
    return single;
  }
  // The sustained-step look has its own alpha and false discovery rate
  // (the configured ones): with the single look's, a night's nominal error
  // is at most twice the configured one. Its rows need the estimate (not
  // the whole interval) beyond the threshold, since every one of its
  // nights must be that slow. One look over n nights, not one for each of
  // 2..n: on the recorded nights a look over 2 nights also failed unchanged
  // nights that two seconds-long episodes of interference had slowed
  // (docs/comparison.md, "Sustained steps").
  NightGateOptions look_options = options;
  look_options.minimum_effect = false;
  auto look = CompareLook(nights, candidate, thresholds, look_options, confirmation,
                          options.sustained_nights);
  if (!look.ok()) return look.error();
  if (!look->too_short && look->comparison.outcome == GateOutcome::kRegression) return look;
  return single;
}

}  // namespace etbench
