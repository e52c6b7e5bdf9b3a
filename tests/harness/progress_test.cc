#include "etbench/harness/progress.h"

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "etbench/base/utf8.h"
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

TEST(HarnessProgressTest, NamesFromOutsideCannotControlTheTerminal) {
  // A model named to retitle and clear the window and break the line: the
  // bar and the messages show it escaped (base/terminal_text.h); the only
  // control codes on the terminal are the bar's own (\r, ESC[K).
  ProgressState s = State();
  s.model = "m\x1b]0;t\x07\x1b[2J\n\r\x9b";
  const std::string line = RenderProgressLine(s, 10.0, 200);
  EXPECT_THAT(line, HasSubstr("[2/4] m\\x1b]0;t\\x07\\x1b[2J\\n\\r\\x9b  rep 1/2"));
  RecordingTerminal terminal(true);
  ManualClock clock;
  auto progress = MakeProgress(&terminal, &clock, true, 0.1);
  progress->Update(s);
  progress->Message("etbench run: " + s.model + ": failed: bad\nline");
  progress->Finish();
  std::string text = terminal.text();
  for (const std::string own : {"\r\x1b[K", "\x1b[K", "\r"}) {
    for (std::size_t at; (at = text.find(own)) != std::string::npos;) text.erase(at, own.size());
  }
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\x9b'), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;  // the message's own end
  EXPECT_THAT(text, HasSubstr("failed: bad\\nline\n"));
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

// ab run 5 of at most 48 (block 2 of 12), 20 s of a 60 s budget spent, 5 of
// them on calibration, the current run half done.
JobProgress AbJob() {
  JobProgress job;
  job.step = "ab run 5 (B)";
  job.runs_done = 4;
  job.runs_total = 48;
  job.open_ended = true;
  job.budget_s = 60;
  job.spent_s = 20;
  job.schedule_start_s = 5;
  job.models_decided = 1;
  job.models_total = 3;
  return job;
}

ProgressState HalfDoneRun() {
  ProgressState s;
  s.model = "toy_cnn";
  s.model_index = 0;
  s.model_count = 3;
  s.repetitions = 1;
  s.execution = 172;
  s.executions = 448;
  s.done_total = 200;
  s.expected_total = 400;
  return s;
}

TEST(HarnessProgressTest, JobLineShowsBlocksModelsBudgetAndTheJobsEta) {
  // 4.5 runs in 15 s: 43.5 runs left would take 145 s, but the budget ends
  // in 40 s, and the job may stop earlier: "≤0:40". The bar is the budget's
  // third, not the current run's half.
  EXPECT_EQ(RenderJobProgressLine(AbJob(), HalfDoneRun(), 0, 200),
            "ab run 5 (B) · block 2/≤5 · 1/3 models decided · 20 of 60 s · [1/3] toy_cnn  "
            "iter 172/448  ETA ≤0:40  [======              ]");
  // A fixed number of blocks, no budget: the runs' pace alone.
  JobProgress fixed = AbJob();
  fixed.open_ended = false;
  fixed.budget_s = 0;
  fixed.runs_total = 12;
  fixed.runs_done = 6;
  fixed.spent_s = 30;
  fixed.schedule_start_s = 0;
  ProgressState start = HalfDoneRun();
  start.done_total = 0;
  EXPECT_EQ(RenderJobProgressLine(fixed, start, 0, 200),
            "ab run 5 (B) · block 2/3 · 1/3 models decided · [1/3] toy_cnn  iter 172/448  "
            "ETA 0:30  [==========          ]");
  // Calibration: no block yet, the budget bounds the ETA.
  JobProgress calibration = AbJob();
  calibration.calibration = true;
  calibration.runs_done = 0;
  calibration.models_total = 0;
  calibration.spent_s = 2;
  EXPECT_EQ(RenderJobProgressLine(calibration, HalfDoneRun(), 0, 200),
            "ab run 5 (B) · 2 of 60 s · [1/3] toy_cnn  iter 172/448  ETA ≤0:58  "
            "[                    ]");
}

TEST(HarnessProgressTest, NarrowTerminalsKeepTheEtaAndBar) {
  const std::string line = RenderJobProgressLine(AbJob(), HalfDoneRun(), 0, 61);
  EXPECT_EQ(Utf8Length(line), 60u);
  EXPECT_THAT(line, ::testing::EndsWith("ETA ≤0:40  [======              ]"));
  EXPECT_EQ(line.rfind("ab run 5 (B) · block", 0), 0u);
}

TEST(HarnessProgressTest, TheJobsEtaMovesWithTheClock) {
  RecordingTerminal terminal(true);
  ManualClock clock;
  auto progress = MakeProgress(&terminal, &clock, true, 0);
  progress->SetJob(AbJob());
  progress->Update(HalfDoneRun());
  EXPECT_THAT(terminal.text(), HasSubstr("20 of 60 s"));
  EXPECT_THAT(terminal.text(), HasSubstr("ETA ≤0:40"));
  clock.Advance(10);
  progress->Update(HalfDoneRun());
  EXPECT_THAT(terminal.text(), HasSubstr("30 of 60 s"));
  EXPECT_THAT(terminal.text(), HasSubstr("ETA ≤0:30"));
  // Not a terminal: nothing, job or not.
  RecordingTerminal pipe(false);
  auto quiet = MakeProgress(&pipe, &clock, true, 0);
  quiet->SetJob(AbJob());
  quiet->Update(HalfDoneRun());
  quiet->Finish();
  EXPECT_EQ(pipe.text(), "");
}

}  // namespace
}  // namespace etbench::harness
