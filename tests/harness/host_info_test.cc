#include "etbench/harness/host_info.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::Exited;
using etbench::testing::FakeProcessRunner;
using ::testing::HasSubstr;

TEST(HarnessHostInfoTest, GitIsAskedOnlyWhenLabelsAndEnvironmentDoNotSay) {
  FakeProcessRunner git([](const ProcessSpec& spec) {
    if (spec.argv == std::vector<std::string>{"git", "rev-parse", "HEAD"}) {
      return Exited(0, "0123abcd\n");
    }
    return Exited(0, "feature/x\n");
  });
  MapEnvironment env;
  SourceInfo info = CollectSourceInfo({}, env, &git, "host-1");
  EXPECT_EQ(info.git_commit, "0123abcd");
  EXPECT_EQ(info.branch, "feature/x");
  EXPECT_EQ(info.device, "host-1");
  EXPECT_EQ(git.specs().size(), 2u);
  EXPECT_EQ(git.specs()[0].timeout_s, 5);

  env.Set("CI_COMMIT_SHA", "fromci");
  env.Set("GITHUB_HEAD_REF", "pr-branch");
  info = CollectSourceInfo({{"device", "pixel"}}, env, &git, "host-1");
  EXPECT_EQ(info.git_commit, "fromci");
  EXPECT_EQ(info.branch, "pr-branch");
  EXPECT_EQ(info.device, "pixel");
  EXPECT_EQ(git.specs().size(), 2u);  // not asked again

  FakeProcessRunner no_git([](const ProcessSpec&) { return Exited(128, "", "fatal: not a repo"); });
  info = CollectSourceInfo({}, MapEnvironment(), &no_git, "h");
  EXPECT_EQ(info.git_commit, "");
  EXPECT_EQ(info.branch, "");
}

TEST(HarnessHostInfoTest, HostFactsAreFilledIn) {
  const HostInfo host = CollectHostInfo();
  EXPECT_FALSE(host.host.empty());
  EXPECT_FALSE(host.cpu.empty());
  EXPECT_THAT(host.os, HasSubstr("Linux"));
  // Linux: a UUID, the same for every call within this boot.
  EXPECT_EQ(host.boot_id.size(), 36u) << host.boot_id;
  EXPECT_EQ(CollectHostInfo().boot_id, host.boot_id);
}

}  // namespace
}  // namespace etbench::harness
