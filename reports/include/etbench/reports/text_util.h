#pragma once
// Text helpers of the profiler renderers: torch.profiler's name truncation
// and trimming (UTF-8 widths, padding and CSV fields are etbench/base's).

#include <cstddef>
#include <string>
#include <string_view>

namespace etbench::analysis {

/// torch.profiler's rule: a name of max_width − 3 code points or more
/// becomes its first (max_width − 3) code points + "...". max_width is
/// taken as at least 4.
std::string TruncateName(std::string_view name, std::size_t max_width);

/// Removes trailing spaces.
std::string RightTrim(std::string text);

}  // namespace etbench::analysis
