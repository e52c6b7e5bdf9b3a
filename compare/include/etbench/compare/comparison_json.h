#pragma once
// The comparison as stable JSON (schema_version 1, documented in
// docs/comparison.md): for CI artifacts and the reports library.

#include <string>

#include "etbench/compare/comparison.h"

namespace etbench {

inline constexpr int kComparisonSchemaVersion = 1;

/// Pretty-printed with `indent` spaces (compact when negative). Values that
/// were not computed (interval and MDE with too few samples) are null.
std::string ComparisonToJson(const Comparison& comparison, int indent = 2);

}  // namespace etbench
