#pragma once
// `etbench history report`: one self-contained page (HTML) or a summary
// sized for a nightly issue (Markdown), over the reports the history builds
// (history::BuildHistoryReports; the model is etbench/results/history_view.h).
// Per model: the trend of Method::execute and the top operators (per-run p50
// with the median's 95% interval as a band), change points marked with
// their commit ranges, the framework-overhead trend, and the table of open
// change points. Machine shifts (every operator moved together: the machine)
// get a table of their own and, on the page, a mark of their own on every
// chart; a history without one renders as it did before they were shown.

#include <string>
#include <vector>

#include "etbench/results/history_view.h"

namespace etbench::reports {

/// The Markdown summary (per model the latest execute p50, the open change
/// points, and the machine shifts: every open one and the newest others, 8
/// at most), sized for a nightly issue.
std::string RenderHistoryMarkdown(const std::vector<history::HistoryReport>& reports);

/// One self-contained HTML page: inline CSS and SVG, no script, no network.
std::string RenderHistoryHtml(const std::vector<history::HistoryReport>& reports);

}  // namespace etbench::reports
