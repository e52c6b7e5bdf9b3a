#pragma once
// Progress of a long command: one line on an interactive terminal only,
// plus lines that must always be seen (failures). A suite run reports its
// models, repetitions and executions (ProgressState); a command made of
// many runs (ab, gate --base) also reports the whole job (JobProgress), so
// the line's fraction and ETA are the job's, not the current run's.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "etbench/harness/clock.h"
#include "etbench/harness/terminal.h"

namespace etbench::harness {

struct ProgressState {
  std::string model;
  int model_index = 0;  // 0-based
  int model_count = 0;
  int repetition = 0;  // 0-based
  int repetitions = 0;
  /// Executions finished in this repetition and planned per repetition
  /// (0 = unknown, e.g. Google Benchmark binaries).
  int execution = 0;
  int executions = 0;
  /// Executions finished and planned over the whole suite (for the ETA);
  /// planned counts each model's own warm-up and iterations.
  std::size_t done_total = 0;
  std::size_t expected_total = 0;
};

/// The job around the suite runs (ab, gate --base): set before each run.
struct JobProgress {
  /// The current run, e.g. "ab run 5 (B)", "ab calibration (A)".
  std::string step;
  /// Runs of the schedule finished and planned (at most, when open_ended:
  /// the job stops early once everything is decided); calibration runs are
  /// not counted.
  std::size_t runs_done = 0;
  std::size_t runs_total = 0;
  bool open_ended = false;
  std::size_t runs_per_block = 4;
  /// Seconds the job may take (0: no budget) and has taken when set.
  double budget_s = 0;
  double spent_s = 0;
  /// A run before the schedule (time sizing): not one of runs_total.
  bool calibration = false;
  /// spent_s when the schedule's first run started (per-run time for the
  /// ETA is measured from here).
  double schedule_start_s = 0;
  /// Models whose every gated metric is decided, of all the job's models
  /// (0 total: not known yet).
  std::size_t models_decided = 0;
  std::size_t models_total = 0;
};

class Progress {
 public:
  virtual ~Progress() = default;
  /// Called often (every execution); implementations throttle drawing.
  virtual void Update(const ProgressState& state) = 0;
  /// The job the following updates belong to; its fraction and ETA replace
  /// the run's. Not calling it: the run is the job.
  virtual void SetJob(const JobProgress& job) { (void)job; }
  /// A line that is always shown (clears the bar first), by TerminalText
  /// (base/terminal_text.h): the names it quotes cannot break it.
  virtual void Message(std::string_view line) = 0;
  /// Clears the bar.
  virtual void Finish() = 0;
};

/// Draws on `terminal` when it is interactive and `show_bar`, at most every
/// `min_interval_s`; Message always writes. Neither pointer is owned.
std::unique_ptr<Progress> MakeProgress(Terminal* terminal, Clock* clock, bool show_bar,
                                       double min_interval_s = 0.1);

/// The bar's text for `state` after `elapsed_s` (the model's name by
/// TerminalText), cut to `columns` - 1
/// (the model's part first, so the ETA and bar stay when there is room
/// for them).
std::string RenderProgressLine(const ProgressState& state, double elapsed_s, int columns);

/// The line of a job: its step, blocks, models decided and budget, the
/// current run's model and execution, the job's ETA ("≤" when it may stop
/// earlier) and bar. `since_set_s`: seconds since `job` was set.
std::string RenderJobProgressLine(const JobProgress& job, const ProgressState& run,
                                  double since_set_s, int columns);

}  // namespace etbench::harness
