#pragma once
// The model of `etbench history report` (etbench/results/history_view.h):
// per model the trend of Method::execute and the top operators (per-run p50
// with the median's 95% interval), their change points, the framework
// overhead trend, every change point, and the machine shifts. Built here;
// reports renders it (etbench/reports/history_report_render.h).

#include <string>
#include <vector>

#include "etbench/history/detect.h"
#include "etbench/history/history_store.h"
#include "etbench/results/history_view.h"

namespace etbench::history {

/// One report per (suite, device) among the runs of `filter`, with the
/// `top_operators` slowest kernel/delegate calls of each model.
Result<std::vector<HistoryReport>> BuildHistoryReports(HistoryStore& store,
                                                       const RunFilter& filter,
                                                       const DetectOptions& options,
                                                       std::size_t top_operators = 4);

}  // namespace etbench::history
