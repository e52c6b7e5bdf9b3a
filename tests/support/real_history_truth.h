#pragma once
// The ground truth of the committed real history
// (tests/fixtures/real_history_conv_slowdown.json and histories recorded
// with benchmarks/history/real_history.sh): which metrics the injected
// convolution slowdown moves. Shared by its test and real_history_eval.

#include <string>

#include "etbench/compare/history_view.h"

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

}  // namespace etbench::testing
