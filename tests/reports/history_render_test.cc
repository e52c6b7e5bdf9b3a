// Sentences of the history renderers that no history test reaches
// (reports/src/history_render.cc); the change-point renderers are tested
// with real detections in tests/history/.
#include "etbench/reports/history_render.h"

#include <gtest/gtest.h>

namespace etbench::reports {
namespace {

TEST(HistoryRenderTest, ANightNotJudgedNamesItsExitAsTheGateEndsIt) {
  EXPECT_EQ(RenderNotJudged(3, 5, "default", "host 'vm', boot 6ef6477b", "/tmp/h.db", "", false),
            "history too short: 3 of 5 nights of default on this machine (host 'vm', boot "
            "6ef6477b) before this run, since the last change point; this run is recorded in "
            "/tmp/h.db and not judged (exit 0); gating starts once 5 nights show how much this "
            "machine varies from night to night");
  // Seen on a real night: "not judged (exit 0)" beside "change point
  // confirmed tonight", and the gate exited 1.
  const std::string fails =
      RenderNotJudged(3, 5, "default", "host 'vm', boot 6ef6477b", "/tmp/h.db", "", true);
  EXPECT_NE(fails.find("not judged (exit 1: tonight confirmed a regression change point; "
                       "etbench history detect lists it); gating starts once 5 nights"),
            std::string::npos)
      << fails;
  EXPECT_EQ(fails.find("exit 0"), std::string::npos) << fails;
  // A baseline restarted at a change point names it: the user saw "since
  // the last change point" on a 7th night and could not tell which.
  EXPECT_NE(RenderNotJudged(3, 5, "default", "m", "/tmp/h.db",
                            "19bde4c5bd6b4503802a5769750bf6c2e111209d", false)
                .find("3 of 5 nights of default on this machine (m) before this run, since the "
                      "change point at 19bde4c5bd6b (the nights before it do not count); this "
                      "run is recorded in"),
            std::string::npos);
}

TEST(HistoryRenderTest, AConfirmedChangePointNamesItsCommitShortAsEveryOtherLineDoes) {
  // It printed all 40 hex digits ("since 62f4a974807aa5c6…") where history
  // list and detect print 12.
  history::ChangePoint cp;
  cp.id = "777c48b63cfc";
  cp.label = "toy_cnn/Execute/native_call_convolution.out#3";
  cp.key.model = "toy_cnn";
  cp.unit = "ms";
  cp.commit_after = "62f4a974807aa5c69f14cf523850f9001b58e5e7";
  cp.time_after = "2026-11-27T18:51:05Z";
  cp.before = 0.2273;
  cp.after = 0.2515;
  cp.runs_before = 10;
  cp.runs_after = 3;
  cp.change = 0.107;
  cp.change_low = 0.100;
  cp.change_high = 0.121;
  cp.regression = true;
  const std::vector<std::string> lines = RenderConfirmedChangePoints({cp}, 0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "change point confirmed tonight: toy_cnn/Execute/native_call_convolution.out#3 "
            "+10.7% [+10.0%, +12.1%] (p10, medians of the segments: 227.3 us -> 251.5 us) since "
            "62f4a974807a "
            "(2026-11-27T18:51:05Z), 10 nights before it, 3 at the new level; found by history "
            "detect (if intended: etbench history ack 777c48b63cfc)");
}

}  // namespace
}  // namespace etbench::reports
