#pragma once
// Reads the comparison JSON written by ComparisonToJson (schema_version 1,
// compare/comparison_json.h) back into a Comparison, so reports can be
// rendered from a stored comparison. Round trip: ComparisonToJson of the
// parsed value equals the input (for JSON that ComparisonToJson wrote).

#include <string>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/compare/comparison.h"

namespace etbench {

/// Errors name `source_name`, the JSON path ("metrics[3].verdict") and what
/// is wrong; another schema_version is "unsupported schema_version N (this
/// etbench reads 1)". null numbers read back as NaN. Attribution items name
/// their metric by label; the key is recovered from the comparison's rows
/// and structure changes with that label, else parsed from the label.
/// A row's "reason" becomes one StoredReasonNote with its text, and each of
/// "warnings" a TextWarning.
Result<Comparison> ParseComparisonJson(const std::string& json,
                                       const std::string& source_name);

/// Reads (through `disk`) and parses a comparison file.
Result<Comparison> ReadComparisonFile(const std::string& path, Disk& disk = DefaultDisk());

}  // namespace etbench
