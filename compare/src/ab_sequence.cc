#include "etbench/compare/ab_sequence.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace etbench {
namespace {

// The models the runs measured (any metric of theirs).
std::set<std::string> ModelsMeasured(const std::vector<MetricSet>& runs, std::size_t from) {
  std::set<std::string> models;
  for (std::size_t r = from; r < runs.size(); ++r) {
    for (const Metric& m : runs[r].metrics) models.insert(m.key.model);
  }
  return models;
}

}  // namespace

AbSequence::AbSequence(std::size_t max_blocks, bool sequential, double budget_s,
                       const Thresholds* thresholds, double blocks_start_s)
    : max_blocks_(std::max<std::size_t>(1, max_blocks)),
      sequential_(sequential),
      budget_s_(budget_s),
      thresholds_(thresholds),
      blocks_start_s_(blocks_start_s),
      segment_start_s_(blocks_start_s) {
  runs_.reserve(4 * max_blocks_);
}

void AbSequence::LowerBlockLimit(std::size_t max_blocks) {
  if (!looks_.empty() || blocks_.size() > 0) return;
  max_blocks_ = std::clamp<std::size_t>(max_blocks, 1, max_blocks_);
}

// A block is judged for interference (the first one with the second, when
// each side has the 4 runs the rule needs) once and for good, so that the
// looks' data never change.
void AbSequence::Judge() {
  const std::vector<std::set<std::string>> hit = InterferedModels(blocks_);
  while (kept_.size() < blocks_.size()) {
    const std::size_t k = kept_.size();
    AbBlock block = blocks_[k];
    block.excluded_models = hit[k];
    progress_.dropped_blocks += hit[k].size();
    // A block whose every model was hit holds nothing: drop it.
    kept_.push_back(hit[k].size() < ModelsOf(block).size());
    if (kept_.back()) kept_blocks_.push_back(std::move(block));
  }
}

double AbSequence::BlockSeconds(double now_s) const {
  const std::size_t n = blocks_.size() - segment_first_block_;
  return n == 0 ? 0 : (now_s - segment_start_s_) / static_cast<double>(n);
}

Result<Comparison> AbSequence::CompareLook(bool keep) {
  auto a = Merge(AbVariant::kA);
  auto b = Merge(AbVariant::kB);
  if (!a) return a.error();
  if (!b) return b.error();
  auto compared = ComparePaired(*a, *b, kept_blocks_, design_, *thresholds_, progress_);
  if (compared && keep) {
    final_sides_[0] = std::move(a).value();
    final_sides_[1] = std::move(b).value();
  }
  return compared;
}

// Why stopping a model keeps every decision valid (docs/comparison.md,
// "Sequential decisions"): its metrics' looks are the looks taken while it
// ran, each on the data of that look and at that look's share of the level
// — the same tests as if the whole measurement had stopped there, which
// the union bound allows at any look. Later looks are not its looks (they
// saw no block of it), so they neither add to nor spend its level; its
// p-values stay in the Benjamini–Hochberg family of the later looks,
// unchanged, and its rows are reported as that look decided them.
Status AbSequence::StopDecidedModels(const Comparison& look, double now_s) {
  std::map<std::string, bool> all_decided;  // model → every gated row decided
  for (const MetricComparison& row : look.rows) {
    if (!row.gated || progress_.stopped.count(row.key.model) > 0) continue;
    auto [it, inserted] = all_decided.emplace(row.key.model, true);
    it->second = it->second && row.decided;
  }
  std::set<std::string> stopping;
  for (const auto& [model, decided] : all_decided) {
    if (decided) stopping.insert(model);
  }
  // Some gated row undecided, yet no model of the last block to run for
  // it (a row of no model): stop none, the runs must go on.
  std::set<std::string> running = ModelsMeasured(runs_, runs_.size() - 4);
  for (const std::string& model : stopping) running.erase(model);
  if (stopping.empty() || running.empty()) return Ok{};
  for (const std::string& model : stopping) {
    progress_.stopped[model] = ModelStop{design_.looks, kept_blocks_.size(), now_s};
  }
  // Compared again only for the reasons of its undecided (ungated) rows,
  // which now say that the model stopped; every number is the same.
  auto again = CompareLook(/*keep=*/false);
  if (!again) return again.error();
  for (const MetricComparison& row : again->rows) {
    if (stopping.count(row.key.model) > 0) progress_.frozen.emplace(DecisionKey(row), row);
  }
  segment_start_s_ = now_s;
  segment_first_block_ = blocks_.size();
  return Ok{};
}

void AbSequence::AddTook(double seconds) {
  if (!last_add_looked_ || runs_.empty()) return;
  look_s_per_run_ = std::max(look_s_per_run_, std::max(0.0, seconds) / static_cast<double>(runs_.size()));
}

