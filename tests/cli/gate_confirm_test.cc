// `etbench gate --baseline history --confirm-with SETTING…` in-process with
// doubles (fake device program, manual clock): a first-night alert is
// confirmed or withdrawn by an interleaved A/B of the builds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_fakes.h"

namespace etbench {
namespace {

using testing::CliRun;
using testing::FakeDevice;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunCliWith;
using testing::TempDir;

class GateConfirmTest : public ::testing::Test {
 protected:
  std::vector<std::string> Gate(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"gate",     device_.suite(),      "--baseline", "history",
                                  "--history", dir_.File("h.db"),   "--sessions", "1",
                                  "--color",  "never"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  // Five nights of the suite as it is: enough for the nightly model (a
  // label per night keeps the fake's identical runs apart in the history).
  void RecordNights() {
    for (int night = 1; night <= 5; ++night) {
      const CliRun r =
          RunCliWith(Gate({"--label", "night=" + std::to_string(night)}), device_.Deps());
      ASSERT_EQ(r.exit_code, 0) << r.err;
      ASSERT_THAT(r.err, HasSubstr("history too short")) << night;
    }
  }

  TempDir dir_;
  FakeDevice device_{dir_};
};

TEST_F(GateConfirmTest, ARegressionOfTheCodeIsConfirmedByTheBuilds) {
  RecordNights();
  device_.SlowDownExcept(2, "--old");  // tonight's build is slower; the old one is not
  const CliRun r = RunCliWith(Gate({"--confirm-with", "arg=--old"}), device_.Deps());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("etbench gate: confirming with the builds: m interleaved, "
                               "A = arg=--old (the previous build)"));
  EXPECT_THAT(r.err, HasSubstr("etbench ab: A: arg=--old"));
  EXPECT_THAT(r.err, HasSubstr("regression confirmed by the builds"));
  // stdout holds the night's comparison only; the builds' table is on stderr.
  EXPECT_THAT(r.out, HasSubstr("REGRESSION"));
  EXPECT_THAT(r.out, Not(HasSubstr("per-block")));
  EXPECT_THAT(r.err, HasSubstr("per-block"));
}

TEST_F(GateConfirmTest, ANightThatMovedWhileTheCodeDidNotIsWithdrawn) {
  RecordNights();
  device_.SlowDown(2);  // everything slower tonight, the old build too: the machine
  const CliRun r = RunCliWith(Gate({"--confirm-with", "arg=--old"}), device_.Deps());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("REGRESSION"));  // the night's own verdict is still shown
  EXPECT_THAT(r.err, HasSubstr("not confirmed by the builds"));
  EXPECT_THAT(r.err, HasSubstr("(exit 0)"));
}

TEST_F(GateConfirmTest, NothingIsConfirmedWithoutARegression) {
  RecordNights();
  const int before = device_.runs();
  const CliRun r = RunCliWith(Gate({"--confirm-with", "arg=--old"}), device_.Deps());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("confirming with the builds")));
  EXPECT_EQ(device_.runs() - before, 6);  // one session of 6 repetitions, no A/B
}

TEST_F(GateConfirmTest, ConfirmWithNeedsAHistoryBaseline) {
  const CliRun r = RunCliWith({"gate", device_.suite(), "--root", dir_.path(), "--confirm-with",
                               "arg=--old"},
                              device_.Deps());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--confirm-with needs --baseline history"));
  EXPECT_EQ(device_.runs(), 0);
}

}  // namespace
}  // namespace etbench
