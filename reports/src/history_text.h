#pragma once
// Pieces of text both history renderers write (history_render.cc, the
// commands' text; history_report_render.cc, the report page).

#include <string>

#include "etbench/compare/history_view.h"

namespace etbench::reports::internal {

/// The first 12 characters of a commit.
std::string ShortCommit(const std::string& commit);

/// "before..after", each shortened, "?" for an unknown side.
std::string CommitRange(const std::string& before, const std::string& after);
/// "c19..c20": the change point's commit range.
std::string CommitRange(const history::ChangePoint& c);

/// A fraction as a signed percentage: "+8.0%".
std::string SignedPercent(double fraction);

/// "improvement", "REGRESSION" or "regression (acknowledged)".
std::string ChangeVerdict(const history::ChangePoint& c);

}  // namespace etbench::reports::internal
