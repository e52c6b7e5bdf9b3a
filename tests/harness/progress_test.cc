#include "etbench/harness/progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness_test_util.h"

namespace etbench::harness {
namespace {

using etbench::testing::ManualClock;
using etbench::testing::RecordingTerminal;
using ::testing::HasSubstr;

ProgressState State() {
  ProgressState s;
  s.model = "toy_cnn";
  s.model_index = 1;
  s.model_count = 4;
  s.repetition = 0;
  s.repetitions = 2;
  s.execution = 10;
  s.executions = 33;
  s.done_total = 100;
  s.expected_total = 264;
  return s;
}

TEST(HarnessProgressTest, LineShowsModelRepetitionIterationAndEta) {
  const std::string line = RenderProgressLine(State(), 10.0, 200);
  // 100 done in 10 s, 164 left: 16.4 s.
  EXPECT_EQ(line, "[2/4] toy_cnn  rep 1/2  iter 10/33  ETA 0:16  [=======             ]");
  EXPECT_EQ(RenderProgressLine(State(), 10.0, 20).size(), 19u);
  ProgressState gbench = State();
  gbench.executions = 0;
  gbench.repetitions = 1;
  EXPECT_EQ(RenderProgressLine(gbench, 0, 200), "[2/4] toy_cnn  [=======             ]");
}

TEST(HarnessProgressTest, DrawingIsThrottledAndClearedAtTheEnd) {
  RecordingTerminal terminal(true);
  ManualClock clock;
  auto progress = MakeProgress(&terminal, &clock, true, 0.1);
  ProgressState s = State();
  progress->Update(s);
  const std::size_t after_first = terminal.text().size();
  s.execution = 11;
  progress->Update(s);  // too soon
  EXPECT_EQ(terminal.text().size(), after_first);
  clock.Advance(0.2);
  progress->Update(s);
  EXPECT_THAT(terminal.text(), HasSubstr("iter 11/33"));
  progress->Message("etbench run: x: failed: y");
  EXPECT_THAT(terminal.text(), HasSubstr("\r\x1b[Ketbench run: x: failed: y\n"));
  progress->Finish();
  EXPECT_THAT(terminal.text(), ::testing::EndsWith("failed: y\n"));  // nothing left to clear
}

TEST(HarnessProgressTest, NoBarWhenNotInteractiveOrQuiet) {
  ManualClock clock;
  RecordingTerminal pipe(false);
  auto progress = MakeProgress(&pipe, &clock, true, 0);
  progress->Update(State());
  progress->Finish();
  EXPECT_EQ(pipe.text(), "");
  RecordingTerminal tty(true);
  auto quiet = MakeProgress(&tty, &clock, false, 0);
  quiet->Update(State());
  quiet->Message("shown");
  EXPECT_EQ(tty.text(), "shown\n");
}

}  // namespace
}  // namespace etbench::harness
