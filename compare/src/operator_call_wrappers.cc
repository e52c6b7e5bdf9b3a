// OPERATOR_CALL wrappers of compared kernels (see operator_call_wrappers.h).

#include "operator_call_wrappers.h"

#include <set>
#include <string>
#include <tuple>

namespace etbench {

std::vector<bool> OperatorCallWrappers(const std::vector<const Metric*>& metrics) {
  std::set<std::tuple<std::string, std::string, int32_t, int32_t>> kernels;
  for (const Metric* m : metrics) {
    const MetricKey& k = m->key;
    if (m->is_kernel_or_delegate_call && k.instruction_id &&
        MetricEventRole(k) == EventRole::kKernelCall) {
      kernels.insert({k.model, k.block, *k.instruction_id, k.occurrence});
    }
  }
  std::vector<bool> wrapper;
  wrapper.reserve(metrics.size());
  for (const Metric* m : metrics) {
    const MetricKey& k = m->key;
    wrapper.push_back(MetricEventRole(k) == EventRole::kOperatorCall && !m->end_to_end &&
                      k.instruction_id &&
                      kernels.count({k.model, k.block, *k.instruction_id, k.occurrence}) > 0);
  }
  return wrapper;
}

}  // namespace etbench
