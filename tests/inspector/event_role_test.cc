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

TEST(EventRoleTest, OperatorsAreKernelAndDelegateCalls) {
  EXPECT_TRUE(IsKernelOrDelegateCall(EventRole::kKernelCall));
  EXPECT_TRUE(IsKernelOrDelegateCall(EventRole::kDelegateCall));
  EXPECT_FALSE(IsKernelOrDelegateCall(EventRole::kOperatorCall));
  EXPECT_FALSE(IsKernelOrDelegateCall(EventRole::kMethodExecute));
  EXPECT_FALSE(IsKernelOrDelegateCall(EventRole::kFrameworkEvent));
  EXPECT_FALSE(IsKernelOrDelegateCall(EventRole::kDelegateEvent));
}

TEST(EventRoleTest, EndToEndIsExecuteAndTheLoadPath) {
  EXPECT_TRUE(IsEndToEnd(EventRole::kMethodExecute));
  EXPECT_TRUE(IsEndToEnd(EventRole::kLoadMethod));
  EXPECT_TRUE(IsEndToEnd(EventRole::kMethodInit));
  EXPECT_FALSE(IsEndToEnd(EventRole::kFrameworkEvent));
  EXPECT_FALSE(IsEndToEnd(EventRole::kKernelCall));
  EXPECT_FALSE(IsEndToEnd(EventRole::kDelegateCall));
  EXPECT_FALSE(IsEndToEnd(EventRole::kOperatorCall));
  EXPECT_FALSE(IsEndToEnd(EventRole::kDelegateEvent));
}

TEST(EventRoleTest, FrameworkEventsAreTheEndToEndOnesAndAnyOther) {
  EXPECT_TRUE(IsFrameworkEvent(EventRole::kMethodExecute));
  EXPECT_TRUE(IsFrameworkEvent(EventRole::kLoadMethod));
  EXPECT_TRUE(IsFrameworkEvent(EventRole::kMethodInit));
  EXPECT_TRUE(IsFrameworkEvent(EventRole::kFrameworkEvent));
  EXPECT_FALSE(IsFrameworkEvent(EventRole::kKernelCall));
  EXPECT_FALSE(IsFrameworkEvent(EventRole::kOperatorCall));
  EXPECT_FALSE(IsFrameworkEvent(EventRole::kDelegateEvent));
}

TEST(EventRoleTest, ANameAloneIsEndToEndOnlyForTheMethodLevelEvents) {
  EXPECT_TRUE(IsEndToEndEventName("Method::execute"));
  EXPECT_TRUE(IsEndToEndEventName("Program::load_method"));
  EXPECT_TRUE(IsEndToEndEventName("Method::init"));
  EXPECT_FALSE(IsEndToEndEventName("native_call_add.out"));
  EXPECT_FALSE(IsEndToEndEventName("Program::load"));
  EXPECT_FALSE(IsEndToEndEventName(""));
}

}  // namespace
}  // namespace etbench
