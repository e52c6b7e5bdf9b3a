#pragma once
// The fast lane of a sequential interleaved comparison: one studentized
// look at the first few blocks, so that an effect many times the spread of
// a run is decided before the signed-rank looks can reject (no signed-rank
// p is below 2^{1−K} with K blocks). It models the order within a block:
//
// - estimate: θ̂ = ½(mean d over ABBA blocks + mean d over BAAB blocks), so
//   any effect of a run's position in its block (a first run +5%, a run
//   after a switch, a neighbour busy during the middle two runs) enters
//   the two means with opposite signs and cancels, instead of making every
//   block difference look alike; each order needs at least two blocks, so
//   that no block stands alone in its order (a block whose two runs of one
//   side were both hit would otherwise be the whole of its order's mean,
//   with nothing to show its spread);
// - spread: σ̂² = max(σ̂²_within, σ̂²_residual), σ̂²_within from the two runs
//   of each side within each block (Σ(log x₁ − log x₂)² / (2·2K): a pair
//   difference has twice a run's variance, and a block difference has
//   exactly a run's variance), σ̂²_residual from the block differences
//   around their order's mean (K − 2 degrees of freedom); SE =
//   σ̂·½·√(1/n_ABBA + 1/n_BAAB);
// - test: t = θ̂/SE against Student's t with 2K degrees of freedom (those
//   of σ̂²_within: with independent normal runs θ̂/SE_within is exactly t
//   with 2K df, and the max only makes |t| smaller);
// - guard: every block difference, corrected for its order
//   (d_k − π̂·s_k, π̂ the order effect), has the sign of θ̂; otherwise the
//   look rejects nothing (p = 1, interval the whole line), so that one
//   block far out cannot decide.
//
// Its false-positive rate is measured on adversarial nulls by
// benchmarks/compare/fast_look_nulls.cc (docs/comparison.md, "The fast
// look").

#include <cstddef>
#include <utility>
#include <vector>

namespace etbench {

/// Blocks of the studentized first look: at least this many, and each
/// order at least kFastLookBlocksPerOrder times among them (the look
/// happens at the first kept block count where both hold, from the
/// block orders alone, which do not depend on the data).
inline constexpr std::size_t kFastLookBlocks = 4;
inline constexpr std::size_t kFastLookBlocksPerOrder = 2;

/// Each order (ABBA, BAAB) at least kFastLookBlocksPerOrder times.
bool FastLookOrdersBalanced(const std::vector<bool>& a_first);

/// One block as the fast look sees it (log scale, or amounts, as the block
/// differences are).
struct BlockContrast {
  double difference = 0;  // d_k: mean of B's runs minus mean of A's runs
  double within_a = 0;    // A's first run minus A's second run
  double within_b = 0;    // B's first run minus B's second run
  bool a_first = true;    // ABBA (true) or BAAB
};

/// The fast look's test on some blocks.
struct StudentizedLook {
  bool usable = false;  // each order twice, a positive spread, the guard holds
  double estimate = 0;  // θ̂ (0 when no block has both orders)
  double se = 0;
  double df = 0;
  double p_value = 1;   // two-sided; 1 when not usable
};

/// The order-balanced studentized test of the header's comment on
/// `blocks` (each order at least kFastLookBlocksPerOrder times; otherwise
/// not usable).
StudentizedLook OrderBalancedT(const std::vector<BlockContrast>& blocks);

/// The 1 − a·weight interval θ̂ ± q·SE (q the t quantile): it excludes 0
/// exactly when look.p_value / weight ≤ a (an end nearest 0 is moved onto
/// 0's other side when rounding disagrees). The whole line when the look
/// is not usable.
std::pair<double, double> StudentizedInterval(const StudentizedLook& look, double a,
                                              double weight = 1);

}  // namespace etbench
