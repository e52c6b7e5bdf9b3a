// `etbench gate --baseline history` and `history detect`'s change points
// (cli/src/gate_change_points.h), in-process with doubles: the night a
// regression's change point is confirmed says so and fails; later nights,
// whose baseline restarted at it, remind of it until it is acknowledged.
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

TEST(GateChangePointsTest, TheNightThatConfirmsAChangePointFailsAndLaterNightsRemind) {
  TempDir dir;
  FakeDevice device(dir);
  device.Noisy("m");  // runs differ, as real ones do
  const auto night = [&](int n) {
    return RunCliWith({"gate", device.suite(), "--baseline", "history", "--history",
                       dir.File("h.db"), "--sessions", "1", "--no-confirm", "--color", "never",
                       "--label", "night=" + std::to_string(n)},
                      device.Deps());
  };
  for (int n = 1; n <= 6; ++n) ASSERT_NE(night(n).exit_code, 2);
  device.SlowDown(2);  // from night 7 on
  std::vector<CliRun> slow;
  for (int n = 7; n <= 10; ++n) slow.push_back(night(n));
  // Night 9 is the third at the new level: detect confirms the change with
  // it, and the gate says so beside its own first-night alert.
  const CliRun& confirming = slow[2];
  EXPECT_EQ(confirming.exit_code, 1) << confirming.err;
  EXPECT_THAT(confirming.err, HasSubstr("etbench gate: warning: change point confirmed tonight: "
                                        "m/Execute/Method::execute#0 +"));
  EXPECT_THAT(confirming.err, HasSubstr("6 nights before it, 3 at the new level"));
  EXPECT_THAT(confirming.err, HasSubstr("etbench history ack "));
  // The header describes the baseline before tonight: it cannot be read
  // against the change point tonight confirms.
  EXPECT_THAT(confirming.out, HasSubstr("history: 8 earlier runs (no change point before tonight)"))
      << confirming.out;
  EXPECT_THAT(confirming.out, Not(HasSubstr("no change point in")));
  // Tonight alone decided (a 2x step): judged against all 8 nights, as each
  // row is (a sustained look would name the nights it judged against).
  EXPECT_THAT(confirming.err, HasSubstr("etbench gate: judged against 8 earlier nights (the night "
                                        "is the unit; "));
  for (int i : {0, 1}) {
    EXPECT_THAT(slow[i].err, Not(HasSubstr("change point confirmed"))) << i;
    // A failed night (the first-night alert of a 2x step) says what to do next.
    EXPECT_EQ(slow[i].exit_code, 1) << slow[i].err;
    if (slow[i].exit_code == 1) {
      EXPECT_THAT(slow[i].err,
                  HasSubstr("etbench gate: next: to tell a change of the code from a slow night, "
                            "run it interleaved with the previous build: etbench ab " +
                            device.suite() + " --model m --a SETTING"))
          << i;
      EXPECT_THAT(slow[i].err, HasSubstr("'etbench history ack ID' accepts it")) << i;
    }
  }

  // Night 10: the change is known; it is an older open one, not a new alert.
  const CliRun& after = slow[3];

  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_THAT(after.err, Not(HasSubstr("etbench gate: next:")));  // a night that passed
  EXPECT_THAT(after.err, Not(HasSubstr("change point confirmed")));
  EXPECT_THAT(after.err, HasSubstr("etbench gate: warning: 5 older regression change points "
                                   "still open, not acknowledged"));
}

// Each slow night's confirmation run is fast (the slow first runs were
// chance): the gate withdraws each first-night alert, and the change point
// three slow first runs make in the history is judged with the faster run
// too, so no night confirms it (with --no-confirm night 9 would, above).
TEST(GateChangePointsTest, AChangePointIsJudgedWithTheFasterOfTonightsRuns) {
  TempDir dir;
  FakeDevice device(dir);
  device.Noisy("m");
  const auto night = [&](int n) {
    return RunCliWith({"gate", device.suite(), "--baseline", "history", "--history",
                       dir.File("h.db"), "--sessions", "1", "--color", "never", "--label",
                       "night=" + std::to_string(n)},
                      device.Deps());
  };
  for (int n = 1; n <= 6; ++n) ASSERT_NE(night(n).exit_code, 2);
  device.SlowDown(2);
  device.FastUnder("/confirm");
  for (int n = 7; n <= 10; ++n) {
    const CliRun run = night(n);
    EXPECT_EQ(run.exit_code, 0) << n << ": " << run.err;
    EXPECT_THAT(run.err, Not(HasSubstr("change point confirmed"))) << n;
    // Nights 7-9 are judged; the history keeps each night's first run, so
    // from night 10 its baseline restarts at the step (not judged).
    if (n <= 9) {
      EXPECT_THAT(run.err, HasSubstr("m measured again to confirm")) << n;
    }
  }
}

}  // namespace
}  // namespace etbench
