#pragma once
// Pieces of text both history renderers write (history_render.cc, the
// commands' text; history_report_render.cc, the report page).

#include <string>

#include "etbench/results/history_view.h"

namespace etbench::reports::internal {

/// The first 12 characters of a commit.
std::string ShortCommit(const std::string& commit);

/// "before..after", each shortened, "?" for an unknown side.
std::string CommitRange(const std::string& before, const std::string& after);
/// "c19..c20": the change point's commit range.
std::string CommitRange(const history::ChangePoint& c);
/// "c19..c20": the machine shift's commit range.
std::string CommitRange(const history::MachineShift& m);

/// A fraction as a signed percentage: "+8.0%".
std::string SignedPercent(double fraction);
/// An interval of fractions as signed percentages: "[+6.1%, +9.9%]".
std::string SignedInterval(double low, double high);

/// "improvement", "REGRESSION" or "regression (acknowledged)".
std::string ChangeVerdict(const history::ChangePoint& c);

/// What shifted: "machine shift" (every operator), or "shift of block B"
/// (every metric of block B, e.g. the load path's Default block).
std::string ShiftName(const history::MachineShift& m);
/// "every operator" or "every B metric".
std::string ShiftedMetrics(const history::MachineShift& m);

/// What a machine shift is taken for (docs/history.md, "Machine shifts"):
/// "machine shift", "machine shift (came back)" or "machine shift or a code
/// change that slowed every operator".
std::string MachineShiftKind(const history::MachineShift& m);
/// MachineShiftKind, and for a regression ": acknowledged" or
/// ": REGRESSION until acknowledged".
std::string MachineShiftVerdict(const history::MachineShift& m);

}  // namespace etbench::reports::internal
