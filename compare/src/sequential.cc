// Sequential paired comparison of interleaved runs (see sequential.h and
// docs/comparison.md, "Interleaved runs" and "Sequential decisions").

#include "etbench/compare/sequential.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <set>

#include "etbench/compare/interval_verdict.h"
#include "etbench/inspector/perf_data.h"
#include "etbench/stats/fdr.h"
#include "etbench/stats/stats.h"

#include "float_constants.h"

namespace etbench {
namespace {

constexpr std::size_t kFirstLook = 6;
// Thresholds of one-sample-per-run metrics: at least this many of their
// run-to-run standard deviations (sequential.h, ComparePaired).
constexpr double kOneSampleSpreads = 1.0;
// Interference (InterferedModels): a run further than max(kInterferenceMads
// robust sigmas, kInterferenceFloor) from its side's median; the dropped
// blocks' warning states the same numbers.
constexpr double kInterferenceMads = 5;
constexpr double kInterferenceFloor = 0.10;

// Null distributions are the same for every metric: built once per n.
const SignedRankDistribution& CachedNull(std::size_t n) {
  static std::mutex mutex;
  static std::map<std::size_t, std::unique_ptr<SignedRankDistribution>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[n];
  if (!slot) slot = std::make_unique<SignedRankDistribution>(n);
  return *slot;
}

bool Excludes0(double low, double high) { return low > 0 || high < 0; }

// Per run, the location of every metric: the rule's statistic of its samples.
using RunIndex = std::map<MetricKey, const Metric*>;

RunIndex IndexRun(const MetricSet& set) {
  RunIndex index;
  for (const Metric& m : set.metrics) index.emplace(m.key, &m);
  return index;
}

std::optional<double> Location(const RunIndex& run, const MetricKey& key, Statistic statistic) {
  auto it = run.find(key);
  if (it == run.end() || it->second->samples.empty()) return std::nullopt;
  return StatisticOf(it->second->samples, statistic);
}

struct BlockIndex {
  std::vector<RunIndex> a, b;
  bool a_first = true;
  /// Models whose metrics leave this block out: hit by interference in it,
  /// or stopped before it (ModelStop).
  std::set<std::string> left_out;
};

// The block differences of one metric and statistic, over the blocks in
// which every run measured it (`*missing`: the other blocks, not left out
// for its model, that lack it in some run); nullopt when no block has it.
// Which blocks lack a metric does not depend on which runs are called A,
// so pairing over the rest keeps the test exact; falling back to the
// pooled, unpaired comparison would not spend the sequential level.
// `log_scale` says whether they are log ratios.
// `contrasts`: per difference, the block as the fast look sees it.
std::optional<std::vector<double>> Differences(const std::vector<BlockIndex>& blocks,
                                               const MetricKey& key, Statistic statistic,
                                               bool absolute, bool* log_scale,
                                               std::size_t* missing,
                                               std::vector<BlockContrast>* contrasts) {
  std::vector<std::vector<double>> a(blocks.size()), b(blocks.size());
  std::vector<bool> used(blocks.size(), true);
  bool positive = true;
  *missing = 0;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    // A block left out for this metric's model (interference, or stopped).
    if (blocks[k].left_out.count(key.model) > 0) {
      used[k] = false;
      continue;
    }
    for (const auto& [runs, out] : {std::pair{&blocks[k].a, &a[k]}, std::pair{&blocks[k].b, &b[k]}}) {
      for (const RunIndex& run : *runs) {
        auto v = Location(run, key, statistic);
        if (!v) {
          used[k] = false;
          break;
        }
        out->push_back(*v);
      }
    }
    if (!used[k]) {
      ++*missing;
      continue;
    }
    for (const auto* side : {&a[k], &b[k]}) {
      for (double v : *side) positive = positive && v > 0;
    }
  }
  if (std::find(used.begin(), used.end(), true) == used.end()) return std::nullopt;
  *log_scale = positive && !absolute;
  const auto mean = [&](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += *log_scale ? std::log(x) : x;
    return s / static_cast<double>(v.size());
  };
  const auto scale = [&](double x) { return *log_scale ? std::log(x) : x; };
  std::vector<double> d;
  contrasts->clear();
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    if (!used[k]) continue;
    d.push_back(mean(b[k]) - mean(a[k]));
    BlockContrast c;
    c.difference = d.back();
    if (a[k].size() == 2) c.within_a = scale(a[k][0]) - scale(a[k][1]);
    if (b[k].size() == 2) c.within_b = scale(b[k][0]) - scale(b[k][1]);
    c.a_first = blocks[k].a_first;
    contrasts->push_back(c);
  }
  return d;
}

