#include "etbench/inspector/event_role.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(EventRoleTest, OneRuleForEveryEventName) {
  EXPECT_EQ(EventRoleOf("native_call_convolution.out", false), EventRole::kKernelCall);
  EXPECT_EQ(EventRoleOf("DELEGATE_CALL", false), EventRole::kDelegateCall);
  EXPECT_EQ(EventRoleOf("delegate_execute", false), EventRole::kDelegateCall);  // legacy
  EXPECT_EQ(EventRoleOf("OPERATOR_CALL", false), EventRole::kOperatorCall);
  EXPECT_EQ(EventRoleOf("Method::execute", false), EventRole::kMethodExecute);
  EXPECT_EQ(EventRoleOf("Program::load_method", false), EventRole::kLoadMethod);
  EXPECT_EQ(EventRoleOf("Method::init", false), EventRole::kMethodInit);
  EXPECT_EQ(EventRoleOf("native_call", false), EventRole::kFrameworkEvent);  // no "_" suffix
  EXPECT_EQ(EventRoleOf("Method::execute_all", false), EventRole::kFrameworkEvent);  // whole names
  EXPECT_EQ(EventRoleOf("method::execute", false), EventRole::kFrameworkEvent);  // case matters
}

TEST(EventRoleTest, TheNamesARuntimeWritesHaveTheirRoles) {
  EXPECT_EQ(EventRoleOf(kMethodExecuteEventName, false), EventRole::kMethodExecute);
  EXPECT_EQ(EventRoleOf(kLoadMethodEventName, false), EventRole::kLoadMethod);
  EXPECT_EQ(EventRoleOf(kMethodInitEventName, false), EventRole::kMethodInit);
}

TEST(EventRoleTest, ADelegateDebugIdMakesAnyNameADelegateEvent) {
  EXPECT_EQ(EventRoleOf("native_call_add.out", true), EventRole::kDelegateEvent);
  EXPECT_EQ(EventRoleOf("DELEGATE_CALL", true), EventRole::kDelegateEvent);
  EXPECT_EQ(EventRoleOf("conv2d", true), EventRole::kDelegateEvent);
  EXPECT_EQ(EventRoleOf("Method::execute", true), EventRole::kDelegateEvent);
}

// Every role against the three groupings consumers ask about.
TEST(EventRoleTest, EachRoleBelongsToItsGroups) {
  struct Row {
    EventRole role;
    bool operator_call;  // IsKernelOrDelegateCall: what the framework tax subtracts
    bool end_to_end;     // IsEndToEnd: Method::execute and the load path
    bool framework;      // IsFrameworkEvent: the end-to-end ones and any other
  };
  const Row rows[] = {
      {EventRole::kKernelCall, true, false, false},
      {EventRole::kDelegateCall, true, false, false},
      {EventRole::kOperatorCall, false, false, false},
      {EventRole::kLoadMethod, false, true, true},
      {EventRole::kMethodInit, false, true, true},
      {EventRole::kMethodExecute, false, true, true},
      {EventRole::kFrameworkEvent, false, false, true},
      {EventRole::kDelegateEvent, false, false, false},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(static_cast<int>(row.role));
    EXPECT_EQ(IsKernelOrDelegateCall(row.role), row.operator_call);
    EXPECT_EQ(IsEndToEnd(row.role), row.end_to_end);
    EXPECT_EQ(IsFrameworkEvent(row.role), row.framework);
  }
}

}  // namespace
}  // namespace etbench
