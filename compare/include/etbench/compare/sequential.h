#pragma once
// Sequential decisions for interleaved runs (`etbench ab`, `etbench gate
// --base`): blocks are added until every gated metric is decided or the
// time budget is spent. Inference stays valid under this optional stopping
// by alpha spending over a fixed look schedule with the union bound: look j
// tests at level a·w_j (Σ w_j ≤ 1), the interval at level a is the
// intersection of the looks' 1 − a·w_j signed-rank intervals, and the
// sequential p-value is min_j p_j / w_j, so the interval excludes 0 exactly
// when p ≤ a (docs/comparison.md, "Sequential decisions").

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "etbench/compare/sequential_fast_look.h"
#include "etbench/stats/paired_blocks.h"

namespace etbench {

/// The block counts at which a sequential comparison looks: 6, 9, 14, 21,
/// 32, … (×1.5, rounded), up to and including `max_blocks` (none below 6:
/// no decision rests on fewer blocks). Few looks keep each one's share of
/// the level large.
std::vector<std::size_t> LookSchedule(std::size_t max_blocks);

/// `looks` without the looks that cannot reject at `level`: with K blocks
/// no signed-rank p is below 2^{1−K}, and each of the J looks is tested at
/// level/J, so a look with 2^{1−K} > level/J can only spend level; the
/// leading such looks are dropped (which raises the share of the others)
/// until every look left can reject. The last look always stays. Pass the
/// largest level the comparison decides at (alpha, fdr, 1 − confidence):
/// a look useless at it decides nothing at all. `other_looks`: looks of
/// another test planned beside them (the fast look), each taking a share.
std::vector<std::size_t> UsefulLooks(std::vector<std::size_t> looks, double level,
                                     std::size_t other_looks = 0);

/// The blocks every look so far has seen, and the share of each level it
/// spent. Build it with AddLook; the shares sum to at most 1.
struct SequentialDesign {
  /// Looks planned within the budget (J): each scheduled look spends 1/J;
  /// a final look at the end of the budget spends what is left.
  std::size_t planned_looks = 1;
  std::vector<std::pair<std::size_t, double>> looks;  // (blocks, weight)
  /// When the first look is at exactly this many blocks, it is the fast
  /// look (sequential_fast_look.h: order-balanced, studentized) instead of
  /// a signed-rank look; 0: no fast look. Set when the fast look is taken.
  std::size_t fast_blocks = 0;
  /// A regression or improvement needs its estimate at or beyond the
  /// threshold δ and its interval's end nearest 0 beyond δ/2 (half the
  /// threshold ruled out at the row's level), not only an estimate of δ/2
  /// (the fixed-sample rule of The verdict); otherwise the row is
  /// undecided and more blocks come. The loop samples until a row is
  /// decided, so under the fixed-sample rule every lasting change between
  /// δ/2 and δ ends "regression" once its interval leaves 0 — before it
  /// can fall below δ (docs/comparison.md, "Changes below the threshold").
  /// With this rule a change of at most δ/2 is flagged with probability
  /// at most the row's level. false: the fixed-sample rule (for the
  /// evaluation's "before").
  bool estimate_at_threshold = true;

  /// Records a scheduled look at `blocks` (weight 1/J, none once J looks
  /// are spent), or the final look (everything left).
  void AddLook(std::size_t blocks, bool final_look);
  double Spent() const;
};

/// One metric's sequential inference over its block differences (first
/// `looks[j].first` of them at look j): the signed-rank test at every look,
/// except a fast look (SequentialDesign::fast_blocks), which tests the
/// first blocks of `contrasts` (one per difference, same order) with
/// OrderBalancedT; without contrasts a fast look tests nothing (p = 1).
class SequentialSignedRank {
 public:
  SequentialSignedRank(const std::vector<double>& differences, const SequentialDesign& design,
                       const std::vector<BlockContrast>* contrasts = nullptr);
  /// No look has seen any block yet.
  bool empty() const { return looks_.empty(); }
  /// The Hodges–Lehmann estimate at the last look.
  double estimate() const { return estimate_; }
  /// min over looks of p_j / w_j (at most 1).
  double p_value() const { return p_value_; }
  /// The 1 − a interval valid across the looks: the intersection of the
  /// looks' 1 − a·w_j intervals. Excludes 0 exactly when p_value() ≤ a.
  std::pair<double, double> Interval(double a) const;

