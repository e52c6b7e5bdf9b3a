#pragma once
// Plain-text terminal summary of a comparison: the one-line verdict first,
// then regressions, improvements and inconclusive metrics, attribution,
// structure changes and warnings.

#include <cstddef>
#include <string>

#include "etbench/compare/comparison.h"

namespace etbench {

struct TextRenderOptions {
  /// Rows per table (the rest are counted); 0 = all.
  std::size_t max_rows = 20;
  /// Also list unchanged metrics.
  bool show_unchanged = false;
};

std::string RenderComparisonText(const Comparison& comparison,
                                 const TextRenderOptions& options = {});

/// "REGRESSION: 2 regressions, 1 improvement, 3 inconclusive, 40 unchanged"
std::string OutcomeLine(const Comparison& comparison);

}  // namespace etbench
