#include "etbench/inspector/event_role.h"

namespace etbench {

EventRole EventRoleOf(std::string_view name, bool is_delegated_op) {
  if (is_delegated_op) return EventRole::kDelegateEvent;
  if (name.rfind("native_call_", 0) == 0) return EventRole::kKernelCall;
  if (name == "DELEGATE_CALL" || name == "delegate_execute") return EventRole::kDelegateCall;
  if (name == "OPERATOR_CALL") return EventRole::kOperatorCall;
  if (name == kMethodExecuteEventName) return EventRole::kMethodExecute;
  if (name == kLoadMethodEventName) return EventRole::kLoadMethod;
  if (name == kMethodInitEventName) return EventRole::kMethodInit;
  return EventRole::kFrameworkEvent;
}

}  // namespace etbench
