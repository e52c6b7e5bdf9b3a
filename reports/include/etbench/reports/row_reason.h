#pragma once
// The one renderer of a comparison row's notes (etbench/compare/row_note.h):
// the "reason" every report and the comparison JSON show. The engines say
// what happened as data; the sentences live here only.

#include <string>

#include "etbench/compare/comparison.h"

namespace etbench::reports {

/// The row's notes in words, in their order: what decided the verdict
/// ("significant change beyond the threshold"), then each qualifier with its
/// own separator (" (6 baseline vs 6 candidate repetitions)", "; machine
/// drift: …", ": budget spent (51 blocks, 120 s)"). Amounts are in the row's
/// unit (or percent on a log scale). "" for a row without notes; a stored
/// reason (StoredReasonNote) is its text as written.
std::string RowReason(const MetricComparison& row);

}  // namespace etbench::reports