// A metric that every run measures once (Program::load_method, Method::init:
// one load per run) has no within-run samples to take a median of, so its
// block differences carry the whole spread of a single cold measurement.
// That spread as the paired design sees it: per block and side, the log
// ratio of its two runs (same variant, same block: neither a change
// between the sides nor the machine's drift between blocks enters it);
// σ̂ = 1.4826 · median |ratio| / √2, the robust σ of one run around its
// block. nullopt when some used run has more than one sample, a value is
// ≤ 0, or fewer than 4 pairs are used.
std::optional<double> OneSampleSpread(const std::vector<BlockIndex>& blocks, const MetricKey& key) {
  std::vector<double> ratios;
  for (const BlockIndex& block : blocks) {
    if (block.left_out.count(key.model) > 0) continue;
    for (const std::vector<RunIndex>* side : {&block.a, &block.b}) {
      std::vector<double> logs;
      for (const RunIndex& run : *side) {
        auto it = run.find(key);
        if (it == run.end() || it->second->samples.size() != 1 || !(it->second->samples[0] > 0)) {
          return std::nullopt;
        }
        logs.push_back(std::log(it->second->samples[0]));
      }
      if (logs.size() == 2) ratios.push_back(std::fabs(logs[0] - logs[1]));
    }
  }
  if (ratios.size() < 4) return std::nullopt;
  std::sort(ratios.begin(), ratios.end());
  return 1.4826 * Percentile(ratios, 50) / std::sqrt(2.0);
}

// The end-to-end locations that the interference rule watches: per run,
// the log median of each model's Method::execute.
// Keyed by (model, block).
std::map<std::pair<std::string, std::string>, double> ExecuteLocations(const MetricSet& run) {
  std::map<std::pair<std::string, std::string>, double> out;
  for (const Metric& m : run.metrics) {
    if (MetricEventRole(m.key) != EventRole::kMethodExecute || m.samples.empty()) continue;
    std::vector<double> sorted = m.samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = Percentile(sorted, 50);
    if (median > 0) out[{m.key.model, m.key.block}] = std::log(median);
  }
  return out;
}

// A row that no kept block measured in all four runs: there is no paired
// comparison, and the pooled one would not spend the sequential level, so
// it decides nothing (its own row says why).
void MarkUnpaired(MetricComparison* row) {
  row->verdict = Verdict::kInconclusive;
  row->decided = false;
  row->test = "paired_signed_rank";
  row->p_value = 1;
  row->p_adjusted.reset();
  row->ci_alpha.reset();
  row->ci_low = row->ci_high = kNaN;
  row->notes = {UnpairedNote{}};
}

}  // namespace

std::vector<std::size_t> UsefulLooks(std::vector<std::size_t> looks, double level,
                                     std::size_t other_looks) {
  // A look at K blocks cannot reach p below 2^{1−K} (all signs alike); at
  // J looks it is tested at level/J. Drop the looks that cannot reject,
  // which raises the others' share, until the rest all can. The last look
  // stays (the budget's final look takes what is left anyway).
  while (looks.size() > 1) {
    const double share = level / static_cast<double>(looks.size() + other_looks);
    const auto useless = [&](std::size_t k) {
      return std::ldexp(1.0, 1 - static_cast<int>(std::min<std::size_t>(k, 1000))) > share;
    };
    const auto first_useful = std::find_if_not(looks.begin(), looks.end(), useless);
    if (first_useful == looks.begin()) break;
    if (first_useful == looks.end()) {
      looks.erase(looks.begin(), looks.end() - 1);
      break;
    }
    looks.erase(looks.begin(), first_useful);
  }
  return looks;
}

std::vector<std::size_t> LookSchedule(std::size_t max_blocks) {
  std::vector<std::size_t> looks;
  for (std::size_t k = kFirstLook; k <= max_blocks;
       k = std::max(k + 1, static_cast<std::size_t>(std::lround(static_cast<double>(k) * 1.5)))) {
    looks.push_back(k);
  }
  return looks;
}

