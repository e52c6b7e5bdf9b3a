#pragma once
// `etbench history report`: one self-contained page (HTML) or a summary
// sized for a nightly issue (Markdown). Per model: the trend of
// Method::execute and the top operators (per-run p50 with the median's 95%
// interval as a band), change points marked with their commit ranges, the
// framework-overhead trend, and the table of open change points. The model
// is built here; the renderers only format it.

#include <string>
#include <vector>

#include "etbench/history/history_workflow.h"

namespace etbench::history {

struct TrendPoint {
  std::size_t run = 0;  // position in HistoryReport::runs
  double p50 = 0;
  /// Distribution-free 95% interval of the run's median (order statistics
  /// n/2 ∓ 0.98·√n); samples of one repetition vary together, so read it
  /// as a lower bound of the uncertainty.
  double low = 0;
  double high = 0;
};

struct Trend {
  std::string label;
  std::string unit;
  std::vector<TrendPoint> points;
  std::vector<ChangePoint> change_points;  // of this metric
};

struct ModelTrends {
  std::string model;
  std::vector<Trend> trends;  // Method::execute first, then the top operators
  std::vector<Trend> framework_tax;
};

struct HistoryReport {
  std::string suite;
  std::string device;
  std::vector<RunSummary> runs;
  std::size_t metrics_tested = 0;
  std::vector<ModelTrends> models;
  std::vector<ChangePoint> change_points;  // every one, acknowledged or not
};

/// One report per (suite, device) among the runs of `filter`, with the
/// `top_operators` slowest kernel/delegate calls of each model.
Result<std::vector<HistoryReport>> BuildHistoryReports(HistoryStore& store,
                                                       const RunFilter& filter,
                                                       const DetectOptions& options,
                                                       std::size_t top_operators = 4);

/// The Markdown summary (per model the latest execute p50 and the open
/// change points), sized for a nightly issue.
std::string RenderHistoryMarkdown(const std::vector<HistoryReport>& reports);

/// One self-contained HTML page: inline CSS and SVG, no script, no network.
std::string RenderHistoryHtml(const std::vector<HistoryReport>& reports);

}  // namespace etbench::history