 private:
  struct Look {
    std::vector<double> walsh;
    double weight;
    const SignedRankDistribution* null;  // null for the fast look
    double p;
    StudentizedLook fast;                // the fast look's test
  };
  std::vector<Look> looks_;
  double estimate_ = 0;
  double p_value_ = 1;
};

/// The runs of one ABBA block: two of A, two of B (one metric set each),
/// each side in run order.
struct AbBlock {
  std::vector<const MetricSet*> a, b;
  /// The block ran A B B A (false: B A A B); the fast look balances it.
  bool a_first = true;
  /// Models whose run in this block was hit by interference: every metric
  /// of theirs leaves this block out (the other models keep it).
  std::set<std::string> excluded_models;
};

/// Interference: per side and model, the log median of the model's
/// Method::execute in each run is compared with the side's median over
/// all runs so far; a run further than max(5·σ̂, 10%) away (σ̂ = 1.4826·MAD,
/// once a side has 4 runs) is hit by interference. Returns, per block, the
/// models hit in it (their metrics leave that block out; a block whose
/// models are all hit is dropped). The rule is fixed in advance, blind to
/// the other side, and judges each model alone, so that a suite of many
/// models does not lose a block to every hit of any one of them.
std::vector<std::set<std::string>> InterferedModels(const std::vector<AbBlock>& blocks);

/// The models that have a Method::execute in the block's runs.
std::set<std::string> ModelsOf(const AbBlock& block);

/// Per metric row: the first look at which it was decided.
struct Decision {
  std::size_t blocks = 0;
  double seconds = 0;
};

/// A model that was stopped early: every gated metric of it was decided at
/// a look before the end, so later blocks do not run it. Its metrics keep
/// the data and the looks they had at that look (the kept blocks before
/// `blocks`, the looks in `looks`), so their p-values and intervals stay
/// exactly those of that look.
struct ModelStop {
  std::vector<std::pair<std::size_t, double>> looks;  // SequentialDesign::looks then
  std::size_t blocks = 0;  // kept blocks at that look
  double seconds = 0;
};

/// Where a sequential comparison stands (for the reasons in the rows).
struct SequentialProgress {
  double seconds = 0;          // spent so far
  bool budget_spent = false;   // no more blocks will come: the time is spent
  /// No more blocks will come: the block limit (not the time) ended them.
  bool block_limit = false;
  /// (model, block) pairs left out for interference.
  std::size_t dropped_blocks = 0;
  /// Rows decided earlier, by label + "|" + statistic.
  std::map<std::string, Decision> decided;
  /// Models stopped early, by name; kept blocks from ModelStop::blocks on
  /// hold none of their metrics.
  std::map<std::string, ModelStop> stopped;
  /// The rows of stopped models as that look reported them, by DecisionKey:
  /// reported as they are (a later look's Benjamini–Hochberg family, which
  /// their p-values stay in, must not move a decision that stopped a model).
  std::map<std::string, MetricComparison> frozen;
};

/// Key of a row in SequentialProgress::decided.
std::string DecisionKey(const MetricComparison& row);

/// Compare(merged A, merged B) for everything else (attribution, structure,
/// guards), with every row of a metric present in all kept blocks replaced
/// by the paired model: per run the rule's statistic of the samples, per
/// block the difference of the mean logs of B's and A's runs (amounts when
/// a location is ≤ 0, and for framework tax), and the sequential
/// signed-rank inference across `kept` blocks (a stopped model's metrics:
/// only its blocks and looks, see ModelStop). Per-operator metrics form
/// one Benjamini–Hochberg family on their sequential p-values. A row is
/// decided when it regressed or improved (its 1 − level interval excludes 0
/// and half the threshold, and its estimate reaches the threshold:
/// SequentialDesign::estimate_at_threshold) or when its 1 − (1 − confidence) interval
/// rules out a threshold-sized bad change (unchanged). A metric that every
/// run measures once (load time: one load per run) gets the threshold
/// max(rule, exp(σ̂) − 1), σ̂ the robust spread of one run around its block
/// (from the log ratios of each block's two runs of a side): one sample
/// cannot resolve a change smaller than its own spread, and the row's
/// reason says so. Errors: as Compare.
Result<Comparison> ComparePaired(const MetricSet& merged_a, const MetricSet& merged_b,
                                 const std::vector<AbBlock>& kept,
                                 const SequentialDesign& design, const Thresholds& thresholds,
                                 const SequentialProgress& progress,
                                 const CompareOptions& options = {});

/// True when every gated row is decided (its `decided` is set).
bool AllDecided(const Comparison& comparison);

/// Checks the contract of every row, fixed-baseline (Compare) and
/// interleaved (ComparePaired): a row with an interval carries `ci_alpha`,
/// the interval excludes 0 exactly when p_value ≤ ci_alpha, and a
/// regression or improvement is significant. "" when it holds, else what
/// is wrong. Tests call it on every row they produce.
std::string CheckRowConsistency(const MetricComparison& row);

}  // namespace etbench
