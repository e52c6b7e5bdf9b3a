#pragma once
// The ground truth of the committed real history
// (tests/fixtures/real_history_conv_slowdown.json and histories recorded
// with benchmarks/history/real_history.sh): which metrics the injected
// convolution slowdown moves. Shared by its test and real_history_eval.

#include <string>

#include "etbench/results/history_view.h"

namespace etbench::testing {

/// The convolutions, their operator calls, the mobilenet block's delegate
/// (its convolutions), execute and the framework tax of the two models
/// with convolutions.
inline bool MovedByTheSlowdown(const history::ChangePoint& c) {
  const std::string& n = c.key.name;
  const bool conv_call = n == "native_call_convolution.out" ||
                         (n == "OPERATOR_CALL" && c.key.instruction_id &&
                          (*c.key.instruction_id == 0 ||
                           (c.key.model == "toy_cnn" && *c.key.instruction_id == 3)));
  const bool model_wide = n == "Method::execute" || c.key.kind == MetricKind::kFrameworkTax ||
                          (c.key.model == "mobilenet_v2_block" && c.key.instruction_id &&
                           *c.key.instruction_id == 2);
  return (c.key.model == "toy_cnn" || c.key.model == "mobilenet_v2_block") &&
         (conv_call || model_wide);
}

/// A change point of an operator of a model the slowdown is injected into
/// (toy_cnn, mobilenet_v2_block) that starts at the injection (run 25 ± 1,
/// 1-based) but is not MovedByTheSlowdown: the injection's side effect on
/// the operators around the slower convolutions. The injection does move
/// its neighbours: in five recorded histories toy_cnn's max_pool #2 and #5
/// (two operators after each convolution) jump +13% to +58% at exactly the
/// injected run; an interleaved A/B of the same injection on the same
/// suite (`etbench ab base.yaml --b config=slow.yaml --iterations 10
/// --warmup 3`, 25 Nov 2026) measured relu #4, right after convolution #3,
/// at −7.2% [−10.9%, −3.6%]; the A/B gate runs measured permute_copy after
/// the convolutions at +2.6% (docs/comparison.md). Which neighbour moves
/// varies with the machine's state, so this is not a list of metrics but
/// the place and time. Counted apart, never as found: the target is
/// reported with and without them.
inline bool AtTheInjectionInItsModels(const history::ChangePoint& c) {
  const bool injected_model = c.key.model == "toy_cnn" || c.key.model == "mobilenet_v2_block";
  return injected_model && !MovedByTheSlowdown(c) && c.key.block == "Execute" &&
         c.index + 1 >= 24 && c.index + 1 <= 26;
}

}  // namespace etbench::testing
