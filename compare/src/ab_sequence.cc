#include "etbench/compare/ab_sequence.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace etbench {

AbSequence::AbSequence(std::size_t max_blocks, bool sequential, double budget_s,
                       const Thresholds* thresholds, double blocks_start_s)
    : max_blocks_(std::max<std::size_t>(1, max_blocks)),
      sequential_(sequential),
      budget_s_(budget_s),
      thresholds_(thresholds),
      blocks_start_s_(blocks_start_s) {
  runs_.reserve(4 * max_blocks_);
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

Result<bool> AbSequence::Add(MetricSet run, AbVariant v, double now_s) {
  if (runs_.size() == 4 * max_blocks_) return true;
  runs_.push_back(std::move(run));
  order_.push_back(v);
  if (runs_.size() % 4 != 0) return false;

  const std::size_t k = blocks_.size();
  AbBlock block;
  for (std::size_t r = 4 * k; r < 4 * k + 4; ++r) {
    (order_[r] == AbVariant::kA ? block.a : block.b).push_back(&runs_[r]);
  }
  blocks_.push_back(std::move(block));
  if (blocks_.size() >= 2) Judge();
  const bool last = runs_.size() == 4 * max_blocks_;
  if (!sequential_) return last;

  const double block_seconds = (now_s - blocks_start_s_) / static_cast<double>(blocks_.size());
  // Plan the looks once, from the first block's duration.
  if (looks_.empty()) {
    const double left = budget_s_ - now_s;
    const double fit_blocks =
        block_seconds > 0 ? left / block_seconds : static_cast<double>(max_blocks_);
    const auto fit = static_cast<std::size_t>(
                         std::clamp(fit_blocks, 0.0, static_cast<double>(max_blocks_))) +
                     1;
    looks_ = LookSchedule(std::min(fit, max_blocks_));
    design_.planned_looks = std::max<std::size_t>(1, looks_.size());
  }
  const bool out_of_budget = now_s + block_seconds > budget_s_ || last;
  const bool at_look = next_look_ < looks_.size() && kept_blocks_.size() >= looks_[next_look_];
  if (!at_look && !out_of_budget) return false;
  if (at_look) ++next_look_;
  // The last look: judge a lone first block now (as Finish would), or the
  // look would see no kept block and every row would fall back to the
  // pooled, unpaired comparison: one block must never decide.
  if (out_of_budget) Judge();
  design_.AddLook(kept_blocks_.size(), /*final_look=*/out_of_budget);
  progress_.seconds = now_s;
  progress_.budget_spent = out_of_budget;
  auto a = Side(AbVariant::kA);
  auto b = Side(AbVariant::kB);
  if (!a) return a.error();
  if (!b) return b.error();
  auto compared = ComparePaired(*a, *b, kept_blocks_, design_, *thresholds_, progress_);
  if (!compared) return compared.error();
  for (const MetricComparison& row : compared->rows) {
    if (row.decided) {
      progress_.decided.emplace(DecisionKey(row), Decision{kept_blocks_.size(), now_s});
    }
  }
  const bool all_decided = AllDecided(*compared);
  if (!all_decided && !out_of_budget) return false;
  budget_spent_ = out_of_budget && !all_decided;
  return true;
}

void AbSequence::Finish() { Judge(); }

Result<MetricSet> AbSequence::Side(AbVariant v) const {
  std::vector<MetricSet> side;
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    if (order_[i] == v) side.push_back(runs_[i]);
  }
  return MergeMetricSets(side);
}

Result<Comparison> AbSequence::Compare(const MetricSet& a, const MetricSet& b, double now_s) {
  if (!sequential_) design_.AddLook(kept_blocks_.size(), /*final_look=*/true);
  progress_.seconds = now_s;
  progress_.budget_spent = budget_spent_;
  return ComparePaired(a, b, kept_blocks_, design_, *thresholds_, progress_);
}

}  // namespace etbench
