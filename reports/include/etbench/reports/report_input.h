#pragma once
// What every report renderer takes: finished data (a comparison with the
// metric sets it was computed from, or the results of one run) and
// presentation options. Renderers never compute statistics.

#include <cstddef>
#include <string>

#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "etbench/results/results.h"

namespace etbench::reports {

/// Non-owning: the caller keeps the pointed-to data alive while rendering.
/// A comparison report needs `comparison`; `baseline` and `candidate` (the
/// metric sets it compared) add the raw samples for distribution plots and
/// may be null. A results report needs `results` (and no comparison).
struct ReportInput {
  const Comparison* comparison = nullptr;
  const MetricSet* baseline = nullptr;
  const MetricSet* candidate = nullptr;
  const results::RunResults* results = nullptr;
  /// Heading of the report ("" = "etbench").
  std::string title;
};

struct ReportOptions {
  /// ANSI colours in the terminal report (the caller decides: a TTY and
  /// NO_COLOR unset). Reports written to files never use colour.
  bool color = false;
  /// Width the terminal tables fit in (metric names are truncated).
  std::size_t terminal_width = 120;
  /// Rows per table in the terminal and Markdown reports before "… N more"
  /// (0 = all). The Markdown <details> section lists every row that fits.
  std::size_t max_rows = 25;
  /// Also list unchanged metrics in the terminal report.
  bool show_unchanged = false;
  /// Markdown size budget: GitHub rejects comments over 65,536 characters;
  /// rows beyond this budget are dropped with a note.
  std::size_t markdown_max_chars = 60000;
  /// JSON report of a run's results: every raw sample (one number per
  /// measured execution; `report --raw-samples`). Off, the report keeps the
  /// summaries (count, percentiles, mean, …) and leaves `raw` empty, so its
  /// size follows the number of metrics, not of executions; the results
  /// file itself (results.json) always keeps the samples.
  bool raw_samples = false;
  /// "etbench 0.1.0": named in footers and generator fields.
  std::string generator = "etbench";
  /// A sentence the Markdown and HTML reports of a run's results show under
  /// their heading ("" = none): why the run was not judged, e.g. the gate's
  /// "history too short", so a report read in CI is not taken for a pass.
  std::string results_note;
  /// Not empty: the job fails on a run's results that were not judged (the
  /// nightly gate's "change point confirmed tonight" on a night too short
  /// to judge). The JUnit report of the results then has a failing case
  /// `etbench.gate/outcome` with this text, as a comparison's has for a
  /// regression no row carries.
  std::string results_failure;
};

/// True when `input` holds what a report needs (a comparison or results).
bool HasReportData(const ReportInput& input);

}  // namespace etbench::reports
