// Framework tax of one Execute run and the reserved framework event names.
#include <cstring>
#include <string_view>

#include "etbench/inspector/inspector.h"

namespace etbench {
namespace {

// Events that count as "kernel or delegate time" in the framework tax:
// the runtime's native kernels, delegate calls, and the legacy profiler's
// delegate_execute.
bool IsKernelOrDelegateEvent(std::string_view name) {
  return name.rfind("native_call_", 0) == 0 || name == "DELEGATE_CALL" ||
         name == "delegate_execute";
}

}  // namespace

bool IsReservedFrameworkEvent(const std::string& name) {
  return name == "Method::init" || name == "Program::load_method" ||
         name == "Method::execute";
}

std::optional<double> FrameworkTaxOfRun(const fb::RunData& run) {
  const auto* events = run.events();
  if (events == nullptr) return std::nullopt;
  bool has_execute = false;
  double execute = 0;
  double kernels = 0;
  for (const fb::Event* event : *events) {
    const fb::ProfileEvent* p = event->profile_event();
    if (p == nullptr || p->name() == nullptr) continue;
    const std::string_view name(p->name()->c_str(), p->name()->size());
    const bool is_execute = name == "Method::execute";
    if (!is_execute && !IsKernelOrDelegateEvent(name)) continue;
    const std::optional<uint64_t> elapsed = ElapsedTicks(p->start_time(), p->end_time());
    if (!elapsed) continue;  // reported as an error by the event grouping
    if (is_execute) {
      has_execute = true;
      execute += static_cast<double>(*elapsed);
    } else {
      kernels += static_cast<double>(*elapsed);
    }
  }
  if (!has_execute || execute <= 0) return std::nullopt;
  return (execute - kernels) / execute * 100.0;
}

}  // namespace etbench
