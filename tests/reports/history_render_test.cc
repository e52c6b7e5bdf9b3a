// Sentences of the history renderers that no history test reaches
// (reports/src/history_render.cc); the change-point renderers are tested
// with real detections in tests/history/.
#include "etbench/reports/history_render.h"

#include <gtest/gtest.h>

namespace etbench::reports {
namespace {

TEST(HistoryRenderTest, ANightNotJudgedNamesItsExitAsTheGateEndsIt) {
  EXPECT_EQ(RenderNotJudged(3, 5, "default", "host 'vm', boot 6ef6477b", "/tmp/h.db", false),
            "history too short: 3 of 5 nights of default on this machine (host 'vm', boot "
            "6ef6477b) before this run, since the last change point; this run is recorded in "
            "/tmp/h.db and not judged (exit 0); gating starts once 5 nights show how much this "
            "machine varies from night to night");
  // Seen on a real night: "not judged (exit 0)" beside "change point
  // confirmed tonight", and the gate exited 1.
  const std::string fails =
      RenderNotJudged(3, 5, "default", "host 'vm', boot 6ef6477b", "/tmp/h.db", true);
  EXPECT_NE(fails.find("not judged (exit 1: tonight confirmed a regression change point; "
                       "etbench history detect lists it); gating starts once 5 nights"),
            std::string::npos)
      << fails;
  EXPECT_EQ(fails.find("exit 0"), std::string::npos) << fails;
}

}  // namespace
}  // namespace etbench::reports
