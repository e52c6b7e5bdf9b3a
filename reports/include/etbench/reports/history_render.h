#pragma once
// Text of the history commands: run lists, metric series and change points
// for people (terminal, Markdown) and for programs (JSON, CSV). Renderers
// only format; every number comes finished from the history (its view
// models, etbench/results/history_view.h).

#include <cstddef>
#include <string>
#include <vector>

#include "etbench/results/history_view.h"

namespace etbench::reports {

/// `history list`: "terminal" (one line per run) or "json".
std::string RenderRunList(const std::vector<history::RunSummary>& runs, const std::string& format);

/// `history show`: per metric the per-run lower decile (p10: what the
/// nightly gate and `history detect` judge), median and n, with the run's
/// commit and time: "terminal", "json" or "csv" (one row per metric × run;
/// p10 its last column).
std::string RenderSeries(const history::HistoryWindow& window, const std::string& format);

/// `history detect`: "terminal", "markdown" or "json".
std::string RenderDetection(const std::vector<history::SuiteDetection>& groups,
                            const std::string& format);

/// `gate --baseline history`: one line per model with a regression change
/// point that tonight's run confirmed (its Method::execute change, or the
/// part that added the most time, then the parts that moved with it and the
/// ids to acknowledge), and one line counting `older_open` (none when 0).
std::vector<std::string> RenderConfirmedChangePoints(
    const std::vector<history::ChangePoint>& confirmed, std::size_t older_open);

/// `gate --baseline history` on a night it does not judge (a history too
/// short: `nights` of `min_nights` before this run): the sentence after
/// "etbench gate: " and under the heading of the run's reports.
/// `restarted_at`: the commit of the change point the baseline restarted at
/// ("" when it did not). `fails`: tonight confirmed a regression change
/// point, so the night exits 1 ("(exit 1: …)"), else "(exit 0)".
std::string RenderNotJudged(std::size_t nights, std::size_t min_nights, const std::string& suite,
                            const std::string& machine, const std::string& history_name,
                            const std::string& restarted_at, bool fails);

}  // namespace etbench::reports
