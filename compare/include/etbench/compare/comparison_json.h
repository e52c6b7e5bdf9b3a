#pragma once
// The comparison as stable JSON (schema_version 1, documented in
// docs/comparison.md): for CI artifacts and the reports library.

#include <functional>
#include <string>

#include "etbench/compare/comparison.h"

namespace etbench {

inline constexpr int kComparisonSchemaVersion = 1;

/// A row's notes in words: the JSON's "reason". Compare writes the format
/// and never a sentence, so the caller passes the reports library's one
/// renderer, etbench::reports::RowReason (etbench/reports/row_reason.h).
using RowReasonText = std::function<std::string(const MetricComparison& row)>;

/// A warning in words: the JSON's "warnings". Likewise the caller passes
/// etbench::reports::WarningText (etbench/reports/warning_text.h).
using ComparisonWarningText = std::function<std::string(const ComparisonWarning& warning)>;

/// Pretty-printed with `indent` spaces (compact when negative). Values that
/// were not computed (interval and MDE with too few samples) are null.
std::string ComparisonToJson(const Comparison& comparison, const RowReasonText& reason,
                             const ComparisonWarningText& warning, int indent = 2);

}  // namespace etbench
