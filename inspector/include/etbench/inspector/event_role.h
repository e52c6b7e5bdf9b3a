#pragma once
// What an event is, decided by one rule for every consumer (framework tax,
// metrics, comparison, history, reports, the runtime that writes the names)
// instead of each comparing names. This header and event_role.cc are the
// only places that know ExecuTorch's event names.

#include <string_view>

namespace etbench {

/// The names ExecuTorch's runtime gives its method-level events. A runtime
/// writes them (the built-in one does); readers ask EventRoleOf.
inline constexpr std::string_view kLoadMethodEventName = "Program::load_method";
inline constexpr std::string_view kMethodInitEventName = "Method::init";
inline constexpr std::string_view kMethodExecuteEventName = "Method::execute";

enum class EventRole {
  kKernelCall,      ///< native_call_<op>: a kernel the method ran
  kDelegateCall,    ///< DELEGATE_CALL (the legacy profiler's delegate_execute)
  kOperatorCall,    ///< OPERATOR_CALL: wraps the kernel call of its instruction
  kLoadMethod,      ///< Program::load_method: loading a method (encloses Method::init)
  kMethodInit,      ///< Method::init: initialising a loaded method
  kMethodExecute,   ///< Method::execute: one execution of a method, end to end
  kFrameworkEvent,  ///< any other event outside a delegate
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

/// The end-to-end events: Method::execute and the load path
/// (Program::load_method, Method::init). They are gated on their own, belong
/// to no graph node and no instruction (although the runtime writes them
/// with instruction 0).
inline bool IsEndToEnd(EventRole role) {
  return role == EventRole::kLoadMethod || role == EventRole::kMethodInit ||
         role == EventRole::kMethodExecute;
}

/// Events the framework recorded outside any operator: the end-to-end ones
/// and any other kFrameworkEvent.
inline bool IsFrameworkEvent(EventRole role) {
  return IsEndToEnd(role) || role == EventRole::kFrameworkEvent;
}

}  // namespace etbench
