#pragma once
// What an event is, decided by one rule for every consumer (framework tax,
// metrics, comparison, reports) instead of each checking names.

#include <string_view>

namespace etbench {

enum class EventRole {
  kKernelCall,      ///< native_call_<op>: a kernel the method ran
  kDelegateCall,    ///< DELEGATE_CALL (the legacy profiler's delegate_execute)
  kOperatorCall,    ///< OPERATOR_CALL: wraps the kernel call of its instruction
  kFrameworkEvent,  ///< Method::execute, Program::load_method, ... anything else
  kDelegateEvent,   ///< an event a delegate recorded inside its call
};

/// The role of an event named `name`. An event with a delegate debug id
/// (`is_delegated_op`) is always a delegate event, whatever its name.
EventRole EventRoleOf(std::string_view name, bool is_delegated_op);

/// Kernel and delegate calls: the direct parts of Method::execute's time
/// (what the framework tax subtracts, and a model's "operators").
inline bool IsKernelOrDelegateCall(EventRole role) {
  return role == EventRole::kKernelCall || role == EventRole::kDelegateCall;
}

}  // namespace etbench
