#include "etbench/inspector/event_role.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(EventRoleTest, OneRuleForEveryEventName) {
  EXPECT_EQ(EventRoleOf("native_call_convolution.out", false), EventRole::kKernelCall);
  EXPECT_EQ(EventRoleOf("DELEGATE_CALL", false), EventRole::kDelegateCall);
  EXPECT_EQ(EventRoleOf("delegate_execute", false), EventRole::kDelegateCall);  // legacy
  EXPECT_EQ(EventRoleOf("OPERATOR_CALL", false), EventRole::kOperatorCall);
  EXPECT_EQ(EventRoleOf("Method::execute", false), EventRole::kFrameworkEvent);
  EXPECT_EQ(EventRoleOf("Program::load_method", false), EventRole::kFrameworkEvent);
  EXPECT_EQ(EventRoleOf("native_call", false), EventRole::kFrameworkEvent);  // no "_" suffix
}

TEST(EventRoleTest, ADelegateDebugIdMakesAnyNameADelegateEvent) {
  EXPECT_EQ(EventRoleOf("native_call_add.out", true), EventRole::kDelegateEvent);
  EXPECT_EQ(EventRoleOf("DELEGATE_CALL", true), EventRole::kDelegateEvent);
  EXPECT_EQ(EventRoleOf("conv2d", true), EventRole::kDelegateEvent);
}

TEST(EventRoleTest, OperatorsAreKernelAndDelegateCalls) {
  EXPECT_TRUE(IsKernelOrDelegateCall(EventRole::kKernelCall));
  EXPECT_TRUE(IsKernelOrDelegateCall(EventRole::kDelegateCall));
  EXPECT_FALSE(IsKernelOrDelegateCall(EventRole::kOperatorCall));
  EXPECT_FALSE(IsKernelOrDelegateCall(EventRole::kFrameworkEvent));
  EXPECT_FALSE(IsKernelOrDelegateCall(EventRole::kDelegateEvent));
}

}  // namespace
}  // namespace etbench