void SequentialDesign::AddLook(std::size_t blocks, bool final_look) {
  const double left = std::max(0.0, 1 - Spent());
  const double weight =
      final_look ? left : std::min(left, 1.0 / static_cast<double>(std::max<std::size_t>(1, planned_looks)));
  if (weight <= 1e-12) return;
  if (!looks.empty() && looks.back().first == blocks) {
    looks.back().second += weight;
  } else {
    looks.push_back({blocks, weight});
  }
}

double SequentialDesign::Spent() const {
  double spent = 0;
  for (const auto& look : looks) spent += look.second;
  return spent;
}

SequentialSignedRank::SequentialSignedRank(const std::vector<double>& differences,
                                           const SequentialDesign& design,
                                           const std::vector<BlockContrast>* contrasts) {
  for (std::size_t j = 0; j < design.looks.size(); ++j) {
    const auto& [blocks, weight] = design.looks[j];
    const std::size_t n = std::min(blocks, differences.size());
    if (n == 0 || weight <= 0) continue;
    std::vector<double> first(differences.begin(),
                              differences.begin() + static_cast<std::ptrdiff_t>(n));
    Look look{{}, weight, nullptr, 1, {}};
    if (j == 0 && design.fast_blocks > 0 && blocks == design.fast_blocks) {
      // The fast look: its own test on the blocks with their orders. A
      // metric without contrasts (or with fewer blocks) tests nothing.
      if (contrasts != nullptr && contrasts->size() >= n) {
        look.fast = OrderBalancedT(std::vector<BlockContrast>(
            contrasts->begin(), contrasts->begin() + static_cast<std::ptrdiff_t>(n)));
      }
      look.p = look.fast.p_value;
      estimate_ = look.fast.estimate;
    } else {
      look.walsh = SortedWalshAverages(first);
      look.null = &CachedNull(n);
      const SignedRankInference r = SignedRank(look.walsh, *look.null);
      look.p = r.p_value;
      estimate_ = r.estimate;
    }
    p_value_ = std::min(p_value_, std::min(1.0, look.p / weight));
    looks_.push_back(std::move(look));
  }
}

std::pair<double, double> SequentialSignedRank::Interval(double a) const {
  double low = -kInf, high = kInf;
  std::pair<double, double> excluding{kNaN, kNaN};
  for (const Look& look : looks_) {
    const auto ci = look.null == nullptr ? StudentizedInterval(look.fast, a, look.weight)
                                         : SignedRankInterval(look.walsh, *look.null, a, look.weight);
    low = std::max(low, ci.first);
    high = std::min(high, ci.second);
    if (Excludes0(ci.first, ci.second)) excluding = ci;
  }
  // Disjoint looks (a rare draw): one of them excludes 0; report the last
  // such, which keeps "excludes 0 ⇔ p ≤ a".
  if (low > high) return excluding;
  return {low, high};
}

std::vector<std::set<std::string>> InterferedModels(const std::vector<AbBlock>& blocks) {
  std::vector<std::set<std::string>> hit(blocks.size());
  for (int side = 0; side < 2; ++side) {
    // location[series][run] with the run's block; a series is a model's block.
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, std::size_t>>> series;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      for (const MetricSet* run : side == 0 ? blocks[k].a : blocks[k].b) {
        for (const auto& [key, value] : ExecuteLocations(*run)) series[key].push_back({value, k});
      }
    }
    for (const auto& [key, runs] : series) {
      if (runs.size() < 4) continue;
      std::vector<double> values;
      for (const auto& r : runs) values.push_back(r.first);
      std::sort(values.begin(), values.end());
      const double median = Percentile(values, 50);
      const double limit = std::max(kInterferenceMads * RobustSigma(values), kInterferenceFloor);
      for (const auto& [value, k] : runs) {
        if (std::fabs(value - median) > limit) hit[k].insert(key.first);
      }
    }
  }
  return hit;
}

std::set<std::string> ModelsOf(const AbBlock& block) {
  std::set<std::string> models;
  for (const auto* side : {&block.a, &block.b}) {
    for (const MetricSet* run : *side) {
      for (const auto& [key, value] : ExecuteLocations(*run)) models.insert(key.first);
    }
  }
  return models;
}

