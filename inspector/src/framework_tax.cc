// Framework tax of one Execute run and the reserved framework event names.
#include <cstring>
#include <string_view>

#include "etbench/inspector/event_role.h"
#include "etbench/inspector/inspector.h"

namespace etbench {

bool IsReservedFrameworkEvent(const std::string& name) {
  return name == "Method::init" || name == "Program::load_method" ||
         name == "Method::execute";
}

std::optional<PerfData> FrameworkTaxOfBlock(const EventBlock& block) {
  // Classify events once (by name), then sum their per-run ticks.
  std::vector<const Event*> execute;
  std::vector<const Event*> kernels;
  for (const Event& event : block.events) {
    if (!event.perf_data || event.is_delegated_op) continue;
    if (event.name == "Method::execute") {
      execute.push_back(&event);
    } else if (IsKernelOrDelegateCall(EventRoleOf(event.name, event.is_delegated_op))) {
      kernels.push_back(&event);
    }
  }
  if (execute.empty()) return std::nullopt;
  auto ticks = [](const Event* e, std::size_t run) {
    return static_cast<double>(ElapsedTicks(e->start_ticks[run], e->end_ticks[run]).value_or(0));
  };
  std::vector<double> tax;
  tax.reserve(block.run_count);
  for (std::size_t run = 0; run < block.run_count; ++run) {
    double exec = 0;
    double kernel = 0;
    for (const Event* e : execute) exec += ticks(e, run);
    for (const Event* e : kernels) kernel += ticks(e, run);
    if (exec > 0) tax.push_back((exec - kernel) / exec * 100.0);
  }
  if (tax.empty()) return std::nullopt;
  return PerfData::FromRaw(std::move(tax));
}

}  // namespace etbench
