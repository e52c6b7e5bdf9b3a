#pragma once
// Progress of a suite run: a one-line bar (model, repetition, iteration,
// ETA) on an interactive terminal only, plus lines that must always be
// seen (failures).

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
  /// Executions finished and planned over the whole suite (for the ETA).
  std::size_t done_total = 0;
  std::size_t expected_total = 0;
};

class Progress {
 public:
  virtual ~Progress() = default;
  /// Called often (every execution); implementations throttle drawing.
  virtual void Update(const ProgressState& state) = 0;
  /// A line that is always shown (clears the bar first).
  virtual void Message(std::string_view line) = 0;
  /// Clears the bar.
  virtual void Finish() = 0;
};

/// Draws on `terminal` when it is interactive and `show_bar`, at most every
/// `min_interval_s`; Message always writes. Neither pointer is owned.
std::unique_ptr<Progress> MakeProgress(Terminal* terminal, Clock* clock, bool show_bar,
                                       double min_interval_s = 0.1);

/// The bar's text for `state` after `elapsed_s`, cut to `columns` - 1.
std::string RenderProgressLine(const ProgressState& state, double elapsed_s, int columns);

}  // namespace etbench::harness