std::string DecisionKey(const MetricComparison& row) {
  return row.label + "|" + StatisticName(row.statistic);
}

Result<Comparison> ComparePaired(const MetricSet& merged_a, const MetricSet& merged_b,
                                 const std::vector<AbBlock>& kept,
                                 const SequentialDesign& design, const Thresholds& thresholds,
                                 const SequentialProgress& progress,
                                 const CompareOptions& options) {
  auto compared = Compare(merged_a, merged_b, thresholds, options);
  if (!compared) return compared.error();
  Comparison out = std::move(compared).value();

  std::vector<BlockIndex> blocks(kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k) {
    for (const MetricSet* run : kept[k].a) blocks[k].a.push_back(IndexRun(*run));
    for (const MetricSet* run : kept[k].b) blocks[k].b.push_back(IndexRun(*run));
    blocks[k].left_out = kept[k].excluded_models;
    blocks[k].a_first = kept[k].a_first;
    for (const auto& [model, stop] : progress.stopped) {
      if (k >= stop.blocks) blocks[k].left_out.insert(model);
    }
  }
  std::map<MetricKey, std::pair<const Metric*, const Metric*>> metrics;
  for (const Metric& m : merged_a.metrics) metrics[m.key].first = &m;
  for (const Metric& m : merged_b.metrics) metrics[m.key].second = &m;

  std::map<std::string, double> overheads;  // EventOverhead of side A, by unit
  const auto overhead = [&](const std::string& unit) {
    auto found = overheads.find(unit);
    if (found == overheads.end()) found = overheads.emplace(unit, EventOverhead(merged_a, unit)).first;
    return found->second;
  };
  struct Paired {
    MetricComparison* row;
    SequentialSignedRank inference;
    bool log_scale;
    bool in_family;
    double floor;
    std::optional<double> one_sample_threshold;  // set when the spread raised it
    bool one_sample;  // every used run measured it once (load time)
    std::size_t missing;  // blocks without it in some run (paired over the rest)
    const ModelStop* stop;  // its model was stopped early (null: still run)
  };
  std::vector<Paired> paired;
  std::vector<double> family_p;
  for (MetricComparison& row : out.rows) {
    const bool tax = row.key.kind == MetricKind::kFrameworkTax;
    bool log_scale = false;
    std::size_t missing = 0;
    std::vector<BlockContrast> contrasts;
    auto d = Differences(blocks, row.key, row.statistic, tax, &log_scale, &missing, &contrasts);
    if (!d) {
      if (!kept.empty()) MarkUnpaired(&row);
      continue;
    }
    // A stopped model's metric: its own looks, those up to its stop (the
    // later looks saw no block of it), so p and interval stay that look's.
    const auto stopped = progress.stopped.find(row.key.model);
    const ModelStop* stop = stopped == progress.stopped.end() ? nullptr : &stopped->second;
    SequentialDesign own = design;
    if (stop != nullptr) own.looks = stop->looks;
    SequentialSignedRank inference(*d, own, &contrasts);
    if (inference.empty()) continue;
    double floor = 0;
    if (auto it = metrics.find(row.key);
        it != metrics.end() && it->second.first && it->second.second && !tax) {
      const ResolvedRule rule = ResolveRule(thresholds, *it->second.first);
      const double min_delta = MinDeltaFor(rule.rule.min_delta, *it->second.first,
                                           *it->second.second, overhead(row.unit))
                                   .value_or(0.0);
      const double base = std::fabs(row.baseline_value);
      floor = log_scale && base > 0 ? min_delta / base : min_delta;
    }
    // One sample per run: the threshold is at least that sample's own
    // run-to-run spread (kOneSampleSpreads σ̂ on the change's scale).
    std::optional<double> spread;
    bool one_sample = false;
    if (log_scale) {
      if (auto sigma = OneSampleSpread(blocks, row.key)) {
        one_sample = true;
        const double widened = std::expm1(kOneSampleSpreads * *sigma);
        if (widened > row.threshold) {
          spread = widened;
          row.threshold = widened;
        }
      }
    }
    const bool in_family = !row.end_to_end && row.gated;
    if (in_family) family_p.push_back(inference.p_value());
    paired.push_back(
        {&row, std::move(inference), log_scale, in_family, floor, spread, one_sample, missing, stop});
  }

  // One Benjamini–Hochberg family over the gated per-operator metrics, on
  // their sequential p-values. BH rejects p ≤ q·R/m: that is the level at
  // which a member's interval is shown, so interval and verdict agree.
  const std::vector<double> adjusted = BenjaminiHochberg(family_p);
  std::size_t rejected = 0;
  for (double p : adjusted) rejected += p <= thresholds.fdr;
  const double m = static_cast<double>(std::max<std::size_t>(1, family_p.size()));
  const double family_level = thresholds.fdr * static_cast<double>(std::max<std::size_t>(1, rejected)) / m;
  const double a_equivalence = 1 - thresholds.confidence;
  const double z_power = NormalQuantile(thresholds.power);

  std::size_t f = 0;
  for (Paired& p : paired) {
    MetricComparison& row = *p.row;
    const SequentialSignedRank& inf = p.inference;
    const auto to_scale = [&](double x) { return p.log_scale ? std::expm1(x) : x; };
    row.test = "paired_signed_rank";
    row.design_effect = 1;
    row.repetition_correlation = row.session_correlation = 0;
    row.iterations_needed.reset();
    row.fdr_weight.reset();
    row.threshold_protected = false;
    row.scale = p.log_scale ? ChangeScale::kRelative : ChangeScale::kAbsolute;
    if (!p.log_scale && row.key.kind != MetricKind::kFrameworkTax) row.threshold = p.floor;
    row.change = to_scale(inf.estimate());
    row.p_value = inf.p_value();
    row.p_adjusted.reset();
    double a_significance = thresholds.alpha;
    bool significant = row.p_value <= thresholds.alpha;
    row.level = thresholds.alpha;
    if (p.in_family) {
      row.p_adjusted = adjusted[f++];
      row.level = thresholds.fdr;
      a_significance = family_level;
      significant = *row.p_adjusted <= thresholds.fdr;
    } else if (!row.end_to_end) {
      // Not gated: judged at BH's first step, never flagging more than the family would.
      a_significance = row.level = thresholds.fdr / m;
      significant = row.p_value <= a_significance;
    }
    const auto sig_ci = inf.Interval(a_significance);
    const auto eq_ci = inf.Interval(a_equivalence);
    IntervalVerdictInputs in;
    in.significant = significant;
    in.significance_interval = {to_scale(sig_ci.first), to_scale(sig_ci.second)};
    in.equivalence_interval = {to_scale(eq_ci.first), to_scale(eq_ci.second)};
    in.change = row.change;
    in.threshold = row.threshold;
    in.floor = p.floor;
    in.direction = row.direction;
    IntervalVerdict decision = DecideOnIntervals(in);
    const bool flagged =
        decision.verdict == Verdict::kRegression || decision.verdict == Verdict::kImprovement;
    // Half the threshold ruled out at the row's level (the interval's end
    // nearest 0 beyond δ/2) and the estimate at the threshold; otherwise
    // more blocks decide between below and beyond (sequential.h).
    const double near_end = row.change >= 0 ? in.significance_interval.first
                                            : -in.significance_interval.second;
    if (flagged && design.estimate_at_threshold &&
        (std::fabs(row.change) < row.threshold || near_end < row.threshold / 2)) {
      decision.verdict = Verdict::kInconclusive;
      decision.decided = false;
      decision.outcome = std::fabs(row.change) < row.threshold
                             ? IntervalOutcome::kEstimateBelowThreshold
                             : IntervalOutcome::kHalfThresholdNotRuledOut;
    }
    row.verdict = decision.verdict;
    row.decided = decision.decided;
    row.notes = {IntervalNote{decision.outcome}};
    if (p.one_sample_threshold) row.notes.push_back(OneSampleThresholdNote{*p.one_sample_threshold});
    const bool use_sig = decision.uses_significance;
    // A small p that the family's false-discovery control does not
    // confirm: say so, or the row reads as if p and verdict disagreed.
    if (!use_sig && p.in_family && row.p_value <= thresholds.fdr) {
      row.notes.push_back(
          FdrNotConfirmedNote{row.p_value, *row.p_adjusted, family_p.size(), thresholds.fdr});
    }
    const auto& ci = use_sig ? sig_ci : eq_ci;
    row.ci_alpha = use_sig ? a_significance : a_equivalence;
    row.ci_low = to_scale(ci.first);
    row.ci_high = to_scale(ci.second);
    // The intersection over the looks may leave the last look's estimate
    // outside; the estimate shown is its nearest point in the interval.
    row.change = std::clamp(row.change, row.ci_low, row.ci_high);
    // The MDE from the equivalence interval's width, as a normal SE.
    const double z_eq = NormalQuantile(1 - a_equivalence / 2);
    const double se = (to_scale(eq_ci.second) - to_scale(eq_ci.first)) / (2 * z_eq);
    row.mde = std::isfinite(se) ? (NormalQuantile(1 - a_significance / 2) + z_power) * se : kNaN;

    if (p.missing > 0) row.notes.push_back(PartlyPairedNote{p.missing});
    // The row shows this look's numbers, so its blocks and seconds are this
    // look's too (a row decided at an earlier look is recomputed while its
    // model runs on; the first decision is named beside it).
    if (p.stop != nullptr) {
      row.blocks = p.stop->blocks;
      row.seconds = p.stop->seconds;
    } else {
      row.blocks = kept.size();
      row.seconds = progress.seconds;
    }
    const auto first = progress.decided.find(DecisionKey(row));
    SequentialStateNote state;
    state.blocks = *row.blocks;
    state.seconds = *row.seconds;
    if (row.decided) {
      state.state = SequentialState::kDecided;
      if (first != progress.decided.end() && first->second.blocks < *row.blocks) {
        state.first_blocks = first->second.blocks;
        state.first_seconds = first->second.seconds;
      }
    } else if (p.one_sample) {
      // One sample per run (load time) never holds a comparison hostage:
      // undecided, it is reported but not gated (docs/comparison.md,
      // "Metrics measured once per run").
      row.gated = false;
      state.state = SequentialState::kOneSampleUndecided;
    } else if (p.stop != nullptr) {
      state.state = SequentialState::kModelStopped;
    } else {
      state.state = progress.block_limit     ? SequentialState::kBlockLimit
                    : progress.budget_spent ? SequentialState::kBudgetSpent
                                            : SequentialState::kRunning;
    }
    row.notes.push_back(state);
    // A stopped model's rows stay as the look that stopped it reported them.
    if (p.stop != nullptr) {
      if (auto frozen = progress.frozen.find(DecisionKey(row)); frozen != progress.frozen.end()) {
        row = frozen->second;
      }
    }
  }

  CountVerdicts(&out);
  out.settings.family_size = family_p.size();
  out.settings.threshold_protected = 0;
  out.settings.noise_aware_fdr = false;
  if (progress.dropped_blocks > 0) {
    out.warnings.push_back(
        DroppedBlocksWarning{progress.dropped_blocks, kInterferenceMads, kInterferenceFloor});
  }
  return out;
}

