#pragma once
// The bookkeeping and stopping rule of an interleaved (ABBA) measurement:
// runs arrive in schedule order, every 4 make a block, blocks are judged
// for interference once and for good, the looks are planned from the first
// block's duration, and the measurement stops at a look where every gated
// metric is decided, or when the time budget is spent. A model whose every
// gated metric is decided at an earlier look is stopped: later runs leave
// it out (their runs' metrics of it are dropped here too), its rows stay as
// that look decided them, and the rest of the budget goes to the models
// still undecided (sequential.h, ModelStop; docs/comparison.md,
// "Sequential decisions"). `etbench ab`
// (harness RunAb) and its replay over recorded runs (gate_quality
// --traces) both drive this one class, so that the replay decides exactly
// as the command does.

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "etbench/compare/sequential.h"
#include "etbench/compare/thresholds.h"

namespace etbench {

class AbSequence {
 public:
  /// At most `max_blocks` blocks (4 runs each). `sequential`: look at the
  /// scheduled block counts and stop when everything is decided or the
  /// budget (`budget_s`, on the caller's clock) is spent; then `thresholds`
  /// must not be null. Otherwise (a fixed number of blocks) every block is
  /// run and judged once, at the end. `blocks_start_s`: the caller's clock
  /// when the first block's first run starts.
  AbSequence(std::size_t max_blocks, bool sequential, double budget_s,
             const Thresholds* thresholds, double blocks_start_s);
  AbSequence(const AbSequence&) = delete;
  AbSequence& operator=(const AbSequence&) = delete;

  /// Records the next run of the schedule, of variant `v`, finished at
  /// `now_s` (metrics of stopped models are dropped from it). True when no
  /// more runs should be taken (a look decided every gated metric, the
  /// budget is spent, or the last block is complete). Errors: merging or
  /// comparing the runs so far failed.
  Result<bool> Add(MetricSet run, AbVariant v, double now_s);

  /// The caller's seconds for the last Add, on its clock. When that Add
  /// took a look, the look's cost per run is kept (the largest seen): a
  /// look merges and compares every run so far, so its cost grows with the
  /// runs. The budget check counts, at every block's end, the look due at
  /// it, the next block, and the final look with what follows it, each at
  /// the runs it will see (see LookSeconds), so that everything ends within
  /// the budget plus one block's overrun of the blocks' average.
  void AddTook(double seconds);

  /// What the caller does after the final look, in looks at the same runs
  /// (RunAb: copying and saving both merged sides, measured 1.2–1.6 looks;
  /// it reserves 2). 0 by default.
  void SetFinishLooks(double looks) { finish_looks_ = std::max(0.0, looks); }

  /// Lowers the block limit to `max_blocks` (never raises it, never below
  /// one block). Only before the looks are planned, that is before the
  /// first block's last Add: the looks are planned within the limit
  /// (RunAb: the first block's results files size the disk's limit).
  void LowerBlockLimit(std::size_t max_blocks);

  /// Whether the last Add took a look (its cost is what AddTook records).
  bool looked() const { return last_add_looked_; }

  /// The expected seconds of a look at `runs` runs (0 before the first
  /// look's cost is known).
  double LookSeconds(std::size_t runs) const {
    return look_s_per_run_ * static_cast<double>(runs);
  }

  /// Whether the looks begin with the fast look (sequential_fast_look.h;
  /// default on). Set before the first block completes.
  void SetFastLook(bool on) { fast_look_ = on; }

  /// SequentialDesign::estimate_at_threshold (default on; off: the half
  /// rule, for the evaluation's "before").
  void SetEstimateAtThreshold(bool on) { design_.estimate_at_threshold = on; }

  /// Judges the blocks not judged yet (a lone first block); call once,
  /// after the last Add.
  void Finish();

  /// The merged metric set of variant `v`'s runs, in order (after a final
  /// look, the one it merged).
  Result<MetricSet> Side(AbVariant v) const;

  /// The final paired comparison of the merged sides `a` and `b` at
  /// `now_s`. A sequential measurement that ended at a look (Add returned
  /// true after looking) returns that final look's comparison as it was
  /// (its rows' seconds are the look's): it compared these same sides, and
  /// comparing again would only cost the budget another look. A
  /// fixed-blocks measurement takes its one look here.
  Result<Comparison> Compare(const MetricSet& a, const MetricSet& b, double now_s);

  std::size_t blocks() const { return blocks_.size(); }
  std::size_t kept_blocks() const { return kept_blocks_.size(); }
  /// (model, block) pairs left out for interference.
  std::size_t dropped_blocks() const { return progress_.dropped_blocks; }
  /// The time budget ended the blocks before every gated metric was decided.
  bool budget_spent() const { return budget_spent_; }
  /// The block limit (`max_blocks`), with time left, ended the blocks
  /// before every gated metric was decided.
  bool block_limit_reached() const { return block_limit_; }
  /// Models stopped early, by name: later runs need not run them.
  const std::map<std::string, ModelStop>& stopped() const { return progress_.stopped; }

 private:
  void Judge();
  /// Seconds per block of the blocks run since the models run last changed.
  double BlockSeconds(double now_s) const;
  /// After a look that did not end the measurement: stops every model
  /// still run whose gated rows `look` all decided, and freezes its rows.
  Status StopDecidedModels(const Comparison& look, double now_s);
  /// Merges both sides and compares them at this look; `keep`: the merged
  /// sides are kept for Side (the final look's).
  Result<Comparison> CompareLook(bool keep);
  Result<MetricSet> Merge(AbVariant v) const;

  std::size_t max_blocks_;
  bool sequential_;
  double budget_s_;
  const Thresholds* thresholds_;
  double blocks_start_s_;
  std::vector<MetricSet> runs_;  // reserved up front: blocks point into it
  std::vector<AbVariant> order_;
  std::vector<AbBlock> blocks_;
  std::vector<bool> kept_;  // frozen when a block is judged
  std::vector<AbBlock> kept_blocks_;
  SequentialDesign design_;
  SequentialProgress progress_;
  std::vector<std::size_t> looks_;
  std::size_t next_look_ = 0;
  bool budget_spent_ = false;
  bool block_limit_ = false;
  double finish_looks_ = 0;
  double look_s_per_run_ = 0;  // the largest look cost per run seen (AddTook)
  bool last_add_looked_ = false;
  std::optional<MetricSet> final_sides_[2];  // A, B as the final look merged them
  std::optional<Comparison> final_look_;
  bool fast_look_ = true;
  bool fast_planned_ = false;  // looks_[0] is the fast look (it waits for balanced orders)
  // The blocks since the models run last changed: when the first of them
  // started, and its index (they estimate the next block's duration).
  double segment_start_s_;
  std::size_t segment_first_block_ = 0;
};

}  // namespace etbench