Result<bool> AbSequence::Add(MetricSet run, AbVariant v, double now_s) {
  last_add_looked_ = false;
  if (runs_.size() == 4 * max_blocks_) return true;
  if (!progress_.stopped.empty()) {
    auto& metrics = run.metrics;
    metrics.erase(std::remove_if(metrics.begin(), metrics.end(),
                                 [&](const Metric& m) { return progress_.stopped.count(m.key.model) > 0; }),
                  metrics.end());
  }
  runs_.push_back(std::move(run));
  order_.push_back(v);
  if (runs_.size() % 4 != 0) return false;

  const std::size_t k = blocks_.size();
  AbBlock block;
  block.a_first = order_[4 * k] == AbVariant::kA;
  for (std::size_t r = 4 * k; r < 4 * k + 4; ++r) {
    (order_[r] == AbVariant::kA ? block.a : block.b).push_back(&runs_[r]);
  }
  blocks_.push_back(std::move(block));
  if (blocks_.size() >= 2) Judge();
  const bool last = runs_.size() == 4 * max_blocks_;
  if (!sequential_) return last;

  const double block_seconds = BlockSeconds(now_s);
  // Plan the looks once, from the first block's duration, counting on the
  // blocks that would fit if only one of its models were left to run: the
  // others may be decided and stopped. When they are not, the budget ends
  // before the last planned looks and its final look spends what is left.
  if (looks_.empty()) {
    const double left = budget_s_ - now_s;
    const std::size_t models = std::max<std::size_t>(1, ModelsMeasured(runs_, 0).size());
    const double per_model = block_seconds / static_cast<double>(models);
    const double fit_blocks = per_model > 0 ? left / per_model : static_cast<double>(max_blocks_);
    const auto fit = static_cast<std::size_t>(
                         std::clamp(fit_blocks, 0.0, static_cast<double>(max_blocks_))) +
                     1;
    // Looks that cannot reject at any of the levels decide nothing: they
    // are not planned, so they spend no share of any level.
    const double level = std::max({thresholds_->alpha, thresholds_->fdr, 1 - thresholds_->confidence});
    const std::vector<std::size_t> schedule = LookSchedule(std::min(fit, max_blocks_));
    looks_ = UsefulLooks(schedule, level);
    // The fast look (sequential_fast_look.h) goes first when the budget
    // reaches it before the first signed-rank look: one more planned look,
    // a share of every level like the others (so the signed-rank looks
    // are checked for use again with it counted).
    if (fast_look_ && !looks_.empty() && looks_.front() > kFastLookBlocks &&
        fit >= kFastLookBlocks) {
      looks_ = UsefulLooks(schedule, level, 1);
      looks_.insert(looks_.begin(), kFastLookBlocks);
      fast_planned_ = true;
    }
    design_.planned_looks = std::max<std::size_t>(1, looks_.size());
  }
  // The fast look waits for the first kept block count of at least
  // kFastLookBlocks with each order twice (the orders come from the
  // schedule, not the data); none before the first rank look: it is
  // skipped and its share stays unspent.
  const bool fast_next = fast_planned_ && next_look_ == 0;
  bool at_look = false;
  if (fast_next && kept_blocks_.size() >= kFastLookBlocks) {
    std::vector<bool> orders;
    for (const AbBlock& kept : kept_blocks_) orders.push_back(kept.a_first);
    if (FastLookOrdersBalanced(orders)) {
      at_look = true;
      design_.fast_blocks = kept_blocks_.size();
    } else if (looks_.size() > 1 && kept_blocks_.size() >= looks_[1]) {
      next_look_ = 1;
    }
  }
  if (!at_look && !(fast_planned_ && next_look_ == 0)) {
    at_look = next_look_ < looks_.size() && kept_blocks_.size() >= looks_[next_look_];
  }
  // Another block only if it ends in time for everything after it: the
  // look due now, the block, then the final look and the caller's finish
  // at the runs they will see (wall ≤ budget + one block's overrun).
  const std::size_t runs_next = runs_.size() + 4;
  const double another_block_ends = now_s + (at_look ? LookSeconds(runs_.size()) : 0) +
                                    block_seconds + (1 + finish_looks_) * LookSeconds(runs_next);
  const bool time_out = another_block_ends > budget_s_;
  const bool out_of_budget = time_out || last;
  if (!at_look && !out_of_budget) return false;
  if (at_look) ++next_look_;
  last_add_looked_ = true;
  // The last look: judge a lone first block now (as Finish would), or the
  // look would see no kept block and every row would fall back to the
  // pooled, unpaired comparison: one block must never decide.
  if (out_of_budget) Judge();
  design_.AddLook(kept_blocks_.size(), /*final_look=*/out_of_budget);
  progress_.seconds = now_s;
  progress_.budget_spent = time_out;
  progress_.block_limit = last && !time_out;
  // The final look's merged sides and comparison are the measurement's:
  // kept, so that the caller's finish (Side, Compare) does not merge and
  // compare again.
  auto compared = CompareLook(/*keep=*/true);
  if (!compared) return compared.error();
  for (const MetricComparison& row : compared->rows) {
    if (row.decided) {
      progress_.decided.emplace(DecisionKey(row), Decision{kept_blocks_.size(), now_s});
    }
  }
  const bool all_decided = AllDecided(*compared);
  if (!all_decided && !out_of_budget) {
    final_sides_[0].reset();
    final_sides_[1].reset();
    if (Status s = StopDecidedModels(*compared, now_s); !s) return s.error();
    return false;
  }
  budget_spent_ = time_out && !all_decided;
  block_limit_ = last && !time_out && !all_decided;
  final_look_ = std::move(compared).value();
  return true;
}

void AbSequence::Finish() { Judge(); }

Result<MetricSet> AbSequence::Side(AbVariant v) const {
  if (const auto& kept = final_sides_[VariantIndex(v)]) return *kept;
  return Merge(v);
}

Result<MetricSet> AbSequence::Merge(AbVariant v) const {
  std::vector<MetricSet> side;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    if (order_[i] == v) side.push_back(runs_[i]);
  }
  return MergeMetricSets(side);
}

Result<Comparison> AbSequence::Compare(const MetricSet& a, const MetricSet& b, double now_s) {
  if (final_look_) return *final_look_;
  if (!sequential_) design_.AddLook(kept_blocks_.size(), /*final_look=*/true);
  progress_.seconds = now_s;
  progress_.budget_spent = budget_spent_;
  progress_.block_limit = block_limit_;
  return ComparePaired(a, b, kept_blocks_, design_, *thresholds_, progress_);
}

}  // namespace etbench