bool AllDecided(const Comparison& comparison) {
  for (const MetricComparison& row : comparison.rows) {
    if (row.gated && !row.decided) return false;
  }
  return true;
}

std::string CheckRowConsistency(const MetricComparison& row) {
  const bool significant_verdict =
      row.verdict == Verdict::kRegression || row.verdict == Verdict::kImprovement;
  if (!row.ci_alpha) {
    // Only rows without an interval (too few samples) may lack its level.
    if (significant_verdict) return row.label + ": " + VerdictName(row.verdict) + " without an interval level";
    if (!std::isnan(row.ci_low) || !std::isnan(row.ci_high)) {
      return row.label + ": an interval without its level (ci_alpha)";
    }
    return "";
  }
  const bool excludes = Excludes0(row.ci_low, row.ci_high);
  const bool p_below = row.p_value <= *row.ci_alpha;
  if (excludes != p_below) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: interval [%g, %g] at 1-%g %s 0 but p = %g", row.label.c_str(),
                  row.ci_low, row.ci_high, *row.ci_alpha, excludes ? "excludes" : "contains",
                  row.p_value);
    return buf;
  }
  if (significant_verdict && !excludes) return row.label + ": " + VerdictName(row.verdict) + " but its interval contains 0";
  if (significant_verdict && row.p_adjusted.value_or(row.p_value) > row.level) {
    return row.label + ": " + VerdictName(row.verdict) + " but p is above its level";
  }
  return "";
}

}  // namespace etbench
